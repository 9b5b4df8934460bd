// SPDX-License-Identifier: GPL-2.0
/* wl_compare's command line: see wl/compare/opts.h. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wl/compare/opts.h"
#include "wl/compare/state.h"
#include "wl/core/stats.h"
#include "wl/core/text.h"
#include "wl/stream/opts.h"

static const char wl_cmp_usage[] =
"usage: wl_compare [options] SPEC [SPEC...] [-- WL_STREAM_OPTIONS...]\n"
"       wl_compare --merge [options] KERNEL=RESULTS.json...\n"
"  SPEC: comma/space separated items (the first SPEC is the baseline):\n"
"        default | FEATURE | NO_FEATURE | wakelab:POLICY | wakelab.TUNABLE=V\n"
"        | imbalance_pct[.DOMAIN]=N | [NO_]SCHED_CACHE | sched_cache.FILE=N\n"
"        | param.MODULE.NAME=V | pin=MODE | arg=WL_STREAM_ARG | name=LABEL\n"
"  -w, --workload W     wl_stream workload (default tcp_stream)\n"
"  -n, --instances L    instance counts, comma/space separated, as wl_stream\n"
"                       -n takes them (default \"" WL_DEFAULT_INSTANCES "\")\n"
"  -m, --sizes L        message sizes passed as wl_stream -m (default: its own)\n"
"  -r, --trials R       rounds: trials per policy and count (default 8)\n"
"  -l, --duration S     measurement window per trial, seconds (default 10)\n"
"  -o, --order O        shuffle (default) or rotate the policies per round\n"
"  -s, --seed N         seed of the order and sampled permutations (default:\n"
"                       from the clock; always printed)\n"
"  -a, --alpha A        significance level (default 0.05)\n"
"  -P, --permutations N sampled permutations when the exact test would\n"
"                       need more than --max-exact splits (default 20000)\n"
"  -E, --max-exact N    largest exact enumeration (default 100000)\n"
"  -b, --brief          print Peter's loop format instead of the table\n"
"  -j, --json           print JSON (every trial, environment) instead\n"
"  -O, --out DIR        write report.txt, results.json, plot.dat, plot.gp and\n"
"                       plot.png (when gnuplot is installed) into DIR; with\n"
"                       --profile also profile.dat, profile.gp, profile.png\n"
"  -R, --runner PATH    wl_stream to run (default: beside wl_compare, or PATH)\n"
"  -t, --trial-timeout S kill a trial after S seconds (default 3*duration+120)\n"
"  -c, --check          check the specs (and apply/restore each once), exit\n"
"  -q, --quiet          no progress on stderr\n"
"      --profile DIR    each trial's wl_stream --profile DIR/trial-SEQ: Linux's\n"
"                       perf over its window; the report adds the Profile\n"
"                       table and perf stat's counters\n"
"      --state FILE     while settings are changed, their originals are kept\n"
"                       in FILE (default " WL_STATE_PATH "), which is\n"
"                       removed once they are restored; a run refuses to\n"
"                       start while it exists\n"
"      --restore        after a run was killed (SIGKILL, crash) with settings\n"
"                       changed: put back every original saved in the state\n"
"                       file, verify them, remove the file (no SPEC)\n"
"      --merge          compare kernels: each operand is one boot's results.json\n"
"                       (a run of one SPEC) and the kernel it booted, in boot\n"
"                       order; the test's unit is the boot (-a -P -E -s -b -j\n"
"                       -O -q apply; scripts/compare runs the boots)\n"
"      --describe K=TEXT what kernel K is (configuration source), for the\n"
"                       report (repeatable, with --merge); described kernels\n"
"                       are the first columns, in this order (the first is\n"
"                       the baseline), then the others as they first boot\n"
"  -h, --help           this text\n"
"exit 0 ok, 1 a trial or the restore failed, 2 bad usage, a spec the kernel\n"
"cannot honour, or the state file of another run exists (nothing changed),\n"
"4 skipped (not root, workload unsupported).  --restore: 0 restored, 1 the\n"
"restore failed (file kept), 2 no usable state file (none, incomplete, from\n"
"an earlier boot) or its run is still going\n";

static const struct option wl_cmp_long_opts[] = {
	{ "workload",	   required_argument, NULL, 'w' },
	{ "instances",	   required_argument, NULL, 'n' },
	{ "sizes",	   required_argument, NULL, 'm' },
	{ "trials",	   required_argument, NULL, 'r' },
	{ "duration",	   required_argument, NULL, 'l' },
	{ "order",	   required_argument, NULL, 'o' },
	{ "seed",	   required_argument, NULL, 's' },
	{ "alpha",	   required_argument, NULL, 'a' },
	{ "permutations",  required_argument, NULL, 'P' },
	{ "max-exact",	   required_argument, NULL, 'E' },
	{ "brief",	   no_argument,	      NULL, 'b' },
	{ "json",	   no_argument,	      NULL, 'j' },
	{ "out",	   required_argument, NULL, 'O' },
	{ "runner",	   required_argument, NULL, 'R' },
	{ "trial-timeout", required_argument, NULL, 't' },
	{ "check",	   no_argument,	      NULL, 'c' },
	{ "quiet",	   no_argument,	      NULL, 'q' },
	{ "state",	   required_argument, NULL, WL_OPT_STATE },
	{ "restore",	   no_argument,	      NULL, WL_OPT_RESTORE },
	{ "merge",	   no_argument,	      NULL, WL_OPT_MERGE },
	{ "describe",	   required_argument, NULL, WL_OPT_DESCRIBE },
	{ "profile",	   required_argument, NULL, WL_OPT_CMP_PROFILE },
	{ "help",	   no_argument,	      NULL, 'h' },
	{ NULL,		   0,		      NULL, 0 },
};

/* Say what is wrong, then the usage, on stderr: returns -1 (exit 2). */
static int wl_cmp_usage_err(const char *fmt, const char *arg)
{
	fprintf(stderr, "wl_compare: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", wl_cmp_usage);
	return -1;
}

