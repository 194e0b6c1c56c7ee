/*
 * apod/built.h: a stage described whatever the build, its operations only
 * where the build compiled them.
 *
 * A stage's description (struct apod_stage) is plain C and always in the
 * ladder; its operations may live in a file that needs CUDA, MPI or NCCL.
 * The description points at them through these macros, which give NULL
 * where the build left that file out; the harness then lists the stage as
 * not in this build, with its `needs`, instead of failing to link:
 *
 *     .needs = "CUDA", .ops = APOD_IF_CUDA(mywork_gpu_ops),
 *
 * Your build says what it compiled by defining, for the C files too:
 *   APOD_WITH_CUDA  it compiles and links the GPU stage's .cu (nvcc);
 *   APOD_WITH_MPI   it compiles and links an MPI stage (mpicc);
 *   APOD_WITH_NCCL  it links NCCL as well (a stage across GPUs).
 * HAVE_CUDA, HAVE_MPI and HAVE_NCCL, autoconf's usual names (apod's own
 * build), count as the same.  APOD_NO_GPU_STAGES and APOD_NO_MPI_STAGES
 * leave those stages out whatever else is defined (a profiling build).
 *
 * Whether a GPU is here, when the program runs, is another question: the
 * GPU stage's `available` answers it (apod_cuda_available, apod/cuda.h).
 */
#ifndef APOD_BUILT_H
#define APOD_BUILT_H

#include <stddef.h>

#if (defined(APOD_WITH_CUDA) || defined(HAVE_CUDA)) && !defined(APOD_NO_GPU_STAGES)
#define APOD_BUILT_CUDA 1
#define APOD_IF_CUDA(ops) (&(ops))
#else
#define APOD_IF_CUDA(ops) NULL
#endif

#if (defined(APOD_WITH_MPI) || defined(HAVE_MPI)) && !defined(APOD_NO_MPI_STAGES)
#define APOD_BUILT_MPI 1
#define APOD_IF_MPI(ops) (&(ops))
#else
#define APOD_IF_MPI(ops) NULL
#endif

/* CUDA, MPI and NCCL together: a stage across GPUs. */
#if defined(APOD_BUILT_CUDA) && defined(APOD_BUILT_MPI) && \
	(defined(APOD_WITH_NCCL) || defined(HAVE_NCCL))
#define APOD_BUILT_NCCL 1
#define APOD_IF_NCCL(ops) (&(ops))
#else
#define APOD_IF_NCCL(ops) NULL
#endif

#endif
