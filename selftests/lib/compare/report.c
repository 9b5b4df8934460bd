// SPDX-License-Identifier: GPL-2.0
/* wl_compare's reports: see wl/compare/report.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wl/compare/headline.h"
#include "wl/compare/profile.h"
#include "wl/compare/report.h"
#include "wl/core/json_write.h"

static int wl_run_done(const struct wl_run *r)
{
	int i, d = 0;

	for (i = 0; i < r->ntrial; i++)
		if (r->trial[i].exit_code != -2)
			d++;
	return d;
}

static int wl_col_width(const struct wl_run *r)
{
	int p, w = 20;

	for (p = 0; p < r->npol; p++)
		if ((int)strlen(r->spec[p].label) + 2 > w)
			w = strlen(r->spec[p].label) + 2;
	return w;
}

/*
 * mmtests cell: "  12345.67 (  -1.23%)" or "  12345.67 *  -1.23%*"; @unit
 * "" for a difference in points (placement shares).
 */
static void wl_put_cell(FILE *f, int w, double v, double pct, int sig,
			const char *unit)
{
	char b[64];

	if (isnan(v))
		snprintf(b, sizeof(b), "NaN");
	else
		snprintf(b, sizeof(b), "%.2f", v);
	fprintf(f, " %*s", w, b);
	if (isnan(pct))
		fprintf(f, " (%7s%s)", "NaN", unit);
	else
		fprintf(f, " %c%7.2f%s%c", sig ? '*' : '(', pct, unit,
			sig ? '*' : ')');
}

/*
 * Whose wakeups the placement counts were: the workload's tasks alone in
 * every trial that counted any, in none, or in some.
 */
static const char *wl_workload_words(const struct wl_run *r)
{
	int i, n = 0, w = 0;

	for (i = 0; i < r->ntrial; i++) {
		if (!r->trial[i].ok || !r->trial[i].has_wakelab)
			continue;
		n++;
		w += r->trial[i].workload;
	}
	if (!n)
		return "";
	if (w == n)
		return ";\n#   the workload's tasks alone (a cgroup of their own): other tasks' wakeups apart, in Others";
	if (!w)
		return ";\n#   every task's wakeups (no workload cgroup: see wl_stream's workload_off)";
	return ";\n#   MIXED: some trials counted the workload's tasks alone, others every task's";
}

/* A kernel comparison's kernels, its boot schedule and its unit. */
static void wl_print_kernels(FILE *f, const struct wl_run *r)
{
	int b, p, w = wl_col_width(r) - 2;

	fprintf(f, "# kernels (first = baseline) = release; preemption; SCHED_CACHE; what it is:\n");
	for (p = 0; p < r->npol; p++)
		fprintf(f, "#   %-*s = %s %s; %s; SCHED_CACHE %s (%s); %s\n", w,
			r->spec[p].label,
			r->kenv[p].release[0] ? r->kenv[p].release : "?",
			r->kenv[p].version, r->kenv[p].preempt[0] ?
			r->kenv[p].preempt : "?",
			wl_env_sched_cache(&r->kenv[p]),
			wl_env_sched_cache_why(&r->kenv[p]),
			r->desc[p][0] ? r->desc[p] : "-");
	fprintf(f, "# boots in schedule order:");
	for (b = 0; b < r->nboot; b++)
		fprintf(f, "%s %d:%s%s", b && !(b % 8) ? "\n#  " : "",
			r->boot[b].seq, r->spec[r->boot[b].kernel].label,
			r->boot[b].ok ? "" : "(FAILED)");
	fputc('\n', f);
	for (b = 0; b < r->nboot; b++)
		if (!r->boot[b].ok)
			fprintf(f, "# FAILED boot %d (%s), excluded: %s\n",
				r->boot[b].seq, r->spec[r->boot[b].kernel].label,
				r->boot[b].err);
	fputs("# unit of the test: the boot.  Kernels differ only between boots, and the\n"
	      "#   trials of one boot share its memory layout, interrupt and timer placement:\n"
	      "#   they are not independent draws of its kernel.  The permutation test\n"
	      "#   exchanges kernel labels between boots, on each boot's Hmean, so a shift\n"
	      "#   one boot happens to get is noise, not a kernel effect.  BootCoV% is the\n"
	      "#   spread between a kernel's boots, TrialCoV% the spread within a boot.\n"
	      "#   The throughput rows summarise the boots' Hmeans: the Hmean printed is the\n"
	      "#   Hmean of the boots' Hmeans, each boot once whatever its trials, and it and\n"
	      "#   its %change are what the test compares.\n", f);
}

/* Fewest values per side whose exact test can reach p <= @level. */
static int wl_samples_needed(double level)
{
	int n = 1;

	while (n < WL_STATS_MAX_N && wl_perm_min_p(n, n) > level)
		n++;
	return n;
}

/* Cache-aware scheduling (CONFIG_SCHED_CACHE) as found, one line. */
static void wl_print_sched_cache(FILE *f, const struct wl_env *e)
{
	fprintf(f, "# cache-aware scheduling (SCHED_CACHE): %s", wl_env_sched_cache(e));
	if (e->sched_cache >= 0)
		fprintf(f, " (%s; %d LLC%s), user flag llc_balancing/enabled %d as found%s%s; [NO_]SCHED_CACHE in a spec sets the flag for its trials",
			wl_env_sched_cache_why(e), e->nllc,
			e->nllc == 1 ? "" : "s", e->sched_cache,
			e->sched_cache_tun[0] ? ", " : "", e->sched_cache_tun);
	else
		fprintf(f, " (%s)", wl_env_sched_cache_why(e));
	fputc('\n', f);
}

