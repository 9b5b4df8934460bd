// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab.ko in observe mode, on any kernel: every debugfs file is there
 * with its documented mode and header; the llc table covers each online
 * CPU exactly once and agrees with the sysfs cache topology; under a
 * loopback workload the placement counters grow and their categories add
 * up, reset zeroes them and a disabled module keeps them still (for both
 * observation methods); bad writes to every knob are rejected with the
 * documented errno and change nothing, also with concurrent writers; and
 * the module survives 20 load/enable/unload cycles under 2 x CPUs
 * tcp_stream instances (scripts/vm fails the run on any dmesg splat).
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../kselftest_harness.h"
#include "wakelab_modtest.h"

FIXTURE(wl) {
	const char *skip;
	bool loaded_here;
	bool hook;
	struct wl_dbg_table *a, *b;
};

FIXTURE_VARIANT(wl) {
	const char *method;
};

FIXTURE_VARIANT_ADD(wl, tracepoint) {
	.method = "tracepoint",
};

FIXTURE_VARIANT_ADD(wl, kretprobe) {
	.method = "kretprobe",
};

FIXTURE_SETUP(wl)
{
	int ret;

	self->skip = wl_kernel_test_skip_reason();
	self->a = wl_dbg_table_new();
	self->b = wl_dbg_table_new();
	ASSERT_TRUE(self->a && self->b);
	if (self->skip)
		return;
	ret = wl_module_ensure(variant->method, &self->loaded_here);
	self->skip = wl_module_skip_reason(ret);
	if (self->skip)
		return;
	ASSERT_EQ(0, ret) TH_LOG("loading %s method=%s: %s", wl_module_path(),
				 variant->method, strerror(-ret));
	ASSERT_STREQ(variant->method, wl_cap("method"));
	self->hook = !strcmp(wl_cap("hook"), "yes");
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	ASSERT_EQ(0, wl_knob_set("reset", "1"));
}

FIXTURE_TEARDOWN(wl)
{
	if (!self->skip && wl_module_loaded())
		EXPECT_EQ(0, wl_knob_set("enable", "0"));
	/* Leave the default method loaded, with nothing running. */
	if (!self->skip && self->loaded_here &&
	    strcmp(variant->method, "tracepoint"))
		EXPECT_EQ(0, wl_module_unload_retry());
	free(self->a);
	free(self->b);
}

/* Sum of placement column @col over every row of @t. */
static unsigned long long col_sum(struct __test_metadata *_metadata,
				  const struct wl_dbg_table *t,
				  const char *col)
{
	unsigned long long v, sum = 0;
	int r, c = wl_dbg_col(t, col);

	EXPECT_LE(0, c) TH_LOG("no column %s", col);
	for (r = 0; c >= 0 && r < t->nrows; r++) {
		if (wl_dbg_u64(t, r, c, &v))
			continue;	/* "-": not observable */
		sum += v;
	}
	return sum;
}

/* Run a workload for @secs seconds with the probes enabled. */
static void enabled_load(struct __test_metadata *_metadata, int secs)
{
	pid_t pid;

	ASSERT_EQ(0, wl_knob_set("enable", "1"));
	pid = wl_load_start("tcp_stream", "2*cpus", secs);
	ASSERT_LT(0, pid);
	EXPECT_EQ(0, wl_load_wait(pid));
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
}

struct file_spec {
	const char *name;
	mode_t mode;
	const char *header;	/* table columns, or NULL for a value file */
};

static const struct file_spec files[] = {
	{ "enable",		0600, NULL },
	{ "reset",		0200, NULL },
	{ "caps",		0400, WL_CAPS_COLS },
	{ "placement",		0400, WL_PLACE_COLS },
	{ "llc",		0400, WL_LLC_COLS },
	{ "decisions",		0400, WL_DECISION_COLS },
	{ "oldcheck",		0400, WL_CHECK_COLS },
	{ "policy",		0600, NULL },
	{ "bias",		0600, NULL },
	{ "imbalance_pct",	0600, NULL },
};

