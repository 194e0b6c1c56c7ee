/*
 * instructions.cu: lab 10, what single instructions cost (the guide's
 * chapter 11, "Instruction Optimization"), in the order the guide takes them:
 *
 *   1. division and modulo by a power of two (§11.1.1): i / n and i % n with
 *      n known only at run time, unsigned and signed; the same with n the
 *      literal 16, which the compiler turns into a shift and a mask itself;
 *      and the shift and mask written out;
 *   2. reciprocal square root (§11.1.3): 1.0f / sqrtf(x) against rsqrtf(x);
 *   3. double constants in float code (§11.1.4): v * 1.1 * 0.9, where the
 *      unsuffixed constants make every multiply a conversion to double, a
 *      double multiply and a conversion back, against v * 1.1f * 0.9f; and
 *      v * 1.125 * 0.875, double constants that a float holds exactly, so
 *      the compiler may keep those multiplies in float (neither is a power
 *      of two: ptxas folds a multiply by 0.5 into the multiply before it,
 *      as a scaling of its result, so v * 0.5 * 1.984375 ran 20 FMULs per
 *      32 multiplies);
 *   4. the fast intrinsics against the precise functions (§11.1.6): sinf,
 *      cosf, sincosf, expf, logf, powf and x / y against __sinf, __cosf,
 *      __sincosf, __expf, __logf, __powf and __fdividef; and sinf on
 *      arguments large enough to take its slow argument reduction.
 *
 * Checked before timed.  The integer results must equal the CPU's exactly.
 * The constant chains must equal, bit for bit, the same chain of IEEE
 * multiplies on the CPU (in double and rounded to float after each multiply
 * where the constant is a double).  Each math function's result is compared,
 * input by input, with the C library's double result: a version passes when
 * every result lies within the error bound that the CUDA C++ Programming
 * Guide documents for it, in ulps of the correctly rounded float or, where
 * the guide states one, as an absolute error (doc/labs/instructions.md lists
 * the bounds and the two that are derived here).  The timed kernels are the
 * checked kernels: each thread first writes its checked result, then runs
 * independent chains of further calls that make arithmetic, not memory, the
 * cost being timed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.cuh"
#include "shared/labs/splitmix.h"
#include "cpu/labs/lab_models.h"   /* apod_model_ulp_dist and the bounds of __expf and __powf */

#define THREADS 256
#define CHAINS 4               /* independent dependency chains per thread */
#define MATH_ITERS 16          /* steps per chain: 64 timed calls per input, plus the checked one */
#define DIV_THREADS (1u << 20)
#define DIV_ITERS 1024         /* quotient-remainder pairs per thread */
#define CONST_ELEMS (1u << 20)
#define CONST_ITERS 1024       /* two multiplies per step and chain */
#define SAMPLE 64              /* full run: the CPU replays every 64th thread of the long loops */
#define LITERAL_N 16u

/* ---------------------------------------------------------------------------
 * 1. Division and modulo.
 */
enum { DIV_RUNTIME, DIV_SIGNED, DIV_LITERAL, DIV_SHIFT, DIV_MODES };

static const char *const div_name[DIV_MODES] = {
	"i / n, i % n: unsigned, n at run time",
	"i / n, i % n: signed int, n at run time",
	"i / 16, i % 16: unsigned, n a literal",
	"i >> s, i & (n - 1): shift and mask",
};

/* i runs over t, t + threads, t + 2 threads, ...: every (thread, step) pair
 * divides a different number, and nothing about n is known at compile time
 * except in DIV_LITERAL. */
template <int MODE>
static __global__ void divmod_kernel(unsigned *__restrict__ out, unsigned threads, unsigned n, unsigned shift,
                                     int iters)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x, acc = 0;
	if (t >= threads)
		return;
#pragma unroll 4
	for (int k = 0; k < iters; k++) {
		unsigned i = t + (unsigned)k * threads, q, r;
		if constexpr (MODE == DIV_RUNTIME) {
			q = i / n;
			r = i % n;
		} else if constexpr (MODE == DIV_SIGNED) {
			int si = (int)i, sn = (int)n;
			q = (unsigned)(si / sn);
			r = (unsigned)(si % sn);
		} else if constexpr (MODE == DIV_LITERAL) {
			q = i / LITERAL_N;
			r = i % LITERAL_N;
		} else {
			q = i >> shift;
			r = i & (n - 1);
		}
		acc += q ^ r;
	}
	out[t] = acc;
}

static int launch_divmod(int mode, unsigned *d, unsigned threads, unsigned n, unsigned shift, int iters)
{
	unsigned blocks = (threads + THREADS - 1) / THREADS;
	switch (mode) {
	case DIV_RUNTIME: APOD_LAUNCH_TRY((divmod_kernel<DIV_RUNTIME><<<blocks, THREADS>>>(d, threads, n, shift, iters))); break;
	case DIV_SIGNED: APOD_LAUNCH_TRY((divmod_kernel<DIV_SIGNED><<<blocks, THREADS>>>(d, threads, n, shift, iters))); break;
	case DIV_LITERAL: APOD_LAUNCH_TRY((divmod_kernel<DIV_LITERAL><<<blocks, THREADS>>>(d, threads, n, shift, iters))); break;
	default: APOD_LAUNCH_TRY((divmod_kernel<DIV_SHIFT><<<blocks, THREADS>>>(d, threads, n, shift, iters))); break;
	}
	return 0;
}

