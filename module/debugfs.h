/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: the files in /sys/kernel/debug/wakelab/.
 */
#ifndef WAKELAB_DEBUGFS_H
#define WAKELAB_DEBUGFS_H

int wl_debugfs_init(void);
void wl_debugfs_exit(void);

#endif /* WAKELAB_DEBUGFS_H */
