/*
 * fail.h: one place to record why something failed (declared in the
 * public apod/apod.h, with the exit statuses).
 */
#ifndef APOD_FAIL_H
#define APOD_FAIL_H

#include "apod/apod.h"

#endif
