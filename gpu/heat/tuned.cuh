/*
 * tuned.cuh: gpu4's kernels.  See stage4.cu for what changed and why.
 */
#ifndef APOD_GPU_TUNED_CUH
#define APOD_GPU_TUNED_CUH

#include <math.h>

#include "shared/heat/cell.h"
#include "shared/heat/hist.h"
#include "reduce.cuh"
#include "thread_stats.cuh"

#define FUSED_ROWS 32   /* rows a thread marches through: halo reads are 2/32 */
/* At most 512 threads a block and at least 3 blocks an SM: 1536 resident
 * threads, which caps registers at 42 a thread.  Without the bound the
 * reduction kernels took 54-58 registers (ncu: 50% theoretical occupancy).
 * With it the fused kernel takes 40 and spills a little to local memory
 * (ncu counts the requests), and still runs faster: 0.207 -> 0.190 ms. */
#define TUNED_THREADS 512
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define TUNED_MIN_BLOCKS 2   /* sm_75 holds 1024 threads an SM */
#else
#define TUNED_MIN_BLOCKS 3
#endif

/* A cell is fixed if it is on an edge or a heater (bit set in the mask). */
static __device__ __forceinline__ int heater_bit(const unsigned *__restrict__ mask, size_t idx)
{
	return (mask[idx >> 5] >> (idx & 31)) & 1u;
}

/* End of a tuned kernel: merge the threads' moments into the block's
 * partial and add the block's histogram to the global one. */
static __device__ __forceinline__ void finish_block(struct thread_stats *t, unsigned *block_hist,
                                                    struct apod_moments *__restrict__ parts,
                                                    size_t part, unsigned *__restrict__ hist,
                                                    int nbins)
{
	struct apod_moments m;
	ts_flush(t, block_hist);
	ts_moments(t, &m);
	block_merge_moments(&m);   /* its __syncthreads also orders the histogram */
	if (threadIdx.x == 0)
		parts[part] = m;
	for (int b = threadIdx.x; b < nbins; b += blockDim.x)
		if (block_hist[b])
			atomicAdd(&hist[b], block_hist[b]);
}

/* A warp's shifted sums (n values, s1 = sum(x - k), s2 = sum((x - k)^2)
 * about each lane's own k) moved to lane 0's k and added, with the range:
 * sum((x - K)^2) = s2 + 2 d s1 + n d^2 for d = k - K, exact up to double
 * rounding, so that no level divides (Chan's merge divides twice at each
 * of its ten levels in a block).  Lane 0 gets the result. */
static __device__ __forceinline__ void warp_shifted_sum(double *n, double *k, double *s1, double *s2,
                                                        float *mn, float *mx)
{
	double base = __shfl_sync(0xffffffffu, *k, 0), d = *k - base;
	*s2 += d * (2.0 * *s1 + *n * d);
	*s1 += *n * d;
	*k = base;
	for (int off = 16; off > 0; off >>= 1) {
		*n += __shfl_down_sync(0xffffffffu, *n, off);
		*s1 += __shfl_down_sync(0xffffffffu, *s1, off);
		*s2 += __shfl_down_sync(0xffffffffu, *s2, off);
		*mn = fminf(*mn, __shfl_down_sync(0xffffffffu, *mn, off));
		*mx = fmaxf(*mx, __shfl_down_sync(0xffffffffu, *mx, off));
	}
}

/* A block's moments from its threads' shifted sums, as warp_shifted_sum
 * does for a warp, then the warps' about warp 0's k; one division at the
 * end.  The order is fixed by the launch shape, so a run repeats its bits.
 * Every thread calls this; thread 0 gets the result. */
