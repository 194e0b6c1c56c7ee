/* The deck parser (the harness's, driven by heat's key table), the JSON
 * both ways, and the problem built from a deck. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/harness/fail.h"
#include "cpu/heat/heat.h"
#include "cpu/heat/heat_workload.h"
#include "cpu/harness/params.h"
#include "cpu/heat/problem.h"
#include "cpu/montecarlo/montecarlo_workload.h"
#include "cpu/nbody/nbody_workload.h"
#include "cpu/particles/particles_workload.h"
#include "check_run.h"

static struct heat_deck *defaults(void)
{
	struct heat_deck *d = apod_params_new(&heat_workload);
	ck_assert_ptr_nonnull(d);
	return d;
}

static char path_buf[4096];

static const char *srcpath(const char *rel)
{
	const char *top = getenv("top_srcdir");
	snprintf(path_buf, sizeof path_buf, "%s/%s", top ? top : ".", rel);
	return path_buf;
}

START_TEST(medium_deck_is_the_default)
{
	struct heat_deck *def = defaults(), *med = defaults();
	ck_assert_int_eq(apod_params_load(&heat_workload, med, srcpath("data/heat/medium.deck")), 0);
	ck_assert_mem_eq(def, med, sizeof *def);
	free(def);
	free(med);
}
END_TEST

START_TEST(small_deck_loads)
{
	struct heat_deck *d = defaults();
	ck_assert_int_eq(apod_params_load(&heat_workload, d, srcpath("data/heat/small.deck")), 0);
	ck_assert_int_eq(d->size[0], 317);
	ck_assert_int_eq(d->size[1], 203);
	ck_assert_int_eq(d->steps, 120);
	ck_assert_int_eq(d->nsources, 2);     /* the deck's heaters replaced the defaults */
	ck_assert_double_eq(d->sources[1].temp, 60);
	ck_assert_int_eq(apod_params_check(&heat_workload, d), 0);
	free(d);
}
END_TEST

/* Each bad value: the setter fails as a usage error naming the problem. */
static void expect_bad(const char *key, const char *value, const char *fragment)
{
	struct heat_deck *d = defaults();
	ck_assert_int_eq(apod_params_set(&heat_workload, d, key, value, "test"), -1);
	free(d);
	ck_assert_int_eq(apod_failure_status(), APOD_EXIT_USAGE);
	ck_assert_msg(strstr(apod_failure(), fragment) != NULL, "'%s = %s': message '%s' lacks '%s'",
	              key, value, apod_failure(), fragment);
}

START_TEST(bad_values_are_named)
{
	expect_bad("size", "0x10", "out of range");
	expect_bad("size", "-4x10", "out of range");
	expect_bad("size", "10", "not of the form NXxNY");
	expect_bad("size", "99999999999999999999x4", "out of range");
	expect_bad("size", "12abcx4", "not a whole number");
	expect_bad("steps", "0", "out of range");
	expect_bad("steps", "1e3", "not a whole number");
	expect_bad("alpha", "0.26", "stable");
	expect_bad("alpha", "nan", "not a finite number");
	expect_bad("t_hot", "inf", "not a finite number");
	expect_bad("t_hot", "1e9", "beyond");
	expect_bad("zones", "0x3", "out of range");
	expect_bad("hist_bins", "100000", "out of range");
	expect_bad("hist_range", "5 1", "not below");
	expect_bad("source", "0.5 0.5 0.1", "expected");
	expect_bad("source", "1.5 0.5 0.1 20", "outside [0, 1]");
	expect_bad("source", "0.5 0.5 0.9 20", "radius");
	expect_bad("name", "a b", "letters");
	expect_bad("colour", "red", "unknown key 'colour'");
}
END_TEST

