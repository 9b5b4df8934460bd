// SPDX-License-Identifier: GPL-2.0
/*
 * Linux's own perf on the machine under test (issue: profiles): perf
 * records a system-wide cpu-clock profile (no PMU under TCG) and its report
 * resolves kernel symbols; with the test-only wakelab_planted.ko, whose
 * kprobe on __wake_up_sync_key() spins in wakelab_planted_burn() at every
 * socket wakeup, a loopback tcp_rr load's profile names that function.  Skips without perf in
 * PATH (scripts/vm --perf carries Debian's linux-perf; make check boots its
 * suites with it), without root, or without the test module.
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
#include "wl/core/proc.h"

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
	char path[64];

	if (self->planted && syscall(SYS_delete_module, "wakelab_planted", 0))
		TH_LOG("rmmod wakelab_planted: %s", strerror(errno));
	if (self->dir[0]) {
		snprintf(path, sizeof(path), "%s/perf.data", self->dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/perf.data.old", self->dir);
		unlink(path);
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
	int fd, rank, n, st;

	if (self->skip)
		SKIP(return, "%s", self->skip);
	fd = open(PLANTED_KO, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		SKIP(return, "%s: %s (tests/modules, built by scripts/vm)",
		     PLANTED_KO, strerror(errno));
	st = syscall(SYS_finit_module, fd, "burn_loops=100000", 0);
	close(fd);
	ASSERT_EQ(0, st) TH_LOG("insmod %s: %s", PLANTED_KO, strerror(errno));
	self->planted = true;

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

TEST_HARNESS_MAIN
