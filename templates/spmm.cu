// spmm.cu — sparse times dense, C = A·B: A is M×K in CSR (row_ptr, col, val; columns ascending within a row),
// B is K×N and C is M×N, both row-major (N = 1: SpMV, B a vector). Each output is summed over its row's
// nonzeros in a fixed order, so the result does not depend on scheduling. SPMM_FP16 0: A's values, B and C in
// fp32; 1: in IEEE half (fp16), every product and sum in fp32 and C rounded once (the op's `defines` set it).
//
// Tunables (each has a default below, so this file compiles alone):
//   KIND   0: nonzero-split — TPR lanes share a row's nonzeros, each lane keeps VN columns, then the lanes'
//             sums are added by shuffles (SpMV and N of a few);
//          1: column-split — TPR lanes share a row, each owning VN of its columns; the row's (col, val) pairs
//             are read TPR at a time, one per lane, and passed round by shuffles; B is read from global memory
//             (L2) for every nonzero;
//          2: B in shared memory — a block of WARPS·RPW rows and 32·VN columns walks K in slabs of BK rows of
//             B, copied once into shared memory and used by every row of the block that has a nonzero in the
//             slab (each warp RPW rows, a cursor per row); for N of a hundred or more;
//          3: B in shared memory, A segmented — as 2, but A comes in the slab-segmented copy of
//             src/ops/sparse/segs.h (slices of BK columns), made once on the host: each warp copies its RPW
//             rows' segment of the next slab into shared memory with the slab, and reads each nonzero there as
//             one broadcast {column, value}, row by row as the segment's header counts them (no search, no
//             shuffles);
//          4: as 0, with 16-bit column indices (a copy made once on the host where K <= 65536): 6 bytes a
//             nonzero to read, not 8.
//          5: fp16 only, tensor cores — each warp makes its 16·RPW rows' part of a BK-column slice of A dense
//             in shared memory from the tiled copy of src/ops/sparse/tiles.h (made once on the host) and
//             multiplies it by the block's slice of B (8·VN columns) with mma.sync m16n8k16.
//          6: A in BSR, blocks of RPW x RPW (block patterns whose square blocks tile M and K: the BSR copy the
//             host makes for cuSPARSE too) — each lane keeps a block row's RPW rows of its VN columns, so each
//             value of B it loads serves RPW products.
//          7: fp16 only, tensor cores on the same BSR copy (blocks of 16x16 or 32x32: whole m16k16 fragments;
//             8x8: half of an m16k8 one), mma.sync with B's fragments read straight from global memory.
//   TPR    lanes per row (KIND 0, 1, 4; KIND 2, 3: 32)
//   VN     columns per lane: vectors of min(VN, 4), the q-th at column q·(lanes·4) + lane·4 (VN >= 4) so that
//          a warp's vector loads and shared-memory reads are contiguous
//   WARPS  warps per block
//   RPW    rows per warp (KIND 2, 3; KIND 6: the block's side; 1 otherwise)
//   BK     rows of B per shared-memory slab (KIND 2, 3: two slabs in flight); KIND 6: 32, or 64 for A's blocks
//          staged in shared memory; 32 otherwise
//   MINB   KIND 3: blocks an SM its registers are capped for (launch bounds' minimum); KIND 6: warps an SM in
//          eights (2: 16 warps, 128 registers a thread; 3: 24, 80; 4: 32, 64), 1 uncapped; 1 otherwise
//   NZV    KIND 0, 4: nonzeros a lane reads at once: 1, 4 (one load of 4 values and one of 4 columns where the
//          row's nonzeros are aligned to 4; the head and tail one at a time) or 8 (the same, aligned to 8, in
//          16-byte loads: ld_nz); 1 otherwise
// KIND 6, 7: RPW is the block's side (4, 8, 16 or 32; KIND 7 8, 16 or 32); spmm(bsr_row_ptr, bsr_col, bsr_val, B,
// C, M, N, K), grid (M / RPW block rows, column chunks of WARPS·32·VN), no dynamic shared memory (KIND 6 BK 64:
// 2·RPW·RPW elements of static).
// KIND 5: RPW is MI (m16 tiles a warp), VN is NI (n8 tiles); spmm(toff, tent, B, C, M, N, K), grid (groups of
// 16·RPW rows / WARPS, column chunks of 8·VN), dynamic shared memory 2·BK·(8·VN + 8, VN odd: 8·VN)·2 +
// WARPS·16·RPW·(BK + 8)·2.
// Constraints (checked by the host before compiling, src/ops/sparse/spmm.c): KIND 2, 3 have TPR 32, VN >= 4;
// KIND 0, 1, 4 have RPW 1, BK 32; KIND 6 TPR 32, BK 32 or 64, RPW 4-32, RPW·VN <= 64; all but KIND 3 and 6 MINB 1; all
// but KIND 0, 4 NZV 1.
// Kernel: spmm(row_ptr, col, val, B, C, M, N, K); KIND 3: spmm(segoff, segs, span16, B, C, M, N, K, nfull, tail_h,
// tmb), a 1-D grid of one chunk a block (k3_work); the others a grid (ceil(M / rows per block), column chunks).
// 32·WARPS threads; KIND 2 takes 2·BK·32·VN·ES bytes of dynamic shared memory (ES: an element's bytes, 4 or 2),
// KIND 3 that and 2·WARPS·span16·16 for the segments (span16: a warp's buffer, one unit spare; its values stay
// fp32 in fp16 too, exact copies of the half values) and 128 to align. Column chunks beyond gridDim.y are looped
// (not KIND 3's).

#ifndef KIND
#define KIND 1 // 0 nonzero-split, 1 column-split, 2 B in shared memory
#endif
#ifndef TPR
#define TPR 32 // lanes per row
#endif
#ifndef VN
#define VN 4 // columns per lane
#endif
#ifndef WARPS
#define WARPS 4 // warps per block
#endif
#ifndef RPW
#define RPW 1 // rows per warp (KIND 2)
#endif
#ifndef BK
#define BK 32 // rows of B per slab (KIND 2)
#endif
#ifndef MINB
#define MINB 1 // blocks an SM the registers are capped for (KIND 3)
#endif
#ifndef NZV
#define NZV 1 // nonzeros a lane reads at once (KIND 0, 4)
#endif

#ifndef SPMM_FP16
#define SPMM_FP16 0
#endif

#define THREADS (32 * WARPS)
#define VW (VN < 4 ? VN : 4) // vector width
#define NV (VN / VW)         // vectors per lane

typedef long long i64;

// The element of A's values, B and C, and its conversions to and from the fp32 the sums are made in.
#if SPMM_FP16
typedef unsigned short elem; // IEEE half, converted in PTX (NVRTC has no cuda_fp16.h without include paths)
__device__ __forceinline__ float to_f(elem h)
{
	float f;
	asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
	return f;
}
__device__ __forceinline__ elem from_f(float f)
{
	elem h;
	asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
	return h;
}
#else
typedef float elem;
__device__ __forceinline__ float to_f(float f) { return f; }
__device__ __forceinline__ float from_f(float f) { return f; }
#endif
#define ES ((int)sizeof(elem)) // bytes an element
#define EPV (16 / ES)          // elements in a 16-byte copy

// VW consecutive elements at p (VW-aligned) as floats, in one load: 4·ES bytes (VW 4), 2·ES (VW 2) or ES. G:
// p is in global memory (read through the read-only cache), else in shared memory.
template <bool G>
__device__ __forceinline__ void ld_vec(const elem *p, float *out)
{
#if SPMM_FP16
	if (VW == 4) {
		const uint2 w = G ? __ldg(reinterpret_cast<const uint2 *>(p)) : *reinterpret_cast<const uint2 *>(p);
		out[0] = to_f((elem)(w.x & 0xffffu));
		out[1 % VW] = to_f((elem)(w.x >> 16));
		out[2 % VW] = to_f((elem)(w.y & 0xffffu));
		out[3 % VW] = to_f((elem)(w.y >> 16));
	} else if (VW == 2) {
		const unsigned w = G ? __ldg(reinterpret_cast<const unsigned *>(p)) : *reinterpret_cast<const unsigned *>(p);
		out[0] = to_f((elem)(w & 0xffffu));
		out[1 % VW] = to_f((elem)(w >> 16));
	} else {
		out[0] = to_f(G ? __ldg(p) : *p);
	}
#else
	if (VW == 4) {
		const float4 t = G ? __ldg(reinterpret_cast<const float4 *>(p)) : *reinterpret_cast<const float4 *>(p);
		out[0] = t.x;
		out[1 % VW] = t.y;
		out[2 % VW] = t.z;
		out[3 % VW] = t.w;
	} else if (VW == 2) {
		const float2 t = G ? __ldg(reinterpret_cast<const float2 *>(p)) : *reinterpret_cast<const float2 *>(p);
		out[0] = t.x;
		out[1 % VW] = t.y;
	} else {
		out[0] = G ? __ldg(p) : *p;
	}
#endif
}

