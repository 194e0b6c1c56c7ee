/*
 * kernels.cuh: the first, plain kernels of the port, one thread per cell
 * or per element.  gpu1 uses the sweep; gpu2 and gpu3 use them all; gpu4
 * replaces the sweep and the statistics with one fused kernel.
 */
#ifndef APOD_GPU_KERNELS_CUH
#define APOD_GPU_KERNELS_CUH

#include "shared/heat/cell.h"
#include "shared/heat/hist.h"
#include "reduce.cuh"
#include "shared/stats.h"

#define SWEEP_BX 32   /* a warp spans a row segment: loads are coalesced */
#define SWEEP_BY 8

/* genTimeStep: one thread per interior cell. */
/* CUDA allows at most 65535 blocks down a grid: a grid of more rows than
 * that many blocks hold (3x1048576 is a legal deck) strides over the rest,
 * each block taking every gridDim.y-th band of SWEEP_BY rows. */
#define SWEEP_MAX_GRID_Y 65535u

/* The sweep's grid for `rows` rows (from 1) of nx columns. */
static inline dim3 sweep_grid(size_t nx, size_t rows)
{
	size_t by = (rows + SWEEP_BY - 1) / SWEEP_BY;
	return dim3((unsigned)((nx - 2 + SWEEP_BX - 1) / SWEEP_BX),
	            (unsigned)(by < SWEEP_MAX_GRID_Y ? by : SWEEP_MAX_GRID_Y));
}

static __global__ void sweep_kernel(const heat_real *__restrict__ cur, heat_real *__restrict__ next,
                                    size_t nx, size_t ny, heat_real alpha)
{
	size_t j = (size_t)blockIdx.x * SWEEP_BX + threadIdx.x + 1;
	if (j + 1 >= nx)
		return;
	for (size_t i = (size_t)blockIdx.y * SWEEP_BY + threadIdx.y + 1; i + 1 < ny;
	     i += (size_t)gridDim.y * SWEEP_BY) {
		size_t c = i * nx + j;
		next[c] = heat_cell_update(cur[c], cur[c - nx], cur[c + nx], cur[c + 1], cur[c - 1], alpha);
	}
}

/* Hold the heaters at their temperature after the sweep. */
static __global__ void pin_kernel(heat_real *__restrict__ f, const size_t *__restrict__ idx,
                                  const heat_real *__restrict__ temp, size_t nsrc)
{
	size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (k < nsrc)
		f[idx[k]] = temp[k];
}

/* calcStats, first port: each thread folds its elements in with Welford,
 * blocks merge with Chan; the histogram is counted in shared memory and
 * added to the global one once per block. */
static __global__ void stats_kernel(const heat_real *__restrict__ f, size_t n, heat_real lo,
                                    heat_real inv_width, int nbins,
                                    struct apod_moments *__restrict__ partials,
                                    unsigned *__restrict__ hist)
{
	extern __shared__ unsigned block_hist[];
	struct apod_moments m;
	for (int b = threadIdx.x; b < nbins; b += blockDim.x)
		block_hist[b] = 0;
	__syncthreads();
	apod_moments_init(&m);
	for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < n;
	     k += (size_t)gridDim.x * blockDim.x) {
		heat_real x = f[k];
		apod_moments_push(&m, (double)x);
		atomicAdd(&block_hist[heat_hist_bin(x, lo, inv_width, nbins)], 1u);
	}
	block_merge_moments(&m);
	if (threadIdx.x == 0)
		partials[blockIdx.x] = m;
	for (int b = threadIdx.x; b < nbins; b += blockDim.x)
		if (block_hist[b])
			atomicAdd(&hist[b], block_hist[b]);
}

/* Merge the per-block partial moments, in a fixed order, in one block of
 * 256 threads.  With hist_out, the histogram's counts are copied beside
 * them: the deferred probes' ring row (resident.cu).  The synchronous and
 * the deferred calcStats both merge here, so their rows are the same bit
 * for bit. */
static __global__ void merge_kernel(const struct apod_moments *__restrict__ partials, int nparts,
                                    struct apod_moments *__restrict__ total,
                                    const unsigned *__restrict__ hist = NULL,
                                    unsigned *__restrict__ hist_out = NULL, int nbins = 0)
{
	block_merge_parts(partials, nparts, total);
	if (hist_out)
		for (int b = threadIdx.x; b < nbins; b += blockDim.x)
			hist_out[b] = hist[b];
}

/* calcSummaryData: grid (zones, S), each block sums S-th of a zone's rows
 * in double into parts; the last slice of a zone to finish
 * adds the S partials in order (the same bits every run) and writes the
 * mean.  One block a zone left most of the H200 idle: 75.7 us for 64 zones
 * at 2048^2, 12.6 us in 8 slices (doc/optimize.md, section 16), so the
 * kernel of one block a zone is gone.
 * arrived: a counter a zone, zero between launches (the last slice puts
 * it back). */
static __global__ void zones_sliced_kernel(const heat_real *__restrict__ f, size_t nx, size_t ny,
                                           int zones_x, int zones_y, double *__restrict__ parts,
                                           unsigned *arrived, double *__restrict__ means)
{
	__shared__ int last;
	int z = blockIdx.x, zr = z / zones_x, zc = z % zones_x, slices = gridDim.y;
	size_t r0 = (size_t)zr * ny / zones_y, r1 = (size_t)(zr + 1) * ny / zones_y;
	size_t c0 = (size_t)zc * nx / zones_x, c1 = (size_t)(zc + 1) * nx / zones_x;
	size_t s0 = r0 + (r1 - r0) * blockIdx.y / slices, s1 = r0 + (r1 - r0) * (blockIdx.y + 1) / slices;
	double s = 0.0;
	for (size_t r = s0; r < s1; r++)
		for (size_t c = c0 + threadIdx.x; c < c1; c += blockDim.x)
			s += (double)f[r * nx + c];
	s = block_sum(s);
	if (threadIdx.x == 0) {
		parts[(size_t)z * slices + blockIdx.y] = s;
		__threadfence();
		last = atomicAdd(&arrived[z], 1u) == (unsigned)slices - 1;
	}
	__syncthreads();
	if (last && threadIdx.x == 0) {
		double t = 0.0;
		__threadfence();
		for (int k = 0; k < slices; k++)
			t += __ldcg(&parts[(size_t)z * slices + k]);
		means[z] = t / (double)((r1 - r0) * (c1 - c0));
		arrived[z] = 0;
	}
}

#endif
