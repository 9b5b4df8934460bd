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
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wl_report.h"
#include "wl_stream_opts.h"

#define WL_DEFAULT_INSTANCES	"1,cpus/4,cpus/2,cpus,2*cpus"
#define WL_DEFAULT_TRIALS	5
#define WL_DEFAULT_DURATION	10.0
#define WL_DEFAULT_ALPHA	0.05
#define WL_DEFAULT_MAX_EXACT	100000
#define WL_DEFAULT_PERMS	20000
#define WL_MAX_OUTPUT		(1 << 20)
#define WL_MAX_ARGS		128
#define WL_KILL_GRACE_MS	10000
#define WL_EXIT_SKIP		4
#define WL_OPT_STATE		256
#define WL_OPT_RESTORE		257

static volatile sig_atomic_t wl_stop;

static const char wl_usage[] =
"usage: wl_compare [options] SPEC [SPEC...] [-- WL_STREAM_OPTIONS...]\n"
"  SPEC: comma/space separated items (the first SPEC is the baseline):\n"
"        default | FEATURE | NO_FEATURE | wakelab:POLICY | wakelab.TUNABLE=V\n"
"        | imbalance_pct[.DOMAIN]=N | pin=MODE | arg=WL_STREAM_ARG | name=LABEL\n"
"  -w, --workload W     wl_stream workload (default tcp_stream)\n"
"  -n, --instances L    instance counts, comma/space separated, as wl_stream\n"
"                       -n takes them (default \"" WL_DEFAULT_INSTANCES "\")\n"
"  -m, --sizes L        message sizes passed as wl_stream -m (default: its own)\n"
"  -r, --trials R       rounds: trials per policy and count (default 5)\n"
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
"  -h, --help           this text\n"
"exit 0 ok, 1 a trial or the restore failed, 2 bad usage, a spec the kernel\n"
"cannot honour, or the state file of another run exists (nothing changed),\n"
"4 skipped (not root, workload unsupported).  --restore: 0 restored, 1 the\n"
"restore failed (file kept), 2 no usable state file (none, incomplete, from\n"
"an earlier boot) or its run is still going\n";

static const struct option wl_opts[] = {
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
	{ "help",	   no_argument,	      NULL, 'h' },
	{ NULL,		   0,		      NULL, 0 },
};

/**
 * struct wl_opts - command line
 * @runner:	wl_stream path
 * @out:	--out directory or NULL
 * @format:	't' table, 'b' brief, 'j' json
 * @check:	only check specs
 * @quiet:	no progress
 * @restore:	--restore: put back what a killed run saved
 * @timeout:	per-trial timeout in seconds
 * @nextra:	wl_stream options after "--"
 * @extra:	them
 * @state_path:	the state file
 */
struct wl_opts {
	char	runner[PATH_MAX];
	char	*out;
	int	format;
	int	check;
	int	quiet;
	int	restore;
	double	timeout;
	int	nextra;
	char	**extra;
	char	state_path[PATH_MAX];
};

static struct wl_run run;
static struct wl_state state;
/* The state file this run wrote (removed once the settings are back). */
static const char *state_saved;

static void wl_usage_exit(const char *fmt, const char *arg)
{
	fprintf(stderr, "wl_compare: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", wl_usage);
	exit(2);
}

static double wl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void wl_on_signal(int sig)
{
	wl_stop = sig;
}

