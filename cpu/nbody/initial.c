/*
 * initial.c: the initial conditions, once, on the host, from Philox
 * (shared/rng.h) with the mapping key = seed, counter = (body, attempt,
 * stream).  Only +, -, *, / and sqrt are used (all correctly rounded, no
 * contraction on the host), never pow or cbrt from libm, so the same seed
 * gives the same bits on every IEEE machine and the committed references
 * stay valid.
 *
 * plummer: a Plummer sphere (Aarseth, Henon and Wielen 1974), positions
 * from the inverse of the cumulative mass m(r) = r^3 / (1 + r^2)^(3/2),
 * truncated at 10 scale radii (mass fraction 0.985), speeds by von
 * Neumann rejection of g(q) = q^2 (1 - q^2)^(7/2), isotropic directions by
 * rejection from the cube; scaled to Henon units (G = M = 1, E = -1/4 for
 * the untruncated sphere).
 *
 * disk: a cold rotating disk of radius 1, uniform surface density, a small
 * thickness, each body on the circular speed of the mass inside its radius.
 *
 * Both: the centre of mass and its velocity are removed (in double, index
 * order), and every |r| <= NBODY_R0, |v| <= NBODY_V0 (the tolerances'
 * bounds: a Plummer radius is at most 10 x 3 pi / 16 = 5.9 before the
 * shift of the centre, which is no larger; a speed at most
 * sqrt(2) x sqrt(16 / 3 pi) = 1.85 before the shift, likewise).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "apod/apod.h"
#include "nbody.h"
#include "shared/rng.h"

enum { STREAM_RADIUS, STREAM_DIRECTION, STREAM_SPEED, STREAM_VDIRECTION, STREAM_DISK };

#define PLUMMER_MASS_MAX 0.98518         /* m(10) = 1000 / 101^1.5, the truncation */
#define HENON_R 0.58904862254808623      /* 3 pi / 16 */
#define HENON_V 1.3029400317411197       /* sqrt(16 / (3 pi)) */
#define MAX_ATTEMPTS 1000u

static double u01(uint32_t hi, uint32_t lo)
{
	return apod_u01d(hi, lo);
}

/* x^(1/3) for x in (0, 1] by Newton's method from above, a fixed number of
 * iterations (from 1 it converges monotonically; 60 reach the root from
 * x = 2^-53 with room to spare), so the result is the same everywhere. */
static double cube_root(double x)
{
	double y = 1;
	for (int k = 0; k < 60; k++)
		y = (2 * y + x / (y * y)) / 3;
	return y;
}

/* An isotropic unit vector, by rejection from the cube [-1, 1)^3. */
static void direction(uint64_t seed, uint32_t stream, uint64_t i, double d[3])
{
	for (uint32_t a = 0; a < MAX_ATTEMPTS; a++) {
		philox4x32_ctr_t w = apod_rng4(seed, stream, i, a);
		double x = 2 * u01(w.v[0], w.v[3]) - 1, y = 2 * u01(w.v[1], w.v[3]) - 1;
		double z = 2 * u01(w.v[2], w.v[3]) - 1, q = x * x + y * y + z * z;
		if (q > 1e-6 && q <= 1) {
			double r = sqrt(q);
			d[0] = x / r;
			d[1] = y / r;
			d[2] = z / r;
			return;
		}
	}
	d[0] = 1;   /* after 1000 misses (probability 0.48^1000): any direction */
	d[1] = d[2] = 0;
}

static void plummer(uint64_t seed, uint64_t i, double r[3], double v[3])
{
	philox4x32_ctr_t w = apod_rng4(seed, STREAM_RADIUS, i, 0);
	double m = u01(w.v[0], w.v[1]) * PLUMMER_MASS_MAX;
	double c = cube_root(m);
	double radius = 1 / sqrt(1 / (c * c) - 1);
	double q = 0, d[3];
	for (uint32_t a = 0; a < MAX_ATTEMPTS; a++) {
		philox4x32_ctr_t s = apod_rng4(seed, STREAM_SPEED, i, a);
		double t, g;
		q = u01(s.v[0], s.v[1]);
		t = 1 - q * q;
		g = q * q * t * t * t * sqrt(t);
		if (0.1 * u01(s.v[2], s.v[3]) < g)
			break;
	}
	double speed = q * sqrt(2.0) / sqrt(sqrt(1 + radius * radius));
	direction(seed, STREAM_DIRECTION, i, d);
	for (int k = 0; k < 3; k++)
		r[k] = HENON_R * radius * d[k];
	direction(seed, STREAM_VDIRECTION, i, d);
	for (int k = 0; k < 3; k++)
		v[k] = HENON_V * speed * d[k];
}

/* A cold disk: uniform surface density in radius 1 (radius = sqrt(u)),
 * thickness 0.02, speed sqrt(M(<R) R^2 / (R^2 + eps^2)^(3/2)) with
 * M(<R) = R^2 (at most 1). */
static void disk(uint64_t seed, uint64_t i, double eps, double r[3], double v[3])
{
	philox4x32_ctr_t w = apod_rng4(seed, STREAM_DISK, i, 0);
	double radius = sqrt(u01(w.v[0], w.v[1])), cx = 1, cy = 0;
	for (uint32_t a = 0; a < MAX_ATTEMPTS; a++) {
		philox4x32_ctr_t s = apod_rng4(seed, STREAM_DIRECTION, i, a);
		double x = 2 * u01(s.v[0], s.v[2]) - 1, y = 2 * u01(s.v[1], s.v[2]) - 1;
		double q = x * x + y * y;
		if (q > 1e-6 && q <= 1) {
			cx = x / sqrt(q);
			cy = y / sqrt(q);
			break;
		}
	}
	double s2 = radius * radius + eps * eps;
	double speed = sqrt(radius * radius * radius * radius / (s2 * sqrt(s2)));
	r[0] = radius * cx;
	r[1] = radius * cy;
	r[2] = 0.01 * (2 * u01(w.v[2], w.v[3]) - 1);
	v[0] = -speed * cy;
	v[1] = speed * cx;
	v[2] = 0;
}

int nbody_initial(const struct nbody_params *prm, float *pos, float *vel)
{
	size_t n = (size_t)prm->n;
	uint64_t seed = (uint64_t)prm->seed;
	int is_disk = prm->model == NBODY_DISK;
	float m = (float)(1.0 / (double)n);
	double mass = 0, mr[3] = { 0, 0, 0 }, mv[3] = { 0, 0, 0 };
	/* First in double, kept in the float arrays' room only once rounded. */
	for (size_t i = 0; i < n; i++) {
		double r[3], v[3];
		if (is_disk)
			disk(seed, i, prm->eps, r, v);
		else
			plummer(seed, i, r, v);
		for (int k = 0; k < 3; k++) {
			pos[4 * i + (size_t)k] = (float)r[k];
			vel[4 * i + (size_t)k] = (float)v[k];
		}
		pos[4 * i + 3] = m;
		vel[4 * i + 3] = 0;
	}
	for (size_t i = 0; i < n; i++) {
		mass += m;
		for (int k = 0; k < 3; k++) {
			mr[k] += (double)m * pos[4 * i + (size_t)k];
			mv[k] += (double)m * vel[4 * i + (size_t)k];
		}
	}
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++) {
			pos[4 * i + (size_t)k] = (float)(pos[4 * i + (size_t)k] - mr[k] / mass);
			vel[4 * i + (size_t)k] = (float)(vel[4 * i + (size_t)k] - mv[k] / mass);
		}
	return 0;
}
