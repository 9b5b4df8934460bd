// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzzer for the writable files of /sys/kernel/debug/wakelab/ (enable,
 * reset, policy, bias, imbalance_pct).  Each file gets
 * $WAKELAB_FUZZ_WRITES generated writes (default 1000; make check-debug
 * runs 10000): random bytes, boundary numbers, overlong and unterminated
 * input, embedded NULs, writes at an offset (lseek() then write(), a
 * write after a read on the same descriptor; pwrite(), which these files
 * refuse with -ESPIPE), a value split over two writes, buffers that run
 * into an inaccessible page and the valid words with noise around them.  A reference model
 * of the documented rules (docs/ABI/debugfs-wakelab: one write carries one
 * value, at offset 0, shorter than 32 bytes, printable non-blank bytes and
 * one optional trailing newline; -EOPNOTSUPP for the control knobs on a
 * kernel without the policy hook, -EINVAL for anything else) predicts
 * every write's result, and after every write the file's read-back state
 * must match the model: a rejected write changes nothing.  The seed is
 * printed ($WAKELAB_FUZZ_SEED repeats a run).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/types.h>

#include "../kselftest_harness.h"
#include "wl/core/file.h"
#include "wl/core/proc.h"
#include "wl/kernel/wakelab_module.h"

#define FUZZ_DEFAULT_WRITES	1000
#define FUZZ_WRITE_MAX		32	/* module: accepted writes are shorter */
#define FUZZ_BUF		(1 << 20)
#define FUZZ_PCT_MIN		100
#define FUZZ_PCT_MAX		1000

enum knob_kind { K_ENABLE, K_RESET, K_POLICY, K_BIAS, K_PCT };

/* How a generated input reaches the file. */
enum how {
	H_WRITE,	/* open, write(), close */
	H_PWRITE,	/* pwrite(): seq_file and nonseekable files say -ESPIPE */
	H_SEEK,		/* lseek() to an offset, then write() */
	H_SPLIT,	/* two write()s on one descriptor */
	H_AFTER_READ,	/* read() one byte, then write() on the same fd */
	H_FAULT,	/* the buffer runs into an inaccessible page */
	H_NR
};

static const char * const how_name[] = {
	"write", "pwrite", "seek", "split", "after-read", "fault",
};

struct fuzz {
	enum knob_kind kind;
	const char *file;
	bool hook;		/* kernel has the policy hook */
	char path[256];
	/* the model */
	unsigned int value;	/* enable, bias, imbalance_pct */
	int policy;		/* active policy's index */
	unsigned long long placed;	/* reset: placement total */
	/* policy names, from the policy file */
	struct wl_policy_list pol;
	/* counters for the summary */
	unsigned long writes, accepted, einval, eopnotsupp, efault, espipe;
	unsigned long per_how[H_NR];
	struct wl_table *t;
	unsigned char *big;
	unsigned char *page;	/* two pages, the second PROT_NONE */
	long pagesz;
};

/* xorshift64*: reproducible from the printed seed. */
static __u64 rng_state;

static __u64 rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static unsigned int rn(unsigned int n)
{
	return n ? rnd() % n : 0;
}

/* The kernel's isgraph(): lib/ctype.c classes, Latin-1 included. */
static bool k_isgraph(unsigned char c)
{
	return (c >= 0x21 && c <= 0x7e) || c >= 0xa1;
}

/*
 * Model of one write of @len bytes at offset @pos: 0 (accepted, *val or
 * *pidx set) or the -errno the module documents.
 */
