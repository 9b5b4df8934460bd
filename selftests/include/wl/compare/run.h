/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_compare's run state, one set for the process (lib/compare/run.c): the
 * comparison the command line (wl/compare/opts.h), the trial runner
 * (wl/compare/trial.h) and --merge (wl/compare/merge.h) fill in, the
 * settings its specs change, and the stop its signal handlers ask for.
 * The analysis, the report and the headline never read it here: they take
 * the run as a const struct wl_run * argument.
 */
#ifndef WL_COMPARE_RUN_H
#define WL_COMPARE_RUN_H

#include <signal.h>

#include "wl/compare/model.h"
#include "wl/compare/settings.h"

/* wl_compare's exit status when it skips (not root, workload unsupported). */
#define WL_EXIT_SKIP		4

/* The comparison: its specs, cells, trials and results. */
extern struct wl_run wl_cmp_run;
/* The settings the specs change, and their originals. */
extern struct wl_state wl_cmp_state;
/* The signal that asks the run to stop, or -WL_EXIT_SKIP. */
extern volatile sig_atomic_t wl_cmp_stop;

#endif /* WL_COMPARE_RUN_H */
