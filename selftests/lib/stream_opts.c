// SPDX-License-Identifier: GPL-2.0
/* wl_stream's options: see wl/stream_opts.h. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl/stream_opts.h"
#include "wl/text.h"

const char * const wl_workload_names[WL_NR_WORKLOADS] = {
	"tcp_stream", "udp_stream", "sctp_stream", "sctp_stream_many", "tcp_rr",
};

/* Names as netperf spells them, for --brief. */
const char * const wl_workload_upper[WL_NR_WORKLOADS] = {
	"TCP_STREAM", "UDP_STREAM", "SCTP_STREAM", "SCTP_STREAM_MANY", "TCP_RR",
};

const char * const wl_pin_names[WL_NR_PINS] = {
	"none", "same-cpu", "same-llc", "cross-llc",
};

const char wl_stream_usage[] =
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
"  -j, --json         one JSON object on one line (schema: docs/wl_stream.md)\n"
"  -b, --brief        one line: \"TCP_STREAM-4 : Avg: 12701.5\"\n"
"  -v, --verify       check the payload pattern of every byte received\n"
"      --schedstats   enable kernel.sched_schedstats during the run\n"
"  -h, --help         this text\n"
"sizes take K/M/G (x1024) or k/m/g (x1000); exit 0 ok, 1 run or integrity\n"
"failure, 2 bad usage, 4 workload unsupported on this kernel\n";

static const struct option wl_long_opts[] = {
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
	{ "schedstats",	no_argument,		NULL, WL_OPT_SCHEDSTATS },
	{ "help",	no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int wl_parse_workload(const char *s)
{
	int i;

	for (i = 0; i < WL_NR_WORKLOADS; i++)
		if (!strcmp(s, wl_workload_names[i]))
			return i;
	return -1;
}

static int wl_parse_pin(const char *s)
{
	int i;

	for (i = 0; i < WL_NR_PINS; i++)
		if (!strcmp(s, wl_pin_names[i]))
			return i;
	return -1;
}

int wl_parse_size(const char *s, long max, long *out)
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
static int wl_parse_seconds(const char *s, double min, double max,
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

static int wl_parse_uint(const char *s, const char **end, long *out)
{
	char *e;
	long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &e, 10);
	if (errno || v > WL_MAX_INSTANCES * 100L)
		return -1;
	*end = e;
	*out = v;
	return 0;
}

int wl_resolve_instances(const char *s, int ncpus)
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

			if (wl_parse_uint(p, &p, &b) || *p || b < 1)
				return -1;
			n = op == '/' ? ncpus / b : (long)ncpus * b;
		} else {
			return -1;
		}
	} else {
		if (wl_parse_uint(p, &p, &a))
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
	if (n > WL_MAX_INSTANCES)
		return -1;
	return (int)n;
}

/* Fill in the per-workload defaults and check sizes against each other. */
static int wl_finish_cfg(struct wl_cfg *c, char *err, size_t len)
{
	bool rr = c->workload == WL_TCP_RR;
	bool udp = c->workload == WL_UDP_STREAM;

	if (!c->msg_size)
		c->msg_size = rr ? WL_STREAM_DEFAULT_RR_MSG :
			      udp ? WL_STREAM_DEFAULT_UDP_MSG : WL_STREAM_DEFAULT_STREAM_MSG;
	if (!c->recv_size)
		c->recv_size = rr ? WL_STREAM_DEFAULT_RR_MSG :
			       udp ? WL_STREAM_DEFAULT_UDP_RECV :
			       WL_STREAM_DEFAULT_STREAM_RECV;
	if (udp && c->msg_size > WL_UDP_MAX_MSG)
		return wl_err(err, len, "udp_stream: -m %ld exceeds %d bytes",
			      c->msg_size, WL_UDP_MAX_MSG);
	if (udp && c->recv_size < c->msg_size)
		return wl_err(err, len,
			      "udp_stream: -M %ld is smaller than -m %ld (datagrams would be truncated)",
			      c->recv_size, c->msg_size);
	if (c->json && c->brief)
		return wl_err(err, len, "--json and --brief exclude each other");
	c->instances = wl_resolve_instances(c->inst_spec, c->ncpus);
	if (c->instances < 0)
		return wl_err(err, len,
			      "bad instance count '%s' (N, cpus, cpus/K, K*cpus, P%%; 1..%d)",
			      c->inst_spec, WL_MAX_INSTANCES);
	return 0;
}

int wl_parse_opts(int argc, char **argv, int ncpus,
		  struct wl_cfg *c, char *err, size_t len)
{
	int opt, v;

	memset(c, 0, sizeof(*c));
	c->workload = WL_TCP_STREAM;
	strcpy(c->inst_spec, "1");
	c->ncpus = ncpus;
	c->duration = WL_STREAM_DEFAULT_DURATION;
	c->warmup = WL_STREAM_DEFAULT_WARMUP;
	err[0] = '\0';

	optind = 0;	/* Full re-initialisation, so tests can parse twice. */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":w:n:m:M:s:S:l:W:p:Tjbvh",
				  wl_long_opts, NULL)) != -1) {
		switch (opt) {
		case 'w':
			v = wl_parse_workload(optarg);
			if (v < 0)
				return wl_err(err, len, "unknown workload '%s'",
					      optarg);
			c->workload = v;
			break;
		case 'n':
			if (strlen(optarg) >= sizeof(c->inst_spec))
				return wl_err(err, len,
					      "bad instance count '%s'", optarg);
			strcpy(c->inst_spec, optarg);
			break;
		case 'm':
			if (wl_parse_size(optarg, WL_MAX_MSG, &c->msg_size))
				return wl_err(err, len,
					      "bad send size '%s' (1..64M)", optarg);
			break;
		case 'M':
			if (wl_parse_size(optarg, WL_MAX_MSG, &c->recv_size))
				return wl_err(err, len,
					      "bad receive size '%s' (1..64M)",
					      optarg);
			break;
		case 's':
		case 'S':
			if (wl_parse_size(optarg, 1L << 30,
					  opt == 's' ? &c->sndbuf : &c->rcvbuf))
				return wl_err(err, len,
					      "bad socket buffer size '%s' (1..1G)",
					      optarg);
			break;
		case 'l':
			if (wl_parse_seconds(optarg, 0.01, WL_MAX_DURATION,
					     &c->duration))
				return wl_err(err, len,
					      "bad duration '%s' (0.01..86400 s)",
					      optarg);
			break;
		case 'W':
			if (wl_parse_seconds(optarg, 0, 3600, &c->warmup))
				return wl_err(err, len,
					      "bad warm-up '%s' (0..3600 s)", optarg);
			break;
		case 'p':
			v = wl_parse_pin(optarg);
			if (v < 0)
				return wl_err(err, len,
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
		case WL_OPT_SCHEDSTATS:
			c->schedstats = true;
			break;
		case 'h':
			return 1;
		case ':':
			return wl_err(err, len, "option '%s' needs a value",
				      argv[optind - 1]);
		default:
			return wl_err(err, len, "unknown option '%s'",
				      argv[optind - 1]);
		}
	}
	if (optind < argc)
		return wl_err(err, len, "unexpected argument '%s'", argv[optind]);
	return wl_finish_cfg(c, err, len);
}
