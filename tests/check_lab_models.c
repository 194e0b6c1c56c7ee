/*
 * The labs' models (cpu/labs/lab_models.c) against the sources' numbers.  Every
 * expected number is either a source's (cited by the project's reference
 * digests of them, seed-000 being the CUDA Best Practices Guide, as in
 * doc/labs/) or derived by hand in the comment beside it.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/labs/lab_models.h"
#include "check_run.h"

static unsigned gcd(unsigned a, unsigned b)
{
	while (b) {
		unsigned t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* --- coalescing: seed-000 §9.2.1 (digest §2.5), 32-byte sectors. ---------- */

START_TEST(guide_aligned_warp_four_sectors)
{
	/* §9.2.1.1: 32 threads reading 32 adjacent 4-byte words of an aligned
	 * array: four 32-byte transactions. */
	ck_assert_uint_eq(apod_model_sectors_requested(32, 0, 1), 4);
	ck_assert_uint_eq(apod_model_sectors_distinct(32, 0, 1), 4);
	/* 1024 warps: 4096; the same at offsets 8, 16, 24, 32 (§9.2.1.3:
	 * "offset 0 or multiples of 8 words" give four transactions). */
	for (size_t off = 0; off <= 32; off += 8)
		ck_assert_uint_eq(apod_model_sectors_requested(32 * 1024, off, 1), 4 * 1024);
}
END_TEST

START_TEST(guide_misaligned_warp_five_sectors)
{
	/* §9.2.1.2: sequential but misaligned, five 32-byte segments per warp;
	 * the guide's expected throughput 4/5 is bytes used / bytes fetched =
	 * 128 / (5 x 32). */
	for (size_t off = 1; off < 32; off++) {
		if (off % 8 == 0)
			continue;
		uint64_t req = apod_model_sectors_requested(32 * 1024, off, 1);
		ck_assert_uint_eq(req, 5 * 1024);
		ck_assert_double_eq_tol(32 * 1024 * 4.0 / (32.0 * req), 0.8, 1e-12);
	}
	/* The distinct sectors: words off .. off + 32767 span sectors 0 ..
	 * (off + 32767) / 8 = 4096 for off = 1..7, so 4097 in all, against
	 * 4096 aligned: neighbouring warps share the fifth sector, which is why
	 * the guide observed about 9/10 rather than 4/5 (between the two). */
	ck_assert_uint_eq(apod_model_sectors_distinct(32 * 1024, 1, 1), 4097);
	ck_assert_uint_eq(apod_model_sectors_distinct(32 * 1024, 7, 1), 4097);
	ck_assert_uint_eq(apod_model_sectors_distinct(32 * 1024, 8, 1), 4096);
}
END_TEST

START_TEST(guide_strided_sectors)
{
	/* §9.2.1.4: stride 2 loads eight sectors per warp, 50% efficiency; the
	 * count grows until 32 sectors serve the 32 threads.  Digest §2.5
	 * (derived): min(4s, 32) per warp, efficiency 1 / min(s, 8).  By hand:
	 * a warp's words 32ws .. 32ws + 31s span floor(31s / 8) + 1 sectors,
	 * which is 4s for s < 8. */
	ck_assert_uint_eq(apod_model_sectors_requested(32, 0, 2), 8);
	ck_assert_double_eq_tol(128.0 / (32 * apod_model_sectors_requested(32, 0, 2)), 0.5, 1e-12);
	for (size_t s = 1; s <= 40; s++) {
		uint64_t per_warp = s < 8 ? 4 * s : 32;
		uint64_t req = apod_model_sectors_requested(32 * 100, 0, s);
		ck_assert_uint_eq(req, 100 * per_warp);
		ck_assert_double_eq_tol(2.0 * 32 * 100 * 4 / (2.0 * 32 * req), 1.0 / (s < 8 ? s : 8), 1e-12);
	}
	ck_assert_uint_eq(apod_model_sectors_distinct(32 * 100, 0, 8), 3200);   /* a sector per word */
	ck_assert_uint_eq(apod_model_sectors_distinct(32 * 100, 0, 2), 800);    /* 6400 words / 8 */
}
END_TEST

