// heat_exp2.cu: issue 22, session 7.  gpu4's step as one kernel (the last
// block merges the statistics), and the fused kernel with deeper prefetch.
// v0: the tree's step: memset + fused_bal_kernel + merge_kernel (3 ops).
// v1<PF,MB>: one kernel: fused sweep + statistics, the last block merges
//     the partials (256-thread order, as merge_kernel) into an output slot
//     and clears the histogram for the next step.  PF: rows in flight.
// sw: the sweep alone (fused_bal_kernel<false,false>), copy: the limit.
// Validation: field bit for bit with v0 after 7 steps; merged row bitwise.
// nvcc -O3 -arch=sm_90 -DAPOD_REAL_FLOAT=1 -I. -Icpu/harness -Igpu/heat
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include <algorithm>

#include "tuned.cuh"
#include "kernels.cuh"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

static __global__ void copy4(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n4)
{
	for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < n4; k += (size_t)gridDim.x * blockDim.x)
		out[k] = in[k];
}

#define MERGE_THREADS 256
struct step_out {
	struct apod_moments *total;   /* merged moments */
	unsigned *hist;               /* nbins counts */
};

// The last block of the grid to finish: merge every block's partial and
// hand the histogram over.  Every thread calls it after finish_block.
static __device__ __forceinline__ void last_block_merge(const struct apod_moments *parts, int nparts,
                                                        unsigned *hist, int nbins,
                                                        unsigned *arrived, struct step_out out)
{
	__shared__ int last;
	__threadfence();
	__syncthreads();
	if (threadIdx.x == 0)
		last = atomicAdd(arrived, 1u) == (unsigned)nparts - 1;
	__syncthreads();
	if (!last)
		return;
	__threadfence();
	struct apod_moments m;
	apod_moments_init(&m);
	int mt = blockDim.x < MERGE_THREADS ? blockDim.x : MERGE_THREADS;
	if (threadIdx.x < mt)
		for (int k = threadIdx.x; k < nparts; k += mt) {
			struct apod_moments o;
			o.n = __ldcg(&parts[k].n);
			o.mean = __ldcg(&parts[k].mean);
			o.m2 = __ldcg(&parts[k].m2);
			o.min = __ldcg(&parts[k].min);
			o.max = __ldcg(&parts[k].max);
			apod_moments_merge(&m, &o);
		}
	block_merge_moments(&m);
	if (threadIdx.x == 0) {
		*out.total = m;
		*arrived = 0;
	}
	for (int b = threadIdx.x; b < nbins; b += blockDim.x) {
		out.hist[b] = __ldcg(&hist[b]);
		hist[b] = 0;
	}
}

template <int PF, int MB>
static __global__ void __launch_bounds__(TUNED_THREADS, MB) v1_kernel(
	const float *__restrict__ cur, float *__restrict__ next,
	const unsigned *__restrict__ heater_mask, size_t nx, size_t ny, float alpha,
	float lo, float inv_width, int nbins, struct apod_moments *__restrict__ parts,
	unsigned *__restrict__ hist, unsigned *arrived, struct step_out out)
{
	extern __shared__ unsigned block_hist[];
	size_t j = 4 * ((size_t)blockIdx.x * blockDim.x + threadIdx.x);
	size_t i0 = ny * blockIdx.y / gridDim.y, i1 = ny * (blockIdx.y + 1) / gridDim.y;
	int lane = threadIdx.x & 31, valid = j < nx;
	struct thread_stats t;
	float4 up, c, ahead, ahead2 = make_float4(0, 0, 0, 0);
	float k, mn = INFINITY, mx = -INFINITY;

	fused_start(cur, nx, ny, i0, j, valid, nbins, block_hist, &t, &up, &c, &ahead);
	if (PF > 1 && valid && i0 + 2 < ny)
		ahead2 = load4(cur + (i0 + 2) * nx + j);
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
				if (PF > 1) {
					ahead = ahead2;
					if (i + 3 < ny)
						ahead2 = load4(cur + idx + 3 * nx);
				} else if (i + 2 < ny) {
					ahead = load4(cur + idx + 2 * nx);
				}
				v = vec4_update(cur, heater_mask, nx, ny, i, j, lane, up, c, dn, left, right, alpha);
				*reinterpret_cast<float4 *>(next + idx) = v;
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
				int bl = heat_hist_bin(lo4, lo, inv_width, nbins);
				int bh = heat_hist_bin(hi4, lo, inv_width, nbins);
				if (bl == t.run_bin && bh == bl && s1 == s1)
					t.run_len += 4;
				else
					ts_bin4(&t, heat_hist_bin(v.x, lo, inv_width, nbins),
					        heat_hist_bin(v.y, lo, inv_width, nbins),
					        heat_hist_bin(v.z, lo, inv_width, nbins),
					        heat_hist_bin(v.w, lo, inv_width, nbins), block_hist);
			}
			up = c;
			c = dn;
		}
		t.s1 += (double)f1;
		t.s2 += (double)f2;
	}
	if (valid && i1 > i0) {
		t.count = (int)(4 * (i1 - i0));
		t.mn = mn;
		t.mx = mx;
	}
	finish_block(&t, block_hist, parts, (size_t)blockIdx.y * gridDim.x + blockIdx.x, hist, nbins);
	last_block_merge(parts, (int)(gridDim.x * gridDim.y), hist, nbins, arrived, out);
}

