/*
 * bench.cu: what the kernels achieve against what the device can do.
 *
 * Bytes are counted as the minimum a kernel must move through DRAM: a
 * stencil sweep reads the field once and writes it once (2 x n x size; the
 * neighbours come from cache), the fused kernel adds its heater mask
 * (n/8 bytes), a statistics pass reads the field once.  The ceiling is the
 * measured copy, not the datasheet: a plain copy kernel and cudaMemcpy
 * device to device on the same number of bytes.  Every row is timed with
 * its work queued behind a spacer (time_queued): the kernels' own time,
 * which is what a step costs when the device never waits for the host, and
 * what `apod run --trace` reports as the step's busy time.
 */
#include <algorithm>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <cub/device/device_reduce.cuh>

#include "cpu/heat/heat_stage.h"
#include "gpu/copy4.cuh"
#include "apod/cuda.h"
#include "gpu/device.h"
#include "kernels.cuh"
#include "heat_resident.h"
#include "temporal.h"
#include "gpu/timing.cuh"
#include "tuned.cuh"

static __global__ void copy_kernel(const heat_real *__restrict__ in, heat_real *__restrict__ out,
                                   size_t n)
{
	for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < n;
	     k += (size_t)gridDim.x * blockDim.x)
		out[k] = in[k];
}


/* Under --trace: CUPTI's busy time per run of the row being timed, which
 * time_q leaves here for row() to print beside the events' figure. */
static double busy_ms = -1;

template <typename F> static int time_q(int reps, F f, double *ms, cudaStream_t s = 0)
{
	busy_ms = -1;
	return time_queued(reps, f, ms, s, &busy_ms);
}

/* A row: the bytes one call must move, as GB/s against the copy. */
static int row(const struct apod_bench_sink *k, const char *name, double ms, double bytes,
               double ceiling, const char *note)
{
	struct apod_bench_row r = { name, ms, busy_ms, bytes, "bytes", bytes / (ms * 1e-3) / 1e9,
		                    "GB/s", ceiling, "copy", 0, note };
	busy_ms = -1;
	return k->row(k->arg, &r);
}

/* One whole step of gpu2 as a run issues it: the sweep and pin, then
 * calcStats's memset, statistics, merge and the two copies home (arg: the
 * struct heat_resident; apod_cuda_graph_run's issue). */
static int step_calls(void *arg)
{
	struct heat_resident *r = (struct heat_resident *)arg;
	return resident_sweep(r) || resident_stats_issue(r) ? -1 : 0;
}

/* What a CUDA graph would save gpu2 where its step is launch-bound: the
 * whole step launched call by call and as one graph, each on an idle
 * device (time_it), as in a run, where the previous step ended waiting. */
static int step_graph_rows(struct heat_resident *r, int reps, const struct apod_bench_sink *k,
                           double bytes, double copy_gbs)
{
	cudaStream_t s, legacy = r->stream;
	struct apod_cuda_graph graph = { NULL };
	double calls_ms = 0, graph_ms = 0;
	int failed;
	/* Not the legacy stream: it cannot be captured. */
	APOD_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	r->stream = s;
	/* The graph's warm-up run captures it; the timed runs only launch it. */
	failed = time_it(reps, [&] { return step_calls(r) != 0; }, &calls_ms, s) ||
	         time_it(reps, [&] { return apod_cuda_graph_run(&graph, s, step_calls, r) != 0; },
	                 &graph_ms, s);
	r->stream = legacy;
	apod_cuda_graph_free(&graph);
	cudaStreamDestroy(s);
	if (failed)
		return -1;
	return row(k, "gpu2 step + calcStats, call by call", calls_ms, bytes, copy_gbs,
	           "idle start, 7 calls, as in a run") ||
	       row(k, "  the same as one CUDA graph", graph_ms, bytes, copy_gbs, "idle start, 1 launch") ||
	       k->figure(k->arg, "step_calls_ms", calls_ms) ||
	       k->figure(k->arg, "step_graph_ms", graph_ms) ? -1 : 0;
}

/* gpu5: a pass of T steps, timed whole and shown per step, so that "of
 * copy" above 100% is what fusing steps buys over the one-pass limit.  The
 * figure that answers to the workload is GCells/s with statistics every step; the
 * sweep alone, fused 8 deep, is beside it, and the passes the stage runs
 * with statistics every 8th step (stats_every = 8: temporal_next's plan). */
