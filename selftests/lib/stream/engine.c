// SPDX-License-Identifier: GPL-2.0
/*
 * wl_stream's engine: the controller of a run of wl_stream's own workers
 * (lib/stream/workload.c) -- their sockets, start, barrier and shared
 * counters, the watch over the window, and the samples taken at its
 * edges -- and the end of a run for both engines.  See wl/stream/engine.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <linux/tipc.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <arpa/inet.h>
#include <time.h>
#include <unistd.h>

#include "wl/core/clock.h"
#include "wl/kernel/perf.h"
#include "wl/kernel/schedstat.h"
#include "wl/stream/engine.h"
#include "wl/stream/netns.h"
#include "wl/stream/pin.h"
#include "wl/stream/report.h"
#include "wl/stream/run.h"
#include "wl/stream/wakelab.h"
#include "wl/stream/workload.h"

#define WL_SETUP_TIMEOUT_S	60
#define WL_FIRST_DATA_TIMEOUT_S	30
#define WL_DRAIN_TIMEOUT_S	30
#define WL_POLL_NS		10000000L
#define WL_THREAD_STACK		(256 << 10)
/* TIPC service type of a run: this base plus the controller's PID. */
#define WL_TIPC_TYPE_BASE	0x10000u

bool (*wl_stream_peer_poll)(bool now, char *why, size_t len);
struct in_addr wl_stream_bind_addr = { .s_addr = 0x0100007f };	/* 127.0.0.1 */

static size_t wl_sh_len;
static volatile sig_atomic_t wl_sig;
static int wl_nworkers;
static int wl_schedstats_old = -1;

/*
 * Progress of each instance as the controller sees it whenever it looks in
 * the window: the last count, when it last moved, and the longest time it
 * did not (wl_srun.prog_gap).  The controller sleeps through the window
 * and looks at its end (and, with --remote, at every exchange with the
 * peer), so receivers keep their own account of it (wl_slot.gap_ns; a
 * peer's, as of its last counters, with last_ns 0), which
 * wl_stream_track() adds.
 */
static uint64_t *wl_prog_last;
static double *wl_prog_moved;
static bool wl_tracking;

/*
 * The run's SCTP MIB (wl_stream_sctp_*()): at the start barrier, at the end
 * of the span, and while that end is pending, the count each instance that
 * moved nothing in the window had at the window's end (UINT64_MAX: it
 * moved).
 */
static unsigned long long wl_sctp_start[WL_SCTP_MIB_NR];
static unsigned long long wl_sctp_end[WL_SCTP_MIB_NR];
static bool wl_sctp_ok, wl_sctp_pending;
static uint64_t *wl_sctp_held;

static uint32_t wl_phase(void)
{
	return __atomic_load_n(&wl_srun.sh->phase, __ATOMIC_ACQUIRE);
}

void wl_stream_set_phase(uint32_t ph)
{
	if (ph == WL_PH_MEASURE)
		__atomic_store_n(&wl_srun.sh->window_ns,
				 (uint64_t)(wl_now() * 1e9), __ATOMIC_RELEASE);
	__atomic_store_n(&wl_srun.sh->phase, ph, __ATOMIC_RELEASE);
	syscall(SYS_futex, &wl_srun.sh->phase, FUTEX_WAKE, INT_MAX, NULL, NULL,
		0);
}

