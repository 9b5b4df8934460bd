// SPDX-License-Identifier: GPL-2.0
/* Statistics: see wl/core/stats.h. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl/core/stats.h"

/* splitmix64: small, well-known, good enough to draw permutations. */
static uint64_t wl_rand_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t wl_rand_below(uint64_t *state, uint64_t bound)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound, v;

	do {
		v = wl_rand_next(state);
	} while (v >= limit);
	return v % bound;
}

double wl_hmean(const double *x, int n)
{
	double inv = 0;
	int i;

	if (n <= 0)
		return NAN;
	for (i = 0; i < n; i++) {
		if (x[i] < 0 || isnan(x[i]))
			return NAN;
		if (x[i] == 0)
			return 0;
		inv += 1.0 / x[i];
	}
	return n / inv;
}

static double wl_amean(const double *x, int n)
{
	double sum = 0;
	int i;

	if (n <= 0)
		return NAN;
	for (i = 0; i < n; i++)
		sum += x[i];
	return sum / n;
}

/* mmtests Stat.pm calc_stddev("hmean"): note the division by n, not n-1. */
static double wl_stddev_hmean(const double *x, int n)
{
	double h = wl_hmean(x, n), diff = 0;
	int i;

	if (n <= 1 || isnan(h) || h == 0)
		return NAN;
	for (i = 0; i < n; i++)
		diff += (1.0 / x[i] - 1.0 / h) * (1.0 / x[i] - 1.0 / h);
	return sqrt(diff * h * h * h * h / n);
}

void wl_summarise(const double *x, int n, struct wl_summary *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->n = n;
	s->min = n ? x[0] : NAN;
	s->max = n ? x[0] : NAN;
	for (i = 1; i < n; i++) {
		if (x[i] < s->min)
			s->min = x[i];
		if (x[i] > s->max)
			s->max = x[i];
	}
	s->hmean = wl_hmean(x, n);
	s->amean = wl_amean(x, n);
	s->stddev = wl_stddev_hmean(x, n);
	/* No spread relative to a zero or missing Hmean: not 0. */
	if (isnan(s->hmean) || s->hmean == 0)
		s->coeffvar = NAN;
	else
		s->coeffvar = (isnan(s->stddev) ? 0 : s->stddev) * 100 /
			      s->hmean;
}

double wl_pdiff(double base, double val)
{
	if (base == 0 || isnan(base) || isnan(val))
		return NAN;
	return val * 100 / base - 100;
}

double wl_pndiff(double base, double val)
{
	if (base == 0 || isnan(base) || isnan(val))
		return NAN;
	return 100 - val * 100 / base;
}

uint64_t wl_choose(int n, int k)
{
	uint64_t r = 1;
	int i;

	if (k < 0 || k > n)
		return 0;
	if (k > n - k)
		k = n - k;
	for (i = 1; i <= k; i++) {
		/* r * (n - k + i) / i is exact at every step. */
		if (r > UINT64_MAX / (uint64_t)(n - k + i))
			return UINT64_MAX;
		r = r * (n - k + i) / i;
	}
	return r;
}

double wl_perm_min_p(int na, int nb)
{
	uint64_t c = wl_choose(na + nb, na);

	if (!c)
		return 1;
	/*
	 * Equal sides: the split that swaps the two samples has the same
	 * |difference|, so at least two splits reach the observed one.
	 * Unequal sides have no such mirror: only the observed split need.
	 */
	if (na == nb)
		return c >= 2 ? 2.0 / (double)c : 1;
	return 1.0 / (double)c;
}

/*
 * The test's statistic depends on a split only through the sum s of
 * u over group a (u = 1/x for Hmeans, x for means), the total being t:
 * |f(s, na) - f(t - s, nb)|, f(s, n) = n / s (Hmean) or s / n (mean).
 */
struct wl_perm_ctx {
	double		u[WL_STATS_MAX_N * 2];
	double		t;
	double		thr;
	int		n;
	int		na;
	int		nb;
	int		hmean;
	uint64_t	count;
	uint64_t	total;
	uint64_t	stop;
};

