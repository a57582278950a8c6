// What a thread-block cluster costs a short kernel on Hopper, apart from the kernel's work (issue 28, run142):
// back-to-back programmatic dependent launches of 64 blocks of 384 threads with ~105 KB of dynamic shared memory
// (a 64x32 KIND 2 block's ring), each spinning SPIN cycles, as plain blocks or as clusters of 2/4/8 along z, with
// 0, 1 or 2 cluster barriers (conv_cluster_finish has two) and the DSMEM reads between them. Mean time a launch over
// a stream of launches, CUDA events. Build: nvcc -arch=sm_90a -O3 -o cluster_cost cluster_cost.cu
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define CK(x)                                                                                              \
	do {                                                                                               \
		cudaError_t e_ = (x);                                                                      \
		if (e_ != cudaSuccess) {                                                                   \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));       \
			exit(1);                                                                           \
		}                                                                                          \
	} while (0)

// BARS 3: the one-sided finish. The mbarrier is initialised at the start, a relaxed cluster arrive after it, the
// matching wait just before the remote stores; each thread pushes its value into every other block's slot for it
// (st.async, completing bytes on that block's mbarrier); each block waits on its own mbarrier alone, then sums
// the slots in rank order. READS 0 with BARS 3: the early arrive and the late wait alone.
template <int BARS, int READS>
__global__ void __launch_bounds__(384, 1) k(float *out, long long spin)
{
	asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
	extern __shared__ __align__(16) float sm[];
	__shared__ __align__(8) unsigned long long mb;
	const unsigned mba = (unsigned)__cvta_generic_to_shared(&mb);
	if (BARS == 3) {
		if (threadIdx.x == 0) {
			asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mba) : "memory");
			asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
		}
		__syncthreads();
		asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
	}
	asm volatile("griddepcontrol.wait;" ::: "memory");
	long long t0 = clock64();
	while (clock64() - t0 < spin)
		;
	float acc = threadIdx.x;
	if (BARS == 3) {
		unsigned n, r;
		asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
		asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
		asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
		if (READS) {
			if (threadIdx.x == 0)
				asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mba), "r"((n - 1) * 384u * 4u)
					     : "memory");
			const unsigned slot = (unsigned)__cvta_generic_to_shared(&sm[r * 384 + threadIdx.x]);
			sm[r * 384 + threadIdx.x] = acc;
			for (unsigned z = 0; z < n; z++) {
				if (z == r)
					continue;
				unsigned ra, rb;
				asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra) : "r"(slot), "r"(z));
				asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rb) : "r"(mba), "r"(z));
				asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.f32 [%0], %1, [%2];" ::"r"(ra),
					     "f"(acc), "r"(rb)
					     : "memory");
			}
			asm volatile("{\n\t.reg .pred p;\n\tW: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n\t@!p bra W;\n\t}" ::"r"(mba)
				     : "memory");
			__syncthreads();
			acc = 0.f;
			for (unsigned z = 0; z < n; z++)
				acc += sm[z * 384 + threadIdx.x];
		}
		out[(blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x * 384 + blockIdx.x * 384 + threadIdx.x] = acc;
		return;
	}
	sm[threadIdx.x] = acc;
	if (BARS >= 1)
		asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
	if (READS) {
		unsigned n;
		asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
		unsigned a = (unsigned)__cvta_generic_to_shared(&sm[threadIdx.x]);
		for (unsigned z = 0; z < n; z++) {
			unsigned ra;
			float v;
			asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra) : "r"(a), "r"(z));
			asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(ra) : "memory");
			acc += v;
		}
	}
	if (BARS >= 2)
		asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
	out[(blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x * 384 + blockIdx.x * 384 + threadIdx.x] = acc;
}

// holds the stream until the host has queued a sample's launches (as src/bench.c does)
__global__ void hold(volatile int *flag)
{
	while (*flag == 0)
		;
}

