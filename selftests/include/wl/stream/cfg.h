/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_stream's run configuration (lib/stream/cfg.c): the workloads, pin
 * modes and offloads with their names, struct wl_cfg as the command line
 * gives it, and the exit statuses.  The options (wl/stream/opts.h) fill it,
 * the run state (wl/stream/run.h) holds it; wl_compare reuses the option
 * parsers, and with them this, and nothing else of wl_stream.
 */
#ifndef WL_STREAM_CFG_H
#define WL_STREAM_CFG_H

#include <stdbool.h>

#define WL_EXIT_FAIL		1
#define WL_EXIT_USAGE		2
#define WL_EXIT_SKIP		4

enum wl_workload {
	WL_TCP_STREAM,
	WL_UDP_STREAM,
	WL_SCTP_STREAM,
	WL_SCTP_STREAM_MANY,
	WL_TCP_RR,
	WL_TIPC_STREAM,
	WL_TIPC_RR,
	WL_NR_WORKLOADS,
};

enum wl_pin {
	WL_PIN_NONE,
	WL_PIN_SAME_CPU,
	WL_PIN_SAME_LLC,
	WL_PIN_CROSS_LLC,
	WL_NR_PINS,
};

extern const char * const wl_workload_names[WL_NR_WORKLOADS];

/* Names as netperf spells them, for --brief. */
extern const char * const wl_workload_upper[WL_NR_WORKLOADS];

extern const char * const wl_pin_names[WL_NR_PINS];

/* An offload setting of --netns: leave as the kernel made it, off, on. */
enum wl_offload {
	WL_OFF_KEEP = -1,
	WL_OFF_OFF,
	WL_OFF_ON,
};

enum wl_offload_kind {
	WL_GRO,
	WL_TSO,
	WL_GSO,
	WL_NR_OFFLOADS,
};

extern const char * const wl_offload_names[WL_NR_OFFLOADS];

#define WL_ADDR_LEN			64
/* The longest shared token of --serve/--remote (wl/stream/opts.h). */
#define WL_TOKEN_MAX			128

/**
 * struct wl_cfg - one run of wl_stream, as given on the command line
 * @workload:	what to run
 * @netperf:	run Debian's netperf/netserver instead of wl_stream's
 *		workers (-w netperf:TEST; @workload is the matching wl_stream
 *		workload)
 * @inst_spec:	instance count as given ("4", "cpus/2", "50%")
 * @instances:	@inst_spec resolved against @ncpus, at least 1
 * @ncpus:	online CPUs the instance forms were resolved against
 * @threads:	senders and receivers are threads, not processes
 * @pin:	placement of senders and receivers
 * @msg_size:	bytes per send (request size for tcp_rr)
 * @recv_size:	bytes per receive call (response size for tcp_rr)
 * @sndbuf:	SO_SNDBUF/SO_RCVBUF of the sender's socket, 0 = default
 * @rcvbuf:	SO_SNDBUF/SO_RCVBUF of the receiver's socket, 0 = default
 * @duration:	measurement window in seconds
 * @warmup:	seconds run before the window opens, not measured
 * @json:	print one JSON object instead of the table
 * @brief:	print one line in the format of Peter's netperf loop
 * @verify:	check the payload pattern on every receive
 * @schedstats:	turn kernel.sched_schedstats on for the run, then restore
 * @all_tasks:	no workload cgroup: wakelab.ko counts every task's wakeups
 * @plain:	-w netperf:TEST as its users run it: no barrier, warm-up or
 *		interim records; the window is the netperfs' whole life
 * @netns:	senders and receivers in two network namespaces joined by veth
 * @offload:	--netns: GRO, TSO, GSO of both veth ends (enum wl_offload)
 * @serve:	serve two-host sessions (--serve) instead of running one
 * @remote:	run against the wl_stream --serve at @addr (--remote)
 * @receive:	--remote: the receivers run here, the senders on the server
 * @addr:	--serve: address to listen on ("" = 127.0.0.1); --remote: the
 *		server
 * @port:	control port of --serve/--remote
 * @sessions:	--serve: sessions to serve before exiting, 0 = no limit
 * @max_instances: --serve: most instances a client may ask for, 0 = default
 * @max_buffer:	--serve: most bytes of message buffers a client may ask
 *		for (instances x (send size + receive size)), 0 = default
 * @token:	--serve/--remote: the shared token (--token, else
 *		$WL_STREAM_TOKEN); "" = none, and a server then serves
 *		loopback clients only
 * @connect_timeout: --remote: seconds to keep trying to reach the server
 */
struct wl_cfg {
	enum wl_workload workload;
	bool netperf;
	char inst_spec[32];
	int instances;
	int ncpus;
	bool threads;
	enum wl_pin pin;
	long msg_size;
	long recv_size;
	long sndbuf;
	long rcvbuf;
	double duration;
	double warmup;
	bool json;
	bool brief;
	bool verify;
	bool schedstats;
	bool all_tasks;
	bool plain;
	bool netns;
	int offload[WL_NR_OFFLOADS];
	bool serve;
	bool remote;
	bool receive;
	char addr[WL_ADDR_LEN];
	int port;
	int sessions;
	int max_instances;
	long max_buffer;
	char token[WL_TOKEN_MAX + 1];
	double connect_timeout;
	char profile[256];
};

/* Request/response workloads (tcp_rr, tipc_rr). */
bool wl_workload_rr(int workload);
/* TIPC workloads (no IP: no --netns, no --remote). */
bool wl_workload_tipc(int workload);
/* SCTP workloads (sctp_stream, sctp_stream_many). */
bool wl_workload_sctp(int workload);
/* TCP, SCTP or TIPC streams: every byte sent must be received. */
bool wl_workload_reliable(int workload);

#endif /* WL_STREAM_CFG_H */
