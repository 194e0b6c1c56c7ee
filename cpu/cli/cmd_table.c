/*
 * cmd_table.c: `apod` with no command.  The deck through every stage that
 * can run here, each verified against serial, each speedup set beside the
 * bound Amdahl's law puts on it: the whole APOD cycle on one screen.
 *
 * Each stage runs several times, in rounds (every stage once, then again),
 * so that a moment of load falls on whichever stage ran then, not on all
 * of one stage's runs; the rows keep the median and its interval
 * (spread.h), and table_judge.c calls a model broken only where the whole
 * interval says so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apod/ceilings.h"
#include "commands.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/params.h"
#include "cpu/harness/results.h"
#include "cpu/harness/timer.h"
#include "fresh_process.h"
#include "report.h"
#include "table_rows.h"

/* What the runs after the first round may add by default: half of that
 * round, but never less than this (a small deck's stages take
 * milliseconds, and three runs of each cost less than a second). */
#define DEFAULT_BUDGET_MIN 5.0
#define DEFAULT_BUDGET_SHARE 0.5

static double load_now(void)
{
	double l[1];
	return getloadavg(l, 1) == 1 ? l[0] : -1;
}

/* --stages=LIST (names joined by commas) into each row's chosen; the
 * reference always, every stage to hold to it.  0, or -1 after a usage
 * failure naming the stages there are. */
static int choose_stages(struct ladder *l)
{
	const char *list = l->o ? l->o->stages : NULL;
	for (int i = 0; i < l->nrows; i++) {
		int named = list ? apod_ladder_stages_named(l->wl, list, l->rows[i].e) : 1;
		if (named < 0)
			return -1;
		l->rows[i].chosen = named || i == 0;
	}
	return 0;
}

/* One more timing of row i, from run r. */
static void keep_timings(struct row *w, const struct apod_run *r)
{
	int k = w->t.n;
	if (k >= APOD_TABLE_MAX_RUNS)
		return;
	w->t.total[k] = r->total;
	memcpy(w->t.phase[k], r->phase, sizeof w->t.phase[k]);
	memcpy(w->t.device[k], r->device, sizeof w->t.device[k]);
	w->t.n++;
}

/* Every chosen stage once, in the ladder's order or (--reverse) serial
 * last, so that a reader can check that no stage's time depends on which
 * ran before it.  The runs kept are the ones verified.  Returns the
 * round's seconds. */
static double first_round(struct ladder *l, struct apod_fresh *fresh)
{
	double t0 = apod_now();
	for (int n = 0; n < l->nrows; n++) {
		int i = l->o->reverse ? l->nrows - 1 - n : n;
		struct row *w = &l->rows[i];
		char dir[4096], *outdir = NULL;
		double t;
		if (!w->chosen) {
			snprintf(w->why, sizeof w->why, "not run: not in --stages");
			continue;
		}
		if (!apod_stage_available(w->e, w->why, sizeof w->why))
			continue;
		w->available = 1;
		if (i != 0 && !l->rows[0].ran && !l->o->reverse) {
			/* Nothing could be held to a reference that failed. */
			snprintf(w->why, sizeof w->why, "not run: the serial reference failed");
			continue;
		}
		if (l->out) {
			snprintf(dir, sizeof dir, "%s/%s", l->out, w->e->name);
			outdir = dir;
		}
		t = apod_now();
		if (apod_fresh_run(fresh, l->wl, w->e, l->params, l->problem, outdir, &l->runs[i])) {
			snprintf(w->why, sizeof w->why, "failed: %s", apod_failure());
			l->failed = 1;
			continue;
		}
		w->cost = apod_now() - t;
		w->ran = 1;
		keep_timings(w, &l->runs[i]);
	}
	return apod_now() - t0;
}

/* A row wants another run while it has fewer than the least, or its
 * interval is still wide, and --runs allows. */
