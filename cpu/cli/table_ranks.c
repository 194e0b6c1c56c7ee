/*
 * table_ranks.c: the table's weak scaling across ranks (table_ranks.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/harness/bounds.h"
#include "cpu/harness/fail.h"
#include "fresh_process.h"
#include "scale.h"
#include "table_ranks.h"

int apod_table_ranks_check(const struct apod_workload *w, const void *params, int n,
                           struct apod_mpirun *m)
{
	const struct apod_stage *first = NULL;
	char why[256] = "", first_why[256] = "";
	void *g;
	for (int i = 0; w->stages[i]; i++)
		if (apod_stage_runs_ranks(w->stages[i]) && !first) {
			if (apod_stage_available(w->stages[i], why, sizeof why))
				first = w->stages[i];
			else if (!*first_why)
				snprintf(first_why, sizeof first_why, "%s: %s", w->stages[i]->name, why);
		}
	if (!first)
		return apod_usage_fail("--ranks: no stage of workload %s that runs across ranks can run "
		                       "here%s%s", w->name, *first_why ? " (" : "",
		                       *first_why ? first_why : "");
	if (!w->grow)
		return apod_usage_fail("--ranks: workload %s cannot grow its problem (no grow hook): no "
		                       "weak scaling", w->name);
	if (!(g = scale_grown_params(w, params, n)))
		return apod_usage_fail("--ranks=%d: the problem cannot grow %d times: %s", n, n,
		                       apod_failure());
	free(g);
	return apod_mpirun_find(m);
}

static double fraction(const struct apod_workload *w, const struct apod_stage *e,
                       const struct apod_run *r)
{
	struct meas m;
	scale_meas_of(r, &m);
	return scale_ported_fraction(w, &m, apod_stage_ports(w, e));
}

int apod_table_weak(const struct apod_workload *w, const void *params,
                    const struct apod_stage *e, int n, const struct apod_mpirun *m,
                    unsigned flags, struct apod_table_weak *out)
{
	struct apod_fresh f;
	struct apod_run r1, rn;
	void *g = NULL;
	int rc = -1;
	memset(out, 0, sizeof *out);
	out->ranks = n;
	apod_fresh_begin(&f, w, params, flags);
	if (!(g = scale_grown_params(w, params, n)))
		goto done;
	scale_changed_keys(w, params, g, 0, out->grown, sizeof out->grown);
	if (apod_fresh_run_ranks(&f, w, e, params, m, 1, &r1))
		goto done;
	out->seconds1 = r1.total;
	out->p = fraction(w, e, &r1);
	apod_run_free(&r1);
	if (apod_fresh_run_ranks(&f, w, e, g, m, n, &rn))
		goto done;
	out->seconds = rn.total;
	apod_run_free(&rn);
	out->efficiency = out->seconds1 / out->seconds;
	out->scaled = n * out->seconds1 / out->seconds;
	out->gustafson = apod_gustafson(out->p, n);
	out->above = out->scaled > out->gustafson * (1 + APOD_BOUND_NOISE);
	out->ran = 1;
	rc = 0;
done:
	if (rc) {
		snprintf(out->why, sizeof out->why, "%s", apod_failure());
		/* Refused at N ranks (mgpu given more ranks than this host has
		 * GPUs): the point is not measured here, and the table goes on. */
		if (apod_failure_status() == APOD_EXIT_USAGE) {
			out->refused = 1;
			rc = 0;
		}
	}
	free(g);
	apod_fresh_end(&f);
	return rc;
}

void apod_table_weak_print(const struct apod_stage *e, const struct apod_table_weak *k)
{
	if (!k->ran) {
		printf("  %s weak, %d ranks: %s: %s\n", e->name, k->ranks, k->refused ? "not run here" : "failed",
		       k->why);
		return;
	}
	printf("  %s weak, %d ranks, problem x%d (%s): %.4f s against %.4f s at 1 rank on the deck:\n"
	       "  efficiency %.1f%%, scaled speedup %.2fx, %s Gustafson's %.2fx (p = %.4f)\n", e->name,
	       k->ranks, k->ranks, k->grown, k->seconds, k->seconds1, 100 * k->efficiency, k->scaled,
	       k->above ? "above" : "within", k->gustafson, k->p);
}

void apod_table_weak_broken(const struct apod_stage *e, const struct apod_table_weak *k)
{
	if (k->ran && k->above)
		printf("MODEL BROKEN for %s: its scaled speedup at %d ranks, %.2fx, exceeds Gustafson's "
		       "bound %.2fx for p = %.4f: the work is not linear in the grow factor, or the "
		       "1-rank run's p is not the grown run's\n", e->name, k->ranks, k->scaled,
		       k->gustafson, k->p);
}

void apod_table_weak_json(json_object *row, const struct apod_table_weak *k)
{
	json_object_object_add(row, "ranks", json_object_new_int(k->ranks));
	if (!k->ran) {
		json_object_object_add(row, "weak_why", json_object_new_string(k->why));
		json_object_object_add(row, "weak_refused", json_object_new_boolean(k->refused));
		return;
	}
	json_object_object_add(row, "weak_grown", json_object_new_string(k->grown));
	json_object_object_add(row, "weak_one_rank_seconds", json_object_new_double(k->seconds1));
	json_object_object_add(row, "weak_seconds", json_object_new_double(k->seconds));
	json_object_object_add(row, "weak_efficiency", json_object_new_double(k->efficiency));
	json_object_object_add(row, "weak_scaled_speedup", json_object_new_double(k->scaled));
	json_object_object_add(row, "gustafson_p", json_object_new_double(k->p));
	json_object_object_add(row, "gustafson", json_object_new_double(k->gustafson));
	json_object_object_add(row, "gustafson_holds", json_object_new_boolean(!k->above));
}
