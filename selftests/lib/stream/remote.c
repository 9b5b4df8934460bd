// SPDX-License-Identifier: GPL-2.0
/*
 * wl_stream on two hosts: the control connection of --remote (client) and
 * --serve (server).  See wl/stream/remote.h.
 *
 * Messages, one line each, client first:
 *   C: wl_stream PROTO SESSION-WORDS [ports=P,P,...] [token=T]
 *                                    (ports: --receive; token: --token)
 *   S: ok [ports=P,P,...] | error TEXT                  (ports: S receives)
 *   S: ready | fail TEXT                                (workers set up)
 *   C: go                                               (both release)
 *   C: poll PHASE COUNTERS  S: state PHASE COUNTERS | fail TEXT
 *   C: final PHASE COUNTERS S: state PHASE COUNTERS | fail TEXT
 *   S: fail TEXT                                   (unasked, at a failure)
 * COUNTERS: one word per instance, the sender's side's or the receiver's
 * side's slot of whoever sends them:
 * bytes,msgs,errors,done,verify_fail,cpu,gap_us (gap_us: a receiver's
 * longest time in the window without progress, as of the message).
 *
 * The client polls every WL_PEER_POLL_S outside the window and not in it:
 * one poll opens it (the first sample's), one closes it.  Meanwhile both
 * controllers sleep; a line on the control connection wakes them (SIGIO
 * to the controller thread), as does a worker's failure or a signal, so
 * that a failure on either side still ends the run at once.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wl/core/clock.h"
#include "wl/stream/engine.h"
#include "wl/stream/opts.h"
#include "wl/stream/pin.h"
#include "wl/stream/remote.h"
#include "wl/stream/run.h"
#include "wl/stream/workload.h"

#define WL_PEER_TIMEOUT_S	10	/* any reply */
/*
 * A server's bounds on connections that have not asked for a session:
 * their first line within WL_HELLO_S, at most WL_HELLO_MAX bytes (4096
 * instances' ports fit), at most WL_PENDING of them at once (the oldest
 * goes first), and a backlog for bursts.
 */
#define WL_HELLO_S		2.0
#define WL_HELLO_MAX		(64 << 10)
#define WL_PENDING		64
#define WL_BACKLOG		128
/* How long a refused connection gets to read its answer. */
#define WL_LINGER_S		2.0
#define WL_PEER_READY_S		75	/* the peer's workers: setup + slack */
#define WL_PEER_FINAL_S		45	/* the peer's drain + slack */
#define WL_PEER_POLL_S		0.05	/* counters exchanged this often */
/* A session past its window, first data and drain by this much ends. */
#define WL_SESSION_SLACK_S	120
/* A signalled server's session gets this long before SIGKILL. */
#define WL_SESSION_KILL_S	5
#define WL_LINE_MAX		(1 << 20)
#define WL_SKIP_PREFIX		"SKIP: "

static int wl_ctl = -1;
static struct sockaddr_in wl_peer_sin;
static char *wl_rbuf;
static size_t wl_rcap, wl_rlen, wl_rskip;
static double wl_next_poll;
/* A control error is final: later polls report it instead of a stale reply. */
static char wl_ctl_error[256];

/* Workers have no use for the control connection. */
static void wl_ctl_close_in_child(void)
{
	if (wl_ctl >= 0)
		close(wl_ctl);
	wl_ctl = -1;
}

static void wl_ctl_set(int fd)
{
	static bool once;

	if (!once && !pthread_atfork(NULL, NULL, wl_ctl_close_in_child))
		once = true;
	wl_ctl = fd;
}

static void wl_on_io(int sig)
{
	wl_stream_wake_controller();
}

/*
 * A line (or the end) on the control connection wakes the calling thread,
 * the controller, from its sleeps (SIGIO); 0, or -1 with @why.
 */
