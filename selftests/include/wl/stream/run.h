/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_stream's run state, in one place (lib/stream/run.c): the options, the
 * topology, the perf counters, the slots the workers share with the
 * controller, and what the engine that ran the workload leaves for the
 * report.  The engines (lib/stream/engine.c, lib/stream/netperf.c) and the
 * two-host control connection (lib/stream/remote.c) write it; the report
 * (lib/stream/report.c) reads it through a const pointer.  With it, the
 * types both sides name: the run configuration and its name tables, the
 * shared slots and the samples taken at the window's edges.  Nothing here
 * includes the engines' or the options' headers.
 */
#ifndef WL_STREAM_RUN_H
#define WL_STREAM_RUN_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "wl/core/hist.h"
#include "wl/kernel/cpustat.h"
#include "wl/kernel/perf.h"
#include "wl/kernel/schedstat.h"
#include "wl/kernel/topo.h"
#include "wl/stream/wakelab.h"

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
};

/* Request/response workloads (tcp_rr, tipc_rr). */
bool wl_workload_rr(int workload);
/* TIPC workloads (no IP: no --netns, no --remote). */
bool wl_workload_tipc(int workload);
/* SCTP workloads (sctp_stream, sctp_stream_many). */
bool wl_workload_sctp(int workload);
/* TCP, SCTP or TIPC streams: every byte sent must be received. */
bool wl_workload_reliable(int workload);

/*
 * The control protocol's version of --serve/--remote (lib/stream/remote.c);
 * a mismatch ends the session.  The report names it.
 */
#define WL_REMOTE_PROTO		1

enum wl_phase {
	WL_PH_SETUP,
	WL_PH_WARMUP,
	WL_PH_MEASURE,
	WL_PH_STOP,
};

/**
 * struct wl_slot - what one sender or receiver reports, in shared memory
 * @bytes:	payload bytes moved so far (single writer: the worker)
 * @msgs:	datagrams/messages (udp, sctp), transactions (tcp_rr)
 * @errors:	transient send errors (udp ENOBUFS)
 * @cpu:	CPU the worker ran on when it finished
 * @failed:	set with @msg when the worker gave up
 * @verify_fail: payload pattern mismatches seen (--verify)
 * @done:	the worker finished sending (udp receivers watch it)
 * @msg:	why it failed
 */
struct wl_slot {
	uint64_t bytes;
	uint64_t msgs;
	uint64_t errors;
	int32_t cpu;
	int32_t failed;
	int32_t verify_fail;
	int32_t done;
	char msg[160];
} __attribute__((aligned(64)));

/**
 * struct wl_inst - one sender/receiver pair
 * @snd:	the sender's (tcp_rr: client's) slot
 * @rcv:	the receiver's (tcp_rr: server's) slot
 * @snd_pin:	CPU the sender is pinned to, -1 unpinned
 * @rcv_pin:	CPU the receiver is pinned to, -1 unpinned
 * @lfd:	receiver-side socket the controller made (listening or bound)
 * @addr:	its address, which the sender connects or sends to
 * @addrlen:	the length of @addr
 * @pid:	sender and receiver processes (0 when reaped)
 * @tid:	sender and receiver threads (--threads)
 * @hist:	tcp_rr round-trip latencies inside the window
 */
struct wl_inst {
	struct wl_slot snd;
	struct wl_slot rcv;
	int snd_pin, rcv_pin;
	int lfd;
	struct sockaddr_storage addr;
	socklen_t addrlen;
	pid_t pid[2];
	pthread_t tid[2];
	struct wl_hist hist;
};

/**
 * struct wl_shared - the barrier and all slots, in one shared mapping
 * @phase:	enum wl_phase; a futex the workers wait on during setup
 * @ready:	workers done with setup
 * @finished:	workers done (threads mode)
 * @inst:	the instances
 */
struct wl_shared {
	uint32_t phase;
	uint32_t ready;
	uint32_t finished;
	struct wl_inst inst[];
};

/*
 * The SCTP MIB counters (/proc/net/sctp/snmp) that explain a stream that
 * stops: retransmission timeouts and the receiver's discards.
 */
#define WL_SCTP_MIB_NR	7
extern const char * const wl_sctp_mib[WL_SCTP_MIB_NR];

/* One sample of everything measured at a window edge. */
struct wl_sample {
	double t;
	uint64_t *snd_bytes, *rcv_bytes, *snd_msgs, *rcv_msgs;
	struct wl_cpustat cpu;
	bool cpu_ok;
	unsigned long long perf[WL_PERF_NR];
	struct wl_schedstat ss;
	int ss_ret;
	struct wl_wakelab wl;
};

#define WL_ENGINE_LEN	64

/**
 * struct wl_stream_run - the run: what the engines write, the report reads
 * @cfg:	the options (a --serve session: the client's, with the
 *		server's -p and -T)
 * @topo:	the online CPUs and their LLCs
 * @perf:	the perf counters of the window
 * @sh:		the barrier and every instance's slots, shared with the
 *		workers
 * @prog_gap:	per instance: the longest time inside the window it moved
 *		nothing, seconds
 * @engine:	what ran the workload: "wl_stream" (its own workers) or
 *		netperf with its version ("netperf 2.7.0")
 * @peer:	two hosts: the other host's address and port (a --serve
 *		server, before its first session: its own)
 * @schedstats:	kernel.sched_schedstats as the run left it, before it was
 *		restored: 1 on, 0 off, -1 unknown
 * @sctp:	the SCTP MIB's deltas over the span of wl_stream_sctp_begin()
 *		(when @sctp_ok)
 * @sctp_ok:	the workload is SCTP and @sctp was read
 */
struct wl_stream_run {
	struct wl_cfg cfg;
	struct wl_topo topo;
	struct wl_perf perf;
	struct wl_shared *sh;
	double *prog_gap;
	char engine[WL_ENGINE_LEN];
	char peer[WL_ADDR_LEN + 8];
	int schedstats;
	unsigned long long sctp[WL_SCTP_MIB_NR];
	bool sctp_ok;
};

/* The process's run (a --serve server: the session's, in its child). */
extern struct wl_stream_run wl_srun;

#endif /* WL_STREAM_RUN_H */
