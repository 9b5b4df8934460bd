// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the wl_stream workload engine, run as a child process exactly as
 * users and wl_compare run it: every workload for 1 and `cpus` instances
 * (short windows, --verify), asserting exit 0, integrity "ok", one
 * per-instance entry each and non-zero throughput; threads mode; pinning
 * (same-cpu must land sender and receiver on one CPU, cross-llc on two);
 * --brief's format; bad usage exits 2 with nothing on stdout; SIGTERM stops
 * a run with every worker reaped (no orphans); --schedstats turns the
 * counters on and restores the sysctl; the wakelab placement deltas with
 * the module loaded and enabled (they move and add up).  Every JSON object
 * has exactly the members of its schema; the CPU shares are held against
 * the test's own /proc/stat reading around the run; UDP loss against the
 * datagram counts, also with loss provoked by a tiny receive buffer.  SCTP
 * workloads SKIP when the kernel has no SCTP.  The netperf engine (-w
 * netperf:TEST, Debian's netperf) in the same checks where they apply,
 * with the module's placement table in its window; SKIP without netperf.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <sys/socket.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "wl/core/clock.h"
#include "wl/core/file.h"
#include "wl/core/json_read.h"
#include "wl/kernel/cgroup.h"
#include "wl/kernel/wakelab_module.h"

#define WLT_OUT		(1 << 20)
#define WLT_SKIP	4
#define WLT_USAGE	2
#define WLT_WINDOW	"1"
#define WLT_WARMUP	"0.3"

/**
 * struct wlt_run - one wl_stream run
 * @status:	wait status
 * @out:	stdout
 * @err:	stderr
 * @json:	the JSON object line in @out, or NULL
 */
struct wlt_run {
	int status;
	char out[WLT_OUT];
	char err[8192];
	const char *json;
};

/* wl_stream next to this program, else from $PATH. */
static const char *wlt_binary(void)
{
	static char path[PATH_MAX];
	char *slash;
	ssize_t n;

	n = readlink("/proc/self/exe", path, sizeof(path) - 16);
	if (n > 0) {
		path[n] = '\0';
		slash = strrchr(path, '/');
		if (slash) {
			strcpy(slash + 1, "wl_stream");
			if (!access(path, X_OK))
				return path;
		}
	}
	return "wl_stream";
}

static void wlt_drain(int fd, char *buf, size_t len)
{
	size_t off = strlen(buf);
	ssize_t n;

	while (off < len - 1) {
		n = read(fd, buf + off, len - 1 - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += n;
	}
	buf[off] = '\0';
}

/* Start @argv[0] (PATH) with @argv, its stdout and stderr on pipes. */
static pid_t wlt_spawn_cmd(char **argv, int *out_fd, int *err_fd)
{
	int po[2], pe[2];
	pid_t pid;

	if (pipe(po) || pipe(pe))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	*out_fd = po[0];
	*err_fd = pe[0];
	return pid;
}

/* Start wl_stream with @argv (NULL-terminated, argv[0] ignored). */
static pid_t wlt_spawn(char **argv, int *out_fd, int *err_fd)
{
	argv[0] = (char *)wlt_binary();
	return wlt_spawn_cmd(argv, out_fd, err_fd);
}

/* Read stdout and stderr to EOF (stderr after stdout: it is small). */
static void wlt_collect(struct wlt_run *r, pid_t pid, int ofd, int efd)
{
	char *nl, *line;

	r->out[0] = '\0';
	r->err[0] = '\0';
	wlt_drain(ofd, r->out, sizeof(r->out));
	wlt_drain(efd, r->err, sizeof(r->err));
	close(ofd);
	close(efd);
	waitpid(pid, &r->status, 0);
	r->json = NULL;
	for (line = r->out; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (*line == '{') {
			if (nl)
				*nl = '\0';
			r->json = line;
			break;
		}
	}
}

/* Length of the first line of @s, for SKIP reasons. */
static int wlt_line_len(const char *s)
{
	size_t n = strcspn(s, "\n");

	return n > 900 ? 900 : (int)n;
}

static int wlt_exit(const struct wlt_run *r)
{
	return WIFEXITED(r->status) ? WEXITSTATUS(r->status) :
	       128 + WTERMSIG(r->status);
}

/* Run wl_stream with the arguments in @args (space separated). */
static void wlt_run(struct wlt_run *r, const char *args)
{
	char buf[512], *argv[64], *save = NULL, *t;
	int argc = 1, ofd, efd;
	pid_t pid;

	snprintf(buf, sizeof(buf), "%s", args);
	argv[0] = "wl_stream";
	for (t = strtok_r(buf, " ", &save); t && argc < 63;
	     t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	pid = wlt_spawn(argv, &ofd, &efd);
	if (pid < 0) {
		r->status = 127 << 8;
		r->json = NULL;
		snprintf(r->err, sizeof(r->err), "spawn: %s", strerror(errno));
		return;
	}
	wlt_collect(r, pid, ofd, efd);
}

static double wlt_num(const char *obj, const char *key)
{
	double v = NAN;

	wl_json_number(wl_json_member(obj, key), &v);
	return v;
}

static int wlt_str_is(const char *obj, const char *key, const char *want)
{
	char buf[64];

	return !wl_json_string(wl_json_member(obj, key), buf, sizeof(buf)) &&
	       !strcmp(buf, want);
}

static int wlt_ncpus(void)
{
	return (int)sysconf(_SC_NPROCESSORS_ONLN);
}

/*
 * The --json schema 5 (docs/wl_stream.md, "--json schema 5"): exactly the members of each
 * object, plus those some workloads add.  A member added or dropped
 * without a schema change fails here.
 */
static const char * const wlt_top[] = {
	"tool", "schema", "workload", "engine", "path", "instances",
	"instances_spec", "threads",
	"pin", "msg_size", "recv_size", "local_buf", "remote_buf",
	"duration_s", "duration_requested_s", "warmup_s", "first_data_s",
	"controller_sleeps", "controller_waits", "verify", "cpus", "llcs",
	"kernel", "unit", "aggregate",
	"per_instance", "integrity", "stalled_instances", "cpu",
	"service_demand_us_per_kb", "perf", "schedstat", "wakelab", "profile",
	NULL,
};

static const char * const wlt_top_udp[] = { "udp", NULL };

static const char * const wlt_top_rr[] = {
	"rr", "service_demand_us_per_tran", NULL,
};

static const char * const wlt_top_sctp[] = { "sctp_mib", NULL };

static const char * const wlt_netns[] = {
	"sender_ns", "receiver_ns", "sender_addr", "receiver_addr", "link",
	"gro", "tso", "gso", "ip", NULL,
};

static const char * const wlt_remote[] = {
	"server", "here", "protocol", NULL,
};

static const char * const wlt_inst[] = {
	"id", "value", "sent_bytes", "recv_bytes", "sent_msgs", "recv_msgs",
	"snd_pin", "rcv_pin", "snd_cpu", "rcv_cpu", "stalled", "max_gap_s",
	NULL,
};

static const char * const wlt_inst_udp[] = { "send_mbps", "loss_pct", NULL };

/* In the order of struct wlt_stat's ticks. */
static const char * const wlt_cpu[] = {
	"usr", "sys", "irq", "softirq", "idle", "steal", NULL,
};

static const char * const wlt_udp[] = {
	"send_mbps", "recv_mbps", "loss_pct", NULL,
};

static const char * const wlt_rr[] = {
	"tps", "p50_us", "p90_us", "p99_us", "samples", NULL,
};

static const char * const wlt_perf[] = {
	"context_switches", "cpu_migrations", "cycles", "instructions", NULL,
};

#define WLT_NCPUSTAT	6

static void wlt_members(struct __test_metadata *_metadata, const char *what,
			const char *obj, const char * const *want,
			const char * const *more)
{
	char msg[512];

	EXPECT_EQ(0, wl_json_members_exact(obj, want, more, msg, sizeof(msg)))
		TH_LOG("%s: %s", what, msg);
}

/* Every object of wl_stream's JSON has exactly its schema's members. */
static void wlt_check_schema(struct __test_metadata *_metadata,
			     const char *json)
{
	const char * const *top = NULL, * const *inst = NULL;
	const char *it = NULL, *e, *o, *more[8];
	char w[32] = "", path[16] = "";
	int n = 0;

	wl_json_string(wl_json_member(json, "workload"), w, sizeof(w));
	wl_json_string(wl_json_member(json, "path"), path, sizeof(path));
	if (!strcmp(w, "udp_stream")) {
		top = wlt_top_udp;
		inst = wlt_inst_udp;
	}
	if (strstr(w, "_rr"))
		top = wlt_top_rr;
	if (!strncmp(w, "sctp_", 5))
		top = wlt_top_sctp;
	while (top && *top)
		more[n++] = *top++;
	if (!strcmp(path, "netns") || !strcmp(path, "remote"))
		more[n++] = path;
	more[n] = NULL;
	EXPECT_TRUE(!strcmp(path, "loopback") || !strcmp(path, "netns") ||
		    !strcmp(path, "remote")) TH_LOG("path '%s'", path);
	wlt_members(_metadata, "top level", json, wlt_top, more);
	o = wl_json_member(json, "netns");
	if (o)
		wlt_members(_metadata, "netns", o, wlt_netns, NULL);
	o = wl_json_member(json, "remote");
	if (o)
		wlt_members(_metadata, "remote", o, wlt_remote, NULL);
	while ((e = wl_json_next_elem(&it, wl_json_member(json,
							  "per_instance"))))
		wlt_members(_metadata, "per_instance", e, wlt_inst, inst);
	o = wl_json_member(json, "cpu");
	if (o && *o == '{')
		wlt_members(_metadata, "cpu", o, wlt_cpu, NULL);
	o = wl_json_member(json, "udp");
	if (o)
		wlt_members(_metadata, "udp", o, wlt_udp, NULL);
	o = wl_json_member(json, "rr");
	if (o)
		wlt_members(_metadata, "rr", o, wlt_rr, NULL);
	wlt_members(_metadata, "perf", wl_json_member(json, "perf"), wlt_perf,
		    NULL);
}

/*
 * The test's own view of the CPU around a run: the aggregate "cpu" line of
 * /proc/stat in wl_stream's categories (usr with nice, idle with iowait),
 * in ticks, and when it was read.
 */
struct wlt_stat {
	double t;
	double tick[WLT_NCPUSTAT];
};

static int wlt_stat_read(struct wlt_stat *s)
{
	unsigned long long u, n, sy, id, io, irq, si, st;
	struct timespec ts;
	char buf[512];

	if (wl_read_file("/proc/stat", buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &u, &n,
		   &sy, &id, &io, &irq, &si, &st) != 8)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->t = ts.tv_sec + ts.tv_nsec / 1e9;
	s->tick[0] = u + n;
	s->tick[1] = sy;
	s->tick[2] = irq;
	s->tick[3] = si;
	s->tick[4] = id + io;
	s->tick[5] = st;
	return 0;
}

/*
 * "cpu" and the service demand against /proc/stat as the test read it
 * before (@a) and after (@b) the run.  The window lies inside the run: it
 * is not longer; its busy CPU time (service demand x what moved in the
 * window) is at most the run's; and in every category its share of the
 * window's ticks (busy ticks / busy share) is at most what the run spent
 * there.  The slack is tick rounding at the edges.  /proc/stat samples
 * at the tick, so a run bound by protocol timers (SCTP under TCG: ~1 %
 * busy) can read 0 busy ticks in its window: then the service demand,
 * from the same ticks, must say 0 too.
 */
static void wlt_check_cpu(struct __test_metadata *_metadata, const char *json,
			  const struct wlt_stat *a, const struct wlt_stat *b)
{
	const char *cpu = wl_json_member(json, "cpu");
	double dur, moved, busy, share, win, used, run_busy = 0, slack;
	int k;

	ASSERT_NE(NULL, cpu);
	ASSERT_EQ('{', *cpu) TH_LOG("cpu is null");
	dur = wlt_num(json, "duration_s");
	EXPECT_GE(b->t - a->t, dur) TH_LOG("%.3f s window in a %.3f s run",
					   dur, b->t - a->t);
	/* Transactions, or KB received, in the window; busy us for them. */
	moved = wlt_num(json, "aggregate") * dur;
	if (wlt_str_is(json, "unit", "trans/s"))
		busy = wlt_num(json, "service_demand_us_per_tran") * moved;
	else
		busy = wlt_num(json, "service_demand_us_per_kb") * moved *
		       1e6 / 8 / 1024;
	busy *= sysconf(_SC_CLK_TCK) / 1e6;
	share = 100 - wlt_num(cpu, "idle") - wlt_num(cpu, "steal");
	ASSERT_LE(0, share) TH_LOG("%.2f%% busy", share);
	if (share < 0.005) {
		EXPECT_GT(0.5, busy)
			TH_LOG("0%% busy, yet %.1f busy ticks by service demand",
			       busy);
		return;
	}
	win = busy * 100 / share;
	slack = 2 * wlt_ncpus() + 0.02 * win;
	for (k = 0; k < WLT_NCPUSTAT; k++) {
		share = wlt_num(cpu, wlt_cpu[k]);
		used = b->tick[k] - a->tick[k];
		if (k < 4)	/* usr, sys, irq, softirq */
			run_busy += used;
		EXPECT_GE(used + slack, share / 100 * win)
			TH_LOG("%s %.2f%% of a %.0f-tick window, the whole run spent %.0f ticks there",
			       wlt_cpu[k], share, win, used);
	}
	EXPECT_GE(run_busy + slack, busy)
		TH_LOG("%.0f busy ticks in the window (by service demand), %.0f in the whole run",
		       busy, run_busy);
}

/*
 * UDP loss is what the datagram counts say: per instance, received <=
 * sent, every datagram -m bytes, loss_pct = 100 * (sent - received) /
 * sent over the whole run (3 decimals); "udp" the same over all
 * instances.  Returns "udp"."loss_pct".
 */
static double wlt_check_udp(struct __test_metadata *_metadata,
			    const char *json)
{
	double msg = wlt_num(json, "msg_size"), snt, rcv, want;
	double all_s = 0, all_r = 0;
	const char *it = NULL, *e, *o;

	while ((e = wl_json_next_elem(&it, wl_json_member(json,
							  "per_instance")))) {
		snt = wlt_num(e, "sent_msgs");
		rcv = wlt_num(e, "recv_msgs");
		EXPECT_LT(0, snt);
		EXPECT_LE(rcv, snt);
		EXPECT_EQ(snt * msg, wlt_num(e, "sent_bytes"));
		EXPECT_EQ(rcv * msg, wlt_num(e, "recv_bytes"));
		want = snt > 0 ? 100 * (snt - rcv) / snt : 0;
		EXPECT_GE(0.0006, fabs(wlt_num(e, "loss_pct") - want))
			TH_LOG("loss_pct %.3f, counts say %.4f",
			       wlt_num(e, "loss_pct"), want);
		all_s += snt;
		all_r += rcv;
	}
	o = wl_json_member(json, "udp");
	EXPECT_TRUE(o && *o == '{') TH_LOG("no \"udp\" object");
	if (!o || *o != '{')
		return NAN;
	want = all_s > 0 ? 100 * (all_s - all_r) / all_s : 0;
	EXPECT_GE(0.0006, fabs(wlt_num(o, "loss_pct") - want))
		TH_LOG("udp loss_pct %.3f, counts say %.4f",
		       wlt_num(o, "loss_pct"), want);
	return wlt_num(o, "loss_pct");
}

FIXTURE(stream) {
	struct wlt_run *run;
};

FIXTURE_VARIANT(stream) {
	const char *workload;
	int all_cpus;
	int netns;
};

FIXTURE_SETUP(stream)
{
	self->run = calloc(1, sizeof(*self->run));
	ASSERT_NE(NULL, self->run);
}

FIXTURE_TEARDOWN(stream)
{
	free(self->run);
}

FIXTURE_VARIANT_ADD(stream, tcp_stream_1) {
	.workload = "tcp_stream",
	.all_cpus = 0,
};

FIXTURE_VARIANT_ADD(stream, tcp_stream_cpus) {
	.workload = "tcp_stream",
	.all_cpus = 1,
};

FIXTURE_VARIANT_ADD(stream, udp_stream_1) {
	.workload = "udp_stream",
	.all_cpus = 0,
};

FIXTURE_VARIANT_ADD(stream, udp_stream_cpus) {
	.workload = "udp_stream",
	.all_cpus = 1,
};

FIXTURE_VARIANT_ADD(stream, sctp_stream_1) {
	.workload = "sctp_stream",
	.all_cpus = 0,
};

FIXTURE_VARIANT_ADD(stream, sctp_stream_cpus) {
	.workload = "sctp_stream",
	.all_cpus = 1,
};

FIXTURE_VARIANT_ADD(stream, sctp_stream_many_1) {
	.workload = "sctp_stream_many",
	.all_cpus = 0,
};

FIXTURE_VARIANT_ADD(stream, sctp_stream_many_cpus) {
	.workload = "sctp_stream_many",
	.all_cpus = 1,
};

FIXTURE_VARIANT_ADD(stream, tcp_rr_1) {
	.workload = "tcp_rr",
	.all_cpus = 0,
};

FIXTURE_VARIANT_ADD(stream, tcp_rr_cpus) {
	.workload = "tcp_rr",
	.all_cpus = 1,
};

FIXTURE_VARIANT_ADD(stream, tipc_stream_1) {
	.workload = "tipc_stream",
	.all_cpus = 0,
};

FIXTURE_VARIANT_ADD(stream, tipc_stream_cpus) {
	.workload = "tipc_stream",
	.all_cpus = 1,
};

FIXTURE_VARIANT_ADD(stream, tipc_rr_1) {
	.workload = "tipc_rr",
	.all_cpus = 0,
};

/* --netns: every IP workload over veth between two namespaces. */
FIXTURE_VARIANT_ADD(stream, tcp_stream_netns_cpus) {
	.workload = "tcp_stream",
	.all_cpus = 1,
	.netns = 1,
};

FIXTURE_VARIANT_ADD(stream, udp_stream_netns_cpus) {
	.workload = "udp_stream",
	.all_cpus = 1,
	.netns = 1,
};

FIXTURE_VARIANT_ADD(stream, sctp_stream_netns_1) {
	.workload = "sctp_stream",
	.all_cpus = 0,
	.netns = 1,
};

FIXTURE_VARIANT_ADD(stream, sctp_stream_many_netns_1) {
	.workload = "sctp_stream_many",
	.all_cpus = 0,
	.netns = 1,
};

FIXTURE_VARIANT_ADD(stream, tcp_rr_netns_1) {
	.workload = "tcp_rr",
	.all_cpus = 0,
	.netns = 1,
};

/*
 * Namespaces and links a --netns run of ours left behind: entries named
 * wl_stream-* in /run/netns, the veth names in this namespace.  Fills
 * @what with the first found.
 */
static int wlt_netns_leftovers(char *what, size_t len)
{
	struct dirent *d;
	DIR *dir;
	int n = 0;

	what[0] = '\0';
	dir = opendir("/run/netns");
	while (dir && (d = readdir(dir)))
		if (!strncmp(d->d_name, "wl_stream-", 10) && !n++)
			snprintf(what, len, "/run/netns/%s", d->d_name);
	if (dir)
		closedir(dir);
	if (!access("/sys/class/net/wl-snd", F_OK) ||
	    !access("/sys/class/net/wl-rcv", F_OK)) {
		if (!n++)
			snprintf(what, len, "a wl-snd/wl-rcv link in this namespace");
	}
	return n;
}

/*
 * Every workload, 1 and `cpus` instances: exit 0, integrity ok, one entry
 * per instance with traffic, the rates consistent with each other, the
 * schema's members exactly, the CPU shares within what /proc/stat showed
 * around the run.
 */
/*
 * Why instances of an SCTP run moved nothing in the window, when the run's
 * own SCTP MIB deltas say it was the kernel: it dropped a received packet
 * or chunk (socket backlog or receive buffer full: SctpInPktDiscards,
 * SctpInDataChunkDiscards) and the sender waited for its retransmission
 * timeout (SctpT3RtxExpireds; RTO >= net.sctp.rto_min, 1 s, as long as the
 * window).  The deltas cover the run, not the window: the drop can fall in
 * the warm-up and the expiry after the window.  NULL when nothing explains
 * the stall.
 */
static const char *wlt_sctp_stall_reason(const char *json, char *buf,
					 size_t len)
{
	const char *m = wl_json_member(json, "sctp_mib");
	double t3, drops;

	if (!m || *m != '{')
		return NULL;
	t3 = wlt_num(m, "SctpT3RtxExpireds");
	drops = wlt_num(m, "SctpInPktDiscards") +
		wlt_num(m, "SctpInDataChunkDiscards");
	if (!(t3 >= 1 && drops >= 1))
		return NULL;
	snprintf(buf, len,
		 "kernel: SCTP dropped %.0f received packet(s) or chunk(s) and waited for %.0f T3-rtx timeout(s) (RTO >= net.sctp.rto_min, 1 s) in the run: %.0f instance(s) stalled for the %s s window (docs/wl_stream.md, \"SCTP stalls\")",
		 drops, t3, wlt_num(json, "stalled_instances"), WLT_WINDOW);
	return buf;
}

TEST_F(stream, runs_with_integrity)
{
	struct wlt_run *r = self->run;
	const char *it = NULL, *e, *o;
	int n = variant->all_cpus ? wlt_ncpus() : 1, count = 0;
	double agg, v, sum = 0;
	struct wlt_stat st0, st1;
	char args[256], why[320];
	int stalled = 0;

	snprintf(args, sizeof(args), "-w %s -n %s -l %s -W %s --verify --json%s",
		 variant->workload, variant->all_cpus ? "cpus" : "1",
		 WLT_WINDOW, WLT_WARMUP, variant->netns ? " --netns" : "");
	ASSERT_EQ(0, wlt_stat_read(&st0));
	wlt_run(r, args);
	ASSERT_EQ(0, wlt_stat_read(&st1));
	if (wlt_exit(r) == WLT_SKIP)
		SKIP(return, "%.*s", wlt_line_len(r->err), r->err);
	ASSERT_EQ(0, wlt_exit(r)) TH_LOG("wl_stream %s: %s", args, r->err);
	ASSERT_NE(NULL, r->json) TH_LOG("no JSON line in: %s", r->out);
	ASSERT_TRUE(wl_json_valid_object(r->json)) TH_LOG("%s", r->json);
	EXPECT_TRUE(wlt_str_is(r->json, "tool", "wl_stream"));
	EXPECT_EQ(5, wlt_num(r->json, "schema"));
	wlt_check_schema(_metadata, r->json);
	EXPECT_TRUE(wlt_str_is(r->json, "workload", variant->workload));
	EXPECT_TRUE(wlt_str_is(r->json, "path", variant->netns ? "netns" : "loopback"));
	if (variant->netns) {
		o = wl_json_member(r->json, "netns");
		ASSERT_NE(NULL, o);
		EXPECT_TRUE(wlt_str_is(o, "receiver_addr", "198.18.0.2"));
		EXPECT_EQ(0, wlt_netns_leftovers(why, sizeof(why)))
			TH_LOG("left behind: %s", why);
	}
	ASSERT_TRUE(wlt_str_is(r->json, "integrity", "ok")) TH_LOG("%s", r->err);
	EXPECT_EQ(n, wlt_num(r->json, "instances"));

	/*
	 * A window in which an instance moved nothing is flagged by
	 * wl_stream; it passes only as a skip, and only when the kernel's own
	 * counters explain it (and nothing above failed: a SKIP would hide
	 * it).
	 */
	it = NULL;
	o = wl_json_member(r->json, "per_instance");
	while ((e = wl_json_next_elem(&it, o)))
		stalled += wl_json_true(wl_json_member(e, "stalled"));
	EXPECT_EQ(stalled, wlt_num(r->json, "stalled_instances"));
	if (stalled && _metadata->passed &&
	    wlt_sctp_stall_reason(r->json, why, sizeof(why)))
		SKIP(return, "%s", why);
	ASSERT_EQ(0, stalled) TH_LOG("wl_stream %s: %s", args, r->err);
	it = NULL;
	agg = wlt_num(r->json, "aggregate");
	EXPECT_LT(0, agg) TH_LOG("aggregate %f", agg);

	o = wl_json_member(r->json, "per_instance");
	while ((e = wl_json_next_elem(&it, o))) {
		v = wlt_num(e, "value");
		EXPECT_LT(0, v) TH_LOG("instance %d: no traffic", count);
		EXPECT_LT(0, wlt_num(e, "recv_bytes"));
		if (strcmp(variant->workload, "udp_stream")) {
			EXPECT_EQ(wlt_num(e, "sent_bytes"),
				  wlt_num(e, "recv_bytes"));
		}
		sum += v;
		count++;
	}
	EXPECT_EQ(n, count);
	/* The aggregate is the sum of the (rounded) per-instance values. */
	EXPECT_GE(0.01 * n + 0.01, fabs(sum - agg)) TH_LOG("%f vs %f", sum,
							   agg);

	if (!strcmp(variant->workload, "udp_stream")) {
		o = wl_json_member(r->json, "udp");
		ASSERT_NE(NULL, o);
		EXPECT_EQ(agg, wlt_num(o, "recv_mbps"));
		EXPECT_LE(wlt_num(o, "recv_mbps"),
			  wlt_num(o, "send_mbps") * 1.05 + 1);
		v = wlt_num(o, "loss_pct");
		EXPECT_TRUE(v >= 0 && v < 100) TH_LOG("loss %f", v);
		wlt_check_udp(_metadata, r->json);
	}
	if (strstr(variant->workload, "_rr")) {
		o = wl_json_member(r->json, "rr");
		ASSERT_NE(NULL, o);
		EXPECT_LT(0, wlt_num(o, "p50_us"));
		EXPECT_LE(wlt_num(o, "p50_us"), wlt_num(o, "p90_us"));
		EXPECT_LE(wlt_num(o, "p90_us"), wlt_num(o, "p99_us"));
		EXPECT_LT(0, wlt_num(o, "samples"));
	}
	o = wl_json_member(r->json, "cpu");
	ASSERT_NE(NULL, o);
	v = wlt_num(o, "usr") + wlt_num(o, "sys") + wlt_num(o, "softirq") +
	    wlt_num(o, "irq") + wlt_num(o, "idle") + wlt_num(o, "steal");
	EXPECT_TRUE(fabs(v - 100) < 0.1) TH_LOG("cpu shares sum to %f", v);
	wlt_check_cpu(_metadata, r->json, &st0, &st1);
}

FIXTURE(engine) {
	struct wlt_run *run;
};

FIXTURE_SETUP(engine)
{
	self->run = calloc(1, sizeof(*self->run));
	ASSERT_NE(NULL, self->run);
}

FIXTURE_TEARDOWN(engine)
{
	free(self->run);
}

TEST_F(engine, threads_mode)
{
	struct wlt_run *r = self->run;

	wlt_run(r, "-w tcp_stream -n cpus -T -l 1 -W 0.3 --verify --json");
	ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	ASSERT_NE(NULL, r->json);
	EXPECT_TRUE(wl_json_true(wl_json_member(r->json, "threads")));
	EXPECT_TRUE(wlt_str_is(r->json, "integrity", "ok"));
	EXPECT_LT(0, wlt_num(r->json, "aggregate"));
}

/* Pinned workers report the CPU they were pinned to; @want instances. */
static void wlt_check_pins(struct __test_metadata *_metadata,
			   const char *json, int same, int want)
{
	const char *it = NULL, *e;
	double sp, rp;
	int count = 0;

	while ((e = wl_json_next_elem(&it,
				      wl_json_member(json, "per_instance")))) {
		count++;
		sp = wlt_num(e, "snd_pin");
		rp = wlt_num(e, "rcv_pin");
		EXPECT_LE(0, sp);
		EXPECT_EQ(sp, wlt_num(e, "snd_cpu"));
		EXPECT_EQ(rp, wlt_num(e, "rcv_cpu"));
		/* The harness macros do not nest in if/else. */
		if (same)
			EXPECT_EQ(sp, rp);
		if (!same)
			EXPECT_NE(sp, rp);
	}
	/* One entry per instance, so the loop above checked each. */
	EXPECT_EQ(want, count);
	EXPECT_EQ(want, wlt_num(json, "instances"));
}

/*
 * The controller sleeps through the window: at most one wakeup of its own
 * in it (the end), whatever the window's length; both worker modes.  (A
 * controller polling every 50 ms sleeps 40 times in 2 s.)
 */
TEST_F(engine, controller_silent_in_window)
{
	static const char * const runs[] = {
		"-w tcp_stream -n 2 -l 2 -W 0.3 --json",
		"-w tcp_rr -n 2 -T -l 2 -W 0.3 --json",
	};
	struct wlt_run *r = self->run;
	unsigned int i;

	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		wlt_run(r, runs[i]);
		ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s: %s", runs[i], r->err);
		ASSERT_NE(NULL, r->json);
		EXPECT_TRUE(wlt_str_is(r->json, "integrity", "ok"));
		EXPECT_LE(0, wlt_num(r->json, "controller_sleeps"))
			TH_LOG("%s: no controller_sleeps", runs[i]);
		EXPECT_GE(2, wlt_num(r->json, "controller_sleeps"))
			TH_LOG("%s: the controller slept %.0f times in the window",
			       runs[i], wlt_num(r->json, "controller_sleeps"));
	}
}

TEST_F(engine, pin_same_cpu)
{
	struct wlt_run *r = self->run;

	wlt_run(r, "-w tcp_rr -n cpus -p same-cpu -l 1 -W 0.3 --json");
	ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	ASSERT_NE(NULL, r->json);
	EXPECT_TRUE(wlt_str_is(r->json, "pin", "same-cpu"));
	wlt_check_pins(_metadata, r->json, 1, wlt_ncpus());
}

TEST_F(engine, pin_cross_llc)
{
	struct wlt_run *r = self->run;

	wlt_run(r, "-w tcp_stream -n 2 -p cross-llc -l 1 -W 0.3 --json");
	if (wlt_exit(r) == WLT_SKIP)
		SKIP(return, "%.*s", wlt_line_len(r->err), r->err);
	ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	ASSERT_NE(NULL, r->json);
	EXPECT_LE(2, wlt_num(r->json, "llcs"));
	wlt_check_pins(_metadata, r->json, 0, 2);
}

TEST_F(engine, brief_format)
{
	struct wlt_run *r = self->run;
	double avg = 0;
	char tail = 0;

	wlt_run(r, "-w tcp_stream -n 2 -l 1 -W 0.2 --brief");
	ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	ASSERT_EQ(2, sscanf(r->out, "TCP_STREAM-2 : Avg: %lf%c", &avg, &tail))
		TH_LOG("'%s'", r->out);
	EXPECT_EQ('\n', tail);
	EXPECT_LT(0, avg);
}

/*
 * Loss provoked: a receive buffer of one byte (the kernel's minimum, a
 * datagram or two) cannot keep up with the sender, so datagrams are lost,
 * yet some arrive -- and the loss reported is what the counts say.
 */
TEST_F(engine, udp_loss_provoked)
{
	struct wlt_run *r = self->run;
	double loss;

	wlt_run(r, "-w udp_stream -n 1 -S 1 -l 1 -W 0.3 --json");
	ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	ASSERT_NE(NULL, r->json);
	EXPECT_TRUE(wlt_str_is(r->json, "integrity", "ok"));
	EXPECT_EQ(1, wlt_num(r->json, "remote_buf"));
	loss = wlt_check_udp(_metadata, r->json);
	EXPECT_LT(0, loss) TH_LOG("no loss with a one-byte receive buffer");
	EXPECT_GT(100, loss) TH_LOG("nothing arrived");
}

/* Bad usage: exit 2, one-line error and the usage on stderr, no stdout. */
TEST_F(engine, bad_usage)
{
	static const char * const bad[] = {
		"-w nosuch", "-n 0", "-n cpus/0", "-n 12x", "-n -3",
		"-m 0", "-m 1Q", "-l 0", "-l abc", "-W -1", "-p diagonal",
		"-w udp_stream -m 70000", "-w udp_stream -m 2000 -M 1000",
		"--json --brief", "--bogus", "stray", "-l",
	};
	struct wlt_run *r = self->run;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		wlt_run(r, bad[i]);
		EXPECT_EQ(WLT_USAGE, wlt_exit(r)) TH_LOG("'%s'", bad[i]);
		EXPECT_STREQ("", r->out) TH_LOG("'%s'", bad[i]);
		EXPECT_EQ(0, strncmp(r->err, "wl_stream: ", 11))
			TH_LOG("'%s': %s", bad[i], r->err);
		EXPECT_NE(NULL, strstr(r->err, "usage:"));
	}
}

/*
 * RLIMIT_NOFILE: threads mode holds every endpoint in one process.  A soft
 * limit below what the run needs is raised by wl_stream itself; a hard
 * limit below it fails the run before any worker starts: exit 1, nothing on
 * stdout, and stderr names the limit and the need.
 */
TEST_F(engine, nofile_limit)
{
	const char *args = "-w tcp_stream -T -n 2*cpus -l 0.5 -W 0";
	struct wlt_run *r = self->run;
	struct rlimit rl;

	ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &rl));
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < 1024)
		SKIP(return, "hard RLIMIT_NOFILE %lu is already low",
		     (unsigned long)rl.rlim_max);
	rl.rlim_cur = 24;
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	wlt_run(r, args);
	EXPECT_EQ(0, wlt_exit(r)) TH_LOG("soft limit 24: %s", r->err);

	rl.rlim_max = 24;
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	wlt_run(r, args);
	EXPECT_EQ(1, wlt_exit(r)) TH_LOG("hard limit 24: %s", r->err);
	EXPECT_STREQ("", r->out);
	EXPECT_NE(NULL, strstr(r->err, "RLIMIT_NOFILE hard limit 24 is below"))
		TH_LOG("%s", r->err);
}

