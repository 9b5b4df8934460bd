/* SPDX-License-Identifier: GPL-2.0 */
/* Whole-file reads and one-write() writes. */
#ifndef WL_CORE_FILE_H
#define WL_CORE_FILE_H

#include <stddef.h>
#include <sys/types.h>

/* Read a whole (small) file into @buf; returns bytes read or -errno. */
ssize_t wl_read_file(const char *path, char *buf, size_t len);

/* Write @len bytes in one write(); returns 0 or -errno of the write. */
int wl_write_file(const char *path, const void *data, size_t len);

/* wl_write_file() of the string @s. */
int wl_write_str(const char *path, const char *s);

#endif /* WL_CORE_FILE_H */
