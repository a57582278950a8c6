// tma_ffma_probe.cu: would an FFMA tile fed by the tensor copy engine (TMA) close the fp32 gap to cuBLAS? (issue
// 30, docs/NOTES.md item 249). A probe, not dlbtune's kernel: column-major as cuBLAS, NN (C (MxN) = A (MxK) B (KxN),
// lda = M) and TN (A stored KxM, lda = K), ldb = K, ldc = M (M and K multiples of 4: TMA's 16-byte strides).
//
// run52's ncu source page had 27% of dlbtune's FFMA tile's stall samples between k-tiles, in the per-thread
// global loads (64-bit addresses rebuilt every tile), the 32 STS and the barrier. Here one thread issues two
// TMA boxes a k-tile into a STAGES-deep ring (A as [k][m], B as [n][k]: the boxes as they lie in memory, no
// swizzle, zeros outside the matrix, so there is no edge path) and the block waits on the stage's mbarrier:
// nothing per thread between k-tiles but one barrier. B's [n][k] layout gives a lane four depths of a column in
// one LDS.128 (TN of them a four depths, as many as the [k][n] layout's loads), A's [k][m] the same LDS.128 a
// depth along m as dlbtune's tile; in both a quarter-warp reads one 128-byte line or one broadcast address.
//
// Each row: cuBLAS's cublasSgemm (default math: strict fp32) and each probe configuration, verified against
// cuBLAS's result (C poisoned first), then timed in pairs (ours, cuBLAS) with L2 flushed before each launch,
// CUDA events; the median of each and the median of the pairs' ratios.
// Build: nvcc -std=c++17 -arch=sm_90a -O3 [-DSERPENTINE=1] [-DTN_XPOSE=1 | -DTN_REG128=1] -o tma_ffma_probe \
//          tma_ffma_probe.cu -lcublas -lcuda
// Run:   ./tma_ffma_probe [PAIRS] [MxNxK[:NN|:TN] ...]   (default: 15 pairs, the five worst NN rows of item 184, one
//        with a partial k-tile, and three TN rows)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_runtime.h>

#define CK(x)                                                                                              \
	do {                                                                                               \
		cudaError_t e_ = (x);                                                                      \
		if (e_ != cudaSuccess) {                                                                   \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));       \
			exit(1);                                                                           \
		}                                                                                          \
	} while (0)
#define CKB(x)                                                                                             \
	do {                                                                                               \
		cublasStatus_t s_ = (x);                                                                   \
		if (s_ != CUBLAS_STATUS_SUCCESS) {                                                         \
			fprintf(stderr, "%s:%d: cuBLAS status %d\n", __FILE__, __LINE__, (int)s_);        \
			exit(1);                                                                           \
		}                                                                                          \
	} while (0)
#define CKD(x)                                                                                             \
	do {                                                                                               \
		CUresult r_ = (x);                                                                         \
		if (r_ != CUDA_SUCCESS) {                                                                  \
			const char *m_ = "?";                                                              \
			cuGetErrorString(r_, &m_);                                                         \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, m_);                           \
			exit(1);                                                                           \
		}                                                                                          \
	} while (0)

#ifndef SERPENTINE
#define SERPENTINE 0 // 1: the FMA order of templates/gemm_fp32.cu's SERPENTINE (run64)
#endif
#ifndef TN_XPOSE
#define TN_XPOSE 0 // 1: TN's A box ([m][k], swizzled) transposed by all threads into a [k][m] tile, then NN's loop
#endif
#ifndef TN_REG128
#define TN_REG128 0 // 1: the TN form held to 128 registers a thread (as ptxas gives NN), blocks 512 / threads an SM
#endif

__device__ __forceinline__ unsigned smem_u32(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity)
{
	asm volatile("{\n.reg .pred done;\nWAIT_%=:\n"
		     "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
		     "@!done bra WAIT_%=;\n}\n" ::"r"(bar),
		     "r"(parity)
		     : "memory");
}

__device__ __forceinline__ void tma_load(unsigned dst, const CUtensorMap *map, int x, int y, unsigned bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
		     " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
		     "l"(reinterpret_cast<unsigned long long>(map)), "r"(x), "r"(y), "r"(bar)
		     : "memory");
}

