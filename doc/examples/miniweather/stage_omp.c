/*
 * stage_omp.c: the omp stage's step, the program's loops with their outer
 * cell loops shared among the host's cores, one parallel region for each
 * of the program's functions (timestep.h).  Each iteration computes its
 * cells as serial does, so the stage gives serial's bits.
 */
#define MW_PARALLEL _Pragma("omp parallel")
#define MW_FOR _Pragma("omp for schedule(static)")
#define MW_ADVANCE mw_omp_advance
#include "timestep.h"