static int wl_parse_long(const char *s, long min, long max, const char *what,
			 long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "wl_compare: bad %s '%s' (%ld..%ld)\n%s",
			what, s, min, max, wl_cmp_usage);
		return -1;
	}
	*out = v;
	return 0;
}

static int wl_parse_double(const char *s, double min, double max,
			   const char *what, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= min && v <= max)) {
		fprintf(stderr, "wl_compare: bad %s '%s' (%g..%g)\n%s", what,
			s, min, max, wl_cmp_usage);
		return -1;
	}
	*out = v;
	return 0;
}

/* Default wl_stream: next to this program, else found through PATH. */
static void wl_default_runner(char *buf, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			if (!wl_fmt(buf, len, "%s/wl_stream", self) &&
			    !access(buf, X_OK))
				return;
		}
	}
	snprintf(buf, len, "wl_stream");
}

/* Split a comma/space list into the cells' instance or size forms. */
static int wl_split(const char *list, char out[][32], int max)
{
	char buf[512], *tok, *save = NULL;
	int n = 0;

	if (strlen(list) >= sizeof(buf))
		return -1;
	strcpy(buf, list);
	for (tok = strtok_r(buf, ", \t", &save); tok;
	     tok = strtok_r(NULL, ", \t", &save)) {
		if (n >= max || strlen(tok) >= 32)
			return -1;
		strcpy(out[n++], tok);
	}
	return n;
}

/* Cells: sizes x instance forms, de-duplicated by resolved count. */
static int wl_make_cells(struct wl_run *r, const char *inst,
			 const char *sizes)
{
	char forms[WL_MAX_CELLS][32], sz[WL_MAX_CELLS][32];
	int nf, ns, i, j, k, n, ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	long dummy;

	nf = wl_split(inst, forms, WL_MAX_CELLS);
	if (nf <= 0)
		return wl_cmp_usage_err("bad instance list '%s'", inst);
	ns = 1;
	sz[0][0] = '\0';
	if (sizes) {
		ns = wl_split(sizes, sz, WL_MAX_CELLS);
		if (ns <= 0)
			return wl_cmp_usage_err("bad size list '%s'", sizes);
		for (i = 0; i < ns; i++)
			if (wl_parse_size(sz[i], WL_MAX_MSG, &dummy))
				return wl_cmp_usage_err("bad message size '%s'",
							sz[i]);
	}
	for (j = 0; j < ns; j++) {
		for (i = 0; i < nf; i++) {
			n = wl_resolve_instances(forms[i], ncpus);
			if (n < 0)
				return wl_cmp_usage_err("bad instance count '%s' (N, cpus, cpus/K, K*cpus, P%%)",
							forms[i]);
			for (k = 0; k < r->ncell; k++)
				if (r->cell[k].instances == n &&
				    !strcmp(r->cell[k].size, sz[j]))
					break;
			if (k < r->ncell)
				continue;	/* same count: one cell */
			if (r->ncell >= WL_MAX_CELLS)
				return wl_cmp_usage_err("too many cells (max %s)",
							"32");
			strcpy(r->cell[r->ncell].inst, forms[i]);
			strcpy(r->cell[r->ncell].size, sz[j]);
			r->cell[r->ncell].instances = n;
			r->ncell++;
		}
	}
	return 0;
}

