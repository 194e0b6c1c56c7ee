/*
 * tests/check_run_gpu.h: the end of a GPU Check test's main(), as
 * check_run.h's is of the others: where no GPU can run, the test skips.
 */
#ifndef CHECK_RUN_GPU_H
#define CHECK_RUN_GPU_H

#include <stdio.h>

#include "gpu/device.h"
#include "check_run.h"

/* Runs every test of s without fork (a CUDA context does not survive
 * fork once initialised) and frees it; where there is no usable device,
 * runs none: 77, automake's SKIP, with the reason.  Returns main's status. */
static inline int check_run_gpu(Suite *s)
{
	char why[256];
	if (!apod_gpu_available(why, sizeof why)) {
		printf("SKIP: %s\n", why);
		srunner_free(srunner_create(s));   /* frees s, unrun */
		return 77;
	}
	return check_run(s, CK_NOFORK);
}

#endif
