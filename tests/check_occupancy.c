/*
 * The occupancy calculator against the sources' worked examples, and each
 * limit binding in turn.  Every expected number is either the source's
 * (cited) or derived by hand in the comment beside it.
 */
#include <check.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/labs/occupancy.h"
#include "check_run.h"

/* NVIDIA's own occupancy model, a header-only C file in the CUDA toolkit:
 * used when the include path has it (the CUDA include directory). */
#if defined(__has_include)
#if __has_include(<cuda_occupancy.h>)
#include <cuda_occupancy.h>
#define HAVE_CUDA_OCCUPANCY_H 1
#endif
#endif

#define KiB 1024

static const struct apod_occ_sm *cc(int major, int minor)
{
	const struct apod_occ_sm *sm = apod_occ_known(major, minor);
	ck_assert_ptr_nonnull(sm);
	return sm;
}

static struct apod_occ_result occ(const struct apod_occ_sm *sm, int threads, int regs, size_t smem)
{
	struct apod_occ_result r;
	ck_assert_int_eq(apod_occupancy_of(sm, threads, regs, smem, &r), 0);
	return r;
}

/* The same through apod_occupancy, for a launch with the kernel's own caps
 * or a carveout preference. */
static struct apod_occ_result occ_launch(const struct apod_occ_sm *sm, const struct apod_occ_launch *l)
{
	struct apod_occ_result r;
	ck_assert_int_eq(apod_occupancy(sm, l, &r), 0);
	return r;
}

/* A result's headline: the blocks that fit an SM and the occupancy they
 * make; _by adds the limits that bound them (APOD_OCC_LIMIT_*).  Macros,
 * so that a failure names the test's own line. */
#define ck_assert_fit(r, nblocks, occupancy_) \
	do { \
		ck_assert_int_eq((r).blocks, (nblocks)); \
		ck_assert_double_eq_tol((r).occupancy, (occupancy_), 1e-12); \
	} while (0)
#define ck_assert_fit_by(r, nblocks, occupancy_, limits) \
	do { \
		ck_assert_fit(r, nblocks, occupancy_); \
		ck_assert_uint_eq((r).limiters, (limits)); \
	} while (0)
/* The blocks and what bounds them, where the occupancy is beside the point
 * (none fit, or the test is about the limit). */
#define ck_assert_blocks_by(r, nblocks, limits) \
	do { \
		ck_assert_int_eq((r).blocks, (nblocks)); \
		ck_assert_uint_eq((r).limiters, (limits)); \
	} while (0)

/* --- The guide (seed-000 §10.1.1, digest §2.6): CC 7.0, 37 registers. --- */

START_TEST(guide_cc70_37_registers_128_threads)
{
	/* The guide: 75%, 12 active blocks.  37 x 32 = 1184 registers per warp,
	 * rounded up to 1280 (4 x 1280 = 5120 per block); each of the 4
	 * partitions (16384 registers) holds floor(16384 / 1280) = 12 warps, 48
	 * in all; 48 / 4 warps per block = 12.  The warps alone would allow
	 * 64 / 4 = 16. */
	struct apod_occ_result r = occ(cc(7, 0), 128, 37, 0);
	ck_assert_int_eq(r.regs_per_warp, 1280);
	ck_assert_int_eq(r.regs_per_block, 5120);
	ck_assert_int_eq(r.by_regs, 12);
	ck_assert_int_eq(r.by_warps, 16);
	ck_assert_fit_by(r, 12, 0.75, APOD_OCC_LIMIT_REGS);
	ck_assert_int_eq(r.warps, 48);
}
END_TEST

START_TEST(guide_cc70_37_registers_320_threads)
{
	/* The guide: 63%, only four blocks.  10 warps per block; 48 warps fit by
	 * registers, floor(48 / 10) = 4 blocks = 40 warps = 62.5%.  Treating the
	 * register file as one pool would give floor(65536 / 12800) = 5 blocks,
	 * 78%, which is not the guide's answer: the partitions matter. */
	struct apod_occ_result r = occ(cc(7, 0), 320, 37, 0);
	ck_assert_fit_by(r, 4, 0.625, APOD_OCC_LIMIT_REGS);
	ck_assert_int_eq(r.warps, 40);
}
END_TEST

