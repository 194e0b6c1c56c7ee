/*
 * lookup.h: the lookup example's parameters, its problem, and the
 * arithmetic of one lookup, written once for every stage (the host's C
 * and nvcc's CUDA: APOD_HD).
 *
 * The program: a table of `table` entries, sorted energies with a value
 * each, generated from a seed; `lookups` query energies, each found in
 * the table (a binary search, or a grid of starting points and a short
 * walk) and interpolated linearly; every lookup folded into a checksum and
 * two sums.  No time loop: the queries are cut into `batches` batches, and
 * step `s` of the harness's loop does batch `s` (a stage's step, which is
 * given the step and the steps: apod/workload.h).
 */
#ifndef LOOKUP_H
#define LOOKUP_H

#include <stdint.h>
#include <string.h>

#include <apod/apod_hd.h>
#include <apod/workload.h>

#ifdef __cplusplus
extern "C" {
#endif

enum lookup_search { LOOKUP_BINARY, LOOKUP_GRID };

struct lookup_params {
	long table;      /* entries in the table */
	long lookups;    /* queries in all */
	long batches;    /* the harness's steps: the queries cut into this many */
	long seed;
	int search;      /* enum lookup_search: an APOD_PARAM_CHOICE key */
};

/* Built once on the host (problem_create); every stage reads it, none
 * writes it, and it outlives every stage, so a stage may keep pointers
 * into it from create to destroy. */
struct lookup_problem {
	long n;                 /* table entries */
	double *energy;         /* n, strictly increasing */
	double *value;          /* n */
	long cells;             /* the grid: cells of equal width over the energies */
	long *cell_start;       /* the last entry at or below each cell's lower edge */
	double e_lo, e_hi, cell_width;
	long lookups, batches, per_batch;
	uint64_t seed;
	int search;
	/* The largest |value| and |slope| in the table: the tolerances'
	 * scale (workload.c), which no parameter can give. */
	double max_value, max_slope;
};

/* What a batch adds up: a uint64 checksum (sums wrap, so any order gives
 * the same bits) and two sums of doubles (whose order shows). */
struct lookup_sum {
	unsigned long long hash;
	double value, slope;
};

/* A 64-bit finalizer (splitmix64's mixing function): a counter in, bits
 * that look random out, the same on every device. */
APOD_HD uint64_t lookup_mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A uniform double in [0, 1): the i-th of stream `stream` of the seed. */
APOD_HD double lookup_u01(uint64_t seed, uint64_t stream, uint64_t i)
{
	uint64_t bits = lookup_mix(seed ^ lookup_mix((stream << 56) ^ i));
	return (double)(bits >> 11) * 0x1p-53;
}

#define LOOKUP_STREAM_SPACING 1u
#define LOOKUP_STREAM_VALUE   2u
#define LOOKUP_STREAM_QUERY   3u

APOD_HD uint64_t lookup_bits(double x)
{
#ifdef __CUDA_ARCH__
	return (uint64_t)__double_as_longlong(x);
#else
	uint64_t u;
	memcpy(&u, &x, sizeof u);
	return u;
#endif
}

/* The entry i with energy[i] <= x < energy[i + 1], for e_lo <= x < e_hi. */
APOD_HD long lookup_binary(const double *energy, long n, double x)
{
	long lo = 0, hi = n - 1;
	while (hi - lo > 1) {
		long mid = lo + (hi - lo) / 2;
		if (energy[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The same entry from the grid: its cell's starting point, then a walk.
 * The walk back covers a cell index that rounding put one too high. */
APOD_HD long lookup_grid(const double *energy, const long *cell_start, long cells, double e_lo,
                         double cell_width, double x)
{
	long c = (long)((x - e_lo) / cell_width), i;
	if (c >= cells)
		c = cells - 1;
	i = cell_start[c];
	while (i > 0 && energy[i] > x)
		i--;
	while (energy[i + 1] <= x)
		i++;
	return i;
}

/* Lookup q: its query energy, found and interpolated, added to s.  The
 * operations and their order are the same in every stage (compile with
 * contraction off: -ffp-contract=off, nvcc -fmad=false), so every stage
 * computes each lookup's bits alike and only the sums' order differs. */
APOD_HD void lookup_one(const double *energy, const double *value, const long *cell_start,
                        long n, long cells, double e_lo, double e_hi, double cell_width,
                        uint64_t seed, int search, long q, struct lookup_sum *s)
{
	double x = e_lo + lookup_u01(seed, LOOKUP_STREAM_QUERY, (uint64_t)q) * (e_hi - e_lo);
	long i = search == LOOKUP_GRID ? lookup_grid(energy, cell_start, cells, e_lo, cell_width, x)
	                               : lookup_binary(energy, n, x);
	double de = energy[i + 1] - energy[i], dv = value[i + 1] - value[i];
	double t = (x - energy[i]) / de;
	double y = value[i] + t * dv;
	s->hash += lookup_mix(lookup_bits(y) ^ (uint64_t)i);
	s->value += y;
	s->slope += dv / de;
}

/* lookup_one's arguments from a problem (the device's copy, on the device). */
#define LOOKUP_ARGS(pb) (pb)->energy, (pb)->value, (pb)->cell_start, (pb)->n, (pb)->cells, \
	(pb)->e_lo, (pb)->e_hi, (pb)->cell_width, (pb)->seed, (pb)->search

/* Batch `step` (1 .. batches): its queries [*first, *last). */
APOD_HD void lookup_batch_range(const struct lookup_problem *pb, long step, long *first,
                                long *last)
{
	*first = (step - 1) * pb->per_batch;
	*last = step * pb->per_batch < pb->lookups ? step * pb->per_batch : pb->lookups;
}

extern const struct apod_workload lookup_workload;
/* The stages, each described once (stages.c), whatever the build. */
extern const struct apod_stage lookup_stage_serial, lookup_stage_omp, lookup_stage_gpu;
/* The gpu stage's operations (stage_gpu.cu), built where the Makefile
 * found nvcc: it then defines LOOKUP_GPU. */
extern const struct apod_stage_ops lookup_gpu_ops;

/* The stages' shared ends (stages.c): the running totals, and the probe
 * that hands them to the harness at the last batch. */
struct lookup_ctx {
	const struct lookup_problem *pb;
	struct lookup_sum total;
};
void *lookup_ctx_create(const struct apod_stage *s, const void *problem);
int lookup_ctx_probe(void *ctx, int k, long step, long row, void *const *rows);

#ifdef __cplusplus
}
#endif

#endif
