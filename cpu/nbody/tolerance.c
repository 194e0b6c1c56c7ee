/*
 * tolerance.c: the gate's tolerances for n-body, designed from the deck.
 * doc/verification.md, section "n-body", derives them; in short:
 *
 * Two implementations of the same step (serial and a GPU stage, say) start
 * from identical bits and differ at first only by rounding: the forces by
 * the order of a sum of n terms and by contraction or rsqrtf, the kicks and
 * drifts by one or two roundings.  Those differences are then carried by the
 * dynamics, and an N-body system amplifies them: nearby trajectories part
 * exponentially.  The bound below follows both, step by step, for the
 * deck's own n, dt, eps and steps, with worst cases that hold for any
 * configuration the initial conditions can reach:
 *
 *   |one pair's pull| <= m_j C / eps^2, C = 2 / (3 sqrt 3)   (amax = M C / eps^2)
 *   |its Jacobian|    <= m_j / eps^3                         (Lip = 2 M / eps^3)
 *   |r| <= R0 + t V0 + t^2 amax / 2, |v| <= V0 + t amax      (initial.c's R0, V0)
 *
 * rho: one force evaluation's rounding, any order, rsqrtf (2 ulp) included:
 *   (n + 20) u M C / eps^2 per component.
 * The distance between two runs, Er (positions) and Ev (velocities), over
 * one kick-drift-kick:
 *   Ev += h (Lip Er + 2 rho) + 2 rk,  Er += dt Ev + 2 rd,  Ev += h (Lip Er + 2 rho) + 2 rk
 * with rk, rd the roundings of a kick and a drift.  The growth factor per
 * step is about 1 + dt sqrt(Lip): the tolerance grows exponentially with
 * the steps, so it is meaningful only on a short horizon.  The test deck
 * (data/nbody/small.deck) is chosen so that it stays small.
 */
#include <float.h>
#include <math.h>

#include "nbody.h"
#include "shared/nbody/interact.h"
#include "tolerance.h"

void nbody_design(const struct nbody_params *p, struct nbody_tolerance *t)
{
	const double u = FLT_EPSILON / 2, ud = DBL_EPSILON / 2, s3 = sqrt(3.0);
	double n = (double)p->n, dt = (double)(float)p->dt, h = dt / 2, eps = p->eps;
	double M = 1 + n * u;                          /* n floats of 1/n, each rounded */
	double eps2 = eps * eps, amax = M * NBODY_FORCE_MAX_COEF / eps2;
	double lip = 2 * M / (eps2 * eps);
	double T = (double)p->steps * dt;
	double vb = NBODY_V0 + T * amax, rb = NBODY_R0 + T * NBODY_V0 + T * T * amax / 2;
	double rho = (n + 20) * u * amax;              /* per component */
	double rk = 2 * u * (vb + h * amax), rd = 2 * u * (rb + dt * vb);
	double er = 0, ev = 0;
	for (long k = 0; k < p->steps; k++) {
		ev += h * (lip * er + 2 * s3 * rho) + 2 * s3 * rk;
		er += dt * ev + 2 * s3 * rd;
		ev += h * (lip * er + 2 * s3 * rho) + 2 * s3 * rk;
	}
	t->pos = er;
	t->vel = ev;
	/* The sums in double, in any order: (n + 4) ud of the sum of |terms|. */
	double sum_err = 2 * (n + 4) * ud;
	t->kinetic = M * (vb * ev + ev * ev / 2) + sum_err * M * vb * vb / 2;
	t->momentum = M * ev + sum_err * M * vb;
	t->centre = er + sum_err * rb;
	/* |d(m_i m_j / sqrt(r^2 + eps^2))| <= m_i m_j C / eps^2 (|dr_i| + |dr_j|),
	 * summed over the pairs; the pairs' terms are at most m_i m_j / eps. */
	t->potential = M * M * NBODY_FORCE_MAX_COEF / eps2 * er + 2 * (2 * n + 10) * ud * M * M / (2 * eps);

	/* Within one run.  Momentum: exact forces conserve it (pairs pull
	 * equally and oppositely), so it moves only by the forces' rounding
	 * and the kicks': per step and component dt M rho + 2 M rk. */
	t->momentum_drift = (double)p->steps * (dt * M * rho + 2 * M * rk) + sum_err * M * vb;
	/* Energy: leapfrog is symplectic, so the energy oscillates about a
	 * conserved shadow energy rather than drifting.  For a harmonic mode of
	 * frequency w the oscillation is q / (1 - q) of its energy, q = w^2 dt^2 / 4
	 * (the particles workload's fact 1); the stiffest linearisation here has
	 * w^2 <= Lip.  Applied to the largest energy scale the bounds allow
	 * (kinetic M vb^2 / 2 and potential M^2 / (2 eps)), plus the work the
	 * rounding of the forces does and the rounding of each step. */
	double q = lip * dt * dt / 4, scale = M * vb * vb / 2 + M * M / (2 * eps);
	if (q >= 0.5)
		q = 0.5;                                /* beyond stability: the bound says nothing */
	t->energy_drift = q / (1 - q) * scale
	                  + (double)p->steps * (s3 * M * vb * (dt * rho + 2 * rk) + M * amax * 2 * rd)
	                  + sum_err * scale;
}
