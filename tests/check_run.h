/*
 * tests/check_run.h: every Check test's main(), so that a test file holds
 * its tests and the list of them, and how a suite is made, run and
 * reported is written once.
 */
#ifndef CHECK_RUN_H
#define CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

/* A suite of one test case, `tcase`, holding `tests` (in the order they
 * run, ended by NULL); `timeout` in seconds, or 0 for Check's own. */
static inline Suite *check_suite(const char *name, const char *tcase, int timeout,
                                 const TTest *const *tests)
{
	Suite *s = suite_create(name);
	TCase *t = tcase_create(tcase);
	if (timeout)
		tcase_set_timeout(t, timeout);
	for (int i = 0; tests[i]; i++)
		tcase_add_test(t, tests[i]);
	suite_add_tcase(s, t);
	return s;
}

/* Runs every test of s and frees it; fork is CK_FORK_GETENV (Check's
 * default: a process a test, unless CK_FORK=no) or CK_NOFORK (the GPU
 * tests: a CUDA context does not survive fork).  Returns main's status. */
static inline int check_run(Suite *s, enum fork_status fork)
{
	SRunner *r = srunner_create(s);
	int failed;
	srunner_set_fork_status(r, fork);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
