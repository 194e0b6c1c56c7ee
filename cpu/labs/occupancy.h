/*
 * occupancy.h: how many blocks of a kernel fit on one multiprocessor.
 *
 * Occupancy is the number of warps resident on a multiprocessor (SM)
 * divided by the most it can hold.  Four resources cap the number of
 * resident blocks, and the smallest cap wins:
 *
 *   warps      max warps per SM / warps per block, where warps per block
 *              is the block's threads divided by the warp size, ROUNDED UP
 *              (a block of 48 threads takes two whole warps);
 *   blocks     the SM's fixed limit on resident blocks;
 *   registers  allocated per warp (CC 2.0 on): registers per thread times
 *              the warp size, ROUNDED UP to the allocation unit (256 on
 *              CC 3.0 on); the register file is split into `warp_alloc_gran`
 *              partitions (4 on CC 3.0 on) that each hold whole warps, so
 *              the warps that fit are floor(partition / registers per warp)
 *              times the number of partitions, and the blocks are those
 *              warps divided by the warps per block, rounded down.  On CC
 *              1.x registers went to whole blocks: the block's warps were
 *              rounded up to `warp_alloc_gran`, times the warp size and the
 *              registers per thread, then ROUNDED UP to the unit (256 or
 *              512 per block);
 *   shared     static plus dynamic shared memory plus the driver's
 *   memory     reservation per block (1 KiB on CC 8.0 on), ROUNDED UP to
 *              the allocation unit (128 bytes on CC 8.0 on, 256 before),
 *              divided into the shared memory the SM is configured with.
 *
 * A block that does not fit at all (more threads than a block may have,
 * more registers per thread or per block than allowed, more shared memory
 * than a block may have) gives 0 blocks, and the resource it exceeds is
 * named as the limit.
 *
 * On CC 7.0 on, the SM's shared memory is a carveout of the same storage
 * as L1.  A kernel may prefer a carveout (a percentage); it is rounded up
 * to a size the SM supports, and raised to the smallest supported size
 * that holds one block if it is too small.  No preference means the
 * largest size.
 *
 * This is the calculation the CUDA occupancy spreadsheet made, and the one
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor makes (apod lab occupancy
 * compares the two on compiled kernels).  Plain C; no CUDA headers.  The
 * functions return 0 on success and -1 on invalid input; they record no
 * message and print nothing.
 */
#ifndef APOD_OCCUPANCY_H
#define APOD_OCCUPANCY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define APOD_OCC_MAX_CARVEOUTS 12

/* How registers are handed out. */
enum apod_occ_reg_gran {
	APOD_OCC_REGS_PER_BLOCK = 0,   /* CC 1.x: one allocation per block */
	APOD_OCC_REGS_PER_WARP = 1     /* CC 2.0 on: one allocation per warp */
};

/* One multiprocessor's limits. */
struct apod_occ_sm {
	int cc_major, cc_minor;
	const char *arch;             /* a name for people: "Hopper (H100, H200)" */
	int warp_size;
	int max_threads_per_block;
	int max_threads_per_sm;
	int max_warps_per_sm;         /* 0: max_threads_per_sm / warp_size */
	int max_blocks_per_sm;
	int regs_per_sm;              /* 32-bit registers */
	int regs_per_block;           /* the most one block may have */
	int max_regs_per_thread;
	int reg_alloc_unit;           /* registers per allocation */
	enum apod_occ_reg_gran reg_gran;
	int warp_alloc_gran;          /* per warp: the register file's partitions;
	                                 per block: warps are rounded up to this */
	size_t smem_per_sm;           /* bytes: the largest configuration */
	size_t smem_per_block;        /* bytes a block may have at most (opt-in) */
	size_t smem_alloc_unit;       /* bytes */
	size_t smem_reserved_per_block;   /* bytes the driver keeps per block */
	int ncarveouts;               /* 0: shared memory per SM is fixed */
	size_t carveouts[APOD_OCC_MAX_CARVEOUTS];   /* supported sizes, ascending */
};

/* One kernel launch's demands. */
struct apod_occ_launch {
	int threads;                  /* threads per block */
	int regs;                     /* registers per thread (numRegs) */
	size_t smem_static;           /* sharedSizeBytes */
	size_t smem_dynamic;          /* the launch's third parameter */
	int carveout;                 /* preferred shared-memory carveout, percent;
	                                 -1: no preference */
	int max_threads;              /* the kernel's own cap on threads per block
	                                 (launch bounds, registers); 0: none */
	size_t max_dynamic;           /* the kernel's cap on dynamic shared memory
	                                 (maxDynamicSharedSizeBytes); SIZE_MAX: none */
};

/* The limits, one bit each; several are set when they tie. */
enum {
	APOD_OCC_LIMIT_WARPS = 1,     /* threads (warps) per SM, or block too large */
	APOD_OCC_LIMIT_BLOCKS = 2,    /* blocks per SM */
	APOD_OCC_LIMIT_REGS = 4,      /* registers */
	APOD_OCC_LIMIT_SMEM = 8       /* shared memory */
};

struct apod_occ_result {
	int warps_per_block;          /* threads / warp size, rounded up */
	int regs_per_warp;            /* allocated per warp (0 on CC 1.x) */
	int regs_per_block;           /* allocated per block */
	size_t smem_per_block;        /* allocated: rounded up, reservation included */
	size_t smem_config;           /* shared memory the SM runs this launch with */
	int by_warps, by_blocks, by_regs, by_smem;   /* blocks per SM each allows
	                                                 (INT_MAX: no limit) */
	int blocks;                   /* active blocks per SM: the smallest of them */
	int warps;                    /* active warps per SM */
	int threads;                  /* active threads per SM */
	double occupancy;             /* warps / max warps per SM */
	unsigned limiters;            /* APOD_OCC_LIMIT_* bits equal to `blocks` */
};

/* A launch with no kernel caps and no carveout preference. */
void apod_occ_launch_init(struct apod_occ_launch *l, int threads, int regs, size_t smem);

/* The calculation; -1 if an argument is invalid (threads < 1 or > 65536,
 * regs < 0, a table entry with a zero warp size or allocation unit). */
int apod_occupancy(const struct apod_occ_sm *sm, const struct apod_occ_launch *l,
                   struct apod_occ_result *r);

/* The same, for a launch given only by threads, registers and shared memory. */
int apod_occupancy_of(const struct apod_occ_sm *sm, int threads, int regs, size_t smem,
                      struct apod_occ_result *r);

/* Shared memory the SM is configured with for a launch preferring
 * `carveout` percent (-1: none) whose block needs `block_alloc` bytes. */
size_t apod_occ_smem_config(const struct apod_occ_sm *sm, int carveout, size_t block_alloc);

/* The known compute capabilities; NULL if (major, minor) is not in it. */
const struct apod_occ_sm *apod_occ_known(int major, int minor);
const struct apod_occ_sm *apod_occ_table(int *n);

/* "warps", "registers", "shared memory", "blocks", joined with '+' on ties. */
const char *apod_occ_limiter_name(unsigned limiters);

/*
 * The course slides' shortcut: each resource's share of the SM's threads,
 * taken separately and without whole blocks or allocation units
 * (registers per SM / registers per thread, shared memory per SM / bytes
 * per thread, blocks per SM x threads per block, each over the SM's
 * threads), the smallest of them, at most 1.  Kept to reproduce the
 * slides' figures and to show how far they are from the real rule.
 */
double apod_occ_slides(const struct apod_occ_sm *sm, int threads, int regs, double smem_per_thread);

#ifdef __cplusplus
}
#endif

#endif
