/* The verification gate, the .npy format, atomic output and results directories. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include "shared/heat/real.h"
#include "cpu/harness/fail.h"
#include "cpu/heat/heat.h"
#include "cpu/heat/heat_workload.h"
#include "cpu/harness/npy.h"
#include "cpu/harness/outdir.h"
#include "cpu/harness/outfile.h"
#include "cpu/harness/params.h"
#include "cpu/harness/results.h"
#include "cpu/harness/run.h"
#include "cpu/harness/verify.h"

#include "check_results.h"
#include "check_run.h"
#include "toy.h"

static int count_entries(const char *dir)
{
	int n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* A workload of one 1-D float array, for the comparisons themselves. */
static void tol1e3(const void *params, const void *problem, int any_float, int column,
                   enum apod_compare kind, struct apod_tol *t)
{
	(void)params, (void)problem, (void)column, (void)kind;
	(void)any_float;
	t->atol = 1e-3;
}
static const struct apod_array vec_arrays[] = {
	{ .name = "v", .dtype = APOD_F32, .shape = toy_shape100, .compare = APOD_COMPARE_CLOSE,
	  .tolerance = tol1e3 },
	{ .name = NULL },
};
static const struct apod_phase one_phase[] = { { "step" }, { NULL } };
static const struct apod_workload vec = { .version = APOD_WORKLOAD_VERSION, .name = "vec",
	.steps = toy_one_step, .phases = one_phase, .arrays = vec_arrays };

START_TEST(tolerance_follows_the_design)
{
	struct heat_deck *d = apod_params_new(&heat_workload);   /* 300 steps, temperatures 0..100 */
	struct apod_tol t = { 0 }, t2 = { 0 };
	const struct apod_array *field = &heat_workload.arrays[0];
	field->tolerance(d, NULL, 1, 0, field->compare, &t);
	ck_assert_double_eq_tol(t.atol, 10.0 * 300 * (FLT_EPSILON / 2) * 100, 1e-12);
	ck_assert_double_eq(t.rtol, FLT_EPSILON);
	field->tolerance(d, NULL, 0, 0, field->compare, &t);
	ck_assert_double_eq_tol(t.atol, 10.0 * 300 * (DBL_EPSILON / 2) * 100, 1e-20);
	/* Twice the steps, twice the tolerance. */
	d->steps = 600;
	field->tolerance(d, NULL, 0, 0, field->compare, &t2);
	ck_assert_double_eq_tol(t2.atol, 2 * t.atol, 1e-20);
	/* The histogram counts every cell once per step. */
	heat_workload.series[HEAT_SERIES_HIST].tolerance(d, NULL, 1, 0, APOD_COMPARE_COUNTS, &t2);
	ck_assert_double_eq(t2.total, 2048.0 * 2048.0);
	ck_assert(t2.frac > 0 && t2.frac < 1);
	free(d);
}
END_TEST

START_TEST(compare_field_finds_the_worst_cell)
{
	struct apod_run want, got;
	struct apod_verdict v;
	float *a, *b;
	ck_assert_int_eq(apod_run_alloc(&want, &vec, NULL), 0);
	ck_assert_int_eq(apod_run_alloc(&got, &vec, NULL), 0);
	a = want.arrays[0].data;
	b = got.arrays[0].data;
	for (int i = 0; i < 100; i++)
		a[i] = b[i] = (float)i;
	ck_assert_int_eq(apod_verify(NULL, &want, &got, &v), 1);
	ck_assert_uint_eq(v.out[0].ndiffer, 0);
	ck_assert_uint_eq(v.out[0].nbad, 0);
	ck_assert_int_eq(v.out[0].max_ulp, 0);
	b[37] += 0.5f;
	b[80] = nextafterf(b[80], 1000.0f);
	ck_assert_int_eq(apod_verify(NULL, &want, &got, &v), 0);
	ck_assert_uint_eq(v.out[0].ndiffer, 2);
	ck_assert_uint_eq(v.out[0].nbad, 1);
	ck_assert_uint_eq(v.out[0].worst, 37);
	ck_assert_double_eq(v.out[0].worst_want, 37);
	ck_assert_double_eq(v.out[0].worst_got, 37.5);
	ck_assert_int_gt(v.out[0].max_ulp, 1000);
	ck_assert(v.out[0].rel_l2 > 0);
	b[3] = NAN;
	ck_assert_int_eq(apod_verify(NULL, &want, &got, &v), 0);
	ck_assert_uint_eq(v.out[0].nbad, 2);
	apod_run_free(&want);
	apod_run_free(&got);
}
END_TEST

