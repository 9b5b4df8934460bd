// SPDX-License-Identifier: GPL-2.0
/* wl_stream's options: see wl/stream/opts.h. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>

#include "wl/stream/opts.h"
#include "wl/core/text.h"

const char wl_stream_usage[] =
"usage: wl_stream [-w WORKLOAD] [-n N] [-m BYTES] [-M BYTES] [-s BYTES]\n"
"                 [-S BYTES] [-l SEC] [-W SEC] [-p PIN] [-T] [-j|-b] [-v]\n"
"                 [--schedstats] [--all-tasks] [--plain] [--profile DIR]\n"
"                 [--netns [--gro|--tso|--gso on|off]]\n"
"                 [--remote ADDR [--receive] [--connect-timeout SEC]\n"
"                 [--token T]]\n"
"       wl_stream --serve[=ADDR] [--sessions N] [--max-instances N]\n"
"                 [--max-buffer B] [--token T] [-p PIN] [-T]\n"
"  -w, --workload W   tcp_stream (default), udp_stream, sctp_stream,\n"
"                     sctp_stream_many, tcp_rr, tipc_stream, tipc_rr; or\n"
"                     netperf:TEST (TCP_STREAM, UDP_STREAM, TCP_RR): the same\n"
"                     run with Debian's netperf and netserver as the engine\n"
"  -n, --instances N  sender/receiver pairs: a number, cpus, cpus/K,\n"
"                     K*cpus or P% of the online CPUs (min 1; default 1)\n"
"  -m, --msg-size B   bytes per send; rr: request size (default:\n"
"                     16K tcp/sctp/tipc, 1472 udp, 1 rr)\n"
"  -M, --recv-size B  bytes per receive; rr: response size (default:\n"
"                     128K tcp/sctp/tipc, 65536 udp, 1 rr)\n"
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
"      --all-tasks    wakelab.ko counts every task's wakeups in placement, as\n"
"                     with no workload cgroup (default: the workers run in\n"
"                     a cgroup of their own, every other task is counted in\n"
"                     placement_others)\n"
"      --plain        with -w netperf:TCP_STREAM or netperf:TCP_RR: netperf\n"
"                     as its users run it (N plain netperf -l SEC -- -m B at\n"
"                     once, no -M; the window from their start to the last\n"
"                     one's end; each netperf's own result)\n"
"      --profile DIR  Linux's perf over the window: perf record -a -g\n"
"                     (cycles, or cpu-clock without a PMU) and perf stat -a\n"
"                     into DIR (perf.data, stat.csv, kallsyms), each kernel\n"
"                     symbol's share and the counters in the report;\n"
"                     either engine, --plain too (not --serve)\n"
"      --netns        senders and receivers in two network namespaces joined\n"
"                     by a veth pair (iproute2's ip; IP workloads)\n"
"      --gro, --tso, --gso on|off\n"
"                     with --netns: that offload of both veth ends (default:\n"
"                     as the kernel sets it; printed either way)\n"
"      --remote ADDR  two hosts: the receivers (tcp_rr: servers) run on the\n"
"                     wl_stream --serve at ADDR, the senders here\n"
"      --receive      with --remote: the receivers run here, the senders there\n"
"      --connect-timeout S  keep trying to reach the server for S seconds\n"
"                     (default 10)\n"
"      --serve[=ADDR] serve --remote runs, one at a time, on ADDR (default:\n"
"                     127.0.0.1; 0.0.0.0 is every address); the client's\n"
"                     options apply; a client while one is served is told\n"
"                     \"busy: serving PEER until TIME\" at once\n"
"      --sessions N   with --serve: exit after N sessions (default: never)\n"
"      --max-instances N  with --serve: refuse clients asking for more\n"
"                     (default: 16 per online CPU, at least 64)\n"
"      --max-buffer B with --serve: refuse clients whose instances x (-m +\n"
"                     -M) exceed B bytes (default 256M)\n"
"      --token T      --serve: serve only clients that send T; --remote:\n"
"                     send T (default: $WL_STREAM_TOKEN; without one a\n"
"                     server serves loopback clients only); 8..128 of\n"
"                     A-Z a-z 0-9 . _ ~ + / : -\n"
"      --port P       control port of --serve and --remote (default 12867)\n"
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
	{ "all-tasks",	no_argument,		NULL, WL_OPT_ALL_TASKS },
	{ "plain",	no_argument,		NULL, WL_OPT_PLAIN },
	{ "netns",	no_argument,		NULL, WL_OPT_NETNS },
	{ "gro",	required_argument,	NULL, WL_OPT_GRO },
	{ "tso",	required_argument,	NULL, WL_OPT_TSO },
	{ "gso",	required_argument,	NULL, WL_OPT_GSO },
	{ "serve",	optional_argument,	NULL, WL_OPT_SERVE },
	{ "remote",	required_argument,	NULL, WL_OPT_REMOTE },
	{ "receive",	no_argument,		NULL, WL_OPT_RECEIVE },
	{ "port",	required_argument,	NULL, WL_OPT_PORT },
	{ "sessions",	required_argument,	NULL, WL_OPT_SESSIONS },
	{ "max-instances", required_argument,	NULL, WL_OPT_MAX_INSTANCES },
	{ "connect-timeout", required_argument,	NULL, WL_OPT_CONNECT_TIMEOUT },
	{ "max-buffer",	required_argument,	NULL, WL_OPT_MAX_BUFFER },
	{ "token",	required_argument,	NULL, WL_OPT_TOKEN },
	{ "profile",	required_argument,	NULL, WL_OPT_PROFILE },
	{ "help",	no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

bool wl_token_ok(const char *s)
{
	size_t n = strlen(s);

	return n >= WL_TOKEN_MIN && n <= WL_TOKEN_MAX &&
	       strspn(s, WL_TOKEN_CHARS) == n;
}

bool wl_workload_netperf(const char *s)
{
	return !strncmp(s, WL_NETPERF_PREFIX, strlen(WL_NETPERF_PREFIX));
}

/* The netperf tests the netperf engine knows (lib/stream/netperf.c). */
static const int wl_netperf_tests[] = {
	WL_TCP_STREAM, WL_UDP_STREAM, WL_TCP_RR, WL_SCTP_STREAM,
};

