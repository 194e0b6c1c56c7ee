/*
 * report_html.c: `apod report`'s page: one HTML file with nothing to
 * fetch (its pictures inline SVG, its style in the page), so that it can
 * be mailed, committed or opened offline.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cpu/harness/outfile.h"
#include "report.h"
#include "table_print.h"

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;
	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static double num(json_object *o, const char *key, double fallback)
{
	json_object *v = get(o, key);
	return v ? json_object_get_double(v) : fallback;
}

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
}

static const char *text(json_object *o, const char *key)
{
	json_object *v = get(o, key);
	return v ? json_object_get_string(v) : "";
}

/* Under a stage that runs across ranks, in a table of `--ranks=N`: its
 * weak point beside Gustafson's bound, as the printed table's line. */
static void weak(FILE *f, json_object *r)
{
	int holds = json_object_get_boolean(get(r, "gustafson_holds"));
	if (!get(r, "ranks"))
		return;
	fprintf(f, "<tr><td></td><td colspan=\"12\" class=\"why\">weak, %d ranks: ",
	        json_object_get_int(get(r, "ranks")));
	if (!get(r, "weak_efficiency")) {
		fputs(json_object_get_boolean(get(r, "weak_refused")) ? "not run here: " : "failed: ", f);
		esc(f, text(r, "weak_why"));
		fputs("</td></tr>\n", f);
		return;
	}
	fputs("problem ", f);
	esc(f, text(r, "weak_grown"));
	fprintf(f, ", %.4f s against %.4f s at 1 rank: efficiency %.1f%%, scaled speedup %.2fx, %s "
	        "Gustafson's %.2fx (p = %.4f)%s</td></tr>\n", num(r, "weak_seconds", NAN),
	        num(r, "weak_one_rank_seconds", NAN), 100 * num(r, "weak_efficiency", NAN),
	        num(r, "weak_scaled_speedup", NAN), holds ? "within" : "above", num(r, "gustafson", NAN),
	        num(r, "gustafson_p", NAN), holds ? "" : " <span class=\"fail\">MODEL BROKEN</span>");
}

/* The table as the terminal printed it: its columns, each row's cells
 * (the JSON's "cells", made by the code that printed them), the lines under
 * it and what the columns mean. */