/* ---------------------------------------------------------------------------
 * 3. Double constants in float code.
 */
enum { CONST_DOUBLE, CONST_FLOAT, CONST_EXACT, CONST_MODES };

static const char *const const_name[CONST_MODES] = {
	"v * 1.1 * 0.9: double constants",
	"v * 1.1f * 0.9f: float constants",
	"v * 1.125 * 0.875: doubles exact in float",
};

/* One step of a chain.  Each multiply is its own statement, so the value is
 * rounded to float after each one on both the GPU and the CPU. */
template <int MODE> static __host__ __device__ __forceinline__ float const_step(float v)
{
	if constexpr (MODE == CONST_DOUBLE) {
		v = v * 1.1;
		v = v * 0.9;
	} else if constexpr (MODE == CONST_FLOAT) {
		v = v * 1.1f;
		v = v * 0.9f;
	} else {
		v = v * 1.125;
		v = v * 0.875;
	}
	return v;
}

/* Four chains from different starts, every chain's end stored: no adds, so
 * no multiply can be fused into an FMA and the CPU replays them exactly. */
template <int MODE>
static __global__ void const_kernel(const float *__restrict__ x, float *__restrict__ out, unsigned n, int iters)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	float v[CHAINS];
	if (i >= n)
		return;
#pragma unroll
	for (int c = 0; c < CHAINS; c++)
		v[c] = x[i] + 0.25f * c;
#pragma unroll 4
	for (int k = 0; k < iters; k++)
#pragma unroll
		for (int c = 0; c < CHAINS; c++)
			v[c] = const_step<MODE>(v[c]);
#pragma unroll
	for (int c = 0; c < CHAINS; c++)
		out[(size_t)i * CHAINS + c] = v[c];
}

static int launch_const(int mode, const float *x, float *d, unsigned n, int iters)
{
	unsigned blocks = (n + THREADS - 1) / THREADS;
	switch (mode) {
	case CONST_DOUBLE: APOD_LAUNCH_TRY((const_kernel<CONST_DOUBLE><<<blocks, THREADS>>>(x, d, n, iters))); break;
	case CONST_FLOAT: APOD_LAUNCH_TRY((const_kernel<CONST_FLOAT><<<blocks, THREADS>>>(x, d, n, iters))); break;
	default: APOD_LAUNCH_TRY((const_kernel<CONST_EXACT><<<blocks, THREADS>>>(x, d, n, iters))); break;
	}
	return 0;
}

static float const_chain_cpu(int mode, float v, int iters)
{
	for (int k = 0; k < iters; k++)
		v = mode == CONST_DOUBLE ? const_step<CONST_DOUBLE>(v)
		  : mode == CONST_FLOAT ? const_step<CONST_FLOAT>(v) : const_step<CONST_EXACT>(v);
	return v;
}

/* ---------------------------------------------------------------------------
 * 2 and 4. Math functions.  Each functor gives the checked evaluation and
 * one step of a timing chain: the function's result mapped back into its
 * domain by one multiply (and add), so that a chain never leaves the inputs
 * the function was checked on and never reaches a special case.
 *
 * Most are one function of x (or of x and y) and a map: MATH_FN1(name, fn,
 * map) checks fn(x) and steps fn(c) map, MATH_FN2 the same with y as fn's
 * second argument, MATH_SINCOS a sine and cosine at once, stepped as
 * 2 sin + cos.  The map is written as the tail of the step's expression
 * ("* 3.0f"), so each step is exactly the expression written out.
 */
#define MATH_FN1(name, fn, ...) \
	struct name { \
		static constexpr bool two = false; \
		static __device__ __forceinline__ void eval(float x, float, float &a, float &) { a = fn(x); } \
		static __device__ __forceinline__ float step(float c, float) { return fn(c) __VA_ARGS__; } \
	};
#define MATH_FN2(name, fn, ...) \
	struct name { \
		static constexpr bool two = false; \
		static __device__ __forceinline__ void eval(float x, float y, float &a, float &) { a = fn(x, y); } \
		static __device__ __forceinline__ float step(float c, float y) { return fn(c, y) __VA_ARGS__; } \
	};
#define MATH_SINCOS(name, fn) \
	struct name { \
		static constexpr bool two = true; \
		static __device__ __forceinline__ void eval(float x, float, float &a, float &b) { fn(x, &a, &b); } \
		static __device__ __forceinline__ float step(float c, float) \
		{ \
			float s, k; \
			fn(c, &s, &k); \
			return s * 2.0f + k; \
		} \
	};

