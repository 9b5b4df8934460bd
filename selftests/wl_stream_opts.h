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

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum ws_workload {
	WS_TCP_STREAM,
	WS_UDP_STREAM,
	WS_SCTP_STREAM,
	WS_SCTP_STREAM_MANY,
	WS_TCP_RR,
	WS_NR_WORKLOADS,
};

enum ws_pin {
	WS_PIN_NONE,
	WS_PIN_SAME_CPU,
	WS_PIN_SAME_LLC,
	WS_PIN_CROSS_LLC,
	WS_NR_PINS,
};

static const char * const ws_workload_names[WS_NR_WORKLOADS] = {
	"tcp_stream", "udp_stream", "sctp_stream", "sctp_stream_many", "tcp_rr",
};

/* Names as netperf spells them, for --brief. */
static const char * const ws_workload_upper[WS_NR_WORKLOADS] = {
	"TCP_STREAM", "UDP_STREAM", "SCTP_STREAM", "SCTP_STREAM_MANY", "TCP_RR",
};

static const char * const ws_pin_names[WS_NR_PINS] = {
	"none", "same-cpu", "same-llc", "cross-llc",
};

#define WS_MAX_INSTANCES	4096
#define WS_MAX_MSG		(64L << 20)
#define WS_UDP_MAX_MSG		65507
#define WS_MAX_DURATION		86400.0
#define WS_DEFAULT_DURATION	10.0
#define WS_DEFAULT_WARMUP	1.0
#define WS_DEFAULT_STREAM_MSG	(16L << 10)
#define WS_DEFAULT_STREAM_RECV	(128L << 10)
#define WS_DEFAULT_UDP_MSG	1472
#define WS_DEFAULT_UDP_RECV	65536
#define WS_DEFAULT_RR_MSG	1

/**
 * struct ws_cfg - one run of wl_stream, as given on the command line
 * @workload:	what to run
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
 */
struct ws_cfg {
	enum ws_workload workload;
	char inst_spec[32];
	int instances;
	int ncpus;
	bool threads;
	enum ws_pin pin;
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
};

static const char ws_usage[] =
"usage: wl_stream [-w WORKLOAD] [-n N] [-m BYTES] [-M BYTES] [-s BYTES]\n"
"                 [-S BYTES] [-l SEC] [-W SEC] [-p PIN] [-T] [-j|-b] [-v]\n"
"                 [--schedstats]\n"
"  -w, --workload W   tcp_stream (default), udp_stream, sctp_stream,\n"
"                     sctp_stream_many, tcp_rr\n"
"  -n, --instances N  sender/receiver pairs: a number, cpus, cpus/K,\n"
"                     K*cpus or P% of the online CPUs (min 1; default 1)\n"
"  -m, --msg-size B   bytes per send; tcp_rr: request size (default:\n"
"                     16K tcp/sctp, 1472 udp, 1 tcp_rr)\n"
"  -M, --recv-size B  bytes per receive; tcp_rr: response size (default:\n"
"                     128K tcp/sctp, 65536 udp, 1 tcp_rr)\n"
"  -s, --local-buf B  SO_SNDBUF+SO_RCVBUF of each sender (default: system)\n"
"  -S, --remote-buf B SO_SNDBUF+SO_RCVBUF of each receiver (default: system)\n"
"  -l, --duration S   measurement window, seconds (default 10)\n"
"  -W, --warmup S     warm-up before the window, not measured (default 1)\n"
"  -p, --pin MODE     none (default), same-cpu, same-llc, cross-llc\n"
"  -T, --threads      threads instead of one process per sender/receiver\n"
"  -j, --json         one JSON object on one line (schema in README)\n"
"  -b, --brief        one line: \"TCP_STREAM-4 : Avg: 12701.5\"\n"
"  -v, --verify       check the payload pattern of every byte received\n"
"      --schedstats   enable kernel.sched_schedstats during the run\n"
"  -h, --help         this text\n"
"sizes take K/M/G (x1024) or k/m/g (x1000); exit 0 ok, 1 run or integrity\n"
"failure, 2 bad usage, 4 workload unsupported on this kernel\n";

static inline int ws_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* Workload by name; -1 when unknown. */
static inline int ws_parse_workload(const char *s)
{
	int i;

	for (i = 0; i < WS_NR_WORKLOADS; i++)
		if (!strcmp(s, ws_workload_names[i]))
			return i;
	return -1;
}

