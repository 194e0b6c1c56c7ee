/*
 * stage5.cu: gpu5, several steps fused a pass (temporal.cuh), with every
 * statistics step's moments and histogram computed inside the tile.
 *
 * What changed from gpu4: a pass over the field does up to 4 steps with
 * the statistics (8 without), so the field is read and written once for
 * several steps.  The field exists only at the end of a pass, so a pass
 * ends on every step where the harness wants it: the zone means (every
 * summary_every), a snapshot (every snapshot_every, asked for or not) and
 * the last step.  The step issues a pass at its first step and sends the
 * pass's statistics home without waiting; the statistics probe of a step
 * waits once a pass, for that copy, and reads the step's level.  Which
 * steps a pass fuses, and whether it computes the statistics, is
 * temporal_next's choice (stats_every lets it fuse the sweep alone, 8
 * deep, between statistics steps).
 *
 * The kernel needs float and a width that is a multiple of 4.  A double
 * build leaves gpu5 unavailable; a deck of another width (which the stage
 * learns only from the problem) runs gpu4's kernels instead, one step a
 * pass, so that the ladder still runs every deck.
 *
 * Zones, snapshots and the final field use the resident field's code
 * (resident.cu) on the two buffers the passes swap.
 */
#include <stdio.h>
#include <stdlib.h>

#include "apod/cuda.h"
#include "gpu/device.h"
#include "cpu/heat/heat_stage.h"
#include "heat_resident.h"
#include "resident_stage.cuh"
#include "temporal.h"

struct gpu5 {
	struct heat_resident r;        /* its d_cur and d_next are the passes' fields */
	struct snapshots s;
	struct temporal t;
	cudaStream_t compute;
	struct apod_moments *h_total;  /* pinned: a pass's moments, a level each */
	unsigned *h_hist;              /* pinned: a pass's histograms */
	cudaEvent_t stats_home;        /* the pass's statistics are in h_total, h_hist */
	long step;                     /* the last step the step phase was told */
	long first, last;              /* steps of the pass issued last */
	int stats, waited;             /* it computes the statistics; the probe has waited */
	void *gpu4;                    /* gpu4's context, where the kernel cannot run */
};

static void gpu5_destroy(void *ctx)
{
	struct gpu5 *g = (struct gpu5 *)ctx;
	if (!g)
		return;
	if (g->gpu4)
		heat_gpu4_ops.destroy(g->gpu4);
	/* Teardown: nothing useful to do with a failure but go on freeing. */
	temporal_free(&g->t);      /* leaves the fields to r */
	snapshots_free(&g->s);
	resident_free(&g->r);
	cudaFreeHost(g->h_total);
	cudaFreeHost(g->h_hist);
	if (g->stats_home)
		cudaEventDestroy(g->stats_home);
	if (g->compute)
		cudaStreamDestroy(g->compute);
	free(g);
}

static int gpu5_setup(struct gpu5 *g, const struct heat_problem *p)
{
	const char *why;
	if (!temporal_supported(p, &why)) {
		/* gpu4's probe, given rows, computes them at once: gpu5 collects
		 * nothing, so the harness always gives them. */
		g->gpu4 = heat_gpu4_ops.create(&heat_stage_gpu4, p);
		return g->gpu4 ? 0 : -1;
	}
	APOD_CUDA_TRY(cudaStreamCreateWithFlags(&g->compute, cudaStreamNonBlocking));
	/* One more field's worth is counted for the snapshot staging buffer. */
	if (resident_init(&g->r, p, "gpu5", g->compute, 1, 1) ||
	    temporal_init_on(&g->t, p, g->compute, g->r.d_cur, g->r.d_next))
		return -1;
	APOD_CUDA_TRY(cudaMallocHost(&g->h_total, (size_t)g->t.depth * sizeof *g->h_total));
	APOD_CUDA_TRY(cudaMallocHost(&g->h_hist, (size_t)g->t.depth * p->nbins * sizeof *g->h_hist));
	APOD_CUDA_TRY(cudaEventCreateWithFlags(&g->stats_home, cudaEventDisableTiming));
	return 0;
}

/* The first multiple of every after step done (every 0: never). */
static long next_multiple(long done, long every, long never)
{
	return every > 0 ? (done / every + 1) * every : never;
}

/* Issue the pass that starts after step done; its statistics go home. */
static int gpu5_pass(struct gpu5 *g, long done, long steps)
{
	const struct heat_problem *p = g->r.p;
	const struct heat_deck *d = p->deck;
	long until = steps, m;
	int depth, stats;
	if ((m = next_multiple(done, d->summary_every, steps)) < until)
		until = m;
	if ((m = next_multiple(done, d->snapshot_every, steps)) < until)
		until = m;
	/* temporal.cu launches on the resident field's stream (t.stream). */
	if ((depth = temporal_next(&g->t, done, until, d->stats_every, &stats)) < 0 ||
	    resident_issue(&g->r) || temporal_pass(&g->t, depth, stats))
		return -1;
	g->r.d_cur = g->t.d_cur;
	g->r.d_next = g->t.d_next;
	if (stats) {
		APOD_CUDA_TRY(cudaMemcpyAsync(g->h_total, g->t.d_total, (size_t)depth * sizeof *g->h_total,
		                              cudaMemcpyDeviceToHost, g->compute));
		APOD_CUDA_TRY(cudaMemcpyAsync(g->h_hist, g->t.d_hist,
		                              (size_t)depth * p->nbins * sizeof *g->h_hist,
		                              cudaMemcpyDeviceToHost, g->compute));
		APOD_CUDA_TRY(cudaEventRecord(g->stats_home, g->compute));
	}
	g->first = done + 1;
	g->last = done + depth;
	g->stats = stats;
	g->waited = 0;
	return 0;
}