static double wl_perm_f(const struct wl_perm_ctx *c, double s)
{
	if (c->hmean)
		return fabs(c->na / s - c->nb / (c->t - s));
	return fabs(s / c->na - (c->t - s) / c->nb);
}

/* Every na-subset of u[from..], left more to choose, sum so far s. */
static void wl_perm_walk(struct wl_perm_ctx *c, int from, int left, double s)
{
	int i;

	if (!left) {
		c->total++;
		if (wl_perm_f(c, s) >= c->thr)
			c->count++;
		return;
	}
	for (i = from; i <= c->n - left && c->count <= c->stop; i++)
		wl_perm_walk(c, i + 1, left - 1, s + c->u[i]);
}

/* Statistic of the split given by mask[i] (1 = group a) over pooled x. */
static double wl_perm_stat(const double *x, const unsigned char *mask,
			   int n, double (*mean)(const double *, int))
{
	double a[WL_STATS_MAX_N * 2], b[WL_STATS_MAX_N * 2];
	int i, na = 0, nb = 0;

	for (i = 0; i < n; i++) {
		if (mask[i])
			a[na++] = x[i];
		else
			b[nb++] = x[i];
	}
	return fabs(mean(a, na) - mean(b, nb));
}

/*
 * The test, stopping once more than @stop splits reached the observed
 * statistic (p is then a lower bound; UINT64_MAX: never).  Values that
 * are not all finite (and positive, for an Hmean) take the slow path:
 * every split's means recomputed.
 */
static int wl_perm_core(const double *a, int na, const double *b, int nb,
			uint64_t max_exact, uint64_t nrand, uint64_t seed,
			struct wl_perm_result *res, int hmean, uint64_t stop)
{
	double (*mean)(const double *, int) = hmean ? wl_hmean : wl_amean;
	unsigned char mask[WL_STATS_MAX_N * 2];
	double x[WL_STATS_MAX_N * 2], obs, s;
	int idx[WL_STATS_MAX_N * 2];
	int i, j, n = na + nb, fast = 1;
	struct wl_perm_ctx c;
	uint64_t k;

	memset(res, 0, sizeof(*res));
	if (na < 1 || nb < 1 || na > WL_STATS_MAX_N || nb > WL_STATS_MAX_N)
		return -1;
	memcpy(x, a, na * sizeof(*x));
	memcpy(x + na, b, nb * sizeof(*x));
	obs = fabs(mean(a, na) - mean(b, nb));
	res->stat = obs;
	c.n = n;
	c.na = na;
	c.nb = nb;
	c.hmean = hmean;
	c.thr = obs * (1 - WL_STATS_TIE_EPS);
	c.t = 0;
	c.count = 0;
	c.total = 0;
	c.stop = stop;
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]) || (hmean && x[i] <= 0))
			fast = 0;
		c.u[i] = hmean ? 1 / x[i] : x[i];
		c.t += c.u[i];
	}
	res->exact = wl_choose(n, na) <= max_exact;
	if (isnan(obs)) {
		/* No statistic (a NaN or negative value): no evidence. */
		res->total = res->exact ? wl_choose(n, na) : nrand;
		res->count = res->total;
		res->p = 1;
		return 0;
	}

	if (res->exact && fast) {
		wl_perm_walk(&c, 0, na, 0);
		res->count = c.count;
		res->total = c.count > stop ? c.total : wl_choose(n, na);
		res->p = (double)res->count / (double)res->total;
		return 0;
	}
	if (res->exact) {
		/* Walk every na-subset in lexicographic order. */
		for (i = 0; i < na; i++)
			idx[i] = i;
		for (;;) {
			memset(mask, 0, n);
			for (i = 0; i < na; i++)
				mask[idx[i]] = 1;
			if (wl_perm_stat(x, mask, n, mean) >= c.thr)
				res->count++;
			res->total++;
			for (i = na - 1; i >= 0 && idx[i] == n - na + i; i--)
				;
			if (i < 0 || res->count > stop)
				break;
			idx[i]++;
			for (j = i + 1; j < na; j++)
				idx[j] = idx[j - 1] + 1;
		}
		res->p = (double)res->count / (double)res->total;
		return 0;
	}

	for (k = 0; k < nrand && res->count <= stop; k++) {
		/* Partial Fisher-Yates: the first na of a shuffle form a. */
		for (i = 0; i < n; i++)
			idx[i] = i;
		for (i = 0; i < na; i++) {
			int t;

			j = i + (int)wl_rand_below(&seed, n - i);
			t = idx[i];
			idx[i] = idx[j];
			idx[j] = t;
		}
		if (fast) {
			for (i = 0, s = 0; i < na; i++)
				s += c.u[idx[i]];
			res->count += wl_perm_f(&c, s) >= c.thr;
			continue;
		}
		memset(mask, 0, n);
		for (i = 0; i < na; i++)
			mask[idx[i]] = 1;
		if (wl_perm_stat(x, mask, n, mean) >= c.thr)
			res->count++;
	}
	res->total = nrand;
	res->p = (double)(res->count + 1) / (double)(nrand + 1);
	return 0;
}

