/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the wakelab kselftests: reading and writing
 * debugfs files, the sched features file (read one feature, set it, restore
 * it), and loading/unloading wakelab.ko with finit_module()/delete_module().
 * Header-only (static functions) as is usual in tools/testing/selftests.
 */
#ifndef WAKELAB_UTIL_H
#define WAKELAB_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WL_DEBUGFS		"/sys/kernel/debug"
#define WL_SCHED_FEATURES	WL_DEBUGFS "/sched/features"
#define WL_MODULE_DIR		WL_DEBUGFS "/wakelab"
#define WL_MODULE_PATH_DEFAULT	"/wakelab/modules/wakelab.ko"

/*
 * 6.1's kselftest_harness.h still runs a test body after SKIP() in
 * FIXTURE_SETUP, so fixtures record the reason and each test starts with
 * this.  Needs kselftest_harness.h included first.
 */
#define WL_SKIP_IF(reason)					\
	do {							\
		if (reason)					\
			SKIP(return, "%s", (reason));		\
	} while (0)

/* Read a whole (small) file into buf; returns bytes read or -errno. */
static inline ssize_t wl_read_file(const char *path, char *buf, size_t len)
{
	ssize_t n, off = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (off < (ssize_t)len - 1) {
		n = read(fd, buf + off, len - 1 - off);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		off += n;
	}
	buf[off] = '\0';
	close(fd);
	return off;
}

/* Write len bytes in one write(); returns 0 or -errno of the write. */
static inline int wl_write_file(const char *path, const void *data, size_t len)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, data, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	close(fd);
	return err;
}

static inline int wl_write_str(const char *path, const char *s)
{
	return wl_write_file(path, s, strlen(s));
}

/* Why the kernel-side tests cannot run here, or NULL when they can. */
static inline const char *wl_kernel_test_skip_reason(void)
{
	if (geteuid() != 0)
		return "not root";
	if (access(WL_SCHED_FEATURES, R_OK) != 0)
		return "debugfs or " WL_SCHED_FEATURES " absent (mount debugfs; CONFIG_SCHED_DEBUG)";
	return NULL;
}

/*
 * State of sched feature @name in the features file: 1 set, 0 cleared
 * (NO_name), -ENOENT when the kernel does not have it, other -errno on
 * read errors.
 */
static inline int wl_sched_feat_get(const char *name)
{
	char buf[4096], *tok, *save = NULL;
	ssize_t n;

	n = wl_read_file(WL_SCHED_FEATURES, buf, sizeof(buf));
	if (n < 0)
		return n;
	for (tok = strtok_r(buf, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save)) {
		if (!strcmp(tok, name))
			return 1;
		if (!strncmp(tok, "NO_", 3) && !strcmp(tok + 3, name))
			return 0;
	}
	return -ENOENT;
}

static inline int wl_sched_feat_set(const char *name, bool on)
{
	char tok[128];

	snprintf(tok, sizeof(tok), "%s%s", on ? "" : "NO_", name);
	return wl_write_str(WL_SCHED_FEATURES, tok);
}

/* Whether wakelab.ko is loaded (its debugfs directory exists). */
static inline bool wl_module_loaded(void)
{
	struct stat st;

	return stat(WL_MODULE_DIR, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Path of the module to load: $WAKELAB_MODULE or the guest default. */
static inline const char *wl_module_path(void)
{
	const char *p = getenv("WAKELAB_MODULE");

	return p && *p ? p : WL_MODULE_PATH_DEFAULT;
}

/*
 * Whether the module file itself is missing.  The only load failure a test
 * may skip on: finit_module() also returns -ENOENT when the module's own
 * init fails (a tracepoint or symbol it needs is not there), and that is a
 * failure of the module, not an absent one.
 */
static inline bool wl_module_absent(void)
{
	return access(wl_module_path(), F_OK) && errno == ENOENT;
}

/* Load wakelab.ko with @params; 0, or -errno (-EEXIST if loaded). */
static inline int wl_module_load(const char *params)
{
	int fd, ret;

	fd = open(wl_module_path(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params ? params : "", 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

static inline int wl_module_unload(void)
{
	return syscall(SYS_delete_module, "wakelab", O_NONBLOCK) ? -errno : 0;
}

#endif /* WAKELAB_UTIL_H */
