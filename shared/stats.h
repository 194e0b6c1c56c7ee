/*
 * stats.h: running moments, shared by every stage and workload.
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

#endif
