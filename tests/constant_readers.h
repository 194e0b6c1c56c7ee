/*
 * tests/constant_readers.h: the readers of a constant that the tests' small
 * workloads share (check_harness.c, check_integers.c, fuzz/fuzz_results.c): a
 * probe that runs after every step, a series of one column.
 */
#ifndef APOD_CONSTANT_READERS_H
#define APOD_CONSTANT_READERS_H

/* A probe's every: after each step. */
static inline long every_step(const void *params)
{
	(void)params;
	return 1;
}

/* A series' columns: one value a row. */
static inline int one_column(const void *params)
{
	(void)params;
	return 1;
}

#endif
