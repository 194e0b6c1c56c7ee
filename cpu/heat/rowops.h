/*
 * rowops.h: the host loops over one row that the serial and OpenMP engines
 * share.  The engines differ only in how they hand rows out, so a row's
 * arithmetic, and with it the result, is the same in both.
 */
#ifndef APOD_ROWOPS_H
#define APOD_ROWOPS_H

#include <stddef.h>

#include "shared/heat/real.h"
#include "shared/stats.h"

/* One stencil sweep of row c (interior columns only) into out. */
void heat_sweep_row(const heat_real *restrict up, const heat_real *restrict c,
                    const heat_real *restrict dn, heat_real *restrict out,
                    size_t nx, heat_real alpha);

/* Moments of n values (two passes in double; the row stays in cache). */
void heat_row_moments(const heat_real *restrict x, size_t n, struct apod_moments *m);

/* Add the histogram of n values to hist. */
void heat_row_hist(const heat_real *restrict x, size_t n, heat_real lo, heat_real inv_width,
                   int nbins, unsigned *restrict hist);

/* Sum of n values in double, in a fixed order. */
double heat_row_sum(const heat_real *restrict x, size_t n);

#endif
