// gemm_fp32.cu — C = op(A) · op(B) in fp32, column-major as in cuBLAS (DeepBench's convention).
//
// Tunables (each has a default below, so this file compiles alone):
//   BM, BN   rows / columns of C computed by one thread block
//   BK       depth of one k-step held in shared memory (double-buffered)
//   TM, TN   rows / columns of C computed by one thread (TM a multiple of 4, TN of 2)
//   GM       block tiles along M grouped together so neighbours share B in L2
// Constraints (checked by the host before compiling, see src/ops/gemm.c):
//   BM % TM == 0, BN % TN == 0; threads = (BM/TM)·(BN/TN) in [64, 256]
//   shared memory 2·BK·(BM+4 + BN+4)·4 bytes within the static 48 KiB
// Run-time arguments, so one compiled candidate serves every shape:
//   M, N, K, leading dimensions, k_chunk (split-K: block z covers k in [z·k_chunk, (z+1)·k_chunk)),
//   and which operands may be read as float4 (leading dimension a multiple of 4).
// Kernels: gemm_nn, gemm_nt, gemm_tn, gemm_tt (n: as stored, t: transposed, for A then B) and
// splitk_reduce (sums the split-K partial products in a fixed order: deterministic).
// Index arithmetic is 64-bit: M·K, K·N and M·N may pass 2^31.

#ifndef BM
#define BM 64 // rows of C per block
#endif
#ifndef BN
#define BN 64 // columns of C per block
#endif
#ifndef BK
#define BK 8 // k-depth per shared-memory stage
#endif
#ifndef TM
#define TM 8 // rows of C per thread
#endif
#ifndef TN
#define TN 4 // columns of C per thread
#endif
#ifndef GM
#define GM 8 // M-tiles per group in the block order
#endif

#define THREADS ((BM / TM) * (BN / TN))
#define PAD 4 // keeps float4 alignment and breaks the bank pattern of transposed stores
#define LDS_A (BM + PAD)
#define LDS_B (BN + PAD)

typedef long long i64;

// Load one BK-deep tile of an operand into registers. ROWS is the tile's extent along M (for A) or N
// (for B). CONTIG_K: the operand is contiguous along k (A transposed, B as stored); otherwise it is
// contiguous along M/N. Out-of-range elements read as zero, so edge tiles need no special case later.
template <int ROWS, bool CONTIG_K>
struct tile_loader {
	static constexpr int NVEC = ROWS * BK / 4;
	static constexpr int PER_THREAD = (NVEC + THREADS - 1) / THREADS;

	float4 v[PER_THREAD];

	__device__ __forceinline__ void load(const float *__restrict__ p, i64 ld, i64 row0, i64 rows, i64 k0,
					     i64 kend, bool vec, int tid)
	{
#pragma unroll
		for (int r = 0; r < PER_THREAD; r++) {
			int q = tid + r * THREADS;
			v[r] = make_float4(0.f, 0.f, 0.f, 0.f);
			if (NVEC % THREADS != 0 && q >= NVEC)
				continue;
			// (row, kk) of the vector's first element; the vector runs along the contiguous dimension
			int row = CONTIG_K ? q / (BK / 4) : (q % (ROWS / 4)) * 4;
			int kk = CONTIG_K ? (q % (BK / 4)) * 4 : q / (ROWS / 4);
			i64 gr = row0 + row, gk = k0 + kk;
			if (CONTIG_K) {
				const float *src = p + gr * ld + gk;
				if (gr < rows) {
					if (vec && gk + 3 < kend) {
						v[r] = *reinterpret_cast<const float4 *>(src);
					} else {
						v[r].x = gk + 0 < kend ? src[0] : 0.f;
						v[r].y = gk + 1 < kend ? src[1] : 0.f;
						v[r].z = gk + 2 < kend ? src[2] : 0.f;
						v[r].w = gk + 3 < kend ? src[3] : 0.f;
					}
				}
			} else {
				const float *src = p + gk * ld + gr;
				if (gk < kend) {
					if (vec && gr + 3 < rows) {
						v[r] = *reinterpret_cast<const float4 *>(src);
					} else {
						v[r].x = gr + 0 < rows ? src[0] : 0.f;
						v[r].y = gr + 1 < rows ? src[1] : 0.f;
						v[r].z = gr + 2 < rows ? src[2] : 0.f;
						v[r].w = gr + 3 < rows ? src[3] : 0.f;
					}
				}
			}
		}
	}

	// Shared layout is k-major: s[kk * LDS + row].
	template <int LDS>
	__device__ __forceinline__ void store(float *s, int tid) const
	{
#pragma unroll
		for (int r = 0; r < PER_THREAD; r++) {
			int q = tid + r * THREADS;
			if (NVEC % THREADS != 0 && q >= NVEC)
				continue;
			int row = CONTIG_K ? q / (BK / 4) : (q % (ROWS / 4)) * 4;
			int kk = CONTIG_K ? (q % (BK / 4)) * 4 : q / (ROWS / 4);
			if (CONTIG_K) {
				s[(kk + 0) * LDS + row] = v[r].x;
				s[(kk + 1) * LDS + row] = v[r].y;
				s[(kk + 2) * LDS + row] = v[r].z;
				s[(kk + 3) * LDS + row] = v[r].w;
			} else {
				*reinterpret_cast<float4 *>(&s[kk * LDS + row]) = v[r];
			}
		}
	}
};

