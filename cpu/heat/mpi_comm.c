/*
 * mpi_comm.c: MPI started once for heat's multi-process stages, and the
 * agreement on failure (mpi_comm.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "mpi_comm.h"

MPI_Comm heat_mpi_comm = MPI_COMM_NULL;
int heat_mpi_rank, heat_mpi_size = 1;

void heat_mpi_die(const char *call, int rc, const char *file, int line)
{
	char why[MPI_MAX_ERROR_STRING] = "";
	int len = 0;
	MPI_Error_string(rc, why, &len);
	fprintf(stderr, "apod: mpi rank %d: %s failed: %s (%s:%d); aborting every rank\n",
	        heat_mpi_rank, call, why, file, line);
	fflush(stderr);
	MPI_Abort(MPI_COMM_WORLD, APOD_EXIT_FAIL);
	exit(APOD_EXIT_FAIL);   /* MPI_Abort does not return; if it did, still stop */
}

/* Finalised at exit only if this process started MPI, and after every rank
 * agreed how the run ended, so that no rank waits here for one that left.
 * Unchecked: at exit there is nothing left to do about a failure. */
static void heat_mpi_end(void)
{
	int done = 0;
	if (heat_mpi_comm != MPI_COMM_NULL)
		MPI_Comm_free(&heat_mpi_comm);
	MPI_Finalized(&done);
	if (!done)
		MPI_Finalize();
}

int heat_mpi_started(void)
{
	return heat_mpi_comm != MPI_COMM_NULL;
}

int heat_mpi_start(void)
{
	int inited = 0, provided = 0, rc;
	if (heat_mpi_started())
		return 0;
	if (MPI_Initialized(&inited) != MPI_SUCCESS)
		return apod_fail("mpi: MPI_Initialized failed");
	if (!inited) {
		if ((rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided)) != MPI_SUCCESS)
			return apod_fail("mpi: MPI_Init_thread failed (error %d): MPI cannot start here "
			                 "(run under mpirun, or check the MPI installation)", rc);
		atexit(heat_mpi_end);
	} else if (MPI_Query_thread(&provided) != MPI_SUCCESS) {
		return apod_fail("mpi: MPI_Query_thread failed");
	}
	/* Every rank decides this alike (same library, same request). */
	if (provided < MPI_THREAD_FUNNELED)
		return apod_fail("mpi: this MPI gives thread level %d, below MPI_THREAD_FUNNELED, "
		                 "which OpenMP threads beside MPI need", provided);
	MPI_TRY(MPI_Comm_dup(MPI_COMM_WORLD, &heat_mpi_comm));
	MPI_TRY(MPI_Comm_set_errhandler(heat_mpi_comm, MPI_ERRORS_RETURN));
	MPI_TRY(MPI_Comm_rank(heat_mpi_comm, &heat_mpi_rank));
	MPI_TRY(MPI_Comm_size(heat_mpi_comm, &heat_mpi_size));
	return 0;
}

int heat_mpi_reporter(void)
{
	if (heat_mpi_start())
		return -1;
	return heat_mpi_rank == 0;
}

int heat_mpi_agree(int failed)
{
	struct {
		int status;
		char why[1020];
	} msg;
	int lowest = failed ? heat_mpi_rank : heat_mpi_size;

	if (!heat_mpi_started())
		return failed ? -1 : 0;
	MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_INT, MPI_MIN, heat_mpi_comm));
	if (lowest == heat_mpi_size)
		return 0;
	memset(&msg, 0, sizeof msg);
	if (heat_mpi_rank == lowest) {
		msg.status = apod_failure_status();
		snprintf(msg.why, sizeof msg.why, "%s", apod_failure());
	}
	MPI_TRY(MPI_Bcast(&msg, (int)sizeof msg, MPI_BYTE, lowest, heat_mpi_comm));
	if (heat_mpi_rank != lowest || lowest != 0) {
		/* Rank 0 prints: it names the rank the failure came from. */
		char why[sizeof msg.why + 32];
		if (lowest)
			snprintf(why, sizeof why, "rank %d of %d: %s", lowest, heat_mpi_size, msg.why);
		else
			snprintf(why, sizeof why, "%s", msg.why);
		if (msg.status == APOD_EXIT_USAGE)
			apod_usage_fail("%s", why);
		else
			apod_fail("%s", why);
	}
	return -1;
}
