/*
 * mgpu.cuh: what every stage across GPUs (heat's and n-body's mgpu) does
 * alike, written once: NCCL's calls checked, the one GPU of this host a
 * rank drives, the ranks linked by an NCCL communicator, and the rule that
 * once they are linked a failure on one rank ends them all.  For a .cu
 * compiled with MPI's and NCCL's headers, after the ranks have started
 * (apod_ranks_start, apod/ranks.h).
 */
#ifndef APOD_GPU_MGPU_CUH
#define APOD_GPU_MGPU_CUH

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nccl.h>

#include "apod/cuda.h"
#include "apod/ranks_mpi.h"

/* Record "CALL failed at FILE:LINE: ncclError: description"; returns -1. */
static inline int apod_nccl_fail(ncclResult_t r, const char *call, const char *file, int line)
{
	return apod_fail("%s failed at %s:%d: %s", call, file, line, ncclGetErrorString(r));
}

#define NCCL_TRY(call)                                                          \
	do {                                                                    \
		ncclResult_t apod_nr_ = (call);                                 \
		if (apod_nr_ != ncclSuccess)                                    \
			return apod_nccl_fail(apod_nr_, #call, __FILE__, __LINE__); \
	} while (0)

/* After the communicator is up: a failure on one rank cannot be agreed on
 * (a peer may wait on a transfer that never comes), so it ends them all. */
static inline int apod_mgpu_must(const char *who, int rc)
{
	if (rc) {
		fprintf(stderr, "apod: %s rank %d: %s; aborting every rank\n", who, apod_ranks_rank(),
		        apod_failure());
		fflush(stderr);
		MPI_Abort(MPI_COMM_WORLD, APOD_EXIT_FAIL);
		exit(APOD_EXIT_FAIL);
	}
	return 0;
}

/* APOD_MGPU_SHARE_GPU=1: more ranks than this host's GPUs, round robin,
 * for testing the path across ranks (halos, reductions, gathers) on a
 * host with one GPU.  NCCL refuses two ranks of a communicator on one GPU
 * of one host; a host hash of its own for each rank (NCCL_HOSTID) makes
 * every rank a host to NCCL, linked by its socket transport.  Correct, and
 * slow: a figure from it times sockets and a shared GPU, not the stage. */
static inline int apod_mgpu_share(int ndev)
{
	const char *v = getenv("APOD_MGPU_SHARE_GPU");
	char host[256], id[320];
	if (v && *v && strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
		return apod_usage_fail("mgpu: APOD_MGPU_SHARE_GPU is '%s': set it to 1 (ranks may share a GPU, "
		                       "for tests) or 0", v);
	if (!v || strcmp(v, "1") != 0 || apod_ranks_local_size() <= ndev)
		return 0;
	if (gethostname(host, sizeof host) != 0)
		snprintf(host, sizeof host, "host");
	host[sizeof host - 1] = '\0';
	snprintf(id, sizeof id, "%s/apod-rank-%d", host, apod_ranks_rank());
	if (setenv("NCCL_HOSTID", id, 1) != 0)
		return apod_fail("mgpu: cannot set NCCL_HOSTID for APOD_MGPU_SHARE_GPU");
	if (apod_ranks_rank() == 0)
		fprintf(stderr, "apod: mgpu: APOD_MGPU_SHARE_GPU=1: %d ranks on %d GPU%s of this host, linked "
		        "by NCCL's sockets as if each were a host: for testing, its times are not the stage's\n",
		        apod_ranks_local_size(), ndev, ndev == 1 ? "" : "s");
	return 1;
}

/* The GPU this rank drives, made current.  Under mpirun, one rank per
 * visible GPU of each host: fewer would leave GPUs idle unnoticed, more
 * would put two ranks on one (NCCL refuses; apod_mgpu_share above is the
 * exception, for tests).  The host's ranks take its GPUs in their order
 * there, so any launcher's numbering across hosts works (on one host, rank
 * r drives GPU r).  A single rank (plain `apod run`, or the table, which
 * runs each stage in one process) takes GPU 0 whatever the count. */
static inline int apod_mgpu_device(int *device)
{
	int ndev = 0, shared;
	APOD_CUDA_TRY(cudaGetDeviceCount(&ndev));
	if ((shared = apod_mgpu_share(ndev)) < 0)
		return -1;
	if (apod_ranks_local_size() > 1 && ndev != apod_ranks_local_size() && !shared)
		return apod_usage_fail("mgpu: %d ranks but %d visible GPU%s on this host: run one "
		                       "rank per GPU of each host (mpirun -np %d on one host), or set "
		                       "CUDA_VISIBLE_DEVICES (to test more ranks than GPUs, at no "
		                       "speed: APOD_MGPU_SHARE_GPU=1)", apod_ranks_local_size(), ndev,
		                       ndev == 1 ? "" : "s", ndev);
	*device = ndev > 0 ? apod_ranks_local_rank() % ndev : 0;
	APOD_CUDA_TRY(cudaSetDevice(*device));
	return 0;
}

/* Every rank linked into *comm: rank 0's unique id broadcast over MPI;
 * *linked set to 1 once *comm is there to destroy.  NVLink SHARP
 * (multicast) is off unless the user asked for it: the GPU hosts this
 * runs on do not allow it (doc/multigpu.md). */
static inline int apod_mgpu_link(ncclComm_t *comm, int *linked)
{
	ncclUniqueId id;
	setenv("NCCL_NVLS_ENABLE", "0", 0);
	memset(&id, 0, sizeof id);
	if (apod_ranks_rank() == 0)
		NCCL_TRY(ncclGetUniqueId(&id));
	APOD_MPI_TRY(MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, apod_ranks_comm()));
	NCCL_TRY(ncclCommInitRank(comm, apod_ranks_size(), id, apod_ranks_rank()));
	*linked = 1;
	return 0;
}

/* The communicator apod_mgpu_link made, where it made one.  Teardown:
 * nothing useful to do with a failure but go on freeing. */
static inline void apod_mgpu_unlink(ncclComm_t comm, int linked)
{
	if (linked)
		(void)ncclCommDestroy(comm);
}

/* A stage's create across ranks, after its collective open: its state
 * (G, with p, comm and have_comm) calloc'ed with p, then setup(g), what a
 * rank can do alone.  Every rank then says whether its own part failed;
 * where any did, each destroys what it holds and all return NULL, the
 * first failure recorded.  Otherwise every rank joins ncclCommInitRank
 * (none waits in it for a rank that gave up) and runs start(g), its first
 * collective work: past the join a failure ends every rank. */
template <class G, class P>
static G *apod_mgpu_create(const char *who, const P *p, int (*setup)(G *), int (*start)(G *),
                           void (*destroy)(void *))
{
	G *g = (G *)calloc(1, sizeof *g);
	int failed = 0;
	if (!g) {
		apod_fail("%s: out of memory", who);
		failed = 1;
	} else {
		g->p = p;
		failed = setup(g) != 0;
	}
	if (apod_ranks_agree(failed)) {
		destroy(g);
		return NULL;
	}
	apod_mgpu_must(who, apod_mgpu_link(&g->comm, &g->have_comm));
	apod_mgpu_must(who, start(g));
	return g;
}

#endif
