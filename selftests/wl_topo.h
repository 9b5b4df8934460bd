/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU topology for wl_stream's --pin modes: the online CPUs and which last
 * level cache each shares, read from sysfs (the unified cache of the highest
 * level in /sys/devices/system/cpu/cpuN/cache/index* and its
 * shared_cpu_list), and the CPU pair each instance's sender and receiver
 * get for same-cpu, same-llc and cross-llc.  The sysfs root is a parameter
 * so the host unit tests can point it at a fixture tree.
 */
#ifndef WL_TOPO_H
#define WL_TOPO_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_stream_opts.h"

#define WS_MAX_CPUS	1024
#define WS_CPU_SYSFS	"/sys/devices/system/cpu"

/**
 * struct ws_topo - online CPUs grouped by last level cache
 * @ncpus:	online CPUs
 * @nllc:	LLC groups
 * @from_sysfs:	false when sysfs had no cache info (then one group)
 * @cpu:	online CPU ids, ordered by LLC group, then id
 * @llc_start:	index in @cpu of each group's first CPU
 * @llc_size:	CPUs in each group
 */
struct ws_topo {
	int ncpus;
	int nllc;
	bool from_sysfs;
	int cpu[WS_MAX_CPUS];
	int llc_start[WS_MAX_CPUS];
	int llc_size[WS_MAX_CPUS];
};

/*
 * Parse a cpulist ("0-3,8,10-11") into @mask (WS_MAX_CPUS bytes, 1 = set);
 * returns the number of CPUs set or -1.
 */
static inline int ws_parse_cpulist(const char *s, unsigned char *mask)
{
	long a, b;
	char *end;
	int n = 0;

	memset(mask, 0, WS_MAX_CPUS);
	while (*s && *s != '\n') {
		if (*s < '0' || *s > '9')
			return -1;
		a = strtol(s, &end, 10);
		b = a;
		if (*end == '-') {
			s = end + 1;
			if (*s < '0' || *s > '9')
				return -1;
			b = strtol(s, &end, 10);
		}
		if (a > b || b >= WS_MAX_CPUS)
			return -1;
		for (; a <= b; a++)
			if (!mask[a]++)
				n++;
		s = end;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -1;
	}
	return n;
}

static inline int ws_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ret = -1;

	if (!f)
		return -1;
	if (fgets(buf, len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ret = 0;
	}
	fclose(f);
	return ret;
}

/*
 * The shared_cpu_list of @cpu's highest-level unified cache under @root
 * (".../devices/system/cpu") into @mask; 0 or -1 when there is none.
 */
static inline int ws_llc_mask(const char *root, int cpu, unsigned char *mask)
{
	char path[512], buf[256], best[256] = "";
	int idx, level, best_level = -1;

	for (idx = 0; idx < 16; idx++) {
		snprintf(path, sizeof(path), "%s/cpu%d/cache/index%d/type",
			 root, cpu, idx);
		if (ws_read_line(path, buf, sizeof(buf)))
			continue;
		if (strcmp(buf, "Unified"))
			continue;
		snprintf(path, sizeof(path), "%s/cpu%d/cache/index%d/level",
			 root, cpu, idx);
		if (ws_read_line(path, buf, sizeof(buf)))
			continue;
		level = atoi(buf);
		if (level <= best_level)
			continue;
		snprintf(path, sizeof(path),
			 "%s/cpu%d/cache/index%d/shared_cpu_list", root, cpu,
			 idx);
		if (ws_read_line(path, best, sizeof(best)))
			continue;
		best_level = level;
	}
	if (best_level < 0 || ws_parse_cpulist(best, mask) <= 0)
		return -1;
	return 0;
}

/**
 * ws_topo_load() - read online CPUs and their LLCs
 * @root: sysfs CPU directory, normally WS_CPU_SYSFS
 * @fallback_ncpus: CPUs 0..n-1 when @root has no "online" file
 * @t: the result
 *
 * Return: 0, or -1 when no CPU is online.
 */
