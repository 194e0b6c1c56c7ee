/*
 * apod_hd.h: what makes a function callable from both sides.
 *
 * Every function in shared/ is written once and compiled twice: by gcc for
 * the serial and OpenMP engines, and by nvcc for the GPU stages.  Keeping
 * one copy is what lets the verification gate compare like with like: a
 * difference between stages can only come from evaluation order and
 * contraction, never from two hand-written versions drifting apart.
 */
#ifndef APOD_HD_H
#define APOD_HD_H

#ifdef __CUDACC__
#define APOD_HD __host__ __device__ __forceinline__
#else
#define APOD_HD static inline
#endif

#endif
