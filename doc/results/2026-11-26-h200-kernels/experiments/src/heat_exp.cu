// heat_exp.cu: heat gpu4 fused kernel experiments (helper "kernels", issue 22).
// The tree's fused_vec4_kernel (v0) against numbered versions; validation
// (field bit for bit with v0, statistics merged on the host against v0's),
// then timing beside the copy kernel.  --once: each kernel once (for ncu).
// nvcc -O3 -arch=sm_90 -DAPOD_REAL_FLOAT=1 -I shared -I gpu/heat -I gpu -o /tmp/he heat_exp.cu
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <vector>
#include <algorithm>

#include "tuned.cuh"
#include "tuned_new.cuh"   /* the kernels branch's tuned.cuh, renamed n_* */

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

static __global__ void copy4(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n4)
{
	for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < n4; k += (size_t)gridDim.x * blockDim.x)
		out[k] = in[k];
}

// v1: the fused kernel with
//  FIXK: the shift taken from the thread's first old cell before the loop
//        (no first-value test, no conversion of the shift in the loop);
//  FSUM: deviations and their squares summed in float over a run of at most
//        SUB rows, added to the double sums once a run (no conversion or
//        double add per group of four);
//  BAL:  rows split evenly over gridDim.y blocks (one wave: gridDim.y is
//        chosen so that the whole grid is resident), SUB-row runs inside;
//  MB:   the launch bound's blocks an SM (3: 42 registers, 2: 64).
#define SUB 32
template <bool FIXK, bool FSUM, bool BAL, int MB>
static __global__ void __launch_bounds__(TUNED_THREADS, MB) v1_fused(
	const float *__restrict__ cur, float *__restrict__ next,
	const unsigned *__restrict__ heater_mask, size_t nx, size_t ny, float alpha,
	float lo, float inv_width, int nbins, struct apod_moments *__restrict__ parts,
	unsigned *__restrict__ hist)
{
	extern __shared__ unsigned block_hist[];
	size_t j = 4 * ((size_t)blockIdx.x * blockDim.x + threadIdx.x);
	size_t i0, i1;
	if (BAL) {
		i0 = ny * blockIdx.y / gridDim.y;
		i1 = ny * (blockIdx.y + 1) / gridDim.y;
	} else {
		i0 = (size_t)blockIdx.y * FUSED_ROWS;
		i1 = i0 + FUSED_ROWS < ny ? i0 + FUSED_ROWS : ny;
	}
	int lane = threadIdx.x & 31, valid = j < nx;
	struct thread_stats t;
	float4 up = make_float4(0, 0, 0, 0), c = up, dn = up, ahead = up;
	float k = 0, mn = 0, mx = 0;

	for (int b = threadIdx.x; b < nbins; b += blockDim.x)
		block_hist[b] = 0;
	__syncthreads();
	ts_init(&t);
	if (valid) {
		if (i0 > 0)
			up = load4(cur + (i0 - 1) * nx + j);
		c = load4(cur + i0 * nx + j);
		if (i0 + 1 < ny)
			ahead = load4(cur + (i0 + 1) * nx + j);
	}
	if (FIXK) {
		k = c.x;
		t.shift = (double)k;
		mn = INFINITY;
		mx = -INFINITY;
	}
	for (size_t r0 = i0; r0 < i1; r0 += (BAL ? SUB : FUSED_ROWS)) {
		size_t r1 = BAL ? (r0 + SUB < i1 ? r0 + SUB : i1) : i1;
		float f1 = 0, f2 = 0;
		for (size_t i = r0; i < r1; i++) {
			size_t idx = i * nx + j;
			float left = __shfl_up_sync(0xffffffffu, c.w, 1);
			float right = __shfl_down_sync(0xffffffffu, c.x, 1);
			float4 v = c;
			dn = ahead;
			if (valid) {
				unsigned fixed;
				if (i + 2 < ny)
					ahead = load4(cur + idx + 2 * nx);
				if (lane == 0 && j > 0)
					left = cur[idx - 1];
				if (lane == 31 && j + 4 < nx)
					right = cur[idx + 4];
				fixed = (heater_mask[idx >> 5] >> (idx & 31)) & 0xfu;
				if (i == 0 || i + 1 == ny)
					fixed = 0xfu;
				if (j == 0)
					fixed |= 1u;
				if (j + 4 == nx)
					fixed |= 8u;
				if (!(fixed & 1u))
					v.x = apod_cell_update(c.x, up.x, dn.x, c.y, left, alpha);
				if (!(fixed & 2u))
					v.y = apod_cell_update(c.y, up.y, dn.y, c.z, c.x, alpha);
				if (!(fixed & 4u))
					v.z = apod_cell_update(c.z, up.z, dn.z, c.w, c.y, alpha);
				if (!(fixed & 8u))
					v.w = apod_cell_update(c.w, up.w, dn.w, right, c.z, alpha);
				*reinterpret_cast<float4 *>(next + idx) = v;
				if (FIXK) {
					float da = v.x - k, db = v.y - k, dc = v.z - k, dd = v.w - k;
					float s1 = (da + db) + (dc + dd);
					float s2 = (da * da + db * db) + (dc * dc + dd * dd);
					if (FSUM) {
						f1 += s1;
						f2 += s2;
					} else {
						t.s1 += (double)s1;
						t.s2 += (double)s2;
					}
					float lo2 = fminf(v.x, v.y), lo3 = fminf(v.z, v.w);
					float hi2 = fmaxf(v.x, v.y), hi3 = fmaxf(v.z, v.w);
					mn = fminf(mn, fminf(lo2, lo3));
					mx = fmaxf(mx, fmaxf(hi2, hi3));
				} else {
					ts_add4(&t, v.x, v.y, v.z, v.w);
				}
				ts_bin4(&t, apod_hist_bin(v.x, lo, inv_width, nbins),
				        apod_hist_bin(v.y, lo, inv_width, nbins),
				        apod_hist_bin(v.z, lo, inv_width, nbins),
				        apod_hist_bin(v.w, lo, inv_width, nbins), block_hist);
			}
			up = c;
			c = dn;
		}
		if (FSUM) {
			t.s1 += (double)f1;
			t.s2 += (double)f2;
		}
	}
	if (FIXK && valid && i1 > i0) {
		t.count = (int)(4 * (i1 - i0));
		t.mn = mn;
		t.mx = mx;
	}
	finish_block(&t, block_hist, parts, (size_t)blockIdx.y * gridDim.x + blockIdx.x, hist, nbins);
}


