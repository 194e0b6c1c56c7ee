/*
 * tests/toy.h: the callbacks of the small workloads the Check tests declare
 * (struct apod_workload), where several tests need the same one: a fixed
 * shape, a fixed number of steps.
 */
#ifndef CHECK_TOY_H
#define CHECK_TOY_H

#include <stddef.h>

/* An array of 100 elements, whatever the deck. */
static inline int toy_shape100(const void *params, size_t dims[2])
{
	(void)params;
	dims[0] = 100;
	return 1;
}

/* One step, whatever the deck. */
static inline long toy_one_step(const void *params)
{
	(void)params;
	return 1;
}

#endif