// A thread's TM x TN elements of C, laid out as dlbtune's tile (templates/gemm_fp32.cu): a warp's lanes LM x LN,
// a thread's rows TM/4 chunks of 4, LM*4 apart, its columns TN/4 chunks of 4, LN*4 apart.
template <int BM, int BN, int BK, int TM, int TN, int STAGES, int SCALAR, int TA>
__global__ void __launch_bounds__((BM / TM) * (BN / TN),
				  TA && !TN_XPOSE && TN_REG128 ? 512 / ((BM / TM) * (BN / TN)) : 1)
	tile(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb, float *__restrict__ C, int M,
	     int N, int K)
{
	constexpr int THREADS = (BM / TM) * (BN / TN), TPM = BM / TM, TPN = BN / TN;
	constexpr int LM0 = TPM < 8 ? TPM : 8, LM = 32 / LM0 > TPN ? 32 / TPN : LM0, LN = 32 / LM;
	constexpr int WARPS_M = TPM / LM, CN = 4;
	constexpr int A_FLOATS = BM * BK, STAGE_FLOATS = (BM + BN) * BK;
	constexpr unsigned STAGE_BYTES = STAGE_FLOATS * 4;
	// AT: TN read as [m][k] (four depths of a row in one LDS.128); TX: TN transposed into [k][m] first
	constexpr bool AT = TA && !TN_XPOSE, TX = TA && TN_XPOSE;
	static_assert(TPM % LM == 0 && TPN % LN == 0 && LM * LN == 32 && TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0,
		      "a warp's lanes tile the block; whole float4s");
	static_assert(THREADS >= 32 && BM <= 256 && BN <= 256, "TMA boxes of at most 256");
	static_assert(!TX || BM * BK / 4 % THREADS == 0, "TX: whole chunks of A's tile a thread");
	extern __shared__ __align__(1024) float sm[];
	__shared__ __align__(8) unsigned long long full[STAGES];

	const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
	const int mt = (M + BM - 1) / BM, nt = (N + BN - 1) / BN;
	// grouped block order (8 M-tiles share an N-tile), as dlbtune's tile
	const int width = 8 * nt, first_m = blockIdx.x / width * 8;
	const int gsize = mt - first_m < 8 ? mt - first_m : 8;
	const int m0 = (first_m + blockIdx.x % width % gsize) * BM, n0 = blockIdx.x % width / gsize * BN;
	// A thread's row i of the tile: NN, chunks of 4 consecutive rows LM*4 apart (float4 loads of A and stores of
	// C); TN, rows LM apart, so that a quarter-warp's lanes read consecutive rows of A's [m][k] tile (with the
	// box's swizzle, eight distinct 16-byte bank groups) and C is stored an element at a time.
	const int tr = (warp % WARPS_M) * (LM * TM) + lane % LM * (AT ? 1 : 4);
	auto row_of = [&](int i) { return AT ? tr + i * LM : tr + i / 4 * (LM * 4) + i % 4; };
	const int tc = (warp / WARPS_M) * (LN * TN) + lane / LM * CN;
	const int ntiles = (K + BK - 1) / BK;
	const unsigned base = (smem_u32(sm) + 1023u) & ~1023u, fb = smem_u32(full); // TMA: 128-byte aligned at least

	if (tid == 0) {
		asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<unsigned long long>(&ta)) : "memory");
		asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<unsigned long long>(&tb)) : "memory");
		for (int s = 0; s < STAGES; s++)
			asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(fb + 8 * s) : "memory");
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	__syncthreads();
	auto issue = [&](int t) { // k-tile t into stage t % STAGES (thread 0)
		const int s = t % STAGES;
		const unsigned dst = base + s * STAGE_BYTES, bar = fb + 8 * s;
		asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(STAGE_BYTES)
			     : "memory");
		if (TA)
			tma_load(dst, &ta, t * BK, m0, bar); // A transposed (K x M stored): x = k, y = m: [m][k]
		else
			tma_load(dst, &ta, m0, t * BK, bar); // A: x = m, y = k: [k][m]
		tma_load(dst + A_FLOATS * 4, &tb, t * BK, n0, bar); // B: x = k, y = n: [n][k]
	};
	if (tid == 0)
		for (int t = 0; t < STAGES - 1 && t < ntiles; t++)
			issue(t);

	float acc[TM][TN];
#pragma unroll
	for (int i = 0; i < TM; i++)
