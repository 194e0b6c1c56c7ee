/*
 * stage_gpu.cu: the Monte Carlo stages on the device, gpu1 and gpu2.
 *
 * What moved to the device: simulateBatch (the paths, their payoffs, the
 * batch's per-estimator sums and its histogram, kernels.cuh).  Nothing is uploaded
 * but the model's constants (kernel arguments); the batch sums stay on the
 * device (batches x MC_SUMS doubles) and cross to the host in calcEstimates (the
 * rows since the last probe and the histogram, a few hundred bytes) and in
 * fetchResults.  The merge into running estimates is the host code every
 * stage shares (cpu/montecarlo/host.c).
 *
 * gpu1 is the first port: a thread a path, global atomics for the
 * histogram, a shared-memory tree for the sums.  gpu2 is tuned: a grid
 * sized by the occupancy calculator to fill the device, several paths a
 * thread, a block-private histogram in shared memory, warp-shuffle
 * reductions, sincospi (kernels.cuh says why that is allowed).  gpu3 is
 * gpu2 with path3.cuh's path: gpu2's numbers from branch-free log, exp and
 * sincospi and Philox round keys computed on the host; a deck whose log
 * prices could reach past mc3_exp's range runs gpu2's kernel instead.
 *
 * Each step waits for its kernels, so the batch's device time is counted
 * under simulateBatch and a fault is reported at the batch that made it.
 */
#include <stdint.h>
#include <stdlib.h>

#include "apod/cuda.h"
#include "apod/ready_made.h"
#include "gpu/device.h"
#include "kernels.cuh"
#include "cpu/montecarlo/montecarlo.h"
#include "cpu/montecarlo/montecarlo_workload.h"
#include "gpu/phase_events.h"

struct gpu {
	struct mc_host h;
	const struct mc_problem *p;
	int tuned;                /* 0 gpu1, 1 gpu2, 2 gpu3 */
	unsigned blocks;
	struct mc3_keys keys;     /* gpu3's Philox round keys */
	size_t copied;            /* batch sums already on the host */
	double *d_sums;           /* batches x MC_SUMS */
	double *d_partial;        /* blocks x MC_SUMS */
	unsigned *d_hist;         /* bins: the last batch */
	unsigned *h_hist;
	struct apod_phase_events *events;   /* device time per phase, legacy stream */
};

static void gpu_destroy(void *ctx)
{
	struct gpu *g = (struct gpu *)ctx;
	apod_phase_events_free(g->events);
	apod_cuda_free(g->d_sums, g->d_partial, g->d_hist);
	free(g->h_hist);
	mc_host_free(&g->h);
	free(g);
}

/* The kernel a stage's description names (tuned), or gpu2's where gpu3's
 * exp could leave its range. */
static int kernel_of(int tuned, const struct mc_problem *p)
{
	return tuned == 2 && !mc3_fits(&p->model) ? 1 : tuned;
}

/* tuned: gpu2's or gpu3's grid; name: the stage, for messages. */
static int gpu_setup(struct gpu *g, const struct mc_problem *p, int tuned, const char *name)
{
	size_t one = (p->paths + MC_BLOCK - 1) / MC_BLOCK, bytes;
	g->p = p;
	g->tuned = kernel_of(tuned, p);
	g->keys = mc3_keys_of(p->model.seed);
	if (g->tuned) {
		int dev, sms, per_sm;
		APOD_CUDA_TRY(cudaGetDevice(&dev));
		APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
		size_t hist_bytes = (size_t)p->bins * sizeof(unsigned);
		if (g->tuned == 2)
			APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
				&per_sm, mc_gpu3_kernel, MC_BLOCK, hist_bytes));
		else
			APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
				&per_sm, mc_gpu2_kernel, MC_BLOCK, hist_bytes));
		if (per_sm < 1)
			per_sm = 1;
		size_t full = (size_t)sms * (size_t)per_sm;
		g->blocks = (unsigned)(one < full ? one : full);
	} else {
		g->blocks = (unsigned)one;   /* paths <= 2^26: at most 2^18 blocks */
	}
	bytes = (p->batches + g->blocks) * MC_SUMS * sizeof(double) + (size_t)p->bins * sizeof(unsigned);
	if (apod_gpu_require(name, bytes))
		return -1;
	if (mc_host_init(&g->h, p, name))
		return -1;
	if (!(g->h_hist = (unsigned *)calloc((size_t)p->bins, sizeof *g->h_hist)))
		return apod_fail("%s: out of memory", name);
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_sums, p->batches * MC_SUMS * sizeof(double)));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_partial, (size_t)g->blocks * MC_SUMS * sizeof(double)));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_hist, (size_t)p->bins * sizeof(unsigned)));
	/* Every phase the harness times, numbered its way. */
	if (!(g->events = apod_phase_events_new(0, apod_phase_total(&montecarlo_workload))))
		return -1;
	return 0;
}

/* gpu1, gpu2 and gpu3: the kernel their description's data names (an
 * int: 0, 1, 2; cpu/montecarlo/stages.c). */
