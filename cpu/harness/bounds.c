#include <math.h>
#include <string.h>

#include "bounds.h"

static int valid(double p, double n)
{
	return p >= 0 && p <= 1 && n >= 1;  /* false for NaN */
}

double apod_amdahl(double p, double n)
{
	if (!valid(p, n))
		return NAN;
	if (isinf(n))
		return p == 1 ? INFINITY : 1 / (1 - p);
	return 1 / ((1 - p) + p / n);
}

double apod_gustafson(double p, double n)
{
	if (!valid(p, n) || isinf(n))
		return NAN;
	return n + (1 - p) * (1 - n);
}

int apod_rank_hottest(int n, const double *seconds, int *order)
{
	/* Insertion sort, stable: a handful of phases. */
	for (int i = 0; i < n; i++) {
		double s = seconds[i] >= 0 ? seconds[i] : -1;
		int j = i;
		for (; j > 0; j--) {
			double t = seconds[order[j - 1]];
			if (!(s > (t >= 0 ? t : -1)))
				break;
			order[j] = order[j - 1];
		}
		order[j] = i;
	}
	return n;
}

void apod_noise_init(struct apod_noise *n, int nphases, const double *reference)
{
	memset(n, 0, sizeof *n);
	for (int i = 0; i < nphases && i < APOD_MAX_PHASES; i++)
		apod_noise_add(n, i, reference[i]);
}

void apod_noise_add(struct apod_noise *n, int i, double seconds)
{
	if (i < 0 || i >= APOD_MAX_PHASES || !(seconds >= 0))
		return;
	if (!n->samples[i]++) {
		n->least[i] = n->most[i] = seconds;
		return;
	}
	n->least[i] = fmin(n->least[i], seconds);
	n->most[i] = fmax(n->most[i], seconds);
}

double apod_noise_allowance(const struct apod_noise *n, int i)
{
	double one = fmax(APOD_BOUND_NOISE * n->least[i], APOD_NOISE_ABS);
	/* Timed once, nothing is known of the reference's own spread: the
	 * difference of two timings, each with one timing's noise. */
	if (n->samples[i] < 2)
		return 2 * one;
	return n->most[i] - n->least[i] + one;
}

void apod_bound_eval(int nphases, const double *serial, const double *stage,
                     const unsigned long long *phase_bits, unsigned long long ports, int width,
                     const struct apod_noise *noise, struct apod_bound *b)
{
	struct apod_noise once;
	double ts = 0, tt = 0, ps = 0, pt = 0, slack = 0;
	memset(b, 0, sizeof *b);
	if (!noise) {
		apod_noise_init(&once, nphases, serial);
		noise = &once;
	}
	for (int i = 0; i < nphases; i++) {
		ts += serial[i];
		tt += stage[i];
		if (ports & phase_bits[i]) {
			ps += serial[i];
			pt += stage[i];
		} else if (noise->samples[i]) {
			slack += apod_noise_allowance(noise, i);
			if (stage[i] < noise->least[i] - apod_noise_allowance(noise, i))
				b->undeclared_faster |= 1ull << i;
		}
	}
	b->p = ts > 0 ? ps / ts : 0;
	/* A GPU has no thread count: its N is what it achieved on the phases
	 * it ported, and the bound says what the rest of the program allows. */
	b->n = width > 0 ? width : (pt > 0 ? ps / pt : INFINITY);
	if (b->n < 1)
		b->n = 1;
	b->amdahl_n = apod_amdahl(b->p, b->n);
	b->limit = apod_amdahl(b->p, INFINITY);
	b->speedup = tt > 0 ? ts / tt : INFINITY;
	/* The phases that were not ported are the same code timed in two runs:
	 * a stage beats a bound only by more than their noise, as the check of
	 * each phase above allows it (the sum of their allowances in time), and
	 * by more than APOD_BOUND_NOISE of the bound.  With n the speedup on the
	 * ported phases, beating Amdahl at n is exactly those phases running
	 * faster than serial's, so the two checks must forgive the same noise
	 * (a stage whose every undeclared phase was within its allowance was
	 * once flagged by a fixed margin here; tests/check_bounds.c). */
	b->above_n = b->speedup > b->amdahl_n * (1 + APOD_BOUND_NOISE) &&
	             tt < ts / b->amdahl_n - slack;
	b->above_limit = b->speedup > b->limit * (1 + APOD_BOUND_NOISE) &&
	                 tt < ts / b->limit - slack;
	b->holds = !b->above_n && !b->above_limit && !b->undeclared_faster;
}
