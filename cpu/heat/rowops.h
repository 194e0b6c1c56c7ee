/*
 * rowops.h: the host loops over one row that the serial and OpenMP engines
 * share.  The engines differ only in how they hand rows out, so a row's
 * arithmetic, and with it the result, is the same in both.
 */
#ifndef APOD_ROWOPS_H
#define APOD_ROWOPS_H

#include <stddef.h>

#include "apod_hd.h"
#include "stats.h"

/* One stencil sweep of row c (interior columns only) into out. */
void apod_sweep_row(const apod_real *restrict up, const apod_real *restrict c,
                    const apod_real *restrict dn, apod_real *restrict out,
                    size_t nx, apod_real alpha);

/* Moments of n values (two passes in double; the row stays in cache). */
void apod_row_moments(const apod_real *restrict x, size_t n, struct apod_moments *m);

/* Add the histogram of n values to hist. */
void apod_row_hist(const apod_real *restrict x, size_t n, apod_real lo, apod_real inv_width,
                   int nbins, unsigned *restrict hist);

/* Sum of n values in double, in a fixed order. */
double apod_row_sum(const apod_real *restrict x, size_t n);

#endif
