/*
 * GPU failures that must be reported, not crashed on.  Runs without fork
 * (CK_NOFORK): the CUDA runtime does not survive fork() once initialised.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "provoke.h"
#include "fail.h"
#include "heat.h"
#include "heat_workload.h"
#include "params.h"
#include "run.h"

START_TEST(too_big_for_the_device_names_the_bytes)
{
	ck_assert_int_eq(apod_gpu_require("test", SIZE_MAX / 2), -1);
	ck_assert_int_eq(apod_failure_status(), APOD_EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "bytes of device memory"));
	ck_assert_ptr_nonnull(strstr(apod_failure(), "are free"));
	ck_assert_int_eq(apod_gpu_require("test", 1024), 0);
}
END_TEST

/* Step 1 and its statistics, through whichever calls the stage has. */
static void first_step(const struct apod_stage *e, void *ctx, long steps, double **rows)
{
	void *typed[3] = { rows[0], rows[1], rows[2] };
	ck_assert_msg((e->step_at ? e->step_at(ctx, 1, steps) : e->step(ctx)) == 0, "%s: %s", e->name,
	              apod_failure());
	ck_assert_msg((e->probe_at ? e->probe_at(ctx, 0, 1, typed) : e->probe(ctx, 0, rows)) == 0,
	              "%s: %s", e->name, apod_failure());
}

/* 33 columns, and 36 (a multiple of 4: gpu5's own kernel). */
START_TEST(every_stage_runs_a_tiny_deck)
{
	static const char *const sizes[] = { "33x17", "36x17" };
	for (int k = 0; k < 2; k++) {
		struct heat_deck *d = apod_params_new(&heat_workload);
		void *problem;
		ck_assert_ptr_nonnull(d);
		ck_assert_int_eq(apod_params_set(&heat_workload, d, "size", sizes[k], "t"), 0);
		ck_assert_ptr_nonnull(problem = heat_workload.problem_create(d));
		for (int i = 2; heat_stages[i]; i++) {
			const struct apod_stage *e = heat_stages[i];
			double stats[4], hist[64];
			double *rows[3] = { stats, hist, NULL };
			void *ctx = e->create(problem);
			ck_assert_msg(ctx != NULL, "%s: %s", e->name, apod_failure());
			first_step(e, ctx, d->steps, rows);
			ck_assert(stats[1] >= 0 && stats[2] <= 100);
			{
				double cells = 0;
				for (int b = 0; b < 64; b++)
					cells += hist[b];
				ck_assert_double_eq(cells, (double)(d->size[0] * d->size[1]));
			}
			e->destroy(ctx);
		}
		heat_workload.problem_destroy(problem);
		free(d);
	}
}
END_TEST

/* Each failure comes back as -1 with the call, the file, the line and the
 * CUDA error's name, and leaves the device usable. */
START_TEST(real_failures_are_named)
{
	static const struct { const char *call, *error; } cases[] = {
		{ "touch_kernel<<<1, 4096", "cudaErrorInvalid" },
		{ "touch_kernel<<<1, 32, 16u << 20>>>", "cudaError" },
		{ "cudaSetDevice(n + 7)", "cudaErrorInvalidDevice" },
	};
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(apod_gpu_provoke(i), -1);
		ck_assert_msg(strstr(apod_failure(), cases[i].call) != NULL, "%d: %s", i, apod_failure());
		ck_assert_msg(strstr(apod_failure(), "provoke.cu:") != NULL, "%d: %s", i, apod_failure());
		ck_assert_msg(strstr(apod_failure(), cases[i].error) != NULL, "%d: %s", i, apod_failure());
	}
	ck_assert_int_eq(apod_gpu_require("test", 1024), 0);
}
END_TEST

int main(void)
{
	char why[256];
	Suite *s;
	TCase *t;
	SRunner *r;
	int failed;
	if (!apod_gpu_available(why, sizeof why)) {
		printf("SKIP: %s\n", why);
		return 77;
	}
	s = suite_create("gpu");
	t = tcase_create("device");
	tcase_add_test(t, too_big_for_the_device_names_the_bytes);
	tcase_add_test(t, every_stage_runs_a_tiny_deck);
	tcase_add_test(t, real_failures_are_named);
	suite_add_tcase(s, t);
	r = srunner_create(s);
	srunner_set_fork_status(r, CK_NOFORK);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