static int model(const struct fuzz *f, const unsigned char *d, size_t len,
		 long long pos, bool fault, unsigned int *val, int *pidx)
{
	char w[FUZZ_WRITE_MAX];
	unsigned long long v;
	size_t i, n = len;
	int p;

	if (f->kind != K_ENABLE && f->kind != K_RESET && !f->hook)
		return -EOPNOTSUPP;
	if (pos || !len || len >= FUZZ_WRITE_MAX)
		return -EINVAL;
	if (fault)
		return -EFAULT;
	memcpy(w, d, len);
	if (w[n - 1] == '\n')
		n--;
	if (!n)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!k_isgraph(w[i]))
			return -EINVAL;
	w[n] = '\0';
	if (f->kind == K_POLICY) {
		for (p = 0; p < f->pol.n; p++)
			if (!strcmp(w, f->pol.name[p])) {
				*pidx = p;
				return 0;
			}
		return -EINVAL;
	}
	/* Digits only, no sign, no base prefix, fits an unsigned int. */
	v = 0;
	for (i = 0; i < n; i++) {
		if (w[i] < '0' || w[i] > '9')
			return -EINVAL;
		v = v * 10 + (w[i] - '0');
		if (v > UINT_MAX)
			return -EINVAL;
	}
	switch (f->kind) {
	case K_ENABLE:
	case K_BIAS:
		if (v > 1)
			return -EINVAL;
		break;
	case K_RESET:
		if (v != 1)
			return -EINVAL;
		break;
	case K_PCT:
		if (v && (v < FUZZ_PCT_MIN || v > FUZZ_PCT_MAX))
			return -EINVAL;
		break;
	default:
		break;
	}
	*val = v;
	return 0;
}

/* Sum of the placement table's wakeups column. */
static int placed_total(struct fuzz *f, unsigned long long *sum)
{
	unsigned long long v;
	int r, c, ret;

	ret = wl_module_table("placement", f->t);
	if (ret)
		return ret;
	c = wl_table_col(f->t, "wakeups");
	if (c < 0)
		return -EINVAL;
	*sum = 0;
	for (r = 0; r < f->t->nrows; r++)
		if (!wl_table_u64(f->t, r, c, &v))
			*sum += v;
	return 0;
}

/*
 * The file's state as read back: value files hold one decimal number and
 * a newline, policy its list with the active name bracketed, reset (not
 * readable) the placement total.  0 when it matches the model.
 */
static int check_state(struct fuzz *f, char *why, size_t len)
{
	struct wl_policy_list pol;
	unsigned long long sum;
	char buf[4096], want[32];
	ssize_t n;

	if (f->kind == K_RESET) {
		if (placed_total(f, &sum)) {
			snprintf(why, len, "placement unreadable");
			return -1;
		}
		if (sum != f->placed) {
			snprintf(why, len, "placement total %llu, model %llu",
				 sum, f->placed);
			return -1;
		}
		return 0;
	}
	n = wl_read_file(f->path, buf, sizeof(buf));
	if (n < 0) {
		snprintf(why, len, "read: %s", strerror(-n));
		return -1;
	}
	if (f->kind == K_POLICY) {
		if (wl_policy_parse(buf, &pol) || pol.n != f->pol.n ||
		    strcmp(pol.name[pol.active], f->pol.name[f->policy])) {
			snprintf(why, len, "policy reads '%.200s', model [%s]",
				 buf, f->pol.name[f->policy]);
			return -1;
		}
		return 0;
	}
	snprintf(want, sizeof(want), "%u\n", f->value);
	if (strcmp(buf, want)) {
		snprintf(why, len, "reads '%.40s', model '%u'", buf, f->value);
		return -1;
	}
	return 0;
}

/* Printable rendering of an input for failure reports. */
static const char *show(const unsigned char *d, size_t len)
{
	static char out[512];
	size_t i, o = 0;

	for (i = 0; i < len && o < sizeof(out) - 8; i++) {
		if (d[i] >= 0x20 && d[i] < 0x7f && d[i] != '\\')
			out[o++] = d[i];
		else
			o += snprintf(out + o, sizeof(out) - o, "\\x%02x", d[i]);
	}
	if (i < len)
		o += snprintf(out + o, sizeof(out) - o, "...(%zu bytes)", len);
	out[o] = '\0';
	return out;
}

