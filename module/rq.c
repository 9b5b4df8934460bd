// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: the runqueues of a stock kernel, read through the target
 * kernel's own layout.
 *
 * A stock kernel keeps no per-LLC statistics and struct rq is private, so
 * the module reads the per-CPU figures it needs live from the runqueues.
 * Kbuild generates layout.h from the target kernel (its BTF, or its own
 * kernel/sched/sched.h; see gen_layout.sh): the offsets of the fields read
 * here and the per-CPU offset of runqueues, relative to the exported
 * per-CPU kernel_cpustat.  At load, a probe on sched_update_nr_running_tp
 * checks that layout against the running kernel: the struct rq the
 * tracepoint passes on some CPU must be that CPU's copy of runqueues as
 * the layout places it.  Until it is, or when the layout lacks a field,
 * nothing is read: the llc table prints "-" and caps says why.
 *
 * Figures per CPU:
 *  - runnable tasks: rq->nr_running, all classes, less the root cfs_rq's
 *    delayed-dequeue tasks where the kernel has them (sleeping tasks that
 *    EEVDF keeps queued; the kernel's cfs_h_nr_delayed(): h_nr_queued -
 *    h_nr_runnable, or h_nr_delayed);
 *  - load and util: the root cfs_rq's PELT load_avg and util_avg.
 */
#include <linux/kernel.h>
#include <linux/kernel_stat.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/tracepoint.h>

#include "layout.h"
#include "probe.h"
#include "rq.h"

#define WL_SANE_NR_RUNNING	BIT(20)
#define WL_SANE_UTIL		(4 * SCHED_CAPACITY_SCALE)
/* Ticks the calibration waits for a sched_update_nr_running_tp event. */
#define WL_CALIB_TICKS		50

/* Per-CPU address of runqueues, once confirmed; 0 until then. */
static unsigned long wl_rq_base;
/* Why the runqueues are not read: a caps token; NULL once located. */
static const char *wl_rq_why = "not_calibrated";

/* Candidate per-CPU address of runqueues, and its confirmation. */
static unsigned long wl_calib_base;
static bool wl_calib_seen;

#ifdef WL_LAYOUT_SOURCE
#define WL_LAYOUT_NAME	WL_LAYOUT_SOURCE
#else
#define WL_LAYOUT_NAME	"none"
#endif

/* Delayed-dequeue tasks of a cfs_rq, as the kernel counts them. */
#if defined(WL_CFS_RQ_H_NR_QUEUED) && defined(WL_CFS_RQ_H_NR_RUNNABLE)
#define WL_DELAYED_KNOWN	true
#define WL_NR_SOURCE		"nr_running-(cfs.h_nr_queued-cfs.h_nr_runnable)"
#define WL_DELAYED_SIZES_OK	(sizeof(u32) == WL_CFS_RQ_H_NR_QUEUED_SIZE && \
				 sizeof(u32) == WL_CFS_RQ_H_NR_RUNNABLE_SIZE)
#elif defined(WL_CFS_RQ_H_NR_DELAYED)
#define WL_DELAYED_KNOWN	true
#define WL_NR_SOURCE		"nr_running-cfs.h_nr_delayed"
#define WL_DELAYED_SIZES_OK	(sizeof(u32) == WL_CFS_RQ_H_NR_DELAYED_SIZE)
#else
/* Known only where the kernel has no delayed dequeue at all. */
#ifdef WL_SE_SCHED_DELAYED
#define WL_DELAYED_KNOWN	false
#else
#define WL_DELAYED_KNOWN	true
#endif
#define WL_NR_SOURCE		"nr_running"
#define WL_DELAYED_SIZES_OK	true
#endif

#ifdef WL_LAYOUT_SOURCE
static u32 wl_u32(const void *base, long off)
{
	return READ_ONCE(*(const u32 *)(base + off));
}

static unsigned long wl_ulong(const void *base, long off)
{
	return READ_ONCE(*(const unsigned long *)(base + off));
}

static const void *wl_rq(int cpu)
{
	return (const void *)(wl_rq_base + per_cpu_offset(cpu));
}

static unsigned int wl_cfs_delayed(const void *cfs)
{
#if defined(WL_CFS_RQ_H_NR_QUEUED) && defined(WL_CFS_RQ_H_NR_RUNNABLE)
	unsigned int queued = wl_u32(cfs, WL_CFS_RQ_H_NR_QUEUED);
	unsigned int runnable = wl_u32(cfs, WL_CFS_RQ_H_NR_RUNNABLE);

	return queued > runnable ? queued - runnable : 0;
#elif defined(WL_CFS_RQ_H_NR_DELAYED)
	return wl_u32(cfs, WL_CFS_RQ_H_NR_DELAYED);
#else
	return 0;
#endif
}

/*
 * Runnable tasks on @cpu: rq->nr_running less delayed-dequeue ones.  The
 * fields are read without the runqueue's lock, so a reading may pair an
 * older nr_running with a newer delayed count: never below zero.
 */
unsigned int wl_rq_nr_runnable(int cpu)
{
	const void *rq = wl_rq(cpu);
	unsigned int nr = wl_u32(rq, WL_RQ_NR_RUNNING);
	unsigned int delayed = wl_cfs_delayed(rq + WL_RQ_CFS);

	return nr > delayed ? nr - delayed : 0;
}

/* PELT load_avg of @cpu's root cfs_rq. */
unsigned long wl_rq_load_avg(int cpu)
{
	return wl_ulong(wl_rq(cpu), WL_RQ_CFS + WL_CFS_RQ_AVG +
			WL_SCHED_AVG_LOAD_AVG);
}

