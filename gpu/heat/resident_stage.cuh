/*
 * resident_stage.cuh: what gpu2, gpu3 and gpu4 share as stage operations
 * (struct apod_stage_ops), written once.  Each keeps its field resident (a
 * `struct resident r` member) and most of its operations forward to it; a
 * stage writes only what it does differently (gpu4 its fused step and
 * statistics) and takes the rest from here, by its context's type:
 *
 *     .create = resident_create<gpu3, gpu3_setup, gpu3_destroy>,
 *     .step = resident_step<gpu3>, .probe = resident_probe<gpu3>, ...
 *
 * Their probes are deferred (defer_rows, collect): the harness calls probe
 * with no rows, and it only issues the row's work; given rows, probe
 * computes the row now and waits for it, for callers that want one row at
 * once (gpu5's stand-in, tests/check_gpu.c, which compares the two).
 */
#ifndef APOD_GPU_RESIDENT_STAGE_CUH
#define APOD_GPU_RESIDENT_STAGE_CUH

#include <stdlib.h>

#include "apod/apod.h"
#include "cpu/heat/heat_stage.h"
#include "heat_resident.h"

/* calloc the context, run its setup, and on failure undo what setup did. */
template <class T, int (*setup)(T *, const struct heat_problem *), void (*destroy)(void *)>
static void *resident_create(const struct apod_stage *s, const void *problem)
{
	T *g = (T *)calloc(1, sizeof *g);
	(void)s;
	if (!g) {
		apod_fail("GPU stage: out of memory");
		return NULL;
	}
	if (setup(g, (const struct heat_problem *)problem) || resident_settle()) {
		destroy(g);
		return NULL;
	}
	return g;
}

/* Heat's one step phase, genTimeStep. */
template <class T> static int resident_step(void *ctx, int phase, long step, long steps)
{
	(void)phase, (void)step, (void)steps;
	return resident_sweep(&((T *)ctx)->r);
}

/* calcStats with the plain statistics kernel (gpu2, gpu3). */
template <class T> static int resident_stats_of(T *g, struct apod_moments *m)
{
	return resident_stats(&g->r, m);
}

/* calcStats's row `row` deferred with the plain statistics kernel, then
 * the merge into the ring (gpu2, gpu3). */
template <class T> static int resident_defer_plain_of(T *g, long row)
{
	return resident_defer_plain_stats(&g->r, row);
}

/* The probes.  Deferred (rows NULL, as the harness calls them): row `row`
 * is computed into a ring on the device and nothing waits; the harness
 * collects the rows in batches (resident_collect_op).  calcStats's row by
 * `defer`, calcSummaryData's by the zone kernel.  Now (rows given):
 * calcStats by `stats` (which leaves the counts in r.h_hist),
 * calcSummaryData by the zone kernel, waited for. */
template <class T, int (*stats)(T *, struct apod_moments *) = resident_stats_of<T>,
          int (*defer)(T *, long) = resident_defer_plain_of<T> >
static int resident_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	T *g = (T *)ctx;
	struct apod_moments m;
	(void)step;
	if (!rows)
		return k == HEAT_PROBE_SUMMARY ? resident_defer_zones(&g->r, row) : defer(g, row);
	if (k == HEAT_PROBE_SUMMARY) {
		double *zones = (double *)rows[HEAT_SERIES_ZONES];
		return zones ? resident_zones(&g->r, zones) : 0;
	}
	if (stats(g, &m))
		return -1;
	heat_stats_rows(g->r.p, &m, g->r.h_hist, rows);
	return 0;
}

template <class T>
static int resident_collect_op(void *ctx, int k, long first, long count, void *const *rows)
{
	return resident_collect(&((T *)ctx)->r, k, first, count, rows);
}

template <class T> static int resident_fetch_op(void *ctx, int array, void *dst)
{
	(void)array;   /* heat has one array, the field */
	return resident_fetch(&((T *)ctx)->r, (heat_real *)dst);
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
template <class T> static int resident_snapshot_begin(void *ctx, int array)
{
	T *g = (T *)ctx;
	(void)array;
	return snapshots_begin(&g->s, &g->r);
}

template <class T>
static int resident_snapshot_stream(void *ctx, int (*sink)(const void *, size_t, void *), void *arg)
{
	return snapshots_stream(&((T *)ctx)->s, sink, arg);
}

#endif
