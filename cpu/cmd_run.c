/*
 * cmd_run.c: `apod run --stage=NAME`: one stage, its phase timers and its
 * final statistics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fail.h"
#include "results.h"

void apod_print_phases(FILE *f, const struct apod_run *r)
{
	fprintf(f, "  %-16s %12s %8s\n", "phase", "seconds", "share");
	for (int i = 0; i < APOD_NPHASES; i++)
		fprintf(f, "  %-16s %12.6f %7.1f%%\n", apod_phase_name(i), r->phase[i],
		        r->total > 0 ? 100 * r->phase[i] / r->total : 0.0);
	fprintf(f, "  %-16s %12.6f\n", "total", r->total);
}

int apod_cmd_run(int argc, char **argv)
{
	struct apod_run_args args;
	const struct apod_engine *e;
	struct apod_deck d;
	struct apod_problem p;
	struct apod_run r;
	const struct apod_moments *m;
	const char *stage, *out, *json;
	int rc = apod_run_parse(argc, argv, &args);

	if (rc > 0) {
		printf("Usage: apod run --stage=NAME [--deck=FILE] [--size=NXxNY] [--steps=N]\n"
		       "                [--out=DIR] [--json=FILE]\n");
		return APOD_EXIT_OK;
	}
	if (rc < 0)
		return apod_usage_error("run", "%s", apod_failure());
	stage = args.stage;
	out = args.out;
	json = args.json;
	if (!(e = apod_engine_find(stage)))
		return apod_usage_error("run", "unknown stage '%s' (see 'apod stages')", stage);
	if (apod_deck_resolve(&d, &args.deck) || apod_problem_init(&p, &d))
		return apod_report_failure();
	if (apod_run_stage(e, &p, out, &r)) {
		apod_problem_free(&p);
		return apod_report_failure();
	}
	m = &r.moments[r.steps - 1];
	printf("stage %s, deck %s: %zux%zu, %ld steps, %s precision\n", e->name, d.name, d.nx, d.ny,
	       d.steps, r.was_double ? "double" : "float");
	apod_print_phases(stdout, &r);
	printf("final: mean %.9g  min %.9g  max %.9g  variance %.9g\n", m->mean, m->min, m->max,
	       apod_moments_variance(m));
	if (out)
		printf("results in %s (%ld snapshots)\n", out, r.snapshots);
	if (json) {
		json_object *rep = apod_report_json(&d, &r);
		int rc = apod_json_write(json, rep);
		json_object_put(rep);
		if (rc) {
			apod_run_free(&r);
			apod_problem_free(&p);
			return apod_report_failure();
		}
	}
	apod_run_free(&r);
	apod_problem_free(&p);
	return APOD_EXIT_OK;
}