/* "3" or "1-57": successful trials a boot in a cell, over every boot. */
static void wl_trials_range(const struct wl_run *r, char *buf, size_t len)
{
	int b, c, n, lo = -1, hi = -1;

	if (!r->nboot) {
		snprintf(buf, len, "%d", r->rounds);
		return;
	}
	for (b = 0; b < r->nboot; b++) {
		if (!r->boot[b].ok)
			continue;
		for (c = 0; c < r->ncell; c++) {
			n = wl_boot_trials(r, b, c);
			lo = lo < 0 || n < lo ? n : lo;
			hi = n > hi ? n : hi;
		}
	}
	if (lo < 0)
		snprintf(buf, len, "0");
	else if (lo == hi)
		snprintf(buf, len, "%d", lo);
	else
		snprintf(buf, len, "%d-%d", lo, hi);
}

static int wl_trials_unequal(const struct wl_run *r)
{
	char buf[32];

	wl_trials_range(r, buf, sizeof(buf));
	return strchr(buf, '-') != NULL;
}

/*
 * The sample sizes of the family's tests in words: "3 boots of k1
 * against 4 of k2", or the range "3-4 trials a side".
 */
static const char *wl_sizes_words(const struct wl_run *r)
{
	static char buf[96];
	int c, p, lo = -1, hi = -1, n;

	for (c = 0; c < r->ncell; c++)
		for (p = 0; p < r->npol; p++) {
			if (!r->st[p][c].s.n)
				continue;	/* an empty cell is not tested */
			n = r->st[p][c].s.n;
			lo = lo < 0 || n < lo ? n : lo;
			hi = n > hi ? n : hi;
		}
	if (lo == hi)
		snprintf(buf, sizeof(buf), "%d %s a side", lo,
			 r->nboot ? "boots" : "trials");
	else
		snprintf(buf, sizeof(buf), "%d-%d %s a side", lo, hi,
			 r->nboot ? "boots" : "trials");
	return buf;
}

/* Trials that measured no throughput at all: flagged, not hidden. */
static void wl_print_zero(FILE *f, const struct wl_run *r)
{
	char name[64];
	int c, p;

	for (c = 0; c < r->ncell; c++)
		for (p = 0; p < r->npol; p++) {
			if (!r->st[p][c].zero)
				continue;
			wl_cell_name(r, c, name, sizeof(name), 0);
			fprintf(f, "# ZERO throughput: %d of %d trial%s of %s in %s (its Hmean is then 0, CoeffVar NaN)\n",
				r->st[p][c].zero, r->st[p][c].ntrials,
				r->st[p][c].ntrials == 1 ? "" : "s",
				r->spec[p].label, name);
		}
}

static void wl_print_header(FILE *f, const struct wl_run *r)
{
	const struct wl_env *e = &r->env;
	char trials[32];
	int i, p;

	wl_trials_range(r, trials, sizeof(trials));
	if (r->nboot)
		fprintf(f, "# wl_compare: kernels across boots: %s, %d kernels x %d cells, %d boots, %s trials per cell a boot, %g s windows%s%s\n",
			r->workload, r->npol, r->ncell, r->nboot, trials,
			r->duration, r->extra[0] ? ", wl_stream options: " : "",
			r->extra);
	else
		fprintf(f, "# wl_compare: %s, %d policies x %d cells x %d trials, %g s windows%s%s\n",
			r->workload, r->npol, r->ncell, r->rounds, r->duration,
			r->extra[0] ? ", wl_stream options: " : "", r->extra);
	if (r->nboot)
		fprintf(f, "# machine %s, %d CPUs, %d socket%s, %d LLC%s",
			e->machine, e->cpus, e->sockets,
			e->sockets == 1 ? "" : "s", e->nllc,
			e->nllc == 1 ? "" : "s");
	else
		fprintf(f, "# kernel %s %s, %d CPUs, %d socket%s, %d LLC%s",
			e->release, e->machine, e->cpus, e->sockets,
			e->sockets == 1 ? "" : "s", e->nllc,
			e->nllc == 1 ? "" : "s");
	if (e->llc_level)
		fprintf(f, " (L%d):", e->llc_level);
	else
		fprintf(f, " (no cache info in sysfs; packages):");
	for (i = 0; i < e->nllc; i++)
		fprintf(f, " {%s}", e->llc[i]);
	fprintf(f, "\n# mode: %s (%s)\n", e->mode, e->mode_how);
	if (!strcmp(e->mode, "TCG"))
		fputs("# NOTE: TCG emulation: throughput differences are emulator-dominated (no caches are\n"
		      "#       emulated, vCPUs share host cores); the placement mix is the kernel's own, exact.\n",
		      f);
	if (!strcmp(e->mode, "KVM"))
		fputs("# NOTE: KVM: each vCPU is a host thread that the host schedules, unpinned: throughput\n"
		      "#       is the host hardware's, shaped by where the host runs the vCPU threads and what\n"
		      "#       else runs there; the guest's LLCs are QEMU's topology, not the host's caches.\n",
		      f);
	if (strstr(e->mode, " guest") || !strcmp(e->mode, "VM"))
		fputs("# NOTE: a virtual machine: each vCPU is a thread of the hypervisor, which schedules it\n"
		      "#       on the host as it sees fit: throughput is the host's, shaped by that; the LLCs\n"
		      "#       are the topology the hypervisor presents, not necessarily the host's caches.\n",
		      f);
	if (strstr(e->mode_how, "tcg-single"))
		fputs("# NOTE: single-threaded TCG runs one vCPU at a time: cross-CPU wakeups wait for\n"
		      "#       the emulator's round robin (scripts/vm --tcg multi runs them in parallel).\n",
		      f);
	fprintf(f, "# wakelab module: %s%s\n", e->module ?
		"loaded (placement mix from its counters)" :
		"absent (no placement mix)", wl_workload_words(r));
	if (!r->nboot)
		wl_print_sched_cache(f, e);
	if (r->nboot)
		fprintf(f, "# boot order: balanced (scripts/compare), seed %llu; verdict: two-sided permutation tests of the boots' Hmeans and mean shares, alpha %g\n",
			(unsigned long long)r->seed, r->alpha);
	else
		fprintf(f, "# order: %s per round, seed %llu; verdict: two-sided permutation tests of the Hmeans and of the mean placement shares, alpha %g\n",
			r->order, (unsigned long long)r->seed, r->alpha);
	fprintf(f, "# correction: Holm over the report's %d tests (throughput and placement shares, cells x %s):\n"
		"#   a '*' means Holm's adjusted p <= %g, so a report where nothing differs shows\n"
		"#   any '*' with probability <= %g.  Holm, not Benjamini-Hochberg: the shares of a\n"
		"#   cell sum to 100 %% and move together, and Holm holds under any dependence.\n",
		r->ntests, r->nboot ? "kernels" : "policies", r->alpha, r->alpha);
	if (r->ndup)
		fprintf(f, "#   %d share test%s left out as the same test as another share's (a constant\n"
			"#   minus it, or plus it, in every value: see the Perm rows): counted once.\n",
			r->ndup, r->ndup == 1 ? "" : "s");
	/* From the tests of the family, each with its own sample sizes. */
	if (r->ntests) {
		if (r->minp > r->alpha)
			fprintf(f, "# WARNING: with %s the smallest attainable p of any test is %.4f > %g:\n"
				"#          no difference can be called significant; use more %s.\n",
				wl_sizes_words(r), r->minp, r->alpha,
				r->nboot ? "boots" : "trials");
		else if (r->minp > r->alpha / r->ntests)
			fprintf(f, "# WARNING: the smallest attainable p, %.4f, is above Holm's first threshold\n"
				"#          %g/%d = %.4f: no difference can be called significant; use at least\n"
				"#          %d %s per %s.\n", r->minp, r->alpha,
				r->ntests, r->alpha / r->ntests,
				wl_samples_needed(r->alpha / r->ntests),
				r->nboot ? "boots" : "trials",
				r->nboot ? "kernel" : "cell");
	}
	if (r->nboot) {
		wl_print_kernels(f, r);
	} else {
		fprintf(f, "# policies (first = baseline) = spec  [what it sets]:\n");
		for (p = 0; p < r->npol; p++)
			fprintf(f, "#   %-*s = %s  [%s]\n", wl_col_width(r) - 2,
				r->spec[p].label, r->spec[p].text,
				r->desc[p][0] ? r->desc[p] : "-");
	}
	if (r->interrupted)
		fprintf(f, "# INTERRUPTED after %d of %d trials\n",
			wl_run_done(r), r->ntrial);
	if (wl_run_failed(r))
		fprintf(f, "# FAILED trials: %d (not in the statistics)\n",
			wl_run_failed(r));
	wl_print_zero(f, r);
	if (r->nboot && wl_trials_unequal(r))
		fprintf(f, "# NOTE: the boots have unequal numbers of successful trials (%s per cell; the\n"
			"#       Spread block's Trials rows): each boot's Hmean counts once all the same.\n",
			trials);
	if (!r->nboot)
		fprintf(f, "# settings restored: %s\n",
			r->restored < 0 ? "nothing to restore" :
			r->restored ? "yes, verified" : "NO -- check the kernel");
}