static void table(FILE *f, json_object *stages)
{
	json_object *notes = get(json_object_array_get_idx(stages, 0), "notes");
	fputs("<table><tr>", f);
	for (int k = 0; k < APOD_TABLE_NCOLS; k++) {
		fputs("<th>", f);
		esc(f, apod_table_columns[k]);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t i = 0; i < json_object_array_length(stages); i++) {
		json_object *r = json_object_array_get_idx(stages, i), *cells = get(r, "cells");
		if (!json_object_get_boolean(get(r, "ran")) || !cells ||
		    json_object_array_length(cells) != APOD_TABLE_NCOLS) {
			fputs("<tr><td>", f);
			esc(f, text(r, "stage"));
			fprintf(f, "</td><td colspan=\"%d\" class=\"why\">", APOD_TABLE_NCOLS - 1);
			esc(f, json_object_get_boolean(get(r, "ran")) ?
			       "a table of an older apod: its cells were not kept" : text(r, "why"));
			fputs("</td></tr>\n", f);
			continue;
		}
		fputs("<tr>", f);
		for (int k = 0; k < APOD_TABLE_NCOLS; k++) {
			const char *c = json_object_get_string(json_object_array_get_idx(cells, (size_t)k));
			if (k == APOD_TABLE_NCOLS - 1 && i > 0)
				fprintf(f, "<td class=\"%s\">", strncmp(c, "PASS", 4) ? "fail" : "pass");
			else
				fputs("<td>", f);
			esc(f, c);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
		weak(f, r);
	}
	fputs("</table>\n", f);
	if (notes) {
		fputs("<pre class=\"notes\">", f);
		esc(f, json_object_get_string(notes));
		fputs("</pre>\n", f);
	}
	fputs("<p class=\"legend\">", f);
	esc(f, apod_table_legend);
	fputs("</p>\n", f);
}

/* A roof's name in the table's JSON, in words. */
static const char *roof_words(const char *roof)
{
	if (!strcmp(roof, "host_core"))
		return "one host core";
	if (!strcmp(roof, "host_cores"))
		return "every host core";
	if (!strcmp(roof, "device"))
		return "the device";
	return roof;
}

/* Every phase's point of the roofline, numbered as the plot numbers them
 * (report_plots.c writes them in this order), and those with no FP work,
 * which have no point. */
static void phases(FILE *f, json_object *stages)
{
	int point = 0;
	fputs("<table><tr><th>point</th><th>stage</th><th>phase</th><th>runs</th>"
	      "<th>bytes a run</th><th>FP operations a run</th><th>seconds (all runs)</th>"
	      "<th>timed on</th><th>GFLOP/s</th><th>GB/s</th><th>roof</th></tr>\n", f);
	for (size_t i = 0; i < json_object_array_length(stages); i++) {
		json_object *r = json_object_array_get_idx(stages, i), *ph = get(r, "roofline");
		for (size_t k = 0; ph && k < json_object_array_length(ph); k++) {
			json_object *p = json_object_array_get_idx(ph, k);
			double occ = num(p, "occurrences", 0), s = num(p, "seconds", 0);
			double by = num(p, "bytes", 0), fl = num(p, "flops", 0);
			if (s > 0 && fl * occ > 0)
				fprintf(f, "<tr><td>%d</td><td>", ++point);
			else
				fputs("<tr><td>-</td><td>", f);
			esc(f, text(r, "stage"));
			fputs("</td><td>", f);
			esc(f, text(p, "phase"));
			fprintf(f, "</td><td>%.0f</td>", occ);
			if (by > 0)
				fprintf(f, "<td>%.4g</td>", by);
			else
				fputs("<td>none declared</td>", f);
			if (fl > 0)
				fprintf(f, "<td>%.4g</td>", fl);
			else
				fputs("<td>none declared</td>", f);
			fprintf(f, "<td>%.4g</td><td>%s</td>", s, text(p, "timed_on"));
			if (s > 0 && fl > 0)
				fprintf(f, "<td>%.4g</td>", fl * occ / s / 1e9);
			else
				fputs("<td>- (not on the plot)</td>", f);
			if (s > 0 && by > 0)
				fprintf(f, "<td>%.4g</td>", by * occ / s / 1e9);
			else
				fputs("<td>-</td>", f);
			fputs("<td>", f);
			esc(f, roof_words(text(p, "roof")));
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</table>\n", f);
}

static void figure(FILE *f, const char *svg, const char *caption)
{
	fputs("<figure>", f);
	fputs(svg, f);
	fputs("<figcaption>", f);
	esc(f, caption);
	fputs("</figcaption></figure>\n", f);
}

/* The head of gprof's flat profile: its first rows, as assess wrote them. */
static void hotspots(FILE *f, const char *dir)
{
	char path[4200], line[1024];
	FILE *in;
	int rows = 0;
	snprintf(path, sizeof path, "%s/flat.txt", dir);
	fputs("<h2>Hotspots (gprof, serial)</h2>\n", f);
	if (!(in = fopen(path, "r"))) {
		fputs("<p>", f);
		esc(f, path);
		fputs(": not readable (apod assess --out=DIR writes it)</p>\n", f);
		return;
	}
	fputs("<pre>", f);
	while (fgets(line, sizeof line, in) && rows < 30) {
		esc(f, line);
		rows += line[0] == ' ' || (line[0] >= '0' && line[0] <= '9');
	}
	fputs("</pre>\n", f);
	fclose(in);
}

int report_write_html(const char *path, json_object *t, const struct report_svgs *svgs,
                      json_object *scale, const char *assess_dir)
{
	struct apod_outfile of;
	FILE *f;
	json_object *params = get(t, "params");
	if (apod_outfile_open(&of, path))
		return -1;
	f = of.f;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>apod report: ", f);
	esc(f, text(t, "workload"));
	fputs("</title>\n<style>\nhtml body{font-family:sans-serif;margin:2em;max-width:1100px;color:#222}\n"
	      "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:2px 8px;"
	      "text-align:right}th{background:#eee}td:first-child{text-align:left}\n"
	      ".why{text-align:left;color:#777}.pass{color:#070}.fail{color:#b00;font-weight:bold}\n"
	      "figure{margin:1em 0}figure svg{max-width:100%;height:auto}figcaption{color:#555}\n"
	      "pre{background:#f6f6f6;padding:1em;overflow-x:auto}\n</style></head><body>\n", f);
	fputs("<h1>apod report: ", f);
	esc(f, text(t, "workload"));
	if (params && get(params, "name")) {
		fputs(", deck ", f);
		esc(f, text(params, "name"));
	}
	fputs("</h1>\n<dl><dt>this page</dt><dd><code>", f);
	esc(f, get(t, "report_command") ? text(t, "report_command") : "(not recorded)");
	fputs("</code></dd>", f);
	/* A page made --from a table's JSON: the run that measured it, too. */
	if (strcmp(text(t, "command"), text(t, "report_command")) != 0) {
		fputs("<dt>the table's run</dt><dd><code>", f);
		esc(f, get(t, "command") ? text(t, "command") : "(not recorded)");
		fputs("</code></dd>", f);
	}
	fputs("<dt>date</dt><dd>", f);
	esc(f, get(t, "date") ? text(t, "date") : "(not recorded)");
	fprintf(f, "</dd><dt>host cores</dt><dd>%.0f</dd>", num(t, "host_cores", 0));
	/* A program with no GPU hooks (a CPU-only port) has nothing to say of
	 * a device: no box for it. */
	if (!get(t, "device_info") || strspn(text(t, "device_info"), " \t\n") < strlen(text(t, "device_info"))) {
		fputs("<dt>device</dt><dd><pre>", f);
		esc(f, get(t, "device_info") ? text(t, "device_info") : "(not recorded)");
		fputs("</pre></dd>", f);
	}
	fputs("</dl>\n<h2>The APOD table</h2>\n", f);
	table(f, get(t, "stages"));
	fputs("<h2>The ladder</h2>\n", f);
	if (svgs->ladder)
		figure(f, svgs->ladder, "Each stage's speedup over serial beside Amdahl's bound at its "
		       "N, Amdahl's limit and its speed of light.");
	fputs("<h2>Roofline: every phase of every stage</h2>\n", f);
	if (svgs->roofline)
		figure(f, svgs->roofline, "Each phase's arithmetic intensity (declared FP operations "
		       "per declared byte) against the throughput it reached, under the measured "
		       "ceilings of the host and the device, each point numbered as in the table below "
		       "and named in the key. '>': a phase that declares FP operations but no bytes, "
		       "drawn at the right edge.");
	else
		fputs("<p>No phase with declared FP work and a time: no roofline.</p>\n", f);
	phases(f, get(t, "stages"));
	fputs("<h2>Scaling</h2>\n", f);
	if (svgs->strong)
		figure(f, svgs->strong, "Strong scaling: the deck as it is, against Amdahl's law for "
		       "the measured P.");
	if (svgs->weak)
		figure(f, svgs->weak, "Weak scaling: the problem grown with the threads (or ranks), "
		       "against Gustafson's law.");
	if (!scale)
		fputs("<p>Not measured: give <code>--scaling=FILE</code>, the JSON of "
		      "<code>apod scale --json=FILE</code>.</p>\n", f);
	if (assess_dir)
		hotspots(f, assess_dir);
	else
		fputs("<h2>Hotspots (gprof, serial)</h2>\n<p>Not profiled: give <code>--assess=DIR</code>, "
		      "the folder <code>apod assess --out=DIR</code> wrote.</p>\n", f);
	fputs("</body></html>\n", f);
	if (ferror(f)) {
		apod_outfile_abort(&of);
		return -1;
	}
	return apod_outfile_commit(&of);
}
