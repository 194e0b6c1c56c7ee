/*
 * verify.h: the gate every stage passes through.
 *
 * One module compares a run with a reference run: the field element by
 * element (absolute plus relative tolerance, relative L2 error, maximum ULP
 * distance, the worst element), and the statistics, histograms and zone
 * means each on their own.  The tolerances are derived from the deck by
 * apod_tolerance_design(); doc/verification.md explains every factor.
 */
#ifndef APOD_VERIFY_H
#define APOD_VERIFY_H

#include <stddef.h>
#include <stdio.h>

#include "deck.h"
#include "sim.h"

struct apod_tolerance {
	double unit;          /* unit roundoff of the coarser precision */
	double atol;          /* per cell, absolute */
	double rtol;          /* per cell, relative to the reference value */
	double moment_atol;   /* mean, min, max */
	double var_atol;      /* variance */
	double hist_l1_frac;  /* per step: sum |count difference| / cells */
	double zone_atol;     /* zone means */
};

/* Tolerances for comparing two runs of deck d, where either side may be in
 * float (any_float) or both in double. */
void apod_tolerance_design(struct apod_tolerance *t, const struct apod_deck *d, int any_float);

struct apod_field_diff {
	size_t n;
	size_t nbad;              /* cells outside atol + rtol*|want| */
	size_t ndiffer;           /* cells not bit-for-bit equal */
	double max_abs;
	double rel_l2;            /* ||got - want|| / ||want|| */
	long long max_ulp;        /* on the float grid */
	size_t worst;             /* index of the largest absolute difference */
	double worst_want, worst_got;
};

struct apod_verdict {
	struct apod_field_diff field;
	double max_dmoment;       /* largest |difference| in mean, min, max */
	long max_dmoment_step;
	double max_dvar;
	long max_dvar_step;
	double max_hist_l1;       /* as a fraction of the cells */
	long max_hist_step;
	double max_dzone;
	int field_ok, stats_ok, hist_ok, zones_ok, shape_ok;
	int ok;
};

void apod_compare_field(const apod_real *want, const apod_real *got, size_t n,
                        const struct apod_tolerance *t, struct apod_field_diff *out);

/* Compare got with want (same deck).  Returns v->ok. */
int apod_verify(const struct apod_run *want, const struct apod_run *got,
                const struct apod_tolerance *t, struct apod_verdict *v);

/* A short human line ("PASS (max |diff| 0, 0 ulp)" or what failed) */
void apod_verdict_line(const struct apod_verdict *v, char *buf, size_t len);
/* The full report, as `apod verify` prints it. */
void apod_verdict_print(FILE *f, const struct apod_verdict *v, const struct apod_tolerance *t,
                        size_t nx);

#endif
