/*
 * built.h: which of this tree's stages a build holds: the installed
 * apod/built.h, whose HAVE_CUDA, HAVE_MPI and HAVE_NCCL are configure's.
 * The tree's workloads include this name, users' ports the installed one.
 */
#include "apod/built.h"