int wl_perm_test(const double *a, int na, const double *b,
		 int nb, uint64_t max_exact, uint64_t nrand,
		 uint64_t seed, struct wl_perm_result *res)
{
	return wl_perm_core(a, na, b, nb, max_exact, nrand, seed, res, 1,
			    UINT64_MAX);
}

int wl_perm_test_mean(const double *a, int na, const double *b,
		      int nb, uint64_t max_exact, uint64_t nrand,
		      uint64_t seed, struct wl_perm_result *res)
{
	return wl_perm_core(a, na, b, nb, max_exact, nrand, seed, res, 0,
			    UINT64_MAX);
}

/* Whether the test of (a, b) gives p <= level; stops as soon as known. */
static int wl_perm_found(const double *a, int na, const double *b, int nb,
			 int hmean, double level, uint64_t max_exact,
			 uint64_t nrand, uint64_t seed)
{
	uint64_t c = wl_choose(na + nb, na), stop;
	struct wl_perm_result r;

	/* Exact: p <= level iff count <= level C; sampled: (1 + count) / (1 + R). */
	stop = c <= max_exact ? (uint64_t)(level * (double)c) :
	       (uint64_t)fmax(level * (double)(nrand + 1) - 1, 0);
	if (wl_perm_core(a, na, b, nb, max_exact, nrand, seed, &r, hmean,
			 stop))
		return 0;
	return r.p <= level && r.count <= stop;
}

/*
 * The run's own spread, centred: each value against its side's Hmean
 * (as a ratio) or mean (as a difference), pooled, widened by
 * sqrt(N / (N - 2)) for the two centres estimated.  Returns N, or 0
 * when there is no spread to draw from.
 */
static int wl_power_resid(const double *a, int na, const double *b, int nb,
			  int hmean, double *e)
{
	double ca = hmean ? wl_hmean(a, na) : wl_amean(a, na);
	double cb = hmean ? wl_hmean(b, nb) : wl_amean(b, nb);
	int i, n = na + nb, spread = 0;
	double k;

	if (n < 3 || !isfinite(ca) || !isfinite(cb) ||
	    (hmean && (ca <= 0 || cb <= 0)))
		return 0;
	k = sqrt((double)n / (n - 2));
	for (i = 0; i < n; i++) {
		double v = i < na ? a[i] : b[i - na], c = i < na ? ca : cb;

		if (!isfinite(v) || (hmean && v <= 0))
			return 0;
		e[i] = (hmean ? v / c - 1 : v - c) * k;
		spread |= e[i] != 0;
	}
	return spread ? n : 0;
}

