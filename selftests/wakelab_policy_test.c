// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab.ko in control mode, on a kernel with the wakelab series' policy
 * hook (skips elsewhere): the policy file lists every policy and switches
 * live; "always" and "never" give exactly 100 % and 0 % waker-CPU
 * decisions on tcp_rr, and the kernel's own rules none; placement
 * counters are kept per policy; toggling WA_OLD in sched/features changes
 * the decision mix that sched_wake_affine_tp reports; the module's old
 * policy decides like the kernel's WA_OLD for the same inputs
 * (differential check), whatever the imbalance_pct file says, and its
 * idle and weight copies like WA_IDLE and WA_WEIGHT; policy
 * switches under load count each wakeup in the row of the policy that
 * decided it; a module that registers a policy and fails its init leaves
 * no policy behind; and rmmod under 2 x CPUs streams while the policy
 * changes every 10 ms leaves the kernel clean (scripts/vm fails the run on
 * any dmesg splat).  Sched features are restored.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "wl/core/clock.h"
#include "wl/kernel/load.h"
#include "wl/kernel/wakelab_module.h"

static const char * const policies[] = {
	"kernel", "old", "idle", "weight", "idle+weight", "always", "never",
	"idler_llc",
};

/* Saved and restored; wa_features() sets the first three. */
static const char * const feats[] = {
	"WA_OLD", "WA_IDLE", "WA_WEIGHT", "WA_BIAS",
};

FIXTURE(pol) {
	const char *skip;
	bool loaded_here;
	int feat[ARRAY_SIZE(feats)];
	struct wl_table *t;
};

FIXTURE_SETUP(pol)
{
	unsigned int i;

	self->t = wl_table_new();
	ASSERT_NE(NULL, self->t);
	self->skip = wl_module_setup(_metadata, "", &self->loaded_here);
	if (self->skip)
		return;
	if (strcmp(wl_cap("hook"), "yes")) {
		self->skip = "kernel has no wake-affine policy hook (stock kernel)";
		return;
	}
	for (i = 0; i < ARRAY_SIZE(feats); i++) {
		self->feat[i] = wl_sched_feat_get(feats[i]);
		ASSERT_LE(0, self->feat[i]) TH_LOG("%s missing", feats[i]);
	}
	ASSERT_EQ(0, wl_knob_set("policy", "kernel"));
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	ASSERT_EQ(0, wl_knob_set("reset", "1"));
}

FIXTURE_TEARDOWN(pol)
{
	unsigned int i;

	if (!self->skip) {
		for (i = 0; i < ARRAY_SIZE(feats); i++)
			EXPECT_EQ(0, wl_sched_feat_set(feats[i], self->feat[i]));
		if (wl_module_loaded()) {
			EXPECT_EQ(0, wl_knob_set("enable", "0"));
			EXPECT_EQ(0, wl_knob_set("policy", "kernel"));
		}
	}
	free(self->t);
}

/* Set WA_OLD, WA_IDLE and WA_WEIGHT (feats[]) to @old, @idle, @weight. */
static void wa_features(struct __test_metadata *_metadata, bool old,
			bool idle, bool weight)
{
	const bool on[] = { old, idle, weight };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(on); i++)
		ASSERT_EQ(0, wl_sched_feat_set(feats[i], on[i]));
}

/* Run @workload with the probes on; counters reset first. */
static void run_load(struct __test_metadata *_metadata, const char *workload,
		     const char *inst, int secs)
{
	pid_t pid;

	ASSERT_EQ(0, wl_knob_set("reset", "1"));
	ASSERT_EQ(0, wl_knob_set("enable", "1"));
	pid = wl_load_start(workload, inst, secs);
	ASSERT_LT(0, pid);
	EXPECT_EQ(0, wl_load_wait(pid));
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
}

/* calls and waker of decisions row @rule. */
static void decisions(struct __test_metadata *_metadata,
		      struct wl_table *t, const char *rule,
		      unsigned long long *calls, unsigned long long *waker)
{
	ASSERT_EQ(0, wl_module_table("decisions", t));
	ASSERT_EQ(0, wl_table_get(t, rule, "calls", calls));
	ASSERT_EQ(0, wl_table_get(t, rule, "waker", waker));
}

