/*
 * workload.c: the @NAME@ workload, as `apod new @NAME@` wrote it.
 *
 * A workload is your serial program cut into the pieces the harness needs
 * (apod/workload.h): its parameters, the problem it starts from, the named
 * phases of one time step, the observations it makes every few steps
 * (probes), what it produces (arrays and series) and how close another
 * implementation must come to it (tolerances).  The harness runs the loop,
 * times every phase, writes the results, and compares every stage with the
 * serial one.
 *
 * The computation here is a placeholder to replace with yours: n values
 * relaxing toward targets, x[i] += rate * (target(i) - x[i]), with the sum
 * and the largest value recorded every `every` steps.  Start by changing
 * step_one() (in @NAME@.h) and the serial stage; keep the other stages in
 * step.
 */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <apod/apod.h>
#include <apod/ready_made.h>

#include "@NAME@.h"

/* ---- 1. parameters ------------------------------------------------------
 * One member per key; the harness writes INT keys as long, REAL as double,
 * NAME as char[APOD_NAME_MAX].  Every key gets --KEY=VALUE, a line in a deck
 * file (--deck=FILE: "key = value" lines) and a place in report.json. */
struct @NAME@_params {
	char name[APOD_NAME_MAX];
	long n;
	long steps;
	double rate;
	long every;
	long snapshot_every;
};

#define AT(member) offsetof(struct @NAME@_params, member)

static const struct apod_param params[] = {
	/* The keys every workload has, from apod/ready_made.h: name and
	 * snapshot_every are neutral (they cannot change a result, so runs that
	 * differ only there can still be compared). */
	APOD_KEY_NAME(struct @NAME@_params, name, "@NAME@"),
	{ .key = "n", .type = APOD_PARAM_INT, .def = "1000000", .lo = 1, .hi = 1L << 28,
	  .offset = AT(n), .help = "values" },
	APOD_KEY_STEPS(struct @NAME@_params, steps, "100", 1000000),
	/* The range is part of the design: with 0 < rate <= 1 each update is
	 * an average of old value and target (see the tolerances below). */
	{ .key = "rate", .type = APOD_PARAM_REAL, .def = "0.1", .lo = 0, .lo_open = 1, .hi = 1,
	  .range_why = " (beyond 1 the update overshoots)", .offset = AT(rate),
	  .help = "relaxation rate per step" },
	APOD_KEY_EVERY(struct @NAME@_params, every, "1", 1000000, "calcSum"),
	APOD_KEY_SNAPSHOT_EVERY(struct @NAME@_params, snapshot_every, "0", 1000000, "a snapshot"),
	{ .key = NULL },
};

/* ---- 2. the problem: built once, every stage starts from the same bits --
 * struct @NAME@_problem is in @NAME@.h, beside the arithmetic of one
 * element (step_one) that every stage calls, so that a stage in another
 * file (a GPU stage's .cu) shares both. */

/* The numbers of the placeholder: initial values in [0, 1), targets in
 * [1, 10] (target() is in @NAME@.h).  Replace with your own input (read a
 * file in problem_create). */
static double initial(size_t i) { return (double)(i % 1000) / 1000.0; }
#define SCALE 10.0   /* the largest |value| a run can hold: max(initial, target) */

static void *problem_create(const void *prm)
{
	const struct @NAME@_params *p = prm;
	struct @NAME@_problem *pb = calloc(1, sizeof *pb);
	if (!pb || !(pb->init = malloc((size_t)p->n * sizeof *pb->init))) {
		free(pb);
		apod_fail("@NAME@: cannot allocate %ld values", p->n);   /* never print, never exit */
		return NULL;
	}
	pb->n = (size_t)p->n;
	pb->rate = p->rate;
	for (size_t i = 0; i < pb->n; i++)
		pb->init[i] = initial(i);
	return pb;
}

static void problem_destroy(void *problem)
{
	struct @NAME@_problem *pb = problem;
	if (pb)
		free(pb->init);
	free(pb);
}

