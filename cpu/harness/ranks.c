/*
 * ranks.c: MPI for the stages of several processes (apod/ranks.h,
 * apod/ranks_mpi.h).  Compiled with MPI where the build has it; otherwise
 * (and in the profiling build) the same functions say "built without MPI".
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "apod/ranks.h"
#include "fail.h"

#if defined(HAVE_MPI) && !defined(APOD_NO_MPI_STAGES)
#define RANKS_MPI 1
#include "apod/ranks_mpi.h"
#endif

/* What a launcher puts in the environment of each process it starts, with
 * the count of them: Open MPI, MPICH's and Intel MPI's PMI, MVAPICH. */
static const char *const size_vars[] = {
	"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE", "PMIX_SIZE",
};
/* Or only this process's rank (PMIx, as Slurm's srun --mpi=pmix gives it). */
static const char *const rank_vars[] = { "PMIX_RANK", "PMI_RANK", "OMPI_COMM_WORLD_RANK" };

int apod_ranks_launched(void)
{
	for (size_t i = 0; i < sizeof size_vars / sizeof size_vars[0]; i++) {
		const char *v = getenv(size_vars[i]);
		char *end;
		long n;
		if (!v || !*v)
			continue;
		n = strtol(v, &end, 10);
		if (!*end && n >= 1 && n <= INT_MAX)
			return (int)n;
	}
	for (size_t i = 0; i < sizeof rank_vars / sizeof rank_vars[0]; i++)
		if (getenv(rank_vars[i]))
			return -1;
	return 0;
}

void apod_ranks_block(size_t n, int r, int size, size_t *lo, size_t *hi)
{
	/* n * r overflows only past 2^64 / INT_MAX items: split the quotient
	 * and the remainder instead. */
	size_t q = size > 0 ? n / (size_t)size : n, rem = size > 0 ? n % (size_t)size : 0;
	size_t a = (size_t)r, b = (size_t)r + 1;
	*lo = a * q + a * rem / (size_t)(size > 0 ? size : 1);
	*hi = b * q + b * rem / (size_t)(size > 0 ? size : 1);
}

int apod_ranks_stage_agree(const struct apod_stage *s, int failed)
{
	(void)s;
	return apod_ranks_agree(failed);
}

#ifndef RANKS_MPI

static int without(void)
{
	return apod_fail("ranks: this program's apod library was built without MPI: a stage of "
	                 "several processes cannot run (rebuild apod where MPI is installed, "
	                 "e.g. libopenmpi-dev)");
}

int apod_ranks_built(void) { return 0; }
int apod_ranks_start(void) { return without(); }
int apod_ranks_started(void) { return 0; }
int apod_ranks_rank(void) { return 0; }
int apod_ranks_size(void) { return 1; }
int apod_ranks_local_rank(void) { return 0; }
int apod_ranks_local_size(void) { return 1; }
int apod_ranks_agree(int failed) { return failed ? -1 : 0; }

int apod_ranks_same_params(const struct apod_workload *w, const void *params)
{
	(void)w;
	(void)params;
	return without();
}

int apod_ranks_same_args(int argc, char *const *argv)
{
	(void)argc;
	(void)argv;
	return without();
}

int apod_ranks_available(const struct apod_stage *s, char *why, size_t len)
{
	(void)s;
	snprintf(why, len, "built without MPI (apod's library has no MPI)");
	return 0;
}

int apod_ranks_reporter(const struct apod_stage *s)
{
	(void)s;
	return without();
}

#else

static MPI_Comm comm = MPI_COMM_NULL;
static int rank, size = 1, local_rank, local_size = 1;

int apod_ranks_built(void) { return 1; }
int apod_ranks_started(void) { return comm != MPI_COMM_NULL; }
int apod_ranks_rank(void) { return rank; }
int apod_ranks_size(void) { return size; }
int apod_ranks_local_rank(void) { return local_rank; }
int apod_ranks_local_size(void) { return local_size; }
MPI_Comm apod_ranks_comm(void) { return comm; }

int apod_ranks_available(const struct apod_stage *s, char *why, size_t len)
{
	(void)s;
	(void)why;
	(void)len;
	return 1;
}

void apod_ranks_die(const char *call, int rc, const char *file, int line)
{
	char why[MPI_MAX_ERROR_STRING] = "";
	int len = 0;
	MPI_Error_string(rc, why, &len);
	fprintf(stderr, "%s: mpi rank %d: %s failed: %s (%s:%d); aborting every rank\n",
	        program_invocation_short_name, rank, call, why, file, line);
	fflush(stderr);
	MPI_Abort(MPI_COMM_WORLD, APOD_EXIT_FAIL);
	exit(APOD_EXIT_FAIL);   /* MPI_Abort does not return; if it did, still stop */
}

/* Finalised at exit only if this process started MPI, and after every rank
 * agreed how the run ended, so that no rank waits here for one that left.
 * Unchecked: at exit there is nothing left to do about a failure. */