TEST_F(pol, policy_file_switches)
{
	struct wl_policy_list pol;
	char buf[4096];
	unsigned int i;

	WL_SKIP_IF(self->skip);
	ASSERT_LT(0, wl_knob_get("policy", buf, sizeof(buf)));
	ASSERT_EQ(0, wl_policy_parse(buf, &pol));
	ASSERT_EQ((int)ARRAY_SIZE(policies), pol.n);
	for (i = 0; i < ARRAY_SIZE(policies); i++)
		EXPECT_STREQ(policies[i], pol.name[i]);
	EXPECT_STREQ("kernel", pol.name[pol.active]);
	for (i = 0; i < ARRAY_SIZE(policies); i++) {
		ASSERT_EQ(0, wl_knob_set("policy", policies[i]));
		ASSERT_LT(0, wl_knob_get("policy", buf, sizeof(buf)));
		ASSERT_EQ(0, wl_policy_parse(buf, &pol));
		EXPECT_STREQ(policies[i], pol.name[pol.active]);
	}
	/* A bad name leaves the last one active. */
	EXPECT_EQ(-EINVAL, wl_knob_set("policy", "nosuch"));
	ASSERT_LT(0, wl_knob_get("policy", buf, sizeof(buf)));
	ASSERT_EQ(0, wl_policy_parse(buf, &pol));
	EXPECT_STREQ("idler_llc", pol.name[pol.active]);
	/* Tunables: valid values stick, then go back to the defaults. */
	EXPECT_EQ(0, wl_knob_set("imbalance_pct", "125"));
	ASSERT_LT(0, wl_knob_get("imbalance_pct", buf, sizeof(buf)));
	EXPECT_STREQ("125\n", buf);
	EXPECT_EQ(0, wl_knob_set("imbalance_pct", "0"));
	EXPECT_EQ(0, wl_knob_set("bias", "0"));
	EXPECT_EQ(0, wl_knob_set("bias", "1"));
}

/*
 * While a policy that never declines (always, never) is registered, every
 * wake_affine() call is the policy's (WA_RULE_POLICY): the kernel's own
 * rules must have no calls at all.
 */
static void only_policy_decides(struct __test_metadata *_metadata,
				struct wl_table *t, const char *policy)
{
	static const char * const rules[] = { "none", "idle", "weight", "old" };
	unsigned long long calls, waker;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rules); i++) {
		decisions(_metadata, t, rules[i], &calls, &waker);
		EXPECT_EQ(0ULL, calls) TH_LOG("%s: %llu decisions by rule %s",
					      policy, calls, rules[i]);
	}
}

/*
 * The decisions row "policy" counts the wake_affine() calls the hook
 * decided, "waker" those that returned the waker's CPU.  always returns
 * this_cpu unconditionally and the kernel keeps that answer (it only
 * overrides one that is neither this_cpu nor prev_cpu), so every one of
 * its decisions is the waker's; never returns prev_cpu, and wake_affine()
 * runs only when this_cpu != prev_cpu, so none of its decisions is.  The
 * probes are off when the table is read, so no decision is half counted.
 */
TEST_F_TIMEOUT(pol, always_and_never, 120)
{
	unsigned long long calls, waker, w_always, w_never;

	WL_SKIP_IF(self->skip);
	ASSERT_EQ(0, wl_knob_set("policy", "always"));
	run_load(_metadata, "tcp_rr", "2", 3);
	decisions(_metadata, self->t, "policy", &calls, &waker);
	EXPECT_LT(20ULL, calls) TH_LOG("only %llu decisions", calls);
	EXPECT_EQ(calls, waker)
		TH_LOG("always: %llu of %llu to the waker", waker, calls);
	only_policy_decides(_metadata, self->t, "always");
	ASSERT_EQ(0, wl_module_table("placement", self->t));
	ASSERT_EQ(0, wl_table_get(self->t, "always", "wakeups", &w_always));
	ASSERT_EQ(0, wl_table_get(self->t, "never", "wakeups", &w_never));
	EXPECT_LT(0ULL, w_always);
	EXPECT_EQ(0ULL, w_never);

	ASSERT_EQ(0, wl_knob_set("policy", "never"));
	run_load(_metadata, "tcp_rr", "2", 3);
	decisions(_metadata, self->t, "policy", &calls, &waker);
	EXPECT_LT(20ULL, calls) TH_LOG("only %llu decisions", calls);
	EXPECT_EQ(0ULL, waker)
		TH_LOG("never: %llu of %llu to the waker", waker, calls);
	only_policy_decides(_metadata, self->t, "never");
	ASSERT_EQ(0, wl_module_table("placement", self->t));
	ASSERT_EQ(0, wl_table_get(self->t, "never", "wakeups", &w_never));
	EXPECT_LT(0ULL, w_never);
}

