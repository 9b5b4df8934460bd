// SPDX-License-Identifier: GPL-2.0
/*
 * wl_stream: loopback workload engine for wakelab.  Runs N instances of a
 * TCP, UDP, SCTP or TIPC stream, or of a TCP or TIPC request/response
 * exchange, each
 * instance a sender and a receiver in its own process (as netperf and
 * netserver; --threads for threads), all released by one barrier and
 * measured over one common window after a warm-up.  Reports per-instance
 * and aggregate throughput, UDP send and receive rates and loss, tcp_rr
 * latency percentiles, system-wide CPU use and service demand, perf
 * software/hardware counts, /proc/schedstat wakeup deltas and the deltas of
 * wakelab's debugfs counters, as a table, one JSON object (--json) or one
 * netperf-loop line (--brief).  Every run checks integrity: bytes sent ==
 * bytes received for TCP, SCTP and TIPC, transactions answered for the rr
 * workloads.  --netns puts the senders and receivers in two namespaces
 * joined by a veth pair; --serve and --remote run them on two hosts.
 * -w netperf:TEST runs Debian's netperf and netserver instead, in the same
 * design and reported the same way (lib/stream/netperf.c).  Both engines
 * write the run state (lib/stream/run.c) and end in wl_stream_finish(),
 * which the results (lib/stream/report.c) are printed from.
 *
 * Exit status: 0 ok, 1 run or integrity failure, 2 bad usage, 4 (KSFT_SKIP)
 * workload or pin mode unsupported on this system.
 */
#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wl/core/clock.h"
#include "wl/core/sig.h"
#include "wl/stream/engine.h"
#include "wl/stream/netns.h"
#include "wl/stream/netperf.h"
#include "wl/stream/opts.h"
#include "wl/stream/pin.h"
#include "wl/stream/remote.h"
#include "wl/stream/report.h"
#include "wl/stream/run.h"
#include "wl/stream/workload.h"

static void __attribute__((noreturn)) wl_stream_usage_exit(const char *err)
{
	fprintf(stderr, "wl_stream: %s\n%s", err, wl_stream_usage);
	exit(WL_EXIT_USAGE);
}

int main(int argc, char **argv)
{
	struct wl_sample s0, s1;
	struct wl_result res;
	const char *skip;
	char why[256] = "", err[256];
	int ret, ncpus;

	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	ret = wl_parse_opts(argc, argv, ncpus, &wl_srun.cfg, err, sizeof(err));
	if (ret == 1) {
		fputs(wl_stream_usage, stdout);
		return 0;
	}
	if (ret < 0)
		wl_stream_usage_exit(err);

	if (wl_topo_load(WL_CPU_SYSFS, ncpus, &wl_srun.topo)) {
		fprintf(stderr, "wl_stream: no online CPUs found\n");
		return WL_EXIT_FAIL;
	}
	if (wl_srun.cfg.serve) {
		wl_stop_signals(wl_stream_on_signal);
		return wl_remote_serve();
	}
	skip = wl_pin_unsupported(&wl_srun.topo, wl_srun.cfg.pin);
	if (!skip && wl_srun.cfg.netperf) {
		/* The second engine: netperf runs the workload. */
		wl_stop_signals(wl_stream_on_signal);
		return wl_netperf_main();
	}
	if (!skip)
		skip = wl_stream_unsupported();
	if (skip) {
		fprintf(stderr, "wl_stream: SKIP: %s\n", skip);
		return WL_EXIT_SKIP;
	}
	if (wl_stream_check_nofile(why, sizeof(why)) || wl_stream_setup_pattern()) {
		fprintf(stderr, "wl_stream: %s\n", why[0] ? why : "out of memory");
		return WL_EXIT_FAIL;
	}

	if (wl_stream_alloc())
		return WL_EXIT_FAIL;
	if (wl_stream_sample_alloc(&s0) || wl_stream_sample_alloc(&s1) ||
	    wl_stream_result_alloc(&wl_srun, &res)) {
		fprintf(stderr, "wl_stream: out of memory\n");
		return WL_EXIT_FAIL;
	}
	wl_stop_signals(wl_stream_on_signal);
	if (wl_srun.cfg.schedstats && wl_stream_schedstats_on())
		return WL_EXIT_FAIL;
	if (wl_srun.cfg.netns) {
		ret = wl_netns_setup(wl_srun.cfg.offload, why, sizeof(why));
		if (ret && wl_stream_interrupted()) {
			snprintf(why, sizeof(why), "interrupted by a signal while setting up --netns");
			goto fail;
		}
		if (ret == -2) {
			fprintf(stderr, "wl_stream: SKIP: %s\n", why);
			wl_stream_die(WL_EXIT_SKIP);
		}
		if (ret)
			goto fail;
		inet_pton(AF_INET, WL_NETNS_RCV_ADDR, &wl_stream_bind_addr);
	}
	if (wl_srun.cfg.remote && wl_remote_connect(why, sizeof(why)))
		goto fail;
	if (wl_stream_listen(why, sizeof(why)))
		goto fail;
	if (wl_srun.cfg.remote) {
		ret = wl_remote_hello(why, sizeof(why));
		if (ret == -2) {
			fprintf(stderr, "wl_stream: SKIP: %s\n", why);
			wl_stream_die(WL_EXIT_SKIP);
		}
		if (ret)
			goto fail;
	}

	/* perf first: its start-up is over before the workers run. */
	if (wl_stream_profile_start(why, sizeof(why)))
		goto fail;
	if (wl_stream_start(why, sizeof(why)) || !wl_stream_wait_ready(why, sizeof(why)))
		goto fail;
	if (wl_srun.cfg.remote && wl_remote_go(why, sizeof(why)))
		goto fail;
	wl_perf_open(&wl_srun.perf, wl_srun.topo.cpu, wl_srun.topo.ncpus);

	/*
	 * The barrier: every worker is connected and waiting; go.  The
	 * warm-up counts from the moment every instance moves data.
	 */
	wl_stream_sctp_begin();
	wl_stream_set_phase(WL_PH_WARMUP);
	if (!wl_stream_wait_first_data(&res.first_data_s, why, sizeof(why)))
		goto fail;
	if (wl_srun.cfg.warmup > 0 &&
	    !wl_stream_watch(wl_now() + wl_srun.cfg.warmup, why, sizeof(why)))
		goto fail;
	/* perf counts from just before the first sample to just after the last. */
	if (wl_stream_profile_window(true, why, sizeof(why)))
		goto fail;
	wl_stream_set_phase(WL_PH_MEASURE);
	wl_stream_sample(&s0);
	wl_stream_track(s0.t, true);
	/* From the first sample's time: sampling is part of the window. */
	if (!wl_stream_watch(s0.t + wl_srun.cfg.duration, why, sizeof(why)))
		goto fail;
	wl_stream_sample(&s1);
	if (wl_stream_profile_window(false, why, sizeof(why)))
		goto fail;
	wl_stream_track(s1.t, false);
	wl_stream_sctp_window(&s0, &s1);
	wl_stream_set_phase(WL_PH_STOP);
	if (!wl_stream_wait_done(why, sizeof(why)))
		goto fail;
	if (wl_srun.cfg.remote && wl_remote_final(why, sizeof(why)))
		goto fail;
	if (wl_stream_profile_finish(why, sizeof(why)))
		goto fail;
	ret = wl_stream_finish(&s0, &s1, &res);
	wl_netns_cleanup();
	return ret;

fail:
	fprintf(stderr, "wl_stream: %s\n", why);
	wl_stream_set_phase(WL_PH_STOP);
	wl_stream_die(WL_EXIT_FAIL);
}
