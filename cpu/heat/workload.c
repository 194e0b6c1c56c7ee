/*
 * workload.c: heat, declared to the harness: its deck, its problem, its
 * probes (calcStats every stats_every steps, calcSummaryData every
 * summary_every), its outputs and the tolerances the gate holds them to.
 *
 * The reasoning behind each tolerance is in doc/verification.md; in short:
 * with alpha <= 1/4 every update is a convex combination, so the difference
 * between two implementations cannot grow from step to step except by what
 * each step's own rounding adds, at most about 10 units of roundoff of the
 * largest temperature.  After T steps cells may differ by 10*T*u*scale.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "heat.h"
#include "shared/heat/real.h"
#include "heat_stage.h"
#include "heat_workload.h"
#include "problem.h"

/* Roundings one cell update can contribute, in units of u*scale, for two
 * implementations together (5 each; see doc/verification.md). */
#define UPDATE_ROUNDING 10.0

struct heat_tolerance {
	double atol, rtol, moment_atol, var_atol, hist_frac, zone_atol;
};

static void design(const struct heat_deck *d, int any_float, struct heat_tolerance *t)
{
	double u = any_float ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
	double scale = heat_deck_scale(d);
	double range = heat_deck_tmax(d) - heat_deck_tmin(d);
	double lo, hi, width;
	heat_deck_hist_range(d, &lo, &hi);
	width = (hi - lo) / (double)d->hist_bins;
	if (scale == 0)
		scale = 1;
	t->atol = UPDATE_ROUNDING * (double)d->steps * u * scale;
	/* The last rounding of a value that is otherwise right. */
	t->rtol = 2 * u;
	/* A mean, minimum or maximum of values each within atol is within atol;
	 * the double sums add a relative 1e-12 at most at these sizes. */
	t->moment_atol = t->atol + 1e-12 * scale;
	/* var = mean((x - mean)^2): moving each x, and so the mean, by at most
	 * atol moves each deviation by at most 2*atol and its square by at most
	 * 4*range*atol + 4*atol^2.  The tight bound is smaller (the mean's move
	 * cancels to first order); 4*range*atol dominates the atol^2 terms. */
	t->var_atol = 4 * range * t->atol + 2 * t->atol * t->atol + 1e-12 * scale * scale;
	/* A cell changes bin only if it lies within atol of an edge.  With a
	 * density up to 4 times uniform near edges that is at most 4*2*atol/width
	 * of the cells, each moving one count out of a bin and into another. */
	t->hist_frac = fmin(1.0, 2 * 4 * 2 * t->atol / width);
	t->zone_atol = t->moment_atol;
}

/* The tolerances below are the same for every comparison they are asked
 * for (CLOSE, or COUNTS for the histogram) and need only the deck. */
static void field_tol(const void *params, const void *problem, int any_float, int column,
                      enum apod_compare kind, struct apod_tol *t)
{
	struct heat_tolerance h;
	(void)problem, (void)column, (void)kind;
	design(params, any_float, &h);
	t->atol = h.atol;
	t->rtol = h.rtol;
}

static void stats_tol(const void *params, const void *problem, int any_float, int column,
                      enum apod_compare kind, struct apod_tol *t)
{
	struct heat_tolerance h;
	(void)problem, (void)kind;
	design(params, any_float, &h);
	t->atol = column == 3 ? h.var_atol : h.moment_atol;   /* variance; mean, min, max */
}

static void hist_tol(const void *params, const void *problem, int any_float, int column,
                     enum apod_compare kind, struct apod_tol *t)
{
	const struct heat_deck *d = params;
	struct heat_tolerance h;
	(void)problem, (void)column, (void)kind;
	design(d, any_float, &h);
	t->frac = h.hist_frac;
	/* Every cell is counted once, in every step's histogram. */
	t->total = (double)d->size[0] * (double)d->size[1];
}

static void zones_tol(const void *params, const void *problem, int any_float, int column,
                      enum apod_compare kind, struct apod_tol *t)
{
	struct heat_tolerance h;
	(void)problem, (void)column, (void)kind;
	design(params, any_float, &h);
	t->atol = h.zone_atol;
}

static int field_shape(const void *params, size_t dims[2])
{
	const struct heat_deck *d = params;
	dims[0] = (size_t)d->size[1];   /* rows */
	dims[1] = (size_t)d->size[0];   /* columns */
	return 2;
}

static long stats_every(const void *params)
{
	return ((const struct heat_deck *)params)->stats_every;
}

APOD_PARAM_LONG(summary_every, struct heat_deck, summary_every)
APOD_PARAM_LONG(snapshot_every, struct heat_deck, snapshot_every)
APOD_PARAM_LONG(steps, struct heat_deck, steps)

