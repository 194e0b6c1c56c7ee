/* The verification gate, the .npy format and atomic output. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>

#include "engine.h"
#include "fail.h"
#include "npy.h"
#include "outfile.h"
#include "results.h"
#include "sim.h"
#include "verify.h"

extern const struct apod_engine apod_engine_serial;

static char tmpdir[64];

static void make_tmp(void)
{
	strcpy(tmpdir, "/tmp/apod-check-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

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

static void small_deck(struct apod_deck *d)
{
	apod_deck_defaults(d);
	ck_assert_int_eq(apod_deck_set(d, "size", "37x23", "t"), 0);
	ck_assert_int_eq(apod_deck_set(d, "steps", "25", "t"), 0);
	ck_assert_int_eq(apod_deck_set(d, "zones", "3x2", "t"), 0);
	d->summary_every = 5;
	d->snapshot_every = 10;
}

START_TEST(tolerance_follows_the_design)
{
	struct apod_deck d;
	struct apod_tolerance t;
	apod_deck_defaults(&d);          /* 300 steps, temperatures 0..100 */
	apod_tolerance_design(&t, &d, 1);
	ck_assert_double_eq_tol(t.atol, 10.0 * 300 * (FLT_EPSILON / 2) * 100, 1e-12);
	ck_assert_double_eq(t.rtol, FLT_EPSILON);
	apod_tolerance_design(&t, &d, 0);
	ck_assert_double_eq_tol(t.atol, 10.0 * 300 * (DBL_EPSILON / 2) * 100, 1e-20);
	/* Twice the steps, twice the tolerance. */
	d.steps = 600;
	{
		struct apod_tolerance t2;
		apod_tolerance_design(&t2, &d, 0);
		ck_assert_double_eq_tol(t2.atol, 2 * t.atol, 1e-20);
	}
}
END_TEST

START_TEST(compare_field_finds_the_worst_cell)
{
	apod_real want[100], got[100];
	struct apod_tolerance t = { .atol = 1e-3, .rtol = 0 };
	struct apod_field_diff d;
	for (int i = 0; i < 100; i++)
		want[i] = got[i] = (apod_real)i;
	apod_compare_field(want, got, 100, &t, &d);
	ck_assert_uint_eq(d.ndiffer, 0);
	ck_assert_uint_eq(d.nbad, 0);
	ck_assert_int_eq(d.max_ulp, 0);
	got[37] += (apod_real)0.5;
	got[80] = nextafterf((float)got[80], 1000.0f);
	apod_compare_field(want, got, 100, &t, &d);
	ck_assert_uint_eq(d.ndiffer, 2);
	ck_assert_uint_eq(d.nbad, 1);
	ck_assert_uint_eq(d.worst, 37);
	ck_assert_double_eq(d.worst_want, 37);
	ck_assert_double_eq(d.worst_got, 37.5);
	ck_assert_int_gt(d.max_ulp, 1000);
	ck_assert(d.rel_l2 > 0);
	got[3] = NAN;
	apod_compare_field(want, got, 100, &t, &d);
	ck_assert_uint_eq(d.nbad, 2);
}
END_TEST

START_TEST(npy_round_trip_and_header)
{
	apod_real a[6] = { 1, 2, 3, 4, 5, 6.5f }, *b;
	size_t ny, nx;
	int dbl;
	char path[128], head[256];
	int hlen;
	FILE *f;
	make_tmp();
	snprintf(path, sizeof path, "%s/a.npy", tmpdir);
	ck_assert_int_eq(apod_npy_write(path, a, 2, 3), 0);
	ck_assert_int_eq(apod_npy_read(path, &b, &ny, &nx, &dbl), 0);
	ck_assert_uint_eq(ny, 2);
	ck_assert_uint_eq(nx, 3);
	ck_assert_int_eq(dbl, sizeof(apod_real) == 8);
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
	/* Truncated: refused, by name. */
	ck_assert_int_eq(truncate(path, 70), 0);
	ck_assert_int_eq(apod_npy_read(path, &b, &ny, &nx, &dbl), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "malformed or truncated"));
	/* A header that promises more than the file holds is refused before any
	 * allocation (a fuzzer found the allocation; tests/fuzz/npy-seeds keeps it). */
	f = fopen(path, "wb");
	fputs("\x93NUMPY\x01\x00\x36\x00{'descr': '<f8', 'fortran_order': False, "
	      "'shape': (4, 3333333333333), }\n", f);
	fclose(f);
	ck_assert_int_eq(apod_npy_read(path, &b, &ny, &nx, &dbl), -1);
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

START_TEST(results_round_trip_and_gate)
{
	struct apod_deck d, back;
	struct apod_problem p;
	struct apod_run a, b;
	struct apod_tolerance t;
	struct apod_verdict v;
	char dir[128];
	make_tmp();
	snprintf(dir, sizeof dir, "%s/run", tmpdir);
	small_deck(&d);
	ck_assert_int_eq(apod_problem_init(&p, &d), 0);
	ck_assert_int_eq(apod_simulate(&apod_engine_serial, &p, dir, &a), 0);
	ck_assert_int_eq(a.snapshots, 2);
	ck_assert_int_eq(a.nsummaries, 5);
	ck_assert_int_eq(apod_results_load(dir, &back, &b), 0);
	ck_assert_uint_eq(back.nx, 37);
	ck_assert_int_eq(back.steps, 25);
	apod_tolerance_design(&t, &back, 1);
	ck_assert_int_eq(apod_verify(&a, &b, &t, &v), 1);
	ck_assert_uint_eq(v.field.ndiffer, 0);
	/* The field stays within the maximum principle, and heat flows in. */
	ck_assert(a.moments[24].min >= 0 && a.moments[24].max <= 100);
	ck_assert(a.moments[24].mean != a.moments[0].mean);
	/* One cell moved by more than the tolerance: the gate fails on it. */
	b.field[5 * 37 + 7] += (apod_real)1;
	ck_assert_int_eq(apod_verify(&a, &b, &t, &v), 0);
	ck_assert_int_eq(v.field_ok, 0);
	ck_assert_uint_eq(v.field.worst, 5 * 37 + 7);
	b.field[5 * 37 + 7] -= (apod_real)1;
	/* A lost histogram count fails whatever the tolerance. */
	b.hist[3]--;
	ck_assert_int_eq(apod_verify(&a, &b, &t, &v), 0);
	ck_assert_int_eq(v.hist_ok, 0);
	b.hist[3]++;
	/* A zone mean off by more than the tolerance. */
	b.zones[4] += 1;
	ck_assert_int_eq(apod_verify(&a, &b, &t, &v), 0);
	ck_assert_int_eq(v.zones_ok, 0);
	apod_run_free(&a);
	apod_run_free(&b);
	apod_problem_free(&p);
	{
		char cmd[160];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
		ck_assert_int_eq(system(cmd), 0);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("verify");
	TCase *t = tcase_create("core");
	SRunner *r;
	int failed;
	tcase_add_test(t, tolerance_follows_the_design);
	tcase_add_test(t, compare_field_finds_the_worst_cell);
	tcase_add_test(t, npy_round_trip_and_header);
	tcase_add_test(t, outfile_is_atomic);
	tcase_add_test(t, results_round_trip_and_gate);
	suite_add_tcase(s, t);
	r = srunner_create(s);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
