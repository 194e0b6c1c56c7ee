#include <math.h>

#include "bounds.h"

static int valid(double p, double n)
{
	return p >= 0 && p <= 1 && n >= 1;  /* false for NaN */
}

double apod_amdahl(double p, double n)
{
	if (!valid(p, n))
		return NAN;
	if (isinf(n))
		return p == 1 ? INFINITY : 1 / (1 - p);
	return 1 / ((1 - p) + p / n);
}

double apod_gustafson(double p, double n)
{
	if (!valid(p, n) || isinf(n))
		return NAN;
	return n + (1 - p) * (1 - n);
}