static int gpu5_rows(const struct heat_problem *p, int reps, const struct apod_bench_sink *k,
                     double bytes2, double copy_gbs)
{
	struct temporal t;
	const char *why;
	double ms = 0, sweep_ms = 0, every8_ms = 0, stats_busy, sweep_busy = -1, cells = (double)p->n;
	cudaStream_t s;
	int failed;

	if (!temporal_supported(p, &why))
		return k->line(k->arg, "gpu5: skipped, %s", why);
	APOD_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	if (temporal_init(&t, p, s)) {
		temporal_free(&t);
		cudaStreamDestroy(s);
		return -1;
	}
	failed = time_q(reps, [&] { return temporal_pass(&t, t.depth, 1) != 0; }, &ms, s);
	stats_busy = busy_ms;
	if (!failed)
		failed = time_q(reps, [&] { return temporal_pass(&t, 8, 0) != 0; }, &sweep_ms, s);
	if (!failed) {
		sweep_busy = busy_ms;
		/* Steps 1 to 8 of a run with stats_every = 8, as gpu5 issues them. */
		failed = time_q(reps, [&] {
			long done = 0;
			int depth, stats;
			while (done < 8) {
				if ((depth = temporal_next(&t, done, 8, 8, &stats)) < 0 ||
				    temporal_pass(&t, depth, stats))
					return true;
				done += depth;
			}
			return false;
		}, &every8_ms, s);
	}
	if (!failed) {
		char name[64], note[96];
		double every8_busy = busy_ms;
		/* Per step: a pass's time over its steps. */
		ms /= t.depth;
		sweep_ms /= 8;
		busy_ms = stats_busy >= 0 ? stats_busy / t.depth : -1;
		snprintf(name, sizeof name, "gpu5 %d steps a pass + statistics", t.depth);
		snprintf(note, sizeof note, "a step: %.1f GCells/s; copy limit %.1f",
		         cells / (ms * 1e-3) / 1e9, copy_gbs / (2.0 * sizeof(heat_real)));
		failed = row(k, name, ms, bytes2, copy_gbs, note);
		busy_ms = sweep_busy >= 0 ? sweep_busy / 8 : -1;
		snprintf(note, sizeof note, "a step: %.1f GCells/s", cells / (sweep_ms * 1e-3) / 1e9);
		failed = failed || row(k, "  gpu5 sweep only, 8 steps a pass", sweep_ms, bytes2, copy_gbs, note);
		every8_ms /= 8;
		busy_ms = every8_busy >= 0 ? every8_busy / 8 : -1;
		snprintf(note, sizeof note, "a step: %.1f GCells/s; the statistics of 1 step in 8",
		         cells / (every8_ms * 1e-3) / 1e9);
		failed = failed || row(k, "  gpu5, stats every 8 steps", every8_ms, bytes2, copy_gbs, note) ||
		         k->figure(k->arg, "gpu5_depth", t.depth) ||
		         k->figure(k->arg, "gpu5_step_ms", ms) ||
		         k->figure(k->arg, "gpu5_gcells_per_s", cells / (ms * 1e-3) / 1e9) ||
		         k->figure(k->arg, "gpu5_sweep_only_step_ms", sweep_ms) ||
		         k->figure(k->arg, "gpu5_stats_every8_step_ms", every8_ms);
	}
	temporal_free(&t);
	cudaStreamDestroy(s);
	return failed ? -1 : 0;
}

/* The fused kernel lives in stage4.cu; it is reached through this hook. */
extern int heat_gpu4_fused_once(void *ctx);
extern void *heat_gpu4_bench_create(const struct heat_problem *p);
extern void heat_gpu4_bench_destroy(void *ctx);
extern cudaStream_t heat_gpu4_bench_stream(void *ctx);
extern int heat_gpu4_variant_once(void *ctx, int moments, int hist);
extern int heat_gpu4_rows_once(void *ctx, int moments, int hist);
extern int heat_gpu4_loop_steps(void *ctx);
extern int heat_gpu4_loop_once(void *ctx, int deferred, int steps, double *stats, double *hist);

/* gpu4's step loop as a run lives it (each repetition on an idle device,
 * the host launching): calcStats waited for every step, as before the
 * deferred probes, and deferred, the ring's rows collected once.  Shown
 * per step: the difference is the wait the deferred probes remove. */
