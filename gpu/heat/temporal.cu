/*
 * temporal.cu: gpu5's passes: buffers, the choice of depth and chunk, and
 * the launches of temporal.cuh's kernel.
 *
 * Depth: 4 steps a pass.  On the H200 (doc/optimize.md, gpu5) the kernel
 * with statistics is bound by issue and latency, not by memory: at depth 4
 * a thread holds 122 registers and 16 warps fit on an SM; deeper passes
 * have fewer warps and run slower a step (8192^2: depth 5, 158 registers,
 * 12 warps: 419 GCells/s; depth 6, 189 registers, 8 warps: 348; depth 4:
 * 448, section 19).  Without statistics
 * depth 8 wins (1308 GCells/s), which is what `bench --kernels` shows, and
 * what gpu5 fuses between statistics steps where stats_every > 1.
 * Chunk: 64 rows where that gives the device two waves of warps or more,
 * else the chunk that fills whole waves (chunk_for_waves; 20 rows on the
 * 2048^2 deck): a shorter chunk recomputes more overlap rows, a longer one
 * leaves SMs idle.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apod/cuda.h"
#include "gpu/device.h"
#include "shared/heat/passes.h"
#include "temporal.cuh"
#include "temporal.h"

/* Overridable with -D for experiments (doc/optimize.md, section 20). */
#ifndef TEMPORAL_DEPTH
#define TEMPORAL_DEPTH 4
#endif
static_assert(TEMPORAL_DEPTH >= 1 && TEMPORAL_DEPTH <= 4, "gpu5 has kernels with statistics to depth 4");
#ifndef TEMPORAL_MINB
#define TEMPORAL_MINB 4   /* blocks an SM at depth <= 4: 16 warps, no spills */
#endif

int temporal_supported(const struct heat_problem *p, const char **reason)
{
#ifndef APOD_REAL_FLOAT
	(void)p;
	*reason = "gpu5's kernel is float only (this build's real is double)";
	return 0;
#else
	if (p->nx % 4) {
		*reason = "gpu5 needs the number of columns to be a multiple of 4";
		return 0;
	}
	if (p->ny < 3 || p->nx < 4) {
		*reason = "gpu5 needs at least 4 columns and 3 rows";
		return 0;
	}
	*reason = NULL;
	return 1;
#endif
}

static int strips(const struct heat_problem *p, int depth)
{
#ifdef APOD_REAL_FLOAT
	int w = TEMPORAL_STRIP_COLS(depth);
	return (int)((p->nx + (size_t)w - 1) / (size_t)w);
#else
	(void)p;
	(void)depth;
	return 1;
#endif
}

/* Partial moments a pass writes: one per warp and level. */
static size_t parts_needed(const struct heat_problem *p, int depth, int chunk)
{
	size_t bx = ((size_t)strips(p, depth) + TEMPORAL_WARPS - 1) / TEMPORAL_WARPS;
	size_t by = (p->ny + (size_t)chunk - 1) / (size_t)chunk;
	return bx * TEMPORAL_WARPS * by;
}

/* For grids that would not fill the device twice over with 64-row chunks:
 * the chunk whose pass takes the fewest rows a warp over all its waves,
 * waves of resident blocks times the rows a warp walks (chunk + 2 depth).
 * At 2048^2 on the H200 that is 20 rows, one wave of 515 blocks where 32
 * rows left 40% of the device idle: 165.5 -> 199.5 GCells/s.  On large
 * grids the model is wrong (8192^2: 94 rows, 3 waves, 432 against 451
 * GCells/s with 64), so they keep 64 (doc/optimize.md, section 19). */
static int chunk_for_waves(const struct heat_problem *p, int depth, int resident_blocks)
{
	size_t bx = ((size_t)strips(p, depth) + TEMPORAL_WARPS - 1) / TEMPORAL_WARPS;
	size_t best_cost = (size_t)-1;
	int best = 32;
	for (int c = 16; c <= 128; c++) {
		size_t by = (p->ny + (size_t)c - 1) / (size_t)c;
		size_t waves = (bx * by + (size_t)resident_blocks - 1) / (size_t)resident_blocks;
		size_t cost = waves * (size_t)(c + 2 * depth);
		if (cost < best_cost) {
			best_cost = cost;
			best = c;
		}
	}
	return best;
}

static int allow_smem(const struct heat_problem *p);