static int wants_more(const struct ladder *l, const struct row *w)
{
	struct apod_spread s;
	if (!w->ran || w->t.n >= l->o->runs)
		return 0;
	if (w->t.n < APOD_SPREAD_MIN_RUNS)
		return 1;
	apod_spread_of(w->t.total, w->t.n, &s);
	return apod_spread_rel(&s) > APOD_SPREAD_SETTLED;
}

/* Rounds of the rows that want more, each run where the budget still holds
 * it, until none does.  A run that fails fails its stage. */
static void more_rounds(struct ladder *l, struct apod_fresh *fresh, double budget)
{
	double t0 = apod_now();
	for (int ran = 1; ran;) {
		ran = 0;
		for (int n = 0; n < l->nrows; n++) {
			int i = l->o->reverse ? l->nrows - 1 - n : n;
			struct row *w = &l->rows[i];
			struct apod_run r = { 0 };
			if (!wants_more(l, w) || apod_now() - t0 + w->cost > budget)
				continue;
			if (apod_fresh_run(fresh, l->wl, w->e, l->params, l->problem, NULL, &r)) {
				snprintf(w->why, sizeof w->why, "failed in run %d: %s", w->t.n + 1,
				         apod_failure());
				w->ran = 0;
				apod_run_free(&l->runs[i]);
				l->failed = 1;
				continue;
			}
			keep_timings(w, &r);
			apod_run_free(&r);
			ran = 1;
		}
	}
	l->repeat_seconds = apod_now() - t0;
}

/* The medians of a row's timings, into its first run (whose results are
 * the ones verified): everything after reads the medians. */
static void take_medians(struct row *w, struct apod_run *r)
{
	double x[APOD_TABLE_MAX_RUNS];
	struct apod_spread s;
	apod_spread_of(w->t.total, w->t.n, &w->total_s);
	r->total = w->total_s.median;
	for (int k = 0; k < r->nphases && k < APOD_MAX_PHASES; k++) {
		for (int j = 0; j < w->t.n; j++)
			x[j] = w->t.phase[j][k];
		apod_spread_of(x, w->t.n, &w->phase_s[k]);
		r->phase[k] = w->phase_s[k].median;
		for (int j = 0; j < w->t.n; j++)
			x[j] = w->t.device[j][k];
		apod_spread_of(x, w->t.n, &s);
		r->device[k] = s.median;
	}
}

/* A row from its run: what the table, the bounds and the JSON read. */
static void fill_row(struct ladder *l, int i)
{
	const struct apod_workload *wl = l->wl;
	struct row *w = &l->rows[i];
	struct apod_run *r = &l->runs[i];
	int loop = apod_step_phase_count(wl) + apod_probe_count(wl);
	take_medians(w, r);
	w->total = r->total;
	w->background = r->background;
	w->snapshots = r->snapshots;
	w->nphases = r->nphases;
	memcpy(w->phase, r->phase, sizeof w->phase);
	memcpy(w->calls, r->calls, sizeof w->calls);
	w->has_device = r->has_device;
	memcpy(w->device, r->device, sizeof w->device);
	w->unattributed = apod_unattributed(r);
	w->compute_per_step = w->busy_per_step = w->work_per_step = 0;
	for (int k = 1; k <= loop; k++) {
		w->compute_per_step += apod_attributed(r, k);
		w->busy_per_step += r->busy[k];
		w->work_per_step += r->work[k];
	}
	w->compute_per_step /= (double)r->steps;
	w->busy_per_step /= (double)r->steps;
	w->work_per_step /= (double)r->steps;
	w->has_busy = r->has_busy;
	memcpy(w->busy, r->busy, sizeof w->busy);
	memcpy(w->work, r->work, sizeof w->work);
	w->busy_unattributed = r->busy_unattributed;
	w->width = r->width;
	w->has_width = r->width > 0;
	if (i == 0) {
		w->v.ok = 1;
	} else {
		apod_verify(l->params, &l->runs[0], r, &w->v);
		l->failed |= !w->v.ok;
	}
	if (l->m)
		apod_sol_eval(wl, l->params, w->e, i == 0, &l->runs[0], r, l->m, &w->sol);
	else
		snprintf(w->sol.why, sizeof w->sol.why, "no ceilings for this machine");
	if (w->e == apod_stage_baseline(wl))
		l->omp_total = r->total;
}

