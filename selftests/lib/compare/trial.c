// SPDX-License-Identifier: GPL-2.0
/*
 * wl_compare's trials: each spec applied live, wl_stream run as a child and
 * its JSON read back; the spec checks before the run and the restore of
 * the original settings after it.  See wl/compare/trial.h.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wl/compare/run.h"
#include "wl/compare/state.h"
#include "wl/compare/trial.h"
#include "wl/core/clock.h"
#include "wl/core/file.h"
#include "wl/core/json_read.h"
#include "wl/core/proc.h"
#include "wl/core/text.h"

/* The state file this run wrote (removed once the settings are back). */
static const char *wl_cmp_state_saved;

static void wl_add_counter(struct wl_trial *t, const char *key, double d)
{
	int i;

	for (i = 0; i < t->nplace; i++)
		if (!strcmp(t->place_key[i], key))
			break;
	if (i == WL_MAX_PLACE)
		return;
	if (i == t->nplace) {
		snprintf(t->place_key[i], WL_PLACE_KEY, "%s", key);
		t->place_val[i] = 0;
		t->nplace++;
	}
	t->place_val[i] += d;
}

/*
 * A member of "placement": either a counter, or a record (one per module
 * policy row: {"wakeups":d,"waker_cpu":d,...}) whose counters are summed.
 */
static void wl_add_place(struct wl_trial *t, const char *key, const char *v)
{
	const char *it = NULL, *cv;
	char col[WL_PLACE_KEY];
	double d;

	if (!wl_json_number(v, &d)) {
		wl_add_counter(t, key, d);
		return;
	}
	if (*v != '{')
		return;
	while ((cv = wl_json_next_member(&it, v, col, sizeof(col))))
		if (!wl_json_number(cv, &d))
			wl_add_counter(t, col, d);
}

/*
 * wakelab's "decisions" ({"idle":{"calls":d,"waker":d},...}): each rule's
 * calls as the counter "rule.<rule>".
 */
static void wl_add_rules(struct wl_trial *t, const char *dec)
{
	const char *it = NULL, *v;
	char rule[WL_PLACE_KEY - sizeof(WL_PLACE_RULE)];
	char key[WL_PLACE_KEY];
	double d;

	if (!dec || *dec != '{')
		return;
	while ((v = wl_json_next_member(&it, dec, rule, sizeof(rule)))) {
		if (*v != '{' || wl_json_number(wl_json_member(v, "calls"), &d))
			continue;
		snprintf(key, sizeof(key), "%s%s", WL_PLACE_RULE, rule);
		wl_add_counter(t, key, d);
	}
}

/*
 * wakelab's "placement_others" (one record per policy row): the wakeups
 * and waker-CPU placements of every task outside the workload, summed, as
 * "others.wakeups" and "others.waker_cpu".
 */
static void wl_add_others(struct wl_trial *t, const char *po)
{
	static const char * const cols[] = { "wakeups", "waker_cpu" };
	const char *it = NULL, *rec;
	char row[WL_PLACE_KEY], key[WL_PLACE_KEY];
	unsigned int i;
	double d;

	if (!po || *po != '{')
		return;
	for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		snprintf(key, sizeof(key), "%s%s", WL_PLACE_OTHERS, cols[i]);
		wl_add_counter(t, key, 0);
	}
	while ((rec = wl_json_next_member(&it, po, row, sizeof(row)))) {
		for (i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
			if (wl_json_number(wl_json_member(rec, cols[i]), &d))
				continue;
			snprintf(key, sizeof(key), "%s%s", WL_PLACE_OTHERS,
				 cols[i]);
			wl_add_counter(t, key, d);
		}
	}
}