static __device__ void block_moments_shifted(double n, double k, double s1, double s2, float mn,
                                             float mx, struct apod_moments *m)
{
	__shared__ double w_sums[APOD_MAX_WARPS][4];
	__shared__ float w_range[APOD_MAX_WARPS][2];
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	int nwarps = (blockDim.x + 31) >> 5;
	warp_shifted_sum(&n, &k, &s1, &s2, &mn, &mx);
	if (lane == 0) {
		w_sums[warp][0] = n;
		w_sums[warp][1] = k;
		w_sums[warp][2] = s1;
		w_sums[warp][3] = s2;
		w_range[warp][0] = mn;
		w_range[warp][1] = mx;
	}
	__syncthreads();
	if (warp == 0) {
		int w = lane < nwarps ? lane : 0;
		int real = lane < nwarps;
		n = real ? w_sums[w][0] : 0.0;
		k = w_sums[w][1];
		s1 = real ? w_sums[w][2] : 0.0;
		s2 = real ? w_sums[w][3] : 0.0;
		mn = w_range[w][0];
		mx = w_range[w][1];
		warp_shifted_sum(&n, &k, &s1, &s2, &mn, &mx);
		if (lane == 0) {
			apod_moments_init(m);
			if (n > 0) {
				double m2 = s2 - s1 * (s1 / n);
				m->n = n;
				m->mean = k + s1 / n;
				m->m2 = m2 > 0 ? m2 : 0.0;
				m->min = mn;
				m->max = mx;
			}
		}
	}
	__syncthreads();   /* w_sums may be reused by a following call */
}

/* calcStats rows from fused_bal_kernel's partials, many steps in one
 * launch: block b merges the partials and the histogram that a step left
 * in slot (first + b) % slots of their rings into that slot's row of the
 * statistics ring (the moments, then nbins counts: `stride` bytes a row),
 * and clears the histogram for the step that uses the slot next.  The
 * partials are added as shifted sums about the first one's mean (part p:
 * n_p (mean_p - K) and m2_p + n_p (mean_p - K)^2; no division), in an
 * order fixed by the launch shape, so a run repeats its bits.  A step
 * kernel waits for nothing this way: a slot's row is merged when the
 * harness collects it (gpu4, doc/optimize.md, section 17). */
static __global__ void merge_rows_kernel(const struct apod_moments *__restrict__ parts, int nparts,
                                         unsigned *__restrict__ hists, int nbins, long first,
                                         long slots, unsigned char *__restrict__ rows, size_t stride)
{
	long slot = (first + blockIdx.x) % slots;
	const struct apod_moments *part = parts + (size_t)slot * nparts;
	unsigned *hist = hists + (size_t)slot * nbins;
	unsigned char *row = rows + (size_t)slot * stride;
	struct apod_moments m;
	double n = 0, s1 = 0, s2 = 0, base = part[0].mean;
	float mn = INFINITY, mx = -INFINITY;
	for (int k = threadIdx.x; k < nparts; k += blockDim.x) {
		struct apod_moments o = part[k];
		double d = o.mean - base;
		n += o.n;
		s1 += o.n * d;
		s2 += o.m2 + o.n * d * d;
		mn = fminf(mn, (float)o.min);
		mx = fmaxf(mx, (float)o.max);
	}
	block_moments_shifted(n, base, s1, s2, mn, mx, &m);
	if (threadIdx.x == 0)
		*(struct apod_moments *)row = m;
	for (int b = threadIdx.x; b < nbins; b += blockDim.x) {
		((unsigned *)(row + sizeof(struct apod_moments)))[b] = hist[b];
		hist[b] = 0;
	}
}

/* The end of fused_bal_kernel: the block's moments from its threads'
 * shifted sums about their first old cell k, and its histogram added to
 * the global one. */
static __device__ __forceinline__ void finish_block_shifted(struct thread_stats *t, float k, float mn,
                                                            float mx, unsigned *block_hist,
                                                            struct apod_moments *__restrict__ parts,
                                                            size_t part, unsigned *__restrict__ hist,
                                                            int nbins)
{
	struct apod_moments m;
	ts_flush(t, block_hist);
	/* its __syncthreads also orders the histogram */
	block_moments_shifted((double)t->count, (double)k, t->s1, t->s2, mn, mx, &m);
	if (threadIdx.x == 0)
		parts[part] = m;
	for (int b = threadIdx.x; b < nbins; b += blockDim.x)
		if (block_hist[b])
			atomicAdd(&hist[b], block_hist[b]);
}

