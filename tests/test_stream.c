// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for wl_stream's helpers: the command line (defaults,
 * every option, instance forms resolved against a CPU count, sizes, bad
 * input), /proc/stat and /proc/schedstat parsing and deltas from fixture
 * files (v15 and v17, malformed and unknown versions rejected), the LLC map
 * and --pin placements from fixture sysfs trees, the latency histogram's
 * percentiles, the JSON writer (its output read back by the JSON reader),
 * and --brief's line as wl_stream's own report prints it from a made-up
 * run: Avg is the aggregate over the instances.
 * Fixtures: tests/fixtures/wl_stream/.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "wl/kernel/cpustat.h"
#include "wl/core/hist.h"
#include "wl/core/json_read.h"
#include "wl/core/json_write.h"
#include "wl/kernel/schedstat.h"
#include "wl/stream/opts.h"
#include "wl/stream/pin.h"
#include "wl/stream/report.h"
#include "wl/stream/run.h"
#include "wl/core/file.h"
#include "wl/kernel/perf_tool.h"
#include "wl/kernel/topo.h"

static char fixtures[PATH_MAX];

/* tests/fixtures/wl_stream from the repository root or next to us. */
static void find_fixtures(void)
{
	char exe[PATH_MAX], *slash;
	ssize_t n;

	snprintf(fixtures, sizeof(fixtures), "tests/fixtures/wl_stream");
	if (!access(fixtures, R_OK))
		return;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	snprintf(fixtures, sizeof(fixtures),
		 "%.3900s/../../tests/fixtures/wl_stream", exe);
}

static const char *fx(const char *name)
{
	static char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", fixtures, name);
	return path;
}

static char *slurp(const char *path)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* Parse a space-separated command line; returns wl_parse_opts()'s value. */
static int parse(const char *line, int ncpus, struct wl_cfg *c, char *err)
{
	char buf[512], *argv[64], *save = NULL, *t;
	int argc = 1;

	snprintf(buf, sizeof(buf), "%s", line);
	argv[0] = "wl_stream";
	for (t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	return wl_parse_opts(argc, argv, ncpus, c, err, 256);
}

static void test_defaults(void)
{
	struct wl_cfg c;
	char err[256];
	int ret;

	ret = parse("", 4, &c, err);
	ksft_test_result(!ret && c.workload == WL_TCP_STREAM &&
			 c.instances == 1 && !c.threads &&
			 c.pin == WL_PIN_NONE && c.msg_size == 16384 &&
			 c.recv_size == 131072 && c.duration == 10.0 &&
			 c.warmup == 1.0 && !c.json && !c.brief && !c.verify,
			 "opts: defaults (tcp_stream, 1, 16K/128K, 10 s, 1 s)\n");
	ret = parse("-w udp_stream", 4, &c, err);
	ksft_test_result(!ret && c.msg_size == 1472 && c.recv_size == 65536,
			 "opts: udp defaults 1472/65536\n");
	ret = parse("-w tcp_rr", 4, &c, err);
	ksft_test_result(!ret && c.msg_size == 1 && c.recv_size == 1,
			 "opts: tcp_rr defaults 1/1\n");
}

static void test_all_options(void)
{
	struct wl_cfg c;
	char err[256];
	int ret;

	ret = parse("-w udp_stream -n 50% -m 1400 -M 64K -s 1M -S 2m -l 2.5 -W 0 -p cross-llc -T -j -v --schedstats",
		    8, &c, err);
	ksft_test_result(!ret && c.workload == WL_UDP_STREAM &&
			 c.instances == 4 && c.msg_size == 1400 &&
			 c.recv_size == 65536 && c.sndbuf == 1048576 &&
			 c.rcvbuf == 2000000 && c.duration == 2.5 &&
			 c.warmup == 0 && c.pin == WL_PIN_CROSS_LLC &&
			 c.threads && c.json && c.verify && c.schedstats,
			 "opts: every short option and --schedstats (%s)\n",
			 err);
	ret = parse("--workload sctp_stream_many --instances 2*cpus --msg-size 10K --recv-size 16K --duration 1 --warmup 0.5 --pin same-llc --threads --brief --verify",
		    3, &c, err);
	ksft_test_result(!ret && c.workload == WL_SCTP_STREAM_MANY &&
			 c.instances == 6 && c.msg_size == 10240 &&
			 c.recv_size == 16384 && c.pin == WL_PIN_SAME_LLC &&
			 c.brief && c.threads && c.verify,
			 "opts: every long option (%s)\n", err);
	ret = parse("-h", 4, &c, err);
	ksft_test_result(ret == 1, "opts: -h asks for help\n");
	/* Parsing twice works (getopt state is reset). */
	ret = parse("-n 3", 4, &c, err) || parse("-n 2", 4, &c, err);
	ksft_test_result(!ret && c.instances == 2, "opts: parse twice\n");
}

static void test_instances(void)
{
	static const struct { const char *s; int ncpus, want; } t[] = {
		{ "1", 4, 1 }, { "7", 4, 7 }, { "cpus", 4, 4 },
		{ "cpus/4", 8, 2 }, { "cpus/4", 2, 1 }, { "cpus/2", 5, 2 },
		{ "2*cpus", 4, 8 }, { "cpus*3", 2, 6 }, { "50%", 4, 2 },
		{ "50%", 1, 1 }, { "200%", 3, 6 }, { "1%", 4, 1 },
		{ "4096", 1, 4096 },
		{ "0", 4, -1 }, { "-1", 4, -1 }, { "", 4, -1 }, { "x", 4, -1 },
		{ "cpus/0", 4, -1 }, { "cpus/", 4, -1 }, { "cpus*0", 4, -1 },
		{ "0%", 4, -1 }, { "50%%", 4, -1 }, { "2*cpu", 4, -1 },
		{ "cpus/2x", 4, -1 }, { "4097", 1, -1 }, { "5000*cpus", 1, -1 },
		{ " 4", 4, -1 }, { "4 ", 4, -1 }, { "0x10", 4, -1 },
	};
	unsigned int i, bad = 0;
	int got;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		got = wl_resolve_instances(t[i].s, t[i].ncpus);
		if (got != t[i].want) {
			ksft_print_msg("'%s' with %d CPUs: %d, want %d\n",
				       t[i].s, t[i].ncpus, got, t[i].want);
			bad++;
		}
	}
	ksft_test_result(!bad, "opts: instance forms (%u cases)\n", i);
}

