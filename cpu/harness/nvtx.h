/*
 * nvtx.h: an NVTX range around every phase the harness times, named
 * "STAGE/PHASE" (the stage, a slash, the phase), so that Nsight Systems' timeline,
 * Nsight Compute's --nvtx-include and CUPTI's marker records show apod's
 * stages and phases by name.  NVTX 3 is header-only: with no tool attached
 * a range costs a call through a pointer that does nothing.  In a build
 * without CUDA (or without the toolkit's headers) every call is a no-op.
 */
#ifndef APOD_NVTX_H
#define APOD_NVTX_H

#include "apod/workload.h"

/* The names of the ranges of a run of stage `stage` of w, which the
 * phases' pushes then use (the harness runs one stage at a time). */
void apod_nvtx_stage(const struct apod_workload *w, const char *stage);
/* Open phase's range (apod_phase_name's index) / close the innermost. */
void apod_nvtx_push(int phase);
void apod_nvtx_pop(void);
/* 1 where this build emits the ranges. */
int apod_nvtx_built(void);

#endif