struct f_rsqrt_div {
	static constexpr bool two = false;
	static __device__ __forceinline__ void eval(float x, float, float &a, float &) { a = 1.0f / sqrtf(x); }
	static __device__ __forceinline__ float step(float c, float) { return 1.0f / sqrtf(c) + 0.25f; }
};
MATH_FN1(f_rsqrtf, rsqrtf, + 0.25f)
MATH_FN1(f_sinf, sinf, * 3.0f)
MATH_FN1(f_sinf_fast, __sinf, * 3.0f)
MATH_FN1(f_cosf, cosf, * 3.0f)
MATH_FN1(f_cosf_fast, __cosf, * 3.0f)
MATH_SINCOS(f_sincosf, sincosf)
MATH_SINCOS(f_sincosf_fast, __sincosf)
MATH_FN1(f_expf, expf, * (1.0f / 4096) - 5.0f)
MATH_FN1(f_expf_fast, __expf, * (1.0f / 4096) - 5.0f)
MATH_FN1(f_logf, logf, * 0.25f + 1.5f)
MATH_FN1(f_logf_fast, __logf, * 0.25f + 1.5f)
MATH_FN2(f_powf, powf, * 0x1p-17f + 0.5f)
MATH_FN2(f_powf_fast, __powf, * 0x1p-17f + 0.5f)
struct f_div {
	static constexpr bool two = false;
	static __device__ __forceinline__ void eval(float x, float y, float &a, float &) { a = x / y; }
	static __device__ __forceinline__ float step(float c, float y) { return y / c; }
};
struct f_div_fast {
	static constexpr bool two = false;
	static __device__ __forceinline__ void eval(float x, float y, float &a, float &) { a = __fdividef(x, y); }
	static __device__ __forceinline__ float step(float c, float y) { return __fdividef(y, c); }
};
/* Chains stay near 2^19, above the 105615 where sinf leaves its fast path. */
MATH_FN1(f_sinf_large, sinf, * 1024.0f + 524288.0f)

template <class F>
static __global__ void math_kernel(const float *__restrict__ x, const float *__restrict__ y, float *__restrict__ r0,
                                   float *__restrict__ r1, float *__restrict__ sink, size_t n, int iters)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	float xi, yi, a, b = 0.0f, c[CHAINS];
	if (i >= n)
		return;
	xi = x[i];
	yi = y[i];
	F::eval(xi, yi, a, b);
	r0[i] = a;
	if constexpr (F::two)
		r1[i] = b;
	/* Different starts, or the compiler would merge the chains into one. */
#pragma unroll
	for (int k = 0; k < CHAINS; k++)
		c[k] = xi * (1.0f + k * (1.0f / 64));
#pragma unroll 2
	for (int it = 0; it < iters; it++)
#pragma unroll
		for (int k = 0; k < CHAINS; k++)
			c[k] = F::step(c[k], yi);
	sink[i] = (c[0] + c[1]) + (c[2] + c[3]);
}

enum {
	FN_RSQRT_DIV, FN_RSQRTF, FN_SINF, FN_SINF_FAST, FN_COSF, FN_COSF_FAST, FN_SINCOSF, FN_SINCOSF_FAST,
	FN_EXPF, FN_EXPF_FAST, FN_LOGF, FN_LOGF_FAST, FN_POWF, FN_POWF_FAST, FN_DIV, FN_DIV_FAST, FN_SINF_LARGE
};

/* The math sections' device arrays: inputs, the checked results, and the timing chains' sink. */
struct mbufs {
	dev_array<float> x, y, r0, r1, sink;
};

template <class F> static int launch_f(const struct mbufs *b, size_t n, int iters)
{
	unsigned blocks = (unsigned)((n + THREADS - 1) / THREADS);
	APOD_LAUNCH_TRY((math_kernel<F><<<blocks, THREADS>>>(b->x.p, b->y.p, b->r0.p, b->r1.p, b->sink.p, n, iters)));
	return 0;
}

static int launch_math(int fn, const struct mbufs *b, size_t n, int iters)
{
	switch (fn) {
	case FN_RSQRT_DIV: return launch_f<f_rsqrt_div>(b, n, iters);
	case FN_RSQRTF: return launch_f<f_rsqrtf>(b, n, iters);
	case FN_SINF: return launch_f<f_sinf>(b, n, iters);
	case FN_SINF_FAST: return launch_f<f_sinf_fast>(b, n, iters);
	case FN_COSF: return launch_f<f_cosf>(b, n, iters);
	case FN_COSF_FAST: return launch_f<f_cosf_fast>(b, n, iters);
	case FN_SINCOSF: return launch_f<f_sincosf>(b, n, iters);
	case FN_SINCOSF_FAST: return launch_f<f_sincosf_fast>(b, n, iters);
	case FN_EXPF: return launch_f<f_expf>(b, n, iters);
	case FN_EXPF_FAST: return launch_f<f_expf_fast>(b, n, iters);
	case FN_LOGF: return launch_f<f_logf>(b, n, iters);
	case FN_LOGF_FAST: return launch_f<f_logf_fast>(b, n, iters);
	case FN_POWF: return launch_f<f_powf>(b, n, iters);
	case FN_POWF_FAST: return launch_f<f_powf_fast>(b, n, iters);
	case FN_DIV: return launch_f<f_div>(b, n, iters);
	case FN_DIV_FAST: return launch_f<f_div_fast>(b, n, iters);
	default: return launch_f<f_sinf_large>(b, n, iters);
	}
}

/* The inputs each function is checked and timed on. */
enum { DOM_RSQRT, DOM_TRIG, DOM_EXP, DOM_LOG, DOM_POW, DOM_DIV, DOM_TRIG_LARGE };
static const char *const dom_text[] = {
	"2^-20..2^20", "[-pi, pi]", "[-10, 10]", "2^-6..2^6", "x 2^-2..2^2 y+-8", "|x|,|y| 2^+-20", "|x| 2^17..2^20",
};

