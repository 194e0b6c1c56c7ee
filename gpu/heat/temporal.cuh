/*
 * temporal.cuh: gpu5's kernel, T time steps fused per pass over the grid,
 * with every step's statistics computed inside the tile.
 *
 * A warp owns a strip of 128 columns (four a lane, 16-byte accesses) and
 * marches down a chunk of rows.  The T steps form a pipeline in registers:
 * while row r is loaded, level k (k = 1..T) computes row r-k of step k from
 * the three rows of step k-1 it keeps, and passes it on.  Neighbours across
 * a lane come by shuffle; the outermost ceil(T/4) lanes on each side are a
 * halo that goes wrong by one column a level and is recomputed by the
 * neighbouring strip; each chunk starts T rows early and ends T rows late
 * for the same reason.  Only step T's rows are written back: one read and
 * one write of the field per T steps.
 *
 * Statistics: each lane folds the cells it owns at each level into that
 * level's shifted sums (in float over at most a few rows, then in double
 * in shared memory, as gpu4's fused_bal_kernel does), min and max;
 * the histogram counts runs, and a run goes on while all four new values
 * lie inside the run's bin interval, which a table of exact bin edges
 * (heat_hist_edges) turns into two compares.  A lane whose values leave the
 * interval takes the exact path (heat_hist_bin) one iteration later, after
 * the next stencils, so the branch never waits on the compares.  Halo lanes
 * compute statistics too (it keeps the steady loop free of masks); theirs
 * are dropped at the end and never reach the shared histogram.
 *
 * Fixed cells (edges, heaters, anything outside the grid) come from a bit
 * mask, four bits a row, carried down the pipeline in a shift register.
 * The stencil is heat_cell_update with serial's arguments, so the field is
 * serial's bit for bit under --disable-fmad.  Float only, nx % 4 == 0.
 */
#ifndef APOD_GPU_TEMPORAL_CUH
#define APOD_GPU_TEMPORAL_CUH

#include "shared/heat/cell.h"
#include "shared/heat/hist.h"
#include "reduce.cuh"
#include "shared/stats.h"

#define TEMPORAL_WARPS 4
#define TEMPORAL_MAX_DEPTH 12

#ifdef APOD_REAL_FLOAT
/* A thread's float sums reach its double ones every this many rows of the
 * chunk's middle; with the T rows before and after, a float sum covers at
 * most 16 + 2T rows, 96 values at depth 4, fewer than gpu4's 128 (the
 * error argument at FUSED_RUN in tuned.cuh: the mean moves by at most
 * 96 u R = 5.7e-6 R, inside the gate's atol from 20 steps on). */
#define TEMPORAL_FLUSH_ROWS 16
/* Shared memory ahead of the bin edges, in 32-bit words: the threads'
 * double sums, two a level a thread. */
#define TEMPORAL_ACC_WORDS(T) (4 * (T) * TEMPORAL_WARPS * 32)

/* Halo lanes a side and output columns of a strip at depth T. */
#define TEMPORAL_HALO_LANES(T) (((T) + 3) / 4)
#define TEMPORAL_STRIP_COLS(T) (128 - 8 * TEMPORAL_HALO_LANES(T))

/* Exact path of the histogram: add the four values of a level to its run. */
static __device__ __forceinline__ void temporal_bins4(float4 o, int *rb, unsigned *rl, int nbins,
                                                      unsigned *h, float lo, float iw)
{
	const int b[4] = { heat_hist_bin(o.x, lo, iw, nbins), heat_hist_bin(o.y, lo, iw, nbins),
	                   heat_hist_bin(o.z, lo, iw, nbins), heat_hist_bin(o.w, lo, iw, nbins) };
	int cb = *rb;
	unsigned cl = *rl;
#pragma unroll
	for (int v = 0; v < 4; v++) {
		if (b[v] == cb) {
			cl++;
			continue;
		}
		if (cl)
			atomicAdd(&h[cb], cl);
		cb = b[v];
		cl = 1;
	}
	*rb = cb;
	*rl = cl;
}

/*
 * One pass: T steps from in to out.  With STATS, level k's statistics (step
 * k+1 of the pass) go to parts[k * nparts + warp] and hist[k * nbins + bin].
 * edges2[b] = (lowest value of bin b, lowest of bin b+1); edges2[nbins] is an
 * empty interval, the run state before the first value.
 *
 * Its length is its unrolling, and it is kept whole on purpose: the T
 * levels' rows (hu, hc), fixed-cell bits, float sums, minima, maxima and
 * histogram runs are arrays indexed only by unrolled loops, so that they
 * live in registers; the lambdas below share them by capture.  Device
 * functions taking them by reference would leave whether they stay in
 * registers (not local memory) to the inliner, and the fused pass is worth
 * what it is only while they do.
 */
