/*
 * built.h: which of this tree's stages a build holds, said in one place.
 *
 * A stage is described once, in C, whatever the build (apod/workload.h);
 * only its operations live in the file that needs CUDA, MPI or NCCL.  The
 * description points at them through these, which give NULL where the
 * build left that file out, and the harness then lists the stage as not in
 * this build, with what it needs:
 *
 *     .needs = "CUDA", .ops = APOD_IF_CUDA(heat_gpu1_ops),
 *
 * The profiling build (APOD_NO_GPU_STAGES, APOD_NO_MPI_STAGES) leaves the
 * GPU and MPI stages out as a build without them would.
 */
#ifndef APOD_BUILT_H
#define APOD_BUILT_H

#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#define APOD_BUILT_CUDA 1
#define APOD_IF_CUDA(ops) (&(ops))
#else
#define APOD_IF_CUDA(ops) NULL
#endif

#if defined(HAVE_MPI) && !defined(APOD_NO_MPI_STAGES)
#define APOD_BUILT_MPI 1
#define APOD_IF_MPI(ops) (&(ops))
#else
#define APOD_IF_MPI(ops) NULL
#endif

/* CUDA, MPI and NCCL together: a stage across GPUs (heat's mgpu). */
#if defined(APOD_BUILT_CUDA) && defined(APOD_BUILT_MPI) && defined(HAVE_NCCL)
#define APOD_BUILT_NCCL 1
#define APOD_IF_NCCL(ops) (&(ops))
#else
#define APOD_IF_NCCL(ops) NULL
#endif

#endif
