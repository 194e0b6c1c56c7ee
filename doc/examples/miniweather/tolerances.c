/*
 * tolerances.c: what the gate allows each output of a stage against
 * serial's, at the step it judges (the workload's tolerance_at, which
 * answers for every output, so none has a tolerance member of its own).
 *
 * Every stage computes each cell and interface by miniweather.h's
 * expressions with contraction off, in an order no thread changes, so the
 * host stages give serial's bits.  The gpu stage differs in one place:
 * its pow (and the gravity-wave case's cos) rounds otherwise than the C
 * library's.  CUDA documents at most 2 ulp for both, glibc at most 1, so
 * one evaluation differs by at most delta = 3u relatively (u = 2^-53).
 *
 * The model: the pressure is the only pow the step evaluates, at every
 * interface of every stage.  A relative difference delta in it moves a
 * momentum tendency by at most 2 delta p / D (the two faces of a cell; D
 * the smaller spacing) and the state by dt times that in each of the three
 * Runge-Kutta stages (dt/3 + dt/2 + dt < 2 dt), in each of two directions:
 * 8 delta p dt / D of momentum a step, at most.  With dt = min(dx, dz) cfl
 * / max_speed (the program's choice), p dt / D = p cfl / max_speed, a
 * velocity: 8 delta (p / rho) cfl / max_speed is what a step may move a
 * wind by, and the same relative change delta, carried by the same factor
 * 8, is what it may move the density and rho*theta by relative to their
 * background.  Carried linearly over `step` steps (the differences of
 * earlier steps neither grow nor shrink):
 *
 *     winds:   step 8 delta (p_max / rho_min) cfl / max_speed
 *     dens:    step 8 delta rho_max
 *     theta:   step 8 delta theta_scale, theta_scale = rhot_max / rho_min
 *
 * The linear carry is the model's assumption, not a theorem: the
 * hyperviscosity damps differences and the flow is not chaotic over the
 * program's runs, which the README's measurement checks (a host build
 * whose pow is off by up to 2 ulp, pseudo-randomly, stays hundreds of
 * times inside these bounds).  At step 0 every stage holds the problem's
 * state, and the tolerance is 0.
 */
#include <float.h>
#include <string.h>

#include <apod/apod.h>

#include "miniweather.h"

#define MW_DELTA (3 * (DBL_EPSILON / 2))
/* The RK stages' dt (< 2) times the two faces times the two directions. */
#define MW_CARRY 8.0

static void at_step(const void *params, const char *output, long step, struct apod_tol *t)
{
	struct mw_scales sc;
	double per_step;
	mw_scales_of(params, &sc);
	t->atol = 0;
	t->rtol = 0;
	if (!strcmp(output, "uwnd") || !strcmp(output, "wwnd"))
		per_step = MW_CARRY * MW_DELTA * (sc.max_pressure / sc.min_dens) * MW_CFL / MW_MAX_SPEED;
	else if (!strcmp(output, "dens"))
		per_step = MW_CARRY * MW_DELTA * sc.max_dens;
	else if (!strcmp(output, "theta"))
		per_step = MW_CARRY * MW_DELTA * sc.max_rhot / sc.min_dens;
	else if (!strcmp(output, "te")) {
		/* Total energy: mostly internal, rho cv T, whose relative change
		 * is at most dens's and theta's together, times gamma (T goes
		 * as p^(1 - 1/gamma) / rho); the kinetic part is below 1e-4
		 * of it.  Relative, on the same sum in the same order. */
		t->rtol = (double)step * MW_CARRY * MW_DELTA * 2 * MW_GAMM;
		return;
	} else
		return;
	t->atol = (double)step * per_step;
}

/* The series mass is held to its own step-0 value (DRIFT): the scheme is
 * in flux form, the x fluxes periodic and the z fluxes of mass zero at the
 * walls, so the mass changes only by rounding.  Each update rounds each
 * cell's density (at most u of it, six updates a step) and the sum of n
 * cells rounds each partial sum (at most n u of the total, at both ends),
 * relative to the mass.  The injection case is the exception: its inflow
 * brings mass in through the left boundary, so its mass is no conserved
 * quantity, and the series is held to nothing there (rtol 1: any change
 * below the whole mass); its fields and energy still judge the stage. */
static void mass_at(const void *params, struct apod_tol *t)
{
	const struct mw_params *p = params;
	double u = DBL_EPSILON / 2, n = (double)p->nx * (double)p->nz;
	t->atol = 0;
	if (mw_spec_of(p->spec) == MW_INJECTION)
		t->rtol = 1;
	else
		t->rtol = 2 * n * u + (double)mw_steps(p) * 6 * u;
}

void mw_tolerance_at(const void *params, const void *problem, const char *output, long step,
                     long row, int any_float, int column, enum apod_compare kind,
                     struct apod_tol *t)
{
	(void)problem;     /* the scales follow from the deck (mw_scales_of) */
	(void)row;
	(void)any_float;   /* every stage computes in double, as the program does */
	(void)column;
	(void)kind;
	memset(t, 0, sizeof *t);
	if (!strcmp(output, "mass"))
		mass_at(params, t);
	else
		at_step(params, output, step, t);
}
