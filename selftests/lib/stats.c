// SPDX-License-Identifier: GPL-2.0
/* Statistics: see wl/stats.h. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wl/stats.h"

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
	if (isnan(s->hmean) || s->hmean == 0)
		s->coeffvar = 0;
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
	return c >= 2 ? 2.0 / (double)c : 1;
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

static int wl_perm_core(const double *a, int na, const double *b, int nb,
			uint64_t max_exact, uint64_t nrand, uint64_t seed,
			struct wl_perm_result *res,
			double (*mean)(const double *, int))
{
	unsigned char mask[WL_STATS_MAX_N * 2];
	double x[WL_STATS_MAX_N * 2], obs, thr;
	int idx[WL_STATS_MAX_N * 2];
	int i, j, n = na + nb;
	uint64_t total, k;

	memset(res, 0, sizeof(*res));
	if (na < 1 || nb < 1 || na > WL_STATS_MAX_N || nb > WL_STATS_MAX_N)
		return -1;
	memcpy(x, a, na * sizeof(*x));
	memcpy(x + na, b, nb * sizeof(*x));
	obs = fabs(mean(a, na) - mean(b, nb));
	thr = obs * (1 - WL_STATS_TIE_EPS);
	res->stat = obs;
	total = wl_choose(n, na);

	if (total <= max_exact) {
		/* Walk every na-subset in lexicographic order. */
		for (i = 0; i < na; i++)
			idx[i] = i;
		for (;;) {
			memset(mask, 0, n);
			for (i = 0; i < na; i++)
				mask[idx[i]] = 1;
			if (wl_perm_stat(x, mask, n, mean) >= thr)
				res->count++;
			res->total++;
			for (i = na - 1; i >= 0 && idx[i] == n - na + i; i--)
				;
			if (i < 0)
				break;
			idx[i]++;
			for (j = i + 1; j < na; j++)
				idx[j] = idx[j - 1] + 1;
		}
		res->exact = 1;
		res->p = (double)res->count / (double)res->total;
		return 0;
	}

	for (k = 0; k < nrand; k++) {
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
		memset(mask, 0, n);
		for (i = 0; i < na; i++)
			mask[idx[i]] = 1;
		if (wl_perm_stat(x, mask, n, mean) >= thr)
			res->count++;
	}
	res->total = nrand;
	res->exact = 0;
	res->p = (double)(res->count + 1) / (double)(nrand + 1);
	return 0;
}

int wl_perm_test(const double *a, int na, const double *b,
		 int nb, uint64_t max_exact, uint64_t nrand,
		 uint64_t seed, struct wl_perm_result *res)
{
	return wl_perm_core(a, na, b, nb, max_exact, nrand, seed, res,
			    wl_hmean);
}

int wl_perm_test_mean(const double *a, int na, const double *b,
		      int nb, uint64_t max_exact, uint64_t nrand,
		      uint64_t seed, struct wl_perm_result *res)
{
	return wl_perm_core(a, na, b, nb, max_exact, nrand, seed, res,
			    wl_amean);
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
