// flush_probe.cu — how much of a small memory-bound kernel's time in dlbtune's harness is the L2 flush's own
// write-back (docs/NOTES.md item 287). Standalone: nvcc -O2 -arch=sm_90 -o flush_probe flush_probe.cu
//
// A sample as src/bench.c takes it: flush, event, `reps` launches of a streaming read over input sets rotated
// through 2x the L2, event; the median of 31 samples, per launch. The flush three ways:
//   dirty: cudaMemsetAsync over max(2x L2, 64 MiB), as the harness does: L2 is left full of dirty lines;
//   clean: the same memset, then a read of another buffer of 2x L2 (never written after setup): the dirty lines
//          are written back before the first event, and L2 holds clean lines;
//   read:  only that read.
// The kernel reads S bytes in 16-byte vectors, 4 loads in flight a thread (as templates/util.cu's
// stream_floor), and writes one word a block. reps: what the harness picks (ceil(20 us / one launch), at most the
// sets) and all the sets. Output: S, mode, reps, µs a launch, GB/s over S.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                                                \
	do {                                                                                                 \
		cudaError_t e_ = (x);                                                                        \
		if (e_ != cudaSuccess) {                                                                     \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
			exit(1);                                                                             \
		}                                                                                            \
	} while (0)

__global__ void stream_read(const uint4 *a, long long n, unsigned *out)
{
	const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x, T = (long long)gridDim.x * blockDim.x;
	unsigned x = 0;
	long long i = t;
	for (; i + 3 * T < n; i += 4 * T) {
		uint4 v[4];
#pragma unroll
		for (int u = 0; u < 4; u++)
			v[u] = __ldg(a + i + u * T);
#pragma unroll
		for (int u = 0; u < 4; u++)
			x ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
	}
	for (; i < n; i += T) {
		const uint4 v = __ldg(a + i);
		x ^= v.x ^ v.y ^ v.z ^ v.w;
	}
	x = __reduce_xor_sync(0xffffffffu, x);
	if (threadIdx.x == 0)
		out[blockIdx.x] = x;
}

int main()
{
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	const size_t l2 = (size_t)p.l2CacheSize, fb = std::max(2 * l2, (size_t)64 << 20), rb = 2 * l2;
	printf("# %s, %d SMs, L2 %zu MiB, flush %zu MiB\n", p.name, p.multiProcessorCount, l2 >> 20, fb >> 20);
	void *flush, *rbuf;
	unsigned *out;
	CK(cudaMalloc(&flush, fb));
	CK(cudaMalloc(&rbuf, rb));
	CK(cudaMemset(rbuf, 1, rb));
	CK(cudaMalloc(&out, 1 << 20));
	cudaStream_t s;
	CK(cudaStreamCreate(&s));
	cudaEvent_t e0, e1;
	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	const int grid = 8 * p.multiProcessorCount, block = 256; // every SM full (2048 threads) eight blocks deep
	const size_t sizes_mb[] = {8, 16, 24, 31};
	const char *modes[] = {"dirty", "clean", "read"};
	printf("S_MB,mode,reps,sets,us_per_launch,gbps\n");
	for (size_t smb : sizes_mb) {
		const size_t S = smb << 20;
		const int sets = (int)std::max((size_t)1, 2 * l2 / S);
		void *data;
		CK(cudaMalloc(&data, S * sets));
		CK(cudaMemset(data, 3, S * sets));
		auto launch = [&](int set) {
			stream_read<<<grid, block, 0, s>>>((const uint4 *)((char *)data + (size_t)set * S), (long long)(S / 16),
							   out);
			CK(cudaGetLastError());
		};
		auto doflush = [&](int mode, int salt) {
			if (mode != 2)
				CK(cudaMemsetAsync(flush, salt & 0xff, fb, s));
			if (mode != 0) {
				stream_read<<<grid, block, 0, s>>>((const uint4 *)rbuf, (long long)(rb / 16), out + 4096);
				CK(cudaGetLastError());
			}
		};
		// one launch after a dirty flush sizes reps as the harness does
		float ms1 = 0;
		for (int w = 0; w < 3; w++) {
			doflush(0, w);
			CK(cudaEventRecord(e0, s));
			launch(w % sets);
			CK(cudaEventRecord(e1, s));
			CK(cudaEventSynchronize(e1));
			CK(cudaEventElapsedTime(&ms1, e0, e1));
		}
		const int hr = std::min(sets, std::max(1, (int)ceil(20.0 / (1e3 * ms1))));
		const int repss[] = {hr, sets};
		for (int m = 0; m < 3; m++)
			for (int ri = 0; ri < 2; ri++) {
				if (ri == 1 && repss[1] == repss[0])
					continue;
				const int reps = repss[ri];
				std::vector<double> us;
				for (int n = 0; n < 31; n++) {
					doflush(m, n + 1);
					CK(cudaEventRecord(e0, s));
					for (int r = 0; r < reps; r++)
						launch((n * reps + r) % sets);
					CK(cudaEventRecord(e1, s));
					CK(cudaEventSynchronize(e1));
					float ms = 0;
					CK(cudaEventElapsedTime(&ms, e0, e1));
					us.push_back(1e3 * ms / reps);
				}
				std::sort(us.begin(), us.end());
				const double med = us[us.size() / 2];
				printf("%zu,%s,%d,%d,%.2f,%.0f\n", smb, modes[m], reps, sets, med, (double)S / (med * 1e3));
			}
		CK(cudaFree(data));
	}
	return 0;
}