/* Interleaved plan: round -> cell -> policies in shuffled/rotated order. */
void wl_cmp_plan(struct wl_run *run)
{
	uint64_t rng = run->seed;
	int r, c, k, ord[WL_CMP_MAX_SPECS];

	run->ntrial = 0;
	for (r = 0; r < run->rounds; r++) {
		for (c = 0; c < run->ncell; c++) {
			for (k = 0; k < run->npol; k++)
				ord[k] = (k + r + c) % run->npol;
			if (!strcmp(run->order, "shuffle")) {
				for (k = run->npol - 1; k > 0; k--) {
					int j = wl_rand_below(&rng, k + 1);
					int t = ord[k];

					ord[k] = ord[j];
					ord[j] = t;
				}
			}
			for (k = 0; k < run->npol; k++) {
				struct wl_trial *t = &run->trial[run->ntrial];

				memset(t, 0, sizeof(*t));
				t->policy = ord[k];
				t->cell = c;
				t->round = r + 1;
				t->seq = ++run->ntrial;
				t->exit_code = -2;	/* not run yet */
			}
		}
	}
}

/*
 * What the option switch leaves to the mode checks: the instance and size
 * lists, whether --seed was given, and the operands: argv[optind..nopt),
 * the wl_stream options after them.
 */
struct wl_cmp_parse {
	const char	*inst;
	const char	*sizes;
	int		seeded;
	int		nopt;
};

/* The defaults of every option (and of the run's settings). */
static void wl_cmp_defaults(struct wl_cmp_opts *o, struct wl_run *r,
			    const struct wl_state *st)
{
	memset(o, 0, sizeof(*o));
	o->format = 't';
	o->timeout = -1;
	wl_default_runner(o->runner, sizeof(o->runner));
	wl_state_default_path(st, o->state_path, sizeof(o->state_path));
	snprintf(r->workload, sizeof(r->workload), "tcp_stream");
	snprintf(r->order, sizeof(r->order), "shuffle");
	r->rounds = WL_DEFAULT_TRIALS;
	r->duration = WL_DEFAULT_DURATION;
	r->alpha = WL_DEFAULT_ALPHA;
	r->max_exact = WL_DEFAULT_MAX_EXACT;
	r->nrand = WL_DEFAULT_PERMS;
}

/* One option @c (getopt_long()'s) with @arg: 0, 1 for --help, or -1. */
static int wl_cmp_option(int c, char *arg, struct wl_cmp_opts *o,
			 struct wl_run *r, struct wl_cmp_parse *p)
{
	long l;

	switch (c) {
	case 'w':
		if (wl_parse_workload(arg) < 0)
			return wl_cmp_usage_err("unknown workload '%s'", arg);
		snprintf(r->workload, sizeof(r->workload), "%s", arg);
		break;
	case 'n':
		p->inst = arg;
		break;
	case 'm':
		p->sizes = arg;
		break;
	case 'r':
		if (wl_parse_long(arg, 1, WL_STATS_MAX_N, "trial count", &l))
			return -1;
		r->rounds = l;
		break;
	case 'l':
		return wl_parse_double(arg, 0.1, 86400, "duration",
				       &r->duration);
	case 'o':
		if (strcmp(arg, "shuffle") && strcmp(arg, "rotate"))
			return wl_cmp_usage_err("bad order '%s' (shuffle, rotate)",
						arg);
		snprintf(r->order, sizeof(r->order), "%s", arg);
		break;
	case 's':
		r->seed = strtoull(arg, NULL, 0);
		if (!*arg || strspn(arg, "0123456789xabcdefABCDEF") !=
		    strlen(arg))
			return wl_cmp_usage_err("bad seed '%s'", arg);
		p->seeded = 1;
		break;
	case 'a':
		return wl_parse_double(arg, 1e-6, 0.5, "alpha", &r->alpha);
	case 'P':
		if (wl_parse_long(arg, 100, 10000000, "permutation count", &l))
			return -1;
		r->nrand = l;
		break;
	case 'E':
		if (wl_parse_long(arg, 1, 10000000, "exact limit", &l))
			return -1;
		r->max_exact = l;
		break;
	case 'b':
	case 'j':
		o->format = c;
		break;
	case 'O':
		o->out = arg;
		break;
	case 'R':
		snprintf(o->runner, sizeof(o->runner), "%s", arg);
		break;
	case 't':
		return wl_parse_double(arg, 1, 864000, "trial timeout",
				       &o->timeout);
	case 'c':
		o->check = 1;
		break;
	case 'q':
		o->quiet = 1;
		break;
	case WL_OPT_STATE:
		if (wl_fmt(o->state_path, sizeof(o->state_path), "%s", arg) ||
		    !*arg)
			return wl_cmp_usage_err("bad state file '%s'", arg);
		break;
	case WL_OPT_RESTORE:
		o->restore = 1;
		break;
	case WL_OPT_CMP_PROFILE:
		if (wl_fmt(o->profile, sizeof(o->profile), "%s", arg) || !*arg)
			return wl_cmp_usage_err("bad profile directory '%s'", arg);
		break;
	case WL_OPT_MERGE:
		o->merge = 1;
		break;
	case WL_OPT_DESCRIBE:
		if (!strchr(arg, '=') || *arg == '=')
			return wl_cmp_usage_err("--describe takes KERNEL=TEXT, got '%s'",
						arg);
		if (o->ndesc >= WL_CMP_MAX_SPECS)
			return wl_cmp_usage_err("at most %s --describe", "16");
		o->desc[o->ndesc++] = arg;
		break;
	case 'h':
		fputs(wl_cmp_usage, stdout);
		return 1;
	default:
		/* getopt_long() said what is wrong. */
		fprintf(stderr, "%s", wl_cmp_usage);
		return -1;
	}
	return 0;
}