START_TEST(partial_last_warp)
{
	/* n = 33: a full warp (4 sectors) and one thread (1).  At stride 8 every
	 * thread has a sector: 33.  n = 100003 (the lab's --check size) at offset
	 * 1: 3125 full warps of 5 sectors, and 3 threads on words 100001..100003,
	 * sectors 12500 and 12500: 1; 15626 in all. */
	ck_assert_uint_eq(apod_model_sectors_requested(33, 0, 1), 5);
	ck_assert_uint_eq(apod_model_sectors_requested(33, 0, 8), 33);
	ck_assert_uint_eq(apod_model_sectors_requested(100003, 1, 1), 3125 * 5 + 1);
	ck_assert_uint_eq(apod_model_sectors_distinct(1, 5, 3), 1);
}
END_TEST

START_TEST(aos_soa_fractions)
{
	/* doc/labs/coalescing.md (derived there): an AoS particle is one 32-byte
	 * sector read and written back whole, 64 bytes, against 12 bytes used for
	 * x += vx dt (x, vx read, x written) and 36 for x, y, z: 18.75% and
	 * 56.25%; SoA moves only what it uses, 100%. */
	size_t n = 1000;
	ck_assert_double_eq(apod_model_layout_bytes_used(n, 1), 12.0 * n);
	ck_assert_double_eq(apod_model_layout_bytes_used(n, 3), 36.0 * n);
	ck_assert_double_eq(apod_model_layout_bytes_fetched(n, 1, 0, 32), 64.0 * n);
	ck_assert_double_eq(apod_model_layout_bytes_fetched(n, 3, 0, 32), 64.0 * n);
	ck_assert_double_eq_tol(apod_model_layout_bytes_used(n, 1) / apod_model_layout_bytes_fetched(n, 1, 0, 32),
	                        0.1875, 1e-15);
	ck_assert_double_eq_tol(apod_model_layout_bytes_used(n, 3) / apod_model_layout_bytes_fetched(n, 3, 0, 32),
	                        0.5625, 1e-15);
	ck_assert_double_eq(apod_model_layout_bytes_fetched(n, 1, 1, 32), apod_model_layout_bytes_used(n, 1));
	ck_assert_double_eq(apod_model_layout_bytes_fetched(n, 3, 1, 32), apod_model_layout_bytes_used(n, 3));
}
END_TEST

/* --- banks: seed-000 §9.2.3.1, §9.2.3.3 (digest §2.9). ------------------------ */

START_TEST(guide_4byte_stride_is_gcd)
{
	/* 32 banks of 4 bytes, bank = word mod 32; a conflicted request is split
	 * into as many conflict-free ones as needed.  The digest's E26 expects a
	 * gcd(s, 32)-way conflict at stride s: 32 / gcd lanes per pass of the
	 * banks, gcd passes.  Odd strides (33 included) are conflict-free. */
	for (unsigned s = 1; s <= 66; s++)
		ck_assert_int_eq(apod_model_stride_wavefronts(s, 4), (int)gcd(s, 32));
	ck_assert_int_eq(apod_model_stride_wavefronts(2, 4), 2);
	ck_assert_int_eq(apod_model_stride_wavefronts(32, 4), 32);
	ck_assert_int_eq(apod_model_stride_wavefronts(33, 4), 1);
	/* Stride 0: every lane on the same word, a broadcast, no conflict. */
	ck_assert_int_eq(apod_model_stride_wavefronts(0, 4), 1);
}
END_TEST

START_TEST(eight_byte_words)
{
	/* doc/labs/banks.md (derived): an 8-byte word covers two banks, so 32
	 * lanes need at least 256 / 128 = 2 wavefronts, and 2 gcd(s, 16) at
	 * stride s.  By hand at s = 1: 4-byte words 0..63, two per bank: 2.
	 * s = 16: words 32l, 32l + 1, all in banks 0 and 1: 32.  Broadcast: the
	 * two words of one 8-byte word, one per bank: 1. */
	for (unsigned s = 1; s <= 66; s++)
		ck_assert_int_eq(apod_model_stride_wavefronts(s, 8), 2 * (int)gcd(s, 16));
	ck_assert_int_eq(apod_model_stride_wavefronts(1, 8), 2);
	ck_assert_int_eq(apod_model_stride_wavefronts(16, 8), 32);
	ck_assert_int_eq(apod_model_stride_wavefronts(0, 8), 1);
}
END_TEST

