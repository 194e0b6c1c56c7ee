/*
 * mpi_comm.c: MPI started once for heat's multi-process stages, and the
 * agreement on failure (mpi_comm.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "heat.h"
#include "mpi_comm.h"
#include "problem.h"

MPI_Comm heat_mpi_comm = MPI_COMM_NULL;
int heat_mpi_rank, heat_mpi_size = 1;
int heat_mpi_local_rank, heat_mpi_local_size = 1;

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
	/* The ranks that share this host (its memory, hence its GPUs): a
	 * stage across GPUs gives each of them one of this host's devices,
	 * whatever launcher numbered the ranks across hosts. */
	{
		MPI_Comm host;
		MPI_TRY(MPI_Comm_split_type(heat_mpi_comm, MPI_COMM_TYPE_SHARED, heat_mpi_rank,
		                            MPI_INFO_NULL, &host));
		MPI_TRY(MPI_Comm_rank(host, &heat_mpi_local_rank));
		MPI_TRY(MPI_Comm_size(host, &heat_mpi_local_size));
		MPI_TRY(MPI_Comm_free(&host));
	}
	return 0;
}

int heat_mpi_reporter(const struct apod_stage *s)
{
	(void)s;
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

int heat_mpi_stage_agree(const struct apod_stage *s, int failed)
{
	(void)s;
	return heat_mpi_agree(failed);
}

/* The first line of a that b does not have the same, as "key = value", or
 * NULL where a and b are the same text. */
static const char *first_difference(const char *a, const char *b, size_t *len)
{
	while (*a && *a == *b) {
		const char *na = strchr(a, '\n');
		size_t n = na ? (size_t)(na - a) + 1 : strlen(a);
		if (strncmp(a, b, n))
			break;
		a += n;
		b += n;
	}
	if (!*a && !*b)
		return NULL;
	*len = strcspn(a, "\n");
	return a;
}

int heat_mpi_same_deck(const struct heat_deck *d)
{
	return heat_mpi_same_params("heat", heat_params, d);
}

int heat_mpi_same_params(const char *workload, const struct apod_param *table, const void *params)
{
	/* The canonical deck (every key, defaults and options applied), from
	 * the key table alone: all this needs of the workload. */
	const struct apod_workload keys = { .name = workload, .params = table };
	char *mine = apod_params_deck_text(&keys, params), *ref = NULL, theirs[256] = "", ours[256] = "";
	unsigned long long len = mine ? strlen(mine) : 0;
	int failed = !mine, first;

	/* Every rank calls the same collectives whatever went wrong. */
	MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, heat_mpi_comm));
	if (failed) {
		free(mine);
		apod_fail("mpi: cannot format the deck to compare it across ranks");
		return -1;
	}
	MPI_TRY(MPI_Bcast(&len, 1, MPI_UNSIGNED_LONG_LONG, 0, heat_mpi_comm));
	ref = heat_mpi_rank == 0 ? mine : malloc(len + 1);
	failed = !ref || len > INT_MAX;
	MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, heat_mpi_comm));
	if (failed) {
		if (ref != mine)
			free(ref);
		free(mine);
		apod_fail("mpi: out of memory comparing the deck across ranks");
		return -1;
	}
	/* A deck's text is a few kilobytes: one message. */
	MPI_TRY(MPI_Bcast(ref, (int)len, MPI_CHAR, 0, heat_mpi_comm));
	ref[len] = '\0';
	{
		size_t n = 0;
		const char *at = first_difference(mine, ref, &n);
		first = at ? heat_mpi_rank : heat_mpi_size;
		if (at)
			snprintf(theirs, sizeof theirs, "%.*s", (int)n, at);
	}
	MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, heat_mpi_comm));
	if (first < heat_mpi_size) {
		/* Rank `first` says where its deck parts from rank 0's; every rank
		 * then finds rank 0's line of the same key, if it has one. */
		size_t keylen;
		const char *at = ref;
		MPI_TRY(MPI_Bcast(theirs, (int)sizeof theirs, MPI_CHAR, first, heat_mpi_comm));
		keylen = strcspn(theirs, " ");
		while (keylen && *at && !(strncmp(at, theirs, keylen) == 0 && at[keylen] == ' ')) {
			at += strcspn(at, "\n");
			at += *at == '\n';
		}
		if (keylen && *at)
			snprintf(ours, sizeof ours, "%.*s", (int)strcspn(at, "\n"), at);
	}
	if (ref != mine)
		free(ref);
	free(mine);
	if (first == heat_mpi_size)
		return 0;
	return apod_usage_fail("mpi: ranks were given different decks: rank %d's differs from rank "
	                       "0's (rank %d: %s; rank 0: %s); give every rank the same deck and "
	                       "options", first, first, theirs[0] ? theirs : "no more keys",
	                       ours[0] ? ours : "no such line");
}

void heat_mpi_split(size_t ny, int r, int nranks, size_t *lo, size_t *hi)
{
	size_t interior = ny - 2;
	*lo = 1 + (size_t)r * interior / (size_t)nranks;
	*hi = 1 + (size_t)(r + 1) * interior / (size_t)nranks;
}

void heat_mpi_held(size_t ny, int r, int nranks, size_t *own0, size_t *own1)
{
	size_t lo, hi;
	heat_mpi_split(ny, r, nranks, &lo, &hi);
	*own0 = r == 0 ? 0 : lo;
	*own1 = r == nranks - 1 ? ny : hi;
}

int heat_mpi_open(const struct heat_problem *p, const char *stage)
{
	if (heat_mpi_start() || heat_mpi_same_deck(p->deck))
		return -1;
	/* Every rank finds this alike; agreeing still gives one message. */
	if ((size_t)heat_mpi_size > p->ny - 2) {
		apod_usage_fail("%s: %d ranks but the %zux%zu grid has %zu interior rows: at most "
		                "one rank per interior row", stage, heat_mpi_size, p->nx, p->ny,
		                p->ny - 2);
		heat_mpi_agree(1);
		return -1;
	}
	return heat_mpi_agree(0);
}

void heat_mpi_gather_plan(size_t nx, size_t ny, int *counts, int *displs, MPI_Datatype *row)
{
	for (int r = 0; r < heat_mpi_size; r++) {
		size_t a, b;
		heat_mpi_held(ny, r, heat_mpi_size, &a, &b);
		/* Row counts: ny <= HEAT_MAX_DIM, far below INT_MAX. */
		counts[r] = (int)(b - a);
		displs[r] = (int)a;
	}
	MPI_TRY(MPI_Type_contiguous((int)nx, HEAT_MPI_REAL, row));
	MPI_TRY(MPI_Type_commit(row));
}