/* A block's head: its name, then one column head per policy (kernel). */
static void wl_print_heads(FILE *f, const struct wl_run *r, int w,
			   const char *name)
{
	int p;

	fprintf(f, "\n%-9s %-22s", name, "");
	for (p = 0; p < r->npol; p++)
		fprintf(f, " %*s", w + 11, r->spec[p].label);
	fputc('\n', f);
}

/* Between-boot and within-boot spread of a kernel comparison. */
static void wl_print_spread(FILE *f, const struct wl_run *r, int w)
{
	int row, c, p;
	char name[64];

	static const char * const rn[] = { "Boots", "Trials", "BootCoV%",
					    "TrialCoV%" };

	wl_print_heads(f, r, w, "Spread");
	for (row = 0; row < 4; row++) {
		for (c = 0; c < r->ncell; c++) {
			wl_cell_name(r, c, name, sizeof(name), 0);
			fprintf(f, "%-9s %-22s", rn[row], name);
			for (p = 0; p < r->npol; p++) {
				const struct wl_cellstat *cs = &r->st[p][c];
				double v = row == 2 ? cs->boot_cov : cs->trial_cov;
				char b[32];

				if (row == 0)
					snprintf(b, sizeof(b), "%d", cs->nboot);
				else if (row == 1 && cs->tmin == cs->tmax)
					snprintf(b, sizeof(b), "%d", cs->tmin);
				else if (row == 1)
					/* Successful trials a boot: unequal. */
					snprintf(b, sizeof(b), "%d-%d", cs->tmin,
						 cs->tmax);
				else if (isnan(v))
					snprintf(b, sizeof(b), "-");
				else
					snprintf(b, sizeof(b), "%.2f", v);
				fprintf(f, " %*s", w + 11, b);
			}
			fputc('\n', f);
		}
	}
}

/* "Perm" (raw) and "Holm" (adjusted) rows of throughput (k < 0) or share k. */
static void wl_print_p_rows(FILE *f, const struct wl_run *r, int w, int k)
{
	char name[64], b[64];
	int row, c, p;

	for (row = 0; row < 2; row++)
		for (c = 0; c < r->ncell; c++) {
			wl_cell_name(r, c, name, sizeof(name), 0);
			fprintf(f, "%-9s %-22s", row ? "Holm" : "Perm", name);
			for (p = 0; p < r->npol; p++) {
				const struct wl_cellstat *cs = &r->st[p][c];
				const struct wl_perm_result *pr = k < 0 ?
					&cs->perm : &cs->pl[k].perm;
				int tested = k < 0 ? cs->tested : cs->pl[k].tested;
				double adj = k < 0 ? cs->padj : cs->pl[k].padj;
				int sig = k < 0 ? cs->sig : cs->pl[k].sig;

				if (!p)
					snprintf(b, sizeof(b), "baseline");
				else if (!tested)
					snprintf(b, sizeof(b), k >= 0 &&
						 cs->pl[k].n && r->st[0][c].pl[k].n ?
						 "all equal" : "-");
				else if (row)
					snprintf(b, sizeof(b), "%.4f%s", adj,
						 sig ? " *" : "  ");
				else if (k >= 0 && cs->pl[k].same_as >= 0)
					/* Counted once, under that share. */
					snprintf(b, sizeof(b), "%.4f = %s  ",
						 pr->p,
						 wl_pmetrics[cs->pl[k].same_as].row);
				else
					snprintf(b, sizeof(b), "%.4f %s  ",
						 pr->p, pr->exact ? "exact" :
						 "sampled");
				fprintf(f, " %*s", w + 11, b);
			}
			fputc('\n', f);
		}
}

