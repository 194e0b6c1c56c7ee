/*
 * apod/stock.h: the name apod/ready_made.h was installed under before;
 * kept so that a workload that includes it still builds as it is.
 */
#ifndef APOD_STOCK_H
#define APOD_STOCK_H

#include "ready_made.h"

#endif