static uint64_t wl_load(uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/*
 * What instance @i has moved so far: transactions answered (tcp_rr), else
 * payload bytes received.  The receiver's count: only data that arrived is
 * progress.
 */
static uint64_t wl_progress(int i)
{
	struct wl_slot *rcv = &wl_srun.sh->inst[i].rcv;

	return wl_workload_rr(wl_srun.cfg.workload) ? wl_load(&rcv->msgs) :
	       wl_load(&rcv->bytes);
}

/* Instance @i's gap by its local receiver's own account, at @now. */
static double wl_receiver_gap(int i, double now)
{
	struct wl_slot *rcv = &wl_srun.sh->inst[i].rcv;
	uint64_t last = __atomic_load_n(&rcv->last_ns, __ATOMIC_RELAXED);
	double gap = __atomic_load_n(&rcv->gap_ns, __ATOMIC_RELAXED) / 1e9;

	if (last && now - last / 1e9 > gap)
		gap = now - last / 1e9;
	return gap;
}

/* Start (@start) or continue tracking the instances' progress at @now. */
void wl_stream_track(double now, bool start)
{
	uint64_t v;
	int i;

	for (i = 0; i < wl_srun.cfg.instances; i++) {
		v = wl_progress(i);
		if (start) {
			wl_srun.prog_gap[i] = 0;
		} else if (v == wl_prog_last[i]) {
			if (now - wl_prog_moved[i] > wl_srun.prog_gap[i])
				wl_srun.prog_gap[i] = now - wl_prog_moved[i];
			continue;
		} else if (wl_receiver_gap(i, now) > wl_srun.prog_gap[i]) {
			wl_srun.prog_gap[i] = wl_receiver_gap(i, now);
		}
		wl_prog_last[i] = v;
		wl_prog_moved[i] = now;
	}
	wl_tracking = start;
}

bool wl_stream_local(bool sender)
{
	if (!wl_srun.cfg.remote && !wl_srun.cfg.serve)
		return true;
	/* A client runs the senders unless --receive; a server the others. */
	return sender == (wl_srun.cfg.remote ? !wl_srun.cfg.receive :
			  wl_srun.cfg.receive);
}

void wl_stream_on_signal(int sig)
{
	wl_sig = sig;
	wl_stream_wake_controller();
}

static void wl_on_child(int sig)
{
	wl_stream_wake_controller();
}

void wl_stream_catch_children(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = wl_on_child;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
}

/* The calling thread's waits (wl_stream_ctl_waits()). */
static __thread long wl_ctl_waits;

void wl_stream_sleep(double end, uint32_t seen, double cap)
{
	double left = end - wl_now();
	struct timespec ts;

	if (left <= 0)
		return;
	if (cap > 0 && left > cap)
		left = cap;
	ts.tv_sec = (time_t)left;
	ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
	if (syscall(SYS_futex, wl_stream_events(), FUTEX_WAIT, seen, &ts,
		    NULL, 0) == 0 || errno != EAGAIN)
		wl_ctl_waits++;
}

void wl_stream_restore_schedstats(void)
{
	if (wl_schedstats_old >= 0) {
		wl_schedstats_set(wl_schedstats_old);
		wl_schedstats_old = -1;
	}
}

/* Kill and reap every worker process still there (no orphans). */
static void wl_kill_all(void)
{
	int i, k;

	if (wl_srun.cfg.threads)
		return;
	for (i = 0; i < wl_srun.cfg.instances; i++)
		for (k = 0; k < 2; k++)
			if (wl_srun.sh->inst[i].pid[k] > 0)
				kill(wl_srun.sh->inst[i].pid[k], SIGKILL);
	for (i = 0; i < wl_srun.cfg.instances; i++)
		for (k = 0; k < 2; k++)
			if (wl_srun.sh->inst[i].pid[k] > 0) {
				waitpid(wl_srun.sh->inst[i].pid[k], NULL, 0);
				wl_srun.sh->inst[i].pid[k] = 0;
			}
}

int wl_stream_profile_start(char *why, size_t len)
{
	if (!wl_srun.cfg.profile[0])
		return 0;
	snprintf(wl_srun.prof.dir, sizeof(wl_srun.prof.dir), "%s",
		 wl_srun.cfg.profile);
	snprintf(wl_srun.prof.perf, sizeof(wl_srun.prof.perf), "perf");
	return wl_prof_start(&wl_srun.prof, why, len);
}

int wl_stream_profile_window(bool on, char *why, size_t len)
{
	return wl_srun.prof.on ? wl_prof_enable(&wl_srun.prof, on, why, len) : 0;
}

int wl_stream_profile_finish(char *why, size_t len)
{
	return wl_srun.prof.on ? wl_prof_finish(&wl_srun.prof, why, len) : 0;
}

void __attribute__((noreturn)) wl_stream_die(int status)
{
	wl_kill_all();
	wl_prof_abort(&wl_srun.prof);
	wl_wakelab_filter_end(&wl_srun.wlf);
	wl_stream_restore_schedstats();
	wl_netns_cleanup();
	exit(status);
}

/* The first failure message any worker recorded, or NULL. */
static const char *wl_worker_failure(int *inst, const char **role)
{
	int i;

	for (i = 0; i < wl_srun.cfg.instances; i++) {
		*inst = i;
		if (__atomic_load_n(&wl_srun.sh->inst[i].snd.failed,
				    __ATOMIC_ACQUIRE)) {
			*role = wl_workload_rr(wl_srun.cfg.workload) ?
				"client" : "sender";
			return wl_srun.sh->inst[i].snd.msg;
		}
		if (__atomic_load_n(&wl_srun.sh->inst[i].rcv.failed,
				    __ATOMIC_ACQUIRE)) {
			*role = wl_workload_rr(wl_srun.cfg.workload) ?
				"server" : "receiver";
			return wl_srun.sh->inst[i].rcv.msg;
		}
	}
	return NULL;
}

/*
 * Reap exited worker processes; returns how many are still running.  With
 * @early set, any exit is a failure (workers only exit after the stop).
 */
static int wl_reap(bool early, char *why, size_t len)
{
	int i, k, st, running = 0;
	pid_t r;

	for (i = 0; i < wl_srun.cfg.instances; i++) {
		for (k = 0; k < 2; k++) {
			if (wl_srun.sh->inst[i].pid[k] <= 0)
				continue;
			r = waitpid(wl_srun.sh->inst[i].pid[k], &st, WNOHANG);
			if (r == 0) {
				running++;
				continue;
			}
			wl_srun.sh->inst[i].pid[k] = 0;
			if (r < 0)
				continue;
			if (WIFSIGNALED(st))
				snprintf(why, len,
					 "instance %d %s killed by signal %d",
					 i, k ? "receiver" : "sender",
					 WTERMSIG(st));
			else if ((early || WEXITSTATUS(st)) && !why[0])
				snprintf(why, len,
					 "instance %d %s exited %s(status %d)",
					 i, k ? "receiver" : "sender",
					 early ? "early " : "", WEXITSTATUS(st));
		}
	}
	return running;
}

/*
 * Whether the run must be abandoned: a signal, a worker failure, or (during
 * the run) a worker process that is gone.  Fills @why.
 */
static bool wl_check_abort(bool running, char *why, size_t len)
{
	const char *msg, *role;
	int i;

	if (wl_stream_peer_poll && wl_stream_peer_poll(false, why, len))
		return true;
	if (wl_sig) {
		snprintf(why, len, "interrupted by signal %d", (int)wl_sig);
		return true;
	}
	msg = wl_worker_failure(&i, &role);
	if (msg) {
		snprintf(why, len, "instance %d %s: %s", i, role, msg);
		return true;
	}
	if (running && !wl_srun.cfg.threads) {
		wl_reap(true, why, len);
		if (why[0])
			return true;
	}
	return false;
}

bool wl_stream_interrupted(void)
{
	return wl_sig != 0;
}

bool wl_stream_check(char *why, size_t len)
{
	/* After the stop, workers end: only failures count. */
	return wl_check_abort(wl_phase() != WL_PH_STOP, why, len);
}

static void wl_nap(void)
{
	struct timespec ts = { 0, WL_POLL_NS };

	nanosleep(&ts, NULL);
}

/*
 * Sleep until @end (wl_now() time) while watching the workers; false when
 * the run must stop.
 */
bool wl_stream_watch(double end, char *why, size_t len)
{
	uint32_t seen;

	for (;;) {
		seen = __atomic_load_n(wl_stream_events(), __ATOMIC_ACQUIRE);
		if (wl_check_abort(true, why, len))
			return false;
		if (wl_tracking)
			wl_stream_track(wl_now(), false);
		if (end - wl_now() <= 0)
			return true;
		/*
		 * --remote exchanges counters with its peer meanwhile, but
		 * not in the window: the peer's word wakes it (SIGIO).
		 */
		wl_stream_sleep(end, seen,
				wl_stream_peer_poll && wl_phase() != WL_PH_MEASURE ?
				WL_POLL_NS / 1e9 * 5 : 0);
	}
}

/* The address a TIPC receiver binds (@bind) or a sender connects to. */
static void wl_tipc_addr(struct wl_inst *in, bool bind)
{
	struct sockaddr_tipc *t = (struct sockaddr_tipc *)&in->addr;
	unsigned int i = in - wl_srun.sh->inst;

	memset(&in->addr, 0, sizeof(in->addr));
	t->family = AF_TIPC;
	t->scope = TIPC_NODE_SCOPE;
	if (bind) {
		t->addrtype = TIPC_ADDR_NAMESEQ;
		t->addr.nameseq.type = WL_TIPC_TYPE_BASE + getpid();
		t->addr.nameseq.lower = i;
		t->addr.nameseq.upper = i;
	} else {
		t->addrtype = TIPC_ADDR_NAME;
		t->addr.name.name.type = WL_TIPC_TYPE_BASE + getpid();
		t->addr.name.name.instance = i;
	}
	in->addrlen = sizeof(*t);
}

/*
 * Receiver-side socket of instance @i, made before the workers start: in
 * the receiving namespace with --netns, on wl_stream_bind_addr.
 */
static int wl_make_lfd(struct wl_inst *in, char *why, size_t len)
{
	struct sockaddr_in *sin = (struct sockaddr_in *)&in->addr;
	int family, type, proto, fd, err = 0;
	socklen_t alen;

	wl_socket_type(&family, &type, &proto);
	if (wl_srun.cfg.netns && wl_netns_enter(WL_NS_RCV)) {
		snprintf(why, len, "setns (receiver namespace): %s",
			 strerror(errno));
		return -EIO;
	}
	fd = socket(family, type | SOCK_CLOEXEC, proto);
	if (fd < 0)
		err = errno;
	if (wl_srun.cfg.netns && wl_netns_enter(WL_NS_HOME)) {
		snprintf(why, len, "setns (back): %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -EIO;
	}
	if (fd < 0) {
		snprintf(why, len, "socket: %s", strerror(err));
		return -err;
	}
	if (family == AF_TIPC) {
		wl_tipc_addr(in, true);
	} else {
		memset(&in->addr, 0, sizeof(in->addr));
		sin->sin_family = AF_INET;
		sin->sin_addr = wl_stream_bind_addr;
		in->addrlen = sizeof(*sin);
	}
	alen = in->addrlen;
	if (wl_set_bufs(fd, wl_srun.cfg.rcvbuf) ||
	    bind(fd, (struct sockaddr *)&in->addr, in->addrlen) ||
	    (family != AF_TIPC &&
	     getsockname(fd, (struct sockaddr *)&in->addr, &alen)) ||
	    (type != SOCK_DGRAM && listen(fd, 4))) {
		snprintf(why, len, "receiver socket setup: %s",
			 strerror(errno));
		close(fd);
		return -EIO;
	}
	if (family == AF_TIPC)
		wl_tipc_addr(in, false);
	in->lfd = fd;
	return 0;
}

/*
 * The receivers' sockets of every instance, before any worker starts (the
 * senders' addresses).  Two hosts: only where the receivers run; the other
 * side learns the ports over the control connection.
 */
int wl_stream_listen(char *why, size_t len)
{
	int i, err;

	for (i = 0; i < wl_srun.cfg.instances; i++) {
		wl_srun.sh->inst[i].lfd = -1;
		if (!wl_stream_local(false))
			continue;
		err = wl_make_lfd(&wl_srun.sh->inst[i], why, len);
		if (err)
			return err;
	}
	return 0;
}

/* A worker process: dies with the controller, default signal handling. */
static void __attribute__((noreturn)) wl_child(pid_t parent, int i,
					       bool sender)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(WL_EXIT_FAIL);
	_exit(wl_worker(i, sender));
}

/* Fork or spawn both workers of every instance. */
int wl_stream_start(char *why, size_t len)
{
	static struct wl_worker_arg *args;
	pid_t parent = getpid(), pid;
	pthread_attr_t attr;
	struct wl_inst *in;
	int i, k, err;

	args = calloc(2 * wl_srun.cfg.instances, sizeof(*args));
	if (!args) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	wl_stream_catch_children();
	/* Threads: the controller goes into the workload with its workers. */
	if (wl_wakelab_filter_begin(&wl_srun.wlf, wl_srun.cfg.all_tasks,
				    wl_srun.cfg.remote || wl_srun.cfg.serve, why,
				    len) ||
	    (wl_srun.cfg.threads &&
	     wl_wakelab_filter_add(&wl_srun.wlf, 0, why, len)))
		return -1;
	/* Workers need little stack; thousands of 8 MiB stacks do not fit. */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, WL_THREAD_STACK);
	for (i = 0; i < wl_srun.cfg.instances; i++) {
		in = &wl_srun.sh->inst[i];
		wl_pin_cpus(&wl_srun.topo, wl_srun.cfg.pin, i, &in->snd_pin,
			    &in->rcv_pin);
		for (k = 0; k < 2; k++) {
			if (!wl_stream_local(k == 0))
				continue;
			if (wl_srun.cfg.threads) {
				args[2 * i + k].inst = i;
				args[2 * i + k].sender = k == 0;
				err = pthread_create(&in->tid[k], &attr,
						     wl_worker_thread,
						     &args[2 * i + k]);
				if (err) {
					snprintf(why, len,
						 "pthread_create (instance %d): %s",
						 i, strerror(err));
					return -1;
				}
				wl_nworkers++;
				continue;
			}
			fflush(NULL);
			pid = fork();
			if (pid < 0) {
				snprintf(why, len, "fork (instance %d): %s", i,
					 strerror(errno));
				return -1;
			}
			if (pid == 0)
				wl_child(parent, i, k == 0);
			in->pid[k] = pid;
			wl_nworkers++;
			/* Before the barrier: its setup is not measured. */
			if (wl_wakelab_filter_add(&wl_srun.wlf, pid, why, len))
				return -1;
		}
		/* The receiver owns it now (threads: shares it). */
		if (!wl_srun.cfg.threads && wl_stream_local(false))
			close(in->lfd);
	}
	return 0;
}

