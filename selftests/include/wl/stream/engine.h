/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_stream, the loopback workload engine, in three parts: options
 * (wl/stream/opts.h), the engine (lib/stream/engine.c: workers, barrier,
 * window, samples) and the results (lib/stream/report.c: figures, table,
 * JSON, --brief).  This header is what they share: the run's state, one
 * set for the process, and the steps main() takes.
 */
#ifndef WL_STREAM_ENGINE_H
#define WL_STREAM_ENGINE_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "wl/kernel/cpustat.h"
#include "wl/core/hist.h"
#include "wl/kernel/perf.h"
#include "wl/kernel/schedstat.h"
#include "wl/stream/opts.h"
#include "wl/stream/wakelab.h"
#include "wl/kernel/topo.h"

#define WL_EXIT_FAIL		1
#define WL_EXIT_USAGE		2
#define WL_EXIT_SKIP		4

enum wl_phase {
	WL_PH_SETUP,
	WL_PH_WARMUP,
	WL_PH_MEASURE,
	WL_PH_STOP,
};

/**
 * struct wl_slot - what one sender or receiver reports, in shared memory
 * @bytes:	payload bytes moved so far (single writer: the worker)
 * @msgs:	datagrams/messages (udp, sctp), transactions (tcp_rr)
 * @errors:	transient send errors (udp ENOBUFS)
 * @cpu:	CPU the worker ran on when it finished
 * @failed:	set with @msg when the worker gave up
 * @verify_fail: payload pattern mismatches seen (--verify)
 * @done:	the worker finished sending (udp receivers watch it)
 * @msg:	why it failed
 */
struct wl_slot {
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
 * struct wl_inst - one sender/receiver pair
 * @snd:	the sender's (tcp_rr: client's) slot
 * @rcv:	the receiver's (tcp_rr: server's) slot
 * @snd_pin:	CPU the sender is pinned to, -1 unpinned
 * @rcv_pin:	CPU the receiver is pinned to, -1 unpinned
 * @lfd:	receiver-side socket the controller made (listening or bound)
 * @addr:	its address, which the sender connects or sends to
 * @addrlen:	the length of @addr
 * @pid:	sender and receiver processes (0 when reaped)
 * @tid:	sender and receiver threads (--threads)
 * @hist:	tcp_rr round-trip latencies inside the window
 */
struct wl_inst {
	struct wl_slot snd;
	struct wl_slot rcv;
	int snd_pin, rcv_pin;
	int lfd;
	struct sockaddr_storage addr;
	socklen_t addrlen;
	pid_t pid[2];
	pthread_t tid[2];
	struct wl_hist hist;
};

/**
 * struct wl_shared - the barrier and all slots, in one shared mapping
 * @phase:	enum wl_phase; a futex the workers wait on during setup
 * @ready:	workers done with setup
 * @finished:	workers done (threads mode)
 * @inst:	the instances
 */
struct wl_shared {
	uint32_t phase;
	uint32_t ready;
	uint32_t finished;
	struct wl_inst inst[];
};

/*
 * The SCTP MIB counters (/proc/net/sctp/snmp) that explain a stream that
 * stops: retransmission timeouts and the receiver's discards.
 */
#define WL_SCTP_MIB_NR	7
extern const char * const wl_sctp_mib[WL_SCTP_MIB_NR];

/* One sample of everything measured at a window edge. */
struct wl_sample {
	double t;
	uint64_t *snd_bytes, *rcv_bytes, *snd_msgs, *rcv_msgs;
	struct wl_cpustat cpu;
	bool cpu_ok;
	unsigned long long perf[WL_PERF_NR];
	struct wl_schedstat ss;
	int ss_ret;
	struct wl_wakelab wl;
};

/**
 * struct wl_result - everything a run reports
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
 * @perf:		perf counts in the window (@perf_ok per event)
 * @ss:		schedstat deltas (when @ss_ret is 0)
 * @integrity:	all instances passed the integrity checks
 * @first_data_s: seconds from the release to the last instance's first data
 * @stalled:	per instance: moved nothing in the window
 * @nstalled:	instances that moved nothing in the window
 * @gap:	per instance: longest time in the window without progress, s
 * @sctp:	SCTP MIB deltas over wl_stream_sctp_begin()'s span (when @sctp_ok)
 */