/* genTimeStep + calcStats, any width: one column per thread, marching down
 * its block's rows [i0, i1) with the cells above and at the row in
 * registers.  Rows 0 and ny - 1 are fixed: the field's edges for gpu4, and
 * for mgpu its block's first and last rows (an edge or a halo). */
template <bool STATS>
static __device__ __forceinline__ void fused_scalar_rows(
	const heat_real *__restrict__ cur, heat_real *__restrict__ next,
	const unsigned *__restrict__ heater_mask, size_t nx, size_t ny, size_t i0, size_t i1,
	heat_real alpha, heat_real lo, heat_real inv_width, int nbins,
	struct apod_moments *__restrict__ parts, unsigned *__restrict__ hist)
{
	extern __shared__ unsigned block_hist[];
	size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	struct thread_stats t;

	if (STATS) {
		for (int b = threadIdx.x; b < nbins; b += blockDim.x)
			block_hist[b] = 0;
		__syncthreads();
		ts_init(&t);
	}
	if (j < nx && i0 < i1) {
		heat_real up = i0 > 0 ? cur[(i0 - 1) * nx + j] : (heat_real)0;
		heat_real c = cur[i0 * nx + j];
		int edge_col = j == 0 || j + 1 == nx;
		for (size_t i = i0; i < i1; i++) {
			size_t idx = i * nx + j;
			heat_real dn = i + 1 < ny ? cur[idx + nx] : (heat_real)0;
			heat_real v = c;
			if (!(edge_col || i == 0 || i + 1 == ny || heater_bit(heater_mask, idx)))
				v = heat_cell_update(c, up, dn, cur[idx + 1], cur[idx - 1], alpha);
			next[idx] = v;
			if (STATS) {
				ts_add(&t, v);
				ts_bin(&t, heat_hist_bin(v, lo, inv_width, nbins), block_hist);
			}
			up = c;
			c = dn;
		}
	}
	if (STATS)
		finish_block(&t, block_hist, parts, (size_t)blockIdx.y * gridDim.x + blockIdx.x, hist, nbins);
}

static __global__ void fused_scalar_kernel(
	const heat_real *__restrict__ cur, heat_real *__restrict__ next,
	const unsigned *__restrict__ heater_mask, size_t nx, size_t ny, heat_real alpha,
	heat_real lo, heat_real inv_width, int nbins, struct apod_moments *__restrict__ parts,
	unsigned *__restrict__ hist)
{
	size_t i0 = (size_t)blockIdx.y * FUSED_ROWS;
	size_t i1 = i0 + FUSED_ROWS < ny ? i0 + FUSED_ROWS : ny;
	fused_scalar_rows<true>(cur, next, heater_mask, nx, ny, i0, i1, alpha, lo, inv_width, nbins, parts,
	                        hist);
}

/* Rows [ra, rb) alone, split evenly over the grid's rows of blocks (mgpu:
 * its block's bands). */
template <bool STATS>
static __global__ void fused_scalar_band_kernel(
	const heat_real *__restrict__ cur, heat_real *__restrict__ next,
	const unsigned *__restrict__ heater_mask, size_t nx, size_t ny, size_t ra, size_t rb,
	heat_real alpha, heat_real lo, heat_real inv_width, int nbins,
	struct apod_moments *__restrict__ parts, unsigned *__restrict__ hist)
{
	size_t i0 = ra + (rb - ra) * blockIdx.y / gridDim.y, i1 = ra + (rb - ra) * (blockIdx.y + 1) / gridDim.y;
	fused_scalar_rows<STATS>(cur, next, heater_mask, nx, ny, i0, i1, alpha, lo, inv_width, nbins, parts,
	                         hist);
}

