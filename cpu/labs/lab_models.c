/*
 * lab_models.c: the labs' models, moved here from the lab .cu files unchanged
 * so that tests/check_lab_models.c can hold them against the sources.
 * What each model means, and where it comes from, is in lab_models.h and
 * in the lab's page under doc/labs.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "shared/compare.h"   /* apod_float_ordinal: +0 and -0 are one point, neighbours 1 apart */
#include "lab_models.h"
#include "shared/labs/splitmix.h"

#define LN2 0.69314718055994531

/* ---- coalescing ------------------------------------------------------------ */

/*
 * The sector rule (compute capability 6.0 and later): a warp's request costs
 * one 32-byte sector for every sector its 32 addresses touch.  Threads
 * k = 0..n-1 access 4-byte word base + k * stride, a warp being 32
 * consecutive k.  Returns the sectors requested, summed over the warps.
 * Below a stride of 8 words no sector between a warp's first and last word
 * is skipped; from 8 up every word has a sector of its own.
 */
uint64_t apod_model_sectors_requested(size_t n, size_t base, size_t stride)
{
	uint64_t total = 0;
	for (size_t k0 = 0; k0 < n; k0 += 32) {
		size_t m = n - k0 < 32 ? n - k0 : 32, first = base + k0 * stride;
		total += stride >= 8 ? m : (first + (m - 1) * stride) / 8 - first / 8 + 1;
	}
	return total;
}

/* Distinct sectors the whole launch touches: what DRAM must move at least
 * if the caches catch every sector two warps share. */
uint64_t apod_model_sectors_distinct(size_t n, size_t base, size_t stride)
{
	return stride >= 8 ? n : (base + (n - 1) * stride) / 8 - base / 8 + 1;
}

/* x += vx dt reads x and vx and writes x: three 4-byte floats per field
 * updated (12 bytes a particle for x, 36 for x, y, z). */
double apod_model_layout_bytes_used(size_t n, int fields)
{
	return 3.0 * fields * n * sizeof(float);
}

/* AoS: every particle's sector is read and written back whole; SoA: only
 * what is used. */
double apod_model_layout_bytes_fetched(size_t n, int fields, int soa, size_t particle_bytes)
{
	return soa ? apod_model_layout_bytes_used(n, fields) : 2.0 * n * particle_bytes;
}

/* ---- banks ----------------------------------------------------------------- */

/*
 * The model: 32 lanes each access `bytes` (4 or 8) at byte address
 * addr[l]; every 4-byte word lies in bank (word mod 32); the request needs
 * as many wavefronts as the most distinct words any bank holds (a word
 * read by several lanes is sent to all of them at once).
 */
int apod_model_wavefronts(const size_t addr[32], int bytes)
{
	size_t words[64];
	int nw = 0, most = 0;
	if (bytes != 4 && bytes != 8)
		return -1;   /* words[] holds two words a lane */
	for (int l = 0; l < 32; l++)
		for (int h = 0; h < bytes / 4; h++) {
			size_t w = addr[l] / 4 + h;
			int seen = 0;
			for (int k = 0; k < nw && !seen; k++)
				seen = words[k] == w;
			if (!seen)
				words[nw++] = w;
		}
	for (int b = 0; b < 32; b++) {
		int c = 0;
		for (int k = 0; k < nw; k++)
			c += words[k] % 32 == (size_t)b;
		most = c > most ? c : most;
	}
	return most;
}

int apod_model_stride_wavefronts(unsigned stride, int bytes)
{
	size_t a[32];
	for (int l = 0; l < 32; l++)
		a[l] = (size_t)l * stride * bytes;
	return apod_model_wavefronts(a, bytes);
}

int apod_model_tile_wavefronts(int pad, int by_column)
{
	size_t a[32];
	for (int l = 0; l < 32; l++)
		a[l] = 4 * (by_column ? (size_t)l * (32 + pad) : (size_t)l);
	return apod_model_wavefronts(a, 4);
}

/* ---- overlap --------------------------------------------------------------- */

/* The guide's §9.1.2: the longer of copying and executing is paid whole,
 * the shorter only for the one chunk that cannot overlap. */
double apod_model_staged(double t_E, double t_T, int streams)
{
	double big = t_E > t_T ? t_E : t_T, small = t_E > t_T ? t_T : t_E;
	return streams == 0 ? t_E + t_T : big + small / streams;
}

