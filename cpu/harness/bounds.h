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
/* Gustafson's scaled speedup: S = n + (1 - p)(1 - n).  It is a law of weak
 * scaling (the problem grows with n): p must come from a run at that scale. */
double apod_gustafson(double p, double n);

/*
 * One stage held against its Amdahl bound.  p is the serial run's fraction
 * in the phases the stage declares it changes (ports); n its width
 * (threads), or, where it has none (a GPU), the speedup it measured on
 * those phases.  The bound rests on one assumption, which is checked: the
 * phases the stage did not declare take it at least as long as serial
 * (within max(20%, 2 ms): timer noise).  `undeclared_faster` names those that did not,
 * and `holds` is 0 when the measured speedup exceeds either bound by more
 * than APOD_BOUND_NOISE: the model is broken, and the table says so.
 */
/* Relative: a speedup this far over a bound is noise.  Measured on the
 * H200's 16-core host (2026-11-24): the same host function (a statistics
 * phase of 5 s, called by two stages) took 8% less, 2% less and 7% more in
 * one stage's run than in serial's, in three runs of the table. */
#define APOD_BOUND_NOISE 0.10

struct apod_bound {
	double p, n;
	double amdahl_n;          /* the bound at n */
	double limit;             /* the bound as n grows without end */
	double speedup;           /* measured: serial total / stage total */
	unsigned undeclared_faster;   /* phase i is bit i */
	int above_n, above_limit;
	int holds;
};

void apod_bound_eval(int nphases, const double *serial, const double *stage,
                     const unsigned *phase_bits, unsigned ports, int width, struct apod_bound *b);

#endif
