/*
 * stage_gpu.cu: the particles on the device.
 *
 * What moved to the device: the state (uploaded once in create, resident
 * for the whole run), moveParticles (one thread a particle, the same
 * particles_kdk() as serial) and calcEnergy (a two-level reduction in
 * double: each block sums its particles, then one block sums the blocks;
 * 16 bytes come back per probe).  The state crosses PCIe again only when
 * the harness fetches it, for a snapshot or the final report.
 *
 * What can differ from serial: nvcc contracts a*b + c into one FMA (unless
 * configured with --disable-fmad), so the state differs in the last bits
 * and that difference grows linearly with the steps; and the energy is
 * summed in another order.  workload.c designs the tolerances for both.
 *
 * Every CUDA call and launch is checked (APOD_CUDA_TRY, APOD_LAUNCH_TRY): a failure
 * names the call, the file and the line, and the stage returns -1.
 */
#include <stdint.h>
#include <stdlib.h>

#include "apod/cuda.h"
#include "apod/ready_made.h"
#include "gpu/block_tree_sum.cuh"
#include "gpu/device.h"
#include "cpu/particles/particles.h"
#include "shared/particles/update.h"

#define BLOCK 256             /* threads a block, a power of two (the tree below) */
#define ENERGY_BLOCKS 1024    /* at most: partial sums per probe */

static_assert(sizeof(float4) == PARTICLES_COLS * sizeof(float), "a particle is one float4");

struct gpu {
	const struct particles_problem *p;
	float4 *d_state;          /* n particles: x, y, vx, vy */
	double2 *d_partial;       /* one (kinetic, potential) per block of energy_blocks */
	double2 *d_total;
	unsigned move_blocks, energy_blocks;
};

/* moveParticles: one thread, one particle, the serial stage's function. */
static __global__ void move_kernel(float4 *state, size_t n, float dt)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	float s[PARTICLES_COLS];
	float4 v;
	if (i >= n)
		return;
	v = state[i];                     /* one 16-byte load */
	s[0] = v.x;
	s[1] = v.y;
	s[2] = v.z;
	s[3] = v.w;
	particles_kdk(s, particles_spring(i), dt);
	state[i] = make_float4(s[0], s[1], s[2], s[3]);
}

/* Sum the block's (kinetic, potential) pairs; thread 0 gets the result.  A
 * fixed tree (block_tree_sum.cuh), so the order (and so the result) is the
 * same on every run. */
static __device__ double2 block_sum(double ke, double pe)
{
	const double v[2] = { ke, pe };
	double sum[2] = { 0, 0 };
	block_tree_sum<2, BLOCK>(v, sum);
	return make_double2(sum[0], sum[1]);
}

/* calcEnergy, level 1: every thread sums a strided set of particles in
 * index order, then each block sums its threads. */
static __global__ void energy_kernel(const float4 *state, size_t n, double2 *partial)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	double ke = 0, pe = 0;
	double2 sum;
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		float4 v = state[i];
		float s[PARTICLES_COLS] = { v.x, v.y, v.z, v.w };
		double k1, p1;
		particles_energy(s, particles_spring(i), &k1, &p1);
		ke += k1;
		pe += p1;
	}
	sum = block_sum(ke, pe);
	if (threadIdx.x == 0)
		partial[blockIdx.x] = sum;
}

/* calcEnergy, level 2: one block sums the blocks' partial sums. */
static __global__ void total_kernel(const double2 *partial, unsigned count, double2 *total)
{
	double ke = 0, pe = 0;
	double2 sum;
	for (unsigned b = threadIdx.x; b < count; b += blockDim.x) {
		ke += partial[b].x;
		pe += partial[b].y;
	}
	sum = block_sum(ke, pe);
	if (threadIdx.x == 0)
		*total = sum;
}

static void gpu_destroy(void *ctx)
{
	struct gpu *g = (struct gpu *)ctx;
	apod_cuda_free(g->d_state, g->d_partial, g->d_total);
	free(g);
}

static int gpu_setup(void *ctx, const void *problem)
{
	struct gpu *g = (struct gpu *)ctx;
	const struct particles_problem *p = (const struct particles_problem *)problem;
	size_t bytes = p->n * sizeof(float4);
	size_t blocks = (p->n + BLOCK - 1) / BLOCK;
	g->p = p;
	g->move_blocks = (unsigned)blocks;   /* n <= 2^27: at most 2^19 blocks */
	g->energy_blocks = (unsigned)(blocks < ENERGY_BLOCKS ? blocks : ENERGY_BLOCKS);
	if (apod_gpu_require("gpu", bytes + (g->energy_blocks + 1) * sizeof(double2)))
		return -1;
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_state, bytes));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_partial, g->energy_blocks * sizeof(double2)));
	APOD_CUDA_TRY(cudaMalloc((void **)&g->d_total, sizeof(double2)));
	/* The problem's bits, the same every stage starts from. */
	APOD_CUDA_TRY(cudaMemcpy(g->d_state, p->init, bytes, cudaMemcpyHostToDevice));
	return 0;
}

static void *gpu_create(const struct apod_stage *s, const void *problem)
{
	return apod_state_create(problem, sizeof(struct gpu), s->name, gpu_setup, gpu_destroy);
}

static int gpu_step(void *ctx, int phase, long step, long steps)
{
	struct gpu *g = (struct gpu *)ctx;
	(void)phase, (void)step, (void)steps;   /* the one phase, the same every step */
	APOD_LAUNCH_TRY((move_kernel<<<g->move_blocks, BLOCK>>>(g->d_state, g->p->n, g->p->dt)));
	/* Wait for the step, so that its time is counted under moveParticles and
	 * a fault in the kernel is reported at the step that made it.  (Without
	 * it the next probe or fetch would wait instead and be charged for it.) */
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	return 0;
}

static int gpu_energy(void *ctx, int k, long step, long row, void *const *rows)
{
	struct gpu *g = (struct gpu *)ctx;
	double2 total;
	(void)k, (void)step, (void)row;
	APOD_LAUNCH_TRY((energy_kernel<<<g->energy_blocks, BLOCK>>>(g->d_state, g->p->n, g->d_partial)));
	APOD_LAUNCH_TRY((total_kernel<<<1, BLOCK>>>(g->d_partial, g->energy_blocks, g->d_total)));
	/* A blocking copy: it waits for both kernels. */
	APOD_CUDA_TRY(cudaMemcpy(&total, g->d_total, sizeof total, cudaMemcpyDeviceToHost));
	particles_energy_rows(total.x, total.y, rows);
	return 0;
}

static int gpu_fetch(void *ctx, int a, void *dst)
{
	struct gpu *g = (struct gpu *)ctx;
	(void)a;   /* the one array, the state: the same layout on both sides */
	APOD_CUDA_TRY(cudaMemcpy(dst, g->d_state, g->p->n * sizeof(float4), cudaMemcpyDeviceToHost));
	return 0;
}

/* What the gpu stage does; cpu/particles/stages.c describes it.  C++20
 * designated initializers: in the order the members are declared. */
extern "C" const struct apod_stage_ops particles_gpu_ops = {
	.available = apod_gpu_stage_available,
	.width = NULL,            /* a device: no thread count for Amdahl's N */
	.create = gpu_create,
	.step = gpu_step,
	.probe = gpu_energy,
	.fetch = gpu_fetch,
	.destroy = gpu_destroy,
	.defer_rows = 0,
	.collect = NULL,
	.snapshot_begin = NULL,   /* snapshots go through fetch */
	.snapshot_stream = NULL,
};
