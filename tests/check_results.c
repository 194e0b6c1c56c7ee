/*
 * Reading results back from files that were not written by apod: .npy
 * headers parsed by key, CSV step numbers that are not whole numbers, rows
 * of other steps, FIFOs, and the messages that quote such files.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpu/harness/fail.h"
#include "cpu/heat/heat.h"
#include "cpu/heat/heat_workload.h"
#include "cpu/harness/npy.h"
#include "cpu/harness/params.h"
#include "cpu/harness/results.h"
#include "cpu/harness/run.h"
#include "cpu/harness/verify.h"

#include "check_results.h"
#include "check_run.h"

/* A .npy file of header text h (padded to 64 bytes, newline-ended) and
 * `bytes` bytes of zeros. */
static void write_npy(const char *path, const char *h, size_t bytes)
{
	FILE *f = fopen(path, "wb");
	size_t len = strlen(h), total = 10 + len + 1;
	ck_assert_ptr_nonnull(f);
	while (total % 64)
		total++;
	fwrite("\x93NUMPY\x01\x00", 1, 8, f);
	fputc((int)((total - 10) & 0xff), f);
	fputc((int)((total - 10) >> 8), f);
	fputs(h, f);
	for (size_t i = 10 + len; i + 1 < total; i++)
		fputc(' ', f);
	fputc('\n', f);
	for (size_t i = 0; i < bytes; i++)
		fputc(0, f);
	fclose(f);
}

static int read_npy(const char *path, int *ndim, size_t dims[2], enum apod_dtype *t)
{
	void *a = NULL;
	int rc = apod_npy_read(path, &a, t, ndim, dims);
	free(a);
	return rc;
}

START_TEST(npy_header_is_parsed_by_key)
{
	char path[128];
	size_t dims[2];
	enum apod_dtype t;
	int ndim;
	static const char *const refused[] = {
		/* a 3-D shape, an unclosed one, signs, a bare number, no axes */
		"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 1), }",
		"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, }",
		"{'descr': '<f4', 'fortran_order': False, 'shape': (+2, +3), }",
		"{'descr': '<f4', 'fortran_order': False, 'shape': (6), }",
		"{'descr': '<f4', 'fortran_order': False, 'shape': (), }",
		"{'descr': '<f4', 'fortran_order': False, 'shape': (-2, 3), }",
		"{'descr': '<f4', 'fortran_order': False, 'shape': ( 2 3), }",
		/* a key twice, a key missing, a key unknown, Fortran order */
		"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (6,), }",
		"{'descr': '<f4', 'shape': (6,), }",
		"{'descr': '<f4', 'fortran_order': False, 'shape': (6,), 'extra': 1, }",
		"{'descr': '<f4', 'fortran_order': True, 'shape': (6,), }",
		/* not a dict, or something after it */
		"'descr': '<f4', 'fortran_order': False, 'shape': (6,)",
		"{'descr': '<f4', 'fortran_order': False, 'shape': (6,), } x",
		"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (6,), }",
	};
	make_tmp();
	snprintf(path, sizeof path, "%s/a.npy", tmpdir);
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		write_npy(path, refused[i], 24);
		ck_assert_msg(read_npy(path, &ndim, dims, &t) == -1, "accepted: %s", refused[i]);
		ck_assert_int_eq(apod_failure_status(), APOD_EXIT_USAGE);
	}
	/* An int32 file is read as int32, and a type apod does not
	 * write is refused by name. */
	write_npy(path, "{'descr': '<i4', 'fortran_order': False, 'shape': (6,), }", 24);
	ck_assert_int_eq(read_npy(path, &ndim, dims, &t), 0);
	ck_assert_int_eq(t, APOD_I32);
	write_npy(path, "{'descr': '<i2', 'fortran_order': False, 'shape': (6,), }", 12);
	ck_assert_int_eq(read_npy(path, &ndim, dims, &t), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "unsupported element type '<i2'"));
	write_npy(path, "{'fortran_order': False, 'shape': (6,), 'x': \"'descr': '<f4'\", "
	                "'descr': '<i4'}", 24);
	ck_assert_int_eq(read_npy(path, &ndim, dims, &t), -1);
	/* Any order of the keys, no trailing comma, 2-D with one: accepted. */
	write_npy(path, "{'shape': (2, 3,), 'fortran_order': False, 'descr': '<f4'}", 24);
	ck_assert_int_eq(read_npy(path, &ndim, dims, &t), 0);
	ck_assert_int_eq(ndim, 2);
	ck_assert_uint_eq(dims[0], 2);
	ck_assert_uint_eq(dims[1], 3);
	write_npy(path, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", 24);
	ck_assert_int_eq(read_npy(path, &ndim, dims, &t), 0);
	ck_assert_int_eq(ndim, 1);
	ck_assert_int_eq(t, APOD_F64);
	rm_tmp();
}
END_TEST

