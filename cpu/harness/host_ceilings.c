/*
 * host_ceilings.c: what the host can do, measured with the build's own
 * compiler flags: STREAM's copy and triad (McCalpin's kernels and byte
 * counts) on arrays well beyond the last-level cache, and multiply-add
 * throughput of independent chains in a loop the compiler can vectorise;
 * each on one thread and on every OpenMP thread, timed in rounds until two
 * rounds agree (settle.h).  Every kernel's result is checked before its
 * time is believed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "ceilings.h"
#include "fail.h"
#include "settle.h"
#include "timer.h"

#define MIN_ARRAY (64u << 20) /* bytes per STREAM array at least */
#define MAX_ARRAY (512u << 20) /* and at most */
/* The widest vector the build's flags allow (GCC's generic vectors are
 * lowered to it); 12 of them per thread: independent chains enough to
 * cover the add and multiply pipes' latency, and few enough to stay in
 * SSE2's 16 registers with the constants. */
#if defined(__AVX512F__)
#define VEC_BYTES 64
#elif defined(__AVX__)
#define VEC_BYTES 32
#else
#define VEC_BYTES 16
#endif
typedef float vec_f32 __attribute__((vector_size(VEC_BYTES)));
typedef double vec_f64 __attribute__((vector_size(VEC_BYTES)));
#define CHAINS 12
#define PAIRS (1L << 21)       /* multiply-add pairs per chain per run */

void apod_host_cpu_model(char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");
	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "model name", 10)) {
			char *v = strchr(line, ':');
			if (v) {
				v += 1 + (v[1] == ' ');
				v[strcspn(v, "\n")] = '\0';
				snprintf(buf, len, "%s", v);
			}
			break;
		}
	fclose(f);
}

