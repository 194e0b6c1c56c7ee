/*
 * stage4.cu: gpu4, tuned kernels.
 *
 * What changed from gpu3, and why (doc/optimize.md has the measurements):
 *  - One fused kernel does genTimeStep and calcStats: each new value is
 *    folded into the statistics while it is still in a register, so the
 *    field is read once and written once per step instead of read twice.
 *  - Register tiling along y: a thread owns a column segment and marches
 *    down it, carrying the cells above and at its row in registers; each
 *    new row costs one coalesced load per thread.
 *  - Heaters and edges are "fixed" cells, read from a bit mask (1/32 of the
 *    field's traffic), so no second kernel pins them after the sweep.
 *  - In float, with nx a multiple of 4, four columns per thread with 16-byte
 *    loads and stores; neighbours across the vector come by warp shuffle.
 *  - Moments per thread are shifted sums in double (no division per
 *    element, unlike gpu2's Welford), merged with Chan through warp
 *    shuffles; histogram counts are kept as runs in registers and added to
 *    shared memory when the bin changes (thread_stats.cuh).
 *  - The block size comes from the occupancy API, not a guess.
 * Snapshots overlap as in gpu3.
 */
#include <stdlib.h>
#include <string.h>

#include "shared/heat/cell.h"
#include "apod/cuda.h"
#include "gpu/device.h"
#include "cpu/heat/heat_stage.h"
#include "heat_resident.h"
#include "resident_stage.cuh"
#include "tuned.cuh"

struct gpu4 {
	struct heat_resident r;
	struct snapshots s;
	cudaStream_t compute;
	unsigned *d_mask;
	dim3 grid, block;
	dim3 grid_rows;         /* FUSED_ROWS-row blocks: fused_vec4_kernel, for apod bench */
	size_t smem;
	int vec4;               /* float and nx % 4 == 0: the 16-byte kernel */
};

static void gpu4_destroy(void *ctx)
{
	struct gpu4 *g = (struct gpu4 *)ctx;
	if (!g)
		return;
	snapshots_free(&g->s);
	resident_free(&g->r);
	cudaFree(g->d_mask);
	if (g->compute)
		cudaStreamDestroy(g->compute);
	free(g);
}

#ifdef APOD_REAL_FLOAT
/* fused_bal_kernel's grid: as many blocks as the device holds at once, the
 * rows split evenly over them (one wave), at least one row a block. */
static int balanced_rows(struct gpu4 *g, const struct heat_problem *p)
{
	int dev = 0, sms = 0, per_sm = 0;
	size_t rows;
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fused_bal_kernel<true, true>,
	                                                       (int)g->block.x, g->smem));
	rows = (size_t)(sms * per_sm) / g->grid.x;
	if (rows < 1)
		rows = 1;
	if (rows > p->ny)
		rows = p->ny;
	g->grid.y = (unsigned)rows;
	return 0;
}
#endif

static int gpu4_setup(struct gpu4 *g, const struct heat_problem *p)
{
	size_t words = (p->n + 31) / 32;
	unsigned *mask;
	int min_grid = 0, block = 0, nparts;

	size_t threads_x;       /* threads needed across a row */

	g->smem = (size_t)p->nbins * sizeof(unsigned);
#ifdef APOD_REAL_FLOAT
	g->vec4 = p->nx % 4 == 0;
#endif
	threads_x = g->vec4 ? p->nx / 4 : p->nx;
	/* The block size that gives the most resident warps for this kernel's
	 * registers and shared memory; no wider than a row needs. */
#ifdef APOD_REAL_FLOAT
	if (g->vec4)
		APOD_CUDA_TRY(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, fused_bal_kernel<true, true>, g->smem,
		                                            1024));
	else
#endif
		APOD_CUDA_TRY(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, fused_scalar_kernel,
		                                            g->smem, 1024));
	if ((size_t)block > (threads_x + 31) / 32 * 32)
		block = (int)((threads_x + 31) / 32 * 32);
	g->block = dim3((unsigned)block);
	g->grid = dim3((unsigned)((threads_x + block - 1) / block),
	               (unsigned)((p->ny + FUSED_ROWS - 1) / FUSED_ROWS));
	g->grid_rows = g->grid;
