/*
 * hostphases.h: calcStats and calcSummaryData on a host field.
 *
 * The serial stage calls them on its own field; gpu1, which ports only
 * genTimeStep, calls the very same functions on the field it copies back
 * (both through heat_host_probe, rows.c), so that stage differs from
 * serial in the sweep alone.
 */
#ifndef APOD_HOSTPHASES_H
#define APOD_HOSTPHASES_H

#include "shared/heat/real.h"
#include "problem.h"
#include "shared/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

void calcStats(const struct heat_problem *p, const heat_real *field, struct apod_moments *m,
               unsigned *hist);
void calcSummaryData(const struct heat_problem *p, const heat_real *field, double *zone_means);
/* The mean of one zone, summed row by row in a fixed order (serial and omp
 * share it, so their zone means agree bit for bit). */
double heat_zone_mean(const struct heat_problem *p, const heat_real *field, int zr, int zc);

#ifdef __cplusplus
}
#endif

#endif
