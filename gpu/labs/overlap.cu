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

#include "kit.cuh"
#include "cpu/labs/lab_models.h"   /* the two models: apod_model_staged, apod_model_pipeline */

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
	host_array<float> h_in, h_out;   /* pinned */
	host_array<float> ref;           /* the CPU reference for the current iteration count */
	dev_array<float> d, d2;
	cuda_stream st[MAX_STREAMS];
	cuda_event fork, join[MAX_STREAMS];
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
		uint32_t u = a * (uint32_t)(L->h_in.p[i] * 16777216.0f) + c;
		L->ref.p[i] = (float)(u >> 8) * (1.0f / 16777216.0f);
	}
}

static int launch(float *a, size_t count, unsigned iters, cudaStream_t s)
{
	if (count == 0)
		return 0;
	APOD_LAUNCH_TRY((lcg_kernel<<<(unsigned)((count + THREADS - 1) / THREADS), THREADS, 0, s>>>(a, count, iters)));
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
	APOD_CUDA_TRY(cudaEventRecord(L->fork.h, 0));
	for (int s = 0; s < ns; s++)
		APOD_CUDA_TRY(cudaStreamWaitEvent(L->st[s].h, L->fork.h, 0));
	return 0;
}

static int join_streams(struct ovl *L, int ns)
{
	for (int s = 0; s < ns; s++) {
		APOD_CUDA_TRY(cudaEventRecord(L->join[s].h, L->st[s].h));
		APOD_CUDA_TRY(cudaStreamWaitEvent(0, L->join[s].h, 0));
	}
	return 0;
}

static int run_h2d(struct ovl *L)
{
	APOD_CUDA_TRY(cudaMemcpyAsync(L->d.p, L->h_in.p, L->bytes, cudaMemcpyHostToDevice, 0));
	return 0;
}

static int run_d2h(struct ovl *L)
{
	APOD_CUDA_TRY(cudaMemcpyAsync(L->h_out.p, L->d.p, L->bytes, cudaMemcpyDeviceToHost, 0));
	return 0;
}

/* Both directions at once, on different buffers: h_in -> d and d2 -> h_out. */
static int run_both(struct ovl *L)
{
	if (fork_streams(L, 2))
		return -1;
	APOD_CUDA_TRY(cudaMemcpyAsync(L->d.p, L->h_in.p, L->bytes, cudaMemcpyHostToDevice, L->st[0].h));
	APOD_CUDA_TRY(cudaMemcpyAsync(L->h_out.p, L->d2.p, L->bytes, cudaMemcpyDeviceToHost, L->st[1].h));
	return join_streams(L, 2);
}

static int run_sequential(struct ovl *L, unsigned iters)
{
	if (run_h2d(L) || launch(L->d.p, L->n, iters, 0))
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
				APOD_CUDA_TRY(cudaMemcpyAsync(L->d.p + a, L->h_in.p + a, m * sizeof(float),
				                         cudaMemcpyHostToDevice, L->st[s].h));
			if ((!breadth || pass == 1) && launch(L->d.p + a, m, iters, L->st[s].h))
				return -1;
			if (!breadth || pass == 2)
				APOD_CUDA_TRY(cudaMemcpyAsync(L->h_out.p + a, L->d.p + a, m * sizeof(float),
				                         cudaMemcpyDeviceToHost, L->st[s].h));
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
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	memset(L->h_out.p, 0xff, L->bytes);
	APOD_CUDA_TRY(cudaMemset(L->d.p, 0xff, L->bytes));
	return 0;
}

static int verify_config(struct ovl *L, int ns, int breadth, unsigned iters, int *ok)
{
	if (poison(L) || run_config(L, ns, breadth, iters))
		return -1;
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	*ok = memcmp(L->h_out.p, L->ref.p, L->bytes) == 0;
	return 0;
}

static void add_copy_row(json_object *arr, const char *name, int ok, int timed, double ms, double bytes)
{
	json_object *r = lab_row(arr);
	if (ok && timed)
		printf("  %-44s %10.4f %10.2f  ok\n", name, ms, bytes / (ms * 1e-3) / 1e9);
	else
		printf("  %-44s %10s %10s  %s\n", name, "-", "-", ok ? "ok" : "FAILED");
	lab_put(r, "version", name);
	lab_put(r, "verified", ok != 0);
	lab_put(r, "bytes", (int64_t)bytes);
	if (ok && timed) {
		lab_put(r, "ms", ms);
		lab_put(r, "GB/s", bytes / (ms * 1e-3) / 1e9);
	}
}