static inline int ws_topo_load(const char *root, int fallback_ncpus,
			       struct ws_topo *t)
{
	static unsigned char online[WS_MAX_CPUS], llc[WS_MAX_CPUS];
	int key[WS_MAX_CPUS], c, k, g, n = 0, i;
	char path[512], buf[4096];

	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), "%s/online", root);
	if (ws_read_line(path, buf, sizeof(buf)) ||
	    ws_parse_cpulist(buf, online) <= 0) {
		memset(online, 0, sizeof(online));
		for (c = 0; c < fallback_ncpus && c < WS_MAX_CPUS; c++)
			online[c] = 1;
	}
	/* Key of a CPU's group: the lowest online CPU sharing its LLC. */
	t->from_sysfs = true;
	for (c = 0; c < WS_MAX_CPUS; c++) {
		key[c] = -1;
		if (!online[c])
			continue;
		key[c] = c;
		if (ws_llc_mask(root, c, llc)) {
			t->from_sysfs = false;
			continue;
		}
		for (k = 0; k < c; k++)
			if (llc[k] && online[k]) {
				key[c] = k;
				break;
			}
	}
	if (!t->from_sysfs)	/* Unknown: one group of all CPUs. */
		for (c = 0, k = -1; c < WS_MAX_CPUS; c++)
			if (online[c])
				key[c] = k < 0 ? (k = c) : k;
	for (g = 0; g < WS_MAX_CPUS; g++) {
		if (!online[g] || key[g] != g)
			continue;
		t->llc_start[t->nllc] = n;
		for (c = g; c < WS_MAX_CPUS; c++)
			if (online[c] && key[c] == g)
				t->cpu[n++] = c;
		t->llc_size[t->nllc] = n - t->llc_start[t->nllc];
		t->nllc++;
	}
	t->ncpus = n;
	for (i = 0; i < n; i++)
		if (t->cpu[i] < 0)
			return -1;
	return n ? 0 : -1;
}

/* Largest LLC group. */
static inline int ws_topo_max_llc(const struct ws_topo *t)
{
	int g, m = 0;

	for (g = 0; g < t->nllc; g++)
		if (t->llc_size[g] > m)
			m = t->llc_size[g];
	return m;
}

/* NULL when @mode can be honoured here, else why not. */
static inline const char *ws_pin_unsupported(const struct ws_topo *t,
					     enum ws_pin mode)
{
	if (mode == WS_PIN_SAME_LLC && ws_topo_max_llc(t) < 2)
		return "same-llc needs an LLC shared by at least 2 online CPUs";
	if (mode == WS_PIN_CROSS_LLC && t->nllc < 2)
		return t->from_sysfs ?
		       "cross-llc needs at least 2 LLCs (this system has 1)" :
		       "cross-llc needs at least 2 LLCs (sysfs has no cache information)";
	return NULL;
}

/**
 * ws_pin_cpus() - CPUs of instance @i's sender and receiver
 * @t: topology
 * @mode: pin mode; WS_PIN_NONE gives -1, -1
 * @i: instance number
 * @snd, @rcv: the CPUs
 *
 * Instances go round-robin over the LLC groups usable for @mode, and within
 * a group over its CPUs (same-llc: over CPU pairs), so they spread out
 * before they share.
 */
static inline void ws_pin_cpus(const struct ws_topo *t, enum ws_pin mode,
			       int i, int *snd, int *rcv)
{
	int g, r, sz, ng, k, gi;

	*snd = -1;
	*rcv = -1;
	switch (mode) {
	case WS_PIN_SAME_CPU:
		*snd = t->cpu[i % t->ncpus];
		*rcv = *snd;
		break;
	case WS_PIN_SAME_LLC:
		/* Only groups with 2+ CPUs. */
		for (g = 0, ng = 0; g < t->nllc; g++)
			ng += t->llc_size[g] >= 2;
		k = i % ng;
		r = i / ng;
		for (g = 0, gi = 0; g < t->nllc; g++) {
			if (t->llc_size[g] < 2)
				continue;
			if (gi++ != k)
				continue;
			sz = t->llc_size[g];
			*snd = t->cpu[t->llc_start[g] + (2 * r) % sz];
			*rcv = t->cpu[t->llc_start[g] + (2 * r + 1) % sz];
			if (*rcv == *snd)	/* Odd size wrapped. */
				*rcv = t->cpu[t->llc_start[g] +
					      (2 * r + 2) % sz];
			break;
		}
		break;
	case WS_PIN_CROSS_LLC:
		g = i % t->nllc;
		r = i / t->nllc;
		*snd = t->cpu[t->llc_start[g] + r % t->llc_size[g]];
		g = (g + 1) % t->nllc;
		*rcv = t->cpu[t->llc_start[g] + r % t->llc_size[g]];
		break;
	default:
		break;
	}
}

#endif /* WL_TOPO_H */
