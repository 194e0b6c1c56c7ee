#include <stdlib.h>
#include <string.h>

#include "trace_book.h"

void apod_trace_book_init(struct apod_trace_book *b)
{
	memset(b, 0, sizeof *b);
	pthread_mutex_init(&b->lock, NULL);
}

static void forget(struct apod_trace_book *b)
{
	free(b->tag_of);
	free(b->acts);
	b->tag_of = NULL;
	b->acts = NULL;
	b->ntag_of = b->nacts = b->cap = 0;
	b->failed = 0;
}

void apod_trace_book_free(struct apod_trace_book *b)
{
	forget(b);
	pthread_mutex_destroy(&b->lock);
}

void apod_trace_book_call(struct apod_trace_book *b, uint32_t corr, uint64_t tag)
{
	pthread_mutex_lock(&b->lock);
	/* Correlation ids count up from 1 through the process: a table indexed
	 * by them stays small (8 bytes a CUDA call) and needs no hashing. */
	if (corr >= b->ntag_of) {
		size_t n = b->ntag_of ? b->ntag_of : 4096;
		uint64_t *t;
		while (n <= corr)
			n *= 2;
		if (!(t = realloc(b->tag_of, n * sizeof *t))) {
			b->failed = 1;
			goto out;
		}
		memset(t + b->ntag_of, 0, (n - b->ntag_of) * sizeof *t);
		b->tag_of = t;
		b->ntag_of = n;
	}
	b->tag_of[corr] = tag;
out:
	pthread_mutex_unlock(&b->lock);
}

void apod_trace_book_work(struct apod_trace_book *b, uint32_t corr, uint32_t stream, uint64_t start,
                          uint64_t end)
{
	pthread_mutex_lock(&b->lock);
	if (b->nacts == b->cap) {
		size_t n = b->cap ? 2 * b->cap : 4096;
		struct apod_trace_activity *a = realloc(b->acts, n * sizeof *a);
		if (!a) {
			b->failed = 1;
			goto out;
		}
		b->acts = a;
		b->cap = n;
	}
	b->acts[b->nacts++] =
		(struct apod_trace_activity){ 0, start, end < start ? start : end, corr, stream };
out:
	pthread_mutex_unlock(&b->lock);
}

static int by_stream_then_start(const void *x, const void *y)
{
	const struct apod_trace_activity *a = x, *b = y;
	if (a->stream != b->stream)
		return a->stream < b->stream ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

/* Work that started before the work ahead of it in its stream ended (a
 * programmatic dependent launch, waiting inside) counts from that end. */
static void clip_early_starts(struct apod_trace_activity *acts, size_t n)
{
	uint64_t ahead = 0;
	qsort(acts, n, sizeof *acts, by_stream_then_start);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || acts[i].stream != acts[i - 1].stream)
			ahead = 0;
		if (acts[i].start < ahead)
			acts[i].start = acts[i].end < ahead ? acts[i].end : ahead;
		if (acts[i].end > ahead)
			ahead = acts[i].end;
	}
}

static int by_tag_then_start(const void *x, const void *y)
{
	const struct apod_trace_activity *a = x, *b = y;
	if (a->tag != b->tag)
		return a->tag < b->tag ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

int apod_trace_book_sum(struct apod_trace_book *b, double *busy, double *work, int nphases,
                        double *unattributed)
{
	int failed;
	pthread_mutex_lock(&b->lock);
	/* The call's record may come after its work's: both are in hand now. */
	for (size_t i = 0; i < b->nacts; i++) {
		uint32_t c = b->acts[i].corr;
		b->acts[i].tag = c < b->ntag_of ? b->tag_of[c] : 0;
	}
	clip_early_starts(b->acts, b->nacts);
	qsort(b->acts, b->nacts, sizeof *b->acts, by_tag_then_start);
	for (size_t i = 0, j; i < b->nacts; i = j) {
		uint64_t tag = b->acts[i].tag, last = b->acts[i].end;
		int ph = tag ? (int)(tag % 256u) - 1 : -1;
		double d = 0;
		/* One occurrence of a phase: its activities, by start. */
		for (j = i; j < b->nacts && b->acts[j].tag == tag; j++) {
			d += 1e-9 * (double)(b->acts[j].end - b->acts[j].start);
			if (b->acts[j].end > last)
				last = b->acts[j].end;
		}
		if (ph >= 0 && ph < nphases) {
			busy[ph] += d;
			work[ph] += 1e-9 * (double)(last - b->acts[i].start);
		} else {
			*unattributed += d;
		}
	}
	failed = b->failed;
	forget(b);
	pthread_mutex_unlock(&b->lock);
	return failed ? -1 : 0;
}