static void test_sizes(void)
{
	static const struct { const char *s; long want; } t[] = {
		{ "1", 1 }, { "16K", 16384 }, { "128k", 128000 },
		{ "1M", 1 << 20 }, { "2m", 2000000 }, { "65507", 65507 },
		{ "64M", 64L << 20 },
		{ "0", -1 }, { "K", -1 }, { "1.5K", -1 }, { "16KB", -1 },
		{ "-1", -1 }, { "65M", -1 }, { "99999999999999999999", -1 },
		{ "", -1 }, { "1G", -1 },
	};
	unsigned int i, bad = 0;
	long v;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		v = -1;
		if (wl_parse_size(t[i].s, WL_MAX_MSG, &v))
			v = -1;
		if (v != t[i].want) {
			ksft_print_msg("size '%s': %ld, want %ld\n", t[i].s, v,
				       t[i].want);
			bad++;
		}
	}
	ksft_test_result(!bad, "opts: sizes and suffixes (%u cases)\n", i);
}

/* The network paths' options, and a session line's round trip. */
static void test_path_options(void)
{
	struct wl_cfg c, d;
	char err[256], line[512];
	int ret;

	ret = parse("-w tipc_rr -n 2", 4, &c, err);
	ksft_test_result(!ret && c.workload == WL_TIPC_RR && c.msg_size == 1 &&
			 c.recv_size == 1 && wl_workload_rr(c.workload) &&
			 wl_workload_tipc(c.workload),
			 "opts: tipc_rr (1/1, rr, tipc) (%s)\n", err);
	ret = parse("--netns --gro off --tso on -w udp_stream", 4, &c, err);
	ksft_test_result(!ret && c.netns && c.offload[WL_GRO] == WL_OFF_OFF &&
			 c.offload[WL_TSO] == WL_OFF_ON &&
			 c.offload[WL_GSO] == WL_OFF_KEEP,
			 "opts: --netns with offloads (%s)\n", err);
	ret = parse("--serve=10.199.0.2 --port 2000 --sessions 3 -T -p same-cpu",
		    4, &c, err);
	ksft_test_result(!ret && c.serve && !strcmp(c.addr, "10.199.0.2") &&
			 c.port == 2000 && c.sessions == 3 && c.threads &&
			 c.pin == WL_PIN_SAME_CPU,
			 "opts: --serve=ADDR --port --sessions (%s)\n", err);
	ret = parse("--remote 10.199.0.2 --receive --connect-timeout 120 -w udp_stream -n cpus -m 1K -S 1M -l 2 -v",
		    4, &c, err);
	if (!ret)
		ret = wl_session_format(&c, line, sizeof(line)) ||
		      wl_session_parse(line, 64, &d, err, sizeof(err));
	ksft_test_result(!ret && c.remote && c.receive &&
			 c.connect_timeout == 120 && c.port == WL_STREAM_DEFAULT_PORT &&
			 d.serve && !d.remote && d.receive && d.verify &&
			 d.workload == WL_UDP_STREAM && d.instances == 4 &&
			 d.msg_size == 1024 && d.recv_size == c.recv_size &&
			 d.rcvbuf == 1048576 && !d.sndbuf && d.duration == 2,
			 "opts: a --remote session survives format and parse (%s)\n",
			 err);
	ret = !wl_session_parse("workload=udp_stream instances=2 msg=70000", 4,
				&d, err, sizeof(err)) ||
	      strstr(err, "exceeds") == NULL ||
	      !wl_session_parse("workload=tcp_stream color=blue", 4, &d, err,
				sizeof(err)) ||
	      strstr(err, "color=blue") == NULL ||
	      !wl_session_parse("workload=tipc_stream", 4, &d, err, sizeof(err));
	ksft_test_result(!ret, "opts: bad session lines are refused (%s)\n", err);
}

