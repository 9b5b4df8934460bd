// SPDX-License-Identifier: GPL-2.0
/*
 * wakelab: the files in /sys/kernel/debug/wakelab/.
 *
 * Tables (placement, llc, caps, decisions, oldcheck) share one format:
 * '#' lines are comments, the first other line names the columns, each
 * following line is one record whose first field is its key.  Knobs
 * (enable, reset, policy, bias, imbalance_pct) validate every write
 * strictly: anything but an exact, documented value fails with -EINVAL
 * (-EOPNOTSUPP when the kernel lacks the policy hook) and changes nothing.
 * All files are root-only.
 */
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>

#include "wakelab.h"

/* Longest accepted write, newline included ("idle+weight\n" fits). */
#define WL_WRITE_MAX	32
#define WL_PCT_MIN	100
#define WL_PCT_MAX	1000

unsigned int wl_bias = 1;
unsigned int wl_imbalance_pct;

static struct dentry *wl_dir;

/**
 * wl_get_word() - copy one written word from user space
 * @ubuf: user buffer
 * @count: its length
 * @ppos: file position (must be 0: one write, one value)
 * @buf: destination, at least WL_WRITE_MAX bytes
 *
 * Accepts printable non-blank characters and one trailing newline.
 * Return: 0, -EINVAL for anything else, -EFAULT.
 */
static int wl_get_word(const char __user *ubuf, size_t count, loff_t *ppos,
		       char *buf)
{
	size_t i;

	if (*ppos || !count || count >= WL_WRITE_MAX)
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

/* A decimal number made of digits only (no sign, no base prefix). */
static int wl_get_uint(const char __user *ubuf, size_t count, loff_t *ppos,
		       unsigned int *val)
{
	char buf[WL_WRITE_MAX];
	int ret;

	ret = wl_get_word(ubuf, count, ppos, buf);
	if (ret)
		return ret;
	if (!isdigit(buf[0]) || kstrtouint(buf, 10, val))
		return -EINVAL;
	return 0;
}

static int wl_enable_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d\n", wl_tp_enabled());
	return 0;
}

static ssize_t wl_enable_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	unsigned int val;
	int ret;

	ret = wl_get_uint(ubuf, count, ppos, &val);
	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL;
	mutex_lock(&wl_lock);
	if (val)
		ret = wl_tp_enable();
	else
		wl_tp_disable();
	mutex_unlock(&wl_lock);
	return ret ? ret : count;
}

static ssize_t wl_reset_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	unsigned int val;
	int ret;

	ret = wl_get_uint(ubuf, count, ppos, &val);
	if (ret)
		return ret;
	if (val != 1)
		return -EINVAL;
	mutex_lock(&wl_lock);
	wl_stats_reset();
	mutex_unlock(&wl_lock);
	return count;
}

static ssize_t wl_policy_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char buf[WL_WRITE_MAX];
	int ret;

	if (!wl_hook_present())
		return -EOPNOTSUPP;
	ret = wl_get_word(ubuf, count, ppos, buf);
	if (ret)
		return ret;
	mutex_lock(&wl_lock);
	ret = wl_policy_set(buf);
	mutex_unlock(&wl_lock);
	return ret ? ret : count;
}

static int wl_bias_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", READ_ONCE(wl_bias));
	return 0;
}

static ssize_t wl_bias_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	unsigned int val;
	int ret;

	if (!wl_hook_present())
		return -EOPNOTSUPP;
	ret = wl_get_uint(ubuf, count, ppos, &val);
	if (ret)
		return ret;
	if (val > 1)
		return -EINVAL;
	WRITE_ONCE(wl_bias, val);
	return count;
}

static int wl_pct_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", READ_ONCE(wl_imbalance_pct));
	return 0;
}

static ssize_t wl_pct_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	unsigned int val;
	int ret;

	if (!wl_hook_present())
		return -EOPNOTSUPP;
	ret = wl_get_uint(ubuf, count, ppos, &val);
	if (ret)
		return ret;
	if (val && (val < WL_PCT_MIN || val > WL_PCT_MAX))
		return -EINVAL;
	WRITE_ONCE(wl_imbalance_pct, val);
	return count;
}

/* kernel.sched_schedstats as the sysctl file shows it, or "-". */
static void wl_show_schedstats(struct seq_file *m)
{
	char buf[8] = "";
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	f = filp_open("/proc/sys/kernel/sched_schedstats", O_RDONLY, 0);
	if (IS_ERR(f)) {
		seq_puts(m, "schedstats -\n");
		return;
	}
	n = kernel_read(f, buf, sizeof(buf) - 1, &pos);
	filp_close(f, NULL);
	if (n <= 0 || !isdigit(buf[0])) {
		seq_puts(m, "schedstats -\n");
		return;
	}
	seq_printf(m, "schedstats %c\n", buf[0]);
}

