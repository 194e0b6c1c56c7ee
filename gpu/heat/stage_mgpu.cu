/*
 * stage_mgpu.cu: heat on several GPUs, one MPI rank per GPU, on gpu4's
 * fused kernels.
 *
 * The rows are split as in the mpi stage (cpu/heat/stage_mpi.c,
 * doc/multigpu.md): each rank holds a block of interior rows and a halo row
 * above and below, on its own GPU.  The block is a field of its own to
 * gpu4's kernels: its first and last rows (a halo, or the grid's edge) are
 * fixed, as a field's edges are, and heaters are bits of a mask.
 *
 * A step is three launches of the fused sweep-and-statistics kernel, one a
 * band of the block's rows (a band's rows are [r0, r1) of the block):
 *  - the top and bottom bands (the rows the neighbours need, with the
 *    grid's edge row where this rank holds it), on the edge stream, then
 *    those rows sent to the neighbours' halos and theirs received
 *    (ncclSend/ncclRecv in one group on the edge stream);
 *  - the interior band on the inner stream, meanwhile.
 * The next step's interior waits only for this step's two bands (band_done),
 * not for the transfer, and for a collection's merge where one came between
 * (its slots); the next step's bands wait for this interior, whose rows
 * they overwrite and read.
 *
 * Statistics (calcStats, calcSummaryData), as gpu4 keeps them: a step with
 * a calcStats row after it leaves its blocks' partial moments and
 * histogram in the slot of that row, and the probe issues nothing; the
 * zones' partial sums go into the summary's slot.  Nothing waits until the
 * harness collects the rows (deferred probes, at most MGPU_DEFER_ROWS a
 * probe): then each GPU merges its slots into rows, NCCL gathers the rows'
 * moments on every rank (each GPU's moments are merged in rank order with
 * Chan's formula on rank 0) and sums the histograms and the zones' sums
 * onto rank 0, and rank 0 copies them home: one reduction and one wait for
 * 128 rows, none a step.  The order of the sums differs from serial's, so
 * the gate holds mgpu to its tolerances, as it does gpu2-gpu4.
 *
 * The 16-byte kernel where the field is float and its width a multiple of
 * 4 (gpu4's fused_bal_kernel); any other width or a double build, the
 * one-column kernel (gpu4's fused_scalar_kernel).
 *
 * Failures: before the NCCL communicator exists every rank agrees on
 * failure (apod_ranks_agree), so all stop together.  Once ranks wait on each
 * other's NCCL transfers a failure on one cannot be agreed on (its peers may
 * be blocked on a transfer that will never come): the failing rank prints
 * why and MPI_Abort ends every rank.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nccl.h>

#include "apod/cuda.h"
#include "gpu/device.h"
#include "gpu/phase_events.h"
#include "cpu/heat/heat_stage.h"
#include "kernels.cuh"
#include "tuned.cuh"
#include "heat_resident.h"
#include "cpu/heat/mpi_comm.h"
#include "gpu/mgpu.cuh"

/* Rows a probe holds on the devices before the harness collects them, and
 * a slot more: the step writes its row's partials before the harness,
 * with a full ring, collects (as gpu4's). */
#define MGPU_DEFER_ROWS RESIDENT_DEFER_ROWS
#define MGPU_SLOTS (MGPU_DEFER_ROWS + 1)
#define MGPU_BLOCK 256
/* Blocks of the sweep's size left free for NCCL's send and receive
 * kernels beside the middle band (plan_bands). */
#define MGPU_NCCL_BLOCKS 4

/* Rows [r0, r1) of the block, swept by a launch of gx x gy blocks whose
 * partials start at part0 in a slot. */
struct band {
	size_t r0, r1;
	unsigned gy;
	int part0;
};

struct mgpu {
	const struct heat_problem *p;
	size_t lo, hi;               /* interior rows swept here: [lo, hi) */
	size_t own0, own1;           /* rows held for statistics and the result */
	size_t base;                 /* the grid row of the block's first row, lo - 1 */
	size_t nloc;                 /* the block's rows: grid rows lo-1 .. hi */
	int up, down;                /* neighbour ranks, or -1 at an edge */
	int device;
	cudaStream_t edge, inner;
	cudaEvent_t band_done, inner_done;
	cudaEvent_t merged;          /* the collection's merge, which the next middle must follow */
	ncclComm_t comm;
	int have_comm;
	/* Device time a phase, on the edge stream: every step ends with it
	 * waiting for the inner stream, so its events bound both streams' work. */
	struct apod_phase_events *events;
	heat_real *d_cur, *d_next;
	unsigned *d_mask;            /* the block's heaters, a bit a cell */
	int vec4;                    /* float and nx % 4 == 0: the 16-byte kernel */
	float2 *d_bounds;            /* vec4: bin_bounds_kernel's table, nbins + 1 */
	dim3 block;
	unsigned gx;
	size_t smem;
	struct band top, bottom, middle;   /* an empty band has r0 == r1 */
	int nparts;                  /* partials a step leaves in a slot */
	/* calcStats: slot row % MGPU_SLOTS holds the row's partials and
	 * histogram (zero until a step adds to it: the merge clears it). */
	struct apod_moments *d_slot_parts;
	unsigned *d_slot_hist;
	long steps, step_row;        /* steps taken; the row the last one left partials for, or -1 */
	int stats_blocks;
	/* The rows being collected, packed: each GPU's moments and counts, the
	 * moments of every GPU (NCCL's all-gather) and the counts summed. */
	struct apod_moments *d_row_m, *d_all_m, *h_all_m;
	unsigned *d_row_h, *d_sum_h, *h_hist;
	/* calcSummaryData: slot row % MGPU_SLOTS holds zone_slices partial
	 * sums a zone; collected, each zone's sum over the rows held here, then
	 * over every GPU. */
	int zone_slices;
	double *d_zone_parts, *d_zone_loc, *d_zone_sum, *h_zone_sum;
	heat_real *h_rows;           /* the held rows, for the gather */
	MPI_Datatype row;
	int *counts, *displs;
};

