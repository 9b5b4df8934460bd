// SPDX-License-Identifier: GPL-2.0
/*
 * Stress of wakelab.ko under load, for the debug kernel (KASAN, lockdep,
 * kmemleak: make check-debug) and for real hosts.  Three tests:
 *  - reload_under_load: $WAKELAB_STRESS_CYCLES (default 10; 100 in make
 *    check-debug) cycles of insmod, enable, a switch every 10 ms for
 *    $WAKELAB_STRESS_SWITCHES (default 10) switches (policies in turn, bias and
 *    imbalance_pct on a patched kernel; enable/disable/reset on a stock
 *    one), rmmod; every cycle runs while 2 x CPUs tcp_stream and 2 x CPUs
 *    tcp_rr wl_stream instances (payload verified) run, with a reader of
 *    every file per CPU; every wl_stream round must exit 0;
 *  - concurrent_rw: for $WAKELAB_STRESS_SECS seconds (default 5), two
 *    threads pinned to each CPU: one reads every file (each read must
 *    parse), one writes good and bad values to the knobs (each result
 *    must be the documented one);
 *  - hotplug: $WAKELAB_HOTPLUG_CYCLES (default 2) times, one CPU of each
 *    LLC goes offline and comes back while the module is enabled (the
 *    "old" policy when the kernel has the hook) and tcp_rr runs; every
 *    table must keep parsing, and after each CPU goes offline or online
 *    the llc table must map every online CPU to its LLC in sysfs
 *    cacheinfo (a skip when sysfs has none).  Skipped when no CPU can go
 *    offline, and outside the wakelab VM unless $WAKELAB_HOTPLUG_CYCLES is
 *    set.
 * Skips when not root, without debugfs or without wakelab.ko (a module
 * file that does not load fails).  The kernel side is judged by its log:
 * scripts/vm fails a run on any splat.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "wl/core/clock.h"
#include "wl/core/file.h"
#include "wl/core/proc.h"
#include "wl/kernel/load.h"
#include "wl/kernel/topo.h"
#include "wl/kernel/wakelab_module.h"

static const char * const all_files[] = {
	"enable", "reset", "caps", "placement", "llc", "decisions",
	"oldcheck", "policy", "bias", "imbalance_pct",
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Start wl_stream -v (payload verified) in its own process group.  Two
 * run at once and the module is reloaded under them: --all-tasks keeps
 * both off the one workload file (the load measures nothing).
 */
static pid_t stream_start(const char *workload, int secs)
{
	char dur[16];
	pid_t pid;
	int fd;

	snprintf(dur, sizeof(dur), "%d", secs);
	pid = fork();
	if (pid)
		return pid;
	setpgid(0, 0);
	setpriority(PRIO_PROCESS, 0, 0);	/* the load at the default */
	fd = open("/dev/null", O_WRONLY);
	if (fd >= 0) {
		dup2(fd, 1);
		close(fd);
	}
	execlp("wl_stream", "wl_stream", "-w", workload, "-n", "2*cpus",
	       "-l", dur, "-W", "0", "-v", "-b", "--all-tasks", (char *)NULL);
	fprintf(stderr, "wl_stream: %s\n", strerror(errno));
	_exit(127);
}

