/*
 * overlap.cu: lab 3, hiding host<->device copies behind a kernel with streams.
 *
 * The work: an array of n floats in pinned host memory goes to the device
 * (H2D), a kernel transforms every element in place, and the array comes
 * back (D2H).  The lab measures, in the order the guide builds the idea:
 *
 *   - the parts alone: H2D of the whole array, D2H of it, both one after
 *     the other (t_T), both at once on two streams, and the kernel alone
 *     (t_E);
 *   - sequential copy and execute: H2D, kernel, D2H on the default stream;
 *   - staged concurrent copy and execute: the array cut into nStreams
 *     chunks (1, 2, 4, 8, 16), each chunk's H2D, kernel and D2H issued into
 *     its own stream, in two issue orders: depth-first (one loop issuing all
 *     three per stream, as the modern guide does) and breadth-first (all
 *     H2Ds, then all kernels, then all D2Hs, the loops of guide 2.3);
 * and holds every time against the guide's model, staged ~ t_E + t_T/n when
 * t_E > t_T and t_T + t_E/n otherwise (sequential ~ t_E + t_T), and against
 * a three-stage pipeline model that lets H2D, kernel and D2H each run on an
 * engine of its own (both models are in cpu/labs/lab_models.c).
 *
 * The kernel must take about as long as the copies, whatever the GPU, so
 * the lab calibrates it: it times the kernel at two iteration counts and
 * picks one count for t_E ~ 2 t_T (a compute-bound case) and one for
 * t_E ~ t_T/4 (a transfer-bound case), so that both branches of the model
 * show up.
 *
 * The kernel's map is integer arithmetic so that the CPU can reproduce it
 * bit for bit: each element x = k/2^24 becomes u = k, then K steps of the
 * linear congruential map u <- 1664525 u + 1013904223 (mod 2^32), and the
 * result is (u >> 8)/2^24.  Every float operation in it is exact (scaling
 * by a power of two, converting an integer below 2^24), so no rounding or
 * FMA contraction can differ between host and device.  K steps of an affine
 * map compose into one affine map, so the CPU reference costs one
 * multiply-add per element however large K is.
 *
 * Checked before timed: every configuration (sequential, each stream count
 * and order, each case) runs once after the host output and the device
 * array are filled with NaN bytes, and the whole output must equal the CPU
 * reference bit for bit (memcmp).  The map is applied in place and is not
 * idempotent, so a chunk that is skipped, copied twice, or transformed
 * twice or before its copy has landed, fails.  The copies are checked by
 * round trips that must return the input byte for byte.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_check.h"
#include "lab.h"
#include "lab_models.h"   /* the two models: apod_model_staged, apod_model_pipeline */
#include "timing.cuh"

#define THREADS 256
#define MAX_STREAMS 16
#define LCG_A 1664525u
#define LCG_C 1013904223u
#define PROBE_ITERS 1024u            /* calibration: the kernel at 0 and at this many steps */
#define MAX_ITERS (1u << 22)

static const int stream_counts[] = { 1, 2, 4, 8, 16 };
#define NCOUNTS (int)(sizeof stream_counts / sizeof stream_counts[0])

static __global__ void lcg_kernel(float *a, size_t count, unsigned iters)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= count)
		return;
	uint32_t u = (uint32_t)(a[i] * 16777216.0f);
	/* One dependent multiply-add per step; unrolling would let the compiler
	 * merge steps into fewer (u*A + C)*A + C = u*A^2 + (C*A + C), and the
	 * calibration is simpler to reason about when a step costs the same
	 * at every count. */
#pragma unroll 1
	for (unsigned k = 0; k < iters; k++)
		u = u * LCG_A + LCG_C;
	a[i] = (float)(u >> 8) * (1.0f / 16777216.0f);
}

struct ovl {
	size_t n, bytes;
	float *h_in, *h_out;   /* pinned */
	float *ref;            /* the CPU reference for the current iteration count */
	float *d, *d2;
	cudaStream_t st[MAX_STREAMS];
	cudaEvent_t fork, join[MAX_STREAMS];
};