// v2: balanced rows (one wave), the shift from the first old cell, float
// sums over runs of at most SUB rows, and the histogram's common case tested
// on the four values' min and max (2 bins computed instead of 4: the bin is
// monotonic in the value, so min and max in the run's bin put all four in
// it; a NaN makes s1 NaN and takes the exact path).  DEPTH: rows loaded
// ahead (1 or 2).  STATS=false: the same sweep without statistics.
template <bool STATS, int DEPTH, int THREADS, int MB>
static __global__ void __launch_bounds__(THREADS, MB) v2_fused(
	const float *__restrict__ cur, float *__restrict__ next,
	const unsigned *__restrict__ heater_mask, size_t nx, size_t ny, float alpha,
	float lo, float inv_width, int nbins, struct apod_moments *__restrict__ parts,
	unsigned *__restrict__ hist)
{
	extern __shared__ unsigned block_hist[];
	size_t j = 4 * ((size_t)blockIdx.x * blockDim.x + threadIdx.x);
	size_t i0 = ny * blockIdx.y / gridDim.y, i1 = ny * (blockIdx.y + 1) / gridDim.y;
	int lane = threadIdx.x & 31, valid = j < nx;
	struct thread_stats t;
	float4 up = make_float4(0, 0, 0, 0), c = up, a1 = up, a2 = up;
	float k = 0, mn = INFINITY, mx = -INFINITY;

	if (STATS) {
		for (int b = threadIdx.x; b < nbins; b += blockDim.x)
			block_hist[b] = 0;
		__syncthreads();
	}
	ts_init(&t);
	if (valid) {
		if (i0 > 0)
			up = load4(cur + (i0 - 1) * nx + j);
		c = load4(cur + i0 * nx + j);
		if (i0 + 1 < ny)
			a1 = load4(cur + (i0 + 1) * nx + j);
		if (DEPTH > 1 && i0 + 2 < ny)
			a2 = load4(cur + (i0 + 2) * nx + j);
	}
	k = c.x;
	t.shift = (double)k;
	for (size_t r0 = i0; r0 < i1; r0 += SUB) {
		size_t r1 = r0 + SUB < i1 ? r0 + SUB : i1;
		float f1 = 0, f2 = 0;
		for (size_t i = r0; i < r1; i++) {
			size_t idx = i * nx + j;
			float left = __shfl_up_sync(0xffffffffu, c.w, 1);
			float right = __shfl_down_sync(0xffffffffu, c.x, 1);
			float4 v = c, dn = a1;
			if (DEPTH > 1)
				a1 = a2;
			if (valid) {
				unsigned fixed;
				if (i + 1 + DEPTH < ny) {
					if (DEPTH > 1)
						a2 = load4(cur + idx + (1 + DEPTH) * nx);
					else
						a1 = load4(cur + idx + 2 * nx);
				}
				if (lane == 0 && j > 0)
					left = cur[idx - 1];
				if (lane == 31 && j + 4 < nx)
					right = cur[idx + 4];
				fixed = (heater_mask[idx >> 5] >> (idx & 31)) & 0xfu;
				if (i == 0 || i + 1 == ny)
					fixed = 0xfu;
				if (j == 0)
					fixed |= 1u;
				if (j + 4 == nx)
					fixed |= 8u;
				if (!(fixed & 1u))
					v.x = apod_cell_update(c.x, up.x, dn.x, c.y, left, alpha);
				if (!(fixed & 2u))
					v.y = apod_cell_update(c.y, up.y, dn.y, c.z, c.x, alpha);
				if (!(fixed & 4u))
					v.z = apod_cell_update(c.z, up.z, dn.z, c.w, c.y, alpha);
				if (!(fixed & 8u))
					v.w = apod_cell_update(c.w, up.w, dn.w, right, c.z, alpha);
				*reinterpret_cast<float4 *>(next + idx) = v;
				if (STATS) {
					float da = v.x - k, db = v.y - k, dc = v.z - k, dd = v.w - k;
					float s1 = (da + db) + (dc + dd);
					f1 += s1;
					f2 = fmaf(da, da, f2);
					f2 = fmaf(db, db, f2);
					f2 = fmaf(dc, dc, f2);
					f2 = fmaf(dd, dd, f2);
					float lo4 = fminf(fminf(v.x, v.y), fminf(v.z, v.w));
					float hi4 = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
					mn = fminf(mn, lo4);
					mx = fmaxf(mx, hi4);
					int bl = apod_hist_bin(lo4, lo, inv_width, nbins);
					int bh = apod_hist_bin(hi4, lo, inv_width, nbins);
					if (bl == t.run_bin && bh == bl && s1 == s1)
						t.run_len += 4;
					else {
						ts_bin(&t, apod_hist_bin(v.x, lo, inv_width, nbins), block_hist);
						ts_bin(&t, apod_hist_bin(v.y, lo, inv_width, nbins), block_hist);
						ts_bin(&t, apod_hist_bin(v.z, lo, inv_width, nbins), block_hist);
						ts_bin(&t, apod_hist_bin(v.w, lo, inv_width, nbins), block_hist);
					}
				}
			}
			up = c;
			c = dn;
		}
		if (STATS) {
			t.s1 += (double)f1;
			t.s2 += (double)f2;
		}
	}
	if (!STATS)
		return;
	if (valid && i1 > i0) {
		t.count = (int)(4 * (i1 - i0));
		t.mn = mn;
		t.mx = mx;
	}
	finish_block(&t, block_hist, parts, (size_t)blockIdx.y * gridDim.x + blockIdx.x, hist, nbins);
}

