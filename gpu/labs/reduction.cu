/*
 * reduction.cu: lab 7, summing n floats, in the order the sources teach.
 *
 *   1. atomics in global memory: every thread adds to one address;
 *   2. atomics in shared memory: one address per block, one global add each;
 *   3. a shared-memory tree, halving the active threads at each level;
 *   4. warp shuffles instead of shared memory inside each warp;
 *   5. several elements per thread (eight 16-byte loads) in registers, then
 *      shuffles;
 * with CUB's DeviceReduce::Sum as the yardstick.  Versions 3-5 write one
 * partial sum per block and finish with a second launch of themselves.
 *
 * Checked before timed: on integers 1..4, few enough (at most 2^22) that
 * every partial sum is exact in float, each version must return the exact
 * sum whatever its order; no value is 0, so a lost or doubled element
 * always changes the sum.  (The timed size may take one more pass than the
 * checked one; the accuracy table then shows every version's result.)  Then, on
 * random data in [0, 1), the lab shows how far float sums in different
 * orders (serial, pairwise, Kahan, each GPU version) land from a double
 * reference: floating-point addition is not associative.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cub/device/device_reduce.cuh>

#include "kit.cuh"
#include "shared/labs/splitmix.h"

#define THREADS 256
#define PER_THREAD4 8    /* version 5: 16-byte loads a thread sums before any exchange */

static __global__ void atomic_global_kernel(const float *__restrict__ x, size_t n, float *sum)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		atomicAdd(sum, x[i]);
}

static __global__ void atomic_shared_kernel(const float *__restrict__ x, size_t n, float *sum)
{
	__shared__ float block_sum;
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (threadIdx.x == 0)
		block_sum = 0;
	__syncthreads();
	if (i < n)
		atomicAdd(&block_sum, x[i]);
	__syncthreads();
	if (threadIdx.x == 0)
		atomicAdd(sum, block_sum);
}

static __global__ void tree_kernel(const float *__restrict__ x, size_t n, float *__restrict__ partial)
{
	__shared__ float s[THREADS];
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	s[threadIdx.x] = i < n ? x[i] : 0.0f;
	__syncthreads();
	/* Sequential addressing: active threads stay contiguous, no bank conflicts. */
	for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
		if (threadIdx.x < half)
			s[threadIdx.x] += s[threadIdx.x + half];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		partial[blockIdx.x] = s[0];
}

static __device__ __forceinline__ float warp_sum(float v)
{
	for (int off = 16; off > 0; off >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, off);
	return v;
}

/* Warp sums, then the warps' sums by the first warp. */
static __device__ __forceinline__ float block_sum_shfl(float v)
{
	__shared__ float warps[THREADS / 32];
	v = warp_sum(v);
	if ((threadIdx.x & 31) == 0)
		warps[threadIdx.x >> 5] = v;
	__syncthreads();
	v = threadIdx.x < THREADS / 32 ? warps[threadIdx.x] : 0.0f;
	if (threadIdx.x < 32)
		v = warp_sum(v);
	return v;
}

static __global__ void shuffle_kernel(const float *__restrict__ x, size_t n, float *__restrict__ partial)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	float v = block_sum_shfl(i < n ? x[i] : 0.0f);
	if (threadIdx.x == 0)
		partial[blockIdx.x] = v;
}

static __global__ void multi_kernel(const float *__restrict__ x, size_t n, float *__restrict__ partial)
{
	const float4 *x4 = reinterpret_cast<const float4 *>(x);
	size_t n4 = n / 4, base = (size_t)blockIdx.x * blockDim.x * PER_THREAD4 + threadIdx.x;
	float v = 0.0f;
	/* Consecutive threads read consecutive 16-byte words on every pass, and
	 * all PER_THREAD4 loads can be in flight before the first add. */
#pragma unroll
	for (int k = 0; k < PER_THREAD4; k++) {
		size_t i = base + (size_t)k * blockDim.x;
		if (i < n4) {
			float4 w = x4[i];
			v += (w.x + w.y) + (w.z + w.w);
		}
	}
	/* The last n % 4 elements, by the first block. */
	if (blockIdx.x == 0 && threadIdx.x < n % 4)
		v += x[n4 * 4 + threadIdx.x];
	v = block_sum_shfl(v);
	if (threadIdx.x == 0)
		partial[blockIdx.x] = v;
}

typedef void (*pass_kernel)(const float *, size_t, float *);

/* Reduce with a block-partial kernel until one value is left. */
static int reduce_passes(pass_kernel k, int per_thread, const float *x, size_t n, float *a, float *b,
                         float *result)
{
	const float *in = x;
	float *out = a;
	for (;;) {
		size_t per_block = (size_t)THREADS * per_thread;
		unsigned blocks = (unsigned)((n + per_block - 1) / per_block);
		APOD_LAUNCH_TRY((k<<<blocks, THREADS>>>(in, n, blocks == 1 ? result : out)));
		if (blocks == 1)
			return 0;
		in = out;
		out = out == a ? b : a;
		n = blocks;
	}
}

