/*
 * interact.h: the arithmetic of the n-body workload, written once for
 * every stage (gcc for serial and omp, nvcc for the GPU stages).
 *
 * Units: G = 1.  The acceleration of body i is
 *
 *     a_i = sum_j m_j (r_j - r_i) / (|r_j - r_i|^2 + eps^2)^(3/2)
 *
 * with Plummer softening eps > 0.  The j = i term needs no test: its
 * difference is exactly zero, so it adds exactly 0 to each component.
 *
 * Bit for bit: every stage that calls nbody_interact() for j = 0, 1, ...,
 * n-1 in that order, with one accumulator per body, gets the same bits as
 * serial wherever the device rounds as the host does (--disable-fmad:
 * sqrtf and the division are IEEE on both sides, nvcc's defaults
 * -prec-sqrt=true -prec-div=true).  nbody_interact_rsqrt() replaces the
 * square root and the division by rsqrtf on the device (2 ulp): faster,
 * never bit for bit.  doc/verification.md, section "n-body", says which
 * stage uses which and what the gate expects of each.
 */
#ifndef APOD_NBODY_INTERACT_H
#define APOD_NBODY_INTERACT_H

#include <math.h>

#include "shared/apod_hd.h"

/* The flop convention of the benchmarks: 20 flops per interaction (3 subs,
 * 6 for the squared distance with eps^2, sqrt, mul and div counted as the
 * customary few, 1 for the mass, 6 for the accumulation). */
#define NBODY_FLOPS_PER_INTERACTION 20

/* The speed of light's count (the step's apod_work in cpu/nbody/workload.c)
 * is lower: the multiplies and adds that every form below performs, 3
 * subtractions, 6 for the squared distance with eps^2, 1 for s^(3/2) or the
 * mass, 6 for the accumulation; the square root and the division (or the
 * rsqrt) are the one special function.  The convention's 20 also counts the
 * square root and division as flops, but a host runs those on its divider
 * beside the multiply and add pipes, so a bound made from 20 did not bound:
 * serial on the H200's host ran at 1.27 times it
 * (doc/results/2026-11-26-h200-gates/).  A bound that leaves work out still
 * bounds. */
#define NBODY_SOL_FLOPS_PER_INTERACTION 16

/* The largest |f| of one pair per unit mass, max over r of
 * r / (r^2 + eps^2)^(3/2) = 2 / (3 sqrt(3) eps^2), and the largest norm of
 * its Jacobian, 1 / eps^3 (both used by the tolerances). */
#define NBODY_FORCE_MAX_COEF 0.38490017945975050   /* 2 / (3 sqrt 3) */

/* Add body j's pull on body i to (ax, ay, az): the reference form. */
APOD_HD void nbody_interact(float xi, float yi, float zi, float xj, float yj, float zj, float mj,
                            float eps2, float *ax, float *ay, float *az)
{
	float dx = xj - xi, dy = yj - yi, dz = zj - zi;
	float s = dx * dx + dy * dy + dz * dz + eps2;
	float w = mj / (s * sqrtf(s));
	*ax += dx * w;
	*ay += dy * w;
	*az += dz * w;
}

/* 1/sqrt(s): the MUFU.RSQ instruction on the device (2 ulp), the correctly
 * rounded quotient on the host (for the unit tests).  rsqrtf() would be
 * the same instruction plus a guard for subnormal s (a compare and two
 * multiplies, three more issue slots in a loop of about thirteen), so the
 * flush-to-zero form is written in PTX: s >= eps^2 >= 1e-12 (the key
 * table's least eps is 1e-6), far above the least normal float (1.2e-38),
 * and 1/sqrt(s) <= 1e6, so flushing subnormals changes no result. */
APOD_HD float nbody_rsqrt(float s)
{
#ifdef __CUDA_ARCH__
	float r;
	asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(s));
	return r;
#else
	return 1.0f / sqrtf(s);
#endif
}

/* The separation d = r_j - r_i and 1 / sqrt(|d|^2 + eps^2), with the
 * squared distance built from eps^2 up, so that it contracts to three FMAs. */
APOD_HD float nbody_rsqrt_pair(float xi, float yi, float zi, float xj, float yj, float zj, float eps2,
                               float d[3])
{
	float s;
	d[0] = xj - xi;
	d[1] = yj - yi;
	d[2] = zj - zi;
	s = eps2 + d[0] * d[0];
	s += d[1] * d[1];
	s += d[2] * d[2];
	return nbody_rsqrt(s);
}

/* The same pull with the reciprocal square root cubed: no division, no
 * square root.  Used by the tuned stage (gpu4) alone. */
APOD_HD void nbody_interact_rsqrt(float xi, float yi, float zi, float xj, float yj, float zj,
                                  float mj, float eps2, float *ax, float *ay, float *az)
{
	float d[3], r = nbody_rsqrt_pair(xi, yi, zi, xj, yj, zj, eps2, d);
	float w = mj * r * r * r;
	*ax += d[0] * w;
	*ay += d[1] * w;
	*az += d[2] * w;
}

/* The same pull for a body of unit mass: w = r^3, one multiply fewer (12
 * issue slots an interaction instead of 13).  Where every body has the same
 * mass m (every model of this workload: m = 1/n), gpu4 sums these and
 * multiplies the sum by m once.  A body at 1e30 adds exactly zero: its
 * squared distance overflows to +inf, the rsqrt of +inf is 0, and 1e30 * 0
 * is 0, which is how gpu4 pads its last tile (NBODY_FAR). */
#define NBODY_FAR 1e30f
APOD_HD void nbody_interact_rsqrt_unit(float xi, float yi, float zi, float xj, float yj, float zj,
                                       float eps2, float *ax, float *ay, float *az)
{
	float d[3], r = nbody_rsqrt_pair(xi, yi, zi, xj, yj, zj, eps2, d);
	float w = r * r * r;
	*ax += d[0] * w;
	*ay += d[1] * w;
	*az += d[2] * w;
}

/* Half a kick: v + (dt/2) a, with h = dt/2 (exact). */
APOD_HD float nbody_kick(float v, float a, float h)
{
	return v + h * a;
}

/* A drift: x + dt v. */
APOD_HD float nbody_drift(float x, float v, float dt)
{
	return x + dt * v;
}

/* The potential energy of one pair, in double: -m_i m_j / sqrt(r^2 + eps^2).
 * The differences of floats are rounded once in double; the rest is a few
 * roundings of double. */
APOD_HD double nbody_pair_potential(double xi, double yi, double zi, double mi, double xj,
                                    double yj, double zj, double mj, double eps2)
{
	double dx = xj - xi, dy = yj - yi, dz = zj - zi;
	return -mi * mj / sqrt(dx * dx + dy * dy + dz * dz + eps2);
}

/* One body's kinetic energy, in double (the squares of floats are exact). */
APOD_HD double nbody_kinetic(float m, float vx, float vy, float vz)
{
	double x = vx, y = vy, z = vz;
	return 0.5 * (double)m * (x * x + y * y + z * z);
}

#endif