// Elements 4q to 4q + 3 at p (global memory) as floats, in one load.
__device__ __forceinline__ void ldg4(const elem *p, int q, float *out)
{
#if SPMM_FP16
	const uint2 w = __ldg(reinterpret_cast<const uint2 *>(p) + q);
	out[0] = to_f((elem)(w.x & 0xffffu));
	out[1] = to_f((elem)(w.x >> 16));
	out[2] = to_f((elem)(w.y & 0xffffu));
	out[3] = to_f((elem)(w.y >> 16));
#else
	const float4 t = __ldg(reinterpret_cast<const float4 *>(p) + q);
	out[0] = t.x;
	out[1] = t.y;
	out[2] = t.z;
	out[3] = t.w;
#endif
}

// Four floats to four consecutive elements at p (4-aligned), in one store.
__device__ __forceinline__ void st_vec4(elem *p, float a, float b, float c, float d)
{
#if SPMM_FP16
	unsigned lo, hi;
	asm("cvt.rn.f16x2.f32 %0, %2, %1;" : "=r"(lo) : "f"(a), "f"(b));
	asm("cvt.rn.f16x2.f32 %0, %2, %1;" : "=r"(hi) : "f"(c), "f"(d));
	*reinterpret_cast<uint2 *>(p) = make_uint2(lo, hi);
#else
	*reinterpret_cast<float4 *>(p) = make_float4(a, b, c, d);
#endif
}

// A lane's VN accumulators and the column each stands for: vector q, element v of lane (of lanes) in a chunk
// starting at column n0.
__device__ __forceinline__ int col_of(int n0, int lane, int lanes, int q, int v)
{
	return n0 + q * lanes * VW + lane * VW + v;
}

// VN consecutive-by-vector elements of row r of a row-major matrix with N columns (B or C): whole vectors when
// N is a multiple of VW (every vector then aligned), elementwise with a guard otherwise.
__device__ __forceinline__ void load_row(const elem *__restrict__ X, i64 r, int N, int n0, int lane, int lanes,
					 float *out)
{
	const elem *row = X + r * N;
#pragma unroll
	for (int q = 0; q < NV; q++) {
		int c = col_of(n0, lane, lanes, q, 0);
		if (VW > 1 && N % VW == 0 && c + VW - 1 < N) {
			ld_vec<true>(row + c, out + q * VW);
		} else {
#pragma unroll
			for (int v = 0; v < VW; v++)
				out[q * VW + v] = c + v < N ? to_f(__ldg(row + c + v)) : 0.0f;
		}
	}
}

__device__ __forceinline__ void store_row(elem *__restrict__ C, i64 r, int N, int n0, int lane, int lanes,
					  const float *acc)
{
	elem *row = C + r * N;
#pragma unroll
	for (int q = 0; q < NV; q++) {
		int c = col_of(n0, lane, lanes, q, 0);
		if (VW == 4 && N % 4 == 0 && c + 3 < N) {
			st_vec4(row + c, acc[q * VW], acc[q * VW + 1 % VW], acc[q * VW + 2 % VW], acc[q * VW + 3 % VW]);
		} else {
#pragma unroll
			for (int v = 0; v < VW; v++)
				if (c + v < N)
					row[c + v] = from_f(acc[q * VW + v]);
		}
	}
}

#if KIND == 0 || KIND == 4
#if KIND == 4
typedef unsigned short col_t;
#else
typedef int col_t;
#endif

