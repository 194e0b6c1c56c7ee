/*
 * nbody.h: the n-body workload's parameters, problem and host engine.
 *
 * N bodies under their mutual gravity (G = 1, Plummer softening eps), moved
 * by kick-drift-kick leapfrog in float; statistics and energies in double.
 * The arithmetic of one interaction is shared/nbody/interact.h.  Unlike
 * particles, every body pulls on every other: O(N^2) work a step on O(N)
 * data, the compute-bound reference of apod.
 */
#ifndef APOD_NBODY_H
#define APOD_NBODY_H

#include <stddef.h>

#include "apod/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 2^33 bodies would need about a terabyte: far beyond any host here, so
 * the memory check (params.c) refuses a large n before anything is
 * allocated; the GPU stages also refuse n beyond INT_MAX. */
#define NBODY_MAX_N     (1L << 33)
#define NBODY_MAX_STEPS 100000000L
#define NBODY_MAX_SEED  4294967295L

/* The initial conditions' bounds, in Henon units, that the tolerances
 * rest on (initial.c keeps to them): every |r| <= NBODY_R0, |v| <= NBODY_V0. */
#define NBODY_R0 12.0
#define NBODY_V0 3.7

enum nbody_model { NBODY_PLUMMER, NBODY_DISK };

struct nbody_params {
	char name[APOD_NAME_MAX];
	long n;                   /* bodies */
	long steps;
	double dt;                /* time step, in (0, 1] */
	double eps;               /* softening length, > 0 */
	long seed;
	int model;                /* enum nbody_model */
	long stats_every;         /* calcStats every K steps (0: never) */
	long energy_every;        /* calcEnergy, O(N^2), every K steps (0: never) */
	long snapshot_every;      /* positions and velocities every M steps (0: never) */
};

/* The problem every stage starts from, built once on the host. */
struct nbody_problem {
	size_t n;
	float dt, h, eps2;        /* h = dt/2 exactly; eps2 = eps^2 rounded once */
	float *pos;               /* n x 4: x, y, z, mass */
	float *vel;               /* n x 4: vx, vy, vz, 0 */
	double mass;              /* the total, summed once in index order */
	/* The parameters it was built from (the harness's, alive as long as
	 * the problem): mgpu checks every rank was given the same. */
	const struct nbody_params *prm;
};

/* The probes, series and arrays, by their indices in workload.c's tables
 * (k, the rows, a of the stages' ops). */
enum { NBODY_PROBE_STATS, NBODY_PROBE_ENERGY };
enum { NBODY_SERIES_STATS, NBODY_SERIES_MOMENTUM, NBODY_SERIES_ENERGY, NBODY_SERIES_DRIFT };
enum { NBODY_ARRAY_POS, NBODY_ARRAY_VEL };

/* The GPU stages' force kernels: a resident stage's data (stages.c) is
 * one of these, which gpu/nbody/resident.cu reads in create. */
enum nbody_variant { NBODY_SIMPLE = 2, NBODY_TILED = 3, NBODY_TUNED = 4 };

/* Keys and checks (params.c), the initial conditions (initial.c). */
extern const struct apod_param nbody_params_table[];
int nbody_params_check(const void *params);
int nbody_initial(const struct nbody_params *prm, float *pos, float *vel);

/* ---- the host engine (host.c): structure of arrays ---------------------- */

struct nbody_soa {
	size_t n;
	float *x, *y, *z, *m, *vx, *vy, *vz, *ax, *ay, *az;
};

int nbody_soa_alloc(struct nbody_soa *s, size_t n, const char *stage);
void nbody_soa_free(struct nbody_soa *s);
/* Copy body i in [i0, i1) from the problem (AoS) into s. */
void nbody_soa_load(struct nbody_soa *s, const struct nbody_problem *p, size_t i0, size_t i1);
/* Accelerations of bodies [i0, i1) from every body's position. */
void nbody_host_forces(struct nbody_soa *s, float eps2, size_t i0, size_t i1);
/* Half a kick (v += h a) or a drift (x += dt v) of bodies [i0, i1). */
void nbody_host_kick(struct nbody_soa *s, float h, size_t i0, size_t i1);
void nbody_host_drift(struct nbody_soa *s, float dt, size_t i0, size_t i1);
/* Sums over bodies [i0, i1) in index order: kinetic, m v (3), m r (3). */
void nbody_host_sums(const struct nbody_soa *s, size_t i0, size_t i1, double sums[7]);
/* The potential energy of the pairs (i, j > i) for i in [i0, i1). */
double nbody_host_potential(const struct nbody_soa *s, float eps2, size_t i0, size_t i1);
/* The rows of probe k from the sums (7 doubles), the total mass and the
 * potential (used only by the energy probe). */
void nbody_rows(int k, const double sums[7], double mass, double potential, void *const *rows);
/* Copy array a (n x 3) out of s. */
void nbody_soa_fetch(const struct nbody_soa *s, int a, float *dst);
/* Probe k's rows from s, on one thread in index order: serial's probe,
 * which gpu1 also runs on its host arrays.  Returns 0. */
int nbody_soa_probe(const struct nbody_soa *s, const struct nbody_problem *p, int k,
                    void *const *rows);

/* The state of a host stage (serial, omp): the problem and the arrays.
 * Created empty (each stage loads it its own way), destroyed and fetched
 * the same for both. */
struct nbody_host {
	const struct nbody_problem *p;
	struct nbody_soa s;
};
struct nbody_host *nbody_host_create(const struct nbody_problem *p, const char *stage);
void nbody_host_destroy(void *ctx);
int nbody_host_fetch(void *ctx, int a, void *dst);
/* nbody_soa_probe on a host stage's arrays: the serial stage's probe. */
int nbody_host_probe(void *ctx, int k, long step, long row, void *const *rows);

/* The stages, "serial" first, each described once (stages.c), and what
 * each does: stage_serial.c, stage_omp.c, gpu/nbody/stage1.cu (gpu1),
 * gpu/nbody/resident.cu (gpu2, gpu3 and gpu4, told their kernel by their
 * data) and gpu/nbody/stage_mgpu.cu (mgpu). */
extern const struct apod_stage *const nbody_stages[];
extern const struct apod_stage_ops nbody_serial_ops;
extern const struct apod_stage_ops nbody_omp_ops;
extern const struct apod_stage_ops nbody_gpu1_ops;
extern const struct apod_stage_ops nbody_resident_ops;
/* mgpu (gpu/nbody/stage_mgpu.cu): one MPI rank a GPU, NCCL between them. */
extern const struct apod_stage_ops nbody_mgpu_ops;
/* bench --kernels (kernels.c): the workload's kernel_rows member. */
int nbody_kernels(const void *problem, int reps, const struct apod_bench_sink *sink);

#ifdef __cplusplus
}
#endif

#endif