/* Up to @max children of @parent, from /proc/PID/stat; how many. */
static int wlt_children(pid_t parent, pid_t *pids, int max)
{
	char path[300], buf[512], *p;
	struct dirent *de;
	int n = 0, pp;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < max) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if (wl_read_file(path, buf, sizeof(buf)) <= 0)
			continue;
		p = strrchr(buf, ')');
		if (p && sscanf(p + 1, " %*c %d", &pp) == 1 && pp == parent)
			pids[n++] = atoi(de->d_name);
	}
	closedir(d);
	return n;
}

/*
 * Wait until @pid, a wl_stream, has @want workers (it installs its signal
 * handlers before it forks them), polling for up to 60 s; up to @max of
 * their pids in @kids.  How many it has.
 */
static int wlt_wait_workers(pid_t pid, int want, pid_t *kids, int max)
{
	struct timespec nap = { 0, 50000000 };
	int i, n = 0;

	for (i = 0; i < 1200; i++) {
		n = wlt_children(pid, kids, max);
		if (n >= want)
			break;
		nanosleep(&nap, NULL);
	}
	return n;
}

/*
 * SIGTERM in the middle of a run: wl_stream exits 1 within seconds and has
 * reaped every worker -- as a child subreaper we would inherit any orphan.
 */
TEST_F(engine, sigterm_reaps_all)
{
	char *argv[] = { "wl_stream", "-n", "cpus", "-l", "60", "-W", "0",
			 NULL };
	int ofd, efd, st, n, want = 2 * sysconf(_SC_NPROCESSORS_ONLN);
	struct wlt_run *r = self->run;
	static pid_t kids[4096];
	pid_t pid, orphan;
	time_t t0;

	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
	pid = wlt_spawn(argv, &ofd, &efd);
	ASSERT_LT(0, pid);
	n = wlt_wait_workers(pid, want, kids, ARRAY_SIZE(kids));
	t0 = time(NULL);
	ASSERT_EQ(0, kill(pid, SIGTERM));
	wlt_collect(r, pid, ofd, efd);
	EXPECT_EQ(want, n) TH_LOG("workers found: %d", n);
	EXPECT_GE(10, time(NULL) - t0);
	EXPECT_EQ(1, wlt_exit(r)) TH_LOG("%s", r->err);
	EXPECT_NE(NULL, strstr(r->err, "signal")) TH_LOG("%s", r->err);
	orphan = waitpid(-1, &st, WNOHANG);
	EXPECT_EQ(-1, orphan) TH_LOG("orphan %d left behind", orphan);
	EXPECT_EQ(ECHILD, errno);
}