/* Input: k/2^24 for a hashed 24-bit k, so x * 2^24 is exactly k. */
static void fill_input(float *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (float)((uint32_t)((uint32_t)i * 2654435761u + 12345u) >> 8) * (1.0f / 16777216.0f);
}

/* K steps u <- A u + C compose to u <- a u + c. */
static void reference(struct ovl *L, unsigned iters)
{
	uint32_t a = 1, c = 0;
	for (unsigned k = 0; k < iters; k++) {
		a = a * LCG_A;
		c = c * LCG_A + LCG_C;
	}
	for (size_t i = 0; i < L->n; i++) {
		uint32_t u = a * (uint32_t)(L->h_in[i] * 16777216.0f) + c;
		L->ref[i] = (float)(u >> 8) * (1.0f / 16777216.0f);
	}
}

static int launch(float *a, size_t count, unsigned iters, cudaStream_t s)
{
	if (count == 0)
		return 0;
	LAUNCH_TRY((lcg_kernel<<<(unsigned)((count + THREADS - 1) / THREADS), THREADS, 0, s>>>(a, count, iters)));
	return 0;
}

/* Chunk i of n when the array is cut into ns: sizes differ by at most one
 * element, so n need not divide evenly (the guide assumes it does). */
static size_t chunk_start(size_t n, int ns, int i)
{
	return n * (size_t)i / (size_t)ns;
}

/*
 * The timer's events sit on the legacy default stream.  The streams are
 * created blocking, so the legacy stream already waits for them, but the
 * explicit fork and join say so in the code and keep the timing right
 * under --default-stream per-thread too.
 */
static int fork_streams(struct ovl *L, int ns)
{
	CUDA_TRY(cudaEventRecord(L->fork, 0));
	for (int s = 0; s < ns; s++)
		CUDA_TRY(cudaStreamWaitEvent(L->st[s], L->fork, 0));
	return 0;
}

static int join_streams(struct ovl *L, int ns)
{
	for (int s = 0; s < ns; s++) {
		CUDA_TRY(cudaEventRecord(L->join[s], L->st[s]));
		CUDA_TRY(cudaStreamWaitEvent(0, L->join[s], 0));
	}
	return 0;
}

static int run_h2d(struct ovl *L)
{
	CUDA_TRY(cudaMemcpyAsync(L->d, L->h_in, L->bytes, cudaMemcpyHostToDevice, 0));
	return 0;
}

static int run_d2h(struct ovl *L)
{
	CUDA_TRY(cudaMemcpyAsync(L->h_out, L->d, L->bytes, cudaMemcpyDeviceToHost, 0));
	return 0;
}

/* Both directions at once, on different buffers: h_in -> d and d2 -> h_out. */
static int run_both(struct ovl *L)
{
	if (fork_streams(L, 2))
		return -1;
	CUDA_TRY(cudaMemcpyAsync(L->d, L->h_in, L->bytes, cudaMemcpyHostToDevice, L->st[0]));
	CUDA_TRY(cudaMemcpyAsync(L->h_out, L->d2, L->bytes, cudaMemcpyDeviceToHost, L->st[1]));
	return join_streams(L, 2);
}

static int run_sequential(struct ovl *L, unsigned iters)
{
	if (run_h2d(L) || launch(L->d, L->n, iters, 0))
		return -1;
	return run_d2h(L);
}

static int run_staged(struct ovl *L, int ns, int breadth, unsigned iters)
{
	if (fork_streams(L, ns))
		return -1;
	for (int pass = 0; pass < (breadth ? 3 : 1); pass++)
		for (int s = 0; s < ns; s++) {
			size_t a = chunk_start(L->n, ns, s), m = chunk_start(L->n, ns, s + 1) - a;
			if (!breadth || pass == 0)
				CUDA_TRY(cudaMemcpyAsync(L->d + a, L->h_in + a, m * sizeof(float),
				                         cudaMemcpyHostToDevice, L->st[s]));
			if ((!breadth || pass == 1) && launch(L->d + a, m, iters, L->st[s]))
				return -1;
			if (!breadth || pass == 2)
				CUDA_TRY(cudaMemcpyAsync(L->h_out + a, L->d + a, m * sizeof(float),
				                         cudaMemcpyDeviceToHost, L->st[s]));
		}
	return join_streams(L, ns);
}

