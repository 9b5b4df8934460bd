// SPDX-License-Identifier: GPL-2.0
/* wl_stream --netns: see wl/stream/netns.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wl/core/proc.h"
#include "wl/stream/cfg.h"
#include "wl/stream/netns.h"

#define WL_NETNS_DIR	"/run/netns"
#define WL_NETNS_NAME	"wl_stream-%d-%s"

struct wl_netns_info wl_netns;

static int wl_ns_fd[3] = { -1, -1, -1 };
static pid_t wl_ns_owner;
static bool wl_ns_made[2];

/* ethtool's get/set command of each enum wl_offload_kind. */
static const unsigned int wl_eth_get[WL_NR_OFFLOADS] = {
	ETHTOOL_GGRO, ETHTOOL_GTSO, ETHTOOL_GGSO,
};

static const unsigned int wl_eth_set[WL_NR_OFFLOADS] = {
	ETHTOOL_SGRO, ETHTOOL_STSO, ETHTOOL_SGSO,
};

/*
 * Run ip with @argv (argv[0] is "ip"), its output (stdout and stderr) into
 * @out; the exit status, or -1 when it could not run.
 */
static int wl_ip(char *const argv[], char *out, size_t len)
{
	int ret = wl_capture("ip", argv, out, len, 0);

	if (len)
		out[strcspn(out, "\n")] = '\0';
	return ret;
}

/* ip with the words of @fmt; 0, or -1 with what ip said in @why. */
static int wl_ipf(char *why, size_t len, const char *fmt, ...)
{
	char line[256], cmd[256], out[256], *argv[24], *save = NULL, *w;
	va_list ap;
	int n = 0;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	strcpy(cmd, line);
	argv[n++] = "ip";
	for (w = strtok_r(cmd, " ", &save); w && n < 23;
	     w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n] = NULL;
	if (!wl_ip(argv, out, sizeof(out)))
		return 0;
	snprintf(why, len, "--netns: 'ip %s' failed: %s", line,
		 out[0] ? out : "no output");
	return -1;
}

/* The ip in PATH must be iproute2's (busybox's lacks netns and veth). */
static int wl_ip_check(char *why, size_t len)
{
	char *argv[] = { "ip", "-V", NULL };
	int r = wl_ip(argv, wl_netns.ip, sizeof(wl_netns.ip));

	if (r == 127 || r < 0) {
		snprintf(why, len, "--netns needs iproute2's ip in PATH: %s",
			 wl_netns.ip[0] ? wl_netns.ip : "cannot run it");
		return -1;
	}
	if (!strstr(wl_netns.ip, "iproute2")) {
		snprintf(why, len,
			 "--netns needs iproute2's ip; the ip in PATH is not (ip -V: '%s')",
			 wl_netns.ip);
		return -1;
	}
	return 0;
}

/* Delete namespaces named after wl_stream runs that no longer exist. */
static void wl_netns_reap_stale(void)
{
	char what[8], why[256];
	struct dirent *d;
	DIR *dir;
	int pid;

	dir = opendir(WL_NETNS_DIR);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (sscanf(d->d_name, "wl_stream-%d-%7s", &pid, what) != 2 ||
		    pid <= 0 || (kill(pid, 0) && errno != ESRCH) ||
		    !kill(pid, 0))
			continue;
		if (!wl_ipf(why, sizeof(why), "netns del %s", d->d_name))
			fprintf(stderr, "wl_stream: removed namespace %s of a run that is gone\n",
				d->d_name);
	}
	closedir(dir);
}

/* The ethtool value @cmd of @dev in the current namespace; -1 on error. */
static int wl_ethtool(const char *dev, unsigned int cmd, int set)
{
	struct ethtool_value ev = { .cmd = cmd, .data = set > 0 };
	struct ifreq ifr;
	int fd, r;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	ifr.ifr_data = (void *)&ev;
	r = ioctl(fd, SIOCETHTOOL, &ifr);
	close(fd);
	return r ? -1 : (int)ev.data;
}

/*
 * Set (@v >= 0) and read back offload @k on both ends; the report shows
 * the end where it acts: GRO the receiving one, TSO and GSO the sending.
 */