/* Which cells' test of share k is another share's, and why. */
static void wl_print_same(FILE *f, const struct wl_run *r, int k)
{
	char name[64];
	int c, p, j;

	for (c = 0; c < r->ncell; c++)
		for (p = 1; p < r->npol; p++) {
			j = r->st[p][c].pl[k].same_as;
			if (j < 0)
				continue;
			wl_cell_name(r, c, name, sizeof(name), 0);
			fprintf(f, "  %s, %s: %s is a constant %s %s in every value of both sides, the same test, counted once as %s's\n",
				name, r->spec[p].label, wl_pmetrics[k].row,
				r->st[p][c].pl[k].same_sign < 0 ? "minus" :
				"plus", wl_pmetrics[j].row, wl_pmetrics[j].row);
		}
}

/*
 * Placement share k: Min, Mean (difference in points, '*' when
 * significant), Stddev, Max per cell, then its p-values.
 */
static void wl_print_share(FILE *f, const struct wl_run *r, int w, int k)
{
	static const char * const rn[] = { "Min", "Mean", "Stddev", "Max" };
	char name[64];
	int row, c, p;

	wl_print_heads(f, r, w, wl_pmetrics[k].row);
	for (row = 0; row < 4; row++)
		for (c = 0; c < r->ncell; c++) {
			wl_cell_name(r, c, name, sizeof(name), 0);
			fprintf(f, "%-9s %-22s", rn[row], name);
			for (p = 0; p < r->npol; p++) {
				const struct wl_pstat *b = &r->st[0][c].pl[k];
				const struct wl_pstat *ps = &r->st[p][c].pl[k];
				double v, bv;

				v = row == 0 ? ps->min : row == 1 ? ps->mean :
				    row == 2 ? ps->sd : ps->max;
				bv = row == 0 ? b->min : row == 1 ? b->mean :
				     row == 2 ? b->sd : b->max;
				wl_put_cell(f, w, v, v - bv,
					    row == 1 && ps->sig, "");
			}
			fputc('\n', f);
		}
	wl_print_p_rows(f, r, w, k);
	wl_print_same(f, r, k);
}

/*
 * The tasks outside the workload in (@p, @c), means over its trials: their
 * wakeups per trial, per 1000 of the workload's, and their share on the
 * waker's CPU; NaN without a trial that counted them apart.
 */
static void wl_others_means(const struct wl_run *r, int p, int c,
			    double *v)
{
	double sum[3] = { 0, 0, 0 }, o, wk, ow;
	int i, k, n[3] = { 0, 0, 0 };

	for (i = 0; i < r->ntrial; i++) {
		const struct wl_trial *t = &r->trial[i];

		if (t->policy != p || t->cell != c)
			continue;
		o = wl_trial_others(t, "wakeups");
		if (isnan(o))
			continue;
		sum[0] += o;
		n[0]++;
		wk = wl_trial_share(t, WL_PM_WAKER_CPU);
		for (k = 0; !isnan(wk) && k < t->nplace; k++)
			if (!strcmp(t->place_key[k], WL_PLACE_TOTAL) &&
			    t->place_val[k] > 0) {
				sum[1] += o * 1000 / t->place_val[k];
				n[1]++;
			}
		ow = wl_trial_others(t, "waker_cpu");
		if (o > 0 && !isnan(ow)) {
			sum[2] += ow * 100 / o;
			n[2]++;
		}
	}
	for (k = 0; k < 3; k++)
		v[k] = n[k] ? sum[k] / n[k] : NAN;
}

/* The Others rows: printed beside the mix, not tested. */
static void wl_print_others(FILE *f, const struct wl_run *r, int w)
{
	static const char * const rn[] = { "Count", "Per1k", "WakerCPU%" };
	double v[3];
	char name[64], b[32];
	int row, c, p, any = 0;

	/* Beside a mix only: nothing when no trial counted a wakeup. */
	for (c = 0; c < r->ncell && !any && r->has_pm[WL_PM_WAKER_CPU]; c++)
		for (p = 0; p < r->npol && !any; p++) {
			wl_others_means(r, p, c, v);
			any = !isnan(v[0]);
		}
	if (!any)
		return;
	wl_print_heads(f, r, w, "Others");
	for (row = 0; row < 3; row++)
		for (c = 0; c < r->ncell; c++) {
			wl_cell_name(r, c, name, sizeof(name), 0);
			fprintf(f, "%-9s %-22s", rn[row], name);
			for (p = 0; p < r->npol; p++) {
				wl_others_means(r, p, c, v);
				snprintf(b, sizeof(b), isnan(v[row]) ? "NaN" :
					 "%.2f", v[row]);
				fprintf(f, " %*s", w + 11, b);
			}
			fputc('\n', f);
		}
	fputs("\nOthers: the wakeups of every task outside the workload's cgroup (wakelab.ko's\n"
	      "  placement_others; kworkers, timers, ksoftirqd, wl_stream's controller), means\n"
	      "  per trial: their count, per 1000 of the workload's wakeups, and their share on\n"
	      "  the waker's CPU.  Beside the mix above, which counts the workload's alone; not\n"
	      "  tested.\n", f);
}