/* PELT util_avg of @cpu's root cfs_rq. */
unsigned long wl_rq_util_avg(int cpu)
{
	return wl_ulong(wl_rq(cpu), WL_RQ_CFS + WL_CFS_RQ_AVG +
			WL_SCHED_AVG_UTIL_AVG);
}

/* Per-CPU address of runqueues as the layout places it, or 0. */
static unsigned long wl_layout_base(void)
{
#ifdef WL_PCPU_RUNQUEUES_FROM_KERNEL_CPUSTAT
	return (unsigned long)&kernel_cpustat +
	       (WL_PCPU_RUNQUEUES_FROM_KERNEL_CPUSTAT);
#else
	return 0;
#endif
}

/* Why the layout cannot be used, or NULL. */
static const char *wl_layout_unusable(void)
{
	if (sizeof(u32) != WL_RQ_NR_RUNNING_SIZE ||
	    sizeof(unsigned long) != WL_SCHED_AVG_LOAD_AVG_SIZE ||
	    sizeof(unsigned long) != WL_SCHED_AVG_UTIL_AVG_SIZE ||
	    !WL_DELAYED_SIZES_OK)
		return "layout_field_sizes";
	if (!WL_DELAYED_KNOWN)
		return "layout_no_delayed_count";
	if (!wl_layout_base())
		return "layout_no_percpu_offset";
	return NULL;
}
#else /* !WL_LAYOUT_SOURCE */
unsigned int wl_rq_nr_runnable(int cpu)
{
	return 0;
}

unsigned long wl_rq_load_avg(int cpu)
{
	return 0;
}

unsigned long wl_rq_util_avg(int cpu)
{
	return 0;
}

static unsigned long wl_layout_base(void)
{
	return 0;
}

/* no_btf, or no_bpftool to read it with: from Kbuild. */
static const char *wl_layout_unusable(void)
{
#ifdef WL_LAYOUT_NONE
	return WL_LAYOUT_NONE;
#else
	return "no_layout";
#endif
}
#endif /* WL_LAYOUT_SOURCE */

/*
 * Calibration probe on sched_update_nr_running_tp: @rq is a runqueue whose
 * nr_running changes, often this CPU's own.  Any event whose @rq is this
 * CPU's copy of runqueues as the layout places it confirms the layout.
 * Context: rq lock held, interrupts off.
 */
static void wl_rq_probe_nr(void *data, struct rq *rq, int change)
{
	unsigned long base = READ_ONCE(wl_calib_base);

	if (base && (unsigned long)rq == base +
	    per_cpu_offset(smp_processor_id()))
		WRITE_ONCE(wl_calib_seen, true);
}

static struct wl_tp_probe wl_rq_probes[] = {
	{ "sched_update_nr_running_tp", wl_rq_probe_nr },
};

/* Whether what the layout reads looks like a runqueue on every CPU. */
static bool wl_rq_sane(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		if (wl_rq_nr_runnable(cpu) >= WL_SANE_NR_RUNNING ||
		    wl_rq_util_avg(cpu) > WL_SANE_UTIL)
			return false;
	}
	return true;
}

/* Wait, sleeping (which queues and dequeues this task), for the probe. */
static const char *wl_rq_calibrate(void)
{
	int i, ret;

	WRITE_ONCE(wl_calib_base, wl_layout_base());
	ret = wl_tp_attach(wl_rq_probes, ARRAY_SIZE(wl_rq_probes));
	if (ret)
		return "no_sched_update_nr_running_tp";
	for (i = 0; i < WL_CALIB_TICKS && !READ_ONCE(wl_calib_seen); i++)
		schedule_timeout_uninterruptible(1);
	wl_tp_detach(wl_rq_probes, ARRAY_SIZE(wl_rq_probes));
	tracepoint_synchronize_unregister();
	if (!wl_calib_seen)
		return "layout_not_confirmed";
	wl_rq_base = wl_calib_base;
	if (!wl_rq_sane()) {
		wl_rq_base = 0;
		return "rq_values_insane";
	}
	return NULL;
}

/**
 * wl_rq_init() - check the layout against the running kernel
 *
 * Attaches the calibration probe for up to WL_CALIB_TICKS ticks.  When
 * the runqueues cannot be read, says why (pr_info and caps) and leaves
 * them out of the llc table; the module loads either way.
 * Context: process, may sleep; once, at load.
 * Return: 0.
 */
int wl_rq_init(void)
{
	const char *why = wl_layout_unusable();

	if (!why)
		why = wl_rq_calibrate();
	if (why)
		pr_info("runqueues not read (%s, layout %s): llc nr_running, load and util unavailable\n",
			why, WL_LAYOUT_NAME);
	WRITE_ONCE(wl_rq_why, why);
	return 0;
}

/* True when the runqueues can be read. */
bool wl_rq_located(void)
{
	return !READ_ONCE(wl_rq_why);
}

/* Why they cannot: a token for caps ("located" when they can). */
const char *wl_rq_reason(void)
{
	const char *why = READ_ONCE(wl_rq_why);

	return why ? why : "located";
}

/* Where the layout came from: btf, sched.h or none. */
const char *wl_rq_layout(void)
{
	return WL_LAYOUT_NAME;
}

/* What the per-CPU runnable count is made of. */
const char *wl_rq_nr_source(void)
{
	return WL_NR_SOURCE;
}
