/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The data model of a wl_compare run (lib/compare/model.c): its policies
 * (specs), cells (instance count x message size), trials and boots, the
 * placement shares read from the wakelab module's counter deltas, and the
 * per-(policy, cell) statistics the analysis fills in
 * (wl/compare/analysis.h).  The trial runner and --merge write a run, the
 * report and the headline read one: a run here holds no process state, so
 * host unit tests can make one up.
 */
#ifndef WL_COMPARE_MODEL_H
#define WL_COMPARE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "wl/compare/env.h"
#include "wl/compare/spec.h"
#include "wl/core/stats.h"

/* SPECs one comparison runs (each a policy and its settings). */
#define WL_CMP_MAX_SPECS	16
#define WL_MAX_CELLS		32
#define WL_MAX_TRIALS		4096
#define WL_MAX_PLACE		32
#define WL_PLACE_KEY		32
/* Boots one kernel comparison merges (wl_compare --merge). */
#define WL_MAX_BOOTS		WL_STATS_MAX_N
/* Power the "detectable" sizes are given for, and the runs simulated. */
#define WL_POWER		0.8
#define WL_POWER_SIMS		200

/* Placement columns the mix is computed from (docs/module.md). */
#define WL_PLACE_TOTAL		"wakeups"
/* A trial's wake_affine() decisions by rule: "rule.<rule>" = its calls. */
#define WL_PLACE_RULE		"rule."
/*
 * The wakeups of the tasks outside the workload's cgroup (placement_others):
 * "others.wakeups", "others.waker_cpu".  Printed beside the mix, not
 * tested.
 */
#define WL_PLACE_OTHERS		"others."

/*
 * The placement shares tested like throughput: each trial's share (%) of
 * its wakeups placed so (the module's placement table), or of its
 * wake_affine() calls decided by a rule (the decisions table, on the
 * patched kernel), and its rate of load-balance migrations (tasks moved
 * while not waking: lb_migr) per 1000 wakeups.  A trial without wakeups
 * (or decisions, or an lb_migr column) has no value.
 */
enum wl_pmetric {
	WL_PM_WAKER_CPU, WL_PM_PREV_CPU, WL_PM_WAKER_LLC, WL_PM_PREV_LLC,
	WL_PM_CROSS_LLC, WL_PM_RULE_NONE, WL_PM_RULE_IDLE,
	WL_PM_RULE_WEIGHT, WL_PM_RULE_OLD, WL_PM_RULE_POLICY,
	WL_PM_LB_MIGR, WL_NR_PM
};

/**
 * struct wl_pmetric_def - one placement share
 * @row:	its name in the table ("WakerCPU%")
 * @key:	its name in the JSON ("waker_cpu")
 * @num:	the counter it counts ("waker_cpu", "rule.idle")
 * @den:	the counter it is a share of; NULL: every "rule." counter
 * @words:	what it says in a headline ("on the waker's CPU")
 * @of:		of what ("wakeups", "wake_affine() calls")
 * @per:	0 for a share in %; else a rate per @per of @den
 *		(1000: load-balance migrations per 1000 wakeups)
 */
struct wl_pmetric_def {
	const char	*row;
	const char	*key;
	const char	*num;
	const char	*den;
	const char	*words;
	const char	*of;
	int		per;
};

extern const struct wl_pmetric_def wl_pmetrics[WL_NR_PM];

/**
 * struct wl_pstat - one placement share of one (policy, cell)
 * @n:		values: trials with a share (boots with one, across boots)
 * @mean:	arithmetic mean of the values (%)
 * @min:	smallest
 * @max:	largest
 * @sd:		sample standard deviation (n - 1), NAN when n < 2
 * @perm:	permutation test of the means against the baseline's
 * @tested:	@perm is valid and in the report's family
 * @padj:	Holm-adjusted p (NAN when not tested)
 * @sig:	@padj <= alpha
 * @same_as:	-1; else the share whose test this one is: in every value
 *		of both samples this share is a constant minus that one
 *		(PrevCPU% = 100 - WakerCPU% when only the two are non-zero)
 *		or a constant plus it, so the permutation test is the same
 *		test.  It is counted once in the family, under @same_as,
 *		and @perm, @padj and @sig are copied from it.
 * @same_sign:	-1: a constant minus @same_as's values; 1: plus
 * @detect:	the shift (points) a run like this one finds with 80 %
 *		power at Holm's first threshold (wl_perm_detectable());
 *		NAN when not computed
 */
struct wl_pstat {
	int			n;
	double			mean;
	double			min;
	double			max;
	double			sd;
	struct wl_perm_result	perm;
	int			tested;
	double			padj;
	int			sig;
	int			same_as;
	int			same_sign;
	double			detect;
};

