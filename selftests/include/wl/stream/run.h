/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_stream's run state, in one place (lib/stream/run.c): the options, the
 * topology, the perf counters, the slots the workers share with the
 * controller, and what the engine that ran the workload leaves for the
 * report.  The engines (lib/stream/engine.c, lib/stream/netperf.c) and the
 * two-host control connection (lib/stream/remote.c) write it; the report
 * (lib/stream/report.c) reads it through a const pointer.  With it, the
 * types both sides name: the shared slots and the samples taken at the
 * window's edges (the run configuration is wl/stream/cfg.h's).  Nothing
 * here includes the engines' or the options' headers.
 */
#ifndef WL_STREAM_RUN_H
#define WL_STREAM_RUN_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "wl/core/hist.h"
#include "wl/kernel/cpustat.h"
#include "wl/kernel/perf.h"
#include "wl/kernel/perf_tool.h"
#include "wl/kernel/schedstat.h"
#include "wl/kernel/topo.h"
#include "wl/stream/cfg.h"
#include "wl/stream/netns.h"
#include "wl/stream/wakelab.h"

/*
 * The control protocol's version of --serve/--remote (lib/stream/remote.c);
 * a mismatch ends the session.  The report names it.
 */
#define WL_REMOTE_PROTO		2

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
 * @last_ns:	a receiver's last progress in the window (CLOCK_MONOTONIC),
 *		0 before its first
 * @gap_ns:	a receiver's longest time in the window without progress,
 *		up to @last_ns
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
	uint64_t last_ns;
	uint64_t gap_ns;
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
 * @events:	a futex the controller waits on during the window: bumped
 *		by a worker that fails, a child that ends and a stop signal
 * @window_ns:	CLOCK_MONOTONIC when the window opened
 * @inst:	the instances
 */
struct wl_shared {
	uint32_t phase;
	uint32_t ready;
	uint32_t finished;
	uint32_t events;
	uint64_t window_ns;
	struct wl_inst inst[];
};

/*
 * The SCTP MIB counters (/proc/net/sctp/snmp) that explain a stream that
 * stops: retransmission timeouts and the receiver's discards.
 */
#define WL_SCTP_MIB_NR	7
extern const char * const wl_sctp_mib[WL_SCTP_MIB_NR];

/*
 * One sample of everything measured at a window edge; @ctl_sleeps: the
 * controller thread's voluntary context switches just before and just
 * after it read wakelab.ko's tables (each sleep ends in one of its
 * wakeups); @ctl_waits: its waits (wl_stream_ctl_waits()) at the same
 * points.
 */
struct wl_sample {
	double t;
	uint64_t *snd_bytes, *rcv_bytes, *snd_msgs, *rcv_msgs;
	struct wl_cpustat cpu;
	bool cpu_ok;
	unsigned long long perf[WL_PERF_NR];
	struct wl_schedstat ss;
	int ss_ret;
	struct wl_wakelab wl;
	long ctl_sleeps[2];
	long ctl_waits[2];
};

#define WL_ENGINE_LEN	64

/**
 * struct wl_stream_run - the run: what the engines write, the report reads
 * @cfg:	the options (a --serve session: the client's, with the
 *		server's -p and -T)
 * @topo:	the online CPUs and their LLCs
 * @perf:	the perf counters of the window
 * @sh:		the barrier and every instance's slots, shared with the
 *		workers
 * @prog_gap:	per instance: the longest time inside the window it moved
 *		nothing, seconds
 * @engine:	what ran the workload: "wl_stream" (its own workers) or
 *		netperf with its version ("netperf 2.7.0")
 * @peer:	two hosts: the other host's address and port (a --serve
 *		server, before its first session: its own)
 * @schedstats:	kernel.sched_schedstats as the run left it, before it was
 *		restored: 1 on, 0 off, -1 unknown
 * @sctp:	the SCTP MIB's deltas over the span of wl_stream_sctp_begin()
 *		(when @sctp_ok)
 * @sctp_ok:	the workload is SCTP and @sctp was read
 * @netns:	--netns: the namespaces and offloads the run used
 * @wlf:	the workload's cgroup as wakelab.ko counts it
 * @prof:	--profile: perf's profile and counters of the window
 */
struct wl_stream_run {
	struct wl_cfg cfg;
	struct wl_topo topo;
	struct wl_perf perf;
	struct wl_shared *sh;
	double *prog_gap;
	char engine[WL_ENGINE_LEN];
	char peer[WL_ADDR_LEN + 8];
	int schedstats;
	unsigned long long sctp[WL_SCTP_MIB_NR];
	bool sctp_ok;
	struct wl_netns_info netns;
	struct wl_wakelab_filter wlf;
	struct wl_profile prof;
};

/* The process's run (a --serve server: the session's, in its child). */
extern struct wl_stream_run wl_srun;

/*
 * The word the controller sleeps on through the window (a futex): in
 * wl_srun.sh once mapped, shared with the workers, else the process's own.
 */
uint32_t *wl_stream_events(void);

/*
 * Wake the controller: a worker failed, a child ended, a stop signal came.
 * Async-signal-safe.
 */
void wl_stream_wake_controller(void);

#endif /* WL_STREAM_RUN_H */