/* A FIFO where a file should be is refused at once, not waited on (the
 * test's timeout catches a reader that blocks). */
START_TEST(fifo_is_refused_not_waited_on)
{
	char path[128];
	size_t dims[2];
	enum apod_dtype t;
	int ndim;
	make_tmp();
	snprintf(path, sizeof path, "%s/field.npy", tmpdir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(read_npy(path, &ndim, dims, &t), -1);
	ck_assert_int_eq(apod_failure_status(), APOD_EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "is a FIFO, not a regular file"));
	/* A directory likewise. */
	ck_assert_int_eq(read_npy(tmpdir, &ndim, dims, &t), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "is a directory, not a regular file"));
	rm_tmp();
}
END_TEST

/* A results directory of a small run in tmpdir/NAME. */
static void small_run(const char *name, char *dir, size_t len)
{
	struct heat_deck *d = small_deck();
	void *problem;
	struct apod_run r;
	snprintf(dir, len, "%s/%s", tmpdir, name);
	ck_assert_int_eq(mkdir(dir, 0777), 0);
	ck_assert_ptr_nonnull(problem = heat_workload.problem_create(d));
	ck_assert_int_eq(apod_simulate(&heat_workload, heat_stages[0], d, problem, dir, 0, &r), 0);
	apod_run_free(&r);
	heat_workload.problem_destroy(problem);
	free(d);
}

/* Replace line `line` (1 = the header) of dir/stats.csv by text. */
static void edit_stats(const char *dir, int line, const char *text)
{
	char path[256], *buf = NULL;
	size_t cap = 0;
	FILE *in, *out;
	int n = 0;
	char tmp[300];
	snprintf(path, sizeof path, "%s/stats.csv", dir);
	snprintf(tmp, sizeof tmp, "%s.new", path);
	ck_assert_ptr_nonnull(in = fopen(path, "r"));
	ck_assert_ptr_nonnull(out = fopen(tmp, "w"));
	while (getline(&buf, &cap, in) > 0)
		fputs(++n == line ? text : buf, out);
	free(buf);
	fclose(in);
	fclose(out);
	ck_assert_int_eq(rename(tmp, path), 0);
}

START_TEST(csv_steps_are_whole_numbers)
{
	const struct apod_workload *const ws[] = { &heat_workload, NULL };
	static const char *const bad[] = { "nan", "inf", "1e300", "-1", "1.0", "+1", " 1",
	                                   "99999999999999999999", "0x1", "" };
	char dir[128], line[128];
	void *params;
	struct apod_run r;
	make_tmp();
	small_run("run", dir, sizeof dir);
	ck_assert_int_eq(apod_results_load(dir, ws, &params, &r), 0);
	apod_run_free(&r);
	free(params);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(line, sizeof line, "%s,25,0,100,900\n", bad[i]);
		edit_stats(dir, 3, line);
		ck_assert_msg(apod_results_load(dir, ws, &params, &r) == -1, "accepted step '%s'", bad[i]);
		ck_assert_int_eq(apod_failure_status(), APOD_EXIT_USAGE);
		ck_assert_msg(strstr(apod_failure(), "line 3: the step") != NULL, "%s", apod_failure());
	}
	rm_tmp();
}
END_TEST