/* Fields of the caller's (cur and next) or, where NULL, made here. */
static int init_fields(struct temporal *t, const struct heat_problem *p, cudaStream_t stream,
                       heat_real *cur, heat_real *next)
{
	size_t field = p->n * sizeof(heat_real), words = (p->n + 31) / 32, nparts, need;
	const char *why;
	unsigned *mask;
	heat_real *edges;
	float *pairs;
	int dev, sms, slots;

	memset(t, 0, sizeof *t);
	t->p = p;
	t->stream = stream;
	t->lent = cur != NULL;
	if (!temporal_supported(p, &why))
		return apod_fail("%s", why);
	t->depth = TEMPORAL_DEPTH;
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	slots = sms * TEMPORAL_MINB * TEMPORAL_WARPS;
	t->chunk = parts_needed(p, t->depth, 64) >= 2 * (size_t)slots
		           ? 64
		           : chunk_for_waves(p, t->depth, sms * TEMPORAL_MINB);
	nparts = parts_needed(p, 1, t->chunk);   /* depth 1 has the most strips */
	need = (t->lent ? 0 : 2 * field) + words * sizeof(unsigned) +
	       TEMPORAL_MAX_DEPTH * nparts * sizeof(struct apod_moments) + (64u << 20);
	if (apod_gpu_require("gpu5", need) || allow_smem(p))
		return -1;
	if (t->lent) {
		t->d_cur = cur;
		t->d_next = next;
	} else {
		APOD_CUDA_TRY(cudaMalloc(&t->d_cur, field));
		APOD_CUDA_TRY(cudaMalloc(&t->d_next, field));
		APOD_CUDA_TRY(cudaMemcpy(t->d_cur, p->init, field, cudaMemcpyHostToDevice));
		APOD_CUDA_TRY(cudaMemcpy(t->d_next, p->init, field, cudaMemcpyHostToDevice));
	}
	APOD_CUDA_TRY(cudaMalloc(&t->d_mask, words * sizeof(unsigned)));
	APOD_CUDA_TRY(cudaMalloc(&t->d_edges, ((size_t)p->nbins + 1) * 2 * sizeof(float)));
	APOD_CUDA_TRY(cudaMalloc(&t->d_parts, (size_t)t->depth * nparts * sizeof(struct apod_moments)));
	APOD_CUDA_TRY(cudaMalloc(&t->d_total, (size_t)t->depth * sizeof(struct apod_moments)));
	APOD_CUDA_TRY(cudaMalloc(&t->d_hist, (size_t)t->depth * p->nbins * sizeof(unsigned)));

	mask = (unsigned *)calloc(words, sizeof *mask);
	edges = (heat_real *)malloc(((size_t)p->nbins + 1) * sizeof *edges);
	pairs = (float *)malloc(((size_t)p->nbins + 1) * 2 * sizeof *pairs);
	if (!mask || !edges || !pairs) {
		free(mask);
		free(edges);
		free(pairs);
		return apod_fail("gpu5: cannot allocate the heater mask (%zu bytes)", words * sizeof *mask);
	}
	for (size_t k = 0; k < p->nsrc; k++)
		mask[p->src_idx[k] >> 5] |= 1u << (p->src_idx[k] & 31);
	heat_hist_edges(p->hist_lo, p->hist_inv_width, p->nbins, edges);
	for (int b = 0; b < p->nbins; b++) {
		pairs[2 * b] = (float)edges[b];
		pairs[2 * b + 1] = (float)edges[b + 1];
	}
	/* The run state before any value: an interval that holds nothing. */
	pairs[2 * p->nbins] = INFINITY;
	pairs[2 * p->nbins + 1] = -INFINITY;
	{
		cudaError_t e1 = cudaMemcpy(t->d_mask, mask, words * sizeof *mask, cudaMemcpyHostToDevice);
		cudaError_t e2 = cudaMemcpy(t->d_edges, pairs, ((size_t)p->nbins + 1) * 2 * sizeof *pairs,
		                            cudaMemcpyHostToDevice);
		free(mask);
		free(edges);
		free(pairs);
		APOD_CUDA_TRY(e1);
		APOD_CUDA_TRY(e2);
	}
	return 0;
}

int temporal_init(struct temporal *t, const struct heat_problem *p, cudaStream_t stream)
{
	return init_fields(t, p, stream, NULL, NULL);
}

int temporal_init_on(struct temporal *t, const struct heat_problem *p, cudaStream_t stream,
                     heat_real *cur, heat_real *next)
{
	if (!cur || !next)
		return apod_fail("gpu5: temporal_init_on needs both fields");
	return init_fields(t, p, stream, cur, next);
}

void temporal_free(struct temporal *t)
{
	/* Teardown: nothing useful to do with a failure but go on freeing. */
	if (!t->lent) {
		cudaFree(t->d_cur);
		cudaFree(t->d_next);
	}
	cudaFree(t->d_mask);
	cudaFree(t->d_edges);
	cudaFree(t->d_parts);
	cudaFree(t->d_total);
	cudaFree(t->d_hist);
	memset(t, 0, sizeof *t);
}

#ifdef APOD_REAL_FLOAT
/* The statistics kernel's shared memory at depth T: the accumulators, the
 * bins' edges and a histogram a level. */
