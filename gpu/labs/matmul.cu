/*
 * matmul.cu: lab 6, the guide's shared-memory ladders for C = AB and
 * C = AA^T, with cuBLAS in the same run as the yardstick.
 *
 * A is M x w and B is w x N, with w = TILE (32), so that one warp-wide
 * tile spans the inner dimension; one thread computes one element of C.
 *   C = AB:   1 every operand from global memory;
 *             2 a tile of A staged in shared memory (coalesced reads of A);
 *             3 tiles of A and of B in shared memory (B read once per block).
 *   C = AA^T: 1 from global memory (A read down its columns: uncoalesced);
 *             2 a transposed tile in shared memory (coalesced global reads,
 *               but writing the tile down its columns puts 32 threads of a
 *               warp on one bank);
 *             3 the same tile padded by one column (no bank conflicts).
 * Effective bandwidth counts what each product must move at least: A and
 * B (or A) read once and C written once, in floats.  cuBLAS is loaded at
 * run time (dlopen), so the workbench does not depend on it to start.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cublas_v2.h>

#include "cuda_check.h"
#include "lab.h"
#include "report.cuh"
#include "timing.cuh"

#define TILE 32

static __global__ void ab_global(const float *a, const float *b, float *c, int n)
{
	int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
	float sum = 0.0f;
	for (int i = 0; i < TILE; i++)
		sum += a[row * TILE + i] * b[i * n + col];
	c[row * n + col] = sum;
}

static __global__ void ab_tile_a(const float *a, const float *b, float *c, int n)
{
	__shared__ float ta[TILE][TILE];
	int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
	float sum = 0.0f;
	ta[threadIdx.y][threadIdx.x] = a[row * TILE + threadIdx.x];
	/* Each warp reads back only the row it wrote itself. */
	__syncwarp();
	for (int i = 0; i < TILE; i++)
		sum += ta[threadIdx.y][i] * b[i * n + col];
	c[row * n + col] = sum;
}

static __global__ void ab_tile_ab(const float *a, const float *b, float *c, int n)
{
	__shared__ float ta[TILE][TILE], tb[TILE][TILE];
	int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
	float sum = 0.0f;
	ta[threadIdx.y][threadIdx.x] = a[row * TILE + threadIdx.x];
	tb[threadIdx.y][threadIdx.x] = b[threadIdx.y * n + col];
	/* Now warps read what other warps wrote: the whole block must wait. */
	__syncthreads();
	for (int i = 0; i < TILE; i++)
		sum += ta[threadIdx.y][i] * tb[i][threadIdx.x];
	c[row * n + col] = sum;
}

static __global__ void aat_global(const float *a, const float *unused, float *c, int m)
{
	int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
	float sum = 0.0f;
	(void)unused;
	for (int i = 0; i < TILE; i++)
		sum += a[row * TILE + i] * a[col * TILE + i];
	c[row * m + col] = sum;
}

template <int PAD>
static __global__ void aat_tile(const float *a, const float *unused, float *c, int m)
{
	__shared__ float ta[TILE][TILE], tt[TILE][TILE + PAD];
	int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
	float sum = 0.0f;
	(void)unused;
	ta[threadIdx.y][threadIdx.x] = a[row * TILE + threadIdx.x];
	/* Row blockIdx.x*TILE + ty of A, stored as column ty: A^T's tile. */
	tt[threadIdx.x][threadIdx.y] = a[(blockIdx.x * TILE + threadIdx.y) * TILE + threadIdx.x];
	__syncthreads();
	for (int i = 0; i < TILE; i++)
		sum += ta[threadIdx.y][i] * tt[i][threadIdx.x];
	c[row * m + col] = sum;
}

typedef void (*mm_kernel)(const float *, const float *, float *, int);

/* cuBLAS, found at run time. */
typedef cublasStatus_t (*create_fn)(cublasHandle_t *);
typedef cublasStatus_t (*destroy_fn)(cublasHandle_t);
typedef cublasStatus_t (*sgemm_fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                   int, const float *, const float *, int, const float *, int,
                                   const float *, float *, int);
struct cublas {
	void *lib;
	cublasHandle_t h;
	destroy_fn destroy;
	sgemm_fn sgemm;
};

