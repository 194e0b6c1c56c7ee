/*
 * workload.c: particles, declared to the harness: its parameters, its
 * problem (the initial state), its probe (calcEnergy), its outputs and the
 * tolerances the gate holds every stage to.
 *
 * The tolerances are designed, not tuned.  They rest on two facts about the
 * scheme in shared/particles/update.h:
 *
 * 1. Leapfrog on a harmonic well is a linear map that exactly conserves
 *    Q = v^2/2 + w^2 x^2/2 per particle, with w^2 = k (1 - k dt^2/4)
 *    (the "shadow" energy; check it by applying one step to Q).  So the map
 *    is a rotation in the norm N = sqrt(2Q): an error made at one step is
 *    carried to later steps without being amplified.  Two implementations
 *    can drift apart only by what each step's rounding adds, so their
 *    difference grows at most linearly with the steps.
 *
 * 2. Every operation of a step works on numbers no larger than that
 *    particle's N (times factors sqrt(k) <= 1.6 and dt <= 0.1), so one step
 *    rounds by at most about 2.7 u N (u = 2^-24 in float), counting the
 *    eight roundings of update.h; ROUNDINGS below allows 5.  Contraction
 *    (nvcc's FMA, on by default) only changes which of those roundings
 *    happen, so it is covered by the same count for each implementation.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "particles.h"
#include "shared/particles/update.h"
#include "particles_workload.h"

/* Rounding one implementation commits in one step, in units of u*N. */
#define ROUNDINGS 5.0

/* The largest energy a particle can start with: the initial components
 * are in [-1, 1), so |v|^2 < 2 and |r|^2 < 2, and H = |v|^2/2 + k|r|^2/2. */
#define H_MAX (1.0 + PARTICLES_K_MAX)

struct particles_tolerance {
	double state_atol, state_rtol;   /* "state": per component */
	double energy_atol, energy_rtol; /* "energy": per column */
	double drift_rtol;               /* "drift": |H(t) - H(first row)| / |H(first row)| */
};

static void design(const struct particles_params *p, int any_float, struct particles_tolerance *t)
{
	double u = any_float ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
	double ud = DBL_EPSILON / 2;
	double n = (double)p->n, steps = (double)p->steps, dt = p->dt;
	/* q = k dt^2 / 4 at its largest: 0.00625 at dt = 0.1. */
	double q = PARTICLES_K_MAX * dt * dt / 4;
	/* The smallest w (fact 1), to turn an error in N into one in x. */
	double wmin = sqrt(PARTICLES_K_MIN * (1 - q));
	/* One implementation's relative error in N after `steps` steps, and
	 * the distance between two implementations: (1 + c u)^steps - 1 each,
	 * linear in the steps while it is small. */
	double each = expm1(steps * log1p(ROUNDINGS * u));
	double eps = 2 * each;
	/* The leapfrog's own energy oscillation: H = Q + q_i * potential, and
	 * 0 <= potential <= Q / (1 - q), so H moves by at most q/(1-q) of H. */
	double shadow = q / (1 - q);

	/* state: a particle's components are bounded by N <= sqrt(2 H_MAX)
	 * (positions by N / w), and two implementations differ by eps * N. */
	t->state_atol = eps * sqrt(2 * H_MAX) / fmin(1.0, wmin);
	/* ...plus the last rounding of a value that is otherwise right. */
	t->state_rtol = 2 * u;

	/* energy: a particle whose state differs by eps*N has kinetic and
	 * potential energies that differ by at most (2 eps + eps^2) H_i / (1 - q)
	 * each (H_i = N^2/2 up to the factor 1 - q), so each column of the sums
	 * differs by at most twice that times the total energy, which is at most
	 * n * H_MAX.  It assumes the worst case for every particle at once, and
	 * the mean energy of the initial states is near H_MAX / 4: a reduction
	 * that loses one particle of many passes here and is caught on small
	 * decks (tests/particles.sh runs n = 1001).  The sums are in
	 * double, in a different order in each stage: each is within (n+4) ud of
	 * its exact value, relative to itself (every term is positive). */
	t->energy_atol = 2 * (2 * eps + eps * eps) / (1 - q) * n * H_MAX;
	t->energy_rtol = 2 * (n + 4) * ud;

	/* drift: within one run the total energy leaves its first value only by
	 * the leapfrog's oscillation (shadow) and by the run's own rounding,
	 * which changes Q = N^2/2 by at most (1 + c u)^(2 steps) - 1 (expm1
	 * below).  A stage whose energy wanders further (a half kick left out,
	 * which is symplectic Euler with an error of order dt, not dt^2; a kick
	 * applied twice; a race) fails here, whatever serial did. */
	each = expm1(2 * steps * log1p(ROUNDINGS * u));
	t->drift_rtol = each + shadow * (1 + each) + 2 * (n + 4) * ud;
}

/* The tolerances (apod_tolerance_fn): designed from the deck alone, and
 * for an output's own comparison (there is no horizon). */
static void state_tol(const void *params, const void *problem, int any_float, int column,
                      enum apod_compare kind, struct apod_tol *t)
{
	struct particles_tolerance d;
	(void)problem, (void)column, (void)kind;
	design(params, any_float, &d);
	t->atol = d.state_atol;
	t->rtol = d.state_rtol;
}

static void energy_tol(const void *params, const void *problem, int any_float, int column,
                       enum apod_compare kind, struct apod_tol *t)
{
	struct particles_tolerance d;
	(void)column;   /* kinetic, potential and total share one bound */
	(void)problem, (void)kind;
	design(params, any_float, &d);
	t->atol = d.energy_atol;
	t->rtol = d.energy_rtol;
}

