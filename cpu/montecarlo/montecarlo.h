/*
 * montecarlo.h: the Monte Carlo workload's parameters, problem and the host
 * code every stage shares to turn per-batch sums into estimates.
 *
 * One harness step simulates one batch of `paths_per_batch` paths of geometric
 * Brownian motion (shared/montecarlo/path.h) and prices three calls on
 * them: European, geometric-average and arithmetic-average Asian (the
 * last twice: plain, and with the geometric call as control variate).  The
 * first two have closed forms (shared/montecarlo/closed_form.h), which is
 * what the estimates are finally checked against.
 *
 * Every stage reduces a batch to the same 2 x MC_NEST numbers, per estimator e
 * the shifted sums S1 = sum (v - c_e) and S2 = sum (v - c_e)^2, with c_e
 * near the price (the closed form), so that the batch's squared deviations
 * S2 - S1^2/P lose little to cancellation; and to a histogram of S_T.  The
 * batches are then merged on the host in batch order (Chan's formula,
 * shared/stats.h), the same code for every stage, so the only differences
 * between stages are those of the per-batch sums.
 */
#ifndef APOD_MONTECARLO_H
#define APOD_MONTECARLO_H

#include <stddef.h>

#include "apod/workload.h"
#include "shared/montecarlo/path.h"
#include "shared/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MC_MAX_PATHS   (1L << 26)
#define MC_MAX_BATCHES 1000000L
#define MC_MAX_STEPS   4096L
#define MC_MAX_BINS    4096L
#define MC_MAX_SEED    4294967295L
#define MC_MAX_PRICE   1e6
/* The two-sided 95% normal quantile of the confidence intervals. */
#define MC_Z95 1.959963984540054
/* Per batch: S1 and S2 of each estimator. */
#define MC_SUMS (2 * MC_NEST)

struct mc_params {
	char name[APOD_NAME_MAX];
	long paths;          /* paths a batch (one harness step) */
	long batches;        /* harness steps */
	long monitor;        /* monitoring dates a path */
	double s0, strike, rate, sigma, maturity;
	long seed;
	long hist_bins;
	double hist_lo, hist_hi;   /* the histogram of S_T, per batch */
	long stats_every;          /* calcEstimates every K batches (0: never) */
};

struct mc_problem {
	struct mc_model model;
	size_t paths, batches;
	int bins;
	double hist_lo, hist_inv_width;
	double shift[MC_NEST];     /* c_e: the sums' shifts */
	double exact[2];           /* European and geometric closed forms */
};

/* The probe and its series, the array (indices into workload.c's tables:
 * k, the rows and a of the stages' ops). */
enum { MC_PROBE_ESTIMATES };
enum { MC_SERIES_MEAN, MC_SERIES_VARIANCE, MC_SERIES_STDERR, MC_SERIES_CI95, MC_SERIES_EXACT,
       MC_SERIES_HIST, MC_NSERIES };
enum { MC_ARRAY_BATCH_MEAN };

/* The histogram bin of S_T (shared by every stage); values outside the
 * range are clamped into the first or last bin. */
APOD_HD int mc_bin(double st, double lo, double inv_width, int bins)
{
	double t = (st - lo) * inv_width;
	int b;
	if (!(t > 0))
		return 0;
	if (t >= (double)bins)
		return bins - 1;
	b = (int)t;
	return b < bins ? b : bins - 1;
}

/* What every stage keeps on the host: the per-batch sums as they come,
 * the running moments merged up to `merged`, the last batch's histogram. */
struct mc_host {
	const struct mc_problem *p;
	double *sums;                /* batches x MC_SUMS */
	unsigned long long *hist;    /* bins: the last batch simulated */
	struct apod_moments run[MC_NEST];
	size_t done, merged;         /* batches simulated, merged into run */
};

int mc_host_init(struct mc_host *h, const struct mc_problem *p, const char *stage);
void mc_host_free(struct mc_host *h);
/* Merge the batches done so far and fill the probe's rows (doubles; the
 * histogram's counts uint64_t). */
void mc_host_probe(struct mc_host *h, void *const *rows);
/* The array: each batch's mean of each estimator. */
void mc_host_batch_means(const struct mc_host *h, double *dst);
/* The host stages (serial, omp) keep nothing but a struct mc_host, so they
 * share its whole life as their create, destroy, probe and fetch; only
 * their steps differ. */
void *mc_host_create(const void *problem, const char *stage);
void mc_host_destroy(void *ctx);
int mc_host_stage_probe(void *ctx, int k, long step, long row, void *const *rows);
int mc_host_stage_fetch(void *ctx, int a, void *dst);
/* A host step's batch: begin clears the histogram and gives the index of
 * the batch's first path; end stores the batch's sums (acc, S1 and S2 of
 * each estimator in turn, as h->sums keeps them) and counts it done. */
uint64_t mc_host_batch_begin(struct mc_host *h);
void mc_host_batch_end(struct mc_host *h, const double acc[MC_SUMS]);

/* One path of a host step: simulate path i, add its shifted payoffs and
 * their squares to acc, and give its histogram bin.  Inline, so that the
 * serial step (the profile's simulateBatch) keeps its path loop whole. */
static inline int mc_path_add(const struct mc_problem *p, uint64_t i, double acc[MC_SUMS])
{
	struct mc_outcome o = mc_path(&p->model, i);
	double v[MC_NEST];
	mc_payoffs(&p->model, &o, v);
	for (int e = 0; e < MC_NEST; e++) {
		double d = v[e] - p->shift[e];
		acc[2 * e] += d;
		acc[2 * e + 1] += d * d;
	}
	return mc_bin(o.st, p->hist_lo, p->hist_inv_width, p->bins);
}

extern const struct apod_param mc_params_table[];
int mc_params_check(const void *params);
/* eta: the relative difference two stages' S_T, geometric and arithmetic
 * means of one path may show (workload.c derives it). */
double mc_path_eta(const struct mc_params *p);
/* The (S_T, G, A) of paths first .. first + n - 1 computed on the device
 * with gpu1's path code (tuned = 0), gpu2's (1) or gpu3's (2), into out (n x 3);
 * for the unit test of the error analysis (stage_gpu.cu). */
int mc_gpu_outcomes(const struct mc_model *m, uint64_t first, size_t n, int tuned, double *out);

/* The stages, "serial" first, each described once (stages.c), and what
 * each does: stage_serial.c, stage_omp.c, and gpu/montecarlo/stage_gpu.cu
 * for gpu1, gpu2 and gpu3, whose data is an int: 1 for gpu2's tuned kernel, 2 for
 * gpu3's. */
extern const struct apod_stage *const mc_stages[];
extern const struct apod_stage_ops mc_serial_ops;
extern const struct apod_stage_ops mc_omp_ops;
extern const struct apod_stage_ops mc_gpu_ops;
/* bench --kernels (kernels.c): the workload's kernel_rows member. */
int mc_kernels(const void *problem, int reps, const struct apod_bench_sink *sink);

#ifdef __cplusplus
}
#endif

#endif