/* The double reference each result is compared with. */
enum { REF_RSQRT, REF_SIN, REF_COS, REF_SINCOS, REF_EXP, REF_LOG, REF_POW, REF_DIV };

/* How a version's bound is stated. */
enum {
	B_ULP,        /* ulps from the correctly rounded float: `bound` */
	B_ABS,        /* absolute error at most 2^bound (bound2 for sincos's cosine) */
	B_EXP_FAST,   /* __expf: 2 + floor(|1.173 x|) ulps */
	B_LOG_FAST,   /* __logf: 2^-21.41 absolute for x in [0.5, 2], else 3 ulps */
	B_POW_FAST    /* __powf: derived from __log2f and exp2f (apod_model_powf_fast_ulp_bound) */
};

struct mversion {
	const char *name;
	int fn, dom, ref, kind;
	double bound, bound2;
	const char *bound_text;
	int base;    /* the row this one's speed-up is taken against (-1: none) */
};

/* Rows 0-1 are section 2 (reciprocal square root), the rest section 4. */
static const struct mversion mversions[] = {
	{ "1.0f / sqrtf(x)", FN_RSQRT_DIV, DOM_RSQRT, REF_RSQRT, B_ULP, 1, 0, "1 ulp (derived)", -1 },
	{ "rsqrtf(x)", FN_RSQRTF, DOM_RSQRT, REF_RSQRT, B_ULP, 2, 0, "2 ulp", 0 },
	{ "sinf(x)", FN_SINF, DOM_TRIG, REF_SIN, B_ULP, 2, 0, "2 ulp", -1 },
	{ "__sinf(x)", FN_SINF_FAST, DOM_TRIG, REF_SIN, B_ABS, -21.41, 0, "abs 2^-21.41", 2 },
	{ "cosf(x)", FN_COSF, DOM_TRIG, REF_COS, B_ULP, 2, 0, "2 ulp", -1 },
	{ "__cosf(x)", FN_COSF_FAST, DOM_TRIG, REF_COS, B_ABS, -21.19, 0, "abs 2^-21.19", 4 },
	{ "sincosf(x,&s,&c)", FN_SINCOSF, DOM_TRIG, REF_SINCOS, B_ULP, 2, 2, "2 ulp each", -1 },
	{ "__sincosf(x,&s,&c)", FN_SINCOSF_FAST, DOM_TRIG, REF_SINCOS, B_ABS, -21.41, -21.19, "abs 2^-21.41/2^-21.19", 6 },
	{ "expf(x)", FN_EXPF, DOM_EXP, REF_EXP, B_ULP, 2, 0, "2 ulp", -1 },
	{ "__expf(x)", FN_EXPF_FAST, DOM_EXP, REF_EXP, B_EXP_FAST, 0, 0, "2+floor(1.173|x|) ulp", 8 },
	{ "logf(x)", FN_LOGF, DOM_LOG, REF_LOG, B_ULP, 1, 0, "1 ulp", -1 },
	{ "__logf(x)", FN_LOGF_FAST, DOM_LOG, REF_LOG, B_LOG_FAST, 0, 0, "abs 2^-21.41 or 3 ulp", 10 },
	{ "powf(x, y)", FN_POWF, DOM_POW, REF_POW, B_ULP, 4, 0, "4 ulp", -1 },
	{ "__powf(x, y)", FN_POWF_FAST, DOM_POW, REF_POW, B_POW_FAST, 0, 0, "derived, per input", 12 },
	{ "x / y", FN_DIV, DOM_DIV, REF_DIV, B_ULP, 0, 0, "0 ulp", -1 },
	{ "__fdividef(x, y)", FN_DIV_FAST, DOM_DIV, REF_DIV, B_ULP, 2, 0, "2 ulp", 14 },
	{ "sinf(x) large x", FN_SINF_LARGE, DOM_TRIG_LARGE, REF_SIN, B_ULP, 2, 0, "2 ulp", 2 },
};
#define N_MVERSIONS ((int)(sizeof mversions / sizeof mversions[0]))
#define RSQRT_ROWS 2

/* ---------------------------------------------------------------------------
 * Inputs and references on the host.
 */
/* Uniform in [0, 1). */
static double unit(uint64_t *z)
{
	return (double)(apod_splitmix64(z) >> 11) * 0x1p-53;
}

/* n inputs spread evenly over the domain, each jittered inside its own slot
 * (so neighbouring threads get neighbouring inputs), the same on every run. */
