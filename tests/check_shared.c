/* Unit tests of the __host__ __device__ functions in shared/, on the CPU. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "shared/heat/cell.h"
#include "shared/heat/hist.h"
#include "shared/heat/passes.h"
#include "shared/montecarlo/closed_form.h"
#include "shared/montecarlo/path.h"
#include "shared/compare.h"
#include "shared/rng.h"
#include "shared/stats.h"
#include "check_run.h"

START_TEST(cell_update_is_the_five_point_formula)
{
	/* Exact in binary: 10 + 0.25*((1+3)+(5+7) - 40) = 4. */
	ck_assert(heat_cell_update(10, 1, 3, 5, 7, 0.25f) == (heat_real)4);
	/* A uniform neighbourhood is a fixed point whatever alpha is. */
	ck_assert(heat_cell_update(42, 42, 42, 42, 42, 0.1f) == (heat_real)42);
}
END_TEST

START_TEST(cell_update_keeps_the_maximum_principle)
{
	/* With alpha <= 1/4 the result stays within the neighbourhood's range. */
	srand(7);
	for (int i = 0; i < 100000; i++) {
		heat_real v[5], lo, hi, r, a = (heat_real)(0.25 * rand() / RAND_MAX);
		for (int k = 0; k < 5; k++)
			v[k] = (heat_real)(100.0 * rand() / RAND_MAX);
		lo = hi = v[0];
		for (int k = 1; k < 5; k++) {
			lo = v[k] < lo ? v[k] : lo;
			hi = v[k] > hi ? v[k] : hi;
		}
		r = heat_cell_update(v[0], v[1], v[2], v[3], v[4], a);
		ck_assert_msg(r >= lo - 4 * FLT_EPSILON * hi && r <= hi + 4 * FLT_EPSILON * hi,
		              "update %g left [%g, %g]", (double)r, (double)lo, (double)hi);
	}
}
END_TEST