START_TEST(guide_tile_padding)
{
	/* §9.2.3.3, C = AA^T: a column of a [32][32] tile is a stride of 32
	 * words, every thread in one bank (32-way); padded to [32][33] the stride
	 * is 33 = 1 mod 32, conflict-free.  Rows are unit stride either way. */
	ck_assert_int_eq(apod_model_tile_wavefronts(0, 1), 32);
	ck_assert_int_eq(apod_model_tile_wavefronts(1, 1), 1);
	ck_assert_int_eq(apod_model_tile_wavefronts(0, 0), 1);
	ck_assert_int_eq(apod_model_tile_wavefronts(1, 0), 1);
}
END_TEST

START_TEST(broadcast_and_distinct_words)
{
	/* §9.2.3.1: threads reading the same location get it by broadcast, and
	 * broadcasts from several banks combine into one multicast.  By hand:
	 * lanes 0..15 on word 0, 16..31 on word 32 (both bank 0, different
	 * words): 2 passes; lanes 0..15 on word 0, 16..31 on word 1 (two banks):
	 * 1.  An unaligned size is refused. */
	size_t a[32];
	for (int l = 0; l < 32; l++)
		a[l] = l < 16 ? 0 : 32 * 4;
	ck_assert_int_eq(apod_model_wavefronts(a, 4), 2);
	for (int l = 0; l < 32; l++)
		a[l] = l < 16 ? 0 : 4;
	ck_assert_int_eq(apod_model_wavefronts(a, 4), 1);
	ck_assert_int_eq(apod_model_wavefronts(a, 2), -1);
	ck_assert_int_eq(apod_model_wavefronts(a, 16), -1);
}
END_TEST

/* --- overlap: seed-000 §9.1.2 (digest §2.7). ------------------------------------ */

START_TEST(guide_staged_model)
{
	/* t_E > t_T: staged t_E + t_T/n, sequential t_E + t_T; t_T > t_E:
	 * t_T + t_E/n.  By hand: t_E = 8, t_T = 4, n = 4: 9; sequential 12;
	 * t_E = 2, t_T = 8, n = 4: 8.5; equal, 4 and 4 over 4 streams: 5. */
	ck_assert_double_eq_tol(apod_model_staged(8, 4, 4), 9, 1e-12);
	ck_assert_double_eq_tol(apod_model_staged(8, 4, 0), 12, 1e-12);
	ck_assert_double_eq_tol(apod_model_staged(2, 8, 4), 8.5, 1e-12);
	ck_assert_double_eq_tol(apod_model_staged(4, 4, 4), 5, 1e-12);
	/* One stream overlaps nothing: the sequential time. */
	ck_assert_double_eq_tol(apod_model_staged(8, 4, 1), apod_model_staged(8, 4, 0), 1e-12);
	ck_assert_double_eq_tol(apod_model_staged(2, 8, 1), 10, 1e-12);
}
END_TEST

START_TEST(pipeline_model)
{
	/* max(h, t_E, d) + (h + t_E + d - max)/n; n = 0: the sum.  By hand:
	 * h = d = 2, t_E = 6: 6 + 4/4 = 7, the guide's t_E + t_T/4 too
	 * (doc/labs/overlap.md: with the kernel the slowest stage and
	 * t_T = h + d, the two models agree).  h = d = 4, t_E = 1, n = 16:
	 * 4 + 5/16 = 4.3125, where the guide says 8 + 1/16 = 8.0625. */
	ck_assert_double_eq_tol(apod_model_pipeline(2, 6, 2, 0), 10, 1e-12);
	ck_assert_double_eq_tol(apod_model_pipeline(2, 6, 2, 4), 7, 1e-12);
	ck_assert_double_eq_tol(apod_model_staged(6, 4, 4), 7, 1e-12);
	ck_assert_double_eq_tol(apod_model_pipeline(4, 1, 4, 16), 4.3125, 1e-12);
	ck_assert_double_eq_tol(apod_model_staged(1, 8, 16), 8.0625, 1e-12);
	ck_assert_double_eq_tol(apod_model_pipeline(4, 1, 4, 1), 9, 1e-12);
}
END_TEST