/* The sums on the host, in the orders the lab compares. */
static float sum_serial(const float *x, size_t n)
{
	float s = 0.0f;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s;
}

static float sum_pairwise(const float *x, size_t n)
{
	if (n <= 8)
		return sum_serial(x, n);
	return sum_pairwise(x, n / 2) + sum_pairwise(x + n / 2, n - n / 2);
}

static float sum_kahan(const float *x, size_t n)
{
	/* volatile keeps the compensation from being optimised away. */
	volatile float s = 0.0f, c = 0.0f;
	for (size_t i = 0; i < n; i++) {
		float y = x[i] - c, t = s + y;
		c = (t - s) - y;
		s = t;
	}
	return s;
}

/* Data that every order sums exactly: integers 1..4, total at most 2^24. */
static void fill_exact(float *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (float)(1 + ((uint32_t)((uint32_t)i * 2654435761u) >> 30));
}

/* Random floats in [0, 1): a splitmix64 sequence, the same on every run. */
static void fill_random(float *x, size_t n)
{
	uint64_t z = 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i < n; i++) {
		x[i] = (float)(apod_splitmix64(&z) >> 40) * (1.0f / 16777216.0f);
	}
}

struct version {
	const char *name;
	int id;   /* 0-4 the kernels above, 5 CUB */
};

static const struct version versions[] = {
	{ "1 atomics in global memory", 0 },
	{ "2 atomics in shared memory", 1 },
	{ "3 shared-memory tree", 2 },
	{ "4 warp shuffles", 3 },
	{ "5 several elements per thread", 4 },
	{ "CUB DeviceReduce::Sum", 5 },
};

struct gpu_bufs {
	dev_array<float> x, a, b, result;
	dev_array<unsigned char> cub_tmp;
	size_t cub_bytes = 0;
};

static int run_version(int id, struct gpu_bufs *g, size_t n)
{
	unsigned blocks = (unsigned)((n + THREADS - 1) / THREADS);
	switch (id) {
	case 0:
		APOD_CUDA_TRY(cudaMemsetAsync(g->result.p, 0, sizeof(float)));
		APOD_LAUNCH_TRY((atomic_global_kernel<<<blocks, THREADS>>>(g->x.p, n, g->result.p)));
		return 0;
	case 1:
		APOD_CUDA_TRY(cudaMemsetAsync(g->result.p, 0, sizeof(float)));
		APOD_LAUNCH_TRY((atomic_shared_kernel<<<blocks, THREADS>>>(g->x.p, n, g->result.p)));
		return 0;
	case 2: return reduce_passes(tree_kernel, 1, g->x.p, n, g->a.p, g->b.p, g->result.p);
	case 3: return reduce_passes(shuffle_kernel, 1, g->x.p, n, g->a.p, g->b.p, g->result.p);
	case 4: return reduce_passes(multi_kernel, 4 * PER_THREAD4, g->x.p, n, g->a.p, g->b.p, g->result.p);
	default:
		APOD_CUDA_TRY(cub::DeviceReduce::Sum(g->cub_tmp.p, g->cub_bytes, g->x.p, g->result.p, (int64_t)n));
		return 0;
	}
}

static int gpu_sum(int id, struct gpu_bufs *g, size_t n, float *out)
{
	if (run_version(id, g, n))
		return -1;
	APOD_CUDA_TRY(cudaMemcpy(out, g->result.p, sizeof(float), cudaMemcpyDeviceToHost));
	return 0;
}

/* The input, the partial sums of each pass, the result and CUB's scratch space. */
static int alloc_gpu_bufs(struct gpu_bufs *g, size_t n)
{
	if (g->x.alloc(n) || g->a.alloc(n / THREADS + 1) || g->b.alloc(n / THREADS / THREADS + 1) ||
	    g->result.alloc(1))
		return -1;
	APOD_CUDA_TRY(cub::DeviceReduce::Sum(g->cub_tmp.p, g->cub_bytes, g->x.p, g->result.p, (int64_t)n));
	return g->cub_tmp.alloc(g->cub_bytes);
}

/* What the lab found, version by version. */
struct results {
	int verified[6];
	float gpu[6];        /* each version's sum of the random data (timed runs only) */
	double ms[6];
	double exact, ref;   /* the exact data's sum; the random data's, in double */
};

/* 1. Verified: exact integer data, every version must hit the exact sum. */
static int verify_all(struct gpu_bufs *g, float *x, size_t n_exact, struct results *r, int *failed)
{
	fill_exact(x, n_exact);
	for (size_t i = 0; i < n_exact; i++)
		r->exact += x[i];
	APOD_CUDA_TRY(cudaMemcpy(g->x.p, x, n_exact * sizeof(float), cudaMemcpyHostToDevice));
	for (int v = 0; v < 6; v++) {
		float s;
		if (gpu_sum(versions[v].id, g, n_exact, &s))
			return -1;
		r->verified[v] = (double)s == r->exact;
		*failed |= !r->verified[v];
	}
	return 0;
}

