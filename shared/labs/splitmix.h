/*
 * splitmix.h: the labs' deterministic test data.
 *
 * splitmix64 (Steele, Lea and Flood): a 64-bit counter stepped by the golden
 * gamma and scrambled by a bijective output function.  The labs use it on
 * the host to fill inputs that are the same on every run and every machine,
 * so a failed check can be reproduced; it is not the simulation's generator.
 */
#ifndef APOD_SPLITMIX_H
#define APOD_SPLITMIX_H

#include <stdint.h>

#include "shared/apod_hd.h"

/* The output function alone: distinct inputs give distinct, scattered words. */
APOD_HD uint64_t apod_splitmix64_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The next word of the sequence whose state is *state. */
APOD_HD uint64_t apod_splitmix64(uint64_t *state)
{
	return apod_splitmix64_mix(*state += 0x9e3779b97f4a7c15ull);
}

#endif
