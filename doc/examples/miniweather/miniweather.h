/*
 * miniweather.h: the miniweather example's parameters, its problem, and the
 * arithmetic of one cell or one interface, written once for every stage
 * (the host's C and nvcc's CUDA: APOD_HD).
 *
 * The program is miniWeather's serial C version (c/miniWeather_serial.cpp,
 * README.md says where from): dry, stratified, compressible, non-hydrostatic
 * flow in a 20 km x 10 km x-z slice, finite volumes with fourth-order
 * interpolation and hyperviscosity, periodic in x, solid walls in z.  Its
 * step is dimensionally split, x then z, the next step z then x, and each
 * direction is three Runge-Kutta sub-steps, each a halo fill, the
 * tendencies and an update.  The expressions below keep the program's
 * types and order, so the serial stage computes its bits.
 */
#ifndef MINIWEATHER_H
#define MINIWEATHER_H

#include <math.h>

#include <apod/apod_hd.h>
#include <apod/workload.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The program's constants, with its values and names (gamm: its gamma). */
#define MW_PI        3.14159265358979323846264338327
#define MW_GRAV      9.8
#define MW_CP        1004.
#define MW_CV        717.
#define MW_RD        287.
#define MW_P0        1.e5
#define MW_C0        27.5629410929725921310572974482
#define MW_GAMM      1.40027894002789400278940027894
#define MW_XLEN      2.e4
#define MW_ZLEN      1.e4
#define MW_HV_BETA   0.05
#define MW_CFL       1.50
#define MW_MAX_SPEED 450
#define MW_HS        2        /* halo cells each side */
#define MW_VARS      4        /* density, x and z momentum, density * potential temperature */
#define MW_DENS      0
#define MW_UMOM      1
#define MW_WMOM      2
#define MW_RHOT      3

/* The program's data_spec_int values, as the key's choices' order:
 * index + 1, except density_current, which the program numbers 5. */
enum mw_spec {
	MW_COLLISION = 1,
	MW_THERMAL = 2,
	MW_GRAVITY_WAVES = 3,
	MW_DENSITY_CURRENT = 5,
	MW_INJECTION = 6,
};

struct mw_params {
	long nx, nz;              /* the program's nx_glob, nz_glob */
	double sim_time;          /* model seconds to simulate */
	int spec;                 /* the key's choice index (mw_spec_of turns it into data_spec_int) */
	long stats_every;         /* the reductions probe, in steps */
	char name[APOD_NAME_MAX];
};

/* The step phases: the program's semi_discrete_step cut where it calls its
 * functions (set_halo_values_x/z, compute_tendencies_x/z) and where it
 * applies the tendencies.  They index the workload's table (workload.c),
 * whose names the stages look their clock handles up by. */
enum mw_phase { MW_HALO_X, MW_TEND_X, MW_HALO_Z, MW_TEND_Z, MW_UPDATE, MW_PHASES };
extern const struct apod_phase mw_phases[MW_PHASES + 1];

/* Built once on the host (problem_create: the program's init); every
 * stage reads it, none writes it. */
struct mw_problem {
	int nx, nz, data_spec;
	double dx, dz, dt, sim_time;
	long steps;               /* the program's own: how often its while loop runs */
	double *state;            /* (NUM_VARS, nz+2hs, nx+2hs), halos included, as init leaves it */
	double *hy_dens_cell, *hy_dens_theta_cell;           /* nz+2hs */
	double *hy_dens_int, *hy_dens_theta_int, *hy_pressure_int;   /* nz+1 */
};

int mw_spec_of(int choice);
/* The program's time loop without the work: how often it runs. */
long mw_count_steps(double dt, double sim_time);

/* Offsets into the state (with halos), the fluxes and the tendencies. */
APOD_HD long mw_ind_state(int nx, int nz, int ll, int k, int i)
{
	return (long)ll * (nz + 2 * MW_HS) * (nx + 2 * MW_HS) + (long)k * (nx + 2 * MW_HS) + i;
}

APOD_HD long mw_ind_flux(int nx, int nz, int ll, int k, int i)
{
	return (long)ll * (nz + 1) * (nx + 1) + (long)k * (nx + 1) + i;
}

APOD_HD long mw_ind_tend(int nx, int nz, int ll, int k, int i)
{
	return (long)ll * nz * nx + (long)k * nx + i;
}