void wl_print_table(FILE *f, const struct wl_run *r)
{
	static const char * const rn[WL_NR_ROWS] = {
		"Min", "Hmean", "Stddev", "CoeffVar", "Max" };
	int row, c, p, k, w = wl_col_width(r);
	char name[64];

	wl_print_header(f, r);
	wl_print_headline(f, r);
	wl_print_heads(f, r, w, r->unit);
	for (row = 0; row < WL_NR_ROWS; row++) {
		for (c = 0; c < r->ncell; c++) {
			wl_cell_name(r, c, name, sizeof(name), 0);
			fprintf(f, "%-9s %-22s", rn[row], name);
			for (p = 0; p < r->npol; p++) {
				const struct wl_summary *b = &r->st[0][c].s;
				const struct wl_cellstat *cs = &r->st[p][c];
				double v, bv, pct;

				switch (row) {
				case WL_ROW_MIN:
					v = cs->s.min, bv = b->min;
					break;
				case WL_ROW_HMEAN:
					v = cs->s.hmean, bv = b->hmean;
					break;
				case WL_ROW_STDDEV:
					v = cs->s.stddev, bv = b->stddev;
					break;
				case WL_ROW_COV:
					v = cs->s.coeffvar, bv = b->coeffvar;
					break;
				default:
					v = cs->s.max, bv = b->max;
				}
				if (!cs->s.n)
					v = NAN;
				pct = row == WL_ROW_STDDEV || row == WL_ROW_COV ?
				      wl_pndiff(bv, v) : wl_pdiff(bv, v);
				if (p == 0 && !isnan(v))
					pct = 0;
				wl_put_cell(f, w, v, pct,
					    row == WL_ROW_HMEAN && cs->sig, "%");
			}
			fputc('\n', f);
		}
	}

	if (r->nboot)
		wl_print_spread(f, r, w);

	wl_print_heads(f, r, w, "p-value");
	wl_print_p_rows(f, r, w, -1);
	for (k = 0; k < WL_NR_PM; k++)
		if (r->has_pm[k])
			wl_print_share(f, r, w, k);
	if (r->has_pm[WL_PM_LB_MIGR])
		fputs("\nLBMigr/1k: the workload's and every other fair task's moves while not waking\n"
		      "  (load balancing, cache-aware scheduling's among it; also exec and NUMA\n"
		      "  balancing, affinity changes, hotplug) per 1000 wakeups: not wakeup placements.\n",
		      f);
	wl_print_others(f, r, w);
	if (!r->has_pm[WL_PM_WAKER_CPU])
		fprintf(f, "\nPlacement: none (%s)\n", r->env.module ?
			"no trial counted a wakeup" :
			"wakelab.ko was not loaded");
	wl_prof_print(f, r);
}

void wl_print_brief(FILE *f, const struct wl_run *r)
{
	char name[64];
	int p, c;

	for (p = 0; p < r->npol; p++) {
		if (r->nboot)
			fprintf(f, "%s%s%s%s:\n\n", p ? "\n" : "",
				r->spec[p].label,
				strcmp(r->spec[p].text, "default") ? " " : "",
				strcmp(r->spec[p].text, "default") ?
				r->spec[p].text : "");
		else
			fprintf(f, "%s%s:\n\n", p ? "\n" : "",
				r->desc[p][0] ? r->desc[p] : r->spec[p].text);
		for (c = 0; c < r->ncell; c++) {
			const struct wl_cellstat *cs = &r->st[p][c];
			const struct wl_pstat *wk = &cs->pl[WL_PM_WAKER_CPU];

			wl_cell_name(r, c, name, sizeof(name), 1);
			if (isnan(cs->avg_inst))
				fprintf(f, "%s : Avg: NaN", name);
			else
				fprintf(f, "%s : Avg: %.1f%s", name,
					cs->avg_inst, cs->sig ? "*" : "");
			if (r->has_pm[WL_PM_WAKER_CPU] && !isnan(wk->mean))
				fprintf(f, "  WakerCPU%%: %.1f%s", wk->mean,
					wk->sig ? "*" : "");
			fputc('\n', f);
		}
	}
}

static void wl_put_kv_num(FILE *f, const char *k, double v, int comma)
{
	fprintf(f, "\"%s\":", k);
	wl_json_put_number(f, v);
	if (comma)
		fputc(',', f);
}

static void wl_print_json_env(FILE *f, const struct wl_env *e)
{
	int i;

	fputs("{\"kernel\":", f);
	wl_json_put_string(f, e->release);
	fputs(",\"version\":", f);
	wl_json_put_string(f, e->version);
	fputs(",\"preempt\":", f);
	wl_json_put_string(f, e->preempt);
	fputs(",\"machine\":", f);
	wl_json_put_string(f, e->machine);
	fprintf(f, ",\"cpus\":%d,\"sockets\":%d,\"llc_level\":%d,\"llcs\":[",
		e->cpus, e->sockets, e->llc_level);
	for (i = 0; i < e->nllc; i++) {
		if (i)
			fputc(',', f);
		wl_json_put_string(f, e->llc[i]);
	}
	fputs("],\"mode\":", f);
	wl_json_put_string(f, e->mode);
	fputs(",\"mode_how\":", f);
	wl_json_put_string(f, e->mode_how);
	fputs(",\"sched_features\":", f);
	wl_json_put_string(f, e->features);
	fprintf(f, ",\"module\":%s,\"module_caps\":", e->module ? "true" :
		"false");
	wl_json_put_string(f, e->caps);
	fputs(",\"module_policy\":", f);
	wl_json_put_string(f, e->policy);
	fputs(",\"sched_cache\":{\"state\":", f);
	wl_json_put_string(f, wl_env_sched_cache(e));
	if (e->sched_cache >= 0)
		fprintf(f, ",\"enabled\":%d", e->sched_cache);
	else
		fputs(",\"enabled\":null", f);
	fprintf(f, ",\"effective\":%s,\"effective_how\":",
		strcmp(wl_env_sched_cache(e), "on") ? "false" : "true");
	wl_json_put_string(f, wl_env_sched_cache_why(e));
	fprintf(f, ",\"llcs\":%d,\"tunables\":", e->nllc);
	wl_json_put_string(f, e->sched_cache_tun);
	fputs("}}", f);
}