/* Rows of other steps fail the gate, and the report says where. */
START_TEST(shifted_steps_say_why)
{
	const struct apod_workload *const ws[] = { &heat_workload, NULL };
	char a[128], b[128], line[256], *text = NULL;
	size_t len = 0;
	void *pa, *pb;
	struct apod_run ra, rb;
	struct apod_verdict v;
	FILE *f;
	make_tmp();
	small_run("a", a, sizeof a);
	small_run("b", b, sizeof b);
	/* Row 3 of b says step 4 where a says 3, the values unchanged. */
	snprintf(line, sizeof line, "%s/stats.csv", a);
	ck_assert_ptr_nonnull(f = fopen(line, "r"));
	for (int n = 0; n < 4; n++)
		ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
	fclose(f);
	ck_assert_int_eq(line[0], '3');
	line[0] = '4';
	edit_stats(b, 4, line);
	ck_assert_int_eq(apod_results_load(a, ws, &pa, &ra), 0);
	ck_assert_int_eq(apod_results_load(b, ws, &pb, &rb), 0);
	ck_assert_int_eq(apod_verify(pa, &ra, &rb, &v), 0);
	ck_assert_int_eq(v.out[1 + HEAT_SERIES_STATS].ok, 0);
	ck_assert_int_eq(v.out[1 + HEAT_SERIES_STATS].step_row, 2);
	ck_assert_ptr_nonnull(f = open_memstream(&text, &len));
	apod_verdict_print(f, &v, &ra);
	fclose(f);
	ck_assert_msg(strstr(text, "row 3 (line 4 of stats.csv): step 4 here, 3 in the reference"),
	              "%s", text);
	free(text);
	apod_run_free(&ra);
	apod_run_free(&rb);
	free(pa);
	free(pb);
	rm_tmp();
}
END_TEST

START_TEST(report_json_fifo_is_refused)
{
	const struct apod_workload *const ws[] = { &heat_workload, NULL };
	char dir[128], path[256];
	void *params;
	struct apod_run r;
	make_tmp();
	small_run("run", dir, sizeof dir);
	snprintf(path, sizeof path, "%s/report.json", dir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(apod_results_load(dir, ws, &params, &r), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "report.json: is a FIFO"));
	rm_tmp();
}
END_TEST

/* A long message keeps its reason; quoted bytes show what they are. */
START_TEST(messages_keep_the_reason)
{
	size_t n = 100000;
	char *path = malloc(n + 1), buf[64];
	ck_assert_ptr_nonnull(path);
	memset(path, 'a', n);
	path[n] = '\0';
	apod_usage_fail("%s: cannot create: File name too long", path);
	ck_assert_uint_lt(strlen(apod_failure()), 1024);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "bytes ...]"));
	ck_assert_ptr_nonnull(strstr(apod_failure(), "aaa: cannot create: File name too long"));
	ck_assert_int_eq(strncmp(apod_failure(), "aaaa", 4), 0);
	free(path);
	apod_elide(buf, sizeof buf, "short", 5);
	ck_assert_str_eq(buf, "short");
	apod_escape(buf, sizeof buf, "\xef\xbb\xbfsize\\\x7f", 9);
	ck_assert_str_eq(buf, "\\xef\\xbb\\xbfsize\\\\\\x7f");
	/* Cut at a whole escape. */
	apod_escape(buf, 7, "ab\x01\x02", 4);
	ck_assert_str_eq(buf, "ab\\x01");
}
END_TEST

/* A failure that wraps the one before it reads that one whole, long or short. */
START_TEST(wrapped_failures_read_the_first)
{
	size_t n = 3000;
	char *path = malloc(n + 1);
	ck_assert_ptr_nonnull(path);
	apod_fail("its process exited %d (its reason is above)", 1);
	apod_fail("mpi at %d rank: %s", 1, apod_failure());
	ck_assert_str_eq(apod_failure(), "mpi at 1 rank: its process exited 1 (its reason is above)");
	memset(path, 'b', n);
	path[n] = '\0';
	apod_usage_fail("%s: cannot create", path);
	apod_usage_fail("table: %s", apod_failure());
	ck_assert_int_eq(strncmp(apod_failure(), "table: bbbb", 11), 0);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "bbb: cannot create"));
	ck_assert_int_eq(apod_failure_status(), APOD_EXIT_USAGE);
	free(path);
}
END_TEST

int main(void)
{
	const TTest *tests[] = {
		npy_header_is_parsed_by_key, fifo_is_refused_not_waited_on,
		csv_steps_are_whole_numbers, shifted_steps_say_why, report_json_fifo_is_refused,
		messages_keep_the_reason, wrapped_failures_read_the_first,
		NULL,
	};
	return check_run(check_suite("results", "core", 0, tests), CK_FORK_GETENV);
}
