/*
 * workload.c: the miniweather example declared to the harness: its keys
 * (the program's compile-time configuration), its problem (the program's
 * init), the phases its step marks, the reductions probe and output()'s
 * fields, the tolerances the gate holds every stage to, and the work of
 * one occurrence of each phase.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <apod/apod.h>
#include <apod/ready_made.h>

#include "miniweather.h"

#define MW_MAX_CELLS (1L << 16)
#define MW_MAX_STEPS 10000000L

/* The program's DATA_SPEC_* cases, in the order of its numbers. */
static const char *const spec_names[] = {
	"collision", "thermal", "gravity_waves", "density_current", "injection", NULL,
};
static const int spec_numbers[] = {
	MW_COLLISION, MW_THERMAL, MW_GRAVITY_WAVES, MW_DENSITY_CURRENT, MW_INJECTION,
};

int mw_spec_of(int choice)
{
	return spec_numbers[choice];
}

/* The defaults are the program's CMake defaults (NX=100, NZ=50,
 * SIM_TIME=1000, DATA_SPEC_THERMAL); its output every OUT_FREQ seconds is
 * the harness's: the fields at the end, the reductions where stats_every
 * says. */
static const struct apod_param keys[] = {
	APOD_KEY_NAME(struct mw_params, name, "miniweather"),
	{ .key = "nx", .type = APOD_PARAM_INT, .def = "100", .lo = 4, .hi = MW_MAX_CELLS,
	  .offset = offsetof(struct mw_params, nx),
	  .help = "cells in x (the program's nx_glob; twice nz keeps dx = dz)" },
	{ .key = "nz", .type = APOD_PARAM_INT, .def = "50", .lo = 4, .hi = MW_MAX_CELLS,
	  .offset = offsetof(struct mw_params, nz), .help = "cells in z (the program's nz_glob)" },
	{ .key = "sim_time", .type = APOD_PARAM_REAL, .def = "1000", .lo = 0, .lo_open = 1,
	  .hi = 1e7, .offset = offsetof(struct mw_params, sim_time),
	  .help = "model seconds to simulate (the steps follow from it: the program's loop)" },
	{ .key = "data_spec", .type = APOD_PARAM_CHOICE, .def = "thermal",
	  .offset = offsetof(struct mw_params, spec), .choices = spec_names,
	  .help = "the initial state: the program's DATA_SPEC_* cases" },
	{ .key = "stats_every", .type = APOD_PARAM_INT, .def = "0", .lo = 0, .hi = MW_MAX_STEPS,
	  .offset = offsetof(struct mw_params, stats_every),
	  .help = "reductions (mass and total energy) every K steps, besides step 0 and the end "
	          "(0: only those)" },
	{ .key = NULL },
};

static double grid_dt(const struct mw_params *p, double *dx, double *dz)
{
	*dx = MW_XLEN / p->nx;
	*dz = MW_ZLEN / p->nz;
	return (*dx < *dz ? *dx : *dz) / MW_MAX_SPEED * MW_CFL;
}

long mw_count_steps(double dt, double sim_time)
{
	double etime = 0.;
	long n = 0;
	while (etime < sim_time) {
		if (etime + dt > sim_time)
			dt = sim_time - etime;
		etime = etime + dt;
		n++;
	}
	return n;
}

/* Every stage's arrays at the peak: two states with halos, the fluxes and
 * the tendencies (the stage's), the problem's state, and the harness's
 * four fetched fields. */
static size_t run_bytes(const struct mw_params *p)
{
	double cells = (double)(p->nx + 2 * MW_HS) * (double)(p->nz + 2 * MW_HS);
	double bytes = 8.0 * (3 * MW_VARS * cells + 2 * MW_VARS * cells + 4.0 * p->nx * p->nz);
	return bytes < (double)SIZE_MAX / 2 ? (size_t)bytes : 0;
}

static int check(const void *params)
{
	const struct mw_params *p = params;
	double dx, dz, dt = grid_dt(p, &dx, &dz);
	if (p->sim_time / dt > MW_MAX_STEPS)
		return apod_usage_fail("sim_time = %g s at dt = %g s is more than %ld steps", p->sim_time,
		                       dt, MW_MAX_STEPS);
	return apod_fits_in_memory(run_bytes(p), "a %ld x %ld grid", p->nx, p->nz);
}

long mw_steps(const struct mw_params *p)
{
	double dx, dz;
	return mw_count_steps(grid_dt(p, &dx, &dz), p->sim_time);
}

static long steps(const void *params)
{
	return mw_steps(params);
}