#ifdef APOD_REAL_FLOAT
	if (g->vec4 && balanced_rows(g, p))
		return -1;
#endif
	nparts = (int)(g->grid.x * (g->grid.y > g->grid_rows.y ? g->grid.y : g->grid_rows.y));

	APOD_CUDA_TRY(cudaStreamCreateWithFlags(&g->compute, cudaStreamNonBlocking));
	if (resident_init(&g->r, p, "gpu4", g->compute, nparts, 1))
		return -1;
	if (!(mask = (unsigned *)calloc(words, sizeof *mask)))
		return apod_fail("gpu4: cannot allocate the heater mask");
	for (size_t k = 0; k < p->nsrc; k++)
		mask[p->src_idx[k] >> 5] |= 1u << (p->src_idx[k] & 31);
	if (cudaMalloc(&g->d_mask, words * sizeof *mask) != cudaSuccess ||
	    cudaMemcpy(g->d_mask, mask, words * sizeof *mask, cudaMemcpyHostToDevice) != cudaSuccess) {
		free(mask);
		return apod_fail("gpu4: cannot upload the heater mask (%zu bytes)", words * sizeof *mask);
	}
	free(mask);
	return 0;
}

static int gpu4_step(void *ctx)
{
	struct gpu4 *g = (struct gpu4 *)ctx;
	struct heat_resident *r = &g->r;
	const struct heat_problem *p = r->p;
	heat_real *t;
	APOD_CUDA_TRY(cudaMemsetAsync(r->d_hist, 0, (size_t)p->nbins * sizeof(unsigned), r->stream));
#ifdef APOD_REAL_FLOAT
	if (g->vec4)
		APOD_LAUNCH_TRY((fused_bal_kernel<true, true><<<g->grid, g->block, g->smem, r->stream>>>(
			r->d_cur, r->d_next, g->d_mask, p->nx, p->ny, p->alpha, p->hist_lo,
			p->hist_inv_width, p->nbins, r->d_parts, r->d_hist)));
	else
#endif
		APOD_LAUNCH_TRY((fused_scalar_kernel<<<g->grid, g->block, g->smem, r->stream>>>(
			r->d_cur, r->d_next, g->d_mask, p->nx, p->ny, p->alpha, p->hist_lo,
			p->hist_inv_width, p->nbins, r->d_parts, r->d_hist)));
	t = r->d_cur;
	r->d_cur = r->d_next;
	r->d_next = t;
	return 0;
}

/* The statistics were gathered by the step; only the merge is left. */
static int gpu4_stats(struct gpu4 *g, struct apod_moments *m)
{
	return resident_stats_finish(&g->r, (int)(g->grid.x * g->grid.y), m);
}

/* Deferred: the merge goes into the ring row, and nothing waits. */
static int gpu4_defer_stats(struct gpu4 *g, long row)
{
	return resident_defer_stats(&g->r, (int)(g->grid.x * g->grid.y), row);
}

/* Placed in the ladder in cpu/heat/stages.c. */
extern "C" const struct apod_stage heat_stage_gpu4 = {
	.name = "gpu4",
	.about = HEAT_GPU4_ABOUT,
	.ports = HEAT_PORTS_DEVICE,
	.available = apod_gpu_available,
	.width = resident_width,
	.create = resident_create<gpu4, gpu4_setup, gpu4_destroy>,
	.step = gpu4_step,
	.probe = resident_probe<gpu4, gpu4_stats>,
	.fetch = resident_fetch_op<gpu4>,
	.destroy = gpu4_destroy,
	.snapshot_begin = resident_snapshot_begin<gpu4>,
	.snapshot_stream = resident_snapshot_stream<gpu4>,
	.mark = resident_mark_op<gpu4>,
	.device_seconds = resident_device_op<gpu4>,
	.runs_on = APOD_RUNS_DEVICE,
	.defer_rows = RESIDENT_DEFER_ROWS,
	.probe_defer = resident_probe_defer<gpu4, gpu4_defer_stats>,
	.probe_collect = resident_probe_collect<gpu4>,
};

