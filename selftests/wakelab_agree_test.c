// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab.ko's view against the kernel's own, on any kernel.
 *
 * llc_agrees_with_kernel: spinners pinned to chosen CPUs put a known load
 * on each LLC (one task on the first LLC; three on the second, at nice 0,
 * 5 and -5, so that load, runnable and util all differ).  Once PELT has
 * settled, every llc row must have the CPUs of the scheduler's own LLC
 * domain (sched/domains flags and /proc/schedstat spans) and of sysfs
 * cacheinfo; nr_running must equal the pinned count (and the kernel's
 * sched/debug sum) in a majority of reads; load and util must agree with
 * the sums of the root cfs_rq averages sched/debug prints, read right after,
 * within 10 % + 64 in a majority of reads, and with the spinners' weights
 * and busy CPUs within 25 %; capacity must be the CPUs' capacity sum (a
 * patched kernel's, reduced by RT and IRQ pressure, at least half of it).
 * A runqueue field read through a wrong offset gives zeros or unrelated
 * values and fails these.
 *
 * placement_agrees_with_trace: with the module counting (method
 * tracepoint), a pipe ping-pong whose one side keeps changing LLC and a
 * ping-pong inside one LLC with a roaming hog run for 3 s, while tracefs
 * records sched_waking, sched_wakeup, sched_migrate_task and sched_switch
 * of every task with the global clock.  The test classifies every wakeup in the trace as
 * the module does (docs/ABI/debugfs-wakelab, module/place.c), with the
 * LLCs of sysfs cacheinfo: the waker is the CPU the waking fired on, the
 * previous CPU its target_cpu, the new CPU the dest_cpu of a migration that
 * follows it on that CPU before the wakee's sched_wakeup.  Whether the module counted a wakeup depends on
 * p->on_rq at sched_waking, which the trace shows through sched_switch:
 * a task that left its CPU sleeping is off its runqueue (counted), one
 * preempted is on it (not counted), one running or not seen yet is
 * undecided.  trace_marker lines before and after the reset (M0, M1) and
 * before and after the read (M2, M3) bracket the module's window, so for
 * every placement column: decided wakeups between M1 and M2 <= module <=
 * decided and undecided wakeups between M0 and M3.  DELAY_DEQUEUE (6.12)
 * keeps sleeping tasks on their runqueue; it is cleared for the test and
 * restored.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "wl/core/clock.h"
#include "wl/core/file.h"
#include "wl/kernel/features.h"
#include "wl/kernel/load.h"
#include "wl/kernel/sched_debug.h"
#include "wl/kernel/schedstat.h"
#include "wl/kernel/topo.h"
#include "wl/kernel/tracefs.h"
#include "wl/kernel/wakelab_module.h"

#define ROUNDS		9	/* llc reads */
#define SETTLE_MS	1500	/* PELT: 99.9 % of a step after 320 ms */
#define CAPACITY_SCALE	1024	/* SCHED_CAPACITY_SCALE */
#define PELT_HALFLIFE_MS 32	/* PELT: a contribution halves every 32 ms */
#define PP_SECS		3	/* placement workload */
#define FLIP_MS		10	/* the flipping side changes LLC this often */
#define TRACE_BUF_KB	"16384"	/* per CPU */
#define GUARD_MS	20	/* around the markers */

static const char * const trace_events[] = {
	"events/sched/sched_waking/enable",
	"events/sched/sched_wakeup/enable",
	"events/sched/sched_migrate_task/enable",
	"events/sched/sched_switch/enable",
};

struct trace_saved {
	char clock[32];
	char buf_kb[32];
	char on[8];
	char ev[4][8];
	int delay_dequeue;
};

/* Put the trace settings back: 0, or the first write's -errno. */
static int trace_restore(const struct trace_saved *sv)
{
	int ret, err = wl_tracefs_write("tracing_on", "0");
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(trace_events); i++) {
		ret = wl_tracefs_write(trace_events[i], sv->ev[i]);
		err = err ?: ret;
	}
	ret = wl_tracefs_write("trace_clock", sv->clock);
	err = err ?: ret;
	ret = wl_tracefs_write("buffer_size_kb", sv->buf_kb);
	err = err ?: ret;
	ret = wl_tracefs_write("tracing_on", sv->on);
	err = err ?: ret;
	if (sv->delay_dequeue == 1) {
		ret = wl_sched_feat_set("DELAY_DEQUEUE", true);
		err = err ?: ret;
	}
	return err;
}

/* sched/verbose was turned on by the test (restored by the teardown too). */
static bool made_verbose;

FIXTURE(agree) {
	const char *skip;
	bool loaded_here;
	struct wl_table *t;
	struct wl_topo topo;
	struct trace_saved sv;	/* trace settings to restore */
	bool trace_touched;
};

FIXTURE_SETUP(agree)
{
	self->t = wl_table_new();
	ASSERT_NE(NULL, self->t);
	self->skip = wl_module_setup(_metadata, "tracepoint",
				     &self->loaded_here);
	if (self->skip)
		return;
	ASSERT_EQ(0, wl_topo_load(WL_CPU_SYSFS, 0, &self->topo));
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
}

