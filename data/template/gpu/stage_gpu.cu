/*
 * stage_gpu.cu: @NAME@ on the device, as `apod new @NAME@ --gpu` wrote it:
 * the gpu stage's operations.  The stage itself (its name, the phases it
 * ports, where it runs) is described in workload.c, with the others.
 *
 * What moved to the device: the state (uploaded once in create, resident
 * for the whole run), the step (one thread a value, calling the same
 * step_one() as serial, from @NAME@.h) and the probe (each block sums and
 * takes the largest of its values, then one block combines the blocks; 16
 * bytes come back).  The state crosses PCIe again only when the harness
 * fetches it, for a snapshot or the final results.
 *
 * What can differ from serial: nvcc contracts a*b + c into one fused
 * multiply-add (one rounding fewer than the host's, which x_tol's bound
 * already covers), and the sum is added in another order (sum_tol); the
 * largest value is the same whatever the order.
 *
 * Every CUDA call goes through APOD_CUDA_TRY and every launch through
 * APOD_LAUNCH_TRY (apod/cuda.h): a failure names the call, the file and the
 * line, and the stage returns -1 for the harness to report.
 *
 * At the end, the program's two GPU hooks (set in main.c), from
 * <apod/cuda_ceilings.cuh>: `info` describes the device, and `ceilings`
 * measures what it can do (copy bandwidth, FP32/FP64 FMA, rsqrt, launch
 * latency, PCIe), the speed of light the table holds this stage against.
 */
#include <math.h>
#include <stdlib.h>

#include <apod/cuda.h>
#include <apod/ready_made.h>
#include <apod/cuda_ceilings.cuh>

#include "@NAME@.h"

#define BLOCK 256             /* threads a block, a power of two (the tree below) */
#define PROBE_BLOCKS 1024     /* at most: partial results per probe */

struct gpu {
	const struct @NAME@_problem *pb;
	double *d_x;              /* the state: n values */
	double2 *d_partial;       /* one (sum, max) per block of the probe */
	double2 *d_total;
	unsigned step_blocks, probe_blocks;
};

/* The step: one thread, one value, the serial stage's arithmetic. */
static __global__ void step_kernel(double *x, size_t n, double rate)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = step_one(x[i], target(i), rate);
}

/* The block's (sum, max) pairs combined; thread 0 gets the result.  A fixed
 * tree, so the order (and so the sum) is the same on every run. */
static __device__ double2 block_sum_max(double sum, double max)
{
	__shared__ double ssum[BLOCK], smax[BLOCK];
	unsigned t = threadIdx.x;
	ssum[t] = sum;
	smax[t] = max;
	__syncthreads();
	for (unsigned half = BLOCK / 2; half > 0; half /= 2) {
		if (t < half) {
			ssum[t] += ssum[t + half];
			smax[t] = fmax(smax[t], smax[t + half]);
		}
		__syncthreads();
	}
	return make_double2(ssum[0], smax[0]);
}

/* The probe, level 1: every thread takes a strided set of values in index
 * order, then each block combines its threads. */
static __global__ void probe_kernel(const double *x, size_t n, double2 *partial)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	double sum = 0, max = -INFINITY;
	double2 r;
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		sum += x[i];
		max = fmax(max, x[i]);
	}
	r = block_sum_max(sum, max);
	if (threadIdx.x == 0)
		partial[blockIdx.x] = r;
}

/* The probe, level 2: one block combines the blocks' results. */
static __global__ void total_kernel(const double2 *partial, unsigned count, double2 *total)
{
	double sum = 0, max = -INFINITY;
	double2 r;
	for (unsigned b = threadIdx.x; b < count; b += blockDim.x) {
		sum += partial[b].x;
		max = fmax(max, partial[b].y);
	}
	r = block_sum_max(sum, max);
	if (threadIdx.x == 0)
		*total = r;
}

/* Also after a setup that failed part way: apod_cuda_free skips what is
 * still NULL. */
static void gpu_destroy(void *ctx)
{
	struct gpu *g = (struct gpu *)ctx;
	apod_cuda_free(g->d_x, g->d_partial, g->d_total);
	free(g);
}