START_TEST(survey_h100_overlap)
{
	/* anchors-survey.md §2 B and D (H100, 256 MiB, pinned): H2D 52.5 GB/s,
	 * D2H 53.7 GB/s; H2D + kernel + D2H 11.93 ms in sequence, 6.51 ms over 4
	 * streams.  Derived (as doc/labs/overlap.md does): h = 2^28 B / 52.5 GB/s
	 * = 5.113 ms, d = 4.999 ms, t_T = 10.112 ms, so t_E is at most 11.933 -
	 * 10.112 = 1.821 ms.  The guide's model, t_T + t_E/4, is 10.11 to 10.57
	 * ms, well above the measurement; the pipeline's 5.113 + (4.999 +
	 * t_E)/4, 6.36 to 6.82 ms, brackets it. */
	double h = 268435456 / 52.5e9 * 1e3, d = 268435456 / 53.7e9 * 1e3, t_T = h + d, t_E = 11.933 - t_T;
	ck_assert_double_eq_tol(h, 5.113, 5e-4);
	ck_assert_double_eq_tol(d, 4.999, 5e-4);
	ck_assert_double_eq_tol(t_E, 1.821, 1e-3);
	ck_assert_double_eq_tol(apod_model_staged(t_E, t_T, 0), 11.933, 1e-9);
	ck_assert_double_eq_tol(apod_model_staged(0, t_T, 4), 10.112, 1e-3);
	ck_assert_double_eq_tol(apod_model_staged(t_E, t_T, 4), 10.567, 1e-3);
	ck_assert_double_eq_tol(apod_model_pipeline(h, 0, d, 4), 6.363, 1e-3);
	ck_assert_double_eq_tol(apod_model_pipeline(h, t_E, d, 4), 6.818, 1e-3);
	ck_assert(apod_model_pipeline(h, 0, d, 4) < 6.51 && 6.51 < apod_model_pipeline(h, t_E, d, 4));
	ck_assert(apod_model_staged(0, t_T, 4) > 6.51);
}
END_TEST

/* --- divergence: distinct paths per warp. ---------------------------------------- */

struct rule {
	int mode;            /* 0 by lane, 1 by warp, 2 on data, 3 on data grouped by warp */
	unsigned k;
	uint32_t thresh;
};

/* The lab's path_of (gpu/labs/divergence.cu), with its coins. */
static unsigned rule_path(int i, const void *ctx)
{
	const struct rule *r = ctx;
	switch (r->mode) {
	case 0: return (unsigned)i & (r->k - 1);
	case 1: return (unsigned)(i >> 5) & (r->k - 1);
	case 2: return apod_model_divergence_coin(i) < r->thresh;
	default: return apod_model_divergence_coin(i & ~31) < r->thresh;
	}
}

static double paths(int n, int mode, unsigned k, double p)
{
	/* The lab's threshold: a word below p 2^32 takes path A. */
	struct rule r = { mode, k, (uint32_t)(p * 4294967296.0) };
	return apod_model_paths_per_warp(n, rule_path, &r);
}

