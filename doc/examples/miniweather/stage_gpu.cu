/*
 * stage_gpu.cu: miniWeather on the device, one kernel for each loop of the
 * program's.  The two states, the fluxes, the tendencies and the
 * hydrostatic background live on the device from create to destroy; the
 * host runs the program's time loop (its dt, its elapsed time, its order
 * of directions) and launches, on one stream, what each region does.
 * Every cell and interface is one thread computing miniweather.h's
 * expressions (compiled with -fmad=false), so the device differs from the
 * host only where its pow and cos round differently from the C library's
 * (tolerances.c).  The reductions bring the state home and sum it in the
 * program's order; fetch brings it home once.
 *
 * Device time: mark() records a CUDA event at each edge of a region, on the
 * stage's stream, into a ring read back lazily (the oldest pair is waited
 * for only when the ring is full), so marking never makes a step wait.
 */
#include <stdlib.h>
#include <string.h>

#include <apod/cuda.h>
#include <apod/ready_made.h>
#include <apod/cuda_ceilings.cuh>

#include "miniweather.h"

#define BLOCK 128             /* threads a block of the 1-D kernels */
#define RING 512              /* event pairs in flight */
#define MAX_MARKED 64         /* the harness's phase numbers we accept from mark() */

enum { DIR_X = 1, DIR_Z = 2 };

struct event_pair {
	int phase;
	cudaEvent_t begin, end;
};

struct gpu {
	const struct mw_problem *pb;
	int nx, nz, data_spec;
	double *state, *state_tmp, *flux, *tend;
	double *hy_dens_cell, *hy_dens_theta_cell, *hy_dens_int, *hy_dens_theta_int,
		*hy_pressure_int;
	double *host_state;       /* the reductions' copy */
	size_t state_bytes;
	double etime, dt;
	int direction_switch;
	struct apod_clock *clock;
	int phase[MW_PHASES];
	cudaStream_t stream;
	int have_stream;
	/* The event ring: pairs [head, head + count) are recorded, not yet read. */
	struct event_pair ring[RING];
	int events_made, head, count, open;
	double seconds[MAX_MARKED];
};

/* ---- kernels: a thread an item, in the program's index order ----------- */

static __device__ long thread_index(void)
{
	return (long)blockIdx.x * blockDim.x + threadIdx.x;
}

static __global__ void halo_x(double *state, int nx, int nz)
{
	long q = thread_index();
	if (q < (long)MW_VARS * nz)
		mw_halo_x_row(state, nx, nz, (int)(q / nz), (int)(q % nz));
}

static __global__ void inject(double *state, int nx, int nz, double dz, const double *hy_dens_cell,
                              const double *hy_dens_theta_cell)
{
	long q = thread_index();
	int k = (int)(q / MW_HS), i = (int)(q % MW_HS);
	if (q < (long)nz * MW_HS)
		mw_inject(state, nx, nz, k, i, dz, hy_dens_cell[k + MW_HS], hy_dens_theta_cell[k + MW_HS]);
}

static __global__ void halo_z(double *state, const double *hy_dens_cell, int nx, int nz)
{
	long q = thread_index(), w = nx + 2 * MW_HS;
	if (q < MW_VARS * w)
		mw_halo_z_col(state, hy_dens_cell, nx, nz, (int)(q / w), (int)(q % w));
}

static __global__ void flux_x(const double *state, int nx, int nz, const double *hy_dens_cell,
                              const double *hy_dens_theta_cell, double hv_coef, double *flux)
{
	long q = thread_index();
	int k = (int)(q / (nx + 1)), i = (int)(q % (nx + 1));
	if (q < (long)nz * (nx + 1))
		mw_flux_x(state, nx, nz, k, i, hy_dens_cell[k + MW_HS], hy_dens_theta_cell[k + MW_HS],
		          hv_coef, flux);
}