static const char * const wl_caps_tps[] = {
	"sched_waking", "sched_migrate_task", "sched_update_nr_running_tp",
	"pelt_cfs_tp", "sched_wake_affine_tp",
};

static int wl_caps_show(struct seq_file *m, void *v)
{
	int i;

	seq_puts(m, "# what this kernel offers wakelab; yes/no unless noted\n");
	seq_puts(m, "cap value\n");
	seq_printf(m, "release %s\n", utsname()->release);
	seq_printf(m, "method %s\n", wl_method == WL_METHOD_KRETPROBE ?
		   "kretprobe" : "tracepoint");
	seq_printf(m, "kretprobe %s\n", wl_tp_kretprobe_ok() ? "yes" : "no");
	for (i = 0; i < ARRAY_SIZE(wl_caps_tps); i++)
		seq_printf(m, "tp_%s %s\n", wl_caps_tps[i],
			   wl_tp_found(wl_caps_tps[i]) ? "yes" : "no");
	seq_printf(m, "hook %s\n", wl_hook_present() ? "yes" : "no");
	seq_printf(m, "llc_source %s\n", wl_hook_present() ?
		   "sched_domain_shared" : "tracepoint");
	seq_printf(m, "rq_located %s\n", wl_llc_live() ? "yes" : "no");
	wl_show_schedstats(m);
	return 0;
}

struct wl_file;
static int wl_open_show(struct inode *inode, struct file *file);

#define WL_FOPS(_name, _write)						\
static const struct file_operations _name = {				\
	.owner		= THIS_MODULE,					\
	.open		= wl_open_show,					\
	.read		= seq_read,					\
	.llseek		= seq_lseek,					\
	.release	= single_release,				\
	.write		= _write,					\
}

WL_FOPS(wl_show_fops, NULL);
WL_FOPS(wl_enable_fops, wl_enable_write);
WL_FOPS(wl_policy_fops, wl_policy_write);
WL_FOPS(wl_bias_fops, wl_bias_write);
WL_FOPS(wl_pct_fops, wl_pct_write);

static const struct file_operations wl_reset_fops = {
	.owner		= THIS_MODULE,
	.open		= nonseekable_open,
	.write		= wl_reset_write,
	.llseek		= no_llseek,
};

/**
 * struct wl_file - one file of the directory
 * @name: file name
 * @mode: permissions (root only)
 * @show: seq_file show function (passed as i_private), or NULL
 * @fops: file operations
 */
struct wl_file {
	const char *name;
	umode_t mode;
	int (*show)(struct seq_file *m, void *v);
	const struct file_operations *fops;
};

static const struct wl_file wl_files[] = {
	{ "enable",		0600, wl_enable_show,	  &wl_enable_fops },
	{ "reset",		0200, NULL,		  &wl_reset_fops },
	{ "caps",		0400, wl_caps_show,	  &wl_show_fops },
	{ "placement",		0400, wl_placement_show,  &wl_show_fops },
	{ "llc",		0400, wl_llc_show,	  &wl_show_fops },
	{ "decisions",		0400, wl_decisions_show,  &wl_show_fops },
	{ "oldcheck",		0400, wl_oldcheck_show,	  &wl_show_fops },
	{ "policy",		0600, wl_policy_show,	  &wl_policy_fops },
	{ "bias",		0600, wl_bias_show,	  &wl_bias_fops },
	{ "imbalance_pct",	0600, wl_pct_show,	  &wl_pct_fops },
};

static int wl_open_show(struct inode *inode, struct file *file)
{
	const struct wl_file *f = inode->i_private;

	return single_open(file, f->show, NULL);
}

int wl_debugfs_init(void)
{
	int i;

	wl_dir = debugfs_create_dir("wakelab", NULL);
	if (IS_ERR(wl_dir))
		return PTR_ERR(wl_dir);
	for (i = 0; i < ARRAY_SIZE(wl_files); i++)
		debugfs_create_file(wl_files[i].name, wl_files[i].mode, wl_dir,
				    (void *)&wl_files[i], wl_files[i].fops);
	return 0;
}

/* Remove the files; waits for operations in progress to finish. */
void wl_debugfs_exit(void)
{
	debugfs_remove_recursive(wl_dir);
}