/* The interpolation at one interface: for each variable, the four cells
 * of its stencil (at state[ll*vstride + base + s*sstride]) give the
 * fourth-order value and the third derivative, as the program writes them. */
APOD_HD void mw_interpolate(const double *state, long base, long sstride, long vstride,
                            double vals[MW_VARS], double d3_vals[MW_VARS])
{
	for (int ll = 0; ll < MW_VARS; ll++) {
		double stencil[4];
		for (int s = 0; s < 4; s++)
			stencil[s] = state[ll * vstride + base + s * sstride];
		vals[ll] = -stencil[0] / 12 + 7 * stencil[1] / 12 + 7 * stencil[2] / 12 - stencil[3] / 12;
		d3_vals[ll] = -stencil[0] + 3 * stencil[1] - 3 * stencil[2] + stencil[3];
	}
}

/* compute_tendencies_x's flux at interface i of row k. */
APOD_HD void mw_flux_x(const double *state, int nx, int nz, int k, int i, double hy_dens,
                       double hy_dens_theta, double hv_coef, double *flux)
{
	double vals[MW_VARS], d3_vals[MW_VARS], r, u, w, t, p;
	long vstride = (long)(nz + 2 * MW_HS) * (nx + 2 * MW_HS);
	mw_interpolate(state, mw_ind_state(nx, nz, 0, k + MW_HS, i), 1, vstride, vals, d3_vals);
	r = vals[MW_DENS] + hy_dens;
	u = vals[MW_UMOM] / r;
	w = vals[MW_WMOM] / r;
	t = (vals[MW_RHOT] + hy_dens_theta) / r;
	p = MW_C0 * pow((r * t), MW_GAMM);
	flux[mw_ind_flux(nx, nz, MW_DENS, k, i)] = r * u - hv_coef * d3_vals[MW_DENS];
	flux[mw_ind_flux(nx, nz, MW_UMOM, k, i)] = r * u * u + p - hv_coef * d3_vals[MW_UMOM];
	flux[mw_ind_flux(nx, nz, MW_WMOM, k, i)] = r * u * w - hv_coef * d3_vals[MW_WMOM];
	flux[mw_ind_flux(nx, nz, MW_RHOT, k, i)] = r * u * t - hv_coef * d3_vals[MW_RHOT];
}

/* compute_tendencies_z's flux at interface k of column i: the background
 * at the interfaces, no flow and no mass diffusion through the walls. */
APOD_HD void mw_flux_z(const double *state, int nx, int nz, int k, int i, double hy_dens,
                       double hy_dens_theta, double hy_pressure, double hv_coef, double *flux)
{
	double vals[MW_VARS], d3_vals[MW_VARS], r, u, w, t, p;
	long vstride = (long)(nz + 2 * MW_HS) * (nx + 2 * MW_HS);
	mw_interpolate(state, mw_ind_state(nx, nz, 0, k, i + MW_HS), nx + 2 * MW_HS, vstride, vals,
	               d3_vals);
	r = vals[MW_DENS] + hy_dens;
	u = vals[MW_UMOM] / r;
	w = vals[MW_WMOM] / r;
	t = (vals[MW_RHOT] + hy_dens_theta) / r;
	p = MW_C0 * pow((r * t), MW_GAMM) - hy_pressure;
	if (k == 0 || k == nz) {
		w = 0;
		d3_vals[MW_DENS] = 0;
	}
	flux[mw_ind_flux(nx, nz, MW_DENS, k, i)] = r * w - hv_coef * d3_vals[MW_DENS];
	flux[mw_ind_flux(nx, nz, MW_UMOM, k, i)] = r * w * u - hv_coef * d3_vals[MW_UMOM];
	flux[mw_ind_flux(nx, nz, MW_WMOM, k, i)] = r * w * w + p - hv_coef * d3_vals[MW_WMOM];
	flux[mw_ind_flux(nx, nz, MW_RHOT, k, i)] = r * w * t - hv_coef * d3_vals[MW_RHOT];
}

/* The tendency of variable ll at cell (k, i) from its two fluxes; in z the
 * vertical momentum also feels gravity. */
APOD_HD double mw_tend_x(const double *flux, int nx, int nz, int ll, int k, int i, double dx)
{
	return -(flux[mw_ind_flux(nx, nz, ll, k, i + 1)] - flux[mw_ind_flux(nx, nz, ll, k, i)]) / dx;
}

