/*
 * bench.cu: the Monte Carlo kernels against the yardstick a user would
 * write instead of them, in the same run on the same batch.
 *
 * The yardstick: cuRAND's host API fills a device buffer with normals
 * (CURAND_RNG_PSEUDO_PHILOX4_32_10, curandGenerateNormalDouble), a payoff
 * kernel walks each path through its normals and writes the shifted
 * terms (2 x MC_NEST) and S_T to arrays, CUB's DeviceReduce::Sum adds each array and
 * DeviceHistogram::HistogramEven bins S_T.  The same work as a batch of
 * gpu1 or gpu2 (same paths, steps, payoffs, sums, histogram), but every
 * normal makes a round trip through device memory (8 bytes written, 8
 * read) where the fused kernels draw it in registers.  Where a batch's
 * normals exceed YARD_BYTES the batch is done in chunks, as a user would.
 *
 * The numbers differ (cuRAND maps Philox's counters its own way), so the
 * yardstick's estimate is checked against the closed form, statistically,
 * and printed beside gpu2's; the gate holds the stages themselves.
 */
#include <algorithm>
#include <math.h>
#include <stdio.h>

#include <cub/device/device_histogram.cuh>
#include <cub/device/device_reduce.cuh>
#include <curand.h>

#include "apod/cuda.h"
#include "gpu/device.h"
#include "kernels.cuh"
#include "cpu/montecarlo/montecarlo.h"
#include "gpu/timing.cuh"

#define YARD_BYTES ((size_t)1 << 29)   /* 512 MiB of normals at most a chunk */

#define CURAND_TRY(call)                                                               \
	do {                                                                           \
		curandStatus_t st_ = (call);                                           \
		if (st_ != CURAND_STATUS_SUCCESS)                                      \
			return apod_fail("%s failed at %s:%d: curandStatus %d", #call,  \
			                 __FILE__, __LINE__, (int)st_);                 \
	} while (0)

/* The yardstick's payoff kernel: path p's normals are z[k * chunk + p]
 * (consecutive threads read consecutive words). */
static __global__ void yard_payoff_kernel(struct mc_batch_args a, const double *z, size_t chunk,
                                          double *terms, double *st)
{
	size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	double x = a.m.x0, sumx = 0, sums = 0, t[MC_SUMS];
	struct mc_outcome o;
	if (p >= chunk)
		return;
	for (int k = 0; k < a.m.steps; k++)
		mc_advance(&a.m, z[(size_t)k * chunk + p], &x, &sumx, &sums);
	o.st = exp(x);
	o.geo = exp(sumx * a.m.inv_steps);
	o.arith = sums * a.m.inv_steps;
	mc_terms(a, o, t);
	for (int j = 0; j < MC_SUMS; j++)
		terms[(size_t)j * chunk + p] = t[j];
	st[p] = o.st;
}

/* Owners that free on every way out. */
struct yard {
	curandGenerator_t gen = nullptr;
	double *z = nullptr, *terms = nullptr, *st = nullptr, *sums = nullptr;
	int *hist = nullptr;
	void *temp = nullptr;
	~yard()
	{
		if (gen)
			curandDestroyGenerator(gen);
		cudaFree(z);
		cudaFree(terms);
		cudaFree(st);
		cudaFree(sums);
		cudaFree(hist);
		cudaFree(temp);
	}
};

struct stage_bufs {
	double *sums = nullptr, *partial = nullptr;
	unsigned *hist = nullptr;
	~stage_bufs()
	{
		cudaFree(sums);
		cudaFree(partial);
		cudaFree(hist);
	}
};

/* A row: one batch of paths a call. */
static int row(const struct apod_bench_sink *k, const char *name, double ms, double paths,
               const char *note)
{
	struct apod_bench_row r = { name, ms, -1, paths, "paths", paths / (ms * 1e-3), "paths/s",
		                    0, NULL, 0, note };
	return k->row(k->arg, &r);
}

/* One batch through gpu1's (tuned = 0), gpu2's (1) or gpu3's (2) kernels;
 * the European mean of the last run in *euro. */
