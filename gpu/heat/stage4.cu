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
 *    element, unlike gpu2's Welford), added through warp shuffles after
 *    moving each to a common shift (block_moments_shifted: one division
 *    a block, where Chan's merge divides at every level); histogram
 *    counts are kept as runs in registers and added to shared memory when
 *    the bin changes (thread_stats.cuh).
 *  - The block size comes from the occupancy API, not a guess.
 *  - A step with no calcStats after it runs the sweep alone.
 *  - In float with nx a multiple of 4, a step is one launch and waits for
 *    nothing: the blocks leave their partials and histogram in the slot of
 *    the calcStats row the step's probe will ask for, and the rows are
 *    merged many at a time when the harness collects them
 *    (merge_rows_kernel): no memset, no merge kernel, no last block
 *    merging a step (doc/optimize.md, section 17).  Launched with
 *    programmatic dependent launch on sm_90.
 *  - Where a thread would march fewer than GPU4_MIN_ROWS rows, 128-thread
 *    blocks of the 64-register build (measured, section 16).
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
	float2 *d_bounds;       /* bin_bounds_kernel's table, nbins + 1 */
	dim3 grid, block;
	dim3 grid_rows;         /* FUSED_ROWS-row blocks: fused_vec4_kernel, for apod bench */
	size_t smem;
	int vec4;               /* float and nx % 4 == 0: the 16-byte kernel */
	int small;              /* 128-thread blocks of the 64-register build */
	int pdl;                /* programmatic dependent launch (sm_90 on) */
	int gathered;           /* the last step left its partials in r.d_parts and r.d_hist */
	/* The 16-byte step's statistics: its blocks' partials and histogram in
	 * a slot a calcStats row (slot row % RESIDENT_RING_SLOTS of the ring;
	 * slot stats_slots, a scratch one, for a row the ring has none for),
	 * merged into the row when the harness collects it (merge_rows_kernel). */
	int nparts;             /* blocks of fused_bal_kernel's grid */
	struct apod_moments *d_slot_parts;   /* (stats_slots + 1) x nparts */
	unsigned *d_slot_hist;  /* (stats_slots + 1) x nbins, zero until a step adds to it */
	unsigned char *d_scratch_row;        /* the scratch slot's merged row */
	char *unmerged;         /* host: the slot holds a step's partials not merged yet */
	long steps;             /* steps taken */
	long step_row;          /* calcStats row the last step left partials for, or -1 */
	long step_slot;
};

/* Below this many rows a thread, 128-thread blocks of the 64-register
 * build (measured on the H200, doc/optimize.md, section 16). */
#define GPU4_MIN_ROWS 16
#define GPU4_SMALL_BLOCK 128

static void gpu4_destroy(void *ctx)
{
	struct gpu4 *g = (struct gpu4 *)ctx;
	if (!g)
		return;
	snapshots_free(&g->s);
	resident_free(&g->r);
	cudaFree(g->d_mask);
	cudaFree(g->d_bounds);
	cudaFree(g->d_slot_parts);
	cudaFree(g->d_slot_hist);
	cudaFree(g->d_scratch_row);
	free(g->unmerged);
	if (g->compute)
		cudaStreamDestroy(g->compute);
	free(g);
}

#ifdef APOD_REAL_FLOAT
/* fused_bal_kernel's grid: as many blocks as the device holds at once, the
 * rows split evenly over them (one wave), at least one row a block; the
 * 64-register build where the 42-register one would leave a thread fewer
 * than GPU4_MIN_ROWS rows. */
static int balanced_rows(struct gpu4 *g, const struct heat_problem *p)
{
	int dev = 0, sms = 0, per_sm = 0;
	size_t rows;
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	if (g->small)
		APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			&per_sm, fused_bal_kernel<true, true, 2, true>, (int)g->block.x, g->smem));
	else
		APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			&per_sm, fused_bal_kernel<true, true, TUNED_MIN_BLOCKS, true>, (int)g->block.x, g->smem));
	rows = (size_t)(sms * per_sm) / g->grid.x;
	if (rows < 1)
		rows = 1;
	if (rows > p->ny)
		rows = p->ny;
	g->grid.y = (unsigned)rows;
	return 0;
}

/* Whether a thread of the 42-register build, as many blocks as the device
 * holds, would march fewer than GPU4_MIN_ROWS rows. */
static int small_grid(const struct heat_problem *p, int *small)
{
	int dev = 0, sms = 0, per_sm = 0;
	size_t blocks_x = (p->nx / 4 + GPU4_SMALL_BLOCK - 1) / GPU4_SMALL_BLOCK;
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fused_bal_kernel<true, true>,
	                                                       GPU4_SMALL_BLOCK, fused_bal_smem(p->nbins)));
	*small = (size_t)(sms * per_sm) / blocks_x * GPU4_MIN_ROWS > p->ny;
	return 0;
}
#endif