/* A double array with a name longer than the columns used to allow. */
static const struct apod_array vecd_arrays[] = {
	{ .name = "a_long_output_name", .dtype = APOD_F64, .shape = toy_shape100,
	  .compare = APOD_COMPARE_CLOSE, .tolerance = tol1e3 },
	{ .name = NULL },
};
static const struct apod_phase long_phase[] = { { "aVeryLongStepPhaseName" }, { NULL } };
static const struct apod_workload vecd = { .version = APOD_WORKLOAD_VERSION, .name = "vecd",
	.steps = toy_one_step, .phases = long_phase, .arrays = vecd_arrays };

/* What verify prints of v, into buf. */
static void print_verdict(const struct apod_verdict *v, const struct apod_run *r, char *buf,
                          size_t len)
{
	FILE *f = fmemopen(buf, len, "w");
	ck_assert_ptr_nonnull(f);
	apod_verdict_print(f, v, r);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(verify_shows_a_double_difference)
{
	struct apod_run want, got;
	struct apod_verdict v;
	double *a, *b;
	char out[4096], want_s[64], got_s[64], *line;
	ck_assert_int_eq(apod_run_alloc(&want, &vecd, NULL), 0);
	ck_assert_int_eq(apod_run_alloc(&got, &vecd, NULL), 0);
	a = want.arrays[0].data;
	b = got.arrays[0].data;
	for (int i = 0; i < 100; i++)
		a[i] = b[i] = 1.6425753 + i;
	/* 1e-9 relative: the same float, a different double. */
	b[0] = a[0] * (1 + 1e-9);
	ck_assert_int_eq(apod_verify(NULL, &want, &got, &v), 1);
	ck_assert_uint_eq(v.out[0].ndiffer, 1);
	ck_assert_int_eq(v.out[0].ulp_double, 1);
	ck_assert_int_gt(v.out[0].max_ulp, 1000);   /* ~7400 on the double grid; 0 on float's */
	print_verdict(&v, &got, out, sizeof out);
	snprintf(want_s, sizeof want_s, "expected %.17g", a[0]);
	snprintf(got_s, sizeof got_s, "got %.17g", b[0]);
	ck_assert_str_ne(want_s + 9, got_s + 4);
	ck_assert_ptr_nonnull(strstr(out, want_s));
	ck_assert_ptr_nonnull(strstr(out, got_s));
	ck_assert_ptr_nonnull(strstr(out, "ulp (double grid)"));
	ck_assert_ptr_null(strstr(out, " 0 ulp"));
	/* The name column fits the name: one space, then the verdict; the
	 * lines under it are indented past it. */
	ck_assert_ptr_nonnull(strstr(out, "a_long_output_name ok  "));
	line = strchr(out, '\n');
	ck_assert_ptr_nonnull(line);
	ck_assert_int_eq(strspn(line + 1, " "), strlen("a_long_output_name") + 1);
	apod_run_free(&want);
	apod_run_free(&got);
}
END_TEST

/* Two outputs, the second near zero: positions and momenta, say. */
static void tol_abs_rel(const void *params, const void *problem, int any_float, int column,
                        enum apod_compare kind, struct apod_tol *t)
{
	(void)params, (void)problem, (void)column, (void)kind;
	(void)any_float;
	t->atol = 1e-6;
	t->rtol = 1e-5;
}
static const struct apod_array two_arrays[] = {
	{ .name = "positions", .dtype = APOD_F64, .shape = toy_shape100,
	  .compare = APOD_COMPARE_CLOSE, .tolerance = tol_abs_rel },
	{ .name = "momenta", .dtype = APOD_F64, .shape = toy_shape100,
	  .compare = APOD_COMPARE_CLOSE, .tolerance = tol_abs_rel },
	{ .name = NULL },
};
static const struct apod_workload two = { .version = APOD_WORKLOAD_VERSION, .name = "two",
	.steps = toy_one_step, .phases = one_phase, .arrays = two_arrays };

/* The table's column names the output closest to its tolerance, not the
 * first; ulps where the absolute term decides do not appear there. */
START_TEST(the_line_names_the_worst_output)
{
	struct apod_run want, got;
	struct apod_verdict v;
	double *pw, *pg, *mw, *mg;
	char line[256], out[4096];
	ck_assert_int_eq(apod_run_alloc(&want, &two, NULL), 0);
	ck_assert_int_eq(apod_run_alloc(&got, &two, NULL), 0);
	pw = want.arrays[0].data;
	pg = got.arrays[0].data;
	mw = want.arrays[1].data;
	mg = got.arrays[1].data;
	for (int i = 0; i < 100; i++) {
		pw[i] = pg[i] = 1000.0 + i;
		mw[i] = mg[i] = 1e-30 * i;
	}
	ck_assert_int_eq(apod_verify(NULL, &want, &got, &v), 1);
	ck_assert_int_eq(apod_verdict_worst(&v), -1);
	apod_verdict_line(&v, line, sizeof line);
	ck_assert_str_eq(line, "PASS (bitwise)");

	/* positions: one ulp of 1000 (the relative term decides: 1e-2 allowed). */
	pg[5] = nextafter(pw[5], 2000.0);
	/* momenta: 3e-7 near zero, 0.3 of the 1e-6 the absolute term allows,
	 * and millions of ulps. */
	mg[7] = mw[7] + 3e-7;
	ck_assert_int_eq(apod_verify(NULL, &want, &got, &v), 1);
	ck_assert_double_eq_tol(v.out[1].of_tol, 3e-7 / (1e-6 + 1e-5 * 7e-30), 1e-9);
	ck_assert(v.out[0].of_tol > 0 && v.out[0].of_tol < 1e-10);
	ck_assert_int_eq(v.out[0].ulp_absolute, 0);
	ck_assert_int_eq(v.out[1].ulp_absolute, 1);
	ck_assert_int_gt(v.out[1].max_ulp, 1000000);
	ck_assert_int_eq(apod_verdict_worst(&v), 1);
	apod_verdict_line(&v, line, sizeof line);
	ck_assert_str_eq(line, "PASS (worst: momenta, max 3e-07, at 0.3x its tolerance)");
	/* verify keeps every output's line, and says why the ulps are no alarm. */
	print_verdict(&v, &got, out, sizeof out);
	ck_assert_ptr_nonnull(strstr(out, "positions   ok  "));
	ck_assert_ptr_nonnull(strstr(out, "momenta     ok  "));
	ck_assert_ptr_nonnull(strstr(out, "the worst used 0.3 of its tolerance"));
	ck_assert_ptr_nonnull(strstr(out, "where the absolute term of the tolerance decides"));

	/* Where the relative term decides, the ulps are shown. */
	mg[7] = mw[7];
	ck_assert_int_eq(apod_verify(NULL, &want, &got, &v), 1);
	ck_assert_int_eq(apod_verdict_worst(&v), 0);
	apod_verdict_line(&v, line, sizeof line);
	ck_assert_ptr_nonnull(strstr(line, "PASS (worst: positions, max 1.1e-13, 1 ulp, "));

	/* Outside: the failures, then the worst and how far out it went. */
	pg[9] = pw[9] * (1 + 2e-5);   /* 2e-2 against 1e-6 + 1.009e-2 allowed */
	mg[7] = mw[7] + 3e-7;
	ck_assert_int_eq(apod_verify(NULL, &want, &got, &v), 0);
	apod_verdict_line(&v, line, sizeof line);
	ck_assert_str_eq(line, "FAIL (positions; worst: positions, 2x its tolerance)");
	apod_run_free(&want);
	apod_run_free(&got);
}
END_TEST

/* A counted output's share of its tolerance: the moved fraction over the one allowed. */
START_TEST(counts_measure_against_their_fraction)
{
	ck_assert_double_eq(apod_counts_of_tol(0, 0.01), 0);
	ck_assert_double_eq_tol(apod_counts_of_tol(0.002, 0.01), 0.2, 1e-15);
	ck_assert(isinf(apod_counts_of_tol(0.002, 0)));
	ck_assert(isinf(apod_counts_of_tol(NAN, 0.01)));
	ck_assert(isinf(apod_counts_of_tol(INFINITY, 0.01)));
}
END_TEST

START_TEST(phase_column_fits_the_names)
{
	ck_assert_int_eq(apod_phase_width(&vec, 16), 16);
	ck_assert_int_eq(apod_phase_width(&vecd, 16), (int)strlen("aVeryLongStepPhaseName"));
}
END_TEST

START_TEST(npy_round_trip_and_header)
{
	float a[6] = { 1, 2, 3, 4, 5, 6.5f };
	double c[3] = { 1.5, -2, 1e300 };
	void *b;
	size_t dims[2] = { 2, 3 }, back[2];
	enum apod_dtype t;
	int ndim;
	char path[128], head[256];
	int hlen;
	FILE *f;
	make_tmp();
	snprintf(path, sizeof path, "%s/a.npy", tmpdir);
	ck_assert_int_eq(apod_npy_write(path, a, APOD_F32, 2, dims), 0);
	ck_assert_int_eq(apod_npy_read(path, &b, &t, &ndim, back), 0);
	ck_assert_int_eq(ndim, 2);
	ck_assert_uint_eq(back[0], 2);
	ck_assert_uint_eq(back[1], 3);
	ck_assert_int_eq(t, APOD_F32);
	ck_assert_mem_eq(a, b, sizeof a);
	free(b);
	/* The header NumPy expects, with data aligned to 64 bytes. */
	f = fopen(path, "rb");
	ck_assert_uint_eq(fread(head, 1, 128, f), 128);
	fclose(f);
	ck_assert_mem_eq(head, "\x93NUMPY\x01\x00", 8);
	hlen = (unsigned char)head[8] | (unsigned char)head[9] << 8;
	ck_assert_int_eq((10 + hlen) % 64, 0);
	ck_assert_int_le(10 + hlen, 128);
	ck_assert_int_eq(head[10 + hlen - 1], '\n');
	head[10 + hlen - 1] = '\0';
	ck_assert_ptr_nonnull(strstr(head + 10, "'shape': (2, 3)"));
	/* 1-D and double, as NumPy writes them. */
	dims[0] = 3;
	ck_assert_int_eq(apod_npy_write(path, c, APOD_F64, 1, dims), 0);
	ck_assert_int_eq(apod_npy_read(path, &b, &t, &ndim, back), 0);
	ck_assert_int_eq(ndim, 1);
	ck_assert_uint_eq(back[0], 3);
	ck_assert_int_eq(t, APOD_F64);
	ck_assert_mem_eq(c, b, sizeof c);
	free(b);
	/* Truncated: refused, by name. */
	ck_assert_int_eq(truncate(path, 70), 0);
	ck_assert_int_eq(apod_npy_read(path, &b, &t, &ndim, back), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "malformed or truncated"));
	/* A header that promises more than the file holds is refused before any
	 * allocation (a fuzzer found the allocation; tests/fuzz/npy-seeds keeps it). */
	f = fopen(path, "wb");
	fputs("\x93NUMPY\x01\x00\x36\x00{'descr': '<f8', 'fortran_order': False, "
	      "'shape': (4, 3333333333333), }\n", f);
	fclose(f);
	ck_assert_int_eq(apod_npy_read(path, &b, &t, &ndim, back), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "malformed or truncated"));
	unlink(path);
	rmdir(tmpdir);
}
END_TEST

