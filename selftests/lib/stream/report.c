// SPDX-License-Identifier: GPL-2.0
/*
 * wl_stream's results: the window's figures computed from two samples and
 * the final counters, and the three ways of printing them (table, --json,
 * --brief), from the run state alone.  See wl/stream/report.h.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "wl/core/file.h"
#include "wl/core/json_write.h"
#include "wl/stream/netns.h"
#include "wl/stream/report.h"
#include "wl/stream/run.h"
#include "wl/stream/wakelab.h"

#define WL_SCHEMA		5

/*
 * Before v17, /proc/schedstat has no domain names: take them from the
 * first online CPU's domains in debugfs (6.1) or the old sysctl.
 */
static void wl_domain_names(const struct wl_stream_run *run,
			    struct wl_schedstat *ss)
{
	static const char * const fmt[] = {
		"/sys/kernel/debug/sched/domains/cpu%d/domain%d/name",
		"/proc/sys/kernel/sched_domain/cpu%d/domain%d/name",
	};
	char path[128], buf[WL_SD_NAME_LEN];
	unsigned int f;
	int d;

	for (d = 0; d < ss->ndomains; d++) {
		for (f = 0; f < 2 && !ss->sd[d].name[0]; f++) {
			snprintf(path, sizeof(path), fmt[f], run->topo.cpu[0],
				 d);
			if (wl_read_file(path, buf, sizeof(buf)) > 0)
				snprintf(ss->sd[d].name, WL_SD_NAME_LEN, "%.*s",
					 (int)strcspn(buf, "\n"), buf);
		}
	}
}

static double wl_mbps(uint64_t bytes, double secs)
{
	return secs > 0 ? bytes * 8.0 / secs / 1e6 : 0;
}

/* Check one instance; false (with a message on stderr) when it failed. */
static bool wl_check_instance(const struct wl_stream_run *run, int i)
{
	const struct wl_inst *in = &run->sh->inst[i];
	bool ok = true;

	if (in->snd.verify_fail || in->rcv.verify_fail) {
		fprintf(stderr,
			"wl_stream: integrity: instance %d: %d payload pattern mismatches\n",
			i, in->snd.verify_fail + in->rcv.verify_fail);
		ok = false;
	}
	if (wl_workload_reliable(run->cfg.workload) &&
	    in->snd.bytes != in->rcv.bytes) {
		fprintf(stderr,
			"wl_stream: integrity: instance %d sent %llu bytes but %llu were received\n",
			i, (unsigned long long)in->snd.bytes,
			(unsigned long long)in->rcv.bytes);
		ok = false;
	}
	if (wl_workload_rr(run->cfg.workload) && in->snd.msgs != in->rcv.msgs) {
		fprintf(stderr,
			"wl_stream: integrity: instance %d completed %llu transactions, the server answered %llu\n",
			i, (unsigned long long)in->snd.msgs,
			(unsigned long long)in->rcv.msgs);
		ok = false;
	}
	if (run->cfg.workload == WL_UDP_STREAM && in->rcv.msgs > in->snd.msgs) {
		fprintf(stderr,
			"wl_stream: integrity: instance %d received %llu datagrams, only %llu were sent\n",
			i, (unsigned long long)in->rcv.msgs,
			(unsigned long long)in->snd.msgs);
		ok = false;
	}
	return ok;
}

void wl_stream_compute(const struct wl_stream_run *run,
		       const struct wl_sample *a, const struct wl_sample *b,
		       struct wl_result *r)
{
	bool rr = wl_workload_rr(run->cfg.workload);
	uint64_t sent = 0, got = 0, d, busy_us;
	const struct wl_inst *in;
	int i, ev;

