// SPDX-License-Identifier: GPL-2.0
/*
 * Linux's own perf over one window: perf record and perf stat as children,
 * driven through their --control pipes (see wl/kernel/perf_tool.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wl/core/clock.h"
#include "wl/core/proc.h"
#include "wl/kernel/perf_tool.h"

const char * const wl_pstat_events[WL_PSTAT_NR] = {
	[WL_PSTAT_CS]		 = "context-switches",
	[WL_PSTAT_MIGRATIONS]	 = "cpu-migrations",
	[WL_PSTAT_TASK_CLOCK]	 = "task-clock",
	[WL_PSTAT_CYCLES]	 = "cycles",
	[WL_PSTAT_INSTRUCTIONS]	 = "instructions",
	[WL_PSTAT_BRANCH_MISSES] = "branch-misses",
	[WL_PSTAT_CACHE_MISSES]	 = "cache-misses",
};

/* perf report's output for a window's profile: every line of it. */
#define WL_PROF_REPORT_MAX	(8 << 20)

bool wl_prof_has_pmu(void)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.disabled = 1;
	fd = syscall(SYS_perf_event_open, &a, -1, 0, -1, 0);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* The last line of perf's log @name in @p->dir, for an error. */
static void wl_prof_log_tail(const struct wl_profile *p, const char *name,
			     char *out, size_t len)
{
	char path[PATH_MAX], line[256];
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", p->dir, name);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '\n')
			snprintf(out, len, "%.*s", (int)strcspn(line, "\n"), line);
	fclose(f);
}

/* Close @c's pipes; its process is reaped or killed by the caller. */
static void wl_pchild_close(struct wl_pchild *c)
{
	if (c->ctl >= 0)
		close(c->ctl);
	if (c->ack >= 0)
		close(c->ack);
	c->ctl = -1;
	c->ack = -1;
}

/*
 * Start `@p->perf @what ... --control fd:R,W` with @args, its output into
 * @log in @p->dir: pipes made here, their numbers in its command line.
 */
static int wl_pchild_spawn(struct wl_profile *p, struct wl_pchild *c,
			   const char *what, const char *const *args,
			   const char *log, char *why, size_t len)
{
	char ctlarg[32], path[PATH_MAX];
	const char *argv[32];
	int ctl[2], ack[2], n = 0, fd, i;

	if (pipe2(ctl, O_CLOEXEC)) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe2(ack, O_CLOEXEC)) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		close(ctl[0]);
		close(ctl[1]);
		return -1;
	}
	snprintf(ctlarg, sizeof(ctlarg), "fd:%d,%d", ctl[0], ack[1]);
	snprintf(path, sizeof(path), "%s/%s", p->dir, log);
	argv[n++] = p->perf;
	argv[n++] = what;
	for (i = 0; args[i] && n < 28; i++)
		argv[n++] = args[i];
	argv[n++] = "-D";
	argv[n++] = "-1";
	argv[n++] = "--control";
	argv[n++] = ctlarg;
	argv[n] = NULL;
	c->pid = fork();
	if (c->pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		c->pid = 0;
		close(ctl[0]);
		close(ctl[1]);
		close(ack[0]);
		close(ack[1]);
		return -1;
	}
	if (!c->pid) {
		/* Its own group (no terminal signal), gone with the caller. */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd < 0 || dup2(fd, 0) < 0)
			_exit(127);
		fcntl(ctl[0], F_SETFD, 0);
		fcntl(ack[1], F_SETFD, 0);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(ctl[0]);
	close(ack[1]);
	c->ctl = ctl[1];
	c->ack = ack[0];
	return 0;
}

/*
 * Send @cmd ("enable\n", ...) to @c and wait for its "ack"; 0, or -1 with
 * @why (its log @log's last line when it ended).
 */