APOD_PARAM_LONG(stats_every, struct mw_params, stats_every)
APOD_PARAM_TEXT(title, struct mw_params, name)

/* ---- the program's initial states ---------------------------------------
 * Its functions, with its expressions: x and z in, the perturbation (r, u,
 * w, t) and the hydrostatic background (hr, ht) out. */

static double sample_ellipse_cosine(double x, double z, double amp, double x0, double z0,
                                    double xrad, double zrad)
{
	double dist = sqrt(((x - x0) / xrad) * ((x - x0) / xrad) + ((z - z0) / zrad) * ((z - z0) / zrad)) *
	              MW_PI / 2.;
	if (dist <= MW_PI / 2.)
		return amp * pow(cos(dist), 2.);
	return 0.;
}

/* A neutral atmosphere: constant potential temperature. */
static void hydro_const_theta(double z, double *r, double *t)
{
	const double theta0 = 300., exner0 = 1.;
	double p, exner, rt;
	*t = theta0;
	exner = exner0 - MW_GRAV * z / (MW_CP * theta0);
	p = MW_P0 * pow(exner, (MW_CP / MW_RD));
	rt = pow((p / MW_C0), (1. / MW_GAMM));
	*r = rt / *t;
}

/* A stable atmosphere: constant Brunt-Vaisala frequency. */
static void hydro_const_bvfreq(double z, double bv_freq0, double *r, double *t)
{
	const double theta0 = 300., exner0 = 1.;
	double p, exner, rt;
	*t = theta0 * exp(bv_freq0 * bv_freq0 / MW_GRAV * z);
	exner = exner0 - MW_GRAV * MW_GRAV / (MW_CP * bv_freq0 * bv_freq0) * (*t - theta0) / (*t * theta0);
	p = MW_P0 * pow(exner, (MW_CP / MW_RD));
	rt = pow((p / MW_C0), (1. / MW_GAMM));
	*r = rt / *t;
}

struct sample {
	double r, u, w, t, hr, ht;
};

static void initial(int spec, double x, double z, struct sample *s)
{
	if (spec == MW_GRAVITY_WAVES)
		hydro_const_bvfreq(z, 0.02, &s->hr, &s->ht);
	else
		hydro_const_theta(z, &s->hr, &s->ht);
	s->r = 0.;
	s->t = 0.;
	s->u = spec == MW_GRAVITY_WAVES ? 15. : 0.;
	s->w = 0.;
	if (spec == MW_COLLISION) {
		s->t = s->t + sample_ellipse_cosine(x, z, 20., MW_XLEN / 2, 2000., 2000., 2000.);
		s->t = s->t + sample_ellipse_cosine(x, z, -20., MW_XLEN / 2, 8000., 2000., 2000.);
	} else if (spec == MW_THERMAL)
		s->t = s->t + sample_ellipse_cosine(x, z, 3., MW_XLEN / 2, 2000., 2000., 2000.);
	else if (spec == MW_DENSITY_CURRENT)
		s->t = s->t + sample_ellipse_cosine(x, z, -20., MW_XLEN / 2, 5000., 4000., 2000.);
}

/* The background decreases with height in every case (hydrostatic
 * balance): its largest values are the ground's, its least density the
 * top's. */
void mw_scales_of(const struct mw_params *p, struct mw_scales *sc)
{
	struct sample s;
	initial(mw_spec_of(p->spec), 0., 0., &s);
	sc->max_dens = s.hr;
	sc->max_rhot = s.hr * s.ht;
	sc->max_pressure = MW_C0 * pow(s.hr * s.ht, MW_GAMM);
	initial(mw_spec_of(p->spec), 0., MW_ZLEN, &s);
	sc->min_dens = s.hr;
}

static void problem_destroy(void *problem)
{
	struct mw_problem *pb = problem;
	if (!pb)
		return;
	free(pb->state);
	free(pb->hy_dens_cell);
	free(pb->hy_dens_theta_cell);
	free(pb->hy_dens_int);
	free(pb->hy_dens_theta_int);
	free(pb->hy_pressure_int);
	free(pb);
}

static const double qpoints[] = { 0.112701665379258311482073460022E0, 0.500000000000000000000000000000E0,
                                  0.887298334620741688517926539980E0 };
static const double qweights[] = { 0.277777777777777777777777777779E0, 0.444444444444444444444444444444E0,
                                   0.277777777777777777777777777779E0 };

/* The program's init: cell averages by 3 x 3 Gauss-Legendre quadrature,
 * halos included, and the hydrostatic background at cell centres and
 * interfaces. */
