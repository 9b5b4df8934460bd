/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_compare --merge (lib/compare/merge.c): one kernel comparison out of
 * the results.json of its boots.
 */
#ifndef WL_COMPARE_MERGE_H
#define WL_COMPARE_MERGE_H

#include "wl/compare/model.h"

/*
 * --merge: one kernel comparison into @r from the results.json of its
 * boots, @args "KERNEL=FILE" in schedule order.  The kernels are the
 * columns, the first the baseline: @kernels ("KERNEL" or "KERNEL=...",
 * the --describe options) in their order, then those only @args name in
 * order of first appearance.  A
 * boot whose file is missing, not JSON, or unlike the others (workload,
 * cells, the kernel's spec) is kept as failed, with the reason, and left
 * out of the statistics.  Returns 0, 1 when no boot gave results, or 2 on
 * bad operands or more trials of a kernel in a cell than a summary holds
 * (WL_STATS_MAX_N).
 */
int wl_cmp_merge(struct wl_run *r, int n, char * const *args, int nk,
		 char * const *kernels);

#endif /* WL_COMPARE_MERGE_H */
