// SPDX-License-Identifier: GPL-2.0
/* wl_compare's runs and reports: see wl/compare_report.h. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wl/compare.h"
#include "wl/compare_report.h"
#include "wl/json_write.h"

void wl_cell_name(const struct wl_run *r, int c, char *buf,
		  size_t len, int upper)
{
	const struct wl_cell *cl = &r->cell[c];
	char w[32];
	size_t i;

	for (i = 0; r->workload[i] && i < sizeof(w) - 1; i++)
		w[i] = upper ? toupper((unsigned char)r->workload[i]) :
			       r->workload[i];
	w[i] = '\0';
	if (cl->instances)
		snprintf(buf, len, "%s-%d%s%s", w, cl->instances,
			 cl->size[0] ? "-m" : "", cl->size);
	else
		snprintf(buf, len, "%s-%s%s%s", w, cl->inst,
			 cl->size[0] ? "-m" : "", cl->size);
}

static double wl_trial_place(const struct wl_trial *t, const char *k)
{
	int i;

	for (i = 0; i < t->nplace; i++)
		if (!strcmp(t->place_key[i], k))
			return t->place_val[i];
	return NAN;
}

/*
 * Kernel p's boots in cell c: each boot's Hmean into xb (returns how many
 * boots had a successful trial), the CoeffVar of those Hmeans and the
 * pooled within-boot CoeffVar into cs.
 */
static int wl_boot_means(const struct wl_run *r, int p, int c, double *xb,
			 struct wl_cellstat *cs)
{
	double x[WL_STATS_MAX_N], ss = 0, m, bss = 0, all = 0;
	int b, i, n, nb = 0, df = 0, nall = 0;

	for (b = 0; b < r->nboot; b++) {
		if (r->boot[b].kernel != p || !r->boot[b].ok)
			continue;
		for (i = n = 0; i < r->ntrial; i++) {
			const struct wl_trial *t = &r->trial[i];

			if (t->boot == b + 1 && t->cell == c && t->ok &&
			    n < WL_STATS_MAX_N)
				x[n++] = t->aggregate;
		}
		if (!n)
			continue;
		xb[nb++] = wl_hmean(x, n);
		for (i = 0, m = 0; i < n; i++)
			m += x[i] / n;
		for (i = 0; i < n; i++)
			ss += (x[i] - m) * (x[i] - m);
		df += n - 1;
		all += m * n;
		nall += n;
	}
	cs->nboot = nb;
	for (b = 0, m = 0; b < nb; b++)
		m += xb[b] / nb;
	for (b = 0; b < nb; b++)
		bss += (xb[b] - m) * (xb[b] - m);
	cs->boot_cov = nb > 1 && m > 0 ? sqrt(bss / (nb - 1)) * 100 / m : NAN;
	cs->trial_cov = df > 0 && all > 0 ? sqrt(ss / df) * 100 / (all / nall) :
		       NAN;
	return nb;
}

