// SPDX-License-Identifier: GPL-2.0
/*
 * Linux's own perf on the machine under test (issue: profiles): perf
 * records a system-wide cpu-clock profile (no PMU under TCG) and its report
 * resolves kernel symbols; with the test-only wakelab_planted.ko, whose
 * kprobe on __wake_up_sync_key() spins in wakelab_planted_burn() at every
 * socket wakeup, a loopback tcp_rr load's profile names that function;
 * wl_stream --profile records the same over its window alone, with perf
 * stat's counters (a hardware one null where no PMU opens), and so with
 * netperf as the workload.  Skips without perf in PATH (scripts/vm --perf
 * carries Debian's linux-perf; make check boots its suites with it),
 * without root, or without the test module.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "wl/core/file.h"
#include "wl/core/json_read.h"
#include "wl/core/proc.h"
#include "wl/kernel/perf_tool.h"

#define PLANTED_KO	"/wakelab/modules/test/wakelab_planted.ko"
#define PLANTED_SYM	"wakelab_planted_burn"
#define PLANTED_PARAM	"/sys/module/wakelab_planted/parameters/burn_loops"
#define REPORT_LEN	(256 << 10)

FIXTURE(perf) {
	const char *skip;
	char dir[32];
	char *out;
	bool planted;
};

FIXTURE_SETUP(perf)
{
	static char *ver[] = { "perf", "--version", NULL };
	char buf[256];

	self->out = calloc(1, REPORT_LEN);
	ASSERT_NE(NULL, self->out);
	if (geteuid()) {
		self->skip = "not root: a system-wide profile needs it";
		return;
	}
	if (wl_capture("perf", ver, buf, sizeof(buf), 30) ||
	    strncmp(buf, "perf version ", 13)) {
		self->skip = "no perf in PATH (scripts/vm --perf carries Debian's linux-perf; on a host: apt-get install linux-perf)";
		return;
	}
	TH_LOG("%.*s", (int)strcspn(buf, "\n"), buf);
	snprintf(self->dir, sizeof(self->dir), "/tmp/wlperf.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
}

FIXTURE_TEARDOWN(perf)
{
	static const char * const files[] = {
		"perf.data", "perf.data.old", "p/perf.data", "p/perf.data.old",
		"p/stat.csv", "p/kallsyms", "p/record.log", "p/stat.log",
	};
	char path[64];
	unsigned int i;

	if (self->planted && syscall(SYS_delete_module, "wakelab_planted", 0))
		TH_LOG("rmmod wakelab_planted: %s", strerror(errno));
	if (self->dir[0]) {
		for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s", self->dir, files[i]);
			unlink(path);
		}
		snprintf(path, sizeof(path), "%s/p", self->dir);
		rmdir(path);
		rmdir(self->dir);
	}
	free(self->out);
}

/*
 * perf record -a -e cpu-clock while @cmd runs, then its report by symbol
 * into self->out; asserts both exit 0.
 */
static void profile(struct __test_metadata *_metadata,
		    FIXTURE_DATA(perf) *self, char *const cmd[])
{
	char *argv[32] = { "perf", "record", "-q", "-a", "-e", "cpu-clock",
			   "-F", "499", "-o", NULL, "--" };
	char data[64];
	char *rep[] = { "perf", "report", "-i", data, "--stdio", "--no-children",
			"--sort", "sym", NULL };
	int rc, n = 11;

	snprintf(data, sizeof(data), "%s/perf.data", self->dir);
	argv[9] = data;
	while (*cmd && n < 31)
		argv[n++] = *cmd++;
	argv[n] = NULL;
	rc = wl_capture("perf", argv, self->out, REPORT_LEN, 240);
	ASSERT_EQ(0, rc) TH_LOG("perf record: %s", self->out);
	rc = wl_capture("perf", rep, self->out, REPORT_LEN, 240);
	ASSERT_EQ(0, rc) TH_LOG("perf report: %s", self->out);
}

/*
 * The report's symbol lines ("  12.34%  [k] name"): the number of kernel
 * ones, the share of them all, and @sym's share and rank among the kernel
 * ones (1 = largest; 0 when absent).
 */
static int kernel_symbols(const char *rep, const char *sym, double *all,
			  double *share, int *rank)
{
	const char *p = rep;
	char mode, name[128];
	double pct;
	int n = 0;

	*all = 0;
	*share = 0;
	*rank = 0;
	while (*p) {
		if (sscanf(p, " %lf%% [%c] %127s", &pct, &mode, name) == 3) {
			*all += pct;
			if (mode == 'k') {
				n++;
				if (!*rank && !strcmp(name, sym)) {
					*rank = n;
					*share = pct;
				}
			}
		}
		p += strcspn(p, "\n");
		p += *p == '\n';
	}
	return n;
}