/* --serve binds loopback by default; the token and the buffer bound. */
static void test_serve_options(void)
{
	struct wl_cfg c;
	char err[256];
	int ret;

	unsetenv(WL_TOKEN_ENV);
	ret = parse("--serve", 4, &c, err);
	ksft_test_result(!ret && c.serve && !c.addr[0] && !c.token[0] &&
			 !c.max_buffer,
			 "opts: --serve alone: no address given (127.0.0.1), no token, default buffer bound (%s)\n",
			 err);
	ret = parse("--serve=0.0.0.0 --token s3cret.token --max-buffer 1G", 4,
		    &c, err);
	ksft_test_result(!ret && !strcmp(c.addr, "0.0.0.0") &&
			 !strcmp(c.token, "s3cret.token") &&
			 c.max_buffer == 1L << 30,
			 "opts: --serve=0.0.0.0 --token --max-buffer (%s)\n", err);
	setenv(WL_TOKEN_ENV, "from-the-environment", 1);
	ret = parse("--remote 10.0.0.1", 4, &c, err) ||
	      strcmp(c.token, "from-the-environment") ||
	      parse("--remote 10.0.0.1 --token given.on.cmdline", 4, &c, err) ||
	      strcmp(c.token, "given.on.cmdline") ||
	      parse("-l 1", 4, &c, err) || c.token[0];
	setenv(WL_TOKEN_ENV, "bad token", 1);
	ret = ret || parse("--serve", 4, &c, err) != -1 ||
	      !strstr(err, "bad token in $" WL_TOKEN_ENV);
	unsetenv(WL_TOKEN_ENV);
	ksft_test_result(!ret,
			 "opts: $" WL_TOKEN_ENV " for --serve/--remote, --token wins, a bad one refused (%s)\n",
			 err);
}

static void test_bad_options(void)
{
	static const struct { const char *line, *msg; } t[] = {
		{ "-w nosuch", "unknown workload 'nosuch'" },
		{ "-n 0", "bad instance count '0'" },
		{ "-m 1Q", "bad send size '1Q'" },
		{ "-M 0", "bad receive size '0'" },
		{ "-s 2G", "bad socket buffer size '2G'" },
		{ "-l 0", "bad duration '0'" },
		{ "-l 1e9", "bad duration '1e9'" },
		{ "-W -1", "bad warm-up '-1'" },
		{ "-p diagonal", "unknown pin mode 'diagonal'" },
		{ "-w udp_stream -m 65508", "udp_stream: -m 65508 exceeds" },
		{ "-w udp_stream -m 2000 -M 1000", "udp_stream: -M 1000 is smaller" },
		{ "-j -b", "--json and --brief exclude each other" },
		{ "--bogus", "unknown option '--bogus'" },
		{ "-l", "option '-l' needs a value" },
		{ "extra", "unexpected argument 'extra'" },
		{ "--netns -w tipc_stream", "tipc_stream: TIPC runs node-local only" },
		{ "--remote 10.0.0.1 -w tipc_rr", "tipc_rr: TIPC runs node-local only" },
		{ "--gro on", "--gro, --tso and --gso need --netns" },
		{ "--netns --tso maybe", "--tso takes on or off, got 'maybe'" },
		{ "--remote host.example", "--remote: bad address 'host.example'" },
		{ "--serve=1.2.3", "--serve: bad address '1.2.3'" },
		{ "--serve -w udp_stream", "--serve: -w is the client's to choose" },
		{ "--serve -l 5", "--serve: -l is the client's to choose" },
		{ "--serve --remote 10.0.0.1", "--serve excludes --remote" },
		{ "--remote 10.0.0.1 --netns", "--remote and --netns exclude each other" },
		{ "--receive", "--receive needs --remote" },
		{ "--port 80", "--port needs --serve or --remote" },
		{ "--serve --port 0", "bad port '0'" },
		{ "--remote 10.0.0.1 --port 65536", "bad port '65536'" },
		{ "--sessions 2", "--sessions and --max-instances need --serve" },
		{ "--max-instances 8", "--sessions and --max-instances need --serve" },
		{ "--serve --max-instances 0", "bad instance limit '0'" },
		{ "-w sctp_stream_many -M 8", "sctp_stream_many needs -M >= 16" },
		{ "--serve --sessions 0", "bad session count '0'" },
		{ "--connect-timeout 5", "--connect-timeout needs --remote" },
		{ "--remote 10.0.0.1 --connect-timeout 0", "bad connect timeout '0'" },
		{ "--max-buffer 1M", "--max-buffer needs --serve" },
		{ "--serve --max-buffer 0", "bad buffer limit '0'" },
		{ "--token abcdefgh", "--token needs --serve or --remote" },
		{ "--serve --token short", "bad token (8..128 characters" },
		{ "--serve --token has=equals", "bad token (8..128 characters" },
	};
	unsigned int i, bad = 0;
	struct wl_cfg c;
	char err[256];

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		if (parse(t[i].line, 4, &c, err) != -1 ||
		    strncmp(err, t[i].msg, strlen(t[i].msg)) ||
		    strchr(err, '\n')) {
			ksft_print_msg("'%s': got '%s'\n", t[i].line, err);
			bad++;
		}
	}
	ksft_test_result(!bad, "opts: bad input gives -1 and a one-line message (%u cases)\n",
			 i);
}