template <int BARS, int READS>
static float run(int tiles, int cl, int split, long long spin, int pdl, float *out, cudaStream_t s)
{
	const size_t smem = 105 * 1024;
	CK(cudaFuncSetAttribute(k<BARS, READS>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
	if (cl > 1)
		CK(cudaFuncSetAttribute(k<BARS, READS>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
	cudaLaunchAttribute at[2];
	unsigned na = 0;
	if (pdl) {
		at[na].id = cudaLaunchAttributeProgrammaticStreamSerialization;
		at[na++].val.programmaticStreamSerializationAllowed = 1;
	}
	if (cl > 1) {
		at[na].id = cudaLaunchAttributeClusterDimension;
		at[na].val.clusterDim.x = 1, at[na].val.clusterDim.y = 1, at[na++].val.clusterDim.z = cl;
	}
	cudaLaunchConfig_t cfg = {};
	cfg.gridDim = dim3(tiles, 1, split), cfg.blockDim = dim3(384), cfg.dynamicSmemBytes = smem, cfg.stream = s;
	cfg.attrs = at, cfg.numAttrs = na;
	const int N = 100;
	static int *flag;
	if (!flag)
		CK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	float best = 1e30f;
	for (int rep = 0; rep < 7; rep++) {
		*(volatile int *)flag = 0;
		hold<<<1, 1, 0, s>>>(flag);
		CK(cudaEventRecord(a, s));
		for (int i = 0; i < N; i++)
			CK(cudaLaunchKernelEx(&cfg, k<BARS, READS>, out, spin));
		CK(cudaEventRecord(b, s));
		*(volatile int *)flag = 1;
		CK(cudaEventSynchronize(b));
		float ms;
		CK(cudaEventElapsedTime(&ms, a, b));
		if (rep > 0 && ms < best)
			best = ms;
	}
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return best * 1000.f / N;
}


// A 64x32 tile's finish as the kernel would run it: 128 consumer threads of 16 accumulators each (of 384 threads),
// clusters of n splits. MODE 0: conv_cluster_finish's (every split's tile to its own shared memory, a cluster
// barrier, each split reads its BM/n rows from every split, 16 bytes a load, two in flight, a second barrier).
// MODE 1: the one-sided push (each thread's 16 accumulators in n chunks; chunk j to split j's slot for this split
// and thread, st.async, completing on split j's mbarrier; split j sums its own chunk and the n - 1 received in rank
// order). Both write their sums to out.
template <int MODE, int NC>
__global__ void __launch_bounds__(384, 1) fin(float *out, long long spin)
{
	asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
	extern __shared__ __align__(16) float sm[];
	__shared__ __align__(8) unsigned long long mb;
	const unsigned mba = (unsigned)__cvta_generic_to_shared(&mb);
	unsigned n, r;
	asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
	asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
	if (MODE == 1) {
		if (threadIdx.x == 0) {
			asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mba) : "memory");
			asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
		}
		__syncthreads();
		asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
	}
	asm volatile("griddepcontrol.wait;" ::: "memory");
	if (threadIdx.x >= 128)
		return; // the producer's threads
	long long t0 = clock64();
	while (clock64() - t0 < spin)
		;
	const int t = threadIdx.x;
	float acc[16];
#pragma unroll
	for (int i = 0; i < 16; i++)
		acc[i] = (float)(t * 16 + i) + (float)r;
	float *o = out + blockIdx.x * 2048; // the tile's sums (every split writes its share)
	const unsigned sb = (unsigned)__cvta_generic_to_shared(sm);
	if (MODE == 0) {
		asm volatile("bar.sync 3, 128;" ::: "memory");
#pragma unroll
		for (int i = 0; i < 16; i += 2)
			asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(sb + (unsigned)(t * 16 + i) * 4u), "f"(acc[i]),
				     "f"(acc[i + 1])
				     : "memory");
		asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
		const int q = 2048 / 4 / (int)n; // float4s a split sums
		for (int e = t; e < q; e += 128) {
			const unsigned off = sb + (unsigned)(r * q + e) * 16u;
			float s4[4] = {0.f, 0.f, 0.f, 0.f};
			for (unsigned z0 = 0; z0 < n; z0 += 2) {
				float4 v[2];
#pragma unroll
				for (int u = 0; u < 2; u++) {
					unsigned ra;
					asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra) : "r"(off), "r"(z0 + u));
					asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
						     : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z), "=f"(v[u].w)
						     : "r"(ra)
						     : "memory");
				}
#pragma unroll
				for (int u = 0; u < 2; u++)
					s4[0] += v[u].x, s4[1] += v[u].y, s4[2] += v[u].z, s4[3] += v[u].w;
			}
			*reinterpret_cast<float4 *>(o + (r * q + e) * 4) = make_float4(s4[0], s4[1], s4[2], s4[3]);
		}
		asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
	} else {
		constexpr int ch = 16 / NC; // a chunk's accumulators
		asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
		if (t == 0)
			asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mba),
				     "r"((n - 1) * 128u * (unsigned)ch * 4u)
				     : "memory");
		// slot (split z, thread t): ch floats at sm[(z * 128 + t) * ch]
