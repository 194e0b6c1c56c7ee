/*
 * report_plots.c: `apod report`'s pictures.  The data go into a scratch
 * folder as the files doc/plots/'s scripts read, gnuplot draws them as SVG
 * with the copies of those scripts built into apod (plot_scripts.c), and
 * the SVG text comes back for the page.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu/harness/fail.h"
#include "report.h"
#include "scratch.h"

extern char **environ;

/* path into buf where it is an executable: 0, or -1. */
static int take_if_executable(const char *path, char *buf, size_t len)
{
	size_t n = strlen(path);
	if (n >= len || access(path, X_OK) != 0)
		return -1;
	memcpy(buf, path, n + 1);
	return 0;
}

int apod_gnuplot_path(char *buf, size_t len)
{
	const char *env = getenv("APOD_GNUPLOT"), *path = getenv("PATH");
	char found[4096];
	if (env && *env)
		return take_if_executable(env, buf, len);
	for (const char *p = path ? path : "/usr/bin:/bin"; p && *p;) {
		const char *colon = strchr(p, ':');
		int n = colon ? (int)(colon - p) : (int)strlen(p);
		snprintf(found, sizeof found, "%.*s/gnuplot", n ? n : 1, n ? p : ".");
		if (take_if_executable(found, buf, len) == 0)
			return 0;
		p = colon ? colon + 1 : NULL;
	}
	return -1;
}

/* The whole of a file, NUL-ended; NULL where it cannot be read. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) != NULL) {
		if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		} else {
			buf[n] = '\0';
		}
	}
	fclose(f);
	return buf;
}

/* An SVG file as the page inlines it: from its <svg element on (the XML
 * declaration and doctype are not allowed inside HTML). */
static char *svg_of(const char *path)
{
	char *s = slurp(path), *start;
	if (!s || !(start = strstr(s, "<svg"))) {
		free(s);
		return NULL;
	}
	memmove(s, start, strlen(start) + 1);
	return s;
}

int report_gnuplot(const char *dir, const char *name, const char *script, const char *vars)
{
	char gp[4096], log[4096], exe[4096];
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status, rc;
	FILE *f;
	if (apod_gnuplot_path(exe, sizeof exe))
		return apod_fail("gnuplot not found: install it (Debian, Ubuntu: apt-get install "
		                 "gnuplot-nox) or name it in APOD_GNUPLOT");
	snprintf(gp, sizeof gp, "%s/%s.gp", dir, name);
	snprintf(log, sizeof log, "%s/%s.log", dir, name);
	if (!(f = fopen(gp, "w")) || fputs(script, f) == EOF || fclose(f)) {
		if (f)
			fclose(f);
		return apod_fail("%s: %s", gp, strerror(errno));
	}
	{
		char *argv[] = { exe, "-e", (char *)vars, gp, NULL };
		if (posix_spawn_file_actions_init(&fa))
			return apod_fail("posix_spawn_file_actions_init failed");
		posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		posix_spawn_file_actions_adddup2(&fa, 1, 2);
		rc = posix_spawn(&pid, exe, &fa, NULL, argv, environ);
		posix_spawn_file_actions_destroy(&fa);
	}
	if (rc)
		return apod_fail("cannot run %s: %s", exe, strerror(rc));
	apod_scratch_child(pid);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			apod_scratch_child(0);
			return apod_fail("waitpid: %s", strerror(errno));
		}
	apod_scratch_child(0);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char *text = slurp(log);
		apod_fail("gnuplot failed on %s's picture: %s", name, text ? text : "(no output)");
		free(text);
		return -1;
	}
	return 0;
}

static double num(json_object *o, const char *key, double fallback)
{
	json_object *v;
	if (!o || !json_object_object_get_ex(o, key, &v) || !v)
		return fallback;
	return json_object_get_double(v);
}

static const char *str(json_object *o, const char *key, const char *fallback)
{
	json_object *v;
	if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return fallback;
	return json_object_get_string(v);
}

static json_object *get(json_object *o, const char *key)
{
	json_object *v = NULL;
	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* A name gnuplot reads as one word of a data file. */
static void word(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == ' ' || *s == '\t' || *s == '"' || *s == '#' ? '_' : *s, f);
}

