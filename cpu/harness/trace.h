/*
 * trace.h: the device's own time per phase, from NVIDIA's CUPTI (`--trace`).
 *
 * CUDA events on a stage's stream (its mark and device_seconds) time the
 * span of a phase on the device: from the moment the device reaches the
 * phase's first event to the moment it reaches its last, including any
 * time it sat idle inside the phase waiting for the host's next launch.
 * The trace instead reads when the device started and ended each kernel,
 * copy and memset that the phase's calls issued (CUPTI's activity records)
 * and gives two figures per phase (trace_book.h): busy, their summed
 * durations, and work, from the first one starting to the last one ending
 * in each occurrence of the phase.  Span minus work is the device waiting
 * for the host's first launch; work minus busy the gaps between the
 * phase's own kernels.  It needs no help
 * from the stage: the harness tags every CUDA call it makes from a phase,
 * so any stage that calls CUDA, a user's own included, is traced.
 *
 * CUPTI is loaded with dlopen only when a trace is asked for: the apod
 * binary does not depend on it, and a build or machine without it says so.
 * Tracing adds host time to every CUDA call (a record each): a traced run's
 * host times are not the ones to quote; its busy times are.
 */
#ifndef APOD_TRACE_H
#define APOD_TRACE_H

#include "apod/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Load CUPTI and start recording; 0, or -1 with apod_fail.  Idempotent.
 * Start before the first CUDA call where possible (a command does so as
 * soon as it has parsed its options). */
int apod_trace_start(void);
/* apod_trace_on, _enter, _leave, _unwind and _collect: apod/trace.h. */

#ifdef __cplusplus
}
#endif

#endif
