/*
 * cmd_run.c: `apod run --stage=NAME`: one stage, its phase timers and the
 * last row of its first series.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apod/ranks.h"
#include "commands.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/results.h"
#include "cpu/harness/sol.h"
#include "cpu/harness/series_csv.h"
#include "mpirun.h"

/* A column of seconds, or "-" where the phase has no such figure. */
static void cell(FILE *f, int has, double v)
{
	if (has)
		fprintf(f, " %12.6f", v);
	else
		fprintf(f, " %12s", "-");
}

void apod_print_phases(FILE *f, const struct apod_run *r)
{
	/* Blank cells under the columns a run has, after the host's. */
	const char *pad = r->has_busy ? (r->has_device ? "                          " : "             ") : "";
	int nw = apod_phase_width(r->w, 16);   /* the name column, sized from the names */
	if (!r->has_device && !r->has_busy) {
		fprintf(f, "  %-*s %12s %8s %10s\n", nw, "phase", "seconds", "share", "calls");
		for (int i = 0; i < r->nphases; i++)
			fprintf(f, "  %-*s %12.6f %7.1f%% %10ld\n", nw, apod_phase_name(r->w, i), r->phase[i],
			        r->total > 0 ? 100 * r->phase[i] / r->total : 0.0, r->calls[i]);
		/* A stage's own step outside the regions it marked. */
		if (r->unmarked > 0)
			fprintf(f, "  %-*s %12.6f %7.1f%%\n", nw, "(step, unmarked)", r->unmarked,
			        r->total > 0 ? 100 * r->unmarked / r->total : 0.0);
		fprintf(f, "  %-*s %12.6f\n", nw, "total", r->total);
		return;
	}
	/* Host clocks time the calls; the device column what the device did for
	 * each phase (CUDA events on the stage's stream: the span, idle gaps
	 * included); work and busy (--trace) the device's own time on the work
	 * each phase issued.  setup and writeReport are the host's alone. */
	fprintf(f, "  %-*s %12s", nw, "phase", "host s");
	if (r->has_device)
		fprintf(f, " %12s", "device s");
	if (r->has_busy)
		fprintf(f, " %12s %12s", "work s", "busy s");
	fprintf(f, " %8s %10s\n", "share", "calls");
	for (int i = 0; i < r->nphases; i++) {
		double a = apod_attributed(r, i);
		fprintf(f, "  %-*s %12.6f", nw, apod_phase_name(r->w, i), r->phase[i]);
		if (r->has_device)
			cell(f, apod_device_timed(r, i), r->device[i]);
		if (r->has_busy) {
			cell(f, 1, r->work[i]);
			cell(f, 1, r->busy[i]);
		}
		fprintf(f, " %7.1f%% %10ld\n", r->total > 0 ? 100 * a / r->total : 0.0, r->calls[i]);
	}
	if (r->has_device)
		fprintf(f, "  %-*s %12s %12.6f%s %7.1f%%\n", nw, "(launch, wait)", "", apod_unattributed(r),
		        pad, r->total > 0 ? 100 * apod_unattributed(r) / r->total : 0.0);
	if (r->has_busy && r->busy_unattributed > 0)
		fprintf(f, "  %-*s %12s%s %12s %12.6f\n", nw, "(other threads)", "",
		        r->has_device ? "             " : "", "", r->busy_unattributed);
	fprintf(f, "  %-*s %12.6f\n", nw, "total", r->total);
	if (r->has_device)
		fprintf(f, "  share: device time for the phases timed on the device, host time for the rest;\n"
		        "  (launch, wait) is what is left of the total: the host launching and waiting\n");
	if (r->has_busy)
		fprintf(f, "  work: from the first kernel, copy or memset a phase issued starting to the\n"
		        "  last ending; busy: their durations added up (CUPTI).%s  (other\n"
		        "  threads): work issued outside the phases\n",
		        r->has_device ? "  device s minus work s\n"
		        "  is the device waiting for the host's first launch;" : "");
}

