/*
 * occupancy.c: the occupancy calculation and the limits it needs.
 *
 * The rules are in occupancy.h.  The table's per-SM limits (threads,
 * blocks, registers, shared memory) are what cudaGetDeviceProperties
 * reports on each architecture; the allocation units, the register
 * partitions and the carveout sizes are not queryable and come from the
 * occupancy spreadsheet's data (CC 1.x-3.x, as the sources' examples use
 * them) and the CUDA tuning guides (CC 7.0 on).  apod lab occupancy checks
 * the row of the GPU it runs on against that GPU.
 */
#include <limits.h>
#include <stdint.h>

#include "occupancy.h"

#define KiB 1024u

static const struct apod_occ_sm table[] = {
	/* The guide 2.3's examples (seed-001-004 A.4 §4.2): registers went to
	 * whole blocks, 256 at a time on 1.0/1.1, 512 on 1.2/1.3; the
	 * spreadsheet rounds a block's warps up to 2 first.  124 registers per
	 * thread and the 512-byte shared-memory unit are the programming
	 * guide's and the spreadsheet's [external]. */
	{ 1, 0, "Tesla (G80)", 32, 512, 768, 24, 8, 8192, 8192, 124, 256, APOD_OCC_REGS_PER_BLOCK, 2,
	  16 * KiB, 16 * KiB, 512, 0, 0, { 0 } },
	{ 1, 1, "Tesla (G8x, G9x)", 32, 512, 768, 24, 8, 8192, 8192, 124, 256, APOD_OCC_REGS_PER_BLOCK, 2,
	  16 * KiB, 16 * KiB, 512, 0, 0, { 0 } },
	{ 1, 2, "Tesla (GT21x)", 32, 512, 1024, 32, 8, 16384, 16384, 124, 512, APOD_OCC_REGS_PER_BLOCK, 2,
	  16 * KiB, 16 * KiB, 512, 0, 0, { 0 } },
	{ 1, 3, "Tesla (GT200)", 32, 512, 1024, 32, 8, 16384, 16384, 124, 512, APOD_OCC_REGS_PER_BLOCK, 2,
	  16 * KiB, 16 * KiB, 512, 0, 0, { 0 } },
	/* The course's spreadsheet example (seed-002-003 B.9): 64-register
	 * units per warp, warps in pairs, 48 KiB of shared memory (the
	 * "prefer shared" split of Fermi's 64 KiB) in 128-byte units. */
	{ 2, 0, "Fermi (GF100)", 32, 1024, 1536, 48, 8, 32768, 32768, 63, 64, APOD_OCC_REGS_PER_WARP, 2,
	  48 * KiB, 48 * KiB, 128, 0, 0, { 0 } },
	/* Kepler (the CUDA 5 talk's generation): four schedulers, so four
	 * register partitions; 48 KiB is the "prefer shared" split. */
	{ 3, 0, "Kepler (GK10x)", 32, 1024, 2048, 64, 16, 65536, 65536, 63, 256, APOD_OCC_REGS_PER_WARP, 4,
	  48 * KiB, 48 * KiB, 256, 0, 0, { 0 } },
	{ 3, 5, "Kepler (GK110)", 32, 1024, 2048, 64, 16, 65536, 65536, 255, 256, APOD_OCC_REGS_PER_WARP, 4,
	  48 * KiB, 48 * KiB, 256, 0, 0, { 0 } },
	/* The guide's §10.1.1 example (seed-000 §2.6). */
	{ 7, 0, "Volta (V100)", 32, 1024, 2048, 64, 32, 65536, 65536, 255, 256, APOD_OCC_REGS_PER_WARP, 4,
	  96 * KiB, 96 * KiB, 256, 0, 6, { 0, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 96 * KiB } },
	{ 7, 5, "Turing (T4, RTX 20)", 32, 1024, 1024, 32, 16, 65536, 65536, 255, 256, APOD_OCC_REGS_PER_WARP, 4,
	  64 * KiB, 64 * KiB, 256, 0, 2, { 32 * KiB, 64 * KiB } },
	/* From Ampere on the driver keeps 1 KiB of every block's shared memory. */
	{ 8, 0, "Ampere (A100)", 32, 1024, 2048, 64, 32, 65536, 65536, 255, 256, APOD_OCC_REGS_PER_WARP, 4,
	  164 * KiB, 163 * KiB, 128, 1 * KiB, 8,
	  { 0, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 100 * KiB, 132 * KiB, 164 * KiB } },
	{ 8, 6, "Ampere (RTX 30, A40)", 32, 1024, 1536, 48, 16, 65536, 65536, 255, 256, APOD_OCC_REGS_PER_WARP, 4,
	  100 * KiB, 99 * KiB, 128, 1 * KiB, 6, { 0, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 100 * KiB } },
	{ 8, 9, "Ada (L4, L40, RTX 40)", 32, 1024, 1536, 48, 24, 65536, 65536, 255, 256, APOD_OCC_REGS_PER_WARP, 4,
	  100 * KiB, 99 * KiB, 128, 1 * KiB, 6, { 0, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 100 * KiB } },
	{ 9, 0, "Hopper (H100, H200)", 32, 1024, 2048, 64, 32, 65536, 65536, 255, 256, APOD_OCC_REGS_PER_WARP, 4,
	  228 * KiB, 227 * KiB, 128, 1 * KiB, 10,
	  { 0, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 100 * KiB, 132 * KiB, 164 * KiB, 196 * KiB, 228 * KiB } },
	{ 10, 0, "Blackwell (B200)", 32, 1024, 2048, 64, 32, 65536, 65536, 255, 256, APOD_OCC_REGS_PER_WARP, 4,
	  228 * KiB, 227 * KiB, 128, 1 * KiB, 10,
	  { 0, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 100 * KiB, 132 * KiB, 164 * KiB, 196 * KiB, 228 * KiB } },
	{ 12, 0, "Blackwell (RTX 50)", 32, 1024, 1536, 48, 24, 65536, 65536, 255, 256, APOD_OCC_REGS_PER_WARP, 4,
	  100 * KiB, 99 * KiB, 128, 1 * KiB, 6, { 0, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 100 * KiB } },
};