struct prob {
	size_t nx, ny, n;
	float *d_a, *d_b, *d_a0;
	unsigned *d_mask, *d_hist, *d_arrived, *d_hout;
	struct apod_moments *d_parts, *d_total;
	int nbins = 64;
	float alpha = 0.24f, lo = 0.f, inv_width = 64.f / 100.f;
	dim3 block, grid, grid2;   /* grid2: two blocks an SM */
	size_t smem;
};

static void setup(struct prob *p, size_t nx, size_t ny, int per_sm)
{
	p->nx = nx; p->ny = ny; p->n = nx * ny;
	std::vector<float> f(p->n, 20.f);
	for (size_t j = 0; j < nx; j++) { f[j] = 100.f; f[(ny - 1) * nx + j] = 0.f; }
	for (size_t i = 0; i < ny; i++) { f[i * nx] = 0.f; f[i * nx + nx - 1] = 0.f; }
	size_t words = (p->n + 31) / 32;
	std::vector<unsigned> mask(words, 0);
	// a heater disc at (0.3, 0.6), radius 0.06 of nx, 90 degrees
	double cx = 0.3 * nx, cy = 0.6 * ny, r = 0.06 * nx;
	for (size_t i = 1; i + 1 < ny; i++)
		for (size_t j = 1; j + 1 < nx; j++)
			if ((j - cx) * (j - cx) + (i - cy) * (i - cy) <= r * r) {
				f[i * nx + j] = 90.f;
				mask[(i * nx + j) >> 5] |= 1u << ((i * nx + j) & 31);
			}
	CK(cudaMalloc(&p->d_a, p->n * 4)); CK(cudaMalloc(&p->d_b, p->n * 4)); CK(cudaMalloc(&p->d_a0, p->n * 4));
	CK(cudaMemcpy(p->d_a0, f.data(), p->n * 4, cudaMemcpyHostToDevice));
	CK(cudaMalloc(&p->d_mask, words * 4));
	CK(cudaMemcpy(p->d_mask, mask.data(), words * 4, cudaMemcpyHostToDevice));
	p->smem = p->nbins * 4;
	p->block = dim3(512);
	unsigned gx = (unsigned)((nx / 4 + 511) / 512);
	int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	unsigned rows = (unsigned)(sms * per_sm) / gx;
	if (rows < 1) rows = 1;
	if (rows > ny) rows = (unsigned)ny;
	p->grid = dim3(gx, rows);
	p->grid2 = dim3(gx, std::max(1u, std::min((unsigned)ny, (unsigned)(sms * 2) / gx)));
	CK(cudaMalloc(&p->d_parts, sizeof(struct apod_moments) * gx * rows * 2));
	CK(cudaMalloc(&p->d_total, sizeof(struct apod_moments) * 4));
	CK(cudaMalloc(&p->d_hist, p->nbins * 4)); CK(cudaMemset(p->d_hist, 0, p->nbins * 4));
	CK(cudaMalloc(&p->d_hout, p->nbins * 4 * 4));
	CK(cudaMalloc(&p->d_arrived, 4)); CK(cudaMemset(p->d_arrived, 0, 4));
}

static void reset(struct prob *p)
{
	CK(cudaMemcpy(p->d_a, p->d_a0, p->n * 4, cudaMemcpyDeviceToDevice));
	CK(cudaMemcpy(p->d_b, p->d_a0, p->n * 4, cudaMemcpyDeviceToDevice));
}


