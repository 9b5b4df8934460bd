// SPDX-License-Identifier: GPL-2.0
/*
 * First end-to-end check of the wakelab test loop: the module loads (any
 * load error but a missing wakelab.ko fails), its caps say it has the
 * policy hook exactly when the kernel has the wakelab series (WA_OLD in
 * sched/features, which the series adds), it creates
 * /sys/kernel/debug/wakelab/, and a sched feature (WA_BIAS) toggles
 * through /sys/kernel/debug/sched/features and is restored to its exact
 * original value.  Skips when not root or when debugfs is absent, so it
 * never changes a kernel it cannot see.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "../kselftest_harness.h"
#include "wl/core/file.h"
#include "wl/kernel/wakelab_module.h"

FIXTURE(basic) {
	const char *skip;
	int loaded_here;
	struct wl_table *t;
};

FIXTURE_SETUP(basic)
{
	const char *why = wl_kernel_test_skip_reason();
	int ret;

	self->loaded_here = 0;
	self->skip = why;
	self->t = wl_table_new();
	ASSERT_NE(NULL, self->t);
	if (why)
		return;
	if (!wl_module_loaded()) {
		ret = wl_module_load(NULL);
		self->skip = wl_module_absent_reason(ret);
		if (self->skip)
			return;
		wl_assert_loaded(_metadata, ret, "no parameters");
		self->loaded_here = 1;
	}
}

FIXTURE_TEARDOWN(basic)
{
	if (self->loaded_here)
		EXPECT_EQ(0, wl_module_unload());
	free(self->t);
}

/*
 * Before anything else: the module built for this kernel has the policy
 * hook exactly when the kernel has the series.  The truth is the kernel's,
 * not the module's: patch 0002 adds the WA_OLD sched feature, so its
 * presence in sched/features says the series is applied.  A patched kernel
 * whose module lacks the hook would otherwise pass every control-mode test
 * as a skip.
 */
TEST_F(basic, caps_hook_matches_kernel)
{
	const char *want;
	int wa_old, r;

	WL_SKIP_IF(self->skip);
	wa_old = wl_sched_feat_get("WA_OLD");
	ASSERT_TRUE(wa_old >= 0 || wa_old == -ENOENT)
		TH_LOG("reading %s: %s", WL_SCHED_FEATURES, strerror(-wa_old));
	want = wa_old >= 0 ? "yes" : "no";
	ASSERT_EQ(0, wl_module_table("caps", self->t))
		TH_LOG("%s/caps does not parse", WL_MODULE_DIR);
	r = wl_table_row(self->t, "hook");
	ASSERT_LE(0, r) TH_LOG("caps has no hook row");
	ASSERT_EQ(2, self->t->ncols);
	EXPECT_STREQ(want, self->t->cell[r][1])
		TH_LOG("WA_OLD %s sched/features (%s kernel), so caps must say 'hook %s'",
		       wa_old >= 0 ? "in" : "not in",
		       wa_old >= 0 ? "patched" : "stock", want);
}

TEST_F(basic, module_debugfs_dir)
{
	struct stat st;

	WL_SKIP_IF(self->skip);
	ASSERT_EQ(0, stat(WL_MODULE_DIR, &st));
	EXPECT_TRUE(S_ISDIR(st.st_mode));
}

TEST_F(basic, wa_bias_toggles_and_restores)
{
	char before[4096], after[4096];
	int orig, now;

	WL_SKIP_IF(self->skip);
	ASSERT_LT(0, wl_read_file(WL_SCHED_FEATURES, before, sizeof(before)));
	orig = wl_sched_feat_get("WA_BIAS");
	ASSERT_LE(0, orig) TH_LOG("WA_BIAS missing from %s", WL_SCHED_FEATURES);

	ASSERT_EQ(0, wl_sched_feat_set("WA_BIAS", !orig));
	now = wl_sched_feat_get("WA_BIAS");
	/* Restore before asserting so a failure leaves the kernel as found. */
	EXPECT_EQ(0, wl_sched_feat_set("WA_BIAS", orig));
	EXPECT_EQ(!orig, now);

	ASSERT_LT(0, wl_read_file(WL_SCHED_FEATURES, after, sizeof(after)));
	EXPECT_STREQ(before, after);
}

TEST_F(basic, bad_feature_rejected)
{
	char before[4096], after[4096];

	WL_SKIP_IF(self->skip);
	ASSERT_LT(0, wl_read_file(WL_SCHED_FEATURES, before, sizeof(before)));
	EXPECT_EQ(-EINVAL, wl_write_str(WL_SCHED_FEATURES, "WA_NO_SUCH_FEATURE"));
	ASSERT_LT(0, wl_read_file(WL_SCHED_FEATURES, after, sizeof(after)));
	EXPECT_STREQ(before, after);
}

TEST_HARNESS_MAIN
