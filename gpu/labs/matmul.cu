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

#include "kit.cuh"

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
/* cuBLAS's library and handle, owned: closed when it goes out of scope. */
struct cublas {
	void *lib = nullptr;
	cublasHandle_t h = nullptr;
	destroy_fn destroy = nullptr;
	sgemm_fn sgemm = nullptr;

	cublas() = default;
	cublas(const cublas &) = delete;
	cublas &operator=(const cublas &) = delete;
	~cublas()
	{
		if (lib) {
			destroy(h);
			dlclose(lib);
		}
	}
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

static const struct {
	const char *name;
	mm_kernel k;
	int aat;
} ladder[] = {
	{ "C=AB   1 global memory only", ab_global, 0 },
	{ "C=AB   2 tile of A in shared memory", ab_tile_a, 0 },
	{ "C=AB   3 tiles of A and B in shared", ab_tile_ab, 0 },
	{ "C=AA^T 1 global memory only", aat_global, 1 },
	{ "C=AA^T 2 transposed tile in shared", aat_tile<0>, 1 },
	{ "C=AA^T 3 padded tile, no conflicts", aat_tile<1>, 1 },
};

/* The matrices on both sides, and cuBLAS when it can be loaded. */
struct mats {
	int m, n;
	size_t na, nb, nc;
	host_array<float> a, b, c;            /* c: what came back */
	host_array<double> ref_ab, ref_aat;   /* the CPU references, in double */
	dev_array<float> da, db, dc;
	struct cublas cb;
	int have_cublas;
};

/* Random A and B, and both products on the CPU in double. */
static int make_host(struct mats *M)
{
	int m = M->m, n = M->n;
	float *a, *b;
	if (M->a.alloc(M->na) || M->b.alloc(M->nb) || M->c.alloc(M->nc) || M->ref_ab.alloc(M->nc) ||
	    M->ref_aat.alloc(M->nc))
		return -1;
	a = M->a.p, b = M->b.p;
	srand(12345);
	for (size_t k = 0; k < M->na; k++)
		a[k] = (float)rand() / RAND_MAX;
	for (size_t k = 0; k < M->nb; k++)
		b[k] = (float)rand() / RAND_MAX;
	/* The CPU references, in double. */
	for (int r = 0; r < m; r++)
		for (int col = 0; col < n; col++) {
			double s = 0, s2 = 0;
			for (int i = 0; i < TILE; i++) {
				s += (double)a[(size_t)r * TILE + i] * b[(size_t)i * n + col];
				s2 += (double)a[(size_t)r * TILE + i] * a[(size_t)col * TILE + i];
			}
			M->ref_ab.p[(size_t)r * n + col] = s;
			M->ref_aat.p[(size_t)r * n + col] = s2;
		}
	return 0;
}

static int make_device(struct mats *M)
{
	if (M->da.alloc(M->na) || M->db.alloc(M->nb) || M->dc.alloc(M->nc))
		return -1;
	APOD_CUDA_TRY(cudaMemcpy(M->da.p, M->a.p, M->na * sizeof(float), cudaMemcpyHostToDevice));
	APOD_CUDA_TRY(cudaMemcpy(M->db.p, M->b.p, M->nb * sizeof(float), cudaMemcpyHostToDevice));
	return 0;
}

/* cuBLAS on one product, checked then timed: the ceiling the ladder is measured against. */
static int cublas_pass(const struct apod_lab_opts *o, struct mats *M, int pass, double bytes, int *ok,
                       double *ms, double *gbs)
{
	float *da = M->da.p, *db = M->db.p, *dc = M->dc.p;
	int m = M->m, n = M->n;
	size_t nc = M->nc;
	APOD_CUDA_TRY(cudaMemset(dc, 0, nc * sizeof(float)));
	if (cublas_product(&M->cb, pass, da, db, dc, m, n))
		return -1;
	APOD_CUDA_TRY(cudaMemcpy(M->c.p, dc, nc * sizeof(float), cudaMemcpyDeviceToHost));
	*ok = check_product(M->c.p, pass ? M->ref_aat.p : M->ref_ab.p, nc);
	if (*ok && !o->check && time_it(o->reps, [&] {
		    return cublas_product(&M->cb, pass, da, db, dc, m, n) != 0; }, ms))
		return -1;
	*gbs = *ms > 0 ? bytes / (*ms * 1e-3) / 1e9 : 0;
	return 0;
}

/* One ladder version on one product: checked, then timed. */
static int ladder_version(const struct apod_lab_opts *o, struct mats *M, int v, int *vok, double *kms)
{
	float *da = M->da.p, *db = M->db.p, *dc = M->dc.p;
	int m = M->m, n = M->n;
	size_t nc = M->nc;
	dim3 grid(n / TILE, m / TILE), block(TILE, TILE);
	APOD_CUDA_TRY(cudaMemset(dc, 0, nc * sizeof(float)));
	APOD_LAUNCH_TRY((ladder[v].k<<<grid, block>>>(da, db, dc, n)));
	APOD_CUDA_TRY(cudaMemcpy(M->c.p, dc, nc * sizeof(float), cudaMemcpyDeviceToHost));
	*vok = check_product(M->c.p, ladder[v].aat ? M->ref_aat.p : M->ref_ab.p, nc);
	if (*vok && !o->check && time_it(o->reps, [&] {
		    ladder[v].k<<<grid, block>>>(da, db, dc, n);
		    return cudaGetLastError() != cudaSuccess; }, kms))
		return -1;
	return 0;
}

/* One product (pass 0: C = AB, 1: C = AA^T): cuBLAS first, then its ladder, into `table`. */
static int product_pass(const struct apod_lab_opts *o, struct mats *M, int pass, json_object *table,
                        int *failed)
{
	double bytes = (pass ? (double)M->na : (double)(M->na + M->nb)) * 4 + (double)M->nc * 4, ms = 0;
	double cublas_gbs = 0;
	struct lab_table t;
	int ok = 1;

	if (M->have_cublas && cublas_pass(o, M, pass, bytes, &ok, &ms, &cublas_gbs))
		return -1;
	printf("\n%s\n", pass ? "C = AA^T" : "C = AB");
	lab_table_begin(&t, table, "GB/s", cublas_gbs, "cuBLAS SGEMM on the same product", !o->check);
	for (int v = 0; v < 6; v++) {
		double kms = 0;
		int vok = 0;   /* set by ladder_version, but gcc cannot see it on every path */
		if (ladder[v].aat != pass)
			continue;
		if (ladder_version(o, M, v, &vok, &kms))
			return -1;
		*failed |= !vok;
		lab_table_row(&t, ladder[v].name, vok, kms, kms > 0 ? bytes / (kms * 1e-3) / 1e9 : 0, NULL);
	}
	if (M->have_cublas)
		lab_table_row(&t, "cuBLAS SGEMM", ok, ms, cublas_gbs, "the yardstick");
	else
		printf("  (cuBLAS not found at run time: no yardstick)\n");
	*failed |= !ok;
	return 0;
}

extern "C" int apod_lab_matmul(const struct apod_lab_opts *o, json_object *out)
{
	int m = (int)lab_size(o, 4096, 256), n = m;
	struct mats M;
	int failed = 0;
	json_object *tables[2];

	if (m < TILE || m % TILE || m > 32768)
		return apod_usage_fail("matmul: --size %d must be a multiple of %d, at most 32768", m, TILE);
	M.m = m, M.n = n;
	M.na = (size_t)m * TILE, M.nb = (size_t)TILE * n, M.nc = (size_t)m * n;
	if (make_host(&M) || make_device(&M))
		return -1;
	M.have_cublas = cublas_open(&M.cb);

	printf("matmul: A %dx%d, B %dx%d, C %dx%d floats; bytes counted: A (and B) read once, C "
	       "written once\n", m, TILE, TILE, n, m, n);
	tables[0] = json_object_new_object();
	tables[1] = json_object_new_object();
	lab_put(out, "C=AB", tables[0]);
	lab_put(out, "C=AA^T", tables[1]);
	for (int pass = 0; pass < 2; pass++)
		if (product_pass(o, &M, pass, tables[pass], &failed))
			return -1;
	return failed ? apod_fail("matmul: a version's product is outside the rounding bound") : 0;
}