START_TEST(guide_cc70_32_registers_is_full)
{
	/* The guide: 65536 registers / 2048 threads = 32 registers per thread
	 * at 100%.  At 128 threads: 32 x 32 = 1024 per warp, 16 warps per
	 * partition, 64 warps = 16 blocks, as many as the warps allow (64 / 4):
	 * a tie.  One more register costs a whole allocation unit: 33 x 32 =
	 * 1056, rounded to 1280, is as costly as 37 (75% at 128 threads).  At
	 * 1024 threads (32 warps) the same 64 warps make 2 blocks. */
	struct apod_occ_result r = occ(cc(7, 0), 128, 32, 0);
	ck_assert_fit_by(r, 16, 1.0, APOD_OCC_LIMIT_WARPS | APOD_OCC_LIMIT_REGS);
	r = occ(cc(7, 0), 128, 33, 0);
	ck_assert_fit(r, 12, 0.75);
	r = occ(cc(7, 0), 1024, 32, 0);
	ck_assert_fit(r, 2, 1.0);
}
END_TEST

/* --- Guide 2.3 (seed-001-004 A.4 §4.2-4.4): CC 1.x, registers per block. --- */

START_TEST(guide23_cc10_12_registers)
{
	/* The guide: 128-thread blocks 83% with 5 blocks; 256-thread blocks 66%
	 * with 2.  128 threads: 4 warps x 32 x 12 = 1536 registers (already a
	 * multiple of 256); floor(8192 / 1536) = 5 blocks = 20 of 24 warps.  The
	 * warps would allow 24 / 4 = 6 and the block limit 8: registers bind. */
	struct apod_occ_result r = occ(cc(1, 0), 128, 12, 0);
	ck_assert_int_eq(r.regs_per_block, 1536);
	ck_assert_fit_by(r, 5, 20.0 / 24, APOD_OCC_LIMIT_REGS);
	ck_assert_int_eq(r.warps, 20);
	/* 256 threads: 3072 registers, floor(8192 / 3072) = 2 blocks = 16 warps. */
	r = occ(cc(1, 0), 256, 12, 0);
	ck_assert_fit(r, 2, 16.0 / 24);
}
END_TEST

START_TEST(guide23_block_rounding)
{
	/* Per-block rounding to 256 on 1.0/1.1, 512 on 1.2/1.3.  CC 1.0, 64
	 * threads (2 warps) x 13 registers = 832, rounded to 1024: 8 blocks by
	 * registers, 8 by the block limit.  CC 1.3: 256 threads x 17 = 4352,
	 * rounded to 4608: floor(16384 / 4608) = 3 blocks = 24 of 32 warps;
	 * with 16 registers 4096 fits 4 times: 100%. */
	struct apod_occ_result r = occ(cc(1, 0), 64, 13, 0);
	ck_assert_int_eq(r.regs_per_block, 1024);
	ck_assert_int_eq(r.by_regs, 8);
	r = occ(cc(1, 3), 256, 17, 0);
	ck_assert_int_eq(r.regs_per_block, 4608);
	ck_assert_fit(r, 3, 0.75);
	r = occ(cc(1, 3), 256, 16, 0);
	ck_assert_fit(r, 4, 1.0);
	/* A 32-thread block is 1 warp, allocated as 2: 2 x 32 x 10 = 640 -> 768. */
	r = occ(cc(1, 1), 32, 10, 0);
	ck_assert_int_eq(r.regs_per_block, 768);
}
END_TEST

START_TEST(guide23_bigger_blocks_are_not_better)
{
	/* §4.4: on CC 1.1, 512-thread blocks give 66% (1 block), 256-thread
	 * blocks can give 100% (3 blocks).  With 10 registers per thread
	 * (8192 / 768 = 10.7): 512 threads are 16 warps, only 1 fits in 24
	 * (and 5120 registers fit once); 256 threads need 2560, 3 fit. */
	struct apod_occ_result r = occ(cc(1, 1), 512, 10, 0);
	ck_assert_fit(r, 1, 16.0 / 24);
	r = occ(cc(1, 1), 256, 10, 0);
	ck_assert_fit(r, 3, 1.0);
	/* §4.3's thresholds: 192 threads (6 warps) hide the register latency;
	 * that is 25% of CC 1.1's 24 warps and 18.75% of CC 1.3's 32.  One
	 * 192-thread block per SM, held there by 16 KiB of shared memory: */
	r = occ(cc(1, 1), 192, 10, 16 * KiB);
	ck_assert_fit_by(r, 1, 0.25, APOD_OCC_LIMIT_SMEM);
	r = occ(cc(1, 3), 192, 10, 16 * KiB);
	ck_assert_double_eq_tol(r.occupancy, 0.1875, 1e-12);
}
END_TEST

