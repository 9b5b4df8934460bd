// SPDX-License-Identifier: GPL-2.0
/* wl_compare's command line: see wl/compare/trial.h. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "wl/compare/trial.h"
#include "wl/stream/opts.h"
#include "wl/core/text.h"

static const char wl_cmp_usage[] =
"usage: wl_compare [options] SPEC [SPEC...] [-- WL_STREAM_OPTIONS...]\n"
"       wl_compare --merge [options] KERNEL=RESULTS.json...\n"
"  SPEC: comma/space separated items (the first SPEC is the baseline):\n"
"        default | FEATURE | NO_FEATURE | wakelab:POLICY | wakelab.TUNABLE=V\n"
"        | imbalance_pct[.DOMAIN]=N | [NO_]SCHED_CACHE | sched_cache.FILE=N\n"
"        | pin=MODE | arg=WL_STREAM_ARG | name=LABEL\n"
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
"                       plot.png (when gnuplot is installed) into DIR\n"
"  -R, --runner PATH    wl_stream to run (default: beside wl_compare, or PATH)\n"
"  -t, --trial-timeout S kill a trial after S seconds (default 3*duration+120)\n"
"  -c, --check          check the specs (and apply/restore each once), exit\n"
"  -q, --quiet          no progress on stderr\n"
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
	{ "help",	   no_argument,	      NULL, 'h' },
	{ NULL,		   0,		      NULL, 0 },
};

static void wl_cmp_usage_exit(const char *fmt, const char *arg)
{
	fprintf(stderr, "wl_compare: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", wl_cmp_usage);
	exit(2);
}

static long wl_parse_long(const char *s, long min, long max, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "wl_compare: bad %s '%s' (%ld..%ld)\n%s",
			what, s, min, max, wl_cmp_usage);
		exit(2);
	}
	return v;
}

static double wl_parse_double(const char *s, double min, double max,
			      const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= min && v <= max)) {
		fprintf(stderr, "wl_compare: bad %s '%s' (%g..%g)\n%s", what,
			s, min, max, wl_cmp_usage);
		exit(2);
	}
	return v;
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
static void wl_make_cells(const char *inst, const char *sizes)
{
	char forms[WL_MAX_CELLS][32], sz[WL_MAX_CELLS][32];
	int nf, ns, i, j, k, n, ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	long dummy;

	nf = wl_split(inst, forms, WL_MAX_CELLS);
	if (nf <= 0)
		wl_cmp_usage_exit("bad instance list '%s'", inst);
	ns = 1;
	sz[0][0] = '\0';
	if (sizes) {
		ns = wl_split(sizes, sz, WL_MAX_CELLS);
		if (ns <= 0)
			wl_cmp_usage_exit("bad size list '%s'", sizes);
		for (i = 0; i < ns; i++)
			if (wl_parse_size(sz[i], WL_MAX_MSG, &dummy))
				wl_cmp_usage_exit("bad message size '%s'", sz[i]);
	}
	for (j = 0; j < ns; j++) {
		for (i = 0; i < nf; i++) {
			n = wl_resolve_instances(forms[i], ncpus);
			if (n < 0)
				wl_cmp_usage_exit("bad instance count '%s' (N, cpus, cpus/K, K*cpus, P%%)",
						  forms[i]);
			for (k = 0; k < wl_cmp_run.ncell; k++)
				if (wl_cmp_run.cell[k].instances == n &&
				    !strcmp(wl_cmp_run.cell[k].size, sz[j]))
					break;
			if (k < wl_cmp_run.ncell)
				continue;	/* same count: one cell */
			if (wl_cmp_run.ncell >= WL_MAX_CELLS)
				wl_cmp_usage_exit("too many cells (max %s)", "32");
			strcpy(wl_cmp_run.cell[wl_cmp_run.ncell].inst, forms[i]);
			strcpy(wl_cmp_run.cell[wl_cmp_run.ncell].size, sz[j]);
			wl_cmp_run.cell[wl_cmp_run.ncell].instances = n;
			wl_cmp_run.ncell++;
		}
	}
}