/* TCP segments sent so far (/proc/net/snmp Tcp: OutSegs), or -1. */
static long long wlt_tcp_outsegs(void)
{
	char buf[8192], *names, *vals, *sn, *sv, *n, *v;
	long long out = -1;

	if (wl_read_file("/proc/net/snmp", buf, sizeof(buf)) <= 0)
		return -1;
	names = strstr(buf, "\nTcp: ");
	vals = names ? strstr(names + 1, "\nTcp: ") : NULL;
	if (!vals)
		return -1;
	*strchrnul(names + 1, '\n') = '\0';
	*strchrnul(vals + 1, '\n') = '\0';
	for (n = strtok_r(names + 6, " ", &sn), v = strtok_r(vals + 6, " ", &sv);
	     n && v; n = strtok_r(NULL, " ", &sn), v = strtok_r(NULL, " ", &sv))
		if (!strcmp(n, "OutSegs"))
			out = atoll(v);
	return out;
}

/*
 * An instance that moves nothing in the window is reported as stalled, not
 * as a clean run: both instances' workers are stopped (SIGSTOP) once data
 * flows, during the warm-up, and continued only after the window: exit 0,
 * integrity ok, every instance "stalled" with no traffic, the count in
 * "stalled_instances", a warning per instance on stderr.
 */