static void wl_cmp_seed(struct wl_run *r, const struct wl_cmp_parse *p)
{
	if (!p->seeded)
		r->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
}

/*
 * The operands and what the mode allows: --merge's KERNEL=FILE boots,
 * --restore's none, else the specs, then the cells and the trial count.
 */
static int wl_cmp_modes(int argc, char **argv, struct wl_cmp_opts *o,
			struct wl_run *r, const struct wl_cmp_parse *p)
{
	int nspec = p->nopt - optind, i, j;
	char err[512];

	if (o->merge) {
		if (o->restore || o->check || p->nopt < argc)
			return wl_cmp_usage_err("%s", "--merge takes no --restore, --check or wl_stream options");
		if (nspec < 2)
			return wl_cmp_usage_err("%s", "--merge needs a KERNEL=FILE per boot, at least two");
		o->args = &argv[optind];
		o->nargs = nspec;
		wl_cmp_seed(r, p);
		return 0;
	}
	if (o->ndesc)
		return wl_cmp_usage_err("%s", "--describe is for --merge");
	if (o->restore) {
		if (nspec || p->nopt < argc)
			return wl_cmp_usage_err("%s", "--restore takes no SPEC and no wl_stream options");
		return 0;
	}
	if (!nspec)
		return wl_cmp_usage_err("%s", "no policy SPEC given");
	if (nspec > WL_CMP_MAX_SPECS) {
		snprintf(err, sizeof(err), "%d", WL_CMP_MAX_SPECS);
		return wl_cmp_usage_err("at most %s policies", err);
	}
	for (i = 0; i < nspec; i++) {
		if (wl_spec_parse(argv[optind + i], &r->spec[i], err,
				  sizeof(err))) {
			fprintf(stderr, "wl_compare: %s\n", err);
			return -1;
		}
	}
	for (i = 0; i < nspec; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(r->spec[i].label, r->spec[j].label))
				return wl_cmp_usage_err("two policies labelled '%s' (give them name=LABEL)",
							r->spec[i].label);
	r->npol = nspec;
	for (i = 0; i < o->nextra; i++) {
		size_t l = strlen(r->extra);

		snprintf(r->extra + l, sizeof(r->extra) - l, "%s%s",
			 i ? " " : "", o->extra[i]);
	}
	if (wl_make_cells(r, p->inst, p->sizes))
		return -1;
	if (r->ncell * r->npol * r->rounds > WL_MAX_TRIALS)
		return wl_cmp_usage_err("too many trials (max %s)", "4096");
	if (o->timeout < 0)
		o->timeout = 3 * r->duration + 120;
	wl_cmp_seed(r, p);
	return 0;
}

int wl_cmp_parse_args(int argc, char **argv, struct wl_cmp_opts *o,
		      struct wl_run *r, const struct wl_state *st)
{
	struct wl_cmp_parse p = { .inst = WL_DEFAULT_INSTANCES };
	int c, ret;

	wl_cmp_defaults(o, r, st);
	/* Everything after the first "--" is wl_stream's, not ours. */
	for (p.nopt = 1; p.nopt < argc && strcmp(argv[p.nopt], "--");
	     p.nopt++)
		;
	if (p.nopt < argc) {
		o->extra = &argv[p.nopt + 1];
		o->nextra = argc - p.nopt - 1;
	}
	optind = 0;	/* a fresh scan, also of a second command line */
	opterr = 1;	/* getopt_long() says what is wrong (wl_parse_opts()
			 * clears it) */
	while ((c = getopt_long(p.nopt, argv,
				"w:n:m:r:l:o:s:a:P:E:bjO:R:t:cqh",
				wl_cmp_long_opts, NULL)) != -1) {
		ret = wl_cmp_option(c, optarg, o, r, &p);
		if (ret)
			return ret;
	}
	return wl_cmp_modes(argc, argv, o, r, &p);
}