APOD_HD double mw_tend_z(const double *flux, const double *state, int nx, int nz, int ll, int k,
                         int i, double dz)
{
	double tend = -(flux[mw_ind_flux(nx, nz, ll, k + 1, i)] - flux[mw_ind_flux(nx, nz, ll, k, i)]) /
	              dz;
	if (ll == MW_WMOM)
		tend = tend - state[mw_ind_state(nx, nz, MW_DENS, k + MW_HS, i + MW_HS)] * MW_GRAV;
	return tend;
}

/* The gravity-wave case's forcing of w at cell (k, i): the program's
 * sample_ellipse_cosine, inlined as it inlines it. */
APOD_HD double mw_wpert(int k, int i, double dx, double dz)
{
	double x = (0 + i + 0.5) * dx, z = (0 + k + 0.5) * dz;
	double x0 = MW_XLEN / 8, z0 = 1000, xrad = 500, zrad = 500, amp = 0.01, dist;
	dist = sqrt(((x - x0) / xrad) * ((x - x0) / xrad) + ((z - z0) / zrad) * ((z - z0) / zrad)) *
	       MW_PI / 2.;
	if (dist <= MW_PI / 2.)
		return amp * pow(cos(dist), 2.);
	return 0.;
}

/* The update of variable ll at cell (k, i).  The gravity-wave forcing is
 * added to w's tendency of the cell in every pass over the variables (the
 * program adds it inside its loop over them), so w is updated with three
 * additions and the tendency keeps a fourth: kept, as the program computes
 * it.  Only this cell's w tendency is touched, so the passes must run in
 * order (ll = 0..3) for each cell, and cells may run in any order. */
APOD_HD void mw_update(const double *state_init, double *state_out, double *tend, int nx, int nz,
                       int ll, int k, int i, double dt, int gravity_waves, double hy_dens,
                       double dx, double dz)
{
	long inds = mw_ind_state(nx, nz, ll, k + MW_HS, i + MW_HS);
	long indt = mw_ind_tend(nx, nz, ll, k, i);
	if (gravity_waves)
		tend[mw_ind_tend(nx, nz, MW_WMOM, k, i)] += mw_wpert(k, i, dx, dz) * hy_dens;
	state_out[inds] = state_init[inds] + dt * tend[indt];
}

/* set_halo_values_x's periodic copy for variable ll, row k (k counted in
 * the interior). */
APOD_HD void mw_halo_x_row(double *state, int nx, int nz, int ll, int k)
{
	long row = mw_ind_state(nx, nz, ll, k + MW_HS, 0);
	state[row + 0] = state[row + nx + MW_HS - 2];
	state[row + 1] = state[row + nx + MW_HS - 1];
	state[row + nx + MW_HS] = state[row + MW_HS];
	state[row + nx + MW_HS + 1] = state[row + MW_HS + 1];
}

/* The injection case's inflow at halo column i of row k. */
APOD_HD void mw_inject(double *state, int nx, int nz, int k, int i, double dz, double hy_dens,
                       double hy_dens_theta)
{
	double z = (0 + k + 0.5) * dz;
	if (fabs(z - 3 * MW_ZLEN / 4) <= MW_ZLEN / 16) {
		long ind_r = mw_ind_state(nx, nz, MW_DENS, k + MW_HS, i);
		long ind_u = mw_ind_state(nx, nz, MW_UMOM, k + MW_HS, i);
		long ind_t = mw_ind_state(nx, nz, MW_RHOT, k + MW_HS, i);
		state[ind_u] = (state[ind_r] + hy_dens) * 50.;
		state[ind_t] = (state[ind_r] + hy_dens) * 298. - hy_dens_theta;
	}
}

