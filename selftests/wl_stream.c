// SPDX-License-Identifier: GPL-2.0
/*
 * wl_stream: loopback workload engine for wakelab.  Runs N instances of a
 * TCP, UDP or SCTP stream, or of a TCP request/response exchange, each
 * instance a sender and a receiver in its own process (as netperf and
 * netserver; --threads for threads), all released by one barrier and
 * measured over one common window after a warm-up.  Reports per-instance
 * and aggregate throughput, UDP send and receive rates and loss, tcp_rr
 * latency percentiles, system-wide CPU use and service demand, perf
 * software/hardware counts, /proc/schedstat wakeup deltas and the deltas of
 * wakelab's debugfs counters, as a table, one JSON object (--json) or one
 * netperf-loop line (--brief).  Every run checks integrity: bytes sent ==
 * bytes received for TCP and SCTP, transactions answered for tcp_rr.
 *
 * Exit status: 0 ok, 1 run or integrity failure, 2 bad usage, 4 (KSFT_SKIP)
 * workload or pin mode unsupported on this system.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
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
#include <sys/utsname.h>
#include <sys/wait.h>
#include <arpa/inet.h>
#include <time.h>
#include <unistd.h>
/* After the libc socket headers, which it relies on. */
#include <linux/sctp.h>

#include "wl_stream_opts.h"
#include "wl_cpustat.h"
#include "wl_schedstat.h"
#include "wl_perf.h"
#include "wl_topo.h"
#include "wl_hist.h"
#include "wl_jsonw.h"
#include "wl_stream_wakelab.h"

#define WS_SCHEMA		2
#define WS_EXIT_FAIL		1
#define WS_EXIT_USAGE		2
#define WS_EXIT_SKIP		4
#define WS_PERIOD		251	/* Payload pattern period (prime). */
#define WS_SETUP_TIMEOUT_S	60
#define WS_FIRST_DATA_TIMEOUT_S	30
#define WS_DRAIN_TIMEOUT_S	30
#define WS_POLL_NS		10000000L
#define WS_UDP_IDLE_MS		100
#define WS_SCTP_MANY_MIN_RECV	16
#define WS_THREAD_STACK		(256 << 10)

enum ws_phase {
	WS_PH_SETUP,
	WS_PH_WARMUP,
	WS_PH_MEASURE,
	WS_PH_STOP,
};

/**
 * struct ws_slot - what one sender or receiver reports, in shared memory
 * @bytes:	payload bytes moved so far (single writer: the worker)
 * @msgs:	datagrams/messages (udp, sctp), transactions (tcp_rr)
 * @errors:	transient send errors (udp ENOBUFS)
 * @cpu:	CPU the worker ran on when it finished
 * @failed:	set with @msg when the worker gave up
 * @verify_fail: payload pattern mismatches seen (--verify)
 * @done:	the worker finished sending (udp receivers watch it)
 * @msg:	why it failed
 */
struct ws_slot {
	uint64_t bytes;
	uint64_t msgs;
	uint64_t errors;
	int32_t cpu;
	int32_t failed;
	int32_t verify_fail;
	int32_t done;
	char msg[160];
} __attribute__((aligned(64)));

/**
 * struct ws_inst - one sender/receiver pair
 * @snd:	the sender's (tcp_rr: client's) slot
 * @rcv:	the receiver's (tcp_rr: server's) slot
 * @snd_pin:	CPU the sender is pinned to, -1 unpinned
 * @rcv_pin:	CPU the receiver is pinned to, -1 unpinned
 * @lfd:	receiver-side socket the controller made (listening or bound)
 * @addr:	its address, which the sender connects or sends to
 * @pid:	sender and receiver processes (0 when reaped)
 * @tid:	sender and receiver threads (--threads)
 * @hist:	tcp_rr round-trip latencies inside the window
 */
struct ws_inst {
	struct ws_slot snd;
	struct ws_slot rcv;
	int snd_pin, rcv_pin;
	int lfd;
	struct sockaddr_in addr;
	pid_t pid[2];
	pthread_t tid[2];
	struct ws_hist hist;
};

/**
 * struct ws_shared - the barrier and all slots, in one shared mapping
 * @phase:	enum ws_phase; a futex the workers wait on during setup
 * @ready:	workers done with setup
 * @finished:	workers done (threads mode)
 * @inst:	the instances
 */
struct ws_shared {
	uint32_t phase;
	uint32_t ready;
	uint32_t finished;
	struct ws_inst inst[];
};

/*
 * The SCTP MIB counters (/proc/net/sctp/snmp) that explain a stream that
 * stops: retransmission timeouts and the receiver's discards.
 */
static const char * const ws_sctp_mib[] = {
	"SctpT1InitExpireds", "SctpT3RtxExpireds", "SctpT3Retransmits",
	"SctpFastRetransmits", "SctpDelaySackExpireds", "SctpInPktDiscards",
	"SctpInDataChunkDiscards",
};
#define WS_SCTP_MIB_NR	(sizeof(ws_sctp_mib) / sizeof(ws_sctp_mib[0]))

/* One sample of everything measured at a window edge. */
struct ws_sample {
	double t;
	uint64_t *snd_bytes, *rcv_bytes, *snd_msgs, *rcv_msgs;
	struct ws_cpustat cpu;
	bool cpu_ok;
	unsigned long long perf[WS_PERF_NR];
	struct ws_schedstat ss;
	int ss_ret;
	struct ws_wakelab wl;
	unsigned long long sctp[WS_SCTP_MIB_NR];
	bool sctp_ok;
};

struct ws_worker_arg {
	int inst;
	bool sender;
};

static struct ws_cfg cfg;
static struct ws_shared *sh;
static size_t sh_len;
static struct ws_topo topo;
static struct ws_perf perf;
static volatile sig_atomic_t ws_sig;
static int ws_nworkers;
static int ws_schedstats_old = -1;
static unsigned char *ws_pattern;	/* WS_PERIOD repeats, long enough */

/*
 * Progress of each instance as the controller sees it at every poll of the
 * window: the last count, when it last moved, and the longest time it did
 * not (resolution: the poll interval, WS_POLL_NS * 5 at most).
 */
static uint64_t *ws_prog_last;
static double *ws_prog_moved, *ws_prog_gap;
static bool ws_tracking;

static double ws_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t ws_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static uint32_t ws_phase(void)
{
	return __atomic_load_n(&sh->phase, __ATOMIC_ACQUIRE);
}