/* --- The course (seed-002-003 B.8, B.9): CC 2.0. --- */

START_TEST(course_spreadsheet_example)
{
	/* B.9, the spreadsheet's own example: 256 threads, 16 registers, 4096 B
	 * of shared memory on CC 2.0 -> 1536 threads, 48 warps, 6 blocks, 100%.
	 * Its table: warps allow 6 (48 / 8), registers 8 (4096 per block into
	 * 32768), shared memory 12 (49152 / 4096); the block limit is 8. */
	struct apod_occ_result r = occ(cc(2, 0), 256, 16, 4096);
	ck_assert_int_eq(r.by_warps, 6);
	ck_assert_int_eq(r.by_regs, 8);
	ck_assert_int_eq(r.by_smem, 12);
	ck_assert_int_eq(r.by_blocks, 8);
	ck_assert_int_eq(r.regs_per_block, 4096);
	ck_assert_uint_eq(r.smem_per_block, 4096);
	ck_assert_fit_by(r, 6, 1.0, APOD_OCC_LIMIT_WARPS);
	ck_assert_int_eq(r.warps, 48);
	ck_assert_int_eq(r.threads, 1536);
}
END_TEST

START_TEST(course_registers_40_and_21)
{
	/* B.8's shortcut: 32K / 40 = 819 threads, 819 / 1536 = 0.53.  In whole
	 * blocks of 256: 40 x 32 = 1280 per warp (a multiple of 64); each of the
	 * 2 partitions holds floor(16384 / 1280) = 12 warps, 24 in all, so 3
	 * blocks = 24 warps = 50%. */
	const struct apod_occ_sm *sm = cc(2, 0);
	struct apod_occ_result r = occ(sm, 256, 40, 0);
	ck_assert_double_eq_tol(apod_occ_slides(sm, 256, 40, 0), 819.0 / 1536, 1e-12);
	ck_assert_fit_by(r, 3, 0.5, APOD_OCC_LIMIT_REGS);
	/* B.8: 21 registers, 32K / 21 = 1560 threads, "~1".  In whole blocks:
	 * 672 -> 704 per warp, 23 warps per partition, 46 in all: 5 blocks of
	 * 256 (40 warps, 83.3%) or 7 of 192 (42 warps, 87.5%). */
	ck_assert_double_eq_tol(apod_occ_slides(sm, 256, 21, 0), 1.0, 1e-12);
	r = occ(sm, 256, 21, 0);
	ck_assert_int_eq(r.regs_per_warp, 704);
	ck_assert_fit(r, 5, 40.0 / 48);
	r = occ(sm, 192, 21, 0);
	ck_assert_fit(r, 7, 42.0 / 48);
}
END_TEST

START_TEST(course_shared_memory_per_thread)
{
	/* B.8: 64 bytes per thread.  The slide prints 48K / 64 = 819 and 0.53,
	 * copied from the register example; 49152 / 64 = 768 threads = 0.50.
	 * In blocks of 256: 16384 bytes each, 3 fit, 24 warps = 50%.  With 32
	 * bytes per thread (8192 per block) 6 fit: 100%, shared memory and
	 * warps tie. */
	const struct apod_occ_sm *sm = cc(2, 0);
	struct apod_occ_result r = occ(sm, 256, 16, 256 * 64);
	ck_assert_double_eq_tol(apod_occ_slides(sm, 256, 0, 64), 0.5, 1e-12);
	ck_assert_fit_by(r, 3, 0.5, APOD_OCC_LIMIT_SMEM);
	r = occ(sm, 256, 16, 256 * 32);
	ck_assert_double_eq_tol(apod_occ_slides(sm, 256, 0, 32), 1.0, 1e-12);
	ck_assert_blocks_by(r, 6, APOD_OCC_LIMIT_WARPS | APOD_OCC_LIMIT_SMEM);
}
END_TEST