/* Parse wl_stream's JSON into the trial. */
static void wl_read_result(struct wl_trial *t, char *out)
{
	const char *v, *wl, *pl, *it = NULL;
	char key[WL_PLACE_KEY];
	double d;

	while (*out && (out[strlen(out) - 1] == '\n'))
		out[strlen(out) - 1] = '\0';
	if (!wl_json_valid_object(out)) {
		snprintf(t->err, sizeof(t->err),
			 "wl_stream printed no valid JSON object");
		return;
	}
	t->raw = strdup(out);
	if (wl_json_number(wl_json_member(out, "aggregate"), &t->aggregate)) {
		snprintf(t->err, sizeof(t->err), "no numeric \"aggregate\"");
		return;
	}
	/* A negative or non-finite throughput is a failed trial. */
	if (!wl_aggregate_ok(t->aggregate, t->err, sizeof(t->err)))
		return;
	if (!wl_json_number(wl_json_member(out, "instances"), &d))
		t->instances = (int)d;
	wl_json_string(wl_json_member(out, "unit"), t->unit, sizeof(t->unit));
	if (wl_json_string(wl_json_member(out, "integrity"), t->integrity,
			   sizeof(t->integrity))) {
		snprintf(t->err, sizeof(t->err), "no \"integrity\" string");
		return;
	}
	wl = wl_json_member(out, "wakelab");
	pl = wl && *wl == '{' ? wl_json_member(wl, "placement") : NULL;
	if (pl && *pl == '{') {
		t->has_wakelab = 1;
		while ((v = wl_json_next_member(&it, pl, key, sizeof(key))))
			wl_add_place(t, key, v);
		wl_add_rules(t, wl_json_member(wl, "decisions"));
		t->workload = wl_wakelab_workload(wl);
		if (t->workload)
			wl_add_others(t, wl_json_member(wl, "placement_others"));
	}
	if (strcmp(t->integrity, "ok")) {
		snprintf(t->err, sizeof(t->err), "integrity \"%s\"",
			 t->integrity);
		return;
	}
	t->ok = t->exit_code == 0;
	if (!t->ok)
		snprintf(t->err, sizeof(t->err), "wl_stream exit %d",
			 t->exit_code);
}

/*
 * A trial's wl_stream command line into @argv (WL_MAX_ARGS): the runner,
 * the workload, the cell's count and size, the window (@dur), its profile
 * directory (@prof, with --profile), the options after "--", then the
 * spec's arg= items.
 */
static void wl_trial_argv(const struct wl_cmp_opts *o,
			  const struct wl_trial *t, char *dur, size_t dlen,
			  char *prof, size_t plen, bool profile, char **argv)
{
	const struct wl_spec *sp = &wl_cmp_run.spec[t->policy];
	const struct wl_cell *c = &wl_cmp_run.cell[t->cell];
	int argc = 0, i;

	snprintf(dur, dlen, "%g", wl_cmp_run.duration);
	argv[argc++] = (char *)o->runner;
	argv[argc++] = "--json";
	argv[argc++] = "-w";
	argv[argc++] = wl_cmp_run.workload;
	argv[argc++] = "-n";
	argv[argc++] = (char *)c->inst;
	argv[argc++] = "-l";
	argv[argc++] = dur;
	if (c->size[0]) {
		argv[argc++] = "-m";
		argv[argc++] = (char *)c->size;
	}
	if (profile) {
		snprintf(prof, plen, "%s/trial-%04d", o->profile, t->seq);
		argv[argc++] = "--profile";
		argv[argc++] = prof;
	}
	for (i = 0; i < o->nextra && argc < WL_MAX_ARGS - 2; i++)
		argv[argc++] = o->extra[i];
	for (i = 0; i < sp->nitems && argc < WL_MAX_ARGS - 1; i++)
		if (sp->items[i].kind == WL_IT_ARG)
			argv[argc++] = (char *)sp->items[i].value;
	argv[argc] = NULL;
}

/*
 * Run wl_stream for its JSON on stdout (its stderr is ours), in a process
 * group of its own that dies with wl_compare, ended on the trial timeout
 * or a stop (SIGTERM, SIGKILL after WL_KILL_GRACE_MS); reading stops once
 * it has exited.  0, or -1 with the reason in @t when it could not start.
 */
static int wl_trial_capture(const struct wl_cmp_opts *o, struct wl_trial *t,
			    char **argv, char *out,
			    struct wl_capture_opts *co)
{
	*co = (struct wl_capture_opts){
		.timeout_s = o->timeout,
		.stop = &wl_cmp_stop,
		.grace_ms = WL_KILL_GRACE_MS,
		.own_group = true,
		.stdout_only = true,
		.until_exit = true,
		.prog = "wl_compare",
	};
	fflush(NULL);
	wl_capture_with(argv[0], argv, out, WL_MAX_OUTPUT + 1, co);
	if (co->ran)
		return 0;
	t->exit_code = -1;
	if (co->fork_errno)
		snprintf(t->err, sizeof(t->err), "fork: %s",
			 strerror(co->fork_errno));
	else
		snprintf(t->err, sizeof(t->err), "out of resources");
	return -1;
}

