// SPDX-License-Identifier: GPL-2.0
/*
 * wl_compare's data model: the placement shares, a cell's row name, and
 * what a run's trials say of themselves.  See wl/compare/model.h.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "wl/compare/model.h"
#include "wl/core/json_read.h"

const struct wl_pmetric_def wl_pmetrics[WL_NR_PM] = {
	[WL_PM_WAKER_CPU] = { "WakerCPU%", "waker_cpu", "waker_cpu",
			      WL_PLACE_TOTAL, "on the waker's CPU", "wakeups" },
	[WL_PM_PREV_CPU] = { "PrevCPU%", "prev_cpu", "prev_cpu",
			     WL_PLACE_TOTAL, "on its previous CPU", "wakeups" },
	[WL_PM_WAKER_LLC] = { "WakerLLC%", "waker_llc", "waker_llc",
			      WL_PLACE_TOTAL, "elsewhere in the waker's LLC",
			      "wakeups" },
	[WL_PM_PREV_LLC] = { "PrevLLC%", "prev_llc", "prev_llc",
			     WL_PLACE_TOTAL,
			     "elsewhere in its previous CPU's LLC", "wakeups" },
	[WL_PM_CROSS_LLC] = { "CrossLLC%", "cross_llc", "cross_llc",
			      WL_PLACE_TOTAL,
			      "in another LLC than its previous CPU's",
			      "wakeups" },
	[WL_PM_RULE_NONE] = { "RuleNone%", "rule_none", WL_PLACE_RULE "none",
			      NULL, "decided with every rule off",
			      "wake_affine() calls" },
	[WL_PM_RULE_IDLE] = { "RuleIdle%", "rule_idle", WL_PLACE_RULE "idle",
			      NULL, "decided by WA_IDLE",
			      "wake_affine() calls" },
	[WL_PM_RULE_WEIGHT] = { "RuleWgt%", "rule_weight",
				WL_PLACE_RULE "weight", NULL,
				"decided by WA_WEIGHT", "wake_affine() calls" },
	[WL_PM_RULE_OLD] = { "RuleOld%", "rule_old", WL_PLACE_RULE "old",
			     NULL, "decided by WA_OLD", "wake_affine() calls" },
	[WL_PM_RULE_POLICY] = { "RulePol%", "rule_policy",
				WL_PLACE_RULE "policy", NULL,
				"decided by the module's policy",
				"wake_affine() calls" },
	[WL_PM_LB_MIGR] = { "LBMigr/1k", "lb_migr", "lb_migr", WL_PLACE_TOTAL,
			    "load-balance migrations (tasks moved while not waking)",
			    "wakeups", 1000 },
};

static double wl_trial_place(const struct wl_trial *t, const char *k)
{
	int i;

	for (i = 0; i < t->nplace; i++)
		if (!strcmp(t->place_key[i], k))
			return t->place_val[i];
	return NAN;
}

double wl_trial_share(const struct wl_trial *t, int k)
{
	const struct wl_pmetric_def *d = &wl_pmetrics[k];
	double num, den = 0;
	int i, rules = 0;

	if (!t->ok || !t->has_wakelab)
		return NAN;
	if (d->den) {
		den = wl_trial_place(t, d->den);
	} else {
		for (i = 0; i < t->nplace; i++)
			if (!strncmp(t->place_key[i], WL_PLACE_RULE,
				     strlen(WL_PLACE_RULE))) {
				den += t->place_val[i];
				rules = 1;
			}
		if (!rules)
			return NAN;
	}
	if (isnan(den) || den <= 0)
		return NAN;
	num = wl_trial_place(t, d->num);
	if (isnan(num))		/* a rule that decided nothing has no row */
		num = d->den ? NAN : 0;
	return num * (d->per ? d->per : 100) / den;
}

int wl_wakelab_workload(const char *wl)
{
	const char *w = wl && *wl == '{' ? wl_json_member(wl, "workload") : NULL;

	return w && *w == '"';
}

double wl_trial_others(const struct wl_trial *t, const char *col)
{
	char key[WL_PLACE_KEY];

	if (!t->ok || !t->workload)
		return NAN;
	snprintf(key, sizeof(key), "%s%s", WL_PLACE_OTHERS, col);
	return wl_trial_place(t, key);
}

int wl_aggregate_ok(double v, char *why, size_t len)
{
	if (isfinite(v) && v >= 0)
		return 1;
	snprintf(why, len, "aggregate %g is %s: not a throughput", v,
		 isfinite(v) ? "negative" : "not finite");
	return 0;
}

int wl_boot_trials(const struct wl_run *r, int b, int c)
{
	int i, n = 0;

	for (i = 0; i < r->ntrial; i++)
		n += r->trial[i].boot == b + 1 && r->trial[i].cell == c &&
		     r->trial[i].ok;
	return n;
}

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

int wl_run_failed(const struct wl_run *r)
{
	int i, f = 0;

	for (i = 0; i < r->ntrial; i++)
		if (r->trial[i].exit_code != -2 && !r->trial[i].ok)
			f++;
	return f;
}
