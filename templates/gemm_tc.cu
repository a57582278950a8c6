// gemm_tc.cu — C = op(A) · op(B) on the tensor cores with mma.sync, column-major as in cuBLAS (DeepBench).
//
//   PREC_INT8 0: fp16 A, B and C, fp32 accumulation (mma m16n8k16 .f32.f16.f16.f32; C rounded to nearest)
//   PREC_INT8 1: int8 A and B, int32 C and accumulation (mma m16n8k32 .s32.s8.s8.s32)
//
// Tunables (each has a default below, so this file compiles alone):
//   BM, BN    rows / columns of C per thread block
//   BK        k-depth of one pipeline stage, in elements (BK·element size is a multiple of 32 bytes)
//   WM, WN    rows / columns of C per warp (WM a multiple of 16, WN of 16)
//   STAGES    shared-memory stages in flight (cp.async multi-stage pipeline, 2..4)
//   GM        block tiles along M grouped together so neighbours share B in L2
// Constraints (checked by the host before compiling, see src/ops/gemm_tc.c):
//   BM % WM == 0, BN % WN == 0, threads = 32·(BM/WM)·(BN/WN) in [64, 256]
//   16-byte chunks of a stage (BM·BK·ES/16 and BN·BK·ES/16) a multiple of the thread count
//   SMEM_BYTES (below) within the device's opt-in shared memory per block
// Kernels: gemm_nn, gemm_nt, gemm_tn, gemm_tt (n: as stored, t: transposed, for A then B).
// Run-time arguments, so one compiled candidate serves every shape: M, N, K, leading dimensions; k_chunk
// (split-K: block z covers k in [z·k_chunk, (z+1)·k_chunk), a multiple of BK); vec_a, vec_b: the widest
// copy in bytes (16, 8, 4; 2 or 1: element by element) that every row of A / B allows (leading dimension
// and base aligned); vec_c: C may be written 4 elements at a time.
// Grid (ceil(M/BM)·ceil(N/BN), 1, splits), THREADS threads, SMEM_BYTES of dynamic shared memory.
//
// Shared memory. Each operand tile is kept in the layout it has in memory: contiguous along k ([row][k],
// an operand "K-major") or contiguous along M/N ([k][row]). Every stored row is padded by 16 bytes, so the
// eight 16-byte rows one ldmatrix reads fall in distinct bank groups (row strides of 4 mod 32 words).
// Fragments: K-major operands with ldmatrix, the others with ldmatrix.trans. For int8, ldmatrix.trans works
// on 16-bit pairs, so an M/N-major int8 tile is read as pairs of rows (m, m+1) × 4 k-values; byte permutes
// (prmt) regroup them into the 4 consecutive k the mma needs, and the fragment's row (or column) g holds
// the physical row 2g or 2g+1 — the epilogue places each accumulator at its physical position.
// Epilogue: accumulators go through shared memory (a BN × BM tile, M contiguous) so C is written along M in
// wide stores. Split-K (gridDim.z > 1): each split writes fp32 (int32) partial products to W[z]; the last
// split of each tile to arrive sums them in the order z = 0, 1, ... in fp32 (int32) and only then rounds
// to the output type, so the sum is deterministic and loses no accuracy to fp16 partials.
// Index arithmetic is 64-bit.

// KIND selects the kernel family when this file is followed by gemm_wgmma.cu (as the op compiles it):
// 0 (or undefined) is this file's mma.sync kernel, 1 the Hopper wgmma kernel of gemm_wgmma.cu.
#if !defined(KIND) || KIND == 0

#ifndef PREC_INT8
#define PREC_INT8 0
#endif
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 32
#endif
#ifndef WM
#define WM 64
#endif
#ifndef WN
#define WN 64
#endif
#ifndef STAGES
#define STAGES 3
#endif
#ifndef GM
#define GM 8
#endif

typedef long long i64;
typedef unsigned int u32;

#if PREC_INT8
#define ES 1
typedef signed char tin;
typedef int tout;
typedef int tacc;
#else
#define ES 2
typedef unsigned short tin; // IEEE half, converted in PTX (NVRTC has no cuda_fp16.h without include paths)
typedef unsigned short tout;
typedef float tacc;
#endif

