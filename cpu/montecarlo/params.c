/*
 * params.c: the Monte Carlo workload's keys.  Every range refuses zero,
 * negative and non-finite values where they make no sense (the harness
 * refuses a non-finite REAL everywhere), naming the key.
 */
#include <stddef.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "montecarlo.h"

#define AT(member) offsetof(struct mc_params, member)

const struct apod_param mc_params_table[] = {
	APOD_KEY_NAME(struct mc_params, name, "montecarlo"),
	{ .key = "paths_per_batch", .type = APOD_PARAM_INT, .def = "100000", .lo = 1, .hi = MC_MAX_PATHS,
	  .offset = AT(paths), .help = "paths a batch (one step simulates one batch)" },
	{ .key = "batches", .type = APOD_PARAM_INT, .def = "10", .lo = 1, .hi = MC_MAX_BATCHES,
	  .offset = AT(batches), .help = "batches (the harness's steps)" },
	{ .key = "monitor", .type = APOD_PARAM_INT, .def = "64", .lo = 1, .hi = MC_MAX_STEPS,
	  .offset = AT(monitor), .help = "monitoring dates a path (time steps of the Asian averages)" },
	{ .key = "s0", .type = APOD_PARAM_REAL, .def = "100", .lo = 0, .lo_open = 1,
	  .hi = MC_MAX_PRICE, .offset = AT(s0), .help = "initial price" },
	{ .key = "strike", .type = APOD_PARAM_REAL, .def = "100", .lo = 0, .lo_open = 1,
	  .hi = MC_MAX_PRICE, .offset = AT(strike), .help = "strike of every call" },
	{ .key = "rate", .type = APOD_PARAM_REAL, .def = "0.05", .lo = 0, .hi = 1,
	  .offset = AT(rate), .help = "risk-free rate, continuously compounded" },
	/* Above 2 the lognormal's variance e^{sigma^2 T} - 1 makes an estimate
	 * of any useful accuracy need more paths than a run can take. */
	{ .key = "sigma", .type = APOD_PARAM_REAL, .def = "0.2", .lo = 0, .lo_open = 1, .hi = 2,
	  .range_why = " (volatility)", .offset = AT(sigma), .help = "volatility" },
	{ .key = "maturity", .type = APOD_PARAM_REAL, .def = "1", .lo = 0, .lo_open = 1, .hi = 10,
	  .offset = AT(maturity), .help = "maturity T in years" },
	{ .key = "seed", .type = APOD_PARAM_INT, .def = "1", .lo = 0, .hi = MC_MAX_SEED,
	  .offset = AT(seed), .help = "Philox key of the path normals" },
	{ .key = "hist_bins", .type = APOD_PARAM_INT, .def = "50", .lo = 1, .hi = MC_MAX_BINS,
	  .offset = AT(hist_bins), .help = "bins of the histogram of S_T (per batch)" },
	{ .key = "hist_lo", .type = APOD_PARAM_REAL, .def = "0", .lo = 0, .hi = MC_MAX_PRICE,
	  .offset = AT(hist_lo), .help = "the histogram's low end (values below land in the first bin)" },
	{ .key = "hist_hi", .type = APOD_PARAM_REAL, .def = "250", .lo = 0, .lo_open = 1,
	  .hi = MC_MAX_PRICE, .offset = AT(hist_hi),
	  .help = "the histogram's high end (values above land in the last bin)" },
	{ .key = "stats_every", .type = APOD_PARAM_INT, .def = "1", .lo = 0, .hi = MC_MAX_BATCHES,
	  .offset = AT(stats_every), .help = "calcEstimates every K batches (0: never)" },
	{ .key = NULL },
};

int mc_params_check(const void *params)
{
	const struct mc_params *p = params;
	if (!(p->hist_lo < p->hist_hi))
		return apod_usage_fail("deck: hist_lo %g is not below hist_hi %g", p->hist_lo,
		                       p->hist_hi);
	/* Path indices are 64-bit: paths x batches < 2^26 x 10^6 fits easily. */
	return 0;
}