// calcSummaryData in slices: grid (zones, S); each block sums a slice of a
// zone's rows in double, the last slice to finish sums the S partials in
// order (repeatable) and writes the mean.
static __global__ void zones_sliced_kernel(const float *__restrict__ f, size_t nx, size_t ny, int zones_x,
                                           int zones_y, double *__restrict__ parts, unsigned *arrived,
                                           double *__restrict__ means)
{
	int z = blockIdx.x, zr = z / zones_x, zc = z % zones_x, S = gridDim.y;
	size_t r0 = (size_t)zr * ny / zones_y, r1 = (size_t)(zr + 1) * ny / zones_y;
	size_t c0 = (size_t)zc * nx / zones_x, c1 = (size_t)(zc + 1) * nx / zones_x;
	size_t s0 = r0 + (r1 - r0) * blockIdx.y / S, s1 = r0 + (r1 - r0) * (blockIdx.y + 1) / S;
	double s = 0.0;
	for (size_t r = s0; r < s1; r++)
		for (size_t c = c0 + threadIdx.x; c < c1; c += blockDim.x)
			s += (double)f[r * nx + c];
	s = block_sum(s);
	__shared__ int last;
	if (threadIdx.x == 0) {
		parts[(size_t)z * S + blockIdx.y] = s;
		__threadfence();
		last = atomicAdd(&arrived[z], 1u) == (unsigned)S - 1;
	}
	__syncthreads();
	if (last && threadIdx.x == 0) {
		double t = 0.0;
		__threadfence();
		for (int k = 0; k < S; k++)
			t += __ldcg(&parts[(size_t)z * S + k]);
		means[z] = t / (double)((r1 - r0) * (c1 - c0));
		arrived[z] = 0;
	}
}

static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

static double copy_time(struct prob *p, int reps)
{
	cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
	std::vector<float> t;
	int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	for (int r = 0; r < reps + 3; r++) {
		float ms;
		CK(cudaEventRecord(a)); copy4<<<sms * 8, 256>>>((const float4 *)p->d_a, (float4 *)p->d_b, p->n / 4);
		CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); CK(cudaEventElapsedTime(&ms, a, b));
		if (r >= 3) t.push_back(ms);
	}
	return median(t);
}

// Time `fn` issued `steps` times, captured as one graph: us a step.
template <class F> static double graph_us(int steps, int reps, F fn)
{
	cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
	cudaGraph_t g; cudaGraphExec_t ge;
	CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
	for (int k = 0; k < steps; k++) fn(k, s);
	CK(cudaStreamEndCapture(s, &g)); CK(cudaGraphInstantiate(&ge, g, 0));
	CK(cudaGraphLaunch(ge, s));
	std::vector<float> t;
	for (int r = 0; r < reps; r++) {
		float ms;
		CK(cudaEventRecord(a, s)); CK(cudaGraphLaunch(ge, s)); CK(cudaEventRecord(b, s));
		CK(cudaEventSynchronize(b)); CK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms);
	}
	CK(cudaGraphExecDestroy(ge)); CK(cudaGraphDestroy(g)); CK(cudaStreamDestroy(s));
	return 1e3 * median(t) / steps;
}

static dim3 shape(struct prob *p, unsigned block, int per_sm)
{
	int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	unsigned gx = (unsigned)((p->nx / 4 + block - 1) / block);
	unsigned rows = (unsigned)(sms * per_sm) / gx;
	rows = std::max(1u, std::min((unsigned)p->ny, rows));
	return dim3(gx, rows);
}