static void *gpu_create(const struct apod_stage *s, const void *problem)
{
	struct gpu *g = (struct gpu *)apod_state_alloc(sizeof *g, s->name);
	if (g && gpu_setup(g, (const struct mc_problem *)problem, *(const int *)s->data, s->name)) {
		gpu_destroy(g);
		return NULL;
	}
	return g;
}

static int gpu_step(void *ctx, int phase, long step, long steps)
{
	struct gpu *g = (struct gpu *)ctx;
	(void)phase, (void)step, (void)steps;   /* one phase; the batches follow g->h.done */
	const struct mc_problem *p = g->p;
	struct mc_batch_args a = mc_args(p, g->h.done);
	size_t hist_bytes = (size_t)p->bins * sizeof(unsigned);
	APOD_CUDA_TRY(cudaMemsetAsync(g->d_hist, 0, hist_bytes));
	if (g->tuned == 2)
		APOD_LAUNCH_TRY((mc_gpu3_kernel<<<g->blocks, MC_BLOCK, hist_bytes>>>(a, g->keys, g->d_partial,
		                                                                  g->d_hist)));
	else if (g->tuned)
		APOD_LAUNCH_TRY((mc_gpu2_kernel<<<g->blocks, MC_BLOCK, hist_bytes>>>(a, g->d_partial,
		                                                                  g->d_hist)));
	else
		APOD_LAUNCH_TRY((mc_gpu1_kernel<<<g->blocks, MC_BLOCK>>>(a, g->d_partial, g->d_hist)));
	APOD_LAUNCH_TRY((mc_total_kernel<<<1, MC_BLOCK>>>(g->d_partial, g->blocks,
	                                             g->d_sums + g->h.done * MC_SUMS)));
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	g->h.done++;
	return 0;
}

/* The batch sums not yet on the host. */
static int gpu_catch_up(struct gpu *g)
{
	if (g->copied < g->h.done)
		APOD_CUDA_TRY(cudaMemcpy(g->h.sums + g->copied * MC_SUMS, g->d_sums + g->copied * MC_SUMS,
		                    (g->h.done - g->copied) * MC_SUMS * sizeof(double),
		                    cudaMemcpyDeviceToHost));
	g->copied = g->h.done;
	return 0;
}

static int gpu_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct gpu *g = (struct gpu *)ctx;
	(void)k, (void)step, (void)row;
	if (gpu_catch_up(g))
		return -1;
	APOD_CUDA_TRY(cudaMemcpy(g->h_hist, g->d_hist, (size_t)g->p->bins * sizeof(unsigned),
	                    cudaMemcpyDeviceToHost));
	for (int b = 0; b < g->p->bins; b++)
		g->h.hist[b] = g->h_hist[b];
	mc_host_probe(&g->h, rows);
	return 0;
}

static int gpu_fetch(void *ctx, int a, void *dst)
{
	struct gpu *g = (struct gpu *)ctx;
	(void)a;
	if (gpu_catch_up(g))
		return -1;
	mc_host_batch_means(&g->h, (double *)dst);
	return 0;
}

/* The unit test's window on the device paths (montecarlo.h). */
static __global__ void outcomes_kernel(struct mc_model m, struct mc3_keys keys, uint64_t first,
                                       size_t n, int tuned, double *out)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	struct mc_outcome o;
	if (i >= n)
		return;
	o = tuned == 2 ? mc3_path(m, keys, first + i)
	    : tuned ? mc_path_pi(&m, first + i) : mc_path(&m, first + i);
	out[3 * i] = o.st;
	out[3 * i + 1] = o.geo;
	out[3 * i + 2] = o.arith;
}

extern "C" int mc_gpu_outcomes(const struct mc_model *m, uint64_t first, size_t n, int tuned,
                               double *out)
{
	double *d_out = NULL;
	cudaError_t err;
	if (tuned == 2 && !mc3_fits(m))
		return apod_fail("gpu3's path: log prices of this model may leave exp's range");
	APOD_CUDA_TRY(cudaMalloc((void **)&d_out, 3 * n * sizeof(double)));
	outcomes_kernel<<<(unsigned)((n + MC_BLOCK - 1) / MC_BLOCK), MC_BLOCK>>>(
		*m, mc3_keys_of(m->seed), first, n, tuned, d_out);
	if ((err = cudaGetLastError()) == cudaSuccess)
		err = cudaMemcpy(out, d_out, 3 * n * sizeof(double), cudaMemcpyDeviceToHost);
	cudaFree(d_out);
	if (err != cudaSuccess)
		return apod_cuda_failed(err, "outcomes_kernel", __FILE__, __LINE__);
	return 0;
}

/* gpu1, gpu2 and gpu3, described in cpu/montecarlo/stages.c.  In the order the
 * members are declared (C++). */
extern "C" const struct apod_stage_ops mc_gpu_ops = {
	.available = apod_gpu_stage_available,
	.width = NULL,
	.create = gpu_create,
	.step = gpu_step,
	.probe = gpu_probe,
	.fetch = gpu_fetch,
	.destroy = gpu_destroy,
	.defer_rows = 0,
	.collect = NULL,
	.snapshot_begin = NULL,
	.snapshot_stream = NULL,
	.mark = apod_phase_events_mark_op<struct gpu>,
	.device_seconds = apod_phase_events_seconds_op<struct gpu>,
};