START_TEST(by_lane_and_by_warp)
{
	/* doc/labs/divergence.md: exactly k by lane, 1 by warp (seed-000 §1.13 on
	 * §12.1: a condition on threadIdx / WSIZE does not diverge).  With the
	 * --check size, 65613 = 2050 x 32 + 13, the last warp has 13 lanes: by
	 * lane it runs min(k, 13) paths, so k = 16 averages (2050 x 16 + 13) /
	 * 2051 and k = 32 (2050 x 32 + 13) / 2051. */
	for (unsigned k = 1; k <= 32; k *= 2) {
		ck_assert_double_eq(paths(1 << 16, 0, k, 0), k);
		ck_assert_double_eq(paths(1 << 16, 1, k, 0), 1);
		ck_assert_double_eq(paths(65613, 1, k, 0), 1);
	}
	ck_assert_double_eq(paths(65613, 0, 8, 0), 8);
	ck_assert_double_eq_tol(paths(65613, 0, 16, 0), (2050.0 * 16 + 13) / 2051, 1e-12);
	ck_assert_double_eq_tol(paths(65613, 0, 32, 0), (2050.0 * 32 + 13) / 2051, 1e-12);
	ck_assert_double_eq(paths(5, 0, 32, 0), 5);   /* one partial warp */
}
END_TEST

START_TEST(data_branch_scattered)
{
	/* On the lab's data at its default 2^22 threads.  doc/labs/divergence.md
	 * gives 1.2767 at p = 0.01; the other three are the same count at the
	 * lab's other p (as quoted for the lab's table).  A warp runs two paths
	 * unless all 32 lanes agree: expected 2 - (1 - p)^32 - p^32 (derived),
	 * 1.0315, 1.2750, 1.8063, 1.9657; over 131072 warps the count's standard
	 * error is sqrt(q (1 - q) / 131072), q = 1 - (1 - p)^32, and each count
	 * lies within 4 of them of the expectation. */
	static const double p[4] = { 0.001, 0.01, 0.05, 0.1 };
	static const double counted[4] = { 1.0315, 1.2767, 1.8075, 1.9662 };
	for (int j = 0; j < 4; j++) {
		double got = paths(1 << 22, 2, 2, p[j]);
		double q = 1 - pow(1 - p[j], 32), expect = 2 - pow(1 - p[j], 32) - pow(p[j], 32);
		ck_assert_double_eq_tol(got, counted[j], 5e-5);
		ck_assert_double_eq_tol(got, expect, 4 * sqrt(q * (1 - q) / 131072));
	}
	/* p = 0: one path everywhere; p = 1/2: a warp of one path has
	 * probability 2^-31, so over 131072 warps 2 (to within 1e-4). */
	ck_assert_double_eq(paths(1 << 22, 2, 2, 0), 1);
	ck_assert_double_eq_tol(paths(1 << 22, 2, 2, 0.5), 2, 1e-4);
}
END_TEST

START_TEST(data_branch_grouped)
{
	/* doc/labs/divergence.md: grouped by warp (every lane tests its warp's
	 * first word) it is exactly 1, whatever p: the remedy of the Kepler-era
	 * talk (seed-001-004 B.2), threads with the same control flow grouped. */
	static const double p[7] = { 0, 0.001, 0.01, 0.05, 0.1, 0.25, 0.5 };
	for (int j = 0; j < 7; j++) {
		ck_assert_double_eq(paths(1 << 22, 3, 2, p[j]), 1);
		ck_assert_double_eq(paths(65613, 3, 2, p[j]), 1);
	}
}
END_TEST

START_TEST(coins_are_the_labs)
{
	/* The coin is bits 16..47 of splitmix64's output function applied to
	 * 0xd1b54a32d192ed03 (i + 1) + 12345.  The function is held against
	 * splitmix64's well-known first output for seed 0 (its state after one
	 * step is 0x9e3779b97f4a7c15): 0xe220a8397b1dcdaf, whose bits 16..47
	 * are 0xa8397b1d. */
	ck_assert_uint_eq(apod_model_divergence_mix(0x9e3779b97f4a7c15ull), 0xa8397b1du);
	ck_assert_uint_eq(apod_model_divergence_coin(0), apod_model_divergence_mix(0xd1b54a32d192ed03ull + 12345));
	ck_assert_uint_eq(apod_model_divergence_coin(41),
	                  apod_model_divergence_mix(0xd1b54a32d192ed03ull * 42 + 12345));
}
END_TEST

/* --- ilp: Little's law, seed-001-004 B.6: "# bytes in flight = latency *
 * bandwidth". ---------------------------------------------------------------------- */

