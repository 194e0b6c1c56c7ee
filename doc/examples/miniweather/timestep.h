/*
 * timestep.h: the program's time step, its loops as it writes them, for a
 * host stage.  Included by stage_serial.c (MW_PARALLEL and MW_FOR empty:
 * the program itself) and stage_omp.c (each function of the program's one
 * OpenMP parallel region, each of its outer cell loops shared among the
 * threads), which name the step function MW_ADVANCE.  Every cell and
 * interface is computed by one iteration that reads only what an earlier
 * loop wrote (each shared loop ends at a barrier), so the iterations may
 * run in any order, on any thread, and give the same bits.
 *
 * The phases are marked where the program's semi_discrete_step calls its
 * parts: per step, three halo fills, three tendencies and three updates in
 * one direction, then the same in the other, the order of the directions
 * flipped from one step to the next.
 */
#include <apod/apod.h>

#include "host.h"

enum { DIR_X = 1, DIR_Z = 2 };

/* Open and close a region of the clock around one call of the program's. */
#define MW_REGION(h, p, call)                                                 \
	do {                                                                  \
		if (apod_phase_begin((h)->clock, (h)->phase[p]))              \
			return -1;                                            \
		call;                                                         \
		if (apod_phase_end((h)->clock, (h)->phase[p]))                \
			return -1;                                            \
	} while (0)

static void set_halo_values_x(const struct mw_host *h, double *state)
{
	const struct mw_problem *pb = h->pb;
	int nx = pb->nx, nz = pb->nz;
	MW_PARALLEL
	{
		for (int ll = 0; ll < MW_VARS; ll++) {
			MW_FOR
			for (int k = 0; k < nz; k++)
				mw_halo_x_row(state, nx, nz, ll, k);
		}
		if (pb->data_spec == MW_INJECTION) {
			MW_FOR
			for (int k = 0; k < nz; k++)
				for (int i = 0; i < MW_HS; i++)
					mw_inject(state, nx, nz, k, i, pb->dz, pb->hy_dens_cell[k + MW_HS],
					          pb->hy_dens_theta_cell[k + MW_HS]);
		}
	}
}

static void set_halo_values_z(const struct mw_host *h, double *state)
{
	const struct mw_problem *pb = h->pb;
	int nx = pb->nx, nz = pb->nz;
	MW_PARALLEL
	for (int ll = 0; ll < MW_VARS; ll++) {
		MW_FOR
		for (int i = 0; i < nx + 2 * MW_HS; i++)
			mw_halo_z_col(state, pb->hy_dens_cell, nx, nz, ll, i);
	}
}

static void compute_tendencies_x(const struct mw_host *h, const double *state, double *flux,
                                 double *tend, double dt)
{
	const struct mw_problem *pb = h->pb;
	int nx = pb->nx, nz = pb->nz;
	double hv_coef = -MW_HV_BETA * pb->dx / (16 * dt);
	MW_PARALLEL
	{
		MW_FOR
		for (int k = 0; k < nz; k++)
			for (int i = 0; i < nx + 1; i++)
				mw_flux_x(state, nx, nz, k, i, pb->hy_dens_cell[k + MW_HS],
				          pb->hy_dens_theta_cell[k + MW_HS], hv_coef, flux);
		for (int ll = 0; ll < MW_VARS; ll++) {
			MW_FOR
			for (int k = 0; k < nz; k++)
				for (int i = 0; i < nx; i++)
					tend[mw_ind_tend(nx, nz, ll, k, i)] =
						mw_tend_x(flux, nx, nz, ll, k, i, pb->dx);
		}
	}
}

static void compute_tendencies_z(const struct mw_host *h, const double *state, double *flux,
                                 double *tend, double dt)
{
	const struct mw_problem *pb = h->pb;
	int nx = pb->nx, nz = pb->nz;
	double hv_coef = -MW_HV_BETA * pb->dz / (16 * dt);
	MW_PARALLEL
	{
		MW_FOR
		for (int k = 0; k < nz + 1; k++)
			for (int i = 0; i < nx; i++)
				mw_flux_z(state, nx, nz, k, i, pb->hy_dens_int[k], pb->hy_dens_theta_int[k],
				          pb->hy_pressure_int[k], hv_coef, flux);
		for (int ll = 0; ll < MW_VARS; ll++) {
			MW_FOR
			for (int k = 0; k < nz; k++)
				for (int i = 0; i < nx; i++)
					tend[mw_ind_tend(nx, nz, ll, k, i)] =
						mw_tend_z(flux, state, nx, nz, ll, k, i, pb->dz);
		}
	}
}