void wl_run_stats(struct wl_run *r)
{
	double x[WL_CMP_MAX_SPECS][WL_STATS_MAX_N];
	double xb[WL_CMP_MAX_SPECS][WL_STATS_MAX_N];
	int p, c, i, n[WL_CMP_MAX_SPECS], nb[WL_CMP_MAX_SPECS];

	for (c = 0; c < r->ncell; c++) {
		for (p = 0; p < r->npol; p++) {
			struct wl_cellstat *cs = &r->st[p][c];
			double tot = 0, wk = 0, cr = 0, avg = 0;
			int have = 0;

			memset(cs, 0, sizeof(*cs));
			n[p] = 0;
			for (i = 0; i < r->ntrial; i++) {
				const struct wl_trial *t = &r->trial[i];

				if (t->policy != p || t->cell != c ||
				    t->exit_code == -2)
					continue;
				if (!t->ok) {
					cs->failed++;
					continue;
				}
				if (n[p] < WL_STATS_MAX_N)
					x[p][n[p]++] = t->aggregate;
				avg += t->instances ?
				       t->aggregate / t->instances : NAN;
				if (t->has_wakelab &&
				    !isnan(wl_trial_place(t, WL_PLACE_TOTAL))) {
					tot += wl_trial_place(t, WL_PLACE_TOTAL);
					wk += wl_trial_place(t, WL_PLACE_WAKER);
					cr += wl_trial_place(t, WL_PLACE_CROSS);
					have = 1;
				}
			}
			wl_summarise(x[p], n[p], &cs->s);
			cs->avg_inst = n[p] ? avg / n[p] : NAN;
			cs->waker_pct = have && tot > 0 ? wk * 100 / tot : NAN;
			cs->cross_pct = have && tot > 0 ? cr * 100 / tot : NAN;
			if (r->nboot)
				nb[p] = wl_boot_means(r, p, c, xb[p], cs);
		}
		for (p = 1; p < r->npol; p++) {
			struct wl_cellstat *cs = &r->st[p][c];

			if (r->nboot && (nb[0] < 1 || nb[p] < 1))
				continue;
			if (n[0] < 1 || n[p] < 1)
				continue;
			if (r->nboot)
				wl_perm_test(xb[0], nb[0], xb[p], nb[p],
					     r->max_exact, r->nrand,
					     r->seed + c * r->npol + p, &cs->perm);
			else
				wl_perm_test(x[0], n[0], x[p], n[p],
					     r->max_exact, r->nrand,
					     r->seed + c * r->npol + p,
					     &cs->perm);
			cs->tested = 1;
			cs->sig = cs->perm.p <= r->alpha;
		}
	}
}

int wl_run_failed(const struct wl_run *r)
{
	int i, f = 0;

	for (i = 0; i < r->ntrial; i++)
		if (r->trial[i].exit_code != -2 && !r->trial[i].ok)
			f++;
	return f;
}

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

/* mmtests cell: "  12345.67 (  -1.23%)" or "  12345.67 *  -1.23%*". */
static void wl_put_cell(FILE *f, int w, double v, double pct, int sig)
{
	char b[64];

	if (isnan(v))
		snprintf(b, sizeof(b), "NaN");
	else
		snprintf(b, sizeof(b), "%.2f", v);
	fprintf(f, " %*s", w, b);
	if (isnan(pct))
		fprintf(f, " (%8s)", "NaN");
	else
		fprintf(f, " %c%7.2f%%%c", sig ? '*' : '(', pct,
			sig ? '*' : ')');
}

/* Boots of kernel p that gave results. */
static int wl_kernel_boots(const struct wl_run *r, int p)
{
	int b, n = 0;

	for (b = 0; b < r->nboot; b++)
		n += r->boot[b].kernel == p && r->boot[b].ok;
	return n;
}

/* A kernel comparison's kernels, its boot schedule and its unit. */
static void wl_print_kernels(FILE *f, const struct wl_run *r)
{
	int b, p, w = wl_col_width(r) - 2;

	fprintf(f, "# kernels (first = baseline) = release; preemption; what it is:\n");
	for (p = 0; p < r->npol; p++)
		fprintf(f, "#   %-*s = %s %s; %s; %s\n", w, r->spec[p].label,
			r->kenv[p].release[0] ? r->kenv[p].release : "?",
			r->kenv[p].version, r->kenv[p].preempt[0] ?
			r->kenv[p].preempt : "?",
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
	      "#   spread between a kernel's boots, TrialCoV% the spread within a boot.\n", f);
}