static const char * const numbers[] = {
	"0", "1", "2", "9", "10", "99", "100", "101", "117", "125", "999",
	"1000", "1001", "65535", "65536", "2147483647", "2147483648",
	"4294967295", "4294967296", "9999999999", "18446744073709551615",
	"18446744073709551616", "-0", "-1", "+0", "+1", "0x1", "0X0", "0b1",
	"01", "00", "0001", "0000000000000000000000000000001", "1e2", "1.0",
	"0100", "1000000", "0x64", "0144", " 1", "1 ",
};

static const char * const noise[] = {
	" ", "\t", "\n", "\r", "\r\n", "\n\n", "\v", "\f", "+", "-", "0",
	"x", "#", "[", "]", "\\", "\"", "'", ",", ";", "=", "\xa0", "\xff",
	"\x80", "\xe9", "\x1b", "\x7f",
};

/* A word the file accepts (or nearly: numbers out of range too). */
static const char *valid_word(struct fuzz *f)
{
	static const char * const pct[] = { "0", "100", "117", "125", "1000" };
	static const char * const bit[] = { "0", "1" };

	switch (f->kind) {
	case K_POLICY:
		return f->pol.n ? f->pol.name[rn(f->pol.n)] : "kernel";
	case K_PCT:
		return pct[rn(5)];
	case K_RESET:
		return "1";
	default:
		return bit[rn(2)];
	}
}

static const size_t overlong[] = {
	30, 31, 32, 33, 64, 4095, 4096, 65536, FUZZ_BUF,
};

static const enum how at_offset[] = { H_PWRITE, H_SEEK, H_SEEK, H_AFTER_READ };
static const long long offsets[] = { 1, 2, 31, 32, 4096, 1LL << 40 };

/*
 * Generate one input into @d (room for FUZZ_BUF bytes).  Returns its
 * length; *how and *pos say how it is delivered.
 */
static size_t generate(struct fuzz *f, unsigned char *d, enum how *how,
		       long long *pos)
{
	const char *w = valid_word(f);
	size_t len = 0, i, n;
	char *s;

	*how = H_WRITE;
	*pos = 0;
	switch (rn(12)) {
	case 0:		/* random bytes, mostly short */
	case 1:
		len = rn(4) ? rn(40) : rn(300);
		for (i = 0; i < len; i++)
			d[i] = rnd();
		break;
	case 2:		/* random printable */
		len = rn(36);
		for (i = 0; i < len; i++)
			d[i] = 0x20 + rn(0x60);
		break;
	case 3:		/* boundary numbers, with or without newline */
		len = sprintf((char *)d, "%s%s",
			      numbers[rn(ARRAY_SIZE(numbers))],
			      rn(2) ? "\n" : "");
		break;
	case 4:		/* overlong: the valid word padded out */
		n = overlong[rn(ARRAY_SIZE(overlong))];
		len = strlen(w);
		memcpy(d, w, len);
		if (rn(2)) {	/* leading zeros keep a number valid */
			memset(d, '0', n);
			memcpy(d + n - len, w, len);
		} else {
			memset(d + len, rn(2) ? ' ' : '\n', n - len);
		}
		len = n > len ? n : len;
		break;
	case 5:		/* unterminated and terminated valid words */
	case 6:
		len = sprintf((char *)d, "%s%s", w, rn(2) ? "\n" : "");
		break;
	case 7:		/* NUL embedded */
		len = strlen(w);
		memcpy(d, w, len);
		i = rn(len + 1);
		memmove(d + i + 1, d + i, len - i);
		d[i] = '\0';
		len++;
		if (rn(2))
			d[len++] = '\n';
		break;
	case 8:		/* noise around the valid word */
		s = (char *)d;
		len = sprintf(s, "%s%s%s",
			      rn(2) ? noise[rn(ARRAY_SIZE(noise))] : "", w,
			      rn(2) ? noise[rn(ARRAY_SIZE(noise))] : "");
		if (rn(4) == 0 && len) {	/* and a changed letter */
			i = rn(len);
			d[i] ^= 0x20;
		}
		if (rn(4) == 0 && strlen(w) > 1)	/* truncated */
			len = sprintf(s, "%.*s", (int)rn(strlen(w)), w);
		break;
	case 9:		/* at an offset */
		len = sprintf((char *)d, "%s%s", w, rn(2) ? "\n" : "");
		*how = at_offset[rn(ARRAY_SIZE(at_offset))];
		*pos = offsets[rn(ARRAY_SIZE(offsets))];
		break;
	case 10:	/* split over two writes */
		len = sprintf((char *)d, "%s%s", w, rn(2) ? "\n" : "");
		*how = H_SPLIT;
		break;
	default:	/* the buffer faults part way */
		len = sprintf((char *)d, "%s\n", w);
		if (rn(4) == 0)
			len = rn(2) ? 32 : 4096;
		*how = H_FAULT;
		break;
	}
	return len;
}