// A lane's group of NZV nonzeros (NZV 4 or 8; the group's first is NZV·q, NZV-aligned): ld_nz loads their values
// as floats and their columns as stored, col_at gives the u-th column (u a constant once the loops unroll).
// Values: one 16-byte load of fp32 per four (fp16: 8 bytes per four, 16 per eight); columns: one 16-byte load per
// four 32-bit ones (KIND 0) or per eight 16-bit ones (KIND 4: NZV 4 reads 8 bytes).
#if NZV == 8 && KIND == 4
typedef uint4 colv_t;
__device__ __forceinline__ int col_at(const colv_t &c, int u)
{
	const unsigned w = u < 2 ? c.x : u < 4 ? c.y : u < 6 ? c.z : c.w;
	return (int)(u % 2 ? w >> 16 : w & 0xffffu);
}
#elif NZV == 8
struct colv_t {
	int4 lo, hi;
};
__device__ __forceinline__ int col_at(const colv_t &c, int u)
{
	const int4 &h = u < 4 ? c.lo : c.hi;
	return u % 4 == 0 ? h.x : u % 4 == 1 ? h.y : u % 4 == 2 ? h.z : h.w;
}
#elif KIND == 4
typedef ushort4 colv_t;
__device__ __forceinline__ int col_at(const colv_t &c, int u)
{
	return u == 0 ? c.x : u == 1 ? c.y : u == 2 ? c.z : c.w;
}
#else
typedef int4 colv_t;
__device__ __forceinline__ int col_at(const colv_t &c, int u)
{
	return u == 0 ? c.x : u == 1 ? c.y : u == 2 ? c.z : c.w;
}
#endif
__device__ __forceinline__ void ld_nz(const elem *__restrict__ val, const col_t *__restrict__ col, int q, float *a,
				      colv_t &c)
{
#if NZV == 8
#if SPMM_FP16
	const uint4 w = __ldg(reinterpret_cast<const uint4 *>(val) + q);
	const unsigned ws[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
	for (int i = 0; i < 4; i++) {
		a[2 * i] = to_f((elem)(ws[i] & 0xffffu));
		a[2 * i + 1] = to_f((elem)(ws[i] >> 16));
	}
#else
	ldg4(val, 2 * q, a);
	ldg4(val, 2 * q + 1, a + 4);
#endif
#if KIND == 4
	c = __ldg(reinterpret_cast<const uint4 *>(col) + q);
#else
	c.lo = __ldg(reinterpret_cast<const int4 *>(col) + 2 * q);
	c.hi = __ldg(reinterpret_cast<const int4 *>(col) + 2 * q + 1);
#endif
#else
	ldg4(val, q, a);
	c = __ldg(reinterpret_cast<const colv_t *>(col) + q);
#endif
}

// B's row c, VN columns from n0, into x: NV vector loads (the columns whole and aligned: b_vectors). One request a
// vector, where the loads one element at a time made N = 4 cost about 1.7x N = 1 on the same matrix (run53).
// Loading and multiplying are apart so that a group of nonzeros' rows of B are all in flight before the first of
// their FMAs: behind a per-nonzero choice of path, each row's load waited for the FMAs of the row before (VN > 1:
// one L2 round trip a nonzero, SASS of KIND 4 VN 4), so the loops choose the path once a chunk.
__device__ __forceinline__ bool b_vectors(int N, int n0)
{
	return VN == 1 || (N % VW == 0 && n0 + VN <= N);
}
__device__ __forceinline__ void load_brow(const elem *__restrict__ B, int c, int N, int n0, float *x)
{
	const elem *b = B + (i64)c * N + n0;
#pragma unroll
	for (int q = 0; q < NV; q++)
		ld_vec<true>(b + q * VW, x + q * VW);
}
// acc += a · x, column by column
__device__ __forceinline__ void fma_row(float *acc, float a, const float *x)
{
#pragma unroll
	for (int v = 0; v < VN; v++)
		acc[v] = fmaf(a, x[v], acc[v]);
}
// acc += a · B's row c for one nonzero: by vectors where b_vectors holds (VN > 1), else element by element with a
// guard (the same bits either way)
__device__ __forceinline__ void axpy_row(float *acc, float a, const elem *__restrict__ B, int c, int N, int n0)
{
	if (VN > 1 && b_vectors(N, n0)) {
		float x[VN];
		load_brow(B, c, N, n0, x);
		fma_row(acc, a, x);
	} else {
		const elem *b = B + (i64)c * N + n0;
#pragma unroll
		for (int v = 0; v < VN; v++)
			if (n0 + v < N)
				acc[v] = fmaf(a, to_f(__ldg(b + v)), acc[v]);
	}
}
// TPR lanes per row, each taking every TPR-th nonzero; VN consecutive columns per chunk, summed across the
// group by shuffles (a fixed tree: deterministic). Lane v of the group writes column v.
// Without the 1, ptxas held some NZV 4 kernels, and with B's vector loads some VN 4 and 8 ones, to 32 registers
// (full occupancy at 64 threads a block), and they spilled.
#if NZV > 1 || VN > 1
#define KIND0_BOUNDS __launch_bounds__(THREADS, 1)
#else
#define KIND0_BOUNDS __launch_bounds__(THREADS)
#endif
extern "C" __global__ void KIND0_BOUNDS spmm(const int *__restrict__ row_ptr, const col_t *__restrict__ col,
							   const elem *__restrict__ val, const elem *__restrict__ B,
							   elem *__restrict__ C, int M, int N, int K)
{
	(void)K;
	const int lane = threadIdx.x % 32, g = lane % TPR;
	const i64 r = ((i64)blockIdx.x * THREADS + threadIdx.x) / TPR;
	const int start = r < M ? row_ptr[r] : 0, end = r < M ? row_ptr[r + 1] : 0;
	const int chunks = (N + VN - 1) / VN;
	for (int ch = blockIdx.y; ch < chunks; ch += gridDim.y) {
		const int n0 = ch * VN;
		float acc[VN];
#pragma unroll
		for (int v = 0; v < VN; v++)
			acc[v] = 0.0f;
#if NZV > 1
		// The row's nonzeros in the NZV-aligned groups that hold them, a lane's values and columns in 16-byte loads
		// (ld_nz); the first and last group may hold other rows' entries too, which are masked (no FMA), and the
		// arrays are padded with zeros past the last group (spmm.c). Each lane has its first two groups, and in
		// the loop the group two ahead, in flight before its first FMA: a row no longer takes its unaligned head
		// and tail one nonzero at a time, a DRAM and an L2 round trip each before and after the groups (SASS).
		const int g0 = start / NZV, g1 = (end + NZV - 1) / NZV;
		if (b_vectors(N, n0)) {
			float a[NZV] = {}, an[NZV] = {};
			colv_t c = {}, cn = {};
			int q = g0 + g;
			if (q < g1)
				ld_nz(val, col, q, a, c);
			if (q + TPR < g1)
				ld_nz(val, col, q + TPR, an, cn);
			for (; q < g1; q += TPR) {
				float ann[NZV] = {}, x[NZV][VN];
				colv_t cnn = {};
				if (q + 2 * TPR < g1)
					ld_nz(val, col, q + 2 * TPR, ann, cnn);
				const int lo = start - q * NZV, hi = end - q * NZV; // the row's entries of the group: [lo, hi)
#pragma unroll
				for (int u = 0; u < NZV; u++) // every entry's row, the masked ones too: their columns are other
					load_brow(B, col_at(c, u), N, n0, x[u]); // rows' or the padding's zeros, all in B
#pragma unroll
				for (int u = 0; u < NZV; u++) {
					if (u >= lo && u < hi)
						fma_row(acc, a[u], x[u]);
					a[u] = an[u];
					an[u] = ann[u];
				}
				c = cn;
				cn = cnn;
			}
		} else {
			for (int q = g0 + g; q < g1; q += TPR) {
				float a[NZV];
				colv_t c;
				ld_nz(val, col, q, a, c);
				const int lo = start - q * NZV, hi = end - q * NZV;
#pragma unroll
				for (int u = 0; u < NZV; u++)
					if (u >= lo && u < hi)
						axpy_row(acc, a[u], B, col_at(c, u), N, n0);
			}
		}
#else
		int j = start + g;
		if (VN > 1 && b_vectors(N, n0)) // four nonzeros' rows of B in flight (VN 1: the compiler's own unrolling does it)
			for (; j + 3 * TPR < end; j += 4 * TPR) {
				float a[4], x[4][VN];
#pragma unroll
				for (int u = 0; u < 4; u++) {
					a[u] = to_f(__ldg(val + j + u * TPR));
					load_brow(B, __ldg(col + j + u * TPR), N, n0, x[u]);
				}
#pragma unroll
				for (int u = 0; u < 4; u++)
					fma_row(acc, a[u], x[u]);
			}
		for (; j < end; j += TPR)
			axpy_row(acc, to_f(__ldg(val + j)), B, __ldg(col + j), N, n0);
#endif
#pragma unroll
		for (int off = TPR / 2; off > 0; off /= 2)
#pragma unroll
			for (int v = 0; v < VN; v++)
				acc[v] += __shfl_xor_sync(0xffffffffu, acc[v], off);
		if (r < M)
#pragma unroll
			for (int v = 0; v < VN; v++)
				if (g == v % TPR && n0 + v < N)
					C[r * N + n0 + v] = from_f(acc[v]);
	}
}
#endif

#if KIND == 1
// TPR lanes per row own TPR·VN of its columns per chunk; the row's nonzeros come TPR at a time, one per lane,
// and go round the group by shuffles (the group's own mask: groups of one warp may have rows of other lengths).
#if SPMM_FP16 // without the 1, ptxas held TPR 32 VN 4 WARPS 2 to 32 registers, and it spilled
#define KIND1_BOUNDS __launch_bounds__(THREADS, 1)
#else
#define KIND1_BOUNDS __launch_bounds__(THREADS)
#endif
extern "C" __global__ void KIND1_BOUNDS spmm(const int *__restrict__ row_ptr, const int *__restrict__ col,
					     const elem *__restrict__ val, const elem *__restrict__ B, elem *__restrict__ C,
					     int M, int N, int K)
{
	(void)K;
	const int lane = threadIdx.x % 32, g = lane % TPR;
	const unsigned mask = TPR == 32 ? 0xffffffffu : ((1u << TPR) - 1) << (lane - g);
	const i64 r = ((i64)blockIdx.x * THREADS + threadIdx.x) / TPR;
	if (r >= M) // whole groups leave together
		return;
	const int start = row_ptr[r], end = row_ptr[r + 1];
	const int chunks = (N + TPR * VN - 1) / (TPR * VN);
	for (int ch = blockIdx.y; ch < chunks; ch += gridDim.y) {
		const int n0 = ch * TPR * VN;
		float acc[VN];
#pragma unroll
		for (int v = 0; v < VN; v++)
			acc[v] = 0.0f;
		for (int base = start; base < end; base += TPR) {
			const int j = base + g, cnt = end - base < TPR ? end - base : TPR;
			const int cj = j < end ? __ldg(col + j) : 0;
			const float aj = j < end ? to_f(__ldg(val + j)) : 0.0f;
			for (int t = 0; t < cnt; t++) {
				const float a = __shfl_sync(mask, aj, t, TPR);
				float b[VN];
				load_row(B, __shfl_sync(mask, cj, t, TPR), N, n0, g, TPR, b);
#pragma unroll
				for (int v = 0; v < VN; v++)
					acc[v] = fmaf(a, b[v], acc[v]);
			}
		}
		store_row(C, r, N, n0, g, TPR, acc);
	}
}
#endif

#if KIND == 2 || KIND == 3 || KIND == 5 || KIND == 6
__device__ __forceinline__ unsigned smem_u32(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}

// UB bytes (4, 8 or 16) from global to shared memory without a register, zeros where !pred (nothing read then).
template <int UB> __device__ __forceinline__ void cp_async_n(void *smem, const void *gmem, bool pred)
{
	const unsigned s = smem_u32(smem), n = pred ? UB : 0;
	if (UB == 16)
		asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(gmem), "r"(n));
	else if (UB == 8)
		asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(s), "l"(gmem), "r"(n));
	else
		asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(s), "l"(gmem), "r"(n));
}
#endif

#if KIND == 2 || KIND == 3

// Slab `slab` of B (rows k0 .. k0 + BK, the block's columns), zeros past K and N, into dst: 16-byte copies (EPV
// elements) in flight while the block computes the previous slab where N is a multiple of EPV (each thread
// copies the same column of rows THREADS / (BN / EPV) apart in every slab: src is its first row's address in
// this slab, stride the distance between its rows, both worked out once a chunk); plain loads otherwise.
#define SLAB_TPROW (32 * VN / EPV)      // threads a slab row
#define SLAB_RPP (THREADS / SLAB_TPROW) // slab rows a pass
static_assert(SLAB_RPP >= 1 && BK % SLAB_RPP == 0, "whole passes a slab");
__device__ __forceinline__ void load_slab(elem *dst, const elem *__restrict__ B, const elem *src, i64 stride,
					  bool col_in, int k0, int n0, int N, int K)
{
	const int BN = 32 * VN;
	if (N % EPV == 0) {
		const int kk0 = threadIdx.x / SLAB_TPROW, ce = (threadIdx.x % SLAB_TPROW) * EPV;
#pragma unroll 8
		for (int p = 0; p < BK / SLAB_RPP; p++) {
			const bool in = col_in && k0 + kk0 + p * SLAB_RPP < K;
			cp_async_n<16>(dst + (kk0 + p * SLAB_RPP) * BN + ce, in ? src + p * stride : B, in);
		}
	} else {
		for (int t = threadIdx.x; t < BK * BN; t += THREADS) {
			const int kk = t / BN, cc = t % BN;
			dst[t] = k0 + kk < K && n0 + cc < N ? __ldg(B + (i64)(k0 + kk) * N + n0 + cc) : (elem)0;
		}
	}
	asm volatile("cp.async.commit_group;\n" ::);
}

// A lane's VN columns of a slab row starting at b (32·VN elements a row), as load_row reads them from B.
__device__ __forceinline__ void slab_row(const elem *b, int lane, float *out)
{
#pragma unroll
	for (int q = 0; q < NV; q++)
		ld_vec<false>(b + q * 32 * VW + lane * VW, out + q * VW);
}

#endif

