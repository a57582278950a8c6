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
// Constraints (checked by the host before compiling, see src/ops/gemm/gemm_tc.c):
//   BM % WM == 0, BN % WN == 0, threads = 32·(BM/WM)·(BN/WN) in [64, 256]
//   16-byte chunks of a stage (BM·BK·ES/16 and BN·BK·ES/16) a multiple of the thread count
//   SMEM_BYTES (below) within the device's opt-in shared memory per block
// Kernels: gemm_nn, gemm_nt, gemm_tn, gemm_tt (n: as stored, t: transposed, for A then B); pack_cols (below).
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

// pack_cols, pack_t: the repacks the host runs, inside the timed launch, before a wgmma kernel whose operand
// it cannot read as stored (every family's module has them). pack_cols copies a column-major matrix (rows ×
// cols elements of es = 1 or 2 bytes, leading dimension ld) to one with leading dimension ld_out: fp16 rows
// that are not 8-byte aligned (B 't' with N = 7133), which cp.async cannot read. pack_t writes its
// transpose (element (r, c) to c + r·ld_out), through 32 × 32 tiles in shared memory so that reads and writes
// are both along contiguous memory: int8, which wgmma reads K-major only (A 'n', B 't'), and fp16 A 'n' with
// columns that are not 8-byte aligned (M = 35), which wgmma reads faster K-major. Elements of the
// destination outside the copy are left as they are (the kernels never read them).
// On sm_90+ every block first lets the dependent kernel start (griddepcontrol.launch_dependents): after a
// repack of A only, the host launches the wgmma kernel as a programmatic dependent launch, whose producer
// waits for this kernel's writes (griddepcontrol.wait) before its first load of A; its launch, set-up and first
// loads of B overlap this kernel. Grids: pack_cols ceil(rows·cols / 256) × 256 threads; pack_t
// (ceil(rows / 32), ceil(cols / 32)) × (32, 8).
extern "C" __global__ void pack_cols(const unsigned char *__restrict__ src, long long ld,
				     unsigned char *__restrict__ dst, long long ld_out, long long rows, long long cols,
				     int es)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
	asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
	const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= rows * cols)
		return;
	const long long r = i % rows, c = i / rows;
	if (es == 2)
		reinterpret_cast<unsigned short *>(dst)[c * ld_out + r] =
			reinterpret_cast<const unsigned short *>(src)[c * ld + r];
	else
		dst[c * ld_out + r] = src[c * ld + r];
}

extern "C" __global__ void pack_t(const unsigned char *__restrict__ src, long long ld, unsigned char *__restrict__ dst,
				  long long ld_out, long long rows, long long cols, int es)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
	asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
	__shared__ unsigned short tile[32][33];
	const long long r0 = (long long)blockIdx.x * 32, c0 = (long long)blockIdx.y * 32;
	const int tx = threadIdx.x, ty = threadIdx.y;
	for (int j = ty; j < 32; j += 8) { // read: 32 consecutive r of column c0 + j
		const long long r = r0 + tx, c = c0 + j;
		if (r < rows && c < cols)
			tile[j][tx] = es == 2 ? reinterpret_cast<const unsigned short *>(src)[c * ld + r]
					      : src[c * ld + r];
	}
	__syncthreads();
	for (int j = ty; j < 32; j += 8) { // write: 32 consecutive c of row r0 + j
		const long long r = r0 + j, c = c0 + tx;
		if (r < rows && c < cols) {
			if (es == 2)
				reinterpret_cast<unsigned short *>(dst)[r * ld_out + c] = tile[tx][j];
			else
				dst[r * ld_out + c] = (unsigned char)tile[tx][j];
		}
	}
}

// Split-K, at the end of a block whose split has stored its partial products of the bm × bn tile at (m0, n0)
// to W[z] (M × N, leading dimension M; fp32 or int32): the last split of the tile to arrive (counted in
// counters[tile]) sums them in the order z = 0, 1, ... in the accumulator type (deterministic, nothing lost
// to the output type), hands each sum to store(col * ldc + row, sum), and resets the tile's counter for the
// next launch. Every thread of the block calls it. Used by the mma.sync (KIND 0) and skinny (KIND 2) kernels.
template <typename T, typename Store>
__device__ __forceinline__ void splitk_finish(const T *__restrict__ W, unsigned *__restrict__ counters, long long M,
					      long long N, long long ldc, long long m0, long long n0, int bm, int bn,
					      Store store)
{
	__shared__ unsigned last;
	const int tid = threadIdx.x;
	const long long MN = M * N;
	__threadfence();
	__syncthreads();
	if (tid == 0)
		last = atomicAdd(&counters[blockIdx.x], 1u) == gridDim.z - 1;
	__syncthreads();
	if (!last)
		return;
	__threadfence();
	for (int idx = tid; idx < bm * bn; idx += blockDim.x) {
		const int c = idx / bm, r = idx % bm;
		const long long col = n0 + c, row = m0 + r;
		if (col < N && row < M) {
			T sum = 0;
			for (unsigned z = 0; z < gridDim.z; z++)
				sum += __ldcg(W + z * MN + col * M + row);
			store(col * ldc + row, sum);
		}
	}
	if (tid == 0)
		counters[blockIdx.x] = 0;
}