const struct apod_occ_sm *apod_occ_table(int *n)
{
	*n = (int)(sizeof table / sizeof table[0]);
	return table;
}

const struct apod_occ_sm *apod_occ_known(int major, int minor)
{
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (table[i].cc_major == major && table[i].cc_minor == minor)
			return &table[i];
	return NULL;
}

static int div_up(int x, int y)
{
	return (x + y - 1) / y;
}

static int round_up(int x, int y)
{
	return div_up(x, y) * y;
}

static size_t round_up_z(size_t x, size_t y)
{
	return (x + y - 1) / y * y;
}

/* The smallest size the SM supports that is at least `bytes` (the largest if none is). */
static size_t supported_at_least(const struct apod_occ_sm *sm, size_t bytes)
{
	for (int i = 0; i < sm->ncarveouts; i++)
		if (sm->carveouts[i] >= bytes)
			return sm->carveouts[i];
	return sm->smem_per_sm;
}

size_t apod_occ_smem_config(const struct apod_occ_sm *sm, int carveout, size_t block_alloc)
{
	size_t pref;
	/* Before Volta the split was fixed, or set per device (Fermi, Kepler):
	 * the table's row holds the one in force. */
	if (sm->ncarveouts == 0)
		return sm->smem_per_sm;
	pref = carveout < 0 || carveout > 100 ? sm->smem_per_sm
	                                      : (size_t)carveout * sm->smem_per_sm / 100;
	pref = supported_at_least(sm, pref);
	/* A preference too small for one block is overruled: the driver takes
	 * the smallest configuration that runs the launch. */
	return pref >= block_alloc ? pref : supported_at_least(sm, block_alloc);
}

void apod_occ_launch_init(struct apod_occ_launch *l, int threads, int regs, size_t smem)
{
	l->threads = threads;
	l->regs = regs;
	l->smem_static = smem;
	l->smem_dynamic = 0;
	l->carveout = -1;
	l->max_threads = 0;
	l->max_dynamic = SIZE_MAX;
}

static int min_int(int a, int b)
{
	return a < b ? a : b;
}

/* Registers: blocks per SM, or 0 if one block cannot have them. */
static int regs_limit(const struct apod_occ_sm *sm, const struct apod_occ_launch *l,
                      struct apod_occ_result *r)
{
	int w = r->warps_per_block, gran = sm->warp_alloc_gran > 0 ? sm->warp_alloc_gran : 1;

	r->regs_per_warp = r->regs_per_block = 0;
	if (l->regs > sm->max_regs_per_thread)
		return 0;
	if (sm->reg_gran == APOD_OCC_REGS_PER_BLOCK) {
		r->regs_per_block = round_up(round_up(w, gran) * sm->warp_size * l->regs, sm->reg_alloc_unit);
		if (r->regs_per_block > sm->regs_per_block)
			return 0;
		return r->regs_per_block ? sm->regs_per_sm / r->regs_per_block : INT_MAX;
	}
	r->regs_per_warp = round_up(l->regs * sm->warp_size, sm->reg_alloc_unit);
	r->regs_per_block = r->regs_per_warp * w;
	/* A block's warps are spread over the partitions; the hardware checks
	 * the per-block limit as if every partition took the same number. */
	if (r->regs_per_block > sm->regs_per_block ||
	    r->regs_per_warp * round_up(w, gran) > sm->regs_per_block)
		return 0;
	if (r->regs_per_warp == 0)
		return INT_MAX;
	/* Each partition holds whole warps. */
	return (sm->regs_per_sm / gran / r->regs_per_warp) * gran / w;
}