#pragma unroll
		for (unsigned j = 0; j < NC; j++) {
			if (j == r)
				continue;
			unsigned ra, rb;
			asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra)
				     : "r"(sb + (r * 128u + (unsigned)t) * (unsigned)ch * 4u), "r"(j));
			asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rb) : "r"(mba), "r"(j));
#pragma unroll
			for (int i = 0; i < ch; i += 4) {
				const int a = (int)j * ch + i;
				if (ch >= 4)
					asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.f32 [%0], {%1, %2, %3, %4}, [%5];" ::"r"(ra + (unsigned)i * 4u),
						     "f"(acc[a & 15]), "f"(acc[(a + 1) & 15]), "f"(acc[(a + 2) & 15]), "f"(acc[(a + 3) & 15]), "r"(rb)
						     : "memory");
				else
					asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f32 [%0], {%1, %2}, [%3];" ::"r"(ra),
						     "f"(acc[a & 15]), "f"(acc[(a + 1) & 15]), "r"(rb)
						     : "memory");
			}
		}
		asm volatile("{\n\t.reg .pred p;\n\tW: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n\t@!p bra W;\n\t}" ::"r"(mba)
			     : "memory");
#pragma unroll
		for (unsigned j = 0; j < NC; j++) // j: this split's rank, unrolled so acc stays in registers
			if (j == r)
#pragma unroll
				for (int i = 0; i < ch; i++) {
					float s1 = 0.f;
#pragma unroll
					for (unsigned z = 0; z < NC; z++)
						s1 += z == j ? acc[j * ch + i] : sm[(z * 128 + t) * ch + i];
					o[(j * ch + i) * 128 + t] = s1; // accumulator-major: a warp's stores coalesce
				}
	}
}

