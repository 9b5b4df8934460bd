// SPDX-License-Identifier: GPL-2.0
/*
 * CPU topology from sysfs: CPU lists, online CPUs, LLC groups.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl/kernel/topo.h"

int wl_cpulist_parse(const char *s, bool *set)
{
	long a, b;
	char *end;
	int n = 0;

	memset(set, 0, WL_MAX_CPUS * sizeof(*set));
	while (*s && *s != '\n') {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		a = strtol(s, &end, 10);
		b = a;
		if (*end == '-') {
			s = end + 1;
			if (*s < '0' || *s > '9')
				return -EINVAL;
			b = strtol(s, &end, 10);
		}
		if (a > b || b >= WL_MAX_CPUS)
			return -EINVAL;
		for (; a <= b; a++)
			if (!set[a]) {
				set[a] = true;
				n++;
			}
		s = end;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return n;
}

int wl_cpulist_format(const bool *set, char *buf, size_t len)
{
	int a, b, off = 0;

	if (len)
		buf[0] = '\0';
	for (a = 0; a < WL_MAX_CPUS; a = b + 1) {
		b = a;
		if (!set[a])
			continue;
		while (b + 1 < WL_MAX_CPUS && set[b + 1])
			b++;
		off += snprintf(buf + off, off < (int)len ? len - off : 0,
				a == b ? "%s%d" : "%s%d-%d", off ? "," : "",
				a, b);
	}
	return off;
}

/* The first line of @root/@rel into @buf, without its newline. */
static int topo_read(const char *root, const char *rel, char *buf,
		     size_t len)
{
	char path[512];
	FILE *f;
	int ret = -EIO;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (fgets(buf, len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ret = 0;
	}
	fclose(f);
	return ret;
}

int wl_online_cpus(const char *root, bool *set)
{
	char buf[4096];

	if (topo_read(root, "online", buf, sizeof(buf)))
		return -EIO;
	return wl_cpulist_parse(buf, set);
}

int wl_cpu_llc(const char *root, int cpu, bool *set, int *level)
{
	char rel[128], buf[4096], best[4096];
	int idx, lvl, best_lvl = -1;

	for (idx = 0; idx < 16; idx++) {
		snprintf(rel, sizeof(rel), "cpu%d/cache/index%d/type", cpu, idx);
		if (topo_read(root, rel, buf, sizeof(buf)) ||
		    !strcmp(buf, "Instruction"))
			continue;
		snprintf(rel, sizeof(rel), "cpu%d/cache/index%d/level", cpu,
			 idx);
		if (topo_read(root, rel, buf, sizeof(buf)))
			continue;
		lvl = atoi(buf);
		if (lvl <= best_lvl)
			continue;
		snprintf(rel, sizeof(rel), "cpu%d/cache/index%d/shared_cpu_list",
			 cpu, idx);
		if (topo_read(root, rel, best, sizeof(best)))
			continue;
		best_lvl = lvl;
	}
	if (best_lvl < 0)
		return -ENOENT;
	if (level)
		*level = best_lvl;
	return wl_cpulist_parse(best, set);
}

/* The CPUs of @cpu's package into @set: count, or < 0. */
static int topo_package(const char *root, int cpu, bool *set)
{
	char rel[128], buf[4096];

	snprintf(rel, sizeof(rel), "cpu%d/topology/package_cpus_list", cpu);
	if (!topo_read(root, rel, buf, sizeof(buf)))
		return wl_cpulist_parse(buf, set);
	snprintf(rel, sizeof(rel), "cpu%d/topology/core_siblings_list", cpu);
	if (!topo_read(root, rel, buf, sizeof(buf)))
		return wl_cpulist_parse(buf, set);
	return -ENOENT;
}

/*
 * The key of each online CPU's group, the lowest online CPU in it, from
 * @group (wl_cpu_llc or topo_package); false when some CPU has none.
 */
static bool topo_keys(const char *root, const bool *online, int *key,
		      int (*group)(const char *, int, bool *, int *),
		      int *level)
{
	static bool set[WL_MAX_CPUS];
	int c, k;

	for (c = 0; c < WL_MAX_CPUS; c++) {
		key[c] = -1;
		if (!online[c])
			continue;
		if (group(root, c, set, level) <= 0)
			return false;
		key[c] = c;
		for (k = 0; k < c; k++)
			if (set[k] && online[k]) {
				key[c] = k;
				break;
			}
	}
	return true;
}

static int topo_package_group(const char *root, int cpu, bool *set,
			      int *level)
{
	return topo_package(root, cpu, set);
}

int wl_topo_load(const char *root, int fallback_ncpus, struct wl_topo *t)
{
	static bool online[WL_MAX_CPUS];
	static int key[WL_MAX_CPUS];
	int c, k, g, n = 0;

	memset(t, 0, sizeof(*t));
	if (wl_online_cpus(root, online) <= 0) {
		memset(online, 0, sizeof(online));
		for (c = 0; c < fallback_ncpus && c < WL_MAX_CPUS; c++)
			online[c] = true;
	}
	t->from_sysfs = topo_keys(root, online, key, wl_cpu_llc,
				  &t->llc_level);
	if (!t->from_sysfs) {
		t->llc_level = 0;
		/* No cache information: packages, else one group. */
		if (!topo_keys(root, online, key, topo_package_group, NULL))
			for (c = 0, k = -1; c < WL_MAX_CPUS; c++)
				if (online[c])
					key[c] = k < 0 ? (k = c) : k;
	}
	for (g = 0; g < WL_MAX_CPUS; g++) {
		if (!online[g] || key[g] != g)
			continue;
		t->llc_start[t->nllc] = n;
		for (c = g; c < WL_MAX_CPUS; c++)
			if (online[c] && key[c] == g)
				t->cpu[n++] = c;
		t->llc_size[t->nllc] = n - t->llc_start[t->nllc];
		t->nllc++;
	}
	t->ncpus = n;
	return n ? 0 : -1;
}

int wl_topo_max_llc(const struct wl_topo *t)
{
	int g, m = 0;

	for (g = 0; g < t->nllc; g++)
		if (t->llc_size[g] > m)
			m = t->llc_size[g];
	return m;
}

int wl_topo_llc_list(const struct wl_topo *t, int g, char *buf, size_t len)
{
	static bool set[WL_MAX_CPUS];
	int i;

	memset(set, 0, sizeof(set));
	for (i = 0; i < t->llc_size[g]; i++)
		set[t->cpu[t->llc_start[g] + i]] = true;
	return wl_cpulist_format(set, buf, len);
}
