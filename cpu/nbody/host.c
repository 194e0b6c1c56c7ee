/*
 * host.c: the host engine of the serial and omp stages, on a structure of
 * arrays.  Each function takes a range of bodies, so serial calls it once
 * for all of them and omp once per thread; a body's arithmetic does not
 * depend on the range, which is what makes the two stages agree bit for bit.
 *
 * The force loop keeps one accumulator per body and visits j = 0 .. n-1 in
 * order, so it cannot be vectorised over j without reassociating the sum.
 * It is vectorised over i instead: a block of NBODY_IBLOCK bodies i (their
 * positions and accelerations stay in L1), and for each j the innermost
 * loop updates the whole block, element-wise, with no reduction: gcc
 * vectorises it (sqrtps and divps are IEEE, so the lanes round as the
 * scalar code would).  Check with -fopt-info-vec-optimized.
 */
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "nbody.h"
#include "shared/nbody/interact.h"

#define NBODY_IBLOCK 256

int nbody_soa_alloc(struct nbody_soa *s, size_t n, const char *stage)
{
	float **arr[] = { &s->x, &s->y, &s->z, &s->m, &s->vx, &s->vy, &s->vz, &s->ax, &s->ay, &s->az };
	memset(s, 0, sizeof *s);
	s->n = n;
	for (size_t k = 0; k < sizeof arr / sizeof arr[0]; k++)
		if (!(*arr[k] = aligned_alloc(64, (n * sizeof(float) + 63) / 64 * 64))) {
			nbody_soa_free(s);
			return apod_fail("%s: cannot allocate the state of %zu bodies", stage, n);
		}
	return 0;
}

void nbody_soa_free(struct nbody_soa *s)
{
	free(s->x); free(s->y); free(s->z); free(s->m);
	free(s->vx); free(s->vy); free(s->vz);
	free(s->ax); free(s->ay); free(s->az);
	memset(s, 0, sizeof *s);
}

void nbody_soa_load(struct nbody_soa *s, const struct nbody_problem *p, size_t i0, size_t i1)
{
	for (size_t i = i0; i < i1; i++) {
		s->x[i] = p->pos[4 * i];
		s->y[i] = p->pos[4 * i + 1];
		s->z[i] = p->pos[4 * i + 2];
		s->m[i] = p->pos[4 * i + 3];
		s->vx[i] = p->vel[4 * i];
		s->vy[i] = p->vel[4 * i + 1];
		s->vz[i] = p->vel[4 * i + 2];
	}
}

void nbody_host_forces(struct nbody_soa *s, float eps2, size_t i0, size_t i1)
{
	const float *restrict x = s->x, *restrict y = s->y, *restrict z = s->z, *restrict m = s->m;
	size_t n = s->n;
	for (size_t b = i0; b < i1; b += NBODY_IBLOCK) {
		size_t len = i1 - b < NBODY_IBLOCK ? i1 - b : NBODY_IBLOCK;
		float xi[NBODY_IBLOCK], yi[NBODY_IBLOCK], zi[NBODY_IBLOCK];
		float ax[NBODY_IBLOCK], ay[NBODY_IBLOCK], az[NBODY_IBLOCK];
		for (size_t k = 0; k < len; k++) {
			xi[k] = x[b + k];
			yi[k] = y[b + k];
			zi[k] = z[b + k];
			ax[k] = ay[k] = az[k] = 0;
		}
		for (size_t j = 0; j < n; j++) {
			float xj = x[j], yj = y[j], zj = z[j], mj = m[j];
			#pragma omp simd
			for (size_t k = 0; k < len; k++)
				nbody_interact(xi[k], yi[k], zi[k], xj, yj, zj, mj, eps2, &ax[k], &ay[k],
				               &az[k]);
		}
		memcpy(s->ax + b, ax, len * sizeof(float));
		memcpy(s->ay + b, ay, len * sizeof(float));
		memcpy(s->az + b, az, len * sizeof(float));
	}
}

void nbody_host_kick(struct nbody_soa *s, float h, size_t i0, size_t i1)
{
	for (size_t i = i0; i < i1; i++) {
		s->vx[i] = nbody_kick(s->vx[i], s->ax[i], h);
		s->vy[i] = nbody_kick(s->vy[i], s->ay[i], h);
		s->vz[i] = nbody_kick(s->vz[i], s->az[i], h);
	}
}