START_TEST(course_block_size)
{
	/* B.8: 8 blocks per SM at most; 128-thread blocks give 128 x 8 = 1024
	 * active threads, 1024 / 1536 = 0.667 (the slide inverts the fraction);
	 * 192-thread blocks give 1536, 100%. */
	const struct apod_occ_sm *sm = cc(2, 0);
	struct apod_occ_result r = occ(sm, 128, 16, 0);
	ck_assert_double_eq_tol(apod_occ_slides(sm, 128, 0, 0), 1024.0 / 1536, 1e-12);
	ck_assert_fit_by(r, 8, 32.0 / 48, APOD_OCC_LIMIT_BLOCKS);
	ck_assert_int_eq(r.threads, 1024);
	r = occ(sm, 192, 16, 0);
	ck_assert_fit_by(r, 8, 1.0, APOD_OCC_LIMIT_WARPS | APOD_OCC_LIMIT_BLOCKS);
}
END_TEST

/* --- CC 9.0 (H100, H200): each limit in turn (seed-002-003 C.2's table). --- */

START_TEST(hopper_each_limit)
{
	const struct apod_occ_sm *sm = cc(9, 0);
	/* Warps: 256 threads = 8 warps, 64 / 8 = 8 blocks.  16 registers: 512
	 * per warp, 32 per partition, 128 warps, 16 blocks.  4096 B + 1 KiB
	 * reserved = 5120: floor(233472 / 5120) = 45 blocks. */
	struct apod_occ_result r = occ(sm, 256, 16, 4096);
	ck_assert_blocks_by(r, 8, APOD_OCC_LIMIT_WARPS);
	ck_assert_int_eq(r.by_regs, 16);
	ck_assert_int_eq(r.by_smem, 45);
	/* Blocks: 32-thread blocks, 32 of them = 32 warps = 50%. */
	r = occ(sm, 32, 16, 0);
	ck_assert_fit_by(r, 32, 0.5, APOD_OCC_LIMIT_BLOCKS);
	/* Registers: 40 -> 1280 per warp, 12 per partition, 48 warps: 6 blocks of
	 * 256 = 75%; 64 -> 2048 per warp, 8 per partition, 32 warps: 4 = 50%. */
	r = occ(sm, 256, 40, 0);
	ck_assert_fit_by(r, 6, 0.75, APOD_OCC_LIMIT_REGS);
	r = occ(sm, 256, 64, 0);
	ck_assert_fit(r, 4, 0.5);
	/* Shared memory: 48 KiB static + 1 KiB = 50176 B; floor(233472 / 50176) = 4. */
	r = occ(sm, 256, 16, 48 * KiB);
	ck_assert_uint_eq(r.smem_per_block, 50176);
	ck_assert_fit_by(r, 4, 0.5, APOD_OCC_LIMIT_SMEM);
	/* A tie: 256 threads at 32 registers, warps and registers both say 8. */
	r = occ(sm, 256, 32, 0);
	ck_assert_blocks_by(r, 8, APOD_OCC_LIMIT_WARPS | APOD_OCC_LIMIT_REGS);
}
END_TEST

START_TEST(hopper_rounding)
{
	const struct apod_occ_sm *sm = cc(9, 0);
	/* Warps are whole: 48 threads take 2 warps, so 32 blocks fill all 64
	 * warps (100% occupancy) with only 1536 threads: a quarter of the lanes
	 * idle.  33 threads also take 2 warps. */
	struct apod_occ_result r = occ(sm, 48, 16, 0);
	ck_assert_int_eq(r.warps_per_block, 2);
	ck_assert_fit(r, 32, 1.0);
	ck_assert_int_eq(r.threads, 1536);
	ck_assert_int_eq(occ(sm, 33, 16, 0).warps_per_block, 2);
	/* Even a kernel with no shared memory takes the 1 KiB reservation:
	 * floor(233472 / 1024) = 228 blocks, never the binding limit. */
	r = occ(sm, 32, 16, 0);
	ck_assert_uint_eq(r.smem_per_block, 1024);
	ck_assert_int_eq(r.by_smem, 228);
	/* 1 byte more than the reservation rounds up to 1152 (128-byte unit). */
	ck_assert_uint_eq(occ(sm, 32, 16, 1).smem_per_block, 1152);
	/* 9 registers: 288 per warp, rounded to 512 (as 16 would be). */
	ck_assert_int_eq(occ(sm, 32, 9, 0).regs_per_warp, 512);
	/* No registers at all (a trivial kernel): no register limit. */
	ck_assert_int_eq(occ(sm, 32, 0, 0).by_regs, INT_MAX);
}
END_TEST