/* The update, the program's loop over the variables outermost: with the
 * gravity-wave forcing, each pass adds to w's tendency of the cell it
 * visits, and the passes run one after another (a barrier between). */
static void apply_tendencies(const struct mw_host *h, const double *state_init,
                             double *state_out, double dt)
{
	const struct mw_problem *pb = h->pb;
	int nx = pb->nx, nz = pb->nz, gw = pb->data_spec == MW_GRAVITY_WAVES;
	double *tend = h->tend;
	MW_PARALLEL
	for (int ll = 0; ll < MW_VARS; ll++) {
		MW_FOR
		for (int k = 0; k < nz; k++)
			for (int i = 0; i < nx; i++)
				mw_update(state_init, state_out, tend, nx, nz, ll, k, i, dt, gw,
				          pb->hy_dens_cell[MW_HS + k], pb->dx, pb->dz);
	}
}

/* state_out = state_init + dt * rhs(state_forcing), in direction dir. */
static int semi_discrete_step(struct mw_host *h, const double *state_init, double *state_forcing,
                              double *state_out, double dt, int dir)
{
	if (dir == DIR_X) {
		MW_REGION(h, MW_HALO_X, set_halo_values_x(h, state_forcing));
		MW_REGION(h, MW_TEND_X, compute_tendencies_x(h, state_forcing, h->flux, h->tend, dt));
	} else {
		MW_REGION(h, MW_HALO_Z, set_halo_values_z(h, state_forcing));
		MW_REGION(h, MW_TEND_Z, compute_tendencies_z(h, state_forcing, h->flux, h->tend, dt));
	}
	MW_REGION(h, MW_UPDATE, apply_tendencies(h, state_init, state_out, dt));
	return 0;
}

/* The program's perform_timestep: Strang splitting with the order of the
 * directions alternated, each direction three Runge-Kutta stages. */
static int perform_timestep(struct mw_host *h, double dt)
{
	double *state = h->state, *state_tmp = h->state_tmp;
	if (h->direction_switch) {
		/* x first */
		if (semi_discrete_step(h, state, state, state_tmp, dt / 3, DIR_X) ||
		    semi_discrete_step(h, state, state_tmp, state_tmp, dt / 2, DIR_X) ||
		    semi_discrete_step(h, state, state_tmp, state, dt / 1, DIR_X) ||
		    semi_discrete_step(h, state, state, state_tmp, dt / 3, DIR_Z) ||
		    semi_discrete_step(h, state, state_tmp, state_tmp, dt / 2, DIR_Z) ||
		    semi_discrete_step(h, state, state_tmp, state, dt / 1, DIR_Z))
			return -1;
	} else {
		/* z first */
		if (semi_discrete_step(h, state, state, state_tmp, dt / 3, DIR_Z) ||
		    semi_discrete_step(h, state, state_tmp, state_tmp, dt / 2, DIR_Z) ||
		    semi_discrete_step(h, state, state_tmp, state, dt / 1, DIR_Z) ||
		    semi_discrete_step(h, state, state, state_tmp, dt / 3, DIR_X) ||
		    semi_discrete_step(h, state, state_tmp, state_tmp, dt / 2, DIR_X) ||
		    semi_discrete_step(h, state, state_tmp, state, dt / 1, DIR_X))
			return -1;
	}
	if (h->direction_switch)
		h->direction_switch = 0;
	else
		h->direction_switch = 1;
	return 0;
}

/* One pass of the program's main loop: the last step shortened to end at
 * sim_time, the step, the elapsed time.  (Its output() is the harness's:
 * the arrays at the end, the reductions where the probe is due.) */
int MW_ADVANCE(void *ctx, long step, long steps)
{
	struct mw_host *h = ctx;
	(void)step;
	(void)steps;
	if (h->etime + h->dt > h->pb->sim_time)
		h->dt = h->pb->sim_time - h->etime;
	if (perform_timestep(h, h->dt))
		return -1;
	h->etime = h->etime + h->dt;
	return 0;
}