TEST_F_TIMEOUT(pol, wa_old_changes_decision_mix, 120)
{
	unsigned long long old_calls, old_waker, idle_calls, idle_waker;
	unsigned long long weight_calls, weight_waker;

	WL_SKIP_IF(self->skip);
	/* WA_OLD alone: every decision is WA_OLD's. */
	wa_features(_metadata, true, false, false);
	run_load(_metadata, "tcp_stream", "2*cpus", 3);
	decisions(_metadata, self->t, "old", &old_calls, &old_waker);
	decisions(_metadata, self->t, "idle", &idle_calls, &idle_waker);
	EXPECT_LT(0ULL, old_calls);
	EXPECT_EQ(0ULL, idle_calls);

	/* The 6.1 default: WA_IDLE and WA_WEIGHT, no WA_OLD. */
	wa_features(_metadata, false, true, true);
	run_load(_metadata, "tcp_stream", "2*cpus", 3);
	decisions(_metadata, self->t, "old", &old_calls, &old_waker);
	decisions(_metadata, self->t, "idle", &idle_calls, &idle_waker);
	decisions(_metadata, self->t, "weight", &weight_calls, &weight_waker);
	EXPECT_EQ(0ULL, old_calls);
	EXPECT_LT(0ULL, idle_calls + weight_calls);
}

/*
 * The differential check of the module's old policy against the kernel's
 * WA_OLD, with the imbalance_pct file at @pct: the check recomputes each
 * decision from the inputs and the domain's imbalance_pct the kernel
 * used, so the file (which only steers the module's own policies) must
 * not make it disagree.  tcp_rr, then tcp_stream, for WA_OLD decisions
 * both ways.
 */
static void old_check(struct __test_metadata *_metadata,
		      FIXTURE_DATA(pol) *self, const char *pct)
{
	unsigned long long agree, disagree, stale;
	pid_t pid;

	WL_SKIP_IF(self->skip);
	/* The check needs the hook registered while "kernel" is active. */
	ASSERT_EQ(0, wl_module_unload_retry());
	ASSERT_EQ(0, wl_module_load("passthrough=register"));
	wa_features(_metadata, true, false, false);
	ASSERT_EQ(0, wl_knob_set("imbalance_pct", pct));
	ASSERT_EQ(0, wl_knob_set("reset", "1"));
	ASSERT_EQ(0, wl_knob_set("enable", "1"));
	pid = wl_load_start("tcp_rr", "4", 4);
	ASSERT_LT(0, pid);
	EXPECT_EQ(0, wl_load_wait(pid));
	pid = wl_load_start("tcp_stream", "2*cpus", 4);
	ASSERT_LT(0, pid);
	EXPECT_EQ(0, wl_load_wait(pid));
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	ASSERT_EQ(0, wl_module_table("oldcheck", self->t));
	ASSERT_EQ(0, wl_table_get(self->t, "old", "agree", &agree));
	ASSERT_EQ(0, wl_table_get(self->t, "old", "disagree", &disagree));
	ASSERT_EQ(0, wl_table_get(self->t, "old", "stale", &stale));
	/* Stale checks (inputs moved meanwhile) are no evidence either way. */
	EXPECT_LT(10ULL, agree) TH_LOG("only %llu checks (%llu stale)",
				       agree, stale);
	EXPECT_EQ(0ULL, disagree)
		TH_LOG("%llu of %llu differ (%llu stale)", disagree,
		       agree + disagree, stale);
	TH_LOG("old vs WA_OLD, imbalance_pct %s: %llu agree, %llu disagree, %llu stale",
	       pct, agree, disagree, stale);
	ASSERT_EQ(0, wl_knob_set("imbalance_pct", "0"));
	ASSERT_EQ(0, wl_module_unload_retry());
	ASSERT_EQ(0, wl_module_load(NULL));
}

TEST_F_TIMEOUT(pol, old_policy_matches_wa_old, 120)
{
	old_check(_metadata, self, "0");
}

TEST_F_TIMEOUT(pol, old_check_ignores_imbalance_pct_file, 120)
{
	old_check(_metadata, self, "1000");
}

/* The rules the idle and weight rows of oldcheck check, in that order. */
static const char * const aff_rules[] = { "idle", "weight" };

/*
 * Whether every rule of aff_rules[] has @min agreeing checks in oldcheck;
 * @agree, @disagree, @stale get each row's counts.
 */