#define THREADS (32 * (BM / WM) * (BN / WN))
#define KB (BK * ES)                // bytes of k per stage
#define MI (WM / 16)                // mma tiles along M per warp
#define NI (WN / 8)                 // mma tiles along N per warp
// Bytes of one operand tile: the larger of its two layouts, so every kernel of a candidate has the same
// shared-memory size (the host computes SMEM_BYTES with the same formula).
#define TILE_BYTES(R) ((R) * (KB + 16) > BK * ((R) * ES + 16) ? (R) * (KB + 16) : BK * ((R) * ES + 16))
#define STAGE_BYTES (TILE_BYTES(BM) + TILE_BYTES(BN))
#define EPI_BYTES (BN * (BM + 4) * 4)
#define SMEM_BYTES (STAGES * STAGE_BYTES > EPI_BYTES ? STAGES * STAGE_BYTES : EPI_BYTES)

static_assert(KB % 32 == 0, "a stage holds whole mma k-steps (32 bytes)");
static_assert(WM % 16 == 0 && WN % 16 == 0, "warp tiles are made of 16x16 pieces");
static_assert(BM % WM == 0 && BN % WN == 0, "warps tile the block");
static_assert((BM * KB / 16) % THREADS == 0 && (BN * KB / 16) % THREADS == 0, "whole copies per thread");

__device__ __forceinline__ u32 smem_addr(const void *p)
{
	return (u32)__cvta_generic_to_shared(p);
}

// One 16-byte piece of a tile: `valid` bytes from src (0..16), the rest zero. vec is the widest copy the
// operand's alignment allows; below 4 bytes the copy is element by element and synchronous.
__device__ __forceinline__ void copy16(unsigned char *dst, const unsigned char *src, int valid, int vec)
{
	if (vec == 16) {
		asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_addr(dst)), "l"(src),
			     "r"(valid));
	} else if (vec >= 4) {
#pragma unroll 1
		for (int o = 0; o < 16; o += vec) {
			int v = valid - o < 0 ? 0 : valid - o > vec ? vec : valid - o;
			const unsigned char *s = v ? src + o : src;
			if (vec == 8)
				asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(smem_addr(dst + o)),
					     "l"(s), "r"(v));
			else
				asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem_addr(dst + o)),
					     "l"(s), "r"(v));
		}
	} else {
#pragma unroll 1
		for (int o = 0; o < 16; o += ES) {
#if PREC_INT8
			dst[o] = o < valid ? src[o] : 0;
#else
			*reinterpret_cast<unsigned short *>(dst + o) =
				o < valid ? *reinterpret_cast<const unsigned short *>(src + o) : (unsigned short)0;
#endif
		}
	}
}

__device__ __forceinline__ void cp_async_commit()
{
	asm volatile("cp.async.commit_group;\n" ::);
}

template <int N>
__device__ __forceinline__ void cp_async_wait()
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

// Copies one BK-deep tile of an operand into shared memory. R: the tile's extent along M (A) or N (B);
// CK: the operand is contiguous along k. The tile is [R][KB + 16] bytes when CK, else [BK][R·ES + 16].
template <int R, bool CK>
__device__ __forceinline__ void load_tile(unsigned char *tile, const tin *base, i64 ld, i64 row0, i64 rows, i64 k0,
					  i64 kend, int vec, bool full)
{
	constexpr int CPR = CK ? KB / 16 : R * ES / 16; // 16-byte pieces per stored row
	constexpr int STRIDE = CK ? KB + 16 : R * ES + 16;
	constexpr int PIECES = R * KB / 16;
	const unsigned char *b = reinterpret_cast<const unsigned char *>(base);
#pragma unroll
	for (int it = 0; it < PIECES / THREADS; it++) {
		const int i = threadIdx.x + it * THREADS;
		const int sr = i / CPR, c = i % CPR; // stored row, piece within it
		unsigned char *dst = tile + sr * STRIDE + c * 16;
		// (row, k) of the piece's first element; the piece runs along k when CK, else along rows
		const i64 row = row0 + (CK ? sr : c * (16 / ES)), k = k0 + (CK ? c * (16 / ES) : sr);
		const unsigned char *src = b + (CK ? row * ld + k : k * ld + row) * ES;
		if (full) {
			asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr(dst)), "l"(src));
			continue;
		}
		i64 valid;
		if (CK)
			valid = row < rows ? (kend - k) * ES : 0;
		else
			valid = k < kend ? (rows - row) * ES : 0;
		valid = valid < 0 ? 0 : valid > 16 ? 16 : valid;
		copy16(dst, valid ? src : b, (int)valid, vec);
	}
}

