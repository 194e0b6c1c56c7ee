/*
 * workload.c: Monte Carlo option pricing, declared to the harness: its
 * parameters, its problem (the model's constants and the closed forms),
 * its probe (calcEstimates), its outputs and the tolerances of the gate.
 *
 * The tolerances are designed, not tuned.  Every stage draws the same
 * normals (Philox, shared/rng.h: exact integer-to-double conversions), so
 * two stages differ only by
 *
 * 1. libm and contraction inside a path.  A libm call differs between
 *    glibc (< 1 ulp) and CUDA's double library (log, exp 1 ulp; sin, cos,
 *    sincospi 2 ulp) by at most 3 ulp, 6u relative (u = 2^-53; for sin and
 *    cos, whose values are at most 1, 6u absolute).  gpu2 also uses
 *    sincospi(2 u2) where the host computes sin(2pi u2) with 2pi and the
 *    product rounded: an angle error of at most 2u * 2pi < 13u, absolute,
 *    and sin and cos are 1-Lipschitz.  The radius sqrt(-2 ln u1) differs by
 *    at most 4u relative (log's 2u relative after the square root halves
 *    it, plus the root's own rounding), and z = r cos(theta) by 2u more for
 *    the product.  So one normal differs by at most C_Z u ZMAX with
 *    C_Z = 6 + 13 + 4 + 2 = 25, ZMAX the largest Box-Muller radius on
 *    apod_u01d's grid.  A step x += mu_dt + vol_dt z
 *    adds vol_dt ZMAX (C_Z + 1) u (the FMA nvcc makes moves one rounding)
 *    and 2u X, X bounding |x|; after n steps the log price differs by
 *        dx = n (vol_dt ZMAX (C_Z + 1) u + 2u X).
 *    S_T = exp(x), G = exp(mean x) and A = mean exp(x_k) then differ by a
 *    relative
 *        eta = dx + 3u X + (2n + 10) u
 *    (exp's 6u, the sums' n u on each side, the divisions).  A call's
 *    payoff v = disc (S - K)+ then differs by at most eta (v + K): where S
 *    is in the money S = v/disc + K, and where the two sides straddle the
 *    strike neither payoff exceeds eta S ~ eta K.
 *
 * 2. The order of the sums of a batch, in double: any order of P terms
 *    is within (P - 1) u sum|terms| of the exact sum, so two orders differ
 *    by twice that (nvcc fusing acc += d * d into an FMA rounds once less
 *    a term, inside the same bound).  The merges across batches run in batch order on the
 *    host for every stage (host.c) and add 2u a merge on inputs that
 *    differ as above.
 *
 * 3. The control-variate estimator Y = (v_A - v_G) + c_G adds the two
 *    payoffs' differences and 2u (v_A + v_G + c_G) for its own two
 *    roundings, so |dY| <= eta' W with eta' = eta + 2u and
 *    W = v_A + v_G + 2K + c_G; for the plain payoffs |dv| <= eta W with
 *    W = v + K.  Every bound below is written for |dv| <= eta_e W.
 *
 * The bounds add these up per output.  Where a bound needs the size of a
 * mean or of a second moment that params alone cannot give, it uses
 * allowances: M bounds a batch's mean payoff (every payoff is below
 * disc S_T, whose mean over paths has expectation S0 and per-path standard
 * deviation S0 sqrt(e^{s^2 T} - 1); M allows ten of those, which by
 * Chebyshev a batch mean exceeds with probability below 1/(100 P)); R_e
 * bounds sqrt(mean W^2) (disc S_T has root mean square S0 e^{s^2 T/2};
 * ten times that, which by Markov the sample's mean square exceeds with
 * probability below 1/100, plus the constants of W).  Those terms are
 * absolute allowances far below any real fault (a path left out of a
 * batch of P moves its mean by about mean/P).
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "montecarlo.h"
#include "shared/montecarlo/closed_form.h"
#include "montecarlo_workload.h"

#define C_Z 25.0

/* One bound: absolute and relative parts, as struct apod_tol has them. */
struct mc_tol {
	double atol, rtol;
};