static void fill_domain(int dom, float *x, float *y, size_t n)
{
	const double pi_in = 3.14159250259399414;   /* the largest float below pi */
	uint64_t z = 0x5eed0000ull + (uint64_t)dom;
	for (size_t i = 0; i < n; i++) {
		double s = ((double)i + unit(&z)) / (double)n;
		switch (dom) {
		case DOM_RSQRT: x[i] = (float)exp2(-20 + 40 * s); y[i] = x[i]; break;
		case DOM_TRIG: x[i] = (float)(-pi_in + 2 * pi_in * s); y[i] = x[i]; break;
		case DOM_EXP: x[i] = (float)(-10 + 20 * s); y[i] = x[i]; break;
		case DOM_LOG: x[i] = (float)exp2(-6 + 12 * s); y[i] = x[i]; break;
		case DOM_POW: x[i] = (float)exp2(-2 + 4 * s); y[i] = (float)(-8 + 16 * unit(&z)); break;
		case DOM_DIV:
			x[i] = (float)((apod_splitmix64(&z) & 1 ? -1 : 1) * exp2(-20 + 40 * unit(&z)));
			y[i] = (float)((apod_splitmix64(&z) & 1 ? -1 : 1) * exp2(-20 + 40 * s));
			break;
		default:   /* DOM_TRIG_LARGE */
			x[i] = (float)((apod_splitmix64(&z) & 1 ? -1 : 1) * (131072.0 + (1048576.0 - 131072.0) * s));
			y[i] = x[i];
			break;
		}
	}
}

static void compute_refs(int ref, const float *x, const float *y, double *r0, double *r1, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double a = x[i], b = y[i];
		switch (ref) {
		case REF_RSQRT: r0[i] = 1.0 / sqrt(a); break;
		case REF_SIN: r0[i] = sin(a); break;
		case REF_COS: r0[i] = cos(a); break;
		case REF_SINCOS: r0[i] = sin(a); r1[i] = cos(a); break;
		case REF_EXP: r0[i] = exp(a); break;
		case REF_LOG: r0[i] = log(a); break;
		case REF_POW: r0[i] = pow(a, b); break;
		default: r0[i] = a / b; break;   /* exact quotient, rounded once to double */
		}
	}
}

struct mcheck {
	int64_t max_ulp;
	double max_abs, max_bound;    /* max_bound: the largest per-input bound in ulps */
	float x_max;                  /* the input of the largest ulp error */
	size_t bad;
	float bad_x, bad_y, bad_got;
	double bad_ref;
};

/* One result array against its reference, input by input. */
static void check_one(const struct mversion *v, int second, const float *x, const float *y, const float *got,
                      const double *ref, size_t n, struct mcheck *c)
{
	const double bound = second ? v->bound2 : v->bound, abs_bound = exp2(bound), log_abs = exp2(-21.41);
	for (size_t i = 0; i < n; i++) {
		int64_t u = apod_model_ulp_dist(got[i], ref[i], v->ref == REF_DIV);
		double e = fabs((double)got[i] - ref[i]), ub = 0;
		int ok;
		switch (v->kind) {
		case B_ULP: ub = bound; ok = (double)u <= ub; break;
		case B_ABS: ok = e <= abs_bound; break;
		case B_EXP_FAST: ub = apod_model_expf_fast_ulp_bound(x[i]); ok = (double)u <= ub; break;
		case B_LOG_FAST:
			if (x[i] >= 0.5f && x[i] <= 2.0f)
				ok = e <= log_abs;
			else {
				ub = 3;
				ok = u <= 3;
			}
			break;
		default:
			/* __powf(x, y) is exp2(y * __log2f(x)): the bound, derived from
			 * __log2f's and exp2f's, depends on x and y (cpu/labs/lab_models.c). */
			ub = apod_model_powf_fast_ulp_bound(x[i], y[i]);
			ok = (double)u <= ub;
		}
		if (ub > c->max_bound)
			c->max_bound = ub;
		if (u > c->max_ulp) {
			c->max_ulp = u;
			c->x_max = x[i];
		}
		if (e > c->max_abs || e != e)
			c->max_abs = e;
		if (!ok && c->bad++ == 0) {
			c->bad_x = x[i];
			c->bad_y = y[i];
			c->bad_got = got[i];
			c->bad_ref = ref[i];
		}
	}
}

/* ---------------------------------------------------------------------------
 * The lab.
 */
struct work {
	const struct apod_lab_opts *o;
	json_object *rows;
	int failed;
	char first_fail[128];
};

static void note_fail(struct work *w, const char *what)
{
	w->failed = 1;
	if (!w->first_fail[0])
		snprintf(w->first_fail, sizeof w->first_fail, "%s", what);
}

static json_object *add_row(struct work *w, const char *section, const char *name, int ok, double ms,
                            double gops)
{
	json_object *r = lab_row(w->rows);
	lab_put(r, "section", section);
	lab_put(r, "version", name);
	lab_put(r, "verified", ok != 0);
	if (ok && !w->o->check) {
		lab_put(r, "ms", ms);
		lab_put(r, "Gop/s", gops);
	}
	return r;
}

static void simple_header(void)
{
	printf("  %-44s %10s %10s %9s  %s\n", "version", "ms", "Gop/s", "speed-up", "check");
}

static void simple_row(struct work *w, const char *name, int ok, double ms, double gops, double base_ms)
{
	if (!ok || w->o->check)
		printf("  %-44s %10s %10s %9s  %s\n", name, "-", "-", "", ok ? "ok" : "FAILED");
	else if (base_ms > 0)
		printf("  %-44s %10.4f %10.1f %8.2fx  ok\n", name, ms, gops, base_ms / ms);
	else
		printf("  %-44s %10.4f %10.1f %9s  ok\n", name, ms, gops, "");
}

static int sampled(unsigned t, unsigned count, unsigned step)
{
	return t % step == 0 || t == count - 1;
}

