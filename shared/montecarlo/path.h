/*
 * path.h: one Monte Carlo path of geometric Brownian motion, written once
 * for every stage (gcc for serial and omp, nvcc for the GPU stages).
 *
 * The model: dS = r S dt + sigma S dW, monitored at t_k = k T/n, k = 1..n.
 * The log price moves exactly (no discretisation error) by
 *
 *     x_k = x_{k-1} + (r - sigma^2/2) dt + sigma sqrt(dt) Z_k,   Z_k ~ N(0,1),
 *
 * and a path yields three discounted payoffs: the European call on S_n, the
 * call on the geometric mean of S_1..S_n and the call on their arithmetic
 * mean; and a fourth estimator of the arithmetic call, with the geometric
 * call as its control variate: v_A - v_G + (the geometric call's closed
 * form).  Its mean is the same as v_A's, its variance far smaller, since
 * the two averages move together.  The normals come from Philox4x32-10 through shared/rng.h: path p
 * draws counter (p, j) for its steps 2j and 2j+1, so every stage draws the
 * same numbers for the same (seed, path, step) in whatever order it runs.
 *
 * What can differ between two stages is only libm (log, sin, cos, exp are
 * within 1 ulp on glibc and 1 to 2 ulp in CUDA's double library) and
 * contraction (nvcc fuses mu_dt + vol_dt * z into one FMA).  The bound that
 * follows from it is designed in cpu/montecarlo/workload.c.
 */
#ifndef APOD_MONTECARLO_PATH_H
#define APOD_MONTECARLO_PATH_H

#include <math.h>
#include <stdint.h>

#include "shared/apod_hd.h"
#include "shared/rng.h"

/* Philox stream of the path normals (shared/rng.h's mapping). */
#define MC_STREAM_PATH 0u

/* The estimators, in the order of every series' columns. */
enum { MC_EUROPEAN, MC_GEOMETRIC, MC_ARITHMETIC, MC_ARITHMETIC_CV, MC_NEST };

/* The largest |Z| Box-Muller can return from apod_u01d's grid: the radius
 * sqrt(-2 ln u1) at u1 = 2^-53, sqrt(106 ln 2). */
#define MC_ZMAX 8.5717

/* Everything a path needs, computed once on the host (problem_create) so
 * every stage starts from the same bits. */
struct mc_model {
	uint64_t seed;
	int steps;          /* monitoring dates n */
	double x0;          /* ln S0 */
	double mu_dt;       /* (r - sigma^2/2) dt */
	double vol_dt;      /* sigma sqrt(dt) */
	double strike;
	double disc;        /* exp(-r T) */
	double inv_steps;   /* 1 / n */
	double geo_exact;   /* the geometric call's closed form (the control's mean) */
};

/*
 * Box-Muller in double: two independent standard normals from one Philox
 * call (two 53-bit uniforms).  u1 is in (0, 1] (apod_u01d never returns 0),
 * so the logarithm is finite and the radius at most MC_ZMAX.  Box-Muller is
 * exact in distribution (no rejection, no tail approximation), costs one
 * log, one sqrt and one sincos a pair, and draws a fixed number of words a
 * normal, so the counter of step k is known without running steps < k: the
 * property that lets a GPU thread start any path anywhere.
 */
APOD_HD void mc_normal2(philox4x32_ctr_t w, double *z0, double *z1)
{
	double u1 = apod_u01d(w.v[0], w.v[1]);
	double u2 = apod_u01d(w.v[2], w.v[3]);
	double r = sqrt(-2.0 * log(u1));
	double theta = 6.283185307179586 * u2;    /* 2 pi, rounded to double */
	*z0 = r * cos(theta);
	*z1 = r * sin(theta);
}

/* The terminal price, geometric and arithmetic means of one path. */
struct mc_outcome {
	double st, geo, arith;
};

APOD_HD void mc_advance(const struct mc_model *m, double z, double *x, double *sumx, double *sums)
{
	*x += m->mu_dt + m->vol_dt * z;
	*sumx += *x;
	*sums += exp(*x);
}

/* Path `path`: its n log-price steps from the model's normals.  The loop is
 * written once, as a macro, for the two normal transforms: mc_path (every
 * stage, mc_normal2) and gpu2's mc_path_pi (gpu/montecarlo/kernels.cuh,
 * sincospi), which must draw and advance exactly as this one does. */
#define MC_DEFINE_PATH(QUALIFIERS, NAME, NORMAL2)                                       \
	QUALIFIERS struct mc_outcome NAME(const struct mc_model *m, uint64_t path)     \
	{                                                                               \
		double x = m->x0, sumx = 0, sums = 0;                                   \
		struct mc_outcome o;                                                    \
		for (int k = 0; k < m->steps; k += 2) {                                 \
			double z0, z1;                                                  \
			NORMAL2(apod_rng4(m->seed, MC_STREAM_PATH, path, (uint32_t)(k / 2)), \
			        &z0, &z1);                                              \
			mc_advance(m, z0, &x, &sumx, &sums);                            \
			if (k + 1 < m->steps)                                           \
				mc_advance(m, z1, &x, &sumx, &sums);                    \
		}                                                                       \
		o.st = exp(x);                                                          \
		o.geo = exp(sumx * m->inv_steps);                                       \
		o.arith = sums * m->inv_steps;                                          \
		return o;                                                               \
	}

MC_DEFINE_PATH(APOD_HD, mc_path, mc_normal2)

/* A call's discounted payoff. */
APOD_HD double mc_call(const struct mc_model *m, double s)
{
	double d = s - m->strike;
	return d > 0 ? m->disc * d : 0.0;
}

/* The three discounted payoffs of one path, in MC_* order. */
APOD_HD void mc_payoffs(const struct mc_model *m, const struct mc_outcome *o, double v[MC_NEST])
{
	v[MC_EUROPEAN] = mc_call(m, o->st);
	v[MC_GEOMETRIC] = mc_call(m, o->geo);
	v[MC_ARITHMETIC] = mc_call(m, o->arith);
	/* The control variate with coefficient 1: no estimated coefficient, so
	 * the estimator stays unbiased and a path's value is its own. */
	v[MC_ARITHMETIC_CV] = (v[MC_ARITHMETIC] - v[MC_GEOMETRIC]) + m->geo_exact;
}

#endif
