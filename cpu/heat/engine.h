/*
 * engine.h: heat's own stage interface, one table per stage.
 *
 * Each of heat's stages is written against this table: a step, calcStats
 * (moments and a histogram), calcSummaryData (zone means), a fetch of the
 * field and, from gpu3 on, snapshots streamed while the steps go on.
 * stages.c turns each table into the harness's struct apod_stage, so the
 * stages keep the shape of the application they port while the harness
 * sees only its generic interface (apod/workload.h).
 *
 * Every operation returns 0 on success, or -1 after apod_fail() has said why.
 */
#ifndef APOD_HEAT_ENGINE_H
#define APOD_HEAT_ENGINE_H

#include <stddef.h>

#include "apod/workload.h"
#include "apod_hd.h"
#include "problem.h"
#include "stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Heat's probes, in order: calcStats every step, calcSummaryData every K. */
enum { HEAT_PROBE_STATS, HEAT_PROBE_SUMMARY };
/* The per-step computation: what a parallel stage of heat takes over. */
#define HEAT_PORTS_COMPUTE \
	(APOD_PORTS_STEP | APOD_PORTS_PROBE(HEAT_PROBE_STATS) | APOD_PORTS_PROBE(HEAT_PROBE_SUMMARY))
/* A stage whose field lives on the device also changes how it is set up,
 * and how every snapshot and the final field come back to the host. */
#define HEAT_PORTS_DEVICE \
	(APOD_PORTS_SETUP | HEAT_PORTS_COMPUTE | APOD_PORTS_SNAPSHOT | APOD_PORTS_FETCH)

/* A stage's name, its line for `apod stages` and the phases it takes over
 * are given where it joins the ladder (stages.c), with the stages that a
 * build without CUDA lists as unavailable. */
struct heat_engine {
	/* 1 if the stage can run here; else 0 with the reason in why. */
	int (*available)(char *why, size_t len);
	/* Parallel width N for Amdahl's law at N (threads; 0: unbounded). */
	int (*width)(void);

	void *(*create)(const struct heat_problem *p);
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
	 * the harness's writer thread, downloads that copy in chunks and hands
	 * each to sink in order while the next one is on its way.  The harness
	 * never begins a snapshot while the previous one is streaming. */
	int (*snapshot_begin)(void *ctx);
	int (*snapshot_stream)(void *ctx, int (*sink)(const apod_real *chunk, size_t count, void *arg),
	                       void *arg);

	/* Optional, both or neither: device time per phase (apod/workload.h). */
	int (*mark)(void *ctx, int phase, int end);
	int (*device_seconds)(void *ctx, double *seconds, int nphases);

	/* Optional, both or neither: a stage of several processes (MPI ranks);
	 * the harness's reporter and agree (apod/workload.h, revision 2). */
	int (*reporter)(void);
	int (*agree)(int failed);
};

#ifdef __cplusplus
}
#endif

#endif
