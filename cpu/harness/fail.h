/*
 * fail.h: one place to record why something failed (declared in the
 * public apod/apod.h, with the exit statuses).
 */
#ifndef APOD_FAIL_H
#define APOD_FAIL_H

#include <stddef.h>

#include "apod/apod.h"

/* The n bytes of s into buf (len bytes, NUL-ended); where they do not fit,
 * the head and the tail with the middle replaced by "[... N bytes ...]". */
void apod_elide(char *buf, size_t len, const char *s, size_t n);

/* The n bytes of s into buf (len bytes, NUL-ended), each byte that is not
 * printable ASCII (and the backslash) as \xHH (\\): what a file or a deck
 * holds, quoted in a message, shows what is there, invisible bytes too.
 * Cut at a whole escape where buf is full. */
void apod_escape(char *buf, size_t len, const char *s, size_t n);

#endif