int wl_parse_workload(const char *s)
{
	unsigned int k;
	int i;

	if (wl_workload_netperf(s)) {
		s += strlen(WL_NETPERF_PREFIX);
		for (k = 0; k < sizeof(wl_netperf_tests) / sizeof(int); k++)
			if (!strcmp(s, wl_workload_upper[wl_netperf_tests[k]]))
				return wl_netperf_tests[k];
		return -1;
	}
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
	bool rr = wl_workload_rr(c->workload);
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
	if (c->workload == WL_SCTP_STREAM_MANY &&
	    c->recv_size < WL_SCTP_MANY_MIN_RECV)
		return wl_err(err, len,
			      "sctp_stream_many needs -M >= %d (notifications)",
			      WL_SCTP_MANY_MIN_RECV);
	if ((c->netns || c->remote) && wl_workload_tipc(c->workload))
		return wl_err(err, len,
			      "%s: TIPC runs node-local only (no --netns, no --remote)",
			      wl_workload_names[c->workload]);
	c->instances = wl_resolve_instances(c->inst_spec, c->ncpus);
	if (c->instances < 0)
		return wl_err(err, len,
			      "bad instance count '%s' (N, cpus, cpus/K, K*cpus, P%%; 1..%d)",
			      c->inst_spec, WL_MAX_INSTANCES);
	return 0;
}

static int wl_parse_onoff(const char *s)
{
	if (!strcmp(s, "on"))
		return WL_OFF_ON;
	if (!strcmp(s, "off"))
		return WL_OFF_OFF;
	return -2;
}

