/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statistics of a wl_compare run (lib/compare/analysis.c): throughput
 * and placement shares per (policy, cell), the permutation tests against
 * the baseline, Holm's correction over every test of the report, and the
 * shifts a run could have detected.
 */
#ifndef WL_COMPARE_ANALYSIS_H
#define WL_COMPARE_ANALYSIS_H

#include "wl/compare/model.h"

/*
 * Compute every statistic of @r (@r->st and the family); the seed of cell
 * c, policy p is seed+c*P+p (placement share k: + (k+1)*P*C).  In a kernel
 * comparison (@nboot > 0) the test permutes kernel labels across boots, on
 * each boot's Hmean (each boot's mean share), and the summary printed is
 * of those boot values, so the printed Hmean and its %change are the
 * tested ones.  Every test of the report -- throughput and placement
 * shares, cells x policies -- is one family: Holm's adjusted p decides the
 * marks.  A share whose pooled values are all equal (p = 1 whatever the
 * data) is not in the family, nor is one that is the same test as another
 * (@same_as).  When no test is marked, the shifts the run could have
 * found are simulated (@detect, WL_POWER_SIMS runs a size).
 */
void wl_run_stats(struct wl_run *r);

#endif /* WL_COMPARE_ANALYSIS_H */
