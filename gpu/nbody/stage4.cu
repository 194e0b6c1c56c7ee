/*
 * stage4.cu: gpu4: tuned (forces_split, forces.cuh): float4 tiles of
 * compile-time size, several bodies a thread with each block's tile split
 * over slices of its threads (nbody_resident.h says why), the pieces of
 * the tile unrolled fully, the reciprocal square root of the hardware
 * (nbody_rsqrt), unit-mass pulls times the common mass where all masses
 * are equal, the last kick fused in.  Never bit for bit (the rsqrt is
 * 2 ulp, the sum is in slices): held to the designed tolerances alone.
 */
#include "gpu/device.h"
#include "nbody_resident.h"

NBODY_RESIDENT_STAGE(gpu4, NBODY_TUNED, NBODY_GPU4_ABOUT);