#if KIND == 2
// A block's WARPS·RPW rows × 32·VN columns. B comes in slabs of BK rows, copied into shared memory (two
// buffers: the next slab's copies in flight while this one is used) and used by every row of the block that
// has a nonzero in the slab. Each warp keeps, per row, a window of the row's next 32 nonzeros in registers
// (one a lane); the ones that fall in the slab are a prefix (columns ascend), passed round by shuffles, each
// lane reading its VN columns of that slab row (contiguous across the warp: no bank conflicts). The window is
// then shifted down and refilled from global memory, to be used a slab later (its latency hidden).
extern "C" __global__ void __launch_bounds__(THREADS, 1) spmm(const int *__restrict__ row_ptr, const int *__restrict__ col,
							   const elem *__restrict__ val, const elem *__restrict__ B,
							   elem *__restrict__ C, int M, int N, int K)
{
	extern __shared__ __align__(16) elem Bs[]; // [2][BK][32·VN]
	const int BN = 32 * VN;
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	const i64 r0 = (i64)blockIdx.x * (WARPS * RPW) + (i64)warp * RPW;
	const int chunks = (N + BN - 1) / BN, nslabs = (K + BK - 1) / BK;
	for (int ch = blockIdx.y; ch < chunks; ch += gridDim.y) {
		const int n0 = ch * BN;
		int p[RPW], e[RPW], cj[RPW]; // per row: the window's first nonzero, the row's end, a lane's column
		float aj[RPW], acc[RPW][VN];
#pragma unroll
		for (int i = 0; i < RPW; i++) {
			p[i] = r0 + i < M ? __ldg(row_ptr + r0 + i) : 0;
			e[i] = r0 + i < M ? __ldg(row_ptr + r0 + i + 1) : 0;
			const int j = p[i] + lane;
			cj[i] = j < e[i] ? __ldg(col + j) : 0x7fffffff;
			aj[i] = j < e[i] ? to_f(__ldg(val + j)) : 0.0f;
#pragma unroll
			for (int v = 0; v < VN; v++)
				acc[i][v] = 0.0f;
		}
		// this thread's slab copies (N % EPV == 0): a column, rows SLAB_RPP apart
		const int ce = (threadIdx.x % SLAB_TPROW) * EPV;
		const bool col_in = n0 + ce < N;
		const i64 stride = (i64)SLAB_RPP * N;
		const elem *src = B + (i64)(threadIdx.x / SLAB_TPROW) * N + n0 + ce;
		__syncthreads(); // the last chunk's slabs are no longer read
		load_slab(Bs, B, src, stride, col_in, 0, n0, N, K);
		for (int s = 0; s < nslabs; s++) {
			const int k0 = s * BK;
			if (s + 1 < nslabs)
				load_slab(Bs + ((s + 1) & 1) * BK * BN, B, src + (i64)(k0 + BK) * N, stride, col_in, k0 + BK, n0, N,
					  K);
			else
				asm volatile("cp.async.commit_group;\n" ::);
			asm volatile("cp.async.wait_group 1;\n" ::);
			__syncthreads();
			const elem *slab = Bs + (s & 1) * BK * BN;
#pragma unroll
			for (int i = 0; i < RPW; i++) {
				for (;;) {
					const int cnt = __popc(__ballot_sync(0xffffffffu, cj[i] < k0 + BK));
					const int off = (cj[i] - k0) * BN; // each lane's slab row, worked out once (lanes < cnt)
					for (int t = 0; t < cnt; t++) {
						const float a = __shfl_sync(0xffffffffu, aj[i], t);
						float b[VN];
						slab_row(slab + __shfl_sync(0xffffffffu, off, t), lane, b);
#pragma unroll
						for (int v = 0; v < VN; v++)
							acc[i][v] = fmaf(a, b[v], acc[i][v]);
					}
					if (cnt == 0)
						break;
					// the window moves past what was used: shifted down, the top cnt lanes read afresh
					p[i] += cnt;
					int nc = __shfl_down_sync(0xffffffffu, cj[i], cnt);
					float na = __shfl_down_sync(0xffffffffu, aj[i], cnt);
					if (lane + cnt >= 32) {
						const int j = p[i] + lane;
						nc = j < e[i] ? __ldg(col + j) : 0x7fffffff;
						na = j < e[i] ? to_f(__ldg(val + j)) : 0.0f;
					}
					cj[i] = nc;
					aj[i] = na;
					if (cnt < 32)
						break;
				}
			}
			__syncthreads(); // this slab's buffer is refilled next
		}
#pragma unroll
		for (int i = 0; i < RPW; i++)
			if (r0 + i < M)
				store_row(C, r0 + i, N, n0, lane, 32, acc[i]);
	}
}
#endif

#if KIND == 3
#define HDR16 ((RPW * 2 + 15) / 16) // a segment's header, 16-byte units

__host__ __device__ constexpr int ilog2(int x) { return x > 1 ? 1 + ilog2(x / 2) : 0; }
#define SLAB_ROW_SHIFT ilog2(32 * VN * ES) // a slab row's bytes, as a shift
static_assert(VW == 4 && (1 << SLAB_ROW_SHIFT) == 32 * VN * ES, "VN >= 4, a power of two");

// x through an empty asm: the compiler cannot see what it was computed from.
__device__ __forceinline__ unsigned opaque_u32(unsigned x)
{
	asm volatile("" : "+r"(x));
	return x;
}

// The {column, value} entries at shared byte addresses a and a + 8, a 16-byte aligned: one load, one wavefront
// for the warp (ld_entry: the entry at a).
__device__ __forceinline__ void ld_entries2(unsigned a, int &c0, float &v0, int &c1, float &v1)
{
	asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
		     : "=r"(c0), "=f"(v0), "=r"(c1), "=f"(v1)
		     : "r"(a)
		     : "memory");
}
__device__ __forceinline__ void ld_entry(unsigned a, int &c, float &v)
{
	asm volatile("ld.shared.v2.b32 {%0, %1}, [%2];" : "=r"(c), "=f"(v) : "r"(a) : "memory");
}

// slab_row's values for slab row c, the lane's first element of slab row 0 at shared byte address lb.
__device__ __forceinline__ void slab_row_at(unsigned lb, int c, float *out)
{
	const unsigned a = lb + ((unsigned)c << SLAB_ROW_SHIFT);
#pragma unroll
	for (int q = 0; q < NV; q++) {
#if SPMM_FP16
		unsigned w0, w1;
		asm volatile("ld.shared.v2.b32 {%0, %1}, [%2];" : "=r"(w0), "=r"(w1) : "r"(a + q * 32 * VW * ES) : "memory");
		out[q * VW + 0] = to_f((elem)(w0 & 0xffffu));
		out[q * VW + 1] = to_f((elem)(w0 >> 16));
		out[q * VW + 2] = to_f((elem)(w1 & 0xffffu));
		out[q * VW + 3] = to_f((elem)(w1 >> 16));
#else
		asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
			     : "=f"(out[q * VW]), "=f"(out[q * VW + 1]), "=f"(out[q * VW + 2]), "=f"(out[q * VW + 3])
			     : "r"(a + q * 32 * VW * ES)
			     : "memory");
#endif
	}
}

// This warp's segment of one slab (units [o0, o1) of segs) into dst, 16 bytes a copy, in the current copy group.
__device__ __forceinline__ void copy_seg(int4 *dst, const int4 *__restrict__ segs, unsigned o0, unsigned o1, int lane)
{
	for (unsigned u = lane; u < o1 - o0; u += 32)
		cp_async_n<16>(dst + u, segs + o0 + u, true);
}

// The offsets of group g's segment of slab s: lane 0 holds where it starts, lane 1 where it ends (0 past the
// last slab or group).
__device__ __forceinline__ unsigned seg_offsets(const unsigned *__restrict__ segoff, int g, int groups, int nslabs,
						int s, int lane)
{
	return g < groups && s < nslabs && lane <= 1 ? __ldg(segoff + (i64)g * nslabs + s + lane) : 0u;
}

// Warp-wide: this slab's segment (seg: its header, then the entries) into acc, a lane's VN columns of slab row c
// at slab + lane·VW + c·32·VN: per row, the row's entries as the header counts them, each a broadcast {column,
// value} and the lane's columns of that slab row.
__device__ __forceinline__ void walk_slab(float (&acc)[RPW][VN], const int4 *seg, const elem *slab, int lane)
{
	unsigned hw[HDR16 * 4];
#pragma unroll
	for (int h = 0; h < HDR16; h++) {
		const int4 x = seg[h];
		hw[4 * h] = (unsigned)x.x;
		hw[4 * h + 1] = (unsigned)x.y;
		hw[4 * h + 2] = (unsigned)x.z;
		hw[4 * h + 3] = (unsigned)x.w;
	}
	// Shared-window byte addresses: q walks the entries (8 bytes each), and a lane's VN columns of slab row c are
	// at lb + (c << SLAB_ROW_SHIFT), one LEA a nonzero (lb hidden from the compiler, which otherwise rebuilt it
	// from the slab's and the lane's offsets for every nonzero). Two nonzeros an iteration (each row starts
	// 16-byte aligned: segs.h), then a row's odd one and the zero entry after it: the FMAs in the order of the
	// row's entries.
	unsigned q = smem_u32(seg + HDR16);
	const unsigned e0 = q, lb = opaque_u32(smem_u32(slab + lane * VW));
#pragma unroll
	for (int i = 0; i < RPW; i++) {
		const unsigned qe = e0 + 8 * ((hw[i / 2] >> (16 * (i % 2))) & 0xffff); // past row i's last
		const unsigned qe2 = qe - 8; // a pair starts before it (no wrap: e0 is past the slabs)
#pragma unroll 1
		for (; q < qe2; q += 16) {
			int c0, c1;
			float v0, v1, b0[VN], b1[VN];
			ld_entries2(q, c0, v0, c1, v1);
			slab_row_at(lb, c0, b0);
			slab_row_at(lb, c1, b1);
#pragma unroll
			for (int v = 0; v < VN; v++) {
				acc[i][v] = fmaf(v0, b0[v], acc[i][v]);
				acc[i][v] = fmaf(v1, b1[v], acc[i][v]);
			}
		}
		if (q < qe) {
			int c0;
			float v0, b0[VN];
			ld_entry(q, c0, v0);
			slab_row_at(lb, c0, b0);
#pragma unroll
			for (int v = 0; v < VN; v++)
				acc[i][v] = fmaf(v0, b0[v], acc[i][v]);
			q += 16; // past the gap: the next row's start
		}
	}
}

