/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The environment a wl_compare result was measured in: kernel release,
 * online CPUs, sockets and last-level caches (from sysfs), the sched
 * features as found, the wakelab module's caps and policy files, and the
 * execution mode -- TCG or KVM guest (from wakelab.accel= on the kernel
 * command line, which scripts/vm passes), another VM (cpuinfo's hypervisor
 * flag, DMI vendor), or a bare host -- because under TCG throughput is the
 * emulator's while the placement decisions are still the kernel's own.
 * Header-only; libc only.
 */
#ifndef WL_ENV_H
#define WL_ENV_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "wakelab_util.h"

#define WL_ENV_MAX_LLC	64
#define WL_ENV_TEXT	4096

/**
 * struct wl_env - where the comparison ran
 * @release:	uname -r
 * @machine:	uname -m
 * @cpus:	online CPUs
 * @sockets:	distinct physical_package_id values
 * @nllc:	number of last-level caches
 * @llc:	CPU list of each LLC ("0-1")
 * @llc_level:	cache level taken as the LLC (3, or 2 when there is no L3);
 *		0 when sysfs has no cache information (then: packages)
 * @mode:	"TCG", "KVM", "VM" (other hypervisor) or "bare host"
 * @mode_how:	how the mode was found
 * @features:	/sys/kernel/debug/sched/features before any change
 * @module:	wakelab debugfs directory present
 * @caps:	wakelab/caps text ("" when absent)
 * @policy:	wakelab/policy text ("" when absent)
 */
struct wl_env {
	char	release[72];
	char	machine[72];
	int	cpus;
	int	sockets;
	int	nllc;
	char	llc[WL_ENV_MAX_LLC][64];
	int	llc_level;
	char	mode[16];
	char	mode_how[128];
	char	features[WL_ENV_TEXT];
	int	module;
	char	caps[WL_ENV_TEXT];
	char	policy[512];
};

static inline void wl_env_chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

/* LLCs: distinct shared_cpu_list of the highest cache level per CPU. */
static inline void wl_env_llcs(struct wl_env *e)
{
	char p[160], buf[64], best[64];
	int cpu, idx, lvl, bestlvl, i;

	e->nllc = 0;
	e->llc_level = 0;
	for (cpu = 0; cpu < 4096; cpu++) {
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d", cpu);
		if (access(p, F_OK))
			break;
		bestlvl = 0;
		for (idx = 0; idx < 8; idx++) {
			snprintf(p, sizeof(p),
				 "/sys/devices/system/cpu/cpu%d/cache/index%d/level",
				 cpu, idx);
			if (wl_read_file(p, buf, sizeof(buf)) <= 0)
				break;
			lvl = atoi(buf);
			if (lvl <= bestlvl)
				continue;
			snprintf(p, sizeof(p),
				 "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
				 cpu, idx);
			if (wl_read_file(p, best, sizeof(best)) <= 0)
				continue;
			bestlvl = lvl;
		}
		if (!bestlvl)
			continue;
		wl_env_chomp(best);
		e->llc_level = bestlvl;
		for (i = 0; i < e->nllc; i++)
			if (!strcmp(e->llc[i], best))
				break;
		if (i == e->nllc && e->nllc < WL_ENV_MAX_LLC)
			strcpy(e->llc[e->nllc++], best);
	}
	if (e->nllc)
		return;
	/* No cache information (some VMs): one group per package. */
	for (cpu = 0; cpu < 4096; cpu++) {
		snprintf(p, sizeof(p),
			 "/sys/devices/system/cpu/cpu%d/topology/package_cpus_list",
			 cpu);
		if (wl_read_file(p, best, sizeof(best)) <= 0) {
			snprintf(p, sizeof(p),
				 "/sys/devices/system/cpu/cpu%d/topology/core_siblings_list",
				 cpu);
			if (wl_read_file(p, best, sizeof(best)) <= 0)
				break;
		}
		wl_env_chomp(best);
		for (i = 0; i < e->nllc; i++)
			if (!strcmp(e->llc[i], best))
				break;
		if (i == e->nllc && e->nllc < WL_ENV_MAX_LLC)
			strcpy(e->llc[e->nllc++], best);
	}
}

static inline int wl_env_sockets(void)
{
	int ids[256], n = 0, cpu, id, i;
	char p[128], buf[32];

	for (cpu = 0; cpu < 4096; cpu++) {
		snprintf(p, sizeof(p),
			 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
			 cpu);
		if (wl_read_file(p, buf, sizeof(buf)) <= 0) {
			snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d",
				 cpu);
			if (access(p, F_OK))
				break;
			continue;
		}
		id = atoi(buf);
		for (i = 0; i < n; i++)
			if (ids[i] == id)
				break;
		if (i == n && n < 256)
			ids[n++] = id;
	}
	return n;
}

static inline void wl_env_mode(struct wl_env *e)
{
	static char text[65536];
	char vendor[128] = "";
	const char *a;
	int hv = 0;

	if (wl_read_file("/proc/cmdline", text, sizeof(text)) > 0) {
		a = strstr(text, "wakelab.accel=");
		if (a && (a == text || a[-1] == ' ')) {
			int len = strcspn(a, " \n");

			/* tcg-single, tcg-multi (scripts/vm), tcg or kvm. */
			snprintf(e->mode_how, sizeof(e->mode_how),
				 "%.*s on the kernel command line", len, a);
			a += strlen("wakelab.accel=");
			if (!strncmp(a, "tcg", 3)) {
				strcpy(e->mode, "TCG");
				return;
			}
			if (!strncmp(a, "kvm", 3)) {
				strcpy(e->mode, "KVM");
				return;
			}
		}
	}
	if (wl_read_file("/proc/cpuinfo", text, sizeof(text)) > 0)
		hv = strstr(text, " hypervisor") != NULL;
	wl_read_file("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	wl_env_chomp(vendor);
	if (hv || !strcmp(vendor, "QEMU")) {
		strcpy(e->mode, "VM");
		snprintf(e->mode_how, sizeof(e->mode_how),
			 "hypervisor flag%s%.40s, accelerator unknown",
			 vendor[0] ? ", DMI vendor " : "", vendor);
		return;
	}
	strcpy(e->mode, "bare host");
	strcpy(e->mode_how, "no hypervisor flag in /proc/cpuinfo");
}

/* Collect everything; debugfs paths below @root. */
static inline void wl_env_collect(struct wl_env *e, const char *root)
{
	char p[256];
	struct utsname u;

	memset(e, 0, sizeof(*e));
	if (!uname(&u)) {
		snprintf(e->release, sizeof(e->release), "%.64s", u.release);
		snprintf(e->machine, sizeof(e->machine), "%.64s", u.machine);
	}
	e->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	e->sockets = wl_env_sockets();
	wl_env_llcs(e);
	wl_env_mode(e);
	snprintf(p, sizeof(p), "%s/sched/features", root);
	if (wl_read_file(p, e->features, sizeof(e->features)) < 0)
		e->features[0] = '\0';
	wl_env_chomp(e->features);
	snprintf(p, sizeof(p), "%s/wakelab", root);
	e->module = access(p, F_OK) == 0;
	snprintf(p, sizeof(p), "%s/wakelab/caps", root);
	if (wl_read_file(p, e->caps, sizeof(e->caps)) < 0)
		e->caps[0] = '\0';
	snprintf(p, sizeof(p), "%s/wakelab/policy", root);
	if (wl_read_file(p, e->policy, sizeof(e->policy)) < 0)
		e->policy[0] = '\0';
	wl_env_chomp(e->policy);
}

#endif /* WL_ENV_H */
