/*
 * `apod bench --kernels`'s one table (cpu/cli/bench_rows.c): what a
 * workload's kernel_rows hands the sink is printed by the harness's
 * formatter and written to the JSON, with the share of each row's ceiling
 * computed once; a revision-4 workload's own kernels hook still runs; a
 * workload that cannot measure here leaves no kernels in the JSON.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apod/apod.h"
#include "cpu/cli/bench_rows.h"
#include "check_run.h"

static int rows_two(const void *problem, int reps, const struct apod_bench_sink *k)
{
	struct apod_bench_row copy = { "copy", 2.0, -1, 8e9, "bytes", 4000, "GB/s", 5000, "copy",
		                       0, "read n, write n" };
	struct apod_bench_row force = { "force", 4.0, 3.5, 1e6, "interactions", 250, "GFLOP/s", 0,
		                        NULL, 256, NULL };
	(void)problem;
	ck_assert_int_eq(reps, 3);
	return k->line(k->arg, "kernels on %d cells", 64) || k->row(k->arg, &copy) ||
	       k->line(k->arg, "(the ceiling: %.1f GB/s)", 5000.0) || k->row(k->arg, &force) ||
	       k->figure(k->arg, "copy_gb_per_s", 5000) ? -1 : 0;
}

static int rows_none(const void *problem, int reps, const struct apod_bench_sink *k)
{
	(void)problem, (void)reps, (void)k;
	return apod_fail("no GPU here"), 1;
}

static int rows_zero(const void *problem, int reps, const struct apod_bench_sink *k)
{
	(void)problem, (void)reps;
	return k->line(k->arg, "nothing to time on this problem");
}

static int figure_over_key(const void *problem, int reps, const struct apod_bench_sink *k)
{
	struct apod_bench_row r = { "copy", 2.0, -1, 8e9, "bytes", 4000, "GB/s", 0, NULL, 0, NULL };
	(void)problem, (void)reps;
	return k->row(k->arg, &r) || k->figure(k->arg, "kernels", 1.0) ? -1 : 0;
}

static int old_kernels(const void *problem, int reps, void *json)
{
	(void)problem, (void)reps;
	json_object_object_add(json, "kernels", json_object_new_array());
	return 0;
}

static const struct apod_workload rows6 = { .version = 6, .name = "rows", .kernel_rows = rows_two };
static const struct apod_workload none6 = { .version = 6, .name = "none", .kernel_rows = rows_none };
static const struct apod_workload old4 = { .version = 4, .name = "old", .kernels = old_kernels };
static const struct apod_workload zero6 = { .version = 6, .name = "zero", .kernel_rows = rows_zero };
static const struct apod_workload clash6 = { .version = 6, .name = "clash",
	                                     .kernel_rows = figure_over_key };
static const struct apod_workload bare = { .version = 6, .name = "bare" };

/* What apod_bench_kernels printed, with its status. */
static char printed[8192];
static int measured(const struct apod_workload *w, json_object *out)
{
	char path[] = "/tmp/check_bench_rows_XXXXXX";
	int fd = mkstemp(path), saved = dup(STDOUT_FILENO), rc;
	ssize_t n;
	ck_assert(fd >= 0 && saved >= 0);
	fflush(stdout);
	ck_assert_int_ge(dup2(fd, STDOUT_FILENO), 0);
	rc = apod_bench_kernels(w, NULL, 3, out);
	fflush(stdout);
	ck_assert_int_ge(dup2(saved, STDOUT_FILENO), 0);
	close(saved);
	n = pread(fd, printed, sizeof printed - 1, 0);
	printed[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return rc;
}

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;
	ck_assert_msg(json_object_object_get_ex(o, key, &v), "no \"%s\" in %s", key,
	              json_object_to_json_string(o));
	return v;
}

