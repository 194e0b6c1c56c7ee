/* Amdahl's and Gustafson's laws, with the guide's worked cases. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "bounds.h"

START_TEST(guide_three_quarters_gives_four)
{
	/* The guide: if 3/4 of a program is parallelised, the most it can gain is 4x. */
	ck_assert_double_eq_tol(apod_amdahl(0.75, INFINITY), 4.0, 1e-12);
	ck_assert_double_eq_tol(apod_amdahl(0.75, 4), 1 / (0.25 + 0.75 / 4), 1e-12);
	ck_assert(apod_amdahl(0.75, 1e12) < 4.0);
}
END_TEST

START_TEST(amdahl_edges)
{
	ck_assert_double_eq(apod_amdahl(0, 1000), 1.0);       /* nothing ported */
	ck_assert_double_eq(apod_amdahl(1, 8), 8.0);          /* everything ported */
	ck_assert(isinf(apod_amdahl(1, INFINITY)));
	ck_assert_double_eq(apod_amdahl(0.5, 1), 1.0);        /* one processor */
	ck_assert(isnan(apod_amdahl(-0.1, 2)));
	ck_assert(isnan(apod_amdahl(1.1, 2)));
	ck_assert(isnan(apod_amdahl(0.5, 0.5)));
	ck_assert(isnan(apod_amdahl(NAN, 2)));
}
END_TEST

START_TEST(gustafson_scaled_speedup)
{
	/* S = N + (1 - P)(1 - N): with P = 0.9 and N = 64, 64 - 0.1*63 = 57.7. */
	ck_assert_double_eq_tol(apod_gustafson(0.9, 64), 57.7, 1e-12);
	ck_assert_double_eq_tol(apod_gustafson(0.75, 4), 3.25, 1e-12);
	ck_assert_double_eq(apod_gustafson(1, 16), 16);
	ck_assert_double_eq(apod_gustafson(0, 16), 1);
	/* Gustafson is never below Amdahl at the same P and N. */
	for (double p = 0; p <= 1; p += 0.05)
		ck_assert(apod_gustafson(p, 32) >= apod_amdahl(p, 32) - 1e-12);
	ck_assert(isnan(apod_gustafson(0.5, INFINITY)));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bounds");
	TCase *t = tcase_create("core");
	SRunner *r;
	int failed;
	tcase_add_test(t, guide_three_quarters_gives_four);
	tcase_add_test(t, amdahl_edges);
	tcase_add_test(t, gustafson_scaled_speedup);
	suite_add_tcase(s, t);
	r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