#ifdef APOD_REAL_FLOAT
/* The same, four columns per thread with 16-byte loads and stores (float,
 * nx a multiple of 4).  The neighbours across a float4 come from the next
 * and previous lanes by shuffle; only the warp's outermost lanes load them.
 * gpu4's kernel until 2026-11-25; now `apod bench` rows ("before"), beside
 * fused_bal_kernel below. */
static __device__ __forceinline__ float4 load4(const float *p)
{
	return *reinterpret_cast<const float4 *>(p);
}

/* The histogram's exact path for four values: each binned, then added to
 * the thread's run. */
static __device__ __forceinline__ void ts_bin_exact4(struct thread_stats *t, float4 v, float lo,
                                                     float inv_width, int nbins, unsigned *block_hist)
{
	ts_bin4(t, heat_hist_bin(v.x, lo, inv_width, nbins), heat_hist_bin(v.y, lo, inv_width, nbins),
	        heat_hist_bin(v.z, lo, inv_width, nbins), heat_hist_bin(v.w, lo, inv_width, nbins),
	        block_hist);
}

/* The start of a 16-byte fused kernel's walk down a column: the block's
 * histogram cleared, the thread's statistics reset, and the rows above, at
 * and below row i0 in registers (zero off the grid, and for threads past
 * the end of the row). */
static __device__ __forceinline__ void fused_start(const float *__restrict__ cur, size_t nx, size_t ny,
                                                   size_t i0, size_t j, int valid, int nbins,
                                                   unsigned *block_hist, struct thread_stats *t,
                                                   float4 *up, float4 *c, float4 *ahead)
{
	for (int b = threadIdx.x; b < nbins; b += blockDim.x)
		block_hist[b] = 0;
	__syncthreads();
	ts_init(t);
	*up = *c = *ahead = make_float4(0, 0, 0, 0);
	if (valid) {
		if (i0 > 0)
			*up = load4(cur + (i0 - 1) * nx + j);
		*c = load4(cur + i0 * nx + j);
		if (i0 + 1 < ny)
			*ahead = load4(cur + (i0 + 1) * nx + j);
	}
}

/* The four cells at (i, j..j+3) after one step, from the rows above (up),
 * at (c) and below (dn); left and right are the cells beside the vector as
 * the neighbouring lanes hold them (the warp's outermost lanes load theirs
 * here).  Fixed cells (edges, heaters) keep their value. */
static __device__ __forceinline__ float4 vec4_update(const float *__restrict__ cur,
                                                     const unsigned *__restrict__ heater_mask,
                                                     size_t nx, size_t ny, size_t i, size_t j, int lane,
                                                     float4 up, float4 c, float4 dn, float left,
                                                     float right, float alpha)
{
	size_t idx = i * nx + j;
	unsigned fixed;
	float4 v = c;
	if (lane == 0 && j > 0)
		left = cur[idx - 1];
	if (lane == 31 && j + 4 < nx)
		right = cur[idx + 4];
	/* Bits 0-3: the four cells' heater bits (idx is a multiple of 4). */
	fixed = (heater_mask[idx >> 5] >> (idx & 31)) & 0xfu;
	if (i == 0 || i + 1 == ny)
		fixed = 0xfu;
	if (j == 0)
		fixed |= 1u;
	if (j + 4 == nx)
		fixed |= 8u;
	if (!(fixed & 1u))
		v.x = heat_cell_update(c.x, up.x, dn.x, c.y, left, alpha);
	if (!(fixed & 2u))
		v.y = heat_cell_update(c.y, up.y, dn.y, c.z, c.x, alpha);
	if (!(fixed & 4u))
		v.z = heat_cell_update(c.z, up.z, dn.z, c.w, c.y, alpha);
	if (!(fixed & 8u))
		v.w = heat_cell_update(c.w, up.w, dn.w, right, c.z, alpha);
	return v;
}

