/*
 * trace_book.h: the accounting behind `--trace` (trace.c), kept apart from
 * CUPTI so that it can be tested without a GPU.
 *
 * CUPTI reports two kinds of record, in any order and from its own thread:
 * which phase each CUDA API call was made in (a correlation id, tagged with
 * the phase the harness had entered), and how long the device spent on each
 * kernel, copy or memset (tagged with the correlation id of the call that
 * issued it).  The book keeps both and, when asked, sums the device's own
 * time per phase.  Work issued outside any phase (the snapshot writer
 * thread's downloads) is summed apart, as unattributed.
 */
#ifndef APOD_TRACE_BOOK_H
#define APOD_TRACE_BOOK_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

struct apod_trace_activity {
	uint32_t corr;
	uint64_t ns;
};

struct apod_trace_book {
	pthread_mutex_t lock;
	unsigned char *phase_of;      /* by correlation id: phase + 1, or 0 */
	size_t nphase_of;
	struct apod_trace_activity *acts;
	size_t nacts, cap;
	int failed;                   /* out of memory while recording */
};

#define APOD_TRACE_MAX_PHASES 254

void apod_trace_book_init(struct apod_trace_book *b);
void apod_trace_book_free(struct apod_trace_book *b);
/* The API call with this correlation id was made in phase (0..253). */
void apod_trace_book_call(struct apod_trace_book *b, uint32_t corr, int phase);
/* The device spent ns on work issued by the call with this correlation id. */
void apod_trace_book_work(struct apod_trace_book *b, uint32_t corr, uint64_t ns);
/* Add each phase's device seconds to busy[0..nphases-1] and the rest to
 * *unattributed, then forget everything; -1 if recording ran out of memory. */
int apod_trace_book_sum(struct apod_trace_book *b, double *busy, int nphases,
                        double *unattributed);

#endif