/* Run the chosen stages, as often as the budget allows, then fill the
 * rows from their medians; the runs but the reference's are freed. */
static void run_rows(struct ladder *l)
{
	struct apod_fresh fresh;
	double first, budget;
	apod_fresh_begin(&fresh, l->wl, l->params, l->o->run.flags);
	first = first_round(l, &fresh);
	budget = l->o->budget >= 0 ? l->o->budget
	                           : fmax(DEFAULT_BUDGET_MIN, DEFAULT_BUDGET_SHARE * first);
	if (l->rows[0].ran)
		more_rounds(l, &fresh, budget);
	apod_fresh_end(&fresh);
	for (int i = 1; i < l->nrows && !l->rows[0].ran; i++)
		if (l->rows[i].ran) {   /* nothing to hold it to */
			l->rows[i].ran = 0;
			apod_run_free(&l->runs[i]);
			snprintf(l->rows[i].why, sizeof l->rows[i].why,
			         "not compared: the reference failed");
		}
	for (int i = 0; i < l->nrows && l->rows[0].ran; i++)
		if (l->rows[i].ran)
			fill_row(l, i);
	for (int i = 1; i < l->nrows; i++)
		if (l->rows[i].ran)
			apod_run_free(&l->runs[i]);
	/* --ranks: weak scaling, once every row's own run is done. */
	for (int i = 1; i < l->nrows && l->o->ranks > 0 && l->o->mpirun; i++)
		if (l->rows[i].ran && apod_stage_runs_ranks(l->rows[i].e)) {
			l->rows[i].has_weak = 1;
			l->failed |= apod_table_weak(l->wl, l->params, l->rows[i].e, l->o->ranks,
			                             l->o->mpirun, l->o->run.flags,
			                             &l->rows[i].weak) != 0;
		}
}

/* The ceilings, and what the table says of them; -2 where the user's file
 * cannot be read. */
static int load_machine(struct ladder *l)
{
	struct apod_ceilings c;
	switch (apod_cli_machine_ceilings(l->o->run.ceilings, &l->machine, &c, l->no_machine,
	                                  sizeof l->no_machine)) {
	case 0:
		l->m = &l->machine;
		l->ceilings.have = 1;
		snprintf(l->ceilings.measured_at, sizeof l->ceilings.measured_at, "%s", c.measured_at);
		snprintf(l->ceilings.file, sizeof l->ceilings.file, "%s", c.file);
		l->ceilings.load = c.load;
		l->ceilings.cores = c.cores;
		return 0;
	case -2:
		return -2;   /* the user's ceilings file: their mistake, said by the caller */
	}
	return 0;
}