/* 2. Timed, on random data of the full size. */
static int time_all(const struct apod_lab_opts *o, struct gpu_bufs *g, float *x, size_t n,
                    struct results *r)
{
	fill_random(x, n);
	for (size_t i = 0; i < n; i++)
		r->ref += x[i];
	APOD_CUDA_TRY(cudaMemcpy(g->x.p, x, n * sizeof(float), cudaMemcpyHostToDevice));
	for (int v = 0; v < 6 && !o->check; v++) {
		if (!r->verified[v])
			continue;
		if (time_it(o->reps, [&] { return run_version(versions[v].id, g, n) != 0; }, &r->ms[v]) ||
		    gpu_sum(versions[v].id, g, n, &r->gpu[v]))
			return -1;
	}
	return 0;
}

/* The main table, and the fastest hand-written version against CUB. */
static void print_table(const struct apod_lab_opts *o, json_object *out, const struct results *r, size_t n,
                        size_t n_exact)
{
	const int *verified = r->verified;
	const double *ms = r->ms;
	struct lab_table t;

	printf("reduction of %zu floats (%zu bytes read); checked on %zu integers whose exact sum "
	       "is %.0f\n", n, n * sizeof(float), n_exact, r->exact);
	lab_table_begin(&t, out, "GB/s", 0, NULL, !o->check);
	for (int v = 0; v < 6; v++)
		lab_table_row(&t, versions[v].name, verified[v], ms[v],
		              ms[v] > 0 ? n * sizeof(float) / (ms[v] * 1e-3) / 1e9 : 0, NULL);
	if (!o->check && verified[5] && ms[5] > 0) {
		printf("  fastest hand-written version against CUB: ");
		double best = 0;
		for (int v = 0; v < 5; v++)
			if (verified[v] && ms[v] > 0 && (best == 0 || ms[v] < best))
				best = ms[v];
		printf("%.1f%% of CUB's speed\n", 100 * ms[5] / best);
		lab_put(out, "best_fraction_of_cub", ms[5] / best);
	}
}

/* 3. Not associative: the same numbers, summed in different orders ("accuracy"). */
static void print_accuracy(const struct apod_lab_opts *o, json_object *out, const struct results *r,
                           const float *x, size_t n)
{
	json_object *acc = lab_array(out, "accuracy");
	double ref = r->ref;

	if (o->check)
		return;
	struct { const char *name; float s; } orders[] = {
		{ "host: serial, one float accumulator", sum_serial(x, n) },
		{ "host: pairwise (recursive halves)", sum_pairwise(x, n) },
		{ "host: Kahan compensated", sum_kahan(x, n) },
	};
	printf("\nthe same %zu numbers summed in float, against the double sum %.10g:\n", n, ref);
	printf("  %-40s %16s %12s\n", "order", "float sum", "rel. error");
	for (int k = 0; k < 3; k++) {
		json_object *row = lab_row(acc);
		printf("  %-40s %16.9g %12.3g\n", orders[k].name, orders[k].s,
		       fabs(orders[k].s - ref) / ref);
		lab_put(row, "order", orders[k].name);
		lab_put(row, "relative_error", fabs(orders[k].s - ref) / ref);
	}
	for (int v = 0; v < 6; v++) {
		json_object *row;
		if (!r->verified[v])
			continue;
		printf("  GPU %-36s %16.9g %12.3g\n", versions[v].name, r->gpu[v], fabs(r->gpu[v] - ref) / ref);
		row = lab_row(acc);
		lab_put(row, "order", versions[v].name);
		lab_put(row, "relative_error", fabs(r->gpu[v] - ref) / ref);
	}
}

extern "C" int apod_lab_reduction(const struct apod_lab_opts *o, json_object *out)
{
	size_t n = lab_size(o, (size_t)1 << 25, ((size_t)1 << 20) + 333);
	size_t n_exact = n < ((size_t)1 << 22) ? n : ((size_t)1 << 22);   /* sum <= 4 * 2^22 = 2^24 */
	struct gpu_bufs g;
	host_array<float> x;
	struct results r = {};
	int failed = 0;

	if (n > (size_t)1 << 31)
		return apod_usage_fail("reduction: --size %zu is more than 2^31 elements", n);
	if (x.alloc(n) || alloc_gpu_bufs(&g, n))
		return -1;
	if (verify_all(&g, x.p, n_exact, &r, &failed) || time_all(o, &g, x.p, n, &r))
		return -1;
	print_table(o, out, &r, n, n_exact);
	print_accuracy(o, out, &r, x.p, n);
	return failed ? apod_fail("reduction: a version did not return the exact sum of exact data") : 0;
}
