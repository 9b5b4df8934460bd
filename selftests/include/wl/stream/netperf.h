/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wl_stream's second engine (-w netperf:TEST): Debian's netperf and
 * netserver run the workload, in wl_stream's design -- one netserver, N
 * netperf processes released together, the same pinning (netperf -T), the
 * same warm-up and common window, the same counters sampled at the window
 * edges -- and the run is reported in wl_stream's table and JSON schema.
 * The window's throughput comes from netperf's demo-mode interim records
 * (-D), each prorated by how much of its interval lies inside the window;
 * UDP_STREAM's received rate, which netperf reports only for the whole
 * run, is the kernel's Udp InDatagrams delta over the window times the
 * message size.  The engine's name and version ("netperf 2.7.0") go into
 * the run state (wl_srun.engine) for the report.
 */
#ifndef WL_STREAM_NETPERF_H
#define WL_STREAM_NETPERF_H

#include <stdbool.h>
#include <sys/types.h>

/* Seconds between netperf's interim records (its -D, wall-clock based). */
#define WL_NETPERF_INTERVAL	0.25

/**
 * struct wl_np_rec - one interim record of netperf's demo mode
 * @value:	the rate: 10^3 bit/s (-f k) or transactions/s
 * @secs:	the interval it covers, seconds
 * @end:	the interval's end, CLOCK_REALTIME seconds
 */
struct wl_np_rec {
	double value;
	double secs;
	double end;
};

/*
 * Parse one line of netperf's output: "Interim result: 24280010.21
 * 10^3bits/s over 0.500 seconds ending at 1796409297.032" (or "Trans/s").
 * 0 and @r filled, or -1 when the line is no interim record.
 */
int wl_np_parse_interim(const char *line, struct wl_np_rec *r);

/* Seconds of @r's interval inside [@a, @b] (CLOCK_REALTIME seconds). */
double wl_np_overlap(const struct wl_np_rec *r, double a, double b);

/*
 * Whether the TCP listeners on @port (/proc/net/tcp, tcp6) are process
 * @pid's own sockets: 1 they all are (at least one), 0 none listens, -1
 * one is another's.  netserver is known by it, never by a connect().
 */
int wl_np_port_owner(int port, pid_t pid);

/* The whole netperf run from main(): returns wl_stream's exit status. */
int wl_netperf_main(void);

#endif /* WL_STREAM_NETPERF_H */
