#include <stdlib.h>

#include "apod/cuda.h"
#include "phase_events.h"

#define SLOTS 256              /* pairs in flight before the oldest is read back */
#define MAX_PHASES 32

struct apod_phase_events {
	cudaStream_t stream;
	int nphases;
	cudaEvent_t begin[SLOTS], end[SLOTS];
	int phase[SLOTS];
	int head, count;           /* the recorded pairs: oldest at head */
	int open;                  /* the slot begun and not yet ended, or -1 */
	double sum[MAX_PHASES];
};

extern "C" void apod_phase_events_free(struct apod_phase_events *pe)
{
	if (!pe)
		return;
	for (int i = 0; i < SLOTS; i++) {
		if (pe->begin[i])
			cudaEventDestroy(pe->begin[i]);
		if (pe->end[i])
			cudaEventDestroy(pe->end[i]);
	}
	free(pe);
}

static int create_all(struct apod_phase_events *pe)
{
	for (int i = 0; i < SLOTS; i++) {
		APOD_CUDA_TRY(cudaEventCreate(&pe->begin[i]));
		APOD_CUDA_TRY(cudaEventCreate(&pe->end[i]));
	}
	return 0;
}

extern "C" struct apod_phase_events *apod_phase_events_new(cudaStream_t stream, int nphases)
{
	struct apod_phase_events *pe;
	if (nphases < 1 || nphases > MAX_PHASES) {
		apod_fail("phase events: %d phases (at most %d)", nphases, MAX_PHASES);
		return NULL;
	}
	if (!(pe = (struct apod_phase_events *)calloc(1, sizeof *pe))) {
		apod_fail("phase events: out of memory");
		return NULL;
	}
	pe->stream = stream;
	pe->nphases = nphases;
	pe->open = -1;
	if (create_all(pe)) {
		apod_phase_events_free(pe);
		return NULL;
	}
	return pe;
}

/* Wait for the oldest pair and add its time to its phase. */
static int drain_one(struct apod_phase_events *pe)
{
	float ms;
	int i = pe->head;
	APOD_CUDA_TRY(cudaEventSynchronize(pe->end[i]));
	APOD_CUDA_TRY(cudaEventElapsedTime(&ms, pe->begin[i], pe->end[i]));
	pe->sum[pe->phase[i]] += 1e-3 * (double)ms;
	pe->head = (pe->head + 1) % SLOTS;
	pe->count--;
	return 0;
}

extern "C" int apod_phase_events_mark(struct apod_phase_events *pe, int phase, int end)
{
	int slot;
	if (phase < 0 || phase >= pe->nphases)
		return apod_fail("phase events: phase %d of %d", phase, pe->nphases);
	if (end) {
		if (pe->open < 0 || pe->phase[pe->open] != phase)
			return apod_fail("phase events: phase %d ended without a start", phase);
		APOD_CUDA_TRY(cudaEventRecord(pe->end[pe->open], pe->stream));
		pe->count++;
		pe->open = -1;
		return 0;
	}
	if (pe->open >= 0)
		return apod_fail("phase events: phase %d started inside phase %d", phase,
		                 pe->phase[pe->open]);
	/* One slot stays free for the pair being opened. */
	if (pe->count == SLOTS - 1 && drain_one(pe))
		return -1;
	slot = (pe->head + pe->count) % SLOTS;
	pe->phase[slot] = phase;
	APOD_CUDA_TRY(cudaEventRecord(pe->begin[slot], pe->stream));
	pe->open = slot;
	return 0;
}

extern "C" int apod_phase_events_collect(struct apod_phase_events *pe, double *seconds, int nphases)
{
	while (pe->count > 0)
		if (drain_one(pe))
			return -1;
	for (int i = 0; i < nphases && i < pe->nphases; i++)
		seconds[i] += pe->sum[i];
	return 0;
}
