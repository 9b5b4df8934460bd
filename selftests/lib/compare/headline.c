// SPDX-License-Identifier: GPL-2.0
/*
 * wl_compare's headline: the report's verdict in words above its table;
 * see wl/compare/headline.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl/compare/headline.h"

/* " (p 0.0079, Holm 0.0317)" */
static int wl_head_p(char *b, size_t len, double p, double adj)
{
	return snprintf(b, len, " (p %.4f, Holm %.4f)", p, adj);
}

/* Shares a headline names; the others are counted. */
#define WL_HEAD_SHARES	2

/*
 * The significant placement shares of (p, c): the waker-CPU share first,
 * then the other placement shares, then the rule shares, each by the size
 * of its shift, WL_HEAD_SHARES of them in words; a share that is the same
 * test as a named one (wl_pstat.same_as) is named beside it, not counted
 * apart.  Each is the mean over the test's units of their shares, so "on
 * average per trial" (per boot in a kernel comparison).  Returns how many
 * distinct tests are significant.
 */
static int wl_head_place(char *b, size_t len, const struct wl_run *r,
			 int p, int c)
{
	const struct wl_cellstat *cs = &r->st[p][c], *bs = &r->st[0][c];
	const char *per = r->nboot ? "on average per boot" :
			  "on average per trial";
	int k, i, j, t, n = 0, idx[WL_NR_PM];
	double shift[WL_NR_PM];
	size_t o = 0;

	for (k = 0; k < WL_NR_PM; k++) {
		if (!cs->pl[k].sig || cs->pl[k].same_as >= 0)
			continue;
		/*
		 * Where wakees went before which rule decided: a spec's
		 * features decide the latter by construction.
		 */
		shift[k] = k == WL_PM_WAKER_CPU ? INFINITY :
			   fabs(cs->pl[k].mean - bs->pl[k].mean) +
			   (wl_pmetrics[k].den ? 1000 : 0);
		for (i = n++; i > 0 && shift[idx[i - 1]] < shift[k]; i--)
			idx[i] = idx[i - 1];
		idx[i] = k;
	}
	b[0] = '\0';
	for (j = 0; j < n && j < WL_HEAD_SHARES && o < len; j++) {
		const struct wl_pmetric_def *d = &wl_pmetrics[idx[j]];
		const struct wl_pstat *ps = &cs->pl[idx[j]];

		t = d->per ? snprintf(b + o, len - o, "%s%.1f %s per %d %s %s vs %.1f%s%s",
				      j ? ", " : "has ", ps->mean, d->words,
				      d->per, d->of, per, bs->pl[idx[j]].mean,
				      j ? "" : " with ", j ? "" : r->spec[0].label) :
		    d->den ? snprintf(b + o, len - o, "%s%s in %.1f %% of %s %s vs %.1f %%%s%s",
				      j ? ", " : "places the wakee ", d->words,
				      ps->mean, d->of, per, bs->pl[idx[j]].mean,
				      j ? "" : " with ", j ? "" : r->spec[0].label) :
			     snprintf(b + o, len - o, "%s%.1f %% of %s %s %s vs %.1f %%%s%s",
				      j ? ", " : "has ", ps->mean, d->of, d->words,
				      per, bs->pl[idx[j]].mean, j ? "" : " with ",
				      j ? "" : r->spec[0].label);
		if (t > 0)
			o += t;
		if (o < len)
			o += snprintf(b + o, len - o, " (p %.4f, Holm %.4f",
				      ps->perm.p, ps->padj);
		for (k = 0; k < WL_NR_PM && o < len; k++)
			if (cs->pl[k].same_as == idx[j])
				o += snprintf(b + o, len - o, "; %s is the same test, a constant %s it",
					      wl_pmetrics[k].row,
					      cs->pl[k].same_sign < 0 ?
					      "minus" : "plus");
		if (o < len)
			o += snprintf(b + o, len - o, ")");
	}
	if (n > WL_HEAD_SHARES && o < len)
		snprintf(b + o, len - o, " and %d more share%s (see the table)",
			 n - WL_HEAD_SHARES, n - WL_HEAD_SHARES > 1 ?
			 "s differ" : " differs");
	return n;
}

