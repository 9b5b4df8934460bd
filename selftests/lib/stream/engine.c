// SPDX-License-Identifier: GPL-2.0
/*
 * wl_stream's engine: the senders and receivers of each workload, their
 * barrier and shared counters, the controller's watch over the window, and
 * the samples taken at its edges.  See wl/stream/engine.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <linux/tipc.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
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
#include <sys/time.h>
#include <sys/wait.h>
#include <arpa/inet.h>
#include <time.h>
#include <unistd.h>
/* After the libc socket headers, which it relies on. */
#include <linux/sctp.h>

#include "wl/core/clock.h"
#include "wl/stream/netns.h"
#include "wl/kernel/schedstat.h"
#include "wl/stream/engine.h"
#include "wl/stream/pin.h"
#include "wl/stream/wakelab.h"

#define WL_PERIOD		251	/* Payload pattern period (prime). */
#define WL_SETUP_TIMEOUT_S	60
#define WL_FIRST_DATA_TIMEOUT_S	30
#define WL_DRAIN_TIMEOUT_S	30
#define WL_POLL_NS		10000000L
#define WL_UDP_IDLE_MS		100
#define WL_THREAD_STACK		(256 << 10)
/* TIPC service type of a run: this base plus the controller's PID. */
#define WL_TIPC_TYPE_BASE	0x10000u

struct wl_worker_arg {
	int inst;
	bool sender;
};

const char * const wl_sctp_mib[WL_SCTP_MIB_NR] = {
	"SctpT1InitExpireds", "SctpT3RtxExpireds", "SctpT3Retransmits",
	"SctpFastRetransmits", "SctpDelaySackExpireds", "SctpInPktDiscards",
	"SctpInDataChunkDiscards",
};

bool (*wl_stream_peer_poll)(bool now, char *why, size_t len);
struct in_addr wl_stream_bind_addr = { .s_addr = 0x0100007f };	/* 127.0.0.1 */
struct wl_cfg wl_scfg;
struct wl_shared *wl_sh;
struct wl_topo wl_stopo;
struct wl_perf wl_sperf;
double *wl_prog_gap;

static size_t wl_sh_len;
static volatile sig_atomic_t wl_sig;
static int wl_nworkers;
static int wl_schedstats_old = -1;
static unsigned char *wl_pattern;	/* WL_PERIOD repeats, long enough */

/*
 * Progress of each instance as the controller sees it at every poll of the
 * window: the last count, when it last moved, and the longest time it did
 * not (wl_prog_gap; resolution: the poll interval, WL_POLL_NS * 5 at most).
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

static uint64_t wl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint32_t wl_phase(void)
{
	return __atomic_load_n(&wl_sh->phase, __ATOMIC_ACQUIRE);
}

void wl_stream_set_phase(uint32_t ph)
{
	__atomic_store_n(&wl_sh->phase, ph, __ATOMIC_RELEASE);
	syscall(SYS_futex, &wl_sh->phase, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static void wl_store(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
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
	return wl_workload_rr(wl_scfg.workload) ? wl_load(&wl_sh->inst[i].rcv.msgs) :
	       wl_load(&wl_sh->inst[i].rcv.bytes);
}

/* Start (@start) or continue tracking the instances' progress at @now. */
void wl_stream_track(double now, bool start)
{
	uint64_t v;
	int i;

	for (i = 0; i < wl_scfg.instances; i++) {
		v = wl_progress(i);
		if (start) {
			wl_prog_gap[i] = 0;
		} else if (v == wl_prog_last[i]) {
			if (now - wl_prog_moved[i] > wl_prog_gap[i])
				wl_prog_gap[i] = now - wl_prog_moved[i];
			continue;
		}
		wl_prog_last[i] = v;
		wl_prog_moved[i] = now;
	}
	wl_tracking = start;
}

/* Record why a worker gives up; returns the worker's exit status. */
static int wl_fail(struct wl_slot *s, const char *what, int err)
{
	snprintf(s->msg, sizeof(s->msg), "%s: %s", what, strerror(err));
	__atomic_store_n(&s->failed, 1, __ATOMIC_RELEASE);
	return WL_EXIT_FAIL;
}

bool wl_stream_sctp(void)
{
	return wl_scfg.workload == WL_SCTP_STREAM ||
	       wl_scfg.workload == WL_SCTP_STREAM_MANY;
}

