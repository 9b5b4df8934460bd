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
 * See README.md ("wakelab.ko") for every file and column.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "wakelab.h"

/* Serialises the knobs, attach/detach and the sums. */
DEFINE_MUTEX(wl_lock);
int wl_method;

static char *method = "tracepoint";
module_param(method, charp, 0444);
MODULE_PARM_DESC(method,
		 "placement observation: tracepoint (sched_waking + sched_migrate_task, default) or kretprobe (select_task_rq_fair; see README before unloading it under load)");

static int __init wakelab_init(void)
{
	int ret;

	if (!strcmp(method, "kretprobe")) {
		wl_method = WL_METHOD_KRETPROBE;
	} else if (!strcmp(method, "tracepoint")) {
		wl_method = WL_METHOD_TRACEPOINT;
	} else {
		pr_err("unknown method '%s' (kretprobe or tracepoint)\n",
		       method);
		return -EINVAL;
	}
	ret = wl_stats_init();
	if (ret)
		return ret;
	ret = wl_llc_init();
	if (ret)
		goto out_stats;
	ret = wl_tp_init();
	if (ret) {
		if (ret == -ENOENT)
			pr_err("tracepoints for method %s not found\n", method);
		goto out_llc;
	}
	mutex_lock(&wl_lock);
	ret = wl_llc_calibrate();
	mutex_unlock(&wl_lock);
	if (ret)
		pr_info("LLC calibration probes unavailable (%d)\n", ret);

	ret = wl_policy_init();
	if (ret)
		goto out_tp;
	ret = wl_debugfs_init();
	if (ret)
		goto out_policy;
	return 0;

out_policy:
	wl_policy_exit();
	wl_policy_free();
out_tp:
	wl_tp_exit();
out_llc:
	wl_llc_exit();
out_stats:
	wl_stats_exit();
	return ret;
}

static void __exit wakelab_exit(void)
{
	/* No file operation runs after this; then the hook, then probes. */
	wl_debugfs_exit();
	wl_policy_exit();
	wl_tp_exit();
	/* Nothing runs any more that uses what is freed below. */
	wl_policy_free();
	wl_llc_exit();
	wl_stats_exit();
}

module_init(wakelab_init);
module_exit(wakelab_exit);

MODULE_AUTHOR("wakelab developers");
MODULE_DESCRIPTION("Wake-affine placement statistics and policies");
MODULE_LICENSE("GPL");