// LAYOUT_NN .. LAYOUT_TT (0 or 1; undefined: 1): which layouts' kernels this source compiles. The host
// compiles one cubin per layout (the op's source specialisations), where the other three kernels only trap:
// a third of the compile time of all four. ONLY(LAYOUT_X, statement) is the statement, or a trap.
#ifndef LAYOUT_NN
#define LAYOUT_NN 1
#endif
#ifndef LAYOUT_NT
#define LAYOUT_NT 1
#endif
#ifndef LAYOUT_TN
#define LAYOUT_TN 1
#endif
#ifndef LAYOUT_TT
#define LAYOUT_TT 1
#endif
#define ONLY(on, ...) ONLY_(on, __VA_ARGS__)
#define ONLY_(on, ...) ONLY_##on(__VA_ARGS__)
#define ONLY_1(...) __VA_ARGS__
#define ONLY_0(...) __trap()

// KIND selects the kernel family when this file is followed by gemm_wgmma.cu (as the op compiles it):
// 0 (or undefined) is this file's mma.sync kernel, 1 the Hopper wgmma kernel of gemm_wgmma.cu, 2 the skinny
// kernel at the end of this file (few columns, no tensor cores).
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
	splitk_finish(W, counters, M, N, ldc, m0, n0, BM, BN, [&](i64 off, tacc v) { store_out(C + off, v); });
}

#define GEMM_ARGS                                                                                          \
	i64 M, i64 N, i64 K, const tin *__restrict__ A, i64 lda, const tin *__restrict__ B, i64 ldb,          \
		tout *__restrict__ C, i64 ldc, tacc *__restrict__ W, unsigned *__restrict__ counters,          \
		i64 k_chunk, int vec_a, int vec_b, int vec_c
#define GEMM_PASS M, N, K, A, lda, B, ldb, C, ldc, W, counters, k_chunk, vec_a, vec_b, vec_c

