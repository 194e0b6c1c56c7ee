/*
 * stage4.cu: gpu4: tuned (forces_tuned): float4 tiles, NBODY_TUNED_P
 * bodies a thread (one: nbody_resident.h says why), the inner loop
 * unrolled, the reciprocal square root of the hardware (nbody_rsqrt), the
 * last kick fused in, the block size from the occupancy API.  Never bit
 * for bit (the rsqrt is 2 ulp): held to the designed tolerances alone.
 */
#include "device.h"
#include "nbody_resident.h"

NBODY_RESIDENT_STAGE(gpu4, NBODY_TUNED, NBODY_GPU4_ABOUT);