TEST_F_TIMEOUT(engine, stall_flagged, 240)
{
	char *argv[] = { "wl_stream", "-n", "2", "-l", "2", "-W", NULL,
			 "--json", NULL };
	struct timespec nap = { 0, 50000000 }, after = { 0, 0 };
	struct wlt_run *r = self->run;
	const char *it = NULL, *e;
	long long segs0, segs = -1;
	int ofd, efd, i, k, warm, n = 0, count = 0;
	pid_t pid = -1, kids[8];
	char wstr[16];
	double t0;

	segs0 = wlt_tcp_outsegs();
	ASSERT_LE(0, segs0) TH_LOG("no Tcp OutSegs in /proc/net/snmp");
	/*
	 * The workers must be stopped inside the warm-up: where finding them
	 * with data flowing takes longer than that (a slow kernel), run
	 * again with a warm-up twice as long.
	 */
	for (warm = 3; warm <= 48; warm *= 2) {
		snprintf(wstr, sizeof(wstr), "%d", warm);
		argv[6] = wstr;
		t0 = wl_now();
		pid = wlt_spawn(argv, &ofd, &efd);
		ASSERT_LT(0, pid);
		/* All four workers there and data flowing: the warm-up is on. */
		for (i = 0; i < 1200; i++) {
			nanosleep(&nap, NULL);
			n = wlt_children(pid, kids, 8);
			segs = wlt_tcp_outsegs();
			if (n == 4 && segs > segs0 + 200)
				break;
		}
		for (k = 0; k < n; k++)
			kill(kids[k], SIGSTOP);
		if (wl_now() - t0 < warm - 1)
			break;
		TH_LOG("workers stopped %.1f s after the start, -W %d: again",
		       wl_now() - t0, warm);
		for (k = 0; k < n; k++)
			kill(kids[k], SIGCONT);
		kill(pid, SIGTERM);
		wlt_collect(r, pid, ofd, efd);
		segs0 = wlt_tcp_outsegs();
	}
	ASSERT_GE(48, warm) TH_LOG("workers never stopped inside the warm-up");
	/* Past the warm-up and the 2 s window, with room to spare. */
	after.tv_sec = warm + 4;
	nanosleep(&after, NULL);
	for (k = 0; k < n; k++)
		kill(kids[k], SIGCONT);
	wlt_collect(r, pid, ofd, efd);
	ASSERT_EQ(4, n) TH_LOG("workers found: %d", n);
	ASSERT_LT(segs0 + 200, segs) TH_LOG("no traffic before the stop");
	ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	ASSERT_NE(NULL, r->json);
	EXPECT_TRUE(wlt_str_is(r->json, "integrity", "ok"));
	EXPECT_EQ(2, wlt_num(r->json, "stalled_instances")) TH_LOG("%s", r->json);
	while ((e = wl_json_next_elem(&it,
				      wl_json_member(r->json, "per_instance")))) {
		EXPECT_TRUE(wl_json_true(wl_json_member(e, "stalled")));
		EXPECT_EQ(0, wlt_num(e, "value"));
		EXPECT_LE(1.9, wlt_num(e, "max_gap_s"));
		count++;
	}
	EXPECT_EQ(2, count);
	EXPECT_NE(NULL, strstr(r->err, "instance 0 moved no data"));
	EXPECT_NE(NULL, strstr(r->err, "instance 1 moved no data"));
}

/*
 * SIGKILL leaves the controller no chance to clean up: its workers must
 * still die (PR_SET_PDEATHSIG) instead of running on as orphans.
 */
TEST_F(engine, sigkill_workers_die)
{
	char *argv[] = { "wl_stream", "-n", "2", "-l", "60", "-W", "0", NULL };
	struct wlt_run *r = self->run;
	struct timespec ts;
	int ofd, efd, st, n, orphans = 0, killed = 0;
	pid_t pid, kids[8];
	time_t t0;

	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
	pid = wlt_spawn(argv, &ofd, &efd);
	ASSERT_LT(0, pid);
	n = wlt_wait_workers(pid, 4, kids, ARRAY_SIZE(kids));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	wlt_collect(r, pid, ofd, efd);
	EXPECT_EQ(4, n) TH_LOG("workers found: %d", n);
	EXPECT_EQ(128 + SIGKILL, wlt_exit(r));
	/* Its 4 workers come to us, and must all be dead within seconds. */
	t0 = time(NULL);
	while (time(NULL) - t0 < 10) {
		pid = waitpid(-1, &st, WNOHANG);
		if (pid < 0)
			break;
		if (pid == 0) {
			ts.tv_sec = 0;
			ts.tv_nsec = 50000000;
			nanosleep(&ts, NULL);
			continue;
		}
		orphans++;
		killed += WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
	}
	EXPECT_EQ(-1, waitpid(-1, &st, WNOHANG)) TH_LOG("a worker survived");
	EXPECT_EQ(4, orphans);
	EXPECT_EQ(4, killed);
}

/* --schedstats: counters on for the run, the sysctl restored after it. */
TEST_F(engine, schedstats_on_and_restored)
{
	struct wlt_run *r = self->run;
	char before[16], after[16];
	const char *ss;

	if (geteuid())
		SKIP(return, "not root");
	if (wl_read_file("/proc/sys/kernel/sched_schedstats", before,
			 sizeof(before)) < 0)
		SKIP(return, "no kernel.sched_schedstats (CONFIG_SCHEDSTATS)");
	wlt_run(r, "-w tcp_rr -n 2 -l 1 -W 0.2 --schedstats --json");
	ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	ASSERT_LT(0, wl_read_file("/proc/sys/kernel/sched_schedstats", after,
				  sizeof(after)));
	EXPECT_STREQ(before, after);
	ss = wl_json_member(r->json, "schedstat");
	ASSERT_NE(NULL, ss);
	EXPECT_TRUE(wl_json_true(wl_json_member(ss, "enabled")));
	EXPECT_TRUE(wl_json_true(wl_json_member(ss, "available")));
	/* Thousands of request/response wakeups happened. */
	EXPECT_LT(100, wlt_num(ss, "ttwu_count"));
}

