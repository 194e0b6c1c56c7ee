/*
 * nvtx.c: the phases' NVTX ranges (nvtx.h).  The names are made once a
 * run, not once a step: a range is pushed several times a step.
 */
#include <stdio.h>

#include "nvtx.h"
#include "rundata.h"

#if defined(HAVE_CUDA) && defined(__has_include)
#if __has_include(<nvtx3/nvToolsExt.h>)
#define APOD_HAVE_NVTX 1
#include <nvtx3/nvToolsExt.h>
#endif
#endif

#ifdef APOD_HAVE_NVTX

static char names[APOD_MAX_PHASES][96];
static int nnames;

void apod_nvtx_stage(const struct apod_workload *w, const char *stage)
{
	nnames = apod_phase_count(w);
	if (nnames > APOD_MAX_PHASES)
		nnames = APOD_MAX_PHASES;
	for (int i = 0; i < nnames; i++)
		snprintf(names[i], sizeof names[i], "%s/%s", stage, apod_phase_name(w, i));
}

void apod_nvtx_push(int phase)
{
	/* A phase out of range still gets a range, so pushes and pops pair. */
	nvtxRangePushA(phase >= 0 && phase < nnames ? names[phase] : "apod/phase");
}

void apod_nvtx_pop(void)
{
	nvtxRangePop();
}

int apod_nvtx_built(void)
{
	return 1;
}

#else

void apod_nvtx_stage(const struct apod_workload *w, const char *stage)
{
	(void)w, (void)stage;
}
void apod_nvtx_push(int phase)
{
	(void)phase;
}
void apod_nvtx_pop(void) {}
int apod_nvtx_built(void)
{
	return 0;
}

#endif
