// SPDX-License-Identifier: GPL-2.0
/*
 * wl_stream's netperf engine: see wl/stream/netperf.h.
 *
 * The controller (this process) starts one netserver on a free loopback
 * port, forks one child per instance that blocks on a pipe, then closes the
 * pipe: every child execs netperf at once (the barrier), with the run's
 * sizes, socket buffers and pinning (-T sender,receiver: netperf binds
 * itself, netserver its data process).  Each netperf prints an interim
 * record every WL_NETPERF_INTERVAL seconds of wall-clock time (demo mode,
 * -D -INTERVAL) to a pipe the controller reads.  The warm-up counts from
 * the start of the last instance's first record; the window opens with
 * the first sample and closes with the second, as in wl_stream's engine;
 * the controller then waits for every instance's records to reach past the
 * window's end and stops netperf and netserver.  The samples' per-instance
 * counters are then set to the window's figures, so that the shared end
 * (wl_stream_finish(), lib/stream/report.c) computes and prints them as it
 * does the engine's own; wl_srun.engine names netperf's version.
 *
 * --plain runs netperf as its users run it instead: the netperfs start
 * together when the controller closes the pipe, each with -l SEC and no
 * interim records, and the window (the samples, and so the placement
 * counts) spans their whole life, connection set-up and teardown
 * included; each instance's throughput is netperf's own result.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "wl/core/clock.h"
#include "wl/core/file.h"
#include "wl/core/proc.h"
#include "wl/core/text.h"
#include "wl/stream/engine.h"
#include "wl/stream/netperf.h"
#include "wl/stream/pin.h"
#include "wl/stream/report.h"
#include "wl/stream/run.h"

/* Seconds the instances may take to report their first record. */
#define WL_NP_START_S		30.0
/* Seconds after the window for the records to reach past its end. */
#define WL_NP_END_S		10.0
#define WL_NP_LINE		512
#define WL_NP_ADDR		"127.0.0.1"
/*
 * Each netperf's pipe holds this many bytes of records (about 6000 lines:
 * 25 minutes at WL_NETPERF_INTERVAL), and the controller reads them at
 * least every WL_NP_PIPE_S through the window.
 */
#define WL_NP_PIPE_BYTES	(1 << 20)
#define WL_NP_PIPE_S		600.0

/**
 * struct wl_np_inst - one netperf process as the controller sees it
 * @fd:		read end of its stdout+stderr, -1 at EOF
 * @line:	the partial line read so far
 * @used:	bytes in @line
 * @rec:	its interim records, in order
 * @nrec:	records in @rec
 * @cap:	room in @rec
 * @last:	its last line that was no record (an error, usually)
 * @result:	--plain: its result line's throughput (kbit/s) or trans/s,
 *		NaN before it printed one
 */
struct wl_np_inst {
	int fd;
	char line[WL_NP_LINE];
	size_t used;
	struct wl_np_rec *rec;
	int nrec, cap;
	char last[160];
	double result;
};

static struct wl_np_inst *wl_np;
static void wl_np_stop_server(void);
static char wl_np_netperf[256], wl_np_netserver[256];
static pid_t wl_np_server;
/* CLOCK_REALTIME minus CLOCK_MONOTONIC: netperf's times are wall-clock. */
static double wl_np_off;

int wl_np_parse_interim(const char *line, struct wl_np_rec *r)
{
	char unit[32];
	double v, secs, end;

	if (sscanf(line, "Interim result: %lf %31s over %lf seconds ending at %lf",
		   &v, unit, &secs, &end) != 4)
		return -1;
	if (strcmp(unit, "10^3bits/s") && strcmp(unit, "Trans/s"))
		return -1;
	if (!isfinite(v) || v < 0 || !isfinite(secs) || secs <= 0 ||
	    !isfinite(end))
		return -1;
	r->value = v;
	r->secs = secs;
	r->end = end;
	return 0;
}

double wl_np_overlap(const struct wl_np_rec *r, double a, double b)
{
	double lo = r->end - r->secs > a ? r->end - r->secs : a;
	double hi = r->end < b ? r->end : b;

	return hi > lo ? hi - lo : 0;
}