int main(int argc, char **argv)
{
	size_t sizes[] = { 2048, 8192 };
	for (size_t n : sizes) {
		struct prob p;
		setup(&p, n, n, 3);
		reset(&p);
		double cus = 1e3 * copy_time(&p, 30);
		int steps = n == 2048 ? 300 : 20;
		printf("%zu^2: copy %.2f us (%.0f GB/s); us a step in a graph of %d\n", n, cus, 8.0 * p.n / (cus * 1e3), steps);
		struct cfg { unsigned block; int per_sm; } cfgs[] = { {512,1},{512,2},{512,3},{256,2},{256,4},{256,6},{128,4},{128,8},{128,12},{64,8},{64,16},{64,24} };
		for (auto c : cfgs) {
			dim3 g = shape(&p, c.block, c.per_sm), b(c.block);
			double t_sw = graph_us(steps, 10, [&](int k, cudaStream_t s) {
				fused_bal_kernel<false, false><<<g, b, p.smem, s>>>(k % 2 ? p.d_b : p.d_a, k % 2 ? p.d_a : p.d_b, p.d_mask, p.nx, p.ny,
					p.alpha, p.lo, p.inv_width, p.nbins, p.d_parts, p.d_hist); CK(cudaGetLastError()); });
			double t1 = graph_us(steps, 10, [&](int k, cudaStream_t s) {
				struct step_out o = { p.d_total, p.d_hout };
				v1_kernel<1, 2><<<g, b, p.smem, s>>>(k % 2 ? p.d_b : p.d_a, k % 2 ? p.d_a : p.d_b, p.d_mask, p.nx, p.ny,
					p.alpha, p.lo, p.inv_width, p.nbins, p.d_parts, p.d_hist, p.d_arrived, o); CK(cudaGetLastError()); });
			double t2 = graph_us(steps, 10, [&](int k, cudaStream_t s) {
				struct step_out o = { p.d_total, p.d_hout };
				v1_kernel<2, 2><<<g, b, p.smem, s>>>(k % 2 ? p.d_b : p.d_a, k % 2 ? p.d_a : p.d_b, p.d_mask, p.nx, p.ny,
					p.alpha, p.lo, p.inv_width, p.nbins, p.d_parts, p.d_hist, p.d_arrived, o); CK(cudaGetLastError()); });
			double t3 = c.per_sm * c.block <= 1536 ? graph_us(steps, 10, [&](int k, cudaStream_t s) {
				struct step_out o = { p.d_total, p.d_hout };
				v1_kernel<1, 3><<<g, b, p.smem, s>>>(k % 2 ? p.d_b : p.d_a, k % 2 ? p.d_a : p.d_b, p.d_mask, p.nx, p.ny,
					p.alpha, p.lo, p.inv_width, p.nbins, p.d_parts, p.d_hist, p.d_arrived, o); CK(cudaGetLastError()); }) : 0;
			printf("  block %3u x %2d an SM, grid %4u x %4u (%5.1f rows a thread): sweep %7.2f  v1<1,2> %7.2f  v1<2,2> %7.2f  v1<1,3> %7.2f us;  best %.1f%% of copy\n",
			       c.block, c.per_sm, g.x, g.y, (double)n / g.y, t_sw, t1, t2, t3, 100 * cus / std::min(t1, std::min(t2, t3 > 0 ? t3 : 1e9)));
		}
		// calcSummaryData
		int zx = n == 2048 ? 8 : 16, nz = zx * zx;
		double *d_means, *d_zparts; unsigned *d_zarr;
		CK(cudaMalloc(&d_means, nz * 8)); CK(cudaMalloc(&d_zparts, (size_t)nz * 64 * 8));
		CK(cudaMalloc(&d_zarr, nz * 4)); CK(cudaMemset(d_zarr, 0, nz * 4));
		std::vector<double> ref(nz), got(nz);
		zones_kernel<<<nz, 256>>>(p.d_a, p.nx, p.ny, zx, zx, d_means); CK(cudaGetLastError());
		CK(cudaMemcpy(ref.data(), d_means, nz * 8, cudaMemcpyDeviceToHost));
		double tz = graph_us(10, 10, [&](int k, cudaStream_t s) {
			zones_kernel<<<nz, 256, 0, s>>>(p.d_a, p.nx, p.ny, zx, zx, d_means); CK(cudaGetLastError()); });
		printf("  zones_kernel (%d zones, one block each): %.2f us\n", nz, tz);
		int Ss[] = { 2, 4, 8, 16, 32, 64 };
		for (int S : Ss) {
			double tzs = graph_us(10, 10, [&](int k, cudaStream_t s) {
				zones_sliced_kernel<<<dim3(nz, S), 256, 0, s>>>(p.d_a, p.nx, p.ny, zx, zx, d_zparts, d_zarr, d_means); CK(cudaGetLastError()); });
			CK(cudaDeviceSynchronize());
			CK(cudaMemcpy(got.data(), d_means, nz * 8, cudaMemcpyDeviceToHost));
			double md = 0; for (int z = 0; z < nz; z++) md = std::max(md, fabs(got[z] - ref[z]) / fabs(ref[z]));
			printf("  zones_sliced S=%2d: %.2f us (max rel diff to zones_kernel %.2e)\n", S, tzs, md);
		}
	}
	return 0;
}