/* Wait for every worker to finish setup; false on failure or timeout. */
bool wl_stream_wait_ready(char *why, size_t len)
{
	double end = wl_now() + WL_SETUP_TIMEOUT_S;

	while (__atomic_load_n(&wl_srun.sh->ready, __ATOMIC_ACQUIRE) <
	       (uint32_t)wl_nworkers) {
		if (wl_check_abort(true, why, len))
			return false;
		if (wl_now() > end) {
			snprintf(why, len, "setup timed out after %d s (%u of %d workers ready)",
				 WL_SETUP_TIMEOUT_S, wl_srun.sh->ready,
				 wl_nworkers);
			return false;
		}
		wl_nap();
	}
	return true;
}

/*
 * After the release, wait until every instance has moved data (its receiver
 * got a first byte or transaction), so that the warm-up and the window
 * start with every instance transferring: connection or association set-up
 * on a slow kernel must not fall into the window.  Stores in @took the
 * seconds from the release to the last instance's first data.  False on
 * failure or when an instance moved nothing within WL_FIRST_DATA_TIMEOUT_S.
 */
bool wl_stream_wait_first_data(double *took, char *why, size_t len)
{
	double t0 = wl_now(), end = t0 + WL_FIRST_DATA_TIMEOUT_S;
	int i, started;

	for (;;) {
		if (wl_check_abort(true, why, len))
			return false;
		for (i = 0, started = 0; i < wl_srun.cfg.instances; i++)
			started += wl_progress(i) > 0;
		if (started == wl_srun.cfg.instances)
			break;
		if (wl_now() > end) {
			for (i = 0; i < wl_srun.cfg.instances && wl_progress(i);
			     i++)
				;
			snprintf(why, len,
				 "instance %d moved no data within %d s of the start (%d of %d instances started)",
				 i, WL_FIRST_DATA_TIMEOUT_S, started,
				 wl_srun.cfg.instances);
			return false;
		}
		wl_nap();
	}
	*took = wl_now() - t0;
	return true;
}