/* 1. Division and modulo by 16. */
static int lab_divmod(struct work *w, json_object *out)
{
	const struct apod_lab_opts *o = w->o;
	const unsigned threads = o->check ? 4096 + 33 : DIV_THREADS, n = LITERAL_N, shift = 4;
	const unsigned step = o->check ? 1 : SAMPLE;
	const int iters = DIV_ITERS;
	dev_array<unsigned> d;
	host_array<unsigned> h, ref;
	double ms[DIV_MODES] = { 0 };
	json_object *meta;

	if (h.alloc(threads) || ref.alloc(threads))
		return -1;
	/* The CPU's own division, on the threads it replays. */
	for (unsigned t = 0; t < threads; t++) {
		unsigned acc = 0;
		if (!sampled(t, threads, step))
			continue;
		for (int k = 0; k < iters; k++) {
			unsigned i = t + (unsigned)k * threads;
			acc += (i / n) ^ (i % n);
		}
		ref.p[t] = acc;
	}
	if (d.alloc(threads))
		return -1;
	printf("1. division and modulo by n = %u (guide 11.1.1): %u threads x %d quotient-remainder pairs, "
	       "summed per thread;\n   checked exactly against the CPU on %s\n", n, threads, iters,
	       step == 1 ? "every thread" : "every 64th thread and the last");
	simple_header();
	for (int m = 0; m < DIV_MODES; m++) {
		int ok = 1;
		APOD_CUDA_TRY(cudaMemset(d.p, 0, threads * sizeof(unsigned)));
		if (launch_divmod(m, d.p, threads, n, shift, iters))
			return -1;
		APOD_CUDA_TRY(cudaMemcpy(h.p, d.p, threads * sizeof(unsigned), cudaMemcpyDeviceToHost));
		for (unsigned t = 0; t < threads; t++)
			if (sampled(t, threads, step) && h.p[t] != ref.p[t])
				ok = 0;
		if (!ok)
			note_fail(w, div_name[m]);
		else if (!o->check &&
		         time_it(o->reps, [&] { return launch_divmod(m, d.p, threads, n, shift, iters) != 0; }, &ms[m]))
			return -1;
		double gops = ms[m] > 0 ? (double)threads * iters / (ms[m] * 1e-3) / 1e9 : 0;
		simple_row(w, div_name[m], ok, ms[m], gops, m > 0 && ms[0] > 0 ? ms[0] : 0);
		json_object *r = add_row(w, "divmod", div_name[m], ok, ms[m], gops);
		if (ok && !o->check && m > 0 && ms[0] > 0)
			lab_put(r, "speedup", ms[0] / ms[m]);
	}
	meta = json_object_new_object();
	lab_put(meta, "threads", threads);
	lab_put(meta, "pairs_per_thread", iters);
	lab_put(meta, "divisor", (int)n);
	lab_put(meta, "op", "one quotient and one remainder");
	lab_put(out, "divmod", meta);
	return 0;
}

/* 3. Double constants. */
static int lab_constants(struct work *w, json_object *out)
{
	const struct apod_lab_opts *o = w->o;
	const unsigned n = o->check ? 4096 + 33 : CONST_ELEMS, step = o->check ? 1 : SAMPLE;
	const int iters = CONST_ITERS;
	const size_t outs = (size_t)n * CHAINS;
	host_array<float> x, h[CONST_MODES];
	dev_array<float> dx, dout;
	double ms[CONST_MODES] = { 0 }, mults = (double)outs * iters * 2;
	int ok[CONST_MODES], dev = 0, ratio = 0;
	size_t differ = 0;
	uint64_t z = 0xc0257ull;
	json_object *meta;

	if (x.alloc(n))
		return -1;
	for (int m = 0; m < CONST_MODES; m++)
		if (h[m].alloc(outs))
			return -1;
	for (unsigned i = 0; i < n; i++)
		x.p[i] = (float)(1.0 + unit(&z));
	APOD_CUDA_TRY(cudaGetDevice(&dev));
	APOD_CUDA_TRY(cudaDeviceGetAttribute(&ratio, cudaDevAttrSingleToDoublePrecisionPerfRatio, dev));
	if (dx.alloc(n) || dout.alloc(outs))
		return -1;
	APOD_CUDA_TRY(cudaMemcpy(dx.p, x.p, n * sizeof(float), cudaMemcpyHostToDevice));
	printf("\n3. double constants in float code (guide 11.1.4): %u elements x %d chains x %d steps of two "
	       "multiplies;\n   this device's FP32:FP64 throughput ratio is %d:1; checked bit for bit against "
	       "the CPU on %s\n", n, CHAINS, iters, ratio, step == 1 ? "every element" : "every 64th element and the last");
	simple_header();
	for (int m = 0; m < CONST_MODES; m++) {
		ok[m] = 1;
		APOD_CUDA_TRY(cudaMemset(dout.p, 0, outs * sizeof(float)));
		if (launch_const(m, dx.p, dout.p, n, iters))
			return -1;
		APOD_CUDA_TRY(cudaMemcpy(h[m].p, dout.p, outs * sizeof(float), cudaMemcpyDeviceToHost));
		for (unsigned i = 0; i < n && ok[m]; i++) {
			if (!sampled(i, n, step))
				continue;
			for (int c = 0; c < CHAINS; c++) {
				float want = const_chain_cpu(m, x.p[i] + 0.25f * c, iters);
				if (memcmp(&want, &h[m].p[(size_t)i * CHAINS + c], sizeof want) != 0)
					ok[m] = 0;
			}
		}
		if (!ok[m])
			note_fail(w, const_name[m]);
		else if (!o->check && time_it(o->reps, [&] { return launch_const(m, dx.p, dout.p, n, iters) != 0; }, &ms[m]))
			return -1;
		double gops = ms[m] > 0 ? mults / (ms[m] * 1e-3) / 1e9 : 0;
		simple_row(w, const_name[m], ok[m], ms[m], gops, m > 0 && ms[0] > 0 ? ms[0] : 0);
		json_object *r = add_row(w, "double_constants", const_name[m], ok[m], ms[m], gops);
		if (ok[m] && !o->check && m > 0 && ms[0] > 0)
			lab_put(r, "speedup", ms[0] / ms[m]);
	}
	meta = json_object_new_object();
	if (ok[CONST_DOUBLE] && ok[CONST_FLOAT]) {
		for (size_t k = 0; k < outs; k++)
			differ += memcmp(&h[CONST_DOUBLE].p[k], &h[CONST_FLOAT].p[k], sizeof(float)) != 0;
		printf("  the double-constant and float-constant chains end on different floats in %zu of %zu chains\n",
		       differ, outs);
		lab_put(meta, "chains_that_differ", differ);
	}
	lab_put(meta, "elements", n);
	lab_put(meta, "chains", outs);
	lab_put(meta, "steps_per_chain", iters);
	lab_put(meta, "op", "one multiply");
	lab_put(meta, "fp32_to_fp64_ratio", ratio);
	lab_put(out, "double_constants", meta);
	return 0;
}