/* Interleaved plan: round -> cell -> policies in shuffled/rotated order. */
void wl_cmp_plan(void)
{
	uint64_t rng = wl_cmp_run.seed;
	int r, c, k, ord[WL_CMP_MAX_SPECS];

	wl_cmp_run.ntrial = 0;
	for (r = 0; r < wl_cmp_run.rounds; r++) {
		for (c = 0; c < wl_cmp_run.ncell; c++) {
			for (k = 0; k < wl_cmp_run.npol; k++)
				ord[k] = (k + r + c) % wl_cmp_run.npol;
			if (!strcmp(wl_cmp_run.order, "shuffle")) {
				for (k = wl_cmp_run.npol - 1; k > 0; k--) {
					int j = wl_rand_below(&rng, k + 1);
					int t = ord[k];

					ord[k] = ord[j];
					ord[j] = t;
				}
			}
			for (k = 0; k < wl_cmp_run.npol; k++) {
				struct wl_trial *t = &wl_cmp_run.trial[wl_cmp_run.ntrial];

				memset(t, 0, sizeof(*t));
				t->policy = ord[k];
				t->cell = c;
				t->round = r + 1;
				t->seq = ++wl_cmp_run.ntrial;
				t->exit_code = -2;	/* not run yet */
			}
		}
	}
}