/* Shared memory: blocks per SM, or 0 if one block cannot have it. */
static int smem_limit(const struct apod_occ_sm *sm, const struct apod_occ_launch *l,
                      struct apod_occ_result *r)
{
	size_t need = l->smem_static + l->smem_dynamic + sm->smem_reserved_per_block;

	r->smem_per_block = round_up_z(need, sm->smem_alloc_unit);
	r->smem_config = apod_occ_smem_config(sm, l->carveout, r->smem_per_block);
	if (l->smem_dynamic > l->max_dynamic ||
	    r->smem_per_block > sm->smem_per_block + sm->smem_reserved_per_block)
		return 0;
	if (r->smem_per_block == 0)
		return INT_MAX;
	return (int)(r->smem_config / r->smem_per_block);
}

int apod_occupancy(const struct apod_occ_sm *sm, const struct apod_occ_launch *l,
                   struct apod_occ_result *r)
{
	int max_warps, max_threads;

	/* Blocks of more than 2^16 threads exist nowhere; refusing them keeps
	 * every product below (warps x registers) well inside an int. */
	if (!sm || !l || !r || l->threads < 1 || l->threads > 65536 || l->regs < 0 || sm->warp_size < 1 ||
	    sm->reg_alloc_unit < 1 || sm->smem_alloc_unit < 1)
		return -1;
	max_warps = sm->max_warps_per_sm > 0 ? sm->max_warps_per_sm : sm->max_threads_per_sm / sm->warp_size;
	max_threads = sm->max_threads_per_block;
	if (l->max_threads > 0 && l->max_threads < max_threads)
		max_threads = l->max_threads;

	r->warps_per_block = div_up(l->threads, sm->warp_size);
	r->by_warps = l->threads > max_threads ? 0 : max_warps / r->warps_per_block;
	r->by_blocks = sm->max_blocks_per_sm;
	r->by_regs = regs_limit(sm, l, r);
	r->by_smem = smem_limit(sm, l, r);

	r->blocks = min_int(min_int(r->by_warps, r->by_blocks), min_int(r->by_regs, r->by_smem));
	r->limiters = (r->by_warps == r->blocks ? APOD_OCC_LIMIT_WARPS : 0) |
	              (r->by_blocks == r->blocks ? APOD_OCC_LIMIT_BLOCKS : 0) |
	              (r->by_regs == r->blocks ? APOD_OCC_LIMIT_REGS : 0) |
	              (r->by_smem == r->blocks ? APOD_OCC_LIMIT_SMEM : 0);
	r->warps = r->blocks * r->warps_per_block;
	r->threads = r->blocks * l->threads;
	r->occupancy = (double)r->warps / max_warps;
	return 0;
}

int apod_occupancy_of(const struct apod_occ_sm *sm, int threads, int regs, size_t smem,
                      struct apod_occ_result *r)
{
	struct apod_occ_launch l;
	apod_occ_launch_init(&l, threads, regs, smem);
	return apod_occupancy(sm, &l, r);
}

const char *apod_occ_limiter_name(unsigned limiters)
{
	static const char *const names[16] = {
		"none", "warps", "blocks", "warps+blocks",
		"registers", "warps+registers", "blocks+registers", "warps+blocks+registers",
		"shared memory", "warps+shared memory", "blocks+shared memory",
		"warps+blocks+shared memory", "registers+shared memory",
		"warps+registers+shared memory", "blocks+registers+shared memory", "all four",
	};
	return names[limiters & 15];
}

double apod_occ_slides(const struct apod_occ_sm *sm, int threads, int regs, double smem_per_thread)
{
	double full = sm->max_threads_per_sm, occ = 1;
	double by_regs = regs > 0 ? (double)(sm->regs_per_sm / regs) : full;
	double by_smem = smem_per_thread > 0 ? (double)(long)(sm->smem_per_sm / smem_per_thread) : full;
	double by_blocks = (double)sm->max_blocks_per_sm * threads;

	if (by_regs / full < occ)
		occ = by_regs / full;
	if (by_smem / full < occ)
		occ = by_smem / full;
	if (by_blocks / full < occ)
		occ = by_blocks / full;
	return occ;
}