/* ladder.gp's columns (doc/plots/table2dat.sh writes the same). */
static int write_ladder(const char *path, json_object *stages)
{
	FILE *f = fopen(path, "w");
	int n = 0;
	if (!f)
		return apod_fail("%s: %s", path, strerror(errno));
	fprintf(f, "# 1 index  2 stage  3 total_seconds  4 speedup  5 amdahl_at_n  6 limit  7 sol\n");
	for (size_t i = 0; i < json_object_array_length(stages); i++) {
		json_object *r = json_object_array_get_idx(stages, i);
		double atn = num(r, "amdahl_at_n", -1), lim = num(r, "amdahl_limit", -1);
		double sol = num(get(r, "speed_of_light"), "speedup", -1);
		if (!json_object_get_boolean(get(r, "ran")))
			continue;
		fprintf(f, "%d ", ++n);
		word(f, str(r, "stage", "?"));
		fprintf(f, " %.9g %.9g", num(r, "total_seconds", NAN), num(r, "speedup_vs_serial", NAN));
		fprintf(f, atn > 0 ? " %.9g" : " NaN", atn);
		fprintf(f, lim > 0 ? " %.9g" : " NaN", lim);
		fprintf(f, sol > 0 && isfinite(sol) ? " %.9g\n" : " NaN\n", sol);
	}
	if (fclose(f))
		return apod_fail("%s: %s", path, strerror(errno));
	return n;
}

/* roofline.gp's columns: one row a phase with FP work declared, with the
 * offset of its number (report_place_labels). */
static int write_roofline(const char *path, json_object *stages, json_object *ceilings)
{
	FILE *f;
	int n = 0;
	double x[REPORT_MAX_POINTS], y[REPORT_MAX_POINTS], lx[REPORT_MAX_POINTS],
		ly[REPORT_MAX_POINTS], ox[REPORT_MAX_POINTS], oy[REPORT_MAX_POINTS];
	int roof[REPORT_MAX_POINTS], nobytes[REPORT_MAX_POINTS];
	const char *stage[REPORT_MAX_POINTS], *phase[REPORT_MAX_POINTS];

	for (size_t i = 0; i < json_object_array_length(stages); i++) {
		json_object *r = json_object_array_get_idx(stages, i), *ph = get(r, "roofline");
		for (size_t k = 0; ph && k < json_object_array_length(ph); k++) {
			json_object *p = json_object_array_get_idx(ph, k);
			double flops = num(p, "flops", 0) * num(p, "occurrences", 0);
			double bytes = num(p, "bytes", 0), s = num(p, "seconds", 0);
			const char *rf = str(p, "roof", "host_core");
			if (!(flops > 0) || !(s > 0))
				continue;   /* no FP work: not on a roofline (the page lists it) */
			if (n == REPORT_MAX_POINTS)
				return apod_fail("more than %d phases with FP work: too many for one roofline",
				                 REPORT_MAX_POINTS);
			stage[n] = str(r, "stage", "?");
			phase[n] = str(p, "phase", "?");
			x[n] = bytes > 0 ? num(p, "flops", 0) / bytes : 1;
			y[n] = flops / s / 1e9;
			roof[n] = !strcmp(rf, "device") ? 2 : !strcmp(rf, "host_cores");
			nobytes[n] = !(bytes > 0);
			/* A phase with no bytes is drawn at the right edge: past every intensity. */
			lx[n] = nobytes[n] ? NAN : log10(x[n]);
			ly[n] = log10(y[n]);
			n++;
		}
	}
	/* The plot's extent as roofline.gp fits it: the points, and each roof's
	 * corner (its ridge, peak over bandwidth, and its peak). */
	{
		static const char *const names[] = { "host_core", "host_cores", "device" };
		double ext[4] = { INFINITY, -INFINITY, INFINITY, -INFINITY };
		for (int i = 0; i < n; i++) {
			if (isfinite(lx[i])) {
				ext[0] = fmin(ext[0], lx[i]);
				ext[1] = fmax(ext[1], lx[i]);
			}
			ext[2] = fmin(ext[2], ly[i]);
			ext[3] = fmax(ext[3], ly[i]);
		}
		for (int k = 0; k < 3; k++) {
			json_object *c = get(ceilings, names[k]);
			double bw = num(c, "bytes_per_second", 0) / 1e9;
			double fl = fmax(num(c, "flops32_per_second", 0), num(c, "flops64_per_second", 0)) / 1e9;
			if (bw > 0 && fl > 0) {
				ext[0] = fmin(ext[0], log10(fl / bw));
				ext[1] = fmax(ext[1], log10(fl / bw));
				ext[3] = fmax(ext[3], log10(fl));
			}
		}
		if (!isfinite(ext[0]))
			ext[0] = -1, ext[1] = 1;
		/* A phase with no bytes sits at the right edge (roofline.gp's xhi / 1.6). */
		for (int i = 0; i < n; i++)
			if (!isfinite(lx[i]))
				lx[i] = ceil(ext[1] + log10(2.0)) - log10(1.6);
		report_place_labels(n, lx, ly, ext, ox, oy);
	}
	if (!(f = fopen(path, "w")))
		return apod_fail("%s: %s", path, strerror(errno));
	fprintf(f, "# 1 stage  2 phase  3 flop/byte  4 GFLOP/s  5 roof (0 core, 1 cores, 2 device)  "
	        "6 no bytes declared  7 8 the number's offset (characters)\n");
	for (int i = 0; i < n; i++) {
		word(f, stage[i]);
		fputc(' ', f);
		word(f, phase[i]);
		fprintf(f, " %.9g %.9g %d %d %g %g\n", x[i], y[i], roof[i], nobytes[i], ox[i], oy[i]);
	}
	if (fclose(f))
		return apod_fail("%s: %s", path, strerror(errno));
	return n;
}

