// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: the files in /sys/kernel/debug/wakelab/.
 *
 * Tables (placement, placement_others, llc, caps, decisions,
 * decisions_others, oldcheck) share the format of
 * <linux/wakelab.h>: a version line, '#' comment lines, a line naming the
 * columns, then one record per line whose first field is its key.  Knobs
 * (enable, reset, policy, bias, imbalance_pct, workload) validate every write
 * strictly: anything but an exact, documented value fails with -EINVAL
 * (-EOPNOTSUPP when the kernel lacks the policy hook) and changes nothing.
 * All files are root-only.
 */
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>

#include "debugfs.h"
#include "llc_table.h"
#include "place.h"
#include "policy.h"
#include "probe.h"
#include "rq.h"
#include "stats.h"
#include "table.h"
#include "workload.h"

/* Longest accepted write, newline included ("idle+weight\n" fits). */
#define WL_WRITE_MAX	32

static struct dentry *wl_dir;

/**
 * wl_get_word_max() - copy one written word from user space
 * @ubuf: user buffer
 * @count: its length
 * @ppos: file position (must be 0: one write, one value)
 * @buf: destination
 * @size: its size: the longest write accepted is @size - 1 bytes
 *
 * Accepts printable non-blank characters and one trailing newline.
 * Return: 0, -EINVAL for anything else, -EFAULT.
 */
static int wl_get_word_max(const char __user *ubuf, size_t count,
			   loff_t *ppos, char *buf, size_t size)
{
	size_t i;

	if (*ppos || !count || count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (buf[count - 1] == '\n')
		buf[--count] = '\0';
	if (!count)
		return -EINVAL;
	for (i = 0; i < count; i++) {
		if (!isgraph(buf[i]))
			return -EINVAL;
	}
	return 0;
}

/* A knob's word: shorter than WL_WRITE_MAX, into a buffer that size. */
static int wl_get_word(const char __user *ubuf, size_t count, loff_t *ppos,
		       char *buf)
{
	return wl_get_word_max(ubuf, count, ppos, buf, WL_WRITE_MAX);
}

/**
 * struct wl_knob - a file that holds one number
 * @get: its value; NULL for a file that cannot be read
 * @set: takes a value: 0, or -EINVAL (nothing changed) for a wrong one
 * @control: needs the policy hook (-EOPNOTSUPP without it)
 */
struct wl_knob {
	unsigned int (*get)(void);
	int (*set)(unsigned int val);
	bool control;
};

static int wl_debugfs_knob_get(void *data, u64 *val)
{
	const struct wl_knob *k = data;

	*val = k->get();
	return 0;
}

/*
 * Knobs are read through the stock attribute helpers, as
 * DEFINE_DEBUGFS_ATTRIBUTE() sets them up, but written through
 * wl_debugfs_knob_write(): simple_attr_write() parses with
 * kstrtoull(..., 0, ...), which takes "+1", "0x1" and octal ("0117" is 79),
 * stops at a NUL, truncates a long write and ignores the file position.
 */
static int wl_debugfs_knob_open(struct inode *inode, struct file *file)
{
	const struct wl_knob *k = inode->i_private;

	return simple_attr_open(inode, file,
				k->get ? wl_debugfs_knob_get : NULL, NULL,
				"%llu\n");
}

/* A decimal number made of digits only (no sign, no base prefix). */
static ssize_t wl_debugfs_knob_write(struct file *file,
				     const char __user *ubuf, size_t count,
				     loff_t *ppos)
{
	const struct wl_knob *k = file_inode(file)->i_private;
	struct dentry *dentry = file->f_path.dentry;
	char buf[WL_WRITE_MAX];
	unsigned int val;
	int ret;

	if (k->control && !wl_policy_hook_present())
		return -EOPNOTSUPP;
	ret = wl_get_word(ubuf, count, ppos, buf);
	if (ret)
		return ret;
	if (!isdigit(buf[0]) || kstrtouint(buf, 10, &val))
		return -EINVAL;
	/* As debugfs_attr_write(): wl_debugfs_exit() waits for it. */
	ret = debugfs_file_get(dentry);
	if (ret)
		return ret;
	ret = k->set(val);
	debugfs_file_put(dentry);
	return ret ? ret : count;
}

static const struct file_operations wl_debugfs_knob_fops = {
	.owner		= THIS_MODULE,
	.open		= wl_debugfs_knob_open,
	.release	= simple_attr_release,
	.read		= debugfs_attr_read,
	.write		= wl_debugfs_knob_write,
};

static unsigned int wl_enable_get(void)
{
	return wl_place_enabled();
}

static int wl_enable_set(unsigned int val)
{
	if (val > 1)
		return -EINVAL;
	if (val)
		return wl_place_enable();
	wl_place_disable();
	return 0;
}

static int wl_reset_set(unsigned int val)
{
	if (val != 1)
		return -EINVAL;
	wl_stats_reset();
	return 0;
}

static const struct wl_knob wl_enable = { wl_enable_get, wl_enable_set };
static const struct wl_knob wl_reset = { NULL, wl_reset_set };
static const struct wl_knob wl_bias = {
	wl_policy_bias, wl_policy_set_bias, true
};

static const struct wl_knob wl_imbalance_pct = {
	wl_policy_imbalance_pct, wl_policy_set_imbalance_pct, true
};

static int wl_policy_open(struct inode *inode, struct file *file)
{
	return single_open(file, wl_policy_show, NULL);
}

static ssize_t wl_policy_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char buf[WL_WRITE_MAX];
	int ret;

	if (!wl_policy_hook_present())
		return -EOPNOTSUPP;
	ret = wl_get_word(ubuf, count, ppos, buf);
	if (ret)
		return ret;
	ret = wl_policy_set(buf);
	return ret ? ret : count;
}

