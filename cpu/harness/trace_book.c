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
	free(b->phase_of);
	free(b->acts);
	b->phase_of = NULL;
	b->acts = NULL;
	b->nphase_of = b->nacts = b->cap = 0;
	b->failed = 0;
}

void apod_trace_book_free(struct apod_trace_book *b)
{
	forget(b);
	pthread_mutex_destroy(&b->lock);
}

void apod_trace_book_call(struct apod_trace_book *b, uint32_t corr, int phase)
{
	if (phase < 0 || phase >= APOD_TRACE_MAX_PHASES)
		return;
	pthread_mutex_lock(&b->lock);
	/* Correlation ids count up from 1 through the process: a table indexed
	 * by them stays small (a byte a CUDA call) and needs no hashing. */
	if (corr >= b->nphase_of) {
		size_t n = b->nphase_of ? b->nphase_of : 4096;
		unsigned char *p;
		while (n <= corr)
			n *= 2;
		if (!(p = realloc(b->phase_of, n))) {
			b->failed = 1;
			goto out;
		}
		memset(p + b->nphase_of, 0, n - b->nphase_of);
		b->phase_of = p;
		b->nphase_of = n;
	}
	b->phase_of[corr] = (unsigned char)(phase + 1);
out:
	pthread_mutex_unlock(&b->lock);
}

void apod_trace_book_work(struct apod_trace_book *b, uint32_t corr, uint64_t ns)
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
	b->acts[b->nacts++] = (struct apod_trace_activity){ corr, ns };
out:
	pthread_mutex_unlock(&b->lock);
}

int apod_trace_book_sum(struct apod_trace_book *b, double *busy, int nphases,
                        double *unattributed)
{
	int failed;
	pthread_mutex_lock(&b->lock);
	/* The call's record may come after its work's: both are in hand now. */
	for (size_t i = 0; i < b->nacts; i++) {
		uint32_t c = b->acts[i].corr;
		int ph = c < b->nphase_of ? b->phase_of[c] - 1 : -1;
		double s = 1e-9 * (double)b->acts[i].ns;
		if (ph >= 0 && ph < nphases)
			busy[ph] += s;
		else
			*unattributed += s;
	}
	failed = b->failed;
	forget(b);
	pthread_mutex_unlock(&b->lock);
	return failed ? -1 : 0;
}