void apod_ceilings_identify_host(struct apod_ceilings *c)
{
	time_t now = time(NULL);
	struct tm tm;
	if (gethostname(c->host, sizeof c->host) != 0)
		snprintf(c->host, sizeof c->host, "unknown");
	c->host[sizeof c->host - 1] = '\0';
	apod_host_cpu_model(c->cpu, sizeof c->cpu);
	snprintf(c->build, sizeof c->build, "gcc %s,%s%s%s%s%s multiply and add %s", __VERSION__,
#ifdef __OPTIMIZE__
	         " optimised,",
#else
	         " not optimised,",
#endif
#if defined(__AVX512F__)
	         " AVX-512",
#elif defined(__AVX2__)
	         " AVX2",
#elif defined(__AVX__)
	         " AVX",
#elif defined(__SSE2__)
	         " SSE2",
#elif defined(__ARM_NEON)
	         " NEON",
#else
	         " scalar",
#endif
#ifdef __FMA__
	         " (FMA)",
#else
	         "",
#endif
#ifdef _OPENMP
	         ", OpenMP",
#else
	         ", no OpenMP",
#endif
	         ";",
	         "as the build compiles a*b+c");
	gmtime_r(&now, &tm);
	strftime(c->measured_at, sizeof c->measured_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int max_threads(void)
{
#ifdef _OPENMP
	return omp_get_max_threads();
#else
	return 1;
#endif
}

/* Bytes per STREAM array: twice the last-level cache (so that no run of a
 * kernel finds its arrays there), within [MIN_ARRAY, MAX_ARRAY] and an
 * eighth of the memory for all three. */
static size_t stream_bytes(void)
{
	long llc = 0, pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	size_t b;
#ifdef _SC_LEVEL3_CACHE_SIZE
	llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
	if (llc <= 0)
		llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
	b = llc > 0 ? 2 * (size_t)llc : MIN_ARRAY;
	b = b < MIN_ARRAY ? MIN_ARRAY : b > MAX_ARRAY ? MAX_ARRAY : b;
	if (pages > 0 && psize > 0 && 3 * b > (size_t)pages * (size_t)psize / 8)
		b = (size_t)pages * (size_t)psize / 24;
	return b;
}

/* One timed STREAM kernel on nt threads: 0 copy c = a, 1 triad a = b + s*c,
 * 2 the copy by the C library's memcpy, each thread its share.  A copy
 * ceiling is the faster of 0 and 2: glibc's memcpy (wide, non-temporal
 * stores) outruns a copy loop built for SSE2, and a ceiling that a stage's
 * own memcpy beats bounds nothing. */
static double stream_run(int kernel, double *a, double *b, double *c, size_t n, int nt)
{
	const double s = 3.0;
	double t0 = apod_now();
	(void)nt;
	if (kernel == 0) {
#pragma omp parallel for num_threads(nt) schedule(static)
		for (size_t i = 0; i < n; i++)
			c[i] = a[i];
	} else if (kernel == 1) {
#pragma omp parallel for num_threads(nt) schedule(static)
		for (size_t i = 0; i < n; i++)
			a[i] = b[i] + s * c[i];
	} else {
#pragma omp parallel for num_threads(nt) schedule(static)
		for (int k = 0; k < nt; k++) {
			size_t lo = n * (size_t)k / (size_t)nt, hi = n * (size_t)(k + 1) / (size_t)nt;
			memcpy(c + lo, a + lo, (hi - lo) * sizeof *a);
		}
	}
	return apod_now() - t0;
}

/* Figures that did not settle (settle.h), named into a note for the user. */
struct unsettled {
	char *buf;
	size_t len;
};

static void note_settled(struct unsettled *u, const struct apod_settled *s, const char *what,
                         int nt)
{
	size_t used = strlen(u->buf);
	if (s->settled || used + 1 >= u->len)
		return;
	snprintf(u->buf + used, u->len - used, "%s%s on %d thread%s (%d rounds, the last two %.0f%% "
	         "apart)", used ? "; " : "", what, nt, nt == 1 ? "" : "s", s->rounds,
	         100 * s->spread);
}

struct stream_ctx {
	int kernel, nt;
	double *a, *b, *c;
	size_t n;
};

static double stream_once(void *ctx)
{
	struct stream_ctx *x = ctx;
	return stream_run(x->kernel, x->a, x->b, x->c, x->n, x->nt);
}

/* STREAM's copy and triad on nt threads, in bytes/s: settled best-of rounds. */
static int stream(double *a, double *b, double *c, size_t n, int nt, double *copy, double *triad,
                  struct unsettled *u)
{
	static const char *const names[] = { "STREAM copy", "STREAM triad", "memcpy" };
	struct apod_settled s;
	int bad = 0;
	*copy = 0;
	for (int kernel = 0; kernel < 3; kernel++) {
		struct stream_ctx x = { kernel, nt, a, b, c, n };
		/* a = 1, b = 2: copy makes c = 1, triad then a = 2 + 3 * 1 = 5. */
#pragma omp parallel for num_threads(nt) schedule(static)
		for (size_t i = 0; i < n; i++)
			a[i] = 1.0, b[i] = 2.0, c[i] = kernel == 1 ? 1.0 : 0.0;
		if (apod_settle(stream_once, &x, APOD_SETTLE_REPS, APOD_SETTLE_ROUNDS,
		                APOD_SETTLE_AGREE, &s))
			return -1;
#pragma omp parallel for num_threads(nt) schedule(static) reduction(+ : bad)
		for (size_t i = 0; i < n; i++)
			bad += kernel == 1 ? a[i] != 5.0 : c[i] != 1.0;
		if (bad)
			return apod_fail("host ceilings: STREAM %s left %d wrong elements",
			                 kernel == 1 ? "triad" : kernel ? "memcpy" : "copy", bad);
		note_settled(u, &s, names[kernel], nt);
		if (kernel == 1)
			*triad = 3.0 * sizeof(double) * n / s.seconds;
		else
			*copy = fmax(*copy, 2.0 * sizeof(double) * n / s.seconds);
	}
	return 0;
}

/*
 * CHAINS independent vectors of chains x <- x*2 + 1, x <- x*0.5 - 0.25:
 * each pair adds exactly 1/4 on quarter-integers far below 2^21, so every
 * lane must end at x0 + pairs/4 whether or not the compiler fuses the
 * multiply and add.  The chains are named variables, not an array indexed
 * in an inner loop: gcc 13's loop interchange turned such a loop into one
 * chain at a time, bound by latency (1.1 GFLOP/s a core on a Xeon).
 */
#define EACH(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
#define FMA_CHAINS(T, V, name)                                                     \
	static int name(long pairs)                                                 \
	{                                                                           \
		typedef T elem_t;                                                   \
		typedef V vec_t;                                                    \
		const int lanes = (int)(sizeof(vec_t) / sizeof(elem_t));            \
		int bad = 0;                                                        \
		EACH(DECLARE)                                                       \
		for (long i = 0; i < pairs; i++) {                                  \
			EACH(STEP)                                                  \
		}                                                                   \
		EACH(CHECK)                                                         \
		return bad;                                                         \
	}
#define DECLARE(k) vec_t x##k; \
	for (int l = 0; l < lanes; l++) x##k[l] = (elem_t)((k * lanes + l) * 0.25);
#define STEP(k) x##k = x##k * (elem_t)2 + (elem_t)1; x##k = x##k * (elem_t)0.5 - (elem_t)0.25;
#define CHECK(k) for (int l = 0; l < lanes; l++) \
	bad += x##k[l] != (elem_t)((k * lanes + l) * 0.25 + pairs * 0.25);
FMA_CHAINS(float, vec_f32, chains_f32)
FMA_CHAINS(double, vec_f64, chains_f64)
#undef DECLARE
#undef STEP
#undef CHECK

struct fma_ctx {
	int f64, nt;
};

/* One run of every thread's chains: its seconds, or -1 if a chain ended wrong. */
static double fma_once(void *ctx)
{
	const struct fma_ctx *x = ctx;
	int bad = 0, nt = x->nt, f64 = x->f64;
	double t0 = apod_now();
	(void)nt;
#pragma omp parallel num_threads(nt) reduction(+ : bad)
	bad += f64 ? chains_f64(PAIRS) : chains_f32(PAIRS);
	if (bad)
		return apod_fail("host ceilings: an FP%d multiply-add chain ended at the wrong value",
		                 f64 ? 64 : 32);
	return apod_now() - t0;
}

/* Multiply-add throughput on nt threads, flop/s (2 flops a multiply-add):
 * settled best-of rounds. */
static int fma_rate(int f64, int nt, double *flops, struct unsettled *u)
{
	struct fma_ctx x = { f64, nt };
	struct apod_settled s;
	if (apod_settle(fma_once, &x, APOD_SETTLE_REPS, APOD_SETTLE_ROUNDS, APOD_SETTLE_AGREE, &s))
		return -1;
	note_settled(u, &s, f64 ? "FP64 multiply-add" : "FP32 multiply-add", nt);
	*flops = 4.0 * PAIRS * CHAINS * (VEC_BYTES / (f64 ? 8 : 4)) * nt / s.seconds;
	return 0;
}

int apod_ceilings_measure_host(struct apod_ceilings *c, char *unsettled, size_t len)
{
	size_t bytes = stream_bytes(), n = bytes / sizeof(double);
	double *a = malloc(bytes), *b = malloc(bytes), *cc = malloc(bytes);
	int rc = 0, all = max_threads();
	struct unsettled u = { unsettled, len };
	if (len)
		unsettled[0] = '\0';
	if (!a || !b || !cc) {
		rc = apod_fail("host ceilings: cannot allocate 3 arrays of %zu bytes", bytes);
		goto out;
	}
	for (int k = APOD_CEIL_HOST_ONE; k <= APOD_CEIL_HOST_ALL; k++) {
		struct apod_ceiling *r = &c->r[k];
		int nt = k == APOD_CEIL_HOST_ONE ? 1 : all;
		memset(r, 0, sizeof *r);
		r->threads = nt;
		if (stream(a, b, cc, n, nt, &r->bandwidth, &r->triad, &u) ||
		    fma_rate(0, nt, &r->fp32, &u) || fma_rate(1, nt, &r->fp64, &u)) {
			rc = -1;
			goto out;
		}
		r->measured = 1;
	}
out:
	free(a);
	free(b);
	free(cc);
	return rc;
}
