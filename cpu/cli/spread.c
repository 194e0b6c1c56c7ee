/*
 * spread.c: the median of a stage's timings and its interval (spread.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spread.h"

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* P(B <= k) for B binomial (n, 1/2). */
static double below(int n, int k)
{
	double term = pow(0.5, n), sum = 0;
	for (int i = 0; i <= k && i <= n; i++) {
		sum += term;
		term *= (double)(n - i) / (i + 1);
	}
	return sum;
}

void apod_spread_of(const double *x, int n, struct apod_spread *s)
{
	double *v;
	int j = 1;
	memset(s, 0, sizeof *s);
	if (n < 1 || !(v = malloc((size_t)n * sizeof *v)))
		return;
	memcpy(v, x, (size_t)n * sizeof *v);
	qsort(v, (size_t)n, sizeof *v, by_value);
	s->n = n;
	s->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	/* The inner-most pair that is still sure enough; the outer-most pair
	 * (j = 1) where none is. */
	while (j + 1 <= n / 2 && 1 - 2 * below(n, j) >= APOD_SPREAD_SURE)
		j++;
	s->lo = v[j - 1];
	s->hi = v[n - j];
	s->coverage = n < 2 ? 0 : 1 - 2 * below(n, j - 1);
	free(v);
}

double apod_spread_rel(const struct apod_spread *s)
{
	return s->median > 0 ? (s->hi - s->lo) / (2 * s->median) : 0;
}