static void test_cpustat(void)
{
	struct wl_cpustat a, b;
	struct wl_cpuuse u;
	int ra, rb;

	ra = wl_cpustat_read(fx("proc-stat-a.txt"), &a);
	rb = wl_cpustat_read(fx("proc-stat-b.txt"), &b);
	ksft_test_result(!ra && !rb && a.user == 1000 && a.softirq == 300 &&
			 b.steal == 5,
			 "cpustat: fixture lines parsed\n");
	wl_cpustat_delta(&a, &b, &u);
	/* 90 usr, 250 sys, 55 softirq, 100 idle, 5 steal: 500 ticks. */
	ksft_test_result(u.total_ticks == 500 && u.busy_ticks == 395 &&
			 fabs(u.usr - 18) < 1e-9 && fabs(u.sys - 50) < 1e-9 &&
			 fabs(u.softirq - 11) < 1e-9 &&
			 fabs(u.idle - 20) < 1e-9 && fabs(u.steal - 1) < 1e-9 &&
			 u.irq == 0,
			 "cpustat: delta shares and busy ticks\n");
	wl_cpustat_delta(&b, &b, &u);
	ksft_test_result(!u.total_ticks && u.usr == 0,
			 "cpustat: empty interval is all zero\n");
	ksft_test_result(wl_cpustat_parse("cpu0 1 2 3 4\nintr 1\n", &a) &&
			 wl_cpustat_parse("cpu  1 2 x\n", &a) &&
			 !wl_cpustat_parse("cpu  1 2 3 4\n", &a),
			 "cpustat: missing or short aggregate line rejected\n");
}

static void test_schedstat(void)
{
	struct wl_schedstat a, b, d;
	char text[4096];
	int ra, rb;

	ra = wl_schedstat_read(fx("schedstat-v15-a.txt"), &a);
	rb = wl_schedstat_read(fx("schedstat-v15-b.txt"), &b);
	ksft_test_result(!ra && !rb && a.version == 15 && a.ncpus == 2 &&
			 a.ndomains == 2 && a.ttwu_count == 300 &&
			 a.ttwu_local == 100 && a.sd[0].wake_remote == 30 &&
			 a.sd[0].move_affine == 12 && a.sd[1].wake_remote == 6,
			 "schedstat: v15 summed over CPUs\n");
	wl_schedstat_delta(&a, &b, &d);
	ksft_test_result(d.ttwu_count == 110 && d.ttwu_local == 40 &&
			 d.sd[0].wake_remote == 11 && d.sd[0].move_affine == 3 &&
			 d.sd[1].wake_remote == 5 && d.sd[1].move_affine == 1 &&
			 d.sd[0].move_balance == 0,
			 "schedstat: v15 deltas\n");
	ra = wl_schedstat_read(fx("schedstat-v17.txt"), &a);
	ksft_test_result(!ra && a.version == 17 && a.ttwu_count == 15 &&
			 a.ttwu_local == 4 && !strcmp(a.sd[0].name, "MC") &&
			 !strcmp(a.sd[1].name, "PKG") &&
			 a.sd[0].wake_remote == 22 && a.sd[0].move_affine == 10 &&
			 a.sd[1].wake_remote == 44 && a.sd[1].move_affine == 20,
			 "schedstat: v17 (domain names, 45 fields)\n");

	strcpy(text, "version 18\ntimestamp 1\n");
	ksft_test_result(wl_schedstat_parse(text, &a) == -2,
			 "schedstat: unknown version rejected (-2)\n");
	snprintf(text, sizeof(text), "%s", slurp(fx("schedstat-v15-a.txt")));
	/* Drop the last field of the first domain line: now 35 fields. */
	*strstr(text, " 10 5 0\n") = '\n';
	memmove(strstr(text, "\n") + 1, strstr(text, "\n") + 1,
		strlen(strstr(text, "\n") + 1) + 1);
	ksft_test_result(wl_schedstat_parse(text, &a) == -1,
			 "schedstat: short domain line rejected\n");
	strcpy(text, "cpu0 0 0 1 1 1 1 1 1 1\n");
	ksft_test_result(wl_schedstat_parse(text, &a) == -1,
			 "schedstat: missing version line rejected\n");
	snprintf(text, sizeof(text), "%s", slurp(fx("schedstat-v17.txt")));
	text[9] = '5';	/* "version 15" over v17 lines: field counts differ */
	ksft_test_result(wl_schedstat_parse(text, &a) == -1,
			 "schedstat: v17 lines under a v15 header rejected\n");
	ksft_test_result(wl_schedstat_read(fx("nosuch"), &a) == -1,
			 "schedstat: missing file is -1\n");
}

