/*
 * apod/stock.h: ready-made members of struct apod_stage (apod/workload.h)
 * for the two stages every port has, so that a workload writes only what
 * is its own:
 *
 *     .available = apod_available_always, .width = apod_width_one,   serial
 *     .available = apod_omp_available,    .width = apod_omp_width,   omp
 *
 * They are static inline on purpose: each is compiled in the workload's own
 * file, so "built with OpenMP" means the workload's file was, not the
 * harness library.
 */
#ifndef APOD_STOCK_H
#define APOD_STOCK_H

#include <stddef.h>
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* A stage that can run wherever apod runs (the serial reference). */
static inline int apod_available_always(char *why, size_t len)
{
	(void)why;
	(void)len;
	return 1;
}

/* One thread: Amdahl's N of a serial stage. */
static inline int apod_width_one(void)
{
	return 1;
}

/* An OpenMP stage runs where the program was compiled with OpenMP. */
static inline int apod_omp_available(char *why, size_t len)
{
#ifdef _OPENMP
	(void)why;
	(void)len;
	return 1;
#else
	snprintf(why, len, "built without OpenMP flags: compile and link with -fopenmp");
	return 0;
#endif
}

/* Its N: the threads a parallel region gets (OMP_NUM_THREADS, or every core). */
static inline int apod_omp_width(void)
{
#ifdef _OPENMP
	return omp_get_max_threads();
#else
	return 1;
#endif
}

#endif