static void *problem_create(const void *params)
{
	const struct mw_params *p = params;
	struct mw_problem *pb = calloc(1, sizeof *pb);
	int nx, nz;
	size_t cells;
	struct sample s;
	if (!pb)
		goto nomem;
	pb->nx = nx = (int)p->nx;
	pb->nz = nz = (int)p->nz;
	pb->data_spec = mw_spec_of(p->spec);
	pb->dt = grid_dt(p, &pb->dx, &pb->dz);
	pb->sim_time = p->sim_time;
	pb->steps = mw_count_steps(pb->dt, pb->sim_time);
	cells = (size_t)(nx + 2 * MW_HS) * (size_t)(nz + 2 * MW_HS);
	pb->state = malloc(MW_VARS * cells * sizeof(double));
	pb->hy_dens_cell = malloc((size_t)(nz + 2 * MW_HS) * sizeof(double));
	pb->hy_dens_theta_cell = malloc((size_t)(nz + 2 * MW_HS) * sizeof(double));
	pb->hy_dens_int = malloc((size_t)(nz + 1) * sizeof(double));
	pb->hy_dens_theta_int = malloc((size_t)(nz + 1) * sizeof(double));
	pb->hy_pressure_int = malloc((size_t)(nz + 1) * sizeof(double));
	if (!pb->state || !pb->hy_dens_cell || !pb->hy_dens_theta_cell || !pb->hy_dens_int ||
	    !pb->hy_dens_theta_int || !pb->hy_pressure_int)
		goto nomem;
	for (int k = 0; k < nz + 2 * MW_HS; k++)
		for (int i = 0; i < nx + 2 * MW_HS; i++) {
			double *st = pb->state;
			for (int ll = 0; ll < MW_VARS; ll++)
				st[mw_ind_state(nx, nz, ll, k, i)] = 0.;
			for (int kk = 0; kk < 3; kk++)
				for (int ii = 0; ii < 3; ii++) {
					double x = (0 + i - MW_HS + 0.5) * pb->dx + (qpoints[ii] - 0.5) * pb->dx;
					double z = (0 + k - MW_HS + 0.5) * pb->dz + (qpoints[kk] - 0.5) * pb->dz;
					long ind;
					initial(pb->data_spec, x, z, &s);
					ind = mw_ind_state(nx, nz, MW_DENS, k, i);
					st[ind] = st[ind] + s.r * qweights[ii] * qweights[kk];
					ind = mw_ind_state(nx, nz, MW_UMOM, k, i);
					st[ind] = st[ind] + (s.r + s.hr) * s.u * qweights[ii] * qweights[kk];
					ind = mw_ind_state(nx, nz, MW_WMOM, k, i);
					st[ind] = st[ind] + (s.r + s.hr) * s.w * qweights[ii] * qweights[kk];
					ind = mw_ind_state(nx, nz, MW_RHOT, k, i);
					st[ind] = st[ind] + ((s.r + s.hr) * (s.t + s.ht) - s.hr * s.ht) * qweights[ii] *
					                    qweights[kk];
				}
		}
	for (int k = 0; k < nz + 2 * MW_HS; k++) {
		pb->hy_dens_cell[k] = 0.;
		pb->hy_dens_theta_cell[k] = 0.;
		for (int kk = 0; kk < 3; kk++) {
			double z = (0 + k - MW_HS + 0.5) * pb->dz;
			initial(pb->data_spec, 0., z, &s);
			pb->hy_dens_cell[k] = pb->hy_dens_cell[k] + s.hr * qweights[kk];
			pb->hy_dens_theta_cell[k] = pb->hy_dens_theta_cell[k] + s.hr * s.ht * qweights[kk];
		}
	}
	for (int k = 0; k < nz + 1; k++) {
		double z = (0 + k) * pb->dz;
		initial(pb->data_spec, 0., z, &s);
		pb->hy_dens_int[k] = s.hr;
		pb->hy_dens_theta_int[k] = s.hr * s.ht;
		pb->hy_pressure_int[k] = MW_C0 * pow((s.hr * s.ht), MW_GAMM);
	}
	return pb;
nomem:
	problem_destroy(pb);
	apod_fail("miniweather: cannot allocate a %ld x %ld grid", p->nx, p->nz);
	return NULL;
}

