/*
 * check_results.h: what the Check tests of results share: a scratch folder,
 * made and removed whole, and a small heat deck to run into it.
 */
#ifndef APOD_CHECK_RESULTS_H
#define APOD_CHECK_RESULTS_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/heat/heat.h"
#include "cpu/heat/heat_workload.h"
#include "cpu/harness/params.h"

static char tmpdir[64];

static void make_tmp(void)
{
	strcpy(tmpdir, "/tmp/apod-check-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void rm_tmp(void)
{
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* 37x23 (no block or vector width divides it), 25 steps, zones every 5,
 * snapshots every 10. */
static struct heat_deck *small_deck(void)
{
	struct heat_deck *d = apod_params_new(&heat_workload);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(apod_params_set(&heat_workload, d, "size", "37x23", "t"), 0);
	ck_assert_int_eq(apod_params_set(&heat_workload, d, "steps", "25", "t"), 0);
	ck_assert_int_eq(apod_params_set(&heat_workload, d, "zones", "3x2", "t"), 0);
	d->summary_every = 5;
	d->snapshot_every = 10;
	return d;
}

#endif