/* Open the file for writing (read+write for H_AFTER_READ). */
static int open_knob(struct fuzz *f, bool rdwr)
{
	return open(f->path, (rdwr ? O_RDWR : O_WRONLY) | O_CLOEXEC);
}

/* Short write: not an errno the kernel returns. */
#define E_SHORT		(-10000)

/* One write as the module sees it: 0, -errno or E_SHORT. */
static int do_write(int fd, const void *d, size_t len, long long pos,
		    bool use_pwrite)
{
	ssize_t n;

	errno = 0;
	n = use_pwrite ? pwrite(fd, d, len, pos) : write(fd, d, len);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : E_SHORT;
}

/* Apply an accepted write to the model. */
static void model_accept(struct fuzz *f, unsigned int val, int pidx)
{
	f->accepted++;
	switch (f->kind) {
	case K_POLICY:
		f->policy = pidx;
		break;
	case K_RESET:
		f->placed = 0;
		break;
	default:
		f->value = val;
	}
}

static void count_err(struct fuzz *f, int err)
{
	if (err == -EINVAL)
		f->einval++;
	else if (err == -EOPNOTSUPP)
		f->eopnotsupp++;
	else if (err == -EFAULT)
		f->efault++;
	else if (err == -ESPIPE)
		f->espipe++;
}

/*
 * One generated input, delivered and checked.  Returns 0, or -1 with
 * @why describing the mismatch.
 */
static int fuzz_one(struct fuzz *f, unsigned char *d, char *why, size_t wlen)
{
	unsigned int val = 0;
	int pidx = 0, want, got, fd, want2 = 0, got2 = 0;
	long long pos;
	enum how how;
	size_t len, cut = 0;
	const unsigned char *src = d;
	char c;

	len = generate(f, d, &how, &pos);
	f->writes++;
	f->per_how[how]++;
	if (how == H_AFTER_READ && f->kind == K_RESET)
		how = H_SEEK;		/* not readable */
	fd = open_knob(f, how == H_AFTER_READ);
	if (fd < 0) {
		snprintf(why, wlen, "open %s: %s", f->path, strerror(errno));
		return -1;
	}
	switch (how) {
	case H_WRITE:
		want = model(f, d, len, 0, false, &val, &pidx);
		got = do_write(fd, d, len, 0, false);
		break;
	case H_PWRITE:
		/* seq_open() and nonseekable_open() clear FMODE_PWRITE */
		want = -ESPIPE;
		got = do_write(fd, d, len, pos, true);
		break;
	case H_SEEK:
		/* Where the position ends up (reset: no_llseek, stays 0). */
		if (lseek(fd, pos, SEEK_SET) < 0)
			pos = lseek(fd, 0, SEEK_CUR);
		if (pos < 0)
			pos = 0;
		want = model(f, d, len, pos, false, &val, &pidx);
		got = do_write(fd, d, len, 0, false);
		break;
	case H_AFTER_READ:
		pos = read(fd, &c, 1) == 1 ? 1 : 0;
		want = model(f, d, len, pos, false, &val, &pidx);
		got = do_write(fd, d, len, 0, false);
		break;
	case H_SPLIT:
		/* The module does not move the file position: each part is
		 * a write at offset 0 of its own.
		 */
		cut = len ? 1 + rn(len) : 0;
		want = model(f, d, cut, 0, false, &val, &pidx);
		got = do_write(fd, d, cut, 0, false);
		if (want == got && !want)
			model_accept(f, val, pidx);
		else if (want == got)
			count_err(f, want);
		want2 = model(f, d + cut, len - cut, 0, false, &val, &pidx);
		got2 = do_write(fd, d + cut, len - cut, 0, false);
		if (want != got) {
			want2 = want;
			got2 = got;
		}
		want = want2;
		got = got2;
		break;
	default:	/* H_FAULT: the last byte(s) sit on a PROT_NONE page */
		cut = len > 1 ? 1 + rn(len - 1) : 1;
		src = f->page + f->pagesz - cut;
		memcpy((void *)src, d, cut);
		want = model(f, d, len, 0, len > cut, &val, &pidx);
		got = do_write(fd, src, len, 0, false);
		break;
	}
	close(fd);
	if (want != got) {
		snprintf(why, wlen,
			 "%s of %zu bytes '%s' (pos %lld, cut %zu): expected %s, got %s",
			 how_name[how], len, show(d, len), pos, cut,
			 want ? strerror(-want) : "success",
			 got == E_SHORT ? "a short write" :
			 got ? strerror(-got) : "success");
		return -1;
	}
	if (!want)
		model_accept(f, val, pidx);
	else
		count_err(f, want);
	if (check_state(f, why, wlen)) {
		size_t o = strlen(why);

		snprintf(why + o, wlen - o, " after %s of '%s' (%s)",
			 how_name[how], show(d, len),
			 want ? strerror(-want) : "accepted");
		return -1;
	}
	return 0;
}

