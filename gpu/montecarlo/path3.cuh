/*
 * path3.cuh: gpu3's path, the same numbers as gpu2's in fewer instructions.
 *
 * gpu2's batch is latency-bound (doc/optimize.md, section 21): a warp waits
 * about seven cycles between instructions, and the double library's log,
 * exp and sincospi each carry branches for arguments a path never makes
 * (subnormals, infinities, |x| past 708, arguments past 2^52), plus
 * data-dependent ones (log's mantissa fold, sincospi's quadrant swap) on
 * which a warp's threads part.  Every branch ends a basic block, so the
 * compiler cannot overlap the log with the sincospi of the same pair, or
 * the two exps of a pair with each other.
 *
 * Here each function is the double library's own sequence of operations
 * (the same reduction, the same polynomial coefficients, the same order of
 * roundings, as CUDA 13.0's log, exp and sincospi compile to), written
 * without those branches:
 *
 *   - mc3_log: its argument is apod_u01d's, in [2^-53, 1]: normal, finite,
 *     positive.  The mantissa fold becomes a select.
 *   - mc3_exp: |x| <= X < 700 (mc3_fits, checked on the host), so no
 *     overflow or underflow scaling.
 *   - mc3_sincospi: x = 2 u2 in (0, 2]; the quadrant comes from adding
 *     1.5 * 2^52 (round to nearest even, as rint does) instead of two
 *     conversions, and the swap and signs are selects and sign-bit flips.
 *     It leaves out the library's sign fixes for zero results (sin of an
 *     integer +0, cos never -0): a zero normal only ever meets
 *     mu_dt + vol_dt * z, where +0 and -0 give the same sum.
 *
 * So gpu3's S_T, geometric and arithmetic means are gpu2's bits, which
 * tests/check_mc_gpu.c checks path by path, and the gate's error analysis
 * (cpu/montecarlo/workload.c) holds unchanged.  Philox4x32-10 takes its
 * ten round keys from the kernel's arguments (mc3_keys, on the host), so
 * no key is bumped on the device, and the counter's words that are the
 * same for every draw of a path are multiplied once a path.
 */
#ifndef APOD_MONTECARLO_PATH3_CUH
#define APOD_MONTECARLO_PATH3_CUH

#include <math.h>
#include <stdint.h>

#include "shared/montecarlo/path.h"

/* Pairs of steps a turn of mc3_paths' loop: two let the compiler overlap
 * one pair's Philox rounds with the other's transcendentals. */
#ifndef MC_GPU3_UNROLL
#define MC_GPU3_UNROLL 2
#endif
/* Paths a gpu3 thread carries at once, in step: two independent chains
 * for the scheduler (80 registers, 3 blocks an SM) measured 5% faster than
 * one (64 registers, 4 blocks; doc/optimize.md, section 21). */
#ifndef MC_GPU3_PATHS
#define MC_GPU3_PATHS 2
#endif
#define MC3_PRAGMA(x) _Pragma(#x)
#define MC3_UNROLL(n) MC3_PRAGMA(unroll n)

/* Philox4x32's multipliers and key increments (Random123's, Salmon et al.). */
#define MC3_PHILOX_M0 0xD2511F53u
#define MC3_PHILOX_M1 0xCD9E8D57u
#define MC3_PHILOX_W0 0x9E3779B9u
#define MC3_PHILOX_W1 0xBB67AE85u
#define MC3_ROUNDS 10

/* The round keys of a seed: round r uses key + r W. */
struct mc3_keys {
	uint32_t k0[MC3_ROUNDS], k1[MC3_ROUNDS];
};

static inline struct mc3_keys mc3_keys_of(uint64_t seed)
{
	struct mc3_keys k;
	for (int r = 0; r < MC3_ROUNDS; r++) {
		k.k0[r] = (uint32_t)seed + (uint32_t)r * MC3_PHILOX_W0;
		k.k1[r] = (uint32_t)(seed >> 32) + (uint32_t)r * MC3_PHILOX_W1;
	}
	return k;
}