/* After the communicator is up: a failure on one rank ends them all. */
static int must(int rc)
{
	return apod_mgpu_must("mgpu", rc);
}

/* Before anything is enqueued on the edge stream (phase_events.h). */
static int issue(struct mgpu *g)
{
	return apod_phase_events_issue(g->events);
}

/* Heat's phase `name` as a bit of phase_events' chained mask. */
static unsigned phase_bit(const char *name)
{
	int k = apod_phase_number(&heat_workload, name);
	return k >= 0 && k < 32 ? 1u << k : 0u;
}

static int band_empty(const struct band *b)
{
	return b->r0 >= b->r1;
}

/* calcStats rows from the slots: block i merges slot (first + i) % slots's
 * partials (Chan's merge, in a fixed order) into moments[i], copies its
 * histogram to hists[i] and clears it for the next step to use the slot.
 * Partials of blocks that swept no rows have n = 0 and are skipped. */
static __global__ void merge_slots_kernel(const struct apod_moments *__restrict__ parts, int nparts,
                                          unsigned *__restrict__ slot_hist, int nbins, long first,
                                          long slots, struct apod_moments *__restrict__ moments,
                                          unsigned *__restrict__ hists)
{
	long slot = (first + blockIdx.x) % slots;
	unsigned *hist = slot_hist + (size_t)slot * nbins;
	block_merge_parts(parts + (size_t)slot * nparts, nparts, &moments[blockIdx.x]);
	for (int b = threadIdx.x; b < nbins; b += blockDim.x) {
		hists[(size_t)blockIdx.x * nbins + b] = hist[b];
		hist[b] = 0;
	}
}

/* Each zone's sum over the rows of it held here, [own0, own1) of the grid,
 * in gridDim.y slices of those rows: grid (zones, slices), block (z, s)
 * writes parts[z * slices + s].  first is the block's row `base` of the
 * grid. */
static __global__ void zone_parts_kernel(const heat_real *__restrict__ first, size_t base, size_t nx,
                                         size_t ny, int zones_x, int zones_y, size_t own0, size_t own1,
                                         double *__restrict__ parts)
{
	int z = blockIdx.x, zr = z / zones_x, zc = z % zones_x, slices = gridDim.y;
	size_t r0 = (size_t)zr * ny / zones_y, r1 = (size_t)(zr + 1) * ny / zones_y;
	size_t c0 = (size_t)zc * nx / zones_x, c1 = (size_t)(zc + 1) * nx / zones_x;
	size_t s0, s1, r;
	double s = 0.0, a = 0.0, b = 0.0, d = 0.0;
	r0 = r0 > own0 ? r0 : own0;
	r1 = r1 < own1 ? r1 : own1;
	r1 = r1 > r0 ? r1 : r0;
	s0 = r0 + (r1 - r0) * blockIdx.y / slices;
	s1 = r0 + (r1 - r0) * (blockIdx.y + 1) / slices;
	/* Four rows at a time, four sums: a thread keeps four loads in flight
	 * (one row at a time, the 8192^2 medium deck's zones took 350 us, at a
	 * quarter of the memory's speed). */
	for (r = s0; r + 4 <= s1; r += 4)
		for (size_t c = c0 + threadIdx.x; c < c1; c += blockDim.x) {
			const heat_real *q = first + (r - base) * nx + c;
			s += (double)q[0];
			a += (double)q[nx];
			b += (double)q[2 * nx];
			d += (double)q[3 * nx];
		}
	for (; r < s1; r++)
		for (size_t c = c0 + threadIdx.x; c < c1; c += blockDim.x)
			s += (double)first[(r - base) * nx + c];
	s = block_sum((s + a) + (b + d));
	if (threadIdx.x == 0)
		parts[(size_t)z * slices + blockIdx.y] = s;
}

/* The zones' rows from their slots: block i adds slot (first + i) %
 * slots's slices in order, a zone a thread, into sums[i * nzones + z]. */
static __global__ void zone_rows_kernel(const double *__restrict__ parts, int nzones, int slices,
                                        long first, long slots, double *__restrict__ sums)
{
	long slot = (first + blockIdx.x) % slots;
	const double *part = parts + (size_t)slot * nzones * slices;
	for (int z = threadIdx.x; z < nzones; z += blockDim.x) {
		double t = 0.0;
		for (int k = 0; k < slices; k++)
			t += part[(size_t)z * slices + k];
		sums[(size_t)blockIdx.x * nzones + z] = t;
	}
}