TEST_F(wl, files_and_headers)
{
	struct wl_dbg_policy pol;
	char path[256], buf[4096];
	unsigned int i;
	struct stat st;

	WL_SKIP_IF(self->skip);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		ASSERT_EQ(0, stat(wl_path(path, sizeof(path), files[i].name),
				  &st)) TH_LOG("%s missing", files[i].name);
		EXPECT_EQ(files[i].mode, st.st_mode & 07777)
			TH_LOG("%s mode %o", files[i].name, st.st_mode & 07777);
		EXPECT_EQ(0U, st.st_uid);
		if (!files[i].header)
			continue;
		ASSERT_EQ(0, wl_table(files[i].name, self->a))
			TH_LOG("%s does not parse", files[i].name);
		wl_table_header(self->a, buf, sizeof(buf));
		EXPECT_STREQ(files[i].header, buf);
		ASSERT_LT(0, wl_knob_get(files[i].name, buf, sizeof(buf)));
		EXPECT_EQ(0, strncmp(buf, "# ", 2))
			TH_LOG("%s has no leading comment", files[i].name);
	}

	ASSERT_LT(0, wl_knob_get("llc", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "# source: "));
	ASSERT_LT(0, wl_knob_get("placement", buf, sizeof(buf)));
	EXPECT_NE(NULL, strstr(buf, "# source: "));
	ASSERT_LT(0, wl_knob_get("enable", buf, sizeof(buf)));
	EXPECT_STREQ("0\n", buf);
	ASSERT_LT(0, wl_knob_get("bias", buf, sizeof(buf)));
	EXPECT_STREQ("1\n", buf);
	ASSERT_LT(0, wl_knob_get("imbalance_pct", buf, sizeof(buf)));
	EXPECT_STREQ("0\n", buf);

	ASSERT_LT(0, wl_knob_get("policy", buf, sizeof(buf)));
	ASSERT_EQ(0, wl_dbg_policy_parse(buf, &pol)) TH_LOG("policy: %s", buf);
	if (self->hook) {
		EXPECT_LE(8, pol.n);
		EXPECT_STREQ("kernel", pol.name[pol.active]);
	} else {
		EXPECT_EQ(1, pol.n);
		EXPECT_STREQ("observe", pol.name[0]);
		EXPECT_NE(NULL, strstr(buf, "hook: absent"));
	}

	/* One placement row per policy, keyed by the policy name. */
	ASSERT_EQ(0, wl_table("placement", self->a));
	EXPECT_EQ(pol.n, self->a->nrows);
	for (i = 0; i < (unsigned int)pol.n; i++)
		EXPECT_LE(0, wl_dbg_row(self->a, pol.name[i]));

	ASSERT_EQ(0, wl_table("caps", self->a));
	EXPECT_LE(0, wl_dbg_row(self->a, "release"));
	EXPECT_LE(0, wl_dbg_row(self->a, "schedstats"));
	EXPECT_STREQ("yes", wl_cap("tp_sched_waking"));
	EXPECT_STREQ(self->hook ? "yes" : "no",
		     wl_cap("tp_sched_wake_affine_tp"));
}

/* CPUs sharing @cpu's last-level cache according to sysfs cacheinfo. */
static int sysfs_llc(int cpu, bool *set)
{
	char path[256], buf[4096];
	int idx, best = -1, lvl, best_lvl = -1;

	for (idx = 0; idx < 16; idx++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/level",
			 cpu, idx);
		if (wl_read_file(path, buf, sizeof(buf)) <= 0)
			break;
		lvl = atoi(buf);
		if (lvl >= best_lvl) {
			best_lvl = lvl;
			best = idx;
		}
	}
	if (best < 0)
		return -ENOENT;
	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
		 cpu, best);
	if (wl_read_file(path, buf, sizeof(buf)) <= 0)
		return -EIO;
	return wl_cpulist(buf, set, WL_MAX_CPUS);
}

