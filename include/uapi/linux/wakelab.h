/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The format of wakelab.ko's debugfs tables, shared by the module, which
 * writes them, and by userspace (selftests/lib/kernel/wakelab_tables.c),
 * which reads them.
 *
 * Every table file starts with a version line, "# version N", then comment
 * lines ("# ..."), a header line naming the columns, and one row per line;
 * fields are separated by one space and "-" marks a value this kernel or
 * method cannot provide.  A reader refuses a table whose version is newer
 * than the WAKELAB_TABLE_VERSION it was built with.  Columns are only ever
 * added at the end; anything else bumps the version.
 *
 * Each table is an X-macro list of its columns, C(ID, "name"), after the key
 * column that names the row.  See docs/ABI/debugfs-wakelab for the ABI.
 */
#ifndef _UAPI_LINUX_WAKELAB_H
#define _UAPI_LINUX_WAKELAB_H

#define WAKELAB_TABLE_VERSION	1
#define WAKELAB_VERSION_PREFIX	"# version "

/*
 * placement: one row per policy (or "observe"), counts since the last reset.
 * waker_cpu..other split the wakeups; lb_migr counts the fair tasks moved
 * while not waking (load balancing, SCHED_CACHE's among it), not wakeups.
 */
#define WAKELAB_PLACEMENT_KEY	"policy"
#define WAKELAB_PLACEMENT_COLUMNS(C)					\
	C(WAKEUPS,	"wakeups")	/* wakeups placed */		\
	C(WAKER_CPU,	"waker_cpu")	/* on the waker's CPU */	\
	C(PREV_CPU,	"prev_cpu")	/* on the wakee's previous CPU */ \
	C(WAKER_LLC,	"waker_llc")	/* elsewhere in the waker's LLC */ \
	C(PREV_LLC,	"prev_llc")	/* elsewhere in prev's LLC */	\
	C(OTHER,	"other")	/* anywhere else */		\
	C(CROSS_LLC,	"cross_llc")	/* target LLC != prev's LLC */	\
	C(SYNC,		"sync")		/* WF_SYNC wakeups (kretprobe) */ \
	C(LB_MIGR,	"lb_migr")	/* moved, not waking: balancing */ \
	C(LB_CROSS_LLC,	"lb_cross_llc")	/* of those, into another LLC */

/* decisions: one row per wake_affine() rule. */
#define WAKELAB_DECISIONS_KEY	"rule"
#define WAKELAB_DECISIONS_COLUMNS(C)					\
	C(CALLS,	"calls")	/* wake_affine() calls */	\
	C(WAKER,	"waker")	/* calls that chose the waker's CPU */
#define WAKELAB_RULES(C)						\
	C(NONE,		"none")						\
	C(IDLE,		"idle")						\
	C(WEIGHT,	"weight")					\
	C(OLD,		"old")						\
	C(POLICY,	"policy")					\
	C(FEATURE,	"feature")	/* a rule above WA_RULE_POLICY */

/* oldcheck: the module's copies of the kernel's rules against its decisions. */
#define WAKELAB_OLDCHECK_KEY	"rule"
#define WAKELAB_OLDCHECK_COLUMNS(C)					\
	C(AGREE,	"agree")	/* same answer as the kernel */	\
	C(DISAGREE,	"disagree")	/* another answer, same inputs */ \
	C(STALE,	"stale")	/* inputs changed: not compared */
#define WAKELAB_OLDCHECK_ROWS(C)					\
	C(OLD,		"old")		/* rule == old decisions */	\
	C(ROW,		"row")		/* every decision vs its row */	\
	C(IDLE,		"idle")		/* rule == idle decisions */	\
	C(WEIGHT,	"weight")	/* rule == weight decisions */	\
	C(TRANSPLANT,	"transplant")	/* transplant= vs the kernel */

/* llc: one row per LLC, keyed by its first CPU. */
#define WAKELAB_LLC_KEY		"llc"
#define WAKELAB_LLC_COLUMNS(C)						\
	C(CPUS,		"cpus")		/* cpulist */			\
	C(NR_RUNNING,	"nr_running")					\
	C(LOAD,		"load")						\
	C(UTIL,		"util")						\
	C(CAPACITY,	"capacity")					\
	C(HAS_CAPACITY,	"has_capacity")

/* caps: what this kernel offers the module, one capability a row. */
#define WAKELAB_CAPS_KEY	"cap"
#define WAKELAB_CAPS_COLUMNS(C)						\
	C(VALUE,	"value")

#endif /* _UAPI_LINUX_WAKELAB_H */
