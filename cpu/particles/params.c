/*
 * params.c: the particles workload's keys.  The harness parses them, gives
 * them their defaults and --KEY=VALUE options, writes them to report.json
 * and checks that two runs it compares ran the same deck, all from this
 * table.  Only the check across keys is left to write by hand.
 */
#include <stddef.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "particles.h"
#include "shared/particles/update.h"

#define AT(member) offsetof(struct particles_params, member)

const struct apod_param particles_params_table[] = {
	APOD_KEY_NAME(struct particles_params, name, "particles"),
	{ .key = "n", .type = APOD_PARAM_INT, .def = "100000", .lo = 1, .hi = PARTICLES_MAX_N,
	  .offset = AT(n), .help = "particles" },
	APOD_KEY_STEPS(struct particles_params, steps, "200", PARTICLES_MAX_STEPS),
	/* Leapfrog is stable for k*dt^2 < 4; 0.1 keeps k_max*dt^2/4 below 1% so
	 * the energy bound in workload.c stays meaningful. */
	{ .key = "dt", .type = APOD_PARAM_REAL, .def = "0.01", .lo = 0, .lo_open = 1, .hi = 0.1,
	  .range_why = " (leapfrog's energy error grows with dt^2)", .offset = AT(dt),
	  .help = "time step" },
	{ .key = "seed", .type = APOD_PARAM_INT, .def = "1", .lo = 0, .hi = PARTICLES_MAX_SEED,
	  .offset = AT(seed), .help = "seed of the initial positions and velocities" },
	APOD_KEY_EVERY(struct particles_params, energy_every, "1", PARTICLES_MAX_STEPS, "calcEnergy"),
	APOD_KEY_SNAPSHOT_EVERY(struct particles_params, snapshot_every, "0", PARTICLES_MAX_STEPS,
	                        "a snapshot of the state"),
	{ .key = NULL },
};

/* Host bytes a run needs: the initial state, a stage's state, the harness's
 * final copy and a snapshot buffer (n x 4 floats each), and the energy rows
 * (a step and 3 + 1 doubles each); 0 on overflow. */
static size_t run_bytes(const struct particles_params *p)
{
	size_t state, rows, bytes;
	if (__builtin_mul_overflow((size_t)p->n, 4 * PARTICLES_COLS * sizeof(float), &state))
		return 0;
	rows = p->energy_every > 0 ? (size_t)(p->steps / p->energy_every) : 0;
	if (__builtin_mul_overflow(rows, 2 * sizeof(long) + 4 * sizeof(double), &rows) ||
	    __builtin_add_overflow(state, rows, &bytes))
		return 0;
	return bytes;
}

int particles_params_check(const void *params)
{
	const struct particles_params *p = params;
	return apod_fits_in_memory(run_bytes(p), "deck: a run of %ld particles for %ld steps",
	                           p->n, p->steps);
}
