/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The profile of a wl_compare run (lib/compare/profile.c), from the
 * trials' wl_stream --profile JSON: per (policy, cell) each kernel
 * symbol's share of the window's samples, tested against the baseline's
 * by the permutation test on the mean, with Holm's correction over a
 * family of its own (the profile family).  Tested are, in each cell and
 * policy, the WL_CMP_PROF_TEST_TOP symbols with the largest share over
 * both samples together and every scheduler symbol whose share there
 * averages WL_CMP_PROF_TEST_PCT or more: a choice made without the labels,
 * so each permutation test stays exact, and a family small enough for
 * eight trials a side to pass Holm.  perf stat's counters as 0-day's robot prints them, mean
 * +- %stddev and %change.  In a kernel comparison the unit is the boot (a
 * boot's mean share), as for throughput.
 */
#ifndef WL_COMPARE_PROFILE_H
#define WL_COMPARE_PROFILE_H

#include <stdio.h>

#include "wl/compare/model.h"
#include "wl/kernel/perf_tool.h"

/* Distinct kernel symbols a run's profiles may name. */
#define WL_CMP_PROF_MAX_SYMS	2048
/* The symbols of a (policy, cell) in the family: see above. */
#define WL_CMP_PROF_TEST_TOP	10
#define WL_CMP_PROF_TEST_PCT	0.5
/* Symbols a (policy, cell) lists by change, beside every scheduler one. */
#define WL_CMP_PROF_SHOW	8
/* profile.png: symbols per panel, and panels (cells) at most. */
#define WL_CMP_PROF_PLOT	10
#define WL_CMP_PROF_PANELS	4
/* perf stat's counters and instructions per cycle. */
#define WL_CMP_PROF_IPC		WL_PSTAT_NR
#define WL_CMP_PROF_NSTAT	(WL_PSTAT_NR + 1)

/**
 * struct wl_prof_share - one symbol's share in one (policy, cell)
 * @n:		values (trials, or boots in a kernel comparison)
 * @mean:	mean share (%), 0 where the symbol had no sample
 * @sd:		sample standard deviation, NAN when @n < 2
 * @perm:	permutation test of the means against the baseline's
 * @tested:	in the profile family (@perm valid)
 * @padj:	Holm-adjusted p over the profile family (NAN: not tested)
 * @sig:	@padj at most the run's alpha
 */
struct wl_prof_share {
	int			n;
	double			mean;
	double			sd;
	struct wl_perm_result	perm;
	int			tested;
	double			padj;
	int			sig;
};

/**
 * struct wl_prof_count - one perf stat counter in one (policy, cell)
 * @n:		values that counted it (0: missing in every one)
 * @missing:	values where perf stat could not count it (no PMU)
 * @mean:	mean over the @n
 * @sd:		sample standard deviation, NAN when @n < 2
 */
struct wl_prof_count {
	int	n;
	int	missing;
	double	mean;
	double	sd;
};

/**
 * struct wl_prof_run - a run's profile statistics
 * @nsym:	distinct kernel symbols in any trial's profile
 * @name:	them
 * @sched:	whether each is a scheduler symbol (wl_prof_sched_symbol())
 * @ntrials:	trials with a profile
 * @event:	the sampled event ("cpu-clock", "cycles"; "mixed" when the
 *		trials differ)
 * @perf:	perf's version, of the first trial with a profile
 * @sh:		[policy][cell]: @nsym shares each
 * @cnt:	[policy][cell][counter]
 * @ntests:	tests in the profile family (Holm's m)
 */
struct wl_prof_run {
	int			nsym;
	char			(*name)[WL_PROF_SYM_LEN];
	unsigned char		*sched;
	int			ntrials;
	char			event[16];
	char			perf[48];
	struct wl_prof_share	*sh[WL_CMP_MAX_SPECS][WL_MAX_CELLS];
	struct wl_prof_count	cnt[WL_CMP_MAX_SPECS][WL_MAX_CELLS][WL_CMP_PROF_NSTAT];
	int			ntests;
};

/*
 * The profile statistics of @r (whose trials' raw JSON is read), or NULL
 * when no trial has a profile or memory ran out (said on stderr).
 */
struct wl_prof_run *wl_prof_analyse(const struct wl_run *r);
void wl_prof_free(struct wl_prof_run *pr);

/* The Profile table and the perf stat table of @r (nothing without one). */
void wl_prof_print(FILE *f, const struct wl_run *r);
/* ,"profile":{...} for results.json (null without one). */
void wl_prof_json(FILE *f, const struct wl_run *r);
/*
 * profile.dat: per cell (the cells with a result the headline names first,
 * then the others), the WL_CMP_PROF_PLOT symbols with the largest share,
 * each policy's mean and stddev; profile.gp draws the first
 * WL_CMP_PROF_PANELS cells as clustered bars into profile.png.
 */
void wl_prof_plot_data(FILE *f, const struct wl_run *r);
void wl_prof_plot_script(FILE *f, const struct wl_run *r);

#endif /* WL_COMPARE_PROFILE_H */