static int cublas_open(struct cublas *cb)
{
	static const char *const names[] = { "libcublas.so.13", "libcublas.so" };
	create_fn create;
	cb->lib = NULL;
	for (int i = 0; i < 2 && !cb->lib; i++)
		cb->lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
	if (!cb->lib)
		return 0;
	create = (create_fn)dlsym(cb->lib, "cublasCreate_v2");
	cb->destroy = (destroy_fn)dlsym(cb->lib, "cublasDestroy_v2");
	cb->sgemm = (sgemm_fn)dlsym(cb->lib, "cublasSgemm_v2");
	if (!create || !cb->destroy || !cb->sgemm || create(&cb->h) != CUBLAS_STATUS_SUCCESS) {
		dlclose(cb->lib);
		cb->lib = NULL;
		return 0;
	}
	return 1;
}

/* Row-major C = AB is column-major C^T = B^T A^T; row-major C = AA^T is
 * column-major X^T X with X = A^T as stored. */
static int cublas_product(struct cublas *cb, int aat, const float *a, const float *b, float *c, int m,
                          int n)
{
	const float one = 1.0f, zero = 0.0f;
	cublasStatus_t st = aat ?
		cb->sgemm(cb->h, CUBLAS_OP_T, CUBLAS_OP_N, m, m, TILE, &one, a, TILE, a, TILE, &zero, c, m) :
		cb->sgemm(cb->h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, TILE, &one, b, n, a, TILE, &zero, c, n);
	return st == CUBLAS_STATUS_SUCCESS ? 0 : apod_fail("cublasSgemm failed: status %d", (int)st);
}

/* Every element within the rounding of a 32-term float dot product of
 * non-negative terms: |c - ref| <= 2 * 32 * u * ref (+ a tiny absolute). */
static int check_product(const float *got, const double *ref, size_t count)
{
	for (size_t k = 0; k < count; k++)
		if (!(fabs(got[k] - ref[k]) <= 64 * 5.97e-8 * ref[k] + 1e-30))
			return 0;
	return 1;
}

