/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU topology from sysfs: CPU lists, the online CPUs, and which last-level
 * cache each shares.  A CPU's LLC is its highest-level data or unified
 * cache in cpuN/cache/index*, with that cache's shared_cpu_list; where
 * sysfs has no cache information the CPUs are grouped by package
 * (topology/package_cpus_list), or form one group.  The sysfs root is a
 * parameter so host tests can point it at a fixture tree.
 */
#ifndef WL_KERNEL_TOPO_H
#define WL_KERNEL_TOPO_H

#include <stdbool.h>
#include <stddef.h>

#define WL_MAX_CPUS	1024
#define WL_CPU_SYSFS	"/sys/devices/system/cpu"

/**
 * struct wl_topo - online CPUs grouped by last-level cache
 * @ncpus:	online CPUs
 * @nllc:	groups
 * @from_sysfs:	the groups are LLCs from sysfs cache information (false:
 *		packages, or one group of all CPUs)
 * @llc_level:	cache level taken as the LLC; 0 when !@from_sysfs
 * @cpu:	online CPU ids, ordered by group, then id
 * @llc_start:	index in @cpu of each group's first CPU
 * @llc_size:	CPUs in each group
 */
struct wl_topo {
	int ncpus;
	int nllc;
	bool from_sysfs;
	int llc_level;
	int cpu[WL_MAX_CPUS];
	int llc_start[WL_MAX_CPUS];
	int llc_size[WL_MAX_CPUS];
};

/*
 * Parse a kernel CPU list ("0-3,8,10-11") into @set (WL_MAX_CPUS entries);
 * returns the number of CPUs set, or -EINVAL.
 */
int wl_cpulist_parse(const char *s, bool *set);

/* Format @set as a kernel CPU list ("0-1,4"); returns its length. */
int wl_cpulist_format(const bool *set, char *buf, size_t len);

/* The online CPUs under @root into @set: count, or -EIO / -EINVAL. */
int wl_online_cpus(const char *root, bool *set);

/**
 * wl_cpu_llc() - CPUs sharing @cpu's last-level cache
 * @root: sysfs CPU directory, normally WL_CPU_SYSFS
 * @cpu: the CPU
 * @set: the CPUs of its shared_cpu_list (WL_MAX_CPUS entries)
 * @level: where to store the cache level, or NULL
 *
 * Return: the number of CPUs in @set; -ENOENT when sysfs has no cache
 * information for @cpu; -EIO or -EINVAL for an unreadable list.
 */
int wl_cpu_llc(const char *root, int cpu, bool *set, int *level);

/**
 * wl_topo_load() - read the online CPUs and their LLC groups
 * @root: sysfs CPU directory, normally WL_CPU_SYSFS
 * @fallback_ncpus: CPUs 0..n-1 when @root has no "online" file
 * @t: the result
 *
 * Return: 0, or -1 when no CPU is online.
 */
int wl_topo_load(const char *root, int fallback_ncpus, struct wl_topo *t);

/* CPUs in the largest group. */
int wl_topo_max_llc(const struct wl_topo *t);

/* Group @g's CPUs as a CPU list ("0-1"); returns its length. */
int wl_topo_llc_list(const struct wl_topo *t, int g, char *buf, size_t len);

#endif /* WL_KERNEL_TOPO_H */
