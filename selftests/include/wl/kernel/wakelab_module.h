/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab.ko from userspace: load and unload it (telling a missing module,
 * a skip, from one that fails to load, a failure), read its tables and
 * write its knobs in /sys/kernel/debug/wakelab/, and compare its llc table
 * with sysfs cacheinfo.  With kselftest_harness.h included first, also the
 * tests' fixture helpers (WL_SKIP_IF(), wl_module_setup()).
 */
#ifndef WL_KERNEL_WAKELAB_MODULE_H
#define WL_KERNEL_WAKELAB_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>

#include "wl/kernel/wakelab_tables.h"
#include "wl/kernel/features.h"

#define WL_MODULE_DIR		WL_DEBUGFS "/wakelab"
#define WL_MODULE_PATH_DEFAULT	"/wakelab/modules/wakelab.ko"
#define WL_PARAM_DIR		"/sys/module/wakelab/parameters/"

/* Placement columns that partition the wakeups. */
#define WL_NR_PLACE_PARTS	5
extern const char * const wl_place_parts[WL_NR_PLACE_PARTS];

/* The files of the module that are tables (<linux/wakelab.h>). */
#define WL_NR_TABLES		7
extern const char * const wl_table_files[WL_NR_TABLES];

/* Whether the module's file @name is a table. */
bool wl_is_table(const char *name);

/* Why the kernel-side tests cannot run here, or NULL when they can. */
const char *wl_kernel_test_skip_reason(void);

/* Whether wakelab.ko is loaded (its debugfs directory exists). */
bool wl_module_loaded(void);

/* Path of the module to load: $WAKELAB_MODULE or the guest default. */
const char *wl_module_path(void);

/*
 * Whether the module file itself is missing.  The only load failure a test
 * may skip on: finit_module() also returns -ENOENT when the module's own
 * init fails (a tracepoint or symbol it needs is not there), and that is a
 * failure of the module, not an absent one.
 */
bool wl_module_absent(void);

/* Load wakelab.ko with @params (NULL: none); 0, or -errno (-EEXIST). */
int wl_module_load(const char *params);

/* delete_module(O_NONBLOCK): 0 or -errno. */
int wl_module_unload(void);

/*
 * Unload, retrying for up to 5 s while a file of the module is open
 * elsewhere: an open debugfs file holds a module reference, so
 * delete_module(O_NONBLOCK) fails with EAGAIN until it is closed, and a
 * running wl_stream reads the module's tables at each sample.  0, or -errno.
 */
int wl_module_unload_retry(void);

/*
 * Make sure wakelab.ko is loaded with method @method ("" for any):
 * reloads it when loaded with another one.  0, or -errno.
 */
int wl_module_ensure(const char *method, bool *loaded_here);

/*
 * The skip reason for a load that failed because the module file is not
 * there; NULL for success and for every other failure (with the file
 * present, -ENOENT is the module's own init failing).
 */
const char *wl_module_absent_reason(int err);

/*
 * The skip reason for a wl_module_ensure() failure that is the machine's,
 * not the module's (no wakelab.ko, module loading forbidden); NULL for
 * success and for every real failure.
 */
const char *wl_module_skip_reason(int err);

/*
 * The module tests' setup without the harness: NULL with *@ret the result
 * of wl_module_ensure(@method), or why the test must skip (a kernel that
 * cannot run it, no module file, module loading forbidden).
 */
const char *wl_module_prepare(const char *method, bool *loaded_here, int *ret);

/* Path of file @name of the module into @buf; returns @buf. */
const char *wl_path(char *buf, size_t len, const char *name);

/* Read the module's table @name into @t: 0 or -errno (wl_table_load()). */
int wl_module_table(const char *name, struct wl_table *t);

/* Write @s to the module's file @name: 0 or -errno. */
int wl_knob_set(const char *name, const char *s);

/* Write @len bytes of @data to the module's file @name: 0 or -errno. */
int wl_knob_write(const char *name, const void *data, size_t len);

/* Read the module's file @name: length or -errno. */
ssize_t wl_knob_get(const char *name, char *buf, size_t len);

/* Value of capability @cap from the caps table ("" when absent). */
const char *wl_cap(const char *cap);

/**
 * wl_llc_check() - the module's llc table against the CPUs and sysfs
 * @t: the llc table
 * @why: where the first mismatch is described
 * @len: size of @why
 *
 * Every row's cpus must be online CPUs, the row keyed by the first of
 * them, and equal the online CPUs sharing their last-level cache in sysfs
 * cacheinfo; every online CPU must be in exactly one row.
 *
 * Return: 0; -EINVAL on a mismatch; -ENODATA when all else held but sysfs
 * has no cache information for some online CPU, whose LLC was therefore
 * not compared; -EIO when the online CPUs are unreadable.
 */
int wl_llc_check(const struct wl_table *t, char *why, size_t len);

#ifdef __KSELFTEST_HARNESS_H
/*
 * 6.1's kselftest_harness.h still runs a test body after SKIP() in
 * FIXTURE_SETUP, so fixtures record the reason and each test starts with
 * this.
 */
#define WL_SKIP_IF(reason)					\
	do {							\
		if (reason)					\
			SKIP(return, "%s", (reason));		\
	} while (0)

/*
 * Fail the test on load result @ret unless it is 0, with the errno and
 * where the module says why; @what describes the load (parameters).
 */
static inline void wl_assert_loaded(struct __test_metadata *_metadata,
				    int ret, const char *what)
{
	ASSERT_EQ(0, ret)
		TH_LOG("loading %s (%s): %s (errno %d); see dmesg for the module's own error",
		       wl_module_path(), what, strerror(-ret), -ret);
}

/*
 * The module tests' fixture setup: wl_module_prepare(), any load failure
 * but the skip reasons failing the test.
 */
static inline const char *wl_module_setup(struct __test_metadata *_metadata,
					  const char *method, bool *loaded_here)
{
	int ret;
	const char *skip = wl_module_prepare(method, loaded_here, &ret);

	wl_assert_loaded(_metadata, skip ? 0 : ret,
			 *method ? method : "default method");
	return skip;
}
#endif /* __KSELFTEST_HARNESS_H */

#endif /* WL_KERNEL_WAKELAB_MODULE_H */
