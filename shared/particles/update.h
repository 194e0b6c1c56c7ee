/*
 * update.h: one particle's arithmetic, written once for every stage.
 *
 * Each particle i moves in the plane in its own harmonic well: unit mass,
 * force -k_i * r, no coupling to any other particle.  A step is leapfrog in
 * kick-drift-kick form (velocity Verlet):
 *
 *     v += (dt/2) * a(x);   x += dt * v;   v += (dt/2) * a(x),   a(x) = -k x
 *
 * gcc compiles these functions for the serial and OpenMP stages and nvcc
 * for the GPU stage (APOD_HD), so every stage runs the same operations in
 * the same order; what can still differ is contraction (nvcc fuses a*b + c
 * into one FMA by default, the host build is -ffp-contract=off) and the
 * order of the energy sums.  The tolerances in cpu/particles/workload.c
 * are built on exactly those two differences.
 */
#ifndef APOD_PARTICLES_UPDATE_H
#define APOD_PARTICLES_UPDATE_H

#include <stdint.h>

#include "shared/apod_hd.h"

/* Columns of the state array, one row per particle. */
enum { PARTICLES_X, PARTICLES_Y, PARTICLES_VX, PARTICLES_VY, PARTICLES_COLS };

/* The spring constant of particle i: 1, 1.25, ..., 2.5, repeating every 7.
 * Every value is exact in float.  Its bounds are the ones the tolerances
 * use. */
#define PARTICLES_K_MIN 1.0
#define PARTICLES_K_MAX 2.5

APOD_HD float particles_spring(uint64_t i)
{
	return 1.0f + (float)(i % 7u) * 0.25f;
}

/* splitmix64's output function (Steele, Lea and Flood): distinct inputs
 * give distinct, well-scattered 64-bit words.  Used only to build the
 * initial state, once, on the host. */
APOD_HD uint64_t particles_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Component c of particle i's initial state for this seed: a float in
 * [-1, 1) on a grid of 2^-23, so the value is exact and the same on every
 * machine (no libm, no rounding). */
APOD_HD float particles_initial(uint64_t seed, uint64_t i, int c)
{
	uint64_t key = seed * UINT64_C(0x9e3779b97f4a7c15) + (i << 2) + (uint64_t)(c + 1);
	uint64_t z = particles_mix(key);
	return (float)(int32_t)(z >> 40) * (1.0f / 8388608.0f) - 1.0f;   /* 24 bits: [0, 2) - 1 */
}

/* One kick-drift-kick step of one particle; s holds x, y, vx, vy. */
APOD_HD void particles_kdk(float *s, float k, float dt)
{
	float h = 0.5f * dt;                                   /* exact */
	float vx = s[PARTICLES_VX] + h * (-k * s[PARTICLES_X]); /* kick: half a step */
	float vy = s[PARTICLES_VY] + h * (-k * s[PARTICLES_Y]);
	float x = s[PARTICLES_X] + dt * vx;                    /* drift: a whole step */
	float y = s[PARTICLES_Y] + dt * vy;
	s[PARTICLES_X] = x;
	s[PARTICLES_Y] = y;
	s[PARTICLES_VX] = vx + h * (-k * x);                   /* kick: the other half */
	s[PARTICLES_VY] = vy + h * (-k * y);
}

/* One particle's kinetic and potential energy, in double: the squares of
 * floats are exact in double, so the only roundings are the few below. */
APOD_HD void particles_energy(const float *s, float k, double *kinetic, double *potential)
{
	double x = s[PARTICLES_X], y = s[PARTICLES_Y];
	double vx = s[PARTICLES_VX], vy = s[PARTICLES_VY];
	*kinetic = 0.5 * (vx * vx + vy * vy);
	*potential = 0.5 * (double)k * (x * x + y * y);
}

/* Particle i of state (n x PARTICLES_COLS) added to running sums of the
 * kinetic and potential energies: the term the host stages' calcEnergy
 * sums, serial in index order, omp by reduction. */
APOD_HD void particles_energy_add(const float *state, uint64_t i, double *kinetic,
                                  double *potential)
{
	double ke, pe;
	particles_energy(state + i * PARTICLES_COLS, particles_spring(i), &ke, &pe);
	*kinetic += ke;
	*potential += pe;
}

#endif