static int time_stage(const struct mc_problem *p, int tuned, int reps, double *ms, double *euro)
{
	struct stage_bufs b;
	struct mc_batch_args a = mc_args(p, 0);
	size_t hist_bytes = (size_t)p->bins * sizeof(unsigned);
	unsigned blocks = (unsigned)((p->paths + MC_BLOCK - 1) / MC_BLOCK);
	double sums[MC_SUMS];
	struct mc3_keys keys = mc3_keys_of(p->model.seed);
	if (tuned == 2 && !mc3_fits(&p->model))
		tuned = 1;   /* as the stage does */
	if (tuned) {
		int dev, sms, per_sm;
		APOD_CUDA_TRY(cudaGetDevice(&dev));
		APOD_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
		if (tuned == 2)
			APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mc_gpu3_kernel,
			                                                       MC_BLOCK, hist_bytes));
		else
			APOD_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mc_gpu2_kernel,
			                                                       MC_BLOCK, hist_bytes));
		blocks = std::min(blocks, (unsigned)(sms * std::max(per_sm, 1)));
	}
	APOD_CUDA_TRY(cudaMalloc((void **)&b.sums, MC_SUMS * sizeof(double)));
	APOD_CUDA_TRY(cudaMalloc((void **)&b.partial, (size_t)blocks * MC_SUMS * sizeof(double)));
	APOD_CUDA_TRY(cudaMalloc((void **)&b.hist, hist_bytes));
	if (time_it(reps, [&]() -> int {
		    APOD_CUDA_TRY(cudaMemsetAsync(b.hist, 0, hist_bytes));
		    if (tuned == 2)
			    APOD_LAUNCH_TRY((mc_gpu3_kernel<<<blocks, MC_BLOCK, hist_bytes>>>(a, keys, b.partial,
			                                                                 b.hist)));
		    else if (tuned)
			    APOD_LAUNCH_TRY((mc_gpu2_kernel<<<blocks, MC_BLOCK, hist_bytes>>>(a, b.partial,
			                                                                 b.hist)));
		    else
			    APOD_LAUNCH_TRY((mc_gpu1_kernel<<<blocks, MC_BLOCK>>>(a, b.partial, b.hist)));
		    APOD_LAUNCH_TRY((mc_total_kernel<<<1, MC_BLOCK>>>(b.partial, blocks, b.sums)));
		    return 0;
	    }, ms))
		return -1;
	APOD_CUDA_TRY(cudaMemcpy(sums, b.sums, sizeof sums, cudaMemcpyDeviceToHost));
	*euro = p->shift[MC_EUROPEAN] + sums[2 * MC_EUROPEAN] / (double)p->paths;
	return 0;
}

/* One batch the way a user would write it (see the top); the European
 * mean and its standard error of the last run. */
static int time_yardstick(const struct mc_problem *p, int reps, double *ms, double *euro,
                          double *se)
{
	struct yard y;
	struct mc_batch_args a = mc_args(p, 0);
	size_t n = (size_t)p->model.steps;
	size_t chunk = std::min(p->paths, std::max((size_t)1, YARD_BYTES / (n * sizeof(double))));
	size_t count = chunk * n + (chunk * n) % 2;   /* cuRAND draws normals in pairs */
	size_t temp_bytes = 0, t1 = 0;
	double sums[MC_SUMS], acc[MC_SUMS];
	if (apod_gpu_require("bench", count * sizeof(double) + (MC_SUMS + 1) * chunk * sizeof(double)))
		return -1;
	CURAND_TRY(curandCreateGenerator(&y.gen, CURAND_RNG_PSEUDO_PHILOX4_32_10));
	CURAND_TRY(curandSetPseudoRandomGeneratorSeed(y.gen, p->model.seed));
	APOD_CUDA_TRY(cudaMalloc((void **)&y.z, count * sizeof(double)));
	APOD_CUDA_TRY(cudaMalloc((void **)&y.terms, MC_SUMS * chunk * sizeof(double)));
	APOD_CUDA_TRY(cudaMalloc((void **)&y.st, chunk * sizeof(double)));
	APOD_CUDA_TRY(cudaMalloc((void **)&y.sums, MC_SUMS * sizeof(double)));
	APOD_CUDA_TRY(cudaMalloc((void **)&y.hist, (size_t)p->bins * sizeof(int)));
	APOD_CUDA_TRY(cub::DeviceReduce::Sum(nullptr, t1, y.terms, y.sums, (int)chunk));
	temp_bytes = t1;
	APOD_CUDA_TRY(cub::DeviceHistogram::HistogramEven(nullptr, t1, y.st, y.hist, p->bins + 1,
	                                             p->hist_lo, p->hist_lo + p->bins / p->hist_inv_width,
	                                             (int)chunk));
	temp_bytes = std::max(temp_bytes, t1);
	APOD_CUDA_TRY(cudaMalloc(&y.temp, temp_bytes));
	auto batch = [&]() -> int {
		for (int j = 0; j < MC_SUMS; j++)
			acc[j] = 0;
		for (size_t done = 0; done < p->paths; done += chunk) {
			size_t c = std::min(chunk, p->paths - done), tb = temp_bytes;
			unsigned blocks = (unsigned)((c + MC_BLOCK - 1) / MC_BLOCK);
			CURAND_TRY(curandGenerateNormalDouble(y.gen, y.z, c * n + (c * n) % 2, 0.0, 1.0));
			APOD_LAUNCH_TRY((yard_payoff_kernel<<<blocks, MC_BLOCK>>>(a, y.z, c, y.terms, y.st)));
			for (int j = 0; j < MC_SUMS; j++)
				APOD_CUDA_TRY(cub::DeviceReduce::Sum(y.temp, tb, y.terms + (size_t)j * c, y.sums + j,
				                                (int)c));
			APOD_CUDA_TRY(cub::DeviceHistogram::HistogramEven(
				y.temp, tb, y.st, y.hist, p->bins + 1, p->hist_lo,
				p->hist_lo + p->bins / p->hist_inv_width, (int)c));
			if (c < p->paths) {   /* chunks: the sums come back to be added */
				APOD_CUDA_TRY(cudaMemcpy(sums, y.sums, sizeof sums, cudaMemcpyDeviceToHost));
				for (int j = 0; j < MC_SUMS; j++)
					acc[j] += sums[j];
			}
		}
		return 0;
	};
	if (time_it(reps, batch, ms))
		return -1;
	if (chunk >= p->paths)
		APOD_CUDA_TRY(cudaMemcpy(acc, y.sums, sizeof acc, cudaMemcpyDeviceToHost));
	{
		double np = (double)p->paths, s1 = acc[2 * MC_EUROPEAN], s2 = acc[2 * MC_EUROPEAN + 1];
		double var = np > 1 ? (s2 - s1 * s1 / np) / (np - 1) : 0;
		*euro = p->shift[MC_EUROPEAN] + s1 / np;
		*se = sqrt(std::max(var, 0.0) / np);
	}
	return 0;
}

