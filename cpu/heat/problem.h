/*
 * problem.h: the heat workload's problem: a deck turned into what a stage
 * needs to run it.
 *
 * Built once, on the host, by the driver; every engine starts from the
 * same initial field and the same list of pinned cells, so no stage can
 * differ from another in how it sets up.
 */
#ifndef APOD_HEAT_PROBLEM_H
#define APOD_HEAT_PROBLEM_H

#include <stddef.h>

#include "heat.h"
#include "shared/heat/real.h"

#ifdef __cplusplus
extern "C" {
#endif

struct heat_problem {
	const struct heat_deck *deck;
	size_t nx, ny, n;         /* columns, rows, cells */
	heat_real alpha;
	heat_real *init;          /* n cells, row-major: edges and heaters set */
	size_t nsrc;              /* heater cells, re-pinned after every step */
	size_t *src_idx;          /* ascending cell indices */
	heat_real *src_temp;
	int nbins;
	heat_real hist_lo, hist_inv_width;
	int zones_x, zones_y, nzones;
};

/* Allocate and fill p from a validated deck (which must outlive p). */
int heat_problem_init(struct heat_problem *p, const struct heat_deck *d);
void heat_problem_free(struct heat_problem *p);

/* First column of zone column zc (zc == zones_x gives nx); likewise rows. */
static inline size_t heat_zone_col0(const struct heat_problem *p, int zc)
{
	return (size_t)zc * p->nx / (size_t)p->zones_x;
}
static inline size_t heat_zone_row0(const struct heat_problem *p, int zr)
{
	return (size_t)zr * p->ny / (size_t)p->zones_y;
}

#ifdef __cplusplus
}
#endif

#endif