/**
 * struct wl_trial - one wl_stream run
 * @policy:	index of the spec (of the kernel, in a kernel comparison)
 * @cell:	index of the cell
 * @boot:	1-based boot it ran in, in a kernel comparison; 0 otherwise
 * @round:	1-based round
 * @seq:	1-based position in the run order
 * @exit_code:	wl_stream's exit status (-1: killed or not run)
 * @ok:		exit 0, integrity "ok" and an aggregate were read
 * @aggregate:	aggregate throughput
 * @instances:	resolved instance count wl_stream reported
 * @start:	seconds since the comparison started
 * @elapsed:	wall seconds of the trial
 * @integrity:	"ok", "fail" or "" when not read
 * @unit:	unit of @aggregate
 * @nplace:	placement counters read (0 when the module was absent)
 * @has_wakelab: wl_stream saw the module
 * @workload:	its placement counts were the workload's tasks alone (a
 *		cgroup), other tasks' apart; 0: every task's
 * @place_key:	counter names
 * @place_val:	counter deltas over the window
 * @raw:	wl_stream's JSON object (malloc'ed), or NULL
 * @err:	why the trial failed
 */
struct wl_trial {
	int	policy;
	int	cell;
	int	boot;
	int	round;
	int	seq;
	int	exit_code;
	int	ok;
	double	aggregate;
	int	instances;
	double	start;
	double	elapsed;
	char	integrity[16];
	char	unit[32];
	int	nplace;
	int	has_wakelab;
	int	workload;
	char	place_key[WL_MAX_PLACE][WL_PLACE_KEY];
	double	place_val[WL_MAX_PLACE];
	char	*raw;
	char	err[160];
};

/**
 * struct wl_cell - one instance count (and message size) column of work
 * @inst:	instance form as given ("cpus/4")
 * @size:	message size as given, "" for wl_stream's default
 * @instances:	resolved count (from wl_stream), 0 until known
 */
struct wl_cell {
	char	inst[32];
	char	size[32];
	int	instances;
};

/**
 * struct wl_cellstat - statistics of one (policy, cell)
 * @s:		summary of what the test compares: the successful trials'
 *		aggregates, or in a kernel comparison the boots' Hmeans
 *		(so its Hmean is the Hmean of the boots' Hmeans, each boot
 *		counting once whatever its number of trials)
 * @perm:	permutation test against the baseline policy
 * @tested:	@perm is valid
 * @padj:	Holm-adjusted p over the report's family (NAN: not tested)
 * @sig:	@padj at most the run's alpha
 * @avg_inst:	@s's Hmean per instance (Peter's "Avg", the tested
 *		figure per instance)
 * @pl:		the placement shares (n 0: no data)
 * @failed:	trials that did not complete with integrity
 * @nboot:	boots with a successful trial (kernel comparison)
 * @boot_cov:	between-boot spread: CoeffVar (%) of the boots' Hmeans
 * @trial_cov:	within-boot spread: pooled CoeffVar (%) of the trials
 *		around their boot's mean
 * @ntrials:	successful trials (pooled over boots)
 * @tmin:	fewest successful trials of a boot in @nboot (kernel
 *		comparison; 0 otherwise)
 * @tmax:	most
 * @zero:	successful trials with a throughput of 0
 * @detect:	the throughput change (%) a run like this one finds with
 *		80 % power at Holm's first threshold (wl_perm_detectable());
 *		NAN when not computed
 */
struct wl_cellstat {
	struct wl_summary	s;
	struct wl_perm_result	perm;
	int			tested;
	double			padj;
	int			sig;
	double			avg_inst;
	struct wl_pstat		pl[WL_NR_PM];
	int			failed;
	int			nboot;
	double			boot_cov;
	double			trial_cov;
	int			ntrials;
	int			tmin;
	int			tmax;
	int			zero;
	double			detect;
};

/**
 * struct wl_boot - one boot of a kernel comparison
 * @kernel:	index of its kernel (the spec column)
 * @ok:		its results were read
 * @seq:	1-based position in the boot schedule
 * @file:	the results.json it came from
 * @err:	why it has no results
 */
struct wl_boot {
	int	kernel;
	int	ok;
	int	seq;
	char	file[256];
	char	err[160];
};

struct wl_prof_run;

/* Rounds of a --profile run whose baseline trials are run again unprofiled. */
#define WL_CMP_PROF_COST_ROUNDS	3

/**
 * struct wl_prof_cost - what --profile costs in one cell
 * @n:		pairs: a profiled baseline trial, then the same unprofiled
 * @on:		the profiled trials' throughput
 * @off:	the unprofiled twins'
 */