/* The work of one occurrence of each phase, by its name (apod/workload.h).
 * A step must read the field once and write it once: 2 values a cell (8
 * bytes in float), and do heat_cell_update's 7 operations.  The statistics
 * and the zone means need no traffic of their own, since a stage can take
 * them in the same pass over the field as the step that wrote it (gpu4
 * fuses them): only their arithmetic in double, about 3 operations a cell
 * for the moments (a sum, a sum of squares) and 1 for a zone's sum; min,
 * max and the histogram's counts are comparisons and integers.  A stage
 * that keeps the field on the host and steps on a device carries it over
 * and back every step; every device stage carries it over once at setup
 * and home once at the end.  None of it depends on the data: the problem
 * is not needed. */
static int work(const void *params, const void *problem, const char *phase, struct apod_work *w)
{
	const struct heat_deck *d = params;
	double cells = (double)d->size[0] * (double)d->size[1];
	double field = cells * sizeof(heat_real);
	double *ops = sizeof(heat_real) == sizeof(double) ? &w->flops64 : &w->flops32;
	(void)problem;
	if (!strcmp(phase, APOD_PHASE_SETUP_NAME)) {
		w->bytes = field;
		w->h2d_bytes = field;
		return 1;
	}
	if (!strcmp(phase, "genTimeStep")) {
		w->bytes = 2 * field;
		*ops = 7 * cells;
		w->h2d_bytes = w->d2h_bytes = field;
		return 1;
	}
	if (!strcmp(phase, "calcStats")) {
		w->flops64 = 3 * cells;
		return 1;
	}
	if (!strcmp(phase, "calcSummaryData")) {
		w->flops64 = cells;
		return 1;
	}
	if (!strcmp(phase, APOD_PHASE_FETCH_NAME)) {
		w->bytes = field;
		w->d2h_bytes = field;
		return 1;
	}
	return 0;
}

static int bins(const void *params)
{
	return (int)((const struct heat_deck *)params)->hist_bins;
}

static int zones(const void *params)
{
	const struct heat_deck *d = params;
	return (int)(d->zones[0] * d->zones[1]);
}

APOD_PARAM_TEXT(title, struct heat_deck, name)

/* Weak scaling: factor times the rows, the columns as they are. */
static int grow(void *params, int factor)
{
	struct heat_deck *d = params;
	return apod_grow_count(&d->size[1], factor, HEAT_MAX_DIM, "heat", "rows") ? -1
	                                                                         : heat_deck_check(d);
}

static void *problem_create(const void *params)
{
	struct heat_problem *p = malloc(sizeof *p);
	if (!p) {
		apod_fail("heat: out of memory");
		return NULL;
	}
	if (heat_problem_init(p, params)) {
		free(p);
		return NULL;
	}
	return p;
}

static void problem_destroy(void *problem)
{
	if (!problem)
		return;
	heat_problem_free(problem);
	free(problem);
}

/* One step is one phase: the sweep. */
static const struct apod_phase phases[] = {
	{ .name = "genTimeStep" },
	{ .name = NULL },
};

/* Only every K steps (at = 0: no row at step 0 or at the end). */
static const struct apod_probe probes[] = {
	[HEAT_PROBE_STATS] = { .name = "calcStats", .every = stats_every },
	[HEAT_PROBE_SUMMARY] = { .name = "calcSummaryData", .every = summary_every },
	{ .name = NULL },
};

static const struct apod_array arrays[] = {
	{ .name = "field", .dtype = sizeof(heat_real) == sizeof(double) ? APOD_F64 : APOD_F32,
	  .shape = field_shape, .snapshot = "snap", .compare = APOD_COMPARE_CLOSE,
	  .tolerance = field_tol },
	{ .name = NULL },
};

static const struct apod_series series[] = {
	[HEAT_SERIES_STATS] = { .name = "stats", .probe = "calcStats",
	                        .column_names = "mean,min,max,variance",
	                        .compare = APOD_COMPARE_CLOSE, .tolerance = stats_tol },
	/* Counts, as doubles (the default dtype): every stage writes them so
	 * (heat_stats_rows), exact below 2^53 cells, and %.17g prints them as
	 * whole numbers. */
	[HEAT_SERIES_HIST] = { .name = "hist", .probe = "calcStats", .columns = bins,
	                       .column_prefix = "bin",
	                       .compare = APOD_COMPARE_COUNTS, .tolerance = hist_tol },
	[HEAT_SERIES_ZONES] = { .name = "zones", .probe = "calcSummaryData", .columns = zones,
	                        .column_prefix = "zone", .compare = APOD_COMPARE_CLOSE,
	                        .tolerance = zones_tol },
	{ .name = NULL },
};

const struct apod_workload heat_workload = {
	.version = APOD_WORKLOAD_VERSION,
	.name = "heat",
	.about = "2-D heat diffusion, five-point stencil, per-step statistics (memory-bound)",
	.params_size = sizeof(struct heat_deck),
	.params = heat_params,
	.check = heat_deck_check,
	.steps = steps,
	.snapshot_every = snapshot_every,
	.title = title,
	.problem_create = problem_create,
	.problem_destroy = problem_destroy,
	.phases = phases,
	.probes = probes,
	.arrays = arrays,
	.series = series,
	.stages = heat_stages,
	.grow = grow,
	.work = work,
	.kernel_rows = heat_kernels,
};
