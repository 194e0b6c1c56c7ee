/*
 * closed_form.h: the prices the Monte Carlo estimators must converge to.
 *
 * European call (Black and Scholes): with d1 = (ln(S0/K) + (r + s^2/2) T) / (s sqrt T),
 * d2 = d1 - s sqrt T,   C = S0 Phi(d1) - K e^{-rT} Phi(d2).
 *
 * Discretely monitored geometric-average Asian call.  With t_k = k dt,
 * dt = T/n, ln S_k = ln S0 + mu t_k + s W(t_k), mu = r - s^2/2, the
 * geometric mean G = (S_1 ... S_n)^(1/n) has
 *
 *     ln G = ln S0 + mu dt (1 + ... + n)/n + (s/n) sum_k W(t_k).
 *
 * The first sum is n(n+1)/2, so the mean of ln G is
 *     m = ln S0 + mu T (n+1)/(2n).
 * Writing W(t_k) as the sum of its increments dW_j (j <= k), increment j
 * appears in the n - j + 1 terms k = j..n, so sum_k W(t_k) =
 * sum_j (n-j+1) dW_j, a sum of independent normals of variance
 * dt * sum_{i=1..n} i^2 = dt n(n+1)(2n+1)/6.  Hence ln G is normal with
 *     v = s^2 T (n+1)(2n+1) / (6 n^2).
 * For ln G ~ N(m, v):  E[(G - K)+] = e^{m + v/2} Phi(d1) - K Phi(d2) with
 * d2 = (m - ln K)/sqrt v and d1 = d2 + sqrt v, and the price is e^{-rT}
 * times that.  At n = 1, m = ln S0 + mu T and v = s^2 T: Black-Scholes
 * again (a unit test checks it).
 */
#ifndef APOD_MONTECARLO_CLOSED_FORM_H
#define APOD_MONTECARLO_CLOSED_FORM_H

#include <math.h>

#include "shared/apod_hd.h"

APOD_HD double mc_phi(double x)
{
	return 0.5 * erfc(-x * 0.70710678118654752440);
}

/* E[(X - K)+] for ln X ~ N(m, v), v > 0. */
APOD_HD double mc_lognormal_call(double m, double v, double k)
{
	double sd = sqrt(v);
	double d2 = (m - log(k)) / sd;
	return exp(m + 0.5 * v) * mc_phi(d2 + sd) - k * mc_phi(d2);
}

APOD_HD double mc_black_scholes_call(double s0, double k, double r, double sigma, double t)
{
	return exp(-r * t) *
	       mc_lognormal_call(log(s0) + (r - 0.5 * sigma * sigma) * t, sigma * sigma * t, k);
}

APOD_HD double mc_geometric_asian_call(double s0, double k, double r, double sigma, double t,
                                       long n)
{
	double dn = (double)n;
	double m = log(s0) + (r - 0.5 * sigma * sigma) * t * (dn + 1) / (2 * dn);
	double v = sigma * sigma * t * (dn + 1) * (2 * dn + 1) / (6 * dn * dn);
	return exp(-r * t) * mc_lognormal_call(m, v, k);
}

#endif