/* One estimator's bounds (indexed by MC_*). */
struct mc_bounds {
	struct mc_tol batch;    /* a batch's mean (the array) */
	struct mc_tol mean;     /* the running means */
	struct mc_tol var;
	struct mc_tol se;
	struct mc_tol ci;
};

struct mc_tolerance {
	struct mc_bounds e[MC_NEST];
	double hist_frac;
};

static void exact_prices(const struct mc_params *p, double exact[2])
{
	exact[0] = mc_black_scholes_call(p->s0, p->strike, p->rate, p->sigma, p->maturity);
	exact[1] = mc_geometric_asian_call(p->s0, p->strike, p->rate, p->sigma, p->maturity,
	                                   p->monitor);
}

/* The shift of estimator e's sums (problem_create uses the same). */
static double shift_of(const double exact[2], int e)
{
	return e == MC_EUROPEAN ? exact[0] : exact[1];
}

/* Point 1 above. */
double mc_path_eta(const struct mc_params *p)
{
	double u = DBL_EPSILON / 2;
	double n = (double)p->monitor, dt = p->maturity / n;
	double mu_dt = (p->rate - 0.5 * p->sigma * p->sigma) * dt, vol_dt = p->sigma * sqrt(dt);
	double X = fabs(log(p->s0)) + fabs(mu_dt) * n + vol_dt * n * MC_ZMAX;
	double dx = n * (vol_dt * MC_ZMAX * (C_Z + 1) * u + 2 * u * X);
	return dx + 3 * u * X + (2 * n + 10) * u;
}