int apod_ladder(const struct apod_workload *wl, const void *params, const void *problem,
                const char *out, const struct apod_ladder_opts *o, json_object **json_rows,
                double *serial_total)
{
	struct apod_ladder_opts defaults;
	struct ladder l = { .wl = wl, .params = params, .problem = problem, .out = out, .o = o };
	char *notes;
	int rc;
	if (!o) {
		apod_ladder_opts_init(&defaults);
		l.o = &defaults;
	}
	while (wl->stages[l.nrows] && l.nrows < APOD_TABLE_MAX_ROWS)
		l.nrows++;
	l.rows = calloc((size_t)l.nrows, sizeof *l.rows);
	l.runs = calloc((size_t)l.nrows, sizeof *l.runs);
	if (!l.rows || !l.runs) {
		free(l.rows);
		free(l.runs);
		apod_usage_fail("out of memory for the table's rows");
		return -2;
	}
	for (int i = 0; i < l.nrows; i++) {
		l.rows[i].e = wl->stages[i];
		l.rows[i].ports = apod_stage_ports(wl, wl->stages[i]);
	}
	if (choose_stages(&l) || load_machine(&l)) {
		free(l.rows);
		free(l.runs);
		return -2;
	}
	l.cores = sysconf(_SC_NPROCESSORS_ONLN);
	l.load_start = load_now();
	printf("workload %s, deck %s: %ld steps; %ld cores on this host\n", wl->name,
	       l.o->title ? l.o->title : wl->title ? wl->title(params) : wl->name, wl->steps(params),
	       l.cores);
	fflush(stdout);
	run_rows(&l);
	l.load_end = load_now();
	if (l.rows[0].ran)
		apod_table_judge(&l);
	notes = apod_table_print(&l);
	if (!l.rows[0].ran)
		fprintf(stderr, "%s: the serial reference %s%s\n", apod_prog->name,
		        strncmp(l.rows[0].why, "failed: ", 8) ? "failed: " : "", l.rows[0].why);
	/* The JSON holds every row, also where the reference failed: a script
	 * reads why from the rows rather than finding no file. */
	if (json_rows)
		*json_rows = apod_table_rows_json(&l, notes);
	free(notes);
	if (serial_total)
		*serial_total = l.rows[0].total;
	rc = l.failed || !l.rows[0].ran ? -1 : 0;
	apod_run_free(&l.runs[0]);
	free(l.rows);
	free(l.runs);
	return rc;
}

/* Of this command alone: above cli.h's codes, below OPT_PARAM. */
enum { OPT_TABLE_RANKS = 1910 };

struct table_opts {
	const char *out, *json;
	struct apod_ladder_opts *ladder;   /* the open command's */
};

static int table_opt(int c, const char *arg, void *ctx)
{
	struct table_opts *t = ctx;
	if (c == OPT_TABLE_RANKS)
		return apod_opt_count("ranks", arg, 1, 1024, &t->ladder->ranks);
	if (c == OPT_OUT)
		t->out = arg;
	else if (c == OPT_JSON)
		t->json = arg;
	else if (c == OPT_REVERSE)
		t->ladder->reverse = 1;
	else
		return apod_option_fail(c, NULL);
	return 0;
}

const struct option apod_table_options[] = {
	APOD_OPT_OUT, APOD_OPT_JSON, APOD_OPT_CEILINGS, APOD_OPT_TRACE,
	{ "reverse", no_argument, NULL, OPT_REVERSE },
	{ "ranks", required_argument, NULL, OPT_TABLE_RANKS }, APOD_OPT_LADDER, APOD_OPT_HELP,
	APOD_OPT_END,
};

int apod_table_main(int argc, char **argv)
{
	struct apod_open o;
	struct table_opts t = { .ladder = &o.ladder };
	json_object *rows = NULL;
	struct apod_mpirun mpirun;
	int failed;

	if (apod_cmd_open(&o, &apod_cmd_table_entry, argc, argv, table_opt, &t, APOD_OPEN_PROBLEM))
		return o.status;
	if (o.ladder.ranks > 0) {
		if (apod_table_ranks_check(o.w, o.params, o.ladder.ranks, &mpirun)) {
			apod_cmd_close(&o);
			return apod_report_failure();
		}
		o.ladder.mpirun = &mpirun;
	}
	failed = apod_ladder(o.w, o.params, o.problem, t.out, &o.ladder, t.json ? &rows : NULL,
	                     NULL);
	if (failed == -2) {
		apod_cmd_close(&o);
		return apod_report_failure();
	}
	if (t.json && rows) {
		json_object *j = apod_json_head(o.w, o.params);
		/* What apod report --from shows of where the table was made. */
		apod_report_context(j, o.ladder.run.ceilings, argc - 1, argv + 1);
		json_object_object_add(j, "stages", rows);
		if (apod_json_write(t.json, j))
			failed = 1, apod_report_failure();
		json_object_put(j);
	}
	apod_cmd_close(&o);
	return failed ? APOD_EXIT_FAIL : APOD_EXIT_OK;
}

/* apod with no command (or `apod table`). */