static __global__ void flux_z(const double *state, int nx, int nz, const double *hy_dens_int,
                              const double *hy_dens_theta_int, const double *hy_pressure_int,
                              double hv_coef, double *flux)
{
	long q = thread_index();
	int k = (int)(q / nx), i = (int)(q % nx);
	if (q < (long)(nz + 1) * nx)
		mw_flux_z(state, nx, nz, k, i, hy_dens_int[k], hy_dens_theta_int[k], hy_pressure_int[k],
		          hv_coef, flux);
}

static __global__ void tend_x(const double *flux, int nx, int nz, double dx, double *tend)
{
	long q = thread_index(), cells = (long)nx * nz;
	int ll = (int)(q / cells), k = (int)(q % cells / nx), i = (int)(q % nx);
	if (q < MW_VARS * cells)
		tend[q] = mw_tend_x(flux, nx, nz, ll, k, i, dx);
}

static __global__ void tend_z(const double *flux, const double *state, int nx, int nz, double dz,
                              double *tend)
{
	long q = thread_index(), cells = (long)nx * nz;
	int ll = (int)(q / cells), k = (int)(q % cells / nx), i = (int)(q % nx);
	if (q < MW_VARS * cells)
		tend[q] = mw_tend_z(flux, state, nx, nz, ll, k, i, dz);
}

/* A thread a cell, its four variables in the program's order (the
 * gravity-wave forcing's additions to w's tendency stay in sequence). */
static __global__ void update(const double *state_init, double *state_out, double *tend, int nx,
                              int nz, double dt, int gravity_waves, const double *hy_dens_cell,
                              double dx, double dz)
{
	long q = thread_index();
	int k = (int)(q / nx), i = (int)(q % nx);
	if (q >= (long)nx * nz)
		return;
	for (int ll = 0; ll < MW_VARS; ll++)
		mw_update(state_init, state_out, tend, nx, nz, ll, k, i, dt, gravity_waves,
		          hy_dens_cell[MW_HS + k], dx, dz);
}

static unsigned blocks(long items)
{
	return (unsigned)((items + BLOCK - 1) / BLOCK);
}

/* ---- the state ---------------------------------------------------------- */

/* Statuses not checked, as apod_cuda_free's: a failed release leaves
 * nothing to undo, and destroy has no one to report to. */
static void gpu_destroy(void *ctx)
{
	struct gpu *g = (struct gpu *)ctx;
	for (int e = 0; e < g->events_made; e++) {
		(void)cudaEventDestroy(g->ring[e].begin);
		(void)cudaEventDestroy(g->ring[e].end);
	}
	if (g->have_stream)
		(void)cudaStreamDestroy(g->stream);
	apod_cuda_free(g->state, g->state_tmp, g->flux, g->tend, g->hy_dens_cell,
	               g->hy_dens_theta_cell, g->hy_dens_int, g->hy_dens_theta_int,
	               g->hy_pressure_int);
	free(g->host_state);
	free(g);
}

static int to_device(double **d, const double *h, size_t n)
{
	APOD_CUDA_TRY(cudaMalloc((void **)d, n * sizeof(double)));
	APOD_CUDA_TRY(cudaMemcpy(*d, h, n * sizeof(double), cudaMemcpyHostToDevice));
	return 0;
}

