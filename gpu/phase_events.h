/*
 * phase_events.h: the device time of each phase of a run, from CUDA events
 * recorded on a stage's stream at the edges of each phase's work.
 *
 * Host clocks around asynchronous calls time the launches, and the wait
 * lands in whichever phase synchronises next; events on the stream time
 * what the device did for each phase.  Events are kept in a ring and read
 * back lazily (the oldest is waited for only when the ring is full), so
 * marking a phase does not make the host wait for the device.
 *
 * An event is not free: recording one between two kernels costs the device
 * 1.5 to 2 us (it waits for the first kernel to drain before it stamps the
 * time, and the next kernel cannot start early), measured on an H200 with
 * a 2048^2 step of 8 us: 8.1 us a step with no events, 17.0 with a pair
 * around the step and two more around two probes that launch nothing.  A
 * stage whose step is that short would be timed mostly by its timers, so
 * there are two ways to mark:
 *
 *  - pairs (apod_phase_events_new): an event at each mark, so a phase's
 *    time runs from its begin mark to its end mark as the device reached
 *    them.  Simple, and right for any stage.
 *
 *  - edges (apod_phase_events_edges): the marks only say which phase the
 *    host is in; an event is recorded where the device's work changes
 *    phase, when the stage calls apod_phase_events_issue() before it
 *    enqueues work.  A phase's time then runs from its first work to the
 *    next phase's first work (its span, the device's waits for the host
 *    included); the phases in `chained` stay open past their end mark, so
 *    a run of steps between whose probes issue nothing (their rows were
 *    computed in the step) costs no event at all.  Any other phase is
 *    closed at its end mark if it issued work, which keeps the host's own
 *    stretches (writing a snapshot, printing the report) out of the
 *    device's time.  The stage must call issue() before every launch, copy
 *    or memset (resident stages do it in the one place they get their
 *    stream); work issued outside any phase closes the open one.
 */
#ifndef APOD_GPU_PHASE_EVENTS_H
#define APOD_GPU_PHASE_EVENTS_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

struct apod_phase_events;

/* Events for phases 0 .. nphases-1 on stream, recorded at every mark;
 * NULL (with apod_fail) on failure. */
struct apod_phase_events *apod_phase_events_new(cudaStream_t stream, int nphases);
/* The same, recorded where the work changes phase (above); chained: a bit
 * a phase that may stay open past its end mark. */
struct apod_phase_events *apod_phase_events_edges(cudaStream_t stream, int nphases,
                                                  unsigned chained);
void apod_phase_events_free(struct apod_phase_events *pe);
/* The start (end = 0) or the end (end = 1) of phase, as the host runs it. */
int apod_phase_events_mark(struct apod_phase_events *pe, int phase, int end);
/* Edges: device work of the current phase is about to be enqueued on the
 * stream.  Does nothing for pairs, or where the phase's edge is recorded. */
int apod_phase_events_issue(struct apod_phase_events *pe);
/* Wait for every recorded event and add each phase's device seconds to seconds[]. */
int apod_phase_events_collect(struct apod_phase_events *pe, double *seconds, int nphases);

#ifdef __cplusplus
}

/* A stage's mark and device_seconds members (apod/workload.h) for a state
 * T that keeps its events in a member named `events`: the forwarders every
 * such stage would otherwise write again, named as
 * `.mark = apod_phase_events_mark_op<struct gpu1>`. */
template <class T> static int apod_phase_events_mark_op(void *ctx, int phase, int end)
{
	return apod_phase_events_mark(((T *)ctx)->events, phase, end);
}

template <class T> static int apod_phase_events_seconds_op(void *ctx, double *seconds, int nphases)
{
	return apod_phase_events_collect(((T *)ctx)->events, seconds, nphases);
}
#endif

#endif