static int loop_rows(void *g4, const struct heat_problem *p, int reps,
                     const struct apod_bench_sink *k, double bytes, double copy_gbs)
{
	int steps = heat_gpu4_loop_steps(g4);
	double *stats = (double *)calloc((size_t)steps * 4, sizeof(double));
	double *hist = (double *)calloc((size_t)steps * p->nbins, sizeof(double));
	double waited_ms = 0, deferred_ms = 0;
	char note[96];
	int failed;
	if (!stats || !hist) {
		free(stats);
		free(hist);
		return apod_fail("bench: out of memory for %d rows of statistics", steps);
	}
	failed = time_it(reps, [&] { return heat_gpu4_loop_once(g4, 0, steps, stats, hist) != 0; },
	                 &waited_ms, heat_gpu4_bench_stream(g4)) ||
	         time_it(reps, [&] { return heat_gpu4_loop_once(g4, 1, steps, stats, hist) != 0; },
	                 &deferred_ms, heat_gpu4_bench_stream(g4));
	free(stats);
	free(hist);
	if (failed)
		return -1;
	waited_ms /= steps;
	deferred_ms /= steps;
	snprintf(note, sizeof note, "a step of %d, idle start, a wait every step", steps);
	if (row(k, "gpu4 step + calcStats, waited", waited_ms, bytes, copy_gbs, note))
		return -1;
	snprintf(note, sizeof note, "a step of %d, idle start, one wait at the end", steps);
	return row(k, "  the same, deferred", deferred_ms, bytes, copy_gbs, note) ||
	       k->figure(k->arg, "gpu4_loop_waited_step_ms", waited_ms) ||
	       k->figure(k->arg, "gpu4_loop_deferred_step_ms", deferred_ms) ? -1 : 0;
}

/* The ceiling, the faster of the plain and (in float) the 16-byte copy
 * kernel, into *copy_gbs; then what cudaMemcpy makes of the same field, on
 * the device and to pinned host memory (a snapshot's crossing). */
static int copy_rows(struct heat_resident *r, const struct heat_problem *p, int reps, int blocks,
                     const struct apod_bench_sink *k, double *copy_gbs)
{
	size_t n = p->n, field = n * sizeof(heat_real);
	double ms = 0, plain_ms, plain_busy, bytes2 = 2.0 * field;
	heat_real *h;
	int failed;

	if (time_q(reps, [&] { copy_kernel<<<blocks, 256>>>(r->d_cur, r->d_next, n);
	                        return cudaGetLastError() != cudaSuccess; }, &ms))
		return -1;
	*copy_gbs = bytes2 / (ms * 1e-3) / 1e9;
	plain_ms = ms, plain_busy = busy_ms;
#ifdef APOD_REAL_FLOAT
	if (n % 4 == 0) {
		if (time_q(reps, [&] { copy4_kernel<<<blocks, 256>>>((const float4 *)r->d_cur,
		                                                      (float4 *)r->d_next, n / 4);
		                        return cudaGetLastError() != cudaSuccess; }, &ms))
			return -1;
		if (bytes2 / (ms * 1e-3) / 1e9 > *copy_gbs)
			*copy_gbs = bytes2 / (ms * 1e-3) / 1e9;
		if (row(k, "copy kernel, 16-byte accesses", ms, bytes2, *copy_gbs, "read n, write n"))
			return -1;
	}
#endif
	busy_ms = plain_busy;
	if (row(k, "copy kernel, one element per access", plain_ms, bytes2, *copy_gbs,
	        "read n, write n") ||
	    k->line(k->arg, "(the ceiling: %.1f GB/s, the faster copy kernel)", *copy_gbs) ||
	    k->figure(k->arg, "copy_gb_per_s", *copy_gbs))
		return -1;
	if (time_q(reps, [&] { return cudaMemcpyAsync(r->d_next, r->d_cur, field,
	                                               cudaMemcpyDeviceToDevice) != cudaSuccess; }, &ms) ||
	    row(k, "cudaMemcpy device to device", ms, bytes2, *copy_gbs, ""))
		return -1;
	APOD_CUDA_TRY(cudaMallocHost(&h, field));
	failed = time_q(reps, [&] { return cudaMemcpyAsync(h, r->d_cur, field,
	                                                    cudaMemcpyDeviceToHost) != cudaSuccess; }, &ms);
	cudaFreeHost(h);
	return failed || row(k, "cudaMemcpy device to pinned host", ms, (double)field, 0,
	                     "one snapshot over PCIe") ||
	       k->figure(k->arg, "d2h_field_ms", ms) ? -1 : 0;
}

/* gpu1-3's sweep, queued and on an idle device (the difference is the
 * host's launch latency), gpu2-3's statistics kernel, and gpu2's whole step
 * call by call and as a graph. */
