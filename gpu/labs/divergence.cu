/*
 * divergence.cu: lab 11a, what a branch costs when the threads of one warp
 * take different sides of it.
 *
 * Every thread runs one of 32 code paths on its own word of data.  Each
 * path is the same length: `rounds` rounds of an integer hash (multiply-add,
 * shift, xor) with constants of its own, so no two paths are the same code
 * and the compiler can neither merge them nor turn them into a select.
 * What changes between versions is only how a thread picks its path:
 *
 *   1. by lane: path = lane % k.  Every warp holds k paths; SIMT runs them
 *      one after another with the other lanes masked off, so the time
 *      should grow like k (k = 1, 2, 4, 8, 16, 32);
 *   2. by warp: path = warp % k.  The same k paths over the grid, but each
 *      warp takes one of them: the time should not depend on k;
 *   3. on data: path A where a random word is below p * 2^32, path B
 *      elsewhere, for probabilities p from 0 to 1/2.  Scattered, a warp
 *      pays for both paths as soon as one of its 32 lanes takes A; grouped
 *      (all 32 lanes of a warp decide on the first lane's word, as if the
 *      data had been sorted by the condition), the same fraction of threads
 *      takes A at no extra cost.
 * The model column is the number of distinct paths a warp must run, averaged
 * over the warps: k by lane, 1 by warp, and counted from the data in part 3
 * (apod_model_paths_per_warp in cpu/labs/lab_models.c, with this file's rule).
 *
 * Checked before timed, bit for bit: each thread's word must equal what the
 * host computes with the same path function (shared __host__ __device__
 * code) on the same input.  The inputs take 4096 distinct values, so the
 * host tabulates all 32 paths on those once and looks each thread up.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "kit.cuh"
#include "cpu/labs/lab_models.h"   /* apod_model_paths_per_warp, and the coins the model is counted on */

#define THREADS 256
#define PATHS 32
#define SEED_BITS 12     /* inputs take 2^12 distinct values: the host's table */
#define NPROB 7

/* Loop pragmas for the device pass only (the host compiler does not know them). */
#ifdef __CUDA_ARCH__
#define DEVICE_PRAGMA(x) _Pragma(x)
#else
#define DEVICE_PRAGMA(x)
#endif

enum { BY_LANE, BY_WARP, BY_DATA, BY_DATA_GROUPED };

/*
 * Path P: a dependent chain of hash rounds, three integer instructions each
 * (IMAD, shift, xor).  The multiplier, addend and shift all depend on P.
 * The loop is kept a loop (four rounds a pass, rounds % 4 == 0), so each
 * path stays a short block of code of its own.
 */
template <int P> static __host__ __device__ uint32_t path(uint32_t h, int rounds)
{
	const uint32_t m = 0x9E3779B1u + 0x2545F492u * (uint32_t)P;    /* odd: odd + even */
	const uint32_t a = 0x7F4A7C15u ^ (0x01000193u * (uint32_t)P);
	const int s = 13 + P % 7;
	DEVICE_PRAGMA("unroll 1")
	for (int r = 0; r < rounds; r += 4) {
		DEVICE_PRAGMA("unroll")
		for (int u = 0; u < 4; u++) {
			h = h * m + a;
			h ^= h >> s;
		}
	}
	return h;
}

#define CASE(P) case P: return path<P>(h, rounds);
#define CASE4(P) CASE(P) CASE(P + 1) CASE(P + 2) CASE(P + 3)

static __host__ __device__ uint32_t run_path(unsigned p, uint32_t h, int rounds)
{
	switch (p) {
	CASE4(0) CASE4(4) CASE4(8) CASE4(12) CASE4(16) CASE4(20) CASE4(24) CASE4(28)
	default: return 0;
	}
}

