/*
 * heat_workload.h: the heat workload as the harness sees it.
 */
#ifndef APOD_HEAT_WORKLOAD_H
#define APOD_HEAT_WORKLOAD_H

#include "apod/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Heat's series, in the order its workload declares them. */
enum { HEAT_SERIES_STATS, HEAT_SERIES_HIST, HEAT_SERIES_ZONES };

extern const struct apod_workload heat_workload;
extern const struct apod_stage *const heat_stages[];

#ifdef __cplusplus
}
#endif

#endif