#pragma unroll
		for (int j = 0; j < TN; j++)
			acc[i][j] = 0.f;

	for (int t = 0; t < ntiles; t++) {
		__syncthreads(); // every thread is done with k-tile t - 1, whose stage the next copy fills
		if (tid == 0 && t + STAGES - 1 < ntiles) {
			// the stage's reads (generic proxy) before the copy engine's writes (async proxy)
			asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
			issue(t + STAGES - 1);
		}
		const int s = t % STAGES;
		mbar_wait(fb + 8 * s, (unsigned)(t / STAGES) & 1u);
		const float *As = sm + (base - smem_u32(sm)) / 4 + s * STAGE_FLOATS, *Bs = As + A_FLOATS;
		if (TX) { // the stage's [m][k] box (swizzled as AT reads it) into the [k][m] tile after the ring; a warp
			  // takes 32 consecutive rows of one 16-byte chunk: LDS.128 in distinct bank groups a
			  // quarter-warp, 32 consecutive floats a STS.32
			float *xa = sm + (base - smem_u32(sm)) / 4 + STAGES * STAGE_FLOATS;
#pragma unroll
			for (int it = 0; it < BM * BK / 4 / THREADS; it++) {
				const int q = tid + it * THREADS, r = q % BM, c4 = q / BM, x = (r * BK * 4 >> 7) & (BK / 4 - 1);
				const float4 v = *reinterpret_cast<const float4 *>(reinterpret_cast<const char *>(As) +
										   r * BK * 4 + ((c4 ^ x) << 4));
				xa[(4 * c4 + 0) * BM + r] = v.x, xa[(4 * c4 + 1) * BM + r] = v.y;
				xa[(4 * c4 + 2) * BM + r] = v.z, xa[(4 * c4 + 3) * BM + r] = v.w;
			}
			__syncthreads(); // the tile is whole; the stage is free once every thread has passed here
			As = xa;
		}
#pragma unroll
		for (int k4 = 0; k4 < BK; k4 += 4) {
			float b[TN][4], a4[AT ? TM : 1][4];
			if (AT) { // A as [m][k]: four depths of a row in one LDS.128, as B's columns; the box is swizzled
				  // (CU_TENSOR_MAP_SWIZZLE_{32,64,128}B for rows of BK*4 bytes: the 16-byte chunk c of row r
				  // lies at chunk c ^ ((r * BK * 4 >> 7) & (BK / 4 - 1)))
#pragma unroll
				for (int i = 0; i < TM; i++) {
					const int r = row_of(i), x = (r * BK * 4 >> 7) & (BK / 4 - 1);
					const float4 v = *reinterpret_cast<const float4 *>(
						reinterpret_cast<const char *>(As) + r * BK * 4 + ((k4 / 4 ^ x) << 4));
					a4[i][0] = v.x, a4[i][1] = v.y, a4[i][2] = v.z, a4[i][3] = v.w;
				}
			}
#pragma unroll
			for (int j = 0; j < TN; j++) {
				const float4 v = *reinterpret_cast<const float4 *>(
					&Bs[(tc + j / CN * (LN * CN) + j % CN) * BK + k4]);
				b[j][0] = v.x, b[j][1] = v.y, b[j][2] = v.z, b[j][3] = v.w;
			}
#pragma unroll
			for (int d = 0; d < 4; d++) {
				float a[TM];
#pragma unroll
				for (int i = 0; i < TM; i += 4) {
					if (AT) {
						a[i] = a4[i][d], a[i + 1] = a4[i + 1][d], a[i + 2] = a4[i + 2][d], a[i + 3] = a4[i + 3][d];
					} else {
						const float4 x = *reinterpret_cast<const float4 *>(
							&As[(k4 + d) * BM + tr + i / 4 * (LM * 4)]);
						a[i] = x.x, a[i + 1] = x.y, a[i + 2] = x.z, a[i + 3] = x.w;
					}
				}
#if SERPENTINE // templates/gemm_fp32.cu's order (item 252): b[j] held, a's column walked down then up
#pragma unroll
				for (int j = 0; j < TN; j++)
#pragma unroll
					for (int ii = 0; ii < TM; ii++) {
						const int i = (j + d) % 2 ? TM - 1 - ii : ii;
						acc[i][j] = fmaf(a[i], b[j][d], acc[i][j]);
					}
#else
#pragma unroll
				for (int i = 0; i < TM; i++)
#pragma unroll
					for (int j = 0; j < TN; j++)
						acc[i][j] = fmaf(a[i], b[j][d], acc[i][j]);
#endif
			}
		}
	}
