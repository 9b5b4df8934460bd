// SPDX-License-Identifier: GPL-2.0
/*
 * The scheduler's feature flags in debugfs; see include/wl/kernel/features.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "wl/core/file.h"
#include "wl/kernel/features.h"

int wl_sched_feat_get(const char *name)
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

int wl_sched_feat_set(const char *name, bool on)
{
	char tok[128];

	snprintf(tok, sizeof(tok), "%s%s", on ? "" : "NO_", name);
	return wl_write_str(WL_SCHED_FEATURES, tok);
}