template <bool MOMENTS, bool HIST>
static __global__ void __launch_bounds__(TUNED_THREADS, TUNED_MIN_BLOCKS) fused_vec4_kernel(
	const float *__restrict__ cur, float *__restrict__ next,
	const unsigned *__restrict__ heater_mask, size_t nx, size_t ny, float alpha,
	float lo, float inv_width, int nbins, struct apod_moments *__restrict__ parts,
	unsigned *__restrict__ hist)
{
	extern __shared__ unsigned block_hist[];
	size_t j = 4 * ((size_t)blockIdx.x * blockDim.x + threadIdx.x);
	size_t i0 = (size_t)blockIdx.y * FUSED_ROWS;
	size_t i1 = i0 + FUSED_ROWS < ny ? i0 + FUSED_ROWS : ny;
	int lane = threadIdx.x & 31, valid = j < nx;
	struct thread_stats t;
	float4 up, c, dn, ahead;

	fused_start(cur, nx, ny, i0, j, valid, nbins, block_hist, &t, &up, &c, &ahead);
	/* Every lane runs the loop, valid or not, so that the shuffles see a
	 * full warp; invalid lanes neither load nor store. */
	for (size_t i = i0; i < i1; i++) {
		size_t idx = i * nx + j;
		float left = __shfl_up_sync(0xffffffffu, c.w, 1);
		float right = __shfl_down_sync(0xffffffffu, c.x, 1);
		float4 v = c;
		/* The row below was loaded an iteration ago; start the one after it
		 * now, so that each thread keeps a load in flight while it computes. */
		dn = ahead;
		if (valid) {
			if (i + 2 < ny)
				ahead = load4(cur + idx + 2 * nx);
			v = vec4_update(cur, heater_mask, nx, ny, i, j, lane, up, c, dn, left, right, alpha);
			*reinterpret_cast<float4 *>(next + idx) = v;
			if (MOMENTS)
				ts_add4(&t, v.x, v.y, v.z, v.w);
			if (HIST)
				ts_bin_exact4(&t, v, lo, inv_width, nbins, block_hist);
		}
		up = c;
		c = dn;
	}
	finish_block(&t, block_hist, parts, (size_t)blockIdx.y * gridDim.x + blockIdx.x, hist, nbins);
}
/* gpu4's fused kernel since 2026-11-26 (float, nx a multiple of 4): the
 * sweep of fused_vec4_kernel, bit for bit, with three changes.
 *  - Rows split evenly over gridDim.y blocks, chosen so that the whole grid
 *    is resident at once (gpu4_setup): one wave.  With 32-row blocks the
 *    8192^2 grid was 2.59 waves (ncu) and the last partial wave left SMs
 *    idle; that was most of the statistics' apparent cost.
 *  - The moments as float sums of deviations from the thread's first old
 *    cell, over runs of at most FUSED_RUN rows, added to the double sums
 *    once a run: no first-value test, conversion or double add per group
 *    of four.  A run is at most n = 4 FUSED_RUN values, each deviation at
 *    most the field's range R; a float sum of n terms is off by at most
 *    (n - 1) u times the sum of their sizes (u = 2^-24), so the mean moves
 *    by at most n u R = 7.6e-6 R.  The gate's atol is 10 steps u scale
 *    (doc/verification.md, section 3) with R <= 2 scale: this worst case
 *    is inside it from 26 steps on (13 where the field's least value is
 *    0), and the real error, of deviations from a neighbour, far smaller.
 *  - The histogram's common case (all four values in the thread's current
 *    bin) tested on the four values' minimum and maximum, which the
 *    moments need anyway, against an interval of values certain to fall
 *    in the run's bin (bin_bounds_init): two comparisons.  The bin is a
 *    monotonic function of the value, so if the least and the greatest of
 *    four lie in the interval, all four do; a NaN makes the run's sum NaN
 *    and takes the exact path, four bins one by one.  The intervals are
 *    made once a run (bin_bounds_kernel, at setup) and each block copies
 *    them, before it waits for the previous step: made by every block,
 *    they held every block's start back (84.1% -> 85.0% of copy at
 *    8192^2 in one run, doc/optimize.md, section 19).
 *  - The block's partial as shifted sums (block_moments_shifted): no
 *    division until the block's result, where Chan's merge divided at
 *    every level; the 42-register build stopped spilling.
 * MOMENTS and HIST as in fused_vec4_kernel, for `apod bench`; PDL: the
 * kernel may be launched before the previous one in its stream ends
 * (programmatic dependent launch): it waits for it before touching
 * memory, so only the launch's latency overlaps. */
