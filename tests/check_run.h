/*
 * tests/check_run.h: the end of every Check test's main(), so that a test
 * file holds its tests and the list of them, and how a suite is run and
 * reported is written once.
 */
#ifndef CHECK_RUN_H
#define CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

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
