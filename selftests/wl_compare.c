// SPDX-License-Identifier: GPL-2.0
/*
 * wl_compare: compare wake-affine placement policies live.  Each policy is a
 * spec (sched features, a wakelab module policy, module tunables, domain
 * imbalance_pct, extra wl_stream options); every spec is checked against the
 * running kernel before anything is touched.  Trials are interleaved: every
 * round visits every instance count and, for each, every policy in a
 * shuffled (or rotated) order, applying the spec live and running
 * "wl_stream --json" as a child.  The original settings are restored at the
 * end and on SIGINT/SIGTERM, and the restore is verified by re-reading;
 * while they are changed they are also kept in a state file, from which
 * "wl_compare --restore" puts them back after a run was killed.  The
 * report is an mmtests-style table (Hmean, Min, Max, Stddev, CoeffVar,
 * %change, permutation-test verdict, placement mix), Peter's loop format
 * (--brief), JSON (--json), and with --out a directory holding all of them
 * plus a gnuplot plot.  Exit: 0 ok, 1 a trial or the restore failed,
 * 2 bad usage, a spec this kernel cannot honour or settings of another run
 * still saved, 4 skip.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "wl/compare/analysis.h"
#include "wl/compare/env.h"
#include "wl/compare/merge.h"
#include "wl/compare/opts.h"
#include "wl/compare/report.h"
#include "wl/compare/run.h"
#include "wl/compare/trial.h"
#include "wl/core/sig.h"

static void wl_on_signal(int sig)
{
	wl_cmp_stop = sig;
}

/* What --describe says of each kernel, into its column's description. */
static void wl_cmp_describe(const struct wl_cmp_opts *o)
{
	int i, p;

	for (i = 0; i < o->ndesc; i++) {
		const char *eq = strchr(o->desc[i], '=');

		for (p = 0; p < wl_cmp_run.npol; p++)
			if (!strncmp(wl_cmp_run.spec[p].label, o->desc[i],
				     eq - o->desc[i]) &&
			    !wl_cmp_run.spec[p].label[eq - o->desc[i]])
				snprintf(wl_cmp_run.desc[p],
					 sizeof(wl_cmp_run.desc[p]), "%s, spec %s",
					 eq + 1, wl_cmp_run.spec[p].text);
	}
	for (p = 0; p < wl_cmp_run.npol; p++)
		if (!wl_cmp_run.desc[p][0])
			snprintf(wl_cmp_run.desc[p], sizeof(wl_cmp_run.desc[p]),
				 "spec %s", wl_cmp_run.spec[p].text);
}

static void wl_cmp_print(const struct wl_cmp_opts *o)
{
	if (o->format == 'j')
		wl_print_json(stdout, &wl_cmp_run);
	else if (o->format == 'b')
		wl_print_brief(stdout, &wl_cmp_run);
	else
		wl_print_table(stdout, &wl_cmp_run);
	fflush(stdout);
}

/*
 * --merge: the kernel comparison from its boots.  Exit 1 when a boot or a
 * trial failed (the report still covers the rest).
 */
static int wl_cmp_merge_main(const struct wl_cmp_opts *o)
{
	int ret, b;

	ret = wl_cmp_merge(&wl_cmp_run, o->nargs, o->args, o->ndesc, o->desc);
	if (ret)
		return ret;
	wl_cmp_describe(o);
	wl_run_stats(&wl_cmp_run);
	wl_cmp_print(o);
	if (o->out && wl_cmp_write_out(o->out, &wl_cmp_run))
		ret = 1;
	for (b = 0; b < wl_cmp_run.nboot; b++)
		if (!wl_cmp_run.boot[b].ok)
			ret = 1;
	if (wl_run_failed(&wl_cmp_run))
		ret = 1;
	return ret;
}

int main(int argc, char **argv)
{
	struct wl_cmp_opts o;
	int ret, refused;

	refused = wl_state_init(&wl_cmp_state);
	ret = wl_cmp_parse_args(argc, argv, &o, &wl_cmp_run, &wl_cmp_state);
	if (ret)
		return ret > 0 ? 0 : WL_EXIT_USAGE;
	if (o.merge)
		return wl_cmp_merge_main(&o);
	/* --merge reads files only; everything else reads or writes debugfs. */
	if (refused) {
		fprintf(stderr, "wl_compare: WL_FAKE_DEBUGFS is set, and this wl_compare runs as root and is no test build: the emulated debugfs is a host-test hook (make -C tests builds .cache/tests/wl_compare, which honours it); unset WL_FAKE_DEBUGFS\n");
		return 2;
	}
	if (o.restore)
		return wl_cmp_restore_saved(&o);
	wl_stop_signals(wl_on_signal);
	wl_env_collect(&wl_cmp_run.env, wl_cmp_state.root);

	ret = wl_cmp_profile_dir(&o);
	if (ret)
		return ret;
	ret = wl_cmp_check_specs(&o);
	if (ret)
		return wl_cmp_finish(ret);
	if (o.check) {
		printf("wl_compare: %d spec%s OK on %s (applied, restored and verified)\n",
		       wl_cmp_run.npol, wl_cmp_run.npol == 1 ? "" : "s", wl_cmp_run.env.release);
		return wl_cmp_finish(0);
	}
	if (wl_cmp_stop)
		return wl_cmp_finish(128 + wl_cmp_stop);

	wl_cmp_plan(&wl_cmp_run);
	if (!o.quiet)
		fprintf(stderr, "wl_compare: %d trials (%d policies x %d cells x %d rounds) of %g s, order %s, seed %llu, mode %s\n",
			wl_cmp_run.ntrial, wl_cmp_run.npol, wl_cmp_run.ncell, wl_cmp_run.rounds,
			wl_cmp_run.duration, wl_cmp_run.order,
			(unsigned long long)wl_cmp_run.seed, wl_cmp_run.env.mode);
	wl_cmp_run_all(&o);
	ret = wl_cmp_finish(wl_cmp_restore() ? 1 : 0);
	if (wl_cmp_stop == -WL_EXIT_SKIP)
		return ret ? 1 : WL_EXIT_SKIP;
	if (!wl_cmp_run.unit[0])
		snprintf(wl_cmp_run.unit, sizeof(wl_cmp_run.unit), "%s", "?");

	wl_run_stats(&wl_cmp_run);
	wl_cmp_print(&o);
	if (o.out && wl_cmp_write_out(o.out, &wl_cmp_run))
		ret = 1;
	if (wl_run_failed(&wl_cmp_run))
		ret = 1;
	if (wl_cmp_run.interrupted)
		return 128 + wl_cmp_stop;
	return ret;
}