static void design(const struct mc_params *p, struct mc_tolerance *t)
{
	double u = DBL_EPSILON / 2;
	double P = (double)p->paths, B = (double)p->batches;
	double eta = mc_path_eta(p);
	double K = p->strike, exact[2], M, rms_max;
	double s2t = p->sigma * p->sigma * p->maturity;
	double m_log = log(p->s0) + (p->rate - 0.5 * p->sigma * p->sigma) * p->maturity;
	double order = 2 * (P + 1) * u, pdf_max, expected;

	exact_prices(p, exact);
	M = p->s0 * (1 + 10 * sqrt(expm1(s2t)));
	rms_max = 10 * p->s0 * exp(0.5 * s2t);

	for (int e = 0; e < MC_NEST; e++) {
		struct mc_bounds *b = &t->e[e];
		double c = shift_of(exact, e), eta_e, wa, wr, R, top, dmean;
		if (e == MC_ARITHMETIC_CV) {
			/* W = v_A + v_G + 2K + c: its mean at most 2M + 2K + c whatever Y is. */
			eta_e = eta + 2 * u;
			wa = 2 * M + 2 * K + c;
			wr = 0;
			R = 2 * rms_max + 2 * K + c;
			top = M + c;                  /* Y <= v_A + c */
		} else {
			/* W = v + K: its mean is the estimate plus K. */
			eta_e = eta;
			wa = K;
			wr = 1;
			R = rms_max + K;
			top = M;
		}
		/* A batch's mean, shift + S1/P: the paths' eta_e mean(W), the order
		 * of S1 (sum |v - c| <= P (mean + c): v >= 0, and Y >= c since
		 * A >= G path by path), and the last roundings. */
		b->batch.rtol = eta_e * wr + order;
		b->batch.atol = eta_e * wa + order * c;
		/* Running means: weighted averages of batch means (the bound
		 * carries over) plus the merges' own rounding. */
		b->mean.rtol = b->batch.rtol + 2 * (B + 1) * u;
		b->mean.atol = b->batch.atol;
		dmean = b->mean.atol + b->mean.rtol * top;
		/* Variance.  Perturbing every v by dv, |dv| <= eta_e W, moves it by
		 * at most 2 sd(v) sd(dv) + mean(dv^2) <= 2 sd(v) eta_e R + eta_e^2 R^2
		 * <= eta_e (var + R^2) + eta_e^2 R^2 (Cauchy-Schwarz, 2ab <= a^2 + b^2).
		 * S2 = m2 + P (mean - c)^2 and S1^2/P are summed in another order
		 * (2(P+1)u of S2, and 4(P+1)u P (top + c)^2 for S1^2/P); the merges'
		 * between-batch terms move with the batch means by 2 (top + c) dmean. */
		b->var.rtol = eta_e + order + 2 * (B + 1) * u;
		b->var.atol = eta_e * R * R * (1 + eta_e) + 6 * (P + 1) * u * (top + c) * (top + c) +
		              4 * (top + c) * dmean;
		/* se = sqrt(var / N), N >= P: sqrt(a + b) <= sqrt(a) + sqrt(b). */
		b->se.rtol = 0.5 * b->var.rtol + 2 * u;
		b->se.atol = sqrt(b->var.atol / P);
		/* ci = mean -+ z se: both errors, the relative parts on |ci| plus,
		 * for the low end (mean = lo + z se), 2 z se, se <= R / sqrt(P). */
		b->ci.rtol = fmax(b->mean.rtol, b->se.rtol) + 2 * u;
		b->ci.atol = b->mean.atol + MC_Z95 * b->se.atol + b->ci.rtol * 2 * MC_Z95 * R / sqrt(P);
	}

	/* The histogram of S_T, per batch.  A path changes bin only if its
	 * S_T lies within eta S_T of one of the bins + 1 edges.  S_T is
	 * lognormal, its density at most e^{-m + s^2/2} / (s sqrt(2 pi)) (at its
	 * mode), so the expected number of paths moved in a batch is at most
	 * P (bins + 1) 2 eta hist_hi pdf_max, about 1e-8 on the decks.  One
	 * moved path changes two counts; the tolerance allows one moved path a
	 * batch, plus ten times the expectation should that ever be larger. */
	pdf_max = exp(-m_log + 0.5 * s2t) / sqrt(2 * M_PI * s2t);
	expected = P * (double)(p->hist_bins + 1) * 2 * eta * p->hist_hi * pdf_max;
	t->hist_frac = 2 * (1 + floor(10 * expected)) / P;
}

/* The tolerances (apod_tolerance_fn): every value is double whatever the
 * build, so any_float changes nothing, and every output is compared by its
 * own kind (no horizon), so neither does kind. */
#define UNUSED_TOL_ARGS (void)problem, (void)any_float, (void)kind

/* The array holds every estimator in a row: the loosest of their bounds. */
static void batch_tol(const void *params, const void *problem, int any_float, int column,
                      enum apod_compare kind, struct apod_tol *t)
{
	struct mc_tolerance d;
	UNUSED_TOL_ARGS, (void)column;
	design(params, &d);
	t->atol = t->rtol = 0;
	for (int e = 0; e < MC_NEST; e++) {
		t->atol = fmax(t->atol, d.e[e].batch.atol);
		t->rtol = fmax(t->rtol, d.e[e].batch.rtol);
	}
}

/* Estimator e's bounds on the deck in params. */
static struct mc_bounds bounds_of(const void *params, int e)
{
	struct mc_tolerance d;
	design(params, &d);
	return d.e[e];
}

/* t's absolute and relative parts, from one of design's bounds. */
static void take_bound(struct apod_tol *t, struct mc_tol bound)
{
	t->atol = bound.atol;
	t->rtol = bound.rtol;
}

/* One column an estimator (mean, variance, standard error). */
static void mean_tol(const void *params, const void *problem, int any_float, int column,
                     enum apod_compare kind, struct apod_tol *t)
{
	UNUSED_TOL_ARGS;
	take_bound(t, bounds_of(params, column).mean);
}