/* Add placement column @col's @v to the wakeups or to their parts. */
static void wlt_place_add(const char *col, double v, double *wakeups,
			  double *parts)
{
	unsigned int k;

	if (!strcmp(col, "wakeups"))
		*wakeups += v;
	for (k = 0; k < ARRAY_SIZE(wl_place_parts); k++)
		if (!strcmp(col, wl_place_parts[k]))
			*parts += v;
}

/* The module's placement table now, summed over its rows; 0 or -errno. */
static int wlt_place_now(double *wakeups, double *parts)
{
	struct wl_table *t = wl_table_new();
	unsigned long long v;
	int r, c, ret;

	*wakeups = 0;
	*parts = 0;
	ret = t ? wl_module_table("placement", t) : -ENOMEM;
	for (r = 0; !ret && r < t->nrows; r++)
		for (c = 1; c < t->ncols; c++)
			if (!wl_table_u64(t, r, c, &v))
				wlt_place_add(t->col[c], v, wakeups, parts);
	free(t);
	return ret;
}

/*
 * wakelab.ko loaded for a test: 0, *@loaded_here set when the test loaded
 * it; 1 with *@skip saying why the test skips; -1 when it failed to load
 * (the test has failed).
 */
static int wlt_module_ready(struct __test_metadata *_metadata,
			    int *loaded_here, const char **skip)
{
	static char why[300];
	int ret;

	*loaded_here = 0;
	*skip = "not root";
	if (geteuid())
		return 1;
	if (wl_module_loaded())
		return 0;
	if (wl_module_absent()) {
		snprintf(why, sizeof(why), "%s not found (set WAKELAB_MODULE)",
			 wl_module_path());
		*skip = why;
		return 1;
	}
	ret = wl_module_load(NULL);
	EXPECT_EQ(0, ret) TH_LOG("loading %s: %s", wl_module_path(),
				 strerror(-ret));
	*loaded_here = !ret;
	return ret ? -1 : 0;
}

/*
 * With wakelab.ko loaded and enabled, "wakelab" carries the placement
 * deltas of the window: no column goes backwards, wakeups happened, and
 * the five placement categories add up to them.  wl_stream samples the
 * counters while wakeups run on other CPUs, so its window sum may be off
 * by a few in-flight updates; the test's own reading around the run, with
 * the probes detached, must add up exactly and hold the window's.  The
 * module is loaded here if it is not (skip only when the .ko is absent)
 * and left as found: loaded or not, enabled or not.
 */
TEST_F(engine, wakelab_deltas)
{
	struct wlt_run *r = self->run;
	const char *wl, *pl, *it = NULL, *rec, *it2, *v;
	int loaded_here = 0, ret, records = 0, err_on, err_off, err_rd;
	const char *skip;
	double d, w0, p0, w1, p1, ww = 0, wp = 0, slack;
	char key[64], col[64], was[8] = "0";
	char wk0[WL_CGROUP_PATH] = "", wk1[WL_CGROUP_PATH] = "";
	char path[WL_CGROUP_PATH], dir[WL_CGROUP_PATH + 32];

	ret = wlt_module_ready(_metadata, &loaded_here, &skip);
	ASSERT_LE(0, ret);
	if (ret)
		SKIP(return, "%s", skip);
	err_rd = wl_knob_get("enable", was, sizeof(was)) > 0 ? 0 : -EIO;
	if (wl_knob_get("workload", wk0, sizeof(wk0)) <= 0)
		err_rd = -EIO;
	/* Quiet counters for the test's own reading, then count. */
	err_off = wl_knob_set("enable", "0");
	err_rd |= wlt_place_now(&w0, &p0);
	err_on = wl_knob_set("enable", "1");
	wlt_run(r, "-w tcp_rr -n 2 -l 1 -W 0.2 --json");
	err_off |= wl_knob_set("enable", "0");
	err_rd |= wlt_place_now(&w1, &p1);
	if (wl_knob_get("workload", wk1, sizeof(wk1)) <= 0)
		err_rd = -EIO;
	/* Restore before any assertion can end the test. */
	if (was[0] == '1')
		err_on |= wl_knob_set("enable", "1");
	if (loaded_here)
		EXPECT_EQ(0, wl_module_unload_retry());
	ASSERT_EQ(0, err_on);
	ASSERT_EQ(0, err_off);
	ASSERT_EQ(0, err_rd);
	ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	EXPECT_LT(0, w1 - w0) TH_LOG("no wakeups counted while enabled");
	EXPECT_EQ(w1 - w0, p1 - p0)
		TH_LOG("categories %.0f, wakeups %.0f", p1 - p0, w1 - w0);

	wl = wl_json_member(r->json, "wakelab");
	ASSERT_NE(NULL, wl);
	ASSERT_EQ('{', *wl) TH_LOG("wakelab is not an object");
	/* The workers' cgroup, or why none; the module's file as it was. */
	EXPECT_STREQ(wk0, wk1);
	if (wl_json_string(wl_json_member(wl, "workload"), path,
			   sizeof(path))) {
		EXPECT_EQ(0, wl_json_string(wl_json_member(wl, "workload_off"),
					    path, sizeof(path)))
			TH_LOG("neither workload nor workload_off");
	} else {
		EXPECT_NE(NULL, strstr(path, "/wakelab.")) TH_LOG("%s", path);
		snprintf(dir, sizeof(dir), "/sys/fs/cgroup%s", path);
		EXPECT_NE(0, access(dir, F_OK)) TH_LOG("%s left behind", dir);
		EXPECT_EQ('{', wl_json_member(wl, "placement_others") ?
			       *wl_json_member(wl, "placement_others") : 0);
	}
	pl = wl_json_member(wl, "placement");
	ASSERT_NE(NULL, pl);
	ASSERT_EQ('{', *pl) TH_LOG("placement unreadable");
	while ((rec = wl_json_next_member(&it, pl, key, sizeof(key)))) {
		it2 = NULL;
		records++;
		while ((v = wl_json_next_member(&it2, rec, col, sizeof(col)))) {
			ASSERT_EQ(0, wl_json_number(v, &d));
			EXPECT_LE(0, d) TH_LOG("%s.%s went backwards", key, col);
			wlt_place_add(col, d, &ww, &wp);
		}
	}
	EXPECT_LT(0, records);
	/* Hundreds of request/response wakeups in the window. */
	EXPECT_LT(0, ww) TH_LOG("no wakeups in the window");
	slack = 2 * wlt_ncpus() + ww / 50;
	EXPECT_GE(slack, fabs(ww - wp))
		TH_LOG("window: categories %.0f, wakeups %.0f", wp, ww);
	EXPECT_GE(w1 - w0 + slack, ww)
		TH_LOG("window %.0f wakeups, whole run %.0f", ww, w1 - w0);
}

/*
 * One workload at a time: with wakelab.ko's workload file naming another
 * cgroup, a run refuses (exit 1, saying so) and leaves the file as it was.
 */
TEST_F(engine, workload_busy_refused)
{
	struct wlt_run *r = self->run;
	char why[256], buf[WL_CGROUP_PATH + 2], path[WL_CGROUP_PATH];
	char want[WL_CGROUP_PATH + 32];
	struct wl_cgroup cg;
	int loaded_here = 0, ret, err;
	const char *skip;

	ret = wlt_module_ready(_metadata, &loaded_here, &skip);
	ASSERT_LE(0, ret);
	if (ret)
		SKIP(return, "%s", skip);
	if (wl_cgroup_create(&cg, "wakelab-busy", why, sizeof(why))) {
		if (loaded_here)
			EXPECT_EQ(0, wl_module_unload_retry());
		SKIP(return, "%s", why);
	}
	snprintf(path, sizeof(path), "%s", cg.path);
	snprintf(want, sizeof(want), "workload file names %s,", path);
	err = wl_knob_set("workload", path);
	if (!err)
		wlt_run(r, "-w tcp_stream -n 1 -l 1 -W 0.2 --json");
	ret = wl_knob_get("workload", buf, sizeof(buf));
	/* Restore before any assertion can end the test. */
	EXPECT_EQ(0, wl_knob_set("workload", "/"));
	EXPECT_EQ(0, wl_cgroup_remove(&cg));
	if (loaded_here)
		EXPECT_EQ(0, wl_module_unload_retry());
	ASSERT_EQ(0, err);
	EXPECT_EQ(1, wlt_exit(r));
	EXPECT_NE(NULL, strstr(r->err, want)) TH_LOG("%s", r->err);
	ASSERT_LT(0, ret);
	buf[strcspn(buf, "\n")] = '\0';
	EXPECT_STREQ(path, buf);
}

/*
 * The cgroup a killed run left in the workload file ("wakelab.PID", PID
 * gone) is taken over: the run goes on, removes it, and leaves "/".
 */
TEST_F(engine, workload_of_killed_run_taken_over)
{
	struct wlt_run *r = self->run;
	char why[256], name[32], buf[WL_CGROUP_PATH + 2], dir[WL_CGROUP_PATH];
	struct wl_cgroup cg;
	int loaded_here = 0, ret, err, st, gone;
	const char *skip;
	pid_t dead;

	ret = wlt_module_ready(_metadata, &loaded_here, &skip);
	ASSERT_LE(0, ret);
	if (ret)
		SKIP(return, "%s", skip);
	dead = fork();
	ASSERT_LE(0, dead);
	if (!dead)
		_exit(0);
	ASSERT_EQ(dead, waitpid(dead, &st, 0));
	snprintf(name, sizeof(name), "wakelab.%d", (int)dead);
	if (wl_cgroup_create(&cg, name, why, sizeof(why))) {
		if (loaded_here)
			EXPECT_EQ(0, wl_module_unload_retry());
		SKIP(return, "%s", why);
	}
	snprintf(dir, sizeof(dir), "%s", cg.dir);
	err = wl_knob_set("workload", cg.path);
	if (!err)
		wlt_run(r, "-w tcp_stream -n 1 -l 1 -W 0.2 --json");
	gone = access(dir, F_OK) != 0;
	ret = wl_knob_get("workload", buf, sizeof(buf));
	EXPECT_EQ(0, wl_knob_set("workload", "/"));
	EXPECT_EQ(0, wl_cgroup_remove(&cg));
	if (loaded_here)
		EXPECT_EQ(0, wl_module_unload_retry());
	ASSERT_EQ(0, err);
	EXPECT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	EXPECT_NE(NULL, strstr(r->err, "the cgroup of a run that was killed"))
		TH_LOG("%s", r->err);
	ASSERT_LT(0, ret);
	EXPECT_STREQ("/\n", buf);
	EXPECT_TRUE(gone) TH_LOG("%s left", dir);
}

/* --- the netperf engine (-w netperf:TEST) ---------------------------------- */

FIXTURE(netperf) {
	struct wlt_run *run;
};

FIXTURE_VARIANT(netperf) {
	const char *test;
	int all_cpus;
	const char *pin;
};