/* Paths a second of one batch through gpu1's, gpu2's and gpu3's kernels
 * and through what a user would write instead (cuRAND's host API, a payoff
 * kernel, CUB's reductions and histogram), CUDA events, median of reps
 * after a warm-up, a row each to the sink; the yardstick's estimate beside
 * the closed form. */
static int montecarlo_gpu_bench(const void *problem, int reps, const struct apod_bench_sink *k)
{
	const struct mc_problem *p = (const struct mc_problem *)problem;
	double ms1 = 0, ms2 = 0, ms3 = 0, msy = 0, e1 = 0, e2 = 0, e3 = 0, ey = 0, sey = 0;
	double paths = (double)p->paths;
	if (k->line(k->arg, "Monte Carlo kernels, one batch of %zu paths x %d steps, median of %d "
	            "after a warm-up, CUDA events:", p->paths, p->model.steps, reps) ||
	    time_stage(p, 0, reps, &ms1, &e1) ||
	    row(k, "gpu1", ms1, paths, "a path a thread, shared-memory tree") ||
	    time_stage(p, 1, reps, &ms2, &e2) ||
	    row(k, "gpu2", ms2, paths, "grid-stride, warp shuffles, shared histogram") ||
	    time_stage(p, 2, reps, &ms3, &e3) ||
	    row(k, "gpu3", ms3, paths, "gpu2's numbers, branch-free log, exp, sincospi") ||
	    time_yardstick(p, reps, &msy, &ey, &sey) ||
	    row(k, "curand+cub", msy, paths,
	        "curandGenerateNormalDouble, payoff kernel, DeviceReduce, DeviceHistogram"))
		return -1;
	return k->line(k->arg, "gpu2 / yardstick: %.2fx the paths a second", msy / ms2) ||
	       k->line(k->arg, "gpu3 / yardstick: %.2fx the paths a second", msy / ms3) ||
	       k->line(k->arg, "European call: closed form %.6f, gpu1 %.6f, gpu2 %.6f, gpu3 %.6f, "
	               "yardstick %.6f (standard error %.2g: %.1f of them from the closed form)",
	               p->exact[0], e1, e2, e3, ey, sey,
	               sey > 0 ? fabs(ey - p->exact[0]) / sey : 0.0) ||
	       k->figure(k->arg, "gpu2_over_yardstick", msy / ms2) ||
	       k->figure(k->arg, "gpu3_over_yardstick", msy / ms3) ||
	       k->figure(k->arg, "yardstick_european", ey) ||
	       k->figure(k->arg, "yardstick_stderr", sey) ||
	       k->figure(k->arg, "exact_european", p->exact[0]) ? -1 : 0;
}

/* The workload's kernel_rows member (cpu/montecarlo/montecarlo.h). */
extern "C" int mc_kernels(const void *problem, int reps, const struct apod_bench_sink *sink)
{
	int rc = apod_gpu_kernels_ready("montecarlo");
	return rc ? rc : montecarlo_gpu_bench(problem, reps, sink);
}