static void test_topo(void)
{
	static struct wl_topo t;
	bool mask[WL_MAX_CPUS];
	char list[64];
	int ret, s, r, i, ok = 1;

	ksft_test_result(wl_cpulist_parse("0-3,8,10-11\n", mask) == 7 &&
			 mask[0] && mask[3] && !mask[4] && mask[8] &&
			 mask[11] && !mask[12] &&
			 wl_cpulist_parse("3-1", mask) == -EINVAL &&
			 wl_cpulist_parse("a", mask) == -EINVAL &&
			 wl_cpulist_parse("1,,2", mask) == -EINVAL &&
			 wl_cpulist_parse("1-", mask) == -EINVAL &&
			 wl_cpulist_parse("2000", mask) == -EINVAL,
			 "topo: cpulist parsing\n");

	wl_cpulist_parse("0-3,8,10-11", mask);
	ksft_test_result(wl_cpulist_format(mask, list, sizeof(list)) == 11 &&
			 !strcmp(list, "0-3,8,10-11"),
			 "topo: cpulist formatting\n");

	ret = wl_topo_load(fx("sys-cpu-2llc"), 1, &t);
	ksft_test_result(!ret && t.ncpus == 4 && t.nllc == 2 && t.from_sysfs &&
			 t.llc_size[0] == 2 && t.llc_size[1] == 2 &&
			 t.cpu[0] == 0 && t.cpu[1] == 1 && t.cpu[2] == 2 &&
			 t.cpu[3] == 3 && t.llc_level == 3 &&
			 wl_topo_llc_list(&t, 1, list, sizeof(list)) == 3 &&
			 !strcmp(list, "2-3"),
			 "topo: two LLCs from the highest unified cache\n");
	ksft_test_result(!wl_pin_unsupported(&t, WL_PIN_CROSS_LLC) &&
			 !wl_pin_unsupported(&t, WL_PIN_SAME_LLC),
			 "topo: all pin modes possible with 2x2\n");
	for (i = 0; i < 8; i++) {
		wl_pin_cpus(&t, WL_PIN_SAME_CPU, i, &s, &r);
		ok &= s == i % 4 && r == s;
		wl_pin_cpus(&t, WL_PIN_SAME_LLC, i, &s, &r);
		ok &= s != r && s / 2 == r / 2 && s >= 0;
		wl_pin_cpus(&t, WL_PIN_CROSS_LLC, i, &s, &r);
		ok &= s >= 0 && r >= 0 && s / 2 != r / 2;
		wl_pin_cpus(&t, WL_PIN_NONE, i, &s, &r);
		ok &= s == -1 && r == -1;
	}
	/* Instances spread over LLCs before sharing one. */
	wl_pin_cpus(&t, WL_PIN_CROSS_LLC, 0, &s, &r);
	ok &= s == 0 && r == 2;
	wl_pin_cpus(&t, WL_PIN_CROSS_LLC, 1, &s, &r);
	ok &= s == 2 && r == 0;
	wl_pin_cpus(&t, WL_PIN_CROSS_LLC, 2, &s, &r);
	ok &= s == 1 && r == 3;
	ksft_test_result(ok, "topo: pin placements for 8 instances\n");

	ret = wl_topo_load(fx("sys-cpu-nocache"), 1, &t);
	ksft_test_result(!ret && t.ncpus == 3 && t.nllc == 1 && !t.from_sysfs &&
			 wl_pin_unsupported(&t, WL_PIN_CROSS_LLC) &&
			 !wl_pin_unsupported(&t, WL_PIN_SAME_LLC),
			 "topo: no cache info is one LLC; cross-llc unsupported\n");
	ret = wl_topo_load(fx("nosuch"), 2, &t);
	ksft_test_result(!ret && t.ncpus == 2 && t.nllc == 1,
			 "topo: no sysfs falls back to CPUs 0..n-1\n");
	t.llc_size[0] = 1;
	t.ncpus = 1;
	ksft_test_result(wl_pin_unsupported(&t, WL_PIN_SAME_LLC) != NULL,
			 "topo: same-llc needs 2 CPUs in an LLC\n");
}