static void mgpu_destroy(void *ctx)
{
	struct mgpu *g = (struct mgpu *)ctx;
	if (!g)
		return;
	/* Teardown: nothing useful to do with a failure but go on freeing. */
	apod_mgpu_unlink(g->comm, g->have_comm);
	apod_phase_events_free(g->events);
	if (g->edge)
		cudaStreamDestroy(g->edge);
	if (g->inner)
		cudaStreamDestroy(g->inner);
	if (g->band_done)
		cudaEventDestroy(g->band_done);
	if (g->inner_done)
		cudaEventDestroy(g->inner_done);
	if (g->merged)
		cudaEventDestroy(g->merged);
	cudaFree(g->d_cur);
	cudaFree(g->d_next);
	cudaFree(g->d_mask);
	cudaFree(g->d_bounds);
	cudaFree(g->d_slot_parts);
	cudaFree(g->d_slot_hist);
	cudaFree(g->d_row_m);
	cudaFree(g->d_all_m);
	cudaFree(g->d_row_h);
	cudaFree(g->d_sum_h);
	cudaFree(g->d_zone_parts);
	cudaFree(g->d_zone_loc);
	cudaFree(g->d_zone_sum);
	cudaFreeHost(g->h_all_m);
	cudaFreeHost(g->h_hist);
	cudaFreeHost(g->h_zone_sum);
	cudaFreeHost(g->h_rows);
	if (g->row != MPI_DATATYPE_NULL)
		MPI_Type_free(&g->row);
	free(g->counts);
	free(g->displs);
	free(g);
}

/* The block's heaters as a bit a cell, block-local indices. */
static int upload_mask(struct mgpu *g)
{
	const struct heat_problem *p = g->p;
	size_t words = (g->nloc * p->nx + 31) / 32;
	unsigned *mask = (unsigned *)calloc(words, sizeof *mask);
	if (!mask)
		return apod_fail("mgpu: cannot allocate the heater mask");
	for (size_t k = 0; k < p->nsrc; k++) {
		size_t gr = p->src_idx[k] / p->nx, idx;
		if (gr < g->base || gr >= g->base + g->nloc)
			continue;
		idx = (gr - g->base) * p->nx + p->src_idx[k] % p->nx;
		mask[idx >> 5] |= 1u << (idx & 31);
	}
	if (cudaMalloc(&g->d_mask, words * sizeof *mask) != cudaSuccess ||
	    cudaMemcpy(g->d_mask, mask, words * sizeof *mask, cudaMemcpyHostToDevice) != cudaSuccess) {
		free(mask);
		return apod_fail("mgpu: cannot upload the heater mask (%zu bytes)", words * sizeof *mask);
	}
	free(mask);
	return 0;
}

/* The kernel's shared memory opted in (past 48 KiB at 4096 bins in the
 * 16-byte kernel's table), its block size from the occupancy API, and the
 * blocks that fit on the device at once. */
static int plan_launch(struct mgpu *g, int *resident)
{
	const struct heat_problem *p = g->p;
	size_t threads_x;
	int min_grid = 0, block = 0, sms = 0, per_sm = 0;
	char what[64];
	snprintf(what, sizeof what, "%d histogram bins", p->nbins);
	g->smem = (size_t)p->nbins * sizeof(unsigned);
#ifdef APOD_REAL_FLOAT
	g->vec4 = p->nx % 4 == 0;
	if (g->vec4) {
		g->smem = fused_bal_smem(p->nbins);
		if (apod_cuda_smem_allow("mgpu", what, (const void *)fused_band_kernel<true>, g->smem) ||
		    apod_cuda_smem_allow("mgpu", what, (const void *)fused_band_kernel<false>, g->smem))
			return -1;
		APOD_CUDA_TRY(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, fused_band_kernel<true>,
		                                                 g->smem, 1024));
	} else
#endif
	{
		if (apod_cuda_smem_allow("mgpu", what, (const void *)fused_scalar_band_kernel<true>, g->smem) ||
		    apod_cuda_smem_allow("mgpu", what, (const void *)fused_scalar_band_kernel<false>, g->smem))
			return -1;
		APOD_CUDA_TRY(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, fused_scalar_band_kernel<true>,
		                                                 g->smem, 1024));
	}
	if (apod_cuda_smem_allow("mgpu", what, (const void *)stats_kernel, g->smem))
		return -1;
	if (block < 1)
		return apod_fail("mgpu: no block of its kernel fits on this device with %zu bytes of shared memory",
		                 g->smem);
	threads_x = g->vec4 ? p->nx / 4 : p->nx;
	if ((size_t)block > (threads_x + 31) / 32 * 32)
		block = (int)((threads_x + 31) / 32 * 32);
	g->block = dim3((unsigned)block);
	g->gx = (unsigned)((threads_x + block - 1) / block);
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, g->device));
#ifdef APOD_REAL_FLOAT
	if (g->vec4)
		APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fused_band_kernel<true>, block,
		                                                          g->smem));
	else