static int gpu_setup(void *ctx, const void *problem)
{
	struct gpu *g = (struct gpu *)ctx;
	const struct mw_problem *pb = (const struct mw_problem *)problem;
	size_t cells = (size_t)(pb->nx + 2 * MW_HS) * (size_t)(pb->nz + 2 * MW_HS) * MW_VARS;
	size_t faces = (size_t)(pb->nx + 1) * (size_t)(pb->nz + 1) * MW_VARS;
	size_t inner = (size_t)pb->nx * (size_t)pb->nz * MW_VARS;
	size_t column = (size_t)pb->nz + 2 * MW_HS, interfaces = (size_t)pb->nz + 1;
	g->pb = pb;
	g->nx = pb->nx;
	g->nz = pb->nz;
	g->data_spec = pb->data_spec;
	g->state_bytes = cells * sizeof(double);
	g->etime = 0.;
	g->dt = pb->dt;
	g->direction_switch = 1;
	if (apod_cuda_require("miniweather: gpu",
	                      (2 * cells + faces + inner + 2 * column + 3 * interfaces) * sizeof(double)))
		return -1;
	if (!(g->host_state = (double *)malloc(g->state_bytes)))
		return apod_fail("miniweather: gpu: cannot allocate the host's copy of the state");
	APOD_CUDA_TRY(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));
	g->have_stream = 1;
	for (; g->events_made < RING; g->events_made++) {
		struct event_pair *e = &g->ring[g->events_made];
		cudaError_t err;
		APOD_CUDA_TRY(cudaEventCreate(&e->begin));
		/* The pair is counted made only whole, so destroy releases only
		 * whole pairs: a lone begin is released here. */
		if ((err = cudaEventCreate(&e->end)) != cudaSuccess) {
			(void)cudaEventDestroy(e->begin);
			return apod_cuda_failed(err, "cudaEventCreate(&e->end)", __FILE__, __LINE__);
		}
	}
	if (to_device(&g->state, pb->state, cells) || to_device(&g->state_tmp, pb->state, cells) ||
	    to_device(&g->hy_dens_cell, pb->hy_dens_cell, column) ||
	    to_device(&g->hy_dens_theta_cell, pb->hy_dens_theta_cell, column) ||
	    to_device(&g->hy_dens_int, pb->hy_dens_int, interfaces) ||
	    to_device(&g->hy_dens_theta_int, pb->hy_dens_theta_int, interfaces) ||
	    to_device(&g->hy_pressure_int, pb->hy_pressure_int, interfaces))
		return -1;
	APOD_CUDA_TRY(cudaMalloc((void **)&g->flux, faces * sizeof(double)));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->tend, inner * sizeof(double)));
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	return 0;
}

static void *gpu_create(const struct apod_stage *s, const void *problem, struct apod_clock *clock)
{
	struct gpu *g = (struct gpu *)apod_state_create(problem, sizeof(struct gpu),
	                                                "miniweather: gpu", gpu_setup, gpu_destroy);
	(void)s;
	if (!g)
		return NULL;
	g->clock = clock;
	for (int p = 0; p < MW_PHASES; p++)
		if ((g->phase[p] = apod_phase_find(clock, mw_phases[p].name)) < 0) {
			gpu_destroy(g);
			return NULL;
		}
	return g;
}

/* ---- the program's step, as timestep.h runs it on the host -------------- */

#define MW_REGION(g, p, call)                                                 \
	do {                                                                  \
		if (apod_phase_begin((g)->clock, (g)->phase[p]) || (call) ||  \
		    apod_phase_end((g)->clock, (g)->phase[p]))                \
			return -1;                                            \
	} while (0)

static int set_halo_values_x(struct gpu *g, double *state)
{
	const struct mw_problem *pb = g->pb;
	APOD_LAUNCH_TRY((halo_x<<<blocks((long)MW_VARS * g->nz), BLOCK, 0, g->stream>>>(state, g->nx,
	                                                                               g->nz)));
	if (g->data_spec == MW_INJECTION)
		APOD_LAUNCH_TRY((inject<<<blocks((long)g->nz * MW_HS), BLOCK, 0, g->stream>>>(
			state, g->nx, g->nz, pb->dz, g->hy_dens_cell, g->hy_dens_theta_cell)));
	return 0;
}

static int set_halo_values_z(struct gpu *g, double *state)
{
	APOD_LAUNCH_TRY((halo_z<<<blocks((long)MW_VARS * (g->nx + 2 * MW_HS)), BLOCK, 0, g->stream>>>(
		state, g->hy_dens_cell, g->nx, g->nz)));
	return 0;
}

