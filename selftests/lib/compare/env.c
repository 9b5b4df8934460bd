// SPDX-License-Identifier: GPL-2.0
/* The environment of a comparison: see wl/compare/env.h. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "wl/compare/env.h"
#include "wl/core/file.h"
#include "wl/kernel/topo.h"

static void wl_env_chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

/* LLCs: the groups of wl/kernel/topo.h, each as a CPU list. */
static void wl_env_llcs(struct wl_env *e)
{
	static struct wl_topo t;
	int g;

	e->nllc = 0;
	e->llc_level = 0;
	if (wl_topo_load(WL_CPU_SYSFS, e->cpus, &t))
		return;
	e->llc_level = t.llc_level;
	for (g = 0; g < t.nllc && g < WL_ENV_MAX_LLC; g++)
		wl_topo_llc_list(&t, g, e->llc[g], sizeof(e->llc[g]));
	e->nllc = g;
}

static int wl_env_sockets(void)
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

/*
 * The hypervisor by its CPUID signature (leaf 0x40000000), as the guest
 * kernel's own detection reads it: true when it is one known here.
 */
static bool wl_env_hypervisor(struct wl_env *e)
{
#if defined(__x86_64__) || defined(__i386__)
	static const struct {
		const char *sig, *mode;
	} known[] = {
		{ "KVMKVMKVM",		"KVM guest" },
		{ "TCGTCGTCGTCG",	"TCG" },
		{ "Microsoft Hv",	"Hyper-V guest" },
		{ "VMwareVMware",	"VMware guest" },
		{ "XenVMMXenVMM",	"Xen guest" },
		{ "ACRNACRNACRN",	"ACRN guest" },
		{ "bhyve bhyve ",	"bhyve guest" },
	};
	unsigned int a, r[3];
	char sig[13];
	size_t i;

	__cpuid(0x40000000, a, r[0], r[1], r[2]);
	memcpy(sig, r, 12);
	sig[12] = '\0';
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(sig, known[i].sig)) {
			snprintf(e->mode, sizeof(e->mode), "%s", known[i].mode);
			snprintf(e->mode_how, sizeof(e->mode_how),
				 "CPUID hypervisor signature \"%s\"", sig);
			return true;
		}
#endif
	return false;
}

static void wl_env_mode(struct wl_env *e)
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
	if (hv && wl_env_hypervisor(e))
		return;
	if (hv || !strcmp(vendor, "QEMU")) {
		strcpy(e->mode, "VM");
		snprintf(e->mode_how, sizeof(e->mode_how),
			 "hypervisor flag%s%.40s, hypervisor unknown",
			 vendor[0] ? ", DMI vendor " : "", vendor);
		return;
	}
	strcpy(e->mode, "bare metal");
	snprintf(e->mode_how, sizeof(e->mode_how),
		 "no hypervisor flag in /proc/cpuinfo%s%.40s",
		 vendor[0] ? ", DMI vendor " : "", vendor);
}

/*
 * The preemption model: uname -v names PREEMPT_RT, PREEMPT_DYNAMIC or
 * PREEMPT (CONFIG_PREEMPT_BUILD); a dynamic kernel's mode in force is the
 * parenthesised word of debugfs sched/preempt ("none voluntary (full)").
 */
static void wl_env_preempt(struct wl_env *e, const char *root)
{
	char p[256], buf[128], *a, *z;

	if (strstr(e->version, "PREEMPT_RT")) {
		strcpy(e->preempt, "full, real-time (PREEMPT_RT)");
		return;
	}
	snprintf(p, sizeof(p), "%s/sched/preempt", root);
	if (wl_read_file(p, buf, sizeof(buf)) > 0) {
		a = strchr(buf, '(');
		z = a ? strchr(a, ')') : NULL;
		if (a && z) {
			snprintf(e->preempt, sizeof(e->preempt),
				 "%.*s (PREEMPT_DYNAMIC)", (int)(z - a - 1),
				 a + 1);
			return;
		}
	}
	if (strstr(e->version, "PREEMPT_DYNAMIC"))
		strcpy(e->preempt, "dynamic (PREEMPT_DYNAMIC, mode unread)");
	else if (strstr(e->version, "PREEMPT"))
		strcpy(e->preempt, "full (PREEMPT)");
	else
		strcpy(e->preempt, "none or voluntary (no PREEMPT in uname -v)");
}

/* The llc_balancing files besides "enabled" (7.3's kernel/sched/debug.c). */
static const char * const wl_env_llc_tunables[] = {
	"aggr_tolerance", "epoch_period", "epoch_affinity_timeout",
	"overaggr_pct", "imb_pct",
};

/* Cache-aware scheduling's user flag and tunables below @root. */
static void wl_env_sched_cache_read(struct wl_env *e, const char *root)
{
	char p[256], buf[32];
	size_t i, o = 0;

	e->sched_cache = WL_SC_ABSENT;
	snprintf(p, sizeof(p), "%s/sched/llc_balancing/enabled", root);
	if (wl_read_file(p, buf, sizeof(buf)) <= 0)
		return;
	e->sched_cache = atoi(buf) ? 1 : 0;
	for (i = 0; i < sizeof(wl_env_llc_tunables) /
		    sizeof(wl_env_llc_tunables[0]); i++) {
		snprintf(p, sizeof(p), "%s/sched/llc_balancing/%s", root,
			 wl_env_llc_tunables[i]);
		if (o >= sizeof(e->sched_cache_tun) ||
		    wl_read_file(p, buf, sizeof(buf)) <= 0)
			continue;
		wl_env_chomp(buf);
		o += snprintf(e->sched_cache_tun + o,
			      sizeof(e->sched_cache_tun) - o, "%s%s=%s",
			      o ? " " : "", wl_env_llc_tunables[i], buf);
	}
}

const char *wl_env_sched_cache(const struct wl_env *e)
{
	if (e->sched_cache == WL_SC_ABSENT)
		return "absent";
	if (e->sched_cache == WL_SC_UNKNOWN)
		return "unknown";
	return e->sched_cache == 1 && e->nllc > 1 ? "on" : "off";
}

const char *wl_env_sched_cache_why(const struct wl_env *e)
{
	if (e->sched_cache == WL_SC_ABSENT)
		return "no sched/llc_balancing: a kernel without CONFIG_SCHED_CACHE";
	if (e->sched_cache == WL_SC_UNKNOWN)
		return "not recorded";
	if (e->nllc <= 1)
		return e->sched_cache ?
		       "inferred: one LLC, so no domain spans two" :
		       "user flag 0, and one LLC";
	return e->sched_cache ? "inferred: user flag 1 and more than one LLC" :
	       "user flag 0";
}

void wl_env_collect(struct wl_env *e, const char *root)
{
	char p[256];
	struct utsname u;

	memset(e, 0, sizeof(*e));
	if (!uname(&u)) {
		snprintf(e->release, sizeof(e->release), "%.64s", u.release);
		snprintf(e->version, sizeof(e->version), "%.64s", u.version);
		snprintf(e->machine, sizeof(e->machine), "%.64s", u.machine);
	}
	e->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	e->sockets = wl_env_sockets();
	wl_env_llcs(e);
	wl_env_mode(e);
	wl_env_preempt(e, root);
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
	wl_env_sched_cache_read(e, root);
}