static void var_tol(const void *params, const void *problem, int any_float, int column,
                    enum apod_compare kind, struct apod_tol *t)
{
	UNUSED_TOL_ARGS;
	take_bound(t, bounds_of(params, column).var);
}

static void se_tol(const void *params, const void *problem, int any_float, int column,
                   enum apod_compare kind, struct apod_tol *t)
{
	UNUSED_TOL_ARGS;
	take_bound(t, bounds_of(params, column).se);
}

/* Two columns (low, high) an estimator. */
static void ci_tol(const void *params, const void *problem, int any_float, int column,
                   enum apod_compare kind, struct apod_tol *t)
{
	UNUSED_TOL_ARGS;
	take_bound(t, bounds_of(params, column / 2).ci);
}

static void hist_tol(const void *params, const void *problem, int any_float, int column,
                     enum apod_compare kind, struct apod_tol *t)
{
	struct mc_tolerance d;
	UNUSED_TOL_ARGS, (void)column;
	design(params, &d);
	t->frac = d.hist_frac;
	t->total = (double)((const struct mc_params *)params)->paths;
}

static int batch_shape(const void *params, size_t dims[2])
{
	dims[0] = (size_t)((const struct mc_params *)params)->batches;
	dims[1] = MC_NEST;
	return 2;
}

APOD_PARAM_LONG(steps, struct mc_params, batches)
APOD_PARAM_LONG(stats_every, struct mc_params, stats_every)
APOD_PARAM_TEXT(title, struct mc_params, name)

/* The work of one batch (apod/workload.h), in FP64 operations:
 * a monitoring date advances the log-price and both means (4) and takes an
 * exp; each pair of dates draws two normals by Box-Muller (a log, a sin and
 * a cos); a path ends with two more exps and the payoffs (about 20).  None
 * of these functions has a unit of its own in double: each is counted as 16
 * operations, the eight FMAs of the shortest polynomial that could reach
 * double precision on its reduced range, which is fewer than any library
 * spends, so the bound stays below what can be done.  Philox's integer
 * work is left out, as is the memory traffic (a few sums a batch). */
static int work(const void *params, const void *problem, const char *phase, struct apod_work *w)
{
	const struct mc_params *p = params;
	double fn = 16, per_date = 4 + fn + 3 * fn / 2, per_path = 2 * fn + 20;
	(void)problem;   /* the work is the deck's */
	if (strcmp(phase, "simulateBatch"))
		return 0;
	w->flops64 = (double)p->paths * ((double)p->monitor * per_date + per_path);
	return 1;
}

static int hist_columns(const void *params)
{
	return (int)((const struct mc_params *)params)->hist_bins;
}

/* The model's constants, once on the host: every stage uses these bits. */
static void *problem_create(const void *params)
{
	const struct mc_params *prm = params;
	struct mc_problem *p = calloc(1, sizeof *p);
	double dt = prm->maturity / (double)prm->monitor;
	if (!p) {
		apod_fail("montecarlo: out of memory");
		return NULL;
	}
	p->model.seed = (uint64_t)prm->seed;
	p->model.steps = (int)prm->monitor;
	p->model.x0 = log(prm->s0);
	p->model.mu_dt = (prm->rate - 0.5 * prm->sigma * prm->sigma) * dt;
	p->model.vol_dt = prm->sigma * sqrt(dt);
	p->model.strike = prm->strike;
	p->model.disc = exp(-prm->rate * prm->maturity);
	p->model.inv_steps = 1.0 / (double)prm->monitor;
	p->paths = (size_t)prm->paths;
	p->batches = (size_t)prm->batches;
	p->bins = (int)prm->hist_bins;
	p->hist_lo = prm->hist_lo;
	p->hist_inv_width = (double)prm->hist_bins / (prm->hist_hi - prm->hist_lo);
	exact_prices(prm, p->exact);
	/* The arithmetic mean is at least the geometric one: its price is
	 * above the geometric price and near it, a good shift for both of its
	 * estimators. */
	for (int e = 0; e < MC_NEST; e++)
		p->shift[e] = shift_of(p->exact, e);
	p->model.geo_exact = p->exact[1];
	return p;
}

