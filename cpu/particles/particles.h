/*
 * particles.h: the particles workload's parameters and problem.
 *
 * N independent particles in 2-D, each in its own harmonic well, moved by
 * leapfrog (shared/particles/update.h).  The workload is the example that
 * doc/porting.md walks through: the smallest complete port, from a serial
 * loop to an OpenMP stage and a GPU stage, each held to the same gate.
 */
#ifndef APOD_PARTICLES_H
#define APOD_PARTICLES_H

#include <stddef.h>

#include "apod/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PARTICLES_MAX_N     (1L << 27)      /* 2 GiB of state; n*4 stays far from overflow */
#define PARTICLES_MAX_STEPS 100000000L
#define PARTICLES_MAX_SEED  4294967295L

/* The parameters, one member per key of the table in params.c.  The
 * harness writes INT keys as long and REAL keys as double. */
struct particles_params {
	char name[APOD_NAME_MAX];
	long n;                   /* particles */
	long steps;
	double dt;                /* time step, in (0, 0.1] */
	long seed;                /* of the initial state */
	long energy_every;        /* calcEnergy every K steps (0: never) */
	long snapshot_every;      /* a snapshot of the state every M steps (0: never) */
};

/* The problem every stage starts from: the initial state, built once on
 * the host, so every stage begins from the identical bits. */
struct particles_problem {
	size_t n;
	float dt;                 /* the rounded time step every stage uses */
	float *init;              /* n x 4: x, y, vx, vy */
};

/* The probe and the series it fills (their indices in workload.c's tables). */
enum { PARTICLES_PROBE_ENERGY };
enum { PARTICLES_SERIES_ENERGY, PARTICLES_SERIES_DRIFT };
/* The one array. */
enum { PARTICLES_ARRAY_STATE };

/* What the omp stage changes from the serial reference: the per-step work. */
#define PARTICLES_PORTS (APOD_PORTS_STEP | APOD_PORTS_PROBE(PARTICLES_PROBE_ENERGY))
/* The GPU stage also sets up on the device and fetches every snapshot and
 * the final state from it. */
#define PARTICLES_GPU_PORTS \
	(APOD_PORTS_SETUP | PARTICLES_PORTS | APOD_PORTS_SNAPSHOT | APOD_PORTS_FETCH)
#define PARTICLES_GPU_ABOUT "state resident on the device, one thread a particle, energy reduced there"

/* The state of a host stage (serial, omp), and what both do alike with it
 * (stage_serial.c): allocate it (each stage then fills it its own way),
 * destroy it, fetch it, and turn the energy sums into the probe's rows. */
struct particles_host {
	const struct particles_problem *p;
	float *state;             /* n x 4: x, y, vx, vy */
};
struct particles_host *particles_host_alloc(const struct particles_problem *p, const char *stage);
void particles_host_destroy(void *ctx);
int particles_host_fetch(void *ctx, int a, void *dst);
void particles_energy_rows(double kinetic, double potential, double *const *rows);

/* The key table and the checks across keys (params.c). */
extern const struct apod_param particles_params_table[];
int particles_params_check(const void *params);

/* The stages, "serial" first (stages.c), and each stage's table. */
extern const struct apod_stage *const particles_stages[];
extern const struct apod_stage particles_stage_serial;
extern const struct apod_stage particles_stage_omp;
#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
extern const struct apod_stage particles_stage_gpu;
#endif

#ifdef __cplusplus
}
#endif

#endif
