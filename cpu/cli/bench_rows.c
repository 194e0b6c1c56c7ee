/*
 * bench_rows.c: the one table of `apod bench --kernels`, whatever the
 * workload: each row as it arrives (a benchmark may run for minutes, and
 * a row printed is a row not lost to a later failure), and the same rows,
 * lines and figures in the JSON.
 */
#include <stdarg.h>
#include <stdio.h>

#include "apod/apod.h"
#include "apod/trace.h"
#include "bench_rows.h"

struct kernel_table {
	json_object *out, *rows, *lines;
	int begun, headed;
};

/* A blank line between the stages' output and the kernels' table. */
static void begin(struct kernel_table *t)
{
	if (!t->begun)
		printf("\n");
	t->begun = 1;
}

static void heading(struct kernel_table *t)
{
	if (t->headed)
		return;
	begin(t);
	t->headed = 1;
	printf("  %-38s %10s %18s %16s%s  %s\n", "kernel", "ms/call", "rate", "of ceiling",
	       apod_trace_on() ? "    busy ms" : "", "note");
}

/* The one row formatter: time per call, throughput, the share of the
 * ceiling it answers to, CUPTI's busy time under --trace, then the note. */
static void print_row(const struct apod_bench_row *r)
{
	printf("  %-38s %10.4f %10.5g %-7s", r->name, r->ms, r->rate,
	       r->rate_unit ? r->rate_unit : "");
	if (r->ceiling > 0)
		printf(" %6.1f%% %-8s", 100 * r->rate / r->ceiling, r->against ? r->against : "");
	else
		printf(" %16s", "-");
	if (r->busy_ms >= 0)
		printf(" %10.4f", r->busy_ms);
	else if (apod_trace_on())
		printf(" %10s", "-");
	if (r->block > 0)
		printf("  block %d; %s\n", r->block, r->note ? r->note : "");
	else
		printf("  %s\n", r->note ? r->note : "");
}

static int added(json_object *o, const char *key, json_object *v)
{
	if (!v)
		return apod_fail("bench: out of memory for the kernels' JSON");
	if (json_object_object_add(o, key, v)) {
		json_object_put(v);
		return apod_fail("bench: out of memory for the kernels' JSON");
	}
	return 0;
}

static json_object *row_json(const struct apod_bench_row *r)
{
	json_object *o = json_object_new_object();
	int bad = !o;
	bad = bad || added(o, "kernel", json_object_new_string(r->name)) ||
	      added(o, "ms", json_object_new_double(r->ms)) ||
	      (r->busy_ms >= 0 && added(o, "busy_ms", json_object_new_double(r->busy_ms))) ||
	      added(o, "work", json_object_new_double(r->work)) ||
	      added(o, "work_unit", json_object_new_string(r->work_unit ? r->work_unit : "")) ||
	      added(o, "rate", json_object_new_double(r->rate)) ||
	      added(o, "rate_unit", json_object_new_string(r->rate_unit ? r->rate_unit : "")) ||
	      (r->ceiling > 0 &&
	       (added(o, "ceiling", json_object_new_double(r->ceiling)) ||
	        added(o, "against", json_object_new_string(r->against ? r->against : "")) ||
	        added(o, "fraction_of_ceiling", json_object_new_double(r->rate / r->ceiling)))) ||
	      (r->block > 0 && added(o, "block", json_object_new_int(r->block))) ||
	      (r->note && added(o, "note", json_object_new_string(r->note)));
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int take_row(void *arg, const struct apod_bench_row *r)
{
	struct kernel_table *t = arg;
	json_object *o;
	if (!r || !r->name)
		return apod_fail("bench: a kernel row without a name");
	heading(t);
	print_row(r);
	if (!(o = row_json(r)))
		return apod_fail("bench: out of memory for the kernels' JSON");
	if (json_object_array_add(t->rows, o)) {
		json_object_put(o);
		return apod_fail("bench: out of memory for the kernels' JSON");
	}
	return 0;
}

static int take_line(void *arg, const char *fmt, ...)
{
	struct kernel_table *t = arg;
	char text[1024];
	json_object *s;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	/* A line that opens the table reads as its caption, above the heading;
	 * later ones stand among the rows, as the workload placed them. */
	begin(t);
	printf(t->headed ? "  %s\n" : "%s\n", text);
	if (!(s = json_object_new_string(text)) || json_object_array_add(t->lines, s)) {
		json_object_put(s);
		return apod_fail("bench: out of memory for the kernels' JSON");
	}
	return 0;
}

static int take_figure(void *arg, const char *key, double value)
{
	struct kernel_table *t = arg;
	/* A figure sits beside the harness's own keys: it may not replace one. */
	if (json_object_object_get_ex(t->out, key, NULL))
		return apod_fail("bench: the figure '%s' names a key the report already has", key);
	return added(t->out, key, json_object_new_double(value));
}

int apod_bench_kernels(const struct apod_workload *w, const void *problem, int reps,
                       json_object *out)
{
	struct kernel_table t = { .out = out };
	struct apod_bench_sink sink = { &t, take_row, take_line, take_figure };
	json_object *k;
	int rc;
	if (w->version >= 6 && w->kernel_rows) {
		/* Where nothing can be measured here (1), the JSON says nothing of
		 * kernels, as for a workload without them. */
		if (added(out, "kernels", t.rows = json_object_new_array()) ||
		    added(out, "kernel_lines", t.lines = json_object_new_array()))
			return -1;
		if ((rc = w->kernel_rows(problem, reps, &sink)) == 0 &&
		    json_object_array_length(t.rows) == 0)
			rc = (apod_usage_fail("workload %s handed no kernel to time", w->name), 1);
		if (rc == 1) {
			json_object_object_del(out, "kernels");
			json_object_object_del(out, "kernel_lines");
		}
		return rc;
	}
	if (!w->kernels)
		return apod_usage_fail("workload %s has no kernels to time", w->name), 1;
	if ((rc = w->kernels(problem, reps, out)) != 0)
		return rc;
	if (!json_object_object_get_ex(out, "kernels", &k))
		return apod_usage_fail("workload %s has no kernels to time", w->name), 1;
	return 0;
}