static void test_hist(void)
{
	static struct wl_hist h, h2;
	uint64_t v, low, width, p50, p90, p99;
	unsigned int idx, prev = 0;
	int ok = 1;

	for (v = 0; v < (1ULL << 42); v = v * 9 / 8 + 1) {
		idx = wl_hist_index(v);
		low = wl_hist_low(idx, &width);
		if (v < (1ULL << 41))
			ok &= low <= v && v < low + width;
		ok &= idx >= prev && idx < WL_HIST_BUCKETS;
		/* Bucket width at most 1/32 of its values. */
		ok &= width == 1 || width * 32 <= low;
		prev = idx;
	}
	ksft_test_result(ok, "hist: buckets monotonic, cover their values\n");

	for (v = 1; v <= 1000; v++)
		wl_hist_add(&h, v * 1000);	/* 1..1000 us */
	p50 = wl_hist_pct(&h, 50);
	p90 = wl_hist_pct(&h, 90);
	p99 = wl_hist_pct(&h, 99);
	ksft_test_result(h.count == 1000 && fabs(p50 / 500000.0 - 1) < 0.03 &&
			 fabs(p90 / 900000.0 - 1) < 0.03 &&
			 fabs(p99 / 990000.0 - 1) < 0.03 && p50 <= p90 &&
			 p90 <= p99,
			 "hist: p50/p90/p99 within 3%% (%llu %llu %llu ns)\n",
			 (unsigned long long)p50, (unsigned long long)p90,
			 (unsigned long long)p99);
	wl_hist_add(&h2, 7);
	wl_hist_merge(&h2, &h);
	ksft_test_result(h2.count == 1001 && wl_hist_pct(&h2, 0) == 7 &&
			 wl_hist_pct(&h2, 100) == wl_hist_pct(&h, 100),
			 "hist: merge and extremes\n");
	memset(&h2, 0, sizeof(h2));
	ksft_test_result(wl_hist_pct(&h2, 50) == 0, "hist: empty is 0\n");
}

static void test_json(void)
{
	char *buf = NULL, s[64];
	const char *arr, *e, *it = NULL;
	struct wl_jsonw j;
	size_t len = 0;
	double v;
	FILE *f;
	int n = 0;

	f = open_memstream(&buf, &len);
	wl_jsonw_init(&j, f);
	wl_jsonw_obj(&j, NULL);
	wl_jsonw_str(&j, "tool", "wl_stream");
	wl_jsonw_int(&j, "schema", 1);
	wl_jsonw_fix(&j, "aggregate", 12701.549, 2);
	wl_jsonw_num(&j, "nan", NAN);
	wl_jsonw_str(&j, "quote", "a\"b\\c");
	wl_jsonw_arr(&j, "per_instance");
	wl_jsonw_obj(&j, NULL);
	wl_jsonw_int(&j, "id", 0);
	wl_jsonw_obj_end(&j);
	wl_jsonw_obj(&j, NULL);
	wl_jsonw_int(&j, "id", 1);
	wl_jsonw_obj_end(&j);
	wl_jsonw_arr_end(&j);
	wl_jsonw_obj(&j, "empty");
	wl_jsonw_obj_end(&j);
	wl_jsonw_bool(&j, "threads", true);
	wl_jsonw_null(&j, "wakelab");
	wl_jsonw_u64(&j, "big", 18446744073709551615ULL);
	wl_jsonw_obj_end(&j);
	fclose(f);

	ksft_test_result(wl_json_valid_object(buf) && !strchr(buf, '\n'),
			 "json: one valid object on one line: %s\n", buf);
	ksft_test_result(!wl_json_number(wl_json_member(buf, "aggregate"), &v) &&
			 v == 12701.55 &&
			 !strncmp(wl_json_member(buf, "nan"), "null", 4) &&
			 !strncmp(wl_json_member(buf, "wakelab"), "null", 4) &&
			 wl_json_true(wl_json_member(buf, "threads")) &&
			 !wl_json_string(wl_json_member(buf, "quote"), s,
					 sizeof(s)) && !strcmp(s, "a\"b\\c"),
			 "json: members read back\n");
	arr = wl_json_member(buf, "per_instance");
	while ((e = wl_json_next_elem(&it, arr))) {
		wl_json_number(wl_json_member(e, "id"), &v);
		n += v == n;
	}
	ksft_test_result(n == 2, "json: array of objects\n");
	free(buf);
}