TEST_F_TIMEOUT(perf, records_kernel_samples, 600)
{
	char *sleep1[] = { "sleep", "1", NULL };
	double all, share;
	int rank, n;

	if (self->skip)
		SKIP(return, "%s", self->skip);

	profile(_metadata, self, sleep1);
	n = kernel_symbols(self->out, "-", &all, &share, &rank);
	EXPECT_LT(0, n) TH_LOG("no kernel symbol in the report: %.2000s", self->out);
	/* Lines for at least half the samples: the report parses. */
	EXPECT_LT(50, all) TH_LOG("symbol lines add up to %.1f%%", all);
}

/* Load wakelab_planted.ko burning @loops a wakeup; false to skip. */
static bool plant(struct __test_metadata *_metadata, FIXTURE_DATA(perf) *self,
		  const char *loops)
{
	char arg[32];
	int fd, st;

	fd = open(PLANTED_KO, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	snprintf(arg, sizeof(arg), "burn_loops=%s", loops);
	st = syscall(SYS_finit_module, fd, arg, 0);
	close(fd);
	EXPECT_EQ(0, st) TH_LOG("insmod %s: %s", PLANTED_KO, strerror(errno));
	self->planted = !st;
	return !st;
}

/* Skip without perf or the test module, else plant it burning @loops. */
#define PLANT_OR_SKIP(loops) do {						\
	if (self->skip)								\
		SKIP(return, "%s", self->skip);					\
	if (access(PLANTED_KO, R_OK))						\
		SKIP(return, "%s: %s (tests/modules, built by scripts/vm)",	\
		     PLANTED_KO, strerror(errno));				\
	ASSERT_TRUE(plant(_metadata, self, loops));				\
} while (0)

/*
 * The planted cause found, and only while it burns: with burn_loops
 * 100000 the symbol takes 5 % or more of the samples and ranks among the
 * five largest kernel symbols (the idle loop's among them); with 0, under
 * 1 %.
 */
TEST_F_TIMEOUT(perf, planted_symbol_found, 900)
{
	char *load[] = { "wl_stream", "-w", "tcp_rr", "-n", "2", "-l", "2", "-W", "0",
			 "-b", "--all-tasks", NULL };
	double all, on, off;
	int rank, n;

	PLANT_OR_SKIP("100000");

	profile(_metadata, self, load);
	n = kernel_symbols(self->out, PLANTED_SYM, &all, &on, &rank);
	TH_LOG("burning: %s %.2f%% of the samples, kernel symbol %d of %d",
	       PLANTED_SYM, on, rank, n);
	ASSERT_LT(0, rank) TH_LOG("%s not in the report: %.3000s", PLANTED_SYM,
				  self->out);
	EXPECT_LE(5, on);
	EXPECT_GE(5, rank);

	ASSERT_EQ(0, wl_write_str(PLANTED_PARAM, "0"));
	profile(_metadata, self, load);
	n = kernel_symbols(self->out, PLANTED_SYM, &all, &off, &rank);
	TH_LOG("not burning: %s %.2f%% of the samples, kernel symbol %d of %d",
	       PLANTED_SYM, off, rank, n);
	EXPECT_GT(1, off);
}

/*
 * @prof, a --profile JSON object: its samples, the number of kernel
 * symbols listed, and @sym's share and rank among them (0 when absent).
 */
static int json_symbols(const char *prof, const char *sym, double *samples,
			double *share, int *rank)
{
	const char *it = NULL, *e;
	char name[WL_PROF_SYM_LEN];
	int n = 0;

	*samples = 0;
	*share = 0;
	*rank = 0;
	wl_json_number(wl_json_member(prof, "samples"), samples);
	while ((e = wl_json_next_elem(&it, wl_json_member(prof, "symbols")))) {
		n++;
		if (!*rank &&
		    !wl_json_string(wl_json_member(e, "symbol"), name, sizeof(name)) &&
		    !strcmp(name, sym) &&
		    !wl_json_number(wl_json_member(e, "pct"), share))
			*rank = n;
	}
	return n;
}

/*
 * wl_stream --profile: perf record and perf stat over the window alone,
 * in the run's JSON.  The planted symbol among the five largest kernel
 * symbols at 5 % or more; the profile's event cycles where a PMU opens,
 * else cpu-clock; perf stat's context switches counted, its hardware
 * counters null where no PMU opens (never 0); perf.data, stat.csv and
 * kallsyms kept; the controller still silent in the window.
 */
