/*
 * cmd_report.c: `apod report`: the APOD table of a run, or of a table's
 * JSON written before (--from), as one HTML page with its pictures: the
 * ladder, the roofline of every phase, the scaling curves (--scale) and the
 * gprof hotspots (--assess).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/results.h"
#include "report.h"

enum { OPT_FROM = 3000, OPT_SCALE, OPT_ASSESS };

struct report_opts {
	const char *out, *json, *from, *scale, *assess;
};

static int report_opt(int c, const char *arg, void *ctx)
{
	struct report_opts *r = ctx;
	switch (c) {
	case OPT_OUT: r->out = arg; break;
	case OPT_JSON: r->json = arg; break;
	case OPT_FROM: r->from = arg; break;
	case OPT_SCALE: r->scale = arg; break;
	case OPT_ASSESS: r->assess = arg; break;
	default: return apod_option_fail(c, NULL);
	}
	return 0;
}

const struct option apod_report_options[] = {
	APOD_OPT_OUT, APOD_OPT_JSON,
	{ "from", required_argument, NULL, OPT_FROM },
	{ "scaling", required_argument, NULL, OPT_SCALE },
	{ "assess", required_argument, NULL, OPT_ASSESS },
	APOD_OPT_CEILINGS, APOD_OPT_LADDER, APOD_OPT_HELP, APOD_OPT_END,
};

/* A JSON file the user named: their mistake, said plainly, where it is not one. */
static json_object *read_json(const char *path, const char *what)
{
	json_object *o = json_object_from_file(path);
	if (!o)
		apod_fail("%s: cannot read it as JSON (%s)", path, what);
	return o;
}

static void set_text(json_object *o, const char *key, const char *value)
{
	if (value)
		json_object_object_add(o, key, json_object_new_string(value));
}

static int draw_and_write(const struct report_opts *r, json_object *table)
{
	struct report_svgs svgs;
	json_object *scale = NULL;
	int rc;
	if (r->scale && !(scale = read_json(r->scale, "the JSON of apod scale --json=FILE")))
		return -1;
	rc = report_draw(table, r->scale, &svgs);
	if (rc == 0) {
		rc = report_write_html(r->out, table, &svgs, scale, r->assess);
		report_svgs_free(&svgs);
	}
	if (scale)
		json_object_put(scale);
	if (rc == 0)
		printf("report: %s\n", r->out);
	return rc;
}

int apod_report_main(int argc, char **argv)
{
	struct apod_open o;
	struct report_opts r = { 0 };
	json_object *table = NULL, *rows = NULL;
	int failed = 0;
	char *page_cmd, gnuplot[4096];

	if (apod_cmd_open(&o, &apod_cmd_report_entry, argc, argv, report_opt, &r, APOD_OPEN_PARAMS))
		return o.status;
	if (!r.out) {
		apod_cmd_close(&o);
		return apod_usage_error("report", "--out=FILE.html is needed: where the page goes");
	}
	/* Before any stage runs: a run of minutes is not to end in "no gnuplot". */
	if (apod_gnuplot_path(gnuplot, sizeof gnuplot)) {
		apod_cmd_close(&o);
		fprintf(stderr, "%s: report: gnuplot not found; it draws the report's pictures.  "
		        "Install it (Debian, Ubuntu: apt-get install gnuplot-nox), or name it in "
		        "APOD_GNUPLOT\n", apod_prog->name);
		return APOD_EXIT_FAIL;
	}
	page_cmd = apod_command_text("report", argc - 1, argv + 1);
	if (r.from) {
		if (!(table = read_json(r.from, "the JSON of apod --json=FILE")))
			failed = 1;
	} else if (!(o.problem = o.w->problem_create(o.params))) {
		failed = 1;
	} else {
		int rc = apod_ladder(o.w, o.params, o.problem, NULL, &o.ladder, &rows, NULL);
		if (rc == -2) {   /* nothing ran: the user's ceilings file, or --stages */
			apod_cmd_close(&o);
			return apod_report_failure();
		}
		if (!rows) {
			failed = 1;
		} else {
			/* A stage that failed its gate is reported, and the page made. */
			failed = rc != 0;
			table = apod_json_head(o.w, o.params);
			apod_report_context(table, o.ladder.run.ceilings, argc - 1, argv + 1);
			/* The table was made by this command, not by `apod` alone. */
			set_text(table, "command", page_cmd);
			json_object_object_add(table, "stages", rows);
			if (r.json && apod_json_write(r.json, table))
				failed = 1, apod_report_failure();
		}
	}
	/* The page's own command: pasted, it makes the page again (from the
	 * same table's JSON with --from, by running the stages without). */
	if (table)
		set_text(table, "report_command", page_cmd);
	free(page_cmd);
	if (table && draw_and_write(&r, table))
		failed = 1, apod_report_failure();
	else if (!table)
		apod_report_failure();
	if (table)
		json_object_put(table);
	apod_cmd_close(&o);
	return failed ? APOD_EXIT_FAIL : APOD_EXIT_OK;
}