template <int T, bool STATS, int MINB>
static __global__ void __launch_bounds__(TEMPORAL_WARPS * 32, MINB) temporal_kernel(
	const float *__restrict__ in, float *__restrict__ out, const unsigned *__restrict__ mask,
	int nx, int ny, int chunk, int nstrips, float alpha, float lo, float iw, int nbins,
	const float2 *__restrict__ edges2, struct apod_moments *__restrict__ parts, int nparts,
	unsigned *__restrict__ hist)
{
	extern __shared__ __align__(16) unsigned temporal_smem[];
	float2 *es2 = reinterpret_cast<float2 *>(temporal_smem + TEMPORAL_ACC_WORDS(T));   /* nbins + 1 */
	unsigned *hs = temporal_smem + TEMPORAL_ACC_WORDS(T) + 2 * (nbins + 1);          /* T * nbins */
	constexpr int HL = TEMPORAL_HALO_LANES(T), OUTW = TEMPORAL_STRIP_COLS(T);
	const unsigned full = 0xffffffffu;
	const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
	const int strip = blockIdx.x * TEMPORAL_WARPS + warp;
	const long j = (long)strip * OUTW - 4 * HL + 4 * lane;
	const bool ingrid = strip < nstrips && j >= 0 && j + 4 <= nx;
	const bool owned = ingrid && lane >= HL && lane < 32 - HL;
	const unsigned ownmask = owned ? ~0u : 0u;
	const int i0 = blockIdx.y * chunk, i1 = min(i0 + chunk, ny);
	const unsigned edgebits = (j == 0 ? 1u : 0u) | (j + 4 == nx ? 8u : 0u);
	/* Float sums of a few rows' deviations, added to the thread's double
	 * sums in shared memory every TEMPORAL_FLUSH_ROWS rows: no conversion
	 * or double add per row, two registers a level fewer. */
	float f1[T], f2[T];
	double *acc = reinterpret_cast<double *>(temporal_smem);     /* 2 T blockDim */
	float mn[T], mx[T], K = 0;
	int rb[T];
	unsigned rl[T];

	if (STATS) {
		for (int b = threadIdx.x; b < T * nbins; b += blockDim.x)
			hs[b] = 0;
		for (int b = threadIdx.x; b <= nbins; b += blockDim.x)
			es2[b] = edges2[b];
		__syncthreads();
	}
#pragma unroll
	for (int k = 0; k < T; k++) {
		f1[k] = f2[k] = 0;
		if (STATS)
			acc[2 * k * blockDim.x + threadIdx.x] = acc[(2 * k + 1) * blockDim.x + threadIdx.x] = 0;
		mn[k] = INFINITY;
		mx[k] = -INFINITY;
		rb[k] = nbins;
		rl[k] = 0;
	}
	if (strip < nstrips) {
		float4 hu[T], hc[T], last_prev;
		const float4 z = make_float4(0, 0, 0, 0);
		unsigned long long msk = ~0ull;  /* bits 4k..4k+3: fixed cells of row r-k */
		float4 q0 = z, q1 = z;           /* two rows in flight ahead of the one in use */
		unsigned m0 = 0xf, m1 = 0xf, pending = 0;

#pragma unroll
		for (int k = 0; k < T; k++)
			hu[k] = hc[k] = z;
		last_prev = z;
		auto fetch = [&](int r, float4 &v, unsigned &mb) {
			v = z;
			mb = 0xf;
			if (ingrid && r >= 0 && r < ny) {
				size_t idx = (size_t)r * nx + j;
				v = __ldg(reinterpret_cast<const float4 *>(in + idx));
				mb = (r == 0 || r == ny - 1)
					     ? 0xfu
					     : (((__ldg(mask + (idx >> 5)) >> (idx & 31)) & 0xfu) | edgebits);
			}
		};
		/* The exact histogram path for the levels flagged in `slow`: their
		 * rows are in hu (the previous iteration's) or hc (this one's). */
		auto slow_path = [&](unsigned slow, const bool prev, const float4 &last) {
#pragma unroll
			for (int k = 0; k < T; k++)
				if (slow & (1u << k)) {
					const float4 o = k < T - 1 ? (prev ? hu[k + 1] : hc[k + 1]) : last;
					int b = rb[k] == nbins ? -1 : rb[k];
					temporal_bins4(o, &b, &rl[k], nbins, hs + k * nbins, lo, iw);
					rb[k] = b;
				}
		};
		auto flush = [&]() {
			if constexpr (STATS) {
#pragma unroll
				for (int k = 0; k < T; k++) {
					acc[2 * k * blockDim.x + threadIdx.x] += (double)f1[k];
					acc[(2 * k + 1) * blockDim.x + threadIdx.x] += (double)f2[k];
					f1[k] = f2[k] = 0;
				}
			}
		};
		auto body = [&](int r, const bool steady) {
			float4 nw = q0;
			msk = (msk << 4) | m0;
			q0 = q1;
			m0 = m1;
			fetch(r + 2, q1, m1);
			if (!steady && r == i0)
				K = nw.x;   /* one shift for every level: the cell at the chunk's top */
#pragma unroll
			for (int k = 0; k < T; k++) {
				const float4 up = hu[k], c = hc[k], dn = nw;
				float4 o = c;
				/* In the first rows of a chunk a level has nothing valid yet. */
				if (steady || r >= i0 - T + 2 * k + 2) {
					float left = __shfl_up_sync(full, c.w, 1);
					float right = __shfl_down_sync(full, c.x, 1);
					const unsigned f = (unsigned)(msk >> (4 * (k + 1))) & 0xfu;
					o.x = (f & 1u) ? c.x : heat_cell_update(c.x, up.x, dn.x, c.y, left, alpha);
					o.y = (f & 2u) ? c.y : heat_cell_update(c.y, up.y, dn.y, c.z, c.x, alpha);
					o.z = (f & 4u) ? c.z : heat_cell_update(c.z, up.z, dn.z, c.w, c.y, alpha);
					o.w = (f & 8u) ? c.w : heat_cell_update(c.w, up.w, dn.w, right, c.z, alpha);
				}
				hu[k] = hc[k];
				hc[k] = nw;
				nw = o;
			}
			{
				const int row = r - T;
				if ((steady || (row >= i0 && row < i1)) && owned)
					*reinterpret_cast<float4 *>(out + (size_t)row * nx + j) = nw;
			}
			if (!STATS)
				return;
			if (pending)
				slow_path(pending, true, last_prev);
			unsigned slow = 0;
#pragma unroll
			for (int k = 0; k < T; k++) {
				const float4 o = k < T - 1 ? hc[k + 1] : nw;
				const int row = r - k - 1;
				if (!(steady || (row >= i0 && row < i1)))   /* warp-uniform */
					continue;
				float da = o.x - K, db = o.y - K, dc = o.z - K, dd = o.w - K;
				float sum = (da + db) + (dc + dd);
				float lo4 = fminf(fminf(o.x, o.y), fminf(o.z, o.w));
				float hi4 = fmaxf(fmaxf(o.x, o.y), fmaxf(o.z, o.w));
				const float2 e = es2[rb[k]];
				/* sum is NaN if a value is: then the exact path bins it */
				const bool fast = lo4 >= e.x && hi4 < e.y && sum == sum;
				f1[k] += sum;
				f2[k] = fmaf(dd, dd, fmaf(dc, dc, fmaf(db, db, fmaf(da, da, f2[k]))));
				mn[k] = fminf(mn[k], lo4);
				mx[k] = fmaxf(mx[k], hi4);
				rl[k] += fast ? 4u : 0u;
				slow |= fast ? 0u : 1u << k;
			}
			pending = slow & ownmask;
			last_prev = nw;
		};
		fetch(i0 - T, q0, m0);
		fetch(i0 - T + 1, q1, m1);
		int r = i0 - T;
		for (; r < i0 + T; r++)
			body(r, false);
		while (r <= i1) {   /* every level's row inside the chunk */
			const int stop = min(r + TEMPORAL_FLUSH_ROWS, i1 + 1);
			for (; r < stop; r++)
				body(r, true);
			flush();
		}
		for (; r < i1 + T; r++)
			body(r, false);
		if (STATS && pending)
			slow_path(pending, false, last_prev);
		flush();
	}
	if (!STATS)
		return;
	{
		const double cnt = owned ? 4.0 * (i1 - i0) : 0.0;
		const int part = blockIdx.y * gridDim.x * TEMPORAL_WARPS + strip;
#pragma unroll
		for (int k = 0; k < T; k++) {
			struct apod_moments m;
			const double s1k = acc[2 * k * blockDim.x + threadIdx.x];
			const double s2k = acc[(2 * k + 1) * blockDim.x + threadIdx.x];
			if (cnt > 0) {
				/* as ts_moments: the shift is exactly representable */
				double kk = (double)K;
				m.n = cnt;
				m.mean = kk + s1k / cnt;
				m.m2 = s2k - s1k * s1k / cnt;
				m.min = mn[k];
				m.max = mx[k];
			} else {
				apod_moments_init(&m);
			}
			warp_merge_moments(&m);
			if (lane == 0)
				parts[(size_t)k * nparts + part] = m;
			if (owned && rl[k])
				atomicAdd(&hs[k * nbins + rb[k]], rl[k]);
		}
	}
	__syncthreads();
	for (int b = threadIdx.x; b < T * nbins; b += blockDim.x)
		if (hs[b])
			atomicAdd(&hist[b], hs[b]);
}
#endif

/* Level k's parts -> total[k], one block a level, in a fixed order. */
static __global__ void temporal_merge_kernel(const struct apod_moments *__restrict__ parts,
                                             int nparts, struct apod_moments *__restrict__ total)
{
	block_merge_parts(parts + (size_t)blockIdx.x * nparts, nparts, &total[blockIdx.x]);
}

#endif
