/*
 * stats.h: running moments and histogram binning shared by every stage.
 *
 * Moments are kept in double whatever the field precision: a float sum of
 * 64 million values loses about seven digits, and the variance computed as
 * E[x^2] - E[x]^2 cancels catastrophically.  Welford's update folds one
 * value in; Chan's formula merges two partial results, which is what lets
 * rows, threads, warps and blocks each keep their own and combine later.
 */
#ifndef APOD_STATS_H
#define APOD_STATS_H

#include <string.h>

#include "apod_hd.h"

struct apod_moments {
	double n;     /* count, as a double so that merges need no conversion */
	double mean;
	double m2;    /* sum of squared deviations from the mean */
	double min;
	double max;
};

APOD_HD void apod_moments_init(struct apod_moments *m)
{
	m->n = 0.0;
	m->mean = 0.0;
	m->m2 = 0.0;
	/* +-HUGE_VAL without <math.h>: the first value replaces them. */
	m->min = 1.0 / 0.0;
	m->max = -1.0 / 0.0;
}

/* Welford: fold one value into the running moments. */
APOD_HD void apod_moments_push(struct apod_moments *m, double x)
{
	double d = x - m->mean;
	m->n += 1.0;
	m->mean += d / m->n;
	m->m2 += d * (x - m->mean);
	m->min = x < m->min ? x : m->min;
	m->max = x > m->max ? x : m->max;
}

/* Chan et al.: merge b into a.  Either side may be empty. */
APOD_HD void apod_moments_merge(struct apod_moments *a, const struct apod_moments *b)
{
	double n, d;
	if (b->n == 0.0)
		return;
	if (a->n == 0.0) {
		*a = *b;
		return;
	}
	n = a->n + b->n;
	d = b->mean - a->mean;
	a->mean += d * (b->n / n);
	a->m2 += b->m2 + d * d * (a->n * b->n / n);
	a->n = n;
	a->min = b->min < a->min ? b->min : a->min;
	a->max = b->max > a->max ? b->max : a->max;
}

/* Build the moments of a block from its count, sum and sum of squared
 * deviations about its own mean (a two-pass block, as the serial engine
 * computes per row). */
APOD_HD void apod_moments_from_block(struct apod_moments *m, double n, double sum,
                                     double m2, double min, double max)
{
	m->n = n;
	m->mean = n > 0.0 ? sum / n : 0.0;
	m->m2 = m2;
	m->min = min;
	m->max = max;
}

/* Population variance (the field is the whole population, not a sample). */
APOD_HD double apod_moments_variance(const struct apod_moments *m)
{
	return m->n > 0.0 ? m->m2 / m->n : 0.0;
}

/*
 * The histogram bin of x: nbins equal bins over [lo, lo + nbins/inv_width),
 * values outside clamped into the first or last bin so that every cell is
 * counted once.  The arithmetic is a subtraction then a multiplication,
 * which no compiler can contract into an FMA, so host and device agree
 * whenever they agree on x.
 */
APOD_HD int apod_hist_bin(apod_real x, apod_real lo, apod_real inv_width, int nbins)
{
	apod_real t = (x - lo) * inv_width;
	int b;
	if (!(t > (apod_real)0))  /* also catches NaN */
		return 0;
	if (t >= (apod_real)nbins)
		return nbins - 1;
	b = (int)t;
	return b < nbins ? b : nbins - 1;
}

/* The reals in order as unsigned integers (-inf lowest, +inf highest). */
APOD_HD unsigned long long apod_real_key(apod_real x)
{
	if (sizeof(apod_real) == sizeof(float)) {
		float f = (float)x;
		unsigned u;
		memcpy(&u, &f, sizeof u);
		return (u & 0x80000000u) ? (unsigned)~u : u | 0x80000000u;
	} else {
		double d = (double)x;
		unsigned long long u;
		memcpy(&u, &d, sizeof u);
		return (u >> 63) ? ~u : u | (1ull << 63);
	}
}

APOD_HD apod_real apod_key_real(unsigned long long k)
{
	if (sizeof(apod_real) == sizeof(float)) {
		unsigned u = (k & 0x80000000u) ? (unsigned)(k & 0x7fffffffu) : (unsigned)~k;
		float f;
		memcpy(&f, &u, sizeof f);
		return (apod_real)f;
	} else {
		unsigned long long u = (k >> 63) ? k & ~(1ull << 63) : ~k;
		double d;
		memcpy(&d, &u, sizeof d);
		return (apod_real)d;
	}
}

/*
 * The bins as intervals: x (not NaN) falls in bin b exactly when
 * edges[b] <= x < edges[b + 1], with edges[0] = -inf and edges[nbins] =
 * +inf (nbins + 1 entries).  apod_hist_bin is monotone in x (a rounded
 * subtraction, a rounded product with a positive factor, a truncation and
 * clamps), so each bin is an interval; its lowest value is found by
 * bisection over the reals in order, with apod_hist_bin itself, so the
 * table agrees with it exactly.  gpu5 checks a run of values against one
 * interval with two compares instead of binning each value.
 */
APOD_HD void apod_hist_edges(apod_real lo, apod_real inv_width, int nbins, apod_real *edges)
{
	edges[0] = -(apod_real)(1.0 / 0.0);
	edges[nbins] = (apod_real)(1.0 / 0.0);
	for (int b = 1; b < nbins; b++) {
		/* bin(below) < b <= bin(at) */
		unsigned long long below = apod_real_key(edges[0]), at = apod_real_key(edges[nbins]);
		while (at - below > 1) {
			unsigned long long mid = below + (at - below) / 2;
			if (apod_hist_bin(apod_key_real(mid), lo, inv_width, nbins) >= b)
				at = mid;
			else
				below = mid;
		}
		edges[b] = apod_key_real(at);
	}
}

#endif