static bool aff_counts(struct __test_metadata *_metadata, struct wl_table *t,
		       unsigned long long min, unsigned long long *agree,
		       unsigned long long *disagree, unsigned long long *stale)
{
	bool enough = true;
	unsigned int i;

	ASSERT_EQ(0, wl_module_table("oldcheck", t));
	for (i = 0; i < ARRAY_SIZE(aff_rules); i++) {
		ASSERT_EQ(0, wl_table_get(t, aff_rules[i], "agree", &agree[i]));
		ASSERT_EQ(0, wl_table_get(t, aff_rules[i], "disagree",
					  &disagree[i]));
		ASSERT_EQ(0, wl_table_get(t, aff_rules[i], "stale", &stale[i]));
		if (agree[i] < min)
			enough = false;
	}
	return enough;
}

/*
 * The differential check of the module's idle and weight copies against
 * the kernel's WA_IDLE and WA_WEIGHT, with the default features (WA_OLD
 * off; WA_IDLE, WA_WEIGHT and WA_BIAS on) and the hook registered while
 * "kernel" is active, answering -1: each decision of rule idle or weight
 * whose inputs held still from select() to the tracepoint is recomputed
 * by idle+weight on them with the domain's imbalance_pct, which must
 * reach the same rule and CPU.  Rounds of tcp_rr x 4 (idle CPUs, sync
 * wakeups), then tcp_stream x 2 x CPUs (busy CPUs), until each rule has
 * 100 agreeing checks (at most 6 rounds); no disagreement allowed.
 */
TEST_F_TIMEOUT(pol, idle_weight_match_wa_idle_wa_weight, 300)
{
	const unsigned long long min = 100;
	unsigned long long agree[2], disagree[2], stale[2], calls, waker;
	bool enough = false;
	unsigned int i;
	int round;
	pid_t pid;

	WL_SKIP_IF(self->skip);
	ASSERT_EQ(0, wl_module_unload_retry());
	ASSERT_EQ(0, wl_module_load("passthrough=register"));
	wa_features(_metadata, false, true, true);
	ASSERT_EQ(0, wl_sched_feat_set("WA_BIAS", true));
	ASSERT_EQ(0, wl_knob_set("reset", "1"));
	for (round = 1; round <= 6 && !enough; round++) {
		ASSERT_EQ(0, wl_knob_set("enable", "1"));
		pid = wl_load_start("tcp_rr", "4", 4);
		ASSERT_LT(0, pid);
		EXPECT_EQ(0, wl_load_wait(pid));
		pid = wl_load_start("tcp_stream", "2*cpus", 4);
		ASSERT_LT(0, pid);
		EXPECT_EQ(0, wl_load_wait(pid));
		ASSERT_EQ(0, wl_knob_set("enable", "0"));
		enough = aff_counts(_metadata, self->t, min, agree, disagree,
				    stale);
	}
	TH_LOG("idle+weight vs WA_IDLE, WA_WEIGHT: %d rounds", round - 1);
	for (i = 0; i < ARRAY_SIZE(aff_rules); i++) {
		decisions(_metadata, self->t, aff_rules[i], &calls, &waker);
		TH_LOG("%s: %llu decisions (%llu waker): %llu agree, %llu disagree, %llu stale",
		       aff_rules[i], calls, waker, agree[i], disagree[i],
		       stale[i]);
		/* Stale checks (inputs moved meanwhile) are no evidence. */
		EXPECT_LE(min, agree[i])
			TH_LOG("%s: only %llu agreeing checks of %llu decisions",
			       aff_rules[i], agree[i], calls);
		EXPECT_EQ(0ULL, disagree[i])
			TH_LOG("%s: %llu of %llu differ", aff_rules[i],
			       disagree[i], agree[i] + disagree[i]);
	}
	decisions(_metadata, self->t, "old", &calls, &waker);
	EXPECT_EQ(0ULL, calls);
	ASSERT_EQ(0, wl_module_unload_retry());
	ASSERT_EQ(0, wl_module_load(NULL));
}

/**
 * struct switcher - a thread writing policy names in turn
 * @stop:	set to end the thread
 * @switches:	writes that succeeded
 * @seq:	the names, written in this order, round and round
 * @n:		how many
 * @ms:		pause between two writes
 */
struct switcher {
	volatile bool stop;
	int switches;
	const char * const *seq;
	unsigned int n;
	int ms;
};

static void *switch_fn(void *arg)
{
	struct switcher *s = arg;
	unsigned int i = 0;

	while (!s->stop) {
		if (!wl_knob_set("policy", s->seq[i++ % s->n]))
			s->switches++;
		wl_msleep(s->ms);
	}
	return NULL;
}