/* Exit status of a finished child, -1 when killed; *done when it ended. */
static int child_poll(pid_t pid, bool block, bool *done)
{
	int st;
	pid_t r;

	r = waitpid(pid, &st, block ? 0 : WNOHANG);
	*done = r == pid;
	if (!*done)
		return 0;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

struct reader {
	pthread_t th;
	int cpu;
	bool *stop;
	bool tolerate_absent;	/* the module comes and goes */
	int sleep_us;
	unsigned long reads, absent, bad;
	char last_bad[256];
	struct wl_table *t;
};

static void pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* Read one file and check what it says; 0, -ENOENT (absent) or -1. */
static int read_check(struct reader *r, const char *name)
{
	static __thread char buf[65536];
	struct wl_policy_list pol;
	char path[256];
	ssize_t n;

	wl_path(path, sizeof(path), name);
	n = wl_read_file(path, buf, sizeof(buf));
	/* Gone, or going: the module is being unloaded. */
	if (n == -ENOENT || n == -ENXIO)
		return -ENOENT;
	if (n < 0) {
		snprintf(r->last_bad, sizeof(r->last_bad), "read %s: %s",
			 name, strerror(-n));
		return -1;
	}
	if (wl_is_table(name)) {	/* every read must parse as one */
		n = wl_table_parse(buf, path, r->t);
		if (n) {
			snprintf(r->last_bad, sizeof(r->last_bad),
				 "%s does not parse (%zd: %.80s): %.100s", name,
				 n, r->t->err, buf);
			return -1;
		}
	} else if (!strcmp(name, "policy")) {
		if (wl_policy_parse(buf, &pol)) {
			snprintf(r->last_bad, sizeof(r->last_bad),
				 "policy does not parse: %.120s", buf);
			return -1;
		}
	} else if (buf[0] < '0' || buf[0] > '9' || buf[n - 1] != '\n') {
		snprintf(r->last_bad, sizeof(r->last_bad),
			 "%s reads '%.40s'", name, buf);
		return -1;
	}
	return 0;
}

static void *reader_fn(void *arg)
{
	struct reader *r = arg;
	unsigned int i = r->cpu < 0 ? 0 : r->cpu;
	const char *name;
	int ret;

	pin_self(r->cpu);
	setpriority(PRIO_PROCESS, syscall(SYS_gettid), 0);
	while (!__atomic_load_n(r->stop, __ATOMIC_RELAXED)) {
		name = all_files[i++ % ARRAY_SIZE(all_files)];
		if (!strcmp(name, "reset"))
			continue;
		ret = read_check(r, name);
		r->reads++;
		if (ret == -ENOENT && r->tolerate_absent)
			r->absent++;
		else if (ret)
			r->bad++;
		if (r->sleep_us)
			usleep(r->sleep_us);
	}
	return NULL;
}

/* Readers, one per online CPU; returns how many were started. */
static int readers_start(struct reader *r, int max, bool *stop,
			 bool tolerate_absent, int sleep_us)
{
	bool online[WL_MAX_CPUS];
	int cpu, n = 0;

	if (wl_online_cpus(WL_CPU_SYSFS, online) <= 0)
		return 0;
	for (cpu = 0; cpu < WL_MAX_CPUS && n < max; cpu++) {
		if (!online[cpu])
			continue;
		memset(&r[n], 0, sizeof(r[n]));
		r[n].cpu = cpu;
		r[n].stop = stop;
		r[n].tolerate_absent = tolerate_absent;
		r[n].sleep_us = sleep_us;
		r[n].t = wl_table_new();
		if (!r[n].t || pthread_create(&r[n].th, NULL, reader_fn, &r[n]))
			break;
		n++;
	}
	return n;
}

/* Join the readers; returns the number of bad reads (first one logged). */
static unsigned long readers_join(struct __test_metadata *_metadata,
				  struct reader *r, int n,
				  unsigned long *reads)
{
	unsigned long bad = 0;
	int i;

	*reads = 0;
	for (i = 0; i < n; i++) {
		pthread_join(r[i].th, NULL);
		*reads += r[i].reads;
		if (r[i].bad && !bad)
			TH_LOG("cpu %d: %lu bad reads, last: %s", r[i].cpu,
			       r[i].bad, r[i].last_bad);
		bad += r[i].bad;
		free(r[i].t);
	}
	return bad;
}

/* Policy names from the policy file (0 on a kernel without the hook). */
static int policy_names(struct wl_policy_list *pol)
{
	char buf[4096];

	if (wl_knob_get("policy", buf, sizeof(buf)) < 0 ||
	    wl_policy_parse(buf, pol))
		return -1;
	return pol->n;
}

FIXTURE(stress) {
	const char *skip;
	bool loaded_here;
	bool hook;
	int ncpus;
};

FIXTURE_SETUP(stress)
{
	bool online[WL_MAX_CPUS];

	/* Summary lines survive the harness's _exit() into a pipe. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	self->skip = wl_module_setup(_metadata, "", &self->loaded_here);
	if (self->skip)
		return;
	self->hook = !strcmp(wl_cap("hook"), "yes");
	self->ncpus = wl_online_cpus(WL_CPU_SYSFS, online);
	ASSERT_LT(0, self->ncpus);
}

FIXTURE_TEARDOWN(stress)
{
	if (self->skip)
		return;
	if (!wl_module_loaded())
		wl_module_load("");
	if (wl_module_loaded()) {
		wl_knob_set("enable", "0");
		if (self->hook) {
			wl_knob_set("policy", "kernel");
			wl_knob_set("bias", "1");
			wl_knob_set("imbalance_pct", "0");
		}
	}
}

/*
 * One switch of the control state: the next policy (with a bias or
 * imbalance_pct change every few) on a patched kernel, enable/disable/
 * reset on a stock one.  0 or -errno of the failing write.
 */
static int switch_one(bool hook, const struct wl_policy_list *pol,
		      unsigned long k, const char **what)
{
	static const char * const stock[] = { "0", "1", "reset" };
	static const char * const pct[] = { "0", "110", "125", "1000" };
	const char *v;

	if (!hook) {
		v = stock[k % 3];
		*what = v;
		if (!strcmp(v, "reset"))
			return wl_knob_set("reset", "1");
		return wl_knob_set("enable", v);
	}
	switch (k % 5) {
	case 3:
		*what = k % 2 ? "bias 0" : "bias 1";
		return wl_knob_set("bias", k % 2 ? "0" : "1");
	case 4:
		*what = pct[k % 4];
		return wl_knob_set("imbalance_pct", pct[k % 4]);
	default:
		*what = pol->name[k % pol->n];
		return wl_knob_set("policy", pol->name[k % pol->n]);
	}
}

/*
 * Reap the workload round's instances that have ended (all of them when
 * @block) and check each exit status: every round must exit 0.  A reaped
 * instance's slot in @ws becomes 0.
 */
static void round_reap(struct __test_metadata *_metadata, pid_t ws[2],
		       bool block, unsigned long round)
{
	bool done;
	int i, st;

	for (i = 0; i < 2; i++) {
		if (!ws[i])
			continue;
		st = child_poll(ws[i], block, &done);
		if (!done)
			continue;
		ws[i] = 0;
		EXPECT_EQ(0, st) TH_LOG("round %lu: %s exit %d", round,
					i ? "tcp_rr" : "tcp_stream", st);
	}
}

TEST_F_TIMEOUT(stress, reload_under_load, 7200)
{
	unsigned long cycles = wl_env_count("WAKELAB_STRESS_CYCLES", 10);
	unsigned long switches = wl_env_count("WAKELAB_STRESS_SWITCHES", 10);
	int round_secs = wl_env_count("WAKELAB_STRESS_ROUND", 30);
	unsigned long c, k, nswitch = 0, reads = 0, rounds = 0;
	unsigned long methods[2] = { 0, 0 };
	struct reader rd[64];
	struct wl_policy_list pol = { 0 };
	bool stop = false;
	pid_t ws[2] = { 0, 0 };
	const char *what;
	double t0 = now(), tc, tp, phase[4] = { 0 };
	int nrd, ret;

	WL_SKIP_IF(self->skip);
	if (self->hook)
		ASSERT_LT(0, policy_names(&pol));
	/*
	 * The driver at nice -20, the load and the readers at 0: a cycle's
	 * many short sleeps (the module's calibration at load, the 10 ms
	 * switches) would otherwise each wait behind 4 x CPUs busy tasks.
	 */
	setpriority(PRIO_PROCESS, syscall(SYS_gettid), -20);
	ASSERT_EQ(0, wl_module_unload_retry());
	nrd = readers_start(rd, ARRAY_SIZE(rd), &stop, true, 1000);
	for (c = 0; c < cycles; c++) {
		/*
		 * A round of workloads; every cycle starts with both up.
		 * Once one has ended, the other is waited for too, and each
		 * one's status is checked where it is reaped.
		 */
		round_reap(_metadata, ws, false, rounds);
		if (!ws[0] || !ws[1]) {
			round_reap(_metadata, ws, true, rounds);
			ws[0] = stream_start("tcp_stream", round_secs);
			ws[1] = stream_start("tcp_rr", round_secs);
			ASSERT_LT(0, ws[0]);
			ASSERT_LT(0, ws[1]);
			rounds++;
			usleep(300000);	/* connections up */
		}
		tc = now();
		ret = wl_module_load(c % 2 ? "method=tracepoint" : "");
		ASSERT_EQ(0, ret) TH_LOG("cycle %lu: load: %s", c,
					 strerror(-ret));
		methods[c % 2]++;
		tp = now();
		phase[0] += tp - tc;
		ASSERT_EQ(0, wl_knob_set("enable", "1"));
		phase[1] += now() - tp;
		tp = now();
		for (k = 0; k < switches; k++) {
			ret = switch_one(self->hook, &pol, c + k, &what);
			ASSERT_EQ(0, ret) TH_LOG("cycle %lu switch %lu (%s): %s",
						 c, k, what, strerror(-ret));
			nswitch++;
			wl_msleep(10);
		}
		phase[2] += now() - tp;
		tp = now();
		ret = wl_module_unload_retry();
		ASSERT_EQ(0, ret) TH_LOG("cycle %lu: unload: %s", c,
					 strerror(-ret));
		phase[3] += now() - tp;
	}
	__atomic_store_n(&stop, true, __ATOMIC_RELAXED);
	EXPECT_EQ(0UL, readers_join(_metadata, rd, nrd, &reads));
	/* The last round runs to its end: integrity checked by wl_stream. */
	round_reap(_metadata, ws, true, rounds);
	printf("# reload: %lu cycles (%lu kretprobe, %lu tracepoint), %lu switches every 10 ms, %lu reads by %d readers\n",
	       cycles, methods[0], methods[1], nswitch, reads, nrd);
	printf("# reload: load: %lu rounds of %d x tcp_stream + %d x tcp_rr (-v, all exit 0), %.1f s in all\n",
	       rounds, 2 * self->ncpus, 2 * self->ncpus, now() - t0);
	printf("# reload: per cycle: load %.2f s, enable %.2f s, %lu switches %.2f s, unload %.2f s\n",
	       phase[0] / cycles, phase[1] / cycles, switches,
	       phase[2] / cycles, phase[3] / cycles);
	ASSERT_EQ(0, wl_module_load(""));
}

struct rw {
	struct reader r;
	bool hook;
	bool writer;		/* writes the knobs; else reads every file */
	unsigned long writes, wrong;
	char last_wrong[256];
};

/* Good and bad writes for each knob; bad ones must fail with -EINVAL. */
static const struct {
	const char *file;
	bool control;
	const char *good[4];
	const char *bad[4];
} knobs[] = {
	{ "enable", false, { "0", "1\n", "1", "0\n" },
	  { "2", "", " 1", "1 1" } },
	{ "reset", false, { "1", "1\n", "01", "1" },
	  { "0", "2", "reset", "-1" } },
	{ "policy", true, { "kernel", "old\n", "idle+weight", "never" },
	  { "nonsense", "KERNEL", "kernel ", "" } },
	{ "bias", true, { "0", "1", "1\n", "0\n" },
	  { "2", "-1", "true", "0x1" } },
	{ "imbalance_pct", true, { "0", "117", "1000", "100\n" },
	  { "99", "1001", "4294967296", "12.5" } },
};

static void *rw_fn(void *arg)
{
	struct rw *w = arg;
	unsigned int i = w->r.cpu < 0 ? 0 : w->r.cpu * 7, k, v;
	const char *name, *val;
	int want, got;

	pin_self(w->r.cpu);
	while (!__atomic_load_n(w->r.stop, __ATOMIC_RELAXED)) {
		i++;
		if (!w->writer) {
			name = all_files[i % ARRAY_SIZE(all_files)];
			if (!strcmp(name, "reset"))
				continue;
			w->r.reads++;
			if (read_check(&w->r, name))
				w->r.bad++;
			continue;
		}
		k = i % ARRAY_SIZE(knobs);
		v = (i / ARRAY_SIZE(knobs)) % 8;
		val = v < 4 ? knobs[k].good[v] : knobs[k].bad[v - 4];
		want = knobs[k].control && !w->hook ? -EOPNOTSUPP :
		       v < 4 ? 0 : -EINVAL;
		/* The policy names are those of the built-in table. */
		got = wl_knob_set(knobs[k].file, val);
		w->writes++;
		if (got != want) {
			w->wrong++;
			snprintf(w->last_wrong, sizeof(w->last_wrong),
				 "%s <- '%s': %d, want %d", knobs[k].file,
				 val, got, want);
		}
	}
	return NULL;
}

TEST_F_TIMEOUT(stress, concurrent_rw, 3600)
{
	unsigned long secs = wl_env_count("WAKELAB_STRESS_SECS", 5);
	unsigned long reads = 0, writes = 0, bad = 0, wrong = 0;
	bool online[WL_MAX_CPUS];
	bool stop = false;
	struct rw w[128];
	int cpu, n = 0, i;
	pid_t pid;
	bool done;

	WL_SKIP_IF(self->skip);
	ASSERT_LT(0, wl_online_cpus(WL_CPU_SYSFS, online));
	pid = stream_start("tcp_rr", secs + 2);
	ASSERT_LT(0, pid);
	/* A writer and a reader on every CPU. */
	for (cpu = 0; cpu < WL_MAX_CPUS && n < (int)ARRAY_SIZE(w); cpu++) {
		if (!online[cpu])
			continue;
		memset(&w[n], 0, sizeof(w[n]));
		w[n].r.cpu = cpu;
		w[n].r.stop = &stop;
		w[n].r.t = wl_table_new();
		w[n].hook = self->hook;
		w[n].writer = !(n % 2);
		ASSERT_NE(NULL, w[n].r.t);
		ASSERT_EQ(0, pthread_create(&w[n].r.th, NULL, rw_fn, &w[n]));
		n++;
		if (n % 2)
			cpu--;	/* the same CPU again, for the reader */
	}
	sleep(secs);
	__atomic_store_n(&stop, true, __ATOMIC_RELAXED);
	for (i = 0; i < n; i++) {
		pthread_join(w[i].r.th, NULL);
		reads += w[i].r.reads;
		writes += w[i].writes;
		if (w[i].r.bad)
			TH_LOG("cpu %d: %lu bad reads, last: %s", w[i].r.cpu,
			       w[i].r.bad, w[i].r.last_bad);
		if (w[i].wrong)
			TH_LOG("cpu %d: %lu wrong write results, last: %s",
			       w[i].r.cpu, w[i].wrong, w[i].last_wrong);
		bad += w[i].r.bad;
		wrong += w[i].wrong;
		free(w[i].r.t);
	}
	EXPECT_EQ(0, child_poll(pid, true, &done));
	EXPECT_EQ(0UL, bad);
	EXPECT_EQ(0UL, wrong);
	printf("# concurrent: %d threads (a reader and a writer per CPU), %lu reads, %lu writes in %lu s\n",
	       n, reads, writes, secs);
}

/* LLC of @cpu: the first CPU sharing its highest-level cache, or -1. */
static int llc_of(int cpu)
{
	static bool set[WL_MAX_CPUS];
	int c;

	if (wl_cpu_llc(WL_CPU_SYSFS, cpu, set, NULL) <= 0)
		return -1;
	for (c = 0; c < WL_MAX_CPUS && !set[c]; c++)
		;
	return c;
}

/*
 * The llc table after a hotplug step: it must parse and map every online
 * CPU to its LLC as sysfs cacheinfo has it now.  Returns true when sysfs
 * had the cache information to compare against.
 */
static bool llc_after(struct __test_metadata *_metadata,
		      struct wl_table *t, const char *step, int cpu)
{
	char why[256];
	int ret;

	ret = wl_module_table("llc", t);
	EXPECT_EQ(0, ret) TH_LOG("after %s of cpu%d: llc: %s", step, cpu,
				 strerror(-ret));
	if (ret)
		return true;
	ret = wl_llc_check(t, why, sizeof(why));
	if (ret == -ENODATA)
		return false;
	EXPECT_EQ(0, ret) TH_LOG("after %s of cpu%d: llc: %s", step, cpu, why);
	return true;
}

/*
 * Take the @nv CPUs @victim offline (@on false) or online, checking the
 * llc table after each, then let the system settle for 200 ms.  Returns
 * whether every check had sysfs cache information to compare against.
 */
static bool hotplug_all(struct __test_metadata *_metadata, struct wl_table *t,
			const int *victim, int nv, bool on)
{
	const char *step = on ? "online" : "offline";
	bool compared = true;
	int i, ret;

	for (i = 0; i < nv; i++) {
		ret = wl_cpu_set_online(victim[i], on);
		EXPECT_EQ(0, ret) TH_LOG("cpu%d %s: %s", victim[i], step,
					 strerror(-ret));
		compared &= llc_after(_metadata, t, step, victim[i]);
	}
	usleep(200000);
	return compared;
}

TEST_F_TIMEOUT(stress, hotplug, 3600)
{
	unsigned long cycles = wl_env_count("WAKELAB_HOTPLUG_CYCLES", 2);
	char cmdline[4096] = "";
	bool online[WL_MAX_CPUS];
	int victim[WL_MAX_CPUS], llc_seen[WL_MAX_CPUS];
	int nv = 0, cpu, l, i, nllc = 0;
	unsigned long c, reads = 0;
	struct reader rd[64];
	bool stop = false;
	struct wl_table *t;
	bool compared = true;
	bool done;
	int nrd;
	pid_t pid;

	WL_SKIP_IF(self->skip);
	/* Outside the wakelab VM only when asked for: CPUs go offline. */
	wl_read_file("/proc/cmdline", cmdline, sizeof(cmdline));
	if (!strstr(cmdline, "wakelab.accel=") &&
	    !getenv("WAKELAB_HOTPLUG_CYCLES"))
		SKIP(return, "not the wakelab VM: set WAKELAB_HOTPLUG_CYCLES to take CPUs offline here");
	ASSERT_LT(0, wl_online_cpus(WL_CPU_SYSFS, online));
	/* The highest hotpluggable CPU of each LLC. */
	for (cpu = 0; cpu < WL_MAX_CPUS; cpu++)
		llc_seen[cpu] = -1;
	for (cpu = WL_MAX_CPUS - 1; cpu >= 0; cpu--) {
		if (!online[cpu] || !wl_cpu_hotpluggable(cpu))
			continue;
		l = llc_of(cpu);
		if (l < 0)
			l = 0;
		for (i = 0; i < nllc; i++)
			if (llc_seen[i] == l)
				break;
		if (i < nllc)
			continue;
		llc_seen[nllc++] = l;
		victim[nv++] = cpu;
	}
	if (!nv || nv >= self->ncpus)
		SKIP(return, "no CPU can go offline here (CONFIG_HOTPLUG_CPU)");
	t = wl_table_new();
	ASSERT_NE(NULL, t);
	ASSERT_EQ(0, wl_knob_set("enable", "1"));
	if (self->hook)
		ASSERT_EQ(0, wl_knob_set("policy", "old"));
	pid = stream_start("tcp_rr", 3600);
	ASSERT_LT(0, pid);
	nrd = readers_start(rd, ARRAY_SIZE(rd), &stop, false, 2000);
	for (c = 0; c < cycles; c++) {
		compared &= hotplug_all(_metadata, t, victim, nv, false);
		EXPECT_EQ(0, wl_module_table("placement", t));
		compared &= hotplug_all(_metadata, t, victim, nv, true);
	}
	__atomic_store_n(&stop, true, __ATOMIC_RELAXED);
	EXPECT_EQ(0UL, readers_join(_metadata, rd, nrd, &reads));
	kill(-pid, SIGKILL);
	child_poll(pid, true, &done);
	/* Every CPU back, every CPU in the llc table again. */
	for (i = 0; i < nv; i++)
		wl_cpu_set_online(victim[i], true);
	EXPECT_EQ(self->ncpus, wl_online_cpus(WL_CPU_SYSFS, online));
	EXPECT_EQ(0, wl_knob_set("enable", "0"));
	printf("# hotplug: %lu cycles of %d CPUs (one per LLC) offline and online, %lu reads, llc %s sysfs after each step\n",
	       cycles, nv, reads, compared ? "checked against" : "NOT compared with");
	free(t);
	if (!compared && _metadata->passed)
		SKIP(return, "hotplug ran, but sysfs has no cache information: llc not compared");
}

TEST_HARNESS_MAIN
