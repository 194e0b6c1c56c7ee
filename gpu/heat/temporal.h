/*
 * temporal.h: gpu5's passes (temporal.cuh) on a field resident on the
 * device: T steps a pass, every step's statistics left on the device.
 *
 * `apod bench --kernels` drives it; a stage will (gpu5 is not in heat's
 * ladder yet).  temporal_pass runs `depth` steps and leaves the moments of
 * step k of the pass in d_total[k] and its histogram in d_hist[k * nbins];
 * nothing waits.
 *
 * What a stage on it has to do: the field exists only at the end of a
 * pass, so each pass must end on every step where the harness wants the
 * field (a summary's zone means, a snapshot, the last step): depth =
 * min(t->depth, steps to the next such step).  step() runs a pass when the
 * previous one is used up, then copies the pass's d_total and d_hist home
 * asynchronously; the statistics probe of step s waits for that copy once a
 * pass and reads level s - (first step of the pass); zones, snapshots and
 * fetch work on d_cur as resident.cu's do.
 */
#ifndef APOD_GPU_TEMPORAL_H
#define APOD_GPU_TEMPORAL_H

#include <cuda_runtime.h>

#include "problem.h"
#include "stats.h"

struct temporal {
	const struct heat_problem *p;
	cudaStream_t stream;
	heat_real *d_cur, *d_next;
	unsigned *d_mask;              /* heater bits */
	void *d_edges;                 /* float2 pairs of bin edges, nbins + 1 */
	struct apod_moments *d_parts, *d_total;
	unsigned *d_hist;
	int depth;                     /* steps a full pass fuses */
	int chunk;                     /* rows a warp marches through */
};

/* Whether the problem suits gpu5's kernel (float, nx a multiple of 4,
 * at least 3 rows); if not, why, in reason. */
int temporal_supported(const struct heat_problem *p, const char **reason);

/* Upload p's initial field and mask, choose depth and chunk.  After a
 * failure too, temporal_free releases what was made. */
int temporal_init(struct temporal *t, const struct heat_problem *p, cudaStream_t stream);
void temporal_free(struct temporal *t);

/* depth steps (1..t->depth) from d_cur; swaps d_cur and d_next.  With
 * stats 0 the statistics are left out and depth is 4 or 8 (the sweep
 * alone, for bench). */
int temporal_pass(struct temporal *t, int depth, int stats);

#endif