/* The wl_sctp_mib counters into @v; 0, or -1 when unreadable. */
static int wl_sctp_mib_read(unsigned long long *v)
{
	char name[64];
	unsigned long long x;
	unsigned int k, found = 0;
	FILE *f;

	f = fopen("/proc/net/sctp/snmp", "re");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %llu", name, &x) == 2)
		for (k = 0; k < WL_SCTP_MIB_NR; k++)
			if (!strcmp(name, wl_sctp_mib[k])) {
				v[k] = x;
				found++;
			}
	fclose(f);
	return found == WL_SCTP_MIB_NR ? 0 : -1;
}

/*
 * The SCTP MIB of the namespaces the run's sockets live in: this one, or
 * with --netns the sum of the sending and the receiving namespace's
 * (/proc/net follows the reading thread's namespace).  0, or -1.
 */
static int wl_sctp_mibs(unsigned long long *v)
{
	unsigned long long ns[WL_SCTP_MIB_NR];
	int side, k, ret = 0;

	if (!wl_srun.cfg.netns)
		return wl_sctp_mib_read(v);
	memset(v, 0, WL_SCTP_MIB_NR * sizeof(*v));
	for (side = 0; side < 2 && !ret; side++) {
		ret = wl_netns_enter(side ? WL_NS_RCV : WL_NS_SND) ||
		      wl_sctp_mib_read(ns);
		for (k = 0; !ret && k < WL_SCTP_MIB_NR; k++)
			v[k] += ns[k];
	}
	if (wl_netns_enter(WL_NS_HOME))
		ret = -1;
	return ret ? -1 : 0;
}