static void wl_print_json_trial(FILE *f, const struct wl_run *r,
				const struct wl_trial *t)
{
	int i;

	fprintf(f, "{\"seq\":%d,\"round\":%d,\"boot\":%d,\"policy\":", t->seq,
		t->round, t->boot);
	wl_json_put_string(f, r->spec[t->policy].label);
	fprintf(f, ",\"cell\":%d,\"instances_arg\":", t->cell);
	wl_json_put_string(f, r->cell[t->cell].inst);
	fprintf(f, ",\"instances\":%d,\"exit\":%d,\"ok\":%s,", t->instances,
		t->exit_code, t->ok ? "true" : "false");
	wl_put_kv_num(f, "aggregate", t->ok ? t->aggregate : NAN, 1);
	wl_put_kv_num(f, "start_s", t->start, 1);
	wl_put_kv_num(f, "elapsed_s", t->elapsed, 1);
	fputs("\"integrity\":", f);
	wl_json_put_string(f, t->integrity);
	fputs(",\"error\":", f);
	wl_json_put_string(f, t->err);
	fputs(",\"placement\":", f);
	if (!t->has_wakelab) {
		fputs("null", f);
	} else {
		fputc('{', f);
		for (i = 0; i < t->nplace; i++) {
			fprintf(f, "%s", i ? "," : "");
			wl_put_kv_num(f, t->place_key[i], t->place_val[i], 0);
		}
		fputc('}', f);
	}
	fprintf(f, ",\"wl_stream\":%s}", t->raw ? t->raw : "null");
}

/*
 * "others": {"wakeups", "per_1k", "waker_cpu_pct"} of (p, c) (the Others
 * rows), or null when no trial counted the workload's tasks apart.
 */
static void wl_print_json_others(FILE *f, const struct wl_run *r, int p,
				 int c)
{
	double v[3];

	wl_others_means(r, p, c, v);
	if (isnan(v[0])) {
		fputs("\"others\":null,", f);
		return;
	}
	fputs("\"others\":{", f);
	wl_put_kv_num(f, "wakeups", v[0], 1);
	wl_put_kv_num(f, "per_1k", v[1], 1);
	wl_put_kv_num(f, "waker_cpu_pct", v[2], 0);
	fputs("},", f);
}

/* "placement": {"waker_cpu": {n, mean, ...}, ...} of (p, c), or null. */
static void wl_print_json_shares(FILE *f, const struct wl_run *r, int p,
				 int c)
{
	int k, first = 1;

	fputs("\"placement\":", f);
	if (!r->has_pm[WL_PM_WAKER_CPU]) {
		fputs("null,", f);
		return;
	}
	fputc('{', f);
	for (k = 0; k < WL_NR_PM; k++) {
		const struct wl_pstat *ps = &r->st[p][c].pl[k];

		if (!r->has_pm[k])
			continue;
		fprintf(f, "%s\"%s\":{\"n\":%d,", first ? "" : ",",
			wl_pmetrics[k].key, ps->n);
		first = 0;
		wl_put_kv_num(f, "mean", ps->mean, 1);
		wl_put_kv_num(f, "min", ps->min, 1);
		wl_put_kv_num(f, "max", ps->max, 1);
		wl_put_kv_num(f, "stddev", ps->sd, 1);
		wl_put_kv_num(f, "diff", ps->mean -
			      (p ? r->st[0][c].pl[k].mean : ps->mean), 1);
		wl_put_kv_num(f, "p_value", ps->tested ? ps->perm.p : NAN, 1);
		wl_put_kv_num(f, "p_adjusted", ps->padj, 1);
		wl_put_kv_num(f, "detectable", ps->detect, 1);
		fputs("\"same_test_as\":", f);
		if (ps->same_as >= 0)
			wl_json_put_string(f, wl_pmetrics[ps->same_as].key);
		else
			fputs("null", f);
		fprintf(f, ",\"significant\":%s}", ps->sig ? "true" : "false");
	}
	fputs("},", f);
}

/* The headline's lines as a JSON array of strings. */
static void wl_print_json_headline(FILE *f, const struct wl_run *r)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int first = 1;

	fputc('[', f);
	if (m) {
		wl_print_headline(m, r);
		fclose(m);
		for (line = strtok_r(buf, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			while (*line == ' ')
				line++;
			if (!*line || !strncmp(line, "Headline", 8))
				continue;
			if (!first)
				fputc(',', f);
			first = 0;
			wl_json_put_string(f, line);
		}
	}
	free(buf);
	fputc(']', f);
}

