/*
 * workload.c: n-body, declared to the harness: its parameters, its problem
 * (the initial conditions), its probes (calcStats every step, calcEnergy
 * every K), its outputs and the tolerances (tolerance.c) the gate holds
 * every stage to.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "nbody.h"
#include "nbody_workload.h"
#include "shared/nbody/interact.h"
#include "tolerance.h"

/* The design (tolerance.c) the tolerances below are read from. */
static struct nbody_tolerance design(const void *params)
{
	struct nbody_tolerance d;
	nbody_design(params, &d);
	return d;
}

/* n-body's tolerances are all absolute: its values pass through zero. */
static void absolute(struct apod_tol *t, double atol)
{
	t->atol = atol;
	t->rtol = 0;
}

/* The tolerances (apod_tolerance_fn): the state is always float, so
 * any_float changes nothing, and every output is compared by its own kind
 * (no horizon), so neither does kind. */
#define UNUSED_TOL_ARGS (void)problem, (void)any_float, (void)kind

static void pos_tol(const void *params, const void *problem, int any_float, int column,
                    enum apod_compare kind, struct apod_tol *t)
{
	UNUSED_TOL_ARGS, (void)column;
	absolute(t, design(params).pos);
}

static void vel_tol(const void *params, const void *problem, int any_float, int column,
                    enum apod_compare kind, struct apod_tol *t)
{
	UNUSED_TOL_ARGS, (void)column;
	absolute(t, design(params).vel);
}

/* stats: kinetic, momentum (3), centre of mass (3). */
static void stats_tol(const void *params, const void *problem, int any_float, int column,
                      enum apod_compare kind, struct apod_tol *t)
{
	struct nbody_tolerance d = design(params);
	UNUSED_TOL_ARGS;
	absolute(t, column == 0 ? d.kinetic : column < 4 ? d.momentum : d.centre);
}

static void momentum_drift_tol(const void *params, const void *problem, int any_float,
                               int column, enum apod_compare kind, struct apod_tol *t)
{
	UNUSED_TOL_ARGS, (void)column;
	absolute(t, design(params).momentum_drift);
}

/* energy: kinetic, potential, total. */
static void energy_tol(const void *params, const void *problem, int any_float, int column,
                       enum apod_compare kind, struct apod_tol *t)
{
	struct nbody_tolerance d = design(params);
	UNUSED_TOL_ARGS;
	absolute(t, column == 0 ? d.kinetic : column == 1 ? d.potential : d.kinetic + d.potential);
}

static void energy_drift_tol(const void *params, const void *problem, int any_float,
                             int column, enum apod_compare kind, struct apod_tol *t)
{
	UNUSED_TOL_ARGS, (void)column;
	absolute(t, design(params).energy_drift);
}

static int three_shape(const void *params, size_t dims[2])
{
	dims[0] = (size_t)((const struct nbody_params *)params)->n;
	dims[1] = 3;
	return 2;
}

APOD_PARAM_LONG(steps, struct nbody_params, steps)
APOD_PARAM_LONG(stats_every, struct nbody_params, stats_every)
APOD_PARAM_LONG(energy_every, struct nbody_params, energy_every)
APOD_PARAM_LONG(snapshot_every, struct nbody_params, snapshot_every)
APOD_PARAM_TEXT(title, struct nbody_params, name)

/* The work of one occurrence of each phase (apod/workload.h).
 * A step is N^2 interactions of 16 FP32 operations (the multiplies and adds
 * every form of the interaction does, NBODY_SOL_FLOPS_PER_INTERACTION; the
 * benchmark's figures keep the literature's 20, which counts the square
 * root and division as flops too) and one square root or rsqrt each, plus the kick-drift-kick of every body:
 * positions with masses (16 bytes) and velocities (12) read and written
 * once.  A stage that keeps the bodies on the host carries positions in and
 * accelerations out every step.  calcStats reads every body once and does
 * about 26 FP64 operations on it (kinetic energy, momentum, centre of
 * mass); calcEnergy's O(N^2) potential does 10 FP64 operations a pair (its
 * square root and division are left out: a bound that leaves work out
 * still bounds). */
static int work(const void *params, const void *problem, const char *phase, struct apod_work *w)
{
	double n = (double)((const struct nbody_params *)params)->n;
	double state = n * (16 + 12);
	(void)problem;   /* the work is the deck's */
	if (!strcmp(phase, APOD_PHASE_SETUP_NAME)) {
		w->bytes = 2 * state;
		w->h2d_bytes = state;
		return 1;
	}
	if (!strcmp(phase, "computeForces")) {
		w->flops32 = NBODY_SOL_FLOPS_PER_INTERACTION * n * n;
		w->special = n * n;
		w->bytes = 2 * state;
		w->h2d_bytes = 16 * n;
		w->d2h_bytes = 12 * n;
		return 1;
	}
	if (!strcmp(phase, "calcStats")) {
		w->bytes = state;
		w->flops64 = 26 * n;
		w->h2d_bytes = state;
		return 1;
	}
	if (!strcmp(phase, "calcEnergy")) {
		w->bytes = 16 * n;
		w->flops64 = 10 * n * (n - 1) / 2;
		w->h2d_bytes = 16 * n;
		return 1;
	}
	if (!strcmp(phase, APOD_PHASE_FETCH_NAME)) {
		w->bytes = 2 * n * 24;
		w->d2h_bytes = n * 24;
		return 1;
	}
	return 0;
}