struct __align__(64) tmap_t { // a CUtensorMap (128 opaque bytes), passed by value as a __grid_constant__
	unsigned long long v[16];
};

#if __CUDA_ARCH__ >= 900
__device__ __forceinline__ void k3_wait(unsigned bar, unsigned parity)
{
	asm volatile("{\n.reg .pred done;\nWAIT_%=:\n"
		     "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
		     "@!done bra WAIT_%=;\n}\n" ::"r"(bar),
		     "r"(parity)
		     : "memory");
}

// Slab t of the block's chunk (columns from n0) into dst by
// one warp, completing on the mbarrier bar (its one arrival, lane 0's): where N is a multiple of EPV, one box of
// the tensor map tmb (B: N elements a line, K lines; boxes of 32·VN x BK, zeros outside: the host's
// k3_maps), issued by lane 0; otherwise plain loads by the warp, zeros past N and K.
__device__ __forceinline__ void k3_issue(elem *dst, unsigned bar, const tmap_t *tmb, const elem *__restrict__ B,
					 int t, int n0, int N, int K, int lane)
{
	const int BN = 32 * VN;
	const int k0 = t * BK;
	if (N % EPV == 0) {
		if (lane == 0) {
			// the buffer's earlier reads (generic proxy; ordered by the count in done) before the copy's writes
			asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
			asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(BK * BN * ES)
				     : "memory");
			asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
				     " [%0], [%1, {%2, %3}], [%4];" ::"r"(smem_u32(dst)),
				     "l"(reinterpret_cast<unsigned long long>(tmb)), "r"(n0), "r"(k0), "r"(bar)
				     : "memory");
		}
		return;
	}
	for (int e = lane; e < BK * BN; e += 32) {
		const int kk = e / BN, cc = e % BN;
		dst[e] = k0 + kk < K && n0 + cc < N ? B[(i64)(k0 + kk) * N + n0 + cc] : (elem)0;
	}
	__syncwarp();
	if (lane == 0) // its one arrival, after the warp's stores
		asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
#endif

// The block's work: its chunk of 32·VN columns ch, and the groups of the segmented copy its warps take (warp w
// group gbase + w, for w < cnt). Blocks [0, full) take WARPS groups each, row blocks of a chunk in turn and the
// chunks in turn; where the last wave would leave SMs idle the host launches more blocks after them that share
// the rest of the groups in pieces of tail_h (fewer than WARPS), none across a chunk: each chunk's groups from
// where the full blocks stopped, in order (the host counts the pieces the same way: spmm.c's k3_schedule).
__device__ __forceinline__ void k3_work(int full, int tail_h, int groups, int chunks, int &ch, int &gbase,
					int &cnt)
{
	const int gx = (groups + WARPS - 1) / WARPS, b = blockIdx.x;
	ch = chunks;
	gbase = cnt = 0;
	if (b < full) {
		ch = b / gx;
		gbase = b % gx * WARPS;
		cnt = WARPS;
		return;
	}
	int r = b - full;
	for (int y = full / gx; tail_h > 0 && y < chunks; y++) {
		const int a = y == full / gx ? full % gx * WARPS : 0, pieces = (groups - a + tail_h - 1) / tail_h;
		if (r < pieces) {
			ch = y;
			gbase = a + r * tail_h;
			cnt = min(tail_h, groups - gbase);
			return;
		}
		r -= pieces;
	}
}

// A block's WARPS·RPW rows × 32·VN columns (k3_work's), B in slabs as KIND 2. Each warp takes a group of the
// segmented copy (slices of BK columns: one segment a slab); with each slab of B it copies that group's
// segment of the slab (its offsets loaded a slab earlier still), then walks it (walk_slab).
// sm_90: the warps are not held together at each slab. Slab t fills buffer
// t & 1 and completes on mbarrier full[t & 1]; each warp copies its own segments (cp.async, a slab ahead) and
// counts itself done with a slab on done[t & 1]; the last warp done with slab t copies slab t + 2 into the
// buffer (k3_issue). A warp may so run a slab ahead of the slowest; before sm_90 the block meets at every slab.
extern "C" __global__ void __launch_bounds__(THREADS, MINB) spmm(const unsigned *__restrict__ segoff,
							   const int4 *__restrict__ segs, int span16,
							   const elem *__restrict__ B, elem *__restrict__ C, int M, int N, int K,
							   int nfull, int tail_h, const __grid_constant__ tmap_t tmb)
{
	// [2][BK][32·VN], then [2][WARPS][span16] units of segments, from the first 128-byte boundary (the tensor
	// copies' destinations; the host gives 128 bytes more)
	extern __shared__ __align__(16) unsigned char k3_dsm[];
	elem *const Bs = reinterpret_cast<elem *>(k3_dsm + ((128u - (smem_u32(k3_dsm) & 127u)) & 127u));
	const int BN = 32 * VN;
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	const int groups = (M + RPW - 1) / RPW;
	const int chunks = (N + BN - 1) / BN, nslabs = (K + BK - 1) / BK;
	int ch0, gbase, cnt;
	k3_work(nfull, tail_h, groups, chunks, ch0, gbase, cnt);
	const int g = warp < cnt ? gbase + warp : groups; // groups: none (it takes part, with nothing to walk)
	const i64 r0 = (i64)g * RPW;
	int4 *const segs_smem = reinterpret_cast<int4 *>(Bs + 2 * BK * BN) + warp * span16; // + WARPS·span16: buffer 1
#if __CUDA_ARCH__ >= 900
	__shared__ __align__(8) unsigned long long full[2];
	__shared__ unsigned done[2];
	const unsigned fb = smem_u32(full);
	const int total = ch0 < chunks ? nslabs : 0;
	if (threadIdx.x == 0) {
		asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(fb) : "memory");
		asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(fb + 8) : "memory");
		done[0] = done[1] = 0;
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	__syncthreads();
	if (warp == 0)
		for (int t = 0; t < 2 && t < total; t++)
			k3_issue(Bs + t * BK * BN, fb + 8 * t, &tmb, B, t, ch0 * BN, N, K, lane);
	const unsigned oc = seg_offsets(segoff, g, groups, nslabs, 0, lane);        // slab 0's offsets
	unsigned on = seg_offsets(segoff, g, groups, nslabs, 1 % nslabs, lane);     // slab t + 1's
	copy_seg(segs_smem, segs, __shfl_sync(0xffffffffu, oc, 0), __shfl_sync(0xffffffffu, oc, 1), lane);
	asm volatile("cp.async.commit_group;\n" ::);
	int t = 0;
	if (ch0 < chunks) { // one chunk a block
		const int ch = ch0;
		const int n0 = ch * BN;
		float acc[RPW][VN];
#pragma unroll
		for (int i = 0; i < RPW; i++)
#pragma unroll
			for (int v = 0; v < VN; v++)
				acc[i][v] = 0.0f;
		for (int s = 0; s < nslabs; s++, t++) {
			const int b = t & 1;
			unsigned onn = 0;
			if (t + 1 < total) { // this warp's segment of slab t + 1 (its buffer last read at slab t - 1)
				copy_seg(segs_smem + (b ^ 1) * WARPS * span16, segs, __shfl_sync(0xffffffffu, on, 0),
					 __shfl_sync(0xffffffffu, on, 1), lane);
				onn = seg_offsets(segoff, g, groups, nslabs, (s + 2) % nslabs, lane);
			}
			asm volatile("cp.async.commit_group;\n" ::);
			asm volatile("cp.async.wait_group 1;\n" ::);
			__syncwarp(); // every lane's copies of slab t's segment
			k3_wait(fb + 8 * b, (unsigned)(t >> 1) & 1u);
			if (g < groups)
				walk_slab(acc, segs_smem + b * WARPS * span16, Bs + b * BK * BN, lane);
			__syncwarp(); // every lane's reads of slab t
			unsigned old = 0;
			if (lane == 0) {
				__threadfence_block();
				old = atomicAdd(&done[b], 1u);
			}
			if (__shfl_sync(0xffffffffu, old, 0) == (unsigned)WARPS * ((unsigned)(t >> 1) + 1u) - 1u && t + 2 < total) {
				__threadfence_block(); // the last warp done with slab t: every warp's reads of buffer b are over
				k3_issue(Bs + b * BK * BN, fb + 8 * b, &tmb, B, t + 2, ch0 * BN, N, K, lane);
			}
			on = onn;
		}
#pragma unroll
		for (int i = 0; i < RPW; i++)
			if (r0 + i < M)
				store_row(C, r0 + i, N, n0, lane, 32, acc[i]);
	}
