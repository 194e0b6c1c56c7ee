/*
 * heat.h: the heat workload's deck, a small "key = value" text file
 * describing one run (its key table is in params.c).
 *
 * Every key has a default (together they are the default deck, which is
 * also data/heat/medium.deck), so a deck only names what it changes.
 */
#ifndef APOD_HEAT_H
#define APOD_HEAT_H

#include <stddef.h>

#include "apod/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HEAT_MAX_SOURCES 16
#define HEAT_MAX_DIM     1048576   /* per side: keeps nx*ny*8 far from overflow */
#define HEAT_MAX_STEPS   100000000L
#define HEAT_MAX_BINS    4096
#define HEAT_MAX_ZONES   256       /* per side */
#define HEAT_MAX_TEMP    1e6

/* A heater: a disc of cells held at a fixed temperature.  Position and
 * radius are fractions of the grid, so a deck scales with --size. */
struct heat_source {
	double x, y, r, temp;
};

struct heat_deck {
	char name[APOD_NAME_MAX];
	long size[2];             /* columns, rows */
	long steps;
	double alpha;             /* diffusion number k*dt/h^2, stable up to 1/4 */
	double t_init;            /* interior at step 0 */
	double t_hot;             /* top edge, held fixed */
	double t_cold;            /* other three edges, held fixed */
	long stats_every;         /* calcStats every K steps (0: never) */
	long summary_every;       /* calcSummaryData every K steps (0: never) */
	long snapshot_every;      /* snapshot every M steps (0: never) */
	long zones[2];            /* zones across, down */
	long hist_bins;
	int hist_range_set;       /* 0: the range is [lowest, highest temperature] */
	double hist_lo, hist_hi;
	int nsources;
	struct heat_source sources[HEAT_MAX_SOURCES];
};

/* The key table and the checks across keys (params.c). */
extern const struct apod_param heat_params[];
int heat_deck_check(const void *deck);

/* Largest |temperature| the run can reach (the maximum principle): the
 * scale of every absolute tolerance. */
double heat_deck_scale(const struct heat_deck *d);
double heat_deck_tmin(const struct heat_deck *d);
double heat_deck_tmax(const struct heat_deck *d);
/* The histogram's range: the deck's, or [lowest, highest temperature]. */
void heat_deck_hist_range(const struct heat_deck *d, double *lo, double *hi);

/* Host bytes a run needs (fields and per-step statistics), or 0 on overflow. */
size_t heat_deck_run_bytes(const struct heat_deck *d);

#ifdef __cplusplus
}
#endif

#endif