/* With H2D, kernel and D2H each on an engine of its own (two copy engines),
 * chunks flow through the three like a pipeline: the slowest stage runs
 * for its whole time, the other two only for their first or last chunk. */
double apod_model_pipeline(double h2d, double t_E, double d2h, int streams)
{
	double e3[3] = { h2d, t_E, d2h }, mx = 0, sum = h2d + d2h + t_E;
	for (int k = 0; k < 3; k++)
		mx = e3[k] > mx ? e3[k] : mx;
	return streams == 0 ? sum : mx + (sum - mx) / streams;
}

/* ---- divergence ------------------------------------------------------------ */

/* Distinct paths per warp, averaged over the warps: what SIMT must run. */
double apod_model_paths_per_warp(int n, unsigned (*path)(int i, const void *ctx), const void *ctx)
{
	long total = 0, warps = 0;
	for (int w = 0; w * 32 < n; w++, warps++) {
		uint32_t seen = 0;
		for (int i = w * 32; i < n && i < w * 32 + 32; i++)
			seen |= 1u << path(i, ctx);
		total += __builtin_popcount(seen);
	}
	return (double)total / warps;
}

/* splitmix64's output function, the upper middle 32 bits. */
uint32_t apod_model_divergence_mix(uint64_t z)
{
	return (uint32_t)(apod_splitmix64_mix(z) >> 16);
}

uint32_t apod_model_divergence_coin(int i)
{
	return apod_model_divergence_mix(0xd1b54a32d192ed03ull * (uint64_t)(i + 1) + 12345);
}

/* ---- ilp ------------------------------------------------------------------- */

/* Little's law solved for the latency: in flight / rate, in ns. */
double apod_model_little_latency_ns(double bytes_in_flight, double bytes_per_s)
{
	return bytes_in_flight / bytes_per_s * 1e9;
}

/* GB/s x ns = bytes (the 1e9 and 1e-9 cancel). */
double apod_model_little_bytes_in_flight(double gb_per_s, double latency_ns)
{
	return gb_per_s * latency_ns;
}

/* ---- instructions ---------------------------------------------------------- */

/*
 * ulps between the GPU's result g and the correctly rounded float of the
 * exact value, which the double reference r stands for.  Rounding r to float
 * gives that float unless r lies, within its own error (a few double ulps),
 * on a midpoint between two floats; then either could be the correctly
 * rounded one, and g is given the nearer.  `exact` says r is the exact value
 * rounded once to double and that rounding it again to float cannot differ
 * from rounding the exact value (true of a quotient of two floats: 53 >=
 * 2 * 24 + 2 bits), so there is no such doubt and no allowance.
 */
int64_t apod_model_ulp_dist(float g, double r, int exact)
{
	float f = (float)r;
	int64_t d = llabs(apod_float_ordinal(g) - apod_float_ordinal(f));
	if (!exact && (double)f != r) {
		float o = nextafterf(f, r > f ? INFINITY : -INFINITY);
		double mid = ((double)f + (double)o) / 2;   /* exact in double */
		if (fabs(r - mid) <= fabs((double)o - (double)f) * 0x1p-20) {
			int64_t d2 = llabs(apod_float_ordinal(g) - apod_float_ordinal(o));
			if (d2 < d)
				d = d2;
		}
	}
	return d;
}

double apod_model_expf_fast_ulp_bound(float x)
{
	return 2 + floor(fabs(1.173 * x));
}

/*
 * __powf(x, y) is exp2(y * __log2f(x)).  __log2f errs by at most 2^-22
 * absolute on [0.5, 2] and 2 ulps elsewhere, at most 2^-22 max(1, |log2 x|)
 * together; times |y|, plus half an ulp of the product (2^-24 |t|,
 * t = y log2 x), gives an error dt in the exponent.  That moves 2^t by a
 * relative ln2 dt, at most ln2 dt 2^24 ulps; add exp2f's own 2 ulps and 1
 * for the two roundings compared.
 */
double apod_model_powf_fast_ulp_bound(float x, float y)
{
	double lx = log2((double)x), m = fmax(1.0, fabs(lx));
	return 3 + ceil(1.0001 * LN2 * (4 * fabs((double)y) * m + fabs((double)y * lx)));
}
