/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wakeup counters from /proc/schedstat, summed over all CPUs: the runqueue
 * ttwu_count and ttwu_local, and per domain level ttwu_wake_remote,
 * ttwu_move_affine and ttwu_move_balance (the last three fields of every
 * domain line).  The format is parsed by version: 15 (6.1), 16 (idle type
 * columns reordered) and 17 (domain name before the mask, lb_imbalance split
 * in four), and checked by field count, so a new format fails loudly
 * instead of being misread.  Whether the counters move at all depends on
 * kernel.sched_schedstats (off by default).
 */
#ifndef WL_KERNEL_SCHEDSTAT_H
#define WL_KERNEL_SCHEDSTAT_H

#define WL_SCHEDSTAT_PATH	"/proc/schedstat"
#define WL_SCHEDSTATS_SYSCTL	"/proc/sys/kernel/sched_schedstats"
#define WL_SD_MAX		8
#define WL_SD_NAME_LEN		16
/* Numeric fields after the mask: 3 idle types x 8 (x 11 in v17) + 12. */
#define WL_SD_FIELDS_V15	36
#define WL_SD_FIELDS_V17	45
#define WL_RQ_FIELDS		9

/**
 * struct wl_sd_stat - one domain level, summed over CPUs
 * @name:		sched domain name (v17 prints it; else empty)
 * @wake_remote:	ttwu_wake_remote: wakee's previous CPU in this domain
 * @move_affine:	ttwu_move_affine: wake_affine() pulled the wakee
 * @move_balance:	ttwu_move_balance (unused since 2.6.x, kept)
 */
struct wl_sd_stat {
	char name[WL_SD_NAME_LEN];
	unsigned long long wake_remote, move_affine, move_balance;
};

/**
 * struct wl_schedstat - one snapshot of /proc/schedstat
 * @version:	format version from the "version" line
 * @ncpus:	cpuN lines seen
 * @ttwu_count:	wakeups, summed over runqueues
 * @ttwu_local:	wakeups onto the waking CPU
 * @ndomains:	domain levels seen (deepest CPU decides)
 * @sd:		per domain level
 */
struct wl_schedstat {
	int version;
	int ncpus;
	unsigned long long ttwu_count, ttwu_local;
	int ndomains;
	struct wl_sd_stat sd[WL_SD_MAX];
};

/**
 * wl_schedstat_parse() - parse a /proc/schedstat text
 * @text: the file contents (modified: split in place)
 * @s: the sums
 *
 * Return: 0; -1 for a malformed line; -2 for an unknown version.
 */
int wl_schedstat_parse(char *text, struct wl_schedstat *s);

/* Read and parse @path; 0, -1 (unreadable or malformed) or -2. */
int wl_schedstat_read(const char *path, struct wl_schedstat *s);

/* @d = @b - @a, counter by counter; names come from @b. */
void wl_schedstat_delta(const struct wl_schedstat *a,
			const struct wl_schedstat *b,
			struct wl_schedstat *d);

/* kernel.sched_schedstats: 1 on, 0 off, -1 unknown (no such sysctl). */
int wl_schedstats_enabled(void);

int wl_schedstats_set(int on);

#endif /* WL_KERNEL_SCHEDSTAT_H */
