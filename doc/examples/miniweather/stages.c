/*
 * stages.c: the three stages described (what the table and `apod stages`
 * read), and what the two host stages share: their state, made from the
 * problem with the clock's phase handles found once, the reductions probe
 * and the fetch of output()'s four fields.
 */
#include <stdlib.h>
#include <string.h>

#include <apod/apod.h>
#include <apod/ready_made.h>

#include "host.h"

void mw_host_destroy(void *ctx)
{
	struct mw_host *h = ctx;
	free(h->state);
	free(h->state_tmp);
	free(h->flux);
	free(h->tend);
	free(h);
}

/* The program's init leaves state_tmp a copy of state, halos included. */
static int host_setup(void *ctx, const void *problem)
{
	struct mw_host *h = ctx;
	const struct mw_problem *pb = problem;
	size_t cells = (size_t)(pb->nx + 2 * MW_HS) * (size_t)(pb->nz + 2 * MW_HS) * MW_VARS;
	size_t faces = (size_t)(pb->nx + 1) * (size_t)(pb->nz + 1) * MW_VARS;
	size_t inner = (size_t)pb->nx * (size_t)pb->nz * MW_VARS;
	h->pb = pb;
	if (!(h->state = malloc(cells * sizeof(double))) ||
	    !(h->state_tmp = malloc(cells * sizeof(double))) ||
	    !(h->flux = malloc(faces * sizeof(double))) || !(h->tend = malloc(inner * sizeof(double))))
		return apod_fail("miniweather: cannot allocate the state of a %d x %d grid", pb->nx,
		                 pb->nz);
	memcpy(h->state, pb->state, cells * sizeof(double));
	memcpy(h->state_tmp, pb->state, cells * sizeof(double));
	h->etime = 0.;
	h->dt = pb->dt;
	h->direction_switch = 1;
	return 0;
}

void *mw_host_create(const struct apod_stage *s, const void *problem, struct apod_clock *clock)
{
	struct mw_host *h = apod_state_create(problem, sizeof(struct mw_host), s->name, host_setup,
	                                      mw_host_destroy);
	if (!h)
		return NULL;
	h->clock = clock;
	for (int p = 0; p < MW_PHASES; p++)
		if ((h->phase[p] = apod_phase_find(clock, mw_phases[p].name)) < 0) {
			mw_host_destroy(h);
			return NULL;
		}
	return h;
}

/* The program's reductions: the domain's mass and total energy, summed
 * cell by cell in its order. */
int mw_host_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct mw_host *h = ctx;
	const struct mw_problem *pb = h->pb;
	int nx = pb->nx, nz = pb->nz;
	double mass = 0, te = 0;
	(void)k;
	(void)step;
	(void)row;
	for (int kk = 0; kk < nz; kk++)
		for (int i = 0; i < nx; i++)
			mw_reduce_cell(h->state, pb, kk, i, &mass, &te);
	if (rows[0])
		((double *)rows[0])[0] = mass;
	if (rows[1])
		((double *)rows[1])[0] = te;
	return 0;
}

/* Array a of output()'s fields, (nz, nx), row by row. */
int mw_host_fetch(void *ctx, int a, void *dst)
{
	struct mw_host *h = ctx;
	const struct mw_problem *pb = h->pb;
	double *out = dst, f[4];
	for (int k = 0; k < pb->nz; k++)
		for (int i = 0; i < pb->nx; i++) {
			mw_output_cell(h->state, pb->hy_dens_cell, pb->hy_dens_theta_cell, pb->nx, pb->nz, k,
			               i, f);
			out[(long)k * pb->nx + i] = f[a];
		}
	return 0;
}

static const struct apod_stage_ops serial_ops = {
	.probe = mw_host_probe,
	.fetch = mw_host_fetch,
	.destroy = mw_host_destroy,
	.create_timed = mw_host_create,
	.advance = mw_serial_advance,
};

static const struct apod_stage_ops omp_ops = {
	APOD_OPS_OMP,
	.probe = mw_host_probe,
	.fetch = mw_host_fetch,
	.destroy = mw_host_destroy,
	.create_timed = mw_host_create,
	.advance = mw_omp_advance,
};

const struct apod_stage mw_stage_serial = {
	APOD_STAGE_SERIAL,
	.about = "the reference: miniWeather's serial loops, its own time step",
	.ops = &serial_ops,
};

const struct apod_stage mw_stage_omp = {
	APOD_STAGE_OMP,
	.about = "the same loops, each one's outer cell loop shared among the cores",
	.ports = "halo_x,tendencies_x,halo_z,tendencies_z,update",
	.ops = &omp_ops,
};

const struct apod_stage mw_stage_gpu = {
	.name = "gpu",
	.about = "the state resident on the device, one kernel a loop of the program's",
	.ports = "setup,halo_x,tendencies_x,halo_z,tendencies_z,update,reductions,fetchResults",
	.runs_on = APOD_RUNS_DEVICE,
	.needs = "CUDA (the Makefile builds it where it finds nvcc)",
#ifdef MW_GPU
	.ops = &mw_gpu_ops,
#endif
};