static void wl_print_header(FILE *f, const struct wl_run *r)
{
	const struct wl_env *e = &r->env;
	int i, p, pmin = 1 << 30;
	double minp;

	if (r->nboot)
		fprintf(f, "# wl_compare: kernels across boots: %s, %d kernels x %d cells, %d boots, %d trials per cell a boot, %g s windows%s%s\n",
			r->workload, r->npol, r->ncell, r->nboot, r->rounds,
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
	if (strstr(e->mode_how, "tcg-single"))
		fputs("# NOTE: single-threaded TCG runs one vCPU at a time: cross-CPU wakeups wait for\n"
		      "#       the emulator's round robin (scripts/vm --tcg multi runs them in parallel).\n",
		      f);
	fprintf(f, "# wakelab module: %s\n", e->module ?
		"loaded (placement mix from its counters)" :
		"absent (no placement mix)");
	if (r->nboot)
		fprintf(f, "# boot order: balanced (scripts/compare), seed %llu; verdict: two-sided permutation test of the boots' Hmeans, alpha %g\n",
			(unsigned long long)r->seed, r->alpha);
	else
		fprintf(f, "# order: %s per round, seed %llu; verdict: two-sided permutation test of the Hmeans, alpha %g\n",
			r->order, (unsigned long long)r->seed, r->alpha);
	for (p = 0; p < r->npol; p++)
		for (i = 0; i < r->ncell; i++) {
			int k = r->nboot ? wl_kernel_boots(r, p) : r->st[p][i].s.n;

			if (k < pmin)
				pmin = k;
		}
	if (pmin < (1 << 30)) {
		minp = wl_perm_min_p(pmin, pmin);
		if (minp > r->alpha)
			fprintf(f, "# WARNING: with %d %s per %s the smallest attainable p is %.3f > %g:\n"
				"#          no difference can be called significant; use more %s.\n",
				pmin, r->nboot ? "boots" : "trials",
				r->nboot ? "kernel" : "cell", minp, r->alpha,
				r->nboot ? "boots" : "trials");
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

	wl_print_heads(f, r, w, "Spread");
	for (row = 0; row < 3; row++) {
		for (c = 0; c < r->ncell; c++) {
			wl_cell_name(r, c, name, sizeof(name), 0);
			fprintf(f, "%-9s %-22s", row == 0 ? "Boots" : row == 1 ?
				"BootCoV%" : "TrialCoV%", name);
			for (p = 0; p < r->npol; p++) {
				const struct wl_cellstat *cs = &r->st[p][c];
				double v = row == 1 ? cs->boot_cov : cs->trial_cov;
				char b[32];

				if (row == 0)
					snprintf(b, sizeof(b), "%d", cs->nboot);
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

void wl_print_table(FILE *f, const struct wl_run *r)
{
	static const char * const rn[WL_NR_ROWS] = {
		"Min", "Hmean", "Stddev", "CoeffVar", "Max" };
	int row, c, p, w = wl_col_width(r);
	char name[64];

	wl_print_header(f, r);
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
					    row == WL_ROW_HMEAN && cs->sig);
			}
			fputc('\n', f);
		}
	}

	if (r->nboot)
		wl_print_spread(f, r, w);

	wl_print_heads(f, r, w, "p-value");
	for (c = 0; c < r->ncell; c++) {
		wl_cell_name(r, c, name, sizeof(name), 0);
		fprintf(f, "%-9s %-22s", "Perm", name);
		for (p = 0; p < r->npol; p++) {
			const struct wl_cellstat *cs = &r->st[p][c];
			char b[64];

			if (!p)
				snprintf(b, sizeof(b), "baseline");
			else if (!cs->tested)
				snprintf(b, sizeof(b), "-");
			else
				snprintf(b, sizeof(b), "%.4f %s%s", cs->perm.p,
					 cs->perm.exact ? "exact" : "sampled",
					 cs->sig ? " *" : "  ");
			fprintf(f, " %*s", w + 11, b);
		}
		fputc('\n', f);
	}

	wl_print_heads(f, r, w, "Placement");
	for (row = 0; row < 2; row++) {
		for (c = 0; c < r->ncell; c++) {
			wl_cell_name(r, c, name, sizeof(name), 0);
			fprintf(f, "%-9s %-22s", row ? "CrossLLC%" : "WakerCPU%",
				name);
			for (p = 0; p < r->npol; p++) {
				double v = row ? r->st[p][c].cross_pct :
						 r->st[p][c].waker_pct;
				char b[32];

				if (isnan(v))
					snprintf(b, sizeof(b), "-");
				else
					snprintf(b, sizeof(b), "%.2f", v);
				fprintf(f, " %*s", w + 11, b);
			}
			fputc('\n', f);
		}
	}
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
			wl_cell_name(r, c, name, sizeof(name), 1);
			if (isnan(r->st[p][c].avg_inst))
				fprintf(f, "%s : Avg: NaN\n", name);
			else
				fprintf(f, "%s : Avg: %.1f\n", name,
					r->st[p][c].avg_inst);
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
	fputs("}", f);
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

void wl_print_json(FILE *f, const struct wl_run *r)
{
	int p, c, i, first;

	fputs("{\"tool\":\"wl_compare\",\"version\":2,\"workload\":", f);
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
	fputs("\"env\":", f);
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
			fprintf(f, "\"exact\":%s,\"significant\":%s,",
				cs->tested && cs->perm.exact ? "true" : "false",
				cs->sig ? "true" : "false");
			wl_put_kv_num(f, "waker_cpu_pct", cs->waker_pct, 1);
			wl_put_kv_num(f, "cross_llc_pct", cs->cross_pct, 1);
			fprintf(f, "\"boots\":%d,", cs->nboot);
			wl_put_kv_num(f, "boot_cov", r->nboot ? cs->boot_cov : NAN, 1);
			wl_put_kv_num(f, "trial_cov", r->nboot ? cs->trial_cov : NAN, 0);
			fputc('}', f);
		}
	}
	fputs("],\"trials\":[", f);
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

void wl_print_plot_data(FILE *f, const struct wl_run *r)
{
	int p, c;

	fprintf(f, "# wl_compare %s (%s): instances hmean stddev min max\n",
		r->workload, r->unit);
	for (p = 0; p < r->npol; p++) {
		fprintf(f, "%s# policy %d: %s = %s\n", p ? "\n\n" : "", p,
			r->spec[p].label, r->spec[p].text);
		for (c = 0; c < r->ncell; c++) {
			const struct wl_summary *s = &r->st[p][c].s;

			if (!s->n || !r->cell[c].instances)
				continue;
			fprintf(f, "%d %.4f %.4f %.4f %.4f\n",
				r->cell[c].instances, s->hmean,
				isnan(s->stddev) ? 0 : s->stddev, s->min,
				s->max);
		}
	}
}

void wl_print_plot_script(FILE *f, const struct wl_run *r)
{
	int p;

	fprintf(f, "# gnuplot script written by wl_compare; run: gnuplot plot.gp\n");
	fprintf(f, "set terminal png size 960,600\nset output 'plot.png'\n");
	fprintf(f, "set title \"%s: Hmean of %d trials, bars: stddev (%s %s%s)\" noenhanced\n",
		r->workload, r->rounds, r->env.release, r->env.mode,
		!strcmp(r->env.mode, "TCG") ? ", emulator-dominated" : "");
	fprintf(f, "set xlabel 'instances'\nset ylabel '%s'\n", r->unit);
	fprintf(f, "set logscale x 2\nset key below noenhanced\n");
	fprintf(f, "set grid\nset yrange [0:*]\nset offsets graph 0.05, graph 0.05, 0, 0\n");
	fprintf(f, "plot ");
	for (p = 0; p < r->npol; p++)
		fprintf(f, "%s'plot.dat' index %d using 1:2:3 with yerrorlines lw 2 title '%s'",
			p ? ", \\\n     " : "", p, r->spec[p].label);
	fputc('\n', f);
}

static int wl_run_gnuplot(const char *dir)
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
		execlp("gnuplot", "gnuplot", "plot.gp", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int wl_write_file_with(const char *dir, const char *name,
			      void (*fn)(FILE *, const struct wl_run *))
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
	fn(f, &wl_cmp_run);
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

int wl_cmp_write_out(const char *dir)
{
	int ret = 0, g;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "wl_compare: mkdir %s: %s\n", dir,
			strerror(errno));
		return -1;
	}
	ret |= wl_write_file_with(dir, "report.txt", wl_print_report);
	ret |= wl_write_file_with(dir, "results.json", wl_print_json);
	ret |= wl_write_file_with(dir, "plot.dat", wl_print_plot_data);
	ret |= wl_write_file_with(dir, "plot.gp", wl_print_plot_script);
	g = wl_run_gnuplot(dir);
	if (g == 127)
		fprintf(stderr, "wl_compare: gnuplot not installed: run 'gnuplot plot.gp' in %s for plot.png\n",
			dir);
	else if (g)
		fprintf(stderr, "wl_compare: gnuplot failed (%d) on %s/plot.gp\n",
			g, dir);
	return ret;
}