bool wl_stream_reliable(void)
{
	return wl_scfg.workload == WL_TCP_STREAM ||
	       wl_scfg.workload == WL_TIPC_STREAM || wl_stream_sctp();
}

bool wl_stream_local(bool sender)
{
	if (!wl_scfg.remote && !wl_scfg.serve)
		return true;
	/* A client runs the senders unless --receive; a server the others. */
	return sender == (wl_scfg.remote ? !wl_scfg.receive : wl_scfg.receive);
}

/* Whether the receiver accepts a connection (one-to-one styles). */
static bool wl_connected(void)
{
	return wl_scfg.workload == WL_TCP_STREAM || wl_workload_rr(wl_scfg.workload) ||
	       wl_scfg.workload == WL_SCTP_STREAM || wl_scfg.workload == WL_TIPC_STREAM;
}

/*
 * TIPC has no half-close: shutdown() takes SHUT_RDWR only, and the peer
 * reads the end of the stream after the data sent before it.
 */
static int wl_shut_wr(int fd)
{
	return shutdown(fd, wl_workload_tipc(wl_scfg.workload) ? SHUT_RDWR : SHUT_WR);
}

static void wl_socket_type(int *family, int *type, int *proto)
{
	*family = wl_workload_tipc(wl_scfg.workload) ? AF_TIPC : AF_INET;
	switch (wl_scfg.workload) {
	case WL_UDP_STREAM:
		*type = SOCK_DGRAM;
		*proto = 0;
		break;
	case WL_SCTP_STREAM:
		*type = SOCK_STREAM;
		*proto = IPPROTO_SCTP;
		break;
	case WL_SCTP_STREAM_MANY:
		*type = SOCK_SEQPACKET;
		*proto = IPPROTO_SCTP;
		break;
	default:
		*type = SOCK_STREAM;
		*proto = 0;
		break;
	}
}

static int wl_set_bufs(int fd, long bytes)
{
	int v = (int)bytes;

	if (!bytes)
		return 0;
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)))
		return -1;
	return 0;
}

static int wl_pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Tell the controller setup is done and wait for the common start. */
static void wl_barrier(void)
{
	__atomic_add_fetch(&wl_sh->ready, 1, __ATOMIC_SEQ_CST);
	while (wl_phase() == WL_PH_SETUP)
		syscall(SYS_futex, &wl_sh->phase, FUTEX_WAIT, WL_PH_SETUP, NULL,
			NULL, 0);
}

/* Payload check: @n bytes at stream offset @off match the pattern. */
static bool wl_payload_ok(const unsigned char *buf, size_t n, uint64_t off)
{
	return !memcmp(buf, wl_pattern + off % WL_PERIOD, n);
}

static int wl_send_all(int fd, const unsigned char *buf, size_t n)
{
	ssize_t r;

	while (n) {
		r = send(fd, buf, n, MSG_NOSIGNAL);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += r;
		n -= r;
	}
	return 0;
}

/* 1 when @n bytes arrived, 0 on EOF before the first byte, -1 else. */
static int wl_recv_all(int fd, unsigned char *buf, size_t n)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		r = recv(fd, buf + got, n - got, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0) {
			errno = EPIPE;
			return got ? -1 : 0;
		}
		got += r;
	}
	return 1;
}

/* TCP and SCTP one-to-one sender: send until told to stop, then shut down. */
static int wl_stream_send(struct wl_inst *in, int fd)
{
	struct wl_slot *s = &in->snd;
	size_t m = wl_scfg.msg_size;
	uint64_t off = 0, calls = 0;
	ssize_t n;

	while (wl_phase() != WL_PH_STOP) {
		n = send(fd, wl_pattern + off % WL_PERIOD, m, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return wl_fail(s, "send", errno);
		}
		off += n;
		wl_store(&s->bytes, off);
		wl_store(&s->msgs, ++calls);
	}
	if (wl_shut_wr(fd))
		return wl_fail(s, "shutdown", errno);
	return 0;
}

/* Account @n bytes received at stream offset *@off (checked with -v). */
static void wl_received(struct wl_slot *s, const unsigned char *buf,
			ssize_t n, uint64_t *off, uint64_t *calls)
{
	if (wl_scfg.verify && !wl_payload_ok(buf, n, *off))
		s->verify_fail++;
	*off += n;
	wl_store(&s->bytes, *off);
	wl_store(&s->msgs, ++*calls);
}