/* ---- 3. the stages ------------------------------------------------------
 * A stage is described once (struct apod_stage: its name, what it ports,
 * where it runs) and does its work through its operations (struct
 * apod_stage_ops: create / step / probe / fetch / destroy on its own copy
 * of the data).  The serial stage is the reference; every other stage is
 * checked against it.  serial and omp share the context and most
 * functions.
 *
 * One step is one phase, timeStep.  A loop with sections of its own
 * (forces, then positions, then a redistribution...) names each in
 * phases[], in order: the harness calls a stage's step once for each,
 * times each on its own, and a stage ports the ones it names. */
static const struct apod_phase phases[] = {
	{ .name = "timeStep" },
	{ .name = NULL },
};

struct ctx {
	const struct @NAME@_problem *pb;
	double *x;
};

/* s: the stage being created.  A create that several stages share can
 * read what differs between them from s->data; these two need nothing. */
static void *create(const struct apod_stage *s, const void *problem)
{
	const struct @NAME@_problem *pb = problem;
	struct ctx *c = calloc(1, sizeof *c);
	(void)s;
	if (!c || !(c->x = malloc(pb->n * sizeof *c->x))) {
		free(c);
		apod_fail("@NAME@: cannot allocate the state (%zu values)", pb->n);
		return NULL;
	}
	c->pb = pb;
	memcpy(c->x, pb->init, pb->n * sizeof *c->x);
	return c;
}

static void destroy(void *ctx)
{
	struct ctx *c = ctx;
	if (c)
		free(c->x);
	free(c);
}

/* Copy array a (there is one, "x") into dst, in its declared dtype. */
static int fetch(void *ctx, int a, void *dst)
{
	struct ctx *c = ctx;
	(void)a;
	memcpy(dst, c->x, c->pb->n * sizeof *c->x);
	return 0;
}

/* serial: your loop body, as it was.  `phase` is the index of the step's
 * phase in phases[] (above): with one phase there is nothing to choose;
 * a step of several sections does phases[phase]'s.  `step` counts from 1
 * to `steps`. */
static int serial_step(void *ctx, int phase, long step, long steps)
{
	struct ctx *c = ctx;
	(void)phase;
	(void)step;
	(void)steps;
	for (size_t i = 0; i < c->pb->n; i++)
		c->x[i] = step_one(c->x[i], target(i), c->pb->rate);
	return 0;
}

/* The probe k (there is one, calcSum) fills its row `row` of each of its
 * series, in the series' dtype: rows[0] is "sum", two doubles. */
static int serial_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct ctx *c = ctx;
	double sum = 0, max = -INFINITY, *out = rows[0];
	(void)k;
	(void)step;
	(void)row;
	for (size_t i = 0; i < c->pb->n; i++) {
		sum += c->x[i];
		max = fmax(max, c->x[i]);
	}
	out[0] = sum;
	out[1] = max;
	return 0;
}

/* omp: the same loops with OpenMP.  Elements are independent, so the step
 * gives the same bits as serial; the sum is a reduction, in another order. */
static int omp_step(void *ctx, int phase, long step, long steps)
{
	struct ctx *c = ctx;
	double *x = c->x, rate = c->pb->rate;
	size_t n = c->pb->n;
	(void)phase;
	(void)step;
	(void)steps;
	#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < n; i++)
		x[i] = step_one(x[i], target(i), rate);
	return 0;
}

static int omp_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct ctx *c = ctx;
	const double *x = c->x;
	size_t n = c->pb->n;
	double sum = 0, max = -INFINITY, *out = rows[0];
	(void)k;
	(void)step;
	(void)row;
	#pragma omp parallel for schedule(static) reduction(+ : sum) reduction(max : max)
	for (size_t i = 0; i < n; i++) {
		sum += x[i];
		max = fmax(max, x[i]);
	}
	out[0] = sum;
	out[1] = max;
	return 0;
}

/* APOD_STAGE_SERIAL and APOD_STAGE_OMP (apod/ready_made.h) say what makes a
 * stage the reference (one core, runs anywhere) or the host's honest
 * parallel baseline (every core: the table quotes every speedup against it
 * too, and `apod scale` scales it over threads); APOD_OPS_OMP gives the
 * omp stage's operations where it can run (built with -fopenmp) and on how
 * many threads. */
static const struct apod_stage_ops serial_ops = {
	.create = create, .step = serial_step, .probe = serial_probe, .fetch = fetch,
	.destroy = destroy,
};