void wl_print_json(FILE *f, const struct wl_run *r)
{
	int p, c, i, first, first2;

	fputs("{\"tool\":\"wl_compare\",\"version\":3,\"workload\":", f);
	wl_json_put_string(f, r->workload);
	fputs(",\"unit\":", f);
	wl_json_put_string(f, r->unit);
	fprintf(f, ",\"duration_s\":%g,\"rounds\":%d,\"order\":\"%s\",\"seed\":%llu,\"alpha\":%g,",
		r->duration, r->rounds, r->order,
		(unsigned long long)r->seed, r->alpha);
	fprintf(f, "\"max_exact\":%llu,\"permutations\":%llu,\"wl_stream_options\":",
		(unsigned long long)r->max_exact,
		(unsigned long long)r->nrand);
	wl_json_put_string(f, r->extra);
	fprintf(f, ",\"interrupted\":%s,\"restored\":%s,\"failed\":%d,\"wall_s\":%.1f,",
		r->interrupted ? "true" : "false",
		r->restored < 0 ? "null" : r->restored ? "true" : "false",
		wl_run_failed(r), r->wall);
	fprintf(f, "\"correction\":{\"method\":\"holm\",\"tests\":%d,\"same_tests\":%d,",
		r->ntests, r->ndup);
	wl_put_kv_num(f, "smallest_p", r->minp, 0);
	fprintf(f, "},\"share_definition\":\"%s\",\"headline\":",
		r->nboot ? "mean over boots of each boot's mean per-trial share" :
		"mean over trials of each trial's share");
	wl_print_json_headline(f, r);
	fputs(",\"env\":", f);
	wl_print_json_env(f, &r->env);
	fprintf(f, ",\"test_unit\":\"%s\",\"boots\":[", r->nboot ? "boot" : "trial");
	for (i = 0; i < r->nboot; i++) {
		fprintf(f, "%s{\"seq\":%d,\"kernel\":", i ? "," : "",
			r->boot[i].seq);
		wl_json_put_string(f, r->spec[r->boot[i].kernel].label);
		fprintf(f, ",\"ok\":%s,\"file\":", r->boot[i].ok ? "true" :
			"false");
		wl_json_put_string(f, r->boot[i].file);
		fputs(",\"error\":", f);
		wl_json_put_string(f, r->boot[i].err);
		fputc('}', f);
	}
	fputs("],\"policies\":[", f);
	for (p = 0; p < r->npol; p++) {
		fputs(p ? ",{\"label\":" : "{\"label\":", f);
		wl_json_put_string(f, r->spec[p].label);
		fputs(",\"spec\":", f);
		wl_json_put_string(f, r->spec[p].text);
		fputs(",\"means\":", f);
		wl_json_put_string(f, r->desc[p]);
		fputs(",\"env\":", f);
		if (r->nboot)
			wl_print_json_env(f, &r->kenv[p]);
		else
			fputs("null", f);
		fputc('}', f);
	}
	fputs("],\"cells\":[", f);
	for (c = 0; c < r->ncell; c++) {
		fprintf(f, "%s{\"instances_arg\":", c ? "," : "");
		wl_json_put_string(f, r->cell[c].inst);
		fputs(",\"msg_size\":", f);
		wl_json_put_string(f, r->cell[c].size);
		fprintf(f, ",\"instances\":%d}", r->cell[c].instances);
	}
	fputs("],\"stats\":[", f);
	first = 1;
	for (c = 0; c < r->ncell; c++) {
		for (p = 0; p < r->npol; p++) {
			const struct wl_cellstat *cs = &r->st[p][c];
			const struct wl_summary *s = &cs->s;

			fprintf(f, "%s{\"policy\":", first ? "" : ",");
			first = 0;
			wl_json_put_string(f, r->spec[p].label);
			fprintf(f, ",\"cell\":%d,\"instances\":%d,\"n\":%d,\"failed\":%d,",
				c, r->cell[c].instances, s->n, cs->failed);
			wl_put_kv_num(f, "hmean", s->hmean, 1);
			wl_put_kv_num(f, "min", s->min, 1);
			wl_put_kv_num(f, "max", s->max, 1);
			wl_put_kv_num(f, "stddev", s->stddev, 1);
			wl_put_kv_num(f, "coeffvar", s->coeffvar, 1);
			wl_put_kv_num(f, "avg_per_instance", cs->avg_inst, 1);
			wl_put_kv_num(f, "pct_change", p ?
				      wl_pdiff(r->st[0][c].s.hmean, s->hmean) :
				      0, 1);
			wl_put_kv_num(f, "p_value", cs->tested ? cs->perm.p :
				      NAN, 1);
			wl_put_kv_num(f, "p_adjusted", cs->padj, 1);
			fprintf(f, "\"exact\":%s,\"significant\":%s,",
				cs->tested && cs->perm.exact ? "true" : "false",
				cs->sig ? "true" : "false");
			wl_put_kv_num(f, "waker_cpu_pct",
				      cs->pl[WL_PM_WAKER_CPU].mean, 1);
			wl_put_kv_num(f, "cross_llc_pct",
				      cs->pl[WL_PM_CROSS_LLC].mean, 1);
			wl_print_json_shares(f, r, p, c);
			wl_print_json_others(f, r, p, c);
			fprintf(f, "\"trials\":%d,\"zero_throughput\":%d,",
				cs->ntrials, cs->zero);
			wl_put_kv_num(f, "detectable_pct", cs->detect, 1);
			fputs("\"boot_trials\":[", f);
			for (i = 0, first2 = 1; i < r->nboot; i++) {
				if (r->boot[i].kernel != p || !r->boot[i].ok)
					continue;
				fprintf(f, "%s%d", first2 ? "" : ",",
					wl_boot_trials(r, i, c));
				first2 = 0;
			}
			fprintf(f, "],\"boots\":%d,", cs->nboot);
			wl_put_kv_num(f, "boot_cov", r->nboot ? cs->boot_cov : NAN, 1);
			wl_put_kv_num(f, "trial_cov", r->nboot ? cs->trial_cov : NAN, 0);
			fputc('}', f);
		}
	}
	fputc(']', f);
	wl_prof_json(f, r);
	fputs(",\"trials\":[", f);
	first = 1;
	for (i = 0; i < r->ntrial; i++) {
		if (r->trial[i].exit_code == -2)
			continue;
		if (!first)
			fputc(',', f);
		first = 0;
		wl_print_json_trial(f, r, &r->trial[i]);
	}
	fputs("]}\n", f);
}

/* A plot.dat figure: NAN is gnuplot's missing value '?'. */
static void wl_put_dat(FILE *f, double v)
{
	if (isnan(v))
		fputs(" ?", f);
	else
		fprintf(f, " %.4f", v);
}