// v3: v2 with a lean loop: 32-bit rows, one 64-bit cell index advanced by
// nx a row, the column's edge facts hoisted out of the loop, the thread's
// shift and counts set after it (fewer live registers under the 40 cap).
static __device__ __forceinline__ float4 v3_update(const float *__restrict__ cur,
                                                  const unsigned *__restrict__ heater_mask, size_t idx,
                                                  unsigned fixed_cols, bool row_edge, bool load_left,
                                                  bool load_right, float4 up, float4 c, float4 dn,
                                                  float left, float right, float alpha)
{
	float4 v = c;
	unsigned fixed;
	if (load_left)
		left = cur[idx - 1];
	if (load_right)
		right = cur[idx + 4];
	fixed = (heater_mask[idx >> 5] >> (idx & 31)) & 0xfu;
	fixed |= row_edge ? 0xfu : fixed_cols;
	if (!(fixed & 1u))
		v.x = apod_cell_update(c.x, up.x, dn.x, c.y, left, alpha);
	if (!(fixed & 2u))
		v.y = apod_cell_update(c.y, up.y, dn.y, c.z, c.x, alpha);
	if (!(fixed & 4u))
		v.z = apod_cell_update(c.z, up.z, dn.z, c.w, c.y, alpha);
	if (!(fixed & 8u))
		v.w = apod_cell_update(c.w, up.w, dn.w, right, c.z, alpha);
	return v;
}