/* What came of a trial: its exit code, and its result or why none. */
static void wl_trial_classify(const struct wl_cmp_opts *o,
			      struct wl_trial *t,
			      const struct wl_capture_opts *co, char *out)
{
	if (wl_cmp_stop) {
		t->exit_code = -1;
		snprintf(t->err, sizeof(t->err), "interrupted");
	} else if (co->timed_out) {
		t->exit_code = -1;
		snprintf(t->err, sizeof(t->err), "timed out after %.0f s",
			 o->timeout);
	} else if (WIFEXITED(co->status)) {
		t->exit_code = WEXITSTATUS(co->status);
		wl_read_result(t, out);
		if (!t->ok && !t->err[0])
			snprintf(t->err, sizeof(t->err), "wl_stream exit %d",
				 t->exit_code);
	} else {
		t->exit_code = -1;
		snprintf(t->err, sizeof(t->err), "wl_stream killed by signal %d",
			 WTERMSIG(co->status));
	}
}

/* Whether files @a and @b have the same bytes (1), differ (0), or -1. */
static int wl_same_file(const char *a, const char *b)
{
	char x[8192], y[8192];
	FILE *fa = fopen(a, "r"), *fb = fopen(b, "r");
	size_t na, nb;
	int same = -1;

	if (fa && fb) {
		do {
			na = fread(x, 1, sizeof(x), fa);
			nb = fread(y, 1, sizeof(y), fb);
		} while (na == nb && na && !memcmp(x, y, na));
		same = na == nb && !na && !ferror(fa) && !ferror(fb);
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/*
 * Every trial's profile copies /proc/kallsyms: keep one, --profile's
 * DIR/kallsyms; a copy that differs (a module loaded since) stays with its
 * trial, in @prof.
 */
static void wl_trial_kallsyms(const struct wl_cmp_opts *o, const char *prof)
{
	char mine[PATH_MAX + 16], one[PATH_MAX + 16];

	snprintf(mine, sizeof(mine), "%s/kallsyms", prof);
	snprintf(one, sizeof(one), "%s/kallsyms", o->profile);
	if (access(mine, F_OK))
		return;
	if (access(one, F_OK)) {
		if (rename(mine, one))
			fprintf(stderr, "wl_compare: keeping %s as %s: %s\n",
				mine, one, strerror(errno));
		return;
	}
	if (wl_same_file(mine, one) == 1 && unlink(mine))
		fprintf(stderr, "wl_compare: removing %s: %s\n", mine,
			strerror(errno));
}

/*
 * Run one trial's wl_stream, profiled when @profile (--profile); fills
 * exit_code and the parsed result.
 */
static void wl_run_trial(const struct wl_cmp_opts *o, struct wl_trial *t,
			 bool profile)
{
	char dur[32], prof[PATH_MAX], *argv[WL_MAX_ARGS], *out;
	struct wl_capture_opts co;
	double start = wl_now();

	wl_trial_argv(o, t, dur, sizeof(dur), prof, sizeof(prof), profile, argv);
	out = calloc(1, WL_MAX_OUTPUT + 1);
	if (!out) {
		snprintf(t->err, sizeof(t->err), "out of resources");
		t->exit_code = -1;
		return;
	}
	if (!wl_trial_capture(o, t, argv, out, &co)) {
		t->elapsed = wl_now() - start;
		wl_trial_classify(o, t, &co, out);
	}
	if (profile)
		wl_trial_kallsyms(o, prof);
	free(out);
}

static void wl_fmt_eta(char *buf, size_t len, double s)
{
	if (s >= 3600)
		snprintf(buf, len, "%dh%02dm", (int)(s / 3600),
			 (int)(s / 60) % 60);
	else
		snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)s % 60);
}

/* Restore, verify, and say so; returns 0 when restored (or nothing to). */
int wl_cmp_restore(void)
{
	char err[512];

	if (!wl_cmp_state.nset) {
		wl_cmp_run.restored = -1;
		return 0;
	}
	if (wl_spec_restore(&wl_cmp_state, err, sizeof(err))) {
		/* One more attempt: a transient write error must not stick. */
		if (wl_spec_restore(&wl_cmp_state, err, sizeof(err))) {
			fprintf(stderr, "wl_compare: RESTORE FAILED: %s\n",
				err);
			wl_cmp_run.restored = 0;
			return -1;
		}
	}
	wl_cmp_run.restored = 1;
	return 0;
}

/*
 * On the way out, once settings may have been changed: the state file goes
 * when the last restore worked, else it stays for --restore.  Returns @ret.
 */
