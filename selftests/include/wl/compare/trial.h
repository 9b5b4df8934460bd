/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_compare in three parts besides its report (wl/compare/report.h): the
 * command line (lib/compare/opts.c), the trial runner with the spec checks
 * and the restore (lib/compare/trial.c), and main().  This header is what
 * they share: the options, the run and the settings state, one set for the
 * process.
 */
#ifndef WL_COMPARE_TRIAL_H
#define WL_COMPARE_TRIAL_H

#include <limits.h>
#include <signal.h>

#include "wl/compare/report.h"
#include "wl/compare/spec.h"

#define WL_DEFAULT_INSTANCES	"1,cpus/4,cpus/2,cpus,2*cpus"
#define WL_DEFAULT_TRIALS	8
#define WL_DEFAULT_DURATION	10.0
#define WL_DEFAULT_ALPHA	0.05
#define WL_DEFAULT_MAX_EXACT	100000
#define WL_DEFAULT_PERMS	20000
#define WL_MAX_OUTPUT		(1 << 20)
#define WL_MAX_ARGS		128
#define WL_KILL_GRACE_MS	10000
#define WL_EXIT_SKIP		4
#define WL_OPT_STATE		256
#define WL_OPT_RESTORE		257
#define WL_OPT_MERGE		258
#define WL_OPT_DESCRIBE		259

/**
 * struct wl_opts - command line
 * @runner:	wl_stream path
 * @out:	--out directory or NULL
 * @format:	't' table, 'b' brief, 'j' json
 * @check:	only check specs
 * @quiet:	no progress
 * @restore:	--restore: put back what a killed run saved
 * @timeout:	per-trial timeout in seconds
 * @nextra:	wl_stream options after "--"
 * @extra:	them
 * @state_path:	the state file
 * @merge:	--merge: operands are KERNEL=FILE, one per boot
 * @nargs:	number of operands (--merge)
 * @args:	them
 * @ndesc:	--describe KERNEL=TEXT options
 * @desc:	them
 */
struct wl_cmp_opts {
	char	runner[PATH_MAX];
	char	*out;
	int	format;
	int	check;
	int	quiet;
	int	restore;
	double	timeout;
	int	nextra;
	char	**extra;
	char	state_path[PATH_MAX];
	int	merge;
	int	nargs;
	char	**args;
	int	ndesc;
	char	*desc[WL_CMP_MAX_SPECS];
};

/* The comparison: its specs, cells, trials and results. */
extern struct wl_run wl_cmp_run;
/* The settings the specs change, and their originals. */
extern struct wl_state wl_cmp_state;
/* The signal that asks the run to stop, or -WL_EXIT_SKIP. */
extern volatile sig_atomic_t wl_cmp_stop;

/* Parse the command line into @o and wl_cmp_run's specs; exits on error. */
void wl_cmp_parse_args(int argc, char **argv, struct wl_cmp_opts *o);
/* The trials of every round, in the order they run. */
void wl_cmp_plan(void);

/*
 * Check the specs against the running kernel, save the originals, apply
 * and restore each once: 0, or the exit status.
 */
int wl_cmp_check_specs(const struct wl_cmp_opts *o);
/* Run every planned trial, applying each spec before its trials. */
void wl_cmp_run_all(const struct wl_cmp_opts *o);
/* Restore and verify the original settings; 0 when restored. */
int wl_cmp_restore(void);
/* Remove the state file once restored (else say so); returns @ret. */
int wl_cmp_finish(int ret);
/* --restore: put back what a killed run saved; the exit status. */
int wl_cmp_restore_saved(const struct wl_cmp_opts *o);

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

/* --out: report.txt, results.json, plot.dat, plot.gp (and plot.png). */
int wl_cmp_write_out(const char *dir);

#endif /* WL_COMPARE_TRIAL_H */