START_TEST(littles_law)
{
	/* The digest's illustration (B.6, derived there): 183 GB/s with 500 ns
	 * of DRAM latency needs about 91.5 KB in flight (183e9 x 500e-9 = 91500
	 * bytes), and back: 91500 bytes at 183 GB/s are 500 ns.  By hand: 65536
	 * bytes at 100 GB/s, 655.36 ns. */
	ck_assert_double_eq_tol(apod_model_little_bytes_in_flight(183, 500), 91500, 1e-9);
	ck_assert_double_eq_tol(apod_model_little_latency_ns(91500, 183e9), 500, 1e-9);
	ck_assert_double_eq_tol(apod_model_little_latency_ns(65536, 100e9), 655.36, 1e-9);
	ck_assert_double_eq_tol(apod_model_little_bytes_in_flight(100, 655.36), 65536, 1e-9);
	for (double b = 1000; b < 1e9; b *= 7.3)
		ck_assert_double_eq_tol(apod_model_little_bytes_in_flight(250, apod_model_little_latency_ns(b, 250e9)), b,
		                        1e-9 * b);
}
END_TEST

/* --- instructions: ulps (doc/labs/instructions.md, the bounds of the CUDA
 * C++ Programming Guide's tables as listed there). -------------------------------- */

START_TEST(ulp_dist_basics)
{
	/* +0 and -0 are one point; neighbours are 1 apart, across zero too: the
	 * smallest subnormals either side of 0 are 2 apart.  1 and -1: 1.0f is
	 * 0x3f800000 = 1065353216 steps from 0 each way. */
	float one = 1.0f, next = nextafterf(1.0f, 2.0f), tiny = nextafterf(0.0f, 1.0f);
	ck_assert_int_eq(apod_model_ulp_dist(one, 1.0, 0), 0);
	ck_assert_int_eq(apod_model_ulp_dist(next, 1.0, 0), 1);
	ck_assert_int_eq(apod_model_ulp_dist(-0.0f, 0.0, 1), 0);
	ck_assert_int_eq(apod_model_ulp_dist(tiny, -(double)tiny, 1), 2);
	ck_assert_int_eq(apod_model_ulp_dist(-1.0f, 1.0, 1), 2 * (int64_t)1065353216);
	/* r rounds to float first: 1 + 2^-30 is nearest to 1. */
	ck_assert_int_eq(apod_model_ulp_dist(one, 1 + 0x1p-30, 0), 0);
	ck_assert_int_eq(apod_model_ulp_dist(next, 1 + 0x1p-30, 0), 1);
}
END_TEST

START_TEST(ulp_dist_midpoint_allowance)
{
	/* r = 1 + 2^-24 is the midpoint of 1 and 1 + 2^-23.  A double reference
	 * that close to a midpoint (within 2^-20 of the float spacing, here
	 * 2^-43) cannot say which float is correctly rounded, so g gets the
	 * nearer: 0 for either.  Marked exact (a quotient), r rounds to even (1)
	 * and 1 + 2^-23 is 1 ulp off.  At 2^-40 past the midpoint (beyond 2^-43)
	 * the doubt is gone: r rounds up, and 1 is 1 ulp off; at 2^-45 past it
	 * the allowance still holds. */
	float one = 1.0f, next = nextafterf(1.0f, 2.0f);
	ck_assert_int_eq(apod_model_ulp_dist(one, 1 + 0x1p-24, 0), 0);
	ck_assert_int_eq(apod_model_ulp_dist(next, 1 + 0x1p-24, 0), 0);
	ck_assert_int_eq(apod_model_ulp_dist(one, 1 + 0x1p-24, 1), 0);
	ck_assert_int_eq(apod_model_ulp_dist(next, 1 + 0x1p-24, 1), 1);
	ck_assert_int_eq(apod_model_ulp_dist(one, 1 + 0x1p-24 + 0x1p-40, 0), 1);
	ck_assert_int_eq(apod_model_ulp_dist(next, 1 + 0x1p-24 + 0x1p-40, 0), 0);
	ck_assert_int_eq(apod_model_ulp_dist(one, 1 + 0x1p-24 + 0x1p-45, 0), 0);
	ck_assert_int_eq(apod_model_ulp_dist(next, 1 + 0x1p-24 + 0x1p-45, 0), 0);
}
END_TEST

