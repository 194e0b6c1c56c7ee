/*
 * apod/stock.h: apod/ready_made.h under the name that ports written
 * against revisions 4 and 5 include, so that they build as they are.
 */
#ifndef APOD_STOCK_H
#define APOD_STOCK_H

#include "ready_made.h"

#endif
