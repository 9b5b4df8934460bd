// SPDX-License-Identifier: GPL-2.0
/*
 * Kselftest form of wl_compare: runs the real tool (beside this program)
 * against the running kernel and checks what a user relies on -- a spec
 * the kernel cannot honour is refused with nothing changed; a short
 * comparison (2 specs x 2 instance counts x 3 trials) completes every trial
 * with integrity and leaves every sched feature exactly as it found it;
 * SIGTERM mid-run restores too; an A/A comparison is not called
 * significant; a large known effect (sender and receiver on the same CPU
 * versus on CPUs in different LLCs) is.  The two verdict tests use 6
 * trials per side and alpha 0.01 (smallest exact p 2/924), so the A/A test
 * fails by chance in at most 1 % of runs; `make bench-verdict` measures the
 * rates properly.  Skips when not root or without the features file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "wakelab_util.h"
#include "wl_json.h"

#define CMP_OUT_MAX	(4 << 20)
#define CMP_STEP_US	100000
/* Seconds per comparison test: ~12 trials of ~3 s under TCG, with margin. */
#define CMP_TIMEOUT	300

static char cmp_bin[PATH_MAX];

/* wl_compare and wl_stream live beside this program. */
static const char *cmp_find(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0)
		return "cannot read /proc/self/exe";
	self[n] = '\0';
	slash = strrchr(self, '/');
	*slash = '\0';
	if (strlen(self) + sizeof("/wl_compare") > sizeof(cmp_bin))
		return "path too long";
	strcpy(cmp_bin, self);
	strcat(cmp_bin, "/wl_compare");
	if (access(cmp_bin, X_OK))
		return "wl_compare not found beside the test";
	return NULL;
}

/* Start wl_compare with argv (NULL-terminated, argv[0] ignored). */
static pid_t cmp_start(char **argv, const char *out_path)
{
	pid_t pid = fork();
	int fd;

	if (pid)
		return pid;
	fd = open(out_path ? out_path : "/dev/null",
		  O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0)
		dup2(fd, STDOUT_FILENO);
	argv[0] = cmp_bin;
	execv(cmp_bin, argv);
	_exit(127);
}

