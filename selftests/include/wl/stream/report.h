/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_stream's results (lib/stream/report.c): the window's figures computed
 * from the two samples at its edges and the run's final counters, and the
 * three ways of printing them (table, --json, --brief).  Everything comes
 * from the run state (wl/stream/run.h) through a const pointer, whichever
 * engine ran the workload, so the report can be driven on a made-up run.
 */
#ifndef WL_STREAM_REPORT_H
#define WL_STREAM_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "wl/core/hist.h"
#include "wl/kernel/cpustat.h"
#include "wl/kernel/perf.h"
#include "wl/kernel/schedstat.h"
#include "wl/stream/run.h"

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
 * @cpu_ok:	@cpu was read at both edges
 * @sd_kb:	service demand, us of CPU per KB
 * @sd_tran:	service demand, us of CPU per transaction (tcp_rr)
 * @perf:	perf counts in the window (@perf_ok per event)
 * @perf_ok:	per event: it was counted
 * @ss:		schedstat deltas (when @ss_ret is 0)
 * @ss_ret:	0, or why /proc/schedstat was not read (-2: unsupported
 *		version)
 * @integrity:	all instances passed the integrity checks
 * @first_data_s: seconds from the release to the last instance's first data
 * @stalled:	per instance: moved nothing in the window
 * @nstalled:	instances that moved nothing in the window
 * @gap:	per instance: longest time in the window without progress, s
 * @sctp:	SCTP MIB deltas over wl_stream_sctp_begin()'s span (when
 *		@sctp_ok)
 * @sctp_ok:	the workload is SCTP and the MIB was read over the span
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

/* Zero @r and allocate its per-instance arrays for @run; 0, or -1. */
int wl_stream_result_alloc(const struct wl_stream_run *run,
			   struct wl_result *r);
/*
 * The window's figures between samples @a and @b, and the integrity checks
 * of every instance (a failure or a stalled instance: a line on stderr).
 */
void wl_stream_compute(const struct wl_stream_run *run,
		       const struct wl_sample *a, const struct wl_sample *b,
		       struct wl_result *r);
void wl_stream_print_json(const struct wl_stream_run *run,
			  const struct wl_result *r,
			  const struct wl_sample *a, const struct wl_sample *b);
void wl_stream_print_table(const struct wl_stream_run *run,
			   const struct wl_result *r,
			   const struct wl_sample *a,
			   const struct wl_sample *b);
void wl_stream_print_brief(const struct wl_stream_run *run,
			   const struct wl_result *r);

/**
 * wl_stream_report() - compute and print a run's results
 * @run: the run, as its engine left it
 * @a: the sample at the window's start
 * @b: the sample at the window's end
 * @r: the results (wl_stream_result_alloc()), @r->first_data_s set
 *
 * Computes @r (wl_stream_compute()) and prints it as the options ask:
 * one JSON object (--json), one line (--brief) or the table.
 *
 * Return: the exit status: 0, or WL_EXIT_FAIL when the integrity checks
 * failed.
 */
int wl_stream_report(const struct wl_stream_run *run,
		     const struct wl_sample *a, const struct wl_sample *b,
		     struct wl_result *r);

#endif /* WL_STREAM_REPORT_H */