/* Whether every log price of a path stays where mc3_exp needs no scaling:
 * |x| <= |x0| + n |mu_dt| + n vol_dt ZMAX (the X of workload.c's bound),
 * with room left for the geometric mean's exp and the last roundings. */
static inline int mc3_fits(const struct mc_model *m)
{
	double n = (double)m->steps;
	return fabs(m->x0) + n * fabs(m->mu_dt) + n * m->vol_dt * MC_ZMAX < 700.0;
}

/* apod_rng4(seed, MC_STREAM_PATH, path, sub): Random123's rounds with the
 * keys from k; c0 and c1 are the path's words. */
static __device__ __forceinline__ void mc3_philox(const struct mc3_keys &k, uint32_t c0,
                                                  uint32_t c1, uint32_t sub, uint32_t w[4])
{
	uint32_t c2 = sub, c3 = MC_STREAM_PATH;
#pragma unroll
	for (int r = 0; r < MC3_ROUNDS; r++) {
		uint64_t p0 = (uint64_t)MC3_PHILOX_M0 * c0, p1 = (uint64_t)MC3_PHILOX_M1 * c2;
		uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k.k0[r];
		uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k.k1[r];
		c1 = (uint32_t)p1;
		c3 = (uint32_t)p0;
		c0 = n0;
		c2 = n2;
	}
	w[0] = c0, w[1] = c1, w[2] = c2, w[3] = c3;
}

static __device__ __forceinline__ double mc3_bits(uint32_t hi, uint32_t lo)
{
	return __hiloint2double((int)hi, (int)lo);
}

static __device__ __forceinline__ uint32_t mc3_hi(double x)
{
	return (uint32_t)__double2hiint(x);
}

static __device__ __forceinline__ uint32_t mc3_lo(double x)
{
	return (uint32_t)__double2loint(x);
}

static __device__ __forceinline__ double mc3_c(uint64_t bits)
{
	return __longlong_as_double((long long)bits);
}

/* log(u), u in [2^-53, 1]. */
static __device__ __forceinline__ double mc3_log(double u)
{
	uint32_t hi = mc3_hi(u), lo = mc3_lo(u);
	int e = (int)(hi >> 20) - 1023;
	uint32_t mhi = (hi & 0x800FFFFFu) | 0x3FF00000u;
	/* Mantissas from sqrt(2) up are halved, so the series' argument stays
	 * within (1/sqrt(2) - 1, sqrt(2) - 1) / its sum with 1. */
	int fold = (int)mhi >= 0x3FF6A09F;
	mhi -= fold ? 0x100000u : 0u;
	e += fold;
	double m = mc3_bits(mhi, lo), a = m + 1.0, rc, t, f, q, s2, p, d, lo_part, ed, hi_part;
	asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(rc) : "d"(a));
	t = fma(-a, rc, 1.0);
	t = fma(t, t, t);
	rc = fma(t, rc, rc);
	f = m - 1.0;
	q = f * rc;
	q = fma(f, rc, q);
	s2 = q * q;
	p = fma(mc3_c(0x3EB1380B3AE80F1Eull), s2, mc3_c(0x3ED0EE258B7A8B04ull));
	p = fma(p, s2, mc3_c(0x3EF3B2669F02676Full));
	p = fma(p, s2, mc3_c(0x3F1745CBA9AB0956ull));
	p = fma(p, s2, mc3_c(0x3F3C71C72D1B5154ull));
	p = fma(p, s2, mc3_c(0x3F624924923BE72Dull));
	p = fma(p, s2, mc3_c(0x3F8999999999A3C4ull));
	p = fma(p, s2, mc3_c(0x3FB5555555555554ull));
	d = f - q;
	d = d + d;
	d = fma(-q, f, d);
	d = rc * d;
	lo_part = fma(s2 * p, q, d);
	/* e as a double, exactly: 2^52 + 2^31 + e less 2^52 + 2^31. */
	ed = mc3_bits(0x43300000u, (uint32_t)e ^ 0x80000000u) - mc3_bits(0x43300000u, 0x80000000u);
	hi_part = fma(ed, mc3_c(0x3FE62E42FEFA39EFull), q);
	t = fma(-ed, mc3_c(0x3FE62E42FEFA39EFull), hi_part);
	t = t - q;
	t = lo_part - t;
	t = fma(ed, mc3_c(0x3C7ABC9E3B39803Full), t);
	return hi_part + t;
}

