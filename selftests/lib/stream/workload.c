// SPDX-License-Identifier: GPL-2.0
/*
 * wl_stream's workers: the sender and the receiver of each workload, the
 * per-workload loops they run (stream, SCTP one-to-many, UDP, request/
 * response), the payload pattern and the barrier they wait at.  The
 * engine (lib/stream/engine.c) starts them, as processes or threads, and
 * watches their slots.  See wl/stream/workload.h.
 */
#include <errno.h>
#include <linux/futex.h>
#include <netinet/in.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
/* After the libc socket headers, which it relies on. */
#include <linux/sctp.h>

#include "wl/core/clock.h"
#include "wl/stream/netns.h"
#include "wl/stream/run.h"
#include "wl/stream/workload.h"

/* Payload pattern period (prime). */
#define WL_PERIOD		251
#define WL_UDP_IDLE_MS		100

static unsigned char *wl_pattern;	/* WL_PERIOD repeats, long enough */

static uint32_t wl_phase(void)
{
	return __atomic_load_n(&wl_srun.sh->phase, __ATOMIC_ACQUIRE);
}

static void wl_store(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* Record why a worker gives up; returns the worker's exit status. */
static int wl_fail(struct wl_slot *s, const char *what, int err)
{
	snprintf(s->msg, sizeof(s->msg), "%s: %s", what, strerror(err));
	__atomic_store_n(&s->failed, 1, __ATOMIC_RELEASE);
	wl_stream_wake_controller();
	return WL_EXIT_FAIL;
}

/*
 * A receiver moved data: in the window, the longest time it did not
 * (the controller sleeps through the window and cannot watch for it).
 */
static void wl_moved(struct wl_slot *s)
{
	uint64_t now, from;

	if (wl_phase() != WL_PH_MEASURE)
		return;
	now = wl_now_ns();
	from = s->last_ns ? s->last_ns :
	       __atomic_load_n(&wl_srun.sh->window_ns, __ATOMIC_ACQUIRE);
	if (from && now > from && now - from > s->gap_ns)
		__atomic_store_n(&s->gap_ns, now - from, __ATOMIC_RELAXED);
	__atomic_store_n(&s->last_ns, now, __ATOMIC_RELAXED);
}

/* Whether the receiver accepts a connection (one-to-one styles). */
static bool wl_connected(void)
{
	int w = wl_srun.cfg.workload;

	return w == WL_TCP_STREAM || wl_workload_rr(w) ||
	       w == WL_SCTP_STREAM || w == WL_TIPC_STREAM;
}

/*
 * TIPC has no half-close: shutdown() takes SHUT_RDWR only, and the peer
 * reads the end of the stream after the data sent before it.
 */
static int wl_shut_wr(int fd)
{
	return shutdown(fd, wl_workload_tipc(wl_srun.cfg.workload) ?
			SHUT_RDWR : SHUT_WR);
}

void wl_socket_type(int *family, int *type, int *proto)
{
	*family = wl_workload_tipc(wl_srun.cfg.workload) ? AF_TIPC : AF_INET;
	switch (wl_srun.cfg.workload) {
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

int wl_set_bufs(int fd, long bytes)
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
	__atomic_add_fetch(&wl_srun.sh->ready, 1, __ATOMIC_SEQ_CST);
	while (wl_phase() == WL_PH_SETUP)
		syscall(SYS_futex, &wl_srun.sh->phase, FUTEX_WAIT, WL_PH_SETUP,
			NULL, NULL, 0);
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
	size_t m = wl_srun.cfg.msg_size;
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
	if (wl_srun.cfg.verify && !wl_payload_ok(buf, n, *off))
		s->verify_fail++;
	*off += n;
	wl_store(&s->bytes, *off);
	wl_store(&s->msgs, ++*calls);
	wl_moved(s);
}

/* TCP and SCTP one-to-one receiver: read to EOF. */
static int wl_stream_recv(struct wl_inst *in, int fd, unsigned char *buf)
{
	struct wl_slot *s = &in->rcv;
	uint64_t off = 0, calls = 0;
	ssize_t n;

	for (;;) {
		n = recv(fd, buf, wl_srun.cfg.recv_size, 0);
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
	size_t m = wl_srun.cfg.msg_size;
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
		iov.iov_len = wl_srun.cfg.recv_size;
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
	size_t m = wl_srun.cfg.msg_size;
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
		n = recv(fd, buf, wl_srun.cfg.recv_size, 0);
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
		if (wl_srun.cfg.verify && (n != wl_srun.cfg.msg_size ||
				       !wl_payload_ok(buf, n, 0)))
			s->verify_fail++;
		bytes += n;
		wl_store(&s->bytes, bytes);
		wl_store(&s->msgs, ++calls);
		wl_moved(s);
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
		if (wl_send_all(fd, wl_pattern, wl_srun.cfg.msg_size))
			return wl_fail(s, "send", errno);
		r = wl_recv_all(fd, buf, wl_srun.cfg.recv_size);
		if (r <= 0)
			return wl_fail(s, "recv response", r ? errno : EPIPE);
		if (ph == WL_PH_MEASURE)
			wl_hist_add(&in->hist, wl_now_ns() - t0);
		if (wl_srun.cfg.verify &&
		    !wl_payload_ok(buf, wl_srun.cfg.recv_size, 0))
			s->verify_fail++;
		wl_store(&s->msgs, ++trans);
		wl_store(&s->bytes, trans * (wl_srun.cfg.msg_size +
					     wl_srun.cfg.recv_size));
	}
	if (wl_shut_wr(fd))
		return wl_fail(s, "shutdown", errno);
	if (wl_workload_tipc(wl_srun.cfg.workload))
		return 0;	/* Shut both ways: nothing more to read. */
	/* The server closes after our EOF; anything else is an error. */
	r = wl_recv_all(fd, buf, 1);
	if (r)
		return wl_fail(s, "recv after shutdown",
			       r > 0 ? EPROTO : errno);
	return 0;
}

/* tcp_rr server: answer every request until EOF. */
static int wl_rr_server(struct wl_inst *in, int fd, unsigned char *buf)
{
	struct wl_slot *s = &in->rcv;
	uint64_t trans = 0;
	int r;

	for (;;) {
		r = wl_recv_all(fd, buf, wl_srun.cfg.msg_size);
		if (r == 0)
			break;
		if (r < 0)
			return wl_fail(s, "recv request", errno);
		if (wl_srun.cfg.verify &&
		    !wl_payload_ok(buf, wl_srun.cfg.msg_size, 0))
			s->verify_fail++;
		if (wl_send_all(fd, wl_pattern, wl_srun.cfg.recv_size))
			return wl_fail(s, "send response", errno);
		wl_store(&s->msgs, ++trans);
		wl_store(&s->bytes, trans * (wl_srun.cfg.msg_size +
					     wl_srun.cfg.recv_size));
		wl_moved(s);
	}
	return 0;
}

static int wl_sender(struct wl_inst *in)
{
	struct wl_slot *s = &in->snd;
	unsigned char *buf = NULL;
	int fd, family, type, proto, ret;

	if (wl_srun.cfg.netns && wl_netns_enter(WL_NS_SND))
		return wl_fail(s, "setns (sender namespace)", errno);
	wl_socket_type(&family, &type, &proto);
	fd = socket(family, type | SOCK_CLOEXEC, proto);
	if (fd < 0)
		return wl_fail(s, "socket", errno);
	if (wl_set_bufs(fd, wl_srun.cfg.sndbuf))
		return wl_fail(s, "setsockopt -s", errno);
	if (wl_srun.cfg.workload != WL_SCTP_STREAM_MANY &&
	    connect(fd, (struct sockaddr *)&in->addr, in->addrlen))
		return wl_fail(s, "connect", errno);
	if (wl_workload_rr(wl_srun.cfg.workload)) {
		buf = malloc(wl_srun.cfg.recv_size);
		if (!buf)
			return wl_fail(s, "malloc", ENOMEM);
	}
	wl_barrier();
	switch (wl_srun.cfg.workload) {
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

	buf = malloc(wl_srun.cfg.recv_size > wl_srun.cfg.msg_size ?
		     wl_srun.cfg.recv_size : wl_srun.cfg.msg_size);
	if (!buf)
		return wl_fail(s, "malloc", ENOMEM);
	fd = in->lfd;
	if (wl_connected()) {
		fd = accept4(in->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			return wl_fail(s, "accept", errno);
		close(in->lfd);
	}
	if (wl_workload_sctp(wl_srun.cfg.workload)) {
		/* Only the shutdown and association events, or none. */
		memset(&ev, 0, sizeof(ev));
		ev.sctp_association_event = 1;
		ev.sctp_shutdown_event = 1;
		if (wl_srun.cfg.workload == WL_SCTP_STREAM)
			memset(&ev, 0, sizeof(ev));
		if (setsockopt(fd, IPPROTO_SCTP, SCTP_EVENTS, &ev,
			       offsetof(struct sctp_event_subscribe,
					sctp_partial_delivery_event)))
			return wl_fail(s, "setsockopt SCTP_EVENTS", errno);
	}
	wl_barrier();
	switch (wl_srun.cfg.workload) {
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

int wl_worker(int i, bool sender)
{
	struct wl_inst *in = &wl_srun.sh->inst[i];
	struct wl_slot *s = sender ? &in->snd : &in->rcv;

	if (wl_pin_self(sender ? in->snd_pin : in->rcv_pin))
		return wl_fail(s, "sched_setaffinity", errno);
	return sender ? wl_sender(in) : wl_receiver(in);
}

void *wl_worker_thread(void *p)
{
	struct wl_worker_arg *a = p;

	wl_worker(a->inst, a->sender);
	__atomic_add_fetch(&wl_srun.sh->finished, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

int wl_stream_setup_pattern(void)
{
	long n = (wl_srun.cfg.msg_size > wl_srun.cfg.recv_size ?
		  wl_srun.cfg.msg_size : wl_srun.cfg.recv_size) + WL_PERIOD;
	long i;

	wl_pattern = malloc(n);
	if (!wl_pattern)
		return -1;
	for (i = 0; i < n; i++)
		wl_pattern[i] = (unsigned char)(i % WL_PERIOD);
	return 0;
}
