/*
 * timer.h: wall-clock time for the phase timers.
 *
 * gprof samples only the main thread's own code, so time spent in OpenMP
 * workers, libc, or the CUDA driver is invisible to it; the phase timers
 * are the numbers that add up to what the user waited for.
 */
#ifndef APOD_TIMER_H
#define APOD_TIMER_H

#include <time.h>

static inline double apod_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
