/*
 * GPU failures that must be reported, not crashed on.  Runs without fork
 * (CK_NOFORK): the CUDA runtime does not survive fork() once initialised.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <time.h>

#include "gpu/device.h"
#include "gpu/phase_events.h"
#include "tests/gpu/provoke.h"
#include "tests/gpu/spin.h"
#include "cpu/harness/fail.h"
#include "cpu/heat/heat.h"
#include "cpu/heat/heat_workload.h"
#include "cpu/harness/params.h"
#include "cpu/harness/run.h"
#include "check_run_gpu.h"

START_TEST(too_big_for_the_device_names_the_bytes)
{
	ck_assert_int_eq(apod_gpu_require("test", SIZE_MAX / 2), -1);
	ck_assert_int_eq(apod_failure_status(), APOD_EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "bytes of device memory"));
	ck_assert_ptr_nonnull(strstr(apod_failure(), "are free"));
	ck_assert_int_eq(apod_gpu_require("test", 1024), 0);
}
END_TEST

/* Step `step`: every phase of heat's step, in order, as the harness calls them. */
static int step_all(const struct apod_stage *e, void *ctx, long step, long steps)
{
	for (int j = 0; heat_workload.phases[j].name; j++)
		if (e->ops->step(ctx, j, step, steps))
			return -1;
	return 0;
}

/* Probe k's row `row` at once: a stage that defers its probes (collect)
 * issues it and then has it collected alone. */
static int probe_now(const struct apod_stage *e, void *ctx, int k, long step, long row,
                     void *const *rows)
{
	if (!e->ops->collect)
		return e->ops->probe(ctx, k, step, row, rows);
	return e->ops->probe(ctx, k, step, row, NULL) || e->ops->collect(ctx, k, row, 1, rows);
}

/* Step 1 and its statistics. */
static void first_step(const struct apod_stage *e, void *ctx, long steps, double **rows)
{
	void *typed[3] = { rows[0], rows[1], rows[2] };
	ck_assert_msg(step_all(e, ctx, 1, steps) == 0, "%s: %s", e->name, apod_failure());
	ck_assert_msg(probe_now(e, ctx, 0, 1, 0, typed) == 0, "%s: %s", e->name, apod_failure());
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
			void *ctx;
			if (!e->ops)   /* not in this build */
				continue;
			ctx = e->ops->create(e, problem);
			ck_assert_msg(ctx != NULL, "%s: %s", e->name, apod_failure());
			first_step(e, ctx, d->steps, rows);
			ck_assert(stats[1] >= 0 && stats[2] <= 100);
			{
				double cells = 0;
				for (int b = 0; b < 64; b++)
					cells += hist[b];
				ck_assert_double_eq(cells, (double)(d->size[0] * d->size[1]));
			}
			e->ops->destroy(ctx);
		}
		heat_workload.problem_destroy(problem);
		free(d);
	}
}
END_TEST

/* The deferred probes (the resident stages' probe with rows NULL, then
 * collect) give the rows that collecting each at once gives, bit for bit:
 * over more rows than a ring holds, collected in batches that wrap around
 * it, as the harness does at snapshots, and in full rings, collected as
 * the harness does when defer_rows are pending: after the next step,
 * before its probe (gpu4's step writes its row itself, so its ring needs
 * a slot more than it declares). */
#define DEFER_STEPS 300
#define DEFER_BATCH 50    /* rows collected at a time: not a divisor of defer_rows */

/* Row `row` of probe k's series in out[] (stats: 4 wide, hist, zones). */
static void series_at(double *out[3], const int width[3], int k, long row, void *rows[3])
{
	for (int i = 0; i < 3; i++)
		rows[i] = (i == HEAT_SERIES_ZONES) == (k == 1) ? out[i] + (size_t)row * width[i] : NULL;
}