/* An address wl_stream can use: dotted IPv4, at most WL_ADDR_LEN - 1. */
static int wl_parse_addr(const char *s, char *out)
{
	struct in_addr a;

	if (strlen(s) >= WL_ADDR_LEN || inet_pton(AF_INET, s, &a) != 1)
		return -1;
	strcpy(out, s);
	return 0;
}

static void wl_cfg_defaults(struct wl_cfg *c, int ncpus)
{
	int k;

	memset(c, 0, sizeof(*c));
	c->workload = WL_TCP_STREAM;
	strcpy(c->inst_spec, "1");
	c->ncpus = ncpus;
	c->duration = WL_STREAM_DEFAULT_DURATION;
	c->warmup = WL_STREAM_DEFAULT_WARMUP;
	c->port = WL_STREAM_DEFAULT_PORT;
	c->connect_timeout = WL_STREAM_DEFAULT_CONNECT_S;
	for (k = 0; k < WL_NR_OFFLOADS; k++)
		c->offload[k] = WL_OFF_KEEP;
}

/*
 * The options that are the client's to choose in a two-host session: a
 * server takes them from each client, not from its command line.
 */
static const char wl_session_opts[] = "wnmMsSlWjbv";

/* How the modes combine; 0 or -1 with @err. */
static int wl_check_modes(struct wl_cfg *c, const char *given, bool offload,
			  char *err, size_t len)
{
	if (c->serve && (c->remote || c->netns || c->schedstats))
		return wl_err(err, len,
			      "--serve excludes --remote, --netns and --schedstats");
	if (c->serve && given[0])
		return wl_err(err, len,
			      "--serve: -%c is the client's to choose (the server takes the workload, sizes and window from each --remote client)",
			      given[0]);
	if (c->remote && c->netns)
		return wl_err(err, len, "--remote and --netns exclude each other");
	if (c->profile[0] && c->serve)
		return wl_err(err, len,
			      "--profile: the window of a run on this host (a --remote client's, not --serve's)");
	if (offload && !c->netns)
		return wl_err(err, len, "--gro, --tso and --gso need --netns");
	if (c->receive && !c->remote)
		return wl_err(err, len, "--receive needs --remote");
	if (c->plain && (!c->netperf || (c->workload != WL_TCP_STREAM &&
					 c->workload != WL_TCP_RR)))
		return wl_err(err, len,
			      "--plain needs -w netperf:TCP_STREAM or netperf:TCP_RR");
	/* netperf runs its own processes over loopback, as it is. */
	if (c->netperf && (c->threads || c->verify || c->netns || c->remote ||
			   c->serve))
		return wl_err(err, len,
			      "netperf:%s: netperf cannot honour %s (it runs one netperf process per instance against one netserver on loopback, without payload checks)",
			      wl_workload_upper[c->workload],
			      c->threads ? "--threads" : c->verify ? "--verify" :
			      c->netns ? "--netns" : c->remote ? "--remote" :
			      "--serve");
	return 0;
}

int wl_parse_opts(int argc, char **argv, int ncpus,
		  struct wl_cfg *c, char *err, size_t len)
{
	char given[sizeof(wl_session_opts)] = "";
	bool offload = false, port = false, sessions = false, ct = false;
	bool maxbuf = false, token = false;
	const char *env;
	const char *end;
	long lv;
	int opt, v;

	wl_cfg_defaults(c, ncpus);
	err[0] = '\0';

