/*
 * apod/ready_made.h: ready-made members of struct apod_stage and struct
 * apod_stage_ops (apod/workload.h) for the two stages every port has, so
 * that a workload writes only what is its own: what makes a stage the
 * serial reference or the OpenMP baseline, said once (APOD_STAGE_SERIAL,
 * APOD_STAGE_OMP, APOD_OPS_OMP), a stage's state allocated or failed
 * (apod_state_alloc) and a whole create around its setup (apod_state_create),
 * a run's host memory checked against the machine's
 * (apod_fits_in_memory), a count grown for weak scaling (apod_grow_count),
 * the keys most workloads have with the same meaning
 * (APOD_KEY_NAME, APOD_KEY_STEPS, APOD_KEY_EVERY, APOD_KEY_SNAPSHOT_EVERY),
 * and readers of one parameter for a workload's steps, snapshot_every,
 * probes' every and title (APOD_PARAM_LONG, APOD_PARAM_TEXT).
 *
 * They are static inline on purpose: each is compiled in the workload's own
 * file, so "built with OpenMP" means the workload's file was, not the
 * harness library.
 */
#ifndef APOD_READY_MADE_H
#define APOD_READY_MADE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "apod.h"
#include "workload.h"

/* An OpenMP stage runs where the program was compiled with OpenMP. */
static inline int apod_omp_available(const struct apod_stage *s, char *why, size_t len)
{
	(void)s;
#ifdef _OPENMP
	(void)why;
	(void)len;
	return 1;
#else
	snprintf(why, len, "built without OpenMP flags: compile and link with -fopenmp");
	return 0;
#endif
}

/* Its N: the threads a parallel region gets (OMP_NUM_THREADS, or every core). */
static inline int apod_omp_width(const struct apod_stage *s)
{
	(void)s;
#ifdef _OPENMP
	return omp_get_max_threads();
#else
	return 1;
#endif
}

/* What makes a stage the serial reference (one core, runs anywhere) or the
 * host's OpenMP baseline (every core, the baseline the table quotes
 * speedups against), for the top of its description and of its ops:
 *
 *     static const struct apod_stage_ops serial_ops = { .create = ..., ... };
 *     const struct apod_stage my_serial = {
 *         APOD_STAGE_SERIAL, .about = "the reference: ...", .ops = &serial_ops,
 *     };
 *     static const struct apod_stage_ops omp_ops = { APOD_OPS_OMP, .create = ... };
 *     const struct apod_stage my_omp = {
 *         APOD_STAGE_OMP, .about = "...", .ports = "forces", .ops = &omp_ops,
 *     };
 *
 * available and width left NULL mean "wherever it was built" and one thread
 * (none on a device), which is the serial reference's and a GPU stage's. */
#define APOD_STAGE_SERIAL .name = "serial", .runs_on = APOD_RUNS_HOST_CORE
#define APOD_STAGE_OMP                                                                  \
	.name = "omp", .role = APOD_ROLE_HOST_BASELINE, .runs_on = APOD_RUNS_HOST_CORES,  \
	.needs = "OpenMP"
#define APOD_OPS_OMP .available = apod_omp_available, .width = apod_omp_width

/* The same, filled in by assignment, for C++ (C++17 has no designated
 * initializers) or any code that builds its descriptions so:
 *
 *     apod_stage s{};  apod_stage_serial_init(&s);  s.about = "...";  s.ops = &ops;
 *     apod_stage_ops o{};  apod_ops_omp_init(&o);  o.create = ...; */
static inline void apod_stage_serial_init(struct apod_stage *s)
{
	s->name = "serial";
	s->runs_on = APOD_RUNS_HOST_CORE;
}

static inline void apod_stage_omp_init(struct apod_stage *s)
{
	s->name = "omp";
	s->role = APOD_ROLE_HOST_BASELINE;
	s->runs_on = APOD_RUNS_HOST_CORES;
	s->needs = "OpenMP";
}

static inline void apod_ops_omp_init(struct apod_stage_ops *o)
{
	o->available = apod_omp_available;
	o->width = apod_omp_width;
}

/* A stage's state, zeroed, or NULL with the failure recorded, so that a
 * create begins `if (!(s = apod_state_alloc(sizeof *s, "serial"))) return
 * NULL;` (who names the stage in the message). */
static inline void *apod_state_alloc(size_t size, const char *who)
{
	void *state = calloc(1, size);
	if (!state)
		apod_fail("%s: out of memory", who);
	return state;
}

/* A workload's check (its `check` member) refuses a run that cannot fit in
 * the host's memory, rather than letting the run die part way through.
 * `bytes` is what the run holds at its peak (its arrays, the harness's
 * copies of them, the rows of its series), 0 where computing it
 * overflowed; `fmt` (printf-style) names the run, as the subject of
 * "needs":
 *
 *     return apod_fits_in_memory(run_bytes(p), "n: a run of %ld bodies", p->n);
 *
 * Returns 0 if it fits (or the machine does not say how much memory it
 * has), else -1 after apod_usage_fail(): the request was too big. */
