/*
 * trace_book.h: the accounting behind `--trace` (trace.c), kept apart from
 * CUPTI so that it can be tested without a GPU.
 *
 * CUPTI reports two kinds of record, in any order and from its own thread:
 * which phase each CUDA API call was made in (its correlation id, tagged
 * with the phase and which occurrence of it the harness had entered), and
 * when the device started and ended each kernel, copy or memset (tagged
 * with the correlation id of the call that issued it).  The book keeps both
 * and, when asked, gives per phase:
 *
 *   busy: the summed durations of the phase's work;
 *   work: for each occurrence of the phase, the time from its first piece
 *         of work starting to its last ending, summed over occurrences
 *         (busy plus the gaps between its kernels; without the wait for
 *         the host before its first).
 *
 * Work issued outside every phase (the snapshot writer thread's downloads)
 * is summed apart, as unattributed.
 *
 * A kernel launched with programmatic dependent launch starts while the
 * one before it in its stream is still running, and waits inside for it:
 * its record's start is early.  So a piece of work is counted from the end
 * of the work before it in the same stream where it starts earlier; work
 * in other streams overlaps for real and is not clipped.
 */
#ifndef APOD_TRACE_BOOK_H
#define APOD_TRACE_BOOK_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct apod_trace_activity {
	uint64_t tag;                 /* filled in when summing */
	uint64_t start, end;          /* ns, the device's clock */
	uint32_t corr, stream;
};

struct apod_trace_book {
	pthread_mutex_t lock;
	uint64_t *tag_of;             /* by correlation id: the call's tag, or 0 */
	size_t ntag_of;
	struct apod_trace_activity *acts;
	size_t nacts, cap;
	int failed;                   /* out of memory while recording */
};

/* A tag names one occurrence of a phase: occurrence * 256 + phase + 1. */
#define APOD_TRACE_MAX_PHASES 255
#define APOD_TRACE_TAG(occurrence, phase) ((uint64_t)(occurrence) * 256u + (uint64_t)(phase) + 1u)

void apod_trace_book_init(struct apod_trace_book *b);
void apod_trace_book_free(struct apod_trace_book *b);
/* The API call with this correlation id was made under tag. */
void apod_trace_book_call(struct apod_trace_book *b, uint32_t corr, uint64_t tag);
/* The device ran work issued by the call with this correlation id, in
 * stream (CUPTI's stream id). */
void apod_trace_book_work(struct apod_trace_book *b, uint32_t corr, uint32_t stream, uint64_t start,
                          uint64_t end);
/* Add each phase's busy and work seconds to busy[] and work[] (nphases
 * each) and the durations of untagged work to *unattributed, then forget
 * everything; -1 if recording ran out of memory. */
int apod_trace_book_sum(struct apod_trace_book *b, double *busy, double *work, int nphases,
                        double *unattributed);

#endif
