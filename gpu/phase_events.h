/*
 * phase_events.h: the device time of each phase of a run, from CUDA events
 * recorded on a stage's stream around the work of each phase.
 *
 * Host clocks around asynchronous calls time the launches, and the wait
 * lands in whichever phase synchronises next; events on the stream time
 * what the device did for each phase.  Pairs are kept in a ring and read
 * back lazily (the oldest pair is waited for only when the ring is full),
 * so marking a phase does not make the host wait for the device.
 */
#ifndef APOD_GPU_PHASE_EVENTS_H
#define APOD_GPU_PHASE_EVENTS_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

struct apod_phase_events;

/* Events for phases 0 .. nphases-1 on stream; NULL (with apod_fail) on failure. */
struct apod_phase_events *apod_phase_events_new(cudaStream_t stream, int nphases);
void apod_phase_events_free(struct apod_phase_events *pe);
/* Record the start (end = 0) or the end (end = 1) of phase on the stream. */
int apod_phase_events_mark(struct apod_phase_events *pe, int phase, int end);
/* Wait for every recorded pair and add each phase's device seconds to seconds[]. */
int apod_phase_events_collect(struct apod_phase_events *pe, double *seconds, int nphases);

#ifdef __cplusplus
}
#endif

#endif