static void wl_head_tput(char *b, size_t len, const struct wl_run *r,
			 int p, int c, int tcg)
{
	const struct wl_cellstat *cs = &r->st[p][c];
	int o;

	if (!cs->tested) {
		snprintf(b, len, "throughput not compared (no successful trials on a side)");
		return;
	}
	o = snprintf(b, len, "throughput %+.1f %%%s, %s",
		     wl_pdiff(r->st[0][c].s.hmean, cs->s.hmean),
		     tcg ? " (the emulator's)" : "",
		     cs->sig ? "significant" : "not significant");
	if (o > 0 && (size_t)o < len)
		wl_head_p(b + o, len - o, cs->perm.p, cs->padj);
}

static int wl_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* "about +-4.1 (1.2-9.0 by cell)" of n values, sorted in place. */
static void wl_head_range(FILE *f, double *v, int n, const char *unit)
{
	qsort(v, n, sizeof(*v), wl_cmp_double);
	fprintf(f, "about +-%.1f%s", v[n / 2], unit);
	if (n > 1 && v[0] != v[n - 1])
		fprintf(f, " (%.1f-%.1f%s by cell)", v[0], v[n - 1], unit);
}

/* Nothing differs: say so, and what the run could have seen. */
static void wl_head_none(FILE *f, const struct wl_run *r)
{
	static double tp[WL_CMP_MAX_SPECS * WL_MAX_CELLS];
	static double pl[WL_CMP_MAX_SPECS * WL_MAX_CELLS];
	double level = r->ntests ? r->alpha / r->ntests : r->alpha;
	int c, p, nt = 0, np = 0;

	if (!r->ntests) {
		fputs("  nothing was compared: no cell has results on both sides.\n",
		      f);
		return;
	}
	fprintf(f, "  no difference after Holm's correction over %d tests (alpha %g).\n",
		r->ntests, r->alpha);
	if (r->minp > level) {
		fprintf(f, "  None could have been found: the smallest exact p these samples allow,\n"
			"  %.4f, is above Holm's first threshold %.4f.\n", r->minp,
			level);
		return;
	}
	for (c = 0; c < r->ncell; c++)
		for (p = 1; p < r->npol; p++) {
			const struct wl_cellstat *b = &r->st[p][c];

			if (!isnan(b->detect))
				tp[nt++] = b->detect;
			if (!isnan(b->pl[WL_PM_WAKER_CPU].detect))
				pl[np++] = b->pl[WL_PM_WAKER_CPU].detect;
		}
	if (!nt && !np)
		return;
	fprintf(f, "  Detectable, simulated (%d runs resampling this run's %s with a planted shift,\n"
		"  the same permutation test; found in %.0f %% of them at Holm's first threshold %.4f):\n",
		WL_POWER_SIMS, r->nboot ? "boots" : "trials", WL_POWER * 100,
		level);
	if (nt) {
		fputs("    throughput changes of ", f);
		wl_head_range(f, tp, nt, " %");
		fputc('\n', f);
	}
	if (np) {
		fputs("    shifts of the waker-CPU share of ", f);
		wl_head_range(f, pl, np, " points");
		fputc('\n', f);
	}
}

void wl_print_headline(FILE *f, const struct wl_run *r)
{
	static char place[2048], tput[256];
	int tcg = !strcmp(r->env.mode, "TCG"), c, p, n, any = 0;
	char name[64];

	fprintf(f, "\nHeadline (%s; marks after Holm's correction):\n",
		tcg ? "TCG: placement first, the kernel's own decisions; throughput is the emulator's" :
		"throughput first, then placement");
	for (c = 0; c < r->ncell; c++)
		for (p = 1; p < r->npol; p++) {
			n = wl_head_place(place, sizeof(place), r, p, c);
			if (!n && !r->st[p][c].sig)
				continue;
			any = 1;
			if (!n)
				snprintf(place, sizeof(place), "%s",
					 r->has_pm[WL_PM_WAKER_CPU] ?
					 "no placement share differs" :
					 "placement not measured (no wakelab.ko)");
			wl_head_tput(tput, sizeof(tput), r, p, c, tcg);
			wl_cell_name(r, c, name, sizeof(name), 0);
			fprintf(f, "  %s: %s %s; %s.\n", name,
				r->spec[p].label, tcg ? place : tput,
				tcg ? tput : place);
		}
	if (!any)
		wl_head_none(f, r);
}
