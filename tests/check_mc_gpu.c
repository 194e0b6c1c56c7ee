/*
 * The Monte Carlo error analysis, path by path, on the device: every
 * path's S_T, geometric and arithmetic means from gpu1's, gpu2's and gpu3's
 * path code must be within eta (cpu/montecarlo/workload.c) of the host's,
 * relative, and gpu3's must be gpu2's bits (gpu/montecarlo/path3.cuh).  The gate checks sums of payoffs; this checks the premise
 * its bounds rest on, and prints how much of eta was used.  Skips (77)
 * without a GPU.  Runs without fork: the CUDA runtime does not survive it.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/harness/fail.h"
#include "cpu/montecarlo/montecarlo.h"
#include "cpu/montecarlo/montecarlo_workload.h"
#include "cpu/harness/params.h"
#include "check_run_gpu.h"

static void paths_within_eta(const char *monitor, const char *sigma)
{
	const size_t n = 200000;
	struct mc_params *prm = apod_params_new(&montecarlo_workload);
	struct mc_problem *p;
	double *dev = malloc(3 * n * sizeof *dev), *dev2 = malloc(3 * n * sizeof *dev2), eta;
	ck_assert_ptr_nonnull(prm);
	ck_assert_ptr_nonnull(dev);
	ck_assert_ptr_nonnull(dev2);
	ck_assert_int_eq(apod_params_set(&montecarlo_workload, prm, "monitor", monitor, "t"), 0);
	ck_assert_int_eq(apod_params_set(&montecarlo_workload, prm, "sigma", sigma, "t"), 0);
	ck_assert_ptr_nonnull(p = montecarlo_workload.problem_create(prm));
	eta = mc_path_eta(prm);
	for (int tuned = 0; tuned < 3; tuned++) {
		double worst = 0;
		size_t differ = 0;
		ck_assert_msg(mc_gpu_outcomes(&p->model, 12345, n, tuned, dev) == 0, "%s", apod_failure());
		for (size_t i = 0; i < n; i++) {
			struct mc_outcome h = mc_path(&p->model, 12345 + i);
			double want[3] = { h.st, h.geo, h.arith };
			for (int k = 0; k < 3; k++) {
				double r = fabs(dev[3 * i + (size_t)k] - want[k]) / (eta * want[k]);
				differ += dev[3 * i + (size_t)k] != want[k];
				worst = r > worst ? r : worst;
			}
		}
		printf("monitor %s, sigma %s, gpu%d: %zu of %zu values differ from the host's; the "
		       "largest difference is %.3g of eta = %.3g\n", monitor, sigma, tuned + 1, differ,
		       3 * n, worst, eta);
		ck_assert_msg(worst <= 1, "gpu%d: a path differs by %g eta", tuned + 1, worst);
		if (tuned == 1)
			memcpy(dev2, dev, 3 * n * sizeof *dev);
	}
	{   /* the last round was gpu3's */
		size_t same = 0;
		for (size_t i = 0; i < 3 * n; i++)
			same += memcmp(&dev[i], &dev2[i], sizeof *dev) == 0;
		printf("monitor %s, sigma %s: gpu3 has gpu2's bits in %zu of %zu values\n", monitor, sigma,
		       same, 3 * n);
		ck_assert_msg(same == 3 * n, "gpu3 differs from gpu2 in %zu values", 3 * n - same);
	}
	montecarlo_workload.problem_destroy(p);
	free(prm);
	free(dev);
	free(dev2);
}

START_TEST(paths_within_eta_short)
{
	paths_within_eta("13", "0.25");
}
END_TEST

START_TEST(paths_within_eta_long_and_volatile)
{
	paths_within_eta("1000", "1.5");
}
END_TEST

int main(void)
{
	const TTest *tests[] = {
		paths_within_eta_short, paths_within_eta_long_and_volatile,
		NULL,
	};
	return check_run_gpu(check_suite("montecarlo-gpu", "paths", 120, tests));
}