START_TEST(hopper_does_not_fit)
{
	const struct apod_occ_sm *sm = cc(9, 0);
	struct apod_occ_launch l;
	struct apod_occ_result r;
	/* More threads than a block may have. */
	r = occ(sm, 1025, 16, 0);
	ck_assert_blocks_by(r, 0, APOD_OCC_LIMIT_WARPS);
	/* More registers per thread than a thread may have: 255 (seed-002-003
	 * B.5 for CC 3.5; unchanged since [external: the programming guide's
	 * table]).  cuda_occupancy.h caps CC 7.0 on at 256, a count no compiled
	 * kernel can have, so the random comparison below never draws it. */
	r = occ(sm, 32, 256, 0);
	ck_assert_blocks_by(r, 0, APOD_OCC_LIMIT_REGS);
	/* 1024 threads: 64 registers just fit (2048 per warp x 32 warps =
	 * 65536); 65 -> 2080 -> 2304 per warp, 7 per partition, 28 < 32 warps. */
	r = occ(sm, 1024, 64, 0);
	ck_assert_int_eq(r.blocks, 1);
	r = occ(sm, 1024, 65, 0);
	ck_assert_blocks_by(r, 0, APOD_OCC_LIMIT_REGS);
	/* 255 registers: 8160 -> 8192 per warp, 2 per partition: 256 threads. */
	ck_assert_int_eq(occ(sm, 256, 255, 0).blocks, 1);
	ck_assert_int_eq(occ(sm, 288, 255, 0).blocks, 0);
	/* Shared memory: 227 KiB is the most a block may have (1 block fits the
	 * 228 KiB with its reservation); one byte more does not fit. */
	r = occ(sm, 128, 16, 227 * KiB);
	ck_assert_blocks_by(r, 1, APOD_OCC_LIMIT_SMEM);
	r = occ(sm, 128, 16, 227 * KiB + 1);
	ck_assert_blocks_by(r, 0, APOD_OCC_LIMIT_SMEM);
	/* The kernel's own caps: launch bounds of 256 threads, and a dynamic
	 * shared-memory limit of 48 KiB (the default without opt-in). */
	apod_occ_launch_init(&l, 512, 16, 0);
	l.max_threads = 256;
	r = occ_launch(sm, &l);
	ck_assert_blocks_by(r, 0, APOD_OCC_LIMIT_WARPS);
	apod_occ_launch_init(&l, 128, 16, 0);
	l.max_dynamic = 48 * KiB;
	l.smem_dynamic = 48 * KiB;
	r = occ_launch(sm, &l);
	ck_assert_int_eq(r.blocks, 4);   /* 50176 B each: 4 fit */
	l.smem_dynamic = 48 * KiB + 1;
	r = occ_launch(sm, &l);
	ck_assert_blocks_by(r, 0, APOD_OCC_LIMIT_SMEM);
}
END_TEST

START_TEST(hopper_carveout)
{
	const struct apod_occ_sm *sm = cc(9, 0);
	struct apod_occ_launch l;
	struct apod_occ_result r;
	/* 128 threads with 8 KiB of dynamic shared memory: 9216 B per block.
	 * No preference: 228 KiB, 25 would fit; the warps allow 16. */
	apod_occ_launch_init(&l, 128, 16, 0);
	l.smem_dynamic = 8 * KiB;
	r = occ_launch(sm, &l);
	ck_assert_uint_eq(r.smem_config, 228 * KiB);
	ck_assert_int_eq(r.blocks, 16);
	/* 25%: 58368 B, rounded up to the 64 KiB configuration; 7 blocks. */
	l.carveout = 25;
	r = occ_launch(sm, &l);
	ck_assert_uint_eq(r.smem_config, 64 * KiB);
	ck_assert_blocks_by(r, 7, APOD_OCC_LIMIT_SMEM);
	/* 50%: 116736 B -> 132 KiB; floor(135168 / 9216) = 14 blocks. */
	l.carveout = 50;
	r = occ_launch(sm, &l);
	ck_assert_uint_eq(r.smem_config, 132 * KiB);
	ck_assert_int_eq(r.blocks, 14);
	/* 0% (all L1): too small for one block, raised to the smallest size
	 * that holds it, 16 KiB: 1 block. */
	l.carveout = 0;
	r = occ_launch(sm, &l);
	ck_assert_uint_eq(r.smem_config, 16 * KiB);
	ck_assert_int_eq(r.blocks, 1);
	/* With no shared memory of its own a block still needs its 1 KiB
	 * reservation: 0% becomes 8 KiB, 8 blocks, 50% occupancy. */
	l.smem_dynamic = 0;
	r = occ_launch(sm, &l);
	ck_assert_uint_eq(r.smem_config, 8 * KiB);
	ck_assert_fit(r, 8, 0.5);
	/* 100% is the largest configuration, as no preference is. */
	ck_assert_uint_eq(apod_occ_smem_config(sm, 100, 1024), 228 * KiB);
	ck_assert_uint_eq(apod_occ_smem_config(sm, -1, 1024), 228 * KiB);
	/* Turing has 32 and 64 KiB only: 0% is 32 KiB. */
	ck_assert_uint_eq(apod_occ_smem_config(cc(7, 5), 0, 0), 32 * KiB);
	/* Before Volta the carveout is not the kernel's: the row's size stands. */
	ck_assert_uint_eq(apod_occ_smem_config(cc(3, 5), 0, 0), 48 * KiB);
}
END_TEST

