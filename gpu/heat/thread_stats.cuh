/*
 * thread_stats.cuh: the per-thread statistics of the tuned kernels.
 *
 * gpu2's kernel folds every value in with Welford, a double division per
 * element.  Here a thread keeps shifted sums instead: s1 = sum(x - K) and
 * s2 = sum((x - K)^2) about its first value K, which costs one add and one
 * fused multiply-add in double.  The shift keeps the cancellation in
 * s2 - s1^2/n small (a thread's values are neighbours, close to K), and the
 * thread's result becomes a Welford/Chan triple (n, mean, m2) that merges
 * exactly like the CPU's.
 *
 * The histogram uses runs: a thread's consecutive values (down a column,
 * or along a vector) usually fall in the same bin, so it counts a run in a
 * register and adds it to shared memory only when the bin changes.
 */
#ifndef APOD_GPU_THREAD_STATS_CUH
#define APOD_GPU_THREAD_STATS_CUH

#include "shared/stats.h"

struct thread_stats {
	double shift, s1, s2;
	heat_real mn, mx;
	int count;
	int run_bin;
	unsigned run_len;
};

static __device__ __forceinline__ void ts_init(struct thread_stats *t)
{
	t->shift = t->s1 = t->s2 = 0.0;
	t->mn = t->mx = 0;
	t->count = 0;
	t->run_bin = -1;
	t->run_len = 0;
}

static __device__ __forceinline__ void ts_add(struct thread_stats *t, heat_real v)
{
	double d;
	if (t->count == 0) {
		t->shift = (double)v;
		t->mn = t->mx = v;
	}
	d = (double)v - t->shift;
	t->s1 += d;
	t->s2 = fma(d, d, t->s2);
	t->mn = v < t->mn ? v : t->mn;
	t->mx = v > t->mx ? v : t->mx;
	t->count++;
}

/* Fold in four values at once: their deviations are summed in the field's
 * precision first (four neighbours, so the sums are small and the rounding
 * is of the order of the deviations', far below the tolerances) and reach
 * the double accumulators once per four values. */
static __device__ __forceinline__ void ts_add4(struct thread_stats *t, heat_real a, heat_real b,
                                               heat_real c, heat_real d)
{
	heat_real k, da, db, dc, dd;
	if (t->count == 0) {
		t->shift = (double)a;
		t->mn = t->mx = a;
	}
	k = (heat_real)t->shift;
	da = a - k;
	db = b - k;
	dc = c - k;
	dd = d - k;
	t->s1 += (double)((da + db) + (dc + dd));
	t->s2 += (double)((da * da + db * db) + (dc * dc + dd * dd));
	heat_real lo2 = a < b ? a : b, lo3 = c < d ? c : d, hi2 = a > b ? a : b, hi3 = c > d ? c : d;
	lo2 = lo2 < lo3 ? lo2 : lo3;
	hi2 = hi2 > hi3 ? hi2 : hi3;
	t->mn = lo2 < t->mn ? lo2 : t->mn;
	t->mx = hi2 > t->mx ? hi2 : t->mx;
	t->count += 4;
}

static __device__ __forceinline__ void ts_bin(struct thread_stats *t, int bin, unsigned *block_hist)
{
	if (bin == t->run_bin) {
		t->run_len++;
		return;
	}
	if (t->run_len)
		atomicAdd(&block_hist[t->run_bin], t->run_len);
	t->run_bin = bin;
	t->run_len = 1;
}

/* Four bins at once: the common case, all four in the current run, costs
 * one test. */
static __device__ __forceinline__ void ts_bin4(struct thread_stats *t, int b0, int b1, int b2,
                                               int b3, unsigned *block_hist)
{
	if (b0 == t->run_bin && b1 == b0 && b2 == b0 && b3 == b0) {
		t->run_len += 4;
		return;
	}
	ts_bin(t, b0, block_hist);
	ts_bin(t, b1, block_hist);
	ts_bin(t, b2, block_hist);
	ts_bin(t, b3, block_hist);
}

static __device__ __forceinline__ void ts_flush(struct thread_stats *t, unsigned *block_hist)
{
	if (t->run_len)
		atomicAdd(&block_hist[t->run_bin], t->run_len);
	t->run_len = 0;
	t->run_bin = -1;
}

static __device__ __forceinline__ void ts_moments(const struct thread_stats *t, struct apod_moments *m)
{
	if (t->count == 0) {
		apod_moments_init(m);
		return;
	}
	/* The shift was rounded to the field's precision before use. */
	double k = (double)(heat_real)t->shift;
	m->n = t->count;
	m->mean = k + t->s1 / t->count;
	m->m2 = t->s2 - t->s1 * t->s1 / t->count;
	m->min = t->mn;
	m->max = t->mx;
}

#endif
