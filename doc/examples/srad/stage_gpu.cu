/*
 * stage_gpu.cu: SRAD on the device, one kernel a phase.  The image, the
 * derivatives and the coefficients live on the device from create to
 * destroy.  roiStats is a device reduction: each thread sums its pixels of
 * the ROI in float, each block adds its threads' sums in a fixed tree, and
 * one block adds the blocks' and computes q0sqr where coefficient reads it,
 * so no step waits for the host.  coefficient and update are one thread a
 * pixel (blocks of 16 x 16), computing srad.h's expressions (compiled with
 * -fmad=false), so they give the host's bits for the same q0sqr; the ROI's
 * sums, added in another order than Rodinia's, give another q0sqr, which
 * is why the gpu stage is held to workload.c's tolerance rather than to
 * serial's bits.
 * The probe is a double reduction of the same shape.  No floating-point
 * atomics: the trees are fixed, so a run gives the same bits every time.
 */
#include <stdlib.h>

#include <apod/cuda.h>
#include <apod/ready_made.h>
#include <apod/cuda_ceilings.cuh>

#include "srad.h"

#define BLOCK 256             /* threads a block, a power of two (the trees below) */
#define MAX_BLOCKS 1024       /* at most: partial sums a reduction */

struct gpu {
	long rows, cols, n;
	int r1, c1, roi_cols, n_roi;
	float lambda;
	float *J, *c, *dN, *dS, *dW, *dE;
	float *roi_partial;       /* 2 a block: sum, sum of squares */
	float *q0sqr;             /* roiStats' result, coefficient's input */
	double *stats_partial;    /* 2 a block */
	double *stats_total;      /* 2 */
	unsigned roi_blocks, stats_blocks;
	dim3 tiles;               /* the pixel kernels' grid */
};

/* The block's two sums added in a fixed tree; thread 0 gets the result. */
template <class T> static __device__ void block_sum2(T &a, T &b)
{
	__shared__ T sa[BLOCK], sb[BLOCK];
	unsigned t = threadIdx.x;
	sa[t] = a;
	sb[t] = b;
	__syncthreads();
	for (unsigned half = BLOCK / 2; half > 0; half /= 2) {
		if (t < half) {
			sa[t] += sa[t + half];
			sb[t] += sb[t + half];
		}
		__syncthreads();
	}
	a = sa[0];
	b = sb[0];
}

/* One block: the partial sums of `count` blocks, added. */
template <class T> static __device__ void finish_sum2(const T *partial, unsigned count, T &a, T &b)
{
	a = 0;
	b = 0;
	for (unsigned k = threadIdx.x; k < count; k += blockDim.x) {
		a += partial[2 * k];
		b += partial[2 * k + 1];
	}
	block_sum2(a, b);
}

static __global__ void roi_sums(const float *J, long cols, int r1, int c1, int roi_cols,
                                int n_roi, float *partial)
{
	float s = 0, s2 = 0;
	for (int q = blockIdx.x * blockDim.x + threadIdx.x; q < n_roi; q += gridDim.x * blockDim.x) {
		float tmp = J[(long)(r1 + q / roi_cols) * cols + c1 + q % roi_cols];
		s += tmp;
		s2 += tmp * tmp;
	}
	block_sum2(s, s2);
	if (threadIdx.x == 0) {
		partial[2 * blockIdx.x] = s;
		partial[2 * blockIdx.x + 1] = s2;
	}
}

static __global__ void roi_finish(const float *partial, unsigned count, int n_roi, float *q0sqr)
{
	float s, s2;
	finish_sum2(partial, count, s, s2);
	if (threadIdx.x == 0)
		*q0sqr = srad_q0sqr(s, s2, n_roi);
}

/* The pixel kernels: a thread a pixel, in blocks of 16 x 16 (rows and
 * cols are multiples of 16, Rodinia's rule, made for its CUDA version's
 * blocks of this shape), so no thread divides to find its row; the
 * neighbours are Rodinia's tables, as a clamp. */
#define TILE 16