/* ns == 0: sequential on the default stream. */
static int run_config(struct ovl *L, int ns, int breadth, unsigned iters)
{
	return ns == 0 ? run_sequential(L, iters) : run_staged(L, ns, breadth, iters);
}

/* NaN bytes in the host output and the device array: nothing left over from
 * an earlier run can pass for a result (every result is a number in [0, 1)). */
static int poison(struct ovl *L)
{
	CUDA_TRY(cudaDeviceSynchronize());
	memset(L->h_out, 0xff, L->bytes);
	CUDA_TRY(cudaMemset(L->d, 0xff, L->bytes));
	return 0;
}

static int verify_config(struct ovl *L, int ns, int breadth, unsigned iters, int *ok)
{
	if (poison(L) || run_config(L, ns, breadth, iters))
		return -1;
	CUDA_TRY(cudaDeviceSynchronize());
	*ok = memcmp(L->h_out, L->ref, L->bytes) == 0;
	return 0;
}

static void add_copy_row(json_object *arr, const char *name, int ok, int timed, double ms, double bytes)
{
	json_object *r = json_object_new_object();
	if (ok && timed)
		printf("  %-44s %10.4f %10.2f  ok\n", name, ms, bytes / (ms * 1e-3) / 1e9);
	else
		printf("  %-44s %10s %10s  %s\n", name, "-", "-", ok ? "ok" : "FAILED");
	json_object_object_add(r, "version", json_object_new_string(name));
	json_object_object_add(r, "verified", json_object_new_boolean(ok));
	json_object_object_add(r, "bytes", json_object_new_int64((int64_t)bytes));
	if (ok && timed) {
		json_object_object_add(r, "ms", json_object_new_double(ms));
		json_object_object_add(r, "GB/s", json_object_new_double(bytes / (ms * 1e-3) / 1e9));
	}
	json_object_array_add(arr, r);
}

