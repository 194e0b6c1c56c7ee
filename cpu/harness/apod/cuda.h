/*
 * apod/cuda.h: what a GPU stage of your own needs from apod, for a .cu file.
 *
 * apod's own GPU stages check every CUDA call, refuse a problem that does
 * not fit on the device with a usage error, and say why a GPU cannot be
 * used instead of crashing where there is none.  This header gives a
 * workload built against the installed library the same three things:
 *
 *     #include <apod/cuda.h>
 *     APOD_CUDA_TRY(cudaMalloc(&d, bytes));
 *     APOD_LAUNCH_TRY((kernel<<<blocks, threads>>>(d, n)));
 *     .available = apod_cuda_available,
 *
 * Everything here is static inline, compiled in your .cu file by nvcc: the
 * library itself links no CUDA, so a CPU-only port never needs the toolkit,
 * and your stage uses the CUDA runtime your program was built with.
 *
 * Failures follow the harness's convention (apod/apod.h): a function that
 * fails records why with apod_fail() or apod_usage_fail() and returns -1;
 * the harness prints the message and picks the exit status.
 */
#ifndef APOD_CUDA_H
#define APOD_CUDA_H

#ifndef __CUDACC__
#error "apod/cuda.h is for .cu files compiled by nvcc; C files need only apod/apod.h"
#endif

#include <stddef.h>
#include <stdio.h>

#include <cuda_runtime.h>

#include "apod.h"

/* Record "CALL failed at FILE:LINE: cudaErrorX: description" and return
 * -1.  The call's own text and its place, not only CUDA's description, so
 * that a failure in a stage of many calls names the one that failed.  The
 * macros below call it; call it yourself for an error code you got some
 * other way (from cudaStreamQuery, say). */
static inline int apod_cuda_failed(cudaError_t err, const char *call, const char *file, int line)
{
	return apod_fail("%s failed at %s:%d: %s: %s", call, file, line, cudaGetErrorName(err),
	                 cudaGetErrorString(err));
}

/* Every CUDA call of a stage goes through this: on an error it records the
 * failure and returns -1 from the enclosing function, which is how create's
 * helpers, step, probe and fetch report failure to the harness.  (In a
 * function returning a pointer, such as create, call a helper that returns
 * int and return NULL when it fails.) */
