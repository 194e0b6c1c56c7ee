/*
 * stage3.cu: gpu3: gpu2 with the classic tiled force kernel
 * (forces_tiled): each block stages a tile of bodies in shared memory and
 * every thread reads them from there.  Still j in order, one accumulator:
 * bit for bit with serial under --disable-fmad.
 */
#include "gpu/device.h"
#include "nbody_resident.h"

NBODY_RESIDENT_STAGE(gpu3, NBODY_TILED, NBODY_GPU3_ABOUT);
