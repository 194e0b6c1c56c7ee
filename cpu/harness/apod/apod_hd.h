/*
 * apod_hd.h: in the source tree, <apod/apod_hd.h> as an install names it
 * (make install puts shared/apod_hd.h there), so that a workload made from
 * `apod new`'s template builds in the tree as it is (cpu/workloads.def).
 * Not installed: the install's apod/apod_hd.h is shared/apod_hd.h itself.
 */
#include "shared/apod_hd.h"