START_TEST(bad_files_are_named)
{
	static const struct { const char *file, *fragment; } cases[] = {
		{ "tests/decks/unknown-key.deck", "unknown-key.deck:2: unknown key 'wibble'" },
		{ "tests/decks/bad-number.deck", "bad-number.deck:2: steps: '12abc'" },
		{ "tests/decks/no-equals.deck", "no-equals.deck:2: expected 'key = value'" },
		{ "tests/decks/binary.deck", "control character" },
		{ "tests/decks/empty.deck", "empty file" },
		{ "tests/decks/does-not-exist.deck", "cannot open" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct heat_deck *d = defaults();
		ck_assert_int_eq(apod_params_load(&heat_workload, d, srcpath(cases[i].file)), -1);
		free(d);
		ck_assert_msg(strstr(apod_failure(), cases[i].fragment) != NULL, "%s: message '%s'",
		              cases[i].file, apod_failure());
	}
}
END_TEST

START_TEST(too_big_for_memory_is_refused_with_bytes)
{
	struct heat_deck *d = defaults();
	ck_assert_int_eq(apod_params_set(&heat_workload, d, "size", "1048576x1048576", "t"), 0);
	ck_assert_int_eq(apod_params_check(&heat_workload, d), -1);
	free(d);
	ck_assert_msg(strstr(apod_failure(), "bytes") != NULL, "%s", apod_failure());
}
END_TEST

START_TEST(problem_has_fixed_edges_and_heaters)
{
	struct heat_deck *d = defaults();
	struct heat_problem p;
	ck_assert_int_eq(apod_params_set(&heat_workload, d, "size", "40x30", "t"), 0);
	d->nsources = 1;
	d->sources[0] = (struct heat_source){ 0.5, 0.5, 0.1, 77 };
	ck_assert_int_eq(heat_problem_init(&p, d), 0);
	ck_assert(p.init[5] == (heat_real)100);                  /* top edge: hot */
	ck_assert(p.init[(p.ny - 1) * p.nx + 5] == (heat_real)0); /* bottom edge: cold */
	ck_assert(p.init[10 * p.nx] == (heat_real)0);             /* left edge */
	ck_assert(p.init[10 * p.nx + 5] == (heat_real)20);        /* interior */
	/* radius 0.1 of the shorter side (30) is 3 cells: a disc of about 28 cells. */
	ck_assert_uint_gt(p.nsrc, 20);
	ck_assert_uint_lt(p.nsrc, 40);
	ck_assert(p.init[15 * p.nx + 20] == (heat_real)77);       /* the centre */
	for (size_t k = 1; k < p.nsrc; k++)
		ck_assert_uint_gt(p.src_idx[k], p.src_idx[k - 1]);
	ck_assert_int_eq(p.nzones, 64);
	ck_assert_uint_eq(heat_zone_col0(&p, 8), p.nx);
	heat_problem_free(&p);
	free(d);
}
END_TEST

/* report.json's "params" reads back to the same deck, through the same checks. */
START_TEST(params_json_round_trip)
{
	struct heat_deck *d = defaults(), *back = defaults();
	json_object *o;
	const char *key = NULL;
	ck_assert_int_eq(apod_params_load(&heat_workload, d, srcpath("data/heat/small.deck")), 0);
	ck_assert_int_eq(apod_params_set(&heat_workload, d, "hist_range", "-5 105", "t"), 0);
	o = apod_params_json(&heat_workload, d);
	ck_assert_int_eq(apod_params_from_json(&heat_workload, back, o, "t"), 0);
	ck_assert_mem_eq(d, back, sizeof *d);
	/* A value out of range in the JSON is refused as a deck line would be. */
	json_object_object_add(o, "steps", json_object_new_int(0));
	ck_assert_int_eq(apod_params_from_json(&heat_workload, back, o, "r.json"), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "r.json: steps: 0 is out of range"));
	json_object_put(o);
	/* Runs are comparable unless a key that shapes the results differs. */
	memcpy(back, d, sizeof *d);
	ck_assert_int_eq(apod_params_set(&heat_workload, back, "name", "other", "t"), 0);
	ck_assert_int_eq(apod_params_set(&heat_workload, back, "snapshot_every", "7", "t"), 0);
	ck_assert(apod_params_same(&heat_workload, d, back, &key));
	ck_assert_int_eq(apod_params_set(&heat_workload, back, "t_hot", "99", "t"), 0);
	ck_assert(!apod_params_same(&heat_workload, d, back, &key));
	ck_assert_str_eq(key, "t_hot");
	/* "sources = none" leaves no heater, and the list says so. */
	ck_assert_int_eq(apod_params_set(&heat_workload, back, "sources", "none", "t"), 0);
	ck_assert_int_eq(back->nsources, 0);
	free(d);
	free(back);
}
END_TEST

