// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: attaching and detaching probes.
 *
 * The trace events are not exported, so every tracepoint is found by name
 * with for_each_kernel_tracepoint().  The callers own their probes and
 * serialise their attach and detach; a detach returns before the probes
 * are done: the caller waits with tracepoint_synchronize_unregister().
 *
 * The kretprobe (one at most) is registered and unregistered whole.  A
 * failed register_kprobe() leaves the address it resolved in the struct
 * (and kprobes refuse an address and a symbol together), so every attempt
 * starts from a cleared one.
 */
#include <linux/kprobes.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "probe.h"

/**
 * struct wl_tp_search - for_each_kernel_tracepoint() state of wl_tp_find()
 * @name: the name looked for
 * @tp: the tracepoint of that name, or NULL
 */
struct wl_tp_search {
	const char *name;
	struct tracepoint *tp;
};

static void wl_tp_match(struct tracepoint *tp, void *priv)
{
	struct wl_tp_search *s = priv;

	if (!strcmp(tp->name, s->name))
		s->tp = tp;
}

/**
 * wl_tp_find() - the kernel's tracepoint called @name
 * @name: tracepoint name
 *
 * Return: the tracepoint, or NULL when this kernel has none by that name.
 */
struct tracepoint *wl_tp_find(const char *name)
{
	struct wl_tp_search s = { .name = name };

	for_each_kernel_tracepoint(wl_tp_match, &s);
	return s.tp;
}

/**
 * wl_tp_attach() - register every probe of @probes not registered yet
 * @probes: the probes
 * @n: how many
 *
 * Return: 0, -ENOENT when a tracepoint is missing, or the registration's
 * error; on error no probe of @probes is registered.
 */
int wl_tp_attach(struct wl_tp_probe *probes, size_t n)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		struct wl_tp_probe *t = &probes[i];

		if (t->attached)
			continue;
		if (!t->tp)
			t->tp = wl_tp_find(t->name);
		ret = t->tp ? tracepoint_probe_register(t->tp, t->func, NULL) :
			      -ENOENT;
		if (ret) {
			wl_tp_detach(probes, n);
			return ret;
		}
		t->attached = true;
	}
	return 0;
}

/* Unregister the probes of @probes; the caller waits for them. */
void wl_tp_detach(struct wl_tp_probe *probes, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!probes[i].attached)
			continue;
		tracepoint_probe_unregister(probes[i].tp, probes[i].func, NULL);
		probes[i].attached = false;
	}
}

static bool test_krp_blacklisted;
module_param(test_krp_blacklisted, bool, 0644);
MODULE_PARM_DESC(test_krp_blacklisted,
		 "test only: point the next kretprobe registration at notify_die(), which kprobes refuse, to test enable after a failed registration");

static struct kretprobe wl_krp;
static bool wl_krp_registered;
static unsigned long wl_krp_nmissed;

/**
 * wl_krp_attach() - register the kretprobe, unless it is registered
 * @symbol: function to probe
 * @entry: entry handler
 * @handler: return handler
 * @data_size: per-instance data of the handlers
 *
 * Return: 0 or the registration's error.
 */
int wl_krp_attach(const char *symbol, kretprobe_handler_t entry,
		  kretprobe_handler_t handler, size_t data_size)
{
	int ret;

	if (wl_krp_registered)
		return 0;
	memset(&wl_krp, 0, sizeof(wl_krp));
	wl_krp.kp.symbol_name = symbol;
	if (READ_ONCE(test_krp_blacklisted)) {
		WRITE_ONCE(test_krp_blacklisted, false);
		wl_krp.kp.symbol_name = "notify_die";
	}
	wl_krp.entry_handler = entry;
	wl_krp.handler = handler;
	wl_krp.data_size = data_size;
	wl_krp.maxactive = 4 * num_possible_cpus();
	ret = register_kretprobe(&wl_krp);
	if (ret)
		return ret;
	wl_krp_registered = true;
	return 0;
}

/* Unregister the kretprobe; no handler runs on return. */
void wl_krp_detach(void)
{
	if (!wl_krp_registered)
		return;
	unregister_kretprobe(&wl_krp);
	wl_krp_nmissed += wl_krp.nmissed;
	wl_krp_registered = false;
}

/* Kretprobe instances missed since load (no free instance). */
unsigned long wl_krp_missed(void)
{
	unsigned long n = wl_krp_nmissed;

	if (wl_krp_registered)
		n += wl_krp.nmissed;
	return n;
}