START_TEST(other_generations)
{
	struct apod_occ_result r;
	/* CC 7.5: 1024 threads per SM.  256 threads -> 4 blocks, 100%; 32
	 * threads -> 16 blocks (the limit) = 16 of 32 warps. */
	r = occ(cc(7, 5), 256, 32, 0);
	ck_assert_fit(r, 4, 1.0);
	r = occ(cc(7, 5), 32, 32, 0);
	ck_assert_fit(r, 16, 0.5);
	/* CC 8.6: 48 warps, 16 blocks: 128 threads -> 12 blocks (warps), 64
	 * threads -> 16 blocks (blocks) = 32 of 48 warps. */
	r = occ(cc(8, 6), 128, 32, 0);
	ck_assert_blocks_by(r, 12, APOD_OCC_LIMIT_WARPS);
	r = occ(cc(8, 6), 64, 32, 0);
	ck_assert_fit_by(r, 16, 32.0 / 48, APOD_OCC_LIMIT_BLOCKS);
	/* CC 8.9 allows 24 blocks: 64 threads -> 24 x 2 = 48 warps, 100%. */
	r = occ(cc(8, 9), 64, 32, 0);
	ck_assert_fit(r, 24, 1.0);
	/* CC 8.0: 164 KiB; 163 KiB + 1 KiB fills it once. */
	ck_assert_int_eq(occ(cc(8, 0), 64, 32, 163 * KiB).blocks, 1);
	ck_assert_int_eq(occ(cc(8, 0), 64, 32, 163 * KiB + 1).blocks, 0);
	/* Kepler: 16 blocks (seed-002-003 B.5); 64-thread blocks reach only 32
	 * of 64 warps.  CC 3.0 allows 63 registers per thread [external: the
	 * programming guide], 3.5 allows 255 (B.5); 64 x 32 = 2048 per warp, 8
	 * per partition, 32 warps = 16 blocks of 2 warps. */
	r = occ(cc(3, 5), 64, 32, 0);
	ck_assert_fit(r, 16, 0.5);
	ck_assert_int_eq(occ(cc(3, 0), 64, 64, 0).blocks, 0);
	ck_assert_int_eq(occ(cc(3, 5), 64, 64, 0).blocks, 16);
}
END_TEST

START_TEST(table_is_consistent)
{
	int n;
	const struct apod_occ_sm *t = apod_occ_table(&n);
	ck_assert_int_ge(n, 12);
	for (int i = 0; i < n; i++) {
		const struct apod_occ_sm *sm = &t[i];
		struct apod_occ_result r;
		ck_assert_int_eq(sm->max_warps_per_sm * sm->warp_size, sm->max_threads_per_sm);
		ck_assert_uint_le(sm->smem_per_block, sm->smem_per_sm);
		ck_assert_int_le(sm->regs_per_block, sm->regs_per_sm);
		ck_assert_ptr_eq(apod_occ_known(sm->cc_major, sm->cc_minor), sm);
		for (int k = 1; k < sm->ncarveouts; k++)
			ck_assert_uint_lt(sm->carveouts[k - 1], sm->carveouts[k]);
		if (sm->ncarveouts)
			ck_assert_uint_eq(sm->carveouts[sm->ncarveouts - 1], sm->smem_per_sm);
		/* From Kepler on, 64K registers over at most 2048 threads: 32
		 * registers per thread always allow full occupancy at 256 threads. */
		if (sm->cc_major >= 3) {
			ck_assert_int_eq(apod_occupancy_of(sm, 256, 32, 0, &r), 0);
			ck_assert_double_eq_tol(r.occupancy, 1.0, 1e-12);
		}
	}
	ck_assert_ptr_null(apod_occ_known(9, 9));
	ck_assert_ptr_null(apod_occ_known(0, 0));
}
END_TEST

