#include "trace.h"
#include "fail.h"

#ifndef HAVE_CUPTI

int apod_trace_start(void)
{
	return apod_fail("--trace: this build has no CUPTI (configure found no cupti.h in the "
	                 "CUDA toolkit)");
}
int apod_trace_on(void) { return 0; }
int apod_trace_enter(int phase) { (void)phase; return 0; }
int apod_trace_leave(void) { return 0; }
void apod_trace_unwind(void) {}
int apod_trace_collect(double *busy, double *work, int nphases, double *unattributed)
{
	(void)busy, (void)work, (void)nphases, (void)unattributed;
	return apod_fail("--trace: this build has no CUPTI");
}

#else

#include <dlfcn.h>
#include <stdlib.h>

#include <cupti.h>

#include "trace_book.h"

/* CUPTI's entry points, looked up in the library once it is loaded. */
static struct {
	void *lib;
	int on;
	struct apod_trace_book book;
	CUptiResult (*get_version)(uint32_t *);
	CUptiResult (*result_string)(CUptiResult, const char **);
	CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc,
	                                  CUpti_BuffersCallbackCompleteFunc);
	CUptiResult (*enable)(CUpti_ActivityKind);
	CUptiResult (*disable)(CUpti_ActivityKind);
	CUptiResult (*flush_all)(uint32_t);
	CUptiResult (*next_record)(uint8_t *, size_t, CUpti_Activity **);
	CUptiResult (*dropped)(CUcontext, uint32_t, size_t *);
	CUptiResult (*push)(CUpti_ExternalCorrelationKind, uint64_t);
	CUptiResult (*pop)(CUpti_ExternalCorrelationKind, uint64_t *);
} cupti;

#define BUFFER_BYTES (4u << 20)
#define TAG CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0

static int cupti_fail(CUptiResult r, const char *what)
{
	const char *s = NULL;
	if (!cupti.result_string || cupti.result_string(r, &s) != CUPTI_SUCCESS || !s)
		s = "unknown error";
	return apod_fail("--trace: %s: %s (CUPTI error %d)", what, s, (int)r);
}

#define CUPTI_TRY(call, what)                                 \
	do {                                                  \
		CUptiResult r_ = (call);                      \
		if (r_ != CUPTI_SUCCESS)                      \
			return cupti_fail(r_, what);          \
	} while (0)

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
	/* CUPTI wants 8-byte alignment; NULL makes it drop records, which
	 * collect then reports. */
	*buffer = aligned_alloc(8, BUFFER_BYTES);
	*size = *buffer ? BUFFER_BYTES : 0;
	*max_records = 0;
}

/* A kernel, a copy and a set are records of three types that name their
 * call and their times alike: rec's, into buffer_completed's corr, start
 * and end. */
#define TAKE_WORK(type)                                               \
	do {                                                          \
		const type *work_ = (const type *)rec;                \
		corr = work_->correlationId;                          \
		stream_id = work_->streamId;                          \
		start = work_->start;                                 \
		end = work_->end;                                     \
	} while (0)

/* Called on CUPTI's own thread (or in a flush): file every record. */
static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                      size_t valid)
{
	CUpti_Activity *rec = NULL;
	(void)ctx, (void)stream, (void)size;
	while (cupti.next_record(buffer, valid, &rec) == CUPTI_SUCCESS) {
		uint32_t corr, stream_id;
		uint64_t start, end;
		switch (rec->kind) {
		case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
			TAKE_WORK(CUpti_ActivityKernel10);
			break;
		case CUPTI_ACTIVITY_KIND_MEMCPY:
			TAKE_WORK(CUpti_ActivityMemcpy6);
			break;
		case CUPTI_ACTIVITY_KIND_MEMSET:
			TAKE_WORK(CUpti_ActivityMemset4);
			break;
		case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
			CUpti_ActivityExternalCorrelation *x = (CUpti_ActivityExternalCorrelation *)rec;
			if (x->externalKind == TAG)
				apod_trace_book_call(&cupti.book, x->correlationId, x->externalId);
			continue;
		}
		default:
			continue;   /* the API records: needed for the tags, not kept */
		}
		apod_trace_book_work(&cupti.book, corr, stream_id, start, end);
	}
	free(buffer);
}

static const CUpti_ActivityKind kinds[] = {
	/* RUNTIME too: the phase tags come with the API records, not with the work. */
	CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION,
	CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET,
};

static void stop_at_exit(void)
{
	/* Deliver what is left while the book still exists, then stop. */
	if (!cupti.on)
		return;
	cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		cupti.disable(kinds[i]);
	cupti.on = 0;
}