/* The device and what it can overlap, printed and in the JSON. */
static int describe_device(json_object *out, const struct ovl *L)
{
	int dev = 0, engines = 0, concurrent = 0;
	const char *conn = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
	cudaDeviceProp p;

	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaGetDeviceProperties(&p, dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentKernels, dev));
	lab_put(out, "device", p.name);
	lab_put(out, "async_engine_count", engines);
	lab_put(out, "concurrent_kernels", concurrent);
	lab_put(out, "cuda_device_max_connections", conn ? conn : "unset (8)");
	printf("overlap: %zu floats, %zu bytes each way, pinned host memory; %s\n", L->n, L->bytes, p.name);
	printf("asyncEngineCount %d (%s), concurrentKernels %d, CUDA_DEVICE_MAX_CONNECTIONS %s\n", engines,
	       engines >= 2 ? "H2D and D2H can run at once, beside a kernel"
	                    : engines == 1 ? "one copy at a time, beside a kernel"
	                                   : "no copy beside a kernel: staging cannot help here",
	       concurrent, conn ? conn : "unset (8 hardware queues)");
	if (engines == 0)
		lab_put(out, "note", "asyncEngineCount is 0: this device cannot overlap "
		                     "copies with kernels; the staged rows show no gain");
	return 0;
}

/* Pinned input and output, the reference, two device arrays, the streams and their events. */
static int alloc_ovl(struct ovl *L)
{
	if (L->h_in.alloc_pinned(L->n) || L->h_out.alloc_pinned(L->n) || L->ref.alloc(L->n) ||
	    L->d.alloc(L->n) || L->d2.alloc(L->n))
		return -1;
	for (int s = 0; s < MAX_STREAMS; s++)
		if (L->st[s].create() || L->join[s].create(cudaEventDisableTiming))
			return -1;
	if (L->fork.create(cudaEventDisableTiming))
		return -1;
	fill_input(L->h_in.p, L->n);
	return 0;
}

/* The copies alone, checked and timed: t_T and the two directions apart. */
struct copy_times {
	int ok_copy, ok_both;
	double ms_h2d, ms_d2h, t_T, ms_both;
};

/* 1. The copies alone: a round trip, and both directions at once. */
static int copies(const struct apod_lab_opts *o, struct ovl *L, json_object *arr, struct copy_times *ct,
                  int *failed)
{
	int timed = !o->check, ok1;
	float *h_in = L->h_in.p, *h_out = L->h_out.p;

	if (poison(L) || run_h2d(L) || run_d2h(L))
		return -1;
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	ct->ok_copy = memcmp(h_out, h_in, L->bytes) == 0;
	APOD_CUDA_TRY(cudaMemcpy(L->d2.p, h_in, L->bytes, cudaMemcpyHostToDevice));
	if (poison(L) || run_both(L))
		return -1;
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	ok1 = memcmp(h_out, h_in, L->bytes) == 0;     /* what came down from d2 */
	memset(h_out, 0xff, L->bytes);
	APOD_CUDA_TRY(cudaMemcpy(h_out, L->d.p, L->bytes, cudaMemcpyDeviceToHost));
	ct->ok_both = ok1 && ct->ok_copy && memcmp(h_out, h_in, L->bytes) == 0;   /* what went up to d */
	*failed |= !ct->ok_copy || !ct->ok_both;
	if (timed && ct->ok_copy &&
	    (time_it(o->reps, [&] { return run_h2d(L); }, &ct->ms_h2d) ||
	     time_it(o->reps, [&] { return run_d2h(L); }, &ct->ms_d2h) ||
	     time_it(o->reps, [&] { return run_h2d(L) || run_d2h(L); }, &ct->t_T)))
		return -1;
	if (timed && ct->ok_both && time_it(o->reps, [&] { return run_both(L); }, &ct->ms_both))
		return -1;
	printf("\ncopies of the whole array (cudaMemcpyAsync), median of %d; round trips checked byte for "
	       "byte:\n  %-44s %10s %10s  check\n", o->reps, "copy", "ms", "GB/s");
	add_copy_row(arr, "H2D", ct->ok_copy, timed, ct->ms_h2d, (double)L->bytes);
	add_copy_row(arr, "D2H", ct->ok_copy, timed, ct->ms_d2h, (double)L->bytes);
	add_copy_row(arr, "t_T: H2D then D2H, one stream", ct->ok_copy, timed, ct->t_T, 2.0 * L->bytes);
	add_copy_row(arr, "H2D and D2H at once, two streams", ct->ok_both, timed, ct->ms_both, 2.0 * L->bytes);
	return 0;
}