TEST_F_TIMEOUT(pol, rmmod_while_switching, 180)
{
	struct switcher s = {
		.seq = policies, .n = ARRAY_SIZE(policies), .ms = 10,
	};
	pthread_t th;
	pid_t pid;
	int i;

	WL_SKIP_IF(self->skip);
	pid = wl_load_start("tcp_stream", "2*cpus", 120);
	ASSERT_LT(0, pid);
	for (i = 0; i < 3; i++) {
		if (!wl_module_loaded())
			ASSERT_EQ(0, wl_module_load(NULL));
		ASSERT_EQ(0, wl_knob_set("enable", "1"));
		s.stop = false;
		ASSERT_EQ(0, pthread_create(&th, NULL, switch_fn, &s));
		wl_msleep(1500);
		/* Unload under the streams, the switcher still writing. */
		EXPECT_EQ(0, wl_module_unload_retry());
		s.stop = true;
		pthread_join(th, NULL);
	}
	wl_load_stop(pid);
	EXPECT_LT(10, s.switches);
	ASSERT_EQ(0, wl_module_load(NULL));
}

/* Between kernel and a module policy every 5 ms: hook off, on, off ... */
static const char * const flips[] = {
	"kernel", "always", "kernel", "never", "never", "always",
};

/*
 * Policy switches under load count every wakeup in the row of the policy
 * that decided it: the "row" check of oldcheck compares each
 * wake_affine() decision with the placement row it is counted in (a
 * module policy's row must get WA_RULE_POLICY decisions, the kernel row
 * the features' rules), including while the hook is being registered
 * and unregistered.
 */
TEST_F_TIMEOUT(pol, switches_count_in_the_deciding_row, 120)
{
	unsigned long long agree, disagree, stale;
	struct switcher f = {
		.seq = flips, .n = ARRAY_SIZE(flips), .ms = 5,
	};
	pthread_t th;
	pid_t pid;

	WL_SKIP_IF(self->skip);
	ASSERT_EQ(0, wl_knob_set("reset", "1"));
	ASSERT_EQ(0, wl_knob_set("enable", "1"));
	pid = wl_load_start("tcp_stream", "2*cpus", 6);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, pthread_create(&th, NULL, switch_fn, &f));
	EXPECT_EQ(0, wl_load_wait(pid));
	f.stop = true;
	pthread_join(th, NULL);
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	ASSERT_EQ(0, wl_knob_set("policy", "kernel"));
	ASSERT_EQ(0, wl_module_table("oldcheck", self->t));
	ASSERT_EQ(0, wl_table_get(self->t, "row", "agree", &agree));
	ASSERT_EQ(0, wl_table_get(self->t, "row", "disagree", &disagree));
	ASSERT_EQ(0, wl_table_get(self->t, "row", "stale", &stale));
	TH_LOG("%d switches; decisions: %llu in their row, %llu in another, %llu unattributed",
	       f.switches, agree, disagree, stale);
	/* Each hook registration patches text: tens of ms under TCG. */
	EXPECT_LT(20, f.switches);
	EXPECT_LT(100ULL, agree);
	EXPECT_EQ(0ULL, disagree);
	/* Decisions no placement probe saw (a probe attached mid-wakeup). */
	EXPECT_GE(agree, stale * 100);
}

/*
 * A module that registers a policy and then fails its own init is freed;
 * the kernel must drop its policy with it: wakeups go on (no call into
 * freed text) and the next registration succeeds.
 */
TEST_F_TIMEOUT(pol, failed_init_drops_policy, 60)
{
	const char *ko = "/wakelab/modules/test/wakelab_failinit.ko";
	pid_t pid;
	int fd, ret;

	WL_SKIP_IF(self->skip);
	/* Policy kernel, passthrough=unregister: the hook is free. */
	ASSERT_EQ(0, wl_knob_set("policy", "kernel"));
	fd = open(ko, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("%s: %s", ko, strerror(errno));
	ret = syscall(SYS_finit_module, fd, "", 0);
	EXPECT_EQ(-1, ret);
	EXPECT_EQ(ECANCELED, errno) TH_LOG("init: %s", strerror(errno));
	close(fd);
	pid = wl_load_start("tcp_rr", "2", 2);
	ASSERT_LT(0, pid);
	EXPECT_EQ(0, wl_load_wait(pid));
	ret = wl_knob_set("policy", "always");
	EXPECT_EQ(0, ret) TH_LOG("registering after the failed module: %s",
				 strerror(-ret));
	ASSERT_EQ(0, wl_knob_set("policy", "kernel"));
}

TEST_HARNESS_MAIN