FIXTURE_SETUP(netperf)
{
	self->run = calloc(1, sizeof(*self->run));
	ASSERT_NE(NULL, self->run);
}

FIXTURE_TEARDOWN(netperf)
{
	free(self->run);
}

FIXTURE_VARIANT_ADD(netperf, tcp_stream_cpus) {
	.test = "TCP_STREAM",
	.all_cpus = 1,
};

FIXTURE_VARIANT_ADD(netperf, udp_stream_1) {
	.test = "UDP_STREAM",
};

FIXTURE_VARIANT_ADD(netperf, tcp_rr_same_cpu) {
	.test = "TCP_RR",
	.all_cpus = 1,
	.pin = "same-cpu",
};

/*
 * netperf runs the workload: exit 0, the engine named, one entry per
 * instance with traffic, a window of the length asked for, the schema's
 * members exactly, a UDP receive rate no higher than the send rate, pinned
 * netperfs on their CPUs and, with wakelab.ko loaded and enabled, wakeups
 * in the placement table's window deltas.
 */
TEST_F(netperf, runs)
{
	struct wlt_run *r = self->run;
	int n = variant->all_cpus ? wlt_ncpus() : 1, count = 0;
	int loaded_here = 0, enabled_here = 0, ret;
	const char *it = NULL, *e, *o, *pl, *rec, *it2 = NULL;
	double v, sum = 0, ww = 0, wp = 0, d;
	char args[256], key[64], col[64], was[8] = "";

	if (!geteuid() && !wl_module_loaded() && !wl_module_absent()) {
		ret = wl_module_load(NULL);
		ASSERT_EQ(0, ret) TH_LOG("loading %s: %s", wl_module_path(),
					 strerror(-ret));
		loaded_here = 1;
	}
	if (wl_module_loaded() && wl_knob_get("enable", was, sizeof(was)) > 0 &&
	    was[0] == '0' && !wl_knob_set("enable", "1"))
		enabled_here = 1;
	snprintf(args, sizeof(args), "-w netperf:%s -n %d -l 1 -W 0.3%s%s --json",
		 variant->test, n, variant->pin ? " -p " : "",
		 variant->pin ? variant->pin : "");
	wlt_run(r, args);
	if (enabled_here)
		wl_knob_set("enable", "0");
	if (loaded_here)
		EXPECT_EQ(0, wl_module_unload_retry());
	if (wlt_exit(r) == WLT_SKIP)
		SKIP(return, "%.*s", wlt_line_len(r->err), r->err);
	ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	ASSERT_NE(NULL, r->json) TH_LOG("no JSON: %s", r->out);
	ASSERT_TRUE(wl_json_valid_object(r->json));
	o = wl_json_member(r->json, "engine");
	ASSERT_NE(NULL, o);
	EXPECT_EQ(0, strncmp(o, "\"netperf", 8)) TH_LOG("engine %.20s", o);
	EXPECT_TRUE(wlt_str_is(r->json, "integrity", "ok"));
	/* The controller sleeps through the window (the end wakes it). */
	EXPECT_GE(2, wlt_num(r->json, "controller_sleeps"))
		TH_LOG("the controller slept %.0f times in the window",
		       wlt_num(r->json, "controller_sleeps"));
	EXPECT_EQ(n, wlt_num(r->json, "instances"));
	EXPECT_LE(0.99, wlt_num(r->json, "duration_s"));
	EXPECT_GT(3.0, wlt_num(r->json, "duration_s"));
	wlt_check_schema(_metadata, r->json);
	while ((e = wl_json_next_elem(&it, wl_json_member(r->json,
							  "per_instance")))) {
		count++;
		v = wlt_num(e, "value");
		EXPECT_LT(0, v) TH_LOG("instance %d moved nothing", count - 1);
		sum += v;
		if (variant->pin)
			EXPECT_EQ(wlt_num(e, "snd_pin"), wlt_num(e, "snd_cpu"));
	}
	EXPECT_EQ(n, count);
	v = wlt_num(r->json, "aggregate");
	EXPECT_LT(0, v);
	EXPECT_GE(0.02 * count, fabs(v - sum)) TH_LOG("aggregate %f, sum %f", v, sum);
	if (!strcmp(variant->test, "UDP_STREAM")) {
		o = wl_json_member(r->json, "udp");
		ASSERT_NE(NULL, o);
		EXPECT_LT(0, wlt_num(o, "recv_mbps"));
		EXPECT_GE(wlt_num(o, "send_mbps") * 1.001, wlt_num(o, "recv_mbps"));
	}
	o = wl_json_member(r->json, "wakelab");
	ASSERT_NE(NULL, o);
	if (*o != '{')
		SKIP(return, "wakelab.ko not loaded: no placement table to check");
	pl = wl_json_member(o, "placement");
	ASSERT_NE(NULL, pl);
	ASSERT_EQ('{', *pl) TH_LOG("placement unreadable");
	while ((rec = wl_json_next_member(&it2, pl, key, sizeof(key)))) {
		it = NULL;
		while ((e = wl_json_next_member(&it, rec, col, sizeof(col)))) {
			ASSERT_EQ(0, wl_json_number(e, &d));
			wlt_place_add(col, d, &ww, &wp);
		}
	}
	if (was[0] == '0' && !enabled_here)
		SKIP(return, "wakelab.ko could not be enabled");
	EXPECT_LT(0, ww) TH_LOG("no wakeups placed in the window");
	EXPECT_GE(2 * wlt_ncpus() + ww / 50, fabs(ww - wp))
		TH_LOG("window: categories %.0f, wakeups %.0f", wp, ww);
}

/* Debian's netperf has no SCTP: a skip that says so, not a failure. */
/*
 * netperf as its users run it (--plain): every instance's own result, the
 * window spanning their whole run, the engine named so.
 */
TEST_F(engine, netperf_plain)
{
	static const char * const runs[] = {
		"-w netperf:TCP_STREAM --plain -n 2 -l 1 --json",
		"-w netperf:TCP_RR --plain -n 2 -l 1 --json",
	};
	struct wlt_run *r = self->run;
	const char *it, *e, *eng;
	unsigned int i;
	int count;

	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		wlt_run(r, runs[i]);
		if (wlt_exit(r) == WLT_SKIP)
			SKIP(return, "%.*s", wlt_line_len(r->err), r->err);
		ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s: %s", runs[i], r->err);
		ASSERT_NE(NULL, r->json);
		eng = wl_json_member(r->json, "engine");
		ASSERT_NE(NULL, eng);
		EXPECT_NE(NULL, strstr(eng, " plain\"")) TH_LOG("%.40s", eng);
		EXPECT_TRUE(wlt_str_is(r->json, "integrity", "ok"));
		/* The netperfs' whole run: at least their -l. */
		EXPECT_LE(1.0, wlt_num(r->json, "duration_s"));
		it = NULL;
		count = 0;
		while ((e = wl_json_next_elem(&it, wl_json_member(r->json,
							     "per_instance")))) {
			EXPECT_LT(0, wlt_num(e, "value")) TH_LOG("%s", runs[i]);
			count++;
		}
		EXPECT_EQ(2, count);
	}
}

TEST_F(engine, netperf_sctp_skips)
{
	struct wlt_run *r = self->run;

	wlt_run(r, "-w netperf:SCTP_STREAM -n 1 -l 1 -W 0.3 --json");
	if (wlt_exit(r) == 0)
		SKIP(return, "this netperf has SCTP_STREAM");
	ASSERT_EQ(WLT_SKIP, wlt_exit(r)) TH_LOG("%s", r->err);
	EXPECT_STREQ("", r->out);
	EXPECT_TRUE(strstr(r->err, "SCTP_STREAM") || strstr(r->err, "netperf package"))
		TH_LOG("%s", r->err);
}

/* What netperf cannot do: exit 2, nothing on stdout, the reason. */
TEST_F(engine, netperf_bad_usage)
{
	static const char * const bad[] = {
		"-w netperf:FOO", "-w netperf:tcp_stream", "-w netperf:",
		"-w netperf:SCTP_STREAM_MANY", "-w netperf:TCP_STREAM -T",
		"-w netperf:TCP_STREAM --verify", "-w netperf:UDP_STREAM --netns",
		"-w netperf:TCP_RR --remote 127.0.0.1",
		"-w netperf:UDP_STREAM --plain", "-w tcp_stream --plain",
	};
	struct wlt_run *r = self->run;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		wlt_run(r, bad[i]);
		EXPECT_EQ(WLT_USAGE, wlt_exit(r)) TH_LOG("'%s'", bad[i]);
		EXPECT_STREQ("", r->out) TH_LOG("'%s'", bad[i]);
		EXPECT_NE(NULL, strstr(r->err, "netperf"))
			TH_LOG("'%s': %s", bad[i], r->err);
	}
}

/*
 * --profile's bad input is refused before any worker starts, with the
 * reason: a directory that is a file (or, without perf, perf's absence and
 * its Debian package), with either engine (netperf's: unless netperf is
 * missing, which skips first), a missing parent; with --serve: a usage
 * error.
 */
TEST_F(engine, profile_refusals)
{
	static const char * const usage[] = {
		"--serve --profile /tmp/p", "--profile=",
	};
	struct wlt_run *r = self->run;
	char args[128], file[] = "/tmp/wl_stream_test.XXXXXX";
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(usage); i++) {
		wlt_run(r, usage[i]);
		EXPECT_EQ(WLT_USAGE, wlt_exit(r)) TH_LOG("'%s'", usage[i]);
		EXPECT_NE(NULL, strstr(r->err, "--profile"))
			TH_LOG("'%s': %s", usage[i], r->err);
	}
	fd = mkstemp(file);
	ASSERT_LE(0, fd);
	close(fd);
	snprintf(args, sizeof(args), "-l 0.5 -W 0.1 --profile %s", file);
	wlt_run(r, args);
	EXPECT_EQ(1, wlt_exit(r));
	EXPECT_TRUE(strstr(r->err, "not a directory") ||
		    strstr(r->err, "apt install linux-perf")) TH_LOG("%s", r->err);
	snprintf(args, sizeof(args),
		 "-w netperf:TCP_RR --plain -l 0.5 --profile %s", file);
	wlt_run(r, args);
	if (wlt_exit(r) == WLT_SKIP) {
		EXPECT_NE(NULL, strstr(r->err, "needs netperf and netserver"))
			TH_LOG("%s", r->err);
	} else {
		EXPECT_EQ(1, wlt_exit(r));
		EXPECT_TRUE(strstr(r->err, "not a directory") ||
			    strstr(r->err, "apt install linux-perf"))
			TH_LOG("%s", r->err);
	}
	unlink(file);
	wlt_run(r, "-l 0.5 -W 0.1 --profile /nonexistent/wl_stream_test/p");
	EXPECT_EQ(1, wlt_exit(r));
	EXPECT_TRUE(strstr(r->err, "No such file or directory") ||
		    strstr(r->err, "apt install linux-perf")) TH_LOG("%s", r->err);
	EXPECT_STREQ("", r->out);
}

/* --- network paths: --netns and two hosts --------------------------------- */

