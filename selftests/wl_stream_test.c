// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the wl_stream workload engine, run as a child process exactly as
 * users and wl_compare run it: every workload for 1 and `cpus` instances
 * (short windows, --verify), asserting exit 0, integrity "ok", one
 * per-instance entry each and non-zero throughput; threads mode; pinning
 * (same-cpu must land sender and receiver on one CPU, cross-llc on two);
 * --brief's format; bad usage exits 2 with nothing on stdout; SIGTERM stops
 * a run with every worker reaped (no orphans); --schedstats turns the
 * counters on and restores the sysctl; the wakelab table deltas when the
 * module is there.  SCTP workloads SKIP when the kernel has no SCTP.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "wakelab_util.h"
#include "wl_json.h"

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

/* Start wl_stream with @argv (NULL-terminated, argv[0] ignored). */
static pid_t wlt_spawn(char **argv, int *out_fd, int *err_fd)
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
		argv[0] = (char *)wlt_binary();
		execvp(argv[0], argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	*out_fd = po[0];
	*err_fd = pe[0];
	return pid;
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

FIXTURE(stream) {
	struct wlt_run *run;
};

FIXTURE_VARIANT(stream) {
	const char *workload;
	int all_cpus;
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

/*
 * Every workload, 1 and `cpus` instances: exit 0, integrity ok, one entry
 * per instance with traffic, the rates consistent with each other.
 */
TEST_F(stream, runs_with_integrity)
{
	struct wlt_run *r = self->run;
	const char *it = NULL, *e, *o;
	int n = variant->all_cpus ? wlt_ncpus() : 1, count = 0;
	double agg, v, sum = 0;
	char args[256];

	snprintf(args, sizeof(args), "-w %s -n %s -l %s -W %s --verify --json",
		 variant->workload, variant->all_cpus ? "cpus" : "1",
		 WLT_WINDOW, WLT_WARMUP);
	wlt_run(r, args);
	if (wlt_exit(r) == WLT_SKIP)
		SKIP(return, "%.*s", wlt_line_len(r->err), r->err);
	ASSERT_EQ(0, wlt_exit(r)) TH_LOG("wl_stream %s: %s", args, r->err);
	ASSERT_NE(NULL, r->json) TH_LOG("no JSON line in: %s", r->out);
	ASSERT_TRUE(wl_json_valid_object(r->json)) TH_LOG("%s", r->json);
	EXPECT_TRUE(wlt_str_is(r->json, "tool", "wl_stream"));
	EXPECT_EQ(1, wlt_num(r->json, "schema"));
	EXPECT_TRUE(wlt_str_is(r->json, "workload", variant->workload));
	EXPECT_TRUE(wlt_str_is(r->json, "integrity", "ok"));
	EXPECT_EQ(n, wlt_num(r->json, "instances"));
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
	}
	if (!strcmp(variant->workload, "tcp_rr")) {
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

/* Pinned workers report the CPU they were pinned to. */
static void wlt_check_pins(struct __test_metadata *_metadata,
			   const char *json, int same)
{
	const char *it = NULL, *e;
	double sp, rp;

	while ((e = wl_json_next_elem(&it,
				      wl_json_member(json, "per_instance")))) {
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
}

TEST_F(engine, pin_same_cpu)
{
	struct wlt_run *r = self->run;

	wlt_run(r, "-w tcp_rr -n cpus -p same-cpu -l 1 -W 0.3 --json");
	ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	ASSERT_NE(NULL, r->json);
	EXPECT_TRUE(wlt_str_is(r->json, "pin", "same-cpu"));
	wlt_check_pins(_metadata, r->json, 1);
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
	wlt_check_pins(_metadata, r->json, 0);
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

/*
 * SIGTERM in the middle of a run: wl_stream exits 1 within seconds and has
 * reaped every worker -- as a child subreaper we would inherit any orphan.
 */
TEST_F(engine, sigterm_reaps_all)
{
	char *argv[] = { "wl_stream", "-n", "cpus", "-l", "60", "-W", "0",
			 NULL };
	struct wlt_run *r = self->run;
	struct timespec ts = { 1, 500000000 };
	int ofd, efd, st;
	pid_t pid, orphan;
	time_t t0;

	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
	pid = wlt_spawn(argv, &ofd, &efd);
	ASSERT_LT(0, pid);
	nanosleep(&ts, NULL);
	t0 = time(NULL);
	ASSERT_EQ(0, kill(pid, SIGTERM));
	wlt_collect(r, pid, ofd, efd);
	EXPECT_GE(10, time(NULL) - t0);
	EXPECT_EQ(1, wlt_exit(r)) TH_LOG("%s", r->err);
	EXPECT_NE(NULL, strstr(r->err, "signal")) TH_LOG("%s", r->err);
	orphan = waitpid(-1, &st, WNOHANG);
	EXPECT_EQ(-1, orphan) TH_LOG("orphan %d left behind", orphan);
	EXPECT_EQ(ECHILD, errno);
}

/*
 * SIGKILL leaves the controller no chance to clean up: its workers must
 * still die (PR_SET_PDEATHSIG) instead of running on as orphans.
 */
TEST_F(engine, sigkill_workers_die)
{
	char *argv[] = { "wl_stream", "-n", "2", "-l", "60", "-W", "0", NULL };
	struct wlt_run *r = self->run;
	struct timespec ts = { 1, 500000000 };
	int ofd, efd, st, orphans = 0, killed = 0;
	time_t t0;
	pid_t pid;

	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
	pid = wlt_spawn(argv, &ofd, &efd);
	ASSERT_LT(0, pid);
	nanosleep(&ts, NULL);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	wlt_collect(r, pid, ofd, efd);
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

/* With wakelab.ko loaded, "wakelab" carries the placement deltas. */
TEST_F(engine, wakelab_deltas)
{
	struct wlt_run *r = self->run;
	const char *wl, *pl, *it = NULL, *rec, *it2, *v;
	int loaded_here = 0, ret, records = 0;
	char key[64], col[64];
	double d;

	if (geteuid())
		SKIP(return, "not root");
	if (!wl_module_loaded()) {
		ret = wl_module_load(NULL);
		if (ret)
			SKIP(return, "wakelab.ko not loadable: %s",
			     strerror(-ret));
		loaded_here = 1;
	}
	wlt_run(r, "-w tcp_rr -n 2 -l 1 -W 0.2 --json");
	if (loaded_here)
		wl_module_unload();
	ASSERT_EQ(0, wlt_exit(r)) TH_LOG("%s", r->err);
	wl = wl_json_member(r->json, "wakelab");
	ASSERT_NE(NULL, wl);
	ASSERT_EQ('{', *wl) TH_LOG("wakelab is not an object");
	pl = wl_json_member(wl, "placement");
	ASSERT_NE(NULL, pl);
	ASSERT_EQ('{', *pl) TH_LOG("placement unreadable");
	while ((rec = wl_json_next_member(&it, pl, key, sizeof(key)))) {
		it2 = NULL;
		records++;
		while ((v = wl_json_next_member(&it2, rec, col, sizeof(col)))) {
			ASSERT_EQ(0, wl_json_number(v, &d));
			EXPECT_LE(0, d) TH_LOG("%s.%s went backwards", key, col);
		}
	}
	EXPECT_LT(0, records);
}

TEST_HARNESS_MAIN