static void wl_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = wl_on_signal;	/* no SA_RESTART: poll() returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static long wl_parse_long(const char *s, long min, long max, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "wl_compare: bad %s '%s' (%ld..%ld)\n%s",
			what, s, min, max, wl_usage);
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
			s, min, max, wl_usage);
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
		wl_usage_exit("bad instance list '%s'", inst);
	ns = 1;
	sz[0][0] = '\0';
	if (sizes) {
		ns = wl_split(sizes, sz, WL_MAX_CELLS);
		if (ns <= 0)
			wl_usage_exit("bad size list '%s'", sizes);
		for (i = 0; i < ns; i++)
			if (ws_parse_size(sz[i], WS_MAX_MSG, &dummy))
				wl_usage_exit("bad message size '%s'", sz[i]);
	}
	for (j = 0; j < ns; j++) {
		for (i = 0; i < nf; i++) {
			n = ws_resolve_instances(forms[i], ncpus);
			if (n < 0)
				wl_usage_exit("bad instance count '%s' (N, cpus, cpus/K, K*cpus, P%%)",
					      forms[i]);
			for (k = 0; k < run.ncell; k++)
				if (run.cell[k].instances == n &&
				    !strcmp(run.cell[k].size, sz[j]))
					break;
			if (k < run.ncell)
				continue;	/* same count: one cell */
			if (run.ncell >= WL_MAX_CELLS)
				wl_usage_exit("too many cells (max %s)", "32");
			strcpy(run.cell[run.ncell].inst, forms[i]);
			strcpy(run.cell[run.ncell].size, sz[j]);
			run.cell[run.ncell].instances = n;
			run.ncell++;
		}
	}
}

/* Interleaved plan: round -> cell -> policies in shuffled/rotated order. */
static void wl_plan(void)
{
	uint64_t rng = run.seed;
	int r, c, k, ord[WL_MAX_POLICIES];

	run.ntrial = 0;
	for (r = 0; r < run.rounds; r++) {
		for (c = 0; c < run.ncell; c++) {
			for (k = 0; k < run.npol; k++)
				ord[k] = (k + r + c) % run.npol;
			if (!strcmp(run.order, "shuffle")) {
				for (k = run.npol - 1; k > 0; k--) {
					int j = wl_rand_below(&rng, k + 1);
					int t = ord[k];

					ord[k] = ord[j];
					ord[j] = t;
				}
			}
			for (k = 0; k < run.npol; k++) {
				struct wl_trial *t = &run.trial[run.ntrial];

				memset(t, 0, sizeof(*t));
				t->policy = ord[k];
				t->cell = c;
				t->round = r + 1;
				t->seq = ++run.ntrial;
				t->exit_code = -2;	/* not run yet */
			}
		}
	}
}

/* Add counter @key (a number) to the trial's placement sums. */
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

static void wl_kill_wait(pid_t pid, int *status)
{
	double end = wl_now() + WL_KILL_GRACE_MS / 1000.0;

	kill(-pid, SIGTERM);
	kill(pid, SIGTERM);
	while (waitpid(pid, status, WNOHANG) == 0) {
		if (wl_now() > end) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, status, 0);
			return;
		}
		usleep(20000);
	}
}