/* TCP and SCTP one-to-one receiver: read to EOF. */
static int wl_stream_recv(struct wl_inst *in, int fd, unsigned char *buf)
{
	struct wl_slot *s = &in->rcv;
	uint64_t off = 0, calls = 0;
	ssize_t n;

	for (;;) {
		n = recv(fd, buf, wl_scfg.recv_size, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return wl_fail(s, "recv", errno);
		}
		if (n == 0)
			break;
		wl_received(s, buf, n, &off, &calls);
	}
	return 0;
}

/* SCTP one-to-many sender: sendto() the receiver's address; close ends. */
static int wl_many_send(struct wl_inst *in, int fd)
{
	struct wl_slot *s = &in->snd;
	size_t m = wl_scfg.msg_size;
	uint64_t off = 0, calls = 0;
	ssize_t n;

	while (wl_phase() != WL_PH_STOP) {
		n = sendto(fd, wl_pattern + off % WL_PERIOD, m, MSG_NOSIGNAL,
			   (struct sockaddr *)&in->addr, in->addrlen);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return wl_fail(s, "sendto", errno);
		}
		off += n;
		wl_store(&s->bytes, off);
		wl_store(&s->msgs, ++calls);
	}
	/* close() shuts the association down once all data is acked. */
	return 0;
}

/* SCTP one-to-many receiver: data until the shutdown notification. */
static int wl_many_recv(struct wl_inst *in, int fd, unsigned char *buf)
{
	struct wl_slot *s = &in->rcv;
	union sctp_notification *sn = (void *)buf;
	uint64_t off = 0, calls = 0;
	struct msghdr mh;
	struct iovec iov;
	ssize_t n;

	for (;;) {
		memset(&mh, 0, sizeof(mh));
		iov.iov_base = buf;
		iov.iov_len = wl_scfg.recv_size;
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		n = recvmsg(fd, &mh, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return wl_fail(s, "recvmsg", errno);
		}
		if (n == 0)
			break;
		if (mh.msg_flags & MSG_NOTIFICATION) {
			if (n < (ssize_t)sizeof(__u16))
				continue;
			if (sn->sn_header.sn_type == SCTP_SHUTDOWN_EVENT)
				break;
			if (sn->sn_header.sn_type == SCTP_ASSOC_CHANGE &&
			    n >= (ssize_t)sizeof(struct sctp_assoc_change)) {
				if (sn->sn_assoc_change.sac_state ==
				    SCTP_SHUTDOWN_COMP)
					break;
				if (sn->sn_assoc_change.sac_state ==
				    SCTP_COMM_LOST)
					return wl_fail(s, "association",
						       ECONNRESET);
			}
			continue;
		}
		wl_received(s, buf, n, &off, &calls);
	}
	return 0;
}