static void ws_set_phase(uint32_t ph)
{
	__atomic_store_n(&sh->phase, ph, __ATOMIC_RELEASE);
	syscall(SYS_futex, &sh->phase, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static void ws_store(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

static uint64_t ws_load(uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

/*
 * What instance @i has moved so far: transactions answered (tcp_rr), else
 * payload bytes received.  The receiver's count: only data that arrived is
 * progress.
 */
static uint64_t ws_progress(int i)
{
	return cfg.workload == WS_TCP_RR ? ws_load(&sh->inst[i].rcv.msgs) :
	       ws_load(&sh->inst[i].rcv.bytes);
}

/* Start (@start) or continue tracking the instances' progress at @now. */
static void ws_track(double now, bool start)
{
	uint64_t v;
	int i;

	for (i = 0; i < cfg.instances; i++) {
		v = ws_progress(i);
		if (start) {
			ws_prog_gap[i] = 0;
		} else if (v == ws_prog_last[i]) {
			if (now - ws_prog_moved[i] > ws_prog_gap[i])
				ws_prog_gap[i] = now - ws_prog_moved[i];
			continue;
		}
		ws_prog_last[i] = v;
		ws_prog_moved[i] = now;
	}
}

/* Record why a worker gives up; returns the worker's exit status. */
static int ws_fail(struct ws_slot *s, const char *what, int err)
{
	snprintf(s->msg, sizeof(s->msg), "%s: %s", what, strerror(err));
	__atomic_store_n(&s->failed, 1, __ATOMIC_RELEASE);
	return WS_EXIT_FAIL;
}

static bool ws_sctp(void)
{
	return cfg.workload == WS_SCTP_STREAM ||
	       cfg.workload == WS_SCTP_STREAM_MANY;
}

static bool ws_reliable_stream(void)
{
	return cfg.workload == WS_TCP_STREAM || ws_sctp();
}

/* Whether the receiver accepts a connection (one-to-one styles). */
static bool ws_connected(void)
{
	return cfg.workload == WS_TCP_STREAM || cfg.workload == WS_TCP_RR ||
	       cfg.workload == WS_SCTP_STREAM;
}

static void ws_socket_type(int *type, int *proto)
{
	switch (cfg.workload) {
	case WS_UDP_STREAM:
		*type = SOCK_DGRAM;
		*proto = 0;
		break;
	case WS_SCTP_STREAM:
		*type = SOCK_STREAM;
		*proto = IPPROTO_SCTP;
		break;
	case WS_SCTP_STREAM_MANY:
		*type = SOCK_SEQPACKET;
		*proto = IPPROTO_SCTP;
		break;
	default:
		*type = SOCK_STREAM;
		*proto = 0;
		break;
	}
}

static int ws_set_bufs(int fd, long bytes)
{
	int v = (int)bytes;

	if (!bytes)
		return 0;
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)))
		return -1;
	return 0;
}

static int ws_pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Tell the controller setup is done and wait for the common start. */
static void ws_barrier(void)
{
	__atomic_add_fetch(&sh->ready, 1, __ATOMIC_SEQ_CST);
	while (ws_phase() == WS_PH_SETUP)
		syscall(SYS_futex, &sh->phase, FUTEX_WAIT, WS_PH_SETUP, NULL,
			NULL, 0);
}

/* Payload check: @n bytes at stream offset @off match the pattern. */
static bool ws_payload_ok(const unsigned char *buf, size_t n, uint64_t off)
{
	return !memcmp(buf, ws_pattern + off % WS_PERIOD, n);
}

static int ws_send_all(int fd, const unsigned char *buf, size_t n)
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
static int ws_recv_all(int fd, unsigned char *buf, size_t n)
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
static int ws_stream_send(struct ws_inst *in, int fd)
{
	struct ws_slot *s = &in->snd;
	size_t m = cfg.msg_size;
	uint64_t off = 0, calls = 0;
	ssize_t n;

	while (ws_phase() != WS_PH_STOP) {
		n = send(fd, ws_pattern + off % WS_PERIOD, m, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return ws_fail(s, "send", errno);
		}
		off += n;
		ws_store(&s->bytes, off);
		ws_store(&s->msgs, ++calls);
	}
	if (shutdown(fd, SHUT_WR))
		return ws_fail(s, "shutdown", errno);
	return 0;
}

/* TCP and SCTP one-to-one receiver: read to EOF. */
static int ws_stream_recv(struct ws_inst *in, int fd, unsigned char *buf)
{
	struct ws_slot *s = &in->rcv;
	uint64_t off = 0, calls = 0;
	ssize_t n;

	for (;;) {
		n = recv(fd, buf, cfg.recv_size, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return ws_fail(s, "recv", errno);
		}
		if (n == 0)
			break;
		if (cfg.verify && !ws_payload_ok(buf, n, off))
			s->verify_fail++;
		off += n;
		ws_store(&s->bytes, off);
		ws_store(&s->msgs, ++calls);
	}
	return 0;
}

/* SCTP one-to-many sender: sendto() the receiver's address; close ends. */
static int ws_many_send(struct ws_inst *in, int fd)
{
	struct ws_slot *s = &in->snd;
	size_t m = cfg.msg_size;
	uint64_t off = 0, calls = 0;
	ssize_t n;

	while (ws_phase() != WS_PH_STOP) {
		n = sendto(fd, ws_pattern + off % WS_PERIOD, m, MSG_NOSIGNAL,
			   (struct sockaddr *)&in->addr, sizeof(in->addr));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return ws_fail(s, "sendto", errno);
		}
		off += n;
		ws_store(&s->bytes, off);
		ws_store(&s->msgs, ++calls);
	}
	/* close() shuts the association down once all data is acked. */
	return 0;
}

/* SCTP one-to-many receiver: data until the shutdown notification. */
static int ws_many_recv(struct ws_inst *in, int fd, unsigned char *buf)
{
	struct ws_slot *s = &in->rcv;
	union sctp_notification *sn = (void *)buf;
	uint64_t off = 0, calls = 0;
	struct msghdr mh;
	struct iovec iov;
	ssize_t n;

	for (;;) {
		memset(&mh, 0, sizeof(mh));
		iov.iov_base = buf;
		iov.iov_len = cfg.recv_size;
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		n = recvmsg(fd, &mh, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return ws_fail(s, "recvmsg", errno);
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
					return ws_fail(s, "association",
						       ECONNRESET);
			}
			continue;
		}
		if (cfg.verify && !ws_payload_ok(buf, n, off))
			s->verify_fail++;
		off += n;
		ws_store(&s->bytes, off);
		ws_store(&s->msgs, ++calls);
	}
	return 0;
}

