// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: wake-affine placement laboratory.
 *
 * Module entry and exit.  Creates /sys/kernel/debug/wakelab/, the home of
 * the per-LLC statistics, the wake-placement accounting and (on a kernel
 * with the wakelab patch series) the wake-affine policy knobs.  Usage:
 *
 *	insmod wakelab.ko [method=tracepoint|kretprobe]
 *	echo 1 > /sys/kernel/debug/wakelab/enable
 *	cat /sys/kernel/debug/wakelab/placement
 *
 * See docs/module.md and docs/ABI/debugfs-wakelab for every file and column.
 */
#include <linux/kernel.h>
#include <linux/module.h>

#include "debugfs.h"
#include "llc.h"
#include "place.h"
#include "policy.h"
#include "rq.h"
#include "workload.h"

/**
 * struct wl_part - a part of the module
 * @init: sets it up: 0 or -errno (having undone its own work), or NULL
 *	when there is nothing to set up
 * @exit: tears it down, or NULL when there is nothing to tear down
 */
struct wl_part {
	int (*init)(void);
	void (*exit)(void);
};

/*
 * Set up in this order and torn down in the reverse one: the files go
 * first (no file operation runs after), then the policy hook and its
 * check, then the probes, then the CPU to LLC map they read and the
 * workload's cgroup they test.
 */
static const struct wl_part wl_parts[] = {
	{ NULL,			wl_workload_exit },
	{ wl_llc_init,		wl_llc_exit },
	{ wl_place_init,	wl_place_exit },
	{ wl_rq_init,		NULL },
	{ wl_policy_init,	wl_policy_exit },
	{ wl_debugfs_init,	wl_debugfs_exit },
};

/* Tear down the first @n parts, last first. */
static void wl_parts_exit(int n)
{
	while (n--) {
		if (wl_parts[n].exit)
			wl_parts[n].exit();
	}
}

static int __init wakelab_init(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(wl_parts); i++) {
		ret = wl_parts[i].init ? wl_parts[i].init() : 0;
		if (ret) {
			wl_parts_exit(i);
			return ret;
		}
	}
	return 0;
}

static void __exit wakelab_exit(void)
{
	wl_parts_exit(ARRAY_SIZE(wl_parts));
}

module_init(wakelab_init);
module_exit(wakelab_exit);

MODULE_AUTHOR("wakelab developers");
MODULE_DESCRIPTION("Wake-affine placement statistics and policies");
MODULE_LICENSE("GPL");
