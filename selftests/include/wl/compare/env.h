/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The environment a wl_compare result was measured in: kernel release,
 * online CPUs, sockets and last-level caches (from sysfs), the sched
 * features as found, the wakelab module's caps and policy files, and the
 * execution mode -- TCG or KVM guest (from wakelab.accel= on the kernel
 * command line, which scripts/vm passes), another hypervisor's guest (its
 * CPUID signature; cpuinfo's hypervisor flag, DMI vendor), or bare metal
 * -- because under TCG throughput is the
 * emulator's while the placement decisions are still the kernel's own --
 * and cache-aware scheduling (CONFIG_SCHED_CACHE, Linux 7.3): its user
 * flag and tunables as found, and its effective state, which the kernel
 * does not show: on only when the flag is set and a sched domain spans
 * more than one LLC, inferred here from the LLC count.
 */
#ifndef WL_COMPARE_ENV_H
#define WL_COMPARE_ENV_H

#define WL_ENV_MAX_LLC	64
#define WL_ENV_TEXT	4096

/* struct wl_env's @sched_cache besides the user flag's 0 and 1. */
#define WL_SC_ABSENT	(-1)	/* no sched/llc_balancing: no SCHED_CACHE */
#define WL_SC_UNKNOWN	(-2)	/* not recorded (a result from before) */

/**
 * struct wl_env - where the comparison ran
 * @release:	uname -r
 * @version:	uname -v (build number, SMP, preemption, date)
 * @preempt:	preemption model: PREEMPT_RT, or the dynamic mode in force
 *		(debugfs sched/preempt), else what uname -v names
 * @machine:	uname -m
 * @cpus:	online CPUs
 * @sockets:	distinct physical_package_id values
 * @nllc:	number of last-level caches
 * @llc:	CPU list of each LLC ("0-1")
 * @llc_level:	cache level taken as the LLC (3, or 2 when there is no L3);
 *		0 when sysfs has no cache information (then: packages)
 * @mode:	"TCG", "KVM" (scripts/vm's guests), "<hypervisor> guest" (by
 *		its CPUID signature: "KVM guest", "Hyper-V guest", ...), "VM"
 *		(an unknown hypervisor) or "bare metal"
 * @mode_how:	how the mode was found
 * @features:	/sys/kernel/debug/sched/features before any change
 * @module:	wakelab debugfs directory present
 * @caps:	wakelab/caps text ("" when absent)
 * @policy:	wakelab/policy text ("" when absent)
 * @sched_cache: sched/llc_balancing/enabled before any change (the user
 *		flag: 1 or 0), WL_SC_ABSENT or WL_SC_UNKNOWN
 * @sched_cache_tun: its other files, "aggr_tolerance=N epoch_period=N ..."
 */
struct wl_env {
	char	release[72];
	char	version[72];
	char	preempt[64];
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
	int	sched_cache;
	char	sched_cache_tun[256];
};

/* Collect everything; debugfs paths below @root. */
void wl_env_collect(struct wl_env *e, const char *root);

/*
 * Cache-aware scheduling's effective state: "absent", "unknown", "on" or
 * "off", inferred from the user flag and the LLC count (on: flag 1 and
 * more than one LLC), since the kernel shows only the flag.
 */
const char *wl_env_sched_cache(const struct wl_env *e);

/* Why: "user flag 0", "one LLC: no domain spans two", ... */
const char *wl_env_sched_cache_why(const struct wl_env *e);

#endif /* WL_COMPARE_ENV_H */