TEST_F(wl, llc_matches_sysfs)
{
	static bool online[WL_MAX_CPUS], seen[WL_MAX_CPUS], row[WL_MAX_CPUS],
		sys[WL_MAX_CPUS];
	unsigned long long v = 0, first = 0;
	int r, cpu, n, c_cpus, live;

	WL_SKIP_IF(self->skip);
	ASSERT_LT(0, wl_online_cpus(online));
	ASSERT_EQ(0, wl_table("llc", self->a));
	ASSERT_LT(0, self->a->nrows);
	c_cpus = wl_dbg_col(self->a, "cpus");
	live = !strcmp(wl_cap("rq_located"), "yes") || self->hook;
	memset(seen, 0, sizeof(seen));
	for (r = 0; r < self->a->nrows; r++) {
		n = wl_cpulist(self->a->cell[r][c_cpus], row, WL_MAX_CPUS);
		ASSERT_LT(0, n) TH_LOG("bad cpus %s", self->a->cell[r][c_cpus]);
		/* The key is the LLC's first CPU. */
		ASSERT_EQ(0, wl_dbg_u64(self->a, r, 0, &first));
		for (cpu = 0; cpu < WL_MAX_CPUS && !row[cpu]; cpu++)
			;
		EXPECT_EQ(first, (unsigned long long)cpu);
		for (cpu = 0; cpu < WL_MAX_CPUS; cpu++) {
			if (!row[cpu])
				continue;
			EXPECT_TRUE(online[cpu]) TH_LOG("cpu%d offline", cpu);
			EXPECT_FALSE(seen[cpu]) TH_LOG("cpu%d twice", cpu);
			seen[cpu] = true;
			if (sysfs_llc(cpu, sys) > 0) {
				int o;

				for (o = 0; o < WL_MAX_CPUS; o++)
					EXPECT_EQ(sys[o] && online[o], row[o])
						TH_LOG("cpu%d vs cpu%d", cpu, o);
			}
		}
		EXPECT_EQ(0, wl_dbg_get(self->a, self->a->cell[r][0],
					"capacity", &v));
		EXPECT_LT(0ULL, v);
		if (live) {
			EXPECT_EQ(0, wl_dbg_get(self->a, self->a->cell[r][0],
						"nr_running", &v));
			EXPECT_EQ(0, wl_dbg_get(self->a, self->a->cell[r][0],
						"has_capacity", &v));
			EXPECT_GE(1ULL, v);
		}
	}
	for (cpu = 0; cpu < WL_MAX_CPUS; cpu++)
		EXPECT_EQ(online[cpu], seen[cpu]) TH_LOG("cpu%d", cpu);
}

TEST_F_TIMEOUT(wl, counters_grow_and_add_up, 120)
{
	unsigned long long total, parts = 0, v;
	unsigned int i;
	int r;

	WL_SKIP_IF(self->skip);
	enabled_load(_metadata, 3);
	ASSERT_EQ(0, wl_table("placement", self->a));
	total = col_sum(_metadata, self->a, "wakeups");
	EXPECT_LT(100ULL, total) TH_LOG("only %llu wakeups counted", total);
	for (i = 0; i < ARRAY_SIZE(wl_place_parts); i++)
		parts += col_sum(_metadata, self->a, wl_place_parts[i]);
	EXPECT_EQ(total, parts);
	EXPECT_GE(total, col_sum(_metadata, self->a, "cross_llc"));
	for (r = 0; r < self->a->nrows; r++) {
		int c = wl_dbg_col(self->a, "sync");

		if (!strcmp(variant->method, "tracepoint")) {
			EXPECT_STREQ("-", self->a->cell[r][c]);
		} else {
			ASSERT_EQ(0, wl_dbg_u64(self->a, r, c, &v));
			EXPECT_GE(total, v);
		}
	}
	/* Rows add up one by one too. */
	for (r = 0; r < self->a->nrows; r++) {
		unsigned long long w, p = 0;

		ASSERT_EQ(0, wl_dbg_get(self->a, self->a->cell[r][0],
					"wakeups", &w));
		for (i = 0; i < ARRAY_SIZE(wl_place_parts); i++) {
			ASSERT_EQ(0, wl_dbg_get(self->a, self->a->cell[r][0],
						wl_place_parts[i], &v));
			p += v;
		}
		EXPECT_EQ(w, p) TH_LOG("row %s", self->a->cell[r][0]);
	}
}

TEST_F_TIMEOUT(wl, reset_zeroes, 60)
{
	unsigned long long v;
	int r, c;

	WL_SKIP_IF(self->skip);
	enabled_load(_metadata, 1);
	ASSERT_EQ(0, wl_table("placement", self->a));
	ASSERT_LT(0ULL, col_sum(_metadata, self->a, "wakeups"));
	ASSERT_EQ(0, wl_knob_set("reset", "1\n"));
	ASSERT_EQ(0, wl_table("placement", self->a));
	for (r = 0; r < self->a->nrows; r++)
		for (c = 1; c < self->a->ncols; c++)
			if (!wl_dbg_u64(self->a, r, c, &v))
				EXPECT_EQ(0ULL, v) TH_LOG("%s %s", self->a->cell[r][0],
						       self->a->col[c]);
	ASSERT_EQ(0, wl_table("decisions", self->a));
	for (r = 0; r < self->a->nrows; r++)
		for (c = 1; c < self->a->ncols; c++)
			if (!wl_dbg_u64(self->a, r, c, &v))
				EXPECT_EQ(0ULL, v);
}