static int load(void)
{
	/* The toolkit's copy found by configure first, then the loader's search. */
	const char *names[] = { getenv("APOD_CUPTI"), APOD_CUPTI_PATH, "libcupti.so" };
	char why[512] = "not found";
	for (size_t i = 0; i < sizeof names / sizeof names[0] && !cupti.lib; i++) {
		const char *e;
		if (!names[i] || !*names[i])
			continue;
		if (!(cupti.lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL)) && (e = dlerror()))
			snprintf(why, sizeof why, "%s", e);
	}
	if (!cupti.lib)
		return apod_fail("--trace: cannot load CUPTI (%s); set APOD_CUPTI to its path", why);
#define SYM(field, name)                                                                  \
	if (!(*(void **)&cupti.field = dlsym(cupti.lib, name)))                               \
		return apod_fail("--trace: CUPTI has no %s", name);
	SYM(get_version, "cuptiGetVersion")
	SYM(result_string, "cuptiGetResultString")
	SYM(register_callbacks, "cuptiActivityRegisterCallbacks")
	SYM(enable, "cuptiActivityEnable")
	SYM(disable, "cuptiActivityDisable")
	SYM(flush_all, "cuptiActivityFlushAll")
	SYM(next_record, "cuptiActivityGetNextRecord")
	SYM(dropped, "cuptiActivityGetNumDroppedRecords")
	SYM(push, "cuptiActivityPushExternalCorrelationId")
	SYM(pop, "cuptiActivityPopExternalCorrelationId")
#undef SYM
	return 0;
}

int apod_trace_start(void)
{
	uint32_t version;
	if (cupti.on)
		return 0;
	if (!cupti.lib && load())
		return -1;
	CUPTI_TRY(cupti.get_version(&version), "cuptiGetVersion");
	/* The records are read with this header's layouts; another CUPTI may
	 * lay them out otherwise. */
	if (version != CUPTI_API_VERSION)
		return apod_fail("--trace: CUPTI at run time has API version %u, this build reads "
		                 "version %u's records; set APOD_CUPTI to the toolkit's libcupti.so",
		                 version, (unsigned)CUPTI_API_VERSION);
	apod_trace_book_init(&cupti.book);
	CUPTI_TRY(cupti.register_callbacks(buffer_requested, buffer_completed),
	          "cuptiActivityRegisterCallbacks");
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		CUptiResult r = cupti.enable(kinds[i]);
		if (r != CUPTI_SUCCESS) {
			for (size_t j = 0; j < i; j++)
				cupti.disable(kinds[j]);
			apod_trace_book_free(&cupti.book);
			return cupti_fail(r, "CUPTI cannot start tracing (is there a GPU and its driver "
			                     "here?): cuptiActivityEnable");
		}
	}
	cupti.on = 1;
	atexit(stop_at_exit);
	return 0;
}

int apod_trace_on(void)
{
	return cupti.on;
}

/* Tags entered and not yet left on this thread, for apod_trace_unwind; and
 * how many phases were entered, so that each occurrence has its own tag. */
static __thread int depth;
static uint64_t occurrences;

int apod_trace_enter(int phase)
{
	if (phase < 0 || phase >= APOD_TRACE_MAX_PHASES)
		return apod_fail("--trace: phase %d out of range", phase);
	if (cupti.on) {
		CUPTI_TRY(cupti.push(TAG, APOD_TRACE_TAG(++occurrences, phase)),
		          "cuptiActivityPushExternalCorrelationId");
		depth++;
	}
	return 0;
}

int apod_trace_leave(void)
{
	if (cupti.on && depth > 0) {
		CUPTI_TRY(cupti.pop(TAG, NULL), "cuptiActivityPopExternalCorrelationId");
		depth--;
	}
	return 0;
}

void apod_trace_unwind(void)
{
	while (cupti.on && depth > 0 && cupti.pop(TAG, NULL) == CUPTI_SUCCESS)
		depth--;
}

int apod_trace_collect(double *busy, double *work, int nphases, double *unattributed)
{
	size_t lost = 0;
	if (!cupti.on)
		return apod_fail("--trace: no trace was started");
	CUPTI_TRY(cupti.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
	CUPTI_TRY(cupti.dropped(NULL, 0, &lost), "cuptiActivityGetNumDroppedRecords");
	if (apod_trace_book_sum(&cupti.book, busy, work, nphases, unattributed))
		return apod_fail("--trace: out of memory while recording");
	if (lost)
		return apod_fail("--trace: CUPTI dropped %zu records (out of buffer memory)", lost);
	return 0;
}

#endif