#define FUSED_RUN 32

/* fused_bal_kernel's shared memory: the block's histogram, then for each
 * bin an interval of values certain to fall in it (bin_bounds_init). */
static __host__ __device__ inline size_t fused_bal_smem(int nbins)
{
	return (size_t)((nbins + 1) & ~1) * sizeof(unsigned) + (size_t)(nbins + 1) * sizeof(float2);
}

/* bounds[b + 1]: values a <= x <= z whose bin is certainly b; bounds[0],
 * before a thread's first run, an empty interval.  The bin is a monotonic
 * function of the value (a subtraction and a multiplication, each
 * correctly rounded), so if heat_hist_bin(a) and heat_hist_bin(z) are b,
 * every value between is in b: the fused kernel's common case becomes two
 * comparisons instead of two bins computed.  The edges come from the
 * bin's nominal ones moved a few ulps until the bin function agrees; a bin
 * where it does not agree gets an empty interval, and its values take the
 * exact path. */
static __device__ void bin_bounds_init(float2 *bounds, float lo, float inv_width, int nbins)
{
	for (int e = threadIdx.x; e <= nbins; e += blockDim.x) {
		float2 ab = make_float2(INFINITY, -INFINITY);
		int b = e - 1;
		if (e > 0) {
			float a = b == 0 ? -INFINITY : lo + (float)b / inv_width;
			float z = b == nbins - 1 ? INFINITY : lo + (float)(b + 1) / inv_width;
			for (int tries = 0; tries < 8 && heat_hist_bin(a, lo, inv_width, nbins) > b; tries++)
				a = nextafterf(a, -INFINITY);
			for (int tries = 0; tries < 8 && heat_hist_bin(a, lo, inv_width, nbins) < b; tries++)
				a = nextafterf(a, INFINITY);
			for (int tries = 0; tries < 8 && heat_hist_bin(z, lo, inv_width, nbins) > b; tries++)
				z = nextafterf(z, -INFINITY);
			if (heat_hist_bin(a, lo, inv_width, nbins) == b && heat_hist_bin(z, lo, inv_width, nbins) == b &&
			    a <= z)
				ab = make_float2(a, z);
		}
		bounds[e] = ab;
	}
}

/* bin_bounds_init into global memory, once per run: fused_bal_kernel's
 * blocks copy the table. */
static __global__ void bin_bounds_kernel(float2 *bounds, float lo, float inv_width, int nbins)
{
	bin_bounds_init(bounds, lo, inv_width, nbins);
}

/* fused_bal_kernel's walk over rows [ra, rb) of a field ny rows high, split
 * evenly over the grid's rows of blocks: the whole field for gpu4, a band
 * of a GPU's block (its halo rows fixed, as the field's edges are) for
 * mgpu. */