START_TEST(welford_matches_two_pass)
{
	struct apod_moments m;
	double x[1000], sum = 0, ss = 0, mean;
	apod_moments_init(&m);
	for (int i = 0; i < 1000; i++) {
		x[i] = 1e6 + sin(i) * 3;    /* a large offset defeats E[x^2]-E[x]^2 */
		apod_moments_push(&m, x[i]);
		sum += x[i];
	}
	mean = sum / 1000;
	for (int i = 0; i < 1000; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	/* Relative 1e-12 of the mean's magnitude; the variance (about 4.5) to 1e-9. */
	ck_assert_double_eq_tol(m.mean, mean, 1e-6);
	ck_assert_double_eq_tol(apod_moments_variance(&m), ss / 1000, 1e-9);
	ck_assert_double_eq(m.n, 1000);
}
END_TEST

START_TEST(chan_merge_equals_one_pass)
{
	struct apod_moments all, a, b, e;
	apod_moments_init(&all);
	apod_moments_init(&a);
	apod_moments_init(&b);
	apod_moments_init(&e);
	for (int i = 0; i < 777; i++) {
		double v = cos(i * 0.37) * 50 + 20;
		apod_moments_push(&all, v);
		apod_moments_push(i < 300 ? &a : &b, v);
	}
	apod_moments_merge(&a, &e);          /* merging nothing changes nothing */
	apod_moments_merge(&e, &a);          /* merging into nothing copies */
	ck_assert_double_eq(e.mean, a.mean);
	apod_moments_merge(&a, &b);
	ck_assert_double_eq(a.n, 777);
	ck_assert_double_eq_tol(a.mean, all.mean, 1e-12);
	ck_assert_double_eq_tol(a.m2, all.m2, 1e-8);
	ck_assert_double_eq(a.min, all.min);
	ck_assert_double_eq(a.max, all.max);
}
END_TEST

START_TEST(block_moments)
{
	struct apod_moments m;
	apod_moments_from_block(&m, 4, 10, 5, 1, 4);  /* values 1,2,3,4 */
	ck_assert_double_eq(m.mean, 2.5);
	ck_assert_double_eq(apod_moments_variance(&m), 1.25);
}
END_TEST

START_TEST(histogram_bins_and_clamps)
{
	/* 10 bins over [0, 100): width 10. */
	heat_real inv = (heat_real)0.1;
	ck_assert_int_eq(heat_hist_bin(0, 0, inv, 10), 0);
	ck_assert_int_eq(heat_hist_bin(9.99f, 0, inv, 10), 0);
	ck_assert_int_eq(heat_hist_bin(10.5f, 0, inv, 10), 1);
	ck_assert_int_eq(heat_hist_bin(99.9f, 0, inv, 10), 9);
	ck_assert_int_eq(heat_hist_bin(100, 0, inv, 10), 9);     /* top edge: last bin */
	ck_assert_int_eq(heat_hist_bin(1e30f, 0, inv, 10), 9);   /* clamped */
	ck_assert_int_eq(heat_hist_bin(-5, 0, inv, 10), 0);      /* clamped */
	ck_assert_int_eq(heat_hist_bin(NAN, 0, inv, 10), 0);     /* counted, not lost */
}
END_TEST

static heat_real real_below(heat_real x)
{
	return sizeof(heat_real) == sizeof(float) ? (heat_real)nextafterf((float)x, -INFINITY)
	                                          : (heat_real)nextafter((double)x, -INFINITY);
}

/* gpu5's fast histogram path trusts these intervals instead of binning
 * each value, so they must agree with heat_hist_bin everywhere. */
START_TEST(histogram_edges_bound_each_bin)
{
	const struct {
		heat_real lo, inv_width;
		int nbins;
	} c[] = {
		{ 0, (heat_real)(64.0 / 100.0), 64 },       /* the decks' default */
		{ 0, (heat_real)0.1, 10 },
		{ (heat_real)-3.7, (heat_real)(7.0 / 12.9), 7 },
		{ (heat_real)1e-3, (heat_real)(1000.0 / 3e-3), 1000 },
	};
	heat_real edges[1001];
	srand(11);
	for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
		heat_real lo = c[k].lo, iw = c[k].inv_width, span = (heat_real)c[k].nbins / iw;
		int n = c[k].nbins;
		heat_hist_edges(lo, iw, n, edges);
		ck_assert(isinf(edges[0]) && edges[0] < 0);
		ck_assert(isinf(edges[n]) && edges[n] > 0);
		for (int b = 1; b < n; b++) {
			ck_assert_int_eq(heat_hist_bin(edges[b], lo, iw, n), b);
			ck_assert_int_eq(heat_hist_bin(real_below(edges[b]), lo, iw, n), b - 1);
		}
		/* One assertion for all the samples: Check's per-call bookkeeping made
		 * 800,000 of them outlast the timeout under the sanitizers. */
		{
			long bad = 0;
			heat_real first = 0;
			for (int i = 0; i < 200000; i++) {
				heat_real x = lo - span / 4 + (heat_real)(1.5 * rand() / RAND_MAX) * span;
				int b = heat_hist_bin(x, lo, iw, n);
				if (!(edges[b] <= x && x < edges[b + 1]) && !bad++)
					first = x;
			}
			ck_assert_msg(bad == 0, "%ld values outside their bin's interval, the first %.9g", bad,
			              (double)first);
		}
		/* The ends and the signed zeros. */
		ck_assert_int_eq(heat_hist_bin(-INFINITY, lo, iw, n), 0);
		ck_assert(edges[0] <= -INFINITY && -INFINITY < edges[1]);
		ck_assert(edges[heat_hist_bin(0.0f, lo, iw, n)] <= (heat_real)-0.0);
	}
}
END_TEST

START_TEST(ulp_distance_on_the_float_grid)
{
	float one = 1.0f, next = nextafterf(1.0f, 2.0f);
	ck_assert_int_eq(apod_ulp_distance(one, one), 0);
	ck_assert_int_eq(apod_ulp_distance(one, next), 1);
	ck_assert_int_eq(apod_ulp_distance(next, one), 1);
	ck_assert_int_eq(apod_ulp_distance(0.0, -0.0), 0);
	/* Across zero: the smallest positive and negative subnormals are 2 apart. */
	ck_assert_int_eq(apod_ulp_distance(nextafterf(0, 1), nextafterf(0, -1)), 2);
}
END_TEST

