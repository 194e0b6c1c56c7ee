#include <stdlib.h>

#include "apod/cuda.h"
#include "phase_events.h"

#define SLOTS 256              /* events in flight before the oldest is read back */
#define MAX_PHASES 32

struct apod_phase_events {
	cudaStream_t stream;
	int nphases;
	int edges;                 /* record where work changes phase, not at marks */
	unsigned chained;          /* edges: phases left open past their end mark */
	cudaEvent_t ev[SLOTS];
	int owner[SLOTS];          /* the phase timed from ev[i] to the next event, or -1 */
	int head, count;           /* the recorded events: oldest at head */
	int marked;                /* the phase between its marks on the host, or -1 */
	int open;                  /* the phase the newest event began, or -1 */
	double sum[MAX_PHASES];
};

extern "C" void apod_phase_events_free(struct apod_phase_events *pe)
{
	if (!pe)
		return;
	for (int i = 0; i < SLOTS; i++)
		if (pe->ev[i])
			cudaEventDestroy(pe->ev[i]);
	free(pe);
}

static int create_all(struct apod_phase_events *pe)
{
	for (int i = 0; i < SLOTS; i++)
		APOD_CUDA_TRY(cudaEventCreate(&pe->ev[i]));
	return 0;
}

static struct apod_phase_events *create(cudaStream_t stream, int nphases, int edges,
                                        unsigned chained)
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
	pe->edges = edges;
	pe->chained = chained;
	pe->marked = pe->open = -1;
	if (create_all(pe)) {
		apod_phase_events_free(pe);
		return NULL;
	}
	return pe;
}

extern "C" struct apod_phase_events *apod_phase_events_new(cudaStream_t stream, int nphases)
{
	return create(stream, nphases, 0, 0);
}

extern "C" struct apod_phase_events *apod_phase_events_edges(cudaStream_t stream, int nphases,
                                                             unsigned chained)
{
	return create(stream, nphases, 1, chained);
}

/* Wait for the oldest event's successor and add the time between them to
 * the oldest's phase; needs two events. */
static int drain_one(struct apod_phase_events *pe)
{
	int i = pe->head, j = (pe->head + 1) % SLOTS;
	if (pe->owner[i] >= 0) {
		float ms;
		APOD_CUDA_TRY(cudaEventSynchronize(pe->ev[j]));
		APOD_CUDA_TRY(cudaEventElapsedTime(&ms, pe->ev[i], pe->ev[j]));
		pe->sum[pe->owner[i]] += 1e-3 * (double)ms;
	}
	pe->head = j;
	pe->count--;
	return 0;
}

/* Record an event that ends the open phase's time and begins owner's (-1: none). */
static int edge(struct apod_phase_events *pe, int owner)
{
	int slot;
	if (pe->count == SLOTS && drain_one(pe))
		return -1;
	slot = (pe->head + pe->count) % SLOTS;
	APOD_CUDA_TRY(cudaEventRecord(pe->ev[slot], pe->stream));
	pe->owner[slot] = owner;
	pe->count++;
	pe->open = owner;
	return 0;
}

extern "C" int apod_phase_events_mark(struct apod_phase_events *pe, int phase, int end)
{
	if (phase < 0 || phase >= pe->nphases)
		return apod_fail("phase events: phase %d of %d", phase, pe->nphases);
	if (end) {
		if (pe->marked != phase)
			return apod_fail("phase events: phase %d ended without a start", phase);
		pe->marked = -1;
		if (!pe->edges)
			return edge(pe, -1);
		/* A phase that issued work and may not stay open ends here. */
		return pe->open == phase && !(pe->chained & 1u << phase) ? edge(pe, -1) : 0;
	}
	if (pe->marked >= 0)
		return apod_fail("phase events: phase %d started inside phase %d", phase, pe->marked);
	pe->marked = phase;
	return pe->edges ? 0 : edge(pe, phase);
}

extern "C" int apod_phase_events_issue(struct apod_phase_events *pe)
{
	if (!pe->edges || pe->open == pe->marked)
		return 0;
	/* Work outside every phase (setup, a benchmark) ends the open one's time. */
	return edge(pe, pe->marked);
}

extern "C" int apod_phase_events_collect(struct apod_phase_events *pe, double *seconds, int nphases)
{
	if (pe->open >= 0 && edge(pe, -1))
		return -1;
	while (pe->count > 1)
		if (drain_one(pe))
			return -1;
	pe->count = 0;
	for (int i = 0; i < nphases && i < pe->nphases; i++)
		seconds[i] += pe->sum[i];
	return 0;
}
