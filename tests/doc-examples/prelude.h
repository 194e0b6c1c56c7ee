/*
 * What the code examples of doc/porting.md and doc/extending.md take from
 * the program around them (tests/doc-examples.sh): the installed headers,
 * as a port includes them, and the port's own names, declared only, so
 * that each example compiles on its own, out of the tree.  Nothing here
 * is apod's: a name the headers should give does not belong here.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <apod/apod.h>
#include <apod/built.h>
#include <apod/ready_made.h>
#include <apod/workload.h>
#ifdef __CUDACC__
#include <apod/cuda.h>
#include <apod/cuda_ceilings.cuh>
/* A GPU stage's operations (extending.md). */
void *gpu_create(const struct apod_stage *s, const void *problem);
int gpu_step(void *ctx, int phase, long step, long steps);
int gpu_energy(void *ctx, int k, long step, long row, void *const *rows);
int gpu_fetch(void *ctx, int array, void *out);
void gpu_destroy(void *ctx);
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The original particles program (porting.md, section 1), and the locals
 * of a function that the examples of statements are the body of (the
 * test's wrapper gives them as parameters). */
#define DOC_EXAMPLE_LOCALS long steps, long energy_every, size_t n, float *state, float dt, \
	const char *phase, struct apod_work *w, double state_bytes
void kick_drift_kick(float *s, float k, float dt);
float k(size_t i);
double kinetic_energy(size_t i), potential_energy(size_t i);
void write_state(const float *state);
void particles_kdk(float *s, float k, float dt);
float particles_spring(uint64_t i);
void particles_energy_add(const float *state, uint64_t i, double *kinetic, double *potential);
enum { PARTICLES_X, PARTICLES_Y, PARTICLES_VX, PARTICLES_VY, PARTICLES_COLS };

/* The particles workload's own parts. */
struct particles_params {
	long n, steps, energy_every, snapshot_every, seed;
	double dt;
};
#define AT(member) offsetof(struct particles_params, member)
enum { PARTICLES_PROBE_ENERGY };
enum { PARTICLES_SERIES_ENERGY, PARTICLES_SERIES_DRIFT };
extern const struct apod_stage_ops particles_serial_ops, particles_omp_ops, particles_gpu_ops;
#ifndef __cplusplus
/* The ladder's stages, which an example may list before it defines them. */
static const struct apod_stage serial, omp;
#endif
void *serial_create(const struct apod_stage *s, const void *problem);
int moveParticles(void *ctx, int phase, long step, long steps);
int calcEnergy(void *ctx, int k, long step, long row, void *const *rows);
int particles_host_fetch(void *ctx, int array, void *out);
void particles_host_destroy(void *ctx);
long energy_every(const void *params);
static void energy_tol(const void *params, const void *problem, int any_float, int column,
                enum apod_compare kind, struct apod_tol *t);

/* The molecular-dynamics proxy of porting.md, section 7. */
struct md {
	double dt;
};
struct md_params {
	long horizon;
};
struct md_problem {
	double atoms, pairs;
};
#define MD_FLOPS_PER_PAIR 23
#define MD_ATOM_BYTES 48
int md_kick(struct md *m, double dt);
int md_drift(struct md *m, double dt);
int md_redistribute(struct md *m);
int md_forces(struct md *m);
double md_stats_rtol(const void *params), md_trajectory_rtol(const void *params);
int atoms_shape(const void *params, size_t dims[2]);
static void pos_tol(const void *params, const void *problem, int any_float, int column,
             enum apod_compare kind, struct apod_tol *t);
static void drift_tol(const void *params, const void *problem, int any_float, int column,
               enum apod_compare kind, struct apod_tol *t);
extern const struct apod_stage_ops cells_ops;

/* The directionally split program of porting.md's "A step that is not a
 * fixed list": its own sweeps, and the stage's other operations. */
struct split;
int fill(struct split *m, int dir);
int tendency(struct split *m, int dir, int k);
int update(struct split *m, int k);
int split_probe(void *ctx, int k, long step, long row, void *const *rows);
int split_fetch(void *ctx, int a, void *dst);
void split_destroy(void *ctx);

/* The lookup example's deck. */
struct lookup_params {
	int search;
};

#ifdef __cplusplus
}
#endif