static void drift_tol(const void *params, const void *problem, int any_float, int column,
                      enum apod_compare kind, struct apod_tol *t)
{
	struct particles_tolerance d;
	(void)problem, (void)column, (void)kind;
	design(params, any_float, &d);
	t->atol = 0;
	t->rtol = d.drift_rtol;
}

static int state_shape(const void *params, size_t dims[2])
{
	dims[0] = (size_t)((const struct particles_params *)params)->n;
	dims[1] = PARTICLES_COLS;
	return 2;
}

APOD_PARAM_LONG(steps, struct particles_params, steps)
APOD_PARAM_LONG(energy_every, struct particles_params, energy_every)
APOD_PARAM_LONG(snapshot_every, struct particles_params, snapshot_every)
APOD_PARAM_TEXT(title, struct particles_params, name)

/* The work of one occurrence of each phase (apod/workload.h), by name.
 * A step reads and writes each particle's four floats once and does 16
 * FP32 operations on them (particles_kdk: two kicks of three, a drift of
 * two, per coordinate); the energy reads them once and does 11 FP64
 * operations (particles_energy, and the two sums).  The state crosses the
 * bus once at setup and once at the end; a stage that kept it on the host
 * would carry it both ways every step. */
static int work(const void *params, const void *problem, const char *phase, struct apod_work *w)
{
	double n = (double)((const struct particles_params *)params)->n;
	double state = n * PARTICLES_COLS * sizeof(float);
	(void)problem;   /* the work is the deck's */
	if (!strcmp(phase, APOD_PHASE_SETUP_NAME)) {          /* the initial state, in */
		w->bytes = 2 * state;
		w->h2d_bytes = state;
		return 1;
	}
	if (!strcmp(phase, "moveParticles")) {
		w->bytes = 2 * state;
		w->flops32 = 16 * n;
		w->h2d_bytes = w->d2h_bytes = state;
		return 1;
	}
	if (!strcmp(phase, "calcEnergy")) {
		w->bytes = state;
		w->flops64 = 11 * n;
		w->h2d_bytes = state;
		return 1;
	}
	if (!strcmp(phase, APOD_PHASE_FETCH_NAME)) {          /* the state, home */
		w->bytes = 2 * state;
		w->d2h_bytes = state;
		return 1;
	}
	return 0;
}

/* The initial state, once, on the host: every stage copies these bits. */
static void *problem_create(const void *params)
{
	const struct particles_params *prm = params;
	struct particles_problem *p = calloc(1, sizeof *p);
	size_t n = (size_t)prm->n;
	if (!p || !(p->init = malloc(n * PARTICLES_COLS * sizeof *p->init))) {
		free(p);
		apod_fail("particles: cannot allocate the initial state of %zu particles", n);
		return NULL;
	}
	p->n = n;
	p->dt = (float)prm->dt;
	for (size_t i = 0; i < n; i++)
		for (int c = 0; c < PARTICLES_COLS; c++)
			p->init[i * PARTICLES_COLS + (size_t)c] =
				particles_initial((uint64_t)prm->seed, i, c);
	return p;
}

static void problem_destroy(void *problem)
{
	struct particles_problem *p = problem;
	if (!p)
		return;
	free(p->init);
	free(p);
}

/* One step's phases, in order: here the whole step is one loop. */
static const struct apod_phase phases[] = {
	{ .name = "moveParticles" },
	{ .name = NULL },
};

static const struct apod_probe probes[] = {
	[PARTICLES_PROBE_ENERGY] = { .name = "calcEnergy", .every = energy_every },
	{ .name = NULL },
};

static const struct apod_array arrays[] = {
	[PARTICLES_ARRAY_STATE] = { .name = "state", .dtype = APOD_F32, .shape = state_shape,
	                            .snapshot = "snap", .compare = APOD_COMPARE_CLOSE,
	                            .tolerance = state_tol },
	{ .name = NULL },
};

static const struct apod_series series[] = {
	[PARTICLES_SERIES_ENERGY] = { .name = "energy", .probe = "calcEnergy",
	                              .column_names = "kinetic,potential,total",
	                              .compare = APOD_COMPARE_CLOSE, .tolerance = energy_tol },
	/* The same total energy, held to an invariant instead of to serial. */
	[PARTICLES_SERIES_DRIFT] = { .name = "drift", .probe = "calcEnergy",
	                             .column_names = "total",
	                             .compare = APOD_COMPARE_DRIFT, .tolerance = drift_tol },
	{ .name = NULL },
};

/* Weak scaling: factor times the particles. */
static int grow(void *params, int factor)
{
	struct particles_params *q = params;
	return apod_grow_count(&q->n, factor, PARTICLES_MAX_N, "particles", "particles")
	               ? -1
	               : particles_params_check(q);
}

const struct apod_workload particles_workload = {
	.version = APOD_WORKLOAD_VERSION,
	.name = "particles",
	.about = "independent particles in harmonic wells, leapfrog, total energy (compute-light, "
	         "bandwidth-bound)",
	.params_size = sizeof(struct particles_params),
	.params = particles_params_table,
	.check = particles_params_check,
	.steps = steps,
	.snapshot_every = snapshot_every,
	.title = title,
	.problem_create = problem_create,
	.problem_destroy = problem_destroy,
	.phases = phases,
	.probes = probes,
	.arrays = arrays,
	.series = series,
	.stages = particles_stages,
	.grow = grow,
	.work = work,
};