template <bool MOMENTS, bool HIST, int RUN>
static __global__ void __launch_bounds__(TUNED_THREADS, TUNED_MIN_BLOCKS) v3_fused(
	const float *__restrict__ cur, float *__restrict__ next,
	const unsigned *__restrict__ heater_mask, size_t nx, size_t ny, float alpha,
	float lo, float inv_width, int nbins, struct apod_moments *__restrict__ parts,
	unsigned *__restrict__ hist)
{
	extern __shared__ unsigned block_hist[];
	const size_t j = 4 * ((size_t)blockIdx.x * blockDim.x + threadIdx.x);
	const int i0 = (int)(ny * blockIdx.y / gridDim.y), i1 = (int)(ny * (blockIdx.y + 1) / gridDim.y);
	const int lane = threadIdx.x & 31, valid = j < nx, last = (int)ny - 1;
	const unsigned fixed_cols = (j == 0 ? 1u : 0u) | (j + 4 == nx ? 8u : 0u);
	const bool load_left = lane == 0 && j > 0, load_right = lane == 31 && j + 4 < nx;
	struct thread_stats t;
	float4 up = make_float4(0, 0, 0, 0), c = up, ahead = up;
	float k, mn = INFINITY, mx = -INFINITY;
	double s1 = 0, s2 = 0;
	int run_bin = -1;
	unsigned run_len = 0;
	size_t idx = (size_t)i0 * nx + j;

	for (int b = threadIdx.x; b < nbins; b += blockDim.x)
		block_hist[b] = 0;
	__syncthreads();
	if (valid) {
		if (i0 > 0)
			up = load4(cur + idx - nx);
		c = load4(cur + idx);
		if (i0 < last)
			ahead = load4(cur + idx + nx);
	}
	k = c.x;
	for (int r0 = i0; r0 < i1; r0 += RUN) {
		int r1 = r0 + RUN < i1 ? r0 + RUN : i1;
		float f1 = 0, f2 = 0;
		for (int i = r0; i < r1; i++, idx += nx) {
			float left = __shfl_up_sync(0xffffffffu, c.w, 1);
			float right = __shfl_down_sync(0xffffffffu, c.x, 1);
			float4 dn = ahead;
			if (valid) {
				float4 v;
				if (i + 2 <= last)
					ahead = load4(cur + idx + 2 * nx);
				v = v3_update(cur, heater_mask, idx, fixed_cols, i == 0 || i == last, load_left,
				              load_right, up, c, dn, left, right, alpha);
				*reinterpret_cast<float4 *>(next + idx) = v;
				if (MOMENTS) {
					float da = v.x - k, db = v.y - k, dc = v.z - k, dd = v.w - k;
					float q = (da + db) + (dc + dd);
					float lo4 = fminf(fminf(v.x, v.y), fminf(v.z, v.w));
					float hi4 = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
					f1 += q;
					f2 = fmaf(da, da, f2);
					f2 = fmaf(db, db, f2);
					f2 = fmaf(dc, dc, f2);
					f2 = fmaf(dd, dd, f2);
					mn = fminf(mn, lo4);
					mx = fmaxf(mx, hi4);
					if (HIST) {
						int bl = apod_hist_bin(lo4, lo, inv_width, nbins);
						int bh = apod_hist_bin(hi4, lo, inv_width, nbins);
						if (bl == run_bin && bh == bl && q == q) {
							run_len += 4;
						} else {
							int b4[4] = { apod_hist_bin(v.x, lo, inv_width, nbins),
							              apod_hist_bin(v.y, lo, inv_width, nbins),
							              apod_hist_bin(v.z, lo, inv_width, nbins),
							              apod_hist_bin(v.w, lo, inv_width, nbins) };
#pragma unroll
							for (int e = 0; e < 4; e++) {
								if (b4[e] == run_bin) {
									run_len++;
									continue;
								}
								if (run_len)
									atomicAdd(&block_hist[run_bin], run_len);
								run_bin = b4[e];
								run_len = 1;
							}
						}
					}
				}
			}
			up = c;
			c = dn;
		}
		s1 += (double)f1;
		s2 += (double)f2;
	}
	ts_init(&t);
	t.run_bin = run_bin;
	t.run_len = run_len;
	if (valid && i1 > i0) {
		t.shift = (double)k;
		t.s1 = s1;
		t.s2 = s2;
		t.count = 4 * (i1 - i0);
		t.mn = mn;
		t.mx = mx;
	}
	finish_block(&t, block_hist, parts, (size_t)blockIdx.y * gridDim.x + blockIdx.x, hist, nbins);
}