TEST_F_TIMEOUT(perf, wl_stream_profile, 900)
{
	char dir[64], path[96], ev[16];
	char *load[] = { "wl_stream", "-w", "tcp_rr", "-n", "2", "-l", "2",
			 "-W", "0.5", "--json", "--all-tasks", "--profile", dir,
			 NULL };
	static const char * const kept[] = { "perf.data", "stat.csv", "kallsyms" };
	static const char * const hw[] = {
		"cycles", "instructions", "branch-misses", "cache-misses", "ipc",
	};
	const char *json, *prof, *st, *e;
	double v, planted, samples;
	bool pmu = wl_prof_has_pmu();
	int rank, n, rc;
	unsigned int i;

	PLANT_OR_SKIP("100000");
	snprintf(dir, sizeof(dir), "%s/p", self->dir);
	rc = wl_capture("wl_stream", load, self->out, REPORT_LEN, 600);
	ASSERT_EQ(0, rc) TH_LOG("wl_stream --profile: %.3000s", self->out);
	json = strchr(self->out, '{');
	ASSERT_NE(NULL, json) TH_LOG("%.3000s", self->out);
	ASSERT_TRUE(wl_json_valid_object(json));
	prof = wl_json_member(json, "profile");
	ASSERT_NE(NULL, prof);
	ASSERT_EQ(0, wl_json_string(wl_json_member(prof, "event"), ev, sizeof(ev)));
	EXPECT_STREQ(pmu ? "cycles" : "cpu-clock", ev);
	n = json_symbols(prof, PLANTED_SYM, &samples, &planted, &rank);
	EXPECT_LT(0, samples);
	TH_LOG("%s: %.0f samples, %s %.2f%%, kernel symbol %d of %d", ev,
	       samples, PLANTED_SYM, planted, rank, n);
	EXPECT_LT(0, rank);
	EXPECT_GE(5, rank);
	EXPECT_LE(5, planted);
	st = wl_json_member(prof, "stat");
	ASSERT_NE(NULL, st);
	ASSERT_EQ(0, wl_json_number(wl_json_member(st, "context-switches"), &v));
	EXPECT_LT(0, v);
	ASSERT_EQ(0, wl_json_number(wl_json_member(st, "task-clock"), &v));
	EXPECT_LT(0, v);
	if (!pmu) {
		for (i = 0; i < sizeof(hw) / sizeof(hw[0]); i++) {
			e = wl_json_member(st, hw[i]);
			EXPECT_TRUE(e && !strncmp(e, "null", 4))
				TH_LOG("no PMU, yet %s is %.20s", hw[i], e ? e : "absent");
		}
	}
	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, kept[i]);
		EXPECT_EQ(0, access(path, R_OK)) TH_LOG("%s: %s", path, strerror(errno));
	}
	ASSERT_EQ(0, wl_json_number(wl_json_member(json, "controller_sleeps"), &v));
	EXPECT_GE(2, v) TH_LOG("the controller slept %.0f times in the window", v);
}

/*
 * wl_stream --profile with netperf as the workload: netperf as its users
 * run it (--plain: the window is the netperfs' whole life) and the netperf
 * engine (the window inside the running streams); in each run's JSON the
 * planted symbol among the five largest kernel symbols at 5 % or more.
 * Skips without Debian's netperf (the VM carries it).
 */
TEST_F_TIMEOUT(perf, netperf_profile, 900)
{
	static const char * const mode[] = { "--plain", "-W" };
	char dir[64], path[96];
	char *load[] = { "wl_stream", "-w", "netperf:TCP_RR", "-n", "2", "-l",
			 "2", "--json", "--all-tasks", "--profile", dir, NULL,
			 NULL, NULL };
	const char *json, *prof;
	double planted, samples;
	unsigned int m;
	int rank, n, rc;

	PLANT_OR_SKIP("100000");
	snprintf(dir, sizeof(dir), "%s/p", self->dir);
	for (m = 0; m < sizeof(mode) / sizeof(mode[0]); m++) {
		load[11] = (char *)mode[m];
		load[12] = m ? "0.5" : NULL;
		rc = wl_capture("wl_stream", load, self->out, REPORT_LEN, 600);
		if (rc == 4)
			SKIP(return, "wl_stream: %.300s", self->out);
		ASSERT_EQ(0, rc) TH_LOG("netperf %s --profile: %.3000s",
					mode[m], self->out);
		json = strchr(self->out, '{');
		ASSERT_NE(NULL, json) TH_LOG("%.3000s", self->out);
		ASSERT_TRUE(wl_json_valid_object(json));
		prof = wl_json_member(json, "profile");
		ASSERT_TRUE(prof && *prof == '{') TH_LOG("profile: %.40s",
							  prof ? prof : "absent");
		n = json_symbols(prof, PLANTED_SYM, &samples, &planted, &rank);
		TH_LOG("netperf %s: %.0f samples, %s %.2f%%, kernel symbol %d of %d",
		       mode[m], samples, PLANTED_SYM, planted, rank, n);
		EXPECT_LT(0, samples);
		EXPECT_LT(0, rank);
		EXPECT_GE(5, rank);
		EXPECT_LE(5, planted);
		snprintf(path, sizeof(path), "%s/perf.data", dir);
		EXPECT_EQ(0, access(path, R_OK)) TH_LOG("%s: %s", path, strerror(errno));
	}
}

TEST_HARNESS_MAIN
