/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command line of wl_stream: the defaults and limits of the run
 * configuration (struct wl_cfg, with the workloads, pin modes and offloads
 * and their names, is the run's: wl/stream/run.h), the usage text and the
 * parsers for workloads, sizes (netperf suffixes: K/M/G = 2^10.., k/m/g =
 * 10^3..), durations and instance counts given relative to the online CPUs
 * ("cpus/4", "2*cpus", "50%").  Nothing here exits or prints: bad input
 * returns -1 with a one-line message, so the host unit tests can call it.
 */
#ifndef WL_STREAM_OPTS_H
#define WL_STREAM_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "wl/stream/cfg.h"

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
/* --serve's default bound on instances x (send + receive size). */
#define WL_SERVE_MAX_BUFFER		(256L << 20)
/*
 * The shared token of --serve/--remote: its length (WL_TOKEN_MAX:
 * wl/stream/run.h) and characters.
 */
#define WL_TOKEN_MIN			8
#define WL_TOKEN_CHARS \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~+/:-"
#define WL_TOKEN_ENV			"WL_STREAM_TOKEN"
#define WL_SCTP_MANY_MIN_RECV		16

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
	WL_OPT_ALL_TASKS,
	WL_OPT_PLAIN,
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
	WL_OPT_PROFILE,
};

/* Whether @s is a token wl_stream takes (length, characters). */
bool wl_token_ok(const char *s);

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