/* Every kernel this stage (and `apod bench` through it) launches with
 * g->smem bytes opted in to them: at 4096 bins the 16-byte kernels' table
 * (fused_bal_smem) passes the 48 KiB a block gets by default, and the
 * occupancy queries then said no block fits (block size 0: a division by
 * zero, SIGFPE, until 2026-11-28). */
static int allow_smem(struct gpu4 *g, const struct heat_problem *p)
{
	char what[64];
	const void *kernels[] = {
		(const void *)fused_scalar_kernel,
#ifdef APOD_REAL_FLOAT
		(const void *)fused_bal_kernel<false, false>, (const void *)fused_bal_kernel<true, false>,
		(const void *)fused_bal_kernel<true, true>, (const void *)fused_bal_kernel<false, false, 2>,
		(const void *)fused_bal_kernel<true, false, 2>, (const void *)fused_bal_kernel<true, true, 2>,
		(const void *)fused_bal_kernel<true, true, 2, true>,
		(const void *)fused_bal_kernel<true, true, TUNED_MIN_BLOCKS, true>,
		(const void *)fused_vec4_kernel<false, false>, (const void *)fused_vec4_kernel<true, false>,
		(const void *)fused_vec4_kernel<true, true>,
#endif
	};
	snprintf(what, sizeof what, "%d histogram bins", p->nbins);
	for (size_t k = 0; k < sizeof kernels / sizeof *kernels; k++)
		if (apod_cuda_smem_allow("gpu4", what, kernels[k], g->smem))
			return -1;
	return 0;
}

static int gpu4_setup(struct gpu4 *g, const struct heat_problem *p)
{
	size_t words = (p->n + 31) / 32;
	unsigned *mask;
	int min_grid = 0, block = 0, nparts;

	size_t threads_x;       /* threads needed across a row */

	g->smem = (size_t)p->nbins * sizeof(unsigned);
#ifdef APOD_REAL_FLOAT
	g->vec4 = p->nx % 4 == 0;
	if (g->vec4)
		g->smem = fused_bal_smem(p->nbins);
#endif
	if (allow_smem(g, p))
		return -1;
	threads_x = g->vec4 ? p->nx / 4 : p->nx;
	g->step_row = -1;
	/* Small grids: GPU4_SMALL_BLOCK threads a block (measured best
	 * at 2048^2 on the H200); otherwise the block size that gives the most
	 * resident warps for the kernel's registers and shared memory.  No
	 * wider than a row needs. */
#ifdef APOD_REAL_FLOAT
	if (g->vec4 && small_grid(p, &g->small))
		return -1;
	if (g->small)
		block = GPU4_SMALL_BLOCK;
	else if (g->vec4)
		APOD_CUDA_TRY(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, fused_bal_kernel<true, true>,
		                                            g->smem, 1024));
	else
#endif
		APOD_CUDA_TRY(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, fused_scalar_kernel,
		                                            g->smem, 1024));
	if (block < 1)
		return apod_fail("gpu4: no block of its kernel fits on this device with %zu bytes of shared memory",
		                 g->smem);
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
	if (g->vec4) {
		size_t slots = (size_t)g->r.stats_slots + 1;
		int dev = 0, major = 0;
		g->nparts = (int)(g->grid.x * g->grid.y);
		APOD_CUDA_TRY(cudaMalloc(&g->d_bounds, ((size_t)p->nbins + 1) * sizeof *g->d_bounds));
		APOD_LAUNCH_TRY((bin_bounds_kernel<<<1, 128>>>(g->d_bounds, p->hist_lo, p->hist_inv_width,
		                                               p->nbins)));
		APOD_CUDA_TRY(cudaMalloc(&g->d_slot_parts, slots * g->nparts * sizeof *g->d_slot_parts));
		APOD_CUDA_TRY(cudaMalloc(&g->d_slot_hist, slots * p->nbins * sizeof *g->d_slot_hist));
		APOD_CUDA_TRY(cudaMemset(g->d_slot_hist, 0, slots * p->nbins * sizeof *g->d_slot_hist));
		APOD_CUDA_TRY(cudaMalloc(&g->d_scratch_row, g->r.stats_stride));
		if (!(g->unmerged = (char *)calloc(slots, 1)))
			return apod_fail("gpu4: out of memory");
		APOD_CUDA_TRY(cudaGetDevice(&dev));
		APOD_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
		g->pdl = major >= 9;
	}
	return 0;
}