/* ---- the work of one occurrence of each phase, for the speed of light ----
 *
 * What any stage must move and compute, counted from the program's
 * expressions (miniweather.h).  A tendencies phase must read the forcing
 * state (with the halo its stencil reaches) and write the tendencies; the
 * program also stores the fluxes between its two loops, which a stage could
 * fuse away, so they are not declared.  Per interface: the interpolation is
 * 14 flops a variable (4 divisions, 5 multiplications, 5 additions), the
 * primitive variables 5, the pressure 2 and one pow, the fluxes 16 (z: one
 * more, the background pressure); per cell, the tendency is 2 a variable
 * (z: 2 more, gravity).  update reads the initial state and the tendencies
 * and writes the state: 2 flops a variable.  A halo fill copies its halo
 * cells (z: a division and a multiplication for u's).  The reductions read
 * the state: 21 flops and two pows a cell.
 */
static int work(const void *params, const void *problem, const char *phase, struct apod_work *w)
{
	const struct mw_params *p = params;
	double nx = (double)p->nx, nz = (double)p->nz, cells = nx * nz;
	(void)problem;
	if (!strcmp(phase, "halo_x")) {
		w->bytes = 8.0 * MW_VARS * 2 * (2 * MW_HS) * nz;
	} else if (!strcmp(phase, "halo_z")) {
		w->bytes = 8.0 * MW_VARS * (nx + 2 * MW_HS) * (2 * MW_HS + 2);
		w->flops64 = 4 * (nx + 2 * MW_HS);
	} else if (!strcmp(phase, "tendencies_x")) {
		w->bytes = 8.0 * MW_VARS * ((nx + 2 * MW_HS) * nz + cells);
		w->flops64 = 79 * (nx + 1) * nz + 8 * cells;
		w->special = (nx + 1) * nz;
	} else if (!strcmp(phase, "tendencies_z")) {
		w->bytes = 8.0 * MW_VARS * (nx * (nz + 2 * MW_HS) + cells);
		w->flops64 = 80 * nx * (nz + 1) + 10 * cells;
		w->special = nx * (nz + 1);
	} else if (!strcmp(phase, "update")) {
		w->bytes = 8.0 * MW_VARS * 3 * cells;
		w->flops64 = 2.0 * MW_VARS * cells;
	} else if (!strcmp(phase, "reductions")) {
		w->bytes = 8.0 * MW_VARS * cells;
		w->flops64 = 21 * cells;
		w->special = 2 * cells;
	} else
		return 0;
	return 1;
}

const struct apod_phase mw_phases[MW_PHASES + 1] = {
	[MW_HALO_X] = { "halo_x" },
	[MW_TEND_X] = { "tendencies_x" },
	[MW_HALO_Z] = { "halo_z" },
	[MW_TEND_Z] = { "tendencies_z" },
	[MW_UPDATE] = { "update" },
	[MW_PHASES] = { NULL },
};

static const struct apod_probe probes[] = {
	{ .name = "reductions", .every = stats_every, .at = APOD_AT_START | APOD_AT_END },
	{ .name = NULL },
};

static int field_shape(const void *params, size_t dims[2])
{
	const struct mw_params *p = params;
	dims[0] = (size_t)p->nz;
	dims[1] = (size_t)p->nx;
	return 2;
}

/* output()'s four fields, in its order (the index is the fetch's a).  The
 * tolerances of these and of the series are tolerance_at's (tolerances.c). */
static const struct apod_array arrays[] = {
	{ .name = "dens", .shape = field_shape, .compare = APOD_COMPARE_CLOSE },
	{ .name = "uwnd", .shape = field_shape, .compare = APOD_COMPARE_CLOSE },
	{ .name = "wwnd", .shape = field_shape, .compare = APOD_COMPARE_CLOSE },
	{ .name = "theta", .shape = field_shape, .compare = APOD_COMPARE_CLOSE },
	{ .name = NULL },
};

static const struct apod_series series[] = {
	{ .name = "mass", .probe = "reductions", .column_names = "mass",
	  .compare = APOD_COMPARE_DRIFT },
	{ .name = "te", .probe = "reductions", .column_names = "te",
	  .compare = APOD_COMPARE_CLOSE },
	{ .name = NULL },
};

static const struct apod_stage *const stages[] = {
	&mw_stage_serial,
	&mw_stage_omp,
	&mw_stage_gpu,
	NULL,
};

const struct apod_workload mw_workload = {
	.version = APOD_WORKLOAD_VERSION,
	.name = "miniweather",
	.about = "miniWeather: a dry compressible atmosphere in an x-z slice, directionally split, "
	         "RK3",
	.params_size = sizeof(struct mw_params),
	.params = keys,
	.check = check,
	.steps = steps,
	.title = title,
	.problem_create = problem_create,
	.problem_destroy = problem_destroy,
	.phases = mw_phases,
	.probes = probes,
	.arrays = arrays,
	.series = series,
	.stages = stages,
	.work = work,
	.tolerance_at = mw_tolerance_at,
};
