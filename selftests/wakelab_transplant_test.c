// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab.ko's transplant check (docs/upstream.md), on a kernel with the
 * wakelab series' policy hook (skips elsewhere): a module policy written
 * as fair.c code against the kernel that `make upstream` built with the
 * same body as the feature WA_<NAME>.
 *
 * - transplant= refuses what it cannot check (an unknown policy, one
 *   without a fair.c body, no passthrough=register) and loads nothing;
 * - on a kernel without WA_ALWAYS, transplant=always disagrees with every
 *   decision it compares (the kernel's rules are idle and weight, the
 *   module's the feature): the check can fail;
 * - on a kernel with a feature of `make upstream` (WA_<NAME> for a module
 *   policy <name>, switched on here), the module's evaluation of <name>
 *   then idle and weight decides like the kernel for every wakeup it
 *   compares, under tcp_stream and tcp_rr at 1 and 2 x CPUs instances: 0
 *   disagreements in at least 1000 compared decisions per cell (rounds of
 *   10 s, at most 30: under TCG on 2 x 2 vCPUs the 2 x CPUs cells compare
 *   7-25 a second, most waker and wakee sharing a CPU).
 *
 * Sched features and the module's parameters are restored.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "wl/kernel/features.h"
#include "wl/kernel/load.h"
#include "wl/kernel/wakelab_module.h"

/* Decisions each cell must compare, and the rounds it may take. */
#define TP_MIN_COMPARED		1000ULL
#define TP_ROUND_SECS		10
#define TP_MAX_ROUNDS		30

/* Saved and restored; the default rules for the check. */
static const char * const feats[] = {
	"WA_OLD", "WA_IDLE", "WA_WEIGHT", "WA_BIAS",
};
static const bool dflt[] = { false, true, true, true };

/* What both fixtures keep. */
struct tp_state {
	const char *skip;
	bool loaded_here;
	int feat[ARRAY_SIZE(feats)];
	char name[64];		/* the policy the kernel has a feature of */
	char feature[80];	/* WA_<NAME> */
	int feature_was;
	struct wl_table *t;
};

/*
 * The first module policy whose WA_<NAME> the kernel has (other than the
 * kernel's own rules), from the policy file's line of names.
 */
static void tp_find_feature(struct tp_state *st)
{
	char buf[4096], *line, *tok, *save = NULL, *lsave = NULL;
	unsigned int i;

	if (wl_knob_get("policy", buf, sizeof(buf)) < 0)
		return;
	for (line = strtok_r(buf, "\n", &lsave); line;
	     line = strtok_r(NULL, "\n", &lsave)) {
		if (line[0] == '#')
			continue;
		for (tok = strtok_r(line, " []", &save); tok;
		     tok = strtok_r(NULL, " []", &save)) {
			if (strspn(tok, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
			    strlen(tok) || !strcmp(tok, "old") ||
			    !strcmp(tok, "idle") || !strcmp(tok, "weight") ||
			    strlen(tok) >= sizeof(st->name))
				continue;
			snprintf(st->feature, sizeof(st->feature), "WA_%s", tok);
			for (i = 3; st->feature[i]; i++)
				st->feature[i] =
					toupper((unsigned char)st->feature[i]);
			st->feature_was = wl_sched_feat_get(st->feature);
			if (st->feature_was >= 0) {
				strcpy(st->name, tok);
				return;
			}
		}
	}
}

static void state_setup(struct __test_metadata *_metadata, struct tp_state *st)
{
	unsigned int i;

	st->t = wl_table_new();
	ASSERT_NE(NULL, st->t);
	st->feature_was = -1;
	st->skip = wl_module_setup(_metadata, "", &st->loaded_here);
	if (st->skip)
		return;
	if (strcmp(wl_cap("hook"), "yes")) {
		st->skip = "kernel has no wake-affine policy hook (stock kernel)";
		return;
	}
	for (i = 0; i < ARRAY_SIZE(feats); i++) {
		st->feat[i] = wl_sched_feat_get(feats[i]);
		ASSERT_LE(0, st->feat[i]) TH_LOG("%s missing", feats[i]);
		ASSERT_EQ(0, wl_sched_feat_set(feats[i], dflt[i]));
	}
	tp_find_feature(st);
}

static void state_teardown(struct __test_metadata *_metadata,
			struct tp_state *st)
{
	unsigned int i;

	if (!st->skip) {
		if (st->feature_was >= 0)
			EXPECT_EQ(0, wl_sched_feat_set(st->feature,
						       st->feature_was));
		for (i = 0; i < ARRAY_SIZE(feats); i++)
			EXPECT_EQ(0, wl_sched_feat_set(feats[i], st->feat[i]));
		if (wl_module_loaded()) {
			EXPECT_EQ(0, wl_knob_set("enable", "0"));
			EXPECT_EQ(0, wl_module_unload_retry());
		}
		EXPECT_EQ(0, wl_module_load(NULL));
	}
	free(st->t);
}

/* The transplant row's counts, and the kernel's feature decisions. */
struct tp_counts {
	unsigned long long agree, disagree, stale, feature;
};

/* One round of @workload x @inst with the probes on, counts accumulated. */
static void tp_round(struct __test_metadata *_metadata, struct tp_state *st,
		     const char *workload, const char *inst,
		     struct tp_counts *c)
{
	unsigned long long v;
	pid_t pid;

	ASSERT_EQ(0, wl_knob_set("reset", "1"));
	ASSERT_EQ(0, wl_knob_set("enable", "1"));
	pid = wl_load_start(workload, inst, TP_ROUND_SECS);
	ASSERT_LT(0, pid);
	EXPECT_EQ(0, wl_load_wait(pid));
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	ASSERT_EQ(0, wl_module_table("oldcheck", st->t));
	ASSERT_EQ(0, wl_table_get(st->t, "transplant", "agree", &v));
	c->agree += v;
	ASSERT_EQ(0, wl_table_get(st->t, "transplant", "disagree", &v));
	c->disagree += v;
	ASSERT_EQ(0, wl_table_get(st->t, "transplant", "stale", &v));
	c->stale += v;
	ASSERT_EQ(0, wl_module_table("decisions", st->t));
	ASSERT_EQ(0, wl_table_get(st->t, "feature", "calls", &v));
	c->feature += v;
}

/* Reload the module with @params; the load's result. */
static int tp_reload(struct __test_metadata *_metadata, const char *params)
{
	if (wl_module_loaded())
		EXPECT_EQ(0, wl_module_unload_retry());
	return wl_module_load(params);
}

FIXTURE(tp) {
	struct tp_state st;
};

FIXTURE_SETUP(tp)
{
	state_setup(_metadata, &self->st);
}

FIXTURE_TEARDOWN(tp)
{
	state_teardown(_metadata, &self->st);
}

TEST_F(tp, refuses_what_it_cannot_check)
{
	unsigned long long agree;
	static const char * const bad[] = {
		"passthrough=register transplant=nosuch",
		"passthrough=register transplant=kernel",
		"transplant=idler_llc",
		"passthrough=unregister transplant=idler_llc",
	};
	unsigned int i;

	WL_SKIP_IF(self->st.skip);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, tp_reload(_metadata, bad[i]))
			TH_LOG("insmod %s", bad[i]);
		EXPECT_FALSE(wl_module_loaded()) TH_LOG("loaded by %s", bad[i]);
	}
	ASSERT_EQ(0, tp_reload(_metadata, "passthrough=register transplant=idler_llc"));
	ASSERT_EQ(0, wl_module_table("oldcheck", self->st.t));
	EXPECT_EQ(0, wl_table_get(self->st.t, "transplant", "agree", &agree));
}