#define APOD_CUDA_TRY(call)                                                   \
	do {                                                                  \
		cudaError_t apod_cuda_err_ = (call);                          \
		if (apod_cuda_err_ != cudaSuccess)                            \
			return apod_cuda_failed(apod_cuda_err_, #call, __FILE__, __LINE__); \
	} while (0)

/* The same check as an expression, for a function that frees what it
 * holds before it returns: 0, or -1 after apod_cuda_failed.
 *
 *     failed = APOD_CUDA_CHECK(cudaMalloc(&a, n)) || APOD_CUDA_CHECK(cudaMalloc(&b, n));
 */
static inline int apod_cuda_check(cudaError_t err, const char *call, const char *file, int line)
{
	return err == cudaSuccess ? 0 : apod_cuda_failed(err, call, file, line);
}
#define APOD_CUDA_CHECK(call) apod_cuda_check((call), #call, __FILE__, __LINE__)

/* After a kernel launch, which returns nothing: cudaGetLastError() says at
 * once whether the launch was accepted (a bad grid, too much shared
 * memory, no code for this device).  What the kernel itself does wrong
 * shows at the next call that waits for it, which APOD_CUDA_TRY checks.
 * Put the launch in parentheses: its <<<a, b>>> holds a comma. */
#define APOD_LAUNCH_TRY(launch)                                               \
	do {                                                                  \
		cudaError_t apod_cuda_err_;                                   \
		(launch);                                                     \
		if ((apod_cuda_err_ = cudaGetLastError()) != cudaSuccess)     \
			return apod_cuda_failed(apod_cuda_err_, #launch, __FILE__, __LINE__); \
	} while (0)

/* A kernel that exists only so that cudaFuncGetAttributes can tell whether
 * the file that includes this header carries code (SASS or PTX) that the
 * device can run.  Static: each of your .cu files has its own. */
static __global__ void apod_cuda_probe_kernel(void) {}

/* CUDA's version number (1000 * major + 10 * minor) as "major.minor". */
static inline void apod_cuda_version_text(int v, char *buf, size_t len)
{
	snprintf(buf, len, "%d.%d", v / 1000, (v % 1000) / 10);
}

/* The checks behind apod_cuda_available (below), with the advice for a
 * binary that carries no code for the device: "rebuild it " + rebuild +
 * the architecture's two digits (apod's own stages name their configure
 * option here). */
static inline int apod_cuda_usable(char *why, size_t len, const char *rebuild)
{
	int n = 0, drv = 0, rt = 0, dev = 0;
	char d[16], r[16];
	cudaError_t err = cudaGetDeviceCount(&n);
	cudaFuncAttributes attr;
	cudaDeviceProp prop;

	cudaDriverGetVersion(&drv);
	cudaRuntimeGetVersion(&rt);
	apod_cuda_version_text(drv, d, sizeof d);
	apod_cuda_version_text(rt, r, sizeof r);
	if (drv == 0) {
		snprintf(why, len, "no NVIDIA driver is installed, so no CUDA device can be used "
		         "(cudaGetDeviceCount: %s)", cudaGetErrorName(err));
		return 0;
	}
	if (err == cudaErrorInsufficientDriver || (err == cudaSuccess && drv < rt)) {
		snprintf(why, len, "the NVIDIA driver supports CUDA %s, but this program's runtime "
		         "needs CUDA %s or newer: update the driver", d, r);
		return 0;
	}
	if (err == cudaErrorNoDevice || (err == cudaSuccess && n == 0)) {
		snprintf(why, len, "no CUDA device found (driver CUDA %s; cudaGetDeviceCount: %s)", d,
		         cudaGetErrorName(err));
		return 0;
	}
	if (err != cudaSuccess) {
		snprintf(why, len, "cannot use the GPU: cudaGetDeviceCount: %s: %s",
		         cudaGetErrorName(err), cudaGetErrorString(err));
		return 0;
	}
	if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
		snprintf(why, len, "cannot read the properties of device %d", dev);
		return 0;
	}
	err = cudaFuncGetAttributes(&attr, apod_cuda_probe_kernel);
	if (err == cudaErrorNoKernelImageForDevice || err == cudaErrorInvalidDeviceFunction) {
		snprintf(why, len, "this program carries no code for %s (sm_%d%d); rebuild it %s%d%d",
		         prop.name, prop.major, prop.minor, rebuild, prop.major, prop.minor);
		return 0;
	}
	err = err == cudaSuccess ? cudaFree(0) : err;
	if (err != cudaSuccess) {
		snprintf(why, len, "cannot use %s: %s: %s", prop.name, cudaGetErrorName(err),
		         cudaGetErrorString(err));
		return 0;
	}
	return 1;
}

/* A GPU stage's `available` (struct apod_stage_ops, apod/workload.h): 1 if a CUDA device can run
 * this program, else 0 with the reason in why, so that the table reports
 * the stage as not run, and why, instead of failing where there is no GPU.
 * The reasons are the ones a user can act on: no driver, a driver older
 * than the runtime the program was built with (both versions given), no
 * device, no code in this file for the device's architecture (rebuild with
 * its -arch).  On success the device's context is created here, so that
 * its cost (a few hundred ms) is not charged to the first timed phase. */
static inline int apod_cuda_available(const struct apod_stage *s, char *why, size_t len)
{
	(void)s;
	return apod_cuda_usable(why, len, "with nvcc -arch=sm_");
}

/* A GPU stage's destroy frees its device buffers with one call:
 *
 *     apod_cuda_free(g->d_x, g->d_partial, g->d_total);
 *
 * Their statuses are not checked, on purpose: a failed free leaves nothing
 * to undo and destroy has no one to report to.  A buffer never allocated
 * (create failed before it) is NULL, which cudaFree takes. */
template <class... Buffers> static inline void apod_cuda_free(Buffers *...buffers)
{
	((void)cudaFree((void *)buffers), ...);
}

/* Call it in create before allocating: a problem too big for the device is
 * the user's request, not a fault of the run, so it gets a usage error
 * (exit status 2) naming the stage, the bytes needed and the bytes free,
 * rather than a cudaErrorMemoryAllocation from whichever cudaMalloc came
 * first.  `bytes` is everything the stage will allocate.  Returns 0 if it
 * fits, else -1 after apod_usage_fail() (or apod_fail() if the device
 * cannot be asked). */
static inline int apod_cuda_require(const char *stage, size_t bytes)
{
	size_t free_b = 0, total_b = 0;
	APOD_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
	if (bytes > free_b)
		return apod_usage_fail("%s: the problem needs %zu bytes of device memory, but only %zu "
		                       "of the device's %zu are free", stage, bytes, free_b, total_b);
	return 0;
}

/* Call it in create for every kernel whose launches ask for `bytes` of
 * dynamic shared memory (a histogram of the deck's bins, say): a device
 * gives a block 48 KiB unless the kernel opts in to more, and a launch (or
 * an occupancy query) past that fails, or reports zero blocks, rather than
 * using what the device has.  This opts the kernel in up to `bytes`; where
 * the device cannot hold `bytes` in one block at all, the problem is the
 * user's request, so it gets a usage error (exit 2) naming the stage, what
 * needs the memory (`what`, e.g. "4096 histogram bins") and both figures. */
static inline int apod_cuda_smem_allow(const char *stage, const char *what, const void *kernel,
                                       size_t bytes)
{
	int dev = 0, optin = 0;
	struct cudaFuncAttributes fa;
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
	APOD_CUDA_TRY(cudaFuncGetAttributes(&fa, kernel));
	if (bytes + fa.sharedSizeBytes > (size_t)optin)
		return apod_usage_fail("%s: %s need %zu bytes of shared memory a block (%zu static), but "
		                       "this device gives a block at most %d", stage, what,
		                       bytes + fa.sharedSizeBytes, fa.sharedSizeBytes, optin);
	APOD_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
	return 0;
}

/* A step whose launches are captured once into a CUDA graph and replayed
 * after that: one launch for the host to issue instead of one a kernel,
 * copy or event, and no gaps between the graph's kernels for a slow host
 * to open.  Where the host's issue time, not the device, sets a step's
 * pace (small grids, several launches a step), this is what lifts it:
 *
 *     struct apod_cuda_graph graph[2] = {};      // in the stage's state
 *     ...
 *     // in step: one graph for each parity of the ping-pong buffers
 *     if (apod_cuda_graph_run(&g->graph[s % 2], g->stream, issue_step, g))
 *             return -1;
 *     ...
 *     apod_cuda_graph_free(&g->graph[0]); apod_cuda_graph_free(&g->graph[1]);
 *
 * issue(arg) enqueues the step's work on `stream` and returns 0 (or -1
 * after apod_fail); it must enqueue the same work, with the same
 * arguments, every time, since the graph replays what the first call
 * captured: work that changes from step to step needs a graph for each
 * variant (each parity above), or none.  The stream must not be the legacy
 * default stream, which cannot be captured, and issue must not wait on the
 * host (no cudaStreamSynchronize, no synchronous copy).  Phase timing
 * stays outside the graph: a stage that records its phase events where the
 * work changes phase (gpu/phase_events.h's edges) records them on the
 * stream before the replay, so the graph holds no event that a later
 * replay would overwrite. */
struct apod_cuda_graph {
	cudaGraphExec_t exec;
};

static inline int apod_cuda_graph_run(struct apod_cuda_graph *g, cudaStream_t stream,
                                      int (*issue)(void *arg), void *arg)
{
	if (!g->exec) {
		cudaGraph_t graph = NULL;
		cudaError_t err;
		APOD_CUDA_TRY(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
		if (issue(arg)) {
			/* End the capture whatever it holds, so the stream works again. */
			if (cudaStreamEndCapture(stream, &graph) == cudaSuccess && graph)
				cudaGraphDestroy(graph);
			return -1;
		}
		APOD_CUDA_TRY(cudaStreamEndCapture(stream, &graph));
		err = cudaGraphInstantiate(&g->exec, graph, 0);
		cudaGraphDestroy(graph);
		if (err != cudaSuccess) {
			g->exec = NULL;
			return apod_cuda_failed(err, "cudaGraphInstantiate", __FILE__, __LINE__);
		}
	}
	APOD_CUDA_TRY(cudaGraphLaunch(g->exec, stream));
	return 0;
}

/* Free what apod_cuda_graph_run instantiated; a graph never captured is
 * left alone.  Unchecked, as apod_cuda_free is: destroy cannot report. */
static inline void apod_cuda_graph_free(struct apod_cuda_graph *g)
{
	if (g->exec)
		(void)cudaGraphExecDestroy(g->exec);
	g->exec = NULL;
}

#endif