static void end(void)
{
	int done = 0;
	if (comm != MPI_COMM_NULL)
		MPI_Comm_free(&comm);
	MPI_Finalized(&done);
	if (!done)
		MPI_Finalize();
}

int apod_ranks_start(void)
{
	int inited = 0, provided = 0, rc;
	if (apod_ranks_started())
		return 0;
	if (MPI_Initialized(&inited) != MPI_SUCCESS)
		return apod_fail("mpi: MPI_Initialized failed");
	if (!inited) {
		if ((rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided)) != MPI_SUCCESS)
			return apod_fail("mpi: MPI_Init_thread failed (error %d): MPI cannot start here "
			                 "(run under mpirun, or check the MPI installation)", rc);
		atexit(end);
	} else if (MPI_Query_thread(&provided) != MPI_SUCCESS) {
		return apod_fail("mpi: MPI_Query_thread failed");
	}
	/* Every rank decides this alike (same library, same request). */
	if (provided < MPI_THREAD_FUNNELED)
		return apod_fail("mpi: this MPI gives thread level %d, below MPI_THREAD_FUNNELED, "
		                 "which OpenMP threads beside MPI need", provided);
	APOD_MPI_TRY(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
	APOD_MPI_TRY(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
	APOD_MPI_TRY(MPI_Comm_rank(comm, &rank));
	APOD_MPI_TRY(MPI_Comm_size(comm, &size));
	/* The ranks that share this host (its memory, hence its GPUs). */
	{
		MPI_Comm host;
		APOD_MPI_TRY(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL,
		                                 &host));
		APOD_MPI_TRY(MPI_Comm_rank(host, &local_rank));
		APOD_MPI_TRY(MPI_Comm_size(host, &local_size));
		APOD_MPI_TRY(MPI_Comm_free(&host));
	}
	return 0;
}

int apod_ranks_reporter(const struct apod_stage *s)
{
	(void)s;
	if (apod_ranks_start())
		return -1;
	return rank == 0;
}

int apod_ranks_agree(int failed)
{
	struct {
		int status;
		char why[1020];
	} msg;
	int lowest = failed ? rank : size;

	if (!apod_ranks_started())
		return failed ? -1 : 0;
	APOD_MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_INT, MPI_MIN, comm));
	if (lowest == size)
		return 0;
	memset(&msg, 0, sizeof msg);
	if (rank == lowest) {
		msg.status = apod_failure_status();
		snprintf(msg.why, sizeof msg.why, "%s", apod_failure());
	}
	APOD_MPI_TRY(MPI_Bcast(&msg, (int)sizeof msg, MPI_BYTE, lowest, comm));
	if (rank != lowest || lowest != 0) {
		/* Rank 0 reports: it names the rank the failure came from. */
		char why[sizeof msg.why + 32];
		if (lowest)
			snprintf(why, sizeof why, "rank %d of %d: %s", lowest, size, msg.why);
		else
			snprintf(why, sizeof why, "%s", msg.why);
		if (msg.status == APOD_EXIT_USAGE)
			apod_usage_fail("%s", why);
		else
			apod_fail("%s", why);
	}
	return -1;
}

/* Rank 0's text (mylen bytes, its own `mine` there) on every rank, in
 * *ref (malloc'd on the others), *reflen bytes and a NUL; 0, or -1 on every
 * rank with the failure recorded. */
static int bcast_text(const char *mine, size_t mylen, char **ref, size_t *reflen, const char *what)
{
	unsigned long long len = mylen;
	int failed;
	APOD_MPI_TRY(MPI_Bcast(&len, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
	*ref = rank == 0 ? (char *)mine : (len < INT_MAX ? malloc((size_t)len + 1) : NULL);
	failed = !*ref || len >= INT_MAX;
	APOD_MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, comm));
	if (failed) {
		if (*ref != mine)
			free(*ref);
		*ref = NULL;
		return apod_fail("mpi: out of memory comparing the %s across ranks", what);
	}
	APOD_MPI_TRY(MPI_Bcast(*ref, (int)len, MPI_CHAR, 0, comm));
	(*ref)[len] = '\0';
	*reflen = (size_t)len;
	return 0;
}

/* The lowest rank for which `differs`, or size: every rank learns it, and
 * that rank's `note` (noted bytes) replaces every rank's. */
static int lowest_differing(int differs, char *note, int noted)
{
	int first = differs ? rank : size;
	APOD_MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm));
	if (first < size)
		APOD_MPI_TRY(MPI_Bcast(note, noted, MPI_CHAR, first, comm));
	return first;
}

/* The first line of a that b does not have the same, or NULL where a and b
 * are the same text; *len: that line's length. */
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

