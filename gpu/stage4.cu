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
 *  - Moments per thread are shifted sums in double (no division per
 *    element, unlike gpu2's Welford), merged with Chan through warp
 *    shuffles; histogram counts are aggregated per warp with
 *    __match_any_sync before one shared-memory atomic per distinct bin.
 *  - The block size comes from the occupancy API, not a guess.
 * Snapshots overlap as in gpu3.
 */
#include <stdlib.h>
#include <string.h>

#include "cell.h"
#include "cuda_check.h"
#include "device.h"
#include "engine.h"
#include "reduce.cuh"
#include "resident.h"

#define FUSED_ROWS 32   /* rows a thread marches through: halo reads are 2/32 */

static __global__ void fused_step_stats_kernel(
	const apod_real *__restrict__ cur, apod_real *__restrict__ next,
	const unsigned *__restrict__ heater_mask, size_t nx, size_t ny, apod_real alpha,
	apod_real lo, apod_real inv_width, int nbins, struct apod_moments *__restrict__ parts,
	unsigned *__restrict__ hist)
{
	extern __shared__ unsigned block_hist[];
	size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t i0 = (size_t)blockIdx.y * FUSED_ROWS;
	size_t i1 = i0 + FUSED_ROWS < ny ? i0 + FUSED_ROWS : ny;
	double shift = 0.0, s1 = 0.0, s2 = 0.0;
	apod_real mn = 0, mx = 0;
	int count = 0;
	struct apod_moments m;

	for (int b = threadIdx.x; b < nbins; b += blockDim.x)
		block_hist[b] = 0;
	__syncthreads();

	if (j < nx) {
		apod_real up = i0 > 0 ? cur[(i0 - 1) * nx + j] : (apod_real)0;
		apod_real c = cur[i0 * nx + j];
		int edge_col = j == 0 || j + 1 == nx;
		for (size_t i = i0; i < i1; i++) {
			size_t idx = i * nx + j;
			apod_real dn = i + 1 < ny ? cur[idx + nx] : (apod_real)0;
			apod_real v = c;
			int fixed = edge_col || i == 0 || i + 1 == ny ||
			            ((heater_mask[idx >> 5] >> (idx & 31)) & 1u);
			unsigned same;
			int bin;
			if (!fixed)
				v = apod_cell_update(c, up, dn, cur[idx + 1], cur[idx - 1], alpha);
			next[idx] = v;
			if (count == 0) {
				shift = (double)v;
				mn = mx = v;
			}
			{
				double d = (double)v - shift;
				s1 += d;
				s2 += d * d;
			}
			mn = v < mn ? v : mn;
			mx = v > mx ? v : mx;
			count++;
			/* Lanes with the same bin add once, through their lowest lane. */
			bin = apod_hist_bin(v, lo, inv_width, nbins);
			same = __match_any_sync(__activemask(), bin);
			if ((threadIdx.x & 31) == __ffs(same) - 1)
				atomicAdd(&block_hist[bin], __popc(same));
			up = c;
			c = dn;
		}
	}
	if (count) {
		m.n = count;
		m.mean = shift + s1 / count;
		m.m2 = s2 - s1 * s1 / count;
		m.min = mn;
		m.max = mx;
	} else {
		apod_moments_init(&m);
	}
	block_merge_moments(&m);
	if (threadIdx.x == 0)
		parts[(size_t)blockIdx.y * gridDim.x + blockIdx.x] = m;
	for (int b = threadIdx.x; b < nbins; b += blockDim.x)
		if (block_hist[b])
			atomicAdd(&hist[b], block_hist[b]);
}

struct gpu4 {
	struct resident r;
	struct snapshots s;
	cudaStream_t compute;
	unsigned *d_mask;
	dim3 grid, block;
	size_t smem;
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

static int gpu4_setup(struct gpu4 *g, const struct apod_problem *p)
{
	size_t words = (p->n + 31) / 32;
	unsigned *mask;
	int min_grid = 0, block = 0, nparts;

	g->smem = (size_t)p->nbins * sizeof(unsigned);
	/* The block size that gives the most resident warps for this kernel's
	 * registers and shared memory; no wider than the grid needs. */
	CUDA_TRY(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, fused_step_stats_kernel,
	                                            g->smem, 1024));
	if ((size_t)block > (p->nx + 31) / 32 * 32)
		block = (int)((p->nx + 31) / 32 * 32);
	g->block = dim3((unsigned)block);
	g->grid = dim3((unsigned)((p->nx + block - 1) / block),
	               (unsigned)((p->ny + FUSED_ROWS - 1) / FUSED_ROWS));
	nparts = (int)(g->grid.x * g->grid.y);

	CUDA_TRY(cudaStreamCreateWithFlags(&g->compute, cudaStreamNonBlocking));
	if (resident_init(&g->r, p, "gpu4", g->compute, nparts, 1))
		return -1;
	if (snapshots_init(&g->s, p->n))
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

static void *gpu4_create(const struct apod_problem *p)
{
	struct gpu4 *g = (struct gpu4 *)calloc(1, sizeof *g);
	if (!g) {
		apod_fail("gpu4: out of memory");
		return NULL;
	}
	if (gpu4_setup(g, p)) {
		gpu4_destroy(g);
		return NULL;
	}
	return g;
}

static int gpu4_step(void *ctx)
{
	struct gpu4 *g = (struct gpu4 *)ctx;
	struct resident *r = &g->r;
	const struct apod_problem *p = r->p;
	apod_real *t;
	CUDA_TRY(cudaMemsetAsync(r->d_hist, 0, (size_t)p->nbins * sizeof(unsigned), r->stream));
	LAUNCH_TRY((fused_step_stats_kernel<<<g->grid, g->block, g->smem, r->stream>>>(
		r->d_cur, r->d_next, g->d_mask, p->nx, p->ny, p->alpha, p->hist_lo, p->hist_inv_width,
		p->nbins, r->d_parts, r->d_hist)));
	t = r->d_cur;
	r->d_cur = r->d_next;
	r->d_next = t;
	return 0;
}

/* The statistics were gathered by the step; only the merge is left. */
static int gpu4_stats(void *ctx, struct apod_moments *m, unsigned *hist)
{
	struct gpu4 *g = (struct gpu4 *)ctx;
	return resident_stats_finish(&g->r, (int)(g->grid.x * g->grid.y), m, hist);
}

static int gpu4_summary(void *ctx, double *zone_means)
{
	return resident_zones(&((struct gpu4 *)ctx)->r, zone_means);
}

static int gpu4_fetch(void *ctx, apod_real *dst)
{
	return resident_fetch(&((struct gpu4 *)ctx)->r, dst);
}

static int gpu4_snapshot_begin(void *ctx, int slot)
{
	struct gpu4 *g = (struct gpu4 *)ctx;
	return snapshots_begin(&g->s, &g->r, slot);
}

static int gpu4_snapshot_wait(void *ctx, int slot, const apod_real **host)
{
	return snapshots_wait(&((struct gpu4 *)ctx)->s, slot, host);
}

static int gpu_width(void)
{
	return 0;
}

extern "C" const struct apod_engine apod_engine_gpu4 = {
	"gpu4",
	"GPU stage 4: tuned kernels, statistics fused into the sweep",
	APOD_COMPUTE_PHASES,
	apod_gpu_available,
	gpu_width,
	gpu4_create,
	gpu4_step,
	gpu4_stats,
	gpu4_summary,
	gpu4_fetch,
	gpu4_destroy,
	gpu4_snapshot_begin,
	gpu4_snapshot_wait,
};

/* Hooks for `apod bench`, which times the fused kernel on its own. */
void *apod_gpu4_bench_create(const struct apod_problem *p)
{
	return gpu4_create(p);
}

int apod_gpu4_fused_once(void *ctx)
{
	return gpu4_step(ctx);
}

void apod_gpu4_bench_destroy(void *ctx)
{
	gpu4_destroy(ctx);
}

cudaStream_t apod_gpu4_bench_stream(void *ctx)
{
	return ((struct gpu4 *)ctx)->compute;
}