TEST_F_TIMEOUT(wl, disabled_stays_still, 60)
{
	char before[8192], after[8192];
	pid_t pid;

	WL_SKIP_IF(self->skip);
	enabled_load(_metadata, 1);
	ASSERT_LT(0, wl_knob_get("placement", before, sizeof(before)));
	pid = wl_load_start("tcp_stream", "2*cpus", 2);
	ASSERT_LT(0, pid);
	EXPECT_EQ(0, wl_load_wait(pid));
	ASSERT_LT(0, wl_knob_get("placement", after, sizeof(after)));
	EXPECT_STREQ(before, after);
}

struct bad_write {
	const char *data;
	size_t len;	/* 0: strlen(data) */
	const char *why;
};

static const struct bad_write bad_common[] = {
	{ "", 0, "empty" },
	{ " ", 0, "blank" },
	{ "\n", 0, "newline only" },
	{ "\t\n", 0, "whitespace" },
	{ " 1", 0, "leading blank" },
	{ "1 ", 0, "trailing blank" },
	{ "1\n\n", 0, "two newlines" },
	{ "1\0", 2, "trailing NUL" },
	{ "\0" "1", 2, "leading NUL" },
	{ "1\0" "0", 3, "embedded NUL" },
	{ "\x01\x02", 0, "control bytes" },
	{ "\xff\xfe\x80", 0, "binary" },
	{ "-1", 0, "negative" },
	{ "+1", 0, "plus sign" },
	{ "0x1", 0, "hex" },
	{ "4294967296", 0, "u32 overflow" },
	{ "99999999999999999999999999", 0, "overflow" },
	{ "yes", 0, "word" },
	{ "1.0", 0, "decimal point" },
	{ "0123456789012345678901234567890123456789", 0, "overlong" },
};

struct knob {
	const char *name;
	const char *extra[4];	/* further bad values for this knob */
	bool control;		/* needs the policy hook */
};

static const struct knob knobs[] = {
	{ "enable", { "2", "10", "on" }, false },
	{ "reset", { "0", "2", "reset" }, false },
	{ "bias", { "2", "100" }, true },
	{ "imbalance_pct", { "50", "99", "1001", "100000" }, true },
	{ "policy", { "nosuch", "KERNEL", "kernel old", "[old]" }, true },
};

/* Everything a bad write must leave as it was. */
static void snapshot(char *buf, size_t len)
{
	static const char * const names[] = {
		"enable", "placement", "policy", "bias", "imbalance_pct",
	};
	size_t off = 0;
	ssize_t n;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names) && off < len - 1; i++) {
		n = wl_knob_get(names[i], buf + off, len - off);
		if (n > 0)
			off += n;
	}
}

static int knob_write(const char *name, const void *data, size_t len)
{
	char p[256];

	return wl_write_file(wl_path(p, sizeof(p), name), data, len);
}

