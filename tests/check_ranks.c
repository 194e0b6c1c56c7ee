/*
 * The library's ranks (apod/ranks.h) without a launcher: blocks that cover
 * the items once and evenly, the launcher told from its environment, and a
 * process that never started MPI being one rank.  Ranks under mpirun are
 * tests/ranks.sh's and tests/mpi.sh's.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "apod/ranks.h"
#include "check_run.h"

START_TEST(blocks_cover_every_item_once_and_evenly)
{
	const size_t ns[] = { 0, 1, 2, 7, 100, 20000, 1000003, (size_t)1 << 40 };
	for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
		for (int size = 1; size <= 9; size++) {
			size_t next = 0, least = (size_t)-1, most = 0;
			for (int r = 0; r < size; r++) {
				size_t lo, hi;
				apod_ranks_block(ns[k], r, size, &lo, &hi);
				ck_assert_uint_eq(lo, next);   /* in rank order, no gap, no overlap */
				ck_assert_uint_ge(hi, lo);
				next = hi;
				least = hi - lo < least ? hi - lo : least;
				most = hi - lo > most ? hi - lo : most;
			}
			ck_assert_uint_eq(next, ns[k]);
			ck_assert_uint_le(most - least, 1);
		}
	}
}
END_TEST

static void clear_launcher(void)
{
	const char *vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE", "PMIX_SIZE",
	                       "PMIX_RANK", "PMI_RANK", "OMPI_COMM_WORLD_RANK" };
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
		unsetenv(vars[i]);
}

START_TEST(the_launcher_is_told_from_the_environment)
{
	clear_launcher();
	ck_assert_int_eq(apod_ranks_launched(), 0);
	setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
	ck_assert_int_eq(apod_ranks_launched(), 4);
	clear_launcher();
	setenv("PMI_SIZE", "1", 1);
	ck_assert_int_eq(apod_ranks_launched(), 1);
	clear_launcher();
	/* A count that is not one is no count: the rank alone says "launched". */
	setenv("PMI_SIZE", "four", 1);
	ck_assert_int_eq(apod_ranks_launched(), 0);
	setenv("PMIX_RANK", "0", 1);
	ck_assert_int_eq(apod_ranks_launched(), -1);
	clear_launcher();
}
END_TEST

START_TEST(before_mpi_starts_a_process_is_one_rank)
{
	char why[128] = "";
	ck_assert_int_eq(apod_ranks_started(), 0);
	ck_assert_int_eq(apod_ranks_rank(), 0);
	ck_assert_int_eq(apod_ranks_size(), 1);
	ck_assert_int_eq(apod_ranks_local_rank(), 0);
	ck_assert_int_eq(apod_ranks_local_size(), 1);
	/* Agreeing alone: a failure is this process's own. */
	ck_assert_int_eq(apod_ranks_agree(0), 0);
	ck_assert_int_eq(apod_ranks_agree(1), -1);
	ck_assert_int_eq(apod_ranks_available(NULL, why, sizeof why), apod_ranks_built());
	if (!apod_ranks_built()) {
		ck_assert_ptr_nonnull(strstr(why, "built without MPI"));
		ck_assert_int_eq(apod_ranks_start(), -1);
		ck_assert_ptr_nonnull(strstr(apod_failure(), "built without MPI"));
	}
}
END_TEST

int main(void)
{
	const TTest *tests[] = {
		blocks_cover_every_item_once_and_evenly, the_launcher_is_told_from_the_environment,
		before_mpi_starts_a_process_is_one_rank, NULL,
	};
	return check_run(check_suite("ranks", "core", 0, tests), CK_FORK_GETENV);
}