/* 2. Calibration: the kernel's time is about t0 + K * step. */
static int calibrate(const struct apod_lab_opts *o, struct ovl *L, json_object *out,
                     const struct copy_times *ct, unsigned iters[2], int *failed)
{
	double t0 = 0, tp = 0, step, t_T = ct->t_T;
	int okp = 0, ok0 = 0;
	size_t n = L->n;
	json_object *cal;

	if (!(!o->check && ct->ok_copy))
		return 0;
	reference(L, PROBE_ITERS);
	if (verify_config(L, 0, 0, PROBE_ITERS, &okp))
		return -1;
	reference(L, 0);
	if (verify_config(L, 0, 0, 0, &ok0))
		return -1;
	*failed |= !okp || !ok0;
	if (!(okp && ok0)) {
		printf("\ncalibration: the kernel FAILED its check; fixed step counts are used\n");
		return 0;
	}
	if (time_it(3, [&] { return launch(L->d.p, n, PROBE_ITERS, 0); }, &tp) ||
	    time_it(3, [&] { return launch(L->d.p, n, 0, 0); }, &t0))
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
	cal = json_object_new_object();
	lab_put(cal, "probe_iterations", (int)PROBE_ITERS);
	lab_put(cal, "ms_at_0", t0);
	lab_put(cal, "ms_at_probe", tp);
	lab_put(out, "calibration", cal);
	return 0;
}

/* One case (a kernel's step count) as its rows see it. */
struct ovl_case {
	const char *cname;
	unsigned iters;
	int ok_seq, model, timed;
	double t_E, t_T, ms_seq;
	double ms_h2d, ms_d2h;   /* for the pipeline model */
};

/* One row of a case: r = -1 sequential; then each stream count, depth-first, then breadth-first. */
static int case_row(const struct apod_lab_opts *o, struct ovl *L, const struct ovl_case *cs, int r,
                    json_object *rows, int *failed)
{
	int ns = r < 0 ? 0 : stream_counts[r % NCOUNTS], breadth = r >= NCOUNTS, ok = cs->ok_seq;
	int timed = cs->timed, model = cs->model;
	unsigned iters = cs->iters;
	double ms = cs->ms_seq, ms_seq = cs->ms_seq, t_E = cs->t_E, t_T = cs->t_T, m_guide = 0, m_pipe = 0;
	char name[64];
	json_object *row;
	if (breadth && ns == 1)
		return 0;   /* one stream: the same issue order as depth-first */
	if (ns == 0)
		snprintf(name, sizeof name, "sequential, default stream");
	else {
		snprintf(name, sizeof name, "staged, %2d stream%s, %s", ns, ns > 1 ? "s" : "",
		         breadth ? "breadth-first" : "depth-first");
		if (verify_config(L, ns, breadth, iters, &ok))
			return -1;
		*failed |= !ok;
		ms = 0;
		if (timed && ok &&
		    time_it(o->reps, [&] { return run_staged(L, ns, breadth, iters); }, &ms))
			return -1;
	}
	if (model) {
		m_guide = apod_model_staged(t_E, t_T, ns);
		m_pipe = apod_model_pipeline(cs->ms_h2d, t_E, cs->ms_d2h, ns);
	}
	if (timed && ok && model)
		printf("  %-36s %9.4f %9.4f %8.3f %9.4f %8.3f %8.2f  ok\n", name, ms, m_guide,
		       ms / m_guide, m_pipe, ms / m_pipe, ms_seq / ms);
	else if (timed && ok)
		printf("  %-36s %9.4f %9s %8s %9s %8s %8s  ok\n", name, ms, "-", "-", "-", "-", "-");
	else
		printf("  %-36s %9s %9s %8s %9s %8s %8s  %s\n", name, "-", "-", "-", "-", "-", "-",
		       ok ? "ok" : "FAILED");
	row = lab_row(rows);
	lab_put(row, "case", cs->cname);
	lab_put(row, "iterations", iters);
	lab_put(row, "version", name);
	lab_put(row, "streams", ns);
	lab_put(row, "order", ns == 0 ? "sequential" : breadth ? "breadth-first" : "depth-first");
	lab_put(row, "verified", ok != 0);
	if (timed && ok) {
		lab_put(row, "ms", ms);
		lab_put(row, "speedup_over_sequential", ms_seq > 0 ? ms_seq / ms : 0);
	}
	if (model) {
		lab_put(row, "model_ms", m_guide);
		lab_put(row, "pipeline_model_ms", m_pipe);
		if (timed && ok) {
			lab_put(row, "measured_over_model", ms / m_guide);
			lab_put(row, "measured_over_pipeline_model", ms / m_pipe);
		}
	}
	return 0;
}

