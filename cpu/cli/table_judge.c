/*
 * table_judge.c: each row of the APOD table held to its bounds, and how
 * sure each verdict is.
 *
 * A verdict is first reached on the medians of the runs, as one run's
 * times would give it; it is then reached again at the far end of every
 * interval (serial at its fastest, the stage at its slowest: the least
 * speedup the runs allow).  Where both say the model broke, it broke;
 * where only the medians say so, the interval straddles the bound and the
 * row says the machine was too noisy to tell.
 */
#include <math.h>
#include <string.h>

#include "cpu/harness/fail.h"
#include "table_rows.h"

/* How many more timings of the reference's setup and fetchResults the
 * table takes, and what share of the reference's run they may cost at
 * most: on a large deck they are a few percent of it. */
#define NOISE_RETIMES 2
#define NOISE_BUDGET 0.25

/* A stage that changes the algorithm on the same hardware (its role): no
 * count of workers makes its gain, so Amdahl at N does not apply; what
 * bounds it is Amdahl's limit (its phases taking no time at all) and its
 * speed of light. */
int apod_table_is_algorithm(const struct row *w)
{
	return w->e->role == APOD_ROLE_ALGORITHM;
}

/* The bound that predicts (doc/assess.md): a stage on threads is held to
 * Amdahl's law at its thread count and to the speed of light of the
 * host's cores, whichever is lower; a device stage to its speed of light
 * alone, Amdahl's law with N the ceiling ratio of what it ports.  Without
 * a speed of light a device stage has no bound: N would be its own
 * measured speedup, which bounds nothing. */
static void choose_bound(struct row *w)
{
	w->bound_kind = BOUND_NONE;
	if (apod_table_is_algorithm(w) && w->ports && isfinite(w->b.limit)) {
		w->bound = w->b.limit;
		w->bound_kind = BOUND_LIMIT;
	} else if (w->b.n > 0 && w->ports && w->has_width) {
		w->bound = w->b.amdahl_n;
		w->bound_kind = BOUND_AMDAHL;
	}
	if (w->sol.have && w->sol.speedup > 0 && w->ports &&
	    (w->bound_kind == BOUND_NONE || w->sol.speedup < w->bound)) {
		w->bound = w->sol.speedup;
		w->bound_kind = BOUND_SOL;
	}
	w->above_bound = w->bound_kind != BOUND_NONE &&
	                 w->b.speedup > w->bound * (1 + APOD_BOUND_NOISE);
}

/* The noise of each phase (bounds.h): the reference's median, its
 * setup and fetchResults timed again where that is cheap, and writeReport
 * as every stage that leaves it to the harness ran it (the same code,
 * whatever the stage). */
static void sample_noise(struct ladder *l)
{
	const struct apod_workload *wl = l->wl;
	int fetch = apod_phase_fetch(wl), report = apod_phase_report(wl);
	const struct row *ref = &l->rows[0];
	double cost = ref->phase[0] + ref->phase[fetch];
	/* The median of its runs as one timing: their spread is the interval's
	 * to judge (judge_sure), and counted here too it would forgive a liar
	 * everything on a loaded host. */
	apod_noise_init(&l->noise, ref->nphases, ref->phase);
	/* A reference of several processes would have to agree on the count. */
	for (int k = 1; k <= NOISE_RETIMES && !ref->e->ops->reporter &&
	                k * cost <= NOISE_BUDGET * ref->total; k++) {
		double setup, fetched;
		if (apod_retime_setup_fetch(wl, ref->e, l->params, l->problem, &setup, &fetched))
			break;   /* it ran once: the noise is that run's */
		apod_noise_add(&l->noise, 0, setup);
		apod_noise_add(&l->noise, fetch, fetched);
	}
	for (int i = 1; i < l->nrows; i++)
		if (l->rows[i].ran && !(l->rows[i].ports & apod_phase_bit(wl, report)) &&
		    l->rows[i].phase[report] > 0)
			apod_noise_add(&l->noise, report, l->rows[i].phase[report]);
}

