/* The deck parser and the problem built from a deck. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deck.h"
#include "fail.h"
#include "problem.h"

static char path_buf[4096];

static const char *srcpath(const char *rel)
{
	const char *top = getenv("top_srcdir");
	snprintf(path_buf, sizeof path_buf, "%s/%s", top ? top : ".", rel);
	return path_buf;
}

START_TEST(medium_deck_is_the_default)
{
	struct apod_deck def, med;
	apod_deck_defaults(&def);
	apod_deck_defaults(&med);
	ck_assert_int_eq(apod_deck_load(&med, srcpath("data/medium.deck")), 0);
	ck_assert_mem_eq(&def, &med, sizeof def);
}
END_TEST

START_TEST(small_deck_loads)
{
	struct apod_deck d;
	apod_deck_defaults(&d);
	ck_assert_int_eq(apod_deck_load(&d, srcpath("data/small.deck")), 0);
	ck_assert_uint_eq(d.nx, 317);
	ck_assert_uint_eq(d.ny, 203);
	ck_assert_int_eq(d.steps, 120);
	ck_assert_int_eq(d.nsources, 2);     /* the deck's heaters replaced the defaults */
	ck_assert_double_eq(d.sources[1].temp, 60);
	ck_assert_int_eq(apod_deck_validate(&d), 0);
}
END_TEST

/* Each bad value: the setter fails as a usage error naming the problem. */
static void expect_bad(const char *key, const char *value, const char *fragment)
{
	struct apod_deck d;
	apod_deck_defaults(&d);
	ck_assert_int_eq(apod_deck_set(&d, key, value, "test"), -1);
	ck_assert_int_eq(apod_failure_status(), APOD_EXIT_USAGE);
	ck_assert_msg(strstr(apod_failure(), fragment) != NULL, "'%s = %s': message '%s' lacks '%s'",
	              key, value, apod_failure(), fragment);
}

START_TEST(bad_values_are_named)
{
	expect_bad("size", "0x10", "out of range");
	expect_bad("size", "-4x10", "out of range");
	expect_bad("size", "10", "NXxNY");
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
		struct apod_deck d;
		apod_deck_defaults(&d);
		ck_assert_int_eq(apod_deck_load(&d, srcpath(cases[i].file)), -1);
		ck_assert_msg(strstr(apod_failure(), cases[i].fragment) != NULL, "%s: message '%s'",
		              cases[i].file, apod_failure());
	}
}
END_TEST

START_TEST(too_big_for_memory_is_refused_with_bytes)
{
	struct apod_deck d;
	apod_deck_defaults(&d);
	ck_assert_int_eq(apod_deck_set(&d, "size", "1048576x1048576", "t"), 0);
	ck_assert_int_eq(apod_deck_validate(&d), -1);
	ck_assert_msg(strstr(apod_failure(), "bytes") != NULL, "%s", apod_failure());
}
END_TEST

START_TEST(problem_has_fixed_edges_and_heaters)
{
	struct apod_deck d;
	struct apod_problem p;
	apod_deck_defaults(&d);
	ck_assert_int_eq(apod_deck_set(&d, "size", "40x30", "t"), 0);
	d.nsources = 1;
	d.sources[0] = (struct apod_source){ 0.5, 0.5, 0.1, 77 };
	ck_assert_int_eq(apod_problem_init(&p, &d), 0);
	ck_assert(p.init[5] == (apod_real)100);                  /* top edge: hot */
	ck_assert(p.init[(p.ny - 1) * p.nx + 5] == (apod_real)0); /* bottom edge: cold */
	ck_assert(p.init[10 * p.nx] == (apod_real)0);             /* left edge */
	ck_assert(p.init[10 * p.nx + 5] == (apod_real)20);        /* interior */
	/* radius 0.1 of the shorter side (30) is 3 cells: a disc of about 28 cells. */
	ck_assert_uint_gt(p.nsrc, 20);
	ck_assert_uint_lt(p.nsrc, 40);
	ck_assert(p.init[15 * p.nx + 20] == (apod_real)77);       /* the centre */
	for (size_t k = 1; k < p.nsrc; k++)
		ck_assert_uint_gt(p.src_idx[k], p.src_idx[k - 1]);
	ck_assert_int_eq(p.nzones, 64);
	ck_assert_uint_eq(apod_zone_col0(&p, 8), p.nx);
	apod_problem_free(&p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("deck");
	TCase *t = tcase_create("core");
	SRunner *r;
	int failed;
	tcase_add_test(t, medium_deck_is_the_default);
	tcase_add_test(t, small_deck_loads);
	tcase_add_test(t, bad_values_are_named);
	tcase_add_test(t, bad_files_are_named);
	tcase_add_test(t, too_big_for_memory_is_refused_with_bytes);
	tcase_add_test(t, problem_has_fixed_edges_and_heaters);
	suite_add_tcase(s, t);
	r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