static inline int ws_parse_pin(const char *s)
{
	int i;

	for (i = 0; i < WS_NR_PINS; i++)
		if (!strcmp(s, ws_pin_names[i]))
			return i;
	return -1;
}

/*
 * Parse a size with an optional netperf suffix into *out; 0 or -1.  Must be
 * in 1..@max.
 */
static inline int ws_parse_size(const char *s, long max, long *out)
{
	unsigned long long v, mul = 1;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'K':
		mul = 1ULL << 10;
		break;
	case 'M':
		mul = 1ULL << 20;
		break;
	case 'G':
		mul = 1ULL << 30;
		break;
	case 'k':
		mul = 1000ULL;
		break;
	case 'm':
		mul = 1000000ULL;
		break;
	case 'g':
		mul = 1000000000ULL;
		break;
	default:
		break;
	}
	if (mul != 1)
		end++;
	if (*end || v == 0 || v > (unsigned long long)max / mul)
		return -1;
	*out = (long)(v * mul);
	return 0;
}

/* Parse seconds ("2", "0.5") in @min..@max; 0 or -1. */
static inline int ws_parse_seconds(const char *s, double min, double max,
				   double *out)
{
	char *end;
	double v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static inline int ws_parse_uint(const char *s, const char **end, long *out)
{
	char *e;
	long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &e, 10);
	if (errno || v > WS_MAX_INSTANCES * 100L)
		return -1;
	*end = e;
	*out = v;
	return 0;
}

/*
 * Resolve an instance count against @ncpus online CPUs: "N", "cpus",
 * "cpus/K", "K*cpus", "cpus*K", "P%".  Relative forms round down and are at
 * least 1; a literal 0 is an error.  Returns the count or -1.
 */
static inline int ws_resolve_instances(const char *s, int ncpus)
{
	const char *p = s;
	long a, b, n;

	if (ncpus < 1)
		return -1;
	if (!strncmp(p, "cpus", 4)) {
		p += 4;
		if (!*p) {
			n = ncpus;
		} else if (*p == '/' || *p == '*') {
			char op = *p++;

			if (ws_parse_uint(p, &p, &b) || *p || b < 1)
				return -1;
			n = op == '/' ? ncpus / b : (long)ncpus * b;
		} else {
			return -1;
		}
	} else {
		if (ws_parse_uint(p, &p, &a))
			return -1;
		if (!*p) {
			if (a < 1)
				return -1;
			n = a;
		} else if (*p == '%' && !p[1]) {
			if (a < 1)
				return -1;
			n = (long)ncpus * a / 100;
		} else if (*p == '*' && !strcmp(p + 1, "cpus")) {
			if (a < 1)
				return -1;
			n = (long)ncpus * a;
		} else {
			return -1;
		}
	}
	if (n < 1)
		n = 1;
	if (n > WS_MAX_INSTANCES)
		return -1;
	return (int)n;
}

enum { WS_OPT_SCHEDSTATS = 256 };