START_TEST(outfile_is_atomic)
{
	struct apod_outfile o;
	char path[128], line[32];
	FILE *f;
	make_tmp();
	snprintf(path, sizeof path, "%s/out.txt", tmpdir);
	ck_assert_int_eq(apod_outfile_open(&o, path), 0);
	fputs("new\n", o.f);
	ck_assert_int_eq(access(path, F_OK), -1);      /* not there until committed */
	ck_assert_int_eq(apod_outfile_commit(&o), 0);
	/* An aborted rewrite leaves the old file whole and no temporary behind. */
	ck_assert_int_eq(apod_outfile_open(&o, path), 0);
	fputs("half", o.f);
	apod_outfile_abort(&o);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
	fclose(f);
	ck_assert_str_eq(line, "new\n");
	ck_assert_int_eq(count_entries(tmpdir), 1);
	/* A directory is not a file. */
	ck_assert_int_eq(apod_outfile_open(&o, tmpdir), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "is a directory"));
	unlink(path);
	rmdir(tmpdir);
}
END_TEST

static double *row(struct apod_run *r, int series, long k)
{
	return r->series[series].v + (size_t)k * (size_t)r->series[series].cols;
}

START_TEST(results_round_trip_and_gate)
{
	struct heat_deck *d = small_deck();
	void *problem, *back;
	struct apod_run a, b;
	struct apod_verdict v;
	const struct apod_workload *const ws[] = { &heat_workload, NULL };
	float *field;
	char dir[128];
	make_tmp();
	snprintf(dir, sizeof dir, "%s/run", tmpdir);
	ck_assert_int_eq(mkdir(dir, 0777), 0);
	ck_assert_ptr_nonnull(problem = heat_workload.problem_create(d));
	ck_assert_int_eq(apod_simulate(&heat_workload, heat_stages[0], d, problem, dir, 0, &a), 0);
	ck_assert_int_eq(a.snapshots, 2);
	ck_assert_int_eq(a.series[HEAT_SERIES_ZONES].rows, 5);
	ck_assert_int_eq(apod_results_load(dir, ws, &back, &b), 0);
	ck_assert_int_eq(((struct heat_deck *)back)->size[0], 37);
	ck_assert_int_eq(((struct heat_deck *)back)->steps, 25);
	ck_assert(apod_params_same(&heat_workload, d, back, NULL));
	ck_assert_int_eq(apod_verify(back, &a, &b, &v), 1);
	ck_assert_uint_eq(v.out[0].ndiffer, 0);
	/* The field stays within the maximum principle, and heat flows in. */
	ck_assert(row(&a, HEAT_SERIES_STATS, 24)[1] >= 0 && row(&a, HEAT_SERIES_STATS, 24)[2] <= 100);
	ck_assert(row(&a, HEAT_SERIES_STATS, 24)[0] != row(&a, HEAT_SERIES_STATS, 0)[0]);
	/* One cell moved by more than the tolerance: the gate fails on it. */
	field = b.arrays[0].data;
	if (sizeof(heat_real) == sizeof(float)) {
		field[5 * 37 + 7] += 1;
		ck_assert_int_eq(apod_verify(back, &a, &b, &v), 0);
		ck_assert_int_eq(v.out[0].ok, 0);
		ck_assert_uint_eq(v.out[0].worst, 5 * 37 + 7);
		field[5 * 37 + 7] -= 1;
	}
	/* A lost histogram count fails whatever the tolerance. */
	row(&b, HEAT_SERIES_HIST, 0)[3]--;
	ck_assert_int_eq(apod_verify(back, &a, &b, &v), 0);
	ck_assert_int_eq(v.out[1 + HEAT_SERIES_HIST].ok, 0);
	row(&b, HEAT_SERIES_HIST, 0)[3]++;
	/* A zone mean off by more than the tolerance. */
	row(&b, HEAT_SERIES_ZONES, 0)[4] += 1;
	ck_assert_int_eq(apod_verify(back, &a, &b, &v), 0);
	ck_assert_int_eq(v.out[1 + HEAT_SERIES_ZONES].ok, 0);
	apod_run_free(&a);
	apod_run_free(&b);
	heat_workload.problem_destroy(problem);
	free(back);
	free(d);
	rm_tmp();
}
END_TEST