static int wl_ctl_async(char *why, size_t len)
{
	struct f_owner_ex own = { .type = F_OWNER_TID,
				  .pid = (pid_t)syscall(SYS_gettid) };
	struct sigaction sa;
	int fl;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = wl_on_io;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGIO, &sa, NULL) ||
	    fcntl(wl_ctl, F_SETOWN_EX, &own) ||
	    (fl = fcntl(wl_ctl, F_GETFL)) < 0 ||
	    fcntl(wl_ctl, F_SETFL, fl | O_ASYNC)) {
		snprintf(why, len, "control connection: asynchronous wakeups: %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* Whether the peer has said something not read yet (or hung up). */
static bool wl_ctl_readable(void)
{
	struct pollfd pfd = { .fd = wl_ctl, .events = POLLIN };

	if (wl_rbuf && wl_rlen > wl_rskip &&
	    memchr(wl_rbuf + wl_rskip, '\n', wl_rlen - wl_rskip))
		return true;
	return poll(&pfd, 1, 0) > 0;
}

/* Send one line within WL_PEER_TIMEOUT_S (a peer that stops reading). */
static int wl_ctl_send(const char *fmt, ...)
{
	double end = wl_now() + WL_PEER_TIMEOUT_S, left;
	struct pollfd pfd = { .fd = wl_ctl, .events = POLLOUT };
	char *line;
	size_t off = 0;
	ssize_t n;
	va_list ap;
	int len, r;

	va_start(ap, fmt);
	len = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (len < 0)
		return -1;
	while (off < (size_t)len) {
		left = end - wl_now();
		r = left > 0 ? wl_stream_poll(&pfd, 1, (int)(left * 1000) + 1) : 0;
		if (r < 0 && errno == EINTR && !wl_stream_interrupted())
			continue;
		if (r <= 0) {
			if (!r)
				errno = ETIMEDOUT;
			break;
		}
		n = send(wl_ctl, line + off, len - off, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			break;
		}
		off += n;
	}
	free(line);
	return off < (size_t)len ? -1 : 0;
}

/*
 * The next line from the peer, within @timeout seconds, NUL-terminated in
 * *@out (valid until the next call): 1, 0 at EOF, -1 on error (ETIMEDOUT
 * when the peer said nothing in time).
 */
static int wl_ctl_recv(double timeout, char **out)
{
	double end = wl_now() + timeout, left;
	struct pollfd pfd = { .fd = wl_ctl, .events = POLLIN };
	char *nl, *nb;
	ssize_t n;
	int r;

	if (wl_rskip) {
		memmove(wl_rbuf, wl_rbuf + wl_rskip, wl_rlen - wl_rskip);
		wl_rlen -= wl_rskip;
		wl_rskip = 0;
	}
	for (;;) {
		nl = wl_rbuf ? memchr(wl_rbuf, '\n', wl_rlen) : NULL;
		if (nl) {
			*nl = '\0';
			wl_rskip = nl - wl_rbuf + 1;
			*out = wl_rbuf;
			return 1;
		}
		if (wl_rlen + 1 >= wl_rcap) {
			if (wl_rcap >= WL_LINE_MAX) {
				errno = EMSGSIZE;
				return -1;
			}
			nb = realloc(wl_rbuf, wl_rcap ? wl_rcap * 2 : 4096);
			if (!nb)
				return -1;
			wl_rbuf = nb;
			wl_rcap = wl_rcap ? wl_rcap * 2 : 4096;
		}
		left = end - wl_now();
		if (left <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		r = wl_stream_poll(&pfd, 1, (int)(left * 1000) + 1);
		if (r < 0 && (errno != EINTR || wl_stream_interrupted()))
			return -1;
		if (r <= 0)
			continue;
		n = recv(wl_ctl, wl_rbuf + wl_rlen, wl_rcap - 1 - wl_rlen, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			return 0;
		wl_rlen += n;
	}
}

/* Why the control connection failed: wl_ctl_recv() returned @r, or -1 after a send. */
static void wl_ctl_lost(int r, double timeout, char *why, size_t len)
{
	const char *who = wl_srun.cfg.remote ? "the server" : "the client";

	if (r < 0 && errno == EINTR)
		snprintf(why, len, "interrupted by a signal");
	else if (r == 0 || errno == ECONNRESET || errno == EPIPE)
		snprintf(why, len, "%s %s closed the control connection (did its wl_stream die?)",
			 who, wl_srun.peer);
	else if (errno == ETIMEDOUT)
		snprintf(why, len, "%s %s did not answer within %.0f s",
			 who, wl_srun.peer, timeout);
	else
		snprintf(why, len, "control connection to %s %s: %s", who,
			 wl_srun.peer, strerror(errno));
	snprintf(wl_ctl_error, sizeof(wl_ctl_error), "%s", why);
}

/* Receive a line, with the reason in @why when there is none. */
static char *wl_ctl_expect(double timeout, char *why, size_t len)
{
	char *line;
	int r;

	r = wl_ctl_recv(timeout, &line);
	if (r > 0)
		return line;
	wl_ctl_lost(r, timeout, why, len);
	return NULL;
}

static struct wl_slot *wl_slot(int i, bool sender)
{
	return sender ? &wl_srun.sh->inst[i].snd : &wl_srun.sh->inst[i].rcv;
}

/* This side's slots (the role it runs), one word per instance. */
static char *wl_counters(void)
{
	bool snd = wl_stream_local(true);
	size_t cap = (size_t)wl_srun.cfg.instances * 160 + 1, off = 0;
	uint64_t now = wl_now_ns(), gap, last;
	struct wl_slot *s;
	char *buf;
	int i;

	buf = malloc(cap);
	if (!buf)
		return NULL;
	buf[0] = '\0';
	for (i = 0; i < wl_srun.cfg.instances && off < cap; i++) {
		s = wl_slot(i, snd);
		/* A receiver's gap so far: up to now if it is in one. */
		gap = __atomic_load_n(&s->gap_ns, __ATOMIC_RELAXED);
		last = __atomic_load_n(&s->last_ns, __ATOMIC_RELAXED);
		if (last && now > last && now - last > gap)
			gap = now - last;
		off += snprintf(buf + off, cap - off,
				"%s%llu,%llu,%llu,%d,%d,%d,%llu",
				i ? " " : "",
				(unsigned long long)__atomic_load_n(&s->bytes, __ATOMIC_RELAXED),
				(unsigned long long)__atomic_load_n(&s->msgs, __ATOMIC_RELAXED),
				(unsigned long long)__atomic_load_n(&s->errors, __ATOMIC_RELAXED),
				__atomic_load_n(&s->done, __ATOMIC_ACQUIRE),
				s->verify_fail, s->cpu,
				(unsigned long long)(gap / 1000));
	}
	return buf;
}

/* Store the peer's counters (@p: COUNTERS) in the slots of its role. */
static int wl_apply(const char *p)
{
	bool snd = !wl_stream_local(true);
	unsigned long long b, m, e, g;
	struct wl_slot *s;
	int i, d, v, cpu, n;

	for (i = 0; i < wl_srun.cfg.instances; i++) {
		if (sscanf(p, " %llu,%llu,%llu,%d,%d,%d,%llu%n", &b, &m, &e, &d,
			   &v, &cpu, &g, &n) != 7 || g > UINT64_MAX / 1000)
			return -1;
		p += n;
		s = wl_slot(i, snd);
		__atomic_store_n(&s->bytes, b, __ATOMIC_RELAXED);
		__atomic_store_n(&s->msgs, m, __ATOMIC_RELAXED);
		__atomic_store_n(&s->errors, e, __ATOMIC_RELAXED);
		/* The peer's clock is not ours: its gap as of the message. */
		__atomic_store_n(&s->gap_ns, g * 1000, __ATOMIC_RELAXED);
		__atomic_store_n(&s->last_ns, 0, __ATOMIC_RELAXED);
		s->verify_fail = v;
		s->cpu = cpu;
		__atomic_store_n(&s->done, d, __ATOMIC_RELEASE);
	}
	return *p ? -1 : 0;
}

/* Send "@verb PHASE COUNTERS". */
static int wl_send_counters(const char *verb)
{
	char *c = wl_counters();
	int r;

	if (!c)
		return -1;
	r = wl_ctl_send("%s %u %s\n", verb,
			__atomic_load_n(&wl_srun.sh->phase, __ATOMIC_ACQUIRE),
			c);
	free(c);
	return r;
}

/*
 * A "state PHASE COUNTERS" or "fail TEXT" reply of the server; 0, or -1
 * with @why.
 */
static int wl_client_reply(const char *line, char *why, size_t len)
{
	unsigned int ph;
	int n;

	if (!strncmp(line, "fail ", 5)) {
		snprintf(why, len, "server %s: %s", wl_srun.peer, line + 5);
		return -1;
	}
	if (sscanf(line, "state %u%n", &ph, &n) == 1 && !wl_apply(line + n))
		return 0;
	snprintf(why, len, "server %s: unexpected reply '%.60s'", wl_srun.peer,
		 line);
	return -1;
}

/* wl_stream_peer_poll of a client. */
static bool wl_remote_poll(bool now, char *why, size_t len)
{
	char *line;

	if (wl_ctl_error[0]) {
		snprintf(why, len, "%s", wl_ctl_error);
		return true;
	}
	/* In the window, only a line the server sent unasked: a failure. */
	if (!now && __atomic_load_n(&wl_srun.sh->phase, __ATOMIC_ACQUIRE) ==
		    WL_PH_MEASURE) {
		if (!wl_ctl_readable())
			return false;
		line = wl_ctl_expect(WL_PEER_TIMEOUT_S, why, len);
		if (line && strncmp(line, "fail ", 5))
			snprintf(why, len, "server %s: unexpected line '%.60s'",
				 wl_srun.peer, line);
		else if (line)
			wl_client_reply(line, why, len);
		snprintf(wl_ctl_error, sizeof(wl_ctl_error), "%s", why);
		return true;
	}
	if (!now && wl_now() < wl_next_poll)
		return false;
	wl_next_poll = wl_now() + WL_PEER_POLL_S;
	if (wl_send_counters("poll")) {
		wl_ctl_lost(-1, WL_PEER_TIMEOUT_S, why, len);
		return true;
	}
	line = wl_ctl_expect(WL_PEER_TIMEOUT_S, why, len);
	if (line && !wl_client_reply(line, why, len))
		return false;
	snprintf(wl_ctl_error, sizeof(wl_ctl_error), "%s", why);
	return true;
}

static void wl_sin_name(const struct sockaddr_in *sin, char *buf, size_t len)
{
	char a[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &sin->sin_addr, a, sizeof(a));
	snprintf(buf, len, "%s:%d", a, ntohs(sin->sin_port));
}

/* One non-blocking connect() to the server within @left s; 0 or errno. */
static int wl_try_connect(double left)
{
	struct pollfd pfd;
	socklen_t elen = sizeof(int);
	int fd, err = 0, one = 1;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno;
	if (connect(fd, (struct sockaddr *)&wl_peer_sin, sizeof(wl_peer_sin))) {
		err = errno;
		if (err == EINPROGRESS) {
			pfd.fd = fd;
			pfd.events = POLLOUT;
			if (wl_stream_poll(&pfd, 1, (int)(left * 1000) + 1) <= 0)
				err = ETIMEDOUT;
			else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen))
				err = errno;
		}
	}
	if (err) {
		close(fd);
		return err;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	wl_ctl_set(fd);
	return 0;
}

int wl_remote_connect(char *why, size_t len)
{
	double end = wl_now() + wl_srun.cfg.connect_timeout, left;
	struct sockaddr_in me;
	socklen_t mlen = sizeof(me);
	struct timespec nap = { 0, 200000000L };
	int err;

	memset(&wl_peer_sin, 0, sizeof(wl_peer_sin));
	wl_peer_sin.sin_family = AF_INET;
	wl_peer_sin.sin_port = htons(wl_srun.cfg.port);
	inet_pton(AF_INET, wl_srun.cfg.addr, &wl_peer_sin.sin_addr);
	wl_sin_name(&wl_peer_sin, wl_srun.peer, sizeof(wl_srun.peer));
	for (;;) {
		left = end - wl_now();
		err = wl_try_connect(left > 0 ? left : 0.001);
		if (!err)
			break;
		if (wl_stream_interrupted()) {
			snprintf(why, len, "interrupted by a signal");
			return -1;
		}
		if (wl_now() >= end) {
			snprintf(why, len,
				 "cannot reach a wl_stream --serve at %s within %.1f s (--connect-timeout): %s",
				 wl_srun.peer, wl_srun.cfg.connect_timeout,
				 strerror(err));
			return -1;
		}
		nanosleep(&nap, NULL);
	}
	/* The receivers here listen where the server reached us. */
	if (!getsockname(wl_ctl, (struct sockaddr *)&me, &mlen))
		wl_stream_bind_addr = me.sin_addr;
	return 0;
}

/* "ports=P,P,..." of this side's receivers, into @buf. */
static int wl_ports_word(char *buf, size_t cap)
{
	size_t off;
	int i;

	off = snprintf(buf, cap, "ports=");
	for (i = 0; i < wl_srun.cfg.instances && off < cap; i++)
		off += snprintf(buf + off, cap - off, "%s%d", i ? "," : "",
				ntohs(((struct sockaddr_in *)
				       &wl_srun.sh->inst[i].addr)->sin_port));
	return off < cap ? 0 : -1;
}

/* The senders' addresses from the peer's "ports=..." word at @p. */
static int wl_take_ports(const char *p, const struct sockaddr_in *peer)
{
	struct sockaddr_in *sin;
	int i, port, n;

	p = p ? strstr(p, "ports=") : NULL;
	if (!p)
		return -1;
	p += 6;
	for (i = 0; i < wl_srun.cfg.instances; i++) {
		if (sscanf(p, i ? ",%d%n" : "%d%n", &port, &n) != 1 ||
		    port < 1 || port > 65535)
			return -1;
		p += n;
		sin = (struct sockaddr_in *)&wl_srun.sh->inst[i].addr;
		memset(&wl_srun.sh->inst[i].addr, 0,
		       sizeof(wl_srun.sh->inst[i].addr));
		*sin = *peer;
		sin->sin_port = htons(port);
		wl_srun.sh->inst[i].addrlen = sizeof(*sin);
	}
	return *p && *p != ' ' ? -1 : 0;
}

int wl_remote_hello(char *why, size_t len)
{
	size_t cap = (size_t)wl_srun.cfg.instances * 8 + 16;
	char session[512], *ports, *line;
	int r;

	ports = calloc(1, cap);
	if (!ports ||
	    wl_session_format(&wl_srun.cfg, session, sizeof(session)) ||
	    (wl_srun.cfg.receive && wl_ports_word(ports, cap))) {
		free(ports);
		snprintf(why, len, "out of memory");
		return -1;
	}
	r = wl_ctl_send("wl_stream %d %s%s%s%s%s\n", WL_REMOTE_PROTO, session,
			wl_srun.cfg.receive ? " " : "", ports,
			wl_srun.cfg.token[0] ? " token=" : "",
			wl_srun.cfg.token);
	free(ports);
	if (r) {
		wl_ctl_lost(-1, WL_PEER_TIMEOUT_S, why, len);
		return -1;
	}
	line = wl_ctl_expect(WL_PEER_TIMEOUT_S, why, len);
	if (!line) {
		if (errno == ETIMEDOUT)
			snprintf(why, len,
				 "the server %s did not answer the session request within %d s (serving another session?)",
				 wl_srun.peer, WL_PEER_TIMEOUT_S);
		return -1;
	}
	if (!strncmp(line, "error ", 6)) {
		snprintf(why, len, "server %s: %s", wl_srun.peer, line + 6);
		return strncmp(line + 6, WL_SKIP_PREFIX, strlen(WL_SKIP_PREFIX)) ? -1 : -2;
	}
	if (strncmp(line, "ok", 2) ||
	    (!wl_srun.cfg.receive && wl_take_ports(line, &wl_peer_sin))) {
		snprintf(why, len, "server %s: unexpected reply '%.60s'",
			 wl_srun.peer, line);
		return -1;
	}
	return 0;
}

int wl_remote_go(char *why, size_t len)
{
	char *line;

	line = wl_ctl_expect(WL_PEER_READY_S, why, len);
	if (!line)
		return -1;
	if (strcmp(line, "ready")) {
		if (strncmp(line, "fail ", 5) || wl_client_reply(line, why, len) == 0)
			snprintf(why, len, "server %s: unexpected reply '%.60s'",
				 wl_srun.peer, line);
		return -1;
	}
	if (wl_ctl_async(why, len))
		return -1;
	if (wl_ctl_send("go\n")) {
		wl_ctl_lost(-1, WL_PEER_TIMEOUT_S, why, len);
		return -1;
	}
	wl_next_poll = 0;
	wl_stream_peer_poll = wl_remote_poll;
	return 0;
}

int wl_remote_final(char *why, size_t len)
{
	char *line;
	int r;

	wl_stream_peer_poll = NULL;
	if (wl_send_counters("final")) {
		wl_ctl_lost(-1, WL_PEER_TIMEOUT_S, why, len);
		return -1;
	}
	line = wl_ctl_expect(WL_PEER_FINAL_S, why, len);
	r = line ? wl_client_reply(line, why, len) : -1;
	close(wl_ctl);
	wl_ctl = -1;
	return r;
}

/* --- server ---------------------------------------------------------- */

/* Tell the client why the session ends, and end it. */
static void __attribute__((noreturn)) wl_session_fail(const char *verb,
						      const char *why)
{
	fprintf(stderr, "wl_stream: session with %s: %s\n", wl_srun.peer,
		why);
	wl_ctl_send("%s %s\n", verb, why);
	wl_stream_set_phase(WL_PH_STOP);
	wl_stream_die(WL_EXIT_FAIL);
}

/* The server's bound on a client's instance count (--max-instances). */
static int wl_max_instances(const struct wl_cfg *srv)
{
	int n = 16 * srv->ncpus;

	if (srv->max_instances)
		return srv->max_instances;
	return n > 64 ? n : 64;
}

/* The server's bound on a client's message buffers (--max-buffer). */
static long long wl_max_buffer(const struct wl_cfg *srv)
{
	return srv->max_buffer ? srv->max_buffer : WL_SERVE_MAX_BUFFER;
}

/* What a session's buffers take on one side: instances x (send + receive). */
static long long wl_session_buffers(const struct wl_cfg *c)
{
	return (long long)c->instances * (c->msg_size + c->recv_size);
}

/* Where a first line's session words end: at " ports=", " token=" or its end. */
static const char *wl_words_end(const char *p)
{
	const char *a = strstr(p, " ports="), *b = strstr(p, " token=");

	if (a && (!b || a < b))
		return a;
	return b ? b : p + strlen(p);
}

/*
 * The client's first line: "wl_stream PROTO SESSION [ports=...] [token=T]"; sets
 * wl_srun.cfg from it (keeping the server's -p and -T).  0, or -1 with @why
 * (sent to the client as "error ...").
 */
static int wl_session_hello(const char *line, const struct wl_cfg *srv,
			    char *why, size_t len)
{
	char words[512], err[200];
	const char *p;
	int proto, n;

	if (sscanf(line, "wl_stream %d%n", &proto, &n) != 1) {
		snprintf(why, len, "not a wl_stream client (first line '%.40s')",
			 line);
		return -1;
	}
	if (proto != WL_REMOTE_PROTO) {
		snprintf(why, len,
			 "version mismatch: this server speaks wl_stream protocol %d, the client %d",
			 WL_REMOTE_PROTO, proto);
		return -1;
	}
	p = wl_words_end(line + n);
	if (p - (line + n) >= (long)sizeof(words)) {
		snprintf(why, len, "bad session: session line too long");
		return -1;
	}
	snprintf(words, sizeof(words), "%.*s", (int)(p - (line + n)), line + n);
	if (wl_session_parse(words, srv->ncpus, &wl_srun.cfg, err,
			     sizeof(err))) {
		snprintf(why, len, "bad session: %s", err);
		return -1;
	}
	if (wl_srun.cfg.instances > wl_max_instances(srv)) {
		snprintf(why, len,
			 "the client asks for %d instances; this server allows %d (--max-instances)",
			 wl_srun.cfg.instances, wl_max_instances(srv));
		return -1;
	}
	if (wl_session_buffers(&wl_srun.cfg) > wl_max_buffer(srv)) {
		snprintf(why, len,
			 "the client asks for %d instances x (%ld + %ld bytes) = %.1f MiB of message buffers; this server allows %.1f MiB (--max-buffer)",
			 wl_srun.cfg.instances, wl_srun.cfg.msg_size,
			 wl_srun.cfg.recv_size,
			 wl_session_buffers(&wl_srun.cfg) / 1048576.0,
			 wl_max_buffer(srv) / 1048576.0);
		return -1;
	}
	wl_srun.cfg.pin = srv->pin;
	wl_srun.cfg.threads = srv->threads;
	wl_srun.cfg.port = srv->port;
	return 0;
}

/*
 * The session controller's voluntary context switches and its waits
 * (wl_stream_ctl_waits()) at the window's opening (after its reply to the
 * poll that opened it) and at its close (the next poll's arrival); -1
 * until then.
 */
static long wl_win_sleeps[2] = { -1, -1 };
static long wl_win_waits[2] = { -1, -1 };

static void wl_session_summary(int status)
{
	bool snd = wl_stream_local(true);
	char sl[96] = "";
	unsigned long long b = 0, m = 0;
	int i;

	for (i = 0; i < wl_srun.cfg.instances; i++) {
		b += wl_slot(i, snd)->bytes;
		m += wl_slot(i, snd)->msgs;
	}
	if (wl_win_sleeps[0] >= 0 && wl_win_sleeps[1] >= 0)
		snprintf(sl, sizeof(sl), ", controller slept %ld times in the window (%ld waits)",
			 wl_win_sleeps[1] - wl_win_sleeps[0],
			 wl_win_waits[1] - wl_win_waits[0]);
	printf("wl_stream: session with %s: %s, %d instances, this host %s %llu bytes in %llu %s%s: %s\n",
	       wl_srun.peer, wl_workload_names[wl_srun.cfg.workload],
	       wl_srun.cfg.instances, snd ? "sent" : "received", b, m,
	       wl_workload_rr(wl_srun.cfg.workload) ? "transactions" : "calls",
	       sl, status ? "failed" : "ok");
	fflush(stdout);
}

/*
 * wl_stream_peer_poll of a server while its workers set up: the client says
 * nothing then, so a readable control connection means it went away.
 */
static bool wl_session_watch(bool now, char *why, size_t len)
{
	struct pollfd pfd = { .fd = wl_ctl, .events = POLLIN };
	char c;

	if (poll(&pfd, 1, 0) <= 0 ||
	    recv(wl_ctl, &c, 1, MSG_PEEK | MSG_DONTWAIT) > 0)
		return false;
	snprintf(why, len, "the client closed the control connection during setup");
	return true;
}

/*
 * A session's end, told to the server: a byte on this pipe, then its
 * close, before the client's last reply (-1 in the server itself).
 */
static int wl_done_fd = -1;

static void wl_session_done(void)
{
	if (wl_done_fd < 0)
		return;
	if (write(wl_done_fd, "d", 1) < 0)
		fprintf(stderr, "wl_stream: telling the server the session is over: %s\n",
			strerror(errno));
	close(wl_done_fd);
	wl_done_fd = -1;
}

/*
 * A session's next line from the client, sleeping until it comes (SIGIO),
 * a worker fails, a signal arrives or @end passes; NULL with @why.  The
 * client polls every WL_PEER_POLL_S outside the window (@ph) and once at
 * its end: silence past that by WL_PEER_TIMEOUT_S is its loss.
 */
static char *wl_session_next(unsigned int ph, double end, char *why,
			     size_t len)
{
	double quiet = wl_now() + WL_PEER_TIMEOUT_S, until;
	uint32_t seen;

	if (ph == WL_PH_MEASURE)
		quiet += wl_srun.cfg.duration;
	for (;;) {
		seen = __atomic_load_n(wl_stream_events(), __ATOMIC_ACQUIRE);
		if (wl_ctl_readable())
			return wl_ctl_expect(WL_PEER_TIMEOUT_S, why, len);
		if (wl_stream_check(why, len))
			return NULL;
		if (wl_now() > end) {
			snprintf(why, len, "the session outlasted its window by more than %d s",
				 WL_SESSION_SLACK_S);
			return NULL;
		}
		if (wl_now() > quiet) {
			snprintf(why, len, "the client %s said nothing for %.0f s",
				 wl_srun.peer, WL_PEER_TIMEOUT_S +
				 (ph == WL_PH_MEASURE ? wl_srun.cfg.duration : 0));
			return NULL;
		}
		until = quiet < end ? quiet : end;
		wl_stream_sleep(until, seen, 0);
	}
}

/* The session refused at its first line: not counted by --sessions. */
#define WL_EXIT_NO_SESSION	WL_EXIT_USAGE

/*
 * One session on the control connection wl_ctl, in its own process; @line
 * is its first line, which the server read.
 */
static int wl_session(const struct wl_cfg *srv, char *line)
{
	char why[256] = "", *ports;
	struct sockaddr_in me, peer;
	socklen_t alen = sizeof(me);
	const char *skip;
	unsigned int ph, cur;
	double end;
	int n;

	if (wl_session_hello(line, srv, why, sizeof(why))) {
		fprintf(stderr, "wl_stream: session with %s: %s\n",
			wl_srun.peer, why);
		wl_ctl_send("error %s\n", why);
		return WL_EXIT_NO_SESSION;
	}
	skip = wl_pin_unsupported(&wl_srun.topo, wl_srun.cfg.pin);
	if (!skip)
		skip = wl_stream_unsupported();
	if (skip) {
		wl_ctl_send("error " WL_SKIP_PREFIX "%s\n", skip);
		return WL_EXIT_SKIP;
	}
	if (wl_stream_check_nofile(why, sizeof(why)) || wl_stream_setup_pattern() ||
	    wl_stream_alloc()) {
		wl_ctl_send("error %s\n", why[0] ? why : "out of memory");
		return WL_EXIT_FAIL;
	}
	getsockname(wl_ctl, (struct sockaddr *)&me, &alen);
	wl_stream_bind_addr = me.sin_addr;
	alen = sizeof(peer);
	getpeername(wl_ctl, (struct sockaddr *)&peer, &alen);
	if (wl_srun.cfg.receive && wl_take_ports(line, &peer)) {
		wl_ctl_send("error bad session: no valid ports= for %d instances\n",
			    wl_srun.cfg.instances);
		return WL_EXIT_NO_SESSION;
	}
	if (wl_stream_listen(why, sizeof(why)))
		wl_session_fail("error", why);
	ports = calloc(1, (size_t)wl_srun.cfg.instances * 8 + 16);
	if (!ports || (!wl_srun.cfg.receive &&
		       wl_ports_word(ports,
				     (size_t)wl_srun.cfg.instances * 8 + 16)))
		wl_session_fail("error", "out of memory");
	wl_ctl_send("ok%s%s\n", ports[0] ? " " : "", ports);
	free(ports);
	wl_stream_peer_poll = wl_session_watch;
	if (wl_stream_start(why, sizeof(why)) ||
	    !wl_stream_wait_ready(why, sizeof(why)))
		wl_session_fail("fail", why);
	wl_stream_peer_poll = NULL;
	if (wl_ctl_async(why, sizeof(why)))
		wl_session_fail("fail", why);
	wl_ctl_send("ready\n");
	line = wl_ctl_expect(WL_PEER_READY_S, why, sizeof(why));
	if (!line || strcmp(line, "go"))
		wl_session_fail("fail", line ? "expected go" : why);
	wl_stream_set_phase(WL_PH_WARMUP);
	/* The client's window, its first data and drain, and slack. */
	end = wl_now() + wl_srun.cfg.warmup + wl_srun.cfg.duration +
	      WL_SESSION_SLACK_S;
	for (;;) {
		cur = __atomic_load_n(&wl_srun.sh->phase, __ATOMIC_ACQUIRE);
		line = wl_session_next(cur, end, why, sizeof(why));
		if (!line)
			wl_session_fail("fail", why);
		if (cur == WL_PH_MEASURE && wl_win_sleeps[1] < 0) {
			wl_win_sleeps[1] = wl_stream_ctl_sleeps();
			wl_win_waits[1] = wl_stream_ctl_waits();
		}
		if ((sscanf(line, "poll %u%n", &ph, &n) != 1 &&
		     sscanf(line, "final %u%n", &ph, &n) != 1) ||
		    ph > WL_PH_STOP || ph < cur || wl_apply(line + n))
			wl_session_fail("fail", "malformed poll");
		if (!strncmp(line, "final", 5))
			break;
		/*
		 * The poll that closes the window: the client stops its
		 * workers next, and ours stop now, so that a receiver that
		 * reads its stream's end before the client's next poll is not
		 * taken for a failure.
		 */
		if (cur == WL_PH_MEASURE)
			ph = WL_PH_STOP;
		if (ph != cur)
			wl_stream_set_phase(ph);
		if (wl_stream_check(why, sizeof(why)))
			wl_session_fail("fail", why);
		wl_send_counters("state");
		if (ph == WL_PH_MEASURE && cur != WL_PH_MEASURE) {
			wl_win_sleeps[0] = wl_stream_ctl_sleeps();
			wl_win_waits[0] = wl_stream_ctl_waits();
		}
	}
	wl_stream_set_phase(WL_PH_STOP);
	if (!wl_stream_wait_done(why, sizeof(why)))
		wl_session_fail("fail", why);
	wl_wakelab_filter_end(&wl_srun.wlf);
	/* Done: the server takes the next client before this one hears so. */
	wl_session_done();
	wl_send_counters("state");
	wl_session_summary(0);
	return 0;
}

/* Wait for session @pid; on a stop signal end it, SIGKILL if it lingers. */
static int wl_session_wait(pid_t pid)
{
	double kill_at = 0;
	int st;
	pid_t r;

	for (;;) {
		/*
		 * First: the server's loop ends on a stop signal that came
		 * before this wait, and a blocking waitpid() would not see it.
		 */
		if (wl_stream_interrupted() && !kill_at) {
			kill(pid, SIGTERM);
			kill_at = wl_now() + WL_SESSION_KILL_S;
		}
		r = waitpid(pid, &st, kill_at ? WNOHANG : 0);
		if (r == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : WL_EXIT_FAIL;
		if (r < 0 && errno != EINTR)
			return WL_EXIT_FAIL;
		if (kill_at && wl_now() > kill_at)
			kill(pid, SIGKILL);
		if (kill_at)
			usleep(50000);
	}
}

/**
 * struct wl_conn - a connection the server holds outside a session
 * @fd:		the socket, -1 when the slot is free
 * @peer:	its peer
 * @deadline:	when it is closed (monotonic): its first line's or, once
 *		answered, its linger's
 * @answered:	refused or told busy: read and dropped until the peer closes
 * @buf:	its first line so far (@len bytes, room for @cap)
 */
struct wl_conn {
	int fd;
	struct sockaddr_in peer;
	double deadline;
	bool answered;
	char *buf;
	size_t len, cap;
};

static struct wl_conn wl_conns[WL_PENDING];

static void wl_conn_close(struct wl_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->buf);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

/*
 * Answer @c with one line and keep it until the peer has read it and
 * closed (or WL_LINGER_S): closing at once could reset the connection
 * over the unread rest of its first line and lose the answer.
 */
static void wl_conn_answer(struct wl_conn *c, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (send(c->fd, line, n, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
		wl_conn_close(c);
		return;
	}
	shutdown(c->fd, SHUT_WR);
	c->answered = true;
	c->deadline = wl_now() + WL_LINGER_S;
	free(c->buf);
	c->buf = NULL;
	c->len = c->cap = 0;
}

/* A free slot for a new connection: the oldest held one goes if none is. */
static struct wl_conn *wl_conn_slot(void)
{
	struct wl_conn *old = &wl_conns[0];
	int i;

	for (i = 0; i < WL_PENDING; i++) {
		if (wl_conns[i].fd < 0)
			return &wl_conns[i];
		if (wl_conns[i].deadline < old->deadline)
			old = &wl_conns[i];
	}
	wl_conn_close(old);
	return old;
}

/* Whether @a and @b are equal, in a time that depends on @b's length only. */
static bool wl_token_eq(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b), i;
	unsigned char d = alen != blen;

	for (i = 0; i < blen; i++)
		d |= (unsigned char)b[i] ^ (unsigned char)(i < alen ? a[i] : 0);
	return !d;
}

static bool wl_loopback(const struct sockaddr_in *sin)
{
	return (ntohl(sin->sin_addr.s_addr) >> 24) == 127;
}

/*
 * Whether the first line @line of a client at @peer may ask for a session:
 * a wl_stream client, with the server's token when it has one, else from
 * loopback; 0, or -1 with @why (sent to it as "error ...").
 */
static int wl_serve_admit(const struct wl_cfg *srv,
			  const struct sockaddr_in *peer, const char *line,
			  char *why, size_t len)
{
	const char *t = strstr(line, " token=");
	size_t tlen = 0;

	if (strncmp(line, "wl_stream ", 10)) {
		snprintf(why, len, "not a wl_stream client (first line '%.40s')",
			 line);
		return -1;
	}
	if (t) {
		t += 7;
		tlen = strcspn(t, " ");
	}
	if (srv->token[0] && !t) {
		snprintf(why, len,
			 "refused: this server takes only clients with its token, and this one sent none (--token or $" WL_TOKEN_ENV ")");
		return -1;
	}
	if (srv->token[0] && !wl_token_eq(t, tlen, srv->token)) {
		snprintf(why, len, "refused: wrong token");
		return -1;
	}
	if (!srv->token[0] && !wl_loopback(peer)) {
		snprintf(why, len,
			 "refused: this server has no token, so it serves loopback clients only (give both sides --token or $" WL_TOKEN_ENV ")");
		return -1;
	}
	return 0;
}

/* "HH:MM:SS" of the monotonic @t, in local wall-clock time. */
static void wl_clock_name(double t, char *buf, size_t len)
{
	time_t w = time(NULL) + (time_t)(t - wl_now() + 0.5);
	struct tm tm;

	if (!localtime_r(&w, &tm) || !strftime(buf, len, "%H:%M:%S %Z", &tm))
		snprintf(buf, len, "in %.0f s", t - wl_now());
}

/**
 * struct wl_serving - the server's sessions
 * @pid:	the session it runs now, 0 when none: the server is busy
 * @done_fd:	@pid's end of session: a byte then EOF when it completed,
 *		EOF alone when it failed or was refused
 * @peer:	@pid's client, "ADDR:PORT"
 * @until:	when @pid should be over (monotonic): the client's warm-up
 *		and window, with slack for setup and drain
 * @ending:	completed sessions not yet reaped, @nending of them
 * @served:	sessions that count for --sessions
 */
struct wl_serving {
	pid_t pid;
	int done_fd;
	char peer[WL_ADDR_LEN + 8];
	double until;
	pid_t ending[WL_PENDING];
	int nending;
	int served;
};

/* Session @pid ended with wait status @st: count it. */
static void wl_serve_count(struct wl_serving *sv, int st)
{
	if (!WIFEXITED(st) || WEXITSTATUS(st) != WL_EXIT_NO_SESSION)
		sv->served++;
}

/* The current session said it is over (or died): the server is free. */
static void wl_serve_session_over(struct wl_serving *sv)
{
	char c;
	int st;

	if (read(sv->done_fd, &c, 1) == 1) {
		/* Completed, counted now; reaped once it exits. */
		sv->served++;
		if (sv->nending < WL_PENDING)
			sv->ending[sv->nending++] = sv->pid;
		else if (waitpid(sv->pid, &st, 0) < 0)
			fprintf(stderr, "wl_stream: waitpid: %s\n", strerror(errno));
	} else if (waitpid(sv->pid, &st, 0) == sv->pid) {
		/* EOF alone: it has exited (or is exiting). */
		wl_serve_count(sv, st);
	}
	close(sv->done_fd);
	sv->done_fd = -1;
	sv->pid = 0;
}

/* Reap the completed sessions that have exited. */
static void wl_serve_reap(struct wl_serving *sv)
{
	int i;

	for (i = 0; i < sv->nending; i++)
		if (waitpid(sv->ending[i], NULL, WNOHANG) == sv->ending[i])
			sv->ending[i--] = sv->ending[--sv->nending];
}

/* Start the session @c asked for with its first line (@c's buf). */
static void wl_serve_start(const struct wl_cfg *srv, struct wl_conn *c,
			   struct wl_serving *sv, pid_t me)
{
	const char *nl;
	int done[2], i;
	pid_t pid;

	if (pipe2(done, O_CLOEXEC)) {
		wl_conn_answer(c, "error the server cannot start a session: %s",
			       strerror(errno));
		return;
	}
	wl_sin_name(&c->peer, sv->peer, sizeof(sv->peer));
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != me)
			_exit(WL_EXIT_FAIL);
		close(done[0]);
		wl_done_fd = done[1];
		for (i = 0; i < WL_PENDING; i++)
			if (&wl_conns[i] != c && wl_conns[i].fd >= 0)
				close(wl_conns[i].fd);
		fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) & ~O_NONBLOCK);
		wl_ctl_set(c->fd);
		snprintf(wl_srun.peer, sizeof(wl_srun.peer), "%s", sv->peer);
		/* The first line, and whatever came after it, as read. */
		wl_rbuf = c->buf;
		wl_rcap = c->cap;
		wl_rlen = c->len;
		nl = memchr(c->buf, '\n', c->len);
		wl_rskip = nl - c->buf + 1;
		c->buf[wl_rskip - 1] = '\0';
		exit(wl_session(srv, c->buf));
	}
	close(done[1]);
	if (pid < 0) {
		close(done[0]);
		fprintf(stderr, "wl_stream: fork: %s\n", strerror(errno));
		wl_conn_answer(c, "error the server cannot fork a session: %s",
			       strerror(errno));
		return;
	}
	sv->pid = pid;
	sv->done_fd = done[0];
	wl_conn_close(c);
}