template <bool MOMENTS, bool HIST, bool PDL>
static __device__ __forceinline__ void fused_bal_rows(
	const float *__restrict__ cur, float *__restrict__ next,
	const unsigned *__restrict__ heater_mask, size_t nx, size_t ny, size_t ra, size_t rb,
	float alpha, float lo, float inv_width, int nbins, const float2 *__restrict__ bin_bounds,
	struct apod_moments *__restrict__ parts, unsigned *__restrict__ hist)
{
	extern __shared__ unsigned block_hist[];
	size_t j = 4 * ((size_t)blockIdx.x * blockDim.x + threadIdx.x);
	size_t i0 = ra + (rb - ra) * blockIdx.y / gridDim.y, i1 = ra + (rb - ra) * (blockIdx.y + 1) / gridDim.y;
	int lane = threadIdx.x & 31, valid = j < nx;
	struct thread_stats t;
	float4 up, c, ahead;
	float k, mn = INFINITY, mx = -INFINITY;

	/* The bins' intervals, made once at setup (bin_bounds_kernel): read
	 * before the wait for the previous step, which never writes them. */
	float2 *bounds = (float2 *)(block_hist + ((nbins + 1) & ~1));
	if (HIST)
		for (int e = threadIdx.x; e <= nbins; e += blockDim.x)
			bounds[e] = bin_bounds[e];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
	if (PDL) {
		asm volatile("griddepcontrol.launch_dependents;");
		asm volatile("griddepcontrol.wait;" ::: "memory");
	}
#endif
	fused_start(cur, nx, ny, i0, j, valid, nbins, block_hist, &t, &up, &c, &ahead);
	k = c.x;
	t.shift = (double)k;
	for (size_t r0 = i0; r0 < i1; r0 += FUSED_RUN) {
		size_t r1 = r0 + FUSED_RUN < i1 ? r0 + FUSED_RUN : i1;
		float f1 = 0, f2 = 0;
		for (size_t i = r0; i < r1; i++) {
			size_t idx = i * nx + j;
			float left = __shfl_up_sync(0xffffffffu, c.w, 1);
			float right = __shfl_down_sync(0xffffffffu, c.x, 1);
			float4 dn = ahead;
			if (valid) {
				float4 v;
				if (i + 2 < ny)
					ahead = load4(cur + idx + 2 * nx);
				v = vec4_update(cur, heater_mask, nx, ny, i, j, lane, up, c, dn, left, right, alpha);
				*reinterpret_cast<float4 *>(next + idx) = v;
				if (MOMENTS) {
					float da = v.x - k, db = v.y - k, dc = v.z - k, dd = v.w - k;
					float s1 = (da + db) + (dc + dd);
					float lo4 = fminf(fminf(v.x, v.y), fminf(v.z, v.w));
					float hi4 = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
					f1 += s1;
					f2 = fmaf(da, da, f2);
					f2 = fmaf(db, db, f2);
					f2 = fmaf(dc, dc, f2);
					f2 = fmaf(dd, dd, f2);
					mn = fminf(mn, lo4);
					mx = fmaxf(mx, hi4);
					if (HIST) {
						/* Kept in registers instead (it changes only on the
						 * exact path), the interval made the kernel spill
						 * 24 bytes at its 40-register cap: not kept. */
						float2 run = bounds[t.run_bin + 1];
						if (lo4 >= run.x && hi4 <= run.y && s1 == s1)
							t.run_len += 4;
						else
							ts_bin_exact4(&t, v, lo, inv_width, nbins, block_hist);
					}
				}
			}
			up = c;
			c = dn;
		}
		t.s1 += (double)f1;
		t.s2 += (double)f2;
	}
	if (valid && i1 > i0)
		t.count = (int)(4 * (i1 - i0));
	if (!MOMENTS)
		return;
	finish_block_shifted(&t, k, mn, mx, block_hist, parts, (size_t)blockIdx.y * gridDim.x + blockIdx.x,
	                     hist, nbins);
}