static int gpu_setup(void *ctx, const void *problem)
{
	struct gpu *g = (struct gpu *)ctx;
	const struct @NAME@_problem *pb = (const struct @NAME@_problem *)problem;
	size_t bytes = pb->n * sizeof(double);
	size_t blocks = (pb->n + BLOCK - 1) / BLOCK;
	g->pb = pb;
	g->step_blocks = (unsigned)blocks;   /* n <= 2^28 (its key's range): at most 2^20 blocks */
	g->probe_blocks = (unsigned)(blocks < PROBE_BLOCKS ? blocks : PROBE_BLOCKS);
	/* Everything below, asked for at once: a problem too big for the
	 * device is a usage error naming both sizes. */
	if (apod_cuda_require("gpu", bytes + (g->probe_blocks + 1) * sizeof(double2)))
		return -1;
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_x, bytes));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_partial, g->probe_blocks * sizeof(double2)));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_total, sizeof(double2)));
	/* The problem's bits, the same every stage starts from. */
	APOD_CUDA_TRY(cudaMemcpy(g->d_x, pb->init, bytes, cudaMemcpyHostToDevice));
	return 0;
}

/* The state allocated, set up, and destroyed again if setup fails. */
static void *gpu_create(const struct apod_stage *s, const void *problem)
{
	(void)s;
	return apod_state_create(problem, sizeof(struct gpu), "@NAME@: gpu", gpu_setup, gpu_destroy);
}

/* The step's one phase, timeStep (workload.c's phases[]). */
static int gpu_step(void *ctx, int phase, long step, long steps)
{
	struct gpu *g = (struct gpu *)ctx;
	(void)phase;
	(void)step;
	(void)steps;
	APOD_LAUNCH_TRY((step_kernel<<<g->step_blocks, BLOCK>>>(g->d_x, g->pb->n, g->pb->rate)));
	/* Wait for the step, so that its time is counted under the step and a
	 * fault in the kernel is reported at the step that made it. */
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	return 0;
}

/* The probe calcSum: rows[0] is the "sum" series, its columns sum and max. */
static int gpu_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct gpu *g = (struct gpu *)ctx;
	double *out = (double *)rows[0];
	double2 total;
	(void)k;
	(void)step;
	(void)row;
	APOD_LAUNCH_TRY((probe_kernel<<<g->probe_blocks, BLOCK>>>(g->d_x, g->pb->n, g->d_partial)));
	APOD_LAUNCH_TRY((total_kernel<<<1, BLOCK>>>(g->d_partial, g->probe_blocks, g->d_total)));
	/* A blocking copy: it waits for both kernels. */
	APOD_CUDA_TRY(cudaMemcpy(&total, g->d_total, sizeof total, cudaMemcpyDeviceToHost));
	out[0] = total.x;
	out[1] = total.y;
	return 0;
}

/* The one array, x: the same layout on both sides. */
static int gpu_fetch(void *ctx, int a, void *dst)
{
	struct gpu *g = (struct gpu *)ctx;
	(void)a;
	APOD_CUDA_TRY(cudaMemcpy(dst, g->d_x, g->pb->n * sizeof(double), cudaMemcpyDeviceToHost));
	return 0;
}

/* What workload.c's gpu_stage does.  C++20 designated initializers: in the
 * order apod/workload.h declares the members.  No width: on a device,
 * Amdahl's N is the measured speedup. */
extern "C" const struct apod_stage_ops @NAME@_stage_gpu = {
	/* Where no GPU can run it, the table lists the stage with the reason. */
	.available = apod_cuda_available,
	.create = gpu_create,
	.step = gpu_step,
	.probe = gpu_probe,
	.fetch = gpu_fetch,
	.destroy = gpu_destroy,
};

/* The program's hooks (main.c's struct apod_program): the device `info`
 * prints, and its ceilings, measured by `ceilings` and kept in a cache
 * file that the table, run and bench read. */
extern "C" int @NAME@_device_info(FILE *f)
{
	return apod_cuda_device_info(f);
}

extern "C" int @NAME@_ceilings(struct apod_ceilings *c, int measure)
{
	return apod_cuda_ceilings(c, measure);
}