#endif
		APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			&per_sm, fused_scalar_band_kernel<true>, block, g->smem));
	*resident = sms * (per_sm > 0 ? per_sm : 1);
	g->stats_blocks = 8 * sms;
	return 0;
}

/* The three bands.  Held rows are [own0, own1) of the grid, rows
 * [own0 - base, own1 - base) of the block: the top band is its first held
 * row (the grid's edge on the first rank) through block row 1, the bottom
 * band block row max(2, rows) through its last held row, the middle band
 * what lies between.  Every held row is in one band; the halos in none. */
static void plan_bands(struct mgpu *g, int resident)
{
	size_t rows = g->hi - g->lo, held0 = g->own0 - g->base, held1 = g->own1 - g->base;
	size_t mid;
	int part = 0;
	g->top.r0 = held0;
	g->top.r1 = 2;
	g->bottom.r0 = rows > 2 ? rows : 2;
	g->bottom.r1 = held1 > g->bottom.r0 ? held1 : g->bottom.r0;
	g->middle.r0 = 2;
	g->middle.r1 = rows > 2 ? rows : 2;
	mid = g->middle.r1 - g->middle.r0;
	/* The bands are a row or two: one row of blocks.  The middle: gpu4's
	 * one wave (the rows split evenly over blocks that all fit at once, at
	 * least a row a block), less room for the bands' blocks and NCCL's:
	 * a wave that filled every SM would let them start only when it ended,
	 * and the next step's bands wait for the transfer. */
	int room = (int)g->gx + (apod_ranks_size() > 1 ? MGPU_NCCL_BLOCKS : 0);
	g->top.gy = g->bottom.gy = 1;
	g->middle.gy = (unsigned)((size_t)(resident > 2 * room ? resident - room : resident) / g->gx);
	if (g->middle.gy < 1)
		g->middle.gy = 1;
	if (g->middle.gy > mid)
		g->middle.gy = (unsigned)(mid ? mid : 1);
	struct band *b[3] = { &g->top, &g->bottom, &g->middle };
	for (int i = 0; i < 3; i++) {
		b[i]->part0 = part;
		if (!band_empty(b[i]))
			part += (int)(g->gx * b[i]->gy);
	}
	g->nparts = part;
}

/* This rank's rows, held and owned, and its neighbours: what setup_local
 * sizes everything by. */
static void place_rank(struct mgpu *g, const struct heat_problem *p)
{
	g->row = MPI_DATATYPE_NULL;
	heat_mpi_split(p->ny, apod_ranks_rank(), apod_ranks_size(), &g->lo, &g->hi);
	heat_mpi_held(p->ny, apod_ranks_rank(), apod_ranks_size(), &g->own0, &g->own1);
	g->base = g->lo - 1;
	g->nloc = g->hi - g->lo + 2;
	g->up = apod_ranks_rank() > 0 ? apod_ranks_rank() - 1 : -1;
	g->down = apod_ranks_rank() < apod_ranks_size() - 1 ? apod_ranks_rank() + 1 : -1;
}