#pragma unroll
	for (int j = 0; j < TN; j++) {
		const int col = n0 + tc + j / CN * (LN * CN) + j % CN;
		if (col >= N)
			continue;
#pragma unroll
		for (int i = 0; i < TM; i += 4) {
			if (!SCALAR && !AT && m0 + row_of(i) + 3 < M) {
				*reinterpret_cast<float4 *>(C + (size_t)col * M + m0 + row_of(i)) =
					make_float4(acc[i][j], acc[i + 1][j], acc[i + 2][j], acc[i + 3][j]);
			} else {
#pragma unroll
				for (int u = 0; u < 4; u++)
					if (m0 + row_of(i + u) < M)
						C[(size_t)col * M + m0 + row_of(i + u)] = acc[i + u][j];
			}
		}
	}
}

struct shape {
	int m, n, k, ta; // ta: A transposed (stored K x M, lda = K): TN
};

static void encode(CUtensorMap *map, const float *p, unsigned long long inner, unsigned long long outer,
		   unsigned box_inner, unsigned box_outer, bool swizzle = false)
{
	const cuuint64_t dims[2] = {inner, outer}, strides[1] = {inner * 4};
	const cuuint32_t box[2] = {box_inner, box_outer}, es[2] = {1, 1};
	CKD(cuTensorMapEncodeTiled(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float *>(p), dims, strides, box,
				   es, CU_TENSOR_MAP_INTERLEAVE_NONE,
				   !swizzle	       ? CU_TENSOR_MAP_SWIZZLE_NONE
				   : box_inner == 8  ? CU_TENSOR_MAP_SWIZZLE_32B
				   : box_inner == 16 ? CU_TENSOR_MAP_SWIZZLE_64B
						     : CU_TENSOR_MAP_SWIZZLE_128B,
				   CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
}

static float median(std::vector<float> v)
{
	std::sort(v.begin(), v.end());
	return v.size() % 2 ? v[v.size() / 2] : 0.5f * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

struct ctx {
	shape sh;
	float *A, *B, *C, *Cref, *flush;
	size_t flush_bytes;
	cublasHandle_t h;
	cudaEvent_t e0, e1;
	int pairs;
};

static float time_one(ctx &c, void (*fn)(ctx &, void *), void *arg)
{
	float ms = 0;
	CK(cudaMemsetAsync(c.flush, 0x5a, c.flush_bytes));
	CK(cudaEventRecord(c.e0));
	fn(c, arg);
	CK(cudaEventRecord(c.e1));
	CK(cudaEventSynchronize(c.e1));
	CK(cudaEventElapsedTime(&ms, c.e0, c.e1));
	return 1e3f * ms;
}

static void run_cublas(ctx &c, void *)
{
	const float one = 1.f, zero = 0.f;
	CKB(cublasSgemm(c.h, c.sh.ta ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, c.sh.m, c.sh.n, c.sh.k, &one, c.A,
			c.sh.ta ? c.sh.k : c.sh.m, c.B, c.sh.k, &zero, c.Cref, c.sh.m));
}

struct probe_arg {
	void (*launch)(ctx &, const CUtensorMap &, const CUtensorMap &);
	CUtensorMap ta, tb;
};

static void run_probe(ctx &c, void *arg)
{
	probe_arg *p = static_cast<probe_arg *>(arg);
	p->launch(c, p->ta, p->tb);
}

template <int BM, int BN, int BK, int TM, int TN, int STAGES, int SCALAR, int TA>
static void launch(ctx &c, const CUtensorMap &ta, const CUtensorMap &tb)
{
	const int threads = (BM / TM) * (BN / TN);
	const size_t smem = (size_t)(STAGES * (BM + BN) + (TA && TN_XPOSE ? BM : 0)) * BK * 4 + 1024;
	const int blocks = ((c.sh.m + BM - 1) / BM) * ((c.sh.n + BN - 1) / BN);
	tile<BM, BN, BK, TM, TN, STAGES, SCALAR, TA><<<blocks, threads, smem>>>(ta, tb, c.C, c.sh.m, c.sh.n, c.sh.k);
	CK(cudaGetLastError());
}

template <int BM, int BN, int BK, int TM, int TN, int STAGES, int SCALAR, int TA>
static void probe_ta(ctx &c)
{
	const size_t smem = (size_t)(STAGES * (BM + BN) + (TA && TN_XPOSE ? BM : 0)) * BK * 4 + 1024; // + the alignment
	CK(cudaFuncSetAttribute(tile<BM, BN, BK, TM, TN, STAGES, SCALAR, TA>, cudaFuncAttributeMaxDynamicSharedMemorySize,
				(int)smem));
	cudaFuncAttributes fa;
	CK(cudaFuncGetAttributes(&fa, tile<BM, BN, BK, TM, TN, STAGES, SCALAR, TA>));
	int per_sm = 0;
	CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, tile<BM, BN, BK, TM, TN, STAGES, SCALAR, TA>,
							 (BM / TM) * (BN / TN), smem));
	probe_arg p;
	p.launch = launch<BM, BN, BK, TM, TN, STAGES, SCALAR, TA>;
	if (TA)
		encode(&p.ta, c.A, c.sh.k, c.sh.m, BK, BM, true); // rows of BK floats, swizzled (BK 8, 16, 32)
	else
		encode(&p.ta, c.A, c.sh.m, c.sh.k, BM, BK);
	encode(&p.tb, c.B, c.sh.k, c.sh.n, BK, BN);
	const size_t mn = (size_t)c.sh.m * c.sh.n;
	// verify: C poisoned (NaN), one run, against cuBLAS's result
	CK(cudaMemset(c.C, 0xff, mn * 4));
	run_probe(c, &p);
	CK(cudaDeviceSynchronize());
	std::vector<float> got(mn), ref(mn);
	CK(cudaMemcpy(got.data(), c.C, mn * 4, cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(ref.data(), c.Cref, mn * 4, cudaMemcpyDeviceToHost));
	double err = 0, scale = 0;
	size_t bad = 0;
	for (size_t e = 0; e < mn; e++) {
		scale = std::max(scale, (double)std::fabs(ref[e]));
		const double d = std::fabs((double)got[e] - (double)ref[e]);
		if (!(d == d) || d > err)
			err = d == d ? d : INFINITY;
	}
	const double tol = 1e-5 * std::sqrt((double)c.sh.k) * (scale > 0 ? scale : 1); // fp32 sums of K products
	for (size_t e = 0; e < mn; e++)
		bad += !(std::fabs((double)got[e] - (double)ref[e]) <= tol);
	std::vector<float> ours, theirs, ratio;
	for (int r = 0; r < c.pairs; r++) {
		const float a = time_one(c, run_probe, &p), b = time_one(c, run_cublas, nullptr);
		ours.push_back(a), theirs.push_back(b), ratio.push_back(b / a);
	}
	const double gflop = 2e-9 * c.sh.m * (double)c.sh.n * c.sh.k;
	printf("  %3dx%-3d BK %2d %dx%d STAGES %d %s: %3d regs %s %d blocks/SM | %s (%zu wrong, max |diff| %.2e, tol %.2e) "
	       "| ours %9.1f us (%5.1f TFLOP/s), cuBLAS %9.1f us, paired cuBLAS/ours %.3fx\n",
	       BM, BN, BK, TM, TN, STAGES, SCALAR ? "scalar C" : "float4 C", fa.numRegs, fa.localSizeBytes ? "LOCAL" : "", per_sm,
	       bad ? "WRONG" : "right", bad, err, tol, median(ours), gflop / median(ours) * 1e3, median(theirs),
	       median(ratio));
}

template <int BM, int BN, int BK, int TM, int TN, int STAGES, int SCALAR>
static void probe(ctx &c)
{
	if (c.sh.ta)
		probe_ta<BM, BN, BK, TM, TN, STAGES, SCALAR, 1>(c);
	else
		probe_ta<BM, BN, BK, TM, TN, STAGES, SCALAR, 0>(c);
}

int main(int argc, char **argv)
{
	int pairs = argc > 1 ? atoi(argv[1]) : 15;
	if (pairs < 1) {
		fprintf(stderr, "tma_ffma_probe: PAIRS must be at least 1\n");
		return 2;
	}
	std::vector<shape> rows;
	for (int i = 2; i < argc; i++) {
		shape s;
		char lay[3] = "NN";
		const int got = sscanf(argv[i], "%dx%dx%d:%2s", &s.m, &s.n, &s.k, lay);
		s.ta = !strcmp(lay, "TN");
		if (got < 3 || (strcmp(lay, "NN") && !s.ta) || s.m % 4 || s.k % 4 || s.m < 1 || s.n < 1 || s.k < 1) {
			fprintf(stderr, "tma_ffma_probe: %s: want MxNxK[:NN|:TN] with M and K multiples of 4\n", argv[i]);
			return 2;
		}
		rows.push_back(s);
	}
	if (rows.empty())
		rows = {{5124, 700, 2048, 0}, {8448, 1500, 2816, 0}, {1024, 6000, 2560, 0}, {5124, 1500, 2560, 0},
			{1024, 3000, 2816, 0}, {5124, 700, 2044, 0}, // the last NN: K not a multiple of any BK
			{1760, 7000, 1760, 1}, {8448, 24000, 2816, 1}, {1760, 7000, 1756, 1}}; // TN (run46: 0.849x, 0.833x)
	CKD(cuInit(0));
	cudaDeviceProp prop;
	CK(cudaGetDeviceProperties(&prop, 0));
	printf("%s, %d SMs, %d pairs a configuration, FMA order %s, TN %s\n", prop.name, prop.multiProcessorCount, pairs,
	       SERPENTINE ? "serpentine" : "row by row",
	       TN_XPOSE ? "transposed into [k][m] in shared memory" : "read as [m][k]");
	ctx c;
	c.pairs = pairs;
	CKB(cublasCreate(&c.h));
	CKB(cublasSetMathMode(c.h, CUBLAS_DEFAULT_MATH)); // strict fp32 (no TF32)
	CK(cudaEventCreate(&c.e0));
	CK(cudaEventCreate(&c.e1));
	c.flush_bytes = (size_t)prop.l2CacheSize * 2;
	CK(cudaMalloc(&c.flush, c.flush_bytes));
	for (const shape &s : rows) {
		c.sh = s;
		const size_t na = (size_t)s.m * s.k, nb = (size_t)s.k * s.n, nc = (size_t)s.m * s.n;
		CK(cudaMalloc(&c.A, na * 4));
		CK(cudaMalloc(&c.B, nb * 4));
		CK(cudaMalloc(&c.C, nc * 4));
		CK(cudaMalloc(&c.Cref, nc * 4));
		std::vector<float> h(std::max(na, nb));
		unsigned long long x = 0x9e3779b97f4a7c15ull ^ (unsigned long long)s.m * s.n * s.k;
		auto fill = [&](float *d, size_t n) {
			for (size_t e = 0; e < n; e++) {
				x = x * 6364136223846793005ull + 1442695040888963407ull;
				h[e] = (float)((double)(x >> 40) / (double)(1ull << 24) * 2.0 - 1.0);
			}
			CK(cudaMemcpy(d, h.data(), n * 4, cudaMemcpyHostToDevice));
		};
		fill(c.A, na);
		fill(c.B, nb);
		run_cublas(c, nullptr); // the reference, and cuBLAS's warm-up
		CK(cudaDeviceSynchronize());
		printf("%dx%dx%d %s\n", s.m, s.n, s.k, s.ta ? "TN" : "NN");
		probe<128, 128, 16, 8, 8, 4, 0>(c);
		probe<128, 128, 16, 8, 8, 4, 1>(c);
		probe<128, 128, 8, 8, 8, 4, 1>(c);
		probe<128, 128, 32, 8, 8, 3, 1>(c);
		probe<128, 64, 16, 8, 8, 4, 0>(c);
		probe<128, 64, 16, 8, 8, 4, 1>(c);
		probe<64, 64, 16, 8, 8, 4, 1>(c);
		probe<128, 64, 16, 8, 4, 4, 1>(c);
		probe<256, 128, 8, 8, 16, 4, 1>(c); // cuBLAS's tile and thread tile
		probe<128, 128, 8, 8, 16, 4, 1>(c);
		// 128-byte lines of k in every box (item 258: run64's TN form ran 0.71x, 0.79x, 0.87x at BK 8, 16, 32)
		probe<128, 64, 32, 8, 8, 3, 1>(c);
		probe<64, 128, 32, 8, 8, 3, 1>(c);
		probe<256, 64, 32, 8, 8, 3, 1>(c);
		probe<128, 128, 32, 8, 8, 4, 1>(c);
		CK(cudaFree(c.A));
		CK(cudaFree(c.B));
		CK(cudaFree(c.C));
		CK(cudaFree(c.Cref));
	}
	return 0;
}
