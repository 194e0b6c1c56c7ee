/*
 * apod/trace.h: the device's busy time of a program's own measurements
 * under `--trace` (NVIDIA's CUPTI activity records, loaded by the harness
 * only when a trace is asked for).  The harness traces its phases by
 * itself; this is for what a program times outside them, such as the
 * kernel benchmark of struct apod_program's kernels hook (`apod bench
 * --kernels --trace`): bracket the calls to attribute with enter and leave,
 * then collect.
 *
 *     if (apod_trace_on()) {
 *         if (apod_trace_enter(0)) return -1;
 *         ... launches ...
 *         if (apod_trace_leave() || apod_trace_collect(&busy, &work, 1, &other)) return -1;
 *     }
 *
 * Without CUPTI (a build or a machine that lacks it) apod_trace_on is 0.
 */
#ifndef APOD_PUBLIC_TRACE_H
#define APOD_PUBLIC_TRACE_H

#include "apod.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if this run is being traced. */
APOD_API int apod_trace_on(void);
/* The calling thread's CUDA calls from now on belong to phase (0 ..
 * nphases-1 of the next collect); leave ends that.  0, or -1 with apod_fail. */
APOD_API int apod_trace_enter(int phase);
APOD_API int apod_trace_leave(void);
/* After a failure inside a phase: leave every phase this thread entered. */
APOD_API void apod_trace_unwind(void);
/* Flush the records and add each phase's busy seconds (its kernels',
 * copies' and memsets' summed durations) to busy[] and its work seconds
 * (first start to last end in each occurrence) to work[], and the device
 * time of work issued outside every phase to *unattributed; the record then
 * starts afresh.  0, or -1 with apod_fail. */
APOD_API int apod_trace_collect(double *busy, double *work, int nphases, double *unattributed);

#ifdef __cplusplus
}
#endif

#endif
