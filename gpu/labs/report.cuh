/*
 * report.cuh: the table every lab prints, and the same rows as JSON: the
 * lab's main table, "rows" in its JSON.  Labs include it through kit.cuh,
 * whose lab_array / lab_row / lab_put write any other table.
 */
#ifndef APOD_LAB_REPORT_CUH
#define APOD_LAB_REPORT_CUH

#include <stdio.h>

#include <json-c/json.h>

struct lab_table {
	json_object *rows;
	const char *unit;     /* the metric's unit: "GB/s", "GFLOP/s" */
	double ceiling;       /* the yardstick in that unit: cuBLAS, or the theoretical
	                         bandwidth for the devices lab (0: none) */
	int timed;            /* 0 in --check runs: verified, not timed */
};

static inline void lab_table_begin(struct lab_table *t, json_object *out, const char *unit,
                                   double ceiling, const char *ceiling_what, int timed)
{
	t->timed = timed;
	t->rows = json_object_new_array();
	t->unit = unit;
	t->ceiling = ceiling;
	json_object_object_add(out, "rows", t->rows);
	json_object_object_add(out, "unit", json_object_new_string(unit));
	if (ceiling > 0) {
		json_object_object_add(out, "ceiling", json_object_new_double(ceiling));
		json_object_object_add(out, "ceiling_is", json_object_new_string(ceiling_what));
	}
	printf("  %-40s %10s %10s %9s  %s\n", "version", "ms", unit, ceiling > 0 ? "of ceiling" : "",
	       "check");
}

/*
 * One version: its verified flag, its median time and its metric value.
 * Returns the row's JSON object, for a lab's own extra fields (lab_put).
 */
static inline json_object *lab_table_row(struct lab_table *t, const char *name, int verified,
                                         double ms, double value, const char *note)
{
	json_object *o = json_object_new_object();
	if (!verified || !t->timed)
		printf("  %-40s %10s %10s %9s  %s %s\n", name, "-", "-", "", verified ? "ok" : "FAILED",
		       note ? note : "");
	else if (t->ceiling > 0)
		printf("  %-40s %10.4f %10.1f %8.1f%%  ok %s\n", name, ms, value, 100 * value / t->ceiling,
		       note ? note : "");
	else
		printf("  %-40s %10.4f %10.1f %9s  ok %s\n", name, ms, value, "", note ? note : "");
	json_object_object_add(o, "version", json_object_new_string(name));
	json_object_object_add(o, "verified", json_object_new_boolean(verified));
	if (verified && t->timed) {
		json_object_object_add(o, "ms", json_object_new_double(ms));
		json_object_object_add(o, t->unit, json_object_new_double(value));
		if (t->ceiling > 0)
			json_object_object_add(o, "fraction_of_ceiling",
			                       json_object_new_double(value / t->ceiling));
	}
	if (note)
		json_object_object_add(o, "note", json_object_new_string(note));
	json_object_array_add(t->rows, o);
	return o;
}

#endif