/* set_halo_values_z for variable ll, column i (halos included): walls. */
APOD_HD void mw_halo_z_col(double *state, const double *hy_dens_cell, int nx, int nz, int ll,
                           int i)
{
	long b0 = mw_ind_state(nx, nz, ll, 0, i), b1 = mw_ind_state(nx, nz, ll, 1, i);
	long t0 = mw_ind_state(nx, nz, ll, nz + MW_HS, i), t1 = mw_ind_state(nx, nz, ll, nz + MW_HS + 1, i);
	long bi = mw_ind_state(nx, nz, ll, MW_HS, i), ti = mw_ind_state(nx, nz, ll, nz + MW_HS - 1, i);
	if (ll == MW_WMOM) {
		state[b0] = 0.;
		state[b1] = 0.;
		state[t0] = 0.;
		state[t1] = 0.;
	} else if (ll == MW_UMOM) {
		state[b0] = state[bi] / hy_dens_cell[MW_HS] * hy_dens_cell[0];
		state[b1] = state[bi] / hy_dens_cell[MW_HS] * hy_dens_cell[1];
		state[t0] = state[ti] / hy_dens_cell[nz + MW_HS - 1] * hy_dens_cell[nz + MW_HS];
		state[t1] = state[ti] / hy_dens_cell[nz + MW_HS - 1] * hy_dens_cell[nz + MW_HS + 1];
	} else {
		state[b0] = state[bi];
		state[b1] = state[bi];
		state[t0] = state[ti];
		state[t1] = state[ti];
	}
}

/* output()'s four fields at cell (k, i): the perturbation density, the two
 * winds and the perturbation potential temperature. */
APOD_HD void mw_output_cell(const double *state, const double *hy_dens_cell,
                            const double *hy_dens_theta_cell, int nx, int nz, int k, int i,
                            double out[4])
{
	double r = state[mw_ind_state(nx, nz, MW_DENS, k + MW_HS, i + MW_HS)];
	double hr = hy_dens_cell[k + MW_HS], ht = hy_dens_theta_cell[k + MW_HS];
	out[0] = r;
	out[1] = state[mw_ind_state(nx, nz, MW_UMOM, k + MW_HS, i + MW_HS)] / (hr + r);
	out[2] = state[mw_ind_state(nx, nz, MW_WMOM, k + MW_HS, i + MW_HS)] / (hr + r);
	out[3] = (state[mw_ind_state(nx, nz, MW_RHOT, k + MW_HS, i + MW_HS)] + ht) / (hr + r) - ht / hr;
}

/* The program's reductions at cell (k, i): its mass and total energy
 * (kinetic and internal), added to the running sums in its order. */
APOD_HD void mw_reduce_cell(const double *state, const struct mw_problem *pb, int k, int i,
                            double *mass, double *te)
{
	int nx = pb->nx, nz = pb->nz;
	double r = state[mw_ind_state(nx, nz, MW_DENS, k + MW_HS, i + MW_HS)] + pb->hy_dens_cell[MW_HS + k];
	double u = state[mw_ind_state(nx, nz, MW_UMOM, k + MW_HS, i + MW_HS)] / r;
	double w = state[mw_ind_state(nx, nz, MW_WMOM, k + MW_HS, i + MW_HS)] / r;
	double th = (state[mw_ind_state(nx, nz, MW_RHOT, k + MW_HS, i + MW_HS)] +
	             pb->hy_dens_theta_cell[MW_HS + k]) / r;
	double p = MW_C0 * pow(r * th, MW_GAMM);
	double t = th / pow(MW_P0 / p, MW_RD / MW_CP);
	double ke = r * (u * u + w * w);
	double ie = r * MW_CV * t;
	*mass += r * pb->dx * pb->dz;
	*te += (ke + ie) * pb->dx * pb->dz;
}

/* workload.c: the program's step count for a deck, and the background's
 * scales for the tolerances: its density, rho*theta and pressure at the
 * ground (their largest) and its density at the top (its least). */
long mw_steps(const struct mw_params *p);
struct mw_scales {
	double max_dens, max_rhot, max_pressure, min_dens;
};
void mw_scales_of(const struct mw_params *p, struct mw_scales *sc);

/* tolerances.c: what the gate allows each output at the step it judges
 * (the workload's tolerance_at). */
void mw_tolerance_at(const void *params, const void *problem, const char *output, long step,
                     long row, int any_float, int column, enum apod_compare kind,
                     struct apod_tol *t);

extern const struct apod_workload mw_workload;
extern const struct apod_stage mw_stage_serial, mw_stage_omp, mw_stage_gpu;
#ifdef MW_GPU
extern const struct apod_stage_ops mw_gpu_ops;   /* stage_gpu.cu */
#endif

#ifdef __cplusplus
}
#endif

#endif