/*
 * Without WA_ALWAYS the kernel decides by idle and weight, the module's
 * evaluation of always by the feature: every compared decision differs.
 */
TEST_F_TIMEOUT(tp, a_kernel_without_the_feature_disagrees, 120)
{
	struct tp_counts c = { 0 };
	int round;

	WL_SKIP_IF(self->st.skip);
	if (wl_sched_feat_get("WA_ALWAYS") >= 0)
		SKIP(return, "the kernel has WA_ALWAYS (make upstream POLICY=always)");
	ASSERT_EQ(0, tp_reload(_metadata, "passthrough=register transplant=always"));
	for (round = 0; round < 3 && c.disagree < 100; round++)
		tp_round(_metadata, &self->st, "tcp_rr", "1", &c);
	TH_LOG("transplant=always without WA_ALWAYS: %llu agree, %llu disagree, %llu stale",
	       c.agree, c.disagree, c.stale);
	EXPECT_EQ(0ULL, c.agree);
	EXPECT_LE(100ULL, c.disagree);
	EXPECT_EQ(0ULL, c.feature);
}

FIXTURE(cell) {
	struct tp_state st;
};

FIXTURE_SETUP(cell)
{
	state_setup(_metadata, &self->st);
}

FIXTURE_TEARDOWN(cell)
{
	state_teardown(_metadata, &self->st);
}

FIXTURE_VARIANT(cell) {
	const char *workload;
	const char *instances;
};

FIXTURE_VARIANT_ADD(cell, tcp_stream_1) {
	.workload = "tcp_stream",
	.instances = "1",
};

FIXTURE_VARIANT_ADD(cell, tcp_stream_2cpus) {
	.workload = "tcp_stream",
	.instances = "2*cpus",
};

FIXTURE_VARIANT_ADD(cell, tcp_rr_1) {
	.workload = "tcp_rr",
	.instances = "1",
};

FIXTURE_VARIANT_ADD(cell, tcp_rr_2cpus) {
	.workload = "tcp_rr",
	.instances = "2*cpus",
};

/*
 * The kernel built by make upstream, its WA_<NAME> on, against the
 * module's <name>: every compared decision alike, at least 1000 of them.
 */
TEST_F_TIMEOUT(cell, kernel_feature_decides_like_the_module, 330)
{
	struct tp_state *st = &self->st;
	struct tp_counts c = { 0 };
	char params[128];
	int round;

	WL_SKIP_IF(st->skip);
	if (!st->name[0])
		SKIP(return, "no feature of make upstream in this kernel (WA_<NAME> for a module policy): boot the kernel make upstream builds");
	snprintf(params, sizeof(params), "passthrough=register transplant=%s",
		 st->name);
	ASSERT_EQ(0, tp_reload(_metadata, params));
	ASSERT_EQ(0, wl_sched_feat_set(st->feature, true));
	for (round = 0; round < TP_MAX_ROUNDS &&
	     c.agree + c.disagree < TP_MIN_COMPARED; round++)
		tp_round(_metadata, st, variant->workload, variant->instances,
			 &c);
	/* The summary line docs/upstream.md quotes. */
	ksft_print_msg("transplant %s (%s on) %s x %s: %llu compared, %llu agree, %llu disagree, %llu stale, %llu %s decisions, in %d s\n",
		       st->name, st->feature, variant->workload,
		       variant->instances, c.agree + c.disagree, c.agree,
		       c.disagree, c.stale, c.feature, st->feature,
		       round * TP_ROUND_SECS);
	EXPECT_EQ(0ULL, c.disagree);
	EXPECT_LE(TP_MIN_COMPARED, c.agree + c.disagree);
}

TEST_HARNESS_MAIN