/* 3. One case: sequential, then staged with 1..16 streams in both orders. */
static int run_case(const struct apod_lab_opts *o, struct ovl *L, int c, unsigned iters,
                    const struct copy_times *ct, json_object *rows, json_object *cases, int *failed)
{
	struct ovl_case cs = {};
	size_t n = L->n;
	double t_E = 0, ms_seq = 0, t_T = ct->t_T;
	int ok_seq = 0, timed = !o->check;
	const char *cname = c == 0 ? "heavy kernel" : "light kernel";
	json_object *cj;

	reference(L, iters);
	if (verify_config(L, 0, 0, iters, &ok_seq))
		return -1;
	*failed |= !ok_seq;
	if (timed && ok_seq &&
	    (time_it(o->reps, [&] { return launch(L->d.p, n, iters, 0); }, &t_E) ||
	     time_it(o->reps, [&] { return run_sequential(L, iters); }, &ms_seq)))
		return -1;
	int model = timed && ok_seq && ct->ok_copy && t_E > 0 && t_T > 0;

	printf("\n%s: %u steps per element", cname, iters);
	if (model)
		printf(", t_E = %.4f ms (kernel alone), t_T = %.4f ms;\nthe guide's model: %s; "
		       "pipeline model: max(H2D, t_E, D2H) + the other two / n",
		       t_E, t_T, t_E > t_T ? "t_E + t_T/n (t_E > t_T)" : "t_T + t_E/n (t_T > t_E)");
	printf("\n  %-36s %9s %9s %8s %9s %8s %8s  %s\n", "version", "ms", "model", "meas/mod",
	       "pipeline", "meas/pip", "speed-up", "check");
	cj = lab_row(cases);
	lab_put(cj, "case", cname);
	lab_put(cj, "iterations", iters);
	lab_put(cj, "verified", ok_seq != 0);
	if (model) {
		lab_put(cj, "t_E_ms", t_E);
		lab_put(cj, "t_T_ms", t_T);
		lab_put(cj, "branch", t_E > t_T ? "t_E > t_T" : "t_T > t_E");
	}

	cs.cname = cname;
	cs.iters = iters;
	cs.ok_seq = ok_seq, cs.model = model, cs.timed = timed;
	cs.t_E = t_E, cs.t_T = t_T, cs.ms_seq = ms_seq;
	cs.ms_h2d = ct->ms_h2d, cs.ms_d2h = ct->ms_d2h;
	/* row -1: sequential; then each stream count, depth-first, then breadth-first (n > 1). */
	for (int r = -1; r < 2 * NCOUNTS; r++)
		if (case_row(o, L, &cs, r, rows, failed))
			return -1;
	return 0;
}

extern "C" int apod_lab_overlap(const struct apod_lab_opts *o, json_object *out)
{
	size_t n = lab_size(o, (size_t)1 << 26, 100003);
	struct ovl L;
	struct copy_times ct = {};
	int failed = 0;
	unsigned iters[2] = { 1001, 3 };   /* --check, or no calibration possible */
	json_object *copies_arr, *rows, *cases;

	if (n < MAX_STREAMS || n > (size_t)1 << 30)
		return apod_usage_fail("overlap: --size %zu is not 16 to 2^30 floats", n);
	L.n = n;
	L.bytes = n * sizeof(float);
	rows = lab_array(out, "rows");
	lab_put(out, "unit", "ms");
	copies_arr = lab_array(out, "copies");
	cases = lab_array(out, "cases");
	lab_put(out, "size", n);
	lab_put(out, "bytes", L.bytes);

	if (describe_device(out, &L) || alloc_ovl(&L))
		return -1;
	if (copies(o, &L, copies_arr, &ct, &failed) || calibrate(o, &L, out, &ct, iters, &failed))
		return -1;
	for (int c = 0; c < 2; c++)
		if (run_case(o, &L, c, iters[c], &ct, rows, cases, &failed))
			return -1;
	return failed ? apod_fail("overlap: a configuration's output differed from the CPU reference "
	                          "(or a copy's round trip from its input)") : 0;
}