/* Add counter @key (a number) to the trial's placement sums. */
void wl_cmp_parse_args(int argc, char **argv, struct wl_cmp_opts *o)
{
	const char *inst = WL_DEFAULT_INSTANCES, *sizes = NULL;
	int c, i, nspec, nopt, seeded = 0;
	char err[512];

	memset(o, 0, sizeof(*o));
	o->format = 't';
	o->timeout = -1;
	wl_default_runner(o->runner, sizeof(o->runner));
	wl_state_default_path(&wl_cmp_state, o->state_path, sizeof(o->state_path));
	snprintf(wl_cmp_run.workload, sizeof(wl_cmp_run.workload), "tcp_stream");
	snprintf(wl_cmp_run.order, sizeof(wl_cmp_run.order), "shuffle");
	wl_cmp_run.rounds = WL_DEFAULT_TRIALS;
	wl_cmp_run.duration = WL_DEFAULT_DURATION;
	wl_cmp_run.alpha = WL_DEFAULT_ALPHA;
	wl_cmp_run.max_exact = WL_DEFAULT_MAX_EXACT;
	wl_cmp_run.nrand = WL_DEFAULT_PERMS;

	/* Everything after the first "--" is wl_stream's, not ours. */
	for (nopt = 1; nopt < argc && strcmp(argv[nopt], "--"); nopt++)
		;
	if (nopt < argc) {
		o->extra = &argv[nopt + 1];
		o->nextra = argc - nopt - 1;
	}
	while ((c = getopt_long(nopt, argv, "w:n:m:r:l:o:s:a:P:E:bjO:R:t:cqh",
				wl_cmp_long_opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			if (wl_parse_workload(optarg) < 0)
				wl_cmp_usage_exit("unknown workload '%s'", optarg);
			snprintf(wl_cmp_run.workload, sizeof(wl_cmp_run.workload), "%s",
				 optarg);
			break;
		case 'n':
			inst = optarg;
			break;
		case 'm':
			sizes = optarg;
			break;
		case 'r':
			wl_cmp_run.rounds = wl_parse_long(optarg, 1, WL_STATS_MAX_N,
							  "trial count");
			break;
		case 'l':
			wl_cmp_run.duration = wl_parse_double(optarg, 0.1, 86400,
							      "duration");
			break;
		case 'o':
			if (strcmp(optarg, "shuffle") && strcmp(optarg, "rotate"))
				wl_cmp_usage_exit("bad order '%s' (shuffle, rotate)",
						  optarg);
			snprintf(wl_cmp_run.order, sizeof(wl_cmp_run.order), "%s", optarg);
			break;
		case 's':
			wl_cmp_run.seed = strtoull(optarg, NULL, 0);
			if (!*optarg || strspn(optarg, "0123456789xabcdefABCDEF") !=
			    strlen(optarg))
				wl_cmp_usage_exit("bad seed '%s'", optarg);
			seeded = 1;
			break;
		case 'a':
			wl_cmp_run.alpha = wl_parse_double(optarg, 1e-6, 0.5, "alpha");
			break;
		case 'P':
			wl_cmp_run.nrand = wl_parse_long(optarg, 100, 10000000,
							 "permutation count");
			break;
		case 'E':
			wl_cmp_run.max_exact = wl_parse_long(optarg, 1, 10000000,
							     "exact limit");
			break;
		case 'b':
		case 'j':
			o->format = c;
			break;
		case 'O':
			o->out = optarg;
			break;
		case 'R':
			snprintf(o->runner, sizeof(o->runner), "%s", optarg);
			break;
		case 't':
			o->timeout = wl_parse_double(optarg, 1, 864000,
						     "trial timeout");
			break;
		case 'c':
			o->check = 1;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case WL_OPT_STATE:
			if (wl_fmt(o->state_path, sizeof(o->state_path), "%s",
				   optarg) || !*optarg)
				wl_cmp_usage_exit("bad state file '%s'", optarg);
			break;
		case WL_OPT_RESTORE:
			o->restore = 1;
			break;
		case WL_OPT_MERGE:
			o->merge = 1;
			break;
		case WL_OPT_DESCRIBE:
			if (!strchr(optarg, '=') || *optarg == '=')
				wl_cmp_usage_exit("--describe takes KERNEL=TEXT, got '%s'",
						  optarg);
			if (o->ndesc >= WL_CMP_MAX_SPECS)
				wl_cmp_usage_exit("at most %s --describe", "16");
			o->desc[o->ndesc++] = optarg;
			break;
		case 'h':
			fputs(wl_cmp_usage, stdout);
			exit(0);
		default:
			fprintf(stderr, "%s", wl_cmp_usage);
			exit(2);
		}
	}
	nspec = nopt - optind;
	if (o->merge) {
		if (o->restore || o->check || nopt < argc)
			wl_cmp_usage_exit("%s", "--merge takes no --restore, --check or wl_stream options");
		if (nspec < 2)
			wl_cmp_usage_exit("%s", "--merge needs a KERNEL=FILE per boot, at least two");
		o->args = &argv[optind];
		o->nargs = nspec;
		if (!seeded)
			wl_cmp_run.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
		return;
	}
	if (o->ndesc)
		wl_cmp_usage_exit("%s", "--describe is for --merge");
	if (o->restore) {
		if (nspec || nopt < argc)
			wl_cmp_usage_exit("%s", "--restore takes no SPEC and no wl_stream options");
		return;
	}
	if (!nspec)
		wl_cmp_usage_exit("%s", "no policy SPEC given");
	if (nspec > WL_CMP_MAX_SPECS) {
		snprintf(err, sizeof(err), "%d", WL_CMP_MAX_SPECS);
		wl_cmp_usage_exit("at most %s policies", err);
	}
	for (i = 0; i < nspec; i++) {
		if (wl_spec_parse(argv[optind + i], &wl_cmp_run.spec[i], err,
				  sizeof(err))) {
			fprintf(stderr, "wl_compare: %s\n", err);
			exit(2);
		}
	}
	for (i = 0; i < nspec; i++) {
		int j;

		for (j = 0; j < i; j++)
			if (!strcmp(wl_cmp_run.spec[i].label, wl_cmp_run.spec[j].label))
				wl_cmp_usage_exit("two policies labelled '%s' (give them name=LABEL)",
						  wl_cmp_run.spec[i].label);
	}
	wl_cmp_run.npol = nspec;
	for (i = 0; i < o->nextra; i++) {
		size_t l = strlen(wl_cmp_run.extra);

		snprintf(wl_cmp_run.extra + l, sizeof(wl_cmp_run.extra) - l, "%s%s",
			 i ? " " : "", o->extra[i]);
	}
	wl_make_cells(inst, sizes);
	if (wl_cmp_run.ncell * wl_cmp_run.npol * wl_cmp_run.rounds > WL_MAX_TRIALS)
		wl_cmp_usage_exit("too many trials (max %s)", "4096");
	if (o->timeout < 0)
		o->timeout = 3 * wl_cmp_run.duration + 120;
	if (!seeded)
		wl_cmp_run.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
}