/* UDP sender: datagrams of -m bytes, each the pattern from offset 0. */
static int ws_udp_send(struct ws_inst *in, int fd)
{
	struct ws_slot *s = &in->snd;
	size_t m = cfg.msg_size;
	uint64_t bytes = 0, calls = 0, errs = 0;
	ssize_t n;

	while (ws_phase() != WS_PH_STOP) {
		n = send(fd, ws_pattern, m, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			/* Queue full or receiver not yet draining: count. */
			if (errno == ENOBUFS || errno == EAGAIN ||
			    errno == ECONNREFUSED) {
				ws_store(&s->errors, ++errs);
				continue;
			}
			return ws_fail(s, "send", errno);
		}
		bytes += n;
		ws_store(&s->bytes, bytes);
		ws_store(&s->msgs, ++calls);
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	return 0;
}

/* UDP receiver: until the sender is done and the socket stays quiet. */
static int ws_udp_recv(struct ws_inst *in, int fd, unsigned char *buf)
{
	struct timeval tv = { 0, WS_UDP_IDLE_MS * 1000 };
	struct ws_slot *s = &in->rcv;
	uint64_t bytes = 0, calls = 0;
	int idle = 0;
	ssize_t n;

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		return ws_fail(s, "setsockopt SO_RCVTIMEO", errno);
	for (;;) {
		n = recv(fd, buf, cfg.recv_size, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return ws_fail(s, "recv", errno);
			if (__atomic_load_n(&in->snd.done, __ATOMIC_ACQUIRE) &&
			    ++idle >= 2)
				break;
			continue;
		}
		idle = 0;
		if (cfg.verify && (n != cfg.msg_size ||
				   !ws_payload_ok(buf, n, 0)))
			s->verify_fail++;
		bytes += n;
		ws_store(&s->bytes, bytes);
		ws_store(&s->msgs, ++calls);
	}
	return 0;
}

/* tcp_rr client: one request of -m bytes, one response of -M bytes. */
static int ws_rr_client(struct ws_inst *in, int fd, unsigned char *buf)
{
	struct ws_slot *s = &in->snd;
	uint64_t t0, trans = 0;
	uint32_t ph;
	int r;

	for (;;) {
		ph = ws_phase();
		if (ph == WS_PH_STOP)
			break;
		t0 = ws_now_ns();
		if (ws_send_all(fd, ws_pattern, cfg.msg_size))
			return ws_fail(s, "send", errno);
		r = ws_recv_all(fd, buf, cfg.recv_size);
		if (r <= 0)
			return ws_fail(s, "recv response", r ? errno : EPIPE);
		if (ph == WS_PH_MEASURE)
			ws_hist_add(&in->hist, ws_now_ns() - t0);
		if (cfg.verify && !ws_payload_ok(buf, cfg.recv_size, 0))
			s->verify_fail++;
		ws_store(&s->msgs, ++trans);
		ws_store(&s->bytes, trans * (cfg.msg_size + cfg.recv_size));
	}
	if (shutdown(fd, SHUT_WR))
		return ws_fail(s, "shutdown", errno);
	/* The server closes after our EOF; anything else is an error. */
	r = ws_recv_all(fd, buf, 1);
	if (r)
		return ws_fail(s, "recv after shutdown", r > 0 ? EPROTO : errno);
	return 0;
}

/* tcp_rr server: answer every request until EOF. */
static int ws_rr_server(struct ws_inst *in, int fd, unsigned char *buf)
{
	struct ws_slot *s = &in->rcv;
	uint64_t trans = 0;
	int r;

	for (;;) {
		r = ws_recv_all(fd, buf, cfg.msg_size);
		if (r == 0)
			break;
		if (r < 0)
			return ws_fail(s, "recv request", errno);
		if (cfg.verify && !ws_payload_ok(buf, cfg.msg_size, 0))
			s->verify_fail++;
		if (ws_send_all(fd, ws_pattern, cfg.recv_size))
			return ws_fail(s, "send response", errno);
		ws_store(&s->msgs, ++trans);
		ws_store(&s->bytes, trans * (cfg.msg_size + cfg.recv_size));
	}
	return 0;
}

static int ws_sender(struct ws_inst *in)
{
	struct ws_slot *s = &in->snd;
	unsigned char *buf = NULL;
	int fd, type, proto, ret;

	ws_socket_type(&type, &proto);
	fd = socket(AF_INET, type | SOCK_CLOEXEC, proto);
	if (fd < 0)
		return ws_fail(s, "socket", errno);
	if (ws_set_bufs(fd, cfg.sndbuf))
		return ws_fail(s, "setsockopt -s", errno);
	if (cfg.workload != WS_SCTP_STREAM_MANY &&
	    connect(fd, (struct sockaddr *)&in->addr, sizeof(in->addr)))
		return ws_fail(s, "connect", errno);
	if (cfg.workload == WS_TCP_RR) {
		buf = malloc(cfg.recv_size);
		if (!buf)
			return ws_fail(s, "malloc", ENOMEM);
	}
	ws_barrier();
	switch (cfg.workload) {
	case WS_UDP_STREAM:
		ret = ws_udp_send(in, fd);
		break;
	case WS_SCTP_STREAM_MANY:
		ret = ws_many_send(in, fd);
		break;
	case WS_TCP_RR:
		ret = ws_rr_client(in, fd, buf);
		break;
	default:
		ret = ws_stream_send(in, fd);
		break;
	}
	__atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
	s->cpu = sched_getcpu();
	close(fd);
	free(buf);
	return ret;
}

static int ws_receiver(struct ws_inst *in)
{
	struct ws_slot *s = &in->rcv;
	struct sctp_event_subscribe ev;
	unsigned char *buf;
	int fd, ret;

	buf = malloc(cfg.recv_size > cfg.msg_size ? cfg.recv_size :
		     cfg.msg_size);
	if (!buf)
		return ws_fail(s, "malloc", ENOMEM);
	fd = in->lfd;
	if (ws_connected()) {
		fd = accept4(in->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			return ws_fail(s, "accept", errno);
		close(in->lfd);
	}
	if (ws_sctp()) {
		/* Only the shutdown and association events, or none. */
		memset(&ev, 0, sizeof(ev));
		ev.sctp_association_event = 1;
		ev.sctp_shutdown_event = 1;
		if (cfg.workload == WS_SCTP_STREAM)
			memset(&ev, 0, sizeof(ev));
		if (setsockopt(fd, IPPROTO_SCTP, SCTP_EVENTS, &ev,
			       offsetof(struct sctp_event_subscribe,
					sctp_partial_delivery_event)))
			return ws_fail(s, "setsockopt SCTP_EVENTS", errno);
	}
	ws_barrier();
	switch (cfg.workload) {
	case WS_UDP_STREAM:
		ret = ws_udp_recv(in, fd, buf);
		break;
	case WS_SCTP_STREAM_MANY:
		ret = ws_many_recv(in, fd, buf);
		break;
	case WS_TCP_RR:
		ret = ws_rr_server(in, fd, buf);
		break;
	default:
		ret = ws_stream_recv(in, fd, buf);
		break;
	}
	s->cpu = sched_getcpu();
	close(fd);
	free(buf);
	return ret;
}

static int ws_worker(int i, bool sender)
{
	struct ws_inst *in = &sh->inst[i];
	struct ws_slot *s = sender ? &in->snd : &in->rcv;

	if (ws_pin_self(sender ? in->snd_pin : in->rcv_pin))
		return ws_fail(s, "sched_setaffinity", errno);
	return sender ? ws_sender(in) : ws_receiver(in);
}

static void *ws_thread(void *p)
{
	struct ws_worker_arg *a = p;

	ws_worker(a->inst, a->sender);
	__atomic_add_fetch(&sh->finished, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void ws_on_signal(int sig)
{
	ws_sig = sig;
}

static void ws_restore_schedstats(void)
{
	if (ws_schedstats_old >= 0) {
		ws_schedstats_set(ws_schedstats_old);
		ws_schedstats_old = -1;
	}
}

/* Kill and reap every worker process still there (no orphans). */
static void ws_kill_all(void)
{
	int i, k;

	if (cfg.threads)
		return;
	for (i = 0; i < cfg.instances; i++)
		for (k = 0; k < 2; k++)
			if (sh->inst[i].pid[k] > 0)
				kill(sh->inst[i].pid[k], SIGKILL);
	for (i = 0; i < cfg.instances; i++)
		for (k = 0; k < 2; k++)
			if (sh->inst[i].pid[k] > 0) {
				waitpid(sh->inst[i].pid[k], NULL, 0);
				sh->inst[i].pid[k] = 0;
			}
}

static void __attribute__((noreturn)) ws_die(int status)
{
	ws_kill_all();
	ws_restore_schedstats();
	exit(status);
}

/* The first failure message any worker recorded, or NULL. */
static const char *ws_worker_failure(int *inst, const char **role)
{
	int i;

	for (i = 0; i < cfg.instances; i++) {
		*inst = i;
		if (__atomic_load_n(&sh->inst[i].snd.failed, __ATOMIC_ACQUIRE)) {
			*role = cfg.workload == WS_TCP_RR ? "client" : "sender";
			return sh->inst[i].snd.msg;
		}
		if (__atomic_load_n(&sh->inst[i].rcv.failed, __ATOMIC_ACQUIRE)) {
			*role = cfg.workload == WS_TCP_RR ? "server" : "receiver";
			return sh->inst[i].rcv.msg;
		}
	}
	return NULL;
}

/*
 * Reap exited worker processes; returns how many are still running.  With
 * @early set, any exit is a failure (workers only exit after the stop).
 */
static int ws_reap(bool early, char *why, size_t len)
{
	int i, k, st, running = 0;
	pid_t r;

	for (i = 0; i < cfg.instances; i++) {
		for (k = 0; k < 2; k++) {
			if (sh->inst[i].pid[k] <= 0)
				continue;
			r = waitpid(sh->inst[i].pid[k], &st, WNOHANG);
			if (r == 0) {
				running++;
				continue;
			}
			sh->inst[i].pid[k] = 0;
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
static bool ws_check_abort(bool running, char *why, size_t len)
{
	const char *msg, *role;
	int i;

	if (ws_sig) {
		snprintf(why, len, "interrupted by signal %d", (int)ws_sig);
		return true;
	}
	msg = ws_worker_failure(&i, &role);
	if (msg) {
		snprintf(why, len, "instance %d %s: %s", i, role, msg);
		return true;
	}
	if (running && !cfg.threads) {
		ws_reap(true, why, len);
		if (why[0])
			return true;
	}
	return false;
}

static void ws_nap(void)
{
	struct timespec ts = { 0, WS_POLL_NS };

	nanosleep(&ts, NULL);
}

/*
 * Sleep until @end (ws_now() time) while watching the workers; false when
 * the run must stop.
 */
static bool ws_watch(double end, char *why, size_t len)
{
	double left;
	struct timespec ts;

	for (;;) {
		if (ws_check_abort(true, why, len))
			return false;
		if (ws_tracking)
			ws_track(ws_now(), false);
		left = end - ws_now();
		if (left <= 0)
			return true;
		if (left > WS_POLL_NS / 1e9 * 5)
			left = WS_POLL_NS / 1e9 * 5;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
		nanosleep(&ts, NULL);
	}
}

/* Receiver-side socket of instance @i, made before the workers start. */
static int ws_make_lfd(struct ws_inst *in, char *why, size_t len)
{
	socklen_t alen = sizeof(in->addr);
	int type, proto, fd;

	ws_socket_type(&type, &proto);
	fd = socket(AF_INET, type | SOCK_CLOEXEC, proto);
	if (fd < 0) {
		snprintf(why, len, "socket: %s", strerror(errno));
		return -errno;
	}
	memset(&in->addr, 0, sizeof(in->addr));
	in->addr.sin_family = AF_INET;
	in->addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (ws_set_bufs(fd, cfg.rcvbuf) ||
	    bind(fd, (struct sockaddr *)&in->addr, sizeof(in->addr)) ||
	    getsockname(fd, (struct sockaddr *)&in->addr, &alen) ||
	    (type != SOCK_DGRAM && listen(fd, 4))) {
		snprintf(why, len, "receiver socket setup: %s",
			 strerror(errno));
		close(fd);
		return -EIO;
	}
	in->lfd = fd;
	return 0;
}

/* A worker process: dies with the controller, default signal handling. */
static void __attribute__((noreturn)) ws_child(pid_t parent, int i,
					       bool sender)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(WS_EXIT_FAIL);
	_exit(ws_worker(i, sender));
}

/* Fork or spawn both workers of every instance. */
static int ws_start(char *why, size_t len)
{
	static struct ws_worker_arg *args;
	pid_t parent = getpid(), pid;
	pthread_attr_t attr;
	struct ws_inst *in;
	int i, k, err;

	args = calloc(2 * cfg.instances, sizeof(*args));
	if (!args) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	/* Workers need little stack; thousands of 8 MiB stacks do not fit. */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, WS_THREAD_STACK);
	for (i = 0; i < cfg.instances; i++) {
		in = &sh->inst[i];
		ws_pin_cpus(&topo, cfg.pin, i, &in->snd_pin, &in->rcv_pin);
		err = ws_make_lfd(in, why, len);
		if (err)
			return err;
		for (k = 0; k < 2; k++) {
			if (cfg.threads) {
				args[2 * i + k].inst = i;
				args[2 * i + k].sender = k == 0;
				err = pthread_create(&in->tid[k], &attr,
						     ws_thread,
						     &args[2 * i + k]);
				if (err) {
					snprintf(why, len,
						 "pthread_create (instance %d): %s",
						 i, strerror(err));
					return -1;
				}
				ws_nworkers++;
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
				ws_child(parent, i, k == 0);
			in->pid[k] = pid;
			ws_nworkers++;
		}
		/* The receiver owns it now (threads: shares it). */
		if (!cfg.threads)
			close(in->lfd);
	}
	return 0;
}

/* Wait for every worker to finish setup; false on failure or timeout. */
static bool ws_wait_ready(char *why, size_t len)
{
	double end = ws_now() + WS_SETUP_TIMEOUT_S;

	while (__atomic_load_n(&sh->ready, __ATOMIC_ACQUIRE) <
	       (uint32_t)ws_nworkers) {
		if (ws_check_abort(true, why, len))
			return false;
		if (ws_now() > end) {
			snprintf(why, len, "setup timed out after %d s (%u of %d workers ready)",
				 WS_SETUP_TIMEOUT_S, sh->ready, ws_nworkers);
			return false;
		}
		ws_nap();
	}
	return true;
}

/*
 * After the release, wait until every instance has moved data (its receiver
 * got a first byte or transaction), so that the warm-up and the window
 * start with every instance transferring: connection or association set-up
 * on a slow kernel must not fall into the window.  Stores in @took the
 * seconds from the release to the last instance's first data.  False on
 * failure or when an instance moved nothing within WS_FIRST_DATA_TIMEOUT_S.
 */
static bool ws_wait_first_data(double *took, char *why, size_t len)
{
	double t0 = ws_now(), end = t0 + WS_FIRST_DATA_TIMEOUT_S;
	int i, started;

	for (;;) {
		if (ws_check_abort(true, why, len))
			return false;
		for (i = 0, started = 0; i < cfg.instances; i++)
			started += ws_progress(i) > 0;
		if (started == cfg.instances)
			break;
		if (ws_now() > end) {
			for (i = 0; i < cfg.instances && ws_progress(i); i++)
				;
			snprintf(why, len,
				 "instance %d moved no data within %d s of the start (%d of %d instances started)",
				 i, WS_FIRST_DATA_TIMEOUT_S, started,
				 cfg.instances);
			return false;
		}
		ws_nap();
	}
	*took = ws_now() - t0;
	return true;
}

/* Wait for all workers to end after the stop; false on failure/timeout. */
static bool ws_wait_done(char *why, size_t len)
{
	double end = ws_now() + WS_DRAIN_TIMEOUT_S;
	int i;

	for (;;) {
		if (cfg.threads) {
			if (__atomic_load_n(&sh->finished, __ATOMIC_ACQUIRE) ==
			    (uint32_t)ws_nworkers)
				break;
		} else if (!ws_reap(false, why, len)) {
			break;
		}
		if (ws_sig) {
			snprintf(why, len, "interrupted by signal %d",
				 (int)ws_sig);
			return false;
		}
		if (ws_now() > end) {
			snprintf(why, len,
				 "workers did not finish within %d s of the stop",
				 WS_DRAIN_TIMEOUT_S);
			return false;
		}
		ws_nap();
	}
	if (cfg.threads)
		for (i = 0; i < cfg.instances; i++) {
			pthread_join(sh->inst[i].tid[0], NULL);
			pthread_join(sh->inst[i].tid[1], NULL);
		}
	/* A worker that failed while finishing fails the run too. */
	if (!why[0])
		ws_check_abort(false, why, len);
	return !why[0];
}

static int ws_sample_alloc(struct ws_sample *s)
{
	size_t n = cfg.instances;

	memset(s, 0, sizeof(*s));
	s->snd_bytes = calloc(n, sizeof(uint64_t));
	s->rcv_bytes = calloc(n, sizeof(uint64_t));
	s->snd_msgs = calloc(n, sizeof(uint64_t));
	s->rcv_msgs = calloc(n, sizeof(uint64_t));
	return s->snd_bytes && s->rcv_bytes && s->snd_msgs && s->rcv_msgs ?
	       0 : -1;
}

/* The ws_sctp_mib counters into @v; 0, or -1 when unreadable. */
static int ws_sctp_mib_read(unsigned long long *v)
{
	char name[64];
	unsigned long long x;
	unsigned int k, found = 0;
	FILE *f;

	f = fopen("/proc/net/sctp/snmp", "re");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %llu", name, &x) == 2)
		for (k = 0; k < WS_SCTP_MIB_NR; k++)
			if (!strcmp(name, ws_sctp_mib[k])) {
				v[k] = x;
				found++;
			}
	fclose(f);
	return found == WS_SCTP_MIB_NR ? 0 : -1;
}

/* Counters first (they move fastest), then the system-wide sources. */
static void ws_sample(struct ws_sample *s)
{
	int i;

	s->t = ws_now();
	for (i = 0; i < cfg.instances; i++) {
		s->snd_bytes[i] = ws_load(&sh->inst[i].snd.bytes);
		s->rcv_bytes[i] = ws_load(&sh->inst[i].rcv.bytes);
		s->snd_msgs[i] = ws_load(&sh->inst[i].snd.msgs);
		s->rcv_msgs[i] = ws_load(&sh->inst[i].rcv.msgs);
	}
	s->cpu_ok = !ws_cpustat_read("/proc/stat", &s->cpu);
	ws_perf_read(&perf, s->perf);
	s->ss_ret = ws_schedstat_read(WS_SCHEDSTAT_PATH, &s->ss);
	ws_wakelab_sample(&s->wl);
	s->sctp_ok = ws_sctp() && !ws_sctp_mib_read(s->sctp);
}

/* Raise the soft RLIMIT_NOFILE to what the run needs, or explain. */
static int ws_check_nofile(char *why, size_t len)
{
	unsigned long need;
	struct rlimit rl;

	/* Perf fds, stdio and slack, plus endpoints held in this process. */
	need = 4UL * topo.ncpus + 32 +
	       (cfg.threads ? 3UL * cfg.instances : 2);
	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need) {
			snprintf(why, len,
				 "RLIMIT_NOFILE hard limit %lu is below the %lu descriptors %d instances need",
				 (unsigned long)rl.rlim_max, need,
				 cfg.instances);
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
static const char *ws_protocol_unsupported(void)
{
	static char why[128];
	int type, proto, fd;

	ws_socket_type(&type, &proto);
	fd = socket(AF_INET, type | SOCK_CLOEXEC, proto);
	if (fd >= 0) {
		close(fd);
		return NULL;
	}
	if (errno == EPROTONOSUPPORT || errno == ESOCKTNOSUPPORT ||
	    errno == EAFNOSUPPORT || errno == EPROTOTYPE) {
		snprintf(why, sizeof(why), "%s: %s not available in this kernel (socket: %s)",
			 ws_workload_names[cfg.workload],
			 ws_sctp() ? "SCTP" : "protocol", strerror(errno));
		return why;
	}
	return NULL;	/* Other errors show up, loudly, in the run. */
}

static int ws_setup_pattern(void)
{
	long n = (cfg.msg_size > cfg.recv_size ? cfg.msg_size :
		  cfg.recv_size) + WS_PERIOD;
	long i;

	ws_pattern = malloc(n);
	if (!ws_pattern)
		return -1;
	for (i = 0; i < n; i++)
		ws_pattern[i] = (unsigned char)(i % WS_PERIOD);
	return 0;
}

/**
 * struct ws_result - everything a run reports
 * @window:	measurement window, seconds
 * @val:	per-instance figure in the run's unit
 * @snd_mbps:	per-instance send rate (udp)
 * @loss:	per-instance datagram loss, percent of sent (udp)
 * @aggregate:	sum of @val
 * @udp_send:	aggregate send rate, Mbit/s (udp)
 * @udp_loss:	datagrams lost over the whole run, percent of sent (udp)
 * @hist:	merged tcp_rr latencies
 * @window_bytes: payload bytes received in the window (rr: both ways)
 * @window_trans: tcp_rr transactions in the window
 * @cpu:	system-wide CPU use in the window
 * @sd_kb:	service demand, us of CPU per KB
 * @sd_tran:	service demand, us of CPU per transaction (tcp_rr)
 * @perf:	perf counts in the window (@perf_ok per event)
 * @ss:		schedstat deltas (when @ss_ret is 0)
 * @integrity:	all instances passed the integrity checks
 * @first_data_s: seconds from the release to the last instance's first data
 * @stalled:	per instance: moved nothing in the window
 * @nstalled:	instances that moved nothing in the window
 * @gap:	per instance: longest time in the window without progress, s
 * @sctp:	SCTP MIB deltas in the window (when @sctp_ok)
 */
struct ws_result {
	double window;
	double *val, *snd_mbps, *loss;
	double aggregate, udp_send, udp_loss;
	struct ws_hist hist;
	uint64_t window_bytes, window_trans;
	struct ws_cpuuse cpu;
	bool cpu_ok;
	double sd_kb, sd_tran;
	unsigned long long perf[WS_PERF_NR];
	bool perf_ok[WS_PERF_NR];
	struct ws_schedstat ss;
	int ss_ret;
	bool integrity;
	double first_data_s;
	bool *stalled;
	int nstalled;
	double *gap;
	unsigned long long sctp[WS_SCTP_MIB_NR];
	bool sctp_ok;
};

/*
 * Before v17, /proc/schedstat has no domain names: take them from the
 * first online CPU's domains in debugfs (6.1) or the old sysctl.
 */
static void ws_domain_names(struct ws_schedstat *ss)
{
	static const char * const fmt[] = {
		"/sys/kernel/debug/sched/domains/cpu%d/domain%d/name",
		"/proc/sys/kernel/sched_domain/cpu%d/domain%d/name",
	};
	char path[128], buf[WS_SD_NAME_LEN];
	unsigned int f;
	int d;

	for (d = 0; d < ss->ndomains; d++) {
		for (f = 0; f < 2 && !ss->sd[d].name[0]; f++) {
			snprintf(path, sizeof(path), fmt[f], topo.cpu[0], d);
			if (!ws_read_line(path, buf, sizeof(buf)))
				snprintf(ss->sd[d].name, WS_SD_NAME_LEN, "%s",
					 buf);
		}
	}
}

static double ws_mbps(uint64_t bytes, double secs)
{
	return secs > 0 ? bytes * 8.0 / secs / 1e6 : 0;
}

/* Check one instance; false (with a message on stderr) when it failed. */
static bool ws_check_instance(int i)
{
	struct ws_inst *in = &sh->inst[i];
	bool ok = true;

	if (in->snd.verify_fail || in->rcv.verify_fail) {
		fprintf(stderr,
			"wl_stream: integrity: instance %d: %d payload pattern mismatches\n",
			i, in->snd.verify_fail + in->rcv.verify_fail);
		ok = false;
	}
	if (ws_reliable_stream() && in->snd.bytes != in->rcv.bytes) {
		fprintf(stderr,
			"wl_stream: integrity: instance %d sent %llu bytes but %llu were received\n",
			i, (unsigned long long)in->snd.bytes,
			(unsigned long long)in->rcv.bytes);
		ok = false;
	}
	if (cfg.workload == WS_TCP_RR && in->snd.msgs != in->rcv.msgs) {
		fprintf(stderr,
			"wl_stream: integrity: instance %d completed %llu transactions, the server answered %llu\n",
			i, (unsigned long long)in->snd.msgs,
			(unsigned long long)in->rcv.msgs);
		ok = false;
	}
	if (cfg.workload == WS_UDP_STREAM && in->rcv.msgs > in->snd.msgs) {
		fprintf(stderr,
			"wl_stream: integrity: instance %d received %llu datagrams, only %llu were sent\n",
			i, (unsigned long long)in->rcv.msgs,
			(unsigned long long)in->snd.msgs);
		ok = false;
	}
	return ok;
}

static void ws_compute(const struct ws_sample *a, const struct ws_sample *b,
		       struct ws_result *r)
{
	uint64_t sent = 0, got = 0, d, busy_us;
	struct ws_inst *in;
	int i, ev;

	r->window = b->t - a->t;
	r->integrity = true;
	for (i = 0; i < cfg.instances; i++) {
		in = &sh->inst[i];
		if (!ws_check_instance(i))
			r->integrity = false;
		r->gap[i] = ws_prog_gap[i];
		r->stalled[i] = cfg.workload == WS_TCP_RR ?
				b->rcv_msgs[i] == a->rcv_msgs[i] :
				b->rcv_bytes[i] == a->rcv_bytes[i];
		if (r->stalled[i]) {
			r->nstalled++;
			fprintf(stderr,
				"wl_stream: warning: instance %d moved no data in the %.2f s window (stalled; it had moved %llu %s before it)\n",
				i, r->window,
				(unsigned long long)(cfg.workload == WS_TCP_RR ?
						     a->rcv_msgs[i] : a->rcv_bytes[i]),
				cfg.workload == WS_TCP_RR ? "transactions" :
				"bytes");
		}
		if (cfg.workload == WS_TCP_RR) {
			d = b->snd_msgs[i] - a->snd_msgs[i];
			r->window_trans += d;
			r->window_bytes += d * (cfg.msg_size + cfg.recv_size);
			r->val[i] = r->window > 0 ? d / r->window : 0;
			ws_hist_merge(&r->hist, &in->hist);
		} else {
			d = b->rcv_bytes[i] - a->rcv_bytes[i];
			r->window_bytes += d;
			r->val[i] = ws_mbps(d, r->window);
			r->snd_mbps[i] = ws_mbps(b->snd_bytes[i] -
						 a->snd_bytes[i], r->window);
			r->udp_send += r->snd_mbps[i];
		}
		if (cfg.workload == WS_UDP_STREAM) {
			sent += in->snd.msgs;
			got += in->rcv.msgs;
			r->loss[i] = in->snd.msgs ? 100.0 * (in->snd.msgs -
				     in->rcv.msgs) / in->snd.msgs : 0;
		}
		r->aggregate += r->val[i];
	}
	r->udp_loss = sent ? 100.0 * (sent - got) / sent : 0;

	r->cpu_ok = a->cpu_ok && b->cpu_ok;
	if (r->cpu_ok)
		ws_cpustat_delta(&a->cpu, &b->cpu, &r->cpu);
	r->sd_kb = NAN;
	r->sd_tran = NAN;
	if (r->cpu_ok && r->cpu.total_ticks) {
		busy_us = r->cpu.busy_ticks * 1000000ULL / sysconf(_SC_CLK_TCK);
		if (r->window_bytes)
			r->sd_kb = busy_us / (r->window_bytes / 1024.0);
		if (r->window_trans)
			r->sd_tran = (double)busy_us / r->window_trans;
	}
	for (ev = 0; ev < WS_PERF_NR; ev++) {
		r->perf_ok[ev] = perf.avail[ev];
		r->perf[ev] = b->perf[ev] >= a->perf[ev] ?
			      b->perf[ev] - a->perf[ev] : 0;
	}
	r->sctp_ok = a->sctp_ok && b->sctp_ok;
	for (ev = 0; r->sctp_ok && ev < (int)WS_SCTP_MIB_NR; ev++)
		r->sctp[ev] = b->sctp[ev] - a->sctp[ev];
	r->ss_ret = a->ss_ret ? a->ss_ret : b->ss_ret;
	if (!r->ss_ret) {
		ws_schedstat_delta(&a->ss, &b->ss, &r->ss);
		ws_domain_names(&r->ss);
	}
}

static const char *ws_unit(void)
{
	return cfg.workload == WS_TCP_RR ? "trans/s" : "Mbit/s";
}

static double ws_us(uint64_t ns)
{
	return ns / 1000.0;
}

static void ws_json_schedstat(struct ws_json *j, const struct ws_result *r,
			      int enabled)
{
	int d;

	ws_json_obj(j, "schedstat");
	ws_json_bool(j, "enabled", enabled == 1);
	ws_json_bool(j, "available", r->ss_ret == 0);
	if (r->ss_ret == 0) {
		ws_json_int(j, "version", r->ss.version);
		ws_json_u64(j, "ttwu_count", r->ss.ttwu_count);
		ws_json_u64(j, "ttwu_local", r->ss.ttwu_local);
		ws_json_arr(j, "domains");
		for (d = 0; d < r->ss.ndomains; d++) {
			ws_json_obj(j, NULL);
			ws_json_int(j, "level", d);
			ws_json_str(j, "name", r->ss.sd[d].name);
			ws_json_u64(j, "ttwu_wake_remote",
				    r->ss.sd[d].wake_remote);
			ws_json_u64(j, "ttwu_move_affine",
				    r->ss.sd[d].move_affine);
			ws_json_u64(j, "ttwu_move_balance",
				    r->ss.sd[d].move_balance);
			ws_json_obj_end(j);
		}
		ws_json_arr_end(j);
	} else {
		ws_json_str(j, "error", r->ss_ret == -2 ?
			    "unsupported /proc/schedstat version" :
			    "no readable /proc/schedstat");
	}
	ws_json_obj_end(j);
}

static void ws_print_json(const struct ws_result *r,
			  const struct ws_sample *a, const struct ws_sample *b,
			  int ss_enabled)
{
	struct ws_inst *in;
	struct ws_json j;
	struct utsname u;
	int i, ev;

	uname(&u);
	ws_json_init(&j, stdout);
	ws_json_obj(&j, NULL);
	ws_json_str(&j, "tool", "wl_stream");
	ws_json_int(&j, "schema", WS_SCHEMA);
	ws_json_str(&j, "workload", ws_workload_names[cfg.workload]);
	ws_json_int(&j, "instances", cfg.instances);
	ws_json_str(&j, "instances_spec", cfg.inst_spec);
	ws_json_bool(&j, "threads", cfg.threads);
	ws_json_str(&j, "pin", ws_pin_names[cfg.pin]);
	ws_json_int(&j, "msg_size", cfg.msg_size);
	ws_json_int(&j, "recv_size", cfg.recv_size);
	ws_json_int(&j, "local_buf", cfg.sndbuf);
	ws_json_int(&j, "remote_buf", cfg.rcvbuf);
	ws_json_fix(&j, "duration_s", r->window, 3);
	ws_json_fix(&j, "duration_requested_s", cfg.duration, 3);
	ws_json_fix(&j, "warmup_s", cfg.warmup, 3);
	ws_json_fix(&j, "first_data_s", r->first_data_s, 3);
	ws_json_bool(&j, "verify", cfg.verify);
	ws_json_int(&j, "cpus", topo.ncpus);
	ws_json_int(&j, "llcs", topo.nllc);
	ws_json_str(&j, "kernel", u.release);
	ws_json_str(&j, "unit", ws_unit());
	ws_json_fix(&j, "aggregate", r->aggregate, 2);
	ws_json_arr(&j, "per_instance");
	for (i = 0; i < cfg.instances; i++) {
		in = &sh->inst[i];
		ws_json_obj(&j, NULL);
		ws_json_int(&j, "id", i);
		ws_json_fix(&j, "value", r->val[i], 2);
		if (cfg.workload == WS_UDP_STREAM) {
			ws_json_fix(&j, "send_mbps", r->snd_mbps[i], 2);
			ws_json_fix(&j, "loss_pct", r->loss[i], 3);
		}
		ws_json_u64(&j, "sent_bytes", in->snd.bytes);
		ws_json_u64(&j, "recv_bytes", in->rcv.bytes);
		ws_json_u64(&j, "sent_msgs", in->snd.msgs);
		ws_json_u64(&j, "recv_msgs", in->rcv.msgs);
		ws_json_int(&j, "snd_pin", in->snd_pin);
		ws_json_int(&j, "rcv_pin", in->rcv_pin);
		ws_json_int(&j, "snd_cpu", in->snd.cpu);
		ws_json_int(&j, "rcv_cpu", in->rcv.cpu);
		ws_json_bool(&j, "stalled", r->stalled[i]);
		ws_json_fix(&j, "max_gap_s", r->gap[i], 3);
		ws_json_obj_end(&j);
	}
	ws_json_arr_end(&j);
	ws_json_str(&j, "integrity", r->integrity ? "ok" : "fail");
	ws_json_int(&j, "stalled_instances", r->nstalled);
	if (cfg.workload == WS_UDP_STREAM) {
		ws_json_obj(&j, "udp");
		ws_json_fix(&j, "send_mbps", r->udp_send, 2);
		ws_json_fix(&j, "recv_mbps", r->aggregate, 2);
		ws_json_fix(&j, "loss_pct", r->udp_loss, 3);
		ws_json_obj_end(&j);
	}
	if (cfg.workload == WS_TCP_RR) {
		ws_json_obj(&j, "rr");
		ws_json_fix(&j, "tps", r->aggregate, 2);
		ws_json_fix(&j, "p50_us", ws_us(ws_hist_pct(&r->hist, 50)), 2);
		ws_json_fix(&j, "p90_us", ws_us(ws_hist_pct(&r->hist, 90)), 2);
		ws_json_fix(&j, "p99_us", ws_us(ws_hist_pct(&r->hist, 99)), 2);
		ws_json_u64(&j, "samples", r->hist.count);
		ws_json_obj_end(&j);
	}
	if (r->cpu_ok) {
		ws_json_obj(&j, "cpu");
		ws_json_fix(&j, "usr", r->cpu.usr, 2);
		ws_json_fix(&j, "sys", r->cpu.sys, 2);
		ws_json_fix(&j, "irq", r->cpu.irq, 2);
		ws_json_fix(&j, "softirq", r->cpu.softirq, 2);
		ws_json_fix(&j, "idle", r->cpu.idle, 2);
		ws_json_fix(&j, "steal", r->cpu.steal, 2);
		ws_json_obj_end(&j);
	} else {
		ws_json_null(&j, "cpu");
	}
	ws_json_num(&j, "service_demand_us_per_kb", r->sd_kb);
	if (cfg.workload == WS_TCP_RR)
		ws_json_num(&j, "service_demand_us_per_tran", r->sd_tran);
	ws_json_obj(&j, "perf");
	for (ev = 0; ev < WS_PERF_NR; ev++) {
		if (r->perf_ok[ev])
			ws_json_u64(&j, ws_perf_names[ev], r->perf[ev]);
		else
			ws_json_null(&j, ws_perf_names[ev]);
	}
	ws_json_obj_end(&j);
	if (ws_sctp()) {
		if (r->sctp_ok) {
			ws_json_obj(&j, "sctp_mib");
			for (ev = 0; ev < (int)WS_SCTP_MIB_NR; ev++)
				ws_json_u64(&j, ws_sctp_mib[ev], r->sctp[ev]);
			ws_json_obj_end(&j);
		} else {
			ws_json_null(&j, "sctp_mib");
		}
	}
	ws_json_schedstat(&j, r, ss_enabled);
	ws_wakelab_json(&j, &a->wl, &b->wl);
	ws_json_obj_end(&j);
	fputc('\n', stdout);
}

static void ws_print_table(const struct ws_result *r,
			   const struct ws_sample *a,
			   const struct ws_sample *b, int ss_enabled)
{
	struct ws_inst *in;
	int i, ev, d;

	printf("# wl_stream %s: %d instance%s (%s, pin %s), msg %ld B, recv %ld B, %.2f s window after %.2f s warm-up, %d CPUs, %d LLC%s\n",
	       ws_workload_names[cfg.workload], cfg.instances,
	       cfg.instances == 1 ? "" : "s",
	       cfg.threads ? "threads" : "processes", ws_pin_names[cfg.pin],
	       cfg.msg_size, cfg.recv_size, r->window, cfg.warmup,
	       topo.ncpus, topo.nllc, topo.nllc == 1 ? "" : "s");
	if (cfg.workload == WS_UDP_STREAM)
		printf("%5s %7s %7s %14s %14s %8s %8s\n", "inst", "snd_cpu",
		       "rcv_cpu", "send Mbit/s", "recv Mbit/s", "loss%",
		       "max_gap");
	else
		printf("%5s %7s %7s %14s %8s\n", "inst", "snd_cpu", "rcv_cpu",
		       ws_unit(), "max_gap");
	for (i = 0; i < cfg.instances; i++) {
		in = &sh->inst[i];
		printf("%5d %7d %7d", i, in->snd.cpu, in->rcv.cpu);
		if (cfg.workload == WS_UDP_STREAM)
			printf(" %14.2f %14.2f %8.3f", r->snd_mbps[i],
			       r->val[i], r->loss[i]);
		else
			printf(" %14.2f", r->val[i]);
		printf(" %7.3fs%s\n", r->gap[i], r->stalled[i] ? " STALLED" : "");
	}
	printf("# aggregate %.2f %s, per instance %.2f, integrity %s, %d stalled, all instances moving %.3f s after the start\n",
	       r->aggregate, ws_unit(), r->aggregate / cfg.instances,
	       r->integrity ? "ok" : "FAIL", r->nstalled, r->first_data_s);
	if (cfg.workload == WS_UDP_STREAM)
		printf("# udp: send %.2f Mbit/s, recv %.2f Mbit/s, loss %.3f%%\n",
		       r->udp_send, r->aggregate, r->udp_loss);
	if (cfg.workload == WS_TCP_RR)
		printf("# rr: %.2f trans/s, latency p50 %.2f us, p90 %.2f us, p99 %.2f us (%llu samples)\n",
		       r->aggregate, ws_us(ws_hist_pct(&r->hist, 50)),
		       ws_us(ws_hist_pct(&r->hist, 90)),
		       ws_us(ws_hist_pct(&r->hist, 99)),
		       (unsigned long long)r->hist.count);
	if (r->cpu_ok)
		printf("# cpu: usr %.1f%% sys %.1f%% irq %.1f%% softirq %.1f%% idle %.1f%%, service demand %.3f us/KB\n",
		       r->cpu.usr, r->cpu.sys, r->cpu.irq, r->cpu.softirq,
		       r->cpu.idle, r->sd_kb);
	if (r->sctp_ok) {
		printf("# sctp (window):");
		for (ev = 0; ev < (int)WS_SCTP_MIB_NR; ev++)
			printf(" %s %llu", ws_sctp_mib[ev] + 4, r->sctp[ev]);
		printf("\n");
	}
	printf("# perf:");
	for (ev = 0; ev < WS_PERF_NR; ev++) {
		if (r->perf_ok[ev])
			printf(" %s %llu", ws_perf_names[ev], r->perf[ev]);
		else
			printf(" %s n/a", ws_perf_names[ev]);
	}
	printf("\n");
	if (r->ss_ret) {
		printf("# schedstat: %s\n", r->ss_ret == -2 ?
		       "unsupported /proc/schedstat version" :
		       "no /proc/schedstat");
	} else {
		printf("# schedstat v%d%s: ttwu %llu local %llu", r->ss.version,
		       ss_enabled == 1 ? "" :
		       " (OFF: kernel.sched_schedstats=0, counters do not move)",
		       r->ss.ttwu_count, r->ss.ttwu_local);
		for (d = 0; d < r->ss.ndomains; d++)
			printf("; domain%d%s%s wake_remote %llu move_affine %llu",
			       d, r->ss.sd[d].name[0] ? " " : "",
			       r->ss.sd[d].name, r->ss.sd[d].wake_remote,
			       r->ss.sd[d].move_affine);
		printf("\n");
	}
	ws_wakelab_print(stdout, &a->wl, &b->wl);
}

static void ws_print_brief(const struct ws_result *r)
{
	printf("%s-%d : Avg: %.1f\n", ws_workload_upper[cfg.workload],
	       cfg.instances, r->aggregate / cfg.instances);
}

static void __attribute__((noreturn)) ws_usage_exit(const char *err)
{
	fprintf(stderr, "wl_stream: %s\n%s", err, ws_usage);
	exit(WS_EXIT_USAGE);
}

static void ws_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ws_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int main(int argc, char **argv)
{
	struct ws_sample s0, s1;
	struct ws_result res;
	const char *skip;
	char why[256] = "", err[256];
	int ret, ncpus, ss_enabled;

	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	ret = ws_parse_opts(argc, argv, ncpus, &cfg, err, sizeof(err));
	if (ret == 1) {
		fputs(ws_usage, stdout);
		return 0;
	}
	if (ret < 0)
		ws_usage_exit(err);
	if (cfg.workload == WS_SCTP_STREAM_MANY &&
	    cfg.recv_size < WS_SCTP_MANY_MIN_RECV)
		ws_usage_exit("sctp_stream_many needs -M >= 16 (notifications)");

	if (ws_topo_load(WS_CPU_SYSFS, ncpus, &topo)) {
		fprintf(stderr, "wl_stream: no online CPUs found\n");
		return WS_EXIT_FAIL;
	}
	skip = ws_pin_unsupported(&topo, cfg.pin);
	if (!skip)
		skip = ws_protocol_unsupported();
	if (skip) {
		fprintf(stderr, "wl_stream: SKIP: %s\n", skip);
		return WS_EXIT_SKIP;
	}
	if (ws_check_nofile(why, sizeof(why)) || ws_setup_pattern()) {
		fprintf(stderr, "wl_stream: %s\n", why[0] ? why : "out of memory");
		return WS_EXIT_FAIL;
	}

	sh_len = sizeof(*sh) + cfg.instances * sizeof(struct ws_inst);
	sh = mmap(NULL, sh_len, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		fprintf(stderr, "wl_stream: mmap %zu bytes: %s\n", sh_len,
			strerror(errno));
		return WS_EXIT_FAIL;
	}
	if (ws_sample_alloc(&s0) || ws_sample_alloc(&s1)) {
		fprintf(stderr, "wl_stream: out of memory\n");
		return WS_EXIT_FAIL;
	}
	memset(&res, 0, sizeof(res));
	res.val = calloc(cfg.instances, sizeof(double));
	res.snd_mbps = calloc(cfg.instances, sizeof(double));
	res.loss = calloc(cfg.instances, sizeof(double));
	res.gap = calloc(cfg.instances, sizeof(double));
	res.stalled = calloc(cfg.instances, sizeof(bool));
	ws_prog_last = calloc(cfg.instances, sizeof(uint64_t));
	ws_prog_moved = calloc(cfg.instances, sizeof(double));
	ws_prog_gap = calloc(cfg.instances, sizeof(double));
	if (!res.val || !res.snd_mbps || !res.loss || !res.gap ||
	    !res.stalled || !ws_prog_last || !ws_prog_moved || !ws_prog_gap) {
		fprintf(stderr, "wl_stream: out of memory\n");
		return WS_EXIT_FAIL;
	}
	ws_signals();

	if (cfg.schedstats) {
		ws_schedstats_old = ws_schedstats_enabled();
		if (ws_schedstats_old < 0 || ws_schedstats_set(1)) {
			fprintf(stderr, "wl_stream: --schedstats: cannot enable %s\n",
				WS_SCHEDSTATS_SYSCTL);
			ws_schedstats_old = -1;
			return WS_EXIT_FAIL;
		}
	}

	if (ws_start(why, sizeof(why)) || !ws_wait_ready(why, sizeof(why)))
		goto fail;
	ws_perf_open(&perf, topo.cpu, topo.ncpus);

	/*
	 * The barrier: every worker is connected and waiting; go.  The
	 * warm-up counts from the moment every instance moves data.
	 */
	ws_set_phase(WS_PH_WARMUP);
	if (!ws_wait_first_data(&res.first_data_s, why, sizeof(why)))
		goto fail;
	if (cfg.warmup > 0 && !ws_watch(ws_now() + cfg.warmup, why,
					sizeof(why)))
		goto fail;
	ws_set_phase(WS_PH_MEASURE);
	ws_sample(&s0);
	ws_track(s0.t, true);
	ws_tracking = true;
	/* From the first sample's time: sampling is part of the window. */
	if (!ws_watch(s0.t + cfg.duration, why, sizeof(why)))
		goto fail;
	ws_sample(&s1);
	ws_track(s1.t, false);
	ws_tracking = false;
	ws_set_phase(WS_PH_STOP);
	if (!ws_wait_done(why, sizeof(why)))
		goto fail;
	ss_enabled = ws_schedstats_enabled();
	ws_restore_schedstats();
	ws_compute(&s0, &s1, &res);
	ws_perf_close(&perf);
	if (cfg.json)
		ws_print_json(&res, &s0, &s1, ss_enabled);
	else if (cfg.brief)
		ws_print_brief(&res);
	else
		ws_print_table(&res, &s0, &s1, ss_enabled);
	fflush(stdout);
	return res.integrity ? 0 : WS_EXIT_FAIL;

fail:
	fprintf(stderr, "wl_stream: %s\n", why);
	ws_set_phase(WS_PH_STOP);
	ws_die(WS_EXIT_FAIL);
}