struct wl_result {
	double window;
	double *val, *snd_mbps, *loss;
	double aggregate, udp_send, udp_loss;
	struct wl_hist hist;
	uint64_t window_bytes, window_trans;
	struct wl_cpuuse cpu;
	bool cpu_ok;
	double sd_kb, sd_tran;
	unsigned long long perf[WL_PERF_NR];
	bool perf_ok[WL_PERF_NR];
	struct wl_schedstat ss;
	int ss_ret;
	bool integrity;
	double first_data_s;
	bool *stalled;
	int nstalled;
	double *gap;
	unsigned long long sctp[WL_SCTP_MIB_NR];
	bool sctp_ok;
};

/* The run: options, shared slots, topology, perf counters. */
extern struct wl_cfg wl_scfg;
extern struct wl_shared *wl_sh;
extern struct wl_topo wl_stopo;
extern struct wl_perf wl_sperf;
/* Longest time each instance moved nothing inside the window, seconds. */
extern double *wl_prog_gap;

/*
 * Two hosts (lib/stream/remote.c): called by the engine's waits with @now
 * false (exchange counters with the peer when due) and before each sample
 * with @now true; true when the run must stop (@why filled).  NULL when the
 * run is on one host.
 */
extern bool (*wl_stream_peer_poll)(bool now, char *why, size_t len);

/* Engine (lib/stream/engine.c). */
bool wl_stream_sctp(void);
/*
 * The SCTP MIB of the run's namespaces over a span: from the start barrier
 * (wl_stream_sctp_begin()) to the window's end (wl_stream_sctp_window()),
 * or, when an instance moved nothing in the window, to the moment the last
 * such instance moved again or the workers finished (wl_stream_wait_done()
 * watches).  Such a pause can start with a drop in the warm-up and end with
 * a retransmission after the window; the span stops before the
 * retransmission timeouts the senders' stop sets off (1 s or more after
 * it) unless a pause outlasts them.
 * wl_stream_sctp_deltas(): the span's deltas; false when the workload is
 * not SCTP, the MIB was unreadable or the span has not ended.
 */
void wl_stream_sctp_begin(void);
void wl_stream_sctp_window(const struct wl_sample *a,
			   const struct wl_sample *b);
bool wl_stream_sctp_deltas(unsigned long long *d);
/* Whether this host runs the senders (@sender) or the receivers. */
bool wl_stream_local(bool sender);
/*
 * Address the receivers bind to (IPv4 workloads): loopback, the receiving
 * namespace's (--netns), or the control connection's (two hosts).
 */
extern struct in_addr wl_stream_bind_addr;
/* A worker or the run failed: checks, reaps; true with @why to stop. */
bool wl_stream_check(char *why, size_t len);
/* A stop signal arrived. */
bool wl_stream_interrupted(void);
/* TCP or SCTP: every byte sent must be received. */
bool wl_stream_reliable(void);
/* 0 when the workload's protocol works here, else why not (skip). */
const char *wl_stream_unsupported(void);
/* Raise RLIMIT_NOFILE to what the run needs; 0, or -1 with @why. */
int wl_stream_check_nofile(char *why, size_t len);
int wl_stream_setup_pattern(void);
/* Map wl_sh and the progress arrays for wl_scfg; 0, or -1 (printed). */
int wl_stream_alloc(void);
/* --schedstats: turn kernel.sched_schedstats on; 0, or -1 (printed). */
int wl_stream_schedstats_on(void);
void wl_stream_restore_schedstats(void);
void wl_stream_on_signal(int sig);
/* Make the receivers' sockets (before wl_stream_start). */
int wl_stream_listen(char *why, size_t len);
int wl_stream_start(char *why, size_t len);
bool wl_stream_wait_ready(char *why, size_t len);
bool wl_stream_wait_first_data(double *took, char *why, size_t len);
bool wl_stream_watch(double end, char *why, size_t len);
bool wl_stream_wait_done(char *why, size_t len);
void wl_stream_set_phase(uint32_t ph);
/* Start (@start) or end tracking the instances' progress at @now. */
void wl_stream_track(double now, bool start);
int wl_stream_sample_alloc(struct wl_sample *s);
void wl_stream_sample(struct wl_sample *s);
/* Kill every worker, restore schedstats, exit with @status. */
void __attribute__((noreturn)) wl_stream_die(int status);

/* Results (lib/stream/report.c). */
int wl_stream_result_alloc(struct wl_result *r);
void wl_stream_compute(const struct wl_sample *a, const struct wl_sample *b,
		       struct wl_result *r);
void wl_stream_print_json(const struct wl_result *r,
			  const struct wl_sample *a, const struct wl_sample *b,
			  int ss_enabled);
void wl_stream_print_table(const struct wl_result *r,
			   const struct wl_sample *a,
			   const struct wl_sample *b, int ss_enabled);
void wl_stream_print_brief(const struct wl_result *r);

#endif /* WL_STREAM_ENGINE_H */