struct wl_prof_cost {
	int	n;
	double	on[WL_CMP_PROF_COST_ROUNDS];
	double	off[WL_CMP_PROF_COST_ROUNDS];
};

/**
 * struct wl_run - a whole comparison
 * @workload:	wl_stream workload
 * @duration:	window per trial (seconds)
 * @rounds:	trials per (policy, cell)
 * @order:	"shuffle" or "rotate"
 * @seed:	seed of the order and of sampled permutations
 * @alpha:	significance level
 * @max_exact:	enumerate permutations up to this many splits
 * @nrand:	sampled permutations beyond that
 * @extra:	wl_stream options common to all trials (text, for the report)
 * @npol:	number of policies (specs)
 * @spec:	the specs; spec[0] is the baseline
 * @desc:	each spec's full meaning (see wl_spec_describe())
 * @ncell:	number of cells
 * @cell:	the cells
 * @ntrial:	trials planned
 * @trial:	the trials, in run order
 * @env:	environment
 * @unit:	unit of the aggregates
 * @restored:	settings restored and verified (1), failed (0), none (-1)
 * @interrupted: stopped by a signal
 * @wall:	seconds the trials took
 * @nboot:	boots of a kernel comparison (0: one boot, specs compared)
 * @boot:	them, in schedule order
 * @kenv:	each kernel's environment, from its first good boot
 * @st:		statistics [policy][cell]
 * @has_pm:	some trial has a value of the placement share (a rule share:
 *		a value above 0)
 * @ntests:	distinct tests in the report's family (Holm's m); a share
 *		that is the same test as another (@same_as) is not counted
 * @minp:	smallest p any test of the family could give, each test from
 *		its own sample sizes (wl_perm_min_p()) or its sampled
 *		splits (1 / (splits + 1)); NAN without tests
 * @ndup:	shares left out of the family as the same test as another
 * @prof:	the trials' profiles (wl/compare/profile.h), NULL without
 * @cost:	per cell, what --profile cost the baseline's throughput
 *
 * In a kernel comparison each "policy" is a kernel (its label the kernel's
 * name, @desc what it is: release, preemption model, configuration, spec)
 * and the test's unit is the boot: the trials of one boot share its memory
 * layout and interrupt placement, so they are not independent samples of
 * the kernel.
 */
struct wl_run {
	char			workload[32];
	double			duration;
	int			rounds;
	char			order[16];
	uint64_t		seed;
	double			alpha;
	uint64_t		max_exact;
	uint64_t		nrand;
	char			extra[256];
	int			npol;
	struct wl_spec		spec[WL_CMP_MAX_SPECS];
	char			desc[WL_CMP_MAX_SPECS][512];
	int			ncell;
	struct wl_cell		cell[WL_MAX_CELLS];
	int			ntrial;
	struct wl_trial		trial[WL_MAX_TRIALS];
	struct wl_env		env;
	char			unit[32];
	int			restored;
	int			interrupted;
	double			wall;
	int			nboot;
	struct wl_boot		boot[WL_MAX_BOOTS];
	struct wl_env		kenv[WL_CMP_MAX_SPECS];
	struct wl_cellstat	st[WL_CMP_MAX_SPECS][WL_MAX_CELLS];
	int			has_pm[WL_NR_PM];
	int			ntests;
	double			minp;
	int			ndup;
	struct wl_prof_run	*prof;
	struct wl_prof_cost	cost[WL_MAX_CELLS];
};

/* Row name of a cell: "tcp_stream-4" (with "-m16384" when sizes vary). */
void wl_cell_name(const struct wl_run *r, int c, char *buf,
		  size_t len, int upper);

/* A trial's share (%) of placement metric @k, NAN when it has none. */
double wl_trial_share(const struct wl_trial *t, int k);

/*
 * Whether wl_stream's "wakelab" object @wl says its placement counts were
 * the workload's alone ("workload": a cgroup, schema 5).
 */
int wl_wakelab_workload(const char *wl);

/*
 * The trial's counter "others.@col" (the tasks outside the workload), NaN
 * when it failed or counted every task in placement.
 */
double wl_trial_others(const struct wl_trial *t, const char *col);

/* Successful trials of boot @b (0-based) in cell @c. */
int wl_boot_trials(const struct wl_run *r, int b, int c);

/*
 * Whether aggregate @v can be a trial's throughput (finite, not
 * negative); else the reason, in @why, that the trial failed.
 */
int wl_aggregate_ok(double v, char *why, size_t len);

/* Trials that ran and failed. */
int wl_run_failed(const struct wl_run *r);

#endif /* WL_COMPARE_MODEL_H */