static int sweep_rows(struct heat_resident *r, const struct heat_problem *p, int reps,
                      const struct apod_bench_sink *k, double copy_gbs)
{
	size_t n = p->n, field = n * sizeof(heat_real);
	double ms = 0, idle_ms = 0, bytes2 = 2.0 * field;

	if (time_q(reps, [&] { return resident_sweep(r) != 0; }, &ms) ||
	    row(k, "gpu1-3 sweep + pin", ms, bytes2, copy_gbs, "one thread per cell") ||
	    time_it(reps, [&] { return resident_sweep(r) != 0; }, &idle_ms) ||
	    row(k, "  the same, launched on an idle device", idle_ms, bytes2, copy_gbs,
	        "adds the launch latency") ||
	    k->figure(k->arg, "sweep_ms", ms) || k->figure(k->arg, "sweep_idle_start_ms", idle_ms))
		return -1;
	if (time_q(reps, [&] {
		    stats_kernel<<<r->stats_blocks, r->stats_threads, (size_t)p->nbins * sizeof(unsigned)>>>(
			    r->d_cur, n, p->hist_lo, p->hist_inv_width, p->nbins, r->d_parts, r->d_hist);
		    return cudaGetLastError() != cudaSuccess; }, &ms) ||
	    row(k, "gpu2-3 statistics (Welford+hist)", ms, (double)field, copy_gbs, "reads n"))
		return -1;
	return step_graph_rows(r, reps, k, bytes2 + (double)field, copy_gbs);
}

/* gpu4's moments reduction and merge, with and without the histogram,
 * beside CUB's DeviceReduce on the same field: the yardstick for a
 * one-pass reduction. */
static int reduce_rows(struct heat_resident *r, const struct heat_problem *p, int reps, int sms,
                       const struct apod_bench_sink *k, double copy_gbs)
{
	size_t n = p->n, field = n * sizeof(heat_real), temp_bytes = 0;
	double cub_ms = 0, tuned_ms = 0, tuned_hist_ms = 0, *d_sum = NULL;
	void *temp = NULL;
	int tb = 3 * sms, tt = TUNED_THREADS;   /* one full wave on sm_80 and newer */
	int failed;

	/* CUB's item count is an int here: past 2^31 cells it is left out. */
	if (n > (size_t)INT_MAX)
		return k->line(k->arg, "CUB DeviceReduce: skipped, %zu cells exceed its int count", n);
	APOD_CUDA_TRY(cudaMalloc(&d_sum, sizeof(double)));
	failed = APOD_CUDA_CHECK(cub::DeviceReduce::Reduce(temp, temp_bytes, r->d_cur, d_sum, (int)n,
	                                                   cuda::std::plus<double>(), 0.0)) ||
	         APOD_CUDA_CHECK(cudaMalloc(&temp, temp_bytes)) ||
	         time_q(reps, [&] { return cub::DeviceReduce::Reduce(temp, temp_bytes, r->d_cur, d_sum, (int)n,
	                                                             cuda::std::plus<double>(), 0.0) != cudaSuccess; },
	                &cub_ms) ||
	         row(k, "CUB DeviceReduce (sum in double)", cub_ms, (double)field, copy_gbs,
	             "the yardstick for a one-pass reduction") ||
	         k->figure(k->arg, "cub_reduce_ms", cub_ms) ||
	         time_q(reps, [&] {
		         reduce_stats_kernel<false><<<tb, tt>>>(r->d_cur, n, p->hist_lo, p->hist_inv_width,
		                                                p->nbins, r->d_parts, r->d_hist);
		         merge_kernel<<<1, 256>>>(r->d_parts, tb, r->d_total);
		         return cudaGetLastError() != cudaSuccess; }, &tuned_ms) ||
	         row(k, "gpu4 moments reduction + merge", tuned_ms, (double)field, copy_gbs,
	             "shifted sums, Chan merge: like for like with CUB") ||
	         time_q(reps, [&] {
		         cudaMemsetAsync(r->d_hist, 0, (size_t)p->nbins * sizeof(unsigned));
		         reduce_stats_kernel<true><<<tb, tt, (size_t)p->nbins * sizeof(unsigned)>>>(
			         r->d_cur, n, p->hist_lo, p->hist_inv_width, p->nbins, r->d_parts, r->d_hist);
		         merge_kernel<<<1, 256>>>(r->d_parts, tb, r->d_total);
		         return cudaGetLastError() != cudaSuccess; }, &tuned_hist_ms) ||
	         row(k, "gpu4 moments + histogram + merge", tuned_hist_ms, (double)field, copy_gbs,
	             "all of calcStats") ||
	         k->line(k->arg, "moments reduction against CUB: %.1f%% of CUB's speed; with the "
	                 "histogram %.1f%%", 100 * cub_ms / tuned_ms, 100 * cub_ms / tuned_hist_ms) ||
	         k->figure(k->arg, "tuned_moments_ms", tuned_ms) ||
	         k->figure(k->arg, "tuned_stats_ms", tuned_hist_ms);
	cudaFree(temp);
	cudaFree(d_sum);
	return failed ? -1 : 0;
}