int wl_cmp_finish(int ret)
{
	if (!wl_cmp_state_saved)
		return ret;
	if (wl_cmp_run.restored == 1) {
		if (unlink(wl_cmp_state_saved)) {
			fprintf(stderr, "wl_compare: removing %s: %s\n",
				wl_cmp_state_saved, strerror(errno));
			return ret ? ret : 1;
		}
	} else {
		fprintf(stderr, "wl_compare: the original settings stay saved in %s: 'wl_compare --restore' puts them back\n",
			wl_cmp_state_saved);
	}
	return ret;
}

/* --restore: put back the originals a killed run left in the state file. */
int wl_cmp_restore_saved(const struct wl_cmp_opts *o)
{
	char err[512];
	int pid;

	if (wl_state_load(&wl_cmp_state, o->state_path, &pid, err, sizeof(err))) {
		fprintf(stderr, "wl_compare: --restore: %s\n", err);
		return 2;
	}
	if (pid != getpid() && wl_proc_running(pid, "wl_compare")) {
		fprintf(stderr, "wl_compare: --restore: the run that saved %s (pid %d) is still going: stop it (it restores on SIGTERM) or let it finish\n",
			o->state_path, pid);
		return 2;
	}
	if (wl_spec_restore(&wl_cmp_state, err, sizeof(err))) {
		fprintf(stderr, "wl_compare: --restore: RESTORE FAILED: %s; %s kept\n",
			err, o->state_path);
		return 1;
	}
	if (unlink(o->state_path)) {
		fprintf(stderr, "wl_compare: --restore: settings restored, but removing %s: %s\n",
			o->state_path, strerror(errno));
		return 1;
	}
	printf("wl_compare: restored %d setting%s saved by pid %d in %s (verified), removed it\n",
	       wl_cmp_state.nset, wl_cmp_state.nset == 1 ? "" : "s", pid, o->state_path);
	return 0;
}

/*
 * --profile's cost: in its first WL_CMP_PROF_COST_ROUNDS rounds a
 * baseline trial that succeeded is run again at once without perf, its
 * throughput kept beside the profiled one's (wl_run.cost), not a trial of
 * the comparison.
 */
static void wl_cost_twin(const struct wl_cmp_opts *o, const struct wl_trial *t)
{
	struct wl_prof_cost *pc = &wl_cmp_run.cost[t->cell];
	struct wl_trial *twin;

	if (!o->profile[0] || t->policy || !t->ok ||
	    t->round > WL_CMP_PROF_COST_ROUNDS || wl_cmp_stop ||
	    pc->n >= WL_CMP_PROF_COST_ROUNDS)
		return;
	twin = malloc(sizeof(*twin));
	if (!twin)
		return;
	*twin = *t;
	twin->raw = NULL;
	twin->err[0] = '\0';
	wl_run_trial(o, twin, false);
	if (twin->ok) {
		pc->on[pc->n] = t->aggregate;
		pc->off[pc->n] = twin->aggregate;
		pc->n++;
	}
	free(twin->raw);
	free(twin);
}

int wl_cmp_profile_dir(const struct wl_cmp_opts *o)
{
	char path[sizeof(o->profile)], *p;
	struct stat sb;

	if (!o->profile[0])
		return 0;
	snprintf(path, sizeof(path), "%s", o->profile);
	for (p = path + 1; ; p++) {
		if (*p && *p != '/')
			continue;
		if (p[-1] != '/') {
			char c = *p;

			*p = '\0';
			if (mkdir(path, 0755) && errno != EEXIST)
				break;
			*p = c;
		}
		if (!*p)
			break;
	}
	if (stat(o->profile, &sb) || access(o->profile, W_OK)) {
		fprintf(stderr, "wl_compare: --profile %s: %s\n", o->profile,
			strerror(errno));
		return WL_EXIT_USAGE;
	}
	if (!S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "wl_compare: --profile %s: not a directory\n",
			o->profile);
		return WL_EXIT_USAGE;
	}
	return 0;
}