START_TEST(within_absolute_and_relative)
{
	ck_assert(apod_within(100, 100.5, 0.1, 0.01));   /* 0.5 <= 0.1 + 1 */
	ck_assert(!apod_within(100, 102, 0.1, 0.01));
	ck_assert(apod_within(0, 1e-9, 1e-8, 0));
	ck_assert(!apod_within(1, NAN, 1, 1));
}
END_TEST

/* Random123's published known answers for Philox4x32-10 (its kat_vectors):
 * the generator is the one every stage and both sides of the bus use. */
START_TEST(philox_known_answers)
{
	philox4x32_key_t k0 = { { 0, 0 } }, k1 = { { 0xffffffffu, 0xffffffffu } };
	philox4x32_ctr_t c0 = { { 0, 0, 0, 0 } };
	philox4x32_ctr_t c1 = { { 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu } };
	philox4x32_ctr_t r0 = philox4x32(c0, k0), r1 = philox4x32(c1, k1);
	ck_assert_uint_eq(r0.v[0], 0x6627e8d5u);
	ck_assert_uint_eq(r0.v[1], 0xe169c58du);
	ck_assert_uint_eq(r0.v[2], 0xbc57ac4cu);
	ck_assert_uint_eq(r0.v[3], 0x9b00dbd8u);
	ck_assert_uint_eq(r1.v[0], 0x408f276du);
	ck_assert_uint_eq(r1.v[1], 0x41c83b0eu);
	ck_assert_uint_eq(r1.v[2], 0xa20bc7c6u);
	ck_assert_uint_eq(r1.v[3], 0x6d5451fdu);
	/* apod_rng4's mapping: seed 0, everything 0 is the first vector. */
	r0 = apod_rng4(0, 0, 0, 0);
	ck_assert_uint_eq(r0.v[0], 0x6627e8d5u);
	/* The stream, the index's high word and sub each reach the counter. */
	ck_assert_uint_ne(apod_rng4(0, 1, 0, 0).v[0], 0x6627e8d5u);
	ck_assert_uint_ne(apod_rng4(0, 0, 1ull << 32, 0).v[0], 0x6627e8d5u);
	ck_assert_uint_ne(apod_rng4(0, 0, 0, 1).v[0], 0x6627e8d5u);
}
END_TEST

START_TEST(uniform_conversions_hit_their_ends)
{
	ck_assert(apod_u01f(0) == 1.0f / 16777216.0f);
	ck_assert(apod_u01f(0xffffffffu) == 1.0f);
	ck_assert(apod_s11f(0) == -1.0f);
	ck_assert(apod_s11f(0xffffffffu) == 1.0f - 1.0f / 8388608.0f);
	ck_assert(apod_u01d(0, 0) == 1.0 / 9007199254740992.0);
	ck_assert(apod_u01d(0xffffffffu, 0xffffffffu) == 1.0);
	/* The mean of many draws is near 1/2 (10^6 draws: sd 2.9e-4). */
	{
		double sum = 0;
		for (uint32_t i = 0; i < 1000000; i++) {
			philox4x32_ctr_t r = apod_rng4(42, 0, i, 0);
			sum += apod_u01d(r.v[0], r.v[1]);
		}
		ck_assert_double_eq_tol(sum / 1e6, 0.5, 2e-3);
	}
}
END_TEST


/* Box-Muller's ends: u1 = 1 is radius 0; the smallest u1 the largest radius. */
START_TEST(box_muller_ends)
{
	philox4x32_ctr_t w = { { 0xffffffffu, 0xffffffffu, 0, 0 } };
	double z0, z1;
	mc_normal2(w, &z0, &z1);
	ck_assert(z0 == 0.0 && z1 == 0.0);
	w.v[0] = w.v[1] = 0;    /* u1 = 2^-53, u2 = 2^-53: angle ~ 0 */
	mc_normal2(w, &z0, &z1);
	ck_assert_double_eq_tol(z0, sqrt(106 * log(2.0)), 1e-12);
	ck_assert(z0 <= MC_ZMAX);
}
END_TEST

