/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakelab: attaching and detaching probes -- tracepoints found by name and
 * the one kretprobe.
 */
#ifndef WAKELAB_PROBE_H
#define WAKELAB_PROBE_H

#include <linux/kprobes.h>
#include <linux/types.h>

struct tracepoint;

/**
 * struct wl_tp_probe - a probe on a tracepoint that is found by name
 * @name: tracepoint name
 * @func: probe function
 * @tp: the tracepoint, looked up at the first attach
 * @attached: the probe is registered
 */
struct wl_tp_probe {
	const char *name;
	void *func;
	struct tracepoint *tp;
	bool attached;
};

struct tracepoint *wl_tp_find(const char *name);
int wl_tp_attach(struct wl_tp_probe *probes, size_t n);
void wl_tp_detach(struct wl_tp_probe *probes, size_t n);

int wl_krp_attach(const char *symbol, kretprobe_handler_t entry,
		  kretprobe_handler_t handler, size_t data_size);
void wl_krp_detach(void);
unsigned long wl_krp_missed(void);

static inline bool wl_krp_supported(void)
{
	return IS_ENABLED(CONFIG_KRETPROBES);
}

#endif /* WAKELAB_PROBE_H */