FIXTURE_TEARDOWN(agree)
{
	if (self->trace_touched) {
		char clk[32] = "";

		EXPECT_EQ(0, trace_restore(&self->sv))
			TH_LOG("restoring trace_clock %s, buffer_size_kb %s, tracing_on %s",
			       self->sv.clock, self->sv.buf_kb, self->sv.on);
		EXPECT_EQ(0, wl_tracefs_clock(clk, sizeof(clk)));
		EXPECT_STREQ(self->sv.clock, clk);
	}
	if (made_verbose)
		wl_write_str(WL_SCHED_VERBOSE, "0");
	if (!self->skip && wl_module_loaded())
		EXPECT_EQ(0, wl_knob_set("enable", "0"));
	free(self->t);
}

/* Pin the calling thread to @cpu, or to every CPU when @cpu < 0. */
static int pin_self(int cpu)
{
	cpu_set_t set;
	int c;

	CPU_ZERO(&set);
	for (c = 0; c < CPU_SETSIZE; c++)
		if (cpu < 0 ? true : c == cpu)
			CPU_SET(c, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* ---- llc ---------------------------------------------------------------- */

/* sched_prio_to_weight[] at nice 0, 5 and -5. */
#define W_NICE0		1024
#define W_NICE5		335
#define W_NICE_M5	3121

#define MAX_SPIN	4

struct spinner {
	int cpu;
	int nice;
	int weight;
};

/*
 * The load of LLC @g: one nice-0 task on its first CPU; on every other
 * LLC (or the only one) also a nice-5 task there and a nice -5 task on its
 * second CPU.  Returns the number of spinners put in @s.
 */
static int llc_plan(const struct wl_topo *t, int g, struct spinner *s)
{
	const int *cpu = &t->cpu[t->llc_start[g]];
	int n = 0;

	s[n++] = (struct spinner){ cpu[0], 0, W_NICE0 };
	if (g % 2 == 0 && t->nllc > 1)
		return n;
	s[n++] = (struct spinner){ cpu[0], 5, W_NICE5 };
	if (t->llc_size[g] > 1)
		s[n++] = (struct spinner){ cpu[1], -5, W_NICE_M5 };
	return n;
}

/* The CPU the test itself runs on: LLC 0's last CPU without a spinner. */
static int llc_main_cpu(const struct wl_topo *t,
			struct spinner s[][MAX_SPIN], const int *ns)
{
	int i, k, c;
	bool used;

	for (i = t->llc_size[0] - 1; i >= 0; i--) {
		c = t->cpu[t->llc_start[0] + i];
		used = false;
		for (k = 0; k < ns[0]; k++)
			used |= s[0][k].cpu == c;
		if (!used)
			return c;
	}
	return t->cpu[t->llc_size[0] - 1];
}

/* arch_scale_cpu_capacity(): sysfs cpu_capacity where the arch has it. */
static unsigned long long arch_capacity(int cpu)
{
	char path[96], buf[32];

	snprintf(path, sizeof(path), WL_CPU_SYSFS "/cpu%d/cpu_capacity", cpu);
	if (wl_read_file(path, buf, sizeof(buf)) > 0)
		return strtoull(buf, NULL, 10);
	return CAPACITY_SCALE;
}

struct llc_sample {
	unsigned long long nr, load, util, cap;		/* module */
	unsigned long long knr, kload, kutil;		/* sched/debug */
	unsigned long long kpin;	/* sched/debug, spinners' CPUs only */
};

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

static unsigned long long median(const unsigned long long *v, int n)
{
	unsigned long long s[ROUNDS];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_ull);
	return s[n / 2];
}

static bool within(unsigned long long a, unsigned long long b,
		   unsigned int pct, unsigned long long slack)
{
	unsigned long long d = a > b ? a - b : b - a;

	return d <= b * pct / 100 + slack;
}

/*
 * One read of the module's llc table and of sched/debug: LLC @g's values
 * into @s[g] for every group of @t.
 */
static void llc_read(struct __test_metadata *_metadata,
		     const struct wl_topo *t, const bool *spun,
		     struct wl_table *tab, struct wl_rq_view *rq,
		     struct llc_sample *s)
{
	char key[16];
	int g, i, c;

	ASSERT_EQ(0, wl_module_table("llc", tab));
	ASSERT_LT(0, wl_sched_debug_read(rq)) TH_LOG("%s does not parse",
						     WL_SCHED_DEBUG);
	for (g = 0; g < t->nllc; g++) {
		memset(&s[g], 0, sizeof(s[g]));
		snprintf(key, sizeof(key), "%d", t->cpu[t->llc_start[g]]);
		ASSERT_EQ(0, wl_table_get(tab, key, "nr_running", &s[g].nr))
			TH_LOG("llc row %s: no nr_running", key);
		ASSERT_EQ(0, wl_table_get(tab, key, "load", &s[g].load))
			TH_LOG("llc row %s: no load", key);
		ASSERT_EQ(0, wl_table_get(tab, key, "util", &s[g].util))
			TH_LOG("llc row %s: no util", key);
		ASSERT_EQ(0, wl_table_get(tab, key, "capacity", &s[g].cap))
			TH_LOG("llc row %s: no capacity", key);
		for (i = 0; i < t->llc_size[g]; i++) {
			c = t->cpu[t->llc_start[g] + i];
			ASSERT_TRUE(rq[c].seen && rq[c].have_cfs)
				TH_LOG("sched/debug has no cpu#%d or cfs_rq[%d]:/",
				       c, c);
			s[g].knr += rq[c].nr_running;
			if (spun[c])
				s[g].kpin += rq[c].nr_running;
			s[g].kload += rq[c].load_avg;
			s[g].kutil += rq[c].util_avg;
		}
	}
}

/*
 * The module's LLC rows against the scheduler's LLC domains and sysfs:
 * each row's cpus is, for each of its CPUs, that CPU's sd_llc span.
 */
static void llc_membership_compare(struct __test_metadata *_metadata,
				   const struct wl_topo *t,
				   struct wl_table *tab);

static void llc_membership(struct __test_metadata *_metadata,
			   const struct wl_topo *t, struct wl_table *tab)
{
	char verbose[8] = "";

	/* 6.12 (not 6.1) has sched/domains only while sched/verbose is on. */
	if (access(WL_SCHED_DOMAINS, F_OK) &&
	    wl_read_file(WL_SCHED_VERBOSE, verbose, sizeof(verbose)) > 0 &&
	    verbose[0] == 'N') {
		ASSERT_EQ(0, wl_write_str(WL_SCHED_VERBOSE, "1"));
		made_verbose = true;
	}
	llc_membership_compare(_metadata, t, tab);
	if (made_verbose)
		EXPECT_EQ(0, wl_write_str(WL_SCHED_VERBOSE, "0"));
	made_verbose = false;
}

static void llc_membership_compare(struct __test_metadata *_metadata,
				   const struct wl_topo *t,
				   struct wl_table *tab)
{
	static bool row[WL_MAX_CPUS], sd[WL_MAX_CPUS];
	char why[256], list[256], key[16], name[32];
	int g, i, c, r, col, n;

	ASSERT_EQ(0, wl_module_table("llc", tab));
	EXPECT_EQ(0, wl_llc_check(tab, why, sizeof(why)))
		TH_LOG("llc vs sysfs cacheinfo: %s", why);
	EXPECT_EQ(t->nllc, tab->nrows);
	col = wl_table_col(tab, "cpus");
	ASSERT_LE(0, col);
	for (g = 0; g < t->nllc; g++) {
		snprintf(key, sizeof(key), "%d", t->cpu[t->llc_start[g]]);
		r = wl_table_row(tab, key);
		ASSERT_LE(0, r) TH_LOG("no llc row %s", key);
		memset(row, 0, sizeof(row));
		ASSERT_LT(0, wl_cpulist_parse(tab->cell[r][col], row));
		for (i = 0; i < t->llc_size[g]; i++) {
			c = t->cpu[t->llc_start[g] + i];
			n = wl_sd_llc(c, sd, name, sizeof(name));
			if (n == -ENOENT)
				SKIP(return, "no %s or %s: the scheduler's LLC domains not compared (sysfs was)",
				     WL_SCHED_DOMAINS, WL_SCHEDSTAT_PATH);
			ASSERT_LT(0, n) TH_LOG("cpu%d: sched domains do not parse", c);
			wl_cpulist_format(sd, list, sizeof(list));
			EXPECT_EQ(0, memcmp(row, sd, sizeof(row)))
				TH_LOG("cpu%d: module llc %s, kernel sd_llc %s (%s)",
				       c, tab->cell[r][col], list, name);
		}
		TH_LOG("llc %s: module cpus %s, kernel LLC domain %s", key,
		       tab->cell[r][col], name[0] ? name : "(none: one CPU)");
	}
}

TEST_F_TIMEOUT(agree, llc_agrees_with_kernel, 120)
{
	static struct wl_rq_view rq[WL_MAX_CPUS];
	struct spinner plan[WL_MAX_CPUS][MAX_SPIN];
	static struct llc_sample s[ROUNDS][WL_MAX_CPUS];
	int ns[WL_MAX_CPUS], g, k, r, main_cpu, nspin = 0;
	static pid_t pids[WL_MAX_CPUS * MAX_SPIN];
	static bool spun[WL_MAX_CPUS];
	bool sds, main_in;
	const struct wl_topo *t = &self->topo;
	unsigned long long drift;
	double run_ms = 0;

	WL_SKIP_IF(self->skip);
	if (access(WL_SCHED_DEBUG, R_OK))
		SKIP(return, "no %s (CONFIG_SCHED_DEBUG off or debugfs not mounted): no kernel view to compare with",
		     WL_SCHED_DEBUG);
	ASSERT_TRUE(t->from_sysfs) TH_LOG("sysfs has no cache information");
	sds = !strcmp(wl_cap("llc_source"), "sched_domain_shared");
	ASSERT_TRUE(sds || !strcmp(wl_cap("rq_located"), "yes"))
		TH_LOG("the module located no runqueues (caps rq_located %s): its llc figures are '-'",
		       wl_cap("rq_located"));

	for (g = 0; g < t->nllc; g++)
		ns[g] = llc_plan(t, g, plan[g]);
	main_cpu = llc_main_cpu(t, plan, ns);
	for (g = 0; g < t->nllc; g++)
		for (k = 0; k < ns[g]; k++)
			spun[plan[g][k].cpu] = plan[g][k].cpu != main_cpu;
	ASSERT_EQ(0, pin_self(main_cpu));
	for (g = 0; g < t->nllc; g++) {
		for (k = 0; k < ns[g]; k++) {
			pid_t pid = wl_hog(plan[g][k].cpu);

			ASSERT_LT(0, pid);
			pids[nspin++] = pid;
			ASSERT_EQ(0, setpriority(PRIO_PROCESS, pid,
						 plan[g][k].nice));
		}
	}
	wl_msleep(SETTLE_MS);
	for (r = 0; r < ROUNDS; r++) {
		struct timespec c0, c1;
		double ms;

		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
		llc_read(_metadata, t, spun, self->t, rq, s[r]);
		if (!_metadata->passed)
			break;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
		ms = (c1.tv_sec - c0.tv_sec) * 1e3 +
		     (c1.tv_nsec - c0.tv_nsec) / 1e6;
		run_ms = ms > run_ms ? ms : run_ms;
		wl_msleep(200);
	}
	for (k = 0; k < nspin; k++) {
		kill(pids[k], SIGKILL);
		waitpid(pids[k], NULL, 0);
	}
	ASSERT_EQ(0, pin_self(-1));
	ASSERT_TRUE(_metadata->passed);
	/*
	 * The test runs on main_cpu between the module's read and the
	 * kernel's (and, with the series, since the balance pass the module
	 * shows): its PELT contribution there moves by at most what a nice-0
	 * task running that long adds, 1024 * (1 - 2^(-t / 32 ms)).
	 */
	drift = CAPACITY_SCALE * (1 - exp2(-run_ms / PELT_HALFLIFE_MS)) + 1;
	TH_LOG("the test ran %.1f ms at most per read round on cpu%d: its LLC's averages may differ by %llu more",
	       run_ms, main_cpu, drift);

	for (g = 0; g < t->nllc; g++) {
		unsigned long long want_nr = ns[g], want_load = 0, cap = 0;
		unsigned long long want_pin = 0;
		unsigned long long v[ROUNDS], load, util, kload, kutil;
		int nr_ok = 0, knr_ok = 0, load_ok = 0, util_ok = 0, busy = 0;
		int i, first = t->cpu[t->llc_start[g]];
		char list[64];

		main_in = false;
		for (i = 0; i < t->llc_size[g]; i++) {
			int c = t->cpu[t->llc_start[g] + i];

			main_in |= c == main_cpu;
			cap += arch_capacity(c);
			for (k = 0; k < ns[g]; k++)
				if (plan[g][k].cpu == c) {
					busy++;
					break;
				}
		}
		for (k = 0; k < ns[g]; k++) {
			want_load += plan[g][k].weight;
			want_pin += spun[plan[g][k].cpu];
		}
		/*
		 * Live figures count the test itself, running on main_cpu
		 * while it reads; the series' statistics are the last
		 * balance pass's, taken while the test sleeps.
		 */
		for (r = 0; r < ROUNDS; r++) {
			nr_ok += s[r][g].nr == want_nr + (main_in && !sds);
			knr_ok += s[r][g].kpin == want_pin;
			load_ok += within(s[r][g].load, s[r][g].kload, 10,
					  64 + (main_in ? drift : 0));
			util_ok += within(s[r][g].util, s[r][g].kutil, 10,
					  64 + (main_in ? drift : 0));
		}
		for (r = 0; r < ROUNDS; r++)
			v[r] = s[r][g].load;
		load = median(v, ROUNDS);
		for (r = 0; r < ROUNDS; r++)
			v[r] = s[r][g].util;
		util = median(v, ROUNDS);
		for (r = 0; r < ROUNDS; r++)
			v[r] = s[r][g].kload;
		kload = median(v, ROUNDS);
		for (r = 0; r < ROUNDS; r++)
			v[r] = s[r][g].kutil;
		kutil = median(v, ROUNDS);
		wl_topo_llc_list(t, g, list, sizeof(list));
		TH_LOG("llc %d (cpus %s, %d pinned%s): nr_running module %llu..%llu (want %llu: %d/%d reads), kernel %llu..%llu, on the spinners' CPUs %llu..%llu (want %llu: %d/%d)",
		       first, list, ns[g], main_in ? ", test runs here" : "",
		       s[0][g].nr, s[ROUNDS - 1][g].nr,
		       want_nr + (main_in && !sds), nr_ok, ROUNDS,
		       s[0][g].knr, s[ROUNDS - 1][g].knr, s[0][g].kpin,
		       s[ROUNDS - 1][g].kpin, want_pin, knr_ok, ROUNDS);
		TH_LOG("llc %d: load module %llu kernel %llu weights %llu (%d/%d reads within); util module %llu kernel %llu busy CPUs %d (%d/%d); capacity module %llu CPUs %llu",
		       first, load, kload, want_load, load_ok, ROUNDS, util,
		       kutil, busy, util_ok, ROUNDS, s[0][g].cap, cap);
		EXPECT_LT(ROUNDS / 2, nr_ok) TH_LOG("llc %d: module nr_running", first);
		EXPECT_LT(ROUNDS / 2, knr_ok)
			TH_LOG("llc %d: the kernel's own nr_running of the spinners' CPUs is not the pinned count: the test's premise fails",
			       first);
		EXPECT_LT(ROUNDS / 2, load_ok) TH_LOG("llc %d: module load vs sched/debug", first);
		EXPECT_LT(ROUNDS / 2, util_ok) TH_LOG("llc %d: module util vs sched/debug", first);
		EXPECT_TRUE(within(load, want_load, 25, main_in ? drift : 0))
			TH_LOG("llc %d: module load %llu, spinners' weights %llu", first,
			       load, want_load);
		EXPECT_TRUE(within(util, busy * CAPACITY_SCALE, 25,
				   main_in ? drift : 0))
			TH_LOG("llc %d: module util %llu, %d busy CPUs", first, util, busy);
		if (sds) {
			EXPECT_GE(cap, s[0][g].cap);
			EXPECT_LE(cap / 2, s[0][g].cap);
		} else {
			EXPECT_EQ(cap, s[0][g].cap);
		}
	}
	llc_membership(_metadata, t, self->t);
}

/* ---- placement ------------------------------------------------------------ */

/* The starter of a pair runs for the workload's PP_SECS. */
static const struct wl_pingpong_end pp_end = { PP_SECS, 0, PP_SECS };

/* A ping-pong pair on @a and @b: the starter's pid in @pid[0]. */
static int pp_pair(const cpu_set_t *a, const cpu_set_t *b, int res,
		   pid_t *pid)
{
	int ab[2], ba[2];

	if (pipe(ab) || pipe(ba))
		return -errno;
	pid[0] = fork();
	if (!pid[0]) {
		close(ab[0]);
		close(ba[1]);
		wl_pingpong_side(a, ba[0], ab[1], res, &pp_end);
	}
	pid[1] = fork();
	if (!pid[1]) {
		close(ab[1]);
		close(ba[0]);
		wl_pingpong_side(b, ab[0], ba[1], res, NULL);
	}
	close(ab[0]);
	close(ab[1]);
	close(ba[0]);
	close(ba[1]);
	return pid[0] > 0 && pid[1] > 0 ? 0 : -ECHILD;
}

static void llc_cpuset(const struct wl_topo *t, int g, cpu_set_t *set)
{
	int i;

	CPU_ZERO(set);
	for (i = 0; i < t->llc_size[g]; i++)
		CPU_SET(t->cpu[t->llc_start[g] + i], set);
}

/*
 * The workload: pair F, one side free to run anywhere, the other moved
 * between the first and the last LLC every FLIP_MS (with one LLC, between
 * its halves), so that it keeps waking and being woken across LLCs;
 * pair L, both sides on the last LLC, where a hog roams between its first
 * two CPUs.  Returns the wakeups the four sides received (their voluntary
 * context switches), or -1.
 */
static long workload(const struct wl_topo *t)
{
	cpu_set_t all, last, alt[2];
	pid_t f[2], l[2], hog = -1;
	int res[2], i, st, n = t->nllc - 1;
	struct wl_pingpong v;
	long total = 0;
	struct timespec end, now;

	CPU_ZERO(&all);
	for (i = 0; i < t->ncpus; i++)
		CPU_SET(t->cpu[i], &all);
	llc_cpuset(t, 0, &alt[0]);
	llc_cpuset(t, n, &last);
	alt[1] = last;
	if (!n) {
		CPU_ZERO(&alt[0]);
		CPU_ZERO(&alt[1]);
		for (i = 0; i < t->ncpus; i++)
			CPU_SET(t->cpu[i], &alt[i >= t->ncpus / 2]);
	}
	if (pipe(res))
		return -1;
	if (pp_pair(&all, &alt[0], res[1], f) ||
	    pp_pair(&last, &last, res[1], l))
		return -1;
	if (t->llc_size[n] > 1)
		hog = wl_roaming_hog(t->cpu[t->llc_start[n]],
				     t->cpu[t->llc_start[n] + 1]);
	close(res[1]);
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += PP_SECS;
	for (i = 1;; i++) {
		wl_msleep(FLIP_MS);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec ||
		    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
			break;
		sched_setaffinity(f[1], sizeof(alt[0]), &alt[i % 2]);
	}
	for (i = 0; i < 2; i++) {
		if (waitpid(f[i], &st, 0) != f[i] || st)
			total = -1;
		if (waitpid(l[i], &st, 0) != l[i] || st)
			total = -1;
	}
	if (hog > 0) {
		kill(hog, SIGKILL);
		waitpid(hog, NULL, 0);
	}
	for (i = 0; i < 4; i++) {
		if (read(res[0], &v, sizeof(v)) != sizeof(v))
			total = -1;
		else if (total >= 0)
			total += v.sleeps;
	}
	close(res[0]);
	return total;
}

/* The placement columns, in <linux/wakelab.h> order, "sync" left out. */
enum { C_WAKEUPS, C_WAKER_CPU, C_PREV_CPU, C_WAKER_LLC, C_PREV_LLC, C_OTHER,
	C_CROSS_LLC, NR_C };
static const char * const col_names[NR_C] = {
	"wakeups", "waker_cpu", "prev_cpu", "waker_llc", "prev_llc", "other",
	"cross_llc",
};

/* What the trace says about the task of a sched_waking. */
enum { T_UNKNOWN, T_ON_CPU, T_QUEUED, T_ASLEEP };

/*
 * A wakeup seen in the trace, until the next event on its CPU.  A
 * sched_migrate_task of the wakee that comes next there is the wakeup's
 * own (set_task_cpu() in try_to_wake_up(), same pi_lock section) unless
 * the wakee was woken up in between: queued on its CPU's wake list, it
 * can be pulled to this CPU by the newly idle balance of the waker's
 * schedule() before any other event here; the module, which wants
 * TASK_WAKING, does not take that one either.
 */
struct pend {
	bool valid;
	bool woken;		/* sched_wakeup of the wakee seen since */
	int pid, phase, waker, prev, target;
	bool decided;		/* the task was asleep: the module counts it */
};

struct replay {
	int llc[WL_MAX_CPUS];	/* first CPU of each CPU's LLC (sysfs) */
	unsigned char *state;	/* by pid: T_* */
	int pid_max;
	int ncpus;		/* CPU ids below this */
	int phase;		/* markers M0..M3 seen */
	struct pend pend[WL_MAX_CPUS];
	unsigned long long lo[NR_C], hi[NR_C];
	unsigned long long events, migrations, undecided, bad;
	unsigned long long to_waker, queued, filtered;	/* in the window */
};

/* Count a wakeup as the module's wl_count() would. */
static void replay_count(struct replay *rp, const struct pend *w)
{
	unsigned long long c[NR_C] = { 1 };
	int tllc = rp->llc[w->target], pllc = rp->llc[w->prev];
	int i;

	if (w->target == w->waker)
		c[C_WAKER_CPU] = 1;
	else if (w->target == w->prev)
		c[C_PREV_CPU] = 1;
	else if (tllc == rp->llc[w->waker])
		c[C_WAKER_LLC] = 1;
	else if (tllc == pllc)
		c[C_PREV_LLC] = 1;
	else
		c[C_OTHER] = 1;
	c[C_CROSS_LLC] = tllc != pllc;
	for (i = 0; i < NR_C; i++) {
		/* Between M1 and M2, and decided: surely counted. */
		if (w->phase == 2 && w->decided)
			rp->lo[i] += c[i];
		/* Between M0 and M3: perhaps counted. */
		if (w->phase >= 1 && w->phase <= 3)
			rp->hi[i] += c[i];
	}
	if (!w->decided && w->phase >= 1 && w->phase <= 3)
		rp->undecided++;
}

static void replay_event(struct replay *rp, const struct wl_tev *e)
{
	struct pend *w;
	int cpu;

	if (e->cpu < 0 || e->cpu >= rp->ncpus || e->pid < 0 ||
	    e->pid > rp->pid_max || e->a < 0 ||
	    (e->type == WL_TEV_SWITCH && e->a > rp->pid_max) ||
	    (e->type != WL_TEV_SWITCH && e->a >= rp->ncpus) ||
	    (e->type == WL_TEV_MIGRATE && (e->b < 0 || e->b >= rp->ncpus))) {
		rp->bad++;
		return;
	}
	rp->events++;
	w = &rp->pend[e->cpu];
	if (w->valid) {
		/* The migration of this wakeup: on its CPU, next. */
		if (e->type == WL_TEV_MIGRATE && e->pid == w->pid &&
		    !w->woken) {
			w->target = e->b;
			rp->migrations += w->phase >= 1 && w->phase <= 3;
			rp->to_waker += w->phase == 2 && e->b == w->waker;
		}
		replay_count(rp, w);
		w->valid = false;
	}
	switch (e->type) {
	case WL_TEV_MARK:
		if (!strncmp(e->mark, "wl-agree-M", 10) &&
		    e->mark[10] - '0' == rp->phase)
			rp->phase++;
		break;
	case WL_TEV_WAKEUP:
		for (cpu = 0; cpu < rp->ncpus; cpu++)
			if (rp->pend[cpu].valid && rp->pend[cpu].pid == e->pid)
				rp->pend[cpu].woken = true;
		break;
	case WL_TEV_SWITCH:
		if (e->pid)
			rp->state[e->pid] = e->b ? T_ASLEEP : T_QUEUED;
		if (e->a)
			rp->state[e->a] = T_ON_CPU;
		break;
	case WL_TEV_WAKING:
		/* The module's filters: not current, not RT/DL. */
		if (e->pid == e->cur || e->prio < 100) {
			rp->filtered += rp->phase == 2;
			break;
		}
		/* Queued: ttwu_runnable(), not counted. */
		if (rp->state[e->pid] == T_QUEUED) {
			rp->queued += rp->phase == 2;
			break;
		}
		*w = (struct pend){
			.valid = true, .pid = e->pid, .phase = rp->phase,
			.waker = e->cpu, .prev = e->a, .target = e->a,
			.decided = rp->state[e->pid] == T_ASLEEP,
		};
		break;
	}
}

/* Replay the trace file: 0, or -errno. */
static int replay_trace(struct replay *rp)
{
	char path[256], *line = NULL;
	struct wl_tev e;
	size_t cap = 0;
	FILE *f;
	int cpu;

	snprintf(path, sizeof(path), "%s/trace", wl_tracefs_dir());
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		int ret = wl_tev_parse(line, &e);

		if (ret < 0)
			rp->bad++;
		else if (!ret)
			replay_event(rp, &e);
	}
	free(line);
	fclose(f);
	for (cpu = 0; cpu < rp->ncpus; cpu++)
		if (rp->pend[cpu].valid)
			replay_count(rp, &rp->pend[cpu]);
	return 0;
}