/* Which path thread i takes; the host uses the same rule for its reference. */
static __host__ __device__ unsigned path_of(int mode, int i, unsigned k, uint32_t thresh,
                                            const uint32_t *coin)
{
	switch (mode) {
	/* Blocks are a multiple of 32 threads, so i % 32 is the lane and i / 32
	 * the warp's index in the grid. */
	case BY_LANE: return (unsigned)i & (k - 1);
	case BY_WARP: return (unsigned)(i >> 5) & (k - 1);
	case BY_DATA: return coin[i] < thresh;
	default: return coin[i & ~31] < thresh;
	}
}

template <int MODE>
static __global__ void __launch_bounds__(THREADS)
branch_kernel(const uint32_t *__restrict__ seed, const uint32_t *__restrict__ coin,
              uint32_t *__restrict__ out, int n, unsigned k, uint32_t thresh, int rounds)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = run_path(path_of(MODE, i, k, thresh, coin), seed[i], rounds);
}

static cudaError_t launch(int mode, const uint32_t *seed, const uint32_t *coin, uint32_t *out, int n,
                          unsigned k, uint32_t thresh, int rounds)
{
	unsigned blocks = (unsigned)((n + THREADS - 1) / THREADS);
	switch (mode) {
	case BY_LANE: branch_kernel<BY_LANE><<<blocks, THREADS>>>(seed, coin, out, n, k, thresh, rounds); break;
	case BY_WARP: branch_kernel<BY_WARP><<<blocks, THREADS>>>(seed, coin, out, n, k, thresh, rounds); break;
	case BY_DATA: branch_kernel<BY_DATA><<<blocks, THREADS>>>(seed, coin, out, n, k, thresh, rounds); break;
	default:
		branch_kernel<BY_DATA_GROUPED><<<blocks, THREADS>>>(seed, coin, out, n, k, thresh, rounds);
	}
	return cudaGetLastError();
}

struct setup {
	int n, rounds;
	host_array<uint32_t> seed, coin, table;   /* host: inputs, table[p << SEED_BITS | seed] */
	dev_array<uint32_t> d_seed, d_coin, d_out;
	host_array<uint32_t> back;
};

