/*
 * bounds.h: how fast can it get?  Amdahl's and Gustafson's laws.
 *
 * p is the fraction of the serial run time spent in the part that is
 * parallelised, n the parallel width (threads, or the speedup of that part
 * alone).  Out-of-range arguments give NaN rather than a misleading number.
 */
#ifndef APOD_BOUNDS_H
#define APOD_BOUNDS_H

#include "rundata.h"

/* Amdahl: S = 1 / ((1 - p) + p / n); n may be INFINITY, giving 1 / (1 - p). */
double apod_amdahl(double p, double n);
/* Gustafson's scaled speedup: S = n + (1 - p)(1 - n).  It is a law of weak
 * scaling (the problem grows with n): p must come from a run at that scale. */
double apod_gustafson(double p, double n);

/* The phases, the hottest first: order[] gets the indices of the n phases by
 * seconds[], the hottest first (declaration order among equals), so that
 * what to port first is read from the top.  A phase whose seconds are
 * negative or NaN goes last.  Returns n. */
int apod_rank_hottest(int n, const double *seconds, int *order);

/* Relative: a speedup this far over a bound is noise.  Measured on the
 * H200's 16-core host (doc/results/2026-11-24-h200/): the same host function (a statistics
 * phase of 5 s, called by two stages) took 8% less, 2% less and 7% more in
 * one stage's run than in serial's, in three runs of the table. */
#define APOD_BOUND_NOISE 0.10

/*
 * The noise of a phase: how much its time moves from one run to the next
 * when the code is the same.  One timing is taken to lie within
 * APOD_BOUND_NOISE of the phase's typical time (the drift of clocks and
 * memory, measured above), or within APOD_NOISE_ABS seconds where that is
 * more (one preemption by the scheduler).  The reference's phase may have
 * been timed more than once (the table times serial's setup and
 * fetchResults again, and every stage runs the harness's own writeReport):
 * then the fastest of those timings and their spread are known, and another
 * stage running the same code is within the noise down to
 *     least - spread - one timing's noise (at least).
 * Timed once, the difference of two timings carries two timings' noise:
 *     least - 2 * max(APOD_BOUND_NOISE * least, APOD_NOISE_ABS).
 */
#define APOD_NOISE_ABS 1e-3

struct apod_noise {
	int samples[APOD_MAX_PHASES];     /* timings of phase i (0: none) */
	double least[APOD_MAX_PHASES];    /* the fastest of them */
	double most[APOD_MAX_PHASES];     /* the slowest */
};

/* The reference's run: one timing of each of its nphases phases. */
void apod_noise_init(struct apod_noise *n, int nphases, const double *reference);
/* Another timing of phase i, of the same code. */
void apod_noise_add(struct apod_noise *n, int i, double seconds);
/* How much faster than n->least[i] the same code may run, by noise alone. */
double apod_noise_allowance(const struct apod_noise *n, int i);

/*
 * One stage held against its Amdahl bound.  p is the serial run's fraction
 * in the phases the stage declares it changes (ports); n its width
 * (threads), or, where it has none (a GPU), the speedup it measured on
 * those phases.  The bound rests on one assumption, which is checked: the
 * phases the stage did not declare take it at least as long as serial,
 * within the noise (above; noise NULL: serial's one run, timed once).
 * `undeclared_faster` names those that did not, and `holds` is 0 when the
 * measured speedup exceeds either bound by more than APOD_BOUND_NOISE and
 * its time falls short of the bound's by more than the noise allowed to the
 * phases not ported: the model is broken, and the table says so.
 */
struct apod_bound {
	double p, n;
	double amdahl_n;          /* the bound at n */
	double limit;             /* the bound as n grows without end */
	double speedup;           /* measured: serial total / stage total */
	unsigned long long undeclared_faster;   /* phase i is bit i */
	int above_n, above_limit;
	int holds;
};

void apod_bound_eval(int nphases, const double *serial, const double *stage,
                     const unsigned long long *phase_bits, unsigned long long ports, int width,
                     const struct apod_noise *noise, struct apod_bound *b);

#endif
