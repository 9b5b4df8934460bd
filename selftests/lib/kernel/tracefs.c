// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's trace events through tracefs; see include/wl/kernel/tracefs.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "wl/core/file.h"
#include "wl/kernel/tracefs.h"

static const char *wl_tracefs_root;

const char *wl_tracefs_dir(void)
{
	if (wl_tracefs_root)
		return wl_tracefs_root;
	if (access(WL_TRACEFS "/trace", F_OK) &&
	    !access(WL_TRACEFS, F_OK))
		mount("tracefs", WL_TRACEFS, "tracefs", 0, NULL);
	if (!access(WL_TRACEFS "/trace", F_OK))
		wl_tracefs_root = WL_TRACEFS;
	else if (!access(WL_TRACEFS_DEBUGFS "/trace", F_OK))
		wl_tracefs_root = WL_TRACEFS_DEBUGFS;
	return wl_tracefs_root;
}

static const char *wl_tracefs_path(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/%s", wl_tracefs_dir() ?: WL_TRACEFS, rel);
	return buf;
}

int wl_tracefs_write(const char *rel, const char *s)
{
	char path[256];

	return wl_write_str(wl_tracefs_path(path, sizeof(path), rel), s);
}

ssize_t wl_tracefs_read(const char *rel, char *buf, size_t len)
{
	char path[256];

	return wl_read_file(wl_tracefs_path(path, sizeof(path), rel), buf,
			    len);
}

int wl_tracefs_clock(char *name, size_t len)
{
	char buf[512], *l, *r;
	ssize_t n = wl_tracefs_read("trace_clock", buf, sizeof(buf));

	if (n < 0)
		return n;
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	if (!r)
		return -EINVAL;
	*r = '\0';
	snprintf(name, len, "%s", l + 1);
	return 0;
}

/* Value of "@key: N" in a per-CPU stats text, or -1. */
static long long wl_stat_field(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	if (!p)
		return -1;
	return strtoll(p + strlen(key), NULL, 10);
}

long long wl_tracefs_lost(void)
{
	long long lost = 0, v;
	char rel[64], buf[1024];
	int cpu, seen = 0;

	for (cpu = 0; cpu < 4096; cpu++) {
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
		if (wl_tracefs_read(rel, buf, sizeof(buf)) < 0)
			continue;
		seen++;
		v = wl_stat_field(buf, "overrun: ");
		if (v < 0)
			return -EINVAL;
		lost += v;
		v = wl_stat_field(buf, "dropped events: ");
		if (v > 0)
			lost += v;
	}
	return seen ? lost : -ENOENT;
}

/*
 * The context of an event line: the CPU from "[CPU]" and the current
 * pid from "COMM-PID", both before @ev (": event:"), read backwards so
 * that a COMM with blanks or dashes does not matter.
 */
static int wl_tev_context(const char *line, const char *ev, struct wl_tev *e)
{
	const char *p = ev, *close = NULL, *open;
	int mul = 1;

	while (p > line && p[-1] != ']')
		p--;
	if (p == line)
		return -EINVAL;
	close = p - 1;
	for (open = close; open > line && *open != '['; open--)
		;
	if (*open != '[' || sscanf(open + 1, "%d", &e->cpu) != 1)
		return -EINVAL;
	p = open;
	while (p > line && p[-1] == ' ')
		p--;
	e->cur = 0;
	if (p == line || !isdigit((unsigned char)p[-1]))
		return -EINVAL;
	while (p > line && isdigit((unsigned char)p[-1])) {
		e->cur += (p[-1] - '0') * mul;
		mul *= 10;
		p--;
	}
	return p > line && p[-1] == '-' ? 0 : -EINVAL;
}

/* The last occurrence of @needle in @s, or NULL. */
static const char *wl_strrstr(const char *s, const char *needle)
{
	const char *last = NULL, *p = s;

	while ((p = strstr(p, needle))) {
		last = p;
		p++;
	}
	return last;
}

int wl_tev_parse(const char *line, struct wl_tev *e)
{
	const char *ev, *f;
	char state[16];

	if (line[0] == '#')
		return 1;
	memset(e, 0, sizeof(*e));
	/* sched_waking and sched_wakeup share their format. */
	ev = strstr(line, ": sched_waking: ");
	e->type = WL_TEV_WAKING;
	if (!ev) {
		ev = strstr(line, ": sched_wakeup: ");
		e->type = WL_TEV_WAKEUP;
	}
	if (ev) {
		f = wl_strrstr(ev, " pid=");
		if (!f || sscanf(f, " pid=%d prio=%d target_cpu=%d", &e->pid,
				 &e->prio, &e->a) != 3)
			return -EINVAL;
		return wl_tev_context(line, ev, e);
	}
	ev = strstr(line, ": sched_migrate_task: ");
	if (ev) {
		e->type = WL_TEV_MIGRATE;
		f = wl_strrstr(ev, " pid=");
		if (!f || sscanf(f, " pid=%d prio=%d orig_cpu=%d dest_cpu=%d",
				 &e->pid, &e->prio, &e->a, &e->b) != 4)
			return -EINVAL;
		return wl_tev_context(line, ev, e);
	}
	ev = strstr(line, ": sched_switch: ");
	if (ev) {
		e->type = WL_TEV_SWITCH;
		f = strstr(ev, " prev_pid=");
		if (!f || sscanf(f, " prev_pid=%d prev_prio=%d prev_state=%15s",
				 &e->pid, &e->prio, state) != 3)
			return -EINVAL;
		e->b = state[0] != 'R';
		f = wl_strrstr(ev, " next_pid=");
		if (!f || sscanf(f, " next_pid=%d", &e->a) != 1)
			return -EINVAL;
		return wl_tev_context(line, ev, e);
	}
	ev = strstr(line, ": tracing_mark_write: ");
	if (!ev)
		return 1;
	e->type = WL_TEV_MARK;
	f = ev + strlen(": tracing_mark_write: ");
	snprintf(e->mark, sizeof(e->mark), "%.*s", (int)strcspn(f, "\n"), f);
	return wl_tev_context(line, ev, e);
}