template <bool MOMENTS, bool HIST, int MIN_BLOCKS = TUNED_MIN_BLOCKS, bool PDL = false>
static __global__ void __launch_bounds__(TUNED_THREADS, MIN_BLOCKS) fused_bal_kernel(
	const float *__restrict__ cur, float *__restrict__ next,
	const unsigned *__restrict__ heater_mask, size_t nx, size_t ny, float alpha,
	float lo, float inv_width, int nbins, const float2 *__restrict__ bin_bounds,
	struct apod_moments *__restrict__ parts, unsigned *__restrict__ hist)
{
	fused_bal_rows<MOMENTS, HIST, PDL>(cur, next, heater_mask, nx, ny, 0, ny, alpha, lo, inv_width, nbins,
	                                   bin_bounds, parts, hist);
}

/* Rows [ra, rb) alone (mgpu: its block's bands). */
template <bool STATS>
static __global__ void __launch_bounds__(TUNED_THREADS, TUNED_MIN_BLOCKS) fused_band_kernel(
	const float *__restrict__ cur, float *__restrict__ next,
	const unsigned *__restrict__ heater_mask, size_t nx, size_t ny, size_t ra, size_t rb,
	float alpha, float lo, float inv_width, int nbins, const float2 *__restrict__ bin_bounds,
	struct apod_moments *__restrict__ parts, unsigned *__restrict__ hist)
{
	fused_bal_rows<STATS, STATS, false>(cur, next, heater_mask, nx, ny, ra, rb, alpha, lo, inv_width, nbins,
	                                    bin_bounds, parts, hist);
}
#endif

/* calcStats alone with the tuned per-thread statistics: the reduction that
 * `apod bench` sets beside CUB's DeviceReduce.  HIST=false measures the
 * moments alone, the like-for-like comparison with a sum. */
template <bool HIST>
static __global__ void __launch_bounds__(TUNED_THREADS, TUNED_MIN_BLOCKS) reduce_stats_kernel(const heat_real *__restrict__ f, size_t n, heat_real lo,
                                           heat_real inv_width, int nbins,
                                           struct apod_moments *__restrict__ parts,
                                           unsigned *__restrict__ hist)
{
	extern __shared__ unsigned block_hist[];
	struct thread_stats t;
	size_t stride = (size_t)gridDim.x * blockDim.x;
	if (HIST) {
		for (int b = threadIdx.x; b < nbins; b += blockDim.x)
			block_hist[b] = 0;
		__syncthreads();
	}
	ts_init(&t);
#ifdef APOD_REAL_FLOAT
	/* Four at a time while aligned; the tail one at a time. */
	size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	/* Two loads in flight per thread before either is used. */
	for (; k + stride < n / 4; k += 2 * stride) {
		float4 v = *reinterpret_cast<const float4 *>(f + 4 * k);
		float4 w = *reinterpret_cast<const float4 *>(f + 4 * (k + stride));
		ts_add4(&t, v.x, v.y, v.z, v.w);
		ts_add4(&t, w.x, w.y, w.z, w.w);
		if (HIST) {
			ts_bin_exact4(&t, v, lo, inv_width, nbins, block_hist);
			ts_bin_exact4(&t, w, lo, inv_width, nbins, block_hist);
		}
	}
	for (; k < n / 4; k += stride) {
		float4 v = *reinterpret_cast<const float4 *>(f + 4 * k);
		ts_add4(&t, v.x, v.y, v.z, v.w);
		if (HIST)
			ts_bin_exact4(&t, v, lo, inv_width, nbins, block_hist);
	}
	for (size_t k = n / 4 * 4 + (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride) {
#else
	for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride) {
#endif
		ts_add(&t, f[k]);
		if (HIST)
			ts_bin(&t, heat_hist_bin(f[k], lo, inv_width, nbins), block_hist);
	}
	if (HIST) {
		finish_block(&t, block_hist, parts, blockIdx.x, hist, nbins);
	} else {
		struct apod_moments m;
		ts_moments(&t, &m);
		block_merge_moments(&m);
		if (threadIdx.x == 0)
			parts[blockIdx.x] = m;
	}
}

#endif