#ifdef APOD_REAL_FLOAT
/* fused_bal_kernel with the statistics, into slot `slot`'s partials and
 * histogram; with programmatic dependent launch where the device has it
 * (the kernel waits for the previous one before it touches memory, so only
 * the launch's latency overlaps: 0.8 us a step at 2048^2 in the experiment
 * of doc/optimize.md, section 17). */
template <int MIN_BLOCKS> static int fused_stats_launch(struct gpu4 *g, long slot)
{
	struct heat_resident *r = &g->r;
	const struct heat_problem *p = r->p;
	cudaLaunchConfig_t cfg = {};
	cudaLaunchAttribute attr[1];
	cfg.gridDim = g->grid;
	cfg.blockDim = g->block;
	cfg.dynamicSmemBytes = g->smem;
	cfg.stream = r->stream;
	if (g->pdl) {
		attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
		attr[0].val.programmaticStreamSerializationAllowed = 1;
		cfg.attrs = attr;
		cfg.numAttrs = 1;
	}
	APOD_CUDA_TRY(cudaLaunchKernelEx(&cfg, fused_bal_kernel<true, true, MIN_BLOCKS, true>,
	                                 (const float *)r->d_cur, r->d_next, (const unsigned *)g->d_mask,
	                                 p->nx, p->ny, p->alpha, p->hist_lo, p->hist_inv_width, p->nbins,
	                                 (const float2 *)g->d_bounds, g->d_slot_parts + (size_t)slot * g->nparts,
	                                 g->d_slot_hist + (size_t)slot * p->nbins));
	return 0;
}

/* The 16-byte step: the sweep alone where no calcStats follows; else the
 * fused kernel, its partials left in the slot of the calcStats row the
 * probe will ask for (the harness's row of step s is s / every - 1), or
 * in the scratch slot where the ring has none for it. */
static int gpu4_step_vec4(struct gpu4 *g)
{
	struct heat_resident *r = &g->r;
	const struct heat_problem *p = r->p;
	long every = p->deck->stats_every, s = ++g->steps, row, slot;
	g->step_row = -1;
	g->gathered = 0;
	if (!every || s % every) {
		if (g->small)
			APOD_LAUNCH_TRY((fused_bal_kernel<false, false, 2><<<g->grid, g->block, g->smem, r->stream>>>(
				r->d_cur, r->d_next, g->d_mask, p->nx, p->ny, p->alpha, p->hist_lo,
				p->hist_inv_width, p->nbins, g->d_bounds, r->d_parts, r->d_hist)));
		else
			APOD_LAUNCH_TRY((fused_bal_kernel<false, false><<<g->grid, g->block, g->smem, r->stream>>>(
				r->d_cur, r->d_next, g->d_mask, p->nx, p->ny, p->alpha, p->hist_lo,
				p->hist_inv_width, p->nbins, g->d_bounds, r->d_parts, r->d_hist)));
		return 0;
	}
	row = s / every - 1;
	slot = row % RESIDENT_RING_SLOTS < r->stats_slots ? row % RESIDENT_RING_SLOTS : r->stats_slots;
	/* A slot whose partials were never merged (a row nobody asked for)
	 * still has its histogram. */
	if (g->unmerged[slot])
		APOD_CUDA_TRY(cudaMemsetAsync(g->d_slot_hist + (size_t)slot * p->nbins, 0,
		                              (size_t)p->nbins * sizeof *g->d_slot_hist, r->stream));
	if (g->small ? fused_stats_launch<2>(g, slot) : fused_stats_launch<TUNED_MIN_BLOCKS>(g, slot))
		return -1;
	g->unmerged[slot] = 1;
	g->step_row = row;
	g->step_slot = slot;
	return 0;
}

/* Merge `count` slots from `first` on (mod RESIDENT_RING_SLOTS) into the
 * statistics ring's rows, or the scratch slot into the scratch row. */
static int merge_slots(struct gpu4 *g, long first, long count)
{
	struct heat_resident *r = &g->r;
	int scratch = first == r->stats_slots;
	if (resident_issue(r))
		return -1;
	APOD_LAUNCH_TRY((merge_rows_kernel<<<(unsigned)count, 256, 0, r->stream>>>(
		g->d_slot_parts, g->nparts, g->d_slot_hist, r->p->nbins, first,
		scratch ? r->stats_slots + 1 : RESIDENT_RING_SLOTS,
		scratch ? g->d_scratch_row : r->d_stats_ring, scratch ? 0 : r->stats_stride)));
	for (long i = 0; i < count; i++)
		g->unmerged[scratch ? first : (first + i) % RESIDENT_RING_SLOTS] = 0;
	return 0;
}
#endif

