/*
 * upgrade.h: older workloads read through the current interface.
 */
#ifndef APOD_UPGRADE_H
#define APOD_UPGRADE_H

#include "apod/workload.h"

/* w itself where it was compiled against the current revision; else a
 * copy in the current layout, made once and kept (NULL after apod_fail on
 * running out of memory).  Call it after checking w's version. */
const struct apod_workload *apod_workload_upgrade(const struct apod_workload *w);
/* Free u, the upgrade of w, if it is a copy. */
void apod_workload_upgrade_free(const struct apod_workload *u, const struct apod_workload *w);

#endif