/* exp(x), |x| < 700. */
static __device__ __forceinline__ double mc3_exp(double x)
{
	double t = fma(x, mc3_c(0x3FF71547652B82FEull), mc3_c(0x4338000000000000ull));
	uint32_t n = mc3_lo(t);
	double k = __dadd_rn(t, mc3_c(0xC338000000000000ull)), r, p;
	r = fma(k, mc3_c(0xBFE62E42FEFA39EFull), x);
	r = fma(k, mc3_c(0xBC7ABC9E3B39803Full), r);
	p = fma(mc3_c(0x3E5ADE1569CE2BDFull), r, mc3_c(0x3E928AF3FCA213EAull));
	p = fma(p, r, mc3_c(0x3EC71DEE62401315ull));
	p = fma(p, r, mc3_c(0x3EFA01997C89EB71ull));
	p = fma(p, r, mc3_c(0x3F2A01A014761F65ull));
	p = fma(p, r, mc3_c(0x3F56C16C1852B7AFull));
	p = fma(p, r, mc3_c(0x3F81111111122322ull));
	p = fma(p, r, mc3_c(0x3FA55555555502A1ull));
	p = fma(p, r, mc3_c(0x3FC5555555555511ull));
	p = fma(p, r, mc3_c(0x3FE000000000000Bull));
	p = fma(p, r, 1.0);
	p = fma(p, r, 1.0);
	return mc3_bits(mc3_hi(p) + (n << 20), mc3_lo(p));
}

/* sin(pi x) and cos(pi x), x in (0, 2]. */
static __device__ __forceinline__ void mc3_sincospi(double x, double *sp, double *cp)
{
	/* 2x rounded to the nearest integer, ties to even: q and its bits. */
	double y = mc3_bits(mc3_hi(x) + 0x100000u, mc3_lo(x));
	double tq = __dadd_rn(y, mc3_c(0x4338000000000000ull));
	uint32_t n = mc3_lo(tq);
	double q = __dadd_rn(tq, mc3_c(0xC338000000000000ull));
	double r = fma(-q, 0.5, x), t, s2, c, p, s;
	t = r * mc3_c(0x3CA1A62633145C07ull);
	t = fma(r, mc3_c(0x400921FB54442D18ull), t);
	s2 = __dmul_rn(t, t);
	c = fma(mc3_c(0xBDA8FF8320FD8164ull), s2, mc3_c(0x3E21EEA7C1EF8528ull));
	c = fma(c, s2, mc3_c(0xBE927E4F8E06E6D9ull));
	c = fma(c, s2, mc3_c(0x3EFA01A019DDBCE9ull));
	c = fma(c, s2, mc3_c(0xBF56C16C16C15D47ull));
	c = fma(c, s2, mc3_c(0x3FA5555555555551ull));
	c = fma(c, s2, mc3_c(0xBFE0000000000000ull));
	c = fma(c, s2, 1.0);
	p = fma(mc3_c(0x3DE5DB65F9785EBAull), s2, mc3_c(0xBE5AE5F12CB0D246ull));
	p = fma(p, s2, mc3_c(0x3EC71DE369ACE392ull));
	p = fma(p, s2, mc3_c(0xBF2A01A019DB62A1ull));
	p = fma(p, s2, mc3_c(0x3F81111111110818ull));
	p = fma(p, s2, mc3_c(0xBFC5555555555554ull));
	p = fma(p, s2, 0.0);
	s = fma(p, t, t);
	/* Odd quadrants swap sine and cosine (the cosine negated), the upper
	 * two negate both. */
	uint32_t odd = n & 1u, flip = (n & 2u) << 30;
	double a = odd ? c : s, b = odd ? s : c;
	*sp = mc3_bits(mc3_hi(a) ^ flip, mc3_lo(a));
	*cp = mc3_bits(mc3_hi(b) ^ flip ^ (odd << 31), mc3_lo(b));
}