// v4: v2 with the row's other dependent loads started a row ahead as well:
// the heater-mask word and the cells beside the warp (lanes 0 and 31), so
// no load issued in an iteration is waited for in the same iteration.
template <bool STATS, int MB>
static __global__ void __launch_bounds__(512, MB) v4_fused(
	const float *__restrict__ cur, float *__restrict__ next,
	const unsigned *__restrict__ heater_mask, size_t nx, size_t ny, float alpha,
	float lo, float inv_width, int nbins, struct apod_moments *__restrict__ parts,
	unsigned *__restrict__ hist)
{
	extern __shared__ unsigned block_hist[];
	size_t j = 4 * ((size_t)blockIdx.x * blockDim.x + threadIdx.x);
	size_t i0 = ny * blockIdx.y / gridDim.y, i1 = ny * (blockIdx.y + 1) / gridDim.y;
	int lane = threadIdx.x & 31, valid = j < nx;
	const bool load_left = lane == 0 && j > 0, load_right = lane == 31 && j + 4 < nx;
	struct thread_stats t;
	float4 up = make_float4(0, 0, 0, 0), c = up, a1 = up;
	float k = 0, mn = INFINITY, mx = -INFINITY, eL = 0, eR = 0;
	unsigned mw = 0;

	for (int b = threadIdx.x; b < nbins; b += blockDim.x)
		block_hist[b] = 0;
	__syncthreads();
	ts_init(&t);
	if (valid) {
		size_t idx = i0 * nx + j;
		if (i0 > 0)
			up = load4(cur + idx - nx);
		c = load4(cur + idx);
		if (i0 + 1 < ny)
			a1 = load4(cur + idx + nx);
		if (load_left)
			eL = cur[idx - 1];
		if (load_right)
			eR = cur[idx + 4];
		mw = heater_mask[idx >> 5];
	}
	k = c.x;
	t.shift = (double)k;
	for (size_t r0 = i0; r0 < i1; r0 += SUB) {
		size_t r1 = r0 + SUB < i1 ? r0 + SUB : i1;
		float f1 = 0, f2 = 0;
		for (size_t i = r0; i < r1; i++) {
			size_t idx = i * nx + j;
			float left = __shfl_up_sync(0xffffffffu, c.w, 1);
			float right = __shfl_down_sync(0xffffffffu, c.x, 1);
			float4 v = c, dn = a1;
			if (valid) {
				unsigned fixed = (mw >> (idx & 31)) & 0xfu;
				if (load_left)
					left = eL;
				if (load_right)
					right = eR;
				if (i + 1 < ny) {
					size_t nidx = idx + nx;
					if (i + 2 < ny)
						a1 = load4(cur + nidx + nx);
					if (load_left)
						eL = cur[nidx - 1];
					if (load_right)
						eR = cur[nidx + 4];
					mw = heater_mask[nidx >> 5];
				}
				if (i == 0 || i + 1 == ny)
					fixed = 0xfu;
				if (j == 0)
					fixed |= 1u;
				if (j + 4 == nx)
					fixed |= 8u;
				if (!(fixed & 1u))
					v.x = apod_cell_update(c.x, up.x, dn.x, c.y, left, alpha);
				if (!(fixed & 2u))
					v.y = apod_cell_update(c.y, up.y, dn.y, c.z, c.x, alpha);
				if (!(fixed & 4u))
					v.z = apod_cell_update(c.z, up.z, dn.z, c.w, c.y, alpha);
				if (!(fixed & 8u))
					v.w = apod_cell_update(c.w, up.w, dn.w, right, c.z, alpha);
				*reinterpret_cast<float4 *>(next + idx) = v;
				if (STATS) {
					float da = v.x - k, db = v.y - k, dc = v.z - k, dd = v.w - k;
					float s1 = (da + db) + (dc + dd);
					f1 += s1;
					f2 = fmaf(da, da, f2);
					f2 = fmaf(db, db, f2);
					f2 = fmaf(dc, dc, f2);
					f2 = fmaf(dd, dd, f2);
					float lo4 = fminf(fminf(v.x, v.y), fminf(v.z, v.w));
					float hi4 = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
					mn = fminf(mn, lo4);
					mx = fmaxf(mx, hi4);
					int bl = apod_hist_bin(lo4, lo, inv_width, nbins);
					int bh = apod_hist_bin(hi4, lo, inv_width, nbins);
					if (bl == t.run_bin && bh == bl && s1 == s1)
						t.run_len += 4;
					else
						ts_bin4(&t, apod_hist_bin(v.x, lo, inv_width, nbins),
						        apod_hist_bin(v.y, lo, inv_width, nbins),
						        apod_hist_bin(v.z, lo, inv_width, nbins),
						        apod_hist_bin(v.w, lo, inv_width, nbins), block_hist);
				}
			}
			up = c;
			c = dn;
		}
		if (STATS) {
			t.s1 += (double)f1;
			t.s2 += (double)f2;
		}
	}
	if (valid && i1 > i0) {
		t.count = (int)(4 * (i1 - i0));
		t.mn = mn;
		t.mx = mx;
	}
	finish_block(&t, block_hist, parts, (size_t)blockIdx.y * gridDim.x + blockIdx.x, hist, nbins);
}