	optind = 0;	/* Full re-initialisation, so tests can parse twice. */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":w:n:m:M:s:S:l:W:p:Tjbvh",
				  wl_long_opts, NULL)) != -1) {
		if (opt > 0 && opt < 128 && strchr(wl_session_opts, opt) &&
		    !strchr(given, opt))
			given[strlen(given)] = (char)opt;
		switch (opt) {
		case 'w':
			v = wl_parse_workload(optarg);
			if (v < 0 && wl_workload_netperf(optarg))
				return wl_err(err, len,
					      "unknown netperf test '%s' (netperf:TCP_STREAM, netperf:UDP_STREAM, netperf:TCP_RR, netperf:SCTP_STREAM)",
					      optarg + strlen(WL_NETPERF_PREFIX));
			if (v < 0)
				return wl_err(err, len, "unknown workload '%s'",
					      optarg);
			c->workload = v;
			c->netperf = wl_workload_netperf(optarg);
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
		case WL_OPT_ALL_TASKS:
			c->all_tasks = true;
			break;
		case WL_OPT_PLAIN:
			c->plain = true;
			break;
		case WL_OPT_PROFILE:
			if (!optarg[0] || strlen(optarg) >= sizeof(c->profile))
				return wl_err(err, len,
					      "--profile: a directory of 1 to %zu characters",
					      sizeof(c->profile) - 1);
			snprintf(c->profile, sizeof(c->profile), "%s", optarg);
			break;
		case WL_OPT_NETNS:
			c->netns = true;
			break;
		case WL_OPT_GRO:
		case WL_OPT_TSO:
		case WL_OPT_GSO:
			v = wl_parse_onoff(optarg);
			if (v < -1)
				return wl_err(err, len, "--%s takes on or off, got '%s'",
					      wl_offload_names[opt - WL_OPT_GRO],
					      optarg);
			c->offload[opt - WL_OPT_GRO] = v;
			offload = true;
			break;
		case WL_OPT_SERVE:
			c->serve = true;
			if (optarg && wl_parse_addr(optarg, c->addr))
				return wl_err(err, len,
					      "--serve: bad address '%s' (an IPv4 address)",
					      optarg);
			break;
		case WL_OPT_REMOTE:
			c->remote = true;
			if (wl_parse_addr(optarg, c->addr))
				return wl_err(err, len,
					      "--remote: bad address '%s' (an IPv4 address)",
					      optarg);
			break;
		case WL_OPT_RECEIVE:
			c->receive = true;
			break;
		case WL_OPT_PORT:
			if (wl_parse_uint(optarg, &end, &lv) || *end ||
			    lv < 1 || lv > 65535)
				return wl_err(err, len, "bad port '%s' (1..65535)",
					      optarg);
			c->port = (int)lv;
			port = true;
			break;
		case WL_OPT_SESSIONS:
			if (wl_parse_uint(optarg, &end, &lv) || *end ||
			    lv < 1 || lv > 100000)
				return wl_err(err, len,
					      "bad session count '%s' (1..100000)",
					      optarg);
			c->sessions = (int)lv;
			sessions = true;
			break;
		case WL_OPT_MAX_INSTANCES:
			if (wl_parse_uint(optarg, &end, &lv) || *end ||
			    lv < 1 || lv > WL_MAX_INSTANCES)
				return wl_err(err, len,
					      "bad instance limit '%s' (1..%d)",
					      optarg, WL_MAX_INSTANCES);
			c->max_instances = (int)lv;
			sessions = true;
			break;
		case WL_OPT_MAX_BUFFER:
			if (wl_parse_size(optarg, 1L << 40, &c->max_buffer))
				return wl_err(err, len,
					      "bad buffer limit '%s' (1..1024G)",
					      optarg);
			maxbuf = true;
			break;
		case WL_OPT_TOKEN:
			if (!wl_token_ok(optarg))
				return wl_err(err, len,
					      "bad token (%d..%d characters of A-Z a-z 0-9 . _ ~ + / : -)",
					      WL_TOKEN_MIN, WL_TOKEN_MAX);
			strcpy(c->token, optarg);
			token = true;
			break;
		case WL_OPT_CONNECT_TIMEOUT:
			if (wl_parse_seconds(optarg, 0.1, 3600, &c->connect_timeout))
				return wl_err(err, len,
					      "bad connect timeout '%s' (0.1..3600 s)",
					      optarg);
			ct = true;
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
	if (port && !c->serve && !c->remote)
		return wl_err(err, len, "--port needs --serve or --remote");
	if (sessions && !c->serve)
		return wl_err(err, len, "--sessions and --max-instances need --serve");
	if (ct && !c->remote)
		return wl_err(err, len, "--connect-timeout needs --remote");
	if (maxbuf && !c->serve)
		return wl_err(err, len, "--max-buffer needs --serve");
	if (token && !c->serve && !c->remote)
		return wl_err(err, len, "--token needs --serve or --remote");
	env = getenv(WL_TOKEN_ENV);
	if (!token && (c->serve || c->remote) && env && *env) {
		if (!wl_token_ok(env))
			return wl_err(err, len,
				      "bad token in $" WL_TOKEN_ENV " (%d..%d characters of A-Z a-z 0-9 . _ ~ + / : -)",
				      WL_TOKEN_MIN, WL_TOKEN_MAX);
		strcpy(c->token, env);
	}
	if (wl_check_modes(c, given, offload, err, len))
		return -1;
	return wl_finish_cfg(c, err, len);
}

int wl_session_format(const struct wl_cfg *c, char *buf, size_t len)
{
	int n;

	n = snprintf(buf, len,
		     "workload=%s instances=%d msg=%ld recv=%ld sndbuf=%ld rcvbuf=%ld duration=%.6f warmup=%.6f verify=%d receive=%d",
		     wl_workload_names[c->workload], c->instances, c->msg_size,
		     c->recv_size, c->sndbuf, c->rcvbuf, c->duration, c->warmup,
		     c->verify, c->receive);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* One "key=value" word of a session line into @c; 0 or -1. */
static int wl_session_word(const char *key, const char *val, struct wl_cfg *c)
{
	char *end;
	long v;

	if (!strcmp(key, "workload")) {
		v = wl_parse_workload(val);
		c->workload = v;
		return v < 0 ? -1 : 0;
	}
	if (!strcmp(key, "instances")) {
		if (strlen(val) >= sizeof(c->inst_spec))
			return -1;
		strcpy(c->inst_spec, val);
		return 0;
	}
	if (!strcmp(key, "msg"))
		return wl_parse_size(val, WL_MAX_MSG, &c->msg_size);
	if (!strcmp(key, "recv"))
		return wl_parse_size(val, WL_MAX_MSG, &c->recv_size);
	if (!strcmp(key, "sndbuf") || !strcmp(key, "rcvbuf")) {
		long *p = key[0] == 's' ? &c->sndbuf : &c->rcvbuf;

		if (!strcmp(val, "0")) {
			*p = 0;
			return 0;
		}
		return wl_parse_size(val, 1L << 30, p);
	}
	if (!strcmp(key, "duration"))
		return wl_parse_seconds(val, 0.01, WL_MAX_DURATION, &c->duration);
	if (!strcmp(key, "warmup"))
		return wl_parse_seconds(val, 0, 3600, &c->warmup);
	if (!strcmp(key, "verify") || !strcmp(key, "receive")) {
		v = strtol(val, &end, 10);
		if (*end || (v != 0 && v != 1))
			return -1;
		*(key[0] == 'v' ? &c->verify : &c->receive) = v;
		return 0;
	}
	return -1;
}

int wl_session_parse(const char *line, int ncpus, struct wl_cfg *c,
		     char *err, size_t len)
{
	char buf[512], *save = NULL, *w, *eq;

	wl_cfg_defaults(c, ncpus);
	if (strlen(line) >= sizeof(buf))
		return wl_err(err, len, "session line too long");
	strcpy(buf, line);
	for (w = strtok_r(buf, " \t\r\n", &save); w;
	     w = strtok_r(NULL, " \t\r\n", &save)) {
		eq = strchr(w, '=');
		if (!eq)
			return wl_err(err, len, "bad session word '%s'", w);
		*eq = '\0';
		if (wl_session_word(w, eq + 1, c))
			return wl_err(err, len, "bad session setting %s=%s",
				      w, eq + 1);
	}
	c->serve = true;
	if (wl_workload_tipc(c->workload))
		return wl_err(err, len, "%s: TIPC runs node-local only",
			      wl_workload_names[c->workload]);
	return wl_finish_cfg(c, err, len);
}