/* Hooks for `apod bench`, which times the fused kernel on its own. */
void *heat_gpu4_bench_create(const struct heat_problem *p)
{
	return resident_create<gpu4, gpu4_setup, gpu4_destroy>(p);
}

int heat_gpu4_fused_once(void *ctx)
{
	return gpu4_step(ctx);
}

void heat_gpu4_bench_destroy(void *ctx)
{
	gpu4_destroy(ctx);
}

cudaStream_t heat_gpu4_bench_stream(void *ctx)
{
	return ((struct gpu4 *)ctx)->compute;
}

/* `apod bench`: the rows gpu4's calcStats ring holds (the steps a loop of
 * heat_gpu4_loop_once may take). */
int heat_gpu4_loop_steps(void *ctx)
{
	return (int)((struct gpu4 *)ctx)->r.stats_slots;
}

/* `apod bench`: `steps` steps with calcStats every step, as a run issues
 * them: with the rows deferred and collected once at the end, or with
 * each row waited for before the next step (the synchronous probe, as
 * before the deferred probes).  stats and hist hold steps rows. */
int heat_gpu4_loop_once(void *ctx, int deferred, int steps, double *stats, double *hist)
{
	struct gpu4 *g = (struct gpu4 *)ctx;
	int nbins = g->r.p->nbins;
	void *rows[3] = { stats, hist, NULL };
	for (int s = 0; s < steps; s++) {
		double *one[3] = { stats + (size_t)s * 4, hist + (size_t)s * nbins, NULL };
		if (gpu4_step(g) ||
		    (deferred ? gpu4_defer_stats(g, s)
		              : resident_probe<gpu4, gpu4_stats>(g, HEAT_PROBE_STATS, one)))
			return -1;
	}
	return deferred ? resident_collect(&g->r, HEAT_PROBE_STATS, 0, steps, rows) : 0;
}

/* gpu4's fused kernel with parts of the statistics left out, for `apod bench`:
 * fused_bal_kernel (moments && hist: the stage's own launch) or, before,
 * the kernel gpu4 had until 2026-11-26 (fused_vec4_kernel on FUSED_ROWS-row
 * blocks, `apod bench`'s "before" rows). */
static int fused_variant(void *ctx, int before, int moments, int hist)
{
#ifdef APOD_REAL_FLOAT
	typedef void (*fused_fn)(const float *, float *, const unsigned *, size_t, size_t, float, float,
	                         float, int, struct apod_moments *, unsigned *);
	static const fused_fn kernels[2][3] = {
		{ fused_bal_kernel<false, false>, fused_bal_kernel<true, false>, fused_bal_kernel<true, true> },
		{ fused_vec4_kernel<false, false>, fused_vec4_kernel<true, false>, fused_vec4_kernel<true, true> },
	};
	struct gpu4 *g = (struct gpu4 *)ctx;
	struct heat_resident *r = &g->r;
	const struct heat_problem *p = r->p;
	if (!g->vec4)
		return apod_fail("gpu4 variants need the 16-byte kernel (float, nx a multiple of 4)");
	APOD_LAUNCH_TRY((kernels[before ? 1 : 0][moments ? (hist ? 2 : 1) : 0]<<<before ? g->grid_rows : g->grid,
	                                                                   g->block, g->smem, r->stream>>>(
		r->d_cur, r->d_next, g->d_mask, p->nx, p->ny, p->alpha, p->hist_lo, p->hist_inv_width,
		p->nbins, r->d_parts, r->d_hist)));
	return 0;
#else
	(void)ctx;
	(void)before;
	(void)moments;
	(void)hist;
	return apod_fail("gpu4 variants need a float build");
#endif
}

int heat_gpu4_variant_once(void *ctx, int moments, int hist)
{
	return fused_variant(ctx, 0, moments, hist);
}

int heat_gpu4_rows_once(void *ctx, int moments, int hist)
{
	return fused_variant(ctx, 1, moments, hist);
}