static int trace_clear(void)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/trace", wl_tracefs_dir());
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int marker(int phase)
{
	char s[32];

	snprintf(s, sizeof(s), "wl-agree-M%d\n", phase);
	return wl_tracefs_write("trace_marker", s);
}

/* Sum of placement column @col over the rows of @t. */
static unsigned long long col_sum(struct __test_metadata *_metadata,
				  const struct wl_table *t, const char *col)
{
	unsigned long long v, sum = 0;
	int r, c = wl_table_col(t, col);

	EXPECT_LE(0, c) TH_LOG("no column %s", col);
	for (r = 0; c >= 0 && r < t->nrows; r++)
		if (!wl_table_u64(t, r, c, &v))
			sum += v;
	return sum;
}

TEST_F_TIMEOUT(agree, placement_agrees_with_trace, 240)
{
	const struct wl_topo *t = &self->topo;
	unsigned long long mod[NR_C];
	struct trace_saved *sv = &self->sv;
	static struct replay rp;
	char buf[64], clk[32], *p;
	long long lost;
	unsigned int i;
	long sleeps;
	int g, c;

	WL_SKIP_IF(self->skip);
	if (!wl_tracefs_dir())
		SKIP(return, "no tracefs at %s or %s", WL_TRACEFS,
		     WL_TRACEFS_DEBUGFS);
	for (i = 0; i < ARRAY_SIZE(trace_events); i++)
		if (wl_tracefs_read(trace_events[i], sv->ev[i],
				    sizeof(sv->ev[i])) < 0)
			SKIP(return, "no trace event %s", trace_events[i]);
	ASSERT_LT(0, wl_tracefs_read("current_tracer", buf, sizeof(buf)));
	if (strcmp(buf, "nop\n"))
		SKIP(return, "tracer %.*s in use: the trace buffer is not ours",
		     (int)strcspn(buf, "\n"), buf);
	ASSERT_TRUE(t->from_sysfs) TH_LOG("sysfs has no cache information");
	ASSERT_EQ(0, wl_tracefs_clock(sv->clock, sizeof(sv->clock)));
	ASSERT_LT(0, wl_tracefs_read("buffer_size_kb", sv->buf_kb,
				     sizeof(sv->buf_kb)));
	/* "7 (expanded: 1408)" before the buffer was first used. */
	p = strstr(sv->buf_kb, "expanded: ");
	if (p)
		memmove(sv->buf_kb, p + 10, strlen(p + 10) + 1);
	sv->buf_kb[strcspn(sv->buf_kb, "\n )")] = '\0';
	ASSERT_LT(0, wl_tracefs_read("tracing_on", sv->on, sizeof(sv->on)));
	for (i = 0; i < ARRAY_SIZE(trace_events); i++)
		sv->ev[i][strcspn(sv->ev[i], "\n")] = '\0';
	sv->on[strcspn(sv->on, "\n")] = '\0';
	sv->delay_dequeue = -1;
	self->trace_touched = true;

	ASSERT_LT(0, wl_read_file("/proc/sys/kernel/pid_max", buf, sizeof(buf)));
	rp.pid_max = atoi(buf);
	ASSERT_LT(0, rp.pid_max);
	rp.state = calloc(rp.pid_max + 1, 1);
	ASSERT_NE(NULL, rp.state);
	for (c = 0; c < WL_MAX_CPUS; c++)
		rp.llc[c] = c;
	for (c = 0; c < t->ncpus; c++)
		rp.ncpus = t->cpu[c] + 1 > rp.ncpus ? t->cpu[c] + 1 : rp.ncpus;
	for (g = 0; g < t->nllc; g++)
		for (i = 0; i < (unsigned int)t->llc_size[g]; i++)
			rp.llc[t->cpu[t->llc_start[g] + i]] =
				t->cpu[t->llc_start[g]];

	/* A task sleeping in a delayed dequeue is still on its runqueue. */
	sv->delay_dequeue = wl_sched_feat_get("DELAY_DEQUEUE");
	if (sv->delay_dequeue == 1)
		ASSERT_EQ(0, wl_sched_feat_set("DELAY_DEQUEUE", false));

	ASSERT_EQ(0, wl_tracefs_write("tracing_on", "0"));
	ASSERT_EQ(0, wl_tracefs_write("trace_clock", "global"));
	ASSERT_EQ(0, wl_tracefs_write("buffer_size_kb", TRACE_BUF_KB));
	ASSERT_EQ(0, trace_clear());
	for (i = 0; i < ARRAY_SIZE(trace_events); i++)
		ASSERT_EQ(0, wl_tracefs_write(trace_events[i], "1"));
	ASSERT_EQ(0, wl_tracefs_write("tracing_on", "1"));
	ASSERT_EQ(0, wl_knob_set("enable", "1"));
	/* Let the trace see most tasks leave a CPU before the window. */
	wl_msleep(300);

	/*
	 * GUARD_MS between each marker and the reset or read it brackets:
	 * the trace orders CPUs by the global trace clock, which a CPU whose
	 * sched_clock runs ahead or behind can still put a little off.
	 */
	ASSERT_EQ(0, marker(0));
	wl_msleep(GUARD_MS);
	ASSERT_EQ(0, wl_knob_set("reset", "1"));
	wl_msleep(GUARD_MS);
	ASSERT_EQ(0, marker(1));
	sleeps = workload(t);
	ASSERT_EQ(0, marker(2));
	wl_msleep(GUARD_MS);
	ASSERT_EQ(0, wl_module_table("placement", self->t));
	wl_msleep(GUARD_MS);
	ASSERT_EQ(0, marker(3));
	ASSERT_EQ(0, wl_tracefs_write("tracing_on", "0"));
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	lost = wl_tracefs_lost();
	if (sv->delay_dequeue == 1)
		EXPECT_EQ(0, wl_sched_feat_set("DELAY_DEQUEUE", true));
	sv->delay_dequeue = -1;

	EXPECT_EQ(0, wl_tracefs_clock(clk, sizeof(clk)));
	EXPECT_STREQ("global", clk);
	EXPECT_EQ(0, replay_trace(&rp));
	free(rp.state);
	ASSERT_LT(0L, sleeps) TH_LOG("a ping-pong side failed");
	ASSERT_EQ(0, lost) TH_LOG("the trace buffer lost %lld events (buffer_size_kb %s)",
				  lost, TRACE_BUF_KB);
	ASSERT_EQ(0ULL, rp.bad) TH_LOG("trace lines that do not parse");
	ASSERT_EQ(4, rp.phase) TH_LOG("markers M0..M3 not all in the trace");

	for (i = 0; i < NR_C; i++)
		mod[i] = col_sum(_metadata, self->t, col_names[i]);
	TH_LOG("%ld wakeups by the ping-pongs; trace: %llu events, %llu wakeup migrations (%llu to the waker's CPU), %llu undecided wakeups; between M1 and M2 %llu wakings of queued tasks and %llu of current or RT tasks not counted",
	       sleeps, rp.events, rp.migrations, rp.to_waker, rp.undecided,
	       rp.queued, rp.filtered);
	for (i = 0; i < NR_C; i++) {
		TH_LOG("%-9s trace %llu..%llu module %llu", col_names[i],
		       rp.lo[i], rp.hi[i], mod[i]);
		EXPECT_LE(rp.lo[i], mod[i]) TH_LOG("%s: module below the trace",
						   col_names[i]);
		EXPECT_GE(rp.hi[i], mod[i]) TH_LOG("%s: module above the trace",
						   col_names[i]);
	}
	/* Counts the comparison can judge. */
	EXPECT_LE(1000ULL, rp.lo[C_WAKEUPS]);
	EXPECT_LE((unsigned long long)sleeps, rp.hi[C_WAKEUPS]);
	EXPECT_LE(20ULL, rp.lo[C_WAKER_LLC] + rp.lo[C_PREV_LLC])
		TH_LOG("too few moves inside an LLC to judge");
	if (t->nllc > 1) {
		EXPECT_LE(20ULL, rp.lo[C_CROSS_LLC])
			TH_LOG("too few cross-LLC wakeups to judge");
	}
	/* The bracket is narrow where the LLC map matters. */
	for (i = C_WAKER_LLC; i < ARRAY_SIZE(col_names); i++) {
		const char *name = col_names[i] ?: "?";

		EXPECT_GE(rp.lo[i] / 10 + 10, rp.hi[i] - rp.lo[i])
			TH_LOG("%s: trace bracket too wide to judge", name);
	}
}

TEST_HARNESS_MAIN