/* Heat's one step phase, genTimeStep (counted by the stage itself:
 * g->steps). */
static int gpu4_step(void *ctx, int phase, long step, long steps)
{
	struct gpu4 *g = (struct gpu4 *)ctx;
	struct heat_resident *r = &g->r;
	const struct heat_problem *p = r->p;
	heat_real *t;
	(void)phase, (void)step, (void)steps;
	if (resident_issue(r))
		return -1;
#ifdef APOD_REAL_FLOAT
	if (g->vec4) {
		if (gpu4_step_vec4(g))
			return -1;
	} else
#endif
	{
		APOD_CUDA_TRY(cudaMemsetAsync(r->d_hist, 0, (size_t)p->nbins * sizeof(unsigned), r->stream));
		APOD_LAUNCH_TRY((fused_scalar_kernel<<<g->grid, g->block, g->smem, r->stream>>>(
			r->d_cur, r->d_next, g->d_mask, p->nx, p->ny, p->alpha, p->hist_lo,
			p->hist_inv_width, p->nbins, r->d_parts, r->d_hist)));
		g->gathered = 1;
	}
	t = r->d_cur;
	r->d_cur = r->d_next;
	r->d_next = t;
	return 0;
}

/* calcStats after the step, now: the 16-byte step's slot merged and its
 * row copied home; the scalar step's partials merged; after a step that
 * took none (a schedule other than the deck's), the plain statistics
 * kernel. */
static int gpu4_stats(struct gpu4 *g, struct apod_moments *m)
{
	struct heat_resident *r = &g->r;
	const unsigned char *row;
	if (resident_issue(r))
		return -1;
	if (g->gathered)
		return resident_stats_finish(r, (int)(g->grid.x * g->grid.y), m);
	if (g->step_row < 0 || !g->unmerged[g->step_slot])
		return resident_stats(r, m);
#ifdef APOD_REAL_FLOAT
	if (merge_slots(g, g->step_slot, 1))
		return -1;
#endif
	row = g->step_slot == r->stats_slots ? g->d_scratch_row
	                                     : r->d_stats_ring + (size_t)g->step_slot * r->stats_stride;
	APOD_CUDA_TRY(cudaMemcpyAsync(r->h_total, row, sizeof *r->h_total, cudaMemcpyDeviceToHost, r->stream));
	APOD_CUDA_TRY(cudaMemcpyAsync(r->h_hist, row + sizeof(struct apod_moments),
	                              (size_t)r->p->nbins * sizeof *r->h_hist, cudaMemcpyDeviceToHost,
	                              r->stream));
	APOD_CUDA_TRY(cudaStreamSynchronize(r->stream));
	*m = *r->h_total;
	return 0;
}

/* Whether ring slot `slot` holds a step's partials not merged yet (never,
 * for a step without them or a slot the ring does not have). */
static int slot_unmerged(const struct gpu4 *g, long slot)
{
	return g->unmerged && slot < g->r.stats_slots && g->unmerged[slot];
}

/* Deferred, the same three cases; nothing waits, and the 16-byte step's
 * row is merged when it is collected. */
static int gpu4_defer_stats(struct gpu4 *g, long row)
{
	if (g->step_row == row && g->step_slot < g->r.stats_slots)
		return 0;
	if (g->gathered)
		return resident_defer_stats(&g->r, (int)(g->grid.x * g->grid.y), row);
	if (slot_unmerged(g, row % RESIDENT_RING_SLOTS)) {
		/* Partials nobody asked for: the plain row replaces them, and the
		 * next step to use the slot finds its histogram clear. */
		long slot = row % RESIDENT_RING_SLOTS;
		if (resident_issue(&g->r))
			return -1;
		APOD_CUDA_TRY(cudaMemsetAsync(g->d_slot_hist + (size_t)slot * g->r.p->nbins, 0,
		                              (size_t)g->r.p->nbins * sizeof *g->d_slot_hist, g->r.stream));
		g->unmerged[slot] = 0;
	}
	return resident_defer_plain_stats(&g->r, row);
}

/* Collect rows: first merge the slots among them that hold a step's
 * partials, a launch for each run of them (one, in a run of the deck). */
static int gpu4_collect(void *ctx, int k, long first, long count, void *const *rows)
{
	struct gpu4 *g = (struct gpu4 *)ctx;
#ifdef APOD_REAL_FLOAT
	if (k == HEAT_PROBE_STATS)
		for (long i = 0; i < count;) {
			long run = 0, slot = (first + i) % RESIDENT_RING_SLOTS;
			while (i + run < count && slot_unmerged(g, (first + i + run) % RESIDENT_RING_SLOTS))
				run++;
			if (run && merge_slots(g, slot, run))
				return -1;
			i += run ? run : 1;
		}
#endif
	return resident_collect(&g->r, k, first, count, rows);
}

