/*
 * stage_serial.c: the serial stage's step, the program's own loops on one
 * core (timestep.h with no work-sharing).
 */
#define MW_PARALLEL
#define MW_FOR
#define MW_ADVANCE mw_serial_advance
#include "timestep.h"