/* --netns: the offloads asked for are the ones the report shows. */
TEST_F(engine, netns_offloads)
{
	struct wlt_run *r = self->run;
	const char *o;
	char left[128];

	wlt_run(r, "--netns --gro off --tso off --gso off -l 0.5 -W 0 --json");
	if (wlt_exit(r) == WLT_SKIP)
		SKIP(return, "%.*s", wlt_line_len(r->err), r->err);
	ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	ASSERT_NE(NULL, r->json);
	o = wl_json_member(r->json, "netns");
	ASSERT_NE(NULL, o);
	EXPECT_TRUE(wlt_str_is(o, "gro", "off") && wlt_str_is(o, "tso", "off") &&
		    wlt_str_is(o, "gso", "off")) TH_LOG("%s", o);
	EXPECT_TRUE(wlt_str_is(r->json, "integrity", "ok"));
	wlt_run(r, "--netns --gro on -w udp_stream -l 0.5 -W 0 --json");
	ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	o = wl_json_member(r->json, "netns");
	ASSERT_NE(NULL, o);
	EXPECT_TRUE(wlt_str_is(o, "gro", "on")) TH_LOG("%s", o);
	EXPECT_EQ(0, wlt_netns_leftovers(left, sizeof(left))) TH_LOG("%s", left);
}

/* Whether /run/netns has the receiver namespace of wl_stream @pid. */
static bool wlt_has_ns(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/run/netns/wl_stream-%d-rcv", (int)pid);
	return !access(path, F_OK);
}

/*
 * --netns and a signal: SIGTERM mid-run removes both namespaces; a run
 * killed with SIGKILL (which no program can clean up after) leaves them,
 * and the next --netns run removes them.
 */
TEST_F(engine, netns_cleanup_on_signal)
{
	char *argv[] = { "wl_stream", "--netns", "-n", "2", "-l", "60", "-W",
			 "0", NULL };
	struct wlt_run *r = self->run;
	char left[128];
	int ofd, efd, i;
	pid_t pid, kids[16];

	wlt_run(r, "--netns -l 0.1 -W 0");
	if (wlt_exit(r) == WLT_SKIP)
		SKIP(return, "%.*s", wlt_line_len(r->err), r->err);
	for (i = 0; i < 2; i++) {
		pid = wlt_spawn(argv, &ofd, &efd);
		ASSERT_LT(0, pid);
		wlt_wait_workers(pid, 4, kids, ARRAY_SIZE(kids));
		EXPECT_TRUE(wlt_has_ns(pid));
		ASSERT_EQ(0, kill(pid, i ? SIGKILL : SIGTERM));
		wlt_collect(r, pid, ofd, efd);
		if (!i) {
			EXPECT_EQ(1, wlt_exit(r)) TH_LOG("%s", r->err);
			EXPECT_EQ(0, wlt_netns_leftovers(left, sizeof(left)))
				TH_LOG("after SIGTERM: %s", left);
		} else {
			EXPECT_TRUE(wlt_has_ns(pid));
		}
	}
	wlt_run(r, "--netns -l 0.1 -W 0");
	EXPECT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	EXPECT_NE(NULL, strstr(r->err, "removed namespace")) TH_LOG("%s", r->err);
	EXPECT_EQ(0, wlt_netns_leftovers(left, sizeof(left))) TH_LOG("%s", left);
}

/* A control port of this test's own, away from other runs'. */
static int wlt_port(int k)
{
	return 20000 + (getpid() * 7 + k) % 12000;	/* below ephemeral ports */
}

/*
 * Run "ip @args" quietly, exec'd from PATH (not through sh, whose applets
 * may shadow it); its exit status.
 */