__device__ __forceinline__ void ldsm_x4(u32 (&r)[4], u32 addr)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(addr));
}

__device__ __forceinline__ void ldsm_x4_t(u32 (&r)[4], u32 addr)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(addr));
}

__device__ __forceinline__ void mma(tacc (&d)[4], const u32 (&a)[4], u32 b0, u32 b1)
{
#if PREC_INT8
	asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
		     "{%0,%1,%2,%3};\n"
		     : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
		     "{%0,%1,%2,%3};\n"
		     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

// The lane's row of the 8×8 matrix it addresses for an M/N-major (trans) load of k-step kk: fp16 takes
// matrices (k 0-7 | 8-15) × (rows 0-7 | 8-15); int8 takes, for 16 rows (one 16-byte row), the k-values
// f(r) = (r/2)·4 + r%2 (+2 for odd matrices, +16 for the upper two), so that after the byte permutes each
// thread holds k = 4j..4j+3 for its two rows.
__device__ __forceinline__ int trans_k(int lane, int kk, bool a_side)
{
	const int q = lane >> 3, r = lane & 7;
#if PREC_INT8
	(void)a_side;
	return kk * 32 + (r >> 1) * 4 + (r & 1) + (q & 1) * 2 + (q >> 1) * 16;
#else
	// A: matrices q = (rows 0-7,k 0-7), (rows 8-15,k 0-7), (rows 0-7,k 8-15), (rows 8-15,k 8-15)
	// B: matrices q = (k 0-7,n 0-7), (k 8-15,n 0-7), (k 0-7,n 8-15), (k 8-15,n 8-15)
	return kk * 16 + r + (a_side ? (q >> 1) : (q & 1)) * 8;
#endif
}

__device__ __forceinline__ int trans_row(int lane, bool a_side)
{
#if PREC_INT8
	(void)lane;
	(void)a_side;
	return 0;
#else
	const int q = lane >> 3;
	return (a_side ? (q & 1) : (q >> 1)) * 8;
#endif
}

// A fragments for the warp's MI tiles of k-step kk.
template <bool CK>
__device__ __forceinline__ void frag_a(u32 (&a)[MI][4], const unsigned char *tile, int wm0, int kk, int lane)
{
#pragma unroll
	for (int mi = 0; mi < MI; mi++) {
		const int rb = wm0 + mi * 16;
		if (CK) {
			const int row = rb + (lane & 7) + ((lane >> 3) & 1) * 8, byte = kk * 32 + (lane >> 4) * 16;
			ldsm_x4(a[mi], smem_addr(tile + row * (KB + 16) + byte));
		} else {
			const int k = trans_k(lane, kk, true), row = rb + trans_row(lane, true);
			u32 r[4];
			ldsm_x4_t(r, smem_addr(tile + k * (BM * ES + 16) + row * ES));
#if PREC_INT8
			a[mi][0] = __byte_perm(r[0], r[1], 0x6420);
			a[mi][1] = __byte_perm(r[0], r[1], 0x7531);
			a[mi][2] = __byte_perm(r[2], r[3], 0x6420);
			a[mi][3] = __byte_perm(r[2], r[3], 0x7531);
#else
			a[mi][0] = r[0], a[mi][1] = r[1], a[mi][2] = r[2], a[mi][3] = r[3];
#endif
		}
	}
}

// B fragments (two registers each) for the warp's NI tiles of k-step kk, loaded 16 columns at a time.
template <bool CK>
__device__ __forceinline__ void frag_b(u32 (&b)[NI][2], const unsigned char *tile, int wn0, int kk, int lane)
{
#pragma unroll
	for (int nj = 0; nj < NI / 2; nj++) {
		const int nb = wn0 + nj * 16;
		u32 r[4];
		if (CK) {
			const int n = nb + (lane & 7) + (lane >> 4) * 8, byte = kk * 32 + ((lane >> 3) & 1) * 16;
			ldsm_x4(r, smem_addr(tile + n * (KB + 16) + byte));
			b[2 * nj][0] = r[0], b[2 * nj][1] = r[1], b[2 * nj + 1][0] = r[2], b[2 * nj + 1][1] = r[3];
		} else {
			const int k = trans_k(lane, kk, false), n = nb + trans_row(lane, false);
			ldsm_x4_t(r, smem_addr(tile + k * (BN * ES + 16) + n * ES));
#if PREC_INT8
			b[2 * nj][0] = __byte_perm(r[0], r[1], 0x6420);
			b[2 * nj][1] = __byte_perm(r[2], r[3], 0x6420);
			b[2 * nj + 1][0] = __byte_perm(r[0], r[1], 0x7531);
			b[2 * nj + 1][1] = __byte_perm(r[2], r[3], 0x7531);
#else
			b[2 * nj][0] = r[0], b[2 * nj][1] = r[1], b[2 * nj + 1][0] = r[2], b[2 * nj + 1][1] = r[3];
#endif
		}
	}
}

// Physical row (within the block tile) of fragment row lr (0..15) of tile mi; column of fragment column lc
// (0..7) of tile ni. Only M/N-major int8 operands are permuted (see the header).
template <bool PERM>
__device__ __forceinline__ int phys_row(int wm0, int mi, int lr)
{
	return wm0 + mi * 16 + (PERM ? (lr < 8 ? 2 * lr : 2 * (lr - 8) + 1) : lr);
}

template <bool PERM>
__device__ __forceinline__ int phys_col(int wn0, int ni, int lc)
{
	return PERM ? wn0 + (ni >> 1) * 16 + 2 * lc + (ni & 1) : wn0 + ni * 8 + lc;
}

#if !PREC_INT8
__device__ __forceinline__ unsigned short to_half(float f)
{
	unsigned short h;
	asm("cvt.rn.f16.f32 %0, %1;\n" : "=h"(h) : "f"(f));
	return h;
}
#endif

__device__ __forceinline__ void store_out(tout *p, tacc v)
{
#if PREC_INT8
	*p = v;
#else
	*p = to_half(v);
#endif
}

// Four consecutive outputs along M, 8 (fp16) or 16 (int32) bytes.
__device__ __forceinline__ void store_out4(tout *p, const tacc *v)
{
#if PREC_INT8
	*reinterpret_cast<int4 *>(p) = make_int4(v[0], v[1], v[2], v[3]);
#else
	uint2 u;
	u.x = (u32)to_half(v[0]) | (u32)to_half(v[1]) << 16;
	u.y = (u32)to_half(v[2]) | (u32)to_half(v[3]) << 16;
	*reinterpret_cast<uint2 *>(p) = u;
#endif
}

template <int TA, int TB>
__device__ __forceinline__ void gemm_body(i64 M, i64 N, i64 K, const tin *__restrict__ A, i64 lda,
					  const tin *__restrict__ B, i64 ldb, tout *__restrict__ C, i64 ldc,
					  tacc *__restrict__ W, unsigned *__restrict__ counters, i64 k_chunk, int vec_a,
					  int vec_b, int vec_c)
{
	extern __shared__ __align__(128) unsigned char smem[];
	__shared__ unsigned last_block;
	{
		u32 have;
		asm("mov.u32 %0, %%dynamic_smem_size;\n" : "=r"(have));
		if (have < SMEM_BYTES)
			__trap(); // the host must launch with SMEM_BYTES: anything less would corrupt memory
	}
	constexpr bool CKA = TA == 1, CKB = TB == 0; // operand contiguous along k
	constexpr bool PERM_A = PREC_INT8 && !CKA, PERM_B = PREC_INT8 && !CKB;

	const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
	const int wm0 = (warp % (BM / WM)) * WM, wn0 = (warp / (BM / WM)) * WN;

	// Grouped block order: GM consecutive M-tiles share one N-tile (B stays in L2 while A streams).
	const i64 mt = (M + BM - 1) / BM, nt = (N + BN - 1) / BN;
	const i64 pid = blockIdx.x, width = (i64)GM * nt;
	const i64 first_m = (pid / width) * GM;
	const i64 gsize = mt - first_m < GM ? mt - first_m : GM;
	const i64 m0 = (first_m + (pid % width) % gsize) * BM;
	const i64 n0 = ((pid % width) / gsize) * BN;

	const i64 kbeg = (i64)blockIdx.z * k_chunk;
	const i64 kend = kbeg + k_chunk < K ? kbeg + k_chunk : K;
	const int ntiles = kend > kbeg ? (int)((kend - kbeg + BK - 1) / BK) : 0;
	const bool interior = vec_a == 16 && vec_b == 16 && m0 + BM <= M && n0 + BN <= N;

	tacc acc[MI][NI][4];
#pragma unroll
	for (int i = 0; i < MI; i++)
#pragma unroll
		for (int j = 0; j < NI; j++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				acc[i][j][e] = 0;

	auto stage_a = [&](int s) { return smem + s * STAGE_BYTES; };
	auto stage_b = [&](int s) { return smem + s * STAGE_BYTES + TILE_BYTES(BM); };
	auto load = [&](int s, i64 k0) {
		const bool full = interior && k0 + BK <= kend;
		load_tile<BM, CKA>(stage_a(s), A, lda, m0, M, k0, kend, vec_a, full);
		load_tile<BN, CKB>(stage_b(s), B, ldb, n0, N, k0, kend, vec_b, full);
	};

#pragma unroll
	for (int s = 0; s < STAGES - 1; s++) {
		if (s < ntiles)
			load(s, kbeg + (i64)s * BK);
		cp_async_commit();
	}
	int rd = 0, wr = STAGES - 1;
	for (int t = 0; t < ntiles; t++) {
		cp_async_wait<STAGES - 2>();
		__syncthreads(); // tile t is in shared memory for everyone; stage wr is free (computed at t-1)
		if (t + STAGES - 1 < ntiles)
			load(wr, kbeg + (i64)(t + STAGES - 1) * BK);
		cp_async_commit();
		const unsigned char *ta = stage_a(rd), *tb = stage_b(rd);
#pragma unroll
		for (int kk = 0; kk < KB / 32; kk++) {
			u32 a[MI][4], b[NI][2];
			frag_a<CKA>(a, ta, wm0, kk, lane);
			frag_b<CKB>(b, tb, wn0, kk, lane);
#pragma unroll
			for (int i = 0; i < MI; i++)
#pragma unroll
				for (int j = 0; j < NI; j++)
					mma(acc[i][j], a[i], b[j][0], b[j][1]);
		}
		rd = rd + 1 == STAGES ? 0 : rd + 1;
		wr = wr + 1 == STAGES ? 0 : wr + 1;
	}
	cp_async_wait<0>();
	__syncthreads(); // the pipeline's shared memory is now the epilogue's

	// Accumulators to a BN × BM tile (M contiguous) at their physical positions.
	tacc *cs = reinterpret_cast<tacc *>(smem);
	const int g = lane >> 2, j2 = (lane & 3) * 2;
#pragma unroll
	for (int i = 0; i < MI; i++)
#pragma unroll
		for (int j = 0; j < NI; j++)
#pragma unroll
			for (int e = 0; e < 4; e++) {
				const int r = phys_row<PERM_A>(wm0, i, g + (e >> 1) * 8);
				const int c = phys_col<PERM_B>(wn0, j, j2 + (e & 1));
				cs[c * (BM + 4) + r] = acc[i][j][e];
			}
	__syncthreads();

	if (gridDim.z == 1) {
		for (int idx = tid; idx < BN * (BM / 4); idx += THREADS) {
			const int c = idx / (BM / 4), r = (idx % (BM / 4)) * 4;
			const i64 col = n0 + c, row = m0 + r;
			if (col >= N || row >= M)
				continue;
			const tacc *v = cs + c * (BM + 4) + r;
			tout *d = C + col * ldc + row;
			if (vec_c && row + 3 < M) {
				store_out4(d, v);
			} else {
				for (int u = 0; u < 4 && row + u < M; u++)
					store_out(d + u, v[u]);
			}
		}
		return;
	}
	// Split-K: partial products to W[z] (M × N, ld M), then the last split to arrive sums them in order.
	const i64 MN = M * N;
	for (int idx = tid; idx < BN * BM; idx += THREADS) {
		const int c = idx / BM, r = idx % BM;
		const i64 col = n0 + c, row = m0 + r;
		if (col < N && row < M)
			W[(i64)blockIdx.z * MN + col * M + row] = cs[c * (BM + 4) + r];
	}
	__threadfence();
	__syncthreads();
	if (tid == 0)
		last_block = atomicAdd(&counters[blockIdx.x], 1u) == gridDim.z - 1;
	__syncthreads();
	if (!last_block)
		return;
	__threadfence();
	for (int idx = tid; idx < BN * BM; idx += THREADS) {
		const int c = idx / BM, r = idx % BM;
		const i64 col = n0 + c, row = m0 + r;
		if (col < N && row < M) {
			tacc sum = 0;
			for (unsigned z = 0; z < gridDim.z; z++)
				sum += __ldcg(W + z * MN + col * M + row);
			store_out(C + col * ldc + row, sum);
		}
	}
	if (tid == 0)
		counters[blockIdx.x] = 0;
}

#define GEMM_ARGS                                                                                          \
	i64 M, i64 N, i64 K, const tin *__restrict__ A, i64 lda, const tin *__restrict__ B, i64 ldb,          \
		tout *__restrict__ C, i64 ldc, tacc *__restrict__ W, unsigned *__restrict__ counters,          \
		i64 k_chunk, int vec_a, int vec_b, int vec_c
#define GEMM_PASS M, N, K, A, lda, B, ldb, C, ldc, W, counters, k_chunk, vec_a, vec_b, vec_c

extern "C" __global__ void __launch_bounds__(THREADS) gemm_nn(GEMM_ARGS) { gemm_body<0, 0>(GEMM_PASS); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_nt(GEMM_ARGS) { gemm_body<0, 1>(GEMM_PASS); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_tn(GEMM_ARGS) { gemm_body<1, 0>(GEMM_PASS); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_tt(GEMM_ARGS) { gemm_body<1, 1>(GEMM_PASS); }

#endif // KIND == 0

// ---- KIND 2: skinny products (few columns), A stored M-contiguous (layouts nn, nt) ----
// A matrix-vector style kernel for the latency-bound DeepBench rows (N <= 16, A streamed once): no tensor
// cores, since there is nothing to reuse. Each thread owns VEC = 16/ES consecutive rows and reads them with
// one 16-byte load per k; KS warps-worth of threads split the block's k range in groups of 4 consecutive k
// and meet in shared memory. B's few values per k are the same for every thread (broadcast loads).
// fp16: products in fp32 FMA; int8: four k-rows of A are regrouped by byte permutes into 4-k words per row
// and multiplied with dp4a (exact int32). Columns per block BN (the problem's N is bounded at run time).
// Grid, split-K and the run-time arguments are those of KIND 0; vec_a == 16 enables the vector loads.
#if defined(KIND) && KIND == 2

#ifndef PREC_INT8
#define PREC_INT8 0
#endif
#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 16
#endif
#ifndef BK
#define BK 32
#endif
#ifndef KS
#define KS 2
#endif
#ifndef GM
#define GM 8
#endif

typedef long long i64;
typedef unsigned int u32;

#if PREC_INT8
#define ES 1
typedef signed char tin;
typedef int tout;
typedef int tacc;
#else
#define ES 2
typedef unsigned short tin;
typedef unsigned short tout;
typedef float tacc;
#endif

#define VEC (16 / ES)
#define RT (BM / VEC)        // threads along M
#define THREADS (RT * KS)
#define SMEM_BYTES (BN * (BM + 4) * 4)

static_assert(BM % VEC == 0 && RT >= 1, "whole 16-byte row vectors per block");
static_assert(VEC * BN <= 128, "accumulators per thread");

#if !PREC_INT8
__device__ __forceinline__ float h2f(unsigned short h)
{
	float f;
	asm("cvt.f32.f16 %0, %1;\n" : "=f"(f) : "h"(h));
	return f;
}

__device__ __forceinline__ unsigned short f2h(float f)
{
	unsigned short h;
	asm("cvt.rn.f16.f32 %0, %1;\n" : "=h"(h) : "f"(f));
	return h;
}
#endif

__device__ __forceinline__ void put(tout *p, tacc v)
{
#if PREC_INT8
	*p = v;
#else
	*p = f2h(v);
#endif
}

// A's rows [m, m+VEC) at column k as one 16-byte vector (zero beyond M), or element by element.
__device__ __forceinline__ uint4 load_a(const tin *A, i64 lda, i64 M, i64 m, i64 k, bool vec)
{
	const tin *p = A + k * lda + m;
	if (vec && m + VEC <= M)
		return __ldg(reinterpret_cast<const uint4 *>(p));
	uint4 r = make_uint4(0, 0, 0, 0);
	tin *e = reinterpret_cast<tin *>(&r);
#pragma unroll
	for (int u = 0; u < VEC; u++)
		if (m + u < M)
			e[u] = p[u];
	return r;
}

template <int TB>
__device__ __forceinline__ tin load_b(const tin *B, i64 ldb, i64 k, i64 j)
{
	return __ldg(TB ? B + k * ldb + j : B + j * ldb + k);
}

template <int TB>
__device__ __forceinline__ void skinny_body(i64 M, i64 N, i64 K, const tin *__restrict__ A, i64 lda,
					    const tin *__restrict__ B, i64 ldb, tout *__restrict__ C, i64 ldc,
					    tacc *__restrict__ W, unsigned *__restrict__ counters, i64 k_chunk, int vec_a,
					    int vec_c)
{
	extern __shared__ __align__(16) unsigned char smem[];
	__shared__ unsigned last_block;
	{
		u32 have;
		asm("mov.u32 %0, %%dynamic_smem_size;\n" : "=r"(have));
		if (have < SMEM_BYTES)
			__trap();
	}
	tacc *cs = reinterpret_cast<tacc *>(smem); // BN x (BM+4), M contiguous
	const int tid = threadIdx.x, r = tid % RT, s = tid / RT;
	const i64 mt = (M + BM - 1) / BM, nt = (N + BN - 1) / BN;
	const i64 pid = blockIdx.x, width = (i64)GM * nt;
	const i64 first_m = (pid / width) * GM;
	const i64 gsize = mt - first_m < GM ? mt - first_m : GM;
	const i64 m0 = (first_m + (pid % width) % gsize) * BM;
	const i64 n0 = ((pid % width) / gsize) * BN;
	const int ncols = N - n0 < BN ? (int)(N - n0) : BN;
	const i64 kbeg = (i64)blockIdx.z * k_chunk;
	const i64 kend = kbeg + k_chunk < K ? kbeg + k_chunk : K;
	const i64 m = m0 + (i64)r * VEC;
	const bool vec = vec_a == 16;

	for (int e = tid; e < BN * (BM + 4); e += THREADS)
		cs[e] = 0;

	tacc acc[VEC][BN];
#pragma unroll
	for (int i = 0; i < VEC; i++)
#pragma unroll
		for (int j = 0; j < BN; j++)
			acc[i][j] = 0;

	if (m < M) {
		for (i64 k = kbeg + 4 * s; k < kend; k += 4 * KS) {
			uint4 a[4];
#pragma unroll
			for (int u = 0; u < 4; u++)
				a[u] = k + u < kend ? load_a(A, lda, M, m, k + u, vec) : make_uint4(0, 0, 0, 0);
#if PREC_INT8
			// words w[i]: rows i of the vector, k .. k+3 (byte u from a[u]); dp4a with B's 4 k-values
			u32 w[VEC];
			const u32 *a0 = &a[0].x, *a1 = &a[1].x, *a2 = &a[2].x, *a3 = &a[3].x;
#pragma unroll
			for (int q = 0; q < 4; q++) { // 4 rows per 32-bit word of each vector
				const u32 lo01 = __byte_perm(a0[q], a1[q], 0x5140), hi01 = __byte_perm(a0[q], a1[q], 0x7362);
				const u32 lo23 = __byte_perm(a2[q], a3[q], 0x5140), hi23 = __byte_perm(a2[q], a3[q], 0x7362);
				w[4 * q + 0] = __byte_perm(lo01, lo23, 0x5410);
				w[4 * q + 1] = __byte_perm(lo01, lo23, 0x7632);
				w[4 * q + 2] = __byte_perm(hi01, hi23, 0x5410);
				w[4 * q + 3] = __byte_perm(hi01, hi23, 0x7632);
			}
#pragma unroll
			for (int j = 0; j < BN; j++) {
				if (j >= ncols)
					break;
				u32 b = 0;
#pragma unroll
				for (int u = 0; u < 4; u++)
					if (k + u < kend)
						b |= (u32)(unsigned char)load_b<TB>(B, ldb, k + u, n0 + j) << (8 * u);
#pragma unroll
				for (int i = 0; i < VEC; i++)
					acc[i][j] = __dp4a((int)w[i], (int)b, acc[i][j]);
			}
#else
#pragma unroll
			for (int j = 0; j < BN; j++) {
				if (j >= ncols)
					break;
#pragma unroll
				for (int u = 0; u < 4; u++) {
					const float b = k + u < kend ? h2f(load_b<TB>(B, ldb, k + u, n0 + j)) : 0.f;
					const unsigned short *h = reinterpret_cast<const unsigned short *>(&a[u]);
#pragma unroll
					for (int i = 0; i < VEC; i++)
						acc[i][j] = fmaf(h2f(h[i]), b, acc[i][j]);
				}
			}
#endif
		}
	}
	__syncthreads(); // cs is zero
	if (m < M) {
#pragma unroll
		for (int j = 0; j < BN; j++) {
			if (j >= ncols)
				break;
#pragma unroll
			for (int i = 0; i < VEC; i++)
				if (KS == 1)
					cs[j * (BM + 4) + r * VEC + i] = acc[i][j];
				else
					atomicAdd(&cs[j * (BM + 4) + r * VEC + i], acc[i][j]);
		}
	}
	__syncthreads();

	if (gridDim.z == 1) {
		for (int idx = tid; idx < BN * BM; idx += THREADS) {
			const int c = idx / BM, rr = idx % BM;
			const i64 col = n0 + c, row = m0 + rr;
			if (col < N && row < M)
				put(C + col * ldc + row, cs[c * (BM + 4) + rr]);
		}
		return;
	}
	const i64 MN = M * N;
	for (int idx = tid; idx < BN * BM; idx += THREADS) {
		const int c = idx / BM, rr = idx % BM;
		const i64 col = n0 + c, row = m0 + rr;
		if (col < N && row < M)
			W[(i64)blockIdx.z * MN + col * M + row] = cs[c * (BM + 4) + rr];
	}
	__threadfence();
	__syncthreads();
	if (tid == 0)
		last_block = atomicAdd(&counters[blockIdx.x], 1u) == gridDim.z - 1;
	__syncthreads();
	if (!last_block)
		return;
	__threadfence();
	for (int idx = tid; idx < BN * BM; idx += THREADS) {
		const int c = idx / BM, rr = idx % BM;
		const i64 col = n0 + c, row = m0 + rr;
		if (col < N && row < M) {
			tacc sum = 0;
			for (unsigned z = 0; z < gridDim.z; z++)
				sum += __ldcg(W + z * MN + col * M + row);
			put(C + col * ldc + row, sum);
		}
	}
	if (tid == 0)
		counters[blockIdx.x] = 0;
}

#define SK_ARGS                                                                                            \
	i64 M, i64 N, i64 K, const tin *__restrict__ A, i64 lda, const tin *__restrict__ B, i64 ldb,          \
		tout *__restrict__ C, i64 ldc, tacc *__restrict__ W, unsigned *__restrict__ counters,          \
		i64 k_chunk, int vec_a, int vec_b, int vec_c
#define SK_PASS M, N, K, A, lda, B, ldb, C, ldc, W, counters, k_chunk, vec_a, vec_c

// A transposed (tn, tt) is not this kernel's case: the host never launches those two.
extern "C" __global__ void __launch_bounds__(THREADS) gemm_nn(SK_ARGS) { skinny_body<0>(SK_PASS); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_nt(SK_ARGS) { skinny_body<1>(SK_PASS); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_tn(SK_ARGS) { __trap(); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_tt(SK_ARGS) { __trap(); }

#endif // KIND == 2
