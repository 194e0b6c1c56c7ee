// How much do phase-timing events cost a 2048^2 resident step loop?
#include <cstdio>
#include <chrono>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)
static const int N = 2048, STEPS = 300;

template <bool PDL>
__global__ void sweep(const float *__restrict__ a, float *__restrict__ b, int n)
{
	if (PDL) cudaGridDependencySynchronize();
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < (size_t)n * n / 4) {
		float4 v = reinterpret_cast<const float4 *>(a)[i];
		float4 u = reinterpret_cast<const float4 *>(a)[(i + n / 4) % ((size_t)n * n / 4)];
		v.x += 0.1f * u.x; v.y += 0.1f * u.y; v.z += 0.1f * u.z; v.w += 0.1f * u.w;
		reinterpret_cast<float4 *>(b)[i] = v;
	}
	if (PDL) cudaTriggerProgrammaticLaunchCompletion();
}

static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

int main()
{
	float *a, *b;
	cudaStream_t st;
	CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
	CK(cudaMalloc(&a, sizeof(float) * N * N));
	CK(cudaMalloc(&b, sizeof(float) * N * N));
	CK(cudaMemset(a, 0, sizeof(float) * N * N));
	CK(cudaMemset(b, 0, sizeof(float) * N * N));
	const int NEV = 6 * STEPS + 8;
	cudaEvent_t *ev = new cudaEvent_t[NEV];
	for (int i = 0; i < NEV; i++) CK(cudaEventCreate(&ev[i]));
	cudaEvent_t t0, t1;
	CK(cudaEventCreate(&t0)); CK(cudaEventCreate(&t1));
	int threads = 256, blocks = N * N / 4 / threads;
	const char *names[] = { "launch only", "3 pairs/step (now)", "chained 3/step", "chained 1/step", "1 pair/step",
	                        "PDL launch only", "PDL 3 pairs", "PDL chained 3", "PDL chained 1", "chained 1, 8 kernels" };
	for (int rep = 0; rep < 3; rep++)
	for (int v = 0; v < 10; v++) {
		bool pdl = v >= 5 && v <= 8;
		int mode = v >= 5 && v <= 8 ? v - 4 : v;   // 0 none 1 pairs 2 chain3 3 chain1 4 onepair
		if (v == 5) mode = 0;
		if (v == 9) mode = 3;
		cudaLaunchAttribute at; at.id = cudaLaunchAttributeProgrammaticStreamSerialization; at.val.programmaticStreamSerializationAllowed = 1;
		cudaLaunchConfig_t cfg = {}; cfg.gridDim = blocks; cfg.blockDim = threads; cfg.stream = st; cfg.attrs = &at; cfg.numAttrs = 1;
		CK(cudaStreamSynchronize(st));
		double h0 = now();
		CK(cudaEventRecord(t0, st));
		int e = 0;
		if (mode >= 2 && mode <= 3) CK(cudaEventRecord(ev[e++], st));
		for (int s = 0; s < STEPS; s++) {
			if (mode == 1 || mode == 4) CK(cudaEventRecord(ev[e++], st));
			float *x = s & 1 ? b : a, *y = s & 1 ? a : b;
			if (pdl) CK(cudaLaunchKernelEx(&cfg, sweep<true>, (const float *)x, y, N));
			else sweep<false><<<blocks, threads, 0, st>>>(x, y, N);
			CK(cudaGetLastError());
			if (mode >= 1) CK(cudaEventRecord(ev[e++], st));
			if (mode == 1) { for (int k = 0; k < 2; k++) { CK(cudaEventRecord(ev[e++], st)); CK(cudaEventRecord(ev[e++], st)); } }
			if (mode == 2) { CK(cudaEventRecord(ev[e++], st)); CK(cudaEventRecord(ev[e++], st)); }
		}
		CK(cudaEventRecord(t1, st));
		double h1 = now();
		CK(cudaEventSynchronize(t1));
		float ms; CK(cudaEventElapsedTime(&ms, t0, t1));
		// phase sums as the harness would see them
		double step = 0, rest = 0; float m;
		if (mode == 1) for (int s = 0; s < STEPS; s++) {
			CK(cudaEventElapsedTime(&m, ev[6 * s], ev[6 * s + 1])); step += m;
			CK(cudaEventElapsedTime(&m, ev[6 * s + 2], ev[6 * s + 3])); rest += m;
			CK(cudaEventElapsedTime(&m, ev[6 * s + 4], ev[6 * s + 5])); rest += m;
		}
		if (mode == 2) for (int s = 0; s < STEPS; s++) {
			CK(cudaEventElapsedTime(&m, ev[3 * s], ev[3 * s + 1])); step += m;
			CK(cudaEventElapsedTime(&m, ev[3 * s + 1], ev[3 * s + 3])); rest += m;
		}
		if (mode == 3) for (int s = 0; s < STEPS; s++) { CK(cudaEventElapsedTime(&m, ev[s], ev[s + 1])); step += m; }
		if (mode == 4) for (int s = 0; s < STEPS; s++) { CK(cudaEventElapsedTime(&m, ev[2 * s], ev[2 * s + 1])); step += m; }
		if (rep == 2)
		printf("%-22s device %7.2f us/step  host issue %6.2f us/step  phases: step %6.2f other %5.2f us/step\n",
		       names[v], 1e3 * ms / STEPS, 1e6 * (h1 - h0) / STEPS, 1e3 * step / STEPS, 1e3 * rest / STEPS);
	}
	return 0;
}