/* A pair of normals, as gpu2's mc_normal2_pi draws them. */
static __device__ __forceinline__ void mc3_normal2(const uint32_t w[4], double *z0, double *z1)
{
	uint64_t b1 = ((((uint64_t)w[0] << 32) | w[1]) >> 11) + 1u;
	uint64_t b2 = ((((uint64_t)w[2] << 32) | w[3]) >> 11) + 1u;
	double u1 = (double)b1 * (1.0 / 9007199254740992.0);
	double x = (double)b2 * (1.0 / 4503599627370496.0);   /* 2 u2, exactly */
	double r = sqrt(-2.0 * mc3_log(u1)), s, c;
	mc3_sincospi(x, &s, &c);
	*z0 = r * c;
	*z1 = r * s;
}

/* One step of a path: x, its running sum and the sum of exp(x). */
static __device__ __forceinline__ void mc3_advance(const struct mc_model &m, double z, double &x,
                                                   double &sumx, double &sums)
{
	x += m.mu_dt + m.vol_dt * z;
	sumx += x;
	sums += mc3_exp(x);
}

/* mc_path_pi's paths: the same draws, steps and roundings, for P paths at
 * once in step with each other (independent chains the compiler can
 * interleave). */
template <int P>
static __device__ __forceinline__ void mc3_paths(const struct mc_model &m, const struct mc3_keys &k,
                                                 const uint64_t path[P], struct mc_outcome o[P])
{
	double x[P], sumx[P], sums[P];
	int k2 = 0;
#pragma unroll
	for (int q = 0; q < P; q++)
		x[q] = m.x0, sumx[q] = 0, sums[q] = 0;
	MC3_UNROLL(MC_GPU3_UNROLL)
	for (; k2 + 1 < m.steps; k2 += 2) {
#pragma unroll
		for (int q = 0; q < P; q++) {
			uint32_t w[4];
			double z0, z1;
			mc3_philox(k, (uint32_t)path[q], (uint32_t)(path[q] >> 32), (uint32_t)(k2 / 2), w);
			mc3_normal2(w, &z0, &z1);
			mc3_advance(m, z0, x[q], sumx[q], sums[q]);
			mc3_advance(m, z1, x[q], sumx[q], sums[q]);
		}
	}
	if (k2 < m.steps) {   /* an odd count: the last pair's first normal */
#pragma unroll
		for (int q = 0; q < P; q++) {
			uint32_t w[4];
			double z0, z1;
			mc3_philox(k, (uint32_t)path[q], (uint32_t)(path[q] >> 32), (uint32_t)(k2 / 2), w);
			mc3_normal2(w, &z0, &z1);
			mc3_advance(m, z0, x[q], sumx[q], sums[q]);
		}
	}
#pragma unroll
	for (int q = 0; q < P; q++) {
		o[q].st = mc3_exp(x[q]);
		o[q].geo = mc3_exp(sumx[q] * m.inv_steps);
		o[q].arith = sums[q] * m.inv_steps;
	}
}

static __device__ __forceinline__ struct mc_outcome mc3_path(const struct mc_model &m,
                                                             const struct mc3_keys &k,
                                                             uint64_t path)
{
	struct mc_outcome o;
	mc3_paths<1>(m, k, &path, &o);
	return o;
}

#endif
