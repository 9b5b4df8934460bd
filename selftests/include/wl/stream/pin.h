/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU pair each wl_stream instance's sender and receiver get for the
 * --pin modes same-cpu, same-llc and cross-llc, from the LLC groups of
 * wl/kernel/topo.h.
 */
#ifndef WL_STREAM_PIN_H
#define WL_STREAM_PIN_H

#include "wl/kernel/topo.h"
#include "wl/stream/cfg.h"

/* NULL when @mode can be honoured here, else why not. */
const char *wl_pin_unsupported(const struct wl_topo *t, enum wl_pin mode);

/**
 * wl_pin_cpus() - CPUs of instance @i's sender and receiver
 * @t: topology
 * @mode: pin mode; WL_PIN_NONE gives -1, -1
 * @i: instance number
 * @snd, @rcv: the CPUs
 *
 * Instances go round-robin over the LLC groups usable for @mode, and within
 * a group over its CPUs (same-llc: over CPU pairs), so they spread out
 * before they share.
 */
void wl_pin_cpus(const struct wl_topo *t, enum wl_pin mode, int i, int *snd,
		 int *rcv);

#endif /* WL_STREAM_PIN_H */
