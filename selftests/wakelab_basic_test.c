// SPDX-License-Identifier: GPL-2.0
/*
 * First end-to-end check of the wakelab test loop: the module loads and
 * creates /sys/kernel/debug/wakelab/, and a sched feature (WA_BIAS) toggles
 * through /sys/kernel/debug/sched/features and is restored to its exact
 * original value.  Skips when not root or when debugfs is absent, so it
 * never changes a kernel it cannot see.
 */
#include <errno.h>
#include <string.h>

#include "../kselftest_harness.h"
#include "wakelab_util.h"

FIXTURE(basic) {
	const char *skip;
	int loaded_here;
};

FIXTURE_SETUP(basic)
{
	const char *why = wl_kernel_test_skip_reason();
	int ret;

	self->loaded_here = 0;
	self->skip = why;
	if (why)
		return;
	if (!wl_module_loaded()) {
		ret = wl_module_load(NULL);
		if (ret == -ENOENT) {
			self->skip = "wakelab.ko not found (set WAKELAB_MODULE)";
			return;
		}
		ASSERT_EQ(0, ret) TH_LOG("loading %s: %s", wl_module_path(),
					 strerror(-ret));
		self->loaded_here = 1;
	}
}

FIXTURE_TEARDOWN(basic)
{
	if (self->loaded_here)
		EXPECT_EQ(0, wl_module_unload());
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