	r->window = b->t - a->t;
	r->integrity = true;
	for (i = 0; i < run->cfg.instances; i++) {
		in = &run->sh->inst[i];
		if (!wl_check_instance(run, i))
			r->integrity = false;
		r->gap[i] = run->prog_gap[i];
		r->stalled[i] = rr ? b->rcv_msgs[i] == a->rcv_msgs[i] :
				b->rcv_bytes[i] == a->rcv_bytes[i];
		if (r->stalled[i]) {
			r->nstalled++;
			fprintf(stderr,
				"wl_stream: warning: instance %d moved no data in the %.2f s window (stalled; it had moved %llu %s before it)\n",
				i, r->window,
				(unsigned long long)(rr ? a->rcv_msgs[i] :
						     a->rcv_bytes[i]),
				rr ? "transactions" : "bytes");
		}
		if (rr) {
			d = b->snd_msgs[i] - a->snd_msgs[i];
			r->window_trans += d;
			r->window_bytes += d * (run->cfg.msg_size +
						run->cfg.recv_size);
			r->val[i] = r->window > 0 ? d / r->window : 0;
			wl_hist_merge(&r->hist, &in->hist);
		} else {
			d = b->rcv_bytes[i] - a->rcv_bytes[i];
			r->window_bytes += d;
			r->val[i] = wl_mbps(d, r->window);
			r->snd_mbps[i] = wl_mbps(b->snd_bytes[i] -
						 a->snd_bytes[i], r->window);
			r->udp_send += r->snd_mbps[i];
		}
		if (run->cfg.workload == WL_UDP_STREAM) {
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
		wl_cpustat_delta(&a->cpu, &b->cpu, &r->cpu);
	r->sd_kb = NAN;
	r->sd_tran = NAN;
	if (r->cpu_ok && r->cpu.total_ticks) {
		busy_us = r->cpu.busy_ticks * 1000000ULL / sysconf(_SC_CLK_TCK);
		if (r->window_bytes)
			r->sd_kb = busy_us / (r->window_bytes / 1024.0);
		if (r->window_trans)
			r->sd_tran = (double)busy_us / r->window_trans;
	}
	for (ev = 0; ev < WL_PERF_NR; ev++) {
		r->perf_ok[ev] = run->perf.avail[ev];
		r->perf[ev] = b->perf[ev] >= a->perf[ev] ?
			      b->perf[ev] - a->perf[ev] : 0;
	}
	r->sctp_ok = run->sctp_ok;
	if (r->sctp_ok)
		memcpy(r->sctp, run->sctp, sizeof(r->sctp));
	r->ss_ret = a->ss_ret ? a->ss_ret : b->ss_ret;
	if (!r->ss_ret) {
		wl_schedstat_delta(&a->ss, &b->ss, &r->ss);
		wl_domain_names(run, &r->ss);
	}
}

static const char *wl_unit(const struct wl_stream_run *run)
{
	return wl_workload_rr(run->cfg.workload) ? "trans/s" : "Mbit/s";
}

static double wl_us(uint64_t ns)
{
	return ns / 1000.0;
}

static void wl_stream_json_schedstat(struct wl_jsonw *j, const struct wl_result *r,
				     int enabled)
{
	int d;

	wl_jsonw_obj(j, "schedstat");
	wl_jsonw_bool(j, "enabled", enabled == 1);
	wl_jsonw_bool(j, "available", r->ss_ret == 0);
	if (r->ss_ret == 0) {
		wl_jsonw_int(j, "version", r->ss.version);
		wl_jsonw_u64(j, "ttwu_count", r->ss.ttwu_count);
		wl_jsonw_u64(j, "ttwu_local", r->ss.ttwu_local);
		wl_jsonw_arr(j, "domains");
		for (d = 0; d < r->ss.ndomains; d++) {
			wl_jsonw_obj(j, NULL);
			wl_jsonw_int(j, "level", d);
			wl_jsonw_str(j, "name", r->ss.sd[d].name);
			wl_jsonw_u64(j, "ttwu_wake_remote",
				     r->ss.sd[d].wake_remote);
			wl_jsonw_u64(j, "ttwu_move_affine",
				     r->ss.sd[d].move_affine);
			wl_jsonw_u64(j, "ttwu_move_balance",
				     r->ss.sd[d].move_balance);
			wl_jsonw_obj_end(j);
		}
		wl_jsonw_arr_end(j);
	} else {
		wl_jsonw_str(j, "error", r->ss_ret == -2 ?
			    "unsupported /proc/schedstat version" :
			    "no readable /proc/schedstat");
	}
	wl_jsonw_obj_end(j);
}

/* Which path the data took: loopback, netns (veth) or remote (two hosts). */
/* How many of a profile's kernel symbols the table prints (and every sched one). */
#define WL_PROF_PRINT_TOP	10

/* --profile: perf's profile and counters of the window, or null. */
static void wl_profile_json(struct wl_jsonw *j, const struct wl_profile *p)
{
	int i;

	if (!p->dir[0]) {
		wl_jsonw_null(j, "profile");
		return;
	}
	wl_jsonw_obj(j, "profile");
	wl_jsonw_str(j, "perf", p->version);
	wl_jsonw_str(j, "event", p->event);
	wl_jsonw_int(j, "hz", WL_PROF_HZ);
	wl_jsonw_int(j, "samples", p->samples);
	wl_jsonw_str(j, "dir", p->dir);
	wl_jsonw_arr(j, "symbols");
	for (i = 0; i < p->nsym; i++) {
		wl_jsonw_obj(j, NULL);
		wl_jsonw_str(j, "symbol", p->sym[i].name);
		wl_jsonw_fix(j, "pct", p->sym[i].pct, 2);
		wl_jsonw_int(j, "samples", p->sym[i].samples);
		wl_jsonw_obj_end(j);
	}
	wl_jsonw_arr_end(j);
	wl_jsonw_obj(j, "stat");
	for (i = 0; i < WL_PSTAT_NR; i++) {
		if (p->have[i])
			wl_jsonw_num(j, wl_pstat_events[i], p->val[i]);
		else
			wl_jsonw_null(j, wl_pstat_events[i]);
	}
	if (p->ipc > 0)
		wl_jsonw_fix(j, "ipc", p->ipc, 3);
	else
		wl_jsonw_null(j, "ipc");
	wl_jsonw_obj_end(j);
	wl_jsonw_obj_end(j);
}

/* --profile: the top kernel symbols, the scheduler's, perf stat's counters. */
static void wl_profile_print(const struct wl_profile *p)
{
	int i, shown = 0;

	if (!p->dir[0])
		return;
	printf("# profile (perf %s, %s at %d Hz, %ld samples in the window):",
	       p->version, p->event, WL_PROF_HZ, p->samples);
	for (i = 0; i < p->nsym; i++)
		if (i < WL_PROF_PRINT_TOP || wl_prof_sched_symbol(p->sym[i].name)) {
			printf("%s %s %.2f%%", shown++ ? "," : "",
			       p->sym[i].name, p->sym[i].pct);
		}
	printf("%s\n", shown ? "" : " no kernel symbol");
	printf("# perf stat:");
	for (i = 0; i < WL_PSTAT_NR; i++) {
		if (p->have[i])
			printf(" %s %.0f", wl_pstat_events[i], p->val[i]);
		else
			printf(" %s missing", wl_pstat_events[i]);
	}
	if (p->ipc > 0)
		printf(" ipc %.3f", p->ipc);
	printf("\n# perf data: perf report -i %s/perf.data --kallsyms %s/kallsyms\n",
	       p->dir, p->dir);
}

static const char *wl_path(const struct wl_stream_run *run)
{
	return run->cfg.netns ? "netns" : run->cfg.remote ? "remote" :
	       "loopback";
}

static const char *wl_onoff(int v)
{
	return v < 0 ? "unknown" : v ? "on" : "off";
}

static void wl_path_json(const struct wl_stream_run *run,
			 struct wl_jsonw *j)
{
	int k;

	wl_jsonw_str(j, "path", wl_path(run));
	if (run->cfg.netns) {
		wl_jsonw_obj(j, "netns");
		wl_jsonw_str(j, "sender_ns", run->netns.snd);
		wl_jsonw_str(j, "receiver_ns", run->netns.rcv);
		wl_jsonw_str(j, "sender_addr", WL_NETNS_SND_ADDR);
		wl_jsonw_str(j, "receiver_addr", WL_NETNS_RCV_ADDR);
		wl_jsonw_str(j, "link", "veth");
		for (k = 0; k < WL_NR_OFFLOADS; k++)
			wl_jsonw_str(j, wl_offload_names[k],
				     wl_onoff(run->netns.offload[k]));
		wl_jsonw_str(j, "ip", run->netns.ip);
		wl_jsonw_obj_end(j);
	}
	if (run->cfg.remote) {
		wl_jsonw_obj(j, "remote");
		wl_jsonw_str(j, "server", run->peer);
		wl_jsonw_str(j, "here", run->cfg.receive ? "receivers" :
			     "senders");
		wl_jsonw_int(j, "protocol", WL_REMOTE_PROTO);
		wl_jsonw_obj_end(j);
	}
}

/* The table's line on the path, when it is not loopback. */
static void wl_path_line(const struct wl_stream_run *run)
{
	if (run->cfg.netns)
		printf("# path: veth %s (%s, namespace %s) -> %s (%s, namespace %s), gro %s tso %s gso %s\n",
		       WL_NETNS_SND_DEV, WL_NETNS_SND_ADDR, run->netns.snd,
		       WL_NETNS_RCV_DEV, WL_NETNS_RCV_ADDR, run->netns.rcv,
		       wl_onoff(run->netns.offload[WL_GRO]),
		       wl_onoff(run->netns.offload[WL_TSO]),
		       wl_onoff(run->netns.offload[WL_GSO]));
	if (run->cfg.remote)
		printf("# path: two hosts: the %s here, the %s on the server %s (its counters over the control connection; CPU, perf, schedstat and wakelab figures are this host's)\n",
		       run->cfg.receive ? "receivers" : "senders",
		       run->cfg.receive ? "senders" : "receivers", run->peer);
}

void wl_stream_print_json(const struct wl_stream_run *run,
			  const struct wl_result *r,
			  const struct wl_sample *a, const struct wl_sample *b)
{
	const struct wl_inst *in;
	struct wl_jsonw j;
	struct utsname u;
	int i, ev;

	uname(&u);
	wl_jsonw_init(&j, stdout);
	wl_jsonw_obj(&j, NULL);
	wl_jsonw_str(&j, "tool", "wl_stream");
	wl_jsonw_int(&j, "schema", WL_SCHEMA);
	wl_jsonw_str(&j, "workload", wl_workload_names[run->cfg.workload]);
	/* Which engine ran it: wl_stream's workers, or "netperf 2.7.0". */
	wl_jsonw_str(&j, "engine", run->engine);
	wl_path_json(run, &j);
	wl_jsonw_int(&j, "instances", run->cfg.instances);
	wl_jsonw_str(&j, "instances_spec", run->cfg.inst_spec);
	wl_jsonw_bool(&j, "threads", run->cfg.threads);
	wl_jsonw_str(&j, "pin", wl_pin_names[run->cfg.pin]);
	wl_jsonw_int(&j, "msg_size", run->cfg.msg_size);
	wl_jsonw_int(&j, "recv_size", run->cfg.recv_size);
	wl_jsonw_int(&j, "local_buf", run->cfg.sndbuf);
	wl_jsonw_int(&j, "remote_buf", run->cfg.rcvbuf);
	wl_jsonw_fix(&j, "duration_s", r->window, 3);
	wl_jsonw_fix(&j, "duration_requested_s", run->cfg.duration, 3);
	wl_jsonw_fix(&j, "warmup_s", run->cfg.warmup, 3);
	wl_jsonw_fix(&j, "first_data_s", r->first_data_s, 3);
	if (a->ctl_sleeps[1] >= 0 && b->ctl_sleeps[0] >= 0)
		wl_jsonw_int(&j, "controller_sleeps",
			     b->ctl_sleeps[0] - a->ctl_sleeps[1]);
	else
		wl_jsonw_null(&j, "controller_sleeps");
	wl_jsonw_int(&j, "controller_waits", b->ctl_waits[0] - a->ctl_waits[1]);
	wl_jsonw_bool(&j, "verify", run->cfg.verify);
	wl_jsonw_int(&j, "cpus", run->topo.ncpus);
	wl_jsonw_int(&j, "llcs", run->topo.nllc);
	wl_jsonw_str(&j, "kernel", u.release);
	wl_jsonw_str(&j, "unit", wl_unit(run));
	wl_jsonw_fix(&j, "aggregate", r->aggregate, 2);
	wl_jsonw_arr(&j, "per_instance");
	for (i = 0; i < run->cfg.instances; i++) {
		in = &run->sh->inst[i];
		wl_jsonw_obj(&j, NULL);
		wl_jsonw_int(&j, "id", i);
		wl_jsonw_fix(&j, "value", r->val[i], 2);
		if (run->cfg.workload == WL_UDP_STREAM) {
			wl_jsonw_fix(&j, "send_mbps", r->snd_mbps[i], 2);
			wl_jsonw_fix(&j, "loss_pct", r->loss[i], 3);
		}
		wl_jsonw_u64(&j, "sent_bytes", in->snd.bytes);
		wl_jsonw_u64(&j, "recv_bytes", in->rcv.bytes);
		wl_jsonw_u64(&j, "sent_msgs", in->snd.msgs);
		wl_jsonw_u64(&j, "recv_msgs", in->rcv.msgs);
		wl_jsonw_int(&j, "snd_pin", in->snd_pin);
		wl_jsonw_int(&j, "rcv_pin", in->rcv_pin);
		wl_jsonw_int(&j, "snd_cpu", in->snd.cpu);
		wl_jsonw_int(&j, "rcv_cpu", in->rcv.cpu);
		wl_jsonw_bool(&j, "stalled", r->stalled[i]);
		wl_jsonw_fix(&j, "max_gap_s", r->gap[i], 3);
		wl_jsonw_obj_end(&j);
	}
	wl_jsonw_arr_end(&j);
	wl_jsonw_str(&j, "integrity", r->integrity ? "ok" : "fail");
	wl_jsonw_int(&j, "stalled_instances", r->nstalled);
	if (run->cfg.workload == WL_UDP_STREAM) {
		wl_jsonw_obj(&j, "udp");
		wl_jsonw_fix(&j, "send_mbps", r->udp_send, 2);
		wl_jsonw_fix(&j, "recv_mbps", r->aggregate, 2);
		wl_jsonw_fix(&j, "loss_pct", r->udp_loss, 3);
		wl_jsonw_obj_end(&j);
	}
	if (wl_workload_rr(run->cfg.workload)) {
		wl_jsonw_obj(&j, "rr");
		wl_jsonw_fix(&j, "tps", r->aggregate, 2);
		wl_jsonw_fix(&j, "p50_us", wl_us(wl_hist_pct(&r->hist, 50)), 2);
		wl_jsonw_fix(&j, "p90_us", wl_us(wl_hist_pct(&r->hist, 90)), 2);
		wl_jsonw_fix(&j, "p99_us", wl_us(wl_hist_pct(&r->hist, 99)), 2);
		wl_jsonw_u64(&j, "samples", r->hist.count);
		wl_jsonw_obj_end(&j);
	}
	if (r->cpu_ok) {
		wl_jsonw_obj(&j, "cpu");
		wl_jsonw_fix(&j, "usr", r->cpu.usr, 2);
		wl_jsonw_fix(&j, "sys", r->cpu.sys, 2);
		wl_jsonw_fix(&j, "irq", r->cpu.irq, 2);
		wl_jsonw_fix(&j, "softirq", r->cpu.softirq, 2);
		wl_jsonw_fix(&j, "idle", r->cpu.idle, 2);
		wl_jsonw_fix(&j, "steal", r->cpu.steal, 2);
		wl_jsonw_obj_end(&j);
	} else {
		wl_jsonw_null(&j, "cpu");
	}
	wl_jsonw_num(&j, "service_demand_us_per_kb", r->sd_kb);
	if (wl_workload_rr(run->cfg.workload))
		wl_jsonw_num(&j, "service_demand_us_per_tran", r->sd_tran);
	wl_jsonw_obj(&j, "perf");
	for (ev = 0; ev < WL_PERF_NR; ev++) {
		if (r->perf_ok[ev])
			wl_jsonw_u64(&j, wl_perf_names[ev], r->perf[ev]);
		else
			wl_jsonw_null(&j, wl_perf_names[ev]);
	}
	wl_jsonw_obj_end(&j);
	if (wl_workload_sctp(run->cfg.workload)) {
		if (r->sctp_ok) {
			wl_jsonw_obj(&j, "sctp_mib");
			for (ev = 0; ev < (int)WL_SCTP_MIB_NR; ev++)
				wl_jsonw_u64(&j, wl_sctp_mib[ev], r->sctp[ev]);
			wl_jsonw_obj_end(&j);
		} else {
			wl_jsonw_null(&j, "sctp_mib");
		}
	}
	wl_stream_json_schedstat(&j, r, run->schedstats);
	wl_wakelab_json(&j, &run->wlf, &a->wl, &b->wl);
	wl_profile_json(&j, &run->prof);
	wl_jsonw_obj_end(&j);
	fputc('\n', stdout);
}

void wl_stream_print_table(const struct wl_stream_run *run,
			   const struct wl_result *r,
			   const struct wl_sample *a,
			   const struct wl_sample *b)
{
	const struct wl_inst *in;
	int i, ev, d;

	printf("# wl_stream %s: %d instance%s (%s, pin %s), msg %ld B, recv %ld B, %.2f s window after %.2f s warm-up, %d CPUs, %d LLC%s\n",
	       wl_workload_names[run->cfg.workload], run->cfg.instances,
	       run->cfg.instances == 1 ? "" : "s",
	       run->cfg.threads ? "threads" : "processes",
	       wl_pin_names[run->cfg.pin], run->cfg.msg_size,
	       run->cfg.recv_size, r->window, run->cfg.warmup,
	       run->topo.ncpus, run->topo.nllc, run->topo.nllc == 1 ? "" : "s");
	wl_path_line(run);
	if (run->cfg.netperf)
		printf("# engine: %s %s and netserver (window from its interim records)\n",
		       run->engine, wl_workload_upper[run->cfg.workload]);
	if (run->cfg.workload == WL_UDP_STREAM)
		printf("%5s %7s %7s %14s %14s %8s %8s\n", "inst", "snd_cpu",
		       "rcv_cpu", "send Mbit/s", "recv Mbit/s", "loss%",
		       "max_gap");
	else
		printf("%5s %7s %7s %14s %8s\n", "inst", "snd_cpu", "rcv_cpu",
		       wl_unit(run), "max_gap");
	for (i = 0; i < run->cfg.instances; i++) {
		in = &run->sh->inst[i];
		printf("%5d %7d %7d", i, in->snd.cpu, in->rcv.cpu);
		if (run->cfg.workload == WL_UDP_STREAM)
			printf(" %14.2f %14.2f %8.3f", r->snd_mbps[i],
			       r->val[i], r->loss[i]);
		else
			printf(" %14.2f", r->val[i]);
		printf(" %7.3fs%s\n", r->gap[i], r->stalled[i] ? " STALLED" : "");
	}
	printf("# aggregate %.2f %s, per instance %.2f, integrity %s, %d stalled, all instances moving %.3f s after the start\n",
	       r->aggregate, wl_unit(run), r->aggregate / run->cfg.instances,
	       r->integrity ? "ok" : "FAIL", r->nstalled, r->first_data_s);
	if (run->cfg.workload == WL_UDP_STREAM)
		printf("# udp: send %.2f Mbit/s, recv %.2f Mbit/s, loss %.3f%%\n",
		       r->udp_send, r->aggregate, r->udp_loss);
	if (wl_workload_rr(run->cfg.workload))
		printf("# rr: %.2f trans/s, latency p50 %.2f us, p90 %.2f us, p99 %.2f us (%llu samples)\n",
		       r->aggregate, wl_us(wl_hist_pct(&r->hist, 50)),
		       wl_us(wl_hist_pct(&r->hist, 90)),
		       wl_us(wl_hist_pct(&r->hist, 99)),
		       (unsigned long long)r->hist.count);
	if (r->cpu_ok)
		printf("# cpu: usr %.1f%% sys %.1f%% irq %.1f%% softirq %.1f%% idle %.1f%%, service demand %.3f us/KB\n",
		       r->cpu.usr, r->cpu.sys, r->cpu.irq, r->cpu.softirq,
		       r->cpu.idle, r->sd_kb);
	if (r->sctp_ok) {
		printf("# sctp (start to window end or end of pause):");
		for (ev = 0; ev < (int)WL_SCTP_MIB_NR; ev++)
			printf(" %s %llu", wl_sctp_mib[ev] + 4, r->sctp[ev]);
		printf("\n");
	}
	printf("# perf:");
	for (ev = 0; ev < WL_PERF_NR; ev++) {
		if (r->perf_ok[ev])
			printf(" %s %llu", wl_perf_names[ev], r->perf[ev]);
		else
			printf(" %s n/a", wl_perf_names[ev]);
	}
	printf("\n");
	if (r->ss_ret) {
		printf("# schedstat: %s\n", r->ss_ret == -2 ?
		       "unsupported /proc/schedstat version" :
		       "no /proc/schedstat");
	} else {
		printf("# schedstat v%d%s: ttwu %llu local %llu", r->ss.version,
		       run->schedstats == 1 ? "" :
		       " (OFF: kernel.sched_schedstats=0, counters do not move)",
		       r->ss.ttwu_count, r->ss.ttwu_local);
		for (d = 0; d < r->ss.ndomains; d++)
			printf("; domain%d%s%s wake_remote %llu move_affine %llu",
			       d, r->ss.sd[d].name[0] ? " " : "",
			       r->ss.sd[d].name, r->ss.sd[d].wake_remote,
			       r->ss.sd[d].move_affine);
		printf("\n");
	}
	wl_wakelab_print(stdout, &run->wlf, &a->wl, &b->wl);
	wl_profile_print(&run->prof);
}

void wl_stream_print_brief(const struct wl_stream_run *run,
			   const struct wl_result *r)
{
	printf("%s-%d : Avg: %.1f\n", wl_workload_upper[run->cfg.workload],
	       run->cfg.instances, r->aggregate / run->cfg.instances);
}

int wl_stream_result_alloc(const struct wl_stream_run *run,
			   struct wl_result *r)
{
	size_t n = run->cfg.instances;
	/* The per-instance figures, in one block. */
	double *v = calloc(4 * n, sizeof(*v));

	memset(r, 0, sizeof(*r));
	r->stalled = calloc(n, sizeof(bool));
	if (!v || !r->stalled)
		return -1;
	r->val = v;
	r->snd_mbps = v + n;
	r->loss = v + 2 * n;
	r->gap = v + 3 * n;
	return 0;
}

int wl_stream_report(const struct wl_stream_run *run,
		     const struct wl_sample *a, const struct wl_sample *b,
		     struct wl_result *r)
{
	wl_stream_compute(run, a, b, r);
	if (run->cfg.json)
		wl_stream_print_json(run, r, a, b);
	else if (run->cfg.brief)
		wl_stream_print_brief(run, r);
	else
		wl_stream_print_table(run, r, a, b);
	fflush(stdout);
	return r->integrity ? 0 : WL_EXIT_FAIL;
}
