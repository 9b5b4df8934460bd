// SPDX-License-Identifier: GPL-2.0
/* Whole-file reads and one-write() writes; see include/wl/core/file.h. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "wl/core/file.h"

ssize_t wl_read_file(const char *path, char *buf, size_t len)
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

int wl_write_file(const char *path, const void *data, size_t len)
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

int wl_write_str(const char *path, const char *s)
{
	return wl_write_file(path, s, strlen(s));
}
