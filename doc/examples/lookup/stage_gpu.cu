/*
 * stage_gpu.cu: the lookups on the device, the operations of the gpu stage
 * that stages.c describes.  The table (and the grid) is
 * uploaded once in create and stays there; a batch is one thread a lookup
 * (a grid-stride loop), each block adding its threads' sums, then one
 * block adding the blocks' and the batch to the running totals, which stay
 * on the device: the probe after the last batch brings home 24 bytes.
 *
 * Every lookup is computed to the bits the host computes (lookup_one, from
 * lookup.h, compiled with -fmad=false: no contraction), so the checksum is
 * the host's exactly; only the sums' order differs, within the tolerance
 * workload.c designs.  No floating-point atomics: the trees below are fixed,
 * so a run gives the same sums every time, and any architecture has them.
 */
#include <stdlib.h>

#include <apod/cuda.h>
#include <apod/ready_made.h>
#include <apod/cuda_ceilings.cuh>

#include "lookup.h"

#define BLOCK 256             /* threads a block, a power of two (the tree below) */
#define MAX_BLOCKS 1024       /* at most: partial sums a batch */

struct gpu {
	struct lookup_problem dev;     /* the problem's scalars, with the device's pointers */
	struct lookup_sum *d_partial;  /* one per block */
	struct lookup_sum *d_total;    /* the running totals */
	unsigned blocks;
};

/* The block's sums added in a fixed tree; thread 0 gets the result. */
static __device__ struct lookup_sum block_sum(struct lookup_sum s)
{
	__shared__ unsigned long long hash[BLOCK];
	__shared__ double value[BLOCK], slope[BLOCK];
	unsigned t = threadIdx.x;
	hash[t] = s.hash;
	value[t] = s.value;
	slope[t] = s.slope;
	__syncthreads();
	for (unsigned half = BLOCK / 2; half > 0; half /= 2) {
		if (t < half) {
			hash[t] += hash[t + half];
			value[t] += value[t + half];
			slope[t] += slope[t + half];
		}
		__syncthreads();
	}
	s.hash = hash[0];
	s.value = value[0];
	s.slope = slope[0];
	return s;
}

static __global__ void batch_kernel(struct lookup_problem pb, long first, long last,
                                    struct lookup_sum *partial)
{
	long stride = (long)gridDim.x * blockDim.x;
	struct lookup_sum s = { 0, 0, 0 };
	for (long q = first + (long)blockIdx.x * blockDim.x + threadIdx.x; q < last; q += stride)
		lookup_one(LOOKUP_ARGS(&pb), q, &s);
	s = block_sum(s);
	if (threadIdx.x == 0)
		partial[blockIdx.x] = s;
}

/* One block: the blocks' sums, added to the running totals. */
static __global__ void total_kernel(const struct lookup_sum *partial, unsigned count,
                                    struct lookup_sum *total)
{
	struct lookup_sum s = { 0, 0, 0 };
	for (unsigned b = threadIdx.x; b < count; b += blockDim.x) {
		s.hash += partial[b].hash;
		s.value += partial[b].value;
		s.slope += partial[b].slope;
	}
	s = block_sum(s);
	if (threadIdx.x == 0) {
		total->hash += s.hash;
		total->value += s.value;
		total->slope += s.slope;
	}
}

static void gpu_destroy(void *ctx)
{
	struct gpu *g = (struct gpu *)ctx;
	apod_cuda_free(g->dev.energy, g->dev.value, g->dev.cell_start, g->d_partial, g->d_total);
	free(g);
}

static int gpu_setup(void *ctx, const void *problem)
{
	struct gpu *g = (struct gpu *)ctx;
	const struct lookup_problem *pb = (const struct lookup_problem *)problem;
	size_t table = (size_t)pb->n * sizeof(double), grid = (size_t)pb->cells * sizeof(long);
	long blocks = (pb->per_batch + BLOCK - 1) / BLOCK;
	g->dev = *pb;
	g->dev.energy = g->dev.value = NULL;
	g->dev.cell_start = NULL;
	g->blocks = (unsigned)(blocks < MAX_BLOCKS ? blocks : MAX_BLOCKS);
	if (apod_cuda_require("gpu", 2 * table + grid + (g->blocks + 1) * sizeof(struct lookup_sum)))
		return -1;
	APOD_CUDA_TRY(cudaMalloc((void **)&g->dev.energy, table));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->dev.value, table));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->dev.cell_start, grid));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_partial, g->blocks * sizeof(struct lookup_sum)));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_total, sizeof(struct lookup_sum)));
	APOD_CUDA_TRY(cudaMemcpy(g->dev.energy, pb->energy, table, cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemcpy(g->dev.value, pb->value, table, cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemcpy(g->dev.cell_start, pb->cell_start, grid, cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemset(g->d_total, 0, sizeof(struct lookup_sum)));
	return 0;
}

static void *gpu_create(const struct apod_stage *s, const void *problem)
{
	(void)s;
	return apod_state_create(problem, sizeof(struct gpu), "lookup: gpu", gpu_setup, gpu_destroy);
}

static int gpu_batch(void *ctx, int phase, long step, long steps)
{
	struct gpu *g = (struct gpu *)ctx;
	long first, last;
	(void)phase;   /* the one phase, lookups */
	(void)steps;
	lookup_batch_range(&g->dev, step, &first, &last);
	APOD_LAUNCH_TRY((batch_kernel<<<g->blocks, BLOCK>>>(g->dev, first, last, g->d_partial)));
	APOD_LAUNCH_TRY((total_kernel<<<1, BLOCK>>>(g->d_partial, g->blocks, g->d_total)));
	/* Wait, so that the batch's time is the step's and a fault is reported
	 * at the batch that made it. */
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	return 0;
}

static int gpu_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct gpu *g = (struct gpu *)ctx;
	struct lookup_sum total;
	(void)k;
	(void)step;
	(void)row;
	APOD_CUDA_TRY(cudaMemcpy(&total, g->d_total, sizeof total, cudaMemcpyDeviceToHost));
	((unsigned long long *)rows[0])[0] = total.hash;
	((double *)rows[1])[0] = total.value;
	((double *)rows[1])[1] = total.slope;
	return 0;
}

/* C++20 designated initializers: in the order apod/workload.h declares them. */
extern "C" const struct apod_stage_ops lookup_gpu_ops = {
	.available = apod_cuda_available,
	.create = gpu_create,
	.step = gpu_batch,
	.probe = gpu_probe,
	.destroy = gpu_destroy,
};

/* The program's device hooks (main.c): `info` names the GPU, and `ceilings`
 * measures it, so that the gpu row of the table has a speed of light. */
extern "C" int lookup_device_info(FILE *f)
{
	return apod_cuda_device_info(f);
}

extern "C" int lookup_ceilings(struct apod_ceilings *c, int measure)
{
	return apod_cuda_ceilings(c, measure);
}
