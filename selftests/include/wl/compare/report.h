/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every way of printing a wl_compare run (wl/compare/model.h), once its
 * statistics are computed (wl/compare/analysis.h): an mmtests-style
 * comparison table under the headline (wl/compare/headline.h), Peter's
 * "TCP_STREAM-20 : Avg: 12701.5" loop format, JSON with every trial and
 * the environment, a gnuplot data file plus script, and --out's directory
 * of all of them.  The run comes as an argument: the report knows nothing
 * of the trial runner, so host unit tests can feed it made-up trials.
 */
#ifndef WL_COMPARE_REPORT_H
#define WL_COMPARE_REPORT_H

#include <stdio.h>

#include "wl/compare/model.h"

enum wl_row { WL_ROW_MIN, WL_ROW_HMEAN, WL_ROW_STDDEV, WL_ROW_COV,
	      WL_ROW_MAX, WL_NR_ROWS };

/**
 * wl_print_table() - the mmtests-style comparison
 * @f:	stream
 * @r:	computed run
 */
void wl_print_table(FILE *f, const struct wl_run *r);

/* Peter's loop format: one block per policy headed by what it sets. */
void wl_print_brief(FILE *f, const struct wl_run *r);

/* Everything: config, environment, policies, every trial, statistics. */
void wl_print_json(FILE *f, const struct wl_run *r);

/*
 * gnuplot data: one block per policy (blocks separated by two blank lines,
 * so "index p" selects policy p): instances hmean stddev min max.
 */
void wl_print_plot_data(FILE *f, const struct wl_run *r);

/* gnuplot script reading "plot.dat" and writing "plot.png" beside it. */
void wl_print_plot_script(FILE *f, const struct wl_run *r);

/*
 * --out: report.txt, results.json, plot.dat, plot.gp (and plot.png, when
 * gnuplot is installed) of @r in @dir; 0, or -1 when a file could not be
 * written.
 */
int wl_cmp_write_out(const char *dir, const struct wl_run *r);

#endif /* WL_COMPARE_REPORT_H */
