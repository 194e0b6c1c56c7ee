/*
 * A command's options are its own (cpu/cli/cli.h): the ladder's options
 * land in the struct the command hands over and nowhere else, so two sets
 * of them never meet; a deck's title says what that command line changed.
 */
#include <check.h>
#include <string.h>

#include "cpu/cli/cli.h"
#include "cpu/cli/spread.h"
#include "cpu/harness/fail.h"
#include "check_run.h"

static const struct apod_workload *const no_workloads[] = { NULL };
static const struct apod_program program = { .name = "apod", .workloads = no_workloads };

static const char *titled(const void *params)
{
	(void)params;
	return "medium: 8x8";
}

static const struct apod_workload with_title = { .name = "w", .title = titled };
static const struct apod_workload untitled = { .name = "bare" };

/* Two commands' ladder options, each parsed into its own struct. */
START_TEST(ladder_options_stay_in_their_struct)
{
	struct apod_ladder_opts a, b;
	apod_ladder_opts_init(&a);
	apod_ladder_opts_init(&b);
	ck_assert_int_eq(apod_ladder_opt(&a, OPT_CEILINGS, "other.json"), 0);
	ck_assert_int_eq(apod_ladder_opt(&a, OPT_RUNS, "7"), 0);
	ck_assert_int_eq(apod_ladder_opt(&a, OPT_STAGES, "serial,omp"), 0);
	ck_assert_int_eq(apod_ladder_opt(&a, OPT_BUDGET, "2.5"), 0);
	ck_assert_str_eq(a.run.ceilings, "other.json");
	ck_assert_int_eq(a.runs, 7);
	ck_assert_str_eq(a.stages, "serial,omp");
	ck_assert(a.budget == 2.5);
	ck_assert_ptr_null(b.run.ceilings);
	ck_assert_ptr_null(b.stages);
	ck_assert_int_eq(b.runs, APOD_SPREAD_RUNS);
	ck_assert(b.budget < 0);
	/* An option of no ladder is left to the command. */
	ck_assert_int_eq(apod_ladder_opt(&b, OPT_JSON, "x.json"), 1);
}
END_TEST

START_TEST(ladder_options_refuse_bad_values)
{
	struct apod_ladder_opts o;
	apod_ladder_opts_init(&o);
	ck_assert_int_eq(apod_ladder_opt(&o, OPT_RUNS, "0"), -1);
	ck_assert_int_eq(apod_failure_status(), APOD_EXIT_USAGE);
	ck_assert_int_eq(apod_ladder_opt(&o, OPT_BUDGET, "-1"), -1);
	ck_assert_msg(strstr(apod_failure(), "--budget=-1") != NULL, "%s", apod_failure());
	ck_assert_int_eq(apod_ladder_opt(&o, OPT_STAGES, ""), -1);
	ck_assert_int_eq(o.runs, APOD_SPREAD_RUNS);
	ck_assert_ptr_null(o.stages);
}
END_TEST

/* The title names what the command line changed, but the deck's name. */
START_TEST(deck_title_says_what_the_command_line_changed)
{
	struct apod_deck_opts o = { .w = &with_title, .nsets = 3,
	                            .key = { "steps", "name", "size" },
	                            .value = { "5", "x", "4x4" } };
	char buf[128];
	apod_deck_title(&o, NULL, buf, sizeof buf);
	ck_assert_str_eq(buf, "medium: 8x8 (changed: steps=5, size=4x4)");
	o.nsets = 0;
	apod_deck_title(&o, NULL, buf, sizeof buf);
	ck_assert_str_eq(buf, "medium: 8x8");
	o.w = &untitled;
	apod_deck_title(&o, NULL, buf, sizeof buf);
	ck_assert_str_eq(buf, "bare");
}
END_TEST

/* A buffer too small for the whole title holds its start, ended. */
START_TEST(deck_title_fits_its_buffer)
{
	struct apod_deck_opts o = { .w = &with_title, .nsets = 1, .key = { "steps" },
	                            .value = { "123456789" } };
	char buf[16];
	memset(buf, 'z', sizeof buf);
	apod_deck_title(&o, NULL, buf, sizeof buf);
	ck_assert_uint_eq(strlen(buf), sizeof buf - 1);
	ck_assert(!strncmp(buf, "medium: 8x8 (ch", sizeof buf - 1));
}
END_TEST

int main(void)
{
	const TTest *tests[] = {
		ladder_options_stay_in_their_struct, ladder_options_refuse_bad_values,
		deck_title_says_what_the_command_line_changed, deck_title_fits_its_buffer, NULL,
	};
	apod_prog = &program;
	return check_run(check_suite("options", "own", 0, tests), CK_FORK_GETENV);
}