static double wl_np_realtime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* @name in $WAKELAB_NETPERF_DIR, else on $PATH, else /usr/bin; 0 or -1. */
static int wl_np_find(const char *name, char *out, size_t len)
{
	const char *dir = getenv("WAKELAB_NETPERF_DIR");
	char path[4096], *p, *save = NULL;

	if (dir && *dir) {
		snprintf(out, len, "%s/%s", dir, name);
		return access(out, X_OK);
	}
	snprintf(path, sizeof(path), "%s:/usr/bin", getenv("PATH") ?: "");
	for (p = strtok_r(path, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", *p ? p : ".", name);
		if (!access(out, X_OK))
			return 0;
	}
	return -1;
}


/* Whether netperf and netserver are here: 0 or 4 (skip, printed). */
static int wl_np_check(void)
{
	char out[1024];
	char *argv[3];

	if (wl_np_find("netperf", wl_np_netperf, sizeof(wl_np_netperf)) ||
	    wl_np_find("netserver", wl_np_netserver, sizeof(wl_np_netserver))) {
		fprintf(stderr,
			"wl_stream: SKIP: netperf:%s needs netperf and netserver (Debian's netperf package, in non-free; make deps extracts it to .cache/netperf/ and the VM carries it; WAKELAB_NETPERF_DIR names another directory)\n",
			wl_workload_upper[wl_srun.cfg.workload]);
		return WL_EXIT_SKIP;
	}
	argv[0] = wl_np_netperf;
	argv[1] = "-V";
	argv[2] = NULL;
	wl_capture(argv[0], argv, out, sizeof(out), 5);
	if (!strncmp(out, "Netperf version ", 16))
		snprintf(wl_srun.engine, sizeof(wl_srun.engine), "netperf %.*s%s",
			 (int)strcspn(out + 16, " \n"), out + 16,
			 wl_srun.cfg.plain ? " plain" : "");
	else
		snprintf(wl_srun.engine, sizeof(wl_srun.engine), "netperf%s",
			 wl_srun.cfg.plain ? " plain" : "");

	return 0;
}

/* A TCP port on loopback nothing listens on now; 0 on failure. */
static int wl_np_free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	int fd, port = 0;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	if (!bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(fd, (struct sockaddr *)&a, &alen))
		port = ntohs(a.sin_port);
	close(fd);
	return port;
}

/*
 * The inodes of the TCP sockets listening on @port (any local address,
 * IPv4 and IPv6) from /proc/net/tcp and tcp6, up to @max; their count.
 */
static int wl_np_listeners(int port, unsigned long *ino, int max)
{
	static const char * const files[] = { "/proc/net/tcp", "/proc/net/tcp6" };
	unsigned int lport, state;
	unsigned long inode;
	char line[512];
	unsigned int k;
	int n = 0;
	FILE *f;

	for (k = 0; k < 2; k++) {
		f = fopen(files[k], "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			/* sl local:port rem:port st tx:rx tr:when retr uid timeout inode */
			if (sscanf(line, " %*d: %*[0-9A-Fa-f]:%X %*[0-9A-Fa-f]:%*X %X %*X:%*X %*X:%*X %*X %*u %*u %lu",
				   &lport, &state, &inode) != 3)
				continue;
			if (state == 0x0A && (int)lport == port && n < max)
				ino[n++] = inode;
		}
		fclose(f);
	}
	return n;
}

/* Whether process @pid holds socket @inode (its /proc/PID/fd). */
static bool wl_np_holds(pid_t pid, unsigned long inode)
{
	char dir[64], path[128], link[64], want[64];
	struct dirent *d;
	bool found = false;
	ssize_t n;
	DIR *dp;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	snprintf(want, sizeof(want), "socket:[%lu]", inode);
	dp = opendir(dir);
	if (!dp)
		return false;
	while (!found && (d = readdir(dp))) {
		if (d->d_name[0] == '.' ||
		    wl_fmt(path, sizeof(path), "%s/%s", dir, d->d_name))
			continue;
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		found = !strcmp(link, want);
	}
	closedir(dp);
	return found;
}

int wl_np_port_owner(int port, pid_t pid)
{
	unsigned long ino[16];
	int i, n = wl_np_listeners(port, ino, 16), ours = 0;

	for (i = 0; i < n; i++) {
		if (!wl_np_holds(pid, ino[i]))
			return -1;
		ours++;
	}
	return ours ? 1 : 0;
}

/*
 * netserver in the foreground, in a process group of its own, on @port;
 * it counts as started once every listener on @port is its own (so a
 * program already on the port is never taken for it).  0, -1 with @why,
 * or -2 when the port turned out to be another program's (netserver
 * stopped: try another).
 */