double wl_perm_power(const double *a, int na, const double *b, int nb,
		     int hmean, double shift, double level, uint64_t max_exact,
		     uint64_t nrand, int nsim, double stop_at, uint64_t seed)
{
	double e[WL_STATS_MAX_N * 2], xa[WL_STATS_MAX_N], xb[WL_STATS_MAX_N];
	int i, s, n, found = 0;

	n = wl_power_resid(a, na, b, nb, hmean, e);
	if (!n || nsim < 1)
		return NAN;
	for (s = 0; s < nsim; s++) {
		/*
		 * The same draws at every shift, each run from its own
		 * stream: seed + s x the generator's own step would make run
		 * s + 1 reuse run s's draws shifted by one.
		 */
		uint64_t st = seed ^ (0xd1b54a32d192ed03ULL * (uint64_t)(s + 1));

		st = wl_rand_next(&st);

		for (i = 0; i < na; i++) {
			double r = e[wl_rand_below(&st, n)];

			xa[i] = hmean ? fmax(1 + r, 1e-6) : r;
		}
		for (i = 0; i < nb; i++) {
			double r = e[wl_rand_below(&st, n)];

			xb[i] = hmean ? fmax(1 + r, 1e-6) * (1 + shift) :
			       r + shift;
		}
		found += wl_perm_found(xa, na, xb, nb, hmean, level, max_exact,
				       nrand, wl_rand_next(&st));
		/* The verdict against stop_at is known: stop. */
		if (stop_at > 0 && (found >= stop_at * nsim ||
				    s + 1 - found > (1 - stop_at) * nsim))
			return (double)found / (s + 1);
	}
	return (double)found / nsim;
}

double wl_perm_detectable(const double *a, int na, const double *b, int nb,
			  int hmean, double level, double power,
			  uint64_t max_exact, uint64_t nrand, int nsim,
			  uint64_t seed)
{
	double e[WL_STATS_MAX_N * 2], lo = 0, hi, sd = 0;
	uint64_t c = wl_choose(na + nb, na);
	int i, n, step;

	n = wl_power_resid(a, na, b, nb, hmean, e);
	if (!n || !(level > 0) || !(power > 0 && power < 1))
		return NAN;
	/* Nothing is found where no p can reach the level. */
	if ((c <= max_exact ? wl_perm_min_p(na, nb) : 1.0 / (nrand + 1)) >
	    level)
		return NAN;
	for (i = 0; i < n; i++)
		sd += e[i] * e[i] / n;
	hi = sqrt(sd) * sqrt(1.0 / na + 1.0 / nb);
	/* Double until found often enough; give up at 1000 x the spread. */
	for (step = 0; wl_perm_power(a, na, b, nb, hmean, hi, level,
				     max_exact, nrand, nsim, power, seed) <
		       power; step++) {
		if (step > 10)
			return NAN;
		lo = hi;
		hi *= 2;
	}
	for (step = 0; step < 12; step++) {
		double mid = (lo + hi) / 2;

		if (wl_perm_power(a, na, b, nb, hmean, mid, level, max_exact,
				  nrand, nsim, power, seed) >= power)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

void wl_holm(const double *p, int m, double *adj)
{
	int order[WL_STATS_MAX_TESTS], i, j, t;
	double run = 0, v;

	if (m > WL_STATS_MAX_TESTS)
		m = WL_STATS_MAX_TESTS;
	for (i = 0; i < m; i++)
		order[i] = i;
	/* Insertion sort by p, ties in input order: m is small. */
	for (i = 1; i < m; i++) {
		t = order[i];
		for (j = i; j > 0 && p[order[j - 1]] > p[t]; j--)
			order[j] = order[j - 1];
		order[j] = t;
	}
	for (i = 0; i < m; i++) {
		v = (double)(m - i) * p[order[i]];
		if (v > 1)
			v = 1;
		if (v > run)
			run = v;
		adj[order[i]] = run;
	}
}

double wl_norm_quantile(double q)
{
	double lo = -40, hi = 40, mid;
	int i;

	if (!(q > 0 && q < 1))
		return NAN;
	/* Bisection on the normal CDF, 0.5 * erfc(-x / sqrt(2)). */
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (0.5 * erfc(-mid / M_SQRT2) < q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double wl_detectable(double sd, int na, int nb, double alpha, double power)
{
	if (na < 1 || nb < 1 || isnan(sd) || !(alpha > 0 && alpha < 1))
		return NAN;
	return (wl_norm_quantile(1 - alpha / 2) + wl_norm_quantile(power)) *
	       sd * sqrt(1.0 / na + 1.0 / nb);
}