/* The row again at the far end of the intervals: serial at its fastest,
 * the stage at its slowest.  What still breaks the model there is sure. */
static void judge_sure(const struct ladder *l, struct row *w, const unsigned long long *bits)
{
	const struct row *ref = &l->rows[0];
	double serial_lo[APOD_MAX_PHASES], stage_hi[APOD_MAX_PHASES];
	struct apod_bound far;
	for (int k = 0; k < w->nphases; k++) {
		serial_lo[k] = ref->phase_s[k].lo;
		stage_hi[k] = w->phase_s[k].hi;
	}
	apod_bound_eval(w->nphases, serial_lo, stage_hi, bits, w->ports,
	                apod_table_is_algorithm(w) ? 0 : w->width, NULL, &far);
	w->speedup_lo = ref->total_s.lo / w->total_s.hi;
	w->speedup_hi = ref->total_s.hi / w->total_s.lo;
	w->undeclared_sure = w->b.undeclared_faster & far.undeclared_faster;
	w->beyond_sure = (w->b.above_n && far.above_n) || (w->b.above_limit && far.above_limit) ||
	                 (w->above_bound && far.speedup > w->bound * (1 + APOD_BOUND_NOISE));
	if (w->sol.faster && l->m) {
		struct apod_run stage = { .w = l->wl, .nphases = w->nphases, .has_device = w->has_device,
		                          .width = w->width, .steps = l->wl->steps(l->params),
		                          .snapshots = w->snapshots, .total = w->total_s.hi };
		struct apod_sol far_sol;
		double dev[APOD_MAX_PHASES];
		memcpy(stage.phase, stage_hi, sizeof stage_hi);
		/* The same occurrences: the speed of light is work a call times calls. */
		memcpy(stage.calls, w->calls, sizeof stage.calls);
		/* The device's times at their slowest too. */
		for (int k = 0; k < w->nphases; k++) {
			double most = w->device[k];
			for (int j = 0; j < w->t.n; j++)
				most = fmax(most, w->t.device[j][k]);
			dev[k] = most;
		}
		memcpy(stage.device, dev, sizeof dev);
		memset(&far_sol, 0, sizeof far_sol);
		apod_sol_eval(l->wl, l->params, w->e, w == ref, &l->runs[0], &stage, l->m, &far_sol);
		w->faster_sure = w->sol.faster & far_sol.faster;
	}
}

int apod_table_suspect(const struct row *w, int reference)
{
	if (!w->ran)
		return 0;
	return w->sol.faster || (!reference && (!w->b.holds || w->above_bound));
}

int apod_table_sure(const struct row *w, int reference)
{
	return w->faster_sure || (!reference && (w->beyond_sure || w->undeclared_sure));
}

void apod_table_judge(struct ladder *l)
{
	unsigned long long bits[APOD_MAX_PHASES];
	sample_noise(l);
	for (int i = 0; i < l->rows[0].nphases; i++)
		bits[i] = apod_phase_bit(l->wl, i);
	for (int i = 0; i < l->nrows; i++) {
		struct row *w = &l->rows[i];
		if (!w->ran)
			continue;
		/* An algorithm's N is its measured gain on the phases it changes
		 * (width 0, as a device's), not the threads it runs on. */
		apod_bound_eval(w->nphases, l->rows[0].phase, w->phase, bits, w->ports,
		                apod_table_is_algorithm(w) ? 0 : w->width, &l->noise, &w->b);
		choose_bound(w);
		if (apod_table_suspect(w, i == 0))
			judge_sure(l, w, bits);
	}
}

int apod_table_busy(const struct ladder *l)
{
	const struct row *ref = &l->rows[0];
	if (l->cores > 0 && fmax(l->load_start, l->load_end) > (double)l->cores)
		return 1;
	return ref->ran && ref->total_s.n >= APOD_SPREAD_MIN_RUNS &&
	       apod_spread_rel(&ref->total_s) > APOD_SPREAD_BUSY;
}