static int wl_np_start_server(int port, char *why, size_t len)
{
	char portstr[16];
	double end;
	int st, fd, own;

	if (wl_np_port_owner(port, getpid()) < 0)
		return -2;
	snprintf(portstr, sizeof(portstr), "%d", port);
	wl_np_server = fork();
	if (wl_np_server < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		return -1;
	}
	if (!wl_np_server) {
		setpgid(0, 0);
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execl(wl_np_netserver, wl_np_netserver, "-D", "-4", "-L",
		      WL_NP_ADDR, "-p", portstr, (char *)NULL);
		_exit(127);
	}
	setpgid(wl_np_server, wl_np_server);
	/* Before it listens: every data process it forks follows it. */
	if (wl_wakelab_filter_add(&wl_srun.wlf, wl_np_server, why, len))
		return -1;
	for (end = wl_now() + 10; wl_now() < end;) {
		own = wl_np_port_owner(port, wl_np_server);
		if (own > 0)
			return 0;
		if (waitpid(wl_np_server, &st, WNOHANG) == wl_np_server) {
			wl_np_server = 0;
			if (own < 0)
				return -2;
			snprintf(why, len, "netserver -p %d exited (status %d) before it listened",
				 port,
				 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
			return -1;
		}
		/* Another program's listener, and netserver's not (yet). */
		if (own < 0 && wl_now() > end - 9) {
			wl_np_stop_server();
			return -2;
		}
		usleep(20000);
	}
	snprintf(why, len, "netserver did not listen on port %d within 10 s",
		 port);
	return -1;
}

/*
 * Whether this netperf has the test (netperf checks the name after its
 * control connection: ask the netserver on @port); 0 or 4 (skip, printed).
 * Only SCTP_STREAM is optional in netperf's build.
 */
static int wl_np_probe(int port)
{
	char out[1024], test[32], portstr[16];
	char *argv[12];
	int i = 0;

	if (!wl_workload_sctp(wl_srun.cfg.workload))
		return 0;
	snprintf(portstr, sizeof(portstr), "%d", port);
	snprintf(test, sizeof(test), "%s",
		 wl_workload_upper[wl_srun.cfg.workload]);
	argv[i++] = wl_np_netperf;
	argv[i++] = "-H";
	argv[i++] = WL_NP_ADDR;
	argv[i++] = "-p";
	argv[i++] = portstr;
	argv[i++] = "-t";
	argv[i++] = test;
	argv[i++] = "-l";
	argv[i++] = "1";
	argv[i] = NULL;
	wl_capture(argv[0], argv, out, sizeof(out), 5);
	if (strstr(out, "is unknown to this netperf")) {
		fprintf(stderr,
			"wl_stream: SKIP: netperf:%s: %s has no %s test (Debian's netperf is built without --enable-sctp; wl_stream's own -w %s runs it)\n",
			test, wl_srun.engine, test,
			wl_workload_names[wl_srun.cfg.workload]);
		return WL_EXIT_SKIP;
	}
	return 0;
}

/* Stop netserver and every data process it forked; reap netserver. */
static void wl_np_stop_server(void)
{
	if (wl_np_server <= 0)
		return;
	kill(-wl_np_server, SIGKILL);
	kill(wl_np_server, SIGKILL);
	waitpid(wl_np_server, NULL, 0);
	wl_np_server = 0;
}

static void __attribute__((noreturn)) wl_np_die(int status)
{
	wl_np_stop_server();
	wl_stream_die(status);
}

/* The CPU process @pid last ran on (/proc/PID/stat field 39), or -1. */
static int wl_np_cpu_of(pid_t pid)
{
	char path[64], buf[1024], *p;
	int field, cpu = -1;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (wl_read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	p = strrchr(buf, ')');
	for (field = 2; p && field < 39; field++)
		p = strchr(p + 1, ' ');
	if (p)
		cpu = atoi(p + 1);
	return cpu;
}

/*
 * The netperf command line of instance @i: its arguments one after the
 * other in @s (@len bytes), at most @max - 1 of them in @argv; 0, or -1
 * when they do not fit (nothing is written past either).
 */
static int wl_np_argv(int i, int port, char *s, size_t len, char *argv[],
		      int max)
{
	struct wl_inst *in = &wl_srun.sh->inst[i];
	bool rr = wl_workload_rr(wl_srun.cfg.workload);
	int n = 0, k, bad = 0;
	char *p = s;

#define ARG(...) do {							\
		size_t left_ = len - (p - s);				\
		if (bad || n >= max - 1) {				\
			bad = 1;					\
			break;						\
		}							\
		k = snprintf(p, left_, __VA_ARGS__);			\
		if (k < 0 || (size_t)k >= left_) {			\
			bad = 1;					\
			break;						\
		}							\
		argv[n++] = p;						\
		p += k + 1;						\
	} while (0)
	ARG("%s", wl_np_netperf);
	ARG("-H");
	ARG(WL_NP_ADDR);
	ARG("-4");
	ARG("-p");
	ARG("%d", port);
	ARG("-t");
	ARG("%s", wl_workload_upper[wl_srun.cfg.workload]);
	if (wl_srun.cfg.plain) {
		/* As its users run it: -l, one result at the end. */
		ARG("-l");
		ARG("%d", (int)ceil(wl_srun.cfg.duration));
	} else {
		/* Stopped once the window is covered; only a bound. */
		ARG("-l");
		ARG("%d", (int)ceil(WL_NP_START_S + wl_srun.cfg.warmup +
				    wl_srun.cfg.duration + WL_NP_END_S + 10));
		ARG("-D");
		ARG("-%g", WL_NETPERF_INTERVAL);
	}
	ARG("-P");
	ARG("0");
	ARG("-f");
	ARG("k");
	if (in->snd_pin >= 0) {
		ARG("-T");
		ARG("%d,%d", in->snd_pin, in->rcv_pin);
	}
	ARG("--");
	if (rr) {
		ARG("-r");
		ARG("%ld,%ld", wl_srun.cfg.msg_size, wl_srun.cfg.recv_size);
	} else {
		ARG("-m");
		ARG("%ld", wl_srun.cfg.msg_size);
		/* --plain: receives of netperf's default size, as "-- -m 16K". */
		if (!wl_srun.cfg.plain) {
			ARG("-M");
			ARG("%ld", wl_srun.cfg.recv_size);
		}
	}
	if (wl_srun.cfg.sndbuf) {
		ARG("-s");
		ARG("%ld", wl_srun.cfg.sndbuf);
	}
	if (wl_srun.cfg.rcvbuf) {
		ARG("-S");
		ARG("%ld", wl_srun.cfg.rcvbuf);
	}
#undef ARG
	argv[n] = NULL;
	return bad ? -1 : 0;
}

/*
 * Fork every netperf, blocked on @go until the release; 0 or -1 with @why.
 */
static int wl_np_spawn(int port, int go, int go_w, char *why, size_t len)
{
	char args[1024], *argv[40], c;
	int i, p[2];
	pid_t pid;

	for (i = 0; i < wl_srun.cfg.instances; i++) {
		wl_pin_cpus(&wl_srun.topo, wl_srun.cfg.pin, i,
			    &wl_srun.sh->inst[i].snd_pin,
			    &wl_srun.sh->inst[i].rcv_pin);
		wl_srun.sh->inst[i].snd.cpu = -1;
		wl_srun.sh->inst[i].rcv.cpu = wl_srun.sh->inst[i].rcv_pin;
		if (wl_np_argv(i, port, args, sizeof(args), argv,
			       sizeof(argv) / sizeof(argv[0]))) {
			snprintf(why, len, "instance %d: the netperf command line does not fit in %zu bytes",
				 i, sizeof(args));
			return -1;
		}
		if (pipe2(p, O_CLOEXEC)) {
			snprintf(why, len, "pipe: %s", strerror(errno));
			return -1;
		}
		pid = fork();
		if (pid < 0) {
			snprintf(why, len, "fork: %s", strerror(errno));
			return -1;
		}
		if (!pid) {
			close(go_w);
			dup2(p[1], 1);
			dup2(p[1], 2);
			/* The barrier: EOF when the controller closes it. */
			while (read(go, &c, 1) < 0 && errno == EINTR)
				;
			execv(argv[0], argv);
			fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
			_exit(127);
		}
		close(p[1]);
		wl_srun.sh->inst[i].pid[0] = pid;
		/* It waits for the barrier: nothing of it is measured yet. */
		if (wl_wakelab_filter_add(&wl_srun.wlf, pid, why, len))
			return -1;
		fcntl(p[0], F_SETFL, O_NONBLOCK);
		/* Best effort: a smaller pipe only bounds the window. */
		fcntl(p[0], F_SETPIPE_SZ, WL_NP_PIPE_BYTES);
		wl_np[i].fd = p[0];
	}
	return 0;
}

static int wl_np_add(struct wl_np_inst *n, const struct wl_np_rec *r)
{
	struct wl_np_rec *m;

	if (n->nrec == n->cap) {
		m = realloc(n->rec, (n->cap ? 2 * n->cap : 64) * sizeof(*m));
		if (!m)
			return -1;
		n->rec = m;
		n->cap = n->cap ? 2 * n->cap : 64;
	}
	n->rec[n->nrec++] = *r;
	return 0;
}

/*
 * --plain: netperf's result line with -P 0, its last field the throughput
 * ("131072 16384 16384 2.02 180.89"; TCP_RR: "16384 131072 1 1 2.00
 * 1234.56", then a line of the remote's socket sizes, which is not one).
 */
static void wl_np_parse_result(struct wl_np_inst *n)
{
	double v[8];
	int k, got;

	got = sscanf(n->line, "%lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1],
		     &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	k = wl_workload_rr(wl_srun.cfg.workload) ? 6 : 5;
	if (got == k && v[k - 1] >= 0)
		n->result = v[k - 1];
}

/* Take the complete lines of what instance @i wrote. */
static void wl_np_lines(struct wl_np_inst *n, bool eof)
{
	struct wl_np_rec r;
	char *nl;
	size_t k;

	for (;;) {
		nl = memchr(n->line, '\n', n->used);
		if (!nl && !(eof && n->used) && n->used < sizeof(n->line) - 1)
			return;
		k = nl ? (size_t)(nl - n->line) : n->used;
		n->line[k] = '\0';
		if (!wl_np_parse_interim(n->line, &r)) {
			wl_np_add(n, &r);
		} else if (n->line[strspn(n->line, " \t")]) {
			snprintf(n->last, sizeof(n->last), "%.*s",
				 (int)sizeof(n->last) - 1, n->line);
			wl_np_parse_result(n);
		}
		k = nl ? k + 1 : n->used;
		memmove(n->line, n->line + k, n->used - k);
		n->used -= k;
		if (!n->used)
			return;
	}
}

/*
 * Sleep @ms (none for 0), then read whatever the netperfs wrote; false on
 * a signal.  A timed sleep, not poll() on the pipes: a netperf writing a
 * record wakes nobody, and no wakeup of a netperf's making is the
 * controller's in the placement counts.
 */
static bool wl_np_pump(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	struct wl_np_inst *n;
	ssize_t got;
	int i;

	if (ms)
		nanosleep(&ts, NULL);
	for (i = 0; i < wl_srun.cfg.instances; i++) {
		n = &wl_np[i];
		while (n->fd >= 0) {
			got = read(n->fd, n->line + n->used,
				   sizeof(n->line) - 1 - n->used);
			if (got > 0) {
				n->used += got;
				wl_np_lines(n, false);
				continue;
			}
			if (got < 0 && (errno == EAGAIN || errno == EINTR))
				break;
			wl_np_lines(n, true);
			close(n->fd);
			n->fd = -1;
		}
	}
	return !wl_stream_interrupted();
}

/* The first instance that has ended (its output at EOF), or -1. */
static int wl_np_ended(void)
{
	int i;

	for (i = 0; i < wl_srun.cfg.instances; i++)
		if (wl_np[i].fd < 0)
			return i;
	return -1;
}

static void wl_np_ended_why(int i, char *why, size_t len)
{
	snprintf(why, len, "instance %d: netperf ended early: %s", i,
		 wl_np[i].last[0] ? wl_np[i].last : "(no message)");
}

/*
 * Read until every instance has a record that starts (@start) or ends at
 * or after realtime @t, or the monotonic @deadline; 0, or -1 with @why.
 */
static int wl_np_wait_records(bool start, double t, double deadline,
			      const char *what, char *why, size_t len)
{
	const struct wl_np_rec *r;
	int i, ok;

	for (;;) {
		for (i = 0, ok = 0; i < wl_srun.cfg.instances; i++) {
			if (!wl_np[i].nrec)
				continue;
			r = &wl_np[i].rec[wl_np[i].nrec - 1];
			ok += start || r->end >= t;
		}
		if (ok == wl_srun.cfg.instances)
			return 0;
		i = wl_np_ended();
		if (i >= 0) {
			wl_np_ended_why(i, why, len);
			return -1;
		}
		if (wl_now() > deadline) {
			snprintf(why, len,
				 "%d of %d netperf instances reported no record %s",
				 wl_srun.cfg.instances - ok,
				 wl_srun.cfg.instances, what);
			return -1;
		}
		if (!wl_np_pump(50)) {
			snprintf(why, len, "interrupted by a signal");
			return -1;
		}
	}
}

/*
 * Sleep until the monotonic @end, waking early only for a child that ends
 * (SIGCHLD) or a stop signal, and for the pipes at most every
 * WL_NP_PIPE_S; then read what the netperfs wrote.  0, or -1 with @why.
 */
static int wl_np_watch(double end, char *why, size_t len)
{
	uint32_t seen;
	int i;

	for (;;) {
		seen = __atomic_load_n(wl_stream_events(), __ATOMIC_ACQUIRE);
		if (!wl_np_pump(0)) {
			snprintf(why, len, "interrupted by a signal");
			return -1;
		}
		i = wl_np_ended();
		if (i >= 0) {
			wl_np_ended_why(i, why, len);
			return -1;
		}
		if (end - wl_now() <= 0)
			return 0;
		wl_stream_sleep(end, seen, WL_NP_PIPE_S);
	}
}

/* Udp InDatagrams of /proc/net/snmp, or -1. */
static long long wl_np_udp_in(void)
{
	char buf[8192], *p;
	long long v;

	if (wl_read_file("/proc/net/snmp", buf, sizeof(buf)) <= 0)
		return -1;
	/* The second "Udp:" line has the values. */
	p = strstr(buf, "\nUdp:");
	p = p ? strstr(p + 1, "\nUdp:") : NULL;
	if (!p || sscanf(p, "\nUdp: %lld", &v) != 1)
		return -1;
	return v;
}

/*
 * The window's figures from the records, into the samples' per-instance
 * counters (@a zero, @b the window's amounts) and the slots (the whole
 * run's, as netperf reported it).
 */
static void wl_np_fill(struct wl_sample *a, struct wl_sample *b,
		       long long udp_in)
{
	double ra = a->t + wl_np_off, rb = b->t + wl_np_off;
	bool rr = wl_workload_rr(wl_srun.cfg.workload);
	bool udp = wl_srun.cfg.workload == WL_UDP_STREAM;
	double amt, all, cover, gap, win_sent = 0, ov;
	struct wl_inst *in;
	struct wl_np_rec *r;
	int i, k;

	for (i = 0; i < wl_srun.cfg.instances; i++) {
		in = &wl_srun.sh->inst[i];
		amt = all = cover = gap = 0;
		for (k = 0; k < wl_np[i].nrec; k++) {
			r = &wl_np[i].rec[k];
			/* kbit/s to bytes/s, or transactions/s. */
			ov = wl_np_overlap(r, ra, rb);
			amt += r->value * (rr ? 1 : 125) * ov;
			all += r->value * (rr ? 1 : 125) * r->secs;
			cover += ov;
			if (ov > 0 && r->value == 0)
				gap += ov;
		}
		wl_srun.prog_gap[i] = gap;
		if (cover < 0.99 * (rb - ra))
			fprintf(stderr,
				"wl_stream: warning: instance %d: netperf's records cover %.3f s of the %.3f s window\n",
				i, cover, rb - ra);
		a->snd_bytes[i] = a->rcv_bytes[i] = 0;
		a->snd_msgs[i] = a->rcv_msgs[i] = 0;
		if (rr) {
			b->snd_msgs[i] = b->rcv_msgs[i] = llround(amt);
			in->snd.msgs = in->rcv.msgs = llround(all);
			in->snd.bytes = in->snd.msgs * wl_srun.cfg.msg_size;
			in->rcv.bytes = in->rcv.msgs * wl_srun.cfg.recv_size;
		} else {
			b->snd_bytes[i] = b->rcv_bytes[i] = llround(amt);
			in->snd.bytes = in->rcv.bytes = llround(all);
			if (udp) {
				b->snd_msgs[i] = llround(amt /
							 wl_srun.cfg.msg_size);
				in->snd.msgs = llround(all /
						       wl_srun.cfg.msg_size);
				win_sent += b->snd_msgs[i];
			} else {
				b->snd_msgs[i] = b->rcv_msgs[i] = 0;
			}
		}
		in->snd.cpu = wl_np_cpu_of(in->pid[0]);
	}
	if (!udp)
		return;
	/*
	 * What the receivers read in the window, all instances together (the
	 * kernel counts a datagram in InDatagrams when recvmsg() returns it),
	 * shared out in proportion to what each sent.
	 */
	for (i = 0; i < wl_srun.cfg.instances; i++) {
		in = &wl_srun.sh->inst[i];
		ov = win_sent > 0 && udp_in > 0 ?
		     udp_in * (b->snd_msgs[i] / win_sent) : 0;
		if (ov > b->snd_msgs[i])
			ov = b->snd_msgs[i];
		b->rcv_msgs[i] = llround(ov);
		b->rcv_bytes[i] = b->rcv_msgs[i] * wl_srun.cfg.msg_size;
		in->rcv.msgs = b->snd_msgs[i] ?
			       llround(in->snd.msgs * ov / b->snd_msgs[i]) : 0;
		if (in->rcv.msgs > in->snd.msgs)
			in->rcv.msgs = in->snd.msgs;
		in->rcv.bytes = in->rcv.msgs * wl_srun.cfg.msg_size;
	}
}

/*
 * --plain: sleep until every netperf has ended (SIGCHLD wakes the
 * controller), reading what they wrote; 0, or -1 with @why past @deadline
 * or on a stop signal.
 */
static int wl_np_plain_wait(double deadline, char *why, size_t len)
{
	uint32_t seen;
	int i, open;

	for (;;) {
		seen = __atomic_load_n(wl_stream_events(), __ATOMIC_ACQUIRE);
		if (!wl_np_pump(0)) {
			snprintf(why, len, "interrupted by a signal");
			return -1;
		}
		for (i = 0, open = 0; i < wl_srun.cfg.instances; i++)
			open += wl_np[i].fd >= 0;
		if (!open)
			return 0;
		if (deadline - wl_now() <= 0) {
			snprintf(why, len, "%d of %d netperf instances still running past their -l",
				 open, wl_srun.cfg.instances);
			return -1;
		}
		wl_stream_sleep(deadline, seen, WL_NP_PIPE_S);
	}
}

/*
 * --plain: each netperf's own result, as the window's amount (its rate
 * times the window, so that the report prints netperf's figure) in the
 * samples' per-instance counters and the slots; 0, or -1 with @why for an
 * instance that printed no result.
 */
static int wl_np_plain_fill(struct wl_sample *a, struct wl_sample *b,
			    char *why, size_t len)
{
	bool rr = wl_workload_rr(wl_srun.cfg.workload);
	double win = b->t - a->t;
	struct wl_inst *in;
	long long amt;
	int i;

	for (i = 0; i < wl_srun.cfg.instances; i++) {
		in = &wl_srun.sh->inst[i];
		if (isnan(wl_np[i].result)) {
			snprintf(why, len, "instance %d: netperf printed no result: %s",
				 i, wl_np[i].last[0] ? wl_np[i].last : "(nothing)");
			return -1;
		}
		/* kbit/s to bytes/s, or transactions/s. */
		amt = llround(wl_np[i].result * (rr ? 1 : 125) * win);
		wl_srun.prog_gap[i] = 0;
		a->snd_bytes[i] = a->rcv_bytes[i] = 0;
		a->snd_msgs[i] = a->rcv_msgs[i] = 0;
		if (rr) {
			b->snd_msgs[i] = b->rcv_msgs[i] = amt;
			in->snd.msgs = in->rcv.msgs = amt;
			in->snd.bytes = amt * wl_srun.cfg.msg_size;
			in->rcv.bytes = amt * wl_srun.cfg.recv_size;
		} else {
			b->snd_bytes[i] = b->rcv_bytes[i] = amt;
			b->snd_msgs[i] = b->rcv_msgs[i] = 0;
			in->snd.bytes = in->rcv.bytes = amt;
		}
	}
	return 0;
}

/* Stop every netperf, and netserver with its data processes. */
static void wl_np_stop(void)
{
	int i;

	for (i = 0; i < wl_srun.cfg.instances; i++)
		if (wl_srun.sh->inst[i].pid[0] > 0)
			kill(wl_srun.sh->inst[i].pid[0], SIGKILL);
	for (i = 0; i < wl_srun.cfg.instances; i++)
		if (wl_srun.sh->inst[i].pid[0] > 0) {
			waitpid(wl_srun.sh->inst[i].pid[0], NULL, 0);
			wl_srun.sh->inst[i].pid[0] = 0;
		}
	wl_np_stop_server();
}

int wl_netperf_main(void)
{
	long long udp0 = -1, udp1 = -1;
	struct wl_sample s0, s1;
	struct wl_result res;
	char why[256] = "";
	double release, first = 0, t;
	int ret, i, port, go[2];

	if (wl_srun.cfg.workload != WL_TCP_STREAM &&
	    wl_srun.cfg.workload != WL_UDP_STREAM &&
	    wl_srun.cfg.workload != WL_TCP_RR &&
	    wl_srun.cfg.workload != WL_SCTP_STREAM) {
		fprintf(stderr, "wl_stream: netperf: no such test\n");
		return WL_EXIT_USAGE;
	}
	ret = wl_np_check();
	if (ret)
		return ret;
	if (wl_stream_alloc())
		return WL_EXIT_FAIL;
	wl_np = calloc(wl_srun.cfg.instances, sizeof(*wl_np));
	if (!wl_np || wl_stream_sample_alloc(&s0) || wl_stream_sample_alloc(&s1) ||
	    wl_stream_result_alloc(&wl_srun, &res)) {
		fprintf(stderr, "wl_stream: out of memory\n");
		return WL_EXIT_FAIL;
	}
	for (i = 0; i < wl_srun.cfg.instances; i++) {
		wl_np[i].fd = -1;
		wl_np[i].result = NAN;
	}
	/* --plain streams receive at netperf's default size: say 0. */
	if (wl_srun.cfg.plain && !wl_workload_rr(wl_srun.cfg.workload))
		wl_srun.cfg.recv_size = 0;
	if (wl_srun.cfg.schedstats && wl_stream_schedstats_on())
		return WL_EXIT_FAIL;
	wl_stream_catch_children();
	if (wl_wakelab_filter_begin(&wl_srun.wlf, wl_srun.cfg.all_tasks,
				    wl_srun.cfg.remote || wl_srun.cfg.serve, why,
				    sizeof(why))) {
		wl_stream_restore_schedstats();
		fprintf(stderr, "wl_stream: %s\n", why);
		return WL_EXIT_FAIL;
	}
	/* perf first: its start-up is over before netperf runs. */
	if (wl_stream_profile_start(why, sizeof(why)))
		goto fail;
	/* A port another program took meanwhile is left to it. */
	for (i = 0, ret = -2; i < 5 && ret == -2; i++) {
		port = wl_np_free_port();
		if (!port) {
			snprintf(why, sizeof(why), "no free TCP port on loopback");
			goto fail;
		}
		ret = wl_np_start_server(port, why, sizeof(why));
		if (ret == -2)
			fprintf(stderr, "wl_stream: netperf: port %d has a listener that is not the netserver started here; trying another\n",
				port);
	}
	if (ret == -2)
		snprintf(why, sizeof(why),
			 "5 ports in a row had a listener other than the netserver started here");
	if (ret)
		goto fail;
	ret = wl_np_probe(port);
	if (ret) {
		wl_prof_abort(&wl_srun.prof);
		wl_np_stop_server();
		wl_wakelab_filter_end(&wl_srun.wlf);
		wl_stream_restore_schedstats();
		return ret;
	}
	if (pipe2(go, O_CLOEXEC)) {
		snprintf(why, sizeof(why), "pipe: %s", strerror(errno));
		goto fail;
	}
	if (wl_np_spawn(port, go[0], go[1], why, sizeof(why)))
		goto fail;
	close(go[0]);
	wl_perf_open(&wl_srun.perf, wl_srun.topo.cpu, wl_srun.topo.ncpus);
	wl_np_off = wl_np_realtime() - wl_now();

	/*
	 * --plain: the window is the netperfs' whole life, from their release
	 * to the last one's end, connection set-up and teardown included;
	 * the throughput is what each printed.
	 */
	if (wl_srun.cfg.plain) {
		if (wl_stream_profile_window(true, why, sizeof(why)))
			goto fail;
		wl_stream_set_phase(WL_PH_MEASURE);
		wl_stream_sample(&s0);
		close(go[1]);
		if (wl_np_plain_wait(s0.t + wl_srun.cfg.duration + WL_NP_START_S +
				     WL_NP_END_S, why, sizeof(why)))
			goto fail;
		wl_stream_sample(&s1);
		if (wl_stream_profile_window(false, why, sizeof(why)))
			goto fail;
		wl_stream_set_phase(WL_PH_STOP);
		if (wl_np_plain_fill(&s0, &s1, why, sizeof(why)))
			goto fail;
		wl_np_stop();
		if (wl_stream_profile_finish(why, sizeof(why)))
			goto fail;
		return wl_stream_finish(&s0, &s1, &res);
	}

	/* The barrier. */
	release = wl_now();
	close(go[1]);
	wl_stream_set_phase(WL_PH_WARMUP);
	if (wl_np_wait_records(true, 0, release + WL_NP_START_S, "within 30 s of the start",
			       why, sizeof(why)))
		goto fail;
	for (i = 0; i < wl_srun.cfg.instances; i++) {
		t = wl_np[i].rec[0].end - wl_np[i].rec[0].secs - wl_np_off;
		if (t > first)
			first = t;
	}
	res.first_data_s = first > release ? first - release : 0;
	t = first + wl_srun.cfg.warmup;
	if (wl_np_watch(t, why, sizeof(why)))
		goto fail;
	if (wl_stream_profile_window(true, why, sizeof(why)))
		goto fail;
	wl_stream_set_phase(WL_PH_MEASURE);
	udp0 = wl_np_udp_in();
	wl_stream_sample(&s0);
	if (wl_np_watch(s0.t + wl_srun.cfg.duration, why, sizeof(why)))
		goto fail;
	wl_stream_sample(&s1);
	udp1 = wl_np_udp_in();
	if (wl_stream_profile_window(false, why, sizeof(why)))
		goto fail;
	wl_stream_set_phase(WL_PH_STOP);
	if (wl_np_wait_records(false, s1.t + wl_np_off, wl_now() + WL_NP_END_S,
			       "past the window's end", why, sizeof(why)))
		goto fail;
	/* The CPU each netperf was on as it ran, before it is stopped. */
	wl_np_fill(&s0, &s1, udp0 >= 0 && udp1 >= udp0 ? udp1 - udp0 : -1);
	wl_np_stop();
	if (wl_stream_profile_finish(why, sizeof(why)))
		goto fail;
	return wl_stream_finish(&s0, &s1, &res);

fail:
	fprintf(stderr, "wl_stream: netperf:%s: %s\n",
		wl_workload_upper[wl_srun.cfg.workload], why);
	wl_np_die(WL_EXIT_FAIL);
}
