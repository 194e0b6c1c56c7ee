/*
 * engine.h: the one interface every implementation of the application sits
 * behind.
 *
 * A stage is a table of these operations and nothing else: the main loop,
 * the deck, the timers, the files and the verification are written once in
 * sim.c and apod.c.  A new stage adds a table here and its own file; it
 * never copies the application.
 *
 * Every operation returns 0 on success, or -1 after apod_fail() has said why.
 */
#ifndef APOD_ENGINE_H
#define APOD_ENGINE_H

#include <stddef.h>

#include "apod_hd.h"
#include "problem.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The phases of the application, named as in the guide's gprof example. */
enum apod_phase {
	APOD_PHASE_SETUP,        /* allocate, upload the initial field */
	APOD_PHASE_STEP,         /* genTimeStep: one stencil sweep */
	APOD_PHASE_STATS,        /* calcStats: moments and histogram */
	APOD_PHASE_SUMMARY,      /* calcSummaryData: zone means */
	APOD_PHASE_SNAPSHOT,     /* fetch and write a snapshot */
	APOD_PHASE_REPORT,       /* fetch the final field, write the results */
	APOD_NPHASES
};

#define APOD_PHASE_BIT(p) (1u << (p))
/* The phases a parallel stage can take over: the per-step computation. */
#define APOD_COMPUTE_PHASES \
	(APOD_PHASE_BIT(APOD_PHASE_STEP) | APOD_PHASE_BIT(APOD_PHASE_STATS) | \
	 APOD_PHASE_BIT(APOD_PHASE_SUMMARY))

const char *apod_phase_name(enum apod_phase p);

struct apod_engine {
	const char *name;
	const char *about;            /* one line for `apod stages` */
	unsigned ports;               /* APOD_PHASE_BITs this stage parallelises */

	/* 1 if the stage can run here; else 0 with the reason in why. */
	int (*available)(char *why, size_t len);
	/* Parallel width N for Amdahl's law at N (threads; 0: unbounded). */
	int (*width)(void);

	void *(*create)(const struct apod_problem *p);
	int (*step)(void *ctx);
	/* Moments of the current field, and its histogram (p->nbins counts). */
	int (*stats)(void *ctx, struct apod_moments *m, unsigned *hist);
	/* Mean of each zone, row-major over zones_y x zones_x. */
	int (*summary)(void *ctx, double *zone_means);
	/* Copy the current field to host memory (p->n cells). */
	int (*fetch)(void *ctx, apod_real *dst);
	void (*destroy)(void *ctx);

	/* Optional, both or neither.  snapshot_begin takes a copy of the current
	 * field on the device and returns at once; snapshot_stream, called from
	 * the driver's writer thread, downloads that copy in chunks and hands
	 * each to sink in order while the next one is on its way.  The driver
	 * never begins a snapshot while the previous one is streaming. */
	int (*snapshot_begin)(void *ctx);
	int (*snapshot_stream)(void *ctx, int (*sink)(const apod_real *chunk, size_t count, void *arg),
	                       void *arg);
};

/* Every stage this build knows, in ladder order, NULL-terminated. */
extern const struct apod_engine *const apod_engines[];
const struct apod_engine *apod_engine_find(const char *name);

#ifdef __cplusplus
}
#endif

#endif