template <int TA, int TB>
__device__ __forceinline__ void gemm_body(i64 M, i64 N, i64 K, const float *__restrict__ A, i64 lda,
					  const float *__restrict__ B, i64 ldb, float *__restrict__ C, i64 ldc,
					  i64 k_chunk, int vec_a, int vec_b, int vec_c)
{
	__shared__ __align__(16) float As[2][BK * LDS_A];
	__shared__ __align__(16) float Bs[2][BK * LDS_B];

	const int tid = threadIdx.x;
	// Grouped block order: GM consecutive M-tiles share one N-tile (B stays in L2 while A streams).
	const i64 mt = (M + BM - 1) / BM, nt = (N + BN - 1) / BN;
	const i64 pid = blockIdx.x, width = (i64)GM * nt;
	const i64 first_m = (pid / width) * GM;
	const i64 gsize = mt - first_m < GM ? mt - first_m : GM;
	const i64 m0 = (first_m + (pid % width) % gsize) * BM;
	const i64 n0 = ((pid % width) / gsize) * BN;

	// This block's k range (split-K) and its output: C itself, or partial slice z of the workspace.
	const i64 kbeg = (i64)blockIdx.z * k_chunk;
	const i64 kend = kbeg + k_chunk < K ? kbeg + k_chunk : K;
	if (gridDim.z > 1) {
		C += (i64)blockIdx.z * M * N;
		ldc = M;
	}

	const int tr = tid % (BM / TM), tc = tid / (BM / TM);
	float acc[TM][TN];
#pragma unroll
	for (int i = 0; i < TM; i++)
#pragma unroll
		for (int j = 0; j < TN; j++)
			acc[i][j] = 0.f;

	tile_loader<BM, TA == 1> la;
	tile_loader<BN, TB == 0> lb;
	const i64 ntiles = kend > kbeg ? (kend - kbeg + BK - 1) / BK : 0;

	if (ntiles > 0) {
		la.load(A, lda, m0, M, kbeg, kend, vec_a, tid);
		lb.load(B, ldb, n0, N, kbeg, kend, vec_b, tid);
		la.template store<LDS_A>(As[0], tid);
		lb.template store<LDS_B>(Bs[0], tid);
		__syncthreads();
	}
	for (i64 t = 0; t < ntiles; t++) {
		const int cur = (int)(t & 1);
		const bool more = t + 1 < ntiles;
		if (more) { // next tile's global loads are in flight while this one is computed
			la.load(A, lda, m0, M, kbeg + (t + 1) * BK, kend, vec_a, tid);
			lb.load(B, ldb, n0, N, kbeg + (t + 1) * BK, kend, vec_b, tid);
		}
		const float *as = As[cur], *bs = Bs[cur];
#pragma unroll
		for (int kk = 0; kk < BK; kk++) {
			float a[TM], b[TN];
#pragma unroll
			for (int i = 0; i < TM; i += 4) {
				float4 x = *reinterpret_cast<const float4 *>(&as[kk * LDS_A + tr * TM + i]);
				a[i] = x.x, a[i + 1] = x.y, a[i + 2] = x.z, a[i + 3] = x.w;
			}
#pragma unroll
			for (int j = 0; j < TN; j += 2) {
				float2 y = *reinterpret_cast<const float2 *>(&bs[kk * LDS_B + tc * TN + j]);
				b[j] = y.x, b[j + 1] = y.y;
			}
#pragma unroll
			for (int i = 0; i < TM; i++)
#pragma unroll
				for (int j = 0; j < TN; j++)
					acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
		}
		if (more) {
			la.template store<LDS_A>(As[cur ^ 1], tid);
			lb.template store<LDS_B>(Bs[cur ^ 1], tid);
		}
		__syncthreads();
	}

	const bool vc = gridDim.z > 1 ? (M % 4 == 0) : vec_c;
#pragma unroll
	for (int j = 0; j < TN; j++) {
		const i64 col = n0 + tc * TN + j;
		if (col >= N)
			continue;
#pragma unroll
		for (int i = 0; i < TM; i += 4) {
			const i64 row = m0 + tr * TM + i;
			float *dst = C + col * ldc + row;
			if (vc && row + 3 < M) {
				*reinterpret_cast<float4 *>(dst) = make_float4(acc[i][j], acc[i + 1][j], acc[i + 2][j], acc[i + 3][j]);
			} else {
#pragma unroll
				for (int u = 0; u < 4; u++)
					if (row + u < M)
						dst[u] = acc[i + u][j];
			}
		}
	}
}

#define GEMM_ARGS                                                                                        \
	i64 M, i64 N, i64 K, const float *__restrict__ A, i64 lda, const float *__restrict__ B, i64 ldb,   \
		float *__restrict__ C, i64 ldc, i64 k_chunk, int vec_a, int vec_b, int vec_c
#define GEMM_PASS M, N, K, A, lda, B, ldb, C, ldc, k_chunk, vec_a, vec_b, vec_c

extern "C" __global__ void __launch_bounds__(THREADS) gemm_nn(GEMM_ARGS) { gemm_body<0, 0>(GEMM_PASS); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_nt(GEMM_ARGS) { gemm_body<0, 1>(GEMM_PASS); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_tn(GEMM_ARGS) { gemm_body<1, 0>(GEMM_PASS); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_tt(GEMM_ARGS) { gemm_body<1, 1>(GEMM_PASS); }

// C(i, j) = sum over z of W[z][i + j·M], z in order: the same bits on every run.
extern "C" __global__ void splitk_reduce(i64 M, i64 N, const float *__restrict__ W, int splits,
					 float *__restrict__ C, i64 ldc)
{
	const i64 total = M * N;
	for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += (i64)gridDim.x * blockDim.x) {
		float s = 0.f;
		for (int z = 0; z < splits; z++)
			s += W[(i64)z * total + e];
		C[(e / M) * ldc + e % M] = s;
	}
}