void wl_stream_sctp_begin(void)
{
	wl_sctp_ok = wl_workload_sctp(wl_srun.cfg.workload) &&
		     !wl_sctp_mibs(wl_sctp_start);
}

/* End the span now: the MIB as it is. */
static void wl_sctp_close(void)
{
	wl_sctp_pending = false;
	free(wl_sctp_held);
	wl_sctp_held = NULL;
	if (wl_sctp_ok && wl_sctp_mibs(wl_sctp_end))
		wl_sctp_ok = false;
}

/* What instance @i had moved at sample @s, as wl_progress() counts it. */
static uint64_t wl_sample_progress(const struct wl_sample *s, int i)
{
	return wl_workload_rr(wl_srun.cfg.workload) ? s->rcv_msgs[i] :
	       s->rcv_bytes[i];
}

void wl_stream_sctp_window(const struct wl_sample *a,
			   const struct wl_sample *b)
{
	int i, held = 0;

	if (!wl_sctp_ok)
		return;
	wl_sctp_held = calloc(wl_srun.cfg.instances, sizeof(*wl_sctp_held));
	if (!wl_sctp_held) {
		wl_sctp_ok = false;
		return;
	}
	for (i = 0; i < wl_srun.cfg.instances; i++) {
		wl_sctp_held[i] = UINT64_MAX;
		if (wl_sample_progress(a, i) == wl_sample_progress(b, i)) {
			wl_sctp_held[i] = wl_sample_progress(b, i);
			held++;
		}
	}
	wl_sctp_pending = true;
	if (!held)
		wl_sctp_close();
}