static size_t stats_smem(const struct heat_problem *p, int T)
{
	return TEMPORAL_ACC_WORDS(T) * sizeof(unsigned) + ((size_t)p->nbins + 1) * 2 * sizeof(float) +
	       (size_t)T * p->nbins * sizeof(unsigned);
}

template <int T, bool STATS, int MINB> static int launch(struct temporal *t)
{
	const struct heat_problem *p = t->p;
	int nstrips = strips(p, T);
	dim3 grid((unsigned)((nstrips + TEMPORAL_WARPS - 1) / TEMPORAL_WARPS),
	          (unsigned)((p->ny + (size_t)t->chunk - 1) / (size_t)t->chunk));
	int nparts = (int)(grid.x * TEMPORAL_WARPS * grid.y);
	size_t smem = STATS ? stats_smem(p, T) : 0;
	if (STATS)
		APOD_CUDA_TRY(cudaMemsetAsync(t->d_hist, 0, (size_t)T * p->nbins * sizeof(unsigned), t->stream));
	APOD_LAUNCH_TRY((temporal_kernel<T, STATS, MINB><<<grid, TEMPORAL_WARPS * 32, smem, t->stream>>>(
		t->d_cur, t->d_next, t->d_mask, (int)p->nx, (int)p->ny, t->chunk, nstrips, p->alpha, p->hist_lo,
		p->hist_inv_width, p->nbins, (const float2 *)t->d_edges, t->d_parts, nparts, t->d_hist)));
	if (STATS)
		APOD_LAUNCH_TRY((temporal_merge_kernel<<<T, 256, 0, t->stream>>>(t->d_parts, nparts, t->d_total)));
	return 0;
}
#endif

/* The statistics kernels opted in to the shared memory their launches ask
 * for: past 48 KiB a block (at depth 4, from 1706 bins) a launch
 * fails unless the kernel opts in. */
static int allow_smem(const struct heat_problem *p)
{
#ifdef APOD_REAL_FLOAT
	typedef struct {
		const void *fn;
		int depth;
	} sized;
	const sized kernels[] = {
		{ (const void *)temporal_kernel<1, true, TEMPORAL_MINB>, 1 },
		{ (const void *)temporal_kernel<2, true, TEMPORAL_MINB>, 2 },
		{ (const void *)temporal_kernel<3, true, TEMPORAL_MINB>, 3 },
		{ (const void *)temporal_kernel<4, true, TEMPORAL_MINB>, 4 },
	};
	char what[64];
	snprintf(what, sizeof what, "%d histogram bins", p->nbins);
	for (size_t k = 0; k < sizeof kernels / sizeof *kernels; k++)
		if (apod_cuda_smem_allow("gpu5", what, kernels[k].fn, stats_smem(p, kernels[k].depth)))
			return -1;
#else
	(void)p;
#endif
	return 0;
}

int temporal_pass(struct temporal *t, int depth, int stats)
{
#ifdef APOD_REAL_FLOAT
	/* A kernel for each depth; past depth 4 the sweep alone is let use
	 * every register it needs (no blocks-per-SM bound). */
	typedef int (*launch_fn)(struct temporal *);
	static const launch_fn with_stats[] = {
		launch<1, true, TEMPORAL_MINB>, launch<2, true, TEMPORAL_MINB>,
		launch<3, true, TEMPORAL_MINB>, launch<4, true, TEMPORAL_MINB>,
	};
	static const launch_fn sweep_only[TEMPORAL_SWEEP_DEPTH] = {
		launch<1, false, TEMPORAL_MINB>, launch<2, false, TEMPORAL_MINB>,
		launch<3, false, TEMPORAL_MINB>, launch<4, false, TEMPORAL_MINB>,
		launch<5, false, 1>, launch<6, false, 1>, launch<7, false, 1>, launch<8, false, 1>,
	};
	int most = stats ? t->depth : TEMPORAL_SWEEP_DEPTH;
	heat_real *swap;
	if (depth < 1 || depth > most)
		return apod_fail("gpu5: a pass %s of %d steps (1 to %d)",
		                 stats ? "with statistics" : "without statistics", depth, most);
	if ((stats ? with_stats : sweep_only)[depth - 1](t))
		return -1;
	swap = t->d_cur;
	t->d_cur = t->d_next;
	t->d_next = swap;
	return 0;
#else
	(void)t;
	(void)depth;
	(void)stats;
	return apod_fail("gpu5 needs a float build");
#endif
}

int temporal_next(const struct temporal *t, long done, long until, long stats_every, int *stats)
{
	int depth = heat_next_pass(t->depth, TEMPORAL_SWEEP_DEPTH, done, until, stats_every, stats);
	if (depth < 1)
		return apod_fail("gpu5: no step left before step %ld (the field is at step %ld)", until,
		                 done);
	return depth;
}