static int wl_netns_offload(int k, int v, char *why, size_t len)
{
	static const char * const dev[] = { WL_NETNS_SND_DEV, WL_NETNS_RCV_DEV };
	int side, got[2];

	for (side = 0; side < 2; side++) {
		if (wl_netns_enter(side ? WL_NS_RCV : WL_NS_SND)) {
			snprintf(why, len, "--netns: setns: %s", strerror(errno));
			wl_netns_enter(WL_NS_HOME);
			return -1;
		}
		if (v != WL_OFF_KEEP &&
		    wl_ethtool(dev[side], wl_eth_set[k], v) < 0) {
			snprintf(why, len, "--netns: cannot turn %s %s on %s: %s",
				 wl_offload_names[k], v ? "on" : "off", dev[side],
				 strerror(errno));
			wl_netns_enter(WL_NS_HOME);
			return -1;
		}
		got[side] = wl_ethtool(dev[side], wl_eth_get[k], -1);
	}
	if (wl_netns_enter(WL_NS_HOME)) {
		snprintf(why, len, "--netns: setns: %s", strerror(errno));
		return -1;
	}
	for (side = 0; side < 2; side++)
		if (v != WL_OFF_KEEP && got[side] != v) {
			snprintf(why, len, "--netns: %s stays %s on %s",
				 wl_offload_names[k], got[side] ? "on" : "off",
				 dev[side]);
			return -1;
		}
	wl_netns.offload[k] = got[k == WL_GRO];
	return 0;
}

static int wl_netns_open(enum wl_ns ns, const char *name, char *why,
			 size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), WL_NETNS_DIR "/%s", name);
	wl_ns_fd[ns] = open(path, O_RDONLY | O_CLOEXEC);
	if (wl_ns_fd[ns] < 0) {
		snprintf(why, len, "--netns: open %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int wl_netns_setup(const int *offload, char *why, size_t len)
{
	const char *s = wl_netns.snd, *r = wl_netns.rcv;
	int k;

	if (wl_ip_check(why, len))
		return -2;
	wl_netns_reap_stale();
	wl_ns_owner = getpid();
	snprintf(wl_netns.snd, sizeof(wl_netns.snd), WL_NETNS_NAME,
		 (int)wl_ns_owner, "snd");
	snprintf(wl_netns.rcv, sizeof(wl_netns.rcv), WL_NETNS_NAME,
		 (int)wl_ns_owner, "rcv");
	wl_ns_fd[WL_NS_HOME] = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (wl_ns_fd[WL_NS_HOME] < 0) {
		snprintf(why, len, "--netns: open /proc/self/ns/net: %s",
			 strerror(errno));
		return -1;
	}
	if (wl_ipf(why, len, "netns add %s", s))
		goto fail;
	wl_ns_made[0] = true;
	if (wl_ipf(why, len, "netns add %s", r))
		goto fail;
	wl_ns_made[1] = true;
	if (wl_ipf(why, len, "link add %s netns %s type veth peer name %s netns %s",
		   WL_NETNS_SND_DEV, s, WL_NETNS_RCV_DEV, r) ||
	    wl_ipf(why, len, "-n %s addr add %s/%d dev %s", s,
		   WL_NETNS_SND_ADDR, WL_NETNS_PREFIX, WL_NETNS_SND_DEV) ||
	    wl_ipf(why, len, "-n %s addr add %s/%d dev %s", r,
		   WL_NETNS_RCV_ADDR, WL_NETNS_PREFIX, WL_NETNS_RCV_DEV) ||
	    wl_ipf(why, len, "-n %s link set lo up", s) ||
	    wl_ipf(why, len, "-n %s link set lo up", r) ||
	    wl_ipf(why, len, "-n %s link set %s up", s, WL_NETNS_SND_DEV) ||
	    wl_ipf(why, len, "-n %s link set %s up", r, WL_NETNS_RCV_DEV))
		goto fail;
	if (wl_netns_open(WL_NS_SND, s, why, len) ||
	    wl_netns_open(WL_NS_RCV, r, why, len))
		goto fail;
	for (k = 0; k < WL_NR_OFFLOADS; k++)
		if (wl_netns_offload(k, offload[k], why, len))
			goto fail;
	return 0;
fail:
	wl_netns_cleanup();
	return -1;
}

int wl_netns_enter(enum wl_ns ns)
{
	if (wl_ns_fd[ns] < 0) {
		errno = EBADF;
		return -1;
	}
	return setns(wl_ns_fd[ns], CLONE_NEWNET);
}

void wl_netns_cleanup(void)
{
	const char *name[2] = { wl_netns.snd, wl_netns.rcv };
	char why[256];
	int k;

	if (!wl_ns_owner || getpid() != wl_ns_owner)
		return;
	for (k = 0; k < 3; k++) {
		if (wl_ns_fd[k] >= 0)
			close(wl_ns_fd[k]);
		wl_ns_fd[k] = -1;
	}
	for (k = 0; k < 2; k++) {
		if (!wl_ns_made[k])
			continue;
		if (wl_ipf(why, sizeof(why), "netns del %s", name[k]))
			fprintf(stderr, "wl_stream: %s\n", why);
		wl_ns_made[k] = false;
	}
}