/* Run one trial's wl_stream; fills exit_code and the parsed result. */
static void wl_run_trial(const struct wl_opts *o, struct wl_trial *t)
{
	const struct wl_spec *sp = &run.spec[t->policy];
	const struct wl_cell *c = &run.cell[t->cell];
	char dur[32], *argv[WL_MAX_ARGS], *out;
	int pfd[2], status = 0, argc = 0, i, timed_out = 0, exited = 0;
	size_t len = 0;
	double start = wl_now();
	pid_t pid;

	snprintf(dur, sizeof(dur), "%g", run.duration);
	argv[argc++] = (char *)o->runner;
	argv[argc++] = "--json";
	argv[argc++] = "-w";
	argv[argc++] = run.workload;
	argv[argc++] = "-n";
	argv[argc++] = (char *)c->inst;
	argv[argc++] = "-l";
	argv[argc++] = dur;
	if (c->size[0]) {
		argv[argc++] = "-m";
		argv[argc++] = (char *)c->size;
	}
	for (i = 0; i < o->nextra && argc < WL_MAX_ARGS - 2; i++)
		argv[argc++] = o->extra[i];
	for (i = 0; i < sp->nitems && argc < WL_MAX_ARGS - 1; i++)
		if (sp->items[i].kind == WL_IT_ARG)
			argv[argc++] = (char *)sp->items[i].value;
	argv[argc] = NULL;

	out = calloc(1, WL_MAX_OUTPUT + 1);
	if (!out || pipe2(pfd, O_CLOEXEC)) {
		snprintf(t->err, sizeof(t->err), "out of resources");
		t->exit_code = -1;
		free(out);
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(t->err, sizeof(t->err), "fork: %s", strerror(errno));
		t->exit_code = -1;
		close(pfd[0]);
		close(pfd[1]);
		free(out);
		return;
	}
	if (!pid) {
		setpgid(0, 0);
		signal(SIGPIPE, SIG_DFL);
		dup2(pfd[1], STDOUT_FILENO);
		execvp(argv[0], argv);
		fprintf(stderr, "wl_compare: exec %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	close(pfd[1]);
	/*
	 * Read until EOF, or until wl_stream itself has exited (then take
	 * what is left in the pipe without waiting: a stray grandchild that
	 * still holds the pipe open must not stall the comparison).
	 */
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	for (;;) {
		struct pollfd pf = { .fd = pfd[0], .events = POLLIN };
		double left = start + o->timeout - wl_now();
		ssize_t n;

		if (wl_stop || left <= 0) {
			timed_out = !wl_stop;
			break;
		}
		if (!exited && waitpid(pid, &status, WNOHANG) == pid)
			exited = 1;
		if (!exited)
			poll(&pf, 1, left > 0.2 ? 200 : (int)(left * 1000) + 1);
		n = read(pfd[0], out + len, WL_MAX_OUTPUT - len);
		if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
			if (exited)
				break;
			continue;
		}
		if (n <= 0)
			break;
		len += n;
		if (len >= WL_MAX_OUTPUT)
			break;
	}
	close(pfd[0]);
	if ((wl_stop || timed_out) && !exited)
		wl_kill_wait(pid, &status);
	else if (!exited)
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	t->elapsed = wl_now() - start;
	if (wl_stop) {
		t->exit_code = -1;
		snprintf(t->err, sizeof(t->err), "interrupted");
	} else if (timed_out) {
		t->exit_code = -1;
		snprintf(t->err, sizeof(t->err), "timed out after %.0f s",
			 o->timeout);
	} else if (WIFEXITED(status)) {
		t->exit_code = WEXITSTATUS(status);
		wl_read_result(t, out);
		if (!t->ok && !t->err[0])
			snprintf(t->err, sizeof(t->err), "wl_stream exit %d",
				 t->exit_code);
	} else {
		t->exit_code = -1;
		snprintf(t->err, sizeof(t->err), "wl_stream killed by signal %d",
			 WTERMSIG(status));
	}
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
static int wl_restore(void)
{
	char err[512];

	if (!state.nset) {
		run.restored = -1;
		return 0;
	}
	if (wl_spec_restore(&state, err, sizeof(err))) {
		/* One more attempt: a transient write error must not stick. */
		if (wl_spec_restore(&state, err, sizeof(err))) {
			fprintf(stderr, "wl_compare: RESTORE FAILED: %s\n",
				err);
			run.restored = 0;
			return -1;
		}
	}
	run.restored = 1;
	return 0;
}

/*
 * On the way out, once settings may have been changed: the state file goes
 * when the last restore worked, else it stays for --restore.  Returns @ret.
 */
static int wl_finish(int ret)
{
	if (!state_saved)
		return ret;
	if (run.restored == 1) {
		if (unlink(state_saved)) {
			fprintf(stderr, "wl_compare: removing %s: %s\n",
				state_saved, strerror(errno));
			return ret ? ret : 1;
		}
	} else {
		fprintf(stderr, "wl_compare: the original settings stay saved in %s: 'wl_compare --restore' puts them back\n",
			state_saved);
	}
	return ret;
}

/* Whether process @pid is a live (not zombie) wl_compare. */
static int wl_compare_running(int pid)
{
	char path[64], buf[512], *lp, *rp;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (wl_read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	/* "pid (comm) S ...": comm may hold anything, so the last ')'. */
	lp = strchr(buf, '(');
	rp = strrchr(buf, ')');
	if (!lp || !rp || rp[1] != ' ' || !rp[2] || strchr("ZX", rp[2]))
		return 0;
	*rp = '\0';
	return !strcmp(lp + 1, "wl_compare");
}

/* --restore: put back the originals a killed run left in the state file. */
static int wl_restore_saved(const struct wl_opts *o)
{
	char err[512];
	int pid;

	if (wl_state_load(&state, o->state_path, &pid, err, sizeof(err))) {
		fprintf(stderr, "wl_compare: --restore: %s\n", err);
		return 2;
	}
	if (pid != getpid() && wl_compare_running(pid)) {
		fprintf(stderr, "wl_compare: --restore: the run that saved %s (pid %d) is still going: stop it (it restores on SIGTERM) or let it finish\n",
			o->state_path, pid);
		return 2;
	}
	if (wl_spec_restore(&state, err, sizeof(err))) {
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
	       state.nset, state.nset == 1 ? "" : "s", pid, o->state_path);
	return 0;
}

static void wl_run_all(const struct wl_opts *o)
{
	double t0 = wl_now(), per;
	char name[64], eta[32], err[512];
	int i, applied = -1, done = 0;

	for (i = 0; i < run.ntrial && !wl_stop; i++) {
		struct wl_trial *t = &run.trial[i];

		if (t->policy != applied && state.nset) {
			if (wl_spec_apply(&state, &run.spec[t->policy], err,
					  sizeof(err))) {
				t->exit_code = -1;
				wl_fmt(t->err, sizeof(t->err), "apply: %s", err);
				fprintf(stderr, "wl_compare: applying '%s': %s\n",
					run.spec[t->policy].text, err);
				applied = -1;
				done++;
				continue;
			}
			applied = t->policy;
		}
		t->start = wl_now() - t0;
		wl_run_trial(o, t);
		done++;
		if (t->exit_code == WL_EXIT_SKIP) {
			fprintf(stderr, "wl_compare: wl_stream skipped (exit 4): the workload is unsupported here\n");
			t->exit_code = -2;
			wl_stop = -WL_EXIT_SKIP;
			break;
		}
		if (t->ok && t->instances &&
		    t->instances != run.cell[t->cell].instances)
			fprintf(stderr, "wl_compare: warning: wl_stream resolved '%s' to %d instances, expected %d\n",
				run.cell[t->cell].inst, t->instances,
				run.cell[t->cell].instances);
		if (t->ok && !run.unit[0])
			snprintf(run.unit, sizeof(run.unit), "%s", t->unit);
		if (!o->quiet) {
			per = (wl_now() - t0) / done;
			wl_fmt_eta(eta, sizeof(eta), per * (run.ntrial - done));
			wl_cell_name(&run, t->cell, name, sizeof(name), 0);
			if (t->ok)
				fprintf(stderr, "wl_compare: trial %d/%d round %d/%d %s %s: %.2f %s, ETA %s\n",
					done, run.ntrial, t->round,
					run.rounds, run.spec[t->policy].label,
					name, t->aggregate, t->unit, eta);
			else
				fprintf(stderr, "wl_compare: trial %d/%d round %d/%d %s %s: FAILED (%s), ETA %s\n",
					done, run.ntrial, t->round,
					run.rounds, run.spec[t->policy].label,
					name, t->err, eta);
		}
	}
	run.wall = wl_now() - t0;
	if (wl_stop > 0)
		run.interrupted = 1;
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
	fn(f, &run);
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

static int wl_write_out(const char *dir)
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

static void wl_parse_args(int argc, char **argv, struct wl_opts *o)
{
	const char *inst = WL_DEFAULT_INSTANCES, *sizes = NULL;
	int c, i, nspec, nopt, seeded = 0;
	char err[512];

	memset(o, 0, sizeof(*o));
	o->format = 't';
	o->timeout = -1;
	wl_default_runner(o->runner, sizeof(o->runner));
	wl_state_default_path(&state, o->state_path, sizeof(o->state_path));
	snprintf(run.workload, sizeof(run.workload), "tcp_stream");
	snprintf(run.order, sizeof(run.order), "shuffle");
	run.rounds = WL_DEFAULT_TRIALS;
	run.duration = WL_DEFAULT_DURATION;
	run.alpha = WL_DEFAULT_ALPHA;
	run.max_exact = WL_DEFAULT_MAX_EXACT;
	run.nrand = WL_DEFAULT_PERMS;

	/* Everything after the first "--" is wl_stream's, not ours. */
	for (nopt = 1; nopt < argc && strcmp(argv[nopt], "--"); nopt++)
		;
	if (nopt < argc) {
		o->extra = &argv[nopt + 1];
		o->nextra = argc - nopt - 1;
	}
	while ((c = getopt_long(nopt, argv, "w:n:m:r:l:o:s:a:P:E:bjO:R:t:cqh",
				wl_opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			if (ws_parse_workload(optarg) < 0)
				wl_usage_exit("unknown workload '%s'", optarg);
			snprintf(run.workload, sizeof(run.workload), "%s",
				 optarg);
			break;
		case 'n':
			inst = optarg;
			break;
		case 'm':
			sizes = optarg;
			break;
		case 'r':
			run.rounds = wl_parse_long(optarg, 1, WL_STATS_MAX_N,
						   "trial count");
			break;
		case 'l':
			run.duration = wl_parse_double(optarg, 0.1, 86400,
						       "duration");
			break;
		case 'o':
			if (strcmp(optarg, "shuffle") && strcmp(optarg, "rotate"))
				wl_usage_exit("bad order '%s' (shuffle, rotate)",
					      optarg);
			snprintf(run.order, sizeof(run.order), "%s", optarg);
			break;
		case 's':
			run.seed = strtoull(optarg, NULL, 0);
			if (!*optarg || strspn(optarg, "0123456789xabcdefABCDEF") !=
			    strlen(optarg))
				wl_usage_exit("bad seed '%s'", optarg);
			seeded = 1;
			break;
		case 'a':
			run.alpha = wl_parse_double(optarg, 1e-6, 0.5, "alpha");
			break;
		case 'P':
			run.nrand = wl_parse_long(optarg, 100, 10000000,
						  "permutation count");
			break;
		case 'E':
			run.max_exact = wl_parse_long(optarg, 1, 10000000,
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
				wl_usage_exit("bad state file '%s'", optarg);
			break;
		case WL_OPT_RESTORE:
			o->restore = 1;
			break;
		case 'h':
			fputs(wl_usage, stdout);
			exit(0);
		default:
			fprintf(stderr, "%s", wl_usage);
			exit(2);
		}
	}
	nspec = nopt - optind;
	if (o->restore) {
		if (nspec || nopt < argc)
			wl_usage_exit("%s", "--restore takes no SPEC and no wl_stream options");
		return;
	}
	if (!nspec)
		wl_usage_exit("%s", "no policy SPEC given");
	if (nspec > WL_MAX_POLICIES)
		wl_usage_exit("at most %s policies", "8");
	for (i = 0; i < nspec; i++) {
		if (wl_spec_parse(argv[optind + i], &run.spec[i], err,
				  sizeof(err))) {
			fprintf(stderr, "wl_compare: %s\n", err);
			exit(2);
		}
	}
	for (i = 0; i < nspec; i++) {
		int j;

		for (j = 0; j < i; j++)
			if (!strcmp(run.spec[i].label, run.spec[j].label))
				wl_usage_exit("two policies labelled '%s' (give them name=LABEL)",
					      run.spec[i].label);
	}
	run.npol = nspec;
	for (i = 0; i < o->nextra; i++) {
		size_t l = strlen(run.extra);

		snprintf(run.extra + l, sizeof(run.extra) - l, "%s%s",
			 i ? " " : "", o->extra[i]);
	}
	wl_make_cells(inst, sizes);
	if (run.ncell * run.npol * run.rounds > WL_MAX_TRIALS)
		wl_usage_exit("too many trials (max %s)", "4096");
	if (o->timeout < 0)
		o->timeout = 3 * run.duration + 120;
	if (!seeded)
		run.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
}

/*
 * Check specs against the kernel, save the originals to the state file,
 * then apply and restore each spec once.  Settings a killed run left
 * changed (its state file still there) would pass for originals: refused.
 */
static int wl_check_specs(const struct wl_opts *o)
{
	char err[512];
	int p, need = 0;

	if (!access(o->state_path, F_OK)) {
		fprintf(stderr, "wl_compare: %s exists: another wl_compare is running, or one was killed before it restored the settings it changed ('wl_compare --restore' puts them back)\n",
			o->state_path);
		return 2;
	}
	for (p = 0; p < run.npol; p++)
		need |= wl_spec_touches_kernel(&run.spec[p]);
	if (need && !state.fake && geteuid() != 0) {
		fprintf(stderr, "wl_compare: changing sched settings needs root: skipped\n");
		return WL_EXIT_SKIP;
	}
	if (wl_spec_check(&state, run.spec, run.npol, err, sizeof(err))) {
		fprintf(stderr, "wl_compare: %s\n", err);
		return 2;
	}
	if (state.nset) {
		if (wl_state_save(&state, o->state_path, err, sizeof(err))) {
			fprintf(stderr, "wl_compare: %s\n", err);
			return 2;
		}
		state_saved = o->state_path;
	}
	for (p = 0; p < run.npol; p++) {
		wl_spec_describe(&state, &run.spec[p], run.desc[p],
				 sizeof(run.desc[p]));
		if (wl_spec_apply(&state, &run.spec[p], err, sizeof(err))) {
			fprintf(stderr, "wl_compare: spec '%s' cannot be applied: %s\n",
				run.spec[p].text, err);
			wl_restore();
			return 2;
		}
	}
	if (wl_restore())
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct wl_opts o;
	int ret;

	wl_state_init(&state);
	wl_parse_args(argc, argv, &o);
	if (o.restore)
		return wl_restore_saved(&o);
	wl_signals();
	wl_env_collect(&run.env, state.root);

	ret = wl_check_specs(&o);
	if (ret)
		return wl_finish(ret);
	if (o.check) {
		printf("wl_compare: %d spec%s OK on %s (applied, restored and verified)\n",
		       run.npol, run.npol == 1 ? "" : "s", run.env.release);
		return wl_finish(0);
	}
	if (wl_stop)
		return wl_finish(128 + wl_stop);

	wl_plan();
	if (!o.quiet)
		fprintf(stderr, "wl_compare: %d trials (%d policies x %d cells x %d rounds) of %g s, order %s, seed %llu, mode %s\n",
			run.ntrial, run.npol, run.ncell, run.rounds,
			run.duration, run.order,
			(unsigned long long)run.seed, run.env.mode);
	wl_run_all(&o);
	ret = wl_finish(wl_restore() ? 1 : 0);
	if (wl_stop == -WL_EXIT_SKIP)
		return ret ? 1 : WL_EXIT_SKIP;
	if (!run.unit[0])
		snprintf(run.unit, sizeof(run.unit), "%s", "?");

	wl_run_stats(&run);
	if (o.format == 'j')
		wl_print_json(stdout, &run);
	else if (o.format == 'b')
		wl_print_brief(stdout, &run);
	else
		wl_print_table(stdout, &run);
	fflush(stdout);
	if (o.out && wl_write_out(o.out))
		ret = 1;
	if (wl_run_failed(&run))
		ret = 1;
	if (run.interrupted)
		return 128 + wl_stop;
	return ret;
}