/* Heat's one step phase, genTimeStep. */
static int gpu5_step(void *ctx, int phase, long step, long steps)
{
	struct gpu5 *g = (struct gpu5 *)ctx;
	if (g->gpu4)
		return heat_gpu4_ops.step(g->gpu4, phase, step, steps);
	if (step != g->step + 1)
		return apod_fail("gpu5: told step %ld after step %ld (steps come in order)", step, g->step);
	g->step = step;
	return step > g->last ? gpu5_pass(g, step - 1, steps) : 0;
}

static int gpu5_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct gpu5 *g = (struct gpu5 *)ctx;
	const struct heat_problem *p;
	long level;
	if (g->gpu4)
		return heat_gpu4_ops.probe(g->gpu4, k, step, row, rows);
	p = g->r.p;
	if (k == HEAT_PROBE_SUMMARY) {
		if (step != g->last)
			return apod_fail("gpu5: zone means asked at step %ld, inside a pass (%ld to %ld)", step,
			                 g->first, g->last);
		return rows[HEAT_SERIES_ZONES] ? resident_zones(&g->r, (double *)rows[HEAT_SERIES_ZONES]) : 0;
	}
	if (!g->stats || step < g->first || step > g->last)
		return apod_fail("gpu5: statistics asked at step %ld, which the pass (%ld to %ld) did not "
		                 "compute (stats_every %ld)",
		                 step, g->first, g->last, p->deck->stats_every);
	if (!g->waited) {
		APOD_CUDA_TRY(cudaEventSynchronize(g->stats_home));
		g->waited = 1;
	}
	level = step - g->first;
	heat_stats_rows(p, &g->h_total[level], g->h_hist + (size_t)level * p->nbins, rows);
	return 0;
}

static int gpu5_fetch(void *ctx, int array, void *dst)
{
	struct gpu5 *g = (struct gpu5 *)ctx;
	if (g->gpu4)
		return heat_gpu4_ops.fetch(g->gpu4, array, dst);
	return resident_fetch_op<gpu5>(ctx, array, dst);
}

static int gpu5_snapshot_begin(void *ctx, int array)
{
	struct gpu5 *g = (struct gpu5 *)ctx;
	if (g->gpu4)
		return heat_gpu4_ops.snapshot_begin(g->gpu4, array);
	if (g->step != g->last)
		return apod_fail("gpu5: a snapshot asked at step %ld, inside a pass (%ld to %ld)", g->step,
		                 g->first, g->last);
	return resident_snapshot_begin<gpu5>(ctx, array);
}

static int gpu5_snapshot_stream(void *ctx, int (*sink)(const void *, size_t, void *), void *arg)
{
	struct gpu5 *g = (struct gpu5 *)ctx;
	if (g->gpu4)
		return heat_gpu4_ops.snapshot_stream(g->gpu4, sink, arg);
	return resident_snapshot_stream<gpu5>(ctx, sink, arg);
}

static int gpu5_mark(void *ctx, int phase, int end)
{
	struct gpu5 *g = (struct gpu5 *)ctx;
	if (g->gpu4)
		return heat_gpu4_ops.mark(g->gpu4, phase, end);
	return resident_mark_op<gpu5>(ctx, phase, end);
}

static int gpu5_device_seconds(void *ctx, double *seconds, int nphases)
{
	struct gpu5 *g = (struct gpu5 *)ctx;
	if (g->gpu4)
		return heat_gpu4_ops.device_seconds(g->gpu4, seconds, nphases);
	return resident_device_op<gpu5>(ctx, seconds, nphases);
}

static int gpu5_available(const struct apod_stage *s, char *why, size_t len)
{
#ifdef APOD_REAL_FLOAT
	return apod_gpu_stage_available(s, why, len);
#else
	(void)s;
	snprintf(why, len, "gpu5's kernel is float only, and this build computes in double "
	                   "(configure --enable-double)");
	return 0;
#endif
}

/* Described in cpu/heat/stages.c.  Its probes are not deferred: a probe
 * waits once a pass, for the statistics the pass computed. */
extern "C" const struct apod_stage_ops heat_gpu5_ops = {
	.available = gpu5_available,
	.create = resident_create<gpu5, gpu5_setup, gpu5_destroy>,
	.step = gpu5_step,
	.probe = gpu5_probe,
	.fetch = gpu5_fetch,
	.destroy = gpu5_destroy,
	.snapshot_begin = gpu5_snapshot_begin,
	.snapshot_stream = gpu5_snapshot_stream,
	.mark = gpu5_mark,
	.device_seconds = gpu5_device_seconds,
};