/* Described in cpu/heat/stages.c; gpu5 runs on these where its own kernel
 * cannot. */
extern "C" const struct apod_stage_ops heat_gpu4_ops = {
	.available = apod_gpu_stage_available,
	.create = resident_create<gpu4, gpu4_setup, gpu4_destroy>,
	.step = gpu4_step,
	.probe = resident_probe<gpu4, gpu4_stats, gpu4_defer_stats>,
	.fetch = resident_fetch_op<gpu4>,
	.destroy = gpu4_destroy,
	.defer_rows = RESIDENT_DEFER_ROWS,
	.collect = gpu4_collect,
	.snapshot_begin = resident_snapshot_begin<gpu4>,
	.snapshot_stream = resident_snapshot_stream<gpu4>,
	.mark = resident_mark_op<gpu4>,
	.device_seconds = resident_device_op<gpu4>,
};

/* Hooks for `apod bench`, which times the fused kernel on its own. */
void *heat_gpu4_bench_create(const struct heat_problem *p)
{
	return resident_create<gpu4, gpu4_setup, gpu4_destroy>(&heat_stage_gpu4, p);
}

/* One step, as the harness's step phase would be called. */
int heat_gpu4_fused_once(void *ctx)
{
	return gpu4_step(ctx, 0, 0, 0);
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
	g->steps = 0;   /* each loop is a run's first steps: rows 0 .. steps-1 */
	for (int s = 0; s < steps; s++) {
		void *one[3] = { stats + (size_t)s * 4, hist + (size_t)s * nbins, NULL };
		/* The stage's probe: deferred without rows, waited for with them. */
		if (gpu4_step(g, 0, s + 1, steps) ||
		    heat_gpu4_ops.probe(g, HEAT_PROBE_STATS, s + 1, s, deferred ? NULL : one))
			return -1;
	}
	return deferred ? gpu4_collect(g, HEAT_PROBE_STATS, 0, steps, rows) : 0;
}

/* gpu4's fused kernel with parts of the statistics left out, for `apod bench`:
 * fused_bal_kernel (moments && hist: the stage's own launch) or, before,
 * the kernel gpu4 had until 2026-11-26 (fused_vec4_kernel on FUSED_ROWS-row
 * blocks, `apod bench`'s "before" rows). */
static int fused_variant(void *ctx, int before, int moments, int hist)
{
#ifdef APOD_REAL_FLOAT
	typedef void (*bal_fn)(const float *, float *, const unsigned *, size_t, size_t, float, float,
	                       float, int, const float2 *, struct apod_moments *, unsigned *);
	typedef void (*rows_fn)(const float *, float *, const unsigned *, size_t, size_t, float, float,
	                        float, int, struct apod_moments *, unsigned *);
	static const bal_fn bal[3] = { fused_bal_kernel<false, false>, fused_bal_kernel<true, false>,
	                               fused_bal_kernel<true, true> };
	static const bal_fn bal_small[3] = { fused_bal_kernel<false, false, 2>, fused_bal_kernel<true, false, 2>,
	                                     fused_bal_kernel<true, true, 2> };
	static const rows_fn rows[3] = { fused_vec4_kernel<false, false>, fused_vec4_kernel<true, false>,
	                                 fused_vec4_kernel<true, true> };
	struct gpu4 *g = (struct gpu4 *)ctx;
	struct heat_resident *r = &g->r;
	const struct heat_problem *p = r->p;
	int which = moments ? (hist ? 2 : 1) : 0;
	if (!g->vec4)
		return apod_fail("gpu4 variants need the 16-byte kernel (float, nx a multiple of 4)");
	if (before)
		APOD_LAUNCH_TRY((rows[which]<<<g->grid_rows, g->block, g->smem, r->stream>>>(
			r->d_cur, r->d_next, g->d_mask, p->nx, p->ny, p->alpha, p->hist_lo, p->hist_inv_width,
			p->nbins, r->d_parts, r->d_hist)));
	else
		APOD_LAUNCH_TRY(((g->small ? bal_small : bal)[which]<<<g->grid, g->block, g->smem, r->stream>>>(
			r->d_cur, r->d_next, g->d_mask, p->nx, p->ny, p->alpha, p->hist_lo, p->hist_inv_width,
			p->nbins, g->d_bounds, r->d_parts, r->d_hist)));
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