#else
	if (ch0 < chunks) { // one chunk a block
		const int ch = ch0;
		const int n0 = ch * BN;
		float acc[RPW][VN];
#pragma unroll
		for (int i = 0; i < RPW; i++)
#pragma unroll
			for (int v = 0; v < VN; v++)
				acc[i][v] = 0.0f;
		const int ce = (threadIdx.x % SLAB_TPROW) * EPV;
		const bool col_in = n0 + ce < N;
		const i64 stride = (i64)SLAB_RPP * N;
		const elem *src = B + (i64)(threadIdx.x / SLAB_TPROW) * N + n0 + ce;
		unsigned oc = seg_offsets(segoff, g, groups, nslabs, 0, lane); // slab s's offsets
		unsigned on = seg_offsets(segoff, g, groups, nslabs, 1, lane); // slab s + 1's
		__syncthreads(); // the last chunk's slabs are no longer read
		copy_seg(segs_smem, segs, __shfl_sync(0xffffffffu, oc, 0), __shfl_sync(0xffffffffu, oc, 1), lane);
		load_slab(Bs, B, src, stride, col_in, 0, n0, N, K);
		for (int s = 0; s < nslabs; s++) {
			const int k0 = s * BK;
			unsigned onn = 0;
			if (s + 1 < nslabs) {
				copy_seg(segs_smem + ((s + 1) & 1) * WARPS * span16, segs, __shfl_sync(0xffffffffu, on, 0),
					 __shfl_sync(0xffffffffu, on, 1), lane);
				load_slab(Bs + ((s + 1) & 1) * BK * BN, B, src + (i64)(k0 + BK) * N, stride, col_in, k0 + BK, n0,
					  N, K);
				onn = seg_offsets(segoff, g, groups, nslabs, s + 2, lane);
			} else
				asm volatile("cp.async.commit_group;\n" ::);
			asm volatile("cp.async.wait_group 1;\n" ::);
			__syncthreads();
			if (g < groups)
				walk_slab(acc, segs_smem + (s & 1) * WARPS * span16, Bs + (s & 1) * BK * BN, lane);
			oc = on;
			on = onn;
			__syncthreads(); // this slab's buffers are refilled next
		}
#pragma unroll
		for (int i = 0; i < RPW; i++)
			if (r0 + i < M)
				store_row(C, r0 + i, N, n0, lane, 32, acc[i]);
	}
#endif
}
#endif

#if KIND == 5
#if !SPMM_FP16
#error "KIND 5 runs on the tensor cores in fp16: the fp16 op's"
#endif
// Tensor cores (mma.sync m16n8k16, half inputs, fp32 sums) on A made dense in shared memory, a k-slice at a
// time. A comes in the tiled copy of src/ops/sparse/tiles.h, made once on the host: for each group of 16·MI rows
// (one warp's) and slice of BK columns, the group's nonzeros there as 32-bit entries (row in the group << 23 |
// column in the slice << 16 | the half value). Each warp zeroes its 16·MI × BK tile, scatters its entries into it
// (one a lane, no search) and runs its MI × NI mma tiles against the block's slice of B, BK rows × 8·NI columns
// copied into shared memory by cp.async one slice ahead (two buffers). A warp with no entries in a slice skips
// it. Load as sparse, compute as dense: worth it where B and C are narrow (the work is K·M·N whatever the
// sparsity, so dense cuBLAS wins where N is large).
#define MI RPW                // m16 tiles a warp along M: a warp's rows are one group of the tiled copy
#define NI VN                 // n8 tiles a warp along N: the block's 8·NI columns
#define GR (16 * MI)          // rows a warp
#define BNT (8 * NI)          // columns a block
#define LDA_S (BK + 8)        // halves a row of a warp's A tile (8 spare: ldmatrix's rows in distinct banks)
#define LDB_S (BNT + (NI % 2 ? 0 : 8)) // halves a row of a B slice: an odd count of 16-byte units (banks)
static_assert(BK % 16 == 0 && BK <= 128, "slices of whole k16 steps, columns in 7 bits");
static_assert(GR <= 512, "rows in a group in 9 bits");

// A slice of B in copies of UB bytes (EU halves; N a multiple of EU, so a copy is wholly in or out).
template <int UB> __device__ __forceinline__ void copy_bslice(elem *dst, const elem *__restrict__ B, int k0, int n0,
							      int N, int K)
{
	const int EU = UB / 2, upr = BNT / EU; // halves a copy, copies a slice row
	for (int u = threadIdx.x; u < BK * upr; u += THREADS) {
		const int kk = u / upr, c = (u % upr) * EU;
		const bool in = k0 + kk < K && n0 + c < N;
		cp_async_n<UB>(dst + kk * LDB_S + c, in ? B + (i64)(k0 + kk) * N + n0 + c : B, in);
	}
}

// Slice rows k0 .. k0 + BK of B, columns n0 .. n0 + BNT, zeros past K and N, into dst (LDB_S halves a row), in
// the current copy group: 16-byte copies where N is a multiple of 8, 8-byte ones where it is a multiple of 4
// (N = 1500: rows 3000 bytes apart), 4-byte ones where it is even; plain loads where N is odd.
__device__ __forceinline__ void load_bslice(elem *dst, const elem *__restrict__ B, int k0, int n0, int N, int K)
{
	if (N % 8 == 0)
		copy_bslice<16>(dst, B, k0, n0, N, K);
	else if (N % 4 == 0)
		copy_bslice<8>(dst, B, k0, n0, N, K);
	else if (N % 2 == 0)
		copy_bslice<4>(dst, B, k0, n0, N, K);
	else
		for (int t = threadIdx.x; t < BK * BNT; t += THREADS) {
			const int kk = t / BNT, c = t % BNT;
			dst[kk * LDB_S + c] = k0 + kk < K && n0 + c < N ? __ldg(B + (i64)(k0 + kk) * N + n0 + c) : (elem)0;
		}
}

// Entries a lane loads a slice ahead into registers: 90% of 16·MI x BK = 32 x 128 needs 13; 8 where the
// accumulators take 128 registers.
#define PF (GR * BK >= 2048 ? (MI * NI >= 32 ? 8 : 16) : GR * BK / 128)
__device__ __forceinline__ void prefetch_entries(const unsigned *__restrict__ tent, unsigned e0, unsigned e1,
						 unsigned (&x)[PF], int lane)
{
#pragma unroll
	for (int i = 0; i < PF; i++)
		x[i] = e0 + lane + 32 * i < e1 ? __ldg(tent + e0 + lane + 32 * i) : 0u;
}

extern "C" __global__ void __launch_bounds__(THREADS, 1) spmm(const unsigned *__restrict__ toff,
							   const unsigned *__restrict__ tent, const elem *__restrict__ B,
							   elem *__restrict__ C, int M, int N, int K)
{
	extern __shared__ __align__(16) elem sm[]; // [2][BK][LDB_S] slices of B, then [WARPS][GR][LDA_S] A tiles
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	elem *const As = sm + 2 * BK * LDB_S + warp * GR * LDA_S;
	const int groups = (M + GR - 1) / GR, nslices = (K + BK - 1) / BK;
	const int g = blockIdx.x * WARPS + warp;
	const int chunks = (N + BNT - 1) / BNT;
	const unsigned *const to = toff + (i64)(g < groups ? g : 0) * nslices; // a warp past M reads none
	for (int ch = blockIdx.y; ch < chunks; ch += gridDim.y) {
		const int n0 = ch * BNT;
		float acc[MI][NI][4];
#pragma unroll
		for (int i = 0; i < MI; i++)
#pragma unroll
			for (int j = 0; j < NI; j++)
#pragma unroll
				for (int r = 0; r < 4; r++)
					acc[i][j][r] = 0.0f;
		__syncthreads(); // the last chunk's slices are no longer read
		load_bslice(sm, B, 0, n0, N, K);
		asm volatile("cp.async.commit_group;\n" ::);
		// slice s's entries are to[s] .. to[s + 1]: e0, e1 this slice's, e2 the next one's end; x its first ones
		unsigned e0 = g < groups ? __ldg(to) : 0u, e1 = g < groups ? __ldg(to + 1) : 0u;
		unsigned e2 = g < groups && nslices > 1 ? __ldg(to + 2) : e1, x[PF];
		prefetch_entries(tent, e0, e1, x, lane);
		for (int s = 0; s < nslices; s++) {
			if (s + 1 < nslices)
				load_bslice(sm + ((s + 1) & 1) * BK * LDB_S, B, (s + 1) * BK, n0, N, K);
			asm volatile("cp.async.commit_group;\n" ::);
			const bool any = e1 > e0; // the same in every lane of the warp
			if (any) {
				uint4 *z = reinterpret_cast<uint4 *>(As);
				for (int u = lane; u < GR * LDA_S / 8; u += 32)
					z[u] = make_uint4(0u, 0u, 0u, 0u);
				__syncwarp();
#pragma unroll
				for (int i = 0; i < PF; i++)
					if (e0 + lane + 32 * i < e1)
						As[(x[i] >> 23) * LDA_S + ((x[i] >> 16) & 0x7fu)] = (elem)(x[i] & 0xffffu);
				for (unsigned e = e0 + lane + 32 * PF; e < e1; e += 32) {
					const unsigned y = __ldg(tent + e);
					As[(y >> 23) * LDA_S + ((y >> 16) & 0x7fu)] = (elem)(y & 0xffffu);
				}
			}
			// the next slice's first entries into registers, used after this slice's mma (their latency hidden
			// behind it), and the end of the slice after that
			e0 = e1;
			e1 = e2;
			if (s + 1 < nslices)
				prefetch_entries(tent, e0, e1, x, lane);
			e2 = g < groups && s + 3 <= nslices ? __ldg(to + s + 3) : e1;
			asm volatile("cp.async.wait_group 1;\n" ::);
			__syncthreads(); // the slice of B and every warp's A tile are in
			if (any) {
				const elem *bs = sm + (s & 1) * BK * LDB_S;
#pragma unroll
				for (int kk = 0; kk < BK; kk += 16) {
					unsigned a[MI][4], b[NI][2];
#pragma unroll
					for (int i = 0; i < MI; i++)
						asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
							     : "=r"(a[i][0]), "=r"(a[i][1]), "=r"(a[i][2]), "=r"(a[i][3])
							     : "r"(smem_u32(As + (i * 16 + lane % 16) * LDA_S + kk + (lane / 16) * 8)));
#pragma unroll
					for (int j = 0; j < NI; j++)
						asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
							     : "=r"(b[j][0]), "=r"(b[j][1])
							     : "r"(smem_u32(bs + (kk + lane % 16) * LDB_S + j * 8)));
#pragma unroll
					for (int i = 0; i < MI; i++)
#pragma unroll
						for (int j = 0; j < NI; j++)
							asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
								     "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
								     : "+f"(acc[i][j][0]), "+f"(acc[i][j][1]), "+f"(acc[i][j][2]),
								       "+f"(acc[i][j][3])
								     : "r"(a[i][0]), "r"(a[i][1]), "r"(a[i][2]), "r"(a[i][3]),
								       "r"(b[j][0]), "r"(b[j][1]));
				}
			}
			__syncthreads(); // this slice's buffer is refilled next, and each warp's A tile rewritten
		}
		// the fragments' rows lane / 4 and lane / 4 + 8, columns 2·(lane % 4) and the next
		if (g < groups)