/*
 * While the workers finish: end the span once every instance held up in
 * the window has moved again, or (@done) when they have all finished.
 */
static void wl_sctp_watch(bool done)
{
	int i;

	if (!wl_sctp_pending)
		return;
	for (i = 0; !done && i < wl_srun.cfg.instances; i++)
		if (wl_sctp_held[i] != UINT64_MAX &&
		    wl_progress(i) == wl_sctp_held[i])
			return;
	wl_sctp_close();
}

/*
 * The span's deltas into @d; false when the workload is not SCTP, the MIB
 * was unreadable or the span has not ended.
 */
static bool wl_stream_sctp_deltas(unsigned long long *d)
{
	int k;

	for (k = 0; wl_sctp_ok && !wl_sctp_pending && k < WL_SCTP_MIB_NR; k++)
		d[k] = wl_sctp_end[k] - wl_sctp_start[k];
	return wl_sctp_ok && !wl_sctp_pending;
}

/* Wait for all workers to end after the stop; false on failure/timeout. */
bool wl_stream_wait_done(char *why, size_t len)
{
	double end = wl_now() + WL_DRAIN_TIMEOUT_S;
	int i;

	for (;;) {
		wl_sctp_watch(false);
		if (wl_srun.cfg.threads) {
			if (__atomic_load_n(&wl_srun.sh->finished,
					    __ATOMIC_ACQUIRE) ==
			    (uint32_t)wl_nworkers)
				break;
		} else if (!wl_reap(false, why, len)) {
			break;
		}
		if (wl_sig) {
			snprintf(why, len, "interrupted by signal %d",
				 (int)wl_sig);
			return false;
		}
		if (wl_stream_peer_poll && wl_stream_peer_poll(false, why, len))
			return false;
		if (wl_now() > end) {
			snprintf(why, len,
				 "workers did not finish within %d s of the stop",
				 WL_DRAIN_TIMEOUT_S);
			return false;
		}
		wl_nap();
	}
	if (wl_srun.cfg.threads)
		for (i = 0; i < wl_srun.cfg.instances; i++) {
			if (wl_stream_local(true))
				pthread_join(wl_srun.sh->inst[i].tid[0], NULL);
			if (wl_stream_local(false))
				pthread_join(wl_srun.sh->inst[i].tid[1], NULL);
		}
	wl_sctp_watch(true);
	/* A worker that failed while finishing fails the run too. */
	if (!why[0])
		wl_check_abort(false, why, len);
	return !why[0];
}