static const struct file_operations wl_policy_fops = {
	.owner		= THIS_MODULE,
	.open		= wl_policy_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
	.write		= wl_policy_write,
};

static int wl_workload_show(struct seq_file *m, void *v)
{
	wl_workload_show_path(m);
	return 0;
}

static int wl_workload_open(struct inode *inode, struct file *file)
{
	return single_open(file, wl_workload_show, NULL);
}

/* A cgroup v2 path, or "/" for every task; see workload.c. */
static ssize_t wl_workload_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char buf[WL_WORKLOAD_PATH_MAX];
	int ret;

	ret = wl_get_word_max(ubuf, count, ppos, buf, sizeof(buf));
	if (ret)
		return ret;
	ret = wl_workload_set(buf);
	return ret ? ret : count;
}

static const struct file_operations wl_workload_fops = {
	.owner		= THIS_MODULE,
	.open		= wl_workload_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
	.write		= wl_workload_write,
};

static const char * const wl_caps_tps[] = {
	"sched_waking", "sched_migrate_task", "sched_update_nr_running_tp",
	"pelt_cfs_tp", "sched_wake_affine_tp",
};

static const char * const wl_caps_cols[] = {
	WAKELAB_CAPS_COLUMNS(WL_TABLE_NAME)
};

static const char *wl_yes(bool yes)
{
	return yes ? "yes" : "no";
}

static int wl_caps_show(struct seq_file *m, void *v)
{
	int i;

	wl_table_put_version(m);
	seq_puts(m, "# what this kernel offers wakelab; yes/no unless noted\n");
	wl_table_put_header(m, WAKELAB_CAPS_KEY, wl_caps_cols,
			    ARRAY_SIZE(wl_caps_cols));
	seq_printf(m, "release %s\n", utsname()->release);
	seq_printf(m, "method %s\n",
		   wl_place_method() == WL_METHOD_KRETPROBE ?
		   "kretprobe" : "tracepoint");
	seq_printf(m, "kretprobe %s\n",
		   wl_yes(wl_krp_supported() && wl_place_krp_args_known()));
	for (i = 0; i < ARRAY_SIZE(wl_caps_tps); i++)
		seq_printf(m, "tp_%s %s\n", wl_caps_tps[i],
			   wl_yes(wl_tp_find(wl_caps_tps[i])));
	seq_printf(m, "hook %s\n", wl_yes(wl_policy_hook_present()));
	seq_printf(m, "llc_source %s\n", wl_policy_hook_present() ?
		   "sched_domain_shared" : "tracepoint");
	seq_printf(m, "rq_located %s\n", wl_yes(wl_rq_located()));
	seq_printf(m, "rq_reason %s\n", wl_rq_reason());
	seq_printf(m, "layout %s\n", wl_rq_layout());
	seq_printf(m, "llc_nr_running %s\n", wl_policy_hook_present() ?
		   "sched_domain_shared" : wl_rq_nr_source());
	seq_printf(m, "krp_args %s\n", wl_yes(wl_place_krp_args_known()));
	seq_printf(m, "wf_sync %s\n", wl_yes(wl_place_wf_sync_known()));
	return 0;
}

DEFINE_SHOW_ATTRIBUTE(wl_caps);
DEFINE_SHOW_ATTRIBUTE(wl_placement);
DEFINE_SHOW_ATTRIBUTE(wl_placement_others);
DEFINE_SHOW_ATTRIBUTE(wl_llc);
DEFINE_SHOW_ATTRIBUTE(wl_decisions);
DEFINE_SHOW_ATTRIBUTE(wl_decisions_others);
DEFINE_SHOW_ATTRIBUTE(wl_oldcheck);

/**
 * struct wl_file - one file of the directory
 * @name: file name
 * @mode: permissions (root only)
 * @fops: file operations
 * @knob: the number it holds, for a knob (&wl_debugfs_knob_fops)
 */
struct wl_file {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
	const struct wl_knob *knob;
};

static const struct wl_file wl_files[] = {
	{ "enable",		0600, &wl_debugfs_knob_fops, &wl_enable },
	{ "reset",		0200, &wl_debugfs_knob_fops, &wl_reset },
	{ "caps",		0400, &wl_caps_fops },
	{ "placement",		0400, &wl_placement_fops },
	{ "placement_others",	0400, &wl_placement_others_fops },
	{ "workload",		0600, &wl_workload_fops },
	{ "llc",		0400, &wl_llc_fops },
	{ "decisions",		0400, &wl_decisions_fops },
	{ "decisions_others",	0400, &wl_decisions_others_fops },
	{ "oldcheck",		0400, &wl_oldcheck_fops },
	{ "policy",		0600, &wl_policy_fops },
	{ "bias",		0600, &wl_debugfs_knob_fops, &wl_bias },
	{ "imbalance_pct",	0600, &wl_debugfs_knob_fops, &wl_imbalance_pct },
};

int wl_debugfs_init(void)
{
	const struct wl_file *f;

	wl_dir = debugfs_create_dir("wakelab", NULL);
	if (IS_ERR(wl_dir))
		return PTR_ERR(wl_dir);
	for (f = wl_files; f < wl_files + ARRAY_SIZE(wl_files); f++) {
		/* Knobs use the stock attribute helpers: no proxy needed. */
		if (f->knob)
			debugfs_create_file_unsafe(f->name, f->mode, wl_dir,
						   (void *)f->knob, f->fops);
		else
			debugfs_create_file(f->name, f->mode, wl_dir, NULL,
					    f->fops);
	}
	return 0;
}

/* Remove the files; waits for operations in progress to finish. */
void wl_debugfs_exit(void)
{
	debugfs_remove_recursive(wl_dir);
}
