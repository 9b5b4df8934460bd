/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_stream's engine (lib/stream/engine.c): the controller's side of a run
 * of wl_stream's own workers (wl/stream/workload.h) -- the receivers'
 * sockets, the workers started and released by one barrier, the watch over
 * the warm-up and the window, the samples at its edges, the SCTP MIB's
 * span -- and the steps main() takes.  It writes the run state
 * (wl/stream/run.h), which the results (wl/stream/report.h) read; the
 * netperf engine (wl/stream/netperf.h) and the two-host control connection
 * (wl/stream/remote.h) use its steps too.
 */
#ifndef WL_STREAM_ENGINE_H
#define WL_STREAM_ENGINE_H

#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wl/stream/report.h"
#include "wl/stream/run.h"

/*
 * Two hosts (lib/stream/remote.c): called by the engine's waits with @now
 * false (exchange counters with the peer when due) and before each sample
 * with @now true; true when the run must stop (@why filled).  NULL when the
 * run is on one host.
 */
extern bool (*wl_stream_peer_poll)(bool now, char *why, size_t len);

/*
 * The SCTP MIB of the run's namespaces over a span: from the start barrier
 * (wl_stream_sctp_begin()) to the window's end (wl_stream_sctp_window()),
 * or, when an instance moved nothing in the window, to the moment the last
 * such instance moved again or the workers finished (wl_stream_wait_done()
 * watches).  Such a pause can start with a drop in the warm-up and end with
 * a retransmission after the window; the span stops before the
 * retransmission timeouts the senders' stop sets off (1 s or more after
 * it) unless a pause outlasts them.
 * wl_stream_finish() takes the span's deltas.
 */
void wl_stream_sctp_begin(void);
void wl_stream_sctp_window(const struct wl_sample *a,
			   const struct wl_sample *b);
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
/* 0 when the workload's protocol works here, else why not (skip). */
const char *wl_stream_unsupported(void);
/* Raise RLIMIT_NOFILE to what the run needs; 0, or -1 with @why. */
int wl_stream_check_nofile(char *why, size_t len);
/*
 * Map wl_srun.sh and the progress arrays for wl_srun.cfg; 0, or -1
 * (printed).
 */
int wl_stream_alloc(void);
/* --schedstats: turn kernel.sched_schedstats on; 0, or -1 (printed). */
int wl_stream_schedstats_on(void);
void wl_stream_restore_schedstats(void);
/* The stop signals' handler: records @sig, wakes the controller. */
void wl_stream_on_signal(int sig);
/* SIGCHLD wakes the controller (a worker or netperf that ends). */
void wl_stream_catch_children(void);
/*
 * Sleep until @end (wl_now() time), at most @cap seconds when > 0, or
 * until the event word moves from @seen (wl_stream_wake_controller()): a
 * futex wait, so that the controller makes no wakeup of its own.
 */
void wl_stream_sleep(double end, uint32_t seen, double cap);
/* poll(2), counted as one of the calling thread's waits when it waits. */
int wl_stream_poll(struct pollfd *pfd, nfds_t n, int ms);
/* The calling thread's voluntary context switches so far, or -1. */
long wl_stream_ctl_sleeps(void);
/*
 * The calling thread's waits so far: wl_stream_sleep() and wl_stream_poll()
 * calls that slept (nothing was ready).  Each is a voluntary context
 * switch; on PREEMPT_RT a contended spinlock_t also sleeps, which is not a
 * wait.
 */
long wl_stream_ctl_waits(void);
/* Make the receivers' sockets (before wl_stream_start). */
int wl_stream_listen(char *why, size_t len);
int wl_stream_start(char *why, size_t len);
bool wl_stream_wait_ready(char *why, size_t len);
bool wl_stream_wait_first_data(double *took, char *why, size_t len);
/*
 * Sleep until @end (wl_now() time) while watching the workers, waking
 * only for the end, a failure, a child's exit or a stop signal (and,
 * outside the window, --remote's exchanges; in it, the peer's word);
 * false when the run must stop.
 */
bool wl_stream_watch(double end, char *why, size_t len);
bool wl_stream_wait_done(char *why, size_t len);
void wl_stream_set_phase(uint32_t ph);
/* Start (@start) or end tracking the instances' progress at @now. */
void wl_stream_track(double now, bool start);
int wl_stream_sample_alloc(struct wl_sample *s);
void wl_stream_sample(struct wl_sample *s);
/*
 * --profile (lib/kernel/perf_tool.c): start perf with its events off,
 * before the workers; turn them on just before the window's first sample
 * (@on) and off just after its last; stop perf and read its profile and
 * counters into wl_srun.prof.  Each returns 0 at once without --profile.
 */
int wl_stream_profile_start(char *why, size_t len);
int wl_stream_profile_window(bool on, char *why, size_t len);
int wl_stream_profile_finish(char *why, size_t len);
/* Kill every worker, restore schedstats, exit with @status. */
void __attribute__((noreturn)) wl_stream_die(int status);

/**
 * wl_stream_finish() - the end of a run, for both engines
 * @a: the sample at the window's start
 * @b: the sample at the window's end
 * @r: the results (wl_stream_result_alloc()), @r->first_data_s set
 *
 * Records in wl_srun kernel.sched_schedstats as the run left it (then
 * restores it) and the SCTP MIB's deltas, computes and prints the results
 * (wl_stream_report()) and closes the perf counters.
 *
 * Return: the exit status: 0, or WL_EXIT_FAIL when the integrity checks
 * failed.
 */
int wl_stream_finish(const struct wl_sample *a, const struct wl_sample *b,
		     struct wl_result *r);

#endif /* WL_STREAM_ENGINE_H */