/* The made-up run --brief's lines are printed from. */
static struct wl_stream_run brief_run;

/* What wl_stream_print_brief() prints for @aggregate under the options @line. */
static void brief_line(const char *line, double aggregate, char *buf,
		       size_t len)
{
	struct wl_result res;
	char err[256];
	int saved, n;
	FILE *f;

	buf[0] = '\0';
	f = tmpfile();
	if (!f || parse(line, 4, &brief_run.cfg, err))
		ksft_exit_fail_msg("brief: setup for '%s' failed\n", line);
	memset(&res, 0, sizeof(res));
	res.aggregate = aggregate;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(fileno(f), STDOUT_FILENO);
	wl_stream_print_brief(&brief_run, &res);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n > 0 ? n : 0] = '\0';
	fclose(f);
}

/*
 * --brief, Peter's loop format: "<WORKLOAD>-<instances> : Avg: <aggregate /
 * instances, one decimal>", the Avg read back against the aggregate the
 * line was printed from.
 */
static void test_brief(void)
{
	static const struct {
		const char *line;
		double aggregate;
		const char *want;
	} t[] = {
		{ "-w tcp_stream -n 3", 100, "TCP_STREAM-3 : Avg: 33.3\n" },
		{ "-w udp_stream -n cpus", 50806, "UDP_STREAM-4 : Avg: 12701.5\n" },
		{ "-w tcp_rr -n 7", 1000, "TCP_RR-7 : Avg: 142.9\n" },
		{ "-w sctp_stream_many -n 2*cpus", 4, "SCTP_STREAM_MANY-8 : Avg: 0.5\n" },
		{ "-w sctp_stream", 17.25, "SCTP_STREAM-1 : Avg: 17.2\n" },
	};
	char buf[128], name[32];
	unsigned int i, bad = 0;
	double avg;
	int n;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		brief_line(t[i].line, t[i].aggregate, buf, sizeof(buf));
		if (sscanf(buf, "%31[A-Z_]-%d : Avg: %lf", name, &n, &avg) != 3 ||
		    n != brief_run.cfg.instances ||
		    fabs(avg - t[i].aggregate / n) > 0.05 + 1e-9 ||
		    strcmp(buf, t[i].want)) {
			ksft_print_msg("'%s', aggregate %g: '%s', want '%s'",
				       t[i].line, t[i].aggregate, buf,
				       t[i].want);
			bad++;
		}
	}
	ksft_test_result(!bad, "brief: Avg = aggregate / instances (%u cases)\n",
			 i);
}