TEST_F_TIMEOUT(wl, bad_writes_rejected, 90)
{
	static char before[16384], after[16384];
	const size_t big = 1 << 20;
	unsigned int k, i;
	char *mib;
	int err;

	WL_SKIP_IF(self->skip);
	/* Something for a wrongly accepted reset to wipe. */
	enabled_load(_metadata, 1);
	mib = malloc(big);
	ASSERT_NE(NULL, mib);
	memset(mib, '1', big);

	for (k = 0; k < ARRAY_SIZE(knobs); k++) {
		int want = knobs[k].control && !self->hook ?
			   -EOPNOTSUPP : -EINVAL;

		for (i = 0; i < ARRAY_SIZE(bad_common) + 5; i++) {
			const char *data;
			size_t len;
			const char *why;

			if (i < ARRAY_SIZE(bad_common)) {
				data = bad_common[i].data;
				len = bad_common[i].len ?: strlen(data);
				why = bad_common[i].why;
			} else if (i == ARRAY_SIZE(bad_common)) {
				data = mib;
				len = big;
				why = "1 MiB";
			} else {
				data = knobs[k].extra[i - ARRAY_SIZE(bad_common) - 1];
				if (!data)
					continue;
				len = strlen(data);
				why = data;
			}
			snapshot(before, sizeof(before));
			err = knob_write(knobs[k].name, data, len);
			snapshot(after, sizeof(after));
			EXPECT_EQ(want, err) TH_LOG("%s: %s", knobs[k].name, why);
			EXPECT_STREQ(before, after)
				TH_LOG("%s: %s changed state", knobs[k].name, why);
		}
	}
	/* On a stock kernel even valid control writes are refused. */
	if (!self->hook) {
		EXPECT_EQ(-EOPNOTSUPP, wl_knob_set("policy", "kernel"));
		EXPECT_EQ(-EOPNOTSUPP, wl_knob_set("bias", "1"));
		EXPECT_EQ(-EOPNOTSUPP, wl_knob_set("imbalance_pct", "117"));
	}
	free(mib);
}

struct writer {
	int id;
	int bad_ok;	/* bad writes wrongly accepted */
	int good_err;	/* good writes wrongly refused */
};

static void *writer_fn(void *arg)
{
	static const char * const good[] = { "0", "1\n", "1", "0\n" };
	static const char * const bad[] = { "2", "", " 1", "1\0" };
	struct writer *w = arg;
	int i, err;

	for (i = 0; i < 12; i++) {
		err = wl_knob_set("enable", good[(i + w->id) % 4]);
		if (err)
			w->good_err++;
		err = knob_write("enable", bad[(i + w->id) % 4],
				 (i + w->id) % 4 == 3 ? 2 : strlen(bad[(i + w->id) % 4]));
		if (err != -EINVAL)
			w->bad_ok++;
		if (i % 4 == 0)
			wl_knob_set("reset", "1");
	}
	return NULL;
}

TEST_F_TIMEOUT(wl, concurrent_writers, 120)
{
	struct writer w[4] = { { 0 } };
	pthread_t th[4];
	char buf[64];
	pid_t pid;
	int i;

	WL_SKIP_IF(self->skip);
	pid = wl_load_start("tcp_stream", "2", 30);
	ASSERT_LT(0, pid);
	for (i = 0; i < 4; i++) {
		w[i].id = i;
		ASSERT_EQ(0, pthread_create(&th[i], NULL, writer_fn, &w[i]));
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		EXPECT_EQ(0, w[i].good_err);
		EXPECT_EQ(0, w[i].bad_ok);
	}
	wl_load_stop(pid);
	ASSERT_LT(0, wl_knob_get("enable", buf, sizeof(buf)));
	EXPECT_TRUE(!strcmp(buf, "0\n") || !strcmp(buf, "1\n"));
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	ASSERT_LT(0, wl_knob_get("enable", buf, sizeof(buf)));
	EXPECT_STREQ("0\n", buf);
	EXPECT_EQ(0, wl_table("placement", self->a));
}

TEST_F_TIMEOUT(wl, load_enable_unload_cycles, 400)
{
	char params[64];
	pid_t pid;
	int i, ret;

	WL_SKIP_IF(self->skip);
	snprintf(params, sizeof(params), "method=%s", variant->method);
	pid = wl_load_start("tcp_stream", "2*cpus", 300);
	ASSERT_LT(0, pid);
	wl_msleep(500);
	for (i = 0; i < 20; i++) {
		if (wl_module_loaded()) {
			ret = wl_module_unload_retry();
			ASSERT_EQ(0, ret) TH_LOG("cycle %d unload: %s", i,
						 strerror(-ret));
		}
		ret = wl_module_load(params);
		ASSERT_EQ(0, ret) TH_LOG("cycle %d load: %s", i, strerror(-ret));
		ASSERT_EQ(0, wl_knob_set("enable", "1"));
		wl_msleep(50 + 10 * i);
		if (i % 2)
			ASSERT_EQ(0, wl_table("placement", self->a));
		/* Unload with the probes attached and the streams running. */
	}
	ASSERT_EQ(0, wl_module_unload_retry());
	EXPECT_FALSE(wl_module_loaded());
	wl_load_stop(pid);
	ASSERT_EQ(0, wl_module_load(params));
}

TEST_HARNESS_MAIN