FIXTURE(fuzz) {
	const char *skip;
	bool loaded_here;
	struct fuzz f;
	unsigned long writes;
};

FIXTURE_SETUP(fuzz)
{
	/* Summary lines survive the harness's _exit() into a pipe. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&self->f, 0, sizeof(self->f));
	self->writes = wl_env_count("WAKELAB_FUZZ_WRITES", FUZZ_DEFAULT_WRITES);
	rng_state = wl_env_count("WAKELAB_FUZZ_SEED", 0);
	if (!rng_state)
		rng_state = (__u64)time(NULL) * 2654435761u ^ getpid();
	self->f.t = wl_table_new();
	self->f.big = malloc(FUZZ_BUF + 64);
	self->f.pagesz = sysconf(_SC_PAGESIZE);
	self->f.page = mmap(NULL, 2 * self->f.pagesz, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(self->f.t && self->f.big && self->f.page != MAP_FAILED);
	ASSERT_EQ(0, mprotect(self->f.page + self->f.pagesz, self->f.pagesz,
			      PROT_NONE));
	self->skip = wl_module_setup(_metadata, "", &self->loaded_here);
	if (self->skip)
		return;
	self->f.hook = !strcmp(wl_cap("hook"), "yes");
}

FIXTURE_TEARDOWN(fuzz)
{
	if (!self->skip && wl_module_loaded()) {
		wl_knob_set("enable", "0");
		if (self->f.hook) {
			wl_knob_set("policy", "kernel");
			wl_knob_set("bias", "1");
			wl_knob_set("imbalance_pct", "0");
		}
	}
	free(self->f.t);
	free(self->f.big);
	munmap(self->f.page, 2 * self->f.pagesz);
}

/* Read the starting state into the model. */
static int model_init(struct fuzz *f)
{
	char buf[4096];
	ssize_t n;

	n = wl_read_file(f->path, buf, sizeof(buf));
	switch (f->kind) {
	case K_RESET:
		return placed_total(f, &f->placed);
	case K_POLICY:
		if (n < 0 || wl_policy_parse(buf, &f->pol))
			return -1;
		f->policy = f->pol.active;
		return 0;
	default:
		if (n < 0)
			return -1;
		f->value = strtoul(buf, NULL, 10);
		return 0;
	}
}

/* Give reset something to wipe: a few of our own wakeups, probes on. */
static void make_wakeups(struct __test_metadata *_metadata, struct fuzz *f)
{
	int i;

	ASSERT_EQ(0, wl_knob_set("enable", "1"));
	for (i = 0; i < 20; i++)
		usleep(500);
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	ASSERT_EQ(0, placed_total(f, &f->placed));
}

static void run_fuzz(struct __test_metadata *_metadata,
		     FIXTURE_DATA(fuzz) *self, enum knob_kind kind,
		     const char *file)
{
	struct fuzz *f = &self->f;
	char why[1024];
	unsigned long i;
	__u64 seed = rng_state;

	WL_SKIP_IF(self->skip);
	f->kind = kind;
	f->file = file;
	wl_path(f->path, sizeof(f->path), file);
	/* reset is checked through placement: keep the probes off. */
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	if (kind == K_RESET)
		make_wakeups(_metadata, f);
	ASSERT_EQ(0, model_init(f)) TH_LOG("cannot read %s", f->path);
	for (i = 0; i < self->writes; i++) {
		if (kind == K_RESET && i % 500 == 499)
			make_wakeups(_metadata, f);
		if (fuzz_one(f, f->big, why, sizeof(why))) {
			ASSERT_TRUE(false)
				TH_LOG("%s, write %lu of seed %llu: %s", file, i,
				       (unsigned long long)seed, why);
		}
	}
	/* Probes may have been left on by enable's fuzzing. */
	ASSERT_EQ(0, wl_knob_set("enable", "0"));
	printf("# %s: %lu writes (seed %llu): %lu accepted, %lu EINVAL, %lu EOPNOTSUPP, %lu EFAULT, %lu ESPIPE\n",
	       file, f->writes, (unsigned long long)seed, f->accepted,
	       f->einval, f->eopnotsupp, f->efault, f->espipe);
	printf("# %s: via write %lu, pwrite %lu, seek %lu, after-read %lu, split %lu, fault %lu\n",
	       file, f->per_how[H_WRITE], f->per_how[H_PWRITE],
	       f->per_how[H_SEEK], f->per_how[H_AFTER_READ],
	       f->per_how[H_SPLIT], f->per_how[H_FAULT]);
	/* At least a twentieth of the writes must have been accepted. */
	if (f->hook || kind == K_ENABLE || kind == K_RESET)
		EXPECT_LT(f->writes / 20, f->accepted);
}

TEST_F_TIMEOUT(fuzz, enable, 3600)
{
	run_fuzz(_metadata, self, K_ENABLE, "enable");
}

TEST_F_TIMEOUT(fuzz, reset, 3600)
{
	run_fuzz(_metadata, self, K_RESET, "reset");
}

TEST_F_TIMEOUT(fuzz, policy, 3600)
{
	run_fuzz(_metadata, self, K_POLICY, "policy");
}

TEST_F_TIMEOUT(fuzz, bias, 3600)
{
	run_fuzz(_metadata, self, K_BIAS, "bias");
}

TEST_F_TIMEOUT(fuzz, imbalance_pct, 3600)
{
	run_fuzz(_metadata, self, K_PCT, "imbalance_pct");
}

/* Files without a write method refuse every write with -EINVAL. */
TEST_F(fuzz, read_only_files)
{
	const char * const *ro = wl_table_files;
	unsigned char *d = self->f.big;
	char p[256];
	int err;
	size_t len;
	unsigned int i, k;
	enum how how;
	long long pos;

	WL_SKIP_IF(self->skip);
	self->f.kind = K_ENABLE;
	for (k = 0; k < WL_NR_TABLES; k++) {
		for (i = 0; i < 50; i++) {
			len = generate(&self->f, d, &how, &pos);
			if (!len)
				continue;
			wl_path(p, sizeof(p), ro[k]);
			err = wl_write_file(p, d, len);
			EXPECT_EQ(-EINVAL, err)
				TH_LOG("%s accepted '%s'", ro[k], show(d, len));
		}
	}
}

TEST_HARNESS_MAIN
