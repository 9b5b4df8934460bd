/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error messages into a caller's buffer, snprintf() that says when it cut
 * its result, and trimming white space.
 */
#ifndef WL_CORE_TEXT_H
#define WL_CORE_TEXT_H

#include <stddef.h>

/* Format an error message into @err; returns -1. */
int wl_err(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * snprintf() through a va_list, so that paths built from directory entries
 * do not trip -Wformat-truncation; returns -1 when the result was cut.
 */
int wl_fmt(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Strip leading and trailing white space from @s, in place. */
void wl_trim(char *s);

#endif /* WL_CORE_TEXT_H */