static int compute_tendencies_x(struct gpu *g, const double *state, double dt)
{
	double hv_coef = -MW_HV_BETA * g->pb->dx / (16 * dt);
	APOD_LAUNCH_TRY((flux_x<<<blocks((long)g->nz * (g->nx + 1)), BLOCK, 0, g->stream>>>(
		state, g->nx, g->nz, g->hy_dens_cell, g->hy_dens_theta_cell, hv_coef, g->flux)));
	APOD_LAUNCH_TRY((tend_x<<<blocks((long)MW_VARS * g->nx * g->nz), BLOCK, 0, g->stream>>>(
		g->flux, g->nx, g->nz, g->pb->dx, g->tend)));
	return 0;
}

static int compute_tendencies_z(struct gpu *g, const double *state, double dt)
{
	double hv_coef = -MW_HV_BETA * g->pb->dz / (16 * dt);
	APOD_LAUNCH_TRY((flux_z<<<blocks((long)(g->nz + 1) * g->nx), BLOCK, 0, g->stream>>>(
		state, g->nx, g->nz, g->hy_dens_int, g->hy_dens_theta_int, g->hy_pressure_int, hv_coef,
		g->flux)));
	APOD_LAUNCH_TRY((tend_z<<<blocks((long)MW_VARS * g->nx * g->nz), BLOCK, 0, g->stream>>>(
		g->flux, state, g->nx, g->nz, g->pb->dz, g->tend)));
	return 0;
}

static int apply_tendencies(struct gpu *g, const double *state_init, double *state_out, double dt)
{
	APOD_LAUNCH_TRY((update<<<blocks((long)g->nx * g->nz), BLOCK, 0, g->stream>>>(
		state_init, state_out, g->tend, g->nx, g->nz, dt, g->data_spec == MW_GRAVITY_WAVES,
		g->hy_dens_cell, g->pb->dx, g->pb->dz)));
	return 0;
}

static int semi_discrete_step(struct gpu *g, const double *state_init, double *state_forcing,
                              double *state_out, double dt, int dir)
{
	if (dir == DIR_X) {
		MW_REGION(g, MW_HALO_X, set_halo_values_x(g, state_forcing));
		MW_REGION(g, MW_TEND_X, compute_tendencies_x(g, state_forcing, dt));
	} else {
		MW_REGION(g, MW_HALO_Z, set_halo_values_z(g, state_forcing));
		MW_REGION(g, MW_TEND_Z, compute_tendencies_z(g, state_forcing, dt));
	}
	MW_REGION(g, MW_UPDATE, apply_tendencies(g, state_init, state_out, dt));
	return 0;
}

static int perform_timestep(struct gpu *g, double dt)
{
	double *state = g->state, *state_tmp = g->state_tmp;
	int first = g->direction_switch ? DIR_X : DIR_Z, second = g->direction_switch ? DIR_Z : DIR_X;
	if (semi_discrete_step(g, state, state, state_tmp, dt / 3, first) ||
	    semi_discrete_step(g, state, state_tmp, state_tmp, dt / 2, first) ||
	    semi_discrete_step(g, state, state_tmp, state, dt / 1, first) ||
	    semi_discrete_step(g, state, state, state_tmp, dt / 3, second) ||
	    semi_discrete_step(g, state, state_tmp, state_tmp, dt / 2, second) ||
	    semi_discrete_step(g, state, state_tmp, state, dt / 1, second))
		return -1;
	g->direction_switch = !g->direction_switch;
	return 0;
}

static int gpu_advance(void *ctx, long step, long steps)
{
	struct gpu *g = (struct gpu *)ctx;
	(void)step;
	(void)steps;
	if (g->etime + g->dt > g->pb->sim_time)
		g->dt = g->pb->sim_time - g->etime;
	if (perform_timestep(g, g->dt))
		return -1;
	g->etime = g->etime + g->dt;
	return 0;
}

/* ---- probe and fetch: the state brought home ---------------------------- */

static int bring_home(struct gpu *g)
{
	APOD_CUDA_TRY(cudaMemcpyAsync(g->host_state, g->state, g->state_bytes, cudaMemcpyDeviceToHost,
	                              g->stream));
	APOD_CUDA_TRY(cudaStreamSynchronize(g->stream));
	return 0;
}