static int wl_pchild_cmd(struct wl_profile *p, struct wl_pchild *c,
			 const char *cmd, const char *log, char *why,
			 size_t len)
{
	struct pollfd pfd = { .fd = c->ack, .events = POLLIN };
	double end = wl_now() + WL_PROF_ACK_S;
	char buf[64], tail[200];
	size_t got = 0;
	ssize_t n;
	int r;

	if (write(c->ctl, cmd, strlen(cmd)) != (ssize_t)strlen(cmd)) {
		snprintf(why, len, "perf (%s): control pipe: %s", log,
			 strerror(errno));
		return -1;
	}
	while (got < sizeof(buf) - 1) {
		r = poll(&pfd, 1, (int)((end - wl_now()) * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(why, len, "perf (%s) did not answer '%.*s' within %d s",
				 log, (int)strcspn(cmd, "\n"), cmd, WL_PROF_ACK_S);
			return -1;
		}
		n = read(c->ack, buf + got, sizeof(buf) - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			wl_prof_log_tail(p, log, tail, sizeof(tail));
			snprintf(why, len, "perf ended before it answered '%.*s'%s%s (%s/%s)",
				 (int)strcspn(cmd, "\n"), cmd, tail[0] ? ": " : "",
				 tail, p->dir, log);
			return -1;
		}
		/* "ack\n" and its NUL; NULs of earlier answers skipped. */
		got += n;
		buf[got] = '\0';
		while (got && buf[0] == '\0')
			memmove(buf, buf + 1, got--);
		if (strstr(buf, "ack\n"))
			return 0;
	}
	snprintf(why, len, "perf (%s) answered '%.*s' with neither ack nor error",
		 log, (int)strcspn(cmd, "\n"), cmd);
	return -1;
}

/*
 * Wait up to WL_PROF_ACK_S for @c to end; its wait status in *@st.  0, or
 * -1 when it did not end (then killed).
 */
static int wl_pchild_wait(struct wl_pchild *c, int *st)
{
	struct timespec ms = { 0, 20000000 };
	double end = wl_now() + WL_PROF_ACK_S;
	pid_t r;

	while (c->pid > 0) {
		r = waitpid(c->pid, st, WNOHANG);
		if (r == c->pid || (r < 0 && errno != EINTR)) {
			c->pid = 0;
			return r < 0 ? -1 : 0;
		}
		if (wl_now() > end) {
			kill(c->pid, SIGKILL);
			waitpid(c->pid, NULL, 0);
			c->pid = 0;
			return -1;
		}
		nanosleep(&ms, NULL);
	}
	return 0;
}

void wl_prof_abort(struct wl_profile *p)
{
	struct wl_pchild *c[] = { &p->rec, &p->stat };
	unsigned int i;

	for (i = 0; p->on && i < 2; i++) {
		wl_pchild_close(c[i]);
		if (c[i]->pid > 0) {
			kill(c[i]->pid, SIGKILL);
			waitpid(c[i]->pid, NULL, 0);
			c[i]->pid = 0;
		}
	}
	p->on = false;
	free(p->sym);
	p->sym = NULL;
	p->nsym = 0;
}

int wl_prof_start(struct wl_profile *p, char *why, size_t len)
{
	static const char * const stat_ev =
		"context-switches,cpu-migrations,task-clock,cycles,"
		"instructions,branch-misses,cache-misses";
	char data[PATH_MAX], csv[PATH_MAX], hz[16], out[128];
	const char *rec_args[12], *stat_args[12];
	char *ver_argv[] = { p->perf, "--version", NULL };
	struct stat sb;
	int n;

	p->rec = (struct wl_pchild){ 0, -1, -1 };
	p->stat = (struct wl_pchild){ 0, -1, -1 };
	p->sym = NULL;
	p->nsym = 0;
	p->on = true;
	if (wl_capture(p->perf, ver_argv, out, sizeof(out), 30) ||
	    strncmp(out, "perf version ", 13)) {
		snprintf(why, len, "%s: not found or not Linux's perf (on Debian: apt install linux-perf)",
			 p->perf);
		return -1;
	}
	snprintf(p->version, sizeof(p->version), "%.*s",
		 (int)strcspn(out + 13, "\n"), out + 13);
	if ((mkdir(p->dir, 0755) && errno != EEXIST) ||
	    stat(p->dir, &sb) || access(p->dir, W_OK)) {
		snprintf(why, len, "--profile %s: %s", p->dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(sb.st_mode)) {
		snprintf(why, len, "--profile %s: not a directory", p->dir);
		return -1;
	}
	snprintf(p->event, sizeof(p->event), "%s",
		 wl_prof_has_pmu() ? "cycles" : "cpu-clock");
	snprintf(data, sizeof(data), "%s/perf.data", p->dir);
	snprintf(csv, sizeof(csv), "%s/stat.csv", p->dir);
	snprintf(hz, sizeof(hz), "%d", WL_PROF_HZ);
	n = 0;
	rec_args[n++] = "-a";
	rec_args[n++] = "-g";
	rec_args[n++] = "-F";
	rec_args[n++] = hz;
	rec_args[n++] = "-e";
	rec_args[n++] = p->event;
	rec_args[n++] = "-q";
	rec_args[n++] = "-o";
	rec_args[n++] = data;
	rec_args[n] = NULL;
	n = 0;
	stat_args[n++] = "-a";
	stat_args[n++] = "-x,";
	stat_args[n++] = "-e";
	stat_args[n++] = stat_ev;
	stat_args[n++] = "-o";
	stat_args[n++] = csv;
	stat_args[n] = NULL;
	if (wl_pchild_spawn(p, &p->rec, "record", rec_args, "record.log",
			    why, len) ||
	    wl_pchild_spawn(p, &p->stat, "stat", stat_args, "stat.log",
			    why, len) ||
	    wl_pchild_cmd(p, &p->rec, "ping\n", "record.log", why, len) ||
	    wl_pchild_cmd(p, &p->stat, "ping\n", "stat.log", why, len)) {
		wl_prof_abort(p);
		return -1;
	}
	return 0;
}

int wl_prof_enable(struct wl_profile *p, bool on, char *why, size_t len)
{
	const char *cmd = on ? "enable\n" : "disable\n";

	if (wl_pchild_cmd(p, &p->rec, cmd, "record.log", why, len) ||
	    wl_pchild_cmd(p, &p->stat, cmd, "stat.log", why, len))
		return -1;
	return 0;
}

/* Copy /proc/kallsyms to @p->dir/kallsyms (for perf report elsewhere). */
static int wl_prof_kallsyms(const struct wl_profile *p, char *why,
			    size_t len)
{
	char path[PATH_MAX], buf[65536];
	FILE *in, *out;
	size_t n;
	int err = 0;

	snprintf(path, sizeof(path), "%s/kallsyms", p->dir);
	in = fopen("/proc/kallsyms", "r");
	if (!in) {
		snprintf(why, len, "/proc/kallsyms: %s", strerror(errno));
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		fclose(in);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			err = errno ? errno : EIO;
	if (fclose(out) && !err)
		err = errno;
	fclose(in);
	if (err) {
		snprintf(why, len, "%s: %s", path, strerror(err));
		return -1;
	}
	return 0;
}

/* Read @path whole into a malloc()ed string; NULL with @why. */
static char *wl_prof_slurp(const char *path, char *why, size_t len)
{
	char *buf = NULL;
	size_t cap = 0, got = 0, n;
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return NULL;
	}
	do {
		if (got + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap ? cap * 2 : 16384);

			if (!nb) {
				free(buf);
				fclose(f);
				snprintf(why, len, "out of memory");
				return NULL;
			}
			buf = nb;
			cap = cap ? cap * 2 : 16384;
		}
		n = fread(buf + got, 1, cap - 1 - got, f);
		got += n;
	} while (n > 0);
	fclose(f);
	buf[got] = '\0';
	return buf;
}

int wl_prof_finish(struct wl_profile *p, char *why, size_t len)
{
	char data[PATH_MAX], csv[PATH_MAX], tail[200], *text;
	struct wl_capture_opts co = { .timeout_s = 10 * WL_PROF_ACK_S,
				      .stdout_only = true };
	char *argv[] = { p->perf, "report", "-i", data, "--stdio", "-q",
			 "--no-children", "-g", "none", "--sort", "dso,sym",
			 "-F", "overhead,sample,dso,sym", "--percent-limit", "0",
			 NULL };
	int st = 0, r;

	snprintf(data, sizeof(data), "%s/perf.data", p->dir);
	snprintf(csv, sizeof(csv), "%s/stat.csv", p->dir);
	/* perf record ends on "stop"; perf stat on SIGINT, as at a terminal. */
	if (wl_pchild_cmd(p, &p->rec, "stop\n", "record.log", why, len))
		goto fail;
	if (wl_pchild_wait(&p->rec, &st) || !WIFEXITED(st) || WEXITSTATUS(st)) {
		wl_prof_log_tail(p, "record.log", tail, sizeof(tail));
		snprintf(why, len, "perf record did not end cleanly%s%s",
			 tail[0] ? ": " : "", tail);
		goto fail;
	}
	kill(p->stat.pid, SIGINT);
	if (wl_pchild_wait(&p->stat, &st) ||
	    !((WIFEXITED(st) && (!WEXITSTATUS(st) || WEXITSTATUS(st) == 130)) ||
	      (WIFSIGNALED(st) && WTERMSIG(st) == SIGINT))) {
		wl_prof_log_tail(p, "stat.log", tail, sizeof(tail));
		snprintf(why, len, "perf stat did not end cleanly%s%s",
			 tail[0] ? ": " : "", tail);
		goto fail;
	}
	wl_pchild_close(&p->rec);
	wl_pchild_close(&p->stat);
	p->on = false;
	if (wl_prof_kallsyms(p, why, len))
		goto fail;
	text = malloc(WL_PROF_REPORT_MAX);
	if (!text) {
		snprintf(why, len, "out of memory");
		goto fail;
	}
	r = wl_capture_with(p->perf, argv, text, WL_PROF_REPORT_MAX, &co);
	if (r) {
		snprintf(why, len, "perf report -i %s: %s", data,
			 co.timed_out ? "timed out" : "failed");
		free(text);
		goto fail;
	}
	r = wl_prof_parse_report(text, &p->sym, &p->nsym, &p->samples);
	free(text);
	if (r) {
		snprintf(why, len, "out of memory");
		goto fail;
	}
	text = wl_prof_slurp(csv, why, len);
	if (!text)
		goto fail;
	wl_prof_parse_stat(text, p->val, p->have);
	free(text);
	p->ipc = p->have[WL_PSTAT_CYCLES] && p->have[WL_PSTAT_INSTRUCTIONS] &&
		 p->val[WL_PSTAT_CYCLES] > 0 ?
		 p->val[WL_PSTAT_INSTRUCTIONS] / p->val[WL_PSTAT_CYCLES] : 0;
	return 0;
fail:
	wl_prof_abort(p);
	return -1;
}

static int wl_psym_cmp(const void *a, const void *b)
{
	const struct wl_psym *x = a, *y = b;

	if (x->pct != y->pct)
		return x->pct < y->pct ? 1 : -1;
	return strcmp(x->name, y->name);
}

/*
 * The " [X] " that ends a report line's dso (which may hold spaces) and
 * says whose the symbol is: k kernel, . user, g/u a guest's, H hypervisor.
 */
static const char *wl_prof_mark(const char *s, const char *end)
{
	for (; s + 5 <= end; s++)
		if (s[0] == ' ' && s[1] == '[' && strchr("k.guH", s[2]) &&
		    s[2] && s[3] == ']' && s[4] == ' ')
			return s;
	return NULL;
}

int wl_prof_parse_report(const char *text, struct wl_psym **sym, int *nsym,
			 long *samples)
{
	const char *line, *nl, *mark;
	struct wl_psym *v = NULL, *nv;
	int n = 0, cap = 0, off;
	double pct;
	long cnt;
	size_t l;

	*samples = 0;
	for (line = text; *line; line = nl + (*nl != '\0')) {
		nl = line + strcspn(line, "\n");
		if (sscanf(line, " %lf%% %ld %n", &pct, &cnt, &off) != 2 ||
		    line + off > nl)
			continue;
		*samples += cnt;
		mark = wl_prof_mark(line + off, nl);
		if (!mark || mark[2] != 'k' || pct < WL_PROF_MIN_PCT)
			continue;
		mark += 5;
		while (mark < nl && *mark == ' ')
			mark++;
		l = nl - mark;
		while (l && (mark[l - 1] == ' ' || mark[l - 1] == '\r'))
			l--;
		if (!l)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				return -1;
			}
			v = nv;
		}
		snprintf(v[n].name, sizeof(v[n].name), "%.*s", (int)l, mark);
		v[n].pct = pct;
		v[n].samples = cnt;
		n++;
	}
	if (n)
		qsort(v, n, sizeof(*v), wl_psym_cmp);
	*sym = v;
	*nsym = n;
	return 0;
}