extern "C" int apod_lab_overlap(const struct apod_lab_opts *o, json_object *out)
{
	size_t n = o->check ? 100003 : (o->size ? o->size : (size_t)1 << 26);
	struct ovl L;
	int dev = 0, engines = 0, concurrent = 0, failed = 0, timed = !o->check;
	int ok_copy = 0, ok_both = 0, ok1;
	double ms_h2d = 0, ms_d2h = 0, t_T = 0, ms_both = 0;
	unsigned iters[2] = { 1001, 3 };   /* --check, or no calibration possible */
	const char *conn = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
	cudaDeviceProp p;
	json_object *copies, *rows, *cases;

	if (n < MAX_STREAMS || n > (size_t)1 << 30)
		return apod_usage_fail("overlap: --size %zu is not 16 to 2^30 floats", n);
	copies = json_object_new_array();
	rows = json_object_new_array();
	cases = json_object_new_array();
	memset(&L, 0, sizeof L);
	L.n = n;
	L.bytes = n * sizeof(float);
	json_object_object_add(out, "rows", rows);
	json_object_object_add(out, "unit", json_object_new_string("ms"));
	json_object_object_add(out, "copies", copies);
	json_object_object_add(out, "cases", cases);
	json_object_object_add(out, "size", json_object_new_int64((int64_t)n));
	json_object_object_add(out, "bytes", json_object_new_int64((int64_t)L.bytes));

	CUDA_TRY(cudaGetDevice(&dev));
	CUDA_TRY(cudaGetDeviceProperties(&p, dev));
	CUDA_TRY(cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, dev));
	CUDA_TRY(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentKernels, dev));
	json_object_object_add(out, "device", json_object_new_string(p.name));
	json_object_object_add(out, "async_engine_count", json_object_new_int(engines));
	json_object_object_add(out, "concurrent_kernels", json_object_new_int(concurrent));
	json_object_object_add(out, "cuda_device_max_connections",
	                       conn ? json_object_new_string(conn) : json_object_new_string("unset (8)"));
	printf("overlap: %zu floats, %zu bytes each way, pinned host memory; %s\n", n, L.bytes, p.name);
	printf("asyncEngineCount %d (%s), concurrentKernels %d, CUDA_DEVICE_MAX_CONNECTIONS %s\n", engines,
	       engines >= 2 ? "H2D and D2H can run at once, beside a kernel"
	                    : engines == 1 ? "one copy at a time, beside a kernel"
	                                   : "no copy beside a kernel: staging cannot help here",
	       concurrent, conn ? conn : "unset (8 hardware queues)");
	if (engines == 0)
		json_object_object_add(out, "note",
		                       json_object_new_string("asyncEngineCount is 0: this device cannot overlap "
		                                              "copies with kernels; the staged rows show no gain"));

	CUDA_TRY(cudaMallocHost(&L.h_in, L.bytes));
	CUDA_TRY(cudaMallocHost(&L.h_out, L.bytes));
	if (!(L.ref = (float *)malloc(L.bytes)))
		return apod_fail("overlap: cannot allocate %zu bytes of host memory", L.bytes);
	CUDA_TRY(cudaMalloc(&L.d, L.bytes));
	CUDA_TRY(cudaMalloc(&L.d2, L.bytes));
	for (int s = 0; s < MAX_STREAMS; s++) {
		CUDA_TRY(cudaStreamCreate(&L.st[s]));
		CUDA_TRY(cudaEventCreateWithFlags(&L.join[s], cudaEventDisableTiming));
	}
	CUDA_TRY(cudaEventCreateWithFlags(&L.fork, cudaEventDisableTiming));
	fill_input(L.h_in, n);

	/* 1. The copies alone: a round trip, and both directions at once. */
	if (poison(&L) || run_h2d(&L) || run_d2h(&L))
		return -1;
	CUDA_TRY(cudaDeviceSynchronize());
	ok_copy = memcmp(L.h_out, L.h_in, L.bytes) == 0;
	CUDA_TRY(cudaMemcpy(L.d2, L.h_in, L.bytes, cudaMemcpyHostToDevice));
	if (poison(&L) || run_both(&L))
		return -1;
	CUDA_TRY(cudaDeviceSynchronize());
	ok1 = memcmp(L.h_out, L.h_in, L.bytes) == 0;     /* what came down from d2 */
	memset(L.h_out, 0xff, L.bytes);
	CUDA_TRY(cudaMemcpy(L.h_out, L.d, L.bytes, cudaMemcpyDeviceToHost));
	ok_both = ok1 && ok_copy && memcmp(L.h_out, L.h_in, L.bytes) == 0;   /* what went up to d */
	failed |= !ok_copy || !ok_both;
	if (timed && ok_copy &&
	    (time_it(o->reps, [&] { return run_h2d(&L); }, &ms_h2d) ||
	     time_it(o->reps, [&] { return run_d2h(&L); }, &ms_d2h) ||
	     time_it(o->reps, [&] { return run_h2d(&L) || run_d2h(&L); }, &t_T)))
		return -1;
	if (timed && ok_both && time_it(o->reps, [&] { return run_both(&L); }, &ms_both))
		return -1;
	printf("\ncopies of the whole array (cudaMemcpyAsync), median of %d; round trips checked byte for "
	       "byte:\n  %-44s %10s %10s  check\n", o->reps, "copy", "ms", "GB/s");
	add_copy_row(copies, "H2D", ok_copy, timed, ms_h2d, (double)L.bytes);
	add_copy_row(copies, "D2H", ok_copy, timed, ms_d2h, (double)L.bytes);
	add_copy_row(copies, "t_T: H2D then D2H, one stream", ok_copy, timed, t_T, 2.0 * L.bytes);
	add_copy_row(copies, "H2D and D2H at once, two streams", ok_both, timed, ms_both, 2.0 * L.bytes);

	/* 2. Calibration: the kernel's time is about t0 + K * step. */
	if (timed && ok_copy) {
		double t0 = 0, tp = 0, step;
		int okp = 0, ok0 = 0;
		reference(&L, PROBE_ITERS);
		if (verify_config(&L, 0, 0, PROBE_ITERS, &okp))
			return -1;
		reference(&L, 0);
		if (verify_config(&L, 0, 0, 0, &ok0))
			return -1;
		failed |= !okp || !ok0;
		if (okp && ok0) {
			if (time_it(3, [&] { return launch(L.d, n, PROBE_ITERS, 0); }, &tp) ||
			    time_it(3, [&] { return launch(L.d, n, 0, 0); }, &t0))
				return -1;
			step = (tp - t0) / PROBE_ITERS;
			if (step <= 0)
				step = tp / PROBE_ITERS;
			if (step > 0) {
				double target[2] = { 2.0 * t_T, 0.25 * t_T };
				for (int c = 0; c < 2; c++) {
					double k = target[c] > t0 ? (target[c] - t0) / step + 0.5 : 0;
					iters[c] = k > MAX_ITERS ? MAX_ITERS : (unsigned)k;
				}
				/* At least one step each: with none the map is the identity,
				 * and a chunk transformed twice would pass its check. */
				for (int c = 0; c < 2; c++)
					if (iters[c] == 0)
						iters[c] = 1;
			}
			printf("\ncalibration: the kernel alone takes %.4f ms with 0 steps per element and %.4f ms "
			       "with %u;\naiming at t_E = 2 t_T and t_E = t_T/4 gives %u and %u steps\n", t0, tp,
			       PROBE_ITERS, iters[0], iters[1]);
			json_object *cal = json_object_new_object();
			json_object_object_add(cal, "probe_iterations", json_object_new_int((int)PROBE_ITERS));
			json_object_object_add(cal, "ms_at_0", json_object_new_double(t0));
			json_object_object_add(cal, "ms_at_probe", json_object_new_double(tp));
			json_object_object_add(out, "calibration", cal);
		} else
			printf("\ncalibration: the kernel FAILED its check; fixed step counts are used\n");
	}

	/* 3. The two cases: sequential, then staged with 1..16 streams in both orders. */
	for (int c = 0; c < 2; c++) {
		double t_E = 0, ms_seq = 0;
		int ok_seq = 0;
		const char *cname = c == 0 ? "heavy kernel" : "light kernel";
		json_object *cj = json_object_new_object();

		reference(&L, iters[c]);
		if (verify_config(&L, 0, 0, iters[c], &ok_seq))
			return -1;
		failed |= !ok_seq;
		if (timed && ok_seq &&
		    (time_it(o->reps, [&] { return launch(L.d, n, iters[c], 0); }, &t_E) ||
		     time_it(o->reps, [&] { return run_sequential(&L, iters[c]); }, &ms_seq)))
			return -1;
		int model = timed && ok_seq && ok_copy && t_E > 0 && t_T > 0;

		printf("\n%s: %u steps per element", cname, iters[c]);
		if (model)
			printf(", t_E = %.4f ms (kernel alone), t_T = %.4f ms;\nthe guide's model: %s; "
			       "pipeline model: max(H2D, t_E, D2H) + the other two / n",
			       t_E, t_T, t_E > t_T ? "t_E + t_T/n (t_E > t_T)" : "t_T + t_E/n (t_T > t_E)");
		printf("\n  %-36s %9s %9s %8s %9s %8s %8s  %s\n", "version", "ms", "model", "meas/mod",
		       "pipeline", "meas/pip", "speed-up", "check");
		json_object_object_add(cj, "case", json_object_new_string(cname));
		json_object_object_add(cj, "iterations", json_object_new_int64(iters[c]));
		json_object_object_add(cj, "verified", json_object_new_boolean(ok_seq));
		if (model) {
			json_object_object_add(cj, "t_E_ms", json_object_new_double(t_E));
			json_object_object_add(cj, "t_T_ms", json_object_new_double(t_T));
			json_object_object_add(cj, "branch", json_object_new_string(t_E > t_T ? "t_E > t_T" : "t_T > t_E"));
		}
		json_object_array_add(cases, cj);

		/* row -1: sequential; then each stream count, depth-first, then breadth-first (n > 1). */
		for (int r = -1; r < 2 * NCOUNTS; r++) {
			int ns = r < 0 ? 0 : stream_counts[r % NCOUNTS], breadth = r >= NCOUNTS, ok = ok_seq;
			double ms = ms_seq, m_guide = 0, m_pipe = 0;
			char name[64];
			json_object *row;
			if (breadth && ns == 1)
				continue;   /* one stream: the same issue order as depth-first */
			row = json_object_new_object();
			if (ns == 0)
				snprintf(name, sizeof name, "sequential, default stream");
			else {
				snprintf(name, sizeof name, "staged, %2d stream%s, %s", ns, ns > 1 ? "s" : "",
				         breadth ? "breadth-first" : "depth-first");
				if (verify_config(&L, ns, breadth, iters[c], &ok))
					return -1;
				failed |= !ok;
				ms = 0;
				if (timed && ok &&
				    time_it(o->reps, [&] { return run_staged(&L, ns, breadth, iters[c]); }, &ms))
					return -1;
			}
			if (model) {
				m_guide = apod_model_staged(t_E, t_T, ns);
				m_pipe = apod_model_pipeline(ms_h2d, t_E, ms_d2h, ns);
			}
			if (timed && ok && model)
				printf("  %-36s %9.4f %9.4f %8.3f %9.4f %8.3f %8.2f  ok\n", name, ms, m_guide,
				       ms / m_guide, m_pipe, ms / m_pipe, ms_seq / ms);
			else if (timed && ok)
				printf("  %-36s %9.4f %9s %8s %9s %8s %8s  ok\n", name, ms, "-", "-", "-", "-", "-");
			else
				printf("  %-36s %9s %9s %8s %9s %8s %8s  %s\n", name, "-", "-", "-", "-", "-", "-",
				       ok ? "ok" : "FAILED");
			json_object_object_add(row, "case", json_object_new_string(cname));
			json_object_object_add(row, "iterations", json_object_new_int64(iters[c]));
			json_object_object_add(row, "version", json_object_new_string(name));
			json_object_object_add(row, "streams", json_object_new_int(ns));
			json_object_object_add(row, "order", json_object_new_string(
				ns == 0 ? "sequential" : breadth ? "breadth-first" : "depth-first"));
			json_object_object_add(row, "verified", json_object_new_boolean(ok));
			if (timed && ok) {
				json_object_object_add(row, "ms", json_object_new_double(ms));
				json_object_object_add(row, "speedup_over_sequential",
				                       json_object_new_double(ms_seq > 0 ? ms_seq / ms : 0));
			}
			if (model) {
				json_object_object_add(row, "model_ms", json_object_new_double(m_guide));
				json_object_object_add(row, "pipeline_model_ms", json_object_new_double(m_pipe));
				if (timed && ok) {
					json_object_object_add(row, "measured_over_model", json_object_new_double(ms / m_guide));
					json_object_object_add(row, "measured_over_pipeline_model",
					                       json_object_new_double(ms / m_pipe));
				}
			}
			json_object_array_add(rows, row);
		}
	}

	for (int s = 0; s < MAX_STREAMS; s++) {
		cudaStreamDestroy(L.st[s]);
		cudaEventDestroy(L.join[s]);
	}
	cudaEventDestroy(L.fork);
	cudaFree(L.d);
	cudaFree(L.d2);
	cudaFreeHost(L.h_in);
	cudaFreeHost(L.h_out);
	free(L.ref);
	return failed ? apod_fail("overlap: a configuration's output differed from the CPU reference "
	                          "(or a copy's round trip from its input)") : 0;
}