/* Everything a rank can do before the ranks are linked by NCCL. */
static int setup_local(struct mgpu *g)
{
	const struct heat_problem *p = g->p;
	size_t nheld = g->own1 - g->own0, field = g->nloc * p->nx * sizeof(heat_real);
	size_t nbins = (size_t)p->nbins, nz = (size_t)p->nzones, ranks = (size_t)apod_ranks_size();
	size_t need = 2 * field + nheld * p->nx * sizeof(heat_real) + (64u << 20);
	int resident = 0, sms = 0, least = 0, greatest = 0;

	if (apod_mgpu_device(&g->device))
		return -1;
	if (apod_gpu_require("mgpu", need))
		return -1;
	/* The edge stream first whenever blocks free up: the neighbours, and
	 * the next step, wait for its rows. */
	APOD_CUDA_TRY(cudaDeviceGetStreamPriorityRange(&least, &greatest));
	APOD_CUDA_TRY(cudaStreamCreateWithPriority(&g->edge, cudaStreamNonBlocking, greatest));
	APOD_CUDA_TRY(cudaStreamCreateWithFlags(&g->inner, cudaStreamNonBlocking));
	APOD_CUDA_TRY(cudaEventCreateWithFlags(&g->band_done, cudaEventDisableTiming));
	APOD_CUDA_TRY(cudaEventCreateWithFlags(&g->inner_done, cudaEventDisableTiming));
	APOD_CUDA_TRY(cudaEventCreateWithFlags(&g->merged, cudaEventDisableTiming));
	if (plan_launch(g, &resident))
		return -1;
	plan_bands(g, resident);
	APOD_CUDA_TRY(cudaMalloc(&g->d_cur, field));
	APOD_CUDA_TRY(cudaMalloc(&g->d_next, field));
	/* Both buffers start whole: the sweep never writes the halos, and
	 * writes the fixed cells as they were. */
	APOD_CUDA_TRY(cudaMemcpy(g->d_cur, p->init + g->base * p->nx, field, cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemcpy(g->d_next, p->init + g->base * p->nx, field, cudaMemcpyHostToDevice));
	if (upload_mask(g))
		return -1;
#ifdef APOD_REAL_FLOAT
	if (g->vec4) {
		APOD_CUDA_TRY(cudaMalloc(&g->d_bounds, (nbins + 1) * sizeof(float2)));
		APOD_LAUNCH_TRY((bin_bounds_kernel<<<1, 128>>>(g->d_bounds, p->hist_lo, p->hist_inv_width,
		                                               p->nbins)));
	}
#endif
	APOD_CUDA_TRY(cudaMalloc(&g->d_slot_parts, (size_t)MGPU_SLOTS * g->nparts * sizeof *g->d_slot_parts));
	APOD_CUDA_TRY(cudaMalloc(&g->d_slot_hist, (size_t)MGPU_SLOTS * nbins * sizeof *g->d_slot_hist));
	APOD_CUDA_TRY(cudaMemset(g->d_slot_hist, 0, (size_t)MGPU_SLOTS * nbins * sizeof *g->d_slot_hist));
	APOD_CUDA_TRY(cudaMalloc(&g->d_row_m, (size_t)MGPU_SLOTS * sizeof *g->d_row_m));
	APOD_CUDA_TRY(cudaMalloc(&g->d_all_m, (size_t)MGPU_SLOTS * ranks * sizeof *g->d_all_m));
	APOD_CUDA_TRY(cudaMalloc(&g->d_row_h, (size_t)MGPU_SLOTS * nbins * sizeof *g->d_row_h));
	APOD_CUDA_TRY(cudaMalloc(&g->d_sum_h, (size_t)MGPU_SLOTS * nbins * sizeof *g->d_sum_h));
	APOD_CUDA_TRY(cudaMallocHost(&g->h_all_m, (size_t)MGPU_SLOTS * ranks * sizeof *g->h_all_m));
	APOD_CUDA_TRY(cudaMallocHost(&g->h_hist, (size_t)MGPU_SLOTS * nbins * sizeof *g->h_hist));
	/* About eight blocks an SM over the zones: enough loads in flight. */
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, g->device));
	g->zone_slices = 8 * sms / p->nzones;
	g->zone_slices = g->zone_slices < 1 ? 1 : g->zone_slices > 256 ? 256 : g->zone_slices;
	APOD_CUDA_TRY(cudaMalloc(&g->d_zone_parts, (size_t)MGPU_SLOTS * nz * g->zone_slices * sizeof(double)));
	APOD_CUDA_TRY(cudaMalloc(&g->d_zone_loc, (size_t)MGPU_SLOTS * nz * sizeof(double)));
	APOD_CUDA_TRY(cudaMalloc(&g->d_zone_sum, (size_t)MGPU_SLOTS * nz * sizeof(double)));
	APOD_CUDA_TRY(cudaMallocHost(&g->h_zone_sum, (size_t)MGPU_SLOTS * nz * sizeof(double)));
	APOD_CUDA_TRY(cudaMallocHost(&g->h_rows, nheld * p->nx * sizeof(heat_real)));
	/* cudaMemcpy from pageable memory may return before its DMA is done,
	 * and the non-blocking streams do not wait for the legacy stream. */
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	if (!(g->counts = (int *)malloc(ranks * sizeof(int))) || !(g->displs = (int *)malloc(ranks * sizeof(int))))
		return apod_fail("mgpu: out of memory");
	heat_mpi_gather_plan(p->nx, p->ny, g->counts, g->displs, &g->row);
	g->step_row = -1;
	/* Events where the work changes phase, as gpu2-gpu4's: a run of steps
	 * whose probes issue nothing costs none. */
	if (!(g->events = apod_phase_events_edges(g->edge, apod_phase_total(&heat_workload),
	                                          phase_bit("genTimeStep") | phase_bit("calcStats") |
	                                                  phase_bit("calcSummaryData"))))
		return -1;
	return 0;
}

/* Each boundary row of buf to the neighbour's halo and the neighbour's
 * into ours, on the edge stream. */
static int exchange_halos(struct mgpu *g, heat_real *buf)
{
	size_t nx = g->p->nx, rows = g->hi - g->lo;
	if (g->up < 0 && g->down < 0)
		return 0;
	NCCL_TRY(ncclGroupStart());
	if (g->up >= 0) {
		NCCL_TRY(ncclSend(buf + nx, nx * sizeof(heat_real), ncclUint8, g->up, g->comm, g->edge));
		NCCL_TRY(ncclRecv(buf, nx * sizeof(heat_real), ncclUint8, g->up, g->comm, g->edge));
	}
	if (g->down >= 0) {
		NCCL_TRY(ncclSend(buf + rows * nx, nx * sizeof(heat_real), ncclUint8, g->down, g->comm, g->edge));
		NCCL_TRY(ncclRecv(buf + (rows + 1) * nx, nx * sizeof(heat_real), ncclUint8, g->down, g->comm,
		                  g->edge));
	}
	NCCL_TRY(ncclGroupEnd());
	return 0;
}

/* NCCL connects two ranks at their first send and receive, not at
 * ncclCommInitRank: done in the first step, that cost (about 190 ms on the
 * two H200s, 2026-11-28) was charged to genTimeStep, 630 of the 660 us a
 * step measured over 300 steps of 2048^2 (doc/multigpu.md).  One exchange
 * here puts it in setup.  Both fields hold the initial field, so the rows
 * received are the ones already there. */