#ifdef APOD_REAL_FLOAT
/* What the statistics cost inside gpu4's fused kernel, and the slower
 * variant it is measured against: 32-row blocks (2.59 waves at 8192^2 on an
 * H200), statistics in double per group of four. */
static int fused_variant_rows(void *g4, int reps, const struct apod_bench_sink *k, double bytes,
                              double copy_gbs)
{
	static const struct {
		int moments, hist;
		const char *name, *key;
	} variants[] = {
		{ 0, 0, "  the same, sweep only", "gpu4_sweep_only_ms" },
		{ 1, 0, "  the same, sweep + moments", "gpu4_sweep_moments_ms" },
		{ 1, 1, "  before: 32-row blocks", "gpu4_before_fused_ms" },
		{ 0, 0, "  before, sweep only", "gpu4_before_sweep_only_ms" },
		{ 1, 0, "  before, sweep + moments", "gpu4_before_sweep_moments_ms" },
	};
	int i = 0;
	for (const auto &v : variants) {
		double ms = 0;
		int before = i++ >= 2;
		if (time_q(reps, [&] { return (before ? heat_gpu4_rows_once(g4, v.moments, v.hist)
		                                      : heat_gpu4_variant_once(g4, v.moments, v.hist)) != 0; },
		           &ms, heat_gpu4_bench_stream(g4)) ||
		    row(k, v.name, ms, bytes, copy_gbs, before ? "" : v.moments ? "no histogram" : "no statistics") ||
		    k->figure(k->arg, v.key, ms))
			return -1;
	}
	return 0;
}
#endif

/* gpu4's fused sweep and statistics, its step loop, and (in float) what
 * each of its choices is worth. */
static int fused_rows(const struct heat_problem *p, int reps, const struct apod_bench_sink *k,
                      double copy_gbs)
{
	double ms = 0, bytes = 2.0 * p->n * sizeof(heat_real) + p->n / 8.0;
	void *g4;
	int failed;

	if (!(g4 = heat_gpu4_bench_create(p)))
		return -1;
	failed = time_q(reps, [&] { return heat_gpu4_fused_once(g4) != 0; }, &ms,
	                heat_gpu4_bench_stream(g4)) ||
	         row(k, "gpu4 fused sweep + statistics", ms, bytes, copy_gbs, "read n, write n, mask n/8") ||
	         k->figure(k->arg, "gpu4_fused_ms", ms) ||
	         loop_rows(g4, p, reps, k, bytes, copy_gbs);
#ifdef APOD_REAL_FLOAT
	if (!failed && p->nx % 4 == 0)
		failed = fused_variant_rows(g4, reps, k, bytes, copy_gbs);
#endif
	heat_gpu4_bench_destroy(g4);
	return failed ? -1 : 0;
}

/* Kernel-level measurements on the problem's grid (CUDA events, median of
 * reps after a warm-up): the copy ceiling, each stage's stencil and
 * statistics kernels as effective bandwidth against it, CUB's DeviceReduce
 * beside the statistics, a row each to the sink. */
static int heat_gpu_bench(const struct heat_problem *p, int reps, const struct apod_bench_sink *k)
{
	struct heat_resident r;
	double copy_gbs = 0;
	int dev, sms, failed;

	if (resident_init(&r, p, "bench", 0, 4096, 1))
		return -1;
	failed = APOD_CUDA_CHECK(cudaGetDevice(&dev)) ||
	         APOD_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) ||
	         k->line(k->arg, "kernels on %zux%zu (%s), median of %d after a warm-up, CUDA events "
	                 "around", p->nx, p->ny, sizeof(heat_real) == 4 ? "float" : "double", reps) ||
	         k->line(k->arg, "work queued behind a spacer (no launch latency):") ||
	         copy_rows(&r, p, reps, 4 * sms * 8, k, &copy_gbs) ||
	         sweep_rows(&r, p, reps, k, copy_gbs) ||
	         reduce_rows(&r, p, reps, sms, k, copy_gbs);
	resident_free(&r);
	return failed || fused_rows(p, reps, k, copy_gbs) ||
	       gpu5_rows(p, reps, k, 2.0 * p->n * sizeof(heat_real), copy_gbs) ? -1 : 0;
}

/* The workload's kernel_rows member (cpu/heat/heat_stage.h). */
extern "C" int heat_kernels(const void *problem, int reps, const struct apod_bench_sink *sink)
{
	int rc = apod_gpu_kernels_ready("heat");
	return rc ? rc : heat_gpu_bench((const struct heat_problem *)problem, reps, sink);
}