/* Heat's declared work is its arithmetic, asked for by the phase's name.  A step of the sweep
 * with its statistics fused moves 8 bytes a cell in float (the field read
 * once and written once); the statistics and the zone means add no bytes
 * of their own, only their sums in double. */
START_TEST(heat_declares_its_compulsory_work)
{
	struct heat_deck *d = apod_params_new(&heat_workload);
	struct apod_work step = { 0 }, stats = { 0 }, zones = { 0 }, report = { 0 };
	double cells, per_value = sizeof(heat_real);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(apod_params_set(&heat_workload, d, "size", "300x200", "t"), 0);
	cells = 300.0 * 200.0;
	ck_assert_ptr_nonnull(heat_workload.work);
	ck_assert_int_eq(heat_workload.work(d, NULL, "genTimeStep", &step), 1);
	ck_assert_int_eq(heat_workload.work(d, NULL, "calcStats", &stats), 1);
	ck_assert_int_eq(heat_workload.work(d, NULL, "calcSummaryData", &zones), 1);
	ck_assert_int_eq(heat_workload.work(d, NULL, APOD_PHASE_REPORT_NAME, &report), 0);
	ck_assert_int_eq(heat_workload.work(d, NULL, "noSuchPhase", &report), 0);
	ck_assert_double_eq(step.bytes + stats.bytes, 2 * per_value * cells);
	if (per_value == 4)
		ck_assert_double_eq(step.bytes / cells, 8);
	ck_assert_double_eq(zones.bytes, 0);
	ck_assert_double_eq(step.flops32 + step.flops64, 7 * cells);
	ck_assert_double_eq(stats.flops64, 3 * cells);
	/* A stage that keeps the field at home carries it over and back. */
	ck_assert_double_eq(step.h2d_bytes, per_value * cells);
	ck_assert_double_eq(step.d2h_bytes, per_value * cells);
	free(d);
}
END_TEST

/* The other workloads' declared work, held at its arithmetic: particles
 * read and write 16 bytes a particle a step with 16 FP32 operations;
 * n-body does N^2 interactions of 20 operations and one rsqrt; Monte Carlo
 * 44 FP64 operations a path a monitoring date plus 52 a path. */
static struct apod_work work_of(const struct apod_workload *w, const char *key, const char *n,
                                const char *phase)
{
	void *p = apod_params_new(w);
	struct apod_work k = { 0 };
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(apod_params_set(w, p, key, n, "t"), 0);
	ck_assert_ptr_nonnull(w->work);
	ck_assert_int_eq(w->work(p, NULL, phase, &k), 1);
	free(p);
	return k;
}

START_TEST(every_workload_declares_its_compulsory_work)
{
	struct apod_work k = work_of(&particles_workload, "n", "1000", "moveParticles");
	ck_assert_double_eq(k.bytes, 32 * 1000.0);
	ck_assert_double_eq(k.flops32, 16 * 1000.0);
	k = work_of(&nbody_workload, "n", "1000", "computeForces");
	ck_assert_double_eq(k.flops32, 16 * 1000.0 * 1000.0);   /* not the convention's 20 */
	ck_assert_double_eq(k.special, 1000.0 * 1000.0);
	ck_assert_double_eq(k.bytes, 2 * 28 * 1000.0);
	k = work_of(&montecarlo_workload, "paths_per_batch", "1000", "simulateBatch");
	ck_assert_double_eq(k.flops64, 1000.0 * (64 * 44.0 + 52));   /* the default 64 dates */
	ck_assert_double_eq(k.bytes, 0);
}
END_TEST

int main(void)
{
	const TTest *tests[] = {
		medium_deck_is_the_default, small_deck_loads, bad_values_are_named,
		bad_files_are_named, too_big_for_memory_is_refused_with_bytes,
		problem_has_fixed_edges_and_heaters, params_json_round_trip,
		heat_declares_its_compulsory_work, every_workload_declares_its_compulsory_work,
		NULL,
	};
	return check_run(check_suite("deck", "core", 0, tests), CK_FORK_GETENV);
}