static int connect_halos(struct mgpu *g)
{
	if (exchange_halos(g, g->d_next))
		return -1;
	APOD_CUDA_TRY(cudaStreamSynchronize(g->edge));
	return 0;
}

static int setup_rank(struct mgpu *g)
{
	place_rank(g, g->p);
	return setup_local(g);
}

static void *mgpu_create(const struct apod_stage *s, const void *problem)
{
	const struct heat_problem *p = (const struct heat_problem *)problem;
	(void)s;
	if (heat_mpi_open(p, "mgpu"))
		return NULL;
	return apod_mgpu_create<struct mgpu>("mgpu", p, setup_rank, connect_halos, mgpu_destroy);
}

/* One band's sweep from d_cur to d_next on `stream`; with the statistics,
 * into slot `slot`'s partials (from the band's part0) and histogram. */
static int sweep_band(struct mgpu *g, const struct band *b, cudaStream_t stream, long slot)
{
	const struct heat_problem *p = g->p;
	dim3 grid(g->gx, b->gy);
	struct apod_moments *parts = NULL;
	unsigned *hist = NULL;
	if (band_empty(b))
		return 0;
	if (slot >= 0) {
		parts = g->d_slot_parts + (size_t)slot * g->nparts + b->part0;
		hist = g->d_slot_hist + (size_t)slot * p->nbins;
	}
#ifdef APOD_REAL_FLOAT
	if (g->vec4) {
		if (slot >= 0)
			APOD_LAUNCH_TRY((fused_band_kernel<true><<<grid, g->block, g->smem, stream>>>(
				g->d_cur, g->d_next, g->d_mask, p->nx, g->nloc, b->r0, b->r1, p->alpha, p->hist_lo,
				p->hist_inv_width, p->nbins, g->d_bounds, parts, hist)));
		else
			APOD_LAUNCH_TRY((fused_band_kernel<false><<<grid, g->block, g->smem, stream>>>(
				g->d_cur, g->d_next, g->d_mask, p->nx, g->nloc, b->r0, b->r1, p->alpha, p->hist_lo,
				p->hist_inv_width, p->nbins, g->d_bounds, parts, hist)));
		return 0;
	}
#endif
	if (slot >= 0)
		APOD_LAUNCH_TRY((fused_scalar_band_kernel<true><<<grid, g->block, g->smem, stream>>>(
			g->d_cur, g->d_next, g->d_mask, p->nx, g->nloc, b->r0, b->r1, p->alpha, p->hist_lo,
			p->hist_inv_width, p->nbins, parts, hist)));
	else
		APOD_LAUNCH_TRY((fused_scalar_band_kernel<false><<<grid, g->block, g->smem, stream>>>(
			g->d_cur, g->d_next, g->d_mask, p->nx, g->nloc, b->r0, b->r1, p->alpha, p->hist_lo,
			p->hist_inv_width, p->nbins, parts, hist)));
	return 0;
}

static int step_on_streams(struct mgpu *g)
{
	long every = g->p->deck->stats_every, s = ++g->steps, slot = -1;
	heat_real *t;

	/* The calcStats row the harness will ask for after this step (its row
	 * of step s is s / every - 1). */
	g->step_row = -1;
	if (every > 0 && s % every == 0) {
		g->step_row = s / every - 1;
		slot = g->step_row % MGPU_SLOTS;
	}
	/* The rows the neighbours need first, then theirs to our halos while
	 * the middle is swept. */
	if (issue(g))
		return -1;
	if (sweep_band(g, &g->top, g->edge, slot) || sweep_band(g, &g->bottom, g->edge, slot))
		return -1;
	APOD_CUDA_TRY(cudaEventRecord(g->band_done, g->edge));
	if (exchange_halos(g, g->d_next))
		return -1;
	if (sweep_band(g, &g->middle, g->inner, slot))
		return -1;
	APOD_CUDA_TRY(cudaEventRecord(g->inner_done, g->inner));
	/* The next middle reads this step's bands; the next bands overwrite
	 * and read rows this middle reads and writes; the probes and the
	 * collection, on the edge stream, read all of it.  (The next middle's
	 * last thread row also loads the halo below, which the transfer may be
	 * writing, into a register it never uses: the kernel reads a row ahead
	 * as it marches.) */
	APOD_CUDA_TRY(cudaStreamWaitEvent(g->inner, g->band_done, 0));
	APOD_CUDA_TRY(cudaStreamWaitEvent(g->edge, g->inner_done, 0));
	t = g->d_cur;
	g->d_cur = g->d_next;
	g->d_next = t;
	return 0;
}

/* Heat's one step phase, genTimeStep. */
static int mgpu_step(void *ctx, int phase, long step, long steps)
{
	(void)phase, (void)step, (void)steps;
	return must(step_on_streams((struct mgpu *)ctx));
}

static const heat_real *held_rows(const struct mgpu *g)
{
	return g->d_cur + (g->own0 - g->base) * g->p->nx;
}