START_TEST(deferred_probes_equal_the_synchronous_ones)
{
	struct heat_deck *d = apod_params_new(&heat_workload);
	void *problem;
	int tested = 0;
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(apod_params_set(&heat_workload, d, "size", "256x96", "t"), 0);
	ck_assert_int_eq(apod_params_set(&heat_workload, d, "steps", "300", "t"), 0);
	ck_assert_int_eq(apod_params_set(&heat_workload, d, "summary_every", "2", "t"), 0);
	ck_assert_ptr_nonnull(problem = heat_workload.problem_create(d));
	/* Each stage twice: batches of DEFER_BATCH rows, then full rings. */
	for (int t = 2; heat_stages[t / 2]; t++) {
		const struct apod_stage *e = heat_stages[t / 2];
		const struct apod_stage_ops *o = e->ops;
		long batch;
		const int width[3] = { 4, (int)d->hist_bins, (int)(d->zones[0] * d->zones[1]) };
		const long every[2] = { 1, 2 };
		double *want[3], *got[3];
		long pending[2] = { 0, 0 }, done[2] = { 0, 0 };
		char why[256];
		void *a, *b, *rows[3];
		if (!o || !o->collect || (o->available && !o->available(e, why, sizeof why)))
			continue;
		batch = t % 2 ? o->defer_rows : DEFER_BATCH;
		ck_assert_int_lt(o->defer_rows, DEFER_STEPS);
		ck_assert_int_lt(DEFER_BATCH, o->defer_rows);
		for (int s = 0; s < 3; s++) {
			ck_assert_ptr_nonnull(want[s] = calloc((size_t)DEFER_STEPS * width[s], sizeof(double)));
			ck_assert_ptr_nonnull(got[s] = calloc((size_t)DEFER_STEPS * width[s], sizeof(double)));
		}
		a = o->create(e, problem);
		b = o->create(e, problem);
		ck_assert_msg(a && b, "%s: %s", e->name, apod_failure());
		for (long step = 1; step <= DEFER_STEPS; step++) {
			ck_assert_msg(step_all(e, a, step, DEFER_STEPS) == 0 &&
			              step_all(e, b, step, DEFER_STEPS) == 0, "%s: %s", e->name,
			              apod_failure());
			for (int k = 0; k < 2; k++) {
				long row = step / every[k] - 1;
				if (step % every[k])
					continue;
				series_at(want, width, k, row, rows);
				ck_assert_msg(probe_now(e, b, k, step, row, rows) == 0, "%s: %s", e->name,
				              apod_failure());
				if (pending[k] == batch) {
					series_at(got, width, k, done[k], rows);
					ck_assert_msg(o->collect(a, k, done[k], pending[k], rows) == 0,
					              "%s: %s", e->name, apod_failure());
					done[k] += pending[k];
					pending[k] = 0;
				}
				ck_assert_msg(o->probe(a, k, step, row, NULL) == 0, "%s: %s", e->name,
				              apod_failure());
				pending[k]++;
			}
		}
		for (int k = 0; k < 2; k++) {
			series_at(got, width, k, done[k], rows);
			ck_assert_int_eq(o->collect(a, k, done[k], pending[k], rows), 0);
			ck_assert_int_eq(done[k] + pending[k], DEFER_STEPS / every[k]);
		}
		for (int s = 0; s < 3; s++) {
			size_t n = (size_t)(DEFER_STEPS / every[s == HEAT_SERIES_ZONES]) * width[s];
			ck_assert_msg(memcmp(want[s], got[s], n * sizeof(double)) == 0,
			              "%s: series %d differs between rows collected at once and %ld at a "
			              "time", e->name, s, batch);
			free(want[s]);
			free(got[s]);
		}
		o->destroy(a);
		o->destroy(b);
		tested++;
	}
	/* gpu2, gpu3 and gpu4 at least, twice each. */
	ck_assert_int_ge(tested, 6);
	heat_workload.problem_destroy(problem);
	free(d);
}
END_TEST

static void phase(struct apod_phase_events *pe, int k, double spin)
{
	ck_assert_int_eq(apod_phase_events_mark(pe, k, 0), 0);
	if (spin > 0) {
		ck_assert_int_eq(apod_phase_events_issue(pe), 0);
		ck_assert_int_eq(apod_gpu_spin(0, spin), 0);
	}
	ck_assert_int_eq(apod_phase_events_mark(pe, k, 1), 0);
}

/* Events where the work changes phase (gpu/phase_events.h): a chained
 * phase stays open across one that issued nothing, which gets no time; an
 * unchained phase closes at its end mark, so the host's 100 ms after it
 * are nobody's; and more events than the ring holds are all counted.  The
 * spins give lower bounds; the upper ones only tell the nap apart. */
START_TEST(phase_edges_time_the_work)
{
	struct apod_phase_events *pe = apod_phase_events_edges(0, 8, 1u << 1);
	struct timespec nap = { 0, 100000000 };
	double sec[8] = { 0 }, ring[8] = { 0 };
	ck_assert_ptr_nonnull(pe);
	/* The kernel's module loaded before anything is timed. */
	ck_assert_int_eq(apod_gpu_spin(0, 1e-6), 0);
	phase(pe, 1, 2e-3);
	phase(pe, 2, 0);
	phase(pe, 1, 2e-3);
	phase(pe, 5, 1e-3);
	ck_assert_int_eq(cudaDeviceSynchronize(), cudaSuccess);
	nanosleep(&nap, NULL);
	phase(pe, 1, 1e-3);
	ck_assert_int_eq(apod_phase_events_collect(pe, sec, 8), 0);
	ck_assert_double_eq(sec[2], 0);
	ck_assert_msg(sec[5] >= 1e-3 && sec[5] < 60e-3, "writeSnapshot's phase: %g s", sec[5]);
	ck_assert_msg(sec[1] >= 5e-3 && sec[1] < 60e-3, "the step: %g s", sec[1]);
	apod_phase_events_free(pe);

	/* 300 x 2 edges: the ring of 256 is read back as it fills. */
	ck_assert_ptr_nonnull(pe = apod_phase_events_edges(0, 8, 1u << 1 | 1u << 3));
	for (int i = 0; i < 300; i++) {
		phase(pe, 3, 2e-5);
		phase(pe, 1, 2e-5);
	}
	ck_assert_int_eq(apod_phase_events_collect(pe, ring, 8), 0);
	ck_assert_msg(ring[1] >= 300 * 2e-5 && ring[3] >= 300 * 2e-5, "%g s, %g s", ring[1], ring[3]);
	apod_phase_events_free(pe);
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
	const TTest *tests[] = {
		too_big_for_the_device_names_the_bytes, every_stage_runs_a_tiny_deck,
		deferred_probes_equal_the_synchronous_ones, phase_edges_time_the_work,
		/* Last: in one process (no fork), the errors it provokes would stay
		 * behind as CUDA's last error for the next launch check to find. */
		real_failures_are_named,
		NULL,
	};
	return check_run_gpu(check_suite("gpu", "device", 0, tests));
}