void wl_cmp_run_all(const struct wl_cmp_opts *o)
{
	double t0 = wl_now(), per;
	char name[64], eta[32], err[512];
	int i, applied = -1, done = 0;

	for (i = 0; i < wl_cmp_run.ntrial && !wl_cmp_stop; i++) {
		struct wl_trial *t = &wl_cmp_run.trial[i];

		if (t->policy != applied && wl_cmp_state.nset) {
			if (wl_spec_apply(&wl_cmp_state, &wl_cmp_run.spec[t->policy], err,
					  sizeof(err))) {
				t->exit_code = -1;
				wl_fmt(t->err, sizeof(t->err), "apply: %s", err);
				fprintf(stderr, "wl_compare: applying '%s': %s\n",
					wl_cmp_run.spec[t->policy].text, err);
				applied = -1;
				done++;
				continue;
			}
			applied = t->policy;
		}
		t->start = wl_now() - t0;
		wl_run_trial(o, t, o->profile[0]);
		done++;
		wl_cost_twin(o, t);
		if (t->exit_code == WL_EXIT_SKIP) {
			fprintf(stderr, "wl_compare: wl_stream skipped (exit 4): the workload is unsupported here\n");
			t->exit_code = -2;
			wl_cmp_stop = -WL_EXIT_SKIP;
			break;
		}
		if (t->ok && t->instances &&
		    t->instances != wl_cmp_run.cell[t->cell].instances)
			fprintf(stderr, "wl_compare: warning: wl_stream resolved '%s' to %d instances, expected %d\n",
				wl_cmp_run.cell[t->cell].inst, t->instances,
				wl_cmp_run.cell[t->cell].instances);
		if (t->ok && !wl_cmp_run.unit[0])
			snprintf(wl_cmp_run.unit, sizeof(wl_cmp_run.unit), "%s", t->unit);
		if (!o->quiet) {
			per = (wl_now() - t0) / done;
			wl_fmt_eta(eta, sizeof(eta), per * (wl_cmp_run.ntrial - done));
			wl_cell_name(&wl_cmp_run, t->cell, name, sizeof(name), 0);
			if (t->ok)
				fprintf(stderr, "wl_compare: trial %d/%d round %d/%d %s %s: %.2f %s, ETA %s\n",
					done, wl_cmp_run.ntrial, t->round,
					wl_cmp_run.rounds, wl_cmp_run.spec[t->policy].label,
					name, t->aggregate, t->unit, eta);
			else
				fprintf(stderr, "wl_compare: trial %d/%d round %d/%d %s %s: FAILED (%s), ETA %s\n",
					done, wl_cmp_run.ntrial, t->round,
					wl_cmp_run.rounds, wl_cmp_run.spec[t->policy].label,
					name, t->err, eta);
		}
	}
	wl_cmp_run.wall = wl_now() - t0;
	if (wl_cmp_stop > 0)
		wl_cmp_run.interrupted = 1;
}

/*
 * Check specs against the kernel, save the originals to the state file,
 * then apply and restore each spec once.  Settings a killed run left
 * changed (its state file still there) would pass for originals: refused.
 */
int wl_cmp_check_specs(const struct wl_cmp_opts *o)
{
	char err[512];
	int p, need = 0;

	if (!access(o->state_path, F_OK)) {
		fprintf(stderr, "wl_compare: %s exists: another wl_compare is running, or one was killed before it restored the settings it changed ('wl_compare --restore' puts them back)\n",
			o->state_path);
		return 2;
	}
	for (p = 0; p < wl_cmp_run.npol; p++)
		need |= wl_spec_touches_kernel(&wl_cmp_run.spec[p]);
	if (need && !wl_cmp_state.fake && geteuid() != 0) {
		fprintf(stderr, "wl_compare: changing sched settings needs root: skipped\n");
		return WL_EXIT_SKIP;
	}
	if (wl_spec_check(&wl_cmp_state, wl_cmp_run.spec, wl_cmp_run.npol, err, sizeof(err))) {
		fprintf(stderr, "wl_compare: %s\n", err);
		return 2;
	}
	if (wl_cmp_state.nset) {
		if (wl_state_save(&wl_cmp_state, o->state_path, err, sizeof(err))) {
			fprintf(stderr, "wl_compare: %s\n", err);
			return 2;
		}
		wl_cmp_state_saved = o->state_path;
	}
	for (p = 0; p < wl_cmp_run.npol; p++) {
		wl_spec_describe(&wl_cmp_state, &wl_cmp_run.spec[p], wl_cmp_run.desc[p],
				 sizeof(wl_cmp_run.desc[p]));
		if (wl_spec_apply(&wl_cmp_state, &wl_cmp_run.spec[p], err, sizeof(err))) {
			fprintf(stderr, "wl_compare: spec '%s' cannot be applied: %s\n",
				wl_cmp_run.spec[p].text, err);
			wl_cmp_restore();
			return 2;
		}
	}
	if (wl_cmp_restore())
		return 1;
	return 0;
}