/* The -e text of a ceiling: NAME_bw and NAME_fl in GB/s and GFLOP/s. */
static int roofs(char *buf, size_t len, json_object *ceilings)
{
	static const char *const names[][2] = {
		{ "host_core", "core" }, { "host_cores", "cores" }, { "device", "dev" },
	};
	int used = 0;
	for (int i = 0; i < 3; i++) {
		json_object *c = get(ceilings, names[i][0]);
		double fl = fmax(num(c, "flops32_per_second", 0), num(c, "flops64_per_second", 0));
		used += snprintf(buf + used, len - (size_t)used, "%s_bw = %.9g; %s_fl = %.9g; ",
		                 names[i][1], num(c, "bytes_per_second", 0) / 1e9, names[i][1], fl / 1e9);
	}
	return used;
}

static int has_quote(const char *s)
{
	return s && strchr(s, '\'') != NULL;
}

int report_draw(json_object *table, const char *scale_json, struct report_svgs *out)
{
	struct apod_scratch sc;
	const char *dir = sc.path;
	char path[4200], vars[16384], base[4096];
	json_object *stages = get(table, "stages");
	int rc = -1, n;

	memset(out, 0, sizeof *out);
	if (has_quote(getenv("TMPDIR")) || has_quote(scale_json))
		return apod_fail("a path with a single quote cannot be handed to gnuplot");
	if (!stages || !json_object_is_type(stages, json_type_array))
		return apod_fail("the table has no stages (is it the JSON of apod --json=FILE?)");
	if (apod_scratch_make(&sc, "report"))
		return -1;

	snprintf(path, sizeof path, "%s/ladder.dat", dir);
	if ((n = write_ladder(path, stages)) < 0)
		goto out;
	if (n > 0) {
		snprintf(vars, sizeof vars, "ladder = '%s'; prefix = '%s/'; terms = 'svg'; heading = '%s'",
		         path, dir, "");
		if (report_gnuplot(dir, "ladder", apod_gp_ladder, vars))
			goto out;
		snprintf(path, sizeof path, "%s/ladder.svg", dir);
		out->ladder = svg_of(path);
	}
	snprintf(path, sizeof path, "%s/roofline.dat", dir);
	if ((n = write_roofline(path, stages, get(table, "ceilings"))) < 0)
		goto out;
	if (n > 0) {
		int used = snprintf(vars, sizeof vars, "roof = '%s'; prefix = '%s/'; terms = 'svg'; ",
		                    path, dir);
		roofs(vars + used, sizeof vars - (size_t)used, get(table, "ceilings"));
		if (report_gnuplot(dir, "roofline", apod_gp_roofline, vars))
			goto out;
		snprintf(path, sizeof path, "%s/roofline.svg", dir);
		out->roofline = svg_of(path);
	}
	if (scale_json) {
		size_t len = strlen(scale_json);
		snprintf(base, sizeof base, "%.*s", (int)(len > 5 && !strcmp(scale_json + len - 5, ".json")
		                                          ? len - 5 : len), scale_json);
		snprintf(path, sizeof path, "%s.gp", base);
		if (access(path, R_OK)) {
			apod_fail("%s: %s (apod scale --json=%s writes it beside the JSON)", path,
			          strerror(errno), scale_json);
			goto out;
		}
		snprintf(vars, sizeof vars, "scale = '%s'; prefix = '%s/'; terms = 'svg'", base, dir);
		if (report_gnuplot(dir, "scaling", apod_gp_scaling, vars))
			goto out;
		snprintf(path, sizeof path, "%s/strong.svg", dir);
		out->strong = svg_of(path);
		snprintf(path, sizeof path, "%s/weak.svg", dir);
		out->weak = svg_of(path);
	}
	rc = 0;
out:
	apod_scratch_remove(&sc);
	if (rc)
		report_svgs_free(out);
	return rc;
}

void report_svgs_free(struct report_svgs *s)
{
	free(s->ladder);
	free(s->roofline);
	free(s->strong);
	free(s->weak);
	memset(s, 0, sizeof *s);
}