static int gpu_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct gpu *g = (struct gpu *)ctx;
	double mass = 0, te = 0;
	(void)k;
	(void)step;
	(void)row;
	if (bring_home(g))
		return -1;
	for (int kk = 0; kk < g->nz; kk++)
		for (int i = 0; i < g->nx; i++)
			mw_reduce_cell(g->host_state, g->pb, kk, i, &mass, &te);
	if (rows[0])
		((double *)rows[0])[0] = mass;
	if (rows[1])
		((double *)rows[1])[0] = te;
	return 0;
}

static int gpu_fetch(void *ctx, int a, void *dst)
{
	struct gpu *g = (struct gpu *)ctx;
	const struct mw_problem *pb = g->pb;
	double *out = (double *)dst, f[4];
	if (bring_home(g))
		return -1;
	for (int k = 0; k < g->nz; k++)
		for (int i = 0; i < g->nx; i++) {
			mw_output_cell(g->host_state, pb->hy_dens_cell, pb->hy_dens_theta_cell, g->nx, g->nz,
			               k, i, f);
			out[(long)k * g->nx + i] = f[a];
		}
	return 0;
}

/* ---- device time: an event pair a region ------------------------------- */

/* Wait for the oldest pair and add its time to its phase. */
static int retire_oldest(struct gpu *g)
{
	struct event_pair *e = &g->ring[g->head];
	float ms;
	APOD_CUDA_TRY(cudaEventSynchronize(e->end));
	APOD_CUDA_TRY(cudaEventElapsedTime(&ms, e->begin, e->end));
	g->seconds[e->phase] += ms * 1e-3;
	g->head = (g->head + 1) % RING;
	g->count--;
	return 0;
}

static int gpu_mark(void *ctx, int phase, int end)
{
	struct gpu *g = (struct gpu *)ctx;
	int slot;
	if (phase < 0 || phase >= MAX_MARKED)
		return apod_fail("miniweather: gpu: phase number %d past the %d this stage keeps", phase,
		                 MAX_MARKED);
	if (!end) {
		if (g->count == RING && retire_oldest(g))
			return -1;
		slot = (g->head + g->count) % RING;
		g->ring[slot].phase = phase;
		APOD_CUDA_TRY(cudaEventRecord(g->ring[slot].begin, g->stream));
		g->open = 1;
		return 0;
	}
	if (!g->open)
		return apod_fail("miniweather: gpu: the end of phase %d with no begin", phase);
	slot = (g->head + g->count) % RING;
	APOD_CUDA_TRY(cudaEventRecord(g->ring[slot].end, g->stream));
	g->count++;
	g->open = 0;
	return 0;
}

static int gpu_device_seconds(void *ctx, double *seconds, int nphases)
{
	struct gpu *g = (struct gpu *)ctx;
	while (g->count > 0)
		if (retire_oldest(g))
			return -1;
	for (int p = 0; p < nphases && p < MAX_MARKED; p++)
		seconds[p] += g->seconds[p];
	return 0;
}

/* Filled by assignment: the members a C++17 initializer could not name. */
static struct apod_stage_ops make_ops(void)
{
	struct apod_stage_ops o{};
	o.available = apod_cuda_available;
	o.probe = gpu_probe;
	o.fetch = gpu_fetch;
	o.destroy = gpu_destroy;
	o.mark = gpu_mark;
	o.device_seconds = gpu_device_seconds;
	o.create_timed = gpu_create;
	o.advance = gpu_advance;
	return o;
}

extern "C" const struct apod_stage_ops mw_gpu_ops = make_ops();

/* The program's device hooks (main.c): `info` names the GPU, and `ceilings`
 * measures it, so that the gpu row of the table has a speed of light. */
extern "C" int mw_device_info(FILE *f)
{
	return apod_cuda_device_info(f);
}

extern "C" int mw_ceilings(struct apod_ceilings *c, int measure)
{
	return apod_cuda_ceilings(c, measure);
}
