/*
 * resident_stage.cuh: what gpu2, gpu3 and gpu4 share as stages, written
 * once.  Each keeps its field resident (a `struct resident r` member) and
 * most of its operations forward to it; a stage writes only what it does
 * differently (gpu4 its fused step and statistics) and takes the rest from
 * here, by its context's type:
 *
 *     .create = resident_create<gpu3, gpu3_setup, gpu3_destroy>,
 *     .step = resident_step<gpu3>, .stats = resident_stats_op<gpu3>, ...
 */
#ifndef APOD_GPU_RESIDENT_STAGE_CUH
#define APOD_GPU_RESIDENT_STAGE_CUH

#include <stdlib.h>

#include "fail.h"
#include "resident.h"

/* calloc the context, run its setup, and on failure undo what setup did. */
template <class T, int (*setup)(T *, const struct heat_problem *), void (*destroy)(void *)>
static void *resident_create(const struct heat_problem *p)
{
	T *g = (T *)calloc(1, sizeof *g);
	if (!g) {
		apod_fail("GPU stage: out of memory");
		return NULL;
	}
	if (setup(g, p)) {
		destroy(g);
		return NULL;
	}
	return g;
}

template <class T> static int resident_step(void *ctx)
{
	return resident_sweep(&((T *)ctx)->r);
}

template <class T> static int resident_stats_op(void *ctx, struct apod_moments *m, unsigned *hist)
{
	return resident_stats(&((T *)ctx)->r, m, hist);
}

template <class T> static int resident_summary(void *ctx, double *zone_means)
{
	return resident_zones(&((T *)ctx)->r, zone_means);
}

template <class T> static int resident_fetch_op(void *ctx, apod_real *dst)
{
	return resident_fetch(&((T *)ctx)->r, dst);
}

template <class T> static int resident_mark_op(void *ctx, int phase, int end)
{
	return resident_mark(&((T *)ctx)->r, phase, end);
}

template <class T> static int resident_device_op(void *ctx, double *seconds, int nphases)
{
	return resident_device_seconds(&((T *)ctx)->r, seconds, nphases);
}

/* Snapshots that overlap the steps (gpu3 onwards: a `struct snapshots s`). */
template <class T> static int resident_snapshot_begin(void *ctx)
{
	T *g = (T *)ctx;
	return snapshots_begin(&g->s, &g->r);
}

template <class T>
static int resident_snapshot_stream(void *ctx, int (*sink)(const apod_real *, size_t, void *),
                                    void *arg)
{
	return snapshots_stream(&((T *)ctx)->s, sink, arg);
}

/* A GPU has no thread count: Amdahl's N is the measured speedup. */
static inline int resident_width(void)
{
	return 0;
}

#endif
