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

#include "cuda_check.h"
#include "lab.h"
#include "labs/splitmix.h"
#include "report.cuh"
#include "timing.cuh"

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
		LAUNCH_TRY((k<<<blocks, THREADS>>>(in, n, blocks == 1 ? result : out)));
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
	float *x, *a, *b, *result;
	void *cub_tmp;
	size_t cub_bytes;
};

static int run_version(int id, struct gpu_bufs *g, size_t n)
{
	unsigned blocks = (unsigned)((n + THREADS - 1) / THREADS);
	switch (id) {
	case 0:
		CUDA_TRY(cudaMemsetAsync(g->result, 0, sizeof(float)));
		LAUNCH_TRY((atomic_global_kernel<<<blocks, THREADS>>>(g->x, n, g->result)));
		return 0;
	case 1:
		CUDA_TRY(cudaMemsetAsync(g->result, 0, sizeof(float)));
		LAUNCH_TRY((atomic_shared_kernel<<<blocks, THREADS>>>(g->x, n, g->result)));
		return 0;
	case 2: return reduce_passes(tree_kernel, 1, g->x, n, g->a, g->b, g->result);
	case 3: return reduce_passes(shuffle_kernel, 1, g->x, n, g->a, g->b, g->result);
	case 4: return reduce_passes(multi_kernel, 4 * PER_THREAD4, g->x, n, g->a, g->b, g->result);
	default:
		CUDA_TRY(cub::DeviceReduce::Sum(g->cub_tmp, g->cub_bytes, g->x, g->result, (int64_t)n));
		return 0;
	}
}

static int gpu_sum(int id, struct gpu_bufs *g, size_t n, float *out)
{
	if (run_version(id, g, n))
		return -1;
	CUDA_TRY(cudaMemcpy(out, g->result, sizeof(float), cudaMemcpyDeviceToHost));
	return 0;
}

extern "C" int apod_lab_reduction(const struct apod_lab_opts *o, json_object *out)
{
	size_t n = o->check ? ((size_t)1 << 20) + 333 : (o->size ? o->size : (size_t)1 << 25);
	size_t n_exact = n < ((size_t)1 << 22) ? n : ((size_t)1 << 22);   /* sum <= 4 * 2^22 = 2^24 */
	struct gpu_bufs g = { 0 };
	float *x = (float *)malloc(n * sizeof *x), gpu[6] = { 0 };
	int verified[6], failed = 0;
	double ref = 0, exact = 0, ms[6] = { 0 };
	struct lab_table t;
	json_object *acc = json_object_new_array();

	if (n > (size_t)1 << 31)
		return apod_usage_fail("reduction: --size %zu is more than 2^31 elements", n);
	if (!x)
		return apod_fail("reduction: cannot allocate %zu floats", n);
	CUDA_TRY(cudaMalloc(&g.x, n * sizeof(float)));
	CUDA_TRY(cudaMalloc(&g.a, (n / THREADS + 1) * sizeof(float)));
	CUDA_TRY(cudaMalloc(&g.b, (n / THREADS / THREADS + 1) * sizeof(float)));
	CUDA_TRY(cudaMalloc(&g.result, sizeof(float)));
	CUDA_TRY(cub::DeviceReduce::Sum(g.cub_tmp, g.cub_bytes, g.x, g.result, (int64_t)n));
	CUDA_TRY(cudaMalloc(&g.cub_tmp, g.cub_bytes));

	/* 1. Verified: exact integer data, every version must hit the exact sum. */
	fill_exact(x, n_exact);
	for (size_t i = 0; i < n_exact; i++)
		exact += x[i];
	CUDA_TRY(cudaMemcpy(g.x, x, n_exact * sizeof(float), cudaMemcpyHostToDevice));
	for (int v = 0; v < 6; v++) {
		float s;
		if (gpu_sum(versions[v].id, &g, n_exact, &s))
			return -1;
		verified[v] = (double)s == exact;
		failed |= !verified[v];
	}

	/* 2. Timed, on random data of the full size. */
	fill_random(x, n);
	for (size_t i = 0; i < n; i++)
		ref += x[i];
	CUDA_TRY(cudaMemcpy(g.x, x, n * sizeof(float), cudaMemcpyHostToDevice));
	for (int v = 0; v < 6 && !o->check; v++) {
		if (!verified[v])
			continue;
		if (time_it(o->reps, [&] { return run_version(versions[v].id, &g, n) != 0; }, &ms[v]) ||
		    gpu_sum(versions[v].id, &g, n, &gpu[v]))
			return -1;
	}

	printf("reduction of %zu floats (%zu bytes read); checked on %zu integers whose exact sum "
	       "is %.0f\n", n, n * sizeof(float), n_exact, exact);
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
		json_object_object_add(out, "best_fraction_of_cub", json_object_new_double(ms[5] / best));
	}

	/* 3. Not associative: the same numbers, summed in different orders. */
	if (!o->check) {
		struct { const char *name; float s; } orders[] = {
			{ "host: serial, one float accumulator", sum_serial(x, n) },
			{ "host: pairwise (recursive halves)", sum_pairwise(x, n) },
			{ "host: Kahan compensated", sum_kahan(x, n) },
		};
		printf("\nthe same %zu numbers summed in float, against the double sum %.10g:\n", n, ref);
		printf("  %-40s %16s %12s\n", "order", "float sum", "rel. error");
		for (int k = 0; k < 3; k++) {
			json_object *r = json_object_new_object();
			printf("  %-40s %16.9g %12.3g\n", orders[k].name, orders[k].s,
			       fabs(orders[k].s - ref) / ref);
			json_object_object_add(r, "order", json_object_new_string(orders[k].name));
			json_object_object_add(r, "relative_error", json_object_new_double(fabs(orders[k].s - ref) / ref));
			json_object_array_add(acc, r);
		}
		for (int v = 0; v < 6; v++) {
			json_object *r = json_object_new_object();
			if (!verified[v])
				continue;
			printf("  GPU %-36s %16.9g %12.3g\n", versions[v].name, gpu[v], fabs(gpu[v] - ref) / ref);
			json_object_object_add(r, "order", json_object_new_string(versions[v].name));
			json_object_object_add(r, "relative_error", json_object_new_double(fabs(gpu[v] - ref) / ref));
			json_object_array_add(acc, r);
		}
	}
	json_object_object_add(out, "accuracy", acc);
	free(x);
	cudaFree(g.x);
	cudaFree(g.a);
	cudaFree(g.b);
	cudaFree(g.result);
	cudaFree(g.cub_tmp);
	return failed ? apod_fail("reduction: a version did not return the exact sum of exact data") : 0;
}