static int cmp_wait(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

static int cmp_run(char **argv, const char *out_path)
{
	return cmp_wait(cmp_start(argv, out_path));
}

static char *cmp_slurp(const char *path)
{
	char *buf = calloc(1, CMP_OUT_MAX);

	if (buf && wl_read_file(path, buf, CMP_OUT_MAX) < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * Stats record of policy @label in cell 0 of a results.json text, or NULL.
 */
static const char *cmp_stat(const char *json, const char *label)
{
	const char *arr = wl_json_member(json, "stats"), *it = NULL, *e;
	char l[64];

	while ((e = wl_json_next_elem(&it, arr)))
		if (!wl_json_string(wl_json_member(e, "policy"), l, sizeof(l)) &&
		    !strcmp(l, label))
			return e;
	return NULL;
}

FIXTURE(compare) {
	const char *skip;
	char before[4096];
	char outdir[64];
	char json[96];
};

FIXTURE_SETUP(compare)
{
	self->skip = wl_kernel_test_skip_reason();
	if (!self->skip)
		self->skip = cmp_find();
	if (self->skip)
		return;
	ASSERT_LT(0, wl_read_file(WL_SCHED_FEATURES, self->before,
				  sizeof(self->before)));
	snprintf(self->outdir, sizeof(self->outdir), "/tmp/wl_compare_test.%d",
		 getpid());
	snprintf(self->json, sizeof(self->json), "%s/results.json",
		 self->outdir);
}

FIXTURE_TEARDOWN(compare)
{
	static const char * const files[] = {
		"report.txt", "results.json", "plot.dat", "plot.gp", "plot.png",
	};
	char after[4096], p[160];
	size_t i;

	if (self->skip)
		return;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", self->outdir, files[i]);
		unlink(p);
	}
	rmdir(self->outdir);
	/* Whatever a test did, the features must be exactly as found. */
	ASSERT_LT(0, wl_read_file(WL_SCHED_FEATURES, after, sizeof(after)));
	EXPECT_STREQ(self->before, after);
}

TEST_F(compare, bad_spec_changes_nothing)
{
	char *bogus[] = { NULL, "--check", "NO_WA_IDLE", "WA_NO_SUCH_FEATURE",
			  NULL };
	char *conflict[] = { NULL, "--check", "WA_IDLE,NO_WA_IDLE", NULL };
	char *waold[] = { NULL, "--check", "WA_OLD,NO_WA_IDLE,NO_WA_WEIGHT",
			  NULL };
	char after[4096];

	WL_SKIP_IF(self->skip);
	EXPECT_EQ(2, cmp_run(bogus, NULL));
	EXPECT_EQ(2, cmp_run(conflict, NULL));
	/* WA_OLD: refused on a kernel without it, accepted with it. */
	EXPECT_EQ(wl_sched_feat_get("WA_OLD") < 0 ? 2 : 0,
		  cmp_run(waold, NULL));
	ASSERT_LT(0, wl_read_file(WL_SCHED_FEATURES, after, sizeof(after)));
	EXPECT_STREQ(self->before, after);
}

/* 2 specs x 2 instance counts x 3 trials: integrity and exact restore. */
TEST_F_TIMEOUT(compare, short_comparison_restores, CMP_TIMEOUT)
{
	char *argv[] = { NULL, "-q", "-r", "3", "-l", "1", "-n", "1,cpus",
			 "-O", self->outdir, "default", "NO_WA_IDLE,NO_WA_WEIGHT",
			 "--", "-W", "0.5", NULL };
	const char *arr, *it = NULL, *e;
	char *json, after[4096];
	int ret, n = 0, ok = 0;

	WL_SKIP_IF(self->skip);
	ret = cmp_run(argv, NULL);
	if (ret == 4)
		SKIP(return, "wl_compare skipped (wl_stream unsupported here)");
	EXPECT_EQ(0, ret);
	json = cmp_slurp(self->json);
	ASSERT_NE(NULL, json);
	ASSERT_TRUE(wl_json_valid_object(json));
	EXPECT_TRUE(wl_json_true(wl_json_member(json, "restored")));
	arr = wl_json_member(json, "trials");
	while ((e = wl_json_next_elem(&it, arr))) {
		char integ[16] = "";

		n++;
		wl_json_string(wl_json_member(e, "integrity"), integ,
			       sizeof(integ));
		if (wl_json_true(wl_json_member(e, "ok")) &&
		    !strcmp(integ, "ok"))
			ok++;
	}
	/* cpus == 1 collapses the two counts into one cell. */
	EXPECT_EQ(sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 12 : 6, n);
	EXPECT_EQ(n, ok);
	free(json);
	ASSERT_LT(0, wl_read_file(WL_SCHED_FEATURES, after, sizeof(after)));
	EXPECT_STREQ(self->before, after);
}

/* SIGTERM while a spec is applied: the original settings come back. */
TEST_F_TIMEOUT(compare, sigterm_restores, CMP_TIMEOUT)
{
	char *argv[] = { NULL, "-q", "-r", "3", "-l", "20", "-n", "1",
			 "default", "NO_WA_IDLE,NO_WA_WEIGHT", NULL };
	int i, seen = 0;
	pid_t pid;

	WL_SKIP_IF(self->skip);
	if (wl_sched_feat_get("WA_IDLE") != 1)
		SKIP(return, "WA_IDLE is not set here");
	pid = cmp_start(argv, NULL);
	ASSERT_LT(0, pid);
	/*
	 * Wait (up to 120 s) until the second spec has been applied for 2 s:
	 * a trial is running then, not wl_compare's quick check cycle.
	 */
	for (i = 0; i < 1200 && seen < 20; i++) {
		usleep(CMP_STEP_US);
		seen = wl_sched_feat_get("WA_IDLE") == 0 ? seen + 1 : 0;
	}
	kill(pid, SIGTERM);
	EXPECT_EQ(128 + SIGTERM, cmp_wait(pid));
	EXPECT_EQ(20, seen);
	EXPECT_EQ(1, wl_sched_feat_get("WA_IDLE"));
}

/* Run a two-policy verdict comparison; return "significant" of policy b. */
static int cmp_verdict(struct __test_metadata *_metadata, const char *outdir,
		       const char *json_path, char *a, char *b)
{
	char *argv[] = { NULL, "-q", "-r", "6", "-l", "1", "-n", "1", "-a",
			 "0.01", "-O", (char *)outdir, a, b, "--", "-W", "0.5",
			 NULL };
	const char *st;
	char *json;
	int ret, sig;

	ret = cmp_run(argv, NULL);
	if (ret == 4)
		return -4;
	EXPECT_EQ(0, ret);
	json = cmp_slurp(json_path);
	if (!json)
		return -1;
	st = cmp_stat(json, "b");
	sig = st ? wl_json_true(wl_json_member(st, "significant")) : -1;
	if (st) {
		double p = -1;

		wl_json_number(wl_json_member(st, "p_value"), &p);
		TH_LOG("%s vs %s: p = %.4f", a, b, p);
	}
	free(json);
	return sig;
}

TEST_F_TIMEOUT(compare, aa_not_significant, CMP_TIMEOUT)
{
	int sig;

	WL_SKIP_IF(self->skip);
	sig = cmp_verdict(_metadata, self->outdir, self->json,
			  "name=a,default", "name=b,default");
	if (sig == -4)
		SKIP(return, "wl_stream unsupported here");
	EXPECT_EQ(0, sig);
}

TEST_F_TIMEOUT(compare, known_effect_significant, CMP_TIMEOUT)
{
	char *topo = "/sys/devices/system/cpu/cpu0/topology/physical_package_id";
	int sig;

	WL_SKIP_IF(self->skip);
	if (access(topo, R_OK) || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs in different LLCs");
	sig = cmp_verdict(_metadata, self->outdir, self->json,
			  "name=a,pin=same-cpu", "name=b,pin=cross-llc");
	if (sig == -4)
		SKIP(return, "wl_stream unsupported here");
	EXPECT_EQ(1, sig);
}

TEST_HARNESS_MAIN
