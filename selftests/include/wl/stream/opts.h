/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command line of wl_stream: the run configuration, the usage text and the
 * parsers for workloads, sizes (netperf suffixes: K/M/G = 2^10.., k/m/g =
 * 10^3..), durations and instance counts given relative to the online CPUs
 * ("cpus/4", "2*cpus", "50%").  Nothing here exits or prints: bad input
 * returns -1 with a one-line message, so the host unit tests can call it.
 */
#ifndef WL_STREAM_OPTS_H
#define WL_STREAM_OPTS_H

#include <stdbool.h>
#include <stddef.h>

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

extern const char * const wl_workload_upper[WL_NR_WORKLOADS];

extern const char * const wl_pin_names[WL_NR_PINS];

#define WL_MAX_INSTANCES		4096
#define WL_MAX_MSG			(64L << 20)
#define WL_UDP_MAX_MSG			65507
#define WL_MAX_DURATION			86400.0
#define WL_STREAM_DEFAULT_DURATION	10.0
#define WL_STREAM_DEFAULT_WARMUP	1.0
#define WL_STREAM_DEFAULT_STREAM_MSG	(16L << 10)
#define WL_STREAM_DEFAULT_STREAM_RECV	(128L << 10)
#define WL_STREAM_DEFAULT_UDP_MSG	1472
#define WL_STREAM_DEFAULT_UDP_RECV	65536
#define WL_STREAM_DEFAULT_RR_MSG	1
#define WL_STREAM_DEFAULT_PORT		12867
#define WL_STREAM_DEFAULT_CONNECT_S	10.0
#define WL_ADDR_LEN			64
/* --serve's default bound on instances x (send + receive size). */
#define WL_SERVE_MAX_BUFFER		(256L << 20)
/* The shared token of --serve/--remote: its length and characters. */
#define WL_TOKEN_MIN			8
#define WL_TOKEN_MAX			128
#define WL_TOKEN_CHARS \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~+/:-"
#define WL_TOKEN_ENV			"WL_STREAM_TOKEN"
#define WL_SCTP_MANY_MIN_RECV		16

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

/**
 * struct wl_cfg - one run of wl_stream, as given on the command line
 * @workload:	what to run
 * @netperf:	run Debian's netperf/netserver instead of wl_stream's workers
 *		(-w netperf:TEST; @workload is the matching wl_stream workload)
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
 * @max_buffer:	--serve: most bytes of message buffers a client may ask for
 *		(instances x (send size + receive size)), 0 = default
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

extern const char wl_stream_usage[];

/*
 * Workload by name; -1 when unknown.  "netperf:TEST" (TCP_STREAM,
 * UDP_STREAM, TCP_RR, SCTP_STREAM) gives the matching wl_stream workload:
 * wl_workload_netperf() tells the two apart.
 */
int wl_parse_workload(const char *s);
/* Whether @s names a netperf test ("netperf:..."). */
bool wl_workload_netperf(const char *s);

#define WL_NETPERF_PREFIX	"netperf:"

/*
 * Parse a size with an optional netperf suffix into *out; 0 or -1.  Must be
 * in 1..@max.
 */
int wl_parse_size(const char *s, long max, long *out);

/*
 * Resolve an instance count against @ncpus online CPUs: "N", "cpus",
 * "cpus/K", "K*cpus", "cpus*K", "P%".  Relative forms round down and are at
 * least 1; a literal 0 is an error.  Returns the count or -1.
 */
int wl_resolve_instances(const char *s, int ncpus);

enum {
	WL_OPT_SCHEDSTATS = 256,
	WL_OPT_NETNS,
	WL_OPT_GRO,
	WL_OPT_TSO,
	WL_OPT_GSO,
	WL_OPT_SERVE,
	WL_OPT_REMOTE,
	WL_OPT_RECEIVE,
	WL_OPT_PORT,
	WL_OPT_SESSIONS,
	WL_OPT_MAX_INSTANCES,
	WL_OPT_CONNECT_TIMEOUT,
	WL_OPT_MAX_BUFFER,
	WL_OPT_TOKEN,
};

/* Whether @s is a token wl_stream takes (length, characters). */
bool wl_token_ok(const char *s);

/* Request/response workloads (tcp_rr, tipc_rr). */
bool wl_workload_rr(int workload);
/* TIPC workloads (no IP: no --netns, no --remote). */
bool wl_workload_tipc(int workload);

/*
 * The session settings a --remote client sends and a --serve server takes:
 * the workload's options as one line of "key=value" words, and back.
 * wl_session_parse() checks them as the command line would; 0 or -1.
 */
int wl_session_format(const struct wl_cfg *c, char *buf, size_t len);
int wl_session_parse(const char *line, int ncpus, struct wl_cfg *c,
		     char *err, size_t len);

/**
 * wl_parse_opts() - parse the wl_stream command line into @c
 * @argc, @argv: the command line
 * @ncpus: online CPUs, for the relative instance forms
 * @c: filled in with defaults, then the options
 * @err, @len: one-line message on error
 *
 * Return: 0 to run, 1 when help was asked for, -1 on bad usage.
 */
int wl_parse_opts(int argc, char **argv, int ncpus,
		  struct wl_cfg *c, char *err, size_t len);

#endif /* WL_STREAM_OPTS_H */