/* 10^6 normals from Philox: the moments of N(0,1) within five standard
 * deviations of each sample statistic (a fixed seed: the test is
 * deterministic; a correct transform fails it for about one seed in 10^6). */
START_TEST(box_muller_is_standard_normal)
{
	const long pairs = 500000;
	double n = 2.0 * pairs, s1 = 0, s2 = 0, s4 = 0, cross = 0, inside = 0, zmax = 0;
	for (long i = 0; i < pairs; i++) {
		double z[2];
		mc_normal2(apod_rng4(7, MC_STREAM_PATH, (uint64_t)i, 0), &z[0], &z[1]);
		cross += z[0] * z[1];
		for (int k = 0; k < 2; k++) {
			s1 += z[k];
			s2 += z[k] * z[k];
			s4 += z[k] * z[k] * z[k] * z[k];
			inside += fabs(z[k]) < 1.959963984540054;
			zmax = fmax(zmax, fabs(z[k]));
		}
	}
	ck_assert_double_eq_tol(s1 / n, 0.0, 5 * 1.0 / sqrt(n));
	ck_assert_double_eq_tol(s2 / n, 1.0, 5 * sqrt(2.0 / n));
	ck_assert_double_eq_tol(s4 / n, 3.0, 5 * sqrt(96.0 / n));
	ck_assert_double_eq_tol(cross / pairs, 0.0, 5 * 1.0 / sqrt((double)pairs));
	ck_assert_double_eq_tol(inside / n, 0.95, 5 * sqrt(0.95 * 0.05 / n));
	ck_assert(zmax <= MC_ZMAX);
}
END_TEST

START_TEST(closed_forms)
{
	/* Black-Scholes at S = K = 100, r = 5%, sigma = 20%, T = 1: 10.4506 (the
	 * textbook value, to its four decimals). */
	ck_assert_double_eq_tol(mc_black_scholes_call(100, 100, 0.05, 0.2, 1), 10.4506, 1e-4);
	/* Deep in the money it is the forward: S0 - K e^{-rT}. */
	ck_assert_double_eq_tol(mc_black_scholes_call(100, 1, 0.05, 0.2, 1), 100 - exp(-0.05), 1e-9);
	/* One monitoring date: the geometric average is S_T. */
	ck_assert_double_eq_tol(mc_geometric_asian_call(100, 95, 0.03, 0.3, 2, 1),
	                        mc_black_scholes_call(100, 95, 0.03, 0.3, 2), 1e-12);
	/* Many dates: the continuous geometric average, ln G ~ N(ln S0 + mu T/2,
	 * sigma^2 T/3). */
	{
		double r = 0.05, s = 0.2, t = 1, m = log(100.0) + (r - s * s / 2) * t / 2;
		double cont = exp(-r * t) * mc_lognormal_call(m, s * s * t / 3, 100);
		ck_assert_double_eq_tol(mc_geometric_asian_call(100, 100, r, s, t, 1000000), cont, 1e-5);
		/* Averaging lowers the variance: the Asian is cheaper. */
		ck_assert(cont < mc_black_scholes_call(100, 100, r, s, t));
	}
}
END_TEST

/* One monitoring date: the path is one exact GBM step from its first normal. */
START_TEST(path_one_step)
{
	struct mc_model m = { .seed = 3, .steps = 1, .x0 = log(100.0), .mu_dt = 0.03, .vol_dt = 0.2,
	                      .strike = 100, .disc = 0.95, .inv_steps = 1, .geo_exact = 4.5 };
	double z0, z1, v[MC_NEST];
	struct mc_outcome o = mc_path(&m, 12345);
	mc_normal2(apod_rng4(3, MC_STREAM_PATH, 12345, 0), &z0, &z1);
	ck_assert(o.st == exp(m.x0 + (m.mu_dt + m.vol_dt * z0)));
	ck_assert(o.geo == o.st && o.arith == o.st);
	mc_payoffs(&m, &o, v);
	ck_assert(v[MC_EUROPEAN] == (o.st > 100 ? 0.95 * (o.st - 100) : 0.0));
	ck_assert(v[MC_GEOMETRIC] == v[MC_EUROPEAN] && v[MC_ARITHMETIC] == v[MC_EUROPEAN]);
	/* One date: A = G, so the control-variate estimator is the control's mean. */
	ck_assert(v[MC_ARITHMETIC_CV] == 4.5);
	(void)z1;
}
END_TEST