static void problem_destroy(void *problem)
{
	struct nbody_problem *p = problem;
	if (!p)
		return;
	free(p->pos);
	free(p->vel);
	free(p);
}

/* The initial conditions, once, on the host: every stage copies these bits. */
static void *problem_create(const void *params)
{
	const struct nbody_params *prm = params;
	struct nbody_problem *p = calloc(1, sizeof *p);
	size_t n = (size_t)prm->n;
	if (!p || !(p->pos = malloc(n * 4 * sizeof(float))) || !(p->vel = malloc(n * 4 * sizeof(float)))) {
		problem_destroy(p);
		apod_fail("nbody: cannot allocate the initial conditions of %zu bodies", n);
		return NULL;
	}
	p->n = n;
	p->prm = prm;
	p->dt = (float)prm->dt;
	p->h = 0.5f * p->dt;
	p->eps2 = (float)(prm->eps * prm->eps);
	if (nbody_initial(prm, p->pos, p->vel)) {
		problem_destroy(p);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		p->mass += p->pos[4 * i + 3];
	return p;
}

static const struct apod_phase phases[] = {
	{ .name = "computeForces" },   /* kick, drift, forces, kick */
	{ .name = NULL },
};

static const struct apod_probe probes[] = {
	[NBODY_PROBE_STATS] = { .name = "calcStats", .every = stats_every },
	[NBODY_PROBE_ENERGY] = { .name = "calcEnergy", .every = energy_every },
	{ .name = NULL },
};

static const struct apod_array arrays[] = {
	[NBODY_ARRAY_POS] = { .name = "pos", .dtype = APOD_F32, .shape = three_shape,
	                      .snapshot = "pos", .compare = APOD_COMPARE_CLOSE, .tolerance = pos_tol },
	[NBODY_ARRAY_VEL] = { .name = "vel", .dtype = APOD_F32, .shape = three_shape,
	                      .snapshot = "vel", .compare = APOD_COMPARE_CLOSE, .tolerance = vel_tol },
	{ .name = NULL },
};

static const struct apod_series series[] = {
	[NBODY_SERIES_STATS] = { .name = "stats", .probe = "calcStats",
	                         .column_names = "kinetic,px,py,pz,cx,cy,cz",
	                         .compare = APOD_COMPARE_CLOSE, .tolerance = stats_tol },
	/* The momentum again, held to an invariant instead of to serial. */
	[NBODY_SERIES_MOMENTUM] = { .name = "momentum", .probe = "calcStats",
	                            .column_names = "px,py,pz",
	                            .compare = APOD_COMPARE_DRIFT, .tolerance = momentum_drift_tol },
	[NBODY_SERIES_ENERGY] = { .name = "energy", .probe = "calcEnergy",
	                          .column_names = "kinetic,potential,total",
	                          .compare = APOD_COMPARE_CLOSE, .tolerance = energy_tol },
	[NBODY_SERIES_DRIFT] = { .name = "drift", .probe = "calcEnergy", .column_names = "total",
	                         .compare = APOD_COMPARE_DRIFT, .tolerance = energy_drift_tol },
	{ .name = NULL },
};

/* Weak scaling: the work a step is n^2, so factor f takes n to n sqrt(f)
 * only where that is whole; factor times the bodies otherwise would be
 * f^2 the work.  Grown by the nearest whole count, rounded up. */
static int grow(void *params, int factor)
{
	struct nbody_params *q = params;
	double grown = ceil(sqrt((double)factor) * (double)q->n);
	if (factor < 1 || grown > (double)NBODY_MAX_N)
		return apod_usage_fail("nbody: %ld bodies grown %d times is beyond %ld", q->n, factor,
		                       NBODY_MAX_N);
	q->n = (long)grown;
	return nbody_params_check(q);
}

const struct apod_workload nbody_workload = {
	.version = APOD_WORKLOAD_VERSION,
	.name = "nbody",
	.about = "all-pairs gravity with Plummer softening, leapfrog, energy and momentum "
	         "(compute-bound)",
	.params_size = sizeof(struct nbody_params),
	.params = nbody_params_table,
	.check = nbody_params_check,
	.steps = steps,
	.snapshot_every = snapshot_every,
	.title = title,
	.problem_create = problem_create,
	.problem_destroy = problem_destroy,
	.phases = phases,
	.probes = probes,
	.arrays = arrays,
	.series = series,
	.stages = nbody_stages,
	.grow = grow,
	.work = work,
	.kernel_rows = nbody_kernels,
};