static __global__ void coefficient(const float *J, long rows, long cols, const float *q0sqr_p,
                                   float *c, float *dN, float *dS, float *dW, float *dE)
{
	long i = (long)blockIdx.y * TILE + threadIdx.y, j = (long)blockIdx.x * TILE + threadIdx.x;
	long k = i * cols + j, in = i > 0 ? i - 1 : 0, is = i < rows - 1 ? i + 1 : rows - 1;
	long jw = j > 0 ? j - 1 : 0, je = j < cols - 1 ? j + 1 : cols - 1;
	float d[4];
	if (i >= rows || j >= cols)
		return;
	c[k] = srad_coefficient(J[k], J[in * cols + j], J[is * cols + j], J[i * cols + jw],
	                        J[i * cols + je], *q0sqr_p, d);
	dN[k] = d[0];
	dS[k] = d[1];
	dW[k] = d[2];
	dE[k] = d[3];
}

static __global__ void update(float *J, long rows, long cols, const float *c, const float *dN,
                              const float *dS, const float *dW, const float *dE, float lambda)
{
	long i = (long)blockIdx.y * TILE + threadIdx.y, j = (long)blockIdx.x * TILE + threadIdx.x;
	long k = i * cols + j, is = i < rows - 1 ? i + 1 : rows - 1;
	long je = j < cols - 1 ? j + 1 : cols - 1;
	if (i >= rows || j >= cols)
		return;
	J[k] = srad_update(J[k], c[k], c[is * cols + j], c[i * cols + je], dN[k], dS[k], dW[k], dE[k],
	                   lambda);
}

static __global__ void stats_sums(const float *J, long n, double *partial)
{
	double s = 0, s2 = 0;
	for (long k = (long)blockIdx.x * blockDim.x + threadIdx.x; k < n;
	     k += (long)gridDim.x * blockDim.x) {
		s += J[k];
		s2 += (double)J[k] * J[k];
	}
	block_sum2(s, s2);
	if (threadIdx.x == 0) {
		partial[2 * blockIdx.x] = s;
		partial[2 * blockIdx.x + 1] = s2;
	}
}

static __global__ void stats_finish(const double *partial, unsigned count, double *total)
{
	double s, s2;
	finish_sum2(partial, count, s, s2);
	if (threadIdx.x == 0) {
		total[0] = s;
		total[1] = s2;
	}
}

static void gpu_destroy(void *ctx)
{
	struct gpu *g = (struct gpu *)ctx;
	apod_cuda_free(g->J, g->c, g->dN, g->dS, g->dW, g->dE, g->roi_partial, g->q0sqr,
	               g->stats_partial, g->stats_total);
	free(g);
}

static unsigned blocks_for(long items, long most)
{
	long b = (items + BLOCK - 1) / BLOCK;
	return (unsigned)(b < most ? b : most);
}