START_TEST(rows_are_printed_once_and_written)
{
	json_object *out = json_object_new_object(), *rows, *r0, *r1, *lines;
	ck_assert_int_eq(measured(&rows6, out), 0);
	rows = member(out, "kernels");
	ck_assert_int_eq((int)json_object_array_length(rows), 2);
	r0 = json_object_array_get_idx(rows, 0);
	r1 = json_object_array_get_idx(rows, 1);
	ck_assert_str_eq(json_object_get_string(member(r0, "kernel")), "copy");
	ck_assert_double_eq(json_object_get_double(member(r0, "fraction_of_ceiling")), 0.8);
	ck_assert_str_eq(json_object_get_string(member(r0, "against")), "copy");
	ck_assert_str_eq(json_object_get_string(member(r0, "work_unit")), "bytes");
	ck_assert(!json_object_object_get_ex(r0, "busy_ms", NULL));
	ck_assert(!json_object_object_get_ex(r0, "block", NULL));
	ck_assert_double_eq(json_object_get_double(member(r1, "busy_ms")), 3.5);
	ck_assert_int_eq(json_object_get_int(member(r1, "block")), 256);
	ck_assert(!json_object_object_get_ex(r1, "fraction_of_ceiling", NULL));
	ck_assert(!json_object_object_get_ex(r1, "note", NULL));
	lines = member(out, "kernel_lines");
	ck_assert_int_eq((int)json_object_array_length(lines), 2);
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(lines, 0)),
	                 "kernels on 64 cells");
	ck_assert_double_eq(json_object_get_double(member(out, "copy_gb_per_s")), 5000);
	/* The caption, then one heading, then the rows in the order given. */
	ck_assert_msg(strstr(printed, "kernels on 64 cells\n  kernel ") != NULL, "%s", printed);
	ck_assert_msg(strstr(printed, "80.0% copy") != NULL, "%s", printed);
	ck_assert_msg(strstr(printed, "block 256;") != NULL, "%s", printed);
	ck_assert_msg(strstr(strstr(printed, "ms/call") + 1, "ms/call") == NULL, "%s", printed);
	ck_assert_msg(strstr(printed, "\n  (the ceiling: 5000.0 GB/s)\n") != NULL, "%s", printed);
	ck_assert_msg(strstr(printed, "copy ") < strstr(printed, "force "), "%s", printed);
	json_object_put(out);
}
END_TEST

START_TEST(nothing_measured_leaves_no_kernels)
{
	json_object *out = json_object_new_object();
	ck_assert_int_eq(measured(&none6, out), 1);
	ck_assert_str_eq(apod_failure(), "no GPU here");
	ck_assert(!json_object_object_get_ex(out, "kernels", NULL));
	ck_assert(!json_object_object_get_ex(out, "kernel_lines", NULL));
	ck_assert_int_eq(measured(&bare, out), 1);
	ck_assert_msg(strstr(apod_failure(), "workload bare has no kernels") != NULL, "%s",
	              apod_failure());
	json_object_put(out);
}
END_TEST

/* No row handed over is no kernel to time, as for a revision-4 hook that
 * writes none; a figure may not replace the rows it stands beside. */
START_TEST(no_rows_and_a_figure_over_a_key_are_refused)
{
	json_object *out = json_object_new_object(), *k;
	ck_assert_int_eq(measured(&zero6, out), 1);
	ck_assert_msg(strstr(apod_failure(), "workload zero handed no kernel") != NULL, "%s",
	              apod_failure());
	ck_assert(!json_object_object_get_ex(out, "kernels", NULL));
	ck_assert_int_eq(measured(&clash6, out), -1);
	ck_assert_msg(strstr(apod_failure(), "'kernels'") != NULL, "%s", apod_failure());
	ck_assert(json_object_object_get_ex(out, "kernels", &k));
	ck_assert(json_object_is_type(k, json_type_array));
	json_object_put(out);
}
END_TEST

START_TEST(a_revision_4_hook_still_runs)
{
	json_object *out = json_object_new_object();
	ck_assert_int_eq(measured(&old4, out), 0);
	ck_assert(json_object_object_get_ex(out, "kernels", NULL));
	ck_assert(!json_object_object_get_ex(out, "kernel_lines", NULL));
	json_object_put(out);
}
END_TEST

int main(void)
{
	const TTest *tests[] = {
		rows_are_printed_once_and_written, nothing_measured_leaves_no_kernels,
		a_revision_4_hook_still_runs, no_rows_and_a_figure_over_a_key_are_refused, NULL,
	};
	return check_run(check_suite("bench_rows", "table", 0, tests), CK_FORK_GETENV);
}