struct field {
	size_t nx, ny, n;
	float *d_cur, *d_next;
	unsigned *d_mask, *d_hist;
	struct apod_moments *d_parts;
	std::vector<float> init;
	std::vector<unsigned> mask;
};

struct stats {
	struct apod_moments m;
	std::vector<unsigned> hist;
};

static const int NBINS = 64;
static const float LO = 0, INVW = 64.0f / 100.0f, ALPHA = 0.24f;

template <typename K> static double run_time(int reps, K launch)
{
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	if (reps > 1)
		launch();   /* warm-up; --once launches each kernel exactly once */
	CK(cudaGetLastError());
	CK(cudaDeviceSynchronize());
	std::vector<float> v;
	for (int r = 0; r < reps; r++) {
		CK(cudaEventRecord(a));
		launch();
		CK(cudaEventRecord(b));
		CK(cudaEventSynchronize(b));
		CK(cudaGetLastError());
		float ms;
		CK(cudaEventElapsedTime(&ms, a, b));
		v.push_back(ms);
	}
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}

// reps launches back to back between one pair of events: no launch latency.
template <typename K> static double queued(int reps, K launch)
{
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	launch();
	CK(cudaDeviceSynchronize());
	CK(cudaEventRecord(a));
	for (int r = 0; r < reps; r++)
		launch();
	CK(cudaEventRecord(b));
	CK(cudaEventSynchronize(b));
	CK(cudaGetLastError());
	float ms;
	CK(cudaEventElapsedTime(&ms, a, b));
	cudaEventDestroy(a);
	cudaEventDestroy(b);
	return ms / reps;
}

static void take(struct field &f, int nparts, struct stats &s, std::vector<float> &out)
{
	std::vector<struct apod_moments> parts(nparts);
	CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(parts.data(), f.d_parts, nparts * sizeof(struct apod_moments), cudaMemcpyDeviceToHost));
	s.hist.resize(NBINS);
	CK(cudaMemcpy(s.hist.data(), f.d_hist, NBINS * 4, cudaMemcpyDeviceToHost));
	apod_moments_init(&s.m);
	for (int p = 0; p < nparts; p++)
		apod_moments_merge(&s.m, &parts[p]);
	out.resize(f.n);
	CK(cudaMemcpy(out.data(), f.d_next, f.n * 4, cudaMemcpyDeviceToHost));
}