int wl_stream_sample_alloc(struct wl_sample *s)
{
	size_t n = wl_srun.cfg.instances;

	memset(s, 0, sizeof(*s));
	s->snd_bytes = calloc(n, sizeof(uint64_t));
	s->rcv_bytes = calloc(n, sizeof(uint64_t));
	s->snd_msgs = calloc(n, sizeof(uint64_t));
	s->rcv_msgs = calloc(n, sizeof(uint64_t));
	return s->snd_bytes && s->rcv_bytes && s->snd_msgs && s->rcv_msgs ?
	       0 : -1;
}

int wl_stream_poll(struct pollfd *pfd, nfds_t n, int ms)
{
	int r = poll(pfd, n, 0);

	if (r || !ms)
		return r;
	wl_ctl_waits++;
	return poll(pfd, n, ms);
}

long wl_stream_ctl_waits(void)
{
	return wl_ctl_waits;
}

long wl_stream_ctl_sleeps(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_THREAD, &ru) ? -1 : ru.ru_nvcsw;
}

/* Counters first (they move fastest), then the system-wide sources. */
void wl_stream_sample(struct wl_sample *s)
{
	char why[8];
	int i;

	/* The peer's counters as of now (a failure shows at the next wait). */
	if (wl_stream_peer_poll)
		wl_stream_peer_poll(true, why, sizeof(why));
	s->t = wl_now();
	for (i = 0; i < wl_srun.cfg.instances; i++) {
		s->snd_bytes[i] = wl_load(&wl_srun.sh->inst[i].snd.bytes);
		s->rcv_bytes[i] = wl_load(&wl_srun.sh->inst[i].rcv.bytes);
		s->snd_msgs[i] = wl_load(&wl_srun.sh->inst[i].snd.msgs);
		s->rcv_msgs[i] = wl_load(&wl_srun.sh->inst[i].rcv.msgs);
	}
	s->cpu_ok = !wl_cpustat_read("/proc/stat", &s->cpu);
	wl_perf_read(&wl_srun.perf, s->perf);
	s->ss_ret = wl_schedstat_read(WL_SCHEDSTAT_PATH, &s->ss);
	s->ctl_sleeps[0] = wl_stream_ctl_sleeps();
	s->ctl_waits[0] = wl_stream_ctl_waits();
	wl_wakelab_sample(&s->wl);
	s->ctl_sleeps[1] = wl_stream_ctl_sleeps();
	s->ctl_waits[1] = wl_stream_ctl_waits();
}

