/*
 * rng.h: counter-based random numbers that are the same bits on the host
 * and on the device.
 *
 * A counter-based generator (Philox4x32-10, from Random123: Salmon, Moraes,
 * Dror and Shaw, SC'11) is a pure function of a key and a counter: there is
 * no state to carry, split or copy.  So any stage can draw "the numbers of
 * path p at step s" in any order, on any thread, and get what the serial
 * reference drew.  That is what lets the verification gate of a random
 * workload be tight instead of statistical.
 *
 * The mapping used by every workload of apod:
 *
 *     key     = the seed (64 bits)
 *     counter = (index low 32, index high 32, sub, stream)
 *
 * `stream` separates uses within one workload (initial positions and
 * velocities, say), `index` numbers the item (a body, a path) and `sub`
 * the draw within it (a time step, a component).  Every call returns four
 * independent 32-bit words.
 *
 * The conversions to floating point below use only integer arithmetic and
 * one multiplication by a power of two, so they are exact and identical on
 * both sides (no libm, no contraction can change them).
 */
#ifndef APOD_RNG_H
#define APOD_RNG_H

#include <stdint.h>

#include <Random123/philox.h>

#include "apod_hd.h"

/* Four words for (seed, stream, index, sub). */
APOD_HD philox4x32_ctr_t apod_rng4(uint64_t seed, uint32_t stream, uint64_t index, uint32_t sub)
{
	philox4x32_key_t key = { { (uint32_t)seed, (uint32_t)(seed >> 32) } };
	philox4x32_ctr_t ctr = { { (uint32_t)index, (uint32_t)(index >> 32), sub, stream } };
	return philox4x32(ctr, key);
}

/* A float in (0, 1]: 24 random bits, on a grid of 2^-24.  Never 0, so its
 * logarithm is finite. */
APOD_HD float apod_u01f(uint32_t w)
{
	return (float)((w >> 8) + 1u) * (1.0f / 16777216.0f);
}

/* A float in [-1, 1): 24 random bits, on a grid of 2^-23. */
APOD_HD float apod_s11f(uint32_t w)
{
	return (float)(int32_t)(w >> 8) * (1.0f / 8388608.0f) - 1.0f;
}

/* A double in (0, 1]: 53 random bits from two words, on a grid of 2^-53. */
APOD_HD double apod_u01d(uint32_t hi, uint32_t lo)
{
	uint64_t bits = (((uint64_t)hi << 32) | lo) >> 11;
	return (double)(bits + 1u) * (1.0 / 9007199254740992.0);
}

#endif
