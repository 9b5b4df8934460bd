// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: wake-affine placement laboratory.
 *
 * Module entry and exit.  Creates /sys/kernel/debug/wakelab/, the home of
 * the per-LLC statistics, the wake-placement accounting and (on a patched
 * kernel) the wake-affine policy knobs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/module.h>

static struct dentry *wakelab_dir;

static int __init wakelab_init(void)
{
	wakelab_dir = debugfs_create_dir("wakelab", NULL);
	if (IS_ERR(wakelab_dir))
		return PTR_ERR(wakelab_dir);
	return 0;
}

static void __exit wakelab_exit(void)
{
	debugfs_remove_recursive(wakelab_dir);
}

module_init(wakelab_init);
module_exit(wakelab_exit);

MODULE_AUTHOR("wakelab developers");
MODULE_DESCRIPTION("Wake-affine placement statistics and policies");
MODULE_LICENSE("GPL");
