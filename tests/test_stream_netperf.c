// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for wl_stream's netperf engine (lib/stream/netperf.c):
 * netperf's demo-mode interim records as Debian's netperf 2.7.0 prints
 * them (streams in 10^3 bit/s, TCP_RR in transactions/s) and the lines
 * that are not records, the prorating of a record's interval against the
 * window, and the netperf:TEST forms of -w with the options netperf cannot
 * honour; a listener on netserver's port is known by its owner.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "kselftest.h"
#include "wl/stream/netperf.h"
#include "wl/stream/opts.h"

static void test_parse(void)
{
	struct wl_np_rec r;
	int ok;

	ok = !wl_np_parse_interim("Interim result: 24280010.21 10^3bits/s over 0.500 seconds ending at 1796409297.032",
				  &r) &&
	     fabs(r.value - 24280010.21) < 1e-6 && fabs(r.secs - 0.5) < 1e-9 &&
	     fabs(r.end - 1796409297.032) < 1e-6;
	ksft_test_result(ok, "stream interim record\n");
	ok = !wl_np_parse_interim("Interim result: 69855.90 Trans/s over 0.248 seconds ending at 1796409156.942\n",
				  &r) &&
	     fabs(r.value - 69855.90) < 1e-6 && fabs(r.secs - 0.248) < 1e-9;
	ksft_test_result(ok, "TCP_RR interim record\n");
	ok = wl_np_parse_interim("131072  16384  16384    2.00     25160812.78   ", &r) &&
	     wl_np_parse_interim("The test you requested (SCTP_STREAM) is unknown to this netperf.", &r) &&
	     wl_np_parse_interim("Interim result: 1.0 furlongs/s over 0.5 seconds ending at 1.0", &r) &&
	     wl_np_parse_interim("Interim result: 1.0 Trans/s over 0 seconds ending at 1.0", &r) &&
	     wl_np_parse_interim("Interim result: nan Trans/s over 0.5 seconds ending at 1.0", &r) &&
	     wl_np_parse_interim("Interim result: 1.0 Trans/s over 0.5 seconds", &r) &&
	     wl_np_parse_interim("", &r);
	ksft_test_result(ok, "final results, errors and malformed records are no records\n");
}

static void test_overlap(void)
{
	struct wl_np_rec r = { .value = 1, .secs = 0.5, .end = 10.0 };

	ksft_test_result(fabs(wl_np_overlap(&r, 9.0, 11.0) - 0.5) < 1e-9,
			 "a record inside the window counts whole\n");
	ksft_test_result(fabs(wl_np_overlap(&r, 9.8, 11.0) - 0.2) < 1e-9 &&
			 fabs(wl_np_overlap(&r, 9.0, 9.6) - 0.1) < 1e-9,
			 "a record across an edge counts by its share inside\n");
	ksft_test_result(wl_np_overlap(&r, 10.0, 11.0) == 0 &&
			 wl_np_overlap(&r, 8.0, 9.5) == 0,
			 "a record outside the window counts nothing\n");
}

static int parse(const char *a, const char *b, struct wl_cfg *c, char *err)
{
	char *argv[] = { "wl_stream", (char *)a, (char *)b, NULL };

	return wl_parse_opts(b ? 3 : 2, argv, 4, c, err, 256);
}

static void test_opts(void)
{
	static const char * const bad[] = {
		"netperf:FOO", "netperf:", "netperf:tcp_stream",
		"netperf:SCTP_STREAM_MANY", "netperf:TIPC_STREAM",
	};
	static const char * const refused[] = {
		"-T", "--verify", "--netns", "--remote=127.0.0.1",
	};
	struct wl_cfg c;
	char err[256], opt[64];
	unsigned int i;
	int ok;

	ok = !parse("-wnetperf:TCP_STREAM", NULL, &c, err) && c.netperf &&
	     c.workload == WL_TCP_STREAM && c.msg_size == 16384 &&
	     c.recv_size == 131072;
	ok = ok && !parse("-wnetperf:UDP_STREAM", NULL, &c, err) &&
	     c.netperf && c.workload == WL_UDP_STREAM && c.msg_size == 1472;
	ok = ok && !parse("-wnetperf:TCP_RR", NULL, &c, err) && c.netperf &&
	     c.workload == WL_TCP_RR && c.msg_size == 1;
	ok = ok && !parse("-wnetperf:SCTP_STREAM", NULL, &c, err) &&
	     c.netperf && c.workload == WL_SCTP_STREAM;
	ok = ok && !parse("-wtcp_stream", NULL, &c, err) && !c.netperf;
	ksft_test_result(ok, "netperf:TEST forms map to the workloads (%s)\n", err);
	ok = wl_parse_workload("netperf:TCP_RR") == WL_TCP_RR &&
	     wl_workload_netperf("netperf:TCP_RR") &&
	     !wl_workload_netperf("tcp_rr");
	ksft_test_result(ok, "wl_parse_workload takes netperf:TEST (wl_compare -w)\n");
	ok = 1;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(opt, sizeof(opt), "-w%s", bad[i]);
		if (parse(opt, NULL, &c, err) != -1 || !strstr(err, "netperf")) {
			ok = 0;
			ksft_print_msg("'%s': %s\n", bad[i], err);
		}
	}
	ksft_test_result(ok, "unknown netperf tests are refused\n");
	ok = 1;
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (parse("-wnetperf:TCP_STREAM", refused[i], &c, err) != -1 ||
		    !strstr(err, "netperf")) {
			ok = 0;
			ksft_print_msg("'%s': %s\n", refused[i], err);
		}
	ksft_test_result(ok, "options netperf cannot honour are refused\n");
}

/*
 * netserver is known by its listening socket being its own (its
 * /proc/PID/fd), never by something accepting on the port: a listener of
 * this process is its own, and not another's (the parent's).
 */
static void test_port_owner(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	int fd, port, mine, other, none;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(fd, (struct sockaddr *)&a, &alen) || listen(fd, 1)) {
		ksft_test_result_fail("a loopback listener: %s\n", strerror(errno));
		return;
	}
	port = ntohs(a.sin_port);
	mine = wl_np_port_owner(port, getpid());
	other = wl_np_port_owner(port, getppid());
	close(fd);
	none = wl_np_port_owner(port, getpid());
	ksft_test_result(mine == 1 && other == -1 && none == 0,
			 "port %d: this process's listener is its own (%d), not its parent's (%d); closed, none (%d)\n",
			 port, mine, other, none);
}

int main(void)
{
	ksft_print_header();
	ksft_set_plan(11);
	test_parse();
	test_overlap();
	test_opts();
	test_port_owner();
	ksft_finished();
}