int main(int argc, char **argv)
{
	int once = argc > 1 && !strcmp(argv[1], "--once");
	struct field f;
	f.nx = f.ny = 8192;
	f.n = f.nx * f.ny;
	cudaDeviceProp prop;
	CK(cudaGetDeviceProperties(&prop, 0));
	int sms = prop.multiProcessorCount;
	CK(cudaMalloc(&f.d_cur, f.n * 4));
	CK(cudaMalloc(&f.d_next, f.n * 4));
	CK(cudaMalloc(&f.d_mask, (f.n + 31) / 32 * 4));
	CK(cudaMalloc(&f.d_hist, NBINS * 4));
	CK(cudaMalloc(&f.d_parts, 65536 * sizeof(struct apod_moments)));
	f.mask.assign((f.n + 31) / 32, 0);
	f.init.resize(f.n);
	// The large deck's shape: 20 inside, two heater discs at 90 and 60.
	auto deck = [&](bool varied) {
		for (size_t i = 0; i < f.ny; i++)
			for (size_t j = 0; j < f.nx; j++) {
				double x = (j + 0.5) / f.nx, y = (i + 0.5) / f.ny;
				float v = 20;
				if (varied)
					v = (float)(50 + 45 * sin(9 * x) * cos(7 * y) + 4 * sin(1e3 * x * y));
				size_t idx = i * f.nx + j;
				if ((x - 0.30) * (x - 0.30) + (y - 0.60) * (y - 0.60) < 0.06 * 0.06)
					v = 90, f.mask[idx >> 5] |= 1u << (idx & 31);
				if ((x - 0.70) * (x - 0.70) + (y - 0.35) * (y - 0.35) < 0.04 * 0.04)
					v = 60, f.mask[idx >> 5] |= 1u << (idx & 31);
				if (i == 0 || j == 0 || i + 1 == f.ny || j + 1 == f.nx)
					v = 0;
				f.init[idx] = v;
			}
		CK(cudaMemcpy(f.d_cur, f.init.data(), f.n * 4, cudaMemcpyHostToDevice));
		CK(cudaMemcpy(f.d_mask, f.mask.data(), f.mask.size() * 4, cudaMemcpyHostToDevice));
	};
	int blk0 = 0, mg;
	size_t smem = NBINS * 4;
	CK(cudaOccupancyMaxPotentialBlockSize(&mg, &blk0, fused_vec4_kernel<true, true>, smem, 1024));
	size_t tx = f.nx / 4;
	if ((size_t)blk0 > tx) blk0 = (int)tx;
	dim3 g0((unsigned)((tx + blk0 - 1) / blk0), (unsigned)((f.ny + FUSED_ROWS - 1) / FUSED_ROWS));
	printf("device %s, %d SMs; v0 block %d grid %ux%u\n", prop.name, sms, blk0, g0.x, g0.y);

	struct variant {
		const char *name;
		void (*kern)(const float *, float *, const unsigned *, size_t, size_t, float, float, float, int,
		             struct apod_moments *, unsigned *);
		bool bal;
		int mb;
		int threads;
	};
	std::vector<variant> vs = {
		{ "v0 tree fused <true,true>", fused_vec4_kernel<true, true>, false, 0 },
		{ "v0 tree sweep only", fused_vec4_kernel<false, false>, false, 0 },
		{ "v0 tree sweep + moments", fused_vec4_kernel<true, false>, false, 0 },
		{ "v1 fixk fsum bal", v1_fused<true, true, true, 3>, true, 3 },
		{ "v1 bal (tree stats)", v1_fused<false, false, true, 3>, true, 3 },
		{ "v2 sweep only bal", v2_fused<false, 1, 512, 3>, true, 3, 512 },
		{ "v2 d1 t512 mb3", v2_fused<true, 1, 512, 3>, true, 3, 512 },
		{ "tree new fused_bal <1,1>", n_fused_bal_kernel<true, true>, true, 3, 512 },
		{ "tree new fused_bal <0,0>", n_fused_bal_kernel<false, false>, true, 3, 512 },
		{ "v4 ahead <1> mb3", v4_fused<true, 3>, true, 3, 512 },
		{ "v4 ahead <0> mb3", v4_fused<false, 3>, true, 3, 512 },
		{ "v4 ahead <1> mb2", v4_fused<true, 2>, true, 2, 512 },
	};
	auto shape = [&](const variant &v, int &blk) {
		blk = v.threads ? v.threads : blk0;
		dim3 g((unsigned)((tx + blk - 1) / blk), g0.y);
		if (v.bal) {
			int per;
			CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, v.kern, blk, smem));
			g.y = (unsigned)(sms * per / g.x);
		}
		return g;
	};
	// Validation on a varied field: the field bit for bit with v0's, the
	// statistics against v0's.
	if (!once) {
		deck(true);
		struct stats ref;
		std::vector<float> ref_field, got;
		for (size_t q = 0; q < vs.size(); q++) {
			auto &v = vs[q];
			int blk;
			dim3 g = shape(v, blk);
			CK(cudaMemset(f.d_hist, 0, NBINS * 4));
			CK(cudaMemset(f.d_next, 0xff, f.n * 4));
			v.kern<<<g, blk, smem>>>(f.d_cur, f.d_next, f.d_mask, f.nx, f.ny, ALPHA, LO, INVW, NBINS,
			                          f.d_parts, f.d_hist);
			CK(cudaGetLastError());
			struct stats s;
			take(f, g.x * g.y, s, got);
			if (q == 0) {
				ref = s;
				ref_field = got;
			}
			bool same = !memcmp(got.data(), ref_field.data(), f.n * 4);
			bool stats_on = strstr(v.name, "sweep") == NULL;
			bool hist_on = stats_on;
			printf("check %-28s grid %ux%u field %s", v.name, g.x, g.y, same ? "same bits" : "DIFFERS");
			if (stats_on)
				printf("  n %.0f mean %.12g (d %.2e) var %.10g (rel d %.2e) min %g max %g %s hist %s\n",
				       s.m.n, s.m.mean, s.m.mean - ref.m.mean, s.m.m2 / s.m.n,
				       (s.m.m2 - ref.m.m2) / ref.m.m2, s.m.min, s.m.max,
				       s.m.min == ref.m.min && s.m.max == ref.m.max && s.m.n == ref.m.n ? "minmax ok" : "MINMAX DIFFER",
				       hist_on && s.hist == ref.hist ? "same" : "DIFFERS");
			else
				printf("\n");
		}
	}
	// Timing on the deck's own field (20 everywhere: histogram runs long).
	deck(false);
	const int reps = once ? 1 : 20;
	int cb = 4 * sms;
	double cms = run_time(reps, [&] { copy4<<<cb, 256>>>((const float4 *)f.d_cur, (float4 *)f.d_next, f.n / 4); });
	double copy_gbs = 2.0 * f.n * 4 / (cms * 1e-3) / 1e9;
	double qcms = queued(reps, [&] { copy4<<<cb, 256>>>((const float4 *)f.d_cur, (float4 *)f.d_next, f.n / 4); });
	double qcopy_gbs = 2.0 * f.n * 4 / (qcms * 1e-3) / 1e9;
	printf("copy queued: %.4f ms %.1f GB/s\n", qcms, qcopy_gbs);
	double bytes = 2.0 * f.n * 4 + f.n / 8.0;
	printf("\n8192^2 float, median of %d, CUDA events (memset of the histogram included, as bench)\n", reps);
	printf("  %-30s %9s %9s %8s %7s\n", "kernel", "ms", "GB/s", "of copy", "grid.y");
	printf("  %-30s %9.4f %9.1f %7.1f%%\n", "copy4", cms, copy_gbs, 100.0);
	for (auto &v : vs) {
		int blk;
		dim3 g = shape(v, blk);
		double ms = run_time(reps, [&] {
			cudaMemsetAsync(f.d_hist, 0, NBINS * 4);
			v.kern<<<g, blk, smem>>>(f.d_cur, f.d_next, f.d_mask, f.nx, f.ny, ALPHA, LO, INVW, NBINS,
			                          f.d_parts, f.d_hist);
		});
		double gbs = bytes / (ms * 1e-3) / 1e9;
		double qms = queued(reps, [&] {
			cudaMemsetAsync(f.d_hist, 0, NBINS * 4);
			v.kern<<<g, blk, smem>>>(f.d_cur, f.d_next, f.d_mask, f.nx, f.ny, ALPHA, LO, INVW, NBINS,
			                          f.d_parts, f.d_hist);
		});
		double qgbs = bytes / (qms * 1e-3) / 1e9;
		printf("  %-30s %9.4f %9.1f %7.1f%% %7u   queued %9.4f %7.1f%%\n", v.name, ms, gbs, 100 * gbs / copy_gbs, g.y,
		       qms, 100 * qgbs / qcopy_gbs);
	}
	return 0;
}