/* A file written into a run's staging directory through apod_outfile, so
 * that the run records it. */
static void write_staged(const struct apod_outdir *o, const char *name)
{
	struct apod_outfile of;
	char path[8300];
	snprintf(path, sizeof path, "%s/%s", o->staging, name);
	ck_assert_int_eq(apod_outfile_open(&of, path), 0);
	fputs("x", of.f);
	ck_assert_int_eq(apod_outfile_commit(&of), 0);
}

/* A run goes to a staging directory and replaces the target only whole. */
START_TEST(outdir_swaps_whole_runs)
{
	struct apod_outdir o;
	char target[128], path[8300];
	FILE *f;
	make_tmp();
	snprintf(target, sizeof target, "%s/r", tmpdir);
	ck_assert_int_eq(apod_outdir_begin(&o, target), 0);
	write_staged(&o, "snap_000000040.npy");
	ck_assert_int_eq(access(target, F_OK), -1);          /* nothing until committed */
	ck_assert_int_eq(apod_outdir_commit(&o), 0);
	ck_assert_int_eq(count_entries(target), 1);
	/* A second run that fails leaves the first whole. */
	ck_assert_int_eq(apod_outdir_begin(&o, target), 0);
	write_staged(&o, "report.json");
	apod_outdir_abort(&o);
	ck_assert_int_eq(count_entries(target), 1);
	ck_assert_int_eq(count_entries(tmpdir), 1);          /* no staging left behind */
	/* A file the run did not write is never committed. */
	ck_assert_int_eq(apod_outdir_begin(&o, target), 0);
	snprintf(path, sizeof path, "%s/dropped.csv", o.staging);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fclose(f);
	ck_assert_int_eq(apod_outdir_commit(&o), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "dropped.csv"));
	unlink(path);
	rmdir(o.staging);
	ck_assert_int_eq(count_entries(target), 1);
	/* A second run that succeeds replaces it: no old snapshot survives. */
	ck_assert_int_eq(apod_outdir_begin(&o, target), 0);
	write_staged(&o, "report.json");
	ck_assert_int_eq(apod_outdir_commit(&o), 0);
	snprintf(path, sizeof path, "%s/snap_000000040.npy", target);
	ck_assert_int_eq(access(path, F_OK), -1);
	ck_assert_int_eq(count_entries(target), 1);
	/* A directory holding something else is refused, not replaced. */
	snprintf(path, sizeof path, "%s/notes.txt", target);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fclose(f);
	ck_assert_int_eq(apod_outdir_begin(&o, target), -1);
	ck_assert_int_eq(apod_failure_status(), APOD_EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "notes.txt"));
	rm_tmp();
}
END_TEST

int main(void)
{
	const TTest *tests[] = {
		tolerance_follows_the_design, compare_field_finds_the_worst_cell,
		verify_shows_a_double_difference, phase_column_fits_the_names,
		npy_round_trip_and_header, outfile_is_atomic, results_round_trip_and_gate,
		outdir_swaps_whole_runs, the_line_names_the_worst_output,
		counts_measure_against_their_fraction,
		NULL,
	};
	return check_run(check_suite("verify", "core", 0, tests), CK_FORK_GETENV);
}
