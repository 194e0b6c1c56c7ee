/*
 * threads.h: the OpenMP thread count a program starts with, kept within
 * what the machine can run.
 */
#ifndef APOD_CLI_THREADS_H
#define APOD_CLI_THREADS_H

/* At most APOD_THREADS_PER_PROC threads per processor this process may
 * use: more only slows a run, and far more (OMP_NUM_THREADS=100000)
 * overflows the OpenMP runtime's stack when a parallel region starts.
 * Asking for more than the cap runs with the cap, said in one line on
 * stderr.  Several per processor stay allowed: tests use them to give
 * uneven splits on small machines. */
#define APOD_THREADS_PER_PROC 4
void apod_cap_threads(void);

#endif