/*
 * Whether first line @line asks for a session this server gives (the
 * protocol, the settings, its bounds: checked again in the session); 0,
 * or -1 with @why.  The session's end, for "busy" answers, into @until.
 */
static int wl_serve_check(const struct wl_cfg *srv, const char *line,
			  double *until, char *why, size_t len)
{
	struct wl_cfg keep = wl_srun.cfg;
	int ret;

	ret = wl_session_hello(line, srv, why, len);
	*until = wl_now() + wl_srun.cfg.warmup + wl_srun.cfg.duration +
		 WL_PEER_TIMEOUT_S;
	wl_srun.cfg = keep;
	return ret;
}

/* Read what @c sent; a complete first line is admitted, or answered. */
static void wl_serve_read(const struct wl_cfg *srv, struct wl_conn *c,
			  struct wl_serving *sv, pid_t me)
{
	char why[256], until[64], drop[512], *nb;
	double end;
	ssize_t n;

	if (c->answered) {
		n = recv(c->fd, drop, sizeof(drop), MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			wl_conn_close(c);
		return;
	}
	if (c->cap - c->len < 4096 && c->cap < WL_HELLO_MAX) {
		nb = realloc(c->buf, c->cap ? c->cap * 2 : 4096);
		if (!nb) {
			wl_conn_close(c);
			return;
		}
		c->buf = nb;
		c->cap = c->cap ? c->cap * 2 : 4096;
	}
	n = recv(c->fd, c->buf + c->len, c->cap - 1 - c->len, MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		wl_conn_close(c);
		return;
	}
	c->len += n;
	c->buf[c->len] = '\0';
	if (!memchr(c->buf, '\n', c->len)) {
		if (c->len >= c->cap - 1 && c->cap >= WL_HELLO_MAX)
			wl_conn_answer(c, "error bad session: first line longer than %d bytes",
				       WL_HELLO_MAX);
		return;
	}
	*strchr(c->buf, '\n') = '\0';
	wl_sin_name(&c->peer, drop, sizeof(drop));
	if (wl_serve_admit(srv, &c->peer, c->buf, why, sizeof(why)) ||
	    wl_serve_check(srv, c->buf, &end, why, sizeof(why))) {
		fprintf(stderr, "wl_stream: client %s: %s\n", drop, why);
		wl_conn_answer(c, "error %s", why);
		return;
	}
	if (sv->pid) {
		wl_clock_name(sv->until, until, sizeof(until));
		wl_conn_answer(c, "error busy: serving %s until about %s (one session at a time; try again then)",
			       sv->peer, until);
		return;
	}
	c->buf[strlen(c->buf)] = '\n';
	sv->until = end;
	wl_serve_start(srv, c, sv, me);
}

/* Take every connection waiting in the backlog. */
static int wl_serve_accept(int lfd)
{
	struct sockaddr_in peer;
	struct wl_conn *c;
	socklen_t plen;
	int fd, one = 1;

	for (;;) {
		plen = sizeof(peer);
		fd = accept4(lfd, (struct sockaddr *)&peer, &plen,
			     SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0) {
			if (errno == EAGAIN || errno == EINTR ||
			    errno == ECONNABORTED)
				return 0;
			fprintf(stderr, "wl_stream: accept: %s\n", strerror(errno));
			/* Out of descriptors: the held ones time out. */
			return errno == EMFILE || errno == ENFILE ||
			       errno == ENOBUFS || errno == ENOMEM ? 0 : -1;
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		c = wl_conn_slot();
		c->fd = fd;
		c->peer = peer;
		c->deadline = wl_now() + WL_HELLO_S;
	}
}

/*
 * The server: one session at a time, each in its own process.  Every
 * connection is held here, non-blocking, until its first line (within
 * WL_HELLO_S); only an admitted, valid request while no session runs
 * starts one, so idle or slow connections cannot keep a client out, and a
 * client while one runs is told "busy" at once.
 */
int wl_remote_serve(void)
{
	struct pollfd pfd[WL_PENDING + 2];
	struct wl_cfg srv = wl_srun.cfg;
	struct wl_serving sv = { .done_fd = -1 };
	struct sockaddr_in sin;
	int lfd, one = 1, i, k, st, np, first;
	pid_t me = getpid();
	double now;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons(srv.port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (srv.addr[0])
		inet_pton(AF_INET, srv.addr, &sin.sin_addr);
	for (i = 0; i < WL_PENDING; i++)
		wl_conns[i].fd = -1;
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (lfd < 0 ||
	    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(lfd, WL_BACKLOG)) {
		wl_sin_name(&sin, wl_srun.peer, sizeof(wl_srun.peer));
		fprintf(stderr, "wl_stream: --serve: cannot listen on %s: %s\n",
			wl_srun.peer, strerror(errno));
		return WL_EXIT_FAIL;
	}
	wl_sin_name(&sin, wl_srun.peer, sizeof(wl_srun.peer));
	fprintf(stderr, "wl_stream: serving on %s (protocol %d, up to %d instances, %.1f MiB of message buffers, %s)\n",
		wl_srun.peer, WL_REMOTE_PROTO, wl_max_instances(&srv),
		wl_max_buffer(&srv) / 1048576.0,
		srv.token[0] ? "clients with the token" :
		"loopback clients only: no token");
	while (!srv.sessions || sv.served < srv.sessions || sv.pid) {
		/* Short naps: a stop signal is seen within 200 ms. */
		if (wl_stream_interrupted())
			break;
		wl_serve_reap(&sv);
		pfd[0].fd = lfd;
		pfd[0].events = POLLIN;
		pfd[1].fd = sv.done_fd;
		pfd[1].events = POLLIN;
		first = np = 2;
		for (i = 0; i < WL_PENDING; i++) {
			if (wl_conns[i].fd < 0)
				continue;
			pfd[np].fd = wl_conns[i].fd;
			pfd[np++].events = POLLIN;
		}
		if (poll(pfd, np, 200) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "wl_stream: poll: %s\n", strerror(errno));
			break;
		}
		/* A session's end first: its client may be back at once. */
		if (sv.pid && (pfd[1].revents & (POLLIN | POLLHUP | POLLERR)))
			wl_serve_session_over(&sv);
		for (i = 0, k = first; i < WL_PENDING && k < np; i++) {
			if (wl_conns[i].fd < 0 || pfd[k].fd != wl_conns[i].fd)
				continue;
			if (pfd[k++].revents & (POLLIN | POLLHUP | POLLERR))
				wl_serve_read(&srv, &wl_conns[i], &sv, me);
		}
		now = wl_now();
		for (i = 0; i < WL_PENDING; i++) {
			if (wl_conns[i].fd < 0 || now <= wl_conns[i].deadline)
				continue;
			if (wl_conns[i].answered)
				wl_conn_close(&wl_conns[i]);
			else
				wl_conn_answer(&wl_conns[i],
					       "error no session request within %.0f s",
					       WL_HELLO_S);
		}
		if ((pfd[0].revents & POLLIN) && wl_serve_accept(lfd))
			break;
	}
	close(lfd);
	for (i = 0; i < WL_PENDING; i++)
		wl_conn_close(&wl_conns[i]);
	if (sv.pid) {
		st = wl_session_wait(sv.pid);
		if (st != WL_EXIT_NO_SESSION)
			sv.served++;
		close(sv.done_fd);
	}
	for (i = 0; i < sv.nending; i++)
		wl_session_wait(sv.ending[i]);
	if (wl_stream_interrupted())
		fprintf(stderr, "wl_stream: --serve stopped by a signal after %d session%s\n",
			sv.served, sv.served == 1 ? "" : "s");
	return 0;
}
