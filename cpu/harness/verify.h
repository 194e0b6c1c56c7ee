/*
 * verify.h: the gate every stage passes through.
 *
 * A run is compared with a reference run output by output: each array
 * element by element, each series row by row, under the comparison the
 * workload declared and the tolerances its hook designed from the
 * parameters and the problem.  Every output is reported on its own: the
 * largest difference, where it was, and the tolerance it was held to.
 *
 * An output with a horizon (chaotic dynamics) is judged in two parts: a
 * series' rows up to the horizon step by its `compare`, the rows after it
 * by its `beyond`; an array by one or the other, as the run ended before
 * or after the horizon.  Each part is a verdict of its own, under the
 * output's name, and says which comparison applied.
 */
#ifndef APOD_VERIFY_H
#define APOD_VERIFY_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "rundata.h"

#define APOD_MAX_OUTPUTS 32

struct apod_output_verdict {
	const char *name;
	int is_array;
	int index;                /* of the output among the workload's arrays or series */
	enum apod_compare compare;   /* the comparison that applied to this part */
	/* The output's horizon step, or 0 where it has none; past: 1 for the
	 * part after it (compared by `beyond`), 0 for the part up to it. */
	long horizon;
	int past;
	long rows;                /* series: the rows this part compared */
	int ok;
	size_t n;                 /* values compared */
	size_t nbad;              /* outside the tolerance */
	size_t ndiffer;           /* not bit for bit equal */
	double max_abs;
	double rel_l2;            /* arrays: ||got - want|| / ||want|| */
	long long max_ulp;        /* on the float grid, or the double grid where
	                             ulp_double (two double arrays) */
	int ulp_double;
	int ulp_absolute;         /* max_ulp came from a value where the absolute
	                             term of an abs+rel tolerance decides (near
	                             zero, say): there ulps measure nothing */
	double of_tol;            /* the largest difference over what its tolerance
	                             allowed at that value: 1 is at the tolerance,
	                             INFINITY where it allowed none */
	int digits;               /* significant digits that tell its values apart:
	                             17 where a run holds doubles, else 9 */
	double max_frac;          /* COUNTS: the largest moved fraction of a row */
	/* STATS: the statistics held to a tolerance (a mean and a spread a
	 * column), and which the worst was: 0 the mean, 1 the spread. */
	int nstats;
	int worst_stat;
	size_t worst;             /* arrays: index of the largest difference */
	long worst_step;          /* series: the step of the largest difference */
	int worst_col;
	double worst_want, worst_got;
	struct apod_tol tol;      /* the tolerance of the worst value */
	long step_row;            /* series: the first row whose step differs, or -1 */
	long step_want, step_got; /* its step in each run */
	/* Integer outputs (dtype.h), compared in integer arithmetic: the
	 * largest difference and the worst values, exactly. */
	int integer;
	unsigned long long max_iabs;
	char iwant[24], igot[24];
};

struct apod_verdict {
	int shape_ok;
	int ok;
	/* Tolerances may be designed from the problem: where neither run holds
	 * one, apod_verify builds it from params; why it could not. */
	char problem_failed[256];
	int n;
	/* One part an output, two where a horizon splits a series. */
	struct apod_output_verdict out[2 * APOD_MAX_OUTPUTS];
};

/* COUNTS: the largest moved fraction of a row over the fraction allowed. */
static inline double apod_counts_of_tol(double frac, double allowed)
{
	if (!(frac > 0))
		return isnan(frac) ? INFINITY : 0;
	return allowed > 0 ? frac / allowed : INFINITY;
}

/* Compare got with want (the same workload and parameters).  Returns v->ok.
 * The tolerance hooks are given got's or want's problem, or else one made
 * from params for the call (where the workload makes one). */
int apod_verify(const void *params, const struct apod_run *want, const struct apod_run *got,
                struct apod_verdict *v);

/* STATS on integers: the mean and the spread (the standard deviation over
 * n, not n - 1) of the n values of data at first, first + stride, ...  The
 * sum is exact in integers, and so is each value's distance from the mean
 * until its one rounding to a double.  n is below 2^62. */
void apod_int_moments(const void *data, enum apod_dtype t, size_t first, size_t stride, size_t n,
                      double *mean, double *sd);

/* verdict.c: the verdict in words.
 * The output that came closest to its tolerance (the largest of_tol among
 * those that differ at all), or -1 where every output is bit for bit equal. */
int apod_verdict_worst(const struct apod_verdict *v);
/* The comparison that applied to o, as verify's lines and the table's
 * summary name it: "abs+rel", or with a horizon "abs+rel to step 400",
 * "stats past step 400". */
void apod_verdict_kind(const struct apod_output_verdict *o, char *buf, size_t len);
/* o's name, with its comparison where a horizon chose it: "field",
 * "chaos (stats past step 400)". */
void apod_verdict_label(const struct apod_output_verdict *o, char *buf, size_t len);
/* A short human line: "PASS (bitwise)", "PASS (worst: momenta, max 2.8e-14,
 * at 0.31x its tolerance)", or what failed ("FAIL (momenta; worst: momenta, 3.1x
 * its tolerance)");
 * an output with a horizon is named with its part's comparison
 * ("worst: chaos (stats past step 400), ..."). */
void apod_verdict_line(const struct apod_verdict *v, char *buf, size_t len);
/* The full report, as `apod verify` prints it. */
void apod_verdict_print(FILE *f, const struct apod_verdict *v, const struct apod_run *r);

#endif