/* Raise the soft RLIMIT_NOFILE to what the run needs, or explain. */
int wl_stream_check_nofile(char *why, size_t len)
{
	unsigned long need;
	struct rlimit rl;

	/* Perf fds, stdio and slack, plus endpoints held in this process. */
	need = 4UL * wl_srun.topo.ncpus + 32 +
	       (wl_srun.cfg.threads ? 3UL * wl_srun.cfg.instances : 2);
	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
			snprintf(why, len,
				 "RLIMIT_NOFILE hard limit %lu is below the %lu descriptors %d instances need",
				 (unsigned long)rl.rlim_max, need,
				 wl_srun.cfg.instances);
			return -1;
		}
		rl.rlim_cur = need;
		if (setrlimit(RLIMIT_NOFILE, &rl)) {
			snprintf(why, len, "setrlimit RLIMIT_NOFILE %lu: %s",
				 need, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* 0 when the workload's protocol works here, else why not (skip). */
const char *wl_stream_unsupported(void)
{
	static char why[160];
	int family, type, proto, fd;

	wl_socket_type(&family, &type, &proto);
	fd = socket(family, type | SOCK_CLOEXEC, proto);
	if (fd >= 0) {
		close(fd);
		return NULL;
	}
	if (errno == EPROTONOSUPPORT || errno == ESOCKTNOSUPPORT ||
	    errno == EAFNOSUPPORT || errno == EPROTOTYPE) {
		snprintf(why, sizeof(why), "%s: %s not available in this kernel (socket: %s)%s",
			 wl_workload_names[wl_srun.cfg.workload],
			 wl_workload_sctp(wl_srun.cfg.workload) ? "SCTP" :
			 family == AF_TIPC ? "TIPC" : "protocol", strerror(errno),
			 family == AF_TIPC ? "; load it: modprobe tipc" : "");
		return why;
	}
	return NULL;	/* Other errors show up, loudly, in the run. */
}

int wl_stream_alloc(void)
{
	size_t n = wl_srun.cfg.instances;

	wl_sh_len = sizeof(*wl_srun.sh) + n * sizeof(struct wl_inst);
	wl_srun.sh = mmap(NULL, wl_sh_len, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (wl_srun.sh == MAP_FAILED) {
		fprintf(stderr, "wl_stream: mmap %zu bytes: %s\n", wl_sh_len,
			strerror(errno));
		wl_srun.sh = NULL;
		return -1;
	}
	wl_prog_last = calloc(n, sizeof(uint64_t));
	wl_prog_moved = calloc(n, sizeof(double));
	wl_srun.prog_gap = calloc(n, sizeof(double));
	if (!wl_prog_last || !wl_prog_moved || !wl_srun.prog_gap) {
		fprintf(stderr, "wl_stream: out of memory\n");
		return -1;
	}
	return 0;
}

int wl_stream_schedstats_on(void)
{
	wl_schedstats_old = wl_schedstats_enabled();
	if (wl_schedstats_old < 0 || wl_schedstats_set(1)) {
		fprintf(stderr, "wl_stream: --schedstats: cannot enable %s\n",
			WL_SCHEDSTATS_SYSCTL);
		wl_schedstats_old = -1;
		return -1;
	}
	return 0;
}

int wl_stream_finish(const struct wl_sample *a, const struct wl_sample *b,
		     struct wl_result *r)
{
	int ret;

	wl_srun.schedstats = wl_schedstats_enabled();
	wl_stream_restore_schedstats();
	wl_srun.sctp_ok = wl_stream_sctp_deltas(wl_srun.sctp);
	wl_srun.netns = wl_netns;
	ret = wl_stream_report(&wl_srun, a, b, r);
	wl_perf_close(&wl_srun.perf);
	wl_wakelab_filter_end(&wl_srun.wlf);
	return ret;
}