START_TEST(expf_fast_bound)
{
	/* __expf: 2 + floor(|1.173 x|) ulps; doc/labs/instructions.md: at most
	 * 13 on the lab's [-10, 10].  By hand: x = 0: 2; x = 1: 2 + 1 = 3;
	 * x = +-10: 2 + floor(11.73) = 13; x = 0.85: 2 + floor(0.99705) = 2;
	 * x = 0.8535: 2 + floor(1.00116) = 3 (1.17 would have given 2). */
	ck_assert_double_eq(apod_model_expf_fast_ulp_bound(0), 2);
	ck_assert_double_eq(apod_model_expf_fast_ulp_bound(1), 3);
	ck_assert_double_eq(apod_model_expf_fast_ulp_bound(10), 13);
	ck_assert_double_eq(apod_model_expf_fast_ulp_bound(-10), 13);
	ck_assert_double_eq(apod_model_expf_fast_ulp_bound(0.85f), 2);
	ck_assert_double_eq(apod_model_expf_fast_ulp_bound(0.8535f), 3);
	ck_assert_double_eq(apod_model_expf_fast_ulp_bound(-0.8535f), 3);
}
END_TEST

START_TEST(powf_fast_bound)
{
	/* doc/labs/instructions.md: 3 + ceil(1.0001 ln2 (4|y| max(1, |log2 x|)
	 * + |y log2 x|)), at most 59 on x in [2^-2, 2^2], y in [-8, 8].  By
	 * hand: x = 4 or 1/4, |y| = 8: 4 x 8 x 2 + 16 = 80, 1.0001 ln2 80 =
	 * 55.457, ceil 56, so 59.  x = 1 (log2 x = 0), y = 8: 32 -> 22.183 -> 23,
	 * 26.  x = 2, y = 1: 4 + 1 = 5 -> 3.466 -> 4, 7.  y = 0: 3.  x = 1,
	 * y = 1.082: ln2 x 4.328 = 2.99994, which the 1.0001 margin lifts to
	 * 3.00024: ceil 4, so 7 (without the margin it would be 6). */
	ck_assert_double_eq(apod_model_powf_fast_ulp_bound(4, 8), 59);
	ck_assert_double_eq(apod_model_powf_fast_ulp_bound(0.25f, -8), 59);
	ck_assert_double_eq(apod_model_powf_fast_ulp_bound(1, 8), 26);
	ck_assert_double_eq(apod_model_powf_fast_ulp_bound(2, 1), 7);
	ck_assert_double_eq(apod_model_powf_fast_ulp_bound(3, 0), 3);
	ck_assert_double_eq(apod_model_powf_fast_ulp_bound(1, 1.082f), 7);
	/* The most anywhere on the lab's inputs is the 59 at the corners. */
	double most = 0;
	for (int i = 0; i <= 4096; i++) {
		float x = (float)exp2(-2 + 4.0 * i / 4096);
		for (int j = 0; j <= 64; j++) {
			double b = apod_model_powf_fast_ulp_bound(x, (float)(-8 + 16.0 * j / 64));
			most = b > most ? b : most;
		}
	}
	ck_assert_double_eq(most, 59);
}
END_TEST

int main(void)
{
	const TTest *tests[] = {
		guide_aligned_warp_four_sectors, guide_misaligned_warp_five_sectors,
		guide_strided_sectors, partial_last_warp, aos_soa_fractions,
		guide_4byte_stride_is_gcd, eight_byte_words, guide_tile_padding,
		broadcast_and_distinct_words, guide_staged_model, pipeline_model,
		survey_h100_overlap, by_lane_and_by_warp, data_branch_scattered,
		data_branch_grouped, coins_are_the_labs, littles_law, ulp_dist_basics,
		ulp_dist_midpoint_allowance, expf_fast_bound, powf_fast_bound,
		NULL,
	};
	return check_run(check_suite("lab_models", "core", 0, tests), CK_FORK_GETENV);
}