static const struct apod_stage serial_stage = {
	APOD_STAGE_SERIAL,
	.about = "the reference: your serial loop",
	.ops = &serial_ops,
};

static const struct apod_stage_ops omp_ops = {
	APOD_OPS_OMP,
	.create = create, .step = omp_step, .probe = omp_probe, .fetch = fetch,
	.destroy = destroy,
};

static const struct apod_stage omp_stage = {
	APOD_STAGE_OMP,
	.about = "the same loops on every core with OpenMP",
	/* The phases it takes over, by name (the step's phases above, the
	 * probes of section 4): Amdahl's bound counts the serial run's time in
	 * exactly these. */
	.ports = "timeStep,calcSum",
	.ops = &omp_ops,
};

@GPU@/* The gpu stage: described here, with the others; what it does (its
@GPU@ * operations: the same step and probe on the device) is in stage_gpu.cu,
@GPU@ * which the Makefile compiles with nvcc. */
@GPU@extern const struct apod_stage_ops @NAME@_stage_gpu;
@GPU@static const struct apod_stage gpu_stage = {
@GPU@	.name = "gpu",
@GPU@	.about = "the state resident on the device, one thread a value, the probe reduced there",
@GPU@	/* Every phase it changes: it also sets up on the device (the upload)
@GPU@	 * and fetches snapshots and the results from it. */
@GPU@	.ports = "setup,timeStep,calcSum,writeSnapshot,fetchResults",
@GPU@	/* Where its phases run, for the speed of light; on a device, Amdahl's
@GPU@	 * N is the measured speedup (its width is 0). */
@GPU@	.runs_on = APOD_RUNS_DEVICE,
@GPU@	.needs = "CUDA",
@GPU@	.ops = &@NAME@_stage_gpu,
@GPU@};
@GPU@
@MPI@/* The mpi stage: described here, its operations in stage_mpi.c (a block
@MPI@ * of the values on each MPI rank, the results gathered on rank 0).  It
@MPI@ * runs as one rank in the table; mpirun starts more (`make check` runs it
@MPI@ * at 1, 2 and 3 ranks and verifies each against serial). */
@MPI@extern const struct apod_stage_ops @NAME@_stage_mpi;
@MPI@static const struct apod_stage mpi_stage = {
@MPI@	.name = "mpi",
@MPI@	.about = "MPI ranks, a block of the values each, results gathered on rank 0 (use mpirun)",
@MPI@	/* The gather onto rank 0 is part of fetching the results and snapshots. */
@MPI@	.ports = "timeStep,calcSum,writeSnapshot,fetchResults",
@MPI@	.runs_on = APOD_RUNS_HOST_CORES,
@MPI@	.needs = "MPI",
@MPI@	.ops = &@NAME@_stage_mpi,
@MPI@};
@MPI@
static const struct apod_stage *const stages[] = {
	&serial_stage,
	&omp_stage,
@GPU@	&gpu_stage,
@MPI@	&mpi_stage,
	NULL,
};

/* ---- 4. outputs and their tolerances ------------------------------------
 * Design each tolerance from the numerics; never tune it until a run passes.
 *
 * x: with 0 < rate <= 1 the update is an average of x and its target, so a
 * difference between two implementations is carried from step to step
 * without growing, and each step adds at most its own rounding: 3
 * operations on values up to SCALE, for each of the two implementations.
 * After `steps` steps: 6 * steps * u * SCALE. */
static void x_tol(const void *prm, const void *problem, int any_float, int column,
                  enum apod_compare kind, struct apod_tol *t)
{
	const struct @NAME@_params *p = prm;
	double u = any_float ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
	/* The bound needs only the keys: no data of the problem, one column,
	 * one comparison (CLOSE, the fields it reads: atol and rtol). */
	(void)problem;
	(void)column;
	(void)kind;
	t->atol = 6.0 * (double)p->steps * u * SCALE;
	t->rtol = 2 * u;
}

/* sum: n values each within x_tol, added in another order (n roundings of
 * at most u times the sum each).  max: the same values in any order give the
 * same maximum, so only x's own difference remains. */
