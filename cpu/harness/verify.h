/*
 * verify.h: the gate every stage passes through.
 *
 * A run is compared with a reference run output by output: each array
 * element by element, each series row by row, under the comparison the
 * workload declared and the tolerances its hooks designed from the
 * parameters.  Every output is reported on its own: the largest
 * difference, where it was, and the tolerance it was held to.
 */
#ifndef APOD_VERIFY_H
#define APOD_VERIFY_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "run.h"

#define APOD_MAX_OUTPUTS 32

struct apod_output_verdict {
	const char *name;
	int is_array;
	enum apod_compare compare;
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
	size_t worst;             /* arrays: index of the largest difference */
	long worst_step;          /* series: the step of the largest difference */
	int worst_col;
	double worst_want, worst_got;
	struct apod_tol tol;      /* the tolerance of the worst value */
	long step_row;            /* series: the first row whose step differs, or -1 */
	long step_want, step_got; /* its step in each run */
	/* Integer outputs (typed.h): the largest difference and the worst
	 * values, exactly. */
	int integer;
	unsigned long long max_iabs;
	char iwant[24], igot[24];
};

struct apod_verdict {
	int shape_ok;
	int ok;
	/* Where a tolerance is designed from the problem (tolerance_of) and
	 * neither run holds one, apod_verify builds it; why it could not. */
	char problem_failed[256];
	int n;
	struct apod_output_verdict out[APOD_MAX_OUTPUTS];
};

/* COUNTS: the largest moved fraction of a row over the fraction allowed. */
static inline double apod_counts_of_tol(double frac, double allowed)
{
	if (!(frac > 0))
		return isnan(frac) ? INFINITY : 0;
	return allowed > 0 ? frac / allowed : INFINITY;
}

/* Compare got with want (the same workload and parameters).  Returns v->ok.
 * Tolerances designed from the problem (tolerance_of) are given got's or
 * want's problem, or else one made from params for the call. */
int apod_verify(const void *params, const struct apod_run *want, const struct apod_run *got,
                struct apod_verdict *v);

/* The output that came closest to its tolerance (the largest of_tol among
 * those that differ at all), or -1 where every output is bit for bit equal. */
int apod_verdict_worst(const struct apod_verdict *v);
/* A short human line: "PASS (bitwise)", "PASS (worst: momenta, max 2.8e-14,
 * 0.31 of tol)", or what failed ("FAIL (momenta; worst: momenta, 3.1x tol)"). */
void apod_verdict_line(const struct apod_verdict *v, char *buf, size_t len);
/* The full report, as `apod verify` prints it. */
void apod_verdict_print(FILE *f, const struct apod_verdict *v, const struct apod_run *r);

#endif