static int gpu_setup(void *ctx, const void *problem)
{
	struct gpu *g = (struct gpu *)ctx;
	const struct srad_problem *pb = (const struct srad_problem *)problem;
	size_t image = (size_t)pb->n * sizeof(float);
	g->rows = pb->rows;
	g->cols = pb->cols;
	g->n = pb->n;
	g->r1 = pb->r1;
	g->c1 = pb->c1;
	g->roi_cols = pb->c2 - pb->c1 + 1;
	g->n_roi = pb->n_roi;
	g->lambda = pb->lambda;
	g->roi_blocks = blocks_for(pb->n_roi, MAX_BLOCKS);
	g->stats_blocks = blocks_for(pb->n, MAX_BLOCKS);
	g->tiles = dim3((unsigned)(pb->cols / TILE), (unsigned)(pb->rows / TILE));
	if (apod_cuda_require("srad: gpu", 6 * image + (2 * g->roi_blocks + 1) * sizeof(float) +
	                                   (2 * g->stats_blocks + 2) * sizeof(double)))
		return -1;
	APOD_CUDA_TRY(cudaMalloc((void **)&g->J, image));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->c, image));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->dN, image));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->dS, image));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->dW, image));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->dE, image));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->roi_partial, 2 * g->roi_blocks * sizeof(float)));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->q0sqr, sizeof(float)));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->stats_partial, 2 * g->stats_blocks * sizeof(double)));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->stats_total, 2 * sizeof(double)));
	APOD_CUDA_TRY(cudaMemcpy(g->J, pb->J0, image, cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	return 0;
}

static void *gpu_create(const struct apod_stage *s, const void *problem)
{
	(void)s;
	return apod_state_create(problem, sizeof(struct gpu), "srad: gpu", gpu_setup, gpu_destroy);
}

/* Each phase waits for its kernels, so that the host's timer of each phase
 * is that phase's device time (plus a launch and a wait), and a fault is
 * reported at the phase that made it. */
static int gpu_step(void *ctx, int phase, long step, long steps)
{
	struct gpu *g = (struct gpu *)ctx;
	(void)step;
	(void)steps;
	if (phase == SRAD_ROI_STATS) {
		APOD_LAUNCH_TRY((roi_sums<<<g->roi_blocks, BLOCK>>>(g->J, g->cols, g->r1, g->c1,
		                                                     g->roi_cols, g->n_roi,
		                                                     g->roi_partial)));
		APOD_LAUNCH_TRY((roi_finish<<<1, BLOCK>>>(g->roi_partial, g->roi_blocks, g->n_roi,
		                                          g->q0sqr)));
	} else if (phase == SRAD_COEFFICIENT) {
		APOD_LAUNCH_TRY((coefficient<<<g->tiles, dim3(TILE, TILE)>>>(
			g->J, g->rows, g->cols, g->q0sqr, g->c, g->dN, g->dS, g->dW, g->dE)));
	} else {
		APOD_LAUNCH_TRY((update<<<g->tiles, dim3(TILE, TILE)>>>(
			g->J, g->rows, g->cols, g->c, g->dN, g->dS, g->dW, g->dE, g->lambda)));
	}
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	return 0;
}

/* imageStats: the double sums on the device, 16 bytes home, the mean and
 * variance from them as the host stages compute theirs. */
static int gpu_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct gpu *g = (struct gpu *)ctx;
	double total[2], n = (double)g->n, mean;
	(void)k;
	(void)step;
	(void)row;
	APOD_LAUNCH_TRY((stats_sums<<<g->stats_blocks, BLOCK>>>(g->J, g->n, g->stats_partial)));
	APOD_LAUNCH_TRY((stats_finish<<<1, BLOCK>>>(g->stats_partial, g->stats_blocks,
	                                            g->stats_total)));
	APOD_CUDA_TRY(cudaMemcpy(total, g->stats_total, sizeof total, cudaMemcpyDeviceToHost));
	mean = total[0] / n;
	((double *)rows[0])[0] = mean;
	((double *)rows[1])[0] = total[1] / n - mean * mean;
	return 0;
}

static int gpu_fetch(void *ctx, int a, void *dst)
{
	struct gpu *g = (struct gpu *)ctx;
	(void)a;
	APOD_CUDA_TRY(cudaMemcpy(dst, g->J, (size_t)g->n * sizeof(float), cudaMemcpyDeviceToHost));
	return 0;
}

/* C++ designated initializers: in the order apod/workload.h declares them. */
extern "C" const struct apod_stage_ops srad_gpu_ops = {
	.available = apod_cuda_available,
	.width = NULL,
	.create = gpu_create,
	.step = gpu_step,
	.probe = gpu_probe,
	.fetch = gpu_fetch,
	.destroy = gpu_destroy,
};

/* The program's device hooks (main.c): `info` names the GPU, and `ceilings`
 * measures it, so that the gpu row of the table has a speed of light. */
extern "C" int srad_device_info(FILE *f)
{
	return apod_cuda_device_info(f);
}

extern "C" int srad_ceilings(struct apod_ceilings *c, int measure)
{
	return apod_cuda_ceilings(c, measure);
}