/* calcStats's row `row` where no step left it (a probe off the deck's
 * schedule): the plain statistics kernel over the held rows into the
 * slot, its unused partials empty. */
static int stats_into_slot(struct mgpu *g, long row)
{
	const struct heat_problem *p = g->p;
	long slot = row % MGPU_SLOTS;
	int blocks = g->stats_blocks < g->nparts ? g->stats_blocks : g->nparts;
	struct apod_moments *parts = g->d_slot_parts + (size_t)slot * g->nparts;
	unsigned *hist = g->d_slot_hist + (size_t)slot * p->nbins;
	if (blocks < 1)
		return apod_fail("mgpu: no partials to compute calcStats into");
	if (issue(g))
		return -1;
	APOD_CUDA_TRY(cudaMemsetAsync(parts, 0, (size_t)g->nparts * sizeof *parts, g->edge));
	APOD_CUDA_TRY(cudaMemsetAsync(hist, 0, (size_t)p->nbins * sizeof *hist, g->edge));
	APOD_LAUNCH_TRY((stats_kernel<<<blocks, MGPU_BLOCK, (size_t)p->nbins * sizeof(unsigned), g->edge>>>(
		held_rows(g), (g->own1 - g->own0) * p->nx, p->hist_lo, p->hist_inv_width, p->nbins, parts, hist)));
	return 0;
}

static int zones_into_slot(struct mgpu *g, long row)
{
	const struct heat_problem *p = g->p;
	long slot = row % MGPU_SLOTS;
	dim3 grid((unsigned)p->nzones, (unsigned)g->zone_slices);
	if (issue(g))
		return -1;
	APOD_LAUNCH_TRY((zone_parts_kernel<<<grid, MGPU_BLOCK, 0, g->edge>>>(
		g->d_cur, g->base, p->nx, p->ny, p->zones_x, p->zones_y, g->own0, g->own1,
		g->d_zone_parts + (size_t)slot * p->nzones * g->zone_slices)));
	return 0;
}

/* calcStats's rows first .. first + count - 1 merged on each GPU, gathered
 * and summed over the GPUs, home on rank 0 and into the harness's rows. */
static int collect_stats(struct mgpu *g, long first, long count, void *const *rows)
{
	const struct heat_problem *p = g->p;
	size_t nbins = (size_t)p->nbins;
	int ranks = apod_ranks_size();
	if (issue(g))
		return -1;
	APOD_LAUNCH_TRY((merge_slots_kernel<<<(unsigned)count, MGPU_BLOCK, 0, g->edge>>>(
		g->d_slot_parts, g->nparts, g->d_slot_hist, p->nbins, first, MGPU_SLOTS, g->d_row_m, g->d_row_h)));
	/* The next step writes the slot of the first row merged here (a ring
	 * of one slot more than it holds), and its middle band waits only for
	 * the last step's bands, recorded before this merge: it must also wait
	 * for the merge to read and clear the slot.  Rank 0 waits below; the
	 * others go on (seen at 2 ranks: calcStats's row at step 129 of 300
	 * held a middle band twice). */
	APOD_CUDA_TRY(cudaEventRecord(g->merged, g->edge));
	APOD_CUDA_TRY(cudaStreamWaitEvent(g->inner, g->merged, 0));
	if (ranks > 1) {
		NCCL_TRY(ncclGroupStart());
		NCCL_TRY(ncclAllGather(g->d_row_m, g->d_all_m, (size_t)count * sizeof *g->d_row_m, ncclUint8,
		                       g->comm, g->edge));
		NCCL_TRY(ncclReduce(g->d_row_h, g->d_sum_h, (size_t)count * nbins, ncclUint32, ncclSum, 0, g->comm,
		                    g->edge));
		NCCL_TRY(ncclGroupEnd());
	}
	if (apod_ranks_rank() != 0)
		return 0;
	APOD_CUDA_TRY(cudaMemcpyAsync(g->h_all_m, ranks > 1 ? g->d_all_m : g->d_row_m,
	                              (size_t)count * ranks * sizeof *g->h_all_m, cudaMemcpyDeviceToHost, g->edge));
	APOD_CUDA_TRY(cudaMemcpyAsync(g->h_hist, ranks > 1 ? g->d_sum_h : g->d_row_h,
	                              (size_t)count * nbins * sizeof *g->h_hist, cudaMemcpyDeviceToHost, g->edge));
	/* The one wait for these rows. */
	APOD_CUDA_TRY(cudaStreamSynchronize(g->edge));
	for (long i = 0; i < count; i++) {
		struct apod_moments m;
		void *row[3] = { NULL, NULL, NULL };
		apod_moments_init(&m);
		/* Rank r's rows are the all-gather's r-th block of count. */
		for (int r = 0; r < ranks; r++)
			apod_moments_merge(&m, &g->h_all_m[(size_t)r * count + i]);
		if (rows[HEAT_SERIES_STATS])
			row[HEAT_SERIES_STATS] = (double *)rows[HEAT_SERIES_STATS] + (size_t)i * 4;
		if (rows[HEAT_SERIES_HIST])
			row[HEAT_SERIES_HIST] = (double *)rows[HEAT_SERIES_HIST] + (size_t)i * nbins;
		heat_stats_rows(p, &m, g->h_hist + (size_t)i * nbins, row);
	}
	return 0;
}

