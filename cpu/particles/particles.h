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

/* The probe and the series it fills (their indices in workload.c's tables:
 * k and the rows of the stages' ops). */
enum { PARTICLES_PROBE_ENERGY };
enum { PARTICLES_SERIES_ENERGY, PARTICLES_SERIES_DRIFT };
/* The one array. */
enum { PARTICLES_ARRAY_STATE };

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
void particles_energy_rows(double kinetic, double potential, void *const *rows);

/* The key table and the checks across keys (params.c). */
extern const struct apod_param particles_params_table[];
int particles_params_check(const void *params);

/* The stages, "serial" first, each described once (stages.c), and what
 * each does: stage_serial.c, stage_omp.c, gpu/particles/stage_gpu.cu. */
extern const struct apod_stage *const particles_stages[];
extern const struct apod_stage_ops particles_serial_ops;
extern const struct apod_stage_ops particles_omp_ops;
extern const struct apod_stage_ops particles_gpu_ops;

#ifdef __cplusplus
}
#endif

#endif