template <int MODE, int NC>
static float run_fin1(int tiles, int cl, long long spin, float *out, cudaStream_t s)
{
	const size_t smem = 105 * 1024;
	CK(cudaFuncSetAttribute(fin<MODE, NC>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
	CK(cudaFuncSetAttribute(fin<MODE, NC>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
	cudaLaunchAttribute at[2];
	at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
	at[0].val.programmaticStreamSerializationAllowed = 1;
	at[1].id = cudaLaunchAttributeClusterDimension;
	at[1].val.clusterDim.x = 1, at[1].val.clusterDim.y = 1, at[1].val.clusterDim.z = cl;
	cudaLaunchConfig_t cfg = {};
	cfg.gridDim = dim3(tiles, 1, cl), cfg.blockDim = dim3(384), cfg.dynamicSmemBytes = smem, cfg.stream = s;
	cfg.attrs = at, cfg.numAttrs = 2;
	const int N = 100;
	static int *flag;
	if (!flag)
		CK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	float best = 1e30f;
	for (int rep = 0; rep < 7; rep++) {
		*(volatile int *)flag = 0;
		hold<<<1, 1, 0, s>>>(flag);
		CK(cudaEventRecord(a, s));
		for (int i = 0; i < N; i++)
			CK(cudaLaunchKernelEx(&cfg, fin<MODE, NC>, out, spin));
		CK(cudaEventRecord(b, s));
		*(volatile int *)flag = 1;
		CK(cudaEventSynchronize(b));
		float ms;
		CK(cudaEventElapsedTime(&ms, a, b));
		if (rep > 0 && ms < best)
			best = ms;
	}
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	return best * 1000.f / N;
}

template <int MODE>
static float run_fin(int tiles, int cl, long long spin, float *out, cudaStream_t s)
{
	return cl == 2 ? run_fin1<MODE, 2>(tiles, cl, spin, out, s)
	       : cl == 4 ? run_fin1<MODE, 4>(tiles, cl, spin, out, s)
			 : run_fin1<MODE, 8>(tiles, cl, spin, out, s);
}

int main()
{
	float *out;
	CK(cudaMalloc(&out, 64 << 20));
	cudaStream_t s;
	CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	printf("%s, %d SMs\n", p.name, p.multiProcessorCount);
	for (long long spin : {0LL, 2000LL, 6000LL}) {
		for (int pdl : {1}) {
			printf("spin %lld cycles, PDL %d (us a launch):\n", spin, pdl);
			printf("  16 blocks, no cluster:          %.3f\n", run<0, 0>(16, 1, 1, spin, pdl, out, s));
			printf("  64 blocks, no cluster:          %.3f\n", run<0, 0>(64, 1, 1, spin, pdl, out, s));
			for (int cl : {2, 4, 8}) {
				int t = 64 / cl;
				printf("  %2d x cluster %d, no barrier:    %.3f\n", t, cl, run<0, 0>(t, cl, cl, spin, pdl, out, s));
				printf("  %2d x cluster %d, 1 barrier:     %.3f\n", t, cl, run<1, 0>(t, cl, cl, spin, pdl, out, s));
				printf("  %2d x cluster %d, 2 barriers:    %.3f\n", t, cl, run<2, 0>(t, cl, cl, spin, pdl, out, s));
				printf("  %2d x cluster %d, 2 + reads:     %.3f\n", t, cl, run<2, 1>(t, cl, cl, spin, pdl, out, s));
				printf("  %2d x cluster %d, early arrive:  %.3f\n", t, cl, run<3, 0>(t, cl, cl, spin, pdl, out, s));
				printf("  %2d x cluster %d, push (async):  %.3f\n", t, cl, run<3, 1>(t, cl, cl, spin, pdl, out, s));
				printf("  %2d x %d splits, no cluster:     %.3f\n", t, cl, run<0, 0>(t, 1, cl, spin, pdl, out, s));
			}
		}
	}
	// the 64x32 finish, both ways; then their sums (split z's accumulator i of thread t is 16 t + i + z)
	for (int cl : {2, 4, 8})
		printf("64x32, %2d x cluster %d, spin 2000, no finish (plain blocks, 0 barriers): %.3f us\n", 64 / cl, cl,
		       run<0, 0>(64 / cl, cl, cl, 2000, 1, out, s));
	for (int cl : {2, 4, 8})
		printf("64x32 finish, %2d x cluster %d, spin 2000: barriers + reads %.3f, push %.3f us a launch\n", 64 / cl, cl,
		       run_fin<0>(64 / cl, cl, 2000, out, s), run_fin<1>(64 / cl, cl, 2000, out, s));
	for (int mode : {0, 1})
		for (int cl : {2, 4, 8}) {
			CK(cudaMemset(out, 0xff, 64 * 2048 * 4));
			if (mode == 0)
				run_fin<0>(64 / cl, cl, 0, out, s);
			else
				run_fin<1>(64 / cl, cl, 0, out, s);
			CK(cudaStreamSynchronize(s));
			static float h[64 * 2048];
			CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
			int bad = 0;
			for (int i = 0; i < (64 / cl) * 2048; i++) {
				const int e = i % 2048, k = mode == 0 ? e : e % 128 * 16 + e / 128; // the element's t·16 + i
				bad += h[i] != (float)(cl * k) + (float)(cl * (cl - 1) / 2);
			}
			printf("64x32 finish mode %d, clusters of %d: %d of %d sums wrong\n", mode, cl, bad, (64 / cl) * 2048);
		}
	// the push's sums: every block's thread t holds n·t
	for (int cl : {2, 4, 8}) {
		run<3, 1>(64 / cl, cl, cl, 0, 1, out, s);
		CK(cudaStreamSynchronize(s));
		static float h[64 * 384];
		CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
		int bad = 0;
		for (int i = 0; i < 64 * 384; i++)
			bad += h[i] != (float)(cl * (i % 384));
		printf("push, clusters of %d: %d of %d sums wrong\n", cl, bad, 64 * 384);
	}
	return 0;
}