START_TEST(more_resources_never_more_blocks)
{
	/* Blocks per SM never rise when a block asks for more registers or more
	 * shared memory, on any row, at any block size. */
	int n;
	const struct apod_occ_sm *t = apod_occ_table(&n);
	for (int i = 0; i < n; i++)
		for (int threads = 32; threads <= t[i].max_threads_per_block; threads += 32) {
			/* (Check is called only on a failure: it logs every assertion.) */
			int last = INT_MAX;
			struct apod_occ_result r;
			for (int regs = 0; regs <= 256; regs++) {
				if (apod_occupancy_of(&t[i], threads, regs, 0, &r) || r.blocks > last)
					ck_abort_msg("CC %d.%d, %d threads: %d registers give %d blocks, one fewer gave %d",
					             t[i].cc_major, t[i].cc_minor, threads, regs, r.blocks, last);
				last = r.blocks;
			}
			last = INT_MAX;
			for (size_t smem = 0; smem <= t[i].smem_per_sm + 256; smem += 128) {
				if (apod_occupancy_of(&t[i], threads, 16, smem, &r) || r.blocks > last)
					ck_abort_msg("CC %d.%d, %d threads: %zu B give %d blocks, 128 fewer gave %d",
					             t[i].cc_major, t[i].cc_minor, threads, smem, r.blocks, last);
				last = r.blocks;
			}
		}
}
END_TEST

START_TEST(names_and_invalid_input)
{
	struct apod_occ_result r;
	ck_assert_str_eq(apod_occ_limiter_name(APOD_OCC_LIMIT_REGS), "registers");
	ck_assert_str_eq(apod_occ_limiter_name(APOD_OCC_LIMIT_WARPS | APOD_OCC_LIMIT_SMEM),
	                 "warps+shared memory");
	ck_assert_str_eq(apod_occ_limiter_name(APOD_OCC_LIMIT_BLOCKS), "blocks");
	ck_assert_int_eq(apod_occupancy_of(cc(9, 0), 0, 16, 0, &r), -1);
	/* Absurd block sizes are refused rather than overflowing an int. */
	ck_assert_int_eq(apod_occupancy_of(cc(9, 0), 65537, 16, 0, &r), -1);
	ck_assert_int_eq(apod_occupancy_of(cc(9, 0), INT_MAX, 16, 0, &r), -1);
	ck_assert_int_eq(apod_occupancy_of(cc(9, 0), 32, -1, 0, &r), -1);
	ck_assert_int_eq(apod_occupancy_of(NULL, 32, 16, 0, &r), -1);
	ck_assert_int_eq(apod_occupancy_of(cc(9, 0), 32, 16, 0, NULL), -1);
}
END_TEST

#ifdef HAVE_CUDA_OCCUPANCY_H
static unsigned long long lcg_state = 12345;

static unsigned lcg(unsigned m)
{
	lcg_state = lcg_state * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(lcg_state >> 33) % m;
}