/* Run one configuration once and compare every thread's word with the table. */
static int check(struct setup *s, int mode, unsigned k, uint32_t thresh, int *ok)
{
	APOD_CUDA_TRY(cudaMemset(s->d_out.p, 0, (size_t)s->n * sizeof(uint32_t)));
	APOD_CUDA_TRY(launch(mode, s->d_seed.p, s->d_coin.p, s->d_out.p, s->n, k, thresh, s->rounds));
	APOD_CUDA_TRY(cudaMemcpy(s->back.p, s->d_out.p, (size_t)s->n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
	*ok = 1;
	for (int i = 0; i < s->n && *ok; i++) {
		unsigned p = path_of(mode, i, k, thresh, s->coin.p);
		*ok = s->back.p[i] == s->table.p[(size_t)p << SEED_BITS | s->seed.p[i]];
	}
	return 0;
}

/* The model counts each thread's path with the kernel's own rule. */
struct path_rule {
	int mode;
	unsigned k;
	uint32_t thresh;
	const uint32_t *coin;
};

static unsigned rule_path(int i, const void *ctx)
{
	const struct path_rule *r = (const struct path_rule *)ctx;
	return path_of(r->mode, i, r->k, r->thresh, r->coin);
}

/* Distinct paths per warp, averaged over the warps: what SIMT must run. */
static double paths_per_warp(struct setup *s, int mode, unsigned k, uint32_t thresh)
{
	struct path_rule r = { mode, k, thresh, s->coin.p };
	return apod_model_paths_per_warp(s->n, rule_path, &r);
}

static void row(json_object *rows, const char *selector, unsigned k, double p, int verified, int timed,
                double ms, double slowdown, double model)
{
	json_object *r = lab_row(rows);
	char name[64];
	if (p < 0)
		snprintf(name, sizeof name, "%s, k=%u", selector, k);
	else
		snprintf(name, sizeof name, "%s, p=%g", selector, p);
	lab_put(r, "version", name);
	lab_put(r, "selector", selector);
	if (p < 0)
		lab_put(r, "k", (int)k);
	else
		lab_put(r, "probability", p);
	lab_put(r, "verified", verified != 0);
	lab_put(r, "model_slowdown", model);
	if (verified && timed) {
		lab_put(r, "ms", ms);
		lab_put(r, "slowdown", slowdown);
	}
}

static const unsigned ks[] = { 1, 2, 4, 8, 16, 32 };
static const double probs[NPROB] = { 0, 0.001, 0.01, 0.05, 0.1, 0.25, 0.5 };

/* What the lab found: [0] by lane / scattered, [1] by warp / grouped. */
struct results {
	int ok[2][6], ok_d[2][NPROB];
	double ms[2][6], ms_d[2][NPROB], model_d[2][NPROB];
	int failed;
};

/* The inputs, the host's table of every path on every distinct input, and their device copies. */
static int prepare(struct setup *s)
{
	if (s->seed.alloc(s->n) || s->coin.alloc(s->n) || s->back.alloc(s->n) ||
	    s->table.alloc((size_t)PATHS << SEED_BITS))
		return -1;
	for (int i = 0; i < s->n; i++) {
		s->seed.p[i] = apod_model_divergence_mix(0x9e3779b97f4a7c15ull * (uint64_t)(i + 1)) >> (32 - SEED_BITS);
		s->coin.p[i] = apod_model_divergence_coin(i);   /* mix(0xd1b54a32d192ed03 (i + 1) + 12345) */
	}
	/* The reference: every path on every distinct input, on the host. */
	for (unsigned p = 0; p < PATHS; p++)
		for (uint32_t v = 0; v < (1u << SEED_BITS); v++)
			s->table.p[(size_t)p << SEED_BITS | v] = run_path(p, v, s->rounds);
	if (s->d_seed.alloc(s->n) || s->d_coin.alloc(s->n) || s->d_out.alloc(s->n))
		return -1;
	APOD_CUDA_TRY(cudaMemcpy(s->d_seed.p, s->seed.p, (size_t)s->n * sizeof(uint32_t), cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemcpy(s->d_coin.p, s->coin.p, (size_t)s->n * sizeof(uint32_t), cudaMemcpyHostToDevice));
	return 0;
}

/* Check, then time, one configuration; ok and ms are its cells. */
static int measure(const struct apod_lab_opts *o, struct setup *s, int mode, unsigned k, uint32_t thresh,
                   int *ok, double *ms, int *failed)
{
	if (check(s, mode, k, thresh, ok))
		return -1;
	*failed |= !*ok;
	if (*ok && !o->check &&
	    time_it(o->reps, [&] { return launch(mode, s->d_seed.p, s->d_coin.p, s->d_out.p, s->n, k, thresh,
	                                         s->rounds) != cudaSuccess; }, ms))
		return -1;
	return 0;
}

/* 1 and 2: k paths chosen by lane, and by warp, measured then printed. */
static int by_lane_and_warp(const struct apod_lab_opts *o, struct setup *s, struct results *x,
                            json_object *rows)
{
	for (int sel = 0; sel < 2; sel++)
		for (int j = 0; j < 6; j++)
			if (measure(o, s, sel ? BY_WARP : BY_LANE, ks[j], 0, &x->ok[sel][j], &x->ms[sel][j], &x->failed))
				return -1;
	printf("divergence: %d threads, each running %d rounds (3 integer instructions each) of one of "
	       "k paths on its own 4-byte word; checked bit for bit\n", s->n, s->rounds);
	printf("  %7s   %10s %9s %6s   %10s %9s %6s   %s\n", "paths k", "by lane ms", "slowdown", "model",
	       "by warp ms", "slowdown", "model", "check");
	for (int j = 0; j < 6; j++) {
		double model[2] = { paths_per_warp(s, BY_LANE, ks[j], 0), paths_per_warp(s, BY_WARP, ks[j], 0) };
		printf("  %7u", ks[j]);
		for (int sel = 0; sel < 2; sel++) {
			double slow = x->ok[sel][0] && x->ms[sel][0] > 0 ? x->ms[sel][j] / x->ms[sel][0] : 0;
			if (!x->ok[sel][j] || o->check)
				printf("   %10s %9s %6.2f", "-", "-", model[sel]);
			else
				printf("   %10.4f %8.2fx %6.2f", x->ms[sel][j], slow, model[sel]);
			row(rows, sel ? "by warp" : "by lane", ks[j], -1, x->ok[sel][j], !o->check, x->ms[sel][j], slow,
			    model[sel]);
		}
		printf("   %s\n", x->ok[0][j] && x->ok[1][j] ? "ok" : "FAILED");
	}
	return 0;
}

/* 3: a data-dependent branch taken with probability p, scattered or grouped. */
static int on_data(const struct apod_lab_opts *o, struct setup *s, struct results *x, json_object *data_rows)
{
	for (int sel = 0; sel < 2; sel++)
		for (int j = 0; j < NPROB; j++) {
			int mode = sel ? BY_DATA_GROUPED : BY_DATA;
			uint32_t thresh = (uint32_t)(probs[j] * 4294967296.0);
			x->model_d[sel][j] = paths_per_warp(s, mode, 2, thresh);
			if (measure(o, s, mode, 2, thresh, &x->ok_d[sel][j], &x->ms_d[sel][j], &x->failed))
				return -1;
		}
	printf("\na branch on data: path A where a random word is below p * 2^32, path B elsewhere "
	       "(the same work), k = 2\n");
	printf("  %7s   %10s %9s %6s   %10s %9s %6s   %s\n", "p", "scattered", "slowdown", "model",
	       "grouped", "slowdown", "model", "check");
	for (int j = 0; j < NPROB; j++) {
		printf("  %7g", probs[j]);
		for (int sel = 0; sel < 2; sel++) {
			double slow = x->ok_d[sel][0] && x->ms_d[sel][0] > 0 ? x->ms_d[sel][j] / x->ms_d[sel][0] : 0;
			if (!x->ok_d[sel][j] || o->check)
				printf("   %10s %9s %6.3f", "-", "-", x->model_d[sel][j]);
			else
				printf("   %10.4f %8.3fx %6.3f", x->ms_d[sel][j], slow, x->model_d[sel][j]);
			row(data_rows, sel ? "grouped by warp" : "scattered", 2, probs[j], x->ok_d[sel][j], !o->check,
			    x->ms_d[sel][j], slow, x->model_d[sel][j]);
		}
		printf("   %s\n", x->ok_d[0][j] && x->ok_d[1][j] ? "ok" : "FAILED");
	}
	printf("  (model: distinct paths a warp must run, averaged over the warps; slowdown against "
	       "the same selector's first row)\n");
	return 0;
}

extern "C" int apod_lab_divergence(const struct apod_lab_opts *o, json_object *out)
{
	size_t want = lab_size(o, (size_t)1 << 22, (1u << 16) + 77);
	struct setup s;
	struct results x = {};
	json_object *rows, *data, *data_rows;

	if (want < 32 || want > (size_t)1 << 28)
		return apod_usage_fail("divergence: --size %zu threads is outside 32 .. 2^28", want);
	s.n = (int)want;
	s.rounds = o->check ? 64 : 1024;
	if (prepare(&s))
		return -1;

	rows = lab_array(out, "rows");
	lab_put(out, "unit", "ms");
	lab_put(out, "threads", s.n);
	lab_put(out, "rounds", s.rounds);
	data = json_object_new_object();
	lab_put(out, "data_dependent", data);
	data_rows = lab_array(data, "rows");
	lab_put(data, "unit", "ms");

	if (by_lane_and_warp(o, &s, &x, rows) || on_data(o, &s, &x, data_rows))
		return -1;
	return x.failed ? apod_fail("divergence: a version's words differ from the host's") : 0;
}
