/*
 * params.c: the n-body workload's keys, and the check that a run fits in
 * the host's memory.
 */
#include <stddef.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "nbody.h"

#define AT(member) offsetof(struct nbody_params, member)

/* In the order of enum nbody_model. */
static const char *const nbody_models[] = { "plummer", "disk", NULL };

const struct apod_param nbody_params_table[] = {
	APOD_KEY_NAME(struct nbody_params, name, "nbody"),
	{ .key = "n", .type = APOD_PARAM_INT, .def = "2048", .lo = 1, .hi = NBODY_MAX_N,
	  .offset = AT(n), .help = "bodies" },
	APOD_KEY_STEPS(struct nbody_params, steps, "20", NBODY_MAX_STEPS),
	{ .key = "dt", .type = APOD_PARAM_REAL, .def = "0.005", .lo = 0, .lo_open = 1, .hi = 1,
	  .range_why = " (a time step in Henon units, the crossing time is about 2.8)",
	  .offset = AT(dt), .help = "time step" },
	/* eps = 0 would make the self-interaction 0/0 and the force unbounded;
	 * from 1e-6 up, eps^3 is a normal float, so the self term stays 0 and
	 * rsqrtf of eps^2 finite. */
	{ .key = "eps", .type = APOD_PARAM_REAL, .def = "0.05", .lo = 1e-6, .hi = 100,
	  .range_why = " (the softening must be positive, with eps^3 a normal float: it bounds the "
	               "force and makes the self-interaction zero)",
	  .offset = AT(eps), .help = "Plummer softening length" },
	{ .key = "seed", .type = APOD_PARAM_INT, .def = "1", .lo = 0, .hi = NBODY_MAX_SEED,
	  .offset = AT(seed), .help = "seed of the initial conditions (Philox)" },
	{ .key = "model", .type = APOD_PARAM_CHOICE, .def = "plummer", .offset = AT(model),
	  .choices = nbody_models,
	  .help = "initial conditions: plummer (a Plummer sphere) or disk (a rotating disk)" },
	APOD_KEY_EVERY(struct nbody_params, stats_every, "1", NBODY_MAX_STEPS,
	               "calcStats (kinetic energy, momentum, centre of mass)"),
	APOD_KEY_EVERY(struct nbody_params, energy_every, "10", NBODY_MAX_STEPS,
	               "calcEnergy, the O(N^2) total energy,"),
	APOD_KEY_SNAPSHOT_EVERY(struct nbody_params, snapshot_every, "0", NBODY_MAX_STEPS,
	                        "positions and velocities"),
	{ .key = NULL },
};

/* Host bytes a run needs: the problem (8 floats a body), a stage's arrays
 * (10), the harness's final copies and a snapshot buffer (6 + 6), and the
 * rows of the series; 0 on overflow. */
static size_t run_bytes(const struct nbody_params *p)
{
	size_t state, rows = 0, bytes;
	if (__builtin_mul_overflow((size_t)p->n, 30 * sizeof(float), &state))
		return 0;
	if (p->stats_every > 0)
		rows += (size_t)(p->steps / p->stats_every) * (10 * sizeof(double) + 2 * sizeof(long));
	if (p->energy_every > 0)
		rows += (size_t)(p->steps / p->energy_every) * (4 * sizeof(double) + 2 * sizeof(long));
	if (__builtin_add_overflow(state, rows, &bytes))
		return 0;
	return bytes;
}

int nbody_params_check(const void *params)
{
	const struct nbody_params *p = params;
	return apod_fits_in_memory(run_bytes(p), "n: a run of %ld bodies for %ld steps", p->n,
	                           p->steps);
}