#pragma unroll
			for (int i = 0; i < MI; i++)
#pragma unroll
				for (int h = 0; h < 2; h++) {
					const i64 r = (i64)g * GR + i * 16 + lane / 4 + h * 8;
					if (r >= M)
						continue;
#pragma unroll
					for (int j = 0; j < NI; j++) {
						const int c = n0 + j * 8 + 2 * (lane % 4);
						const float v0 = acc[i][j][2 * h], v1 = acc[i][j][2 * h + 1];
						if (N % 2 == 0 && c + 1 < N) {
							unsigned w;
							asm("cvt.rn.f16x2.f32 %0, %2, %1;" : "=r"(w) : "f"(v0), "f"(v1));
							*reinterpret_cast<unsigned *>(C + r * N + c) = w;
						} else {
							if (c < N)
								C[r * N + c] = from_f(v0);
							if (c + 1 < N)
								C[r * N + c + 1] = from_f(v1);
						}
					}
				}
	}
}
#endif

#if KIND == 6
#if RPW < 4 || RPW % 4
#error "KIND 6: RPW is the block's side, 4, 8, 16 or 32"
#endif
// A in BSR (src/ops/sparse/bsr.h: blocks of RPW x RPW, row-major inside, block columns ascending in a block row;
// the copy cuSPARSE's BSR algorithm reads too). A block of WARPS warps takes block row blockIdx.x (RPW rows of C)
// and WARPS·32·VN of its columns; each lane keeps all RPW rows of its VN columns, so every value of B it loads
// serves RPW products from registers (KIND 2 and 3 read B from shared memory once a nonzero). A nonzero block's
// columns go four at a time: four rows of B (a lane's VN columns each), then for each of the block's rows one
// vector load of its four values (the same address in every lane: one request a warp) and 4·VN FMAs. Sums in a
// fixed order: block by block, column by column.
// Unrolled across a whole block of 16 or 32, ptxas loaded all of its values at once (RPW·RPW registers) and
// spilled; four columns at a time it keeps 4·RPW.
#if RPW >= 16
#define K6_UNROLL _Pragma("unroll 1")
#else
#define K6_UNROLL _Pragma("unroll")
#endif
// Registers: uncapped (MINB 1), ptxas took up to 206 and ran 8 warps an SM (run61's ncu: 11% of the warp slots,
// latency-bound); MINB 2-4 ask for 8·MINB warps an SM.
#define K6_MINB (MINB == 1 ? 1 : 8 * MINB / WARPS)
#if BK == 64
// BK 64: A's blocks staged in shared memory, the next block's copy (cp.async, every thread of the block a 16-byte
// piece) in flight while this one is used, and the next four rows of B loaded before this step's FMAs (across
// blocks too): with 64 registers of A's values no longer loaded ahead, a lane keeps both steps' rows of B. Each
// step then waits on neither memory; the FMAs and their order are BK 32's.
static_assert(RPW * RPW * sizeof(elem) % 16 == 0, "KIND 6 BK 64: whole 16-byte pieces of a block");
#define K6_PIECES (RPW * RPW * (int)sizeof(elem) / 16)
__device__ __forceinline__ void k6_stage(elem *dst, const elem *__restrict__ bval, int j)
{
	const char *src = reinterpret_cast<const char *>(bval + (i64)j * (RPW * RPW));
	for (int i = threadIdx.x; i < K6_PIECES; i += THREADS)
		cp_async_n<16>(reinterpret_cast<char *>(dst) + 16 * i, src + 16 * i, true);
	asm volatile("cp.async.commit_group;\n" ::);
}
// Four values of A's staged block row r, columns c0..c0 + 3, as floats (the same address in every lane).
__device__ __forceinline__ void k6_lds4(const elem *a, float *out)
{
#if SPMM_FP16
	const uint2 w = *reinterpret_cast<const uint2 *>(a);
	out[0] = to_f((elem)(w.x & 0xffffu));
	out[1] = to_f((elem)(w.x >> 16));
	out[2] = to_f((elem)(w.y & 0xffffu));
	out[3] = to_f((elem)(w.y >> 16));
#else
	const float4 t = *reinterpret_cast<const float4 *>(a);
	out[0] = t.x, out[1] = t.y, out[2] = t.z, out[3] = t.w;
#endif
}
#endif
extern "C" __global__ void __launch_bounds__(THREADS, K6_MINB)
	spmm(const int *__restrict__ bptr, const int *__restrict__ bcol, const elem *__restrict__ bval,
	     const elem *__restrict__ B, elem *__restrict__ C, int M, int N, int K)
{
	(void)M;
	(void)K;
	const int lane = threadIdx.x % 32, w = threadIdx.x / 32, br = blockIdx.x;
	const int start = bptr[br], end = bptr[br + 1];
	const int chunks = (N + THREADS * VN - 1) / (THREADS * VN);
#if BK == 64
	__shared__ __align__(16) elem as[2][RPW * RPW];
#endif
	for (int ch = blockIdx.y; ch < chunks; ch += gridDim.y) {
		const int n0 = (ch * WARPS + w) * 32 * VN;
		float acc[RPW][VN];
#pragma unroll
		for (int r = 0; r < RPW; r++)
#pragma unroll
			for (int v = 0; v < VN; v++)
				acc[r][v] = 0.0f;
#if BK == 64
		if (start < end) {
			k6_stage(as[0], bval, start);
			float b[4][VN];
			i64 kn = (i64)__ldg(bcol + start) * RPW; // the rows of B the next loads read
#pragma unroll
			for (int cc = 0; cc < 4; cc++)
				load_row(B, kn + cc, N, n0, lane, 32, b[cc]);
			for (int j = start; j < end; j++) {
				const i64 k0 = kn;
				const i64 k1 = j + 1 < end ? (i64)__ldg(bcol + j + 1) * RPW : -1;
				if (j + 1 < end) // block j + 1's copy in flight; wait for block j's
					k6_stage(as[(j + 1 - start) & 1], bval, j + 1);
				else
					asm volatile("cp.async.commit_group;\n" ::);
				asm volatile("cp.async.wait_group 1;\n" ::);
				__syncthreads();
				const elem *a = as[(j - start) & 1];
				K6_UNROLL
				for (int c0 = 0; c0 < RPW; c0 += 4) {
					float bn[4][VN]; // the next step's rows: this block's, or the next block's first four
					const i64 kr = c0 + 4 < RPW ? k0 + c0 + 4 : k1;
					if (kr >= 0) {
#pragma unroll
						for (int cc = 0; cc < 4; cc++)
							load_row(B, kr + cc, N, n0, lane, 32, bn[cc]);
					}
#pragma unroll
					for (int r = 0; r < RPW; r++) {
						float a4[4];
						k6_lds4(a + r * RPW + c0, a4);
#pragma unroll
						for (int cc = 0; cc < 4; cc++)
#pragma unroll
							for (int v = 0; v < VN; v++)
								acc[r][v] = fmaf(a4[cc], b[cc][v], acc[r][v]);
					}
					if (kr >= 0) {
#pragma unroll
						for (int cc = 0; cc < 4; cc++)
#pragma unroll
							for (int v = 0; v < VN; v++)
								b[cc][v] = bn[cc][v];
					}
				}
				kn = k1;
				__syncthreads(); // every warp is done with block j's copy before block j + 2's lands on it
			}
		}
#else
		for (int j = start; j < end; j++) {
			const elem *a = bval + (i64)j * (RPW * RPW);
			const i64 k0 = (i64)__ldg(bcol + j) * RPW;
			K6_UNROLL
			for (int c0 = 0; c0 < RPW; c0 += 4) {
				float b[4][VN];
#pragma unroll
				for (int cc = 0; cc < 4; cc++)
					load_row(B, k0 + c0 + cc, N, n0, lane, 32, b[cc]);
#pragma unroll
				for (int r = 0; r < RPW; r++) {
					float a4[4];
					ldg4(a + r * RPW + c0, 0, a4);
#pragma unroll
					for (int cc = 0; cc < 4; cc++)
#pragma unroll
						for (int v = 0; v < VN; v++)
							acc[r][v] = fmaf(a4[cc], b[cc][v], acc[r][v]);
				}
			}
		}
#endif
#pragma unroll
		for (int r = 0; r < RPW; r++)
			store_row(C, (i64)br * RPW + r, N, n0, lane, 32, acc[r]);
	}
}
#endif

