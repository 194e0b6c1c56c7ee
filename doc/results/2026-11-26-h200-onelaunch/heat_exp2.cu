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
	if (threadIdx.x < MERGE_THREADS)
		for (int k = threadIdx.x; k < nparts; k += MERGE_THREADS) {
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

enum { V0, V1_1_3, V1_2_3, V1_2_2, V1_1_2, SW, NV };
static const char *vname[NV] = { "v0 tree: memset+fused+merge", "v1 one kernel, PF1 MB3",
                                 "v1 one kernel, PF2 MB3", "v1 one kernel, PF2 MB2",
                                 "v1 one kernel, PF1 MB2", "sweep alone (tree)" };

static void step(struct prob *p, int v, const float *cur, float *next, int slot, cudaStream_t s)
{
	struct step_out o = { p->d_total + slot, p->d_hout + slot * p->nbins };
	switch (v) {
	case V0:
		CK(cudaMemsetAsync(p->d_hist, 0, p->nbins * 4, s));
		fused_bal_kernel<true, true><<<p->grid, p->block, p->smem, s>>>(cur, next, p->d_mask, p->nx, p->ny,
			p->alpha, p->lo, p->inv_width, p->nbins, p->d_parts, p->d_hist);
		merge_kernel<<<1, 256, 0, s>>>(p->d_parts, (int)(p->grid.x * p->grid.y), o.total, p->d_hist, o.hist, p->nbins);
		break;
#define V1(PF, MB) v1_kernel<PF, MB><<<MB == 2 ? p->grid2 : p->grid, p->block, p->smem, s>>>(cur, next, p->d_mask, p->nx, p->ny, \
			p->alpha, p->lo, p->inv_width, p->nbins, p->d_parts, p->d_hist, p->d_arrived, o)
	case V1_1_3: V1(1, 3); break;
	case V1_2_3: V1(2, 3); break;
	case V1_2_2: V1(2, 2); break;
	case V1_1_2: V1(1, 2); break;
	case SW:
		fused_bal_kernel<false, false><<<p->grid, p->block, p->smem, s>>>(cur, next, p->d_mask, p->nx, p->ny,
			p->alpha, p->lo, p->inv_width, p->nbins, p->d_parts, p->d_hist);
		break;
	}
	CK(cudaGetLastError());
}

static void run_steps(struct prob *p, int v, int steps, cudaStream_t s)
{
	for (int k = 0; k < steps; k++)
		step(p, v, k % 2 ? p->d_b : p->d_a, k % 2 ? p->d_a : p->d_b, k % 4, s);
}

static int validate(struct prob *p)
{
	int bad = 0;
	std::vector<float> ref(p->n), got(p->n);
	struct apod_moments mr, mg;
	std::vector<unsigned> hr(p->nbins), hg(p->nbins);
	reset(p); run_steps(p, V0, 7, 0); CK(cudaDeviceSynchronize());
	CK(cudaMemcpy(ref.data(), p->d_b, p->n * 4, cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(&mr, p->d_total + 2, sizeof mr, cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(hr.data(), p->d_hout + 2 * p->nbins, p->nbins * 4, cudaMemcpyDeviceToHost));
	for (int v = V1_1_3; v <= V1_1_2; v++) {
		reset(p); CK(cudaMemset(p->d_total, 0, sizeof mr * 4)); run_steps(p, v, 7, 0); CK(cudaDeviceSynchronize());
		CK(cudaMemcpy(got.data(), p->d_b, p->n * 4, cudaMemcpyDeviceToHost));
		CK(cudaMemcpy(&mg, p->d_total + 2, sizeof mg, cudaMemcpyDeviceToHost));
		CK(cudaMemcpy(hg.data(), p->d_hout + 2 * p->nbins, p->nbins * 4, cudaMemcpyDeviceToHost));
		int fb = memcmp(ref.data(), got.data(), p->n * 4) != 0;
		int same_grid = v == V1_1_3 || v == V1_2_3;
		int mb = same_grid ? memcmp(&mr, &mg, sizeof mr) != 0
		                   : fabs(mg.mean - mr.mean) > 1e-6 * fabs(mr.mean) || mg.n != mr.n || mg.min != mr.min || mg.max != mr.max;
		int hb = memcmp(hr.data(), hg.data(), p->nbins * 4) != 0;
		printf("  validate %-28s field %s, moments %s, hist %s (n %.0f mean %.9g)\n", vname[v], fb ? "DIFFER" : "bitwise",
		       mb ? "DIFFER" : same_grid ? "bitwise" : "within 1e-6 (other grid)", hb ? "DIFFER" : "bitwise", mg.n, mg.mean);
		bad |= fb | mb | hb;
	}
	return bad;
}

static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

// Per step, in a loop of `steps` steps issued back to back (launch-bound
// or not), and as a CUDA graph of the same loop.
static void bench(struct prob *p, int steps, int reps, double copy_ms)
{
	cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
	for (int v = 0; v < NV; v++) {
		std::vector<float> t, tg;
		reset(p);
		run_steps(p, v, 4, s);
		for (int r = 0; r < reps; r++) {
			float ms;
			CK(cudaEventRecord(a, s)); run_steps(p, v, steps, s); CK(cudaEventRecord(b, s));
			CK(cudaEventSynchronize(b)); CK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms / steps);
		}
		cudaGraph_t g; cudaGraphExec_t ge;
		CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
		run_steps(p, v, steps, s);
		CK(cudaStreamEndCapture(s, &g)); CK(cudaGraphInstantiate(&ge, g, 0));
		CK(cudaGraphLaunch(ge, s));
		for (int r = 0; r < reps; r++) {
			float ms;
			CK(cudaEventRecord(a, s)); CK(cudaGraphLaunch(ge, s)); CK(cudaEventRecord(b, s));
			CK(cudaEventSynchronize(b)); CK(cudaEventElapsedTime(&ms, a, b)); tg.push_back(ms / steps);
		}
		CK(cudaGraphExecDestroy(ge)); CK(cudaGraphDestroy(g));
		double ms = median(t), msg = median(tg);
		printf("  %-30s %8.2f us a step (stream) %8.2f us (graph)  %5.1f%% / %5.1f%% of copy  %7.1f GCells/s\n",
		       vname[v], 1e3 * ms, 1e3 * msg, 100 * copy_ms / ms, 100 * copy_ms / msg, p->n / (msg * 1e6));
	}
	CK(cudaStreamDestroy(s));
}

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

int main(int argc, char **argv)
{
	size_t sizes[] = { 8192, 2048 };
	int bad = 0;
	for (size_t n : sizes) {
		struct prob p;
		setup(&p, n, n, 3);
		double cms = copy_time(&p, 30);
		printf("%zu^2: grid %u x %u, copy %.2f us (%.0f GB/s)\n", n, p.grid.x, p.grid.y, 1e3 * cms, 8.0 * p.n / (cms * 1e6));
		bad |= validate(&p);
		bench(&p, n == 8192 ? 20 : 300, n == 8192 ? 15 : 10, cms);
	}
	printf(bad ? "VALIDATION FAILED\n" : "all variants validated\n");
	return bad;
}
