/*
 * sim.h: the application's main loop, written once for every stage.
 */
#ifndef APOD_SIM_H
#define APOD_SIM_H

#include <stddef.h>

#include "deck.h"
#include "engine.h"
#include "problem.h"
#include "stats.h"

/* Everything one run produced: the timers and the results to verify. */
struct apod_run {
	char stage[32];
	int width;                    /* threads the stage used (Amdahl's N) */
	int was_double;               /* the field's precision when it was written */
	size_t nx, ny;
	long steps;
	int nbins, nzones;
	double phase[APOD_NPHASES];   /* wall-clock seconds per phase */
	double total;                 /* sum of the phases */
	struct apod_moments *moments; /* one per step */
	unsigned *hist;               /* steps x nbins */
	long nsummaries;
	long *summary_step;           /* the step each summary was taken after */
	double *zones;                /* nsummaries x nzones */
	long snapshots;               /* snapshot files written */
	double background;            /* seconds the writer thread spent streaming
	                                 snapshots, overlapped with the phases */
	apod_real *field;             /* the final field, nx*ny */
};

/* Run the engine on p.  With outdir, write snapshots and the results there.
 * On failure r holds nothing to free. */
int apod_simulate(const struct apod_engine *e, const struct apod_problem *p,
                  const char *outdir, struct apod_run *r);

/* Allocate r's arrays for a run of the given shape (zeroed). */
int apod_run_alloc(struct apod_run *r, size_t nx, size_t ny, long steps, int nbins,
                   int nzones, long nsummaries);
void apod_run_free(struct apod_run *r);

#endif