void wl_print_plot_data(FILE *f, const struct wl_run *r)
{
	const struct wl_pstat *wk, *cr;
	int p, c;

	fprintf(f, "# wl_compare %s (%s): instances hmean stddev min max waker_cpu_pct waker_cpu_sd cross_llc_pct cross_llc_sd ('?': no value)\n",
		r->workload, r->unit);
	for (p = 0; p < r->npol; p++) {
		fprintf(f, "%s# policy %d: %s = %s\n", p ? "\n\n" : "", p,
			r->spec[p].label, r->spec[p].text);
		for (c = 0; c < r->ncell; c++) {
			const struct wl_summary *s = &r->st[p][c].s;

			if (!s->n || !r->cell[c].instances)
				continue;
			wk = &r->st[p][c].pl[WL_PM_WAKER_CPU];
			cr = &r->st[p][c].pl[WL_PM_CROSS_LLC];
			fprintf(f, "%d", r->cell[c].instances);
			wl_put_dat(f, s->hmean);
			wl_put_dat(f, isnan(s->stddev) ? 0 : s->stddev);
			wl_put_dat(f, s->min);
			wl_put_dat(f, s->max);
			wl_put_dat(f, wk->mean);
			wl_put_dat(f, wk->n && isnan(wk->sd) ? 0 : wk->sd);
			wl_put_dat(f, cr->mean);
			wl_put_dat(f, cr->n && isnan(cr->sd) ? 0 : cr->sd);
			fputc('\n', f);
		}
	}
}

void wl_print_plot_script(FILE *f, const struct wl_run *r)
{
	int p, place = r->has_pm[WL_PM_WAKER_CPU];
	const char *sep = "plot ";

	fprintf(f, "# gnuplot script written by wl_compare; run: gnuplot plot.gp\n");
	fprintf(f, "set terminal pngcairo size %d,600\nset output 'plot.png'\n",
		place ? 1440 : 960);
	fprintf(f, "set datafile missing '?'\n");
	if (place)
		fprintf(f, "set multiplot layout 1,2 title \"%s %s%s\" noenhanced\n",
			r->env.release, r->env.mode,
			!strcmp(r->env.mode, "TCG") ?
			": throughput is the emulator's, placement the kernel's" :
			"");
	if (place)
		fprintf(f, "set title \"%s: Hmean of %d trials, bars: stddev\" noenhanced\n",
			r->workload, r->rounds);
	else
		fprintf(f, "set title \"%s: Hmean of %d trials, bars: stddev (%s %s%s)\" noenhanced\n",
			r->workload, r->rounds, r->env.release, r->env.mode,
			!strcmp(r->env.mode, "TCG") ? ", emulator-dominated" :
			"");
	fprintf(f, "set xlabel 'instances'\nset ylabel '%s'\n", r->unit);
	fprintf(f, "set logscale x 2\nset key below noenhanced\n");
	fprintf(f, "set grid\nset yrange [0:*]\nset offsets graph 0.05, graph 0.05, 0, 0\n");
	fprintf(f, "plot ");
	for (p = 0; p < r->npol; p++)
		fprintf(f, "%s'plot.dat' index %d using 1:2:3 with yerrorlines lw 2 title '%s'",
			p ? ", \\\n     " : "", p, r->spec[p].label);
	fputc('\n', f);
	if (!place)
		return;
	fprintf(f, "set title \"placement: share of wakeups on average per %s, bars: stddev\" noenhanced\n",
		r->nboot ? "boot" : "trial");
	fprintf(f, "set ylabel '%% of wakeups'\nset yrange [0:100]\n");
	for (p = 0; p < r->npol; p++) {
		fprintf(f, "%s'plot.dat' index %d using 1:6:7 with yerrorlines lw 2 lc %d title '%s: waker CPU'",
			sep, p, p + 1, r->spec[p].label);
		sep = ", \\\n     ";
		if (r->has_pm[WL_PM_CROSS_LLC])
			fprintf(f, "%s'plot.dat' index %d using 1:8:9 with yerrorlines lw 2 dt 2 lc %d title '%s: across LLCs'",
				sep, p, p + 1, r->spec[p].label);
	}
	fprintf(f, "\nunset multiplot\n");
}

static int wl_run_gnuplot(const char *dir, const char *script)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);

		if (chdir(dir))
			_exit(126);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);	/* warnings; rc counts */
		}
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int wl_write_file_with(const char *dir, const char *name,
			      void (*fn)(FILE *, const struct wl_run *),
			      const struct wl_run *r)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (!f) {
		fprintf(stderr, "wl_compare: cannot write %s: %s\n", p,
			strerror(errno));
		return -1;
	}
	fn(f, r);
	if (fclose(f)) {
		fprintf(stderr, "wl_compare: writing %s: %s\n", p,
			strerror(errno));
		return -1;
	}
	return 0;
}

static void wl_print_report(FILE *f, const struct wl_run *r)
{
	wl_print_table(f, r);
	fputc('\n', f);
	wl_print_brief(f, r);
}

int wl_cmp_write_out(const char *dir, const struct wl_run *r)
{
	int ret = 0, g;
	const char *gp;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "wl_compare: mkdir %s: %s\n", dir,
			strerror(errno));
		return -1;
	}
	ret |= wl_write_file_with(dir, "report.txt", wl_print_report, r);
	ret |= wl_write_file_with(dir, "results.json", wl_print_json, r);
	ret |= wl_write_file_with(dir, "plot.dat", wl_print_plot_data, r);
	ret |= wl_write_file_with(dir, "plot.gp", wl_print_plot_script, r);
	if (r->prof) {
		ret |= wl_write_file_with(dir, "profile.dat", wl_prof_plot_data, r);
		ret |= wl_write_file_with(dir, "profile.gp", wl_prof_plot_script, r);
	}
	gp = "plot.gp";
	g = wl_run_gnuplot(dir, gp);
	if (!g && r->prof) {
		gp = "profile.gp";
		g = wl_run_gnuplot(dir, gp);
	}
	if (g == 127)
		fprintf(stderr, "wl_compare: gnuplot not installed: run 'gnuplot plot.gp'%s in %s for the plots\n",
			r->prof ? " and 'gnuplot profile.gp'" : "", dir);
	else if (g)
		fprintf(stderr, "wl_compare: gnuplot failed (%d) on %s/%s\n",
			g, dir, gp);
	return ret;
}