/* UDP sender: datagrams of -m bytes, each the pattern from offset 0. */
static int wl_udp_send(struct wl_inst *in, int fd)
{
	struct wl_slot *s = &in->snd;
	size_t m = wl_scfg.msg_size;
	uint64_t bytes = 0, calls = 0, errs = 0;
	ssize_t n;

	while (wl_phase() != WL_PH_STOP) {
		n = send(fd, wl_pattern, m, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* Queue full or receiver not yet draining: count. */
			if (errno == ENOBUFS || errno == EAGAIN ||
			    errno == ECONNREFUSED) {
				wl_store(&s->errors, ++errs);
				continue;
			}
			return wl_fail(s, "send", errno);
		}
		bytes += n;
		wl_store(&s->bytes, bytes);
		wl_store(&s->msgs, ++calls);
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return 0;
}

/* UDP receiver: until the sender is done and the socket stays quiet. */
static int wl_udp_recv(struct wl_inst *in, int fd, unsigned char *buf)
{
	struct timeval tv = { 0, WL_UDP_IDLE_MS * 1000 };
	struct wl_slot *s = &in->rcv;
	uint64_t bytes = 0, calls = 0;
	int idle = 0;
	ssize_t n;

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		return wl_fail(s, "setsockopt SO_RCVTIMEO", errno);
	for (;;) {
		n = recv(fd, buf, wl_scfg.recv_size, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return wl_fail(s, "recv", errno);
			if (__atomic_load_n(&in->snd.done, __ATOMIC_ACQUIRE) &&
			    ++idle >= 2)
				break;
			continue;
		}
		idle = 0;
		if (wl_scfg.verify && (n != wl_scfg.msg_size ||
				       !wl_payload_ok(buf, n, 0)))
			s->verify_fail++;
		bytes += n;
		wl_store(&s->bytes, bytes);
		wl_store(&s->msgs, ++calls);
	}
	return 0;
}

/* tcp_rr client: one request of -m bytes, one response of -M bytes. */
static int wl_rr_client(struct wl_inst *in, int fd, unsigned char *buf)
{
	struct wl_slot *s = &in->snd;
	uint64_t t0, trans = 0;
	uint32_t ph;
	int r;

	for (;;) {
		ph = wl_phase();
		if (ph == WL_PH_STOP)
			break;
		t0 = wl_now_ns();
		if (wl_send_all(fd, wl_pattern, wl_scfg.msg_size))
			return wl_fail(s, "send", errno);
		r = wl_recv_all(fd, buf, wl_scfg.recv_size);
		if (r <= 0)
			return wl_fail(s, "recv response", r ? errno : EPIPE);
		if (ph == WL_PH_MEASURE)
			wl_hist_add(&in->hist, wl_now_ns() - t0);
		if (wl_scfg.verify && !wl_payload_ok(buf, wl_scfg.recv_size, 0))
			s->verify_fail++;
		wl_store(&s->msgs, ++trans);
		wl_store(&s->bytes, trans * (wl_scfg.msg_size + wl_scfg.recv_size));
	}
	if (wl_shut_wr(fd))
		return wl_fail(s, "shutdown", errno);
	if (wl_workload_tipc(wl_scfg.workload))
		return 0;	/* Shut both ways: nothing more to read. */
	/* The server closes after our EOF; anything else is an error. */
	r = wl_recv_all(fd, buf, 1);
	if (r)
		return wl_fail(s, "recv after shutdown", r > 0 ? EPROTO : errno);
	return 0;
}

/* tcp_rr server: answer every request until EOF. */
static int wl_rr_server(struct wl_inst *in, int fd, unsigned char *buf)
{
	struct wl_slot *s = &in->rcv;
	uint64_t trans = 0;
	int r;

	for (;;) {
		r = wl_recv_all(fd, buf, wl_scfg.msg_size);
		if (r == 0)
			break;
		if (r < 0)
			return wl_fail(s, "recv request", errno);
		if (wl_scfg.verify && !wl_payload_ok(buf, wl_scfg.msg_size, 0))
			s->verify_fail++;
		if (wl_send_all(fd, wl_pattern, wl_scfg.recv_size))
			return wl_fail(s, "send response", errno);
		wl_store(&s->msgs, ++trans);
		wl_store(&s->bytes, trans * (wl_scfg.msg_size + wl_scfg.recv_size));
	}
	return 0;
}

static int wl_sender(struct wl_inst *in)
{
	struct wl_slot *s = &in->snd;
	unsigned char *buf = NULL;
	int fd, family, type, proto, ret;

	if (wl_scfg.netns && wl_netns_enter(WL_NS_SND))
		return wl_fail(s, "setns (sender namespace)", errno);
	wl_socket_type(&family, &type, &proto);
	fd = socket(family, type | SOCK_CLOEXEC, proto);
	if (fd < 0)
		return wl_fail(s, "socket", errno);
	if (wl_set_bufs(fd, wl_scfg.sndbuf))
		return wl_fail(s, "setsockopt -s", errno);
	if (wl_scfg.workload != WL_SCTP_STREAM_MANY &&
	    connect(fd, (struct sockaddr *)&in->addr, in->addrlen))
		return wl_fail(s, "connect", errno);
	if (wl_workload_rr(wl_scfg.workload)) {
		buf = malloc(wl_scfg.recv_size);
		if (!buf)
			return wl_fail(s, "malloc", ENOMEM);
	}
	wl_barrier();
	switch (wl_scfg.workload) {
	case WL_UDP_STREAM:
		ret = wl_udp_send(in, fd);
		break;
	case WL_SCTP_STREAM_MANY:
		ret = wl_many_send(in, fd);
		break;
	case WL_TCP_RR:
	case WL_TIPC_RR:
		ret = wl_rr_client(in, fd, buf);
		break;
	default:
		ret = wl_stream_send(in, fd);
		break;
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	s->cpu = sched_getcpu();
	close(fd);
	free(buf);
	return ret;
}

static int wl_receiver(struct wl_inst *in)
{
	struct wl_slot *s = &in->rcv;
	struct sctp_event_subscribe ev;
	unsigned char *buf;
	int fd, ret;

	buf = malloc(wl_scfg.recv_size > wl_scfg.msg_size ? wl_scfg.recv_size :
		     wl_scfg.msg_size);
	if (!buf)
		return wl_fail(s, "malloc", ENOMEM);
	fd = in->lfd;
	if (wl_connected()) {
		fd = accept4(in->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			return wl_fail(s, "accept", errno);
		close(in->lfd);
	}
	if (wl_stream_sctp()) {
		/* Only the shutdown and association events, or none. */
		memset(&ev, 0, sizeof(ev));
		ev.sctp_association_event = 1;
		ev.sctp_shutdown_event = 1;
		if (wl_scfg.workload == WL_SCTP_STREAM)
			memset(&ev, 0, sizeof(ev));
		if (setsockopt(fd, IPPROTO_SCTP, SCTP_EVENTS, &ev,
			       offsetof(struct sctp_event_subscribe,
					sctp_partial_delivery_event)))
			return wl_fail(s, "setsockopt SCTP_EVENTS", errno);
	}
	wl_barrier();
	switch (wl_scfg.workload) {
	case WL_UDP_STREAM:
		ret = wl_udp_recv(in, fd, buf);
		break;
	case WL_SCTP_STREAM_MANY:
		ret = wl_many_recv(in, fd, buf);
		break;
	case WL_TCP_RR:
	case WL_TIPC_RR:
		ret = wl_rr_server(in, fd, buf);
		break;
	default:
		ret = wl_stream_recv(in, fd, buf);
		break;
	}
	s->cpu = sched_getcpu();
	close(fd);
	free(buf);
	return ret;
}

static int wl_worker(int i, bool sender)
{
	struct wl_inst *in = &wl_sh->inst[i];
	struct wl_slot *s = sender ? &in->snd : &in->rcv;

	if (wl_pin_self(sender ? in->snd_pin : in->rcv_pin))
		return wl_fail(s, "sched_setaffinity", errno);
	return sender ? wl_sender(in) : wl_receiver(in);
}

static void *wl_thread(void *p)
{
	struct wl_worker_arg *a = p;

	wl_worker(a->inst, a->sender);
	__atomic_add_fetch(&wl_sh->finished, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

void wl_stream_on_signal(int sig)
{
	wl_sig = sig;
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

	if (wl_scfg.threads)
		return;
	for (i = 0; i < wl_scfg.instances; i++)
		for (k = 0; k < 2; k++)
			if (wl_sh->inst[i].pid[k] > 0)
				kill(wl_sh->inst[i].pid[k], SIGKILL);
	for (i = 0; i < wl_scfg.instances; i++)
		for (k = 0; k < 2; k++)
			if (wl_sh->inst[i].pid[k] > 0) {
				waitpid(wl_sh->inst[i].pid[k], NULL, 0);
				wl_sh->inst[i].pid[k] = 0;
			}
}

void __attribute__((noreturn)) wl_stream_die(int status)
{
	wl_kill_all();
	wl_stream_restore_schedstats();
	wl_netns_cleanup();
	exit(status);
}

/* The first failure message any worker recorded, or NULL. */
static const char *wl_worker_failure(int *inst, const char **role)
{
	int i;

	for (i = 0; i < wl_scfg.instances; i++) {
		*inst = i;
		if (__atomic_load_n(&wl_sh->inst[i].snd.failed, __ATOMIC_ACQUIRE)) {
			*role = wl_workload_rr(wl_scfg.workload) ? "client" : "sender";
			return wl_sh->inst[i].snd.msg;
		}
		if (__atomic_load_n(&wl_sh->inst[i].rcv.failed, __ATOMIC_ACQUIRE)) {
			*role = wl_workload_rr(wl_scfg.workload) ? "server" : "receiver";
			return wl_sh->inst[i].rcv.msg;
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

	for (i = 0; i < wl_scfg.instances; i++) {
		for (k = 0; k < 2; k++) {
			if (wl_sh->inst[i].pid[k] <= 0)
				continue;
			r = waitpid(wl_sh->inst[i].pid[k], &st, WNOHANG);
			if (r == 0) {
				running++;
				continue;
			}
			wl_sh->inst[i].pid[k] = 0;
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
	if (running && !wl_scfg.threads) {
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
	double left;
	struct timespec ts;

	for (;;) {
		if (wl_check_abort(true, why, len))
			return false;
		if (wl_tracking)
			wl_stream_track(wl_now(), false);
		left = end - wl_now();
		if (left <= 0)
			return true;
		if (left > WL_POLL_NS / 1e9 * 5)
			left = WL_POLL_NS / 1e9 * 5;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
		nanosleep(&ts, NULL);
	}
}

/* The address a TIPC receiver binds (@bind) or a sender connects to. */
static void wl_tipc_addr(struct wl_inst *in, bool bind)
{
	struct sockaddr_tipc *t = (struct sockaddr_tipc *)&in->addr;
	unsigned int i = in - wl_sh->inst;

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
	if (wl_scfg.netns && wl_netns_enter(WL_NS_RCV)) {
		snprintf(why, len, "setns (receiver namespace): %s",
			 strerror(errno));
		return -EIO;
	}
	fd = socket(family, type | SOCK_CLOEXEC, proto);
	if (fd < 0)
		err = errno;
	if (wl_scfg.netns && wl_netns_enter(WL_NS_HOME)) {
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
	if (wl_set_bufs(fd, wl_scfg.rcvbuf) ||
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

	for (i = 0; i < wl_scfg.instances; i++) {
		wl_sh->inst[i].lfd = -1;
		if (!wl_stream_local(false))
			continue;
		err = wl_make_lfd(&wl_sh->inst[i], why, len);
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

	args = calloc(2 * wl_scfg.instances, sizeof(*args));
	if (!args) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	/* Workers need little stack; thousands of 8 MiB stacks do not fit. */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, WL_THREAD_STACK);
	for (i = 0; i < wl_scfg.instances; i++) {
		in = &wl_sh->inst[i];
		wl_pin_cpus(&wl_stopo, wl_scfg.pin, i, &in->snd_pin, &in->rcv_pin);
		for (k = 0; k < 2; k++) {
			if (!wl_stream_local(k == 0))
				continue;
			if (wl_scfg.threads) {
				args[2 * i + k].inst = i;
				args[2 * i + k].sender = k == 0;
				err = pthread_create(&in->tid[k], &attr,
						     wl_thread,
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
		}
		/* The receiver owns it now (threads: shares it). */
		if (!wl_scfg.threads && wl_stream_local(false))
			close(in->lfd);
	}
	return 0;
}

/* Wait for every worker to finish setup; false on failure or timeout. */
bool wl_stream_wait_ready(char *why, size_t len)
{
	double end = wl_now() + WL_SETUP_TIMEOUT_S;

	while (__atomic_load_n(&wl_sh->ready, __ATOMIC_ACQUIRE) <
	       (uint32_t)wl_nworkers) {
		if (wl_check_abort(true, why, len))
			return false;
		if (wl_now() > end) {
			snprintf(why, len, "setup timed out after %d s (%u of %d workers ready)",
				 WL_SETUP_TIMEOUT_S, wl_sh->ready, wl_nworkers);
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
		for (i = 0, started = 0; i < wl_scfg.instances; i++)
			started += wl_progress(i) > 0;
		if (started == wl_scfg.instances)
			break;
		if (wl_now() > end) {
			for (i = 0; i < wl_scfg.instances && wl_progress(i); i++)
				;
			snprintf(why, len,
				 "instance %d moved no data within %d s of the start (%d of %d instances started)",
				 i, WL_FIRST_DATA_TIMEOUT_S, started,
				 wl_scfg.instances);
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

	if (!wl_scfg.netns)
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
	wl_sctp_ok = wl_stream_sctp() && !wl_sctp_mibs(wl_sctp_start);
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
	return wl_workload_rr(wl_scfg.workload) ? s->rcv_msgs[i] :
	       s->rcv_bytes[i];
}

void wl_stream_sctp_window(const struct wl_sample *a,
			   const struct wl_sample *b)
{
	int i, held = 0;

	if (!wl_sctp_ok)
		return;
	wl_sctp_held = calloc(wl_scfg.instances, sizeof(*wl_sctp_held));
	if (!wl_sctp_held) {
		wl_sctp_ok = false;
		return;
	}
	for (i = 0; i < wl_scfg.instances; i++) {
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
	for (i = 0; !done && i < wl_scfg.instances; i++)
		if (wl_sctp_held[i] != UINT64_MAX &&
		    wl_progress(i) == wl_sctp_held[i])
			return;
	wl_sctp_close();
}

bool wl_stream_sctp_deltas(unsigned long long *d)
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
		if (wl_scfg.threads) {
			if (__atomic_load_n(&wl_sh->finished, __ATOMIC_ACQUIRE) ==
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
	if (wl_scfg.threads)
		for (i = 0; i < wl_scfg.instances; i++) {
			if (wl_stream_local(true))
				pthread_join(wl_sh->inst[i].tid[0], NULL);
			if (wl_stream_local(false))
				pthread_join(wl_sh->inst[i].tid[1], NULL);
		}
	wl_sctp_watch(true);
	/* A worker that failed while finishing fails the run too. */
	if (!why[0])
		wl_check_abort(false, why, len);
	return !why[0];
}

int wl_stream_sample_alloc(struct wl_sample *s)
{
	size_t n = wl_scfg.instances;

	memset(s, 0, sizeof(*s));
	s->snd_bytes = calloc(n, sizeof(uint64_t));
	s->rcv_bytes = calloc(n, sizeof(uint64_t));
	s->snd_msgs = calloc(n, sizeof(uint64_t));
	s->rcv_msgs = calloc(n, sizeof(uint64_t));
	return s->snd_bytes && s->rcv_bytes && s->snd_msgs && s->rcv_msgs ?
	       0 : -1;
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
	for (i = 0; i < wl_scfg.instances; i++) {
		s->snd_bytes[i] = wl_load(&wl_sh->inst[i].snd.bytes);
		s->rcv_bytes[i] = wl_load(&wl_sh->inst[i].rcv.bytes);
		s->snd_msgs[i] = wl_load(&wl_sh->inst[i].snd.msgs);
		s->rcv_msgs[i] = wl_load(&wl_sh->inst[i].rcv.msgs);
	}
	s->cpu_ok = !wl_cpustat_read("/proc/stat", &s->cpu);
	wl_perf_read(&wl_sperf, s->perf);
	s->ss_ret = wl_schedstat_read(WL_SCHEDSTAT_PATH, &s->ss);
	wl_wakelab_sample(&s->wl);
}

/* Raise the soft RLIMIT_NOFILE to what the run needs, or explain. */
int wl_stream_check_nofile(char *why, size_t len)
{
	unsigned long need;
	struct rlimit rl;

	/* Perf fds, stdio and slack, plus endpoints held in this process. */
	need = 4UL * wl_stopo.ncpus + 32 +
	       (wl_scfg.threads ? 3UL * wl_scfg.instances : 2);
	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
			snprintf(why, len,
				 "RLIMIT_NOFILE hard limit %lu is below the %lu descriptors %d instances need",
				 (unsigned long)rl.rlim_max, need,
				 wl_scfg.instances);
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
			 wl_workload_names[wl_scfg.workload],
			 wl_stream_sctp() ? "SCTP" :
			 family == AF_TIPC ? "TIPC" : "protocol", strerror(errno),
			 family == AF_TIPC ? "; load it: modprobe tipc" : "");
		return why;
	}
	return NULL;	/* Other errors show up, loudly, in the run. */
}

int wl_stream_setup_pattern(void)
{
	long n = (wl_scfg.msg_size > wl_scfg.recv_size ? wl_scfg.msg_size :
		  wl_scfg.recv_size) + WL_PERIOD;
	long i;

	wl_pattern = malloc(n);
	if (!wl_pattern)
		return -1;
	for (i = 0; i < n; i++)
		wl_pattern[i] = (unsigned char)(i % WL_PERIOD);
	return 0;
}

int wl_stream_alloc(void)
{
	size_t n = wl_scfg.instances;

	wl_sh_len = sizeof(*wl_sh) + n * sizeof(struct wl_inst);
	wl_sh = mmap(NULL, wl_sh_len, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (wl_sh == MAP_FAILED) {
		fprintf(stderr, "wl_stream: mmap %zu bytes: %s\n", wl_sh_len,
			strerror(errno));
		wl_sh = NULL;
		return -1;
	}
	wl_prog_last = calloc(n, sizeof(uint64_t));
	wl_prog_moved = calloc(n, sizeof(double));
	wl_prog_gap = calloc(n, sizeof(double));
	if (!wl_prog_last || !wl_prog_moved || !wl_prog_gap) {
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

