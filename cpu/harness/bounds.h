/*
 * bounds.h: how fast can it get?  Amdahl's and Gustafson's laws.
 *
 * p is the fraction of the serial run time spent in the part that is
 * parallelised, n the parallel width (threads, or the speedup of that part
 * alone).  Out-of-range arguments give NaN rather than a misleading number.
 */
#ifndef APOD_BOUNDS_H
#define APOD_BOUNDS_H

/* Amdahl: S = 1 / ((1 - p) + p / n); n may be INFINITY, giving 1 / (1 - p). */
double apod_amdahl(double p, double n);
/* Gustafson's scaled speedup: S = n + (1 - p)(1 - n). */
double apod_gustafson(double p, double n);

#endif