/* calcSummaryData's rows: each zone's sum here, summed over the GPUs onto
 * rank 0, divided there by the zone's cells. */
static int collect_zones(struct mgpu *g, long first, long count, void *const *rows)
{
	const struct heat_problem *p = g->p;
	size_t nz = (size_t)p->nzones;
	double *zones = (double *)rows[HEAT_SERIES_ZONES];
	if (issue(g))
		return -1;
	APOD_LAUNCH_TRY((zone_rows_kernel<<<(unsigned)count, MGPU_BLOCK, 0, g->edge>>>(
		g->d_zone_parts, p->nzones, g->zone_slices, first, MGPU_SLOTS, g->d_zone_loc)));
	if (apod_ranks_size() > 1)
		NCCL_TRY(ncclReduce(g->d_zone_loc, g->d_zone_sum, (size_t)count * nz, ncclFloat64, ncclSum, 0, g->comm,
		                    g->edge));
	if (apod_ranks_rank() != 0)
		return 0;
	APOD_CUDA_TRY(cudaMemcpyAsync(g->h_zone_sum, apod_ranks_size() > 1 ? g->d_zone_sum : g->d_zone_loc,
	                              (size_t)count * nz * sizeof(double), cudaMemcpyDeviceToHost, g->edge));
	APOD_CUDA_TRY(cudaStreamSynchronize(g->edge));
	if (!zones)
		return 0;
	for (long i = 0; i < count; i++)
		for (int zr = 0; zr < p->zones_y; zr++)
			for (int zc = 0; zc < p->zones_x; zc++) {
				size_t r0 = heat_zone_row0(p, zr), r1 = heat_zone_row0(p, zr + 1);
				size_t c0 = heat_zone_col0(p, zc), c1 = heat_zone_col0(p, zc + 1);
				size_t z = (size_t)zr * p->zones_x + zc;
				zones[(size_t)i * nz + z] = g->h_zone_sum[(size_t)i * nz + z] / (double)((r1 - r0) * (c1 - c0));
			}
	return 0;
}

static int collect_rows(struct mgpu *g, int k, long first, long count, void *const *rows)
{
	if (count <= 0)
		return 0;
	if (count > MGPU_SLOTS)
		return apod_fail("mgpu: %ld rows to collect from a ring of %d", count, MGPU_SLOTS);
	return k == HEAT_PROBE_SUMMARY ? collect_zones(g, first, count, rows) : collect_stats(g, first, count, rows);
}

/* Deferred (rows NULL, as the harness calls it): calcStats's row is the
 * one the step left (nothing to issue) or computed into its slot now;
 * calcSummaryData's partial sums go into its slot.  Given rows, the row is
 * issued and collected at once. */
static int probe_rows(struct mgpu *g, int k, long row, void *const *rows)
{
	if (k == HEAT_PROBE_SUMMARY) {
		if (zones_into_slot(g, row))
			return -1;
	} else if (row != g->step_row && stats_into_slot(g, row))
		return -1;
	return rows ? collect_rows(g, k, row, 1, rows) : 0;
}

static int mgpu_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	(void)step;
	return must(probe_rows((struct mgpu *)ctx, k, row, rows));
}

static int mgpu_collect(void *ctx, int k, long first, long count, void *const *rows)
{
	return must(collect_rows((struct mgpu *)ctx, k, first, count, rows));
}

static int download_held(struct mgpu *g)
{
	if (issue(g))
		return -1;
	APOD_CUDA_TRY(cudaStreamSynchronize(g->inner));
	APOD_CUDA_TRY(cudaMemcpyAsync(g->h_rows, held_rows(g), (g->own1 - g->own0) * g->p->nx * sizeof(heat_real),
	                              cudaMemcpyDeviceToHost, g->edge));
	APOD_CUDA_TRY(cudaStreamSynchronize(g->edge));
	return 0;
}

/* The held rows of every GPU, gathered on rank 0 (the reporter). */
static int mgpu_fetch(void *ctx, int array, void *dst)
{
	struct mgpu *g = (struct mgpu *)ctx;
	(void)array;   /* heat has one array, the field */
	must(download_held(g));
	APOD_MPI_TRY(MPI_Gatherv(g->h_rows, (int)(g->own1 - g->own0), g->row, dst, g->counts, g->displs,
	                         g->row, 0, apod_ranks_comm()));
	return 0;
}

/* Described in cpu/heat/stages.c, which leaves it out of a build without
 * CUDA, MPI or NCCL. */
extern "C" const struct apod_stage_ops heat_mgpu_ops = {
	.available = apod_gpu_stage_available,
	.create = mgpu_create,
	.step = mgpu_step,
	.probe = mgpu_probe,
	.fetch = mgpu_fetch,
	.destroy = mgpu_destroy,
	.defer_rows = MGPU_DEFER_ROWS,
	.collect = mgpu_collect,
	.mark = apod_phase_events_mark_op<struct mgpu>,
	.device_seconds = apod_phase_events_seconds_op<struct mgpu>,
	.reporter = apod_ranks_reporter,
	.agree = apod_ranks_stage_agree,
};
