/*
 * temporal.h: gpu5's passes (temporal.cuh) on a field resident on the
 * device: T steps a pass, every step's statistics left on the device.
 *
 * gpu5 (stage5.cu) and `apod bench --kernels` drive it.  temporal_pass runs
 * `depth` steps and leaves the moments of step k of the pass in d_total[k]
 * and its histogram in d_hist[k * nbins]; nothing waits.
 *
 * The field exists only at the end of a pass, so each pass ends on every
 * step where the harness wants the field (a summary's zone means, a
 * snapshot, the last step); temporal_next chooses the passes from there and
 * from which steps want statistics.
 */
#ifndef APOD_GPU_TEMPORAL_H
#define APOD_GPU_TEMPORAL_H

#include <cuda_runtime.h>

#include "cpu/heat/problem.h"
#include "shared/stats.h"

struct temporal {
	const struct heat_problem *p;
	cudaStream_t stream;
	heat_real *d_cur, *d_next;
	unsigned *d_mask;              /* heater bits */
	void *d_edges;                 /* float2 pairs of bin edges, nbins + 1 */
	struct apod_moments *d_parts, *d_total;
	unsigned *d_hist;
	int depth;                     /* steps a pass with statistics fuses at most */
	int chunk;                     /* rows a warp marches through */
	int lent;                      /* d_cur and d_next are the caller's */
};

/* Steps a pass without statistics fuses at most. */
#define TEMPORAL_SWEEP_DEPTH 8

/* Whether the problem suits gpu5's kernel (float, nx a multiple of 4,
 * at least 3 rows); if not, why, in reason. */
int temporal_supported(const struct heat_problem *p, const char **reason);

/* Upload p's initial field and mask, choose depth and chunk.  After a
 * failure too, temporal_free releases what was made. */
int temporal_init(struct temporal *t, const struct heat_problem *p, cudaStream_t stream);
/* The same on two fields of the caller's, both holding p's initial field;
 * temporal_free leaves them to the caller (who must follow the swaps). */
int temporal_init_on(struct temporal *t, const struct heat_problem *p, cudaStream_t stream,
                     heat_real *cur, heat_real *next);
void temporal_free(struct temporal *t);

/* depth steps from d_cur; swaps d_cur and d_next.  With statistics depth is
 * 1..t->depth; without (stats 0: the sweep alone), 1..TEMPORAL_SWEEP_DEPTH. */
int temporal_pass(struct temporal *t, int depth, int stats);

/* The next pass of a run whose field is at step `done`, ending no later
 * than step `until`: its depth, and in *stats whether it computes the
 * statistics (heat_next_pass in shared/heat/passes.h, with t->depth and
 * TEMPORAL_SWEEP_DEPTH); -1 if no step is left. */
int temporal_next(const struct temporal *t, long done, long until, long stats_every, int *stats);

#endif
