/*
 * tests/check_nvtx.c: every phase of a GPU stage's run seen by name as an
 * NVTX range ("gpu4/genTimeStep"), through CUPTI's marker records, the way
 * Nsight Systems would see them (the GPU hosts here have no working nsys).
 * NVTX hands its calls to the tool named by NVTX_INJECTION64_PATH, CUPTI
 * here, on the first range: set before any range is pushed.  Skips (77)
 * without a GPU.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>

#include "cpu/harness/params.h"
#include "cpu/harness/run.h"
#include "cpu/heat/heat.h"
#include "cpu/heat/heat_workload.h"
#include "check_run_gpu.h"

#define MAX_NAMES 64
static char names[MAX_NAMES][96];
static int nnames;

static void CUPTIAPI requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	*buffer = aligned_alloc(8, 1 << 20);
	*size = *buffer ? 1 << 20 : 0;
	*max_records = 0;
}

static void CUPTIAPI completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                               size_t valid)
{
	CUpti_Activity *rec = NULL;
	(void)ctx, (void)stream, (void)size;
	while (cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
		const CUpti_ActivityMarker2 *m = (const CUpti_ActivityMarker2 *)rec;
		int seen = 0;
		if (rec->kind != CUPTI_ACTIVITY_KIND_MARKER || !m->name)
			continue;
		for (int i = 0; i < nnames; i++)
			seen |= !strcmp(names[i], m->name);
		if (!seen && nnames < MAX_NAMES)
			snprintf(names[nnames++], sizeof names[0], "%s", m->name);
	}
	free(buffer);
}

START_TEST(every_phase_named)
{
	const struct apod_stage *gpu4 = NULL;
	struct heat_deck *d = apod_params_new(&heat_workload);
	struct apod_run r;
	void *problem;
	char want[128], dir[] = "/tmp/apod-nvtx-XXXXXX";
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(apod_params_set(&heat_workload, d, "size", "256x96", "t"), 0);
	ck_assert_int_eq(apod_params_set(&heat_workload, d, "steps", "20", "t"), 0);
	ck_assert_int_eq(apod_params_set(&heat_workload, d, "snapshot_every", "10", "t"), 0);
	ck_assert_ptr_nonnull(problem = heat_workload.problem_create(d));
	for (int i = 0; heat_workload.stages[i]; i++)
		if (!strcmp(heat_workload.stages[i]->name, "gpu4"))
			gpu4 = heat_workload.stages[i];
	ck_assert_ptr_nonnull(gpu4);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(cuptiActivityRegisterCallbacks(requested, completed), CUPTI_SUCCESS);
	ck_assert_int_eq(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MARKER), CUPTI_SUCCESS);
	/* With an outdir, so that the snapshot and report phases run too. */
	ck_assert_int_eq(apod_simulate(&heat_workload, gpu4, d, problem, dir, 0, &r), 0);
	ck_assert_int_eq(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), CUPTI_SUCCESS);
	for (int i = 0; i < nnames; i++)
		printf("NVTX range: %s\n", names[i]);
	for (int i = 0; i < apod_phase_count(&heat_workload); i++) {
		int seen = 0;
		snprintf(want, sizeof want, "gpu4/%s", apod_phase_name(&heat_workload, i));
		for (int k = 0; k < nnames; k++)
			seen |= !strcmp(names[k], want);
		ck_assert_msg(seen, "no NVTX range named %s among %d", want, nnames);
	}
	apod_run_free(&r);
	heat_workload.problem_destroy(problem);
	free(d);
}
END_TEST

int main(void)
{
	const TTest *tests[] = { every_phase_named, NULL };
	/* Before the first range: NVTX loads its tool then, once. */
	if (!getenv("NVTX_INJECTION64_PATH"))
		setenv("NVTX_INJECTION64_PATH", APOD_CUPTI_PATH, 1);
	return check_run_gpu(check_suite("nvtx", "ranges", 120, tests));
}