/* A fixture into a malloc()ed string (perf report's can exceed slurp()'s). */
static char *slurp_big(const char *name)
{
	size_t cap = 1 << 20;
	char *buf = malloc(cap);
	ssize_t n;

	if (!buf)
		return NULL;
	n = wl_read_file(fx(name), buf, cap);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * perf report and perf stat as wl_stream --profile reads them: recorded on
 * the host (perf 6.1, no PMU: cpu-clock, hardware counters "<not
 * supported>"), and perf stat's CSV as perf 6.1 prints it with a PMU (one
 * counter "<not counted>").
 */
static void test_perf_tool(void)
{
	static const char edge[] =
		"    50.00%            10  [kernel.kallsyms]  [k] find_busiest_group\n"
		"    20.00%             4  [wakelab_planted]  [k] wakelab_planted_burn\n"
		"    20.00%             4  libc.so.6  [.] memcpy [k] not kernel\n"
		"     0.005%            1  [kernel.kallsyms]  [k] below_the_limit\n"
		"garbage line\n"
		"    10.00%             2  memfd:x (deleted)  [k] 0xffffffff81000000\n";
	double val[WL_PSTAT_NR];
	bool have[WL_PSTAT_NR];
	struct wl_psym *sym = NULL;
	char err[256];
	struct wl_cfg c;
	int nsym = 0, i, sorted = 1, ok;
	long samples = 0;
	char *text;

	text = slurp_big("perf-report-host-6.1-tcp_rr.txt");
	ok = text && !wl_prof_parse_report(text, &sym, &nsym, &samples);
	for (i = 1; ok && i < nsym; i++)
		if (sym[i].pct > sym[i - 1].pct)
			sorted = 0;
	ksft_test_result(ok && samples == 4002 && nsym == 291 && sorted &&
			 !strcmp(sym[0].name, "finish_task_switch.isra.0") &&
			 sym[0].pct == 12.72 && sym[0].samples == 509 &&
			 !strcmp(sym[nsym - 1].name, "workingset_activation"),
			 "perf report: 4002 samples, 291 kernel symbols by share, finish_task_switch.isra.0 first at 12.72 %%\n");
	free(sym);
	free(text);
	sym = NULL;
	ok = !wl_prof_parse_report(edge, &sym, &nsym, &samples);
	ksft_test_result(ok && samples == 21 && nsym == 3 &&
			 !strcmp(sym[0].name, "find_busiest_group") &&
			 !strcmp(sym[1].name, "wakelab_planted_burn") &&
			 !strcmp(sym[2].name, "0xffffffff81000000"),
			 "perf report: modules' symbols kept, user ones and those under %.2f %% left out, samples of all summed\n",
			 WL_PROF_MIN_PCT);
	free(sym);
	sym = NULL;
	ok = !wl_prof_parse_report("", &sym, &nsym, &samples);
	ksft_test_result(ok && !nsym && !samples, "perf report: empty output, no symbol\n");
	free(sym);

	text = slurp_big("perf-stat-host-6.1-nopmu.csv");
	ok = text && wl_prof_parse_stat(text, val, have) == 3;
	ksft_test_result(ok && have[WL_PSTAT_CS] && val[WL_PSTAT_CS] == 253507 &&
			 have[WL_PSTAT_MIGRATIONS] && val[WL_PSTAT_MIGRATIONS] == 22 &&
			 have[WL_PSTAT_TASK_CLOCK] && val[WL_PSTAT_TASK_CLOCK] == 4001.50 &&
			 !have[WL_PSTAT_CYCLES] && !have[WL_PSTAT_INSTRUCTIONS] &&
			 !have[WL_PSTAT_BRANCH_MISSES] && !have[WL_PSTAT_CACHE_MISSES],
			 "perf stat without a PMU: the software counters, the hardware ones missing\n");
	free(text);
	text = slurp_big("perf-stat-pmu.csv");
	ok = text && wl_prof_parse_stat(text, val, have) == 6;
	ksft_test_result(ok && val[WL_PSTAT_CYCLES] == 4811203374.0 &&
			 val[WL_PSTAT_INSTRUCTIONS] == 6102339812.0 &&
			 val[WL_PSTAT_BRANCH_MISSES] == 10233871 &&
			 !have[WL_PSTAT_CACHE_MISSES] && val[WL_PSTAT_CACHE_MISSES] == 0,
			 "perf stat with a PMU: cycles, instructions, branch-misses; <not counted> is missing\n");
	free(text);
	ok = wl_prof_parse_stat("1,,context-switches\n2,,context-switches\n,,\nx\n", val, have) == 1;
	ksft_test_result(ok && val[WL_PSTAT_CS] == 1,
			 "perf stat: the first line of a counter, malformed lines skipped\n");

	ok = !parse("--profile /tmp/p -l 2", 4, &c, err) &&
	     !strcmp(c.profile, "/tmp/p");
	ok = ok && parse("--serve --profile /tmp/p", 4, &c, err) < 0 &&
	     strstr(err, "--profile");
	ok = ok && !parse("-w netperf:TCP_RR --plain --profile /tmp/p", 4, &c, err) &&
	     c.netperf && c.plain && !strcmp(c.profile, "/tmp/p");
	ksft_test_result(ok, "opts: --profile DIR, with netperf: too; refused with --serve (%s)\n", err);

	ksft_test_result(wl_prof_sched_symbol("select_task_rq_fair") &&
			 wl_prof_sched_symbol("select_idle_sibling") &&
			 wl_prof_sched_symbol("wake_affine.constprop.0") &&
			 wl_prof_sched_symbol("ttwu_do_activate") &&
			 wl_prof_sched_symbol("try_to_wake_up") &&
			 wl_prof_sched_symbol("enqueue_task_fair") &&
			 wl_prof_sched_symbol("dequeue_entities") &&
			 wl_prof_sched_symbol("load_balance.isra.0") &&
			 wl_prof_sched_symbol("sched_balance_rq") &&
			 wl_prof_sched_symbol("find_busiest_group") &&
			 !wl_prof_sched_symbol("enqueue_to_backlog") &&
			 !wl_prof_sched_symbol("load_balance_x") &&
			 !wl_prof_sched_symbol("_copy_to_iter"),
			 "perf: the scheduler's symbols, and not the network's enqueue_to_backlog\n");
}

int main(void)
{
	find_fixtures();
	ksft_print_header();
	ksft_set_plan(54);
	test_defaults();
	test_all_options();
	test_instances();
	test_sizes();
	test_path_options();
	test_serve_options();
	test_bad_options();
	test_cpustat();
	test_schedstat();
	test_topo();
	test_hist();
	test_json();
	test_brief();
	test_perf_tool();
	ksft_finished();
}
