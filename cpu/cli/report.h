/*
 * report.h: `apod report`, one HTML page of a run (the table, the ladder,
 * the roofline, the scaling curves, the hotspots), its pictures drawn by
 * gnuplot from the table's JSON and inlined as SVG.
 */
#ifndef APOD_REPORT_H
#define APOD_REPORT_H

#include <json-c/json.h>

/* What a table's JSON carries beside its rows, so that a page made later
 * from the file (report --from) says where and how it was measured: the
 * command, the date, the device and the ceilings the bounds were held to. */
void apod_report_context(json_object *head, const char *ceilings, int argc, char **argv);
/* "PROG [SUB] ARGV..." with each word quoted for the shell where it needs
 * it: a line that, pasted, runs the command again (malloc'd, or NULL). */
char *apod_command_text(const char *sub, int argc, char **argv);

/* The path of gnuplot (APOD_GNUPLOT, else the PATH) into buf: 0, or -1
 * where there is none. */
int apod_gnuplot_path(char *buf, size_t len);

/* The pictures, as SVG text (malloc'd; NULL where there is none to draw). */
struct report_svgs {
	char *ladder, *roofline, *strong, *weak;
};
/* Draws them in a scratch folder with the scripts built in (doc/plots/):
 * the ladder and the roofline from the table, the scaling curves from the
 * files `apod scale --json=SCALE` wrote beside SCALE (NULL: none).  0, or
 * -1 with apod_fail. */
int report_draw(json_object *table, const char *scale_json, struct report_svgs *out);
void report_svgs_free(struct report_svgs *s);
/* Runs the built-in script `script` with gnuplot, `vars` its -e text;
 * 0, or -1 with apod_fail. */
int report_gnuplot(const char *dir, const char *name, const char *script, const char *vars);

/* The page, written to a temporary file and renamed to path. */
int report_write_html(const char *path, json_object *table, const struct report_svgs *svgs,
                      json_object *scale, const char *assess_dir);

/* The roofline's point numbers: for the n points at (lx, ly) (log10 of
 * intensity and throughput) on a plot that must hold extent (least and
 * greatest lx, then ly: the points and the roofs' corners), each number's
 * offset from its point in characters, so that no number covers a point
 * or another number where there is room (report_labels.c). */
#define REPORT_MAX_POINTS 512
void report_place_labels(int n, const double *lx, const double *ly, const double extent[4],
                         double *ox, double *oy);

extern const char apod_gp_ladder[], apod_gp_scaling[], apod_gp_roofline[];

#endif