static inline int apod_fits_in_memory(size_t bytes, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int apod_fits_in_memory(size_t bytes, const char *fmt, ...)
{
	long pages = sysconf(_SC_PHYS_PAGES), pagesize = sysconf(_SC_PAGESIZE);
	char run[256];
	va_list ap;
	if (bytes > 0 && !(pages > 0 && pagesize > 0 && bytes / (size_t)pagesize > (size_t)pages))
		return 0;
	va_start(ap, fmt);
	vsnprintf(run, sizeof run, fmt, ap);
	va_end(ap);
	if (bytes == 0)
		return apod_usage_fail("%s overflows the address space", run);
	return apod_usage_fail("%s needs %zu bytes, more than this machine's %zu bytes of memory",
	                       run, bytes, (size_t)pages * (size_t)pagesize);
}

/* A workload's grow (weak scaling: struct apod_workload's grow) that
 * multiplies one count by the factor: *count times factor, or -1 after
 * apod_usage_fail() where that would pass max (`what` names the count in
 * the message: "mine: 1000 values grown 4 times is beyond ...").
 *
 *     static int grow(void *params, int factor)
 *     {
 *         struct my_params *q = params;
 *         return apod_grow_count(&q->n, factor, MY_MAX_N, "mine", "values") ? -1
 *                                                                          : my_check(q);
 *     }
 */
static inline int apod_grow_count(long *count, int factor, long max, const char *workload,
                                  const char *what)
{
	if (factor < 1 || *count > max / factor)
		return apod_usage_fail("%s: %ld %s grown %d times is beyond %ld", workload, *count, what,
		                       factor, max);
	*count *= factor;
	return 0;
}

/* A stage's create, whole: its state allocated (apod_state_alloc), set up
 * from the problem, and where setup fails, undone by the stage's own
 * destroy, which must free a state set up part way (members not yet
 * allocated are still zero: NULL, which free and cudaFree take).  Setup
 * records why it failed (apod_fail) and returns -1:
 *
 *     static int setup(void *state, const void *problem) { ... }
 *     static void *create(const struct apod_stage *s, const void *problem)
 *     {
 *         return apod_state_create(problem, sizeof(struct my_gpu), "gpu", setup, destroy);
 *     }
 *
 * destroy then only ever gets a state create returned, never NULL. */
static inline void *apod_state_create(const void *problem, size_t size, const char *who,
                                      int (*setup)(void *state, const void *problem),
                                      void (*destroy)(void *state))
{
	void *state = apod_state_alloc(size, who);
	if (state && setup(state, problem)) {
		destroy(state);
		return NULL;
	}
	return state;
}

/* The keys most workloads share, each meaning the same everywhere: the
 * deck's name (it changes no result), the steps, how often a probe runs
 * and how often a snapshot is written (0: never; it changes no result
 * either).  `params_type` is the parameter struct, `member` the field; the default
 * and the upper bound stay the workload's:
 *
 *     APOD_KEY_NAME(struct my_params, name, "mine"),
 *     APOD_KEY_STEPS(struct my_params, steps, "100", MY_MAX_STEPS),
 *     APOD_KEY_EVERY(struct my_params, sum_every, "1", MY_MAX_STEPS, "calcSum"),
 *     APOD_KEY_SNAPSHOT_EVERY(struct my_params, snapshot_every, "0", MY_MAX_STEPS, "x"), */
#define APOD_KEY_NAME(params_type, member, def_)                                        \
	{ .key = #member, .type = APOD_PARAM_NAME, .def = def_,                         \
	  .offset = offsetof(params_type, member), .help = "a name for the deck", .neutral = 1 }
#define APOD_KEY_STEPS(params_type, member, def_, hi_)                                  \
	{ .key = #member, .type = APOD_PARAM_INT, .def = def_, .lo = 1, .hi = hi_,      \
	  .offset = offsetof(params_type, member), .help = "time steps" }
/* help_: the probe's phase and what it computes, "every K steps" follows. */
#define APOD_KEY_EVERY(params_type, member, def_, hi_, help_)                           \
	{ .key = #member, .type = APOD_PARAM_INT, .def = def_, .lo = 0, .hi = hi_,      \
	  .offset = offsetof(params_type, member), .help = help_ " every K steps (0: never)" }
/* what_: the arrays a snapshot holds. */
#define APOD_KEY_SNAPSHOT_EVERY(params_type, member, def_, hi_, what_)                  \
	{ .key = #member, .type = APOD_PARAM_INT, .def = def_, .lo = 0, .hi = hi_,      \
	  .offset = offsetof(params_type, member),                                      \
	  .help = what_ " every M steps, with --out (0: never)", .neutral = 1 }

/* A whole-number key, by assignment (for C++, as above): `key` in
 * [lo, hi], its value a long at `offset` in the parameter struct. */
static inline struct apod_param apod_key_int(const char *key, size_t offset, const char *def,
                                             double lo, double hi, const char *help)
{
	struct apod_param p;
	memset(&p, 0, sizeof p);
	p.key = key;
	p.type = APOD_PARAM_INT;
	p.def = def;
	p.lo = lo;
	p.hi = hi;
	p.offset = offset;
	p.help = help;
	return p;
}

/* Most of a workload's readers return one member of its parameters:
 *
 *     APOD_PARAM_LONG(steps, struct my_params, steps)
 *     APOD_PARAM_TEXT(title, struct my_params, name)
 *
 * define `static long steps(const void *params)` and `static const char
 * *title(const void *params)` (no semicolon after either).  A reader that
 * computes its value is written out in full. */
#define APOD_PARAM_LONG(fn, type, member)                                               \
	static long fn(const void *params)                                              \
	{                                                                               \
		return ((const type *)params)->member;                                  \
	}
#define APOD_PARAM_TEXT(fn, type, member)                                               \
	static const char *fn(const void *params)                                       \
	{                                                                               \
		return ((const type *)params)->member;                                  \
	}

#endif
