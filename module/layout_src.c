// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: the scheduler layout of a kernel built from source, in the
 * manner of asm-offsets.c.  Kbuild compiles this file to layout_src.s
 * against the kernel's own kernel/sched/sched.h (never into the module);
 * gen_layout.sh turns the markers into layout.h.  WL_HAVE_<field> names
 * the optional fields Kbuild found in that sched.h.
 */
#include <linux/kbuild.h>
/*
 * What kernel/sched/build_policy.c includes before sched.h, and
 * <linux/mmu_context.h> for task_cpu_possible() (sched.h uses it on 6.12).
 */
#include <linux/mmu_context.h>
#include <linux/sched/clock.h>
#include <linux/sched/cputime.h>
#include <linux/sched/hotplug.h>
#include <linux/sched/posix-timers.h>
#include <linux/sched/rt.h>
#include <uapi/linux/sched/types.h>

#include "sched.h"

void wl_layout_src(void);

void wl_layout_src(void)
{
	OFFSET(WL_RQ_NR_RUNNING, rq, nr_running);
	DEFINE(WL_RQ_NR_RUNNING_SIZE, sizeof_field(struct rq, nr_running));
	OFFSET(WL_RQ_CFS, rq, cfs);
	OFFSET(WL_CFS_RQ_AVG, cfs_rq, avg);
	OFFSET(WL_SCHED_AVG_LOAD_AVG, sched_avg, load_avg);
	DEFINE(WL_SCHED_AVG_LOAD_AVG_SIZE,
	       sizeof_field(struct sched_avg, load_avg));
	OFFSET(WL_SCHED_AVG_UTIL_AVG, sched_avg, util_avg);
	DEFINE(WL_SCHED_AVG_UTIL_AVG_SIZE,
	       sizeof_field(struct sched_avg, util_avg));
#ifdef WL_HAVE_h_nr_running
	OFFSET(WL_CFS_RQ_H_NR_RUNNING, cfs_rq, h_nr_running);
	DEFINE(WL_CFS_RQ_H_NR_RUNNING_SIZE,
	       sizeof_field(struct cfs_rq, h_nr_running));
#endif
#ifdef WL_HAVE_h_nr_queued
	OFFSET(WL_CFS_RQ_H_NR_QUEUED, cfs_rq, h_nr_queued);
	DEFINE(WL_CFS_RQ_H_NR_QUEUED_SIZE,
	       sizeof_field(struct cfs_rq, h_nr_queued));
#endif
#ifdef WL_HAVE_h_nr_runnable
	OFFSET(WL_CFS_RQ_H_NR_RUNNABLE, cfs_rq, h_nr_runnable);
	DEFINE(WL_CFS_RQ_H_NR_RUNNABLE_SIZE,
	       sizeof_field(struct cfs_rq, h_nr_runnable));
#endif
#ifdef WL_HAVE_h_nr_delayed
	OFFSET(WL_CFS_RQ_H_NR_DELAYED, cfs_rq, h_nr_delayed);
	DEFINE(WL_CFS_RQ_H_NR_DELAYED_SIZE,
	       sizeof_field(struct cfs_rq, h_nr_delayed));
#endif
#ifdef WL_HAVE_sched_delayed
	DEFINE(WL_SE_SCHED_DELAYED, 1);
#endif
	DEFINE(WL_WF_TTWU, WF_TTWU);
	DEFINE(WL_WF_SYNC, WF_SYNC);
}
