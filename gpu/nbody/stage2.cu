/*
 * stage2.cu: gpu2: the state resident on the device, one thread a body
 * reading every body j from global memory (forces_simple); the statistics
 * and the energy reduced there.  Bit for bit with serial under --disable-
 * fmad (the same interaction, j in order).
 */
#include "gpu/device.h"
#include "nbody_resident.h"

NBODY_RESIDENT_STAGE(gpu2, NBODY_SIMPLE, NBODY_GPU2_ABOUT);