static const struct option ws_long_opts[] = {
	{ "workload",	required_argument,	NULL, 'w' },
	{ "instances",	required_argument,	NULL, 'n' },
	{ "msg-size",	required_argument,	NULL, 'm' },
	{ "recv-size",	required_argument,	NULL, 'M' },
	{ "local-buf",	required_argument,	NULL, 's' },
	{ "remote-buf",	required_argument,	NULL, 'S' },
	{ "duration",	required_argument,	NULL, 'l' },
	{ "warmup",	required_argument,	NULL, 'W' },
	{ "pin",	required_argument,	NULL, 'p' },
	{ "threads",	no_argument,		NULL, 'T' },
	{ "json",	no_argument,		NULL, 'j' },
	{ "brief",	no_argument,		NULL, 'b' },
	{ "verify",	no_argument,		NULL, 'v' },
	{ "schedstats",	no_argument,		NULL, WS_OPT_SCHEDSTATS },
	{ "help",	no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Fill in the per-workload defaults and check sizes against each other. */
static inline int ws_finish_cfg(struct ws_cfg *c, char *err, size_t len)
{
	bool rr = c->workload == WS_TCP_RR;
	bool udp = c->workload == WS_UDP_STREAM;

	if (!c->msg_size)
		c->msg_size = rr ? WS_DEFAULT_RR_MSG :
			      udp ? WS_DEFAULT_UDP_MSG : WS_DEFAULT_STREAM_MSG;
	if (!c->recv_size)
		c->recv_size = rr ? WS_DEFAULT_RR_MSG :
			       udp ? WS_DEFAULT_UDP_RECV :
			       WS_DEFAULT_STREAM_RECV;
	if (udp && c->msg_size > WS_UDP_MAX_MSG)
		return ws_err(err, len, "udp_stream: -m %ld exceeds %d bytes",
			      c->msg_size, WS_UDP_MAX_MSG);
	if (udp && c->recv_size < c->msg_size)
		return ws_err(err, len,
			      "udp_stream: -M %ld is smaller than -m %ld (datagrams would be truncated)",
			      c->recv_size, c->msg_size);
	if (c->json && c->brief)
		return ws_err(err, len, "--json and --brief exclude each other");
	c->instances = ws_resolve_instances(c->inst_spec, c->ncpus);
	if (c->instances < 0)
		return ws_err(err, len,
			      "bad instance count '%s' (N, cpus, cpus/K, K*cpus, P%%; 1..%d)",
			      c->inst_spec, WS_MAX_INSTANCES);
	return 0;
}

/**
 * ws_parse_opts() - parse the wl_stream command line into @c
 * @argc, @argv: the command line
 * @ncpus: online CPUs, for the relative instance forms
 * @c: filled in with defaults, then the options
 * @err, @len: one-line message on error
 *
 * Return: 0 to run, 1 when help was asked for, -1 on bad usage.
 */
static inline int ws_parse_opts(int argc, char **argv, int ncpus,
				struct ws_cfg *c, char *err, size_t len)
{
	int opt, v;

	memset(c, 0, sizeof(*c));
	c->workload = WS_TCP_STREAM;
	strcpy(c->inst_spec, "1");
	c->ncpus = ncpus;
	c->duration = WS_DEFAULT_DURATION;
	c->warmup = WS_DEFAULT_WARMUP;
	err[0] = '\0';

	optind = 0;	/* Full re-initialisation, so tests can parse twice. */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":w:n:m:M:s:S:l:W:p:Tjbvh",
				  ws_long_opts, NULL)) != -1) {
		switch (opt) {
		case 'w':
			v = ws_parse_workload(optarg);
			if (v < 0)
				return ws_err(err, len, "unknown workload '%s'",
					      optarg);
			c->workload = v;
			break;
		case 'n':
			if (strlen(optarg) >= sizeof(c->inst_spec))
				return ws_err(err, len,
					      "bad instance count '%s'", optarg);
			strcpy(c->inst_spec, optarg);
			break;
		case 'm':
			if (ws_parse_size(optarg, WS_MAX_MSG, &c->msg_size))
				return ws_err(err, len,
					      "bad send size '%s' (1..64M)", optarg);
			break;
		case 'M':
			if (ws_parse_size(optarg, WS_MAX_MSG, &c->recv_size))
				return ws_err(err, len,
					      "bad receive size '%s' (1..64M)",
					      optarg);
			break;
		case 's':
		case 'S':
			if (ws_parse_size(optarg, 1L << 30,
					  opt == 's' ? &c->sndbuf : &c->rcvbuf))
				return ws_err(err, len,
					      "bad socket buffer size '%s' (1..1G)",
					      optarg);
			break;
		case 'l':
			if (ws_parse_seconds(optarg, 0.01, WS_MAX_DURATION,
					     &c->duration))
				return ws_err(err, len,
					      "bad duration '%s' (0.01..86400 s)",
					      optarg);
			break;
		case 'W':
			if (ws_parse_seconds(optarg, 0, 3600, &c->warmup))
				return ws_err(err, len,
					      "bad warm-up '%s' (0..3600 s)", optarg);
			break;
		case 'p':
			v = ws_parse_pin(optarg);
			if (v < 0)
				return ws_err(err, len,
					      "unknown pin mode '%s' (none, same-cpu, same-llc, cross-llc)",
					      optarg);
			c->pin = v;
			break;
		case 'T':
			c->threads = true;
			break;
		case 'j':
			c->json = true;
			break;
		case 'b':
			c->brief = true;
			break;
		case 'v':
			c->verify = true;
			break;
		case WS_OPT_SCHEDSTATS:
			c->schedstats = true;
			break;
		case 'h':
			return 1;
		case ':':
			return ws_err(err, len, "option '%s' needs a value",
				      argv[optind - 1]);
		default:
			return ws_err(err, len, "unknown option '%s'",
				      argv[optind - 1]);
		}
	}
	if (optind < argc)
		return ws_err(err, len, "unexpected argument '%s'", argv[optind]);
	return ws_finish_cfg(c, err, len);
}

#endif /* WL_STREAM_OPTS_H */