static void problem_destroy(void *problem)
{
	free(problem);
}

static const struct apod_phase phases[] = {
	{ .name = "simulateBatch" },   /* one batch of paths */
	{ .name = NULL },
};

static const struct apod_probe probes[] = {
	[MC_PROBE_ESTIMATES] = { .name = "calcEstimates", .every = stats_every },
	{ .name = NULL },
};

static const struct apod_array arrays[] = {
	/* Each batch's mean of each estimator: the independent samples a user
	 * would test for normality, or batch-means errors, after the run. */
	[MC_ARRAY_BATCH_MEAN] = { .name = "batch_mean", .dtype = APOD_F64, .shape = batch_shape,
	                          .snapshot = NULL, .compare = APOD_COMPARE_CLOSE,
	                          .tolerance = batch_tol },
	{ .name = NULL },
};

#define NEST_NAMES "european,geometric,arithmetic,arithmetic_cv"

static const struct apod_series series[] = {
	[MC_SERIES_MEAN] = { .name = "mean", .probe = "calcEstimates", .column_names = NEST_NAMES,
	                     .compare = APOD_COMPARE_CLOSE, .tolerance = mean_tol },
	[MC_SERIES_VARIANCE] = { .name = "variance", .probe = "calcEstimates",
	                         .column_names = NEST_NAMES, .compare = APOD_COMPARE_CLOSE,
	                         .tolerance = var_tol },
	[MC_SERIES_STDERR] = { .name = "stderr", .probe = "calcEstimates", .column_names = NEST_NAMES,
	                       .compare = APOD_COMPARE_CLOSE, .tolerance = se_tol },
	[MC_SERIES_CI95] = { .name = "ci95", .probe = "calcEstimates",
	                     .column_names = "european_lo,european_hi,geometric_lo,geometric_hi,"
	                                     "arithmetic_lo,arithmetic_hi,arithmetic_cv_lo,"
	                                     "arithmetic_cv_hi",
	                     .compare = APOD_COMPARE_CLOSE, .tolerance = ci_tol },
	/* The closed forms, from the same host code in every stage: bit for bit. */
	[MC_SERIES_EXACT] = { .name = "exact", .probe = "calcEstimates",
	                      .column_names = "european,geometric", .compare = APOD_COMPARE_EXACT },
	/* The last batch's counts, kept and compared as integers. */
	[MC_SERIES_HIST] = { .name = "hist", .probe = "calcEstimates", .columns = hist_columns,
	                     .column_prefix = "bin", .dtype = APOD_U64, .compare = APOD_COMPARE_COUNTS,
	                     .tolerance = hist_tol },
	{ .name = NULL },
};

/* Weak scaling: factor times the paths of a batch. */
static int grow(void *params, int factor)
{
	struct mc_params *q = params;
	return apod_grow_count(&q->paths, factor, MC_MAX_PATHS, "montecarlo", "paths")
	               ? -1
	               : mc_params_check(q);
}

const struct apod_workload montecarlo_workload = {
	.version = APOD_WORKLOAD_VERSION,
	.name = "montecarlo",
	.about = "European and Asian calls under geometric Brownian motion, Philox normals, closed "
	         "forms (compute-bound, embarrassingly parallel)",
	.params_size = sizeof(struct mc_params),
	.params = mc_params_table,
	.check = mc_params_check,
	.steps = steps,
	.snapshot_every = NULL,
	.title = title,
	.problem_create = problem_create,
	.problem_destroy = problem_destroy,
	.phases = phases,
	.probes = probes,
	.arrays = arrays,
	.series = series,
	.stages = mc_stages,
	.grow = grow,
	.work = work,
	.kernel_rows = mc_kernels,
};