/* gpu5's plan over whole runs (steps, zones every z, snapshots every m,
 * statistics every k): every pass ends where the field is wanted, every
 * statistics step lies in a pass with statistics (4 deep at most) that
 * starts and ends on one, and the sweep alone is 8 deep at most. */
START_TEST(passes_end_where_the_field_is_wanted)
{
	static const long ks[] = { 0, 1, 2, 3, 4, 5, 8, 9, 13 }, zs[] = { 0, 1, 7, 10 };
	const long steps = 120, m = 40;
	for (size_t a = 0; a < sizeof ks / sizeof *ks; a++)
		for (size_t b = 0; b < sizeof zs / sizeof *zs; b++) {
			long k = ks[a], z = zs[b], done = 0;
			while (done < steps) {
				long until = steps, first = done + 1, last;
				int stats = -1, d;
				if (z && (done / z + 1) * z < until)
					until = (done / z + 1) * z;
				if ((done / m + 1) * m < until)
					until = (done / m + 1) * m;
				d = heat_next_pass(4, 8, done, until, k, &stats);
				ck_assert_msg(d >= 1 && d <= (stats ? 4 : 8), "k %ld z %ld at %ld: depth %d", k, z,
				              done, d);
				last = done + d;
				ck_assert_msg(last <= until, "k %ld z %ld: a pass past step %ld", k, z, until);
				for (long s = first; s <= last; s++)
					ck_assert_msg(stats || !k || s % k, "k %ld z %ld: step %ld without statistics",
					              k, z, s);
				if (stats)
					ck_assert_msg(k && first % k == 0 && last % k == 0,
					              "k %ld z %ld: statistics from %ld to %ld", k, z, first, last);
				if (k == 1)
					ck_assert_int_eq(d, until - done < 4 ? until - done : 4);
				done = last;
			}
			ck_assert_int_eq(done, steps);
		}
	/* Nothing left before until. */
	{
		int stats;
		ck_assert_int_eq(heat_next_pass(4, 8, 10, 10, 1, &stats), 0);
	}
}
END_TEST

/* Statistics every 8th step, far from any zone: a 7-step sweep, then the
 * statistics step alone (bench's "gpu5, stats every 8 steps"). */
START_TEST(passes_with_stats_every_8)
{
	int stats;
	ck_assert_int_eq(heat_next_pass(4, 8, 0, 1000, 8, &stats), 7);
	ck_assert_int_eq(stats, 0);
	ck_assert_int_eq(heat_next_pass(4, 8, 7, 1000, 8, &stats), 1);
	ck_assert_int_eq(stats, 1);
	ck_assert_int_eq(heat_next_pass(4, 8, 8, 1000, 8, &stats), 7);
	ck_assert_int_eq(stats, 0);
	/* Every 3rd: steps 3 and 6 in one pass. */
	ck_assert_int_eq(heat_next_pass(4, 8, 2, 1000, 3, &stats), 4);
	ck_assert_int_eq(stats, 1);
	/* Never: 8 deep. */
	ck_assert_int_eq(heat_next_pass(4, 8, 0, 1000, 0, &stats), 8);
	ck_assert_int_eq(stats, 0);
}
END_TEST

int main(void)
{
	const TTest *tests[] = {
		cell_update_is_the_five_point_formula, cell_update_keeps_the_maximum_principle,
		welford_matches_two_pass, chan_merge_equals_one_pass, block_moments,
		histogram_bins_and_clamps, histogram_edges_bound_each_bin,
		ulp_distance_on_the_float_grid, within_absolute_and_relative, philox_known_answers,
		uniform_conversions_hit_their_ends, box_muller_ends, box_muller_is_standard_normal,
		closed_forms, path_one_step, passes_end_where_the_field_is_wanted,
		passes_with_stats_every_8,
		NULL,
	};
	return check_run(check_suite("shared", "core", 0, tests), CK_FORK_GETENV);
}