START_TEST(agrees_with_cuda_occupancy_h)
{
	/* Random launches (block size, registers, static and dynamic shared
	 * memory, the kernel's caps, the carveout preference) on every row
	 * from Kepler on, through NVIDIA's model and through ours.  Registers
	 * beyond a row's per-thread maximum are left out: the header applies
	 * one limit to all of CC 3.x, where sm_30 code never has more than 63. */
	static const int carve[] = { -1, 0, 10, 25, 50, 60, 100 };
	int n, compared = 0;
	const struct apod_occ_sm *t = apod_occ_table(&n);
	for (int i = 0; i < n; i++) {
		const struct apod_occ_sm *sm = &t[i];
		cudaOccDeviceProp p;
		if (sm->cc_major < 3)
			continue;
		memset(&p, 0, sizeof p);
		p.computeMajor = sm->cc_major;
		p.computeMinor = sm->cc_minor;
		p.maxThreadsPerBlock = sm->max_threads_per_block;
		p.maxThreadsPerMultiprocessor = sm->max_threads_per_sm;
		p.regsPerBlock = sm->regs_per_block;
		p.regsPerMultiprocessor = sm->regs_per_sm;
		p.warpSize = sm->warp_size;
		p.sharedMemPerBlock = 48 * KiB;
		p.sharedMemPerMultiprocessor = sm->smem_per_sm;
		p.numSms = 1;
		p.sharedMemPerBlockOptin = sm->smem_per_block;
		p.reservedSharedMemPerBlock = sm->smem_reserved_per_block;
		for (int it = 0; it < 20000; it++) {
			cudaOccFuncAttributes a;
			cudaOccDeviceState st;
			cudaOccResult res;
			struct apod_occ_launch l;
			struct apod_occ_result r;
			int threads = 1 + (int)lcg(1024), regs = (int)lcg(256);
			int maxthr = lcg(4) ? 1024 : 32 * (1 + (int)lcg(32));
			size_t stat = lcg(4) ? 0 : lcg(48 * KiB + 1);
			size_t maxdyn = stat < sm->smem_per_block ? sm->smem_per_block - stat : 0;
			size_t dyn;
			if (lcg(3) == 0)   /* no opt-in: 48 KiB per block */
				maxdyn = stat < 48 * KiB ? 48 * KiB - stat : 0;
			dyn = lcg(3) ? lcg((unsigned)maxdyn + 2000) : 0;
			if (threads > maxthr || regs > sm->max_regs_per_thread)
				continue;
			memset(&a, 0, sizeof a);
			a.maxThreadsPerBlock = maxthr;
			a.numRegs = regs;
			a.sharedSizeBytes = stat;
			a.partitionedGCConfig = PARTITIONED_GC_OFF;
			a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
			a.maxDynamicSharedSizeBytes = maxdyn;
			a.numBlockBarriers = 1;
			memset(&st, 0, sizeof st);
			st.cacheConfig = CACHE_PREFER_NONE;
			st.carveoutConfig = sm->cc_major >= 7 ? carve[lcg(7)] : SHAREDMEM_CARVEOUT_DEFAULT;
			apod_occ_launch_init(&l, threads, regs, stat);
			l.smem_dynamic = dyn;
			l.carveout = st.carveoutConfig;
			l.max_threads = maxthr;
			l.max_dynamic = maxdyn;
			/* (Check is called only on a failure: it logs every assertion.) */
			if (cudaOccMaxActiveBlocksPerMultiprocessor(&res, &p, &a, &st, threads, dyn) != CUDA_OCC_SUCCESS ||
			    apod_occupancy(sm, &l, &r) || r.blocks != res.activeBlocksPerMultiprocessor)
				ck_abort_msg("CC %d.%d, %d threads, %d registers, %zu + %zu B, carveout %d: %d blocks, "
				             "cuda_occupancy.h %d", sm->cc_major, sm->cc_minor, threads, regs, stat, dyn,
				             st.carveoutConfig, r.blocks, res.activeBlocksPerMultiprocessor);
			compared++;
		}
	}
	ck_assert_int_gt(compared, 100000);
}
END_TEST
#endif

int main(void)
{
	const TTest *tests[] = {
		guide_cc70_37_registers_128_threads, guide_cc70_37_registers_320_threads,
		guide_cc70_32_registers_is_full, guide23_cc10_12_registers, guide23_block_rounding,
		guide23_bigger_blocks_are_not_better, course_spreadsheet_example,
		course_registers_40_and_21, course_shared_memory_per_thread, course_block_size,
		hopper_each_limit, hopper_rounding, hopper_does_not_fit, hopper_carveout,
		other_generations, table_is_consistent, more_resources_never_more_blocks,
		names_and_invalid_input,
#ifdef HAVE_CUDA_OCCUPANCY_H
		agrees_with_cuda_occupancy_h,
#endif
		NULL,
	};
	return check_run(check_suite("occupancy", "core", 0, tests), CK_FORK_GETENV);
}