static void print_final(const struct apod_run *r)
{
	const struct apod_series *s = r->nseries ? &r->w->series[0] : NULL;
	const struct apod_series_data *d = r->nseries ? &r->series[0] : NULL;
	char names[1024], *save = NULL, *t;
	int c = 0;
	if (!s || !d->rows || !s->column_names)
		return;
	snprintf(names, sizeof names, "%s", s->column_names);
	printf("final %s:", s->name);
	for (t = strtok_r(names, ",", &save); t && c < d->cols; t = strtok_r(NULL, ",", &save), c++) {
		size_t i = (size_t)(d->rows - 1) * (size_t)d->cols + (size_t)c;
		char text[32];
		apod_series_format(text, sizeof text, d, 9, i);
		printf("  %s %s", t, text);
	}
	putchar('\n');
}

/* The ceilings the speed of light is held to: 1 read, 0 none (why says
 * why), -2 where the file the user named is unreadable. */
static int machine(const char *ceilings, struct apod_sol_machine *m, char *why, size_t len)
{
	switch (apod_cli_machine(ceilings, m, why, len)) {
	case 0:
		return 1;
	case -2:
		return -2;
	}
	return 0;
}

/* After the phases: each one's speed of light, and the stage's. */
static void speed_of_light(const struct apod_open *o, const struct apod_stage *e,
                           const struct apod_run *r, const struct apod_sol_machine *m, int have,
                           const char *why, json_object *rep)
{
	struct apod_sol sol;
	memset(&sol, 0, sizeof sol);
	if (have)
		apod_sol_eval(o->w, o->params, e, e == o->w->stages[0], NULL, r, m, &sol);
	else
		snprintf(sol.why, sizeof sol.why, "%s", why);
	apod_run_sol_print(stdout, r, e, &sol);
	if (rep)
		json_object_object_add(rep, "speed_of_light", apod_sol_json(r, &sol));
}

int apod_run_main(int argc, char **argv)
{
	struct apod_run_args args;
	struct apod_open o;
	const struct apod_stage *e;
	struct apod_run r;
	struct apod_sol_machine m;
	const char *env = getenv("APOD_CEILINGS");
	char why[512] = "";
	int named, have = 0, reports, rc = apod_run_parse(argc, argv, &args);

	if (apod_cmd_parsed(&o, &apod_cmd_run_entry, rc))
		return o.status;
	if (!(e = apod_stage_find(args.deck.w, args.stage)))
		return apod_usage_error("run", "unknown stage '%s' of workload %s (see '%s stages')",
		                        args.stage, args.deck.w->name, apod_prog->name);
	/* Under a launcher every rank got this same stage (apod_main); one of a
	 * single process would run whole on each, all writing the same results. */
	if (apod_ranks_size() > 1 && !apod_stage_runs_ranks(e))
		return apod_usage_error("run", "stage %s runs as one process, but this is rank %d of "
		                        "%d: run it without the launcher, or choose a stage of ranks",
		                        e->name, apod_ranks_rank(), apod_ranks_size());
	/* A file the user named is read before the run, so that a wrong one
	 * stops it; this machine's cache (measured the first time) after it,
	 * by the reporter alone, so that a stage's processes do not all
	 * measure at once. */
	named = (args.run.ceilings && *args.run.ceilings) || (env && *env);
	if (named && (have = machine(args.run.ceilings, &m, why, sizeof why)) < 0)
		return apod_report_failure();
	if (apod_cmd_begin(&o, &args.deck, APOD_OPEN_PROBLEM))
		return o.status;
	/* One of several processes: the reporter prints and writes alone,
	 * failures included, since every process learns the same one. */
	if (apod_run_stage(o.w, e, o.params, o.problem, args.out, args.run.flags | o.flags, &r,
	                   &reports)) {
		apod_cmd_close(&o);
		return reports ? apod_report_failure() : apod_failure_status();
	}
	rc = APOD_EXIT_OK;
	if (reports) {
		json_object *rep = args.json ? apod_report_json(o.params, &r) : NULL;
		printf("workload %s, stage %s, deck %s: %ld steps, %s precision\n", o.w->name, e->name,
		       o.title, r.steps, apod_run_precision(&r));
		apod_print_phases(stdout, &r);
		if (!named)
			have = machine(args.run.ceilings, &m, why, sizeof why) == 1;
		speed_of_light(&o, e, &r, &m, have, why, rep);
		print_final(&r);
		if (args.out)
			printf("results in %s (%ld snapshots)\n", args.out, r.snapshots);
		if (rep && apod_json_write(args.json, rep))
			rc = apod_report_failure();
		json_object_put(rep);
	}
	apod_run_free(&r);
	apod_cmd_close(&o);
	return rc;
}