static int wlt_ip(const char *fmt, ...)
{
	char cmd[320], *argv[32], *save = NULL, *t;
	int argc = 1, st, fd;
	va_list ap;
	pid_t pid;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	argv[0] = "ip";
	for (t = strtok_r(cmd, " ", &save); t && argc < 31;
	     t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		dup2(fd, 2);
		execvp("ip", argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

FIXTURE(remote) {
	struct wlt_run *run;
	char ns[2][48];
	bool made;
	pid_t server;
	int sofd, sefd;
};

FIXTURE_SETUP(remote)
{
	self->run = calloc(1, sizeof(*self->run));
	ASSERT_NE(NULL, self->run);
	self->server = -1;
}

FIXTURE_TEARDOWN(remote)
{
	if (self->server > 0) {
		kill(self->server, SIGKILL);
		waitpid(self->server, NULL, 0);
	}
	if (self->made) {
		wlt_ip("netns del %s", self->ns[0]);
		wlt_ip("netns del %s", self->ns[1]);
	}
	free(self->run);
}

/*
 * Two hosts on one machine: namespaces "server" (198.18.1.2) and "client"
 * (198.18.1.1) joined by a veth pair, made here with ip as
 * tools/testing/selftests/net does; 0, or a skip reason in @why.
 */
static int wlt_two_hosts(FIXTURE_DATA(remote) *self, char *why, size_t len)
{
	snprintf(self->ns[0], sizeof(self->ns[0]), "wlt-srv-%d", (int)getpid());
	snprintf(self->ns[1], sizeof(self->ns[1]), "wlt-cli-%d", (int)getpid());
	if (wlt_ip("-V") || wlt_ip("netns add %s", self->ns[0])) {
		snprintf(why, len, "no iproute2 ip that can add a namespace");
		return -1;
	}
	self->made = true;
	if (wlt_ip("netns add %s", self->ns[1]) ||
	    wlt_ip("link add wlt0 netns %s type veth peer name wlt1 netns %s",
		   self->ns[0], self->ns[1]) ||
	    wlt_ip("-n %s addr add 198.18.1.2/30 dev wlt0", self->ns[0]) ||
	    wlt_ip("-n %s addr add 198.18.1.1/30 dev wlt1", self->ns[1]) ||
	    wlt_ip("-n %s link set wlt0 up", self->ns[0]) ||
	    wlt_ip("-n %s link set wlt1 up", self->ns[1]) ||
	    wlt_ip("-n %s link set lo up", self->ns[0]) ||
	    wlt_ip("-n %s link set lo up", self->ns[1])) {
		snprintf(why, len, "cannot join two namespaces with veth");
		return -1;
	}
	return 0;
}

/* Start "wl_stream --serve..." (in namespace @ns unless NULL). */
static pid_t wlt_serve(FIXTURE_DATA(remote) *self, const char *ns,
		       const char *addr, int port, int sessions)
{
	char a[64], p[16], n[16];
	char *argv[] = { "ip", "netns", "exec", (char *)ns, NULL, a, "--port",
			 p, "--sessions", n, NULL };
	char **av = ns ? argv : argv + 4;

	snprintf(a, sizeof(a), "--serve=%s", addr);
	snprintf(p, sizeof(p), "%d", port);
	snprintf(n, sizeof(n), "%d", sessions);
	argv[4] = (char *)wlt_binary();
	self->server = wlt_spawn_cmd(av, &self->sofd, &self->sefd);
	return self->server;
}

/* Run a client: "wl_stream @args" in namespace @ns. */
static void wlt_client(struct wlt_run *r, const char *ns, const char *args)
{
	char buf[512], *argv[64], *save = NULL, *t;
	int argc = 5, ofd, efd;
	pid_t pid;

	snprintf(buf, sizeof(buf), "%s", args);
	argv[0] = "ip";
	argv[1] = "netns";
	argv[2] = "exec";
	argv[3] = (char *)ns;
	argv[4] = (char *)wlt_binary();
	for (t = strtok_r(buf, " ", &save); t && argc < 63;
	     t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	pid = wlt_spawn_cmd(argv, &ofd, &efd);
	wlt_collect(r, pid, ofd, efd);
}

/*
 * UDP and TCP streams between two namespaces, one the server's, one the
 * client's: integrity on, the receiver's counts in the client's report,
 * the server done after its two sessions.
 */
TEST_F(remote, udp_and_tcp_between_namespaces)
{
	struct wlt_run *r = self->run;
	const char *it = NULL, *e, *o;
	char why[128], args[256];
	int port = wlt_port(0), k;

	if (wlt_two_hosts(self, why, sizeof(why)))
		SKIP(return, "%s", why);
	/* Not loopback: the server serves only clients with its token. */
	setenv("WL_STREAM_TOKEN", "wlt-two-hosts", 1);
	ASSERT_LT(0, wlt_serve(self, self->ns[0], "198.18.1.2", port, 2));
	for (k = 0; k < 2; k++) {
		snprintf(args, sizeof(args),
			 "--remote 198.18.1.2 --port %d --connect-timeout 20 -w %s -n 2 -l 1 -W 0.3 --verify --json%s",
			 port, k ? "tcp_stream" : "udp_stream", k ? "" : " --receive");
		wlt_client(r, self->ns[1], args);
		ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s: %s", args, r->err);
		ASSERT_NE(NULL, r->json) TH_LOG("%s", r->out);
		wlt_check_schema(_metadata, r->json);
		EXPECT_TRUE(wlt_str_is(r->json, "path", "remote"));
		o = wl_json_member(r->json, "remote");
		ASSERT_NE(NULL, o);
		EXPECT_TRUE(wlt_str_is(o, "here", k ? "senders" : "receivers"));
		EXPECT_TRUE(wlt_str_is(r->json, "integrity", "ok")) TH_LOG("%s", r->err);
		EXPECT_LT(0, wlt_num(r->json, "aggregate"));
		it = NULL;
		while ((e = wl_json_next_elem(&it, wl_json_member(r->json, "per_instance")))) {
			EXPECT_LT(0, wlt_num(e, "recv_bytes"));
			if (k) {
				EXPECT_EQ(wlt_num(e, "sent_bytes"),
					  wlt_num(e, "recv_bytes"));
			} else {
				EXPECT_LE(wlt_num(e, "recv_msgs"),
					  wlt_num(e, "sent_msgs"));
			}
		}
	}
	wlt_collect(r, self->server, self->sofd, self->sefd);
	self->server = -1;
	EXPECT_EQ(0, wlt_exit(r)) TH_LOG("server: %s", r->err);
	EXPECT_NE(NULL, strstr(r->out, "udp_stream, 2 instances, this host sent"))
		TH_LOG("server: %s", r->out);
	EXPECT_NE(NULL, strstr(r->out, "tcp_stream, 2 instances, this host received"))
		TH_LOG("server: %s", r->out);
}

/* A control connection to a server on 127.0.0.1:@port, once it listens. */
static int wlt_connect_local(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int fd, i;

	sin.sin_port = htons(port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (i = 0; i < 100; i++) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			return -1;
		if (!connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
			return fd;
		close(fd);
		usleep(100000);
	}
	return -1;
}

/*
 * Refused sessions: a client of another protocol version (both versions
 * named), one asking for more instances than --max-instances allows;
 * neither counts against --sessions, which a real session then ends.
 */
TEST_F(remote, refusals)
{
	int port = wlt_port(1), fd;
	struct wlt_run *r = self->run;
	char buf[256] = "", args[160];
	char p[16], *argv[] = { "wl_stream", "--serve=127.0.0.1", "--port", p,
				"--sessions", "1", "--max-instances", "4", NULL };
	ssize_t n;

	snprintf(p, sizeof(p), "%d", port);
	self->server = wlt_spawn(argv, &self->sofd, &self->sefd);
	ASSERT_LT(0, self->server);
	fd = wlt_connect_local(port);
	ASSERT_LE(0, fd);
	ASSERT_LT(0, write(fd, "wl_stream 99 workload=tcp_stream\n", 33));
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	ASSERT_LT(0, n);
	buf[n] = '\0';
	EXPECT_NE(NULL, strstr(buf, "error version mismatch: this server speaks wl_stream protocol 2, the client 99"))
		TH_LOG("reply: %s", buf);
	snprintf(args, sizeof(args), "--remote 127.0.0.1 --port %d -n 5 -l 0.5 -W 0",
		 port);
	wlt_run(r, args);
	EXPECT_EQ(1, wlt_exit(r)) TH_LOG("%s", r->err);
	EXPECT_NE(NULL, strstr(r->err, "the client asks for 5 instances; this server allows 4 (--max-instances)"))
		TH_LOG("%s", r->err);
	snprintf(args, sizeof(args), "--remote 127.0.0.1 --port %d -n 4 -l 0.5 -W 0 --json",
		 port);
	wlt_run(r, args);
	EXPECT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	EXPECT_TRUE(r->json && wlt_str_is(r->json, "integrity", "ok"));
	wlt_collect(r, self->server, self->sofd, self->sefd);
	self->server = -1;
	EXPECT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	EXPECT_NE(NULL, strstr(r->out, "tcp_stream, 4 instances")) TH_LOG("%s", r->out);
}

/*
 * A client that floods polls without reading the replies: the server's
 * sends time out and the session ends; a SIGTERM then stops the server
 * within seconds (a blocked send must not hold it).
 */
TEST_F(remote, client_stops_reading)
{
	int port = wlt_port(5), fd, one = 1;
	struct wlt_run *r = self->run;
	static char poll_line[1 << 16];
	double t0;

	ASSERT_LT(0, wlt_serve(self, NULL, "127.0.0.1", port, 100));
	fd = wlt_connect_local(port);
	ASSERT_LE(0, fd);
	/* A small receive buffer fills fast. */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &one, sizeof(one));
	ASSERT_LT(0, dprintf(fd, "wl_stream 1 workload=udp_stream instances=1 msg=1472 recv=65536 sndbuf=0 rcvbuf=0 duration=30 warmup=0 verify=0 receive=1 ports=9\n"));
	usleep(300000);
	ASSERT_LT(0, dprintf(fd, "go\n"));
	snprintf(poll_line, sizeof(poll_line), "poll 1 0,0,0,0,0,0\n");
	t0 = wl_now();
	/* The server's replies pile up unread until its send times out. */
	while (wl_now() - t0 < 3 &&
	       send(fd, poll_line, strlen(poll_line), MSG_NOSIGNAL | MSG_DONTWAIT) > 0)
		;
	t0 = wl_now();
	ASSERT_EQ(0, kill(self->server, SIGTERM));
	wlt_collect(r, self->server, self->sofd, self->sefd);
	self->server = -1;
	close(fd);
	EXPECT_GT(15, wl_now() - t0);
	EXPECT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	EXPECT_NE(NULL, strstr(r->err, "--serve stopped by a signal")) TH_LOG("%s", r->err);
}

/* Nobody serves: a clear error within the connect timeout, exit 1. */
TEST_F(remote, unreachable_peer)
{
	struct wlt_run *r = self->run;
	char args[128];
	double t0 = wl_now();

	snprintf(args, sizeof(args), "--remote 127.0.0.1 --port %d --connect-timeout 1 -l 1",
		 wlt_port(2));
	wlt_run(r, args);
	EXPECT_EQ(1, wlt_exit(r)) TH_LOG("%s", r->err);
	EXPECT_NE(NULL, strstr(r->err, "cannot reach a wl_stream --serve at 127.0.0.1:"))
		TH_LOG("%s", r->err);
	EXPECT_GT(5, wl_now() - t0);
}

/*
 * The server dies mid-run (SIGKILL: it, its session and its workers):
 * the client says so and exits 1 within its reply timeout.
 */
TEST_F(remote, server_dies_mid_run)
{
	char p[16], *argv[] = { "wl_stream", "--remote", "127.0.0.1", "--port",
				p, "-n", "2", "-l", "60", "-W", "0", NULL };
	struct wlt_run *r = self->run;
	int port = wlt_port(3), ofd, efd;
	pid_t pid, kids[16];
	double t0;

	snprintf(p, sizeof(p), "%d", port);
	ASSERT_LT(0, wlt_serve(self, NULL, "127.0.0.1", port, 1));
	pid = wlt_spawn(argv, &ofd, &efd);
	ASSERT_LT(0, pid);
	wlt_wait_workers(pid, 2, kids, ARRAY_SIZE(kids));
	usleep(500000);
	t0 = wl_now();
	ASSERT_EQ(0, kill(self->server, SIGKILL));
	waitpid(self->server, NULL, 0);
	close(self->sofd);
	close(self->sefd);
	self->server = -1;
	wlt_collect(r, pid, ofd, efd);
	EXPECT_EQ(1, wlt_exit(r)) TH_LOG("%s", r->err);
	EXPECT_TRUE(strstr(r->err, "closed the control connection") ||
		    strstr(r->err, "did not answer")) TH_LOG("%s", r->err);
	/* In the window the connection's end wakes the client (SIGIO). */
	EXPECT_GT(5, wl_now() - t0);
}

/*
 * Neither controller wakes in the window: the client's waits between its
 * two samples (the closing poll's exchange included) and the server's
 * between its reply to the opening poll and the closing poll's arrival;
 * each receiver's longest gap crosses the wire.  Before protocol 2 the
 * client polled every 50 ms (about 40 waits in this window).  Every wait is
 * a voluntary context switch, and on a kernel without PREEMPT_RT nothing
 * else is: there the sleeps have the same bounds.  On PREEMPT_RT the
 * controller woken by SIGIO also sleeps on the socket's spinlock_t, which
 * the softirq that sent the signal still holds.
 */
TEST_F(remote, controllers_silent_in_window)
{
	static const char * const wls[] = { "tcp_stream", "udp_stream", "tcp_rr" };
	struct wlt_run *r = self->run;
	const char *at, *o, *e, *it;
	int port = wlt_port(6), slept, waits;
	struct utsname u;
	double gaps;
	char args[160];
	unsigned int i;
	bool rt;

	ASSERT_EQ(0, uname(&u));
	rt = strstr(u.version, "PREEMPT_RT");
	ASSERT_LT(0, wlt_serve(self, NULL, "127.0.0.1", port, ARRAY_SIZE(wls)));
	for (i = 0; i < ARRAY_SIZE(wls); i++) {
		snprintf(args, sizeof(args),
			 "--remote 127.0.0.1 --port %d -w %s -n 2 -l 2 -W 0.3 --json",
			 port, wls[i]);
		wlt_run(r, args);
		ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s: %s", wls[i], r->err);
		ASSERT_NE(NULL, r->json);
		EXPECT_LE(0, wlt_num(r->json, "controller_sleeps"));
		EXPECT_LE(0, wlt_num(r->json, "controller_waits"));
		EXPECT_GE(3, wlt_num(r->json, "controller_waits"))
			TH_LOG("%s: the client's controller waited %.0f times in the window",
			       wls[i], wlt_num(r->json, "controller_waits"));
		if (!rt)
			EXPECT_GE(3, wlt_num(r->json, "controller_sleeps"))
				TH_LOG("%s: the client's controller slept %.0f times in the window",
				       wls[i], wlt_num(r->json, "controller_sleeps"));
		/* Some receiver paused 0.5 ms or more in 2 s; none past it. */
		it = NULL;
		gaps = 0;
		o = wl_json_member(r->json, "per_instance");
		while ((e = wl_json_next_elem(&it, o))) {
			EXPECT_GE(2.5, wlt_num(e, "max_gap_s"));
			gaps += wlt_num(e, "max_gap_s");
		}
		EXPECT_LT(0, gaps) TH_LOG("%s: no receiver's gap from the server", wls[i]);
	}
	wlt_collect(r, self->server, self->sofd, self->sefd);
	self->server = -1;
	EXPECT_EQ(0, wlt_exit(r)) TH_LOG("server: %s", r->err);
	for (i = 0, at = r->out; i < ARRAY_SIZE(wls); i++, at++) {
		at = strstr(at, "controller slept ");
		ASSERT_NE(NULL, at) TH_LOG("server: %s", r->out);
		ASSERT_EQ(2, sscanf(at, "controller slept %d times in the window (%d waits)",
				    &slept, &waits));
		EXPECT_GE(2, waits) TH_LOG("server, session %u: %d waits in the window", i, waits);
		if (!rt) {
			EXPECT_GE(2, slept)
				TH_LOG("server, session %u: %d sleeps in the window", i, slept);
		} else {
			TH_LOG("server, session %u: %d sleeps, %d waits in the window (PREEMPT_RT)",
			       i, slept, waits);
		}
	}
}

/*
 * The client dies mid-run: the server ends that session (its workers
 * gone) and serves the next one.
 */
TEST_F(remote, client_dies_server_goes_on)
{
	char p[16], *argv[] = { "wl_stream", "--remote", "127.0.0.1", "--port",
				p, "-n", "2", "-l", "60", "-W", "0", NULL };
	struct wlt_run *r = self->run;
	int port = wlt_port(4), ofd, efd;
	pid_t pid, kids[16];
	char args[128];
	double t0;

	snprintf(p, sizeof(p), "%d", port);
	ASSERT_LT(0, wlt_serve(self, NULL, "127.0.0.1", port, 2));
	pid = wlt_spawn(argv, &ofd, &efd);
	ASSERT_LT(0, pid);
	wlt_wait_workers(pid, 2, kids, ARRAY_SIZE(kids));
	usleep(500000);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	wlt_collect(r, pid, ofd, efd);
	snprintf(args, sizeof(args), "--remote 127.0.0.1 --port %d -w tcp_rr -n 2 -l 1 -W 0 --json",
		 port);
	/* Told "busy" while the dead client's session winds down: again. */
	t0 = wl_now();
	do {
		wlt_run(r, args);
	} while (wlt_exit(r) == 1 && strstr(r->err, "busy: serving") &&
		 wl_now() - t0 < 10 && !usleep(100000));
	EXPECT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	EXPECT_TRUE(r->json && wlt_str_is(r->json, "integrity", "ok"));
	wlt_collect(r, self->server, self->sofd, self->sefd);
	self->server = -1;
	EXPECT_EQ(0, wlt_exit(r)) TH_LOG("server: %s", r->err);
	EXPECT_NE(NULL, strstr(r->err, "session with 127.0.0.1")) TH_LOG("%s", r->err);
}

TEST_HARNESS_MAIN