/* Host and device arrays of the math sections, and which inputs and
 * references they hold now. */
struct mwork {
	size_t n = 0;
	host_array<float> x, y, r0, r1;
	host_array<double> ref0, ref1;
	struct mbufs d;
	int dom = -1, ref = -1;
	double ms[N_MVERSIONS] = {};
};

static int math_prepare(struct mwork *m, int dom, int ref)
{
	size_t bytes = m->n * sizeof(float);
	if (m->dom != dom) {
		fill_domain(dom, m->x.p, m->y.p, m->n);
		APOD_CUDA_TRY(cudaMemcpy(m->d.x.p, m->x.p, bytes, cudaMemcpyHostToDevice));
		APOD_CUDA_TRY(cudaMemcpy(m->d.y.p, m->y.p, bytes, cudaMemcpyHostToDevice));
		m->dom = dom;
		m->ref = -1;
	}
	if (m->ref != ref) {
		compute_refs(ref, m->x.p, m->y.p, m->ref0.p, m->ref1.p, m->n);
		m->ref = ref;
	}
	return 0;
}

/* Launch one version once, copy its results back and check them all. */
static int math_run_check(struct mwork *m, const struct mversion *v, int fn, int iters, struct mcheck *c)
{
	size_t bytes = m->n * sizeof(float);
	memset(c, 0, sizeof *c);
	APOD_CUDA_TRY(cudaMemset(m->d.r0.p, 0xff, bytes));   /* NaN: a result never written fails */
	APOD_CUDA_TRY(cudaMemset(m->d.r1.p, 0xff, bytes));
	if (launch_math(fn, &m->d, m->n, iters))
		return -1;
	APOD_CUDA_TRY(cudaMemcpy(m->r0.p, m->d.r0.p, bytes, cudaMemcpyDeviceToHost));
	check_one(v, 0, m->x.p, m->y.p, m->r0.p, m->ref0.p, m->n, c);
	if (v->ref == REF_SINCOS) {
		APOD_CUDA_TRY(cudaMemcpy(m->r1.p, m->d.r1.p, bytes, cudaMemcpyDeviceToHost));
		check_one(v, 1, m->x.p, m->y.p, m->r1.p, m->ref1.p, m->n, c);
	}
	return 0;
}

