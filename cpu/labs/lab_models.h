/*
 * lab_models.h: the simple models the labs print beside their measurements.
 *
 * Each lab (gpu/labs/NAME.cu, `apod lab NAME`) sets a prediction taken from
 * NVIDIA's CUDA Best Practices Guide (or derived from it) beside every
 * number it measures.  The predictions are plain host arithmetic, so they
 * live here, in C, where tests/check_lab_models.c holds them against the
 * sources' worked numbers on any machine, GPU or not.  The labs (C++,
 * compiled by nvcc) call these functions; this file needs no CUDA header.
 * Nothing here prints or records a message.
 */
#ifndef APOD_LAB_MODELS_H
#define APOD_LAB_MODELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- coalescing: 32-byte sectors (compute capability 6.0 and later) -------- */

/* The sectors requested, summed over the warps, when threads k = 0..n-1
 * access 4-byte word base + k * stride (a warp being 32 consecutive k): a
 * warp's request costs one 32-byte sector for every sector its addresses
 * touch.  stride >= 1. */
uint64_t apod_model_sectors_requested(size_t n, size_t base, size_t stride);
/* The distinct sectors the whole launch touches: what DRAM must move at
 * least if the caches catch every sector two warps share. */
uint64_t apod_model_sectors_distinct(size_t n, size_t base, size_t stride);
/* Particles updated in place, `fields` of them (x += vx dt: 1; x, y, z: 3):
 * the bytes used, each 4-byte field read or written counted once (3 floats
 * per field updated), and the bytes the sector model moves.  Array of
 * structures (soa = 0): each particle of `particle_bytes` (a whole number of
 * aligned sectors) is read and written back whole.  Structure of arrays:
 * only the bytes used. */
double apod_model_layout_bytes_used(size_t n, int fields);
double apod_model_layout_bytes_fetched(size_t n, int fields, int soa, size_t particle_bytes);

/* ---- banks: shared memory, 32 banks of 4 bytes ------------------------------ */

/* The wavefronts (passes through the banks) one warp request needs when
 * lane l accesses `bytes` (4 or 8) at byte address addr[l]: the most
 * distinct 4-byte words any one bank must deliver; -1 for another size. */
int apod_model_wavefronts(const size_t addr[32], int bytes);
/* Lane l accessing word l * stride of `bytes`-byte words (stride 0: all
 * lanes on one word, a broadcast). */
int apod_model_stride_wavefronts(unsigned stride, int bytes);
/* A warp reading a 32 x (32 + pad) tile of 4-byte words by rows (lane l
 * takes element l of a row) or by columns (lane l takes row l). */
int apod_model_tile_wavefronts(int pad, int by_column);

/* ---- overlap: staged copy and execute ---------------------------------------- */

/* The guide's model, with t_E the kernel's time and t_T the copies' (H2D
 * then D2H): streams = 0 is sequential, t_E + t_T; staged over n streams,
 * t_E + t_T/n when t_E > t_T, else t_T + t_E/n.  In the units given. */
double apod_model_staged(double t_E, double t_T, int streams);
/* A three-stage pipeline (not the guide's): H2D, kernel and D2H each on an
 * engine of its own, the n chunks flowing through: the slowest stage plus
 * the other two stages' n-th parts.  streams = 0: their sum. */
double apod_model_pipeline(double h2d, double t_E, double d2h, int streams);

/* ---- divergence: distinct paths per warp ------------------------------------- */

/* Distinct paths a warp must run, averaged over the warps of threads
 * 0..n-1 (the last warp may be partial); path(i, ctx) is thread i's path,
 * below 32.  n >= 1. */
double apod_model_paths_per_warp(int n, unsigned (*path)(int i, const void *ctx), const void *ctx);
/* The divergence lab's pseudo-random words (splitmix64's output function),
 * and thread i's coin, the word its data-dependent branch tests: here so
 * that the tests can count the model on the lab's own data. */
uint32_t apod_model_divergence_mix(uint64_t z);
uint32_t apod_model_divergence_coin(int i);

/* ---- ilp: Little's law --------------------------------------------------------- */

/* Bytes in flight = latency x bandwidth.  The latency in ns that keeps
 * `bytes_in_flight` moving at `bytes_per_s`; and the bytes in flight that
 * moving `gb_per_s` (1e9 bytes/s) at `latency_ns` needs. */
double apod_model_little_latency_ns(double bytes_in_flight, double bytes_per_s);
double apod_model_little_bytes_in_flight(double gb_per_s, double latency_ns);

/* ---- instructions: error bounds in ulps ---------------------------------------- */

/* ulps between g and the correctly rounded float of the exact value that
 * the double r stands for (see lab_models.c); exact: r is that value
 * rounded once to double, and rounding it to float cannot differ from
 * rounding the exact value. */
int64_t apod_model_ulp_dist(float g, double r, int exact);
/* __expf(x): 2 + floor(|1.173 x|) ulps (CUDA C++ Programming Guide,
 * intrinsic functions). */
double apod_model_expf_fast_ulp_bound(float x);
/* __powf(x, y): derived from exp2f(y * __log2f(x)), see lab_models.c. */
double apod_model_powf_fast_ulp_bound(float x, float y);

#ifdef __cplusplus
}
#endif

#endif
