/*
 * spread.h: a time measured over several runs, with the interval its
 * median lies in.
 *
 * The interval is distribution-free: the order statistics of the median.
 * Of n timings sorted, the j-th smallest and the j-th largest bracket the
 * true median with probability 1 - 2 P(B <= j - 1), B binomial (n, 1/2),
 * whatever the timings' distribution (a loaded machine's is skewed and
 * heavy-tailed, so a normal interval would claim too much).  The widest j
 * that keeps APOD_SPREAD_SURE is taken; with fewer than six timings even
 * the slowest and the fastest are not that sure, and the coverage they
 * give (75% of 3, 94% of 5) is kept beside them.
 */
#ifndef APOD_CLI_SPREAD_H
#define APOD_CLI_SPREAD_H

#define APOD_SPREAD_SURE 0.95
/* Runs of a stage the table takes by default, and the least it tries for:
 * fewer than three timings give no interval worth the name. */
#define APOD_SPREAD_RUNS 5
#define APOD_SPREAD_MIN_RUNS 3
/* A stage is run again while its total's interval, half its width over the
 * median, is wider than this. */
#define APOD_SPREAD_SETTLED 0.02
/* Serial's runs spread wider than this (half the interval over the
 * median): the host was busy, and the table says so. */
#define APOD_SPREAD_BUSY 0.10

struct apod_spread {
	int n;             /* timings */
	double median;
	double lo, hi;     /* the interval of the median (lo = hi = the time when n is 1) */
	double coverage;   /* the probability that it holds the median (0 when n < 2) */
};

/* The spread of n timings x (x is left as it was). */
void apod_spread_of(const double *x, int n, struct apod_spread *s);
/* Half the interval's width over its median (0 without a median). */
double apod_spread_rel(const struct apod_spread *s);

#endif