extern "C" int apod_lab_matmul(const struct apod_lab_opts *o, json_object *out)
{
	int m = o->check ? 256 : (o->size ? (int)o->size : 4096), n = m;
	size_t na = (size_t)m * TILE, nb = (size_t)TILE * n, nc = (size_t)m * n;
	float *a = (float *)malloc(na * sizeof(float)), *b = (float *)malloc(nb * sizeof(float));
	float *c = (float *)malloc(nc * sizeof(float)), *da, *db, *dc;
	double *ref_ab = (double *)malloc(nc * sizeof(double)), *ref_aat = (double *)malloc(nc * sizeof(double));
	struct cublas cb;
	struct lab_table t;
	int failed = 0, have_cublas;
	double cublas_gbs[2] = { 0, 0 };
	json_object *rows_ab = json_object_new_object(), *rows_aat = json_object_new_object();
	static const struct { const char *name; mm_kernel k; int aat; } ladder[] = {
		{ "C=AB   1 global memory only", ab_global, 0 },
		{ "C=AB   2 tile of A in shared memory", ab_tile_a, 0 },
		{ "C=AB   3 tiles of A and B in shared", ab_tile_ab, 0 },
		{ "C=AA^T 1 global memory only", aat_global, 1 },
		{ "C=AA^T 2 transposed tile in shared", aat_tile<0>, 1 },
		{ "C=AA^T 3 padded tile, no conflicts", aat_tile<1>, 1 },
	};

	if (m < TILE || m % TILE || m > 32768)
		return apod_usage_fail("matmul: --size %d must be a multiple of %d, at most 32768", m, TILE);
	if (!a || !b || !c || !ref_ab || !ref_aat)
		return apod_fail("matmul: cannot allocate host matrices for M = N = %d", m);
	srand(12345);
	for (size_t k = 0; k < na; k++)
		a[k] = (float)rand() / RAND_MAX;
	for (size_t k = 0; k < nb; k++)
		b[k] = (float)rand() / RAND_MAX;
	/* The CPU references, in double. */
	for (int r = 0; r < m; r++)
		for (int col = 0; col < n; col++) {
			double s = 0, s2 = 0;
			for (int i = 0; i < TILE; i++) {
				s += (double)a[(size_t)r * TILE + i] * b[(size_t)i * n + col];
				s2 += (double)a[(size_t)r * TILE + i] * a[(size_t)col * TILE + i];
			}
			ref_ab[(size_t)r * n + col] = s;
			ref_aat[(size_t)r * n + col] = s2;
		}
	CUDA_TRY(cudaMalloc(&da, na * sizeof(float)));
	CUDA_TRY(cudaMalloc(&db, nb * sizeof(float)));
	CUDA_TRY(cudaMalloc(&dc, nc * sizeof(float)));
	CUDA_TRY(cudaMemcpy(da, a, na * sizeof(float), cudaMemcpyHostToDevice));
	CUDA_TRY(cudaMemcpy(db, b, nb * sizeof(float), cudaMemcpyHostToDevice));
	have_cublas = cublas_open(&cb);

	printf("matmul: A %dx%d, B %dx%d, C %dx%d floats; bytes counted: A (and B) read once, C "
	       "written once\n", m, TILE, TILE, n, m, n);
	json_object_object_add(out, "C=AB", rows_ab);
	json_object_object_add(out, "C=AA^T", rows_aat);
	for (int pass = 0; pass < 2; pass++) {
		double bytes = (pass ? (double)na : (double)(na + nb)) * 4 + (double)nc * 4, ms = 0;
		int ok = 1;
		/* cuBLAS first: it is the ceiling the ladder is measured against. */
		if (have_cublas) {
			CUDA_TRY(cudaMemset(dc, 0, nc * sizeof(float)));
			if (cublas_product(&cb, pass, da, db, dc, m, n))
				return -1;
			CUDA_TRY(cudaMemcpy(c, dc, nc * sizeof(float), cudaMemcpyDeviceToHost));
			ok = check_product(c, pass ? ref_aat : ref_ab, nc);
			if (ok && !o->check && time_it(o->reps, [&] {
				    return cublas_product(&cb, pass, da, db, dc, m, n) != 0; }, &ms))
				return -1;
			cublas_gbs[pass] = ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0;
		}
		printf("\n%s\n", pass ? "C = AA^T" : "C = AB");
		lab_table_begin(&t, pass ? rows_aat : rows_ab, "GB/s", cublas_gbs[pass],
		                "cuBLAS SGEMM on the same product", !o->check);
		for (int v = 0; v < 6; v++) {
			dim3 grid(n / TILE, m / TILE), block(TILE, TILE);
			double kms = 0;
			int vok;
			if (ladder[v].aat != pass)
				continue;
			CUDA_TRY(cudaMemset(dc, 0, nc * sizeof(float)));
			LAUNCH_TRY((ladder[v].k<<<grid, block>>>(da, db, dc, n)));
			CUDA_TRY(cudaMemcpy(c, dc, nc * sizeof(float), cudaMemcpyDeviceToHost));
			vok = check_product(c, pass ? ref_aat : ref_ab, nc);
			failed |= !vok;
			if (vok && !o->check && time_it(o->reps, [&] {
				    ladder[v].k<<<grid, block>>>(da, db, dc, n);
				    return cudaGetLastError() != cudaSuccess; }, &kms))
				return -1;
			lab_table_row(&t, ladder[v].name, vok, kms, kms > 0 ? bytes / (kms * 1e-3) / 1e9 : 0, NULL);
		}
		if (have_cublas)
			lab_table_row(&t, "cuBLAS SGEMM", ok, ms, cublas_gbs[pass], "the yardstick");
		else
			printf("  (cuBLAS not found at run time: no yardstick)\n");
		failed |= !ok;
	}
	if (have_cublas) {
		cb.destroy(cb.h);
		dlclose(cb.lib);
	}
	cudaFree(da);
	cudaFree(db);
	cudaFree(dc);
	free(a);
	free(b);
	free(c);
	free(ref_ab);
	free(ref_aat);
	return failed ? apod_fail("matmul: a version's product is outside the rounding bound") : 0;
}