int wl_prof_parse_stat(const char *text, double val[WL_PSTAT_NR],
		       bool have[WL_PSTAT_NR])
{
	const char *line, *nl, *f[3];
	char num[64];
	double v;
	int i, k, got = 0;
	size_t el;

	for (i = 0; i < WL_PSTAT_NR; i++) {
		val[i] = 0;
		have[i] = false;
	}
	for (line = text; *line; line = nl + (*nl != '\0')) {
		nl = line + strcspn(line, "\n");
		if (*line == '#')
			continue;
		/* value,unit,event,... */
		f[0] = line;
		for (k = 1; k < 3; k++) {
			f[k] = memchr(f[k - 1], ',', nl - f[k - 1]);
			if (!f[k])
				break;
			f[k]++;
		}
		if (k < 3)
			continue;
		el = strcspn(f[2], ",\n");
		for (i = 0; i < WL_PSTAT_NR; i++)
			if (strlen(wl_pstat_events[i]) == el &&
			    !strncmp(f[2], wl_pstat_events[i], el))
				break;
		if (i == WL_PSTAT_NR || *f[0] == '<' ||
		    (size_t)(f[1] - 1 - f[0]) >= sizeof(num))
			continue;
		snprintf(num, sizeof(num), "%.*s", (int)(f[1] - 1 - f[0]), f[0]);
		if (!have[i] && sscanf(num, "%lf", &v) == 1) {
			val[i] = v;
			have[i] = true;
			got++;
		}
	}
	return got;
}

bool wl_prof_sched_symbol(const char *sym)
{
	static const char * const prefix[] = {
		"wake_affine", "select_idle_", "select_task_rq", "ttwu_",
		"enqueue_task", "dequeue_task", "enqueue_entit",
		"dequeue_entit", "sched_balance_",
	};
	static const char * const exact[] = {
		"find_busiest_group", "load_balance", "rebalance_domains",
		"newidle_balance", "try_to_wake_up",
	};
	size_t l = strcspn(sym, ".");
	unsigned int i;

	for (i = 0; i < sizeof(prefix) / sizeof(prefix[0]); i++)
		if (!strncmp(sym, prefix[i], strlen(prefix[i])))
			return true;
	for (i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (strlen(exact[i]) == l && !strncmp(sym, exact[i], l))
			return true;
	return false;
}
