/*
 * @NAME@.h: what every stage of @NAME@ shares: the problem they all start
 * from, and the arithmetic of one element.
 *
 * The per-element functions are written once and compiled by every
 * compiler that builds a stage (APOD_HD makes them static inline in C and
 * __host__ __device__ under nvcc), so that stages can differ only in the
 * order they do things, never in what they compute.
 */
#ifndef @NAME@_H
#define @NAME@_H

#include <stddef.h>

#include <apod/apod_hd.h>

struct @NAME@_problem {
	size_t n;
	double rate;
	double *init;            /* n values, on the host */
};

/* The placeholder's targets, in [1, 10]; replace with your own data. */
APOD_HD double target(size_t i)
{
	return 1.0 + (double)(i % 10);
}

/* The arithmetic of one element: the one function every stage calls. */
APOD_HD double step_one(double x, double t, double rate)
{
	return x + rate * (t - x);
}

#endif