void nbody_host_drift(struct nbody_soa *s, float dt, size_t i0, size_t i1)
{
	for (size_t i = i0; i < i1; i++) {
		s->x[i] = nbody_drift(s->x[i], s->vx[i], dt);
		s->y[i] = nbody_drift(s->y[i], s->vy[i], dt);
		s->z[i] = nbody_drift(s->z[i], s->vz[i], dt);
	}
}

void nbody_host_sums(const struct nbody_soa *s, size_t i0, size_t i1, double sums[7])
{
	for (int c = 0; c < 7; c++)
		sums[c] = 0;
	for (size_t i = i0; i < i1; i++) {
		double m = s->m[i];
		sums[0] += nbody_kinetic(s->m[i], s->vx[i], s->vy[i], s->vz[i]);
		sums[1] += m * s->vx[i];
		sums[2] += m * s->vy[i];
		sums[3] += m * s->vz[i];
		sums[4] += m * s->x[i];
		sums[5] += m * s->y[i];
		sums[6] += m * s->z[i];
	}
}

double nbody_host_potential(const struct nbody_soa *s, float eps2, size_t i0, size_t i1)
{
	double pot = 0;
	for (size_t i = i0; i < i1; i++) {
		double row = 0;
		for (size_t j = i + 1; j < s->n; j++)
			row += nbody_pair_potential(s->x[i], s->y[i], s->z[i], s->m[i], s->x[j], s->y[j],
			                            s->z[j], s->m[j], eps2);
		pot += row;
	}
	return pot;
}

void nbody_rows(int k, const double sums[7], double mass, double potential, void *const *rows)
{
	if (k == NBODY_PROBE_STATS) {
		double *stats = rows[NBODY_SERIES_STATS], *momentum = rows[NBODY_SERIES_MOMENTUM];
		if (stats) {
			for (int c = 0; c < 4; c++)
				stats[c] = sums[c];
			for (int c = 4; c < 7; c++)
				stats[c] = sums[c] / mass;   /* the centre of mass */
		}
		if (momentum)
			for (int c = 0; c < 3; c++)
				momentum[c] = sums[1 + c];
		return;
	}
	double *energy = rows[NBODY_SERIES_ENERGY], *drift = rows[NBODY_SERIES_DRIFT];
	if (energy) {
		energy[0] = sums[0];
		energy[1] = potential;
		energy[2] = sums[0] + potential;
	}
	if (drift)
		drift[0] = sums[0] + potential;
}

void nbody_soa_fetch(const struct nbody_soa *s, int a, float *dst)
{
	const float *c0 = a == NBODY_ARRAY_POS ? s->x : s->vx;
	const float *c1 = a == NBODY_ARRAY_POS ? s->y : s->vy;
	const float *c2 = a == NBODY_ARRAY_POS ? s->z : s->vz;
	for (size_t i = 0; i < s->n; i++) {
		dst[3 * i] = c0[i];
		dst[3 * i + 1] = c1[i];
		dst[3 * i + 2] = c2[i];
	}
}

int nbody_soa_probe(const struct nbody_soa *s, const struct nbody_problem *p, int k,
                    void *const *rows)
{
	double sums[7], potential = 0;
	nbody_host_sums(s, 0, p->n, sums);
	if (k == NBODY_PROBE_ENERGY)
		potential = nbody_host_potential(s, p->eps2, 0, p->n);
	nbody_rows(k, sums, p->mass, potential, rows);
	return 0;
}

struct nbody_host *nbody_host_create(const struct nbody_problem *p, const char *stage)
{
	struct nbody_host *h = apod_state_alloc(sizeof *h, stage);
	if (h && nbody_soa_alloc(&h->s, p->n, stage)) {
		free(h);
		return NULL;
	}
	if (h)
		h->p = p;
	return h;
}

void nbody_host_destroy(void *ctx)
{
	struct nbody_host *h = ctx;
	if (h)
		nbody_soa_free(&h->s);
	free(h);
}

int nbody_host_fetch(void *ctx, int a, void *dst)
{
	nbody_soa_fetch(&((struct nbody_host *)ctx)->s, a, dst);
	return 0;
}

int nbody_host_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	const struct nbody_host *h = ctx;
	(void)step;
	(void)row;
	return nbody_soa_probe(&h->s, h->p, k, rows);
}