#if KIND == 7
#if !SPMM_FP16
#error "KIND 7 runs on the tensor cores in fp16: the fp16 op's"
#endif
#if RPW != 8 && RPW != 16 && RPW != 32
#error "KIND 7: RPW is the block's side, 8, 16 or 32"
#endif
// Tensor cores on A's BSR copy (as KIND 6): a nonzero block of RPW x RPW is (RPW/16)^2 m16k16 A fragments, read
// straight from it (four 32-bit loads a lane each); B needs no copy either. A block of WARPS warps takes block
// row blockIdx.x and WARPS·32·VN columns; a warp's 32 columns are four n8 tiles whose columns interleave (tile q's
// column c is physical column 4c + q), so that a lane's B fragments for all four come from one 8-byte load of a
// row of B (four consecutive halves, one a tile) per k it needs, and its outputs of a row are 8 consecutive
// columns (one 16-byte store). mma.sync m16n8k16, fp32 sums, block by block in a fixed order. An 8x8 block is
// the top half of an m16n8k8 fragment (the bottom half zeros: half the tensor cores' work wasted, where a block
// row of 16 would need two block rows' blocks at the same columns).
#define K7_MI (RPW >= 16 ? RPW / 16 : 1) // m16 tiles of a block row, and k16 steps of a block

// Four halves of row k of B from column c (a multiple of 4) as two words; zeros past N.
__device__ __forceinline__ uint2 k7_load4(const elem *__restrict__ B, i64 k, int c, int N)
{
	const elem *p = B + k * N + c;
	if (N % 4 == 0 && c + 3 < N)
		return __ldg(reinterpret_cast<const uint2 *>(p));
	unsigned h[4];
#pragma unroll
	for (int i = 0; i < 4; i++)
		h[i] = c + i < N ? (unsigned)__ldg(p + i) : 0u;
	return make_uint2(h[0] | h[1] << 16, h[2] | h[3] << 16);
}

extern "C" __global__ void __launch_bounds__(THREADS, 1)
	spmm(const int *__restrict__ bptr, const int *__restrict__ bcol, const elem *__restrict__ bval,
	     const elem *__restrict__ B, elem *__restrict__ C, int M, int N, int K)
{
	(void)M;
	(void)K;
	const int lane = threadIdx.x % 32, w = threadIdx.x / 32, br = blockIdx.x, g = lane / 4, t = lane % 4;
	const int start = bptr[br], end = bptr[br + 1];
	const int chunks = (N + THREADS * VN - 1) / (THREADS * VN);
	for (int ch = blockIdx.y; ch < chunks; ch += gridDim.y) {
		const int n0 = (ch * WARPS + w) * 32 * VN;
		float acc[K7_MI][VN][4][4];
#pragma unroll
		for (int i = 0; i < K7_MI; i++)
#pragma unroll
			for (int v = 0; v < VN; v++)
#pragma unroll
				for (int q = 0; q < 4; q++)
#pragma unroll
					for (int e = 0; e < 4; e++)
						acc[i][v][q][e] = 0.0f;
		for (int j = start; j < end; j++) {
			const elem *a = bval + (i64)j * (RPW * RPW);
			const i64 k0 = (i64)__ldg(bcol + j) * RPW;
#if RPW == 8
			{ // m16n8k8: A's rows g of the block (rows g + 8 zeros), B's rows 2t and 2t + 1
				uint2 wb[VN][2];
#pragma unroll
				for (int v = 0; v < VN; v++) {
					const int c = n0 + v * 32 + 4 * g;
					wb[v][0] = k7_load4(B, k0 + 2 * t, c, N);
					wb[v][1] = k7_load4(B, k0 + 2 * t + 1, c, N);
				}
				const unsigned a0 = __ldg(reinterpret_cast<const unsigned *>(a + g * 8 + 2 * t)), a1 = 0u;
#pragma unroll
				for (int v = 0; v < VN; v++)
#pragma unroll
					for (int q = 0; q < 4; q++) {
						const unsigned b0 = __byte_perm(q < 2 ? wb[v][0].x : wb[v][0].y,
										q < 2 ? wb[v][1].x : wb[v][1].y, q % 2 ? 0x7632u : 0x5410u);
						asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, "
							     "{%6}, {%0,%1,%2,%3};\n"
							     : "+f"(acc[0][v][q][0]), "+f"(acc[0][v][q][1]), "+f"(acc[0][v][q][2]),
							       "+f"(acc[0][v][q][3])
							     : "r"(a0), "r"(a1), "r"(b0));
					}
			}
#else
#pragma unroll
			for (int ki = 0; ki < K7_MI; ki++) {
				// B: rows 2t, 2t + 1, 2t + 8, 2t + 9 of this k16 step, four columns of each 32
				uint2 wb[VN][4];
#pragma unroll
				for (int v = 0; v < VN; v++) {
					const int c = n0 + v * 32 + 4 * g;
					wb[v][0] = k7_load4(B, k0 + ki * 16 + 2 * t, c, N);
					wb[v][1] = k7_load4(B, k0 + ki * 16 + 2 * t + 1, c, N);
					wb[v][2] = k7_load4(B, k0 + ki * 16 + 2 * t + 8, c, N);
					wb[v][3] = k7_load4(B, k0 + ki * 16 + 2 * t + 9, c, N);
				}
#pragma unroll
				for (int mi = 0; mi < K7_MI; mi++) {
					const elem *s = a + (mi * 16 + g) * RPW + ki * 16 + 2 * t;
					const unsigned a0 = __ldg(reinterpret_cast<const unsigned *>(s));
					const unsigned a1 = __ldg(reinterpret_cast<const unsigned *>(s + 8 * RPW));
					const unsigned a2 = __ldg(reinterpret_cast<const unsigned *>(s + 8));
					const unsigned a3 = __ldg(reinterpret_cast<const unsigned *>(s + 8 * RPW + 8));
#pragma unroll
					for (int v = 0; v < VN; v++)
#pragma unroll
						for (int q = 0; q < 4; q++) {
							// tile q's column g: half q of each word; k pairs low then high
							const unsigned sel = q % 2 ? 0x7632u : 0x5410u;
							const unsigned b0 = __byte_perm(q < 2 ? wb[v][0].x : wb[v][0].y,
											q < 2 ? wb[v][1].x : wb[v][1].y, sel);
							const unsigned b1 = __byte_perm(q < 2 ? wb[v][2].x : wb[v][2].y,
											q < 2 ? wb[v][3].x : wb[v][3].y, sel);
							asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
								     "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
								     : "+f"(acc[mi][v][q][0]), "+f"(acc[mi][v][q][1]),
								       "+f"(acc[mi][v][q][2]), "+f"(acc[mi][v][q][3])
								     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
						}
				}
			}
#endif
		}
		// tile q's outputs (g, 2t), (g, 2t + 1) are columns 8t + q and 8t + 4 + q of the 32: a row's eight
		// consecutive columns from 8t
#pragma unroll
		for (int mi = 0; mi < K7_MI; mi++)
#pragma unroll
			for (int h = 0; h < (RPW == 8 ? 1 : 2); h++) {
				const i64 r = (i64)br * RPW + mi * 16 + g + 8 * h;
#pragma unroll
				for (int v = 0; v < VN; v++) {
					const int c = n0 + v * 32 + 8 * t;
					float o[8];
#pragma unroll
					for (int q = 0; q < 4; q++) {
						o[q] = acc[mi][v][q][2 * h];
						o[4 + q] = acc[mi][v][q][2 * h + 1];
					}
					elem *p = C + r * N + c;
					if (N % 8 == 0 && c + 7 < N) {
						st_vec4(p, o[0], o[1], o[2], o[3]);
						st_vec4(p + 4, o[4], o[5], o[6], o[7]);
					} else {
#pragma unroll
						for (int i = 0; i < 8; i++)
							if (c + i < N)
								p[i] = from_f(o[i]);
					}
				}
			}
	}
}
#endif
