/*
 * compare.h: element comparisons used by the verification gate.
 *
 * The gate's ULP distance is computed on the float grid, the coarser of
 * the two precisions this project builds, so that a double build can be
 * checked against float references with the same measure.  What verify
 * reports of two double outputs is counted on the double grid as well
 * (apod_ulp_distance_double), where a float-grid 0 would hide a difference.
 */
#ifndef APOD_COMPARE_H
#define APOD_COMPARE_H

#include "apod_hd.h"

/* Map a float's bits onto a line where adjacent floats are adjacent integers. */
APOD_HD long long apod_float_ordinal(float f)
{
	union { float f; int i; } u;
	u.f = f;
	return u.i >= 0 ? (long long)u.i : (long long)(int)0x80000000 - (long long)u.i;
}

/* Distance in units in the last place, on the float grid. */
APOD_HD long long apod_ulp_distance(double a, double b)
{
	long long d = apod_float_ordinal((float)a) - apod_float_ordinal((float)b);
	return d < 0 ? -d : d;
}

/* Map a double's bits onto a line where adjacent doubles are adjacent. */
APOD_HD long long apod_double_ordinal(double d)
{
	union { double d; long long i; } u;
	u.d = d;
	return u.i >= 0 ? u.i : (long long)(-0x7fffffffffffffffLL - 1) - u.i;
}

/* Distance in units in the last place, on the double grid; saturates at
 * the largest long long (two doubles of opposite signs far from zero). */
APOD_HD long long apod_ulp_distance_double(double a, double b)
{
	long long x = apod_double_ordinal(a), y = apod_double_ordinal(b);
	unsigned long long d = x > y ? (unsigned long long)x - (unsigned long long)y
	                             : (unsigned long long)y - (unsigned long long)x;
	return d > 0x7fffffffffffffffULL ? 0x7fffffffffffffffLL : (long long)d;
}

/* The mixed absolute and relative test: |got - want| <= atol + rtol*|want|. */
APOD_HD int apod_within(double want, double got, double atol, double rtol)
{
	double d = got - want, m = want < 0 ? -want : want;
	if (d < 0)
		d = -d;
	return d <= atol + rtol * m;   /* false for NaN */
}

#endif
