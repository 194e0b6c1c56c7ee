/*
 * apod/ranks_mpi.h: the communicator of a stage of ranks (apod/ranks.h),
 * for the file that sends and receives: it includes <mpi.h>, so compile it
 * with MPI's flags (pkg-config --cflags apod gives them where apod was built
 * with MPI, or use mpicc).  Only where libapod was built with MPI.
 */
#ifndef APOD_RANKS_MPI_H
#define APOD_RANKS_MPI_H

/* MPI's C interface alone, in C++ too: the C++ bindings some MPIs still
 * ship (Open MPI's, MPICH's) are deprecated and warn under -Wextra. */
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include "ranks.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The stages' own communicator: a duplicate of MPI_COMM_WORLD whose errors
 * are returned, not fatal (MPI_COMM_NULL before apod_ranks_start). */
APOD_API MPI_Comm apod_ranks_comm(void);

/* An MPI call that fails leaves the ranks in states no agreement can
 * repair (a peer may be blocked in the matching call): the failing rank
 * says which call failed and why on stderr, and MPI_Abort ends every rank
 * with a non-zero status.  The one place the library prints and exits. */
APOD_API void apod_ranks_die(const char *call, int rc, const char *file, int line);
#define APOD_MPI_TRY(call)                                                     \
	do {                                                                   \
		int apod_mpi_rc_ = (call);                                     \
		if (apod_mpi_rc_ != MPI_SUCCESS)                               \
			apod_ranks_die(#call, apod_mpi_rc_, __FILE__, __LINE__); \
	} while (0)

#ifdef __cplusplus
}
#endif

#endif