static void sum_tol(const void *prm, const void *problem, int any_float, int column,
                    enum apod_compare kind, struct apod_tol *t)
{
	const struct @NAME@_params *p = prm;
	struct apod_tol x;
	x_tol(prm, problem, any_float, 0, kind, &x);
	if (column == 0) {
		t->atol = (double)p->n * (x.atol + x.rtol * SCALE);
		t->rtol = 2 * (double)p->n * (DBL_EPSILON / 2);
	} else {
		t->atol = x.atol;
		t->rtol = x.rtol;
	}
}

static int x_shape(const void *prm, size_t dims[2])
{
	dims[0] = (size_t)((const struct @NAME@_params *)prm)->n;
	return 1;
}

APOD_PARAM_LONG(steps, struct @NAME@_params, steps)
APOD_PARAM_LONG(every, struct @NAME@_params, every)
APOD_PARAM_LONG(snapshot_every, struct @NAME@_params, snapshot_every)
APOD_PARAM_TEXT(title, struct @NAME@_params, name)

/* calcSum every `every` steps.  `.at = APOD_AT_START` would add a row at
 * step 0 (the values every stage starts from), `APOD_AT_END` one after the
 * last step wherever `every` does not fall on it. */
static const struct apod_probe probes[] = {
	{ .name = "calcSum", .every = every },
	{ .name = NULL },
};

static const struct apod_array arrays[] = {
	{ .name = "x", .dtype = APOD_F64, .shape = x_shape, .snapshot = "snap",
	  .compare = APOD_COMPARE_CLOSE, .tolerance = x_tol },
	{ .name = NULL },
};

static const struct apod_series series[] = {
	/* Filled by the probe calcSum; two columns, one for each name. */
	{ .name = "sum", .probe = "calcSum", .column_names = "sum,max",
	  .compare = APOD_COMPARE_CLOSE, .tolerance = sum_tol },
	{ .name = NULL },
};

/* ---- 5. the work of each phase: the speed of light ---------------------
 * What one occurrence of a phase must do whatever the stage, so that the
 * table can say how close each stage comes to what this machine allows
 * (% SoL).  Count the algorithm's compulsory minimum, not what your code
 * happens to do: each input read once and each output written once from
 * main memory, and the arithmetic the result cannot be had without (an
 * FMA is two operations).  Leave out what you are unsure of: a bound that
 * leaves work out still bounds; one that counts too much is reported as a
 * stage "faster than its speed of light".  Phases come by name (a step
 * phase, a probe, or the harness's "setup", "fetchResults",
 * "writeSnapshot"); return 0 for one you do not declare.  `problem` is
 * there for work that depends on the data (NULL where the harness has none
 * at hand: return 0 then if you need it).  Here a step reads and writes x
 * (16 bytes an element) and does 3 FP64 operations (step_one: a subtraction
 * and an FMA); calcSum reads x once and does 2 (a sum and a max). */
static int work(const void *prm, const void *problem, const char *phase, struct apod_work *w)
{
	double n = (double)((const struct @NAME@_params *)prm)->n;
	(void)problem;
	if (!strcmp(phase, "timeStep")) {
		w->bytes = 16 * n;
		w->flops64 = 3 * n;
		/* A stage that kept x on the host and stepped on a GPU would carry
		 * it there and back every step. */
		w->h2d_bytes = w->d2h_bytes = 8 * n;
		return 1;
	}
	if (!strcmp(phase, "calcSum")) {
		w->bytes = 8 * n;
		w->flops64 = 2 * n;
		return 1;
	}
	return 0;
}

/* ---- 6. the workload: everything above, handed to the harness ---------- */
const struct apod_workload @NAME@_workload = {
	.version = APOD_WORKLOAD_VERSION,
	.name = "@NAME@",
	.about = "values relaxing toward targets (replace with your computation)",
	.params_size = sizeof(struct @NAME@_params),
	.params = params,
	.steps = steps,
	.snapshot_every = snapshot_every,
	.title = title,
	.problem_create = problem_create,
	.problem_destroy = problem_destroy,
	.phases = phases,
	.probes = probes,
	.arrays = arrays,
	.series = series,
	.stages = stages,
	.work = work,
};
