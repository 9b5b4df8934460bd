/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler's feature flags in debugfs (sched/features): read one
 * feature, set or clear it.
 */
#ifndef WL_KERNEL_FEATURES_H
#define WL_KERNEL_FEATURES_H

#include <stdbool.h>

#define WL_DEBUGFS		"/sys/kernel/debug"
#define WL_SCHED_FEATURES	WL_DEBUGFS "/sched/features"

/*
 * State of sched feature @name: 1 set, 0 cleared (NO_name), -ENOENT when
 * the kernel does not have it, other -errno on read errors.
 */
int wl_sched_feat_get(const char *name);

/* Set (@on) or clear sched feature @name: 0 or -errno of the write. */
int wl_sched_feat_set(const char *name, bool on);

#endif /* WL_KERNEL_FEATURES_H */
