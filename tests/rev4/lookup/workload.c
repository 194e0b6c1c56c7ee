/*
 * workload.c: the lookup example declared to the harness: its keys, its
 * problem (the generated table), its outputs (series only: no array), the
 * tolerances the gate holds every stage to, and the work of a batch.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <apod/apod.h>

#include "lookup.h"

static const char *const searches[] = { "binary", "grid", NULL };

static const struct apod_param keys[] = {
	{ .key = "table", .type = APOD_PARAM_INT, .def = "200000", .lo = 2, .hi = 1 << 26,
	  .offset = offsetof(struct lookup_params, table), .help = "entries in the table" },
	{ .key = "lookups", .type = APOD_PARAM_INT, .def = "2000000", .lo = 1, .hi = 1L << 40,
	  .offset = offsetof(struct lookup_params, lookups), .help = "queries in all" },
	{ .key = "batches", .type = APOD_PARAM_INT, .def = "20", .lo = 1, .hi = 1 << 20,
	  .offset = offsetof(struct lookup_params, batches),
	  .help = "steps: the queries cut into this many batches" },
	{ .key = "seed", .type = APOD_PARAM_INT, .def = "42", .lo = 0, .hi = 1L << 40,
	  .offset = offsetof(struct lookup_params, seed),
	  .help = "the table and the queries are generated from it" },
	/* Both searches find the same entry, so the results are the same bits:
	 * `verify --any-deck` shows it (the Makefile's check). */
	{ .key = "search", .type = APOD_PARAM_CHOICE, .def = "binary", .choices = searches,
	  .offset = offsetof(struct lookup_params, search),
	  .help = "binary: bisect the table; grid: start from a grid cell, then walk" },
	{ .key = NULL },
};

static int check(const void *params)
{
	const struct lookup_params *p = params;
	if (p->batches > p->lookups)
		return apod_usage_fail("batches = %ld: more batches than lookups (%ld)", p->batches,
		                       p->lookups);
	return 0;
}

static long steps(const void *params)
{
	return ((const struct lookup_params *)params)->batches;
}

static void problem_destroy(void *problem)
{
	struct lookup_problem *pb = problem;
	if (!pb)
		return;
	free(pb->energy);
	free(pb->value);
	free(pb->cell_start);
	free(pb);
}

/* Energies with spacings in [0.5, 1.5) from 0, values in [1, 101). */
static void *problem_create(const void *params)
{
	const struct lookup_params *p = params;
	struct lookup_problem *pb = calloc(1, sizeof *pb);
	long n = p->table;
	if (!pb)
		goto nomem;
	pb->n = n;
	pb->seed = (uint64_t)p->seed;
	pb->search = p->search;
	pb->lookups = p->lookups;
	pb->batches = p->batches;
	pb->per_batch = (p->lookups + p->batches - 1) / p->batches;
	pb->cells = n / 4 > 1 ? n / 4 : 1;
	pb->energy = malloc((size_t)n * sizeof *pb->energy);
	pb->value = malloc((size_t)n * sizeof *pb->value);
	pb->cell_start = malloc((size_t)pb->cells * sizeof *pb->cell_start);
	if (!pb->energy || !pb->value || !pb->cell_start)
		goto nomem;
	for (long i = 0; i < n; i++) {
		pb->energy[i] = i == 0 ? 0 : pb->energy[i - 1] + 0.5 +
		                lookup_u01(pb->seed, LOOKUP_STREAM_SPACING, (uint64_t)i);
		pb->value[i] = 1 + 100 * lookup_u01(pb->seed, LOOKUP_STREAM_VALUE, (uint64_t)i);
		pb->max_value = fmax(pb->max_value, fabs(pb->value[i]));
		if (i > 0)
			pb->max_slope = fmax(pb->max_slope, fabs((pb->value[i] - pb->value[i - 1]) /
			                                         (pb->energy[i] - pb->energy[i - 1])));
	}
	pb->e_lo = pb->energy[0];
	pb->e_hi = pb->energy[n - 1];
	pb->cell_width = (pb->e_hi - pb->e_lo) / (double)pb->cells;
	for (long c = 0; c < pb->cells; c++)
		pb->cell_start[c] = lookup_binary(pb->energy, n, pb->e_lo + (double)c * pb->cell_width);
	return pb;
nomem:
	problem_destroy(pb);
	apod_fail("lookup: cannot allocate a table of %ld entries", n);
	return NULL;
}

