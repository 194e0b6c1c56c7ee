/*
 * stage_omp.c: the omp stage's step, the program's loops with their outer
 * cell loop shared among the host's cores (timestep.h).  Each iteration
 * computes its cells as serial does, so the stage gives serial's bits.
 */
#define MW_FOR _Pragma("omp parallel for schedule(static)")
#define MW_ADVANCE mw_omp_advance
#include "timestep.h"
