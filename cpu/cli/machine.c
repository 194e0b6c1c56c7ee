/*
 * machine.c: the ceilings the table, run and bench hold each phase's speed
 * of light against: another machine's file where the user names one
 * (--ceilings=FILE, or APOD_CEILINGS in the environment), else this
 * machine's cache, measured the first time (`apod ceilings`).
 */
#include <stdio.h>
#include <stdlib.h>

#include "apod/ceilings.h"
#include "cli.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/sol.h"

int apod_cli_machine(const char *ceilings, struct apod_sol_machine *m, char *why, size_t len)
{
	struct apod_ceilings c;
	return apod_cli_machine_ceilings(ceilings, m, &c, why, len);
}

int apod_cli_machine_ceilings(const char *ceilings, struct apod_sol_machine *m,
                              struct apod_ceilings *c, char *why, size_t len)
{
	const char *file = ceilings;
	int rc;
	if (!file || !*file)
		file = getenv("APOD_CEILINGS");
	if (file && !*file)
		file = NULL;
	rc = apod_ceilings_get(c, file, APOD_CEILINGS_MEASURE);
	if (rc != 0) {
		snprintf(why, len, "%s", rc < 0 ? apod_failure() : "this machine's ceilings are not measured");
		/* A file the user named that cannot be read is their mistake to hear of. */
		return file && rc < 0 ? -2 : -1;
	}
	apod_sol_machine_from(c, m);
	return 0;
}
