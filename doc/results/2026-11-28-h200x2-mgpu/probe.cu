// Where a multi-GPU heat step spends its time: the sequence of calls mgpu's
// step makes (gpu/heat/stage_mgpu.cu, step_on_streams), one rank per GPU,
// with the host's clock read around every call and CUDA events on both
// streams, so each call's host cost and the device's idle gaps are seen.
// Not part of apod: an experiment for doc/multigpu.md (issue 33, item 1).
//
//   nvcc -O3 -arch=native -o probe probe.cu $(mpicc --showme:compile) $(mpicc --showme:link) -lnccl
//   mpirun -np 2 ./probe NX ROWS STEPS MODE
//
// MODE: "split" (mgpu's: boundary rows and NCCL on one stream, the interior
// on another, events both ways), "one" (everything on one stream), "nonccl"
// (split, without the halo exchange), "sync" (split, the host waits for the
// step to finish each step).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mpi.h>
#include <nccl.h>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)
#define NK(x) do { ncclResult_t r = (x); if (r != ncclSuccess) { fprintf(stderr, "%s: %s\n", #x, ncclGetErrorString(r)); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)
#define MK(x) do { if ((x) != MPI_SUCCESS) { fprintf(stderr, "%s failed\n", #x); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)

__global__ void sweep(const float *cur, float *next, size_t nx, size_t r0, size_t r1, float a)
{
	size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x + 1, i = r0 + blockIdx.y;
	if (j >= nx - 1 || i >= r1)
		return;
	size_t k = i * nx + j;
	next[k] = cur[k] + a * (cur[k - 1] + cur[k + 1] + cur[k - nx] + cur[k + nx] - 4 * cur[k]);
}

static double now_us()
{
	timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

enum { C_EDGE, C_NCCL, C_INNER, C_EVENTS, C_SYNC, NCALLS };
static const char *call_name[NCALLS] = { "edge kernels", "ncclGroupStart..End", "interior kernel", "events", "sync" };

int main(int argc, char **argv)
{
	int rank, size, dev_count;
	MK(MPI_Init(&argc, &argv));
	MK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
	MK(MPI_Comm_size(MPI_COMM_WORLD, &size));
	if (argc != 5) {
		if (!rank) fprintf(stderr, "usage: probe NX ROWS STEPS split|one|nonccl|sync\n");
		MPI_Finalize();
		return 2;
	}
	size_t nx = strtoul(argv[1], 0, 10), rows = strtoul(argv[2], 0, 10);
	int steps = atoi(argv[3]);
	const char *mode = argv[4];
	bool one = !strcmp(mode, "one"), nonccl = !strcmp(mode, "nonccl"), sync = !strcmp(mode, "sync");
	CK(cudaGetDeviceCount(&dev_count));
	CK(cudaSetDevice(rank % dev_count));
	ncclUniqueId id;
	if (!rank) NK(ncclGetUniqueId(&id));
	MK(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD));
	ncclComm_t comm;
	NK(ncclCommInitRank(&comm, size, id, rank));
	size_t n = (rows + 2) * nx;
	float *cur, *next;
	CK(cudaMalloc(&cur, n * sizeof(float)));
	CK(cudaMalloc(&next, n * sizeof(float)));
	CK(cudaMemset(cur, 0, n * sizeof(float)));
	CK(cudaMemset(next, 0, n * sizeof(float)));
	cudaStream_t edge, inner;
	CK(cudaStreamCreateWithFlags(&edge, cudaStreamNonBlocking));
	if (one) inner = edge; else CK(cudaStreamCreateWithFlags(&inner, cudaStreamNonBlocking));
	cudaEvent_t edge_done, inner_done, t0, t1;
	CK(cudaEventCreateWithFlags(&edge_done, cudaEventDisableTiming));
	CK(cudaEventCreateWithFlags(&inner_done, cudaEventDisableTiming));
	CK(cudaEventCreate(&t0));
	CK(cudaEventCreate(&t1));
	int up = rank > 0 ? rank - 1 : -1, down = rank < size - 1 ? rank + 1 : -1;
	dim3 block(128, 1);
	unsigned gx = (unsigned)((nx - 2 + 127) / 128);
	double host[NCALLS] = { 0 };
	const int warm = 20;
	double start = 0;
	for (int s = 0; s < warm + steps; s++) {
		if (s == warm) {
			CK(cudaDeviceSynchronize());
			MK(MPI_Barrier(MPI_COMM_WORLD));
			memset(host, 0, sizeof host);
			CK(cudaEventRecord(t0, edge));
			start = now_us();
		}
		double a = now_us();
		sweep<<<dim3(gx, 1), block, 0, edge>>>(cur, next, nx, 1, 2, 0.24f);
		sweep<<<dim3(gx, 1), block, 0, edge>>>(cur, next, nx, rows, rows + 1, 0.24f);
		CK(cudaGetLastError());
		double b = now_us();
		if (!nonccl) {
			NK(ncclGroupStart());
			if (up >= 0) {
				NK(ncclSend(next + nx, nx * sizeof(float), ncclUint8, up, comm, edge));
				NK(ncclRecv(next, nx * sizeof(float), ncclUint8, up, comm, edge));
			}
			if (down >= 0) {
				NK(ncclSend(next + rows * nx, nx * sizeof(float), ncclUint8, down, comm, edge));
				NK(ncclRecv(next + (rows + 1) * nx, nx * sizeof(float), ncclUint8, down, comm, edge));
			}
			NK(ncclGroupEnd());
		}
		double c = now_us();
		sweep<<<dim3(gx, (unsigned)(rows - 2)), block, 0, inner>>>(cur, next, nx, 2, rows, 0.24f);
		CK(cudaGetLastError());
		double d = now_us();
		if (!one) {
			CK(cudaEventRecord(edge_done, edge));
			CK(cudaEventRecord(inner_done, inner));
			CK(cudaStreamWaitEvent(edge, inner_done, 0));
			CK(cudaStreamWaitEvent(inner, edge_done, 0));
		}
		double e = now_us();
		if (sync)
			CK(cudaStreamSynchronize(edge));
		double f = now_us();
		host[C_EDGE] += b - a; host[C_NCCL] += c - b; host[C_INNER] += d - c;
		host[C_EVENTS] += e - d; host[C_SYNC] += f - e;
		float *t = cur; cur = next; next = t;
	}
	double issued = now_us();
	CK(cudaEventRecord(t1, edge));
	CK(cudaEventSynchronize(t1));
	double end = now_us();
	float dev_ms;
	CK(cudaEventElapsedTime(&dev_ms, t0, t1));
	for (int r = 0; r < size; r++) {
		MK(MPI_Barrier(MPI_COMM_WORLD));
		if (r != rank) continue;
		printf("rank %d/%d mode %s nx %zu rows %zu steps %d: wall %.1f us a step (host issued in %.1f), device span %.1f us a step\n",
		       rank, size, mode, nx, rows, steps, (end - start) / steps, (issued - start) / steps, dev_ms * 1e3 / steps);
		for (int k = 0; k < NCALLS; k++)
			printf("  host in %-22s %8.2f us a step\n", call_name[k], host[k] / steps);
		fflush(stdout);
	}
	ncclCommDestroy(comm);
	MPI_Finalize();
	return 0;
}