/*
 * The sums' tolerance, designed from the data.  Every stage computes each
 * lookup's value and slope to the same bits (lookup.h), so two stages'
 * sums differ only in the order they were added.  A sum of N terms in any
 * order is within gamma(N-1) * sum |term| of the exact sum of those terms,
 * gamma(k) = k u / (1 - k u) (Higham, Accuracy and Stability of Numerical
 * Algorithms, 4.2, for any summation tree), so two stages differ by at most
 * twice that.  Each |term| is at most the table's largest |value| (an
 * interpolated value lies between two entries; 4u allows its roundings) or
 * largest |slope| (computed by the same expression): properties of the
 * generated table, not of any key, which is why a tolerance is given the
 * problem.
 */
static void sums_tolerance(const void *params, const void *problem, int any_float, int column,
                           enum apod_compare kind, struct apod_tol *t)
{
	const struct lookup_params *p = params;
	const struct lookup_problem *pb = problem;
	double u = DBL_EPSILON / 2, k = (double)(p->lookups - 1);
	double gamma = k * u / (1 - k * u);
	double largest = column == 0 ? pb->max_value * (1 + 4 * u) : pb->max_slope;
	(void)any_float;   /* the sums are doubles in every stage */
	(void)kind;        /* CLOSE, the series' one comparison */
	t->atol = 2 * gamma * (double)p->lookups * largest;
	t->rtol = 0;
}

/*
 * The work of a batch, for the speed of light.  The queries are generated
 * from a counter, in registers: they cross no memory.  The table (16 bytes
 * an entry, 3.2 MB at the default size, plus the grid) is read by every
 * batch, but it fits in a GPU's L2 and most hosts' last-level cache, so
 * reading it again is not compulsory: the bytes declared are the batch's
 * result.  The flops of one lookup: the query (4: scaling the random bits,
 * the range, a product, a sum), the interpolation (5: three differences, a
 * product, a sum), the two divisions (counted as special), and the sums
 * (2).  The search's
 * comparisons are not flops: its log2(table) dependent loads are latency,
 * so measured times sit well above this bound, which is a floor.
 */
static int work(const void *params, const void *problem, const char *phase,
                struct apod_work *w)
{
	const struct lookup_params *p = params;
	double per_batch = (double)p->lookups / (double)p->batches;
	(void)problem;   /* the keys say it all */
	if (strcmp(phase, "lookups"))
		return 0;
	w->bytes = sizeof(struct lookup_sum);
	w->flops64 = 11 * per_batch;
	w->special = 2 * per_batch;
	return 1;
}

/* A step is one batch of lookups: one phase, since each lookup is found,
 * interpolated and added at once. */
static const struct apod_phase phases[] = {
	{ .name = "lookups" },
	{ .name = NULL },
};

/* The probe is due once, after the last batch: the final sums. */
static const struct apod_probe probes[] = {
	{ .name = "final", .at = APOD_AT_END },
	{ .name = NULL },
};

/* Outputs that are series only: the program's result is a checksum and two
 * sums, not an array. */
static const struct apod_series series[] = {
	{ .name = "checksum", .probe = "final", .column_names = "checksum",
	  .dtype = APOD_U64, .compare = APOD_COMPARE_EXACT },
	{ .name = "sums", .probe = "final", .column_names = "value,slope",
	  .dtype = APOD_F64, .compare = APOD_COMPARE_CLOSE, .tolerance = sums_tolerance },
	{ .name = NULL },
};

static const struct apod_stage *const stages[] = {
	&lookup_stage_serial,
	&lookup_stage_omp,
	&lookup_stage_gpu,
	NULL,
};

const struct apod_workload lookup_workload = {
	.version = 4,
	.name = "lookup",
	.about = "lookups into a generated table, folded into a checksum and two sums",
	.params_size = sizeof(struct lookup_params),
	.params = keys,
	.check = check,
	.steps = steps,
	.problem_create = problem_create,
	.problem_destroy = problem_destroy,
	.phases = phases,
	.probes = probes,
	.series = series,
	.stages = stages,
	.work = work,
};