extern "C" __global__ void __launch_bounds__(THREADS) gemm_nn(GEMM_ARGS) { ONLY(LAYOUT_NN, gemm_body<0, 0>(GEMM_PASS)); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_nt(GEMM_ARGS) { ONLY(LAYOUT_NT, gemm_body<0, 1>(GEMM_PASS)); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_tn(GEMM_ARGS) { ONLY(LAYOUT_TN, gemm_body<1, 0>(GEMM_PASS)); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_tt(GEMM_ARGS) { ONLY(LAYOUT_TT, gemm_body<1, 1>(GEMM_PASS)); }

#endif // KIND == 0

// ---- KIND 2: skinny products (few columns: the host launches it for N <= 64), all four layouts ----
// For the latency- and bandwidth-bound rows where C has a few columns (DeepBench inference N = 1..4,
// training N = 16): A is read once and nothing of it is reused beyond the BN columns of a block, so there is
// no tensor-core work; the kernel's job is to keep enough bytes of A in flight (Little's law: ~36 KB per SM
// on an H200, i.e. a few hundred bytes per thread) and to do the few FMAs per byte on the way.
//
// Tile and grid as in KIND 0: BM rows x BN columns of C per block, grid (ceil(M/BM)*ceil(N/BN), 1, splits);
// the N-tiles of one M-tile are adjacent in blockIdx.x, so blocks that read the same rows of A run together.
// Threads: RT = BM/VEC row threads x KS k-slices (THREADS = RT*KS), VEC = 16/ES rows (one 16-byte vector:
// 8 halves or 16 int8). Thread (r, s) = (tid % RT, tid / RT) owns rows m0 + r*VEC .. +VEC-1 and all BN
// columns: acc[BN*VEC] in registers.
// k: the block's range [z*k_chunk, min(K, (z+1)*k_chunk)) is cut into chunks of KU = 4*STAGES consecutive
// k; slice s takes chunks s, s+KS, s+2*KS, ... A chunk is a batch: the thread issues all its loads of A for
// it (KU loads of 16 bytes: 128 or 256 bytes in flight) before any math on them.
//   nn, nt (A M-contiguous): load u of a batch is the VEC rows at k0+u, one 16-byte vector.
//   tn, tt (A K-contiguous): the batch is VEC rows x KU k, in pieces of PW = min(VEC, KU) k along each row
//   (16 bytes, or 8 for int8 with KU = 8); the slices of a warp read neighbouring chunks of each row.
// B: the range is walked in windows of KWIN = WIN_R*KS*KU k. Each window of B (its k x BN columns) is staged
// in shared memory once: fp16 as fp32, one word per (k, column); int8 packed 4 consecutive k per 32-bit
// word, one word per (4 k, column). A chunk's words are contiguous (CW words, skewed by min(BN, 4) words so
// the slices of a warp, which read neighbouring chunks, hit distinct banks); the row threads of a slice read
// the same address (broadcast). The first batch of each window is loaded before the window's B is staged,
// so the two latencies overlap.
// Math: fp16 fp32 FMA on the halves (cvt), int8 dp4a (exact) on words of 4 consecutive k: nn, nt regroup
// four 16-byte row vectors with byte permutes; tn, tt have them in memory order.
// Reduction, in a fixed order (fp16 results reproducible, int8 exact): the 32/RT slices of a warp by
// halving shuffles (each step a lane keeps half of its sums and adds its partner's copy of that half), the
// warps through shared memory summed in warp order, and the splits (gridDim.z > 1) through W and the last
// block of the tile to arrive, summed in z order, as in KIND 0.
// Loads: 16-byte vectors where vec_a == 16, 8-byte pairs where vec_a == 8, also in the last batch of a k
// range (k by k, or piece by piece); element by element for the last rows of M, a tn piece across the end
// of the range and narrower alignments. Nothing outside A or B is read; rows >= M, columns >= N, k >= K
// count as zero. B is staged with 16-byte (fp16 nn, tn), 4-byte (int8 nn, tn) or up to 16-byte (fp16 nt,
// tt: along the columns) loads where vec_b allows, else element by element.
//
// Tunables: BM, BN, KS, STAGES (KU = 4*STAGES), BK (only the split-K grain: k_chunk is a multiple of it);
// WM, WN, WGS are unused. Constraints (rows in src/ops/gemm/gemm_tc.c): BN <= 16 and VEC*BN <= 128; RT a power
// of two <= 32 (a warp holds whole slices), BM*ES >= 64; THREADS in [128, 512]; EST_REGS*THREADS <= 65536;
// SMEM_BYTES <= 48 KB. THREADS and SMEM_BYTES are derived below; the host computes the same numbers.
#if defined(KIND) && KIND == 2

#ifndef PREC_INT8
#define PREC_INT8 0
#endif
#ifndef BM
#define BM 64 // rows of C per block
#endif
#ifndef BN
#define BN 1 // columns of C per block (<= 16)
#endif
#ifndef BK
#define BK 32 // split-K grain: k_chunk is a multiple of BK
#endif
#ifndef KS
#define KS 32 // k-slices of threads per block
#endif
#ifndef STAGES
#define STAGES 4 // groups of 4 k per batch: KU = 4*STAGES k (and 16-byte loads of A) per thread in flight
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

#define VEC (16 / ES)            // rows of a thread
#define RT (BM / VEC)            // row threads
#define THREADS (RT * KS)
#define NWARPS (THREADS / 32)
#define KU (4 * STAGES)          // k of one batch
#define AW (KU * 4)              // 32-bit words of A a thread holds for one batch (KU x 16 bytes)
#define PW (KU < VEC ? KU : VEC) // tn, tt: elements of one piece along k (one load)
#define PWW (PW * ES / 4)        // words of one piece
#define FLAT (BN * VEC)          // accumulators of a thread, index j*VEC + i
#define HOLD (FLAT * RT / 32)    // sums a lane holds after the warp's halving steps
// Shared memory: the window of B (WIN_R rounds of KS chunks of CW words), or at the end the warps' sums.
#define CW_DATA (PREC_INT8 ? KU / 4 * BN : KU * BN)
#define CW (CW_DATA + (BN < 4 ? BN : 4))
#define WIN_R (16384 / (KS * CW * 4) > 1 ? 16384 / (KS * CW * 4) : 1)
#define KWIN (WIN_R * KS * KU)
#define WIN_BYTES (WIN_R * KS * CW * 4)
#define RED_BYTES (NWARPS * BM * BN * 4)
#define SMEM_BYTES (WIN_BYTES > RED_BYTES ? WIN_BYTES : RED_BYTES)
// Registers a thread needs, roughly: accumulators, one batch of A, the batch's values of B (ptxas loads
// them early; at most 64 counted) and 32 for addresses and counters. The host keeps EST_REGS*THREADS <=
// 65536; MIN_BLOCKS such blocks per SM bound ptxas's allocation (__launch_bounds__), so the edge paths,
// which would take many more registers for loads in flight, do not cost the main loop its occupancy.
#define B_VALS (PREC_INT8 ? KU / 4 * BN : KU * BN)
#define EST_REGS (FLAT + AW + (B_VALS < 64 ? B_VALS : 64) + 32)
#define MIN_BLOCKS (65536 / (EST_REGS * THREADS) > 1 ? 65536 / (EST_REGS * THREADS) : 1)
// int8 tn, tt (A K-contiguous) hold a batch as pieces of rows and read words of it back in another order: 16
// more registers than the estimate (at 128, ptxas spilled 8-12 bytes for BN = 1), so their bound is looser.
#define EST_REGS_T (EST_REGS + (PREC_INT8 ? 16 : 0))
#define MIN_BLOCKS_T (65536 / (EST_REGS_T * THREADS) > 1 ? 65536 / (EST_REGS_T * THREADS) : 1)

static_assert(RT * VEC == BM && RT >= 1 && 32 % RT == 0, "whole 16-byte row vectors; a warp holds whole slices");
static_assert(THREADS % 32 == 0, "whole warps");
static_assert(KU % 4 == 0 && KU % PW == 0 && PW * ES >= 8, "batches of whole 4-k groups and pieces");
static_assert(BN >= 1 && BN <= 16 && FLAT <= 128 && HOLD >= 1, "accumulators per thread");

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

// The bits of one element, zero-extended (a batch of A and a staged unit of B are kept as 32-bit words);
// elem_of reads element e back out of a group of words.
__device__ __forceinline__ u32 bits_of(tin x)
{
#if PREC_INT8
	return (u32)(unsigned char)x;
#else
	return (u32)x;
#endif
}

__device__ __forceinline__ u32 elem_of(const u32 *w, int e)
{
#if PREC_INT8
	return (w[e / 4] >> (8 * (e % 4))) & 0xffu;
#else
	return (w[e / 2] >> (16 * (e % 2))) & 0xffffu;
#endif
}

__device__ __forceinline__ void ldg16(u32 *w, const tin *p)
{
	const uint4 v = __ldg(reinterpret_cast<const uint4 *>(p));
	w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
}

__device__ __forceinline__ void ldg8(u32 *w, const tin *p)
{
	const uint2 v = __ldg(reinterpret_cast<const uint2 *>(p));
	w[0] = v.x, w[1] = v.y;
}

// One element at p if `in`, else 0: the load is never skipped by a branch (it reads `safe` instead), so the
// element-by-element paths stay straight-line code and their loads can be in flight together.
__device__ __forceinline__ u32 elem_or_zero(const tin *p, bool in, const tin *safe)
{
	const u32 x = bits_of(__ldg(in ? p : safe));
	return in ? x : 0u;
}

// NB bytes (16, 8 or 4; below that one element) at p into words.
template <int NB>
__device__ __forceinline__ void ldg_bytes(u32 *w, const tin *p)
{
	if (NB == 16)
		ldg16(w, p);
	else if (NB == 8)
		ldg8(w, p);
	else if (NB == 4)
		w[0] = __ldg(reinterpret_cast<const u32 *>(p));
	else
		w[0] = bits_of(__ldg(p));
}

// One batch of A: rows [m, m+VEC) x k [k0, k0+KU), zero beyond M and kend. Word layout: nn, nt [u][VEC
// elements] (16 bytes per k); tn, tt [piece][row][PW elements].
template <int TA>
__device__ __forceinline__ void load_batch(u32 (&a)[AW], const tin *__restrict__ A, i64 lda, i64 M, i64 m, i64 k0,
					   i64 kend, int vec_a)
{
	const i64 left = M - m;
	const int rows = left < 0 ? 0 : left > VEC ? VEC : (int)left;
	const bool whole = rows == VEC && k0 + KU <= kend;
	if (TA == 0) {
		const tin *p = A + k0 * lda + m;
		if (whole && vec_a == 16) {
#pragma unroll
			for (int u = 0; u < KU; u++)
				ldg16(a + 4 * u, p + u * lda);
			return;
		}
		if (whole && vec_a == 8) {
#pragma unroll
			for (int u = 0; u < KU; u++) {
				ldg8(a + 4 * u, p + u * lda);
				ldg8(a + 4 * u + 2, p + u * lda + 8 / ES);
			}
			return;
		}
	} else {
		const tin *p = A + m * lda + k0;
		if (whole && vec_a >= PW * ES) {
#pragma unroll
			for (int q = 0; q < KU / PW; q++)
#pragma unroll
				for (int i = 0; i < VEC; i++)
					ldg_bytes<PW * ES>(a + (q * VEC + i) * PWW, p + i * lda + q * PW);
			return;
		}
		if (whole && vec_a == 8 && PW * ES == 16) {
#pragma unroll
			for (int q = 0; q < KU / PW; q++)
#pragma unroll
				for (int i = 0; i < VEC; i++) {
					ldg8(a + (q * VEC + i) * PWW, p + i * lda + q * PW);
					ldg8(a + (q * VEC + i) * PWW + 2, p + i * lda + q * PW + 8 / ES);
				}
			return;
		}
	}
	// The edges (the last batch of a k range, the last rows of M) and narrow alignments.
#pragma unroll
	for (int w = 0; w < AW; w++)
		a[w] = 0;
	if (rows == VEC && (vec_a == 16 || vec_a == 8)) {
		// whole rows: vectors for the k in range (a tn piece across kend: element by element)
#pragma unroll
		for (int u = 0; u < (TA == 0 ? KU : KU / PW); u++)
#pragma unroll
			for (int i = 0; i < (TA == 0 ? 1 : VEC); i++) {
				const i64 k = k0 + u * (TA == 0 ? 1 : PW);
				const tin *p = TA == 0 ? A + k * lda + m : A + (m + i) * lda + k;
				u32 *w = TA == 0 ? a + 4 * u : a + (u * VEC + i) * PWW;
				if (TA == 0 ? k < kend : k + PW <= kend) {
					if (TA == 1 && PW * ES == 8) {
						ldg8(w, p);
					} else if (vec_a == 16) {
						ldg16(w, p);
					} else {
						ldg8(w, p);
						ldg8(w + 2, p + 8 / ES);
					}
				} else if (TA == 1 && k < kend) {
#pragma unroll
					for (int e = 0; e < PW; e++)
						w[e * ES / 4] |= elem_or_zero(p + e, k + e < kend, A) << (8 * ((e * ES) % 4));
				}
			}
		return;
	}
	// Element by element (the last rows of M, alignments below 8 bytes): one k (nn) or one piece of a row
	// (tn) at a time, its loads issued before any is used.
	constexpr int STEPS = TA == 0 ? KU : KU / PW * VEC, PER = TA == 0 ? VEC : PW;
#pragma unroll
	for (int st = 0; st < STEPS; st++) {
		const int i0 = TA == 0 ? 0 : st % VEC, u0 = TA == 0 ? st : st / VEC * PW;
		if (k0 + u0 >= kend || i0 >= rows) // (a branch: it also keeps the steps' loads apart, so few registers)
			continue;
		const tin *p = A + (TA == 0 ? (k0 + u0) * lda + m : (m + i0) * lda + k0 + u0);
		u32 x[PER];
#pragma unroll
		for (int e = 0; e < PER; e++)
			x[e] = elem_or_zero(p + e, TA == 0 ? e < rows : k0 + u0 + e < kend, A);
#pragma unroll
		for (int e = 0; e < PER; e++)
			a[(st * PER + e) * ES / 4] |= x[e] << (8 * (((st * PER + e) * ES) % 4));
	}
}

// BN consecutive staged words (a chunk's row for one k, or one 4-k group) from shared memory.
__device__ __forceinline__ void lds_cols(u32 (&b)[BN], const u32 *p)
{
	if (BN == 1) {
		b[0] = p[0];
	} else if (BN == 2) {
		const uint2 v = *reinterpret_cast<const uint2 *>(p);
		b[0] = v.x, b[BN - 1] = v.y;
	} else {
#pragma unroll
		for (int t = 0; t < BN / 4; t++) {
			const uint4 v = *reinterpret_cast<const uint4 *>(p + 4 * t);
			b[4 * t] = v.x, b[4 * t + 1] = v.y, b[4 * t + 2] = v.z, b[4 * t + 3] = v.w;
		}
	}
}

#if PREC_INT8
// Words of 4 consecutive k (4q .. 4q+3 of the batch) for each of the thread's rows.
template <int TA>
__device__ __forceinline__ void words_of(u32 (&w)[VEC], const u32 (&a)[AW], int q)
{
	if (TA == 0) {
		// a + 4*(4q+t) holds the 16 rows at k 4q+t; byte i%4 of word i/4 is row i
		const u32 *a0 = a + 16 * q, *a1 = a0 + 4, *a2 = a0 + 8, *a3 = a0 + 12;
#pragma unroll
		for (int x = 0; x < 4; x++) { // rows 4x .. 4x+3
			const u32 lo01 = __byte_perm(a0[x], a1[x], 0x5140), hi01 = __byte_perm(a0[x], a1[x], 0x7362);
			const u32 lo23 = __byte_perm(a2[x], a3[x], 0x5140), hi23 = __byte_perm(a2[x], a3[x], 0x7362);
			w[4 * x + 0] = __byte_perm(lo01, lo23, 0x5410);
			w[4 * x + 1] = __byte_perm(lo01, lo23, 0x7632);
			w[4 * x + 2] = __byte_perm(hi01, hi23, 0x5410);
			w[4 * x + 3] = __byte_perm(hi01, hi23, 0x7632);
		}
	} else {
#pragma unroll
		for (int i = 0; i < VEC; i++)
			w[i] = a[((4 * q) / PW * VEC + i) * PWW + (4 * q) % PW / 4];
	}
}
#else
// Element (row i, k0 + u) of a batch as fp32.
template <int TA>
__device__ __forceinline__ float a_val(const u32 (&a)[AW], int u, int i)
{
	const int e = TA == 0 ? u * VEC + i : ((u / PW) * VEC + i) * PW + u % PW;
	return h2f((unsigned short)elem_of(a, e));
}
#endif

// The products of one batch with the staged chunk bc of B.
template <int TA>
__device__ __forceinline__ void batch_math(tacc (&acc)[FLAT], const u32 (&a)[AW], const u32 *bc)
{
#if PREC_INT8
#pragma unroll
	for (int q = 0; q < KU / 4; q++) {
		u32 w[VEC], b[BN];
		words_of<TA>(w, a, q);
		lds_cols(b, bc + q * BN);
#pragma unroll
		for (int j = 0; j < BN; j++)
#pragma unroll
			for (int i = 0; i < VEC; i++)
				acc[j * VEC + i] = __dp4a((int)w[i], (int)b[j], acc[j * VEC + i]);
	}
#else
#pragma unroll
	for (int u = 0; u < KU; u++) {
		u32 b[BN];
		lds_cols(b, bc + u * BN);
#pragma unroll
		for (int i = 0; i < VEC; i++) {
			const float x = a_val<TA>(a, u, i);
#pragma unroll
			for (int j = 0; j < BN; j++)
				acc[j * VEC + i] = fmaf(x, __uint_as_float(b[j]), acc[j * VEC + i]);
		}
	}
#endif
}

// Word of staged B for k-offset kk (fp16) or 4-k group kk/4 (int8) and column j.
__device__ __forceinline__ int bs_index(int kk, int j)
{
	return kk / KU * CW + (PREC_INT8 ? kk % KU / 4 : kk % KU) * BN + j;
}

// Stages B's window [w0, wend) (whole chunks: nch*KU k; zero beyond wend and N) into bs. A unit is CU
// consecutive elements along B's contiguous direction: k of column j when TB == 0 (B(k, j) = B[j*ldb + k]),
// columns at k when TB == 1 (B[k*ldb + j]); for int8 with TB == 1, the 4 k of one word of column j, gathered
// byte by byte. A thread has SB units in flight at a time.
template <int TB>
__device__ __forceinline__ void stage_b(u32 *bs, const tin *__restrict__ B, i64 ldb, i64 w0, i64 wend, int nch,
					i64 n0, int ncols, int vec_b)
{
	constexpr int CU = TB == 0 ? (PREC_INT8 ? 4 : 8) : (PREC_INT8 ? 1 : (BN < 8 ? BN : 8));
	constexpr int KSTEP = TB == 1 && PREC_INT8 ? 4 : 1; // k per line when TB == 1
	constexpr int UWORDS = (CU * ES + 3) / 4;
	constexpr int SB = 4;
	const int kspan = nch * KU;
	const int per_line = TB == 0 ? kspan / CU : BN / CU; // units along a column (TB 0) or a k-line (TB 1)
	const int units = TB == 0 ? per_line * BN : per_line * (kspan / KSTEP);
	for (int base = threadIdx.x; base < units; base += THREADS * SB) {
		u32 val[SB][UWORDS];
#pragma unroll
		for (int it = 0; it < SB; it++) {
			const int e = base + it * THREADS;
#pragma unroll
			for (int t = 0; t < UWORDS; t++)
				val[it][t] = 0;
			if (e >= units)
				continue;
			const int line = e / per_line, x = (e % per_line) * CU;
			const int j = TB == 0 ? line : x;
			const i64 k = w0 + (TB == 0 ? x : line * KSTEP);
			if (PREC_INT8 && TB == 1) {
#pragma unroll
				for (int t = 0; t < 4; t++)
					val[it][0] |= elem_or_zero(B + (k + t) * ldb + n0 + j, j < ncols && k + t < wend, B)
						      << (8 * t);
				continue;
			}
			const tin *p = TB == 0 ? B + (n0 + j) * ldb + k : B + k * ldb + n0 + j;
			const bool whole = TB == 0 ? j < ncols && k + CU <= wend : k < wend && j + CU <= ncols;
			if (whole && (CU == 1 || vec_b >= CU * ES)) {
				ldg_bytes<CU * ES>(val[it], p);
				continue;
			}
#pragma unroll
			for (int c = 0; c < CU; c++) {
				const bool in = TB == 0 ? j < ncols && k + c < wend : k < wend && j + c < ncols;
				val[it][c * ES / 4] |= elem_or_zero(p + c, in, B) << (8 * ((c * ES) % 4));
			}
		}
#pragma unroll
		for (int it = 0; it < SB; it++) {
			const int e = base + it * THREADS;
			if (e >= units)
				continue;
			const int line = e / per_line, x = (e % per_line) * CU;
			const int j = TB == 0 ? line : x, kk = TB == 0 ? x : line * KSTEP;
#if PREC_INT8
			bs[bs_index(kk, j)] = val[it][0]; // 4 k of column j
#else
#pragma unroll
			for (int c = 0; c < CU; c++)
				bs[TB == 0 ? bs_index(kk + c, j) : bs_index(kk, j + c)] =
					__float_as_uint(h2f((unsigned short)elem_of(val[it], c)));
#endif
		}
	}
}

// c ? x : y as one selp on the values: written as `c ? acc[t] : acc[t + h]` it may become a select of the
// two addresses, which puts acc[] in local memory.
__device__ __forceinline__ tacc pick(bool c, tacc x, tacc y)
{
	u32 r;
	asm("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %3, 0;\n\tselp.b32 %0, %1, %2, p;\n\t}"
	    : "=r"(r)
	    : "r"(*reinterpret_cast<const u32 *>(&x)), "r"(*reinterpret_cast<const u32 *>(&y)), "r"((int)c));
	return *reinterpret_cast<const tacc *>(&r);
}

// Step ST of the reduction of a warp's slices (lanes that differ in bit RT << ST, while that is below 32):
// a lane with the bit set keeps the upper half of the sums it holds, else the lower, and adds the partner's
// copy of that half; the half it sends is the other one. Afterwards a lane holds HOLD sums, the flat
// indices [base, base + HOLD). Every sum is formed by one lane in a fixed order: the result is
// deterministic. (A template step, so that h is a constant and the loop unrolls: acc[] stays in registers.)
template <int ST>
__device__ __forceinline__ void halve(tacc (&acc)[FLAT], int lane, int &base)
{
	constexpr int d = RT << ST, h = FLAT >> (ST + 1);
	if (d >= 32)
		return;
	const bool up = lane & d;
#pragma unroll
	for (int t = 0; t < h; t++) {
		const tacc send = pick(up, acc[t], acc[t + h]), keep = pick(up, acc[t + h], acc[t]);
		acc[t] = keep + __shfl_xor_sync(0xffffffffu, send, d);
	}
	base += up ? h : 0;
}

template <int TA, int TB>
__device__ __forceinline__ void skinny_body(i64 M, i64 N, i64 K, const tin *__restrict__ A, i64 lda,
					    const tin *__restrict__ B, i64 ldb, tout *__restrict__ C, i64 ldc,
					    tacc *__restrict__ W, unsigned *__restrict__ counters, i64 k_chunk, int vec_a,
					    int vec_b)
{
	extern __shared__ __align__(16) unsigned char smem[];
	{
		u32 have;
		asm("mov.u32 %0, %%dynamic_smem_size;\n" : "=r"(have));
		if (have < SMEM_BYTES)
			__trap(); // the host must launch with SMEM_BYTES: anything less would corrupt memory
	}
	u32 *bs = reinterpret_cast<u32 *>(smem);     // the window of B
	tacc *part = reinterpret_cast<tacc *>(smem); // at the end: [warp][column][BM] sums
	const int tid = threadIdx.x, r = tid % RT, s = tid / RT, lane = tid % 32, warp = tid / 32;
	const i64 nt = (N + BN - 1) / BN;
	const i64 m0 = (i64)(blockIdx.x / nt) * BM, n0 = (i64)(blockIdx.x % nt) * BN;
	const int ncols = N - n0 < BN ? (int)(N - n0) : BN;
	const i64 kbeg = (i64)blockIdx.z * k_chunk;
	const i64 kend = kbeg + k_chunk < K ? kbeg + k_chunk : K;
	const i64 m = m0 + (i64)r * VEC;

	tacc acc[FLAT];
#pragma unroll
	for (int f = 0; f < FLAT; f++)
		acc[f] = 0;

	for (i64 w0 = kbeg; w0 < kend; w0 += KWIN) {
		const i64 wend = w0 + KWIN < kend ? w0 + KWIN : kend;
		const int nch = (int)((wend - w0 + KU - 1) / KU);
		u32 a[AW];
		if (s < nch) // in flight while B is staged
			load_batch<TA>(a, A, lda, M, m, w0 + (i64)s * KU, wend, vec_a);
		__syncthreads(); // the previous window of B is no longer read
		stage_b<TB>(bs, B, ldb, w0, wend, nch, n0, ncols, vec_b);
		__syncthreads();
		for (int c = s; c < nch; c += KS) {
			if (c != s)
				load_batch<TA>(a, A, lda, M, m, w0 + (i64)c * KU, wend, vec_a);
			batch_math<TA>(acc, a, bs + c * CW);
		}
	}

	// The slices of a warp: halving steps over the lanes xor RT, 2*RT, ... 16 (see halve).
	int base = 0;
	halve<0>(acc, lane, base);
	halve<1>(acc, lane, base);
	halve<2>(acc, lane, base);
	halve<3>(acc, lane, base);
	halve<4>(acc, lane, base);
	__syncthreads(); // the window of B is no longer read: the space holds the warps' sums
#pragma unroll
	for (int t = 0; t < HOLD; t++) {
		const int f = base + t, j = f / VEC, i = f % VEC;
		part[(warp * BN + j) * BM + r * VEC + i] = acc[t];
	}
	__syncthreads();

	const i64 MN = M * N;
	for (int o = tid; o < BM * BN; o += THREADS) {
		const int j = o / BM, rr = o % BM;
		const i64 col = n0 + j, row = m0 + rr;
		if (col >= N || row >= M)
			continue;
		tacc v = part[j * BM + rr];
#pragma unroll
		for (int w = 1; w < NWARPS; w++)
			v += part[(w * BN + j) * BM + rr];
		if (gridDim.z == 1)
			put(C + col * ldc + row, v);
		else
			W[(i64)blockIdx.z * MN + col * M + row] = v;
	}
	if (gridDim.z == 1)
		return;
	// Split-K: the last split of the tile to arrive sums the partial products in the order z = 0, 1, ...
	splitk_finish(W, counters, M, N, ldc, m0, n0, BM, BN, [&](i64 off, tacc v) { put(C + off, v); });
}

#define SK_ARGS                                                                                            \
	i64 M, i64 N, i64 K, const tin *__restrict__ A, i64 lda, const tin *__restrict__ B, i64 ldb,          \
		tout *__restrict__ C, i64 ldc, tacc *__restrict__ W, unsigned *__restrict__ counters,          \
		i64 k_chunk, int vec_a, int vec_b, int vec_c
#define SK_PASS M, N, K, A, lda, B, ldb, C, ldc, W, counters, k_chunk, vec_a, vec_b

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS) gemm_nn(SK_ARGS) { ONLY(LAYOUT_NN, skinny_body<0, 0>(SK_PASS)); }
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS) gemm_nt(SK_ARGS) { ONLY(LAYOUT_NT, skinny_body<0, 1>(SK_PASS)); }
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS_T) gemm_tn(SK_ARGS) { ONLY(LAYOUT_TN, skinny_body<1, 0>(SK_PASS)); }
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS_T) gemm_tt(SK_ARGS) { ONLY(LAYOUT_TT, skinny_body<1, 1>(SK_PASS)); }

#endif // KIND == 2
