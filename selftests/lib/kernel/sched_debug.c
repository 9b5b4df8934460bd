// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler's own view of runqueues and LLCs; see
 * include/wl/kernel/sched_debug.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wl/core/file.h"
#include "wl/kernel/sched_debug.h"
#include "wl/kernel/schedstat.h"

/* sched/debug of a few CPUs with their task lists. */
#define WL_SCHED_DEBUG_MAX	(4 << 20)

/* "  .name   : value": the name and value of a field line, or -1. */
static int wl_field(const char *line, char *name, size_t len,
		    unsigned long long *v)
{
	const char *p = line + 3, *colon = strchr(line, ':');
	size_t n;
	char *end;

	if (strncmp(line, "  .", 3) || !colon)
		return -1;
	n = colon - p;
	while (n && p[n - 1] == ' ')
		n--;
	if (!n || n >= len)
		return -1;
	memcpy(name, p, n);
	name[n] = '\0';
	errno = 0;
	*v = strtoull(colon + 1, &end, 10);
	if (errno || end == colon + 1)
		return -1;
	return 0;
}

int wl_sched_debug_parse(const char *text, struct wl_rq_view *v)
{
	const char *line = text, *nl;
	int cpu_blk = -1, cfs_blk = -1, seen = 0;
	unsigned long long val;
	char buf[256], name[64];
	int cpu, n;

	memset(v, 0, WL_MAX_CPUS * sizeof(*v));
	for (; *line; line = nl ? nl + 1 : line + strlen(line)) {
		nl = strchr(line, '\n');
		n = nl ? nl - line : (int)strlen(line);
		if (n >= (int)sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, line, n);
		buf[n] = '\0';
		if (!strncmp(buf, "  .", 3)) {
			if (wl_field(buf, name, sizeof(name), &val))
				continue;
			if (cpu_blk >= 0 && !strcmp(name, "nr_running"))
				v[cpu_blk].nr_running = val;
			if (cfs_blk >= 0 && !strcmp(name, "load_avg"))
				v[cfs_blk].load_avg = val;
			if (cfs_blk >= 0 && !strcmp(name, "util_avg"))
				v[cfs_blk].util_avg = val;
			continue;
		}
		cpu_blk = -1;
		cfs_blk = -1;
		if (sscanf(buf, "cpu#%d", &cpu) == 1) {
			if (cpu < 0 || cpu >= WL_MAX_CPUS || v[cpu].seen)
				return -EINVAL;
			v[cpu].seen = true;
			cpu_blk = cpu;
			seen++;
		} else if (sscanf(buf, "cfs_rq[%d]:%n", &cpu, &n) == 1 &&
			   n > 0 && (!strcmp(buf + n, "/") || !buf[n])) {
			/* The root cfs_rq: "/" with group scheduling. */
			if (cpu < 0 || cpu >= WL_MAX_CPUS || v[cpu].have_cfs)
				return -EINVAL;
			v[cpu].have_cfs = true;
			cfs_blk = cpu;
		}
	}
	return seen;
}

int wl_sched_debug_read(struct wl_rq_view *v)
{
	char *buf = malloc(WL_SCHED_DEBUG_MAX);
	ssize_t n;
	int ret;

	if (!buf)
		return -ENOMEM;
	n = wl_read_file(WL_SCHED_DEBUG, buf, WL_SCHED_DEBUG_MAX);
	if (n < 0) {
		free(buf);
		return n;
	}
	ret = wl_sched_debug_parse(buf, v);
	free(buf);
	return ret;
}

/* Whether domain @dom of @cpu shares the LLC: 1, 0, or -errno. */
static int wl_sd_shares_llc(int cpu, int dom)
{
	char path[160], flags[1024];
	ssize_t n;

	snprintf(path, sizeof(path), WL_SCHED_DOMAINS "/cpu%d/domain%d/flags",
		 cpu, dom);
	n = wl_read_file(path, flags, sizeof(flags));
	if (n < 0)
		return n;
	return strstr(flags, "SD_SHARE_PKG_RESOURCES") ||
	       strstr(flags, "SD_SHARE_LLC");
}

/* A cpumask as /proc/schedstat prints it ("00000000,0000000f"). */
static int wl_hexmask(const char *s, bool *set)
{
	int bit = 0, i, d, n = 0;

	memset(set, 0, WL_MAX_CPUS * sizeof(*set));
	for (i = strlen(s) - 1; i >= 0; i--) {
		if (s[i] == ',')
			continue;
		if (!isxdigit((unsigned char)s[i]))
			return -EINVAL;
		d = isdigit((unsigned char)s[i]) ? s[i] - '0' :
		    tolower((unsigned char)s[i]) - 'a' + 10;
		for (int b = 0; b < 4; b++, bit++) {
			if (!(d & (1 << b)))
				continue;
			if (bit >= WL_MAX_CPUS)
				return -EINVAL;
			set[bit] = true;
			n++;
		}
	}
	return n;
}

/* Span of domain @dom of @cpu from /proc/schedstat: CPUs, or -errno. */
static int wl_sd_span(int cpu, int dom, bool *set, char *name, int len)
{
	static char text[1 << 20];
	char *line, *save = NULL, cpu_tag[32], dom_tag[32];
	bool in_cpu = false;
	ssize_t n;

	n = wl_read_file(WL_SCHEDSTAT_PATH, text, sizeof(text));
	if (n < 0)
		return n;
	snprintf(cpu_tag, sizeof(cpu_tag), "cpu%d", cpu);
	snprintf(dom_tag, sizeof(dom_tag), "domain%d", dom);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char w0[32], w1[64], w2[64];
		int k = sscanf(line, "%31s %63s %63s", w0, w1, w2);

		if (k < 1)
			continue;
		if (!strncmp(w0, "cpu", 3)) {
			in_cpu = !strcmp(w0, cpu_tag);
			continue;
		}
		if (!in_cpu || strcmp(w0, dom_tag) || k < 3)
			continue;
		/* Version 17 names the domain before the mask. */
		if (wl_hexmask(w1, set) > 0) {
			if (name)
				snprintf(name, len, "%s", "");
			return wl_hexmask(w1, set);
		}
		if (name)
			snprintf(name, len, "%s", w1);
		return wl_hexmask(w2, set);
	}
	return -EINVAL;
}

int wl_sd_llc(int cpu, bool *set, char *name, int len)
{
	int dom, llc = -1, ret;
	char path[160];

	snprintf(path, sizeof(path), WL_SCHED_DOMAINS "/cpu%d", cpu);
	if (access(path, R_OK) || access(WL_SCHEDSTAT_PATH, R_OK))
		return -ENOENT;
	for (dom = 0; dom < WL_SD_MAX; dom++) {
		ret = wl_sd_shares_llc(cpu, dom);
		if (ret == -ENOENT)
			break;
		if (ret < 0)
			return ret;
		if (ret)
			llc = dom;
	}
	if (llc < 0) {
		memset(set, 0, WL_MAX_CPUS * sizeof(*set));
		set[cpu] = true;
		if (name)
			snprintf(name, len, "%s", "");
		return 1;
	}
	if (name) {
		ssize_t n;

		snprintf(path, sizeof(path),
			 WL_SCHED_DOMAINS "/cpu%d/domain%d/name", cpu, llc);
		n = wl_read_file(path, name, len);
		if (n < 0)
			name[0] = '\0';
		else
			name[strcspn(name, "\n")] = '\0';
	}
	return wl_sd_span(cpu, llc, set, NULL, 0);
}