int apod_ranks_same_params(const struct apod_workload *w, const void *params)
{
	/* The canonical deck (every key, defaults and options applied). */
	char *mine = apod_params_deck_text(w, params), *ref = NULL, theirs[256] = "", ours[256] = "";
	int failed = !mine, first;
	size_t n = 0;

	if (apod_ranks_start()) {
		free(mine);
		return -1;
	}
	/* Every rank calls the same collectives whatever went wrong. */
	APOD_MPI_TRY(MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, comm));
	if (failed) {
		free(mine);
		return apod_fail("mpi: cannot format the deck to compare it across ranks");
	}
	if (bcast_text(mine, strlen(mine), &ref, &n, "deck")) {
		free(mine);
		return -1;
	}
	{
		const char *at = first_difference(mine, ref, &n);
		if (at)
			apod_escape(theirs, sizeof theirs, at, n);
		first = lowest_differing(at != NULL, theirs, (int)sizeof theirs);
	}
	if (first < size) {
		/* Rank 0's line of the key rank `first` parts at, if it has one. */
		size_t keylen = strcspn(theirs, " ");
		const char *at = ref;
		while (keylen && *at && !(strncmp(at, theirs, keylen) == 0 && at[keylen] == ' ')) {
			at += strcspn(at, "\n");
			at += *at == '\n';
		}
		if (keylen && *at)
			apod_escape(ours, sizeof ours, at, strcspn(at, "\n"));
	}
	if (ref != mine)
		free(ref);
	free(mine);
	if (first == size)
		return 0;
	return apod_usage_fail("mpi: ranks were given different decks: rank %d's differs from rank "
	                       "0's (rank %d: %s; rank 0: %s); give every rank the same deck and "
	                       "options", first, first, theirs[0] ? theirs : "no more keys",
	                       ours[0] ? ours : "no such line");
}

/* The argument of args (len bytes, each ended by a NUL) numbered i (from
 * 1, as in argv), or NULL past the last. */
static const char *arg_number(const char *args, size_t len, int i)
{
	const char *p = args, *end = args + len;
	while (p < end && --i > 0)
		p += strlen(p) + 1;
	return p < end ? p : NULL;
}

#define SAME "start every rank with the same command line (the stage, the deck and every option)"

int apod_ranks_same_args(int argc, char *const *argv)
{
	/* argv[1..], each argument ended by a NUL: one message. */
	size_t len = 0, rlen = 0;
	char *mine, *ref = NULL, *at, note[320] = "", ours[256] = "", *rest = note;
	const char *a, *b;
	int i = 1, first, oom;

	if (apod_ranks_start())
		return -1;
	for (int k = 1; k < argc; k++)
		len += strlen(argv[k]) + 1;
	if ((oom = !(mine = malloc(len + 1))) != 0)
		apod_fail("mpi: out of memory comparing the command lines");
	/* Every rank reaches the broadcasts below, or none does. */
	if (apod_ranks_agree(oom)) {
		free(mine);
		return -1;
	}
	at = mine;
	for (int k = 1; k < argc; k++) {
		size_t n = strlen(argv[k]) + 1;
		memcpy(at, argv[k], n);
		at += n;
	}
	if (bcast_text(mine, len, &ref, &rlen, "command line")) {
		free(mine);
		return -1;
	}
	/* The first argument that differs from rank 0's, or that one of the
	 * two lacks; its number and this rank's text go to every rank. */
	while ((a = arg_number(mine, len, i)) != NULL && (b = arg_number(ref, rlen, i)) != NULL &&
	       !strcmp(a, b))
		i++;
	a = arg_number(mine, len, i);
	b = arg_number(ref, rlen, i);
	if (a || b) {
		int n = snprintf(note, sizeof note, "%d %c", i, a ? '\'' : '-');
		if (a && n > 0 && (size_t)n < sizeof note - 1)
			apod_escape(note + n, sizeof note - (size_t)n - 1, a, strlen(a));
		if (a)
			strcat(note, "'");
	}
	first = lowest_differing(a || b, note, (int)sizeof note);
	if (first < size) {
		i = (int)strtol(note, &rest, 10);
		rest += *rest == ' ';
		if ((b = arg_number(ref, rlen, i)) != NULL) {
			ours[0] = '\'';
			apod_escape(ours + 1, sizeof ours - 2, b, strlen(b));
			strcat(ours, "'");
		}
	}
	if (ref != mine)
		free(ref);
	free(mine);
	if (first == size)
		return 0;
	if (*rest == '-')
		return apod_usage_fail("the ranks were given different command lines: rank %d has no "
		                       "argument %d, rank 0's is %s; %s", first, i, ours, SAME);
	if (!ours[0])
		return apod_usage_fail("the ranks were given different command lines: rank %d's "
		                       "argument %d is %s, rank 0 has no argument %d; %s", first, i,
		                       rest, i, SAME);
	return apod_usage_fail("the ranks were given different command lines: rank %d's argument %d "
	                       "is %s, rank 0's is %s; %s", first, i, rest, ours, SAME);
}

#endif