/* Sections 2 and 4: rows first..last-1 of mversions. */
static int lab_math(struct work *w, struct mwork *m, int first, int last)
{
	const struct apod_lab_opts *o = w->o;
	const double calls = (double)m->n * (1 + CHAINS * MATH_ITERS);
	printf("  %-18s %-16s %9s %10s  %-21s %9s %9s %8s  %s\n", "version", "inputs", "max ulp", "max |err|",
	       "bound", "ms", "Gop/s", "speed-up", "check");
	for (int k = first; k < last; k++) {
		const struct mversion *v = &mversions[k];
		struct mcheck c;
		int ok;
		double ms = 0, gops = 0;
		char bound[48];
		if (math_prepare(m, v->dom, v->ref) || math_run_check(m, v, v->fn, MATH_ITERS, &c))
			return -1;
		ok = c.bad == 0;
		if (!ok)
			note_fail(w, v->name);
		else if (!o->check &&
		         time_it(o->reps, [&] { return launch_math(v->fn, &m->d, m->n, MATH_ITERS) != 0; }, &ms))
			return -1;
		m->ms[k] = ms;
		gops = ms > 0 ? calls / (ms * 1e-3) / 1e9 : 0;
		if (v->kind == B_POW_FAST)
			snprintf(bound, sizeof bound, "derived, <= %.0f ulp", c.max_bound);
		else
			snprintf(bound, sizeof bound, "%s", v->bound_text);
		printf("  %-18s %-16s %9lld %10.3g  %-21s ", v->name, dom_text[v->dom], (long long)c.max_ulp, c.max_abs,
		       bound);
		if (!ok || o->check)
			printf("%9s %9s %8s  %s\n", "-", "-", "", ok ? "ok" : "FAILED");
		else if (v->base >= 0 && m->ms[v->base] > 0)
			printf("%9.4f %9.1f %7.2fx  ok\n", ms, gops, m->ms[v->base] / ms);
		else
			printf("%9.4f %9.1f %8s  ok\n", ms, gops, "");
		if (!ok)
			printf("    %zu of %zu inputs outside the bound; the first: x = %.9g, y = %.9g, got %.9g, "
			       "reference %.17g\n", c.bad, m->n, c.bad_x, c.bad_y, c.bad_got, c.bad_ref);

		json_object *r = add_row(w, first == 0 ? "rsqrt" : "math", v->name, ok, ms, gops);
		lab_put(r, "inputs", dom_text[v->dom]);
		lab_put(r, "bound", bound);
		lab_put(r, "max_ulp", c.max_ulp);
		/* JSON has no NaN or infinity: a non-finite error (a failed row) is null. */
		lab_put(r, "max_abs_error", isfinite(c.max_abs) ? json_object_new_double(c.max_abs) : NULL);
		lab_put(r, "x_at_max_ulp", (double)c.x_max);
		lab_put(r, "inputs_outside_bound", c.bad);
		if (ok && !o->check && v->base >= 0 && m->ms[v->base] > 0) {
			lab_put(r, "speedup", m->ms[v->base] / ms);
			lab_put(r, "speedup_against", mversions[v->base].name);
		}
	}
	return 0;
}

/* __sinf on the large arguments: shown, not checked (no bound is documented there). */
static int sinf_fast_large(struct mwork *m, json_object *out)
{
	const struct mversion info = { "__sinf(x) large x", FN_SINF_FAST, DOM_TRIG_LARGE, REF_SIN, B_ABS, 0, 0, "", -1 };
	struct mcheck c;
	json_object *j;
	if (math_prepare(m, info.dom, info.ref) || math_run_check(m, &info, info.fn, 0, &c))
		return -1;
	j = json_object_new_object();
	printf("  for comparison, __sinf(x) on the same large x: max |err| %.3g, max %lld ulp (the guide gives no "
	       "bound outside [-pi, pi]; not checked)\n", c.max_abs, (long long)c.max_ulp);
	lab_put(j, "max_abs_error", isfinite(c.max_abs) ? json_object_new_double(c.max_abs) : NULL);
	lab_put(j, "max_ulp", c.max_ulp);
	lab_put(out, "sinf_fast_large_x", j);
	return 0;
}

/* The math sections' inputs, results and references for n inputs, host and device. */
static int math_alloc(struct mwork *m, size_t n)
{
	m->n = n;
	if (m->x.alloc(n) || m->y.alloc(n) || m->r0.alloc(n) || m->r1.alloc(n) || m->ref0.alloc(n) ||
	    m->ref1.alloc(n))
		return -1;
	return m->d.x.alloc(n) || m->d.y.alloc(n) || m->d.r0.alloc(n) || m->d.r1.alloc(n) || m->d.sink.alloc(n)
	       ? -1 : 0;
}

extern "C" int apod_lab_instructions(const struct apod_lab_opts *o, json_object *out)
{
	size_t n = lab_size(o, (size_t)1 << 24, ((size_t)1 << 16) + 77);
	struct work w = {};
	struct mwork m;
	json_object *meta;

	if (n < 1024 || n > ((size_t)1 << 28))
		return apod_usage_fail("instructions: --size %zu is outside 1024..2^28 inputs per function", n);
	w.o = o;
	w.rows = lab_array(out, "rows");
	lab_put(out, "unit", "Gop/s");

	if (lab_divmod(&w, out))
		return -1;

	if (math_alloc(&m, n))
		return -1;
	printf("\n2. reciprocal square root (guide 11.1.3): %zu inputs, each result checked against the C library's "
	       "double result;\n   timed: %d calls per input (the checked one, then %d independent chains of %d); "
	       "Gop/s = calls per second\n", n, 1 + CHAINS * MATH_ITERS, CHAINS, MATH_ITERS);
	if (lab_math(&w, &m, 0, RSQRT_ROWS))
		return -1;

	if (lab_constants(&w, out))
		return -1;

	printf("\n4. fast intrinsics against the precise functions (guide 11.1.6): %zu inputs per function, checked "
	       "and timed as in 2\n", n);
	if (lab_math(&w, &m, RSQRT_ROWS, N_MVERSIONS) || sinf_fast_large(&m, out))
		return -1;

	meta = json_object_new_object();
	lab_put(meta, "inputs", n);
	lab_put(meta, "calls_per_input", 1 + CHAINS * MATH_ITERS);
	lab_put(meta, "chains", CHAINS);
	lab_put(out, "math", meta);
	return w.failed ? apod_fail("instructions: %s was outside its bound or wrong; the table shows which",
	                            w.first_fail) : 0;
}
