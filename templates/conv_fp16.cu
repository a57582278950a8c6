// conv_fp16.cu — forward convolution y = x * w with fp16 inputs and output and fp32 accumulation, on the tensor
// cores (mma.sync m16n8k16): the implicit GEMM of conv_fp32.cu, rows the output pixels (n, p, q), columns the
// filters k, the reduction over (c, r, s), with the im2col addressing in the loads. Half values travel as
// their 16 bits (no header is included; conversions are PTX cvt).
//
// Tunables (each has a default below, so this file compiles after conv_common.cu alone):
//   BM, BN            output pixels and filters per thread block
//   BK                reduction steps per shared-memory stage (a multiple of 16: one mma's k; 64 with VEC only)
//   WARPS_M, WARPS_N  the block's warps; each computes a (BM/WARPS_M) × (BN/WARPS_N) tile of 16×8 mma tiles
//   STAGES            cp.async stages in flight (VEC only; the host uses the other kernels with 2)
//   KIND              0 mma.sync, 1 and 2 wgmma (cp.async or the copy engine), 3 and 4 direct, 5 the halo kernel
//                     (wgmma; BM 128 or 256, BN 64, WARPS_M 2, STAGES 2 or 3: conv_body_halo)
//   VEC               set by the host's source specialisation, not searched (below)
// Constraints (checked by the host before compiling, see src/ops/conv/conv.c):
//   BM/WARPS_M >= 16, BN/WARPS_N >= 8, 2 <= WARPS_M·WARPS_N <= 8, (BM/WARPS_M)·(BN/WARPS_N) <= 4096
// Launch-time: gridDim.z splits the reduction (split-K) with kc steps a split, as in conv_fp32.cu, whose
// kernels' arguments, layouts (conv_nchw, conv_nhwc; one per cubin), shared pixel table, register double
// buffering and split-K (partial sums for conv_common.cu's conv_reduce) this file repeats for 16-bit elements.
// Shared tiles are K-major (As[m][g], Bs[k][g]), rows padded by 8 halves, so the fragments' 32-bit reads of
// a warp hit 32 distinct banks.
//
// VEC (C a multiple of 8; the host picks it per problem, as a source specialisation; for NCHW problems it
// first copies x and w to NHWC and KRSC with to_nhwc, below, and the kernel writes y in NCHW): every 8
// consecutive reduction steps (c, r, s) are 8 channels of one tap, 16 contiguous bytes of x and of w. Those
// are copied to shared memory by cp.async (16 bytes, zero-filled where the tap falls in the padding or past
// the reduction), STAGES stages in flight, and the fragments are read with ldmatrix. Shared memory is
// dynamic: STAGES·(BM+BN)·(BK+8)·2 bytes.

// TF32 (the fp32 op's 3xTF32 candidates, KIND 1 and 2 only; src/ops/conv/conv.c puts this file after
// conv_fp32.cu and defines TF32 0 or 1 per source specialisation): the same wgmma kernels on fp32 elements read
// as TF32 (m64nBNk8.f32.tf32.tf32, 32 floats a 128-byte line, 4 a 16-byte chunk), y in fp32. They run on the
// split copies conv_fp32.cu's conv_split3 makes (each value as a TF32 big part and a TF32 remainder, 3·C
// channels), so the one TF32 product of the copies is the three of 3xTF32. With TF32 0 in the fp32 op, this
// file is left out.
#if !defined(TF32) || TF32
#ifndef TF32
#define TF32 0
#endif
#if TF32
#ifndef TF32_PROMOTE // k-tiles a group summed on the tensor cores before the CUDA cores add it (below)
#define TF32_PROMOTE (STAGES > 2 ? 2 : 1)
#endif
typedef float elt; // x and w as the kernels read them
typedef float yt;  // y
#else
typedef unsigned short elt;
typedef unsigned short yt;
#endif
#define EPC (16 / (int)sizeof(elt)) // elements a 16-byte chunk

#ifndef BM
#define BM 64 // output pixels per block
#endif
#ifndef BN
#define BN 64 // filters per block
#endif
#ifndef BK
#define BK 32 // reduction steps per stage
#endif
#ifndef WARPS_M
#define WARPS_M 2
#endif
#ifndef WARPS_N
#define WARPS_N 2
#endif
#ifndef VEC
#define VEC 0
#endif
#ifndef STAGES
#define STAGES 3 // cp.async stages in flight (VEC only)
#endif
#ifndef X2D
#define X2D 0 // KIND 2: 1 = x read as the matrix [N·H·W][C] (a 1x1 filter, stride 1, no padding; src/ops/conv/conv.c)
#endif
#ifndef KIND
#define KIND 0 // 0: mma.sync; 1: wgmma fed by a cp.async producer warpgroup; 2: wgmma fed by the copy engine
#endif         // (1 and 2: sm_90a, VEC only; 2: C a multiple of 64 as well); 3: direct, mma.sync (VEC 0; below);
               // 4: direct, ldmatrix (VEC 1, NHWC); 5: wgmma on a halo of x (sm_90a, VEC 1, NHWC, C = 64; below)
#if KIND == 1 || KIND == 2 || KIND == 5
#define THREADS (128 * (WARPS_M + 1)) // WARPS_M consumer warpgroups along the pixels, one producer
#else
#define THREADS (32 * WARPS_M * WARPS_N)
#endif
#define WTM (BM / WARPS_M) // a warp's pixels
#define WTN (BN / WARPS_N) // a warp's filters
#define MI (WTM / 16)      // its mma tiles down
#define NI (WTN / 8)       // and across
#define LDS (BK + 8)       // halves per shared row

typedef unsigned short h16;

// The copy engine (sm_90): a tensor map (CUtensorMap, 128 opaque bytes; the host encodes it) passed by value
struct __align__(64) tmap_t {
	unsigned long long v[16];
};

#define LA ((BM * BK + THREADS - 1) / THREADS) // im2col elements a thread loads per stage
#define LB ((BN * BK + THREADS - 1) / THREADS) // filter elements a thread loads per stage

__device__ __forceinline__ h16 to_half(float f)
{
	h16 h;
	asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
	return h;
}

__device__ __forceinline__ unsigned ld32(const h16 *p)
{
	return *reinterpret_cast<const unsigned *>(p);
}

__device__ __forceinline__ void mma16816(float (&c)[4], unsigned a0, unsigned a1, unsigned a2, unsigned a3,
					 unsigned b0, unsigned b1)
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
		     "{%0,%1,%2,%3};\n"
		     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
		     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// y's element from an fp32 sum
__device__ __forceinline__ yt out_of(float f)
{
#if TF32
	return f;
#else
	return to_half(f);
#endif
}

// wgmma's accumulator operands (KIND 1, 2, 4 and 5): eight "+f" of d from i, and eight operand numbers
#define WGO8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
		"+f"(d[i + 6]), "+f"(d[i + 7])
#define WGO32(i) WGO8(i), WGO8(i + 8), WGO8(i + 16), WGO8(i + 24)
#define WGS8(a, b, c, e, f, g, h, k) "%" #a ", %" #b ", %" #c ", %" #e ", %" #f ", %" #g ", %" #h ", %" #k
// a shared-memory operand's wgmma descriptor (KIND 1, 2, 4 and 5): K-major, 128-byte swizzle, LBO 16, SBO 1024
__device__ __forceinline__ unsigned long long wg_desc(u32 addr)
{
	return (unsigned long long)((addr & 0x3FFFF) >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
}

#if !TF32 // the mma.sync kernels: fp16 only
// The block's results: accumulator e of mma tile (i, j) is pixel wm0 + 16i + gid (+8 for e >= 2) and filter
// wn0 + 8j + 2·t4 + e % 2. Without split-K straight to y (NHWC: a thread's two adjacent filters as one 32-bit
// store when K is even); with it, the partial sums to W[z] for conv_reduce.
template <int NHWC>
__device__ __forceinline__ void store_tile(const float (&acc)[MI][NI][4], h16 *__restrict__ y, float *__restrict__ W,
					   const conv_shape &d, i64 m0, int k0, int wm0,
					   int wn0, int lane)
{
	const int gid = lane / 4, t4 = lane % 4;
	const i64 PQ = (i64)d.P * d.Q, NPQ = (i64)d.N * PQ, MK = NPQ * d.K;
	if (gridDim.z == 1) {
#pragma unroll
		for (int i = 0; i < MI; i++)
#pragma unroll
			for (int e = 0; e < 4; e += 2) {
				const i64 m = m0 + wm0 + i * 16 + gid + (e >= 2 ? 8 : 0);
				if (m >= NPQ)
					continue;
				const i64 yp = conv_ypix<NHWC>(d, PQ, m); // once a pixel
#pragma unroll
				for (int j = 0; j < NI; j++) {
					const int k = k0 + wn0 + j * 8 + t4 * 2;
					if (NHWC && d.K % 2 == 0 && k + 1 < d.K) {
						const unsigned v = (unsigned)to_half(acc[i][j][e]) |
								   (unsigned)to_half(acc[i][j][e + 1]) << 16;
						*reinterpret_cast<unsigned *>(y + m * d.K + k) = v;
					} else {
						if (k < d.K)
							y[yp + (i64)k * conv_ystep<NHWC>(PQ)] = to_half(acc[i][j][e]);
						if (k + 1 < d.K)
							y[yp + (i64)(k + 1) * conv_ystep<NHWC>(PQ)] = to_half(acc[i][j][e + 1]);
					}
				}
			}
		return;
	}
	float *wz = W + (i64)blockIdx.z * MK;
#pragma unroll
	for (int i = 0; i < MI; i++)
#pragma unroll
		for (int j = 0; j < NI; j++)
#pragma unroll
			for (int e = 0; e < 4; e++) {
				const i64 m = m0 + wm0 + i * 16 + gid + (e >= 2 ? 8 : 0);
				const int k = k0 + wn0 + j * 8 + t4 * 2 + e % 2;
				if (m < NPQ && k < d.K)
					wz[m * d.K + k] = acc[i][j][e];
			}
}

template <int NHWC>
__device__ __forceinline__ void conv_body(const h16 *__restrict__ x, const h16 *__restrict__ w,
					  h16 *__restrict__ y, const conv_shape &d, float *__restrict__ W, int kc)
{
	__shared__ __align__(16) h16 As[2][BM][LDS]; // the im2col tile, As[m][g]
	__shared__ __align__(16) h16 Bs[2][BN][LDS]; // the filter tile, Bs[k][g]
	__shared__ i64 pix_base[BM];
	__shared__ int pix_h[BM], pix_w[BM];
	const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
	const int gid = lane / 4, t4 = lane % 4; // the mma fragments' row group and thread in it
	const int wm0 = (warp % WARPS_M) * WTM, wn0 = (warp / WARPS_M) * WTN;
	const int RS = d.R * d.S, CRS = d.C * RS;
	const i64 m0 = (i64)blockIdx.x * BM;
	const int k0 = blockIdx.y * BN;
	const int gbeg = blockIdx.z * kc, gend = gbeg + kc < CRS ? gbeg + kc : CRS;
	conv_pixels<BM, THREADS>(pix_base, pix_h, pix_w, d, m0);
	float acc[MI][NI][4];
#pragma unroll
	for (int i = 0; i < MI; i++)
#pragma unroll
		for (int j = 0; j < NI; j++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				acc[i][j][e] = 0.f;
	h16 ra[LA], rb[LB];
	auto load = [&](int g0) {
#pragma unroll
		for (int i = 0; i < LA; i++) {
			const int e = tid + i * THREADS;
			const int mm = NHWC ? e / BK : e % BM, gg = NHWC ? e % BK : e / BM;
			const int g = g0 + gg;
			h16 v = 0;
			if (e < BM * BK && g < gend) {
				int c, r, s;
				if (NHWC) {
					const int rs = g / d.C;
					c = g - rs * d.C;
					r = rs / d.S;
					s = rs - r * d.S;
				} else {
					c = g / RS;
					const int rs = g - c * RS;
					r = rs / d.S;
					s = rs - r * d.S;
				}
				const int h = pix_h[mm] + r * d.dil_h, wi = pix_w[mm] + s * d.dil_w;
				if ((unsigned)h < (unsigned)d.H && (unsigned)wi < (unsigned)d.W)
					v = NHWC ? x[pix_base[mm] + ((i64)h * d.W + wi) * d.C + c]
						 : x[pix_base[mm] + ((i64)c * d.H + h) * d.W + wi];
			}
			ra[i] = v;
		}
#pragma unroll
		for (int i = 0; i < LB; i++) {
			const int e = tid + i * THREADS;
			const int nn = e / BK, gg = e % BK, k = k0 + nn, g = g0 + gg;
			rb[i] = e < BN * BK && k < d.K && g < gend ? w[(i64)k * CRS + g] : (h16)0;
		}
	};
	auto store = [&](int buf) {
#pragma unroll
		for (int i = 0; i < LA; i++) {
			const int e = tid + i * THREADS;
			if (e < BM * BK)
				As[buf][NHWC ? e / BK : e % BM][NHWC ? e % BK : e / BM] = ra[i];
		}
#pragma unroll
		for (int i = 0; i < LB; i++) {
			const int e = tid + i * THREADS;
			if (e < BN * BK)
				Bs[buf][e / BK][e % BK] = rb[i];
		}
	};
	if (gbeg < gend) {
		load(gbeg);
		store(0);
		__syncthreads();
	}
	int buf = 0;
	for (int g0 = gbeg; g0 < gend; g0 += BK) {
		const bool more = g0 + BK < gend;
		if (more) // the next stage's loads are in flight while this one is computed
			load(g0 + BK);
#pragma unroll
		for (int kk = 0; kk < BK; kk += 16) {
			unsigned a[MI][4], b[NI][2];
#pragma unroll
			for (int i = 0; i < MI; i++) {
				const int r0 = wm0 + i * 16 + gid;
				a[i][0] = ld32(&As[buf][r0][kk + t4 * 2]);
				a[i][1] = ld32(&As[buf][r0 + 8][kk + t4 * 2]);
				a[i][2] = ld32(&As[buf][r0][kk + 8 + t4 * 2]);
				a[i][3] = ld32(&As[buf][r0 + 8][kk + 8 + t4 * 2]);
			}
#pragma unroll
			for (int j = 0; j < NI; j++) {
				const int c0 = wn0 + j * 8 + gid;
				b[j][0] = ld32(&Bs[buf][c0][kk + t4 * 2]);
				b[j][1] = ld32(&Bs[buf][c0][kk + 8 + t4 * 2]);
			}
#pragma unroll
			for (int i = 0; i < MI; i++)
#pragma unroll
				for (int j = 0; j < NI; j++)
					mma16816(acc[i][j], a[i][0], a[i][1], a[i][2], a[i][3], b[j][0], b[j][1]);
		}
		if (more)
			store(buf ^ 1);
		__syncthreads();
		buf ^= 1;
	}
	store_tile<NHWC>(acc, y, W, d, m0, k0, wm0, wn0, lane);
}

#if VEC
#define CPR (BK / 8)                                      // 16-byte chunks per tile row
#define VA ((BM * CPR + THREADS - 1) / THREADS)          // chunks of x a thread copies per stage
#define VB ((BN * CPR + THREADS - 1) / THREADS)          // chunks of w
#define A_STAGE (BM * LDS)                                // halves
#define B_STAGE (BN * LDS)

template <int OUT_NHWC>
__device__ __forceinline__ void conv_body_vec(const h16 *__restrict__ x, const h16 *__restrict__ w,
					      h16 *__restrict__ y, const conv_shape &d, float *__restrict__ W, int kc)
{
	extern __shared__ __align__(16) h16 dsm[]; // STAGES x tiles, then STAGES w tiles
	h16 *As = dsm, *Bs = dsm + STAGES * A_STAGE;
	__shared__ i64 pix_base[BM];
	__shared__ int pix_h[BM], pix_w[BM];
	const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
	const int wm0 = (warp % WARPS_M) * WTM, wn0 = (warp / WARPS_M) * WTN;
	const int CRS = d.C * d.R * d.S;
	const i64 m0 = (i64)blockIdx.x * BM;
	const int k0 = blockIdx.y * BN;
	const int gbeg = blockIdx.z * kc, gend = gbeg + kc < CRS ? gbeg + kc : CRS;
	conv_pixels<BM, THREADS>(pix_base, pix_h, pix_w, d, m0);
	float acc[MI][NI][4];
#pragma unroll
	for (int i = 0; i < MI; i++)
#pragma unroll
		for (int j = 0; j < NI; j++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				acc[i][j][e] = 0.f;
	// stage st's copies of the reduction steps [g0, g0 + BK)
	auto load = [&](int st, int g0) {
		h16 *as = As + st * A_STAGE, *bs = Bs + st * B_STAGE;
#pragma unroll
		for (int i = 0; i < VA; i++) {
			const int e = tid + i * THREADS;
			if (BM * CPR % THREADS == 0 || e < BM * CPR) {
				const int mm = e / CPR, cg = e % CPR, g = g0 + cg * 8;
				const int rs = g / d.C, c = g - rs * d.C, r = rs / d.S, s = rs - r * d.S;
				const int h = pix_h[mm] + r * d.dil_h, wi = pix_w[mm] + s * d.dil_w;
				const bool ok = g < gend && (unsigned)h < (unsigned)d.H && (unsigned)wi < (unsigned)d.W;
				const h16 *src = ok ? x + pix_base[mm] + ((i64)h * d.W + wi) * d.C + c : x;
				cp16_ca(as + mm * LDS + cg * 8, src, ok);
			}
		}
#pragma unroll
		for (int i = 0; i < VB; i++) {
			const int e = tid + i * THREADS;
			if (BN * CPR % THREADS == 0 || e < BN * CPR) {
				const int nn = e / CPR, cg = e % CPR, g = g0 + cg * 8, k = k0 + nn;
				const bool ok = g < gend && k < d.K;
				cp16(bs + nn * LDS + cg * 8, ok ? w + (i64)k * CRS + g : w, ok);
			}
		}
	};
	const int nk = gbeg < gend ? (gend - gbeg + BK - 1) / BK : 0;
#pragma unroll
	for (int st = 0; st < STAGES - 1; st++) {
		if (st < nk)
			load(st, gbeg + st * BK);
		cp_commit();
	}
	// ldmatrix rows: x4 for a 16x16 tile of x (lanes 0-15 rows at k, 16-31 at k + 8), x2 for 8x16 of w
	const int a_row = lane % 16, a_col = (lane / 16) * 8, b_row = lane % 8, b_col = ((lane / 8) % 2) * 8;
	for (int kt = 0; kt < nk; kt++) {
		cp_wait<STAGES - 2>();
		__syncthreads(); // stage kt has landed for every thread; stage kt - 1 is no longer read
		const int nx = kt + STAGES - 1;
		if (nx < nk)
			load(nx % STAGES, gbeg + nx * BK);
		cp_commit();
		const h16 *as = As + (kt % STAGES) * A_STAGE, *bs = Bs + (kt % STAGES) * B_STAGE;
#pragma unroll
		for (int kk = 0; kk < BK; kk += 16) {
			u32 a[MI][4], b[NI][2];
#pragma unroll
			for (int i = 0; i < MI; i++)
				ldm_x4(a[i], as + (wm0 + i * 16 + a_row) * LDS + kk + a_col);
#pragma unroll
			for (int j = 0; j < NI; j++)
				ldm_x2(b[j], bs + (wn0 + j * 8 + b_row) * LDS + kk + b_col);
#pragma unroll
			for (int i = 0; i < MI; i++)
#pragma unroll
				for (int j = 0; j < NI; j++)
					mma16816(acc[i][j], a[i][0], a[i][1], a[i][2], a[i][3], b[j][0], b[j][1]);
		}
	}
	cp_wait<0>();
	store_tile<OUT_NHWC>(acc, y, W, d, m0, k0, wm0, wn0, lane);
}
#endif

#if KIND == 3 || KIND == 4
// ---- KIND 3: direct convolution for layers with few taps (C·R·S <= 512: first layers, speech front ends) ----
// The implicit GEMM above spends these layers' time on its reduction's machinery (stages, im2col loads, the
// unfolded copies of C not a multiple of 8); their reduction is one to a few mma steps and their cost is the
// output. Here a block owns a tile of DP output rows × DQ output columns of one image (BM = DP·DQ pixels, DQ =
// BK) and BN filters: it copies the input patch under the tile (zeros in the padding) and its filters to shared
// memory, then each warp builds its mma fragments from the patch through a table of the taps' offsets. The
// reduction index k is w's own order (NCHW: KCRS, k = (c, r, s); NHWC: KRSC, k = (r, s, c)), so a block's
// filters are one contiguous run of w, padded with zero weights to Kt, a multiple of 16; a fragment register's
// two taps are two 16-bit shared reads (any filter, stride and dilation). The patch is held as x holds it: NCHW
// C planes of TR rows of TC columns, NHWC TR rows of TC·C elements. Every copy keeps U loads in flight a thread.
// Shared memory (dynamic; src/ops/conv/conv.c's direct_smem sizes it with the same formulas): the patch,
// C·TR·TC halves (rounded up to a multiple of 8); the filters, BN rows of Kt + 8 halves; the offsets, Kt ints;
// in NHWC with K % 8 == 0 and K >= BN, at least BM·(BN + 8)·2 bytes for the staged stores below. Those stores
// are 16 bytes, so y must be 16-byte aligned there (dlbtune's buffers come from cudaMalloc).
#define DQ BK
#define DP (BM / BK)
#define DNW (THREADS / 32)
#define DU 8  // patch elements a thread loads a pass
#define DWP (BN / DNW >= 32 ? 1 : BN / DNW >= 16 ? 2 : 4) // filter passes (32 taps of BN/DNW filters a thread) loaded
                                                        // at once: at most 32 registers of them
static_assert(BM % BK == 0 && BK % 16 == 0, "direct: the tile is DP rows of DQ = BK pixels, a multiple of 16");
static_assert(WARPS_N == 1 && (BM / 16) % WARPS_M == 0 && BN % DNW == 0,
	      "direct: each warp owns whole 16-pixel strips and all BN filters");

// KIND 3 and 4's epilogue: conv_common.cu's conv_direct_store, halves
struct direct_put {
	static __device__ __forceinline__ void two(h16 *p, float a, float b)
	{
		*reinterpret_cast<unsigned *>(p) = (unsigned)to_half(a) | (unsigned)to_half(b) << 16;
	}
	static __device__ __forceinline__ void one(h16 *p, float a)
	{
		*p = to_half(a);
	}
};
template <int NHWC>
__device__ __forceinline__ void direct_store(const float (&acc)[MI][NI][4], h16 *__restrict__ y, const conv_shape &d,
					     int n, int p0, int q0, int k0, int warp, int lane)
{
	conv_direct_store<NHWC, MI, NI, DQ, direct_put, KIND == 3>(acc, y, d, n, p0, q0, k0, warp, lane);
}

#if KIND == 3
// KIND 3's NHWC epilogue where K % 8 == 0 and the block's BN filters are all in y: the warp's MI strips staged in
// shared memory from its start, over the patch and, where the patch is small, the filters and the offsets (every
// warp done with all three first), a pixel's BN filters a row of BN + 8 halves (the 8: the accumulators' 4-byte
// writes fall in 32 banks), then 16-byte stores, BN/8 a pixel: a quarter of the two-filter stores' instructions
// (NOTES item 194: the 4-byte stores filled the LSU queue and drained at the exit). The host's direct_smem gives
// fp16 NHWC KIND 3 at least BM·(BN + 8)·2 bytes where K % 8 == 0 and K >= BN.
__device__ __forceinline__ void direct_store_staged(const float (&acc)[MI][NI][4], h16 *__restrict__ y,
						    const conv_shape &d, int n, int p0, int q0, int k0, int warp,
						    int lane, h16 *st)
{
	constexpr int SP = BN + 8, CH = BN / 8; // a staged pixel's halves, its 16-byte chunks
	const int gid = lane / 4, t4 = lane % 4;
	h16 *ws = st + warp * (MI * 16 * SP);
	__syncthreads(); // every warp is done reading the patch, the filters and the offsets
#pragma unroll
	for (int i = 0; i < MI; i++)
#pragma unroll
		for (int h = 0; h < 2; h++)
#pragma unroll
			for (int j = 0; j < NI; j++)
				*reinterpret_cast<unsigned *>(ws + (i * 16 + gid + 8 * h) * SP + j * 8 + 2 * t4) =
					(unsigned)to_half(acc[i][j][2 * h]) | (unsigned)to_half(acc[i][j][2 * h + 1]) << 16;
	__syncwarp();
#pragma unroll
	for (int c = lane; c < MI * 16 * CH; c += 32) {
		const int px = c / CH, ch = c % CH, strip = warp * MI + px / 16;
		const int p = p0 + strip / (DQ / 16), q = q0 + strip % (DQ / 16) * 16 + px % 16;
		if (p < d.P && q < d.Q)
			*reinterpret_cast<uint4 *>(y + (((i64)n * d.P + p) * d.Q + q) * d.K + k0 + ch * 8) =
				*reinterpret_cast<const uint4 *>(ws + px * SP + ch * 8);
	}
}
#endif

template <int NHWC>
__device__ __forceinline__ void conv_body_direct(const h16 *__restrict__ x, const h16 *__restrict__ w,
						 h16 *__restrict__ y, const conv_shape &d)
{
	extern __shared__ __align__(16) unsigned char dsm[];
	const int TR = (DP - 1) * d.str_h + (d.R - 1) * d.dil_h + 1, TC = (DQ - 1) * d.str_w + (d.S - 1) * d.dil_w + 1;
	const int CRS = d.C * d.R * d.S, Kt = (CRS + 15) & ~15, WP = Kt + 8; // WP: a filter row, 16 bytes of padding
	const int RL = NHWC ? TC * d.C : TC, NR = NHWC ? TR : d.C * TR;     // the patch: NR rows of RL elements
	const int patch = NR * RL;
	h16 *xs = reinterpret_cast<h16 *>(dsm);
	h16 *ws = xs + ((patch + 7) & ~7); // 16-byte aligned, as the offsets after the filters are
	int *off = reinterpret_cast<int *>(ws + BN * WP);

	const int qt = (d.Q + DQ - 1) / DQ, pt = (d.P + DP - 1) / DP, k0 = blockIdx.y * BN;
	const int t = blockIdx.x; // the tile: image n, output rows p0.., columns q0..
	const int n = t / (qt * pt), pq = t % (qt * pt), p0 = pq / qt * DP, q0 = pq % qt * DQ;
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	// The tile's patch, element e = row·RL + j, DU elements a thread a pass: load(e0, v) then put(e0, v).
	const int ih0 = p0 * d.str_h - d.pad_h, iw0 = q0 * d.str_w - d.pad_w;
	// NHWC: a patch row's element j is in the image for j in [jlo, jhi)
	const int jlo = (iw0 < 0 ? -iw0 : 0) * d.C, jhi = (d.W - iw0 < TC ? d.W - iw0 : TC) * d.C;
	auto load = [&](int e0, h16 (&v)[DU]) {
#pragma unroll
		for (int u = 0; u < DU; u++) {
			const int e = e0 + u * THREADS + threadIdx.x, row = e / RL, j = e - row * RL;
			v[u] = 0;
			if (e < patch) {
				if (NHWC) {
					const int ih = ih0 + row;
					if (ih >= 0 && ih < d.H && j >= jlo && j < jhi)
						v[u] = x[(((i64)n * d.H + ih) * d.W + iw0) * d.C + j];
				} else {
					const int c = row / TR, ih = ih0 + row - c * TR, iw = iw0 + j;
					if (ih >= 0 && ih < d.H && iw >= 0 && iw < d.W)
						v[u] = x[(((i64)n * d.C + c) * d.H + ih) * d.W + iw];
				}
			}
		}
	};
	auto put = [&](int e0, const h16 (&v)[DU]) {
#pragma unroll
		for (int u = 0; u < DU; u++) {
			const int e = e0 + u * THREADS + threadIdx.x;
			if (e < patch)
				xs[e] = v[u];
		}
	};
	// The filters: ws[kk][k] = w[k0 + kk][k] for k < Kt, a warp a row at a time, zeros past CRS and past K.
	auto load_w = [&](int k, h16 (&v)[BN / DNW]) {
#pragma unroll
		for (int i = 0; i < BN / DNW; i++) {
			const int kk = warp + i * DNW;
			v[i] = k < CRS && k0 + kk < d.K ? w[(i64)(k0 + kk) * CRS + k] : (h16)0;
		}
	};
	auto put_w = [&](int k, const h16 (&v)[BN / DNW]) {
		if (k < Kt)
#pragma unroll
			for (int i = 0; i < BN / DNW; i++)
				ws[(warp + i * DNW) * WP + k] = v[i];
	};

	// The patch's first pass and the filters' first DWP passes (Kt <= 32·DWP: all of them) in flight together (one
	// memory latency, not several), the taps' offsets computed while they come, then the rest.
	h16 pv[DU], wv[DWP][BN / DNW];
	load(0, pv);
#pragma unroll
	for (int p = 0; p < DWP; p++)
		load_w(lane + 32 * p, wv[p]);
	const int cstr = NHWC ? 1 : TR * TC, cs = NHWC ? d.C : 1; // a channel's and a column's step in the patch
	for (int k = threadIdx.x; k < Kt; k += THREADS) {
		int c, r, s;
		if (NHWC) {
			c = k % d.C;
			s = k / d.C % d.S;
			r = k / d.C / d.S;
		} else {
			s = k % d.S;
			r = k / d.S % d.R;
			c = k / d.S / d.R;
		}
		off[k] = k < CRS ? c * cstr + r * d.dil_h * RL + s * d.dil_w * cs : 0;
	}
	put(0, pv);
#pragma unroll
	for (int p = 0; p < DWP; p++)
		put_w(lane + 32 * p, wv[p]);
	for (int e0 = THREADS * DU; e0 < patch; e0 += THREADS * DU) {
		load(e0, pv);
		put(e0, pv);
	}
	for (int k = lane + 32 * DWP; k < Kt; k += 32 * DWP) {
#pragma unroll
		for (int p = 0; p < DWP; p++)
			load_w(k + 32 * p, wv[p]);
#pragma unroll
		for (int p = 0; p < DWP; p++)
			put_w(k + 32 * p, wv[p]);
	}
	__syncthreads();

	const int gid = lane / 4, t4 = lane % 4;
	int base[MI]; // pixel gid of each of the warp's 16-pixel strips: its first tap's element (gid + 8: + step8)
#pragma unroll
	for (int i = 0; i < MI; i++) {
		const int strip = warp * MI + i, pr = strip / (DQ / 16), pc = strip % (DQ / 16) * 16 + gid;
		base[i] = pr * d.str_h * RL + pc * d.str_w * cs;
	}
	const int step8 = 8 * d.str_w * cs;

	float acc[MI][NI][4];
#pragma unroll
	for (int i = 0; i < MI; i++)
#pragma unroll
		for (int j = 0; j < NI; j++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				acc[i][j][e] = 0.f;
	for (int kb = 0; kb < Kt; kb += 16) {
		const int2 o = *reinterpret_cast<const int2 *>(off + kb + 2 * t4),
			   o8 = *reinterpret_cast<const int2 *>(off + kb + 2 * t4 + 8);
		unsigned b[NI][2];
#pragma unroll
		for (int j = 0; j < NI; j++) {
			const h16 *wr = ws + (j * 8 + gid) * WP + kb + 2 * t4;
			b[j][0] = ld32(wr);
			b[j][1] = ld32(wr + 8);
		}
#pragma unroll
		for (int i = 0; i < MI; i++) {
			const h16 *xa = xs + base[i], *xb = xa + step8;
			const unsigned a0 = (unsigned)xa[o.x] | (unsigned)xa[o.y] << 16,
				       a1 = (unsigned)xb[o.x] | (unsigned)xb[o.y] << 16,
				       a2 = (unsigned)xa[o8.x] | (unsigned)xa[o8.y] << 16,
				       a3 = (unsigned)xb[o8.x] | (unsigned)xb[o8.y] << 16;
#pragma unroll
			for (int j = 0; j < NI; j++)
				mma16816(acc[i][j], a0, a1, a2, a3, b[j][0], b[j][1]);
		}
	}

#if KIND == 3
	if (NHWC && d.K % 8 == 0 && k0 + BN <= d.K) { // the block alike: its __syncthreads is reached by all
		direct_store_staged(acc, y, d, n, p0, q0, k0, warp, lane, xs);
		return;
	}
#endif
	direct_store<NHWC>(acc, y, d, n, p0, q0, k0, warp, lane);
}

#if KIND == 4
// ---- KIND 4: KIND 3 for NHWC with C a multiple of 8, its fragments read with ldmatrix (sm_90's shared memory) ----
// KIND 3's 16-bit fragment reads conflict in shared memory once C >= 8: a strip's eight rows (pixels) are
// str_w·C elements apart, which at C = 32 and stride 2 is 128 bytes, one bank for all eight. Here a patch row
// holds its TC columns by phase: column j (0 <= j < TC) in slot (j % str_w)·TCs + j / str_w, TCs = ceil(TC /
// str_w), a slot Cp halves (C where C/8 is odd, else C + 8). The tile's pixel pc reads column pc·str_w +
// s·dil_w at tap s, the slot of phase (s·dil_w) % str_w, index pc + (s·dil_w) / str_w: a strip's 16 pixels at one
// tap are 16 consecutive slots, an odd number of 16-byte units apart, so the 8 rows of each ldmatrix matrix fall in
// 8 different groups of banks. k runs in KRSC's order (c fastest): with C % 8 == 0 a fragment's 8 k are 8
// channels of one tap, contiguous in a slot, so ldmatrix reads x4 a 16x16 tile of x (16 pixels, 16 k) from
// 16-byte rows at base(pixel) + off8[k / 8], off8 the slot offsets of every eighth k. The filters are BN rows of
// L + 8 halves (L/8 + 1 units: odd, conflict-free too), read x4 for two n8 tiles: the whole reduction (L = Kt)
// where Kt <= 2·DSLAB, else slabs of L = DSLAB k in two buffers, the next slab's copies in flight while the tensor
// cores work on this one (two buffers of DSLAB are then less than one of Kt), so the reduction's length is not
// bounded by shared memory, only the patch is. Patch and filters arrive by 16-byte cp.async (zeros in the
// padding, past C·R·S and past K), within conv.c's DIRECT_LD_SMEM (220 KiB: the kernel is offered only where a
// block may have that, sm_90). As in KIND 3, the taps past C·R·S (off8 0) read real x against zero weights:
// finite inputs give exact zeros there.
// Shared memory (src/ops/conv/conv.c's direct_ld_smem, the same formulas): the patch TR·RL halves (RL =
// str_w·TCs·Cp), the filters 1 or 2 (NS > 1) buffers of BN·(L + 8) halves, off8 Kt/8 ints.
#define DSLAB 256 // k a filter slab (a multiple of 64; conv.c's DIRECT_LD_SLAB)
// K4WG: a block of one warpgroup (WARPS_M 4) multiplies with wgmma, A (x) from the registers ldmatrix fills as for
// mma.sync, B (the filters) read by the tensor cores from the slab, stored as KIND 1's w lines: 64 k (128 bytes) a
// line, chunk c of filter line n at n·128 + (c ^ n % 8)·16, a block of BN lines for each 64 k (NOTES item 151)
#ifndef K4WG
#define K4WG (WARPS_M == 4 && (BN == 32 || BN == 64))
#endif
#if K4WG
// d[0..BN/2) += A·B: A 64 x 16 from registers (a warp's rows 16w.. in mma.m16n8k16's A fragment), B BN x 16 (db)
__device__ __forceinline__ void k4_wgmma(float (&d)[BN / 2], const u32 (&a)[4], unsigned long long db)
{
#if BN == 32
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %21, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {"
		     WGS8(0, 1, 2, 3, 4, 5, 6, 7) ", " WGS8(8, 9, 10, 11, 12, 13, 14, 15)
		     "}, {%16, %17, %18, %19}, %20, p, 1, 1, 0;\n}\n"
		     : WGO8(0), WGO8(8)
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
#else
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {"
		     WGS8(0, 1, 2, 3, 4, 5, 6, 7) ", " WGS8(8, 9, 10, 11, 12, 13, 14, 15) ", "
		     WGS8(16, 17, 18, 19, 20, 21, 22, 23) ", " WGS8(24, 25, 26, 27, 28, 29, 30, 31)
		     "}, {%32, %33, %34, %35}, %36, p, 1, 1, 0;\n}\n"
		     : WGO32(0)
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
#endif
}
template <int U> struct k4u { // a pass of U k-steps
	static constexpr int value = U;
};
#endif
template <int NHWC>
__device__ __forceinline__ void conv_body_direct_ld(const h16 *__restrict__ x, const h16 *__restrict__ w,
						    h16 *__restrict__ y, const conv_shape &d)
{
	extern __shared__ __align__(16) unsigned char dsm[];
	const int TR = (DP - 1) * d.str_h + (d.R - 1) * d.dil_h + 1, TC = (DQ - 1) * d.str_w + (d.S - 1) * d.dil_w + 1;
	const int TCs = (TC + d.str_w - 1) / d.str_w, Cp = (d.C / 8) % 2 ? d.C : d.C + 8, RL = d.str_w * TCs * Cp;
	const int CRS = d.C * d.R * d.S, Kt = (CRS + 15) & ~15, C8 = d.C / 8;
	// the filters a slab of L k at a time (the whole reduction where Kt <= 2·DSLAB), NS slabs, two buffers where NS > 1
#if K4WG // the slabs first, 1024-byte aligned (the swizzle's atoms), lines of 64 k
	const int L = Kt <= 2 * DSLAB ? (Kt + 63) & ~63 : DSLAB, NS = (Kt + L - 1) / L, WB = BN * L, KO = (Kt + 63) & ~63;
	h16 *ws = reinterpret_cast<h16 *>(dsm + ((1024u - (smem_addr(dsm) & 1023u)) & 1023u));
	h16 *xs = ws + (NS > 1 ? 2 : 1) * WB;
	int *off8 = reinterpret_cast<int *>(xs + TR * RL);
#else
	const int L = Kt <= 2 * DSLAB ? Kt : DSLAB, WP = L + 8, NS = (Kt + L - 1) / L, WB = BN * WP, KO = Kt;
	h16 *xs = reinterpret_cast<h16 *>(dsm);
	h16 *ws = xs + TR * RL;
	int *off8 = reinterpret_cast<int *>(ws + (NS > 1 ? 2 : 1) * WB);
#endif

	const int qt = (d.Q + DQ - 1) / DQ, pt = (d.P + DP - 1) / DP, k0 = blockIdx.y * BN;
	const int t = blockIdx.x; // the tile: image n, output rows p0.., columns q0..
	const int n = t / (qt * pt), pq = t % (qt * pt), p0 = pq / qt * DP, q0 = pq % qt * DQ;
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	const int ih0 = p0 * d.str_h - d.pad_h, iw0 = q0 * d.str_w - d.pad_w;

	// the patch: chunk e = (row·TC + j)·C8 + c8, 8 channels of column j of patch row `row`. A thread's chunks are
	// THREADS apart: its first one decomposed, then stepped by THREADS's digits with carries (no division a chunk;
	// the divisions made a copy cost about 100 instructions, NOTES item 146), j / str_w by a multiply-high
	{
		const int dc8 = THREADS % C8, drj = THREADS / C8, dj = drj % TC, drow = drj / TC, sw = d.str_w;
		const u32 mw = 0xFFFFFFFFu / (u32)sw + 1; // ceil(2^32 / str_w): j / str_w exact for j < 2^32 / str_w
		int c8 = threadIdx.x % C8, j = threadIdx.x / C8 % TC, row = threadIdx.x / C8 / TC;
		const h16 *xn = x + (i64)n * d.H * d.W * d.C;
		for (int e = threadIdx.x; e < TR * TC * C8; e += THREADS) {
			const int ih = ih0 + row, iw = iw0 + j, jq = sw == 1 ? j : (int)__umulhi((u32)j, mw);
			const bool ok = ih >= 0 && ih < d.H && iw >= 0 && iw < d.W;
			cp16(xs + row * RL + ((j - jq * sw) * TCs + jq) * Cp + c8 * 8,
			     ok ? xn + ((i64)ih * d.W + iw) * d.C + c8 * 8 : x, ok);
			c8 += dc8, j += dj, row += drow;
			if (c8 >= C8)
				c8 -= C8, j++;
			if (j >= TC)
				j -= TC, row++;
		}
	}
	// where chunk k8 of filter kk goes in a slab of l k: a row of l + 8 halves, or (K4WG) KIND 1's swizzled lines
#if K4WG
#define slab_at(b, kk, k8, l) ((b) + (k8) / 8 * (BN * 64) + (kk) * 64 + ((k8) % 8 ^ (kk) % 8) * 8)
#else
#define slab_at(b, kk, k8, l) ((b) + (kk) * ((l) + 8) + 8 * (k8))
#endif
	// slab sl of the filters into buffer b: chunk e = kk·(L/8) + k8 (CRS % 8 == 0: a chunk is wholly in w or wholly
	// past C·R·S). With more than one slab L is DSLAB, a constant: the loop's divisions are shifts and it unrolls.
	auto load_slab = [&](int sl, h16 *b) {
		if (NS > 1) {
#pragma unroll
			for (int e0 = 0; e0 < BN * (DSLAB / 8); e0 += THREADS) {
				const int e = e0 + threadIdx.x, kk = e / (DSLAB / 8), k8 = e % (DSLAB / 8), k = sl * DSLAB + 8 * k8;
				const bool ok = k < CRS && k0 + kk < d.K;
				if (BN * (DSLAB / 8) % THREADS == 0 || e < BN * (DSLAB / 8))
					cp16(slab_at(b, kk, k8, DSLAB), ok ? w + (i64)(k0 + kk) * CRS + k : w, ok);
			}
			return;
		}
		for (int e = threadIdx.x; e < BN * (L / 8); e += THREADS) { // the only slab: once a block
			const int kk = e / (L / 8), k8 = e % (L / 8), k = 8 * k8;
			const bool ok = k < CRS && k0 + kk < d.K;
			cp16(slab_at(b, kk, k8, L), ok ? w + (i64)(k0 + kk) * CRS + k : w, ok);
		}
	};
	load_slab(0, ws);
	cp_commit(); // group 0: the patch and slab 0
	if (NS > 1)
		load_slab(1, ws + WB);
	cp_commit(); // group 1: slab 1 (empty where NS == 1); slab sl is group sl
	for (int k8 = threadIdx.x; k8 < KO / 8; k8 += THREADS) { // while they come: the taps' slot offsets
		const int k = 8 * k8, c = k % d.C, s = k / d.C % d.S, r = k / d.C / d.S, cw = s * d.dil_w;
		off8[k8] = k < CRS ? r * d.dil_h * RL + ((cw % d.str_w) * TCs + cw / d.str_w) * Cp + c : 0;
	}

	// ldmatrix's rows: x, this lane's pixel of a strip (lanes 8-15 and 24-31 the lower 8) and its k half (lanes
	// 16-31 the upper 8 k); w, this lane's filter of a pair of n8 tiles (lanes 16-31 the second) and k half
	const int ar = lane % 8 + 8 * (lane / 8 % 2), ak = lane / 16, br = lane % 8 + 8 * (lane / 16), bk = lane / 8 % 2;
	int abase[MI];
#pragma unroll
	for (int i = 0; i < MI; i++) {
		const int strip = warp * MI + i, pr = strip / (DQ / 16), pc = strip % (DQ / 16) * 16 + ar;
		abase[i] = pr * d.str_h * RL + pc * Cp;
	}
#if !K4WG
	const int wl = br * WP + 8 * bk; // this lane's row in a slab buffer
#else
	(void)br, (void)bk;
#endif

	float acc[MI][NI][4];
#pragma unroll
	for (int i = 0; i < MI; i++)
#pragma unroll
		for (int j = 0; j < NI; j++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				acc[i][j][e] = 0.f;
	for (int sl = 0; sl < NS; sl++) {
		cp_wait<1>(); // this thread's groups up to sl (slab sl; the patch with slab 0) have landed
#if K4WG
		asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); // visible to the tensor cores' reads
#endif
		__syncthreads(); // and every thread's; off8 too
		const h16 *wc = ws + (sl % 2) * WB;
		const int kend = Kt - sl * L < L ? Kt - sl * L : L;
#if K4WG
		// 128 k a pass (64 at a slab's end): the k-steps' A fragments read first, then their MI·U wgmmas in one
		// group, retired before the next pass's ldmatrix write the registers again (ptxas serializes every wgmma
		// when registers they read are written while they may be in flight: C7513). So each pass waits once for
		// its fragments and once for the tensor cores; the other block's warpgroup fills them meanwhile (NOTES
		// item 153: with 64 k a pass those waits held a fifth of the stall samples). A pass past kend (to a
		// multiple of 64) reads zero weights: the slab is zeros past C·R·S, off8 has KO entries. The descriptor
		// is computed once a pass: k-step u is 32 bytes on within a 64-k block of lines (2 in the descriptor's
		// 16-byte units), BN·128 bytes on across one.
		const u32 wsl = smem_addr(wc);
		const int kend64 = (kend + 63) & ~63;
		auto pass = [&](int kb, auto tag) {
			constexpr int U = decltype(tag)::value;
			u32 a[U][MI][4];
#pragma unroll
			for (int u = 0; u < U; u++) {
				const int ow = off8[(sl * L + kb + 16 * u) / 8 + ak];
#pragma unroll
				for (int i = 0; i < MI; i++)
					ldm_x4(a[u][i], xs + abase[i] + ow);
			}
			const unsigned long long d0 = wg_desc(wsl + (u32)(kb / 64) * (BN * 128u)); // kb: a multiple of 64
			asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
			for (int u = 0; u < U; u++)
#pragma unroll
				for (int i = 0; i < MI; i++)
					k4_wgmma(reinterpret_cast<float(&)[BN / 2]>(acc[i]), a[u][i],
						 d0 + (unsigned long long)(u / 4 * (BN * 8) + u % 4 * 2));
			asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
			asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
		};
		int kb = 0;
		for (; kb + 128 <= kend64; kb += 128)
			pass(kb, k4u<8>{});
		if (kb < kend64)
			pass(kb, k4u<4>{});
#else
		for (int kb = 0; kb < kend; kb += 16) {
			const int o = off8[(sl * L + kb) / 8 + ak];
			u32 b[NI][2];
#pragma unroll
			for (int j = 0; j + 1 < NI; j += 2) {
				u32 r[4];
				ldm_x4(r, wc + wl + j * 8 * WP + kb);
				b[j][0] = r[0], b[j][1] = r[1], b[j + 1][0] = r[2], b[j + 1][1] = r[3];
			}
			if (NI % 2) { // the last n8 tile alone: lanes 0-15's rows (lane % 8, k half bk)
				u32 r[2];
				ldm_x2(r, wc + ((NI - 1) * 8 + lane % 8) * WP + 8 * bk + kb);
				b[NI - 1][0] = r[0], b[NI - 1][1] = r[1];
			}
#pragma unroll
			for (int i = 0; i < MI; i++) {
				u32 a[4];
				ldm_x4(a, xs + abase[i] + o);
#pragma unroll
				for (int j = 0; j < NI; j++)
					mma16816(acc[i][j], a[0], a[1], a[2], a[3], b[j][0], b[j][1]);
			}
		}
#endif
		if (sl + 2 < NS) {
			__syncthreads(); // every warp is done with buffer sl % 2 before slab sl + 2 refills it
			load_slab(sl + 2, ws + (sl % 2) * WB);
		}
		cp_commit(); // group sl + 2 (empty past the last slab)
	}
	direct_store<NHWC>(acc, y, d, n, p0, q0, k0, warp, lane);
}
#endif // KIND == 4
#endif // KIND == 3 || KIND == 4

#endif // !TF32

#if VEC && (KIND == 1 || KIND == 2 || KIND == 5)
// ---- KIND 1 and 2: wgmma (sm_90a), a producer warpgroup and WARPS_M consumer warpgroups (KIND 5, its own
// kernel below, shares this section's barriers and copies) ----
// A stage holds BM lines of x (one pixel each) and BN lines of w (one filter each), 128 bytes (BK = 64 halves,
// 8 chunks of 16 bytes) a line, chunk c of line l at l*128 + ((c ^ (l % 8)) * 16): the 128-byte swizzle the
// wgmma descriptors name, in 1024-byte atoms of 8 lines (the stages start 1024-byte aligned).
// The last 128 threads (the producer) fill a ring of STAGES stages with cp.async, the im2col addressing of the
// mma.sync kernel; a stage completes on an mbarrier ("full": each producer thread's
// cp.async.mbarrier.arrive.noinc) and comes back on another ("empty": one arrival per consumer warp). Consumer
// warpgroup g (the first WARPS_M) computes pixels 64·WMI·g .. + 64·WMI with WMI m64nBNk16 wgmmas a k-step, both
// operands K-major, and keeps one k-tile of wgmmas in flight while it issues the next: a stage goes back once
// the next k-tile's wgmmas are issued and its own have retired. The tensor cores never wait for a copy to be
// issued or for a block barrier (the first version, NOTES item 49, did both every k-tile). With WARPS_M 2,
// setmaxnreg moves registers from the producer (136) to the consumers (184; 136 + 2·184 = 3·168, the launch's
// share; ptxas allocates each side within its count: with 56-120 the producer of BN 256 spilled). Without split-K the blocks
// are persistent (below), so one tile's stores overlap the next tile's first copies. With split-K the
// consumers write their partial sums for conv_reduce; the producer decodes each tile's pixels into the table
// between two barriers of its own (named barrier 2).
// Dynamic shared memory: STAGES·(BM+BN)·128 bytes + 1024 for the alignment, then 2 KiB a consumer warp for
// the NHWC epilogue (y through shared memory, below); the mbarriers are static.
// KIND 2 (C a multiple of 64, so a k-tile is 64 channels of one tap): NPROD producer threads, taking the k-tiles in
// turn, each fill a stage with two bulk tensor copies, the copy engine doing the im2col addressing, the zeros of
// the padding and the swizzle: x through an im2col tensor map (tmx: NHWC as {C, W, H, N}, its box BM pixels of 64
// channels, the traversal stepping by the stride within the pixels the filter's top-left tap can take, the
// tap (r, s) as the copy's offsets, dilated), w through a tiled one (tmw: KRSC as BN lines of 64 elements of
// C·R·S). A stage is full when both have landed (complete_tx on the full mbarrier, which expects that one arrival).
#define WGS WARPS_M
#ifndef NPROD // KIND 2's producer threads (one a warp), taking the ring's k-tiles in turn
#define NPROD 2
#endif
static_assert(NPROD >= 1 && NPROD <= 4, "one producer thread a warp of the producer warpgroup");
// A producer thread's parity wait on a stage's empty barrier tells its use u from use u - 2 only if use u - 2 is
// known released. The thread's previous wait (NPROD k-tiles back) saw the release of the k-tile STAGES before that,
// which implies use u - 2's release when the consumers release stages in order and NPROD <= STAGES.
static_assert(KIND != 2 || NPROD <= STAGES, "each producer thread must have seen use u - 2 released");
// the NHWC epilogue through shared memory (64 filters at a time, so BN >= 64), except where ptxas spilled with
// it: the two-blocks-an-SM kernels (KIND 1, one consumer warpgroup of at most 32 accumulators a thread,
// MIN_BLOCKS below; 60 bytes at 128 registers) and KIND 2 with one consumer warpgroup of 128 accumulators a
// thread (4 bytes at 255)
#define EPI_SMEM (!TF32 && BN >= 64 && !(KIND == 1 && WGS == 1 && (BM / 64) * BN <= 64) && !(WGS == 1 && (BM / 64) * BN >= 256))
#define WMI (BM / (64 * WGS))
#define WG_STAGE ((BM + BN) * 128)
#define WG_V ((BM + BN) / 16) // lines a producer thread copies a stage: 16 a pass of its 128 threads
#define CONS_THREADS (128 * WGS)

static_assert(BK * sizeof(elt) == 128, "wgmma: BK is one 128-byte line");
static_assert(WMI >= 1 && BM == 64 * WGS * WMI, "wgmma: BM = 64 x WARPS_M x (1 or 2)");
static_assert(BN == 32 || BN == 64 || BN == 128 || BN == 256, "wgmma: BN 32, 64, 128 or 256");
static_assert(STAGES >= 2, "wgmma: one stage in flight and one filling");

__device__ __forceinline__ void mb_init(u32 bar, u32 count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mb_wait(u32 bar, u32 parity)
{
	asm volatile("{\n.reg .pred done;\nWAIT_%=:\n"
		     "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
		     "@!done bra WAIT_%=;\n}\n" ::"r"(bar),
		     "r"(parity)
		     : "memory");
}
__device__ __forceinline__ void mb_arrive(u32 bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
// arrives on bar (its one expected arrival) and raises its transaction count by bytes (KIND 2's and 5's copies,
// the cluster split's stores)
__device__ __forceinline__ void mb_expect_tx(u32 bar, u32 bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
// arrives on bar once every cp.async this thread has issued so far has landed (the count is not raised)
__device__ __forceinline__ void mb_arrive_cp(u32 bar)
{
	asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(bar) : "memory");
}
#if KIND == 2 || KIND == 5
// BM pixels x 64 channels of x into dst: the traversal from pixel (w, h) of image n, channels c.., each read at
// the tap's offset (ow, oh); complete_tx on bar
__device__ __forceinline__ void tma_im2col(u32 dst, const tmap_t *map, int c, int w, int h, int n,
					   unsigned short ow, unsigned short oh, u32 bar)
{
	asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
		     " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};" ::"r"(dst),
		     "l"(reinterpret_cast<unsigned long long>(map)), "r"(c), "r"(w), "r"(h), "r"(n), "r"(bar), "h"(ow),
		     "h"(oh)
		     : "memory");
}
// the box of a 2-D tensor map at (x, y) into dst; complete_tx on bar
__device__ __forceinline__ void tma_tile(u32 dst, const tmap_t *map, int x, int y, u32 bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
		     " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst), "l"(reinterpret_cast<unsigned long long>(map)), "r"(x),
		     "r"(y), "r"(bar)
		     : "memory");
}
#endif
// d[0..BN/2) += A (64 x 16, descriptor da) · B (BN x 16, db)^T, fp16 in, fp32 accumulators
#define WG_SC_(n) #n
#define WG_SC_N(n) WG_SC_(n)
#define WG_SC WG_SC_N(WG_SCN) // the operand after the accumulators and the two descriptors: scale-d, 1
#if BN == 32
#define WG_SCN 18
#elif BN == 64
#define WG_SCN 34
#elif BN == 128
#define WG_SCN 66
#else
#define WG_SCN 130
#endif
#if TF32 // k8 a wgmma (32 bytes of a line, as fp16's k16); no transposes for TF32
#define WG_OP(n) "wgmma.mma_async.sync.aligned.m64n" #n "k8.f32.tf32.tf32 {"
#define WG_TAIL ", p, 1, 1;\n}\n"
#else
#define WG_OP(n) "wgmma.mma_async.sync.aligned.m64n" #n "k16.f32.f16.f16 {"
#define WG_TAIL ", p, 1, 1, 0, 0;\n}\n"
#endif
// scd 0: d = A·B (the accumulators' old values ignored), 1: d += A·B
__device__ __forceinline__ void wg_mma(float (&d)[BN / 2], unsigned long long da, unsigned long long db, int scd)
{
#if BN == 32
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" WG_SC ", 0;\n"
		     WG_OP(32)
		     WGS8(0, 1, 2, 3, 4, 5, 6, 7) ", " WGS8(8, 9, 10, 11, 12, 13, 14, 15)
		     "}, %16, %17" WG_TAIL
		     : WGO8(0), WGO8(8)
		     : "l"(da), "l"(db), "r"(scd));
#elif BN == 64
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" WG_SC ", 0;\n"
		     WG_OP(64)
		     WGS8(0, 1, 2, 3, 4, 5, 6, 7) ", " WGS8(8, 9, 10, 11, 12, 13, 14, 15) ", "
		     WGS8(16, 17, 18, 19, 20, 21, 22, 23) ", " WGS8(24, 25, 26, 27, 28, 29, 30, 31)
		     "}, %32, %33" WG_TAIL
		     : WGO32(0)
		     : "l"(da), "l"(db), "r"(scd));
#elif BN == 128
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" WG_SC ", 0;\n"
		     WG_OP(128)
		     WGS8(0, 1, 2, 3, 4, 5, 6, 7) ", " WGS8(8, 9, 10, 11, 12, 13, 14, 15) ", "
		     WGS8(16, 17, 18, 19, 20, 21, 22, 23) ", " WGS8(24, 25, 26, 27, 28, 29, 30, 31) ", "
		     WGS8(32, 33, 34, 35, 36, 37, 38, 39) ", " WGS8(40, 41, 42, 43, 44, 45, 46, 47) ", "
		     WGS8(48, 49, 50, 51, 52, 53, 54, 55) ", " WGS8(56, 57, 58, 59, 60, 61, 62, 63)
		     "}, %64, %65" WG_TAIL
		     : WGO32(0), WGO32(32)
		     : "l"(da), "l"(db), "r"(scd));
#else
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" WG_SC ", 0;\n"
		     WG_OP(256)
		     WGS8(0, 1, 2, 3, 4, 5, 6, 7) ", " WGS8(8, 9, 10, 11, 12, 13, 14, 15) ", "
		     WGS8(16, 17, 18, 19, 20, 21, 22, 23) ", " WGS8(24, 25, 26, 27, 28, 29, 30, 31) ", "
		     WGS8(32, 33, 34, 35, 36, 37, 38, 39) ", " WGS8(40, 41, 42, 43, 44, 45, 46, 47) ", "
		     WGS8(48, 49, 50, 51, 52, 53, 54, 55) ", " WGS8(56, 57, 58, 59, 60, 61, 62, 63) ", "
		     WGS8(64, 65, 66, 67, 68, 69, 70, 71) ", " WGS8(72, 73, 74, 75, 76, 77, 78, 79) ", "
		     WGS8(80, 81, 82, 83, 84, 85, 86, 87) ", " WGS8(88, 89, 90, 91, 92, 93, 94, 95) ", "
		     WGS8(96, 97, 98, 99, 100, 101, 102, 103) ", " WGS8(104, 105, 106, 107, 108, 109, 110, 111) ", "
		     WGS8(112, 113, 114, 115, 116, 117, 118, 119) ", " WGS8(120, 121, 122, 123, 124, 125, 126, 127)
		     "}, %128, %129" WG_TAIL
		     : WGO32(0), WGO32(32), WGO32(64), WGO32(96)
		     : "l"(da), "l"(db), "r"(scd));
#endif
}

// Split-K in a cluster (the host's cluster launch of (1, 1, gridDim.z) blocks, gridDim.z 2, 4 or 8, without a
// workspace: SPLITK < 0 in src/ops/conv/conv.c), one-sided. Consumer thread t's WMI·BN/2 accumulators are NC chunks of CH (flat index
// f = i·BN/2 + r); split j owns chunk j of every thread. Each split sends chunk j of each of its threads to split j
// (st.async from registers into split j's receive region, completing bytes on split j's barrier, cl_bar) and its
// own chunk to its ring (free once every consumer's wgmmas have retired), then waits for its own barrier alone:
// the NC - 1 chunks of each of its threads. It sums its chunk in split order 0, 1, ... from 0, as conv_reduce
// does (the same bits), and stores it to y. The receive region lies past the ring (the host's cluster_smem), so
// a split may send while another still computes; each split's barrier is initialised before the cluster's relaxed
// arrive at the kernel's start, which the wait here pairs with. No cluster-wide barrier after the sums: a split
// leaves once its own region is full, and nobody reads another's shared memory. The two cluster barriers and the
// reads over distributed shared memory of the first version cost 1.3-1.4 µs a launch, this 0.5-0.7 (run142's
// cluster_cost.cu).
__device__ __forceinline__ u32 cl_slot(u32 z, u32 j) // split z's slot in split j's receive region
{
	return z < j ? z : z - 1;
}
template <int OUT_NHWC, int NC>
__device__ __forceinline__ void conv_cluster_finish_n(const float (&acc)[WMI][BN / 2], yt *__restrict__ y,
						      const conv_shape &d, i64 PQ, i64 NPQ, i64 m0, int k0, u32 sbase,
						      u32 rbase, u32 rbar, int wg, int warp, int lane)
{
	constexpr int A = WMI * (BN / 2), CH = A / NC, V = CH % 4 == 0 ? 4 : 2;
	static_assert(A % NC == 0 && CH % 2 == 0, "cluster split: whole pairs of accumulators a chunk");
	const int t = 128 * wg + 32 * warp + lane;
	u32 rank;
	asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
	const u32 own = sbase + (u32)t * (u32)(CH * 4); // the thread's own chunk, in the ring
	asm volatile("bar.sync 3, %0;" ::"n"(CONS_THREADS) : "memory"); // every consumer's wgmmas have retired
	asm volatile("barrier.cluster.wait.aligned;" ::: "memory");       // every split's cl_bar initialised
	if (t == 0)
		mb_expect_tx(rbar, (u32)((NC - 1) * CONS_THREADS * CH * 4));
#pragma unroll
	for (int j = 0; j < NC; j++) {
		u32 ra = own, rb = 0;
		if ((u32)j != rank) {
			const u32 slot = rbase + (cl_slot(rank, (u32)j) * CONS_THREADS + (u32)t) * (u32)(CH * 4);
			asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(ra) : "r"(slot), "r"(j));
			asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rb) : "r"(rbar), "r"(j));
		}
#pragma unroll
		for (int e = 0; e < CH; e += V) {
			const int f = j * CH + e, i = f / (BN / 2), r = f % (BN / 2);
			if ((u32)j == rank) {
				if (V == 4)
					asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};" ::"r"(own + (u32)e * 4u),
						     "f"(acc[i][r]), "f"(acc[i][r + 1]), "f"(acc[i][r + 2]),
						     "f"(acc[i][(r + 3) % (BN / 2)])
						     : "memory");
				else
					asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(own + (u32)e * 4u), "f"(acc[i][r]),
						     "f"(acc[i][r + 1])
						     : "memory");
			} else if (V == 4) {
				asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.f32 [%0], {%1, %2, %3, %4}, [%5];"
					     ::"r"(ra + (u32)e * 4u), "f"(acc[i][r]), "f"(acc[i][r + 1]), "f"(acc[i][r + 2]),
					     "f"(acc[i][(r + 3) % (BN / 2)]), "r"(rb)
					     : "memory");
			} else {
				asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f32 [%0], {%1, %2}, [%3];"
					     ::"r"(ra + (u32)e * 4u), "f"(acc[i][r]), "f"(acc[i][r + 1]), "r"(rb)
					     : "memory");
			}
		}
	}
	mb_wait(rbar, 0); // one tile a block with split-K: the barrier's first phase
#pragma unroll
	for (int j = 0; j < NC; j++) {
		if ((u32)j != rank)
			continue;
#pragma unroll
		for (int e = 0; e < CH; e += 2) {
			const int f = j * CH + e, i = f / (BN / 2), r = f % (BN / 2);
			float s0 = 0.f, s1 = 0.f;
#pragma unroll
			for (int z = 0; z < NC; z++) {
				const u32 a = z == j ? own : rbase + (cl_slot((u32)z, (u32)j) * CONS_THREADS + (u32)t) * (u32)(CH * 4);
				float v0, v1;
				asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];" : "=f"(v0), "=f"(v1) : "r"(a + (u32)e * 4u) : "memory");
				s0 += v0;
				s1 += v1;
			}
			// accumulator r of m64 block i: pixel 64·(WMI·wg + i) + 16·warp + lane/4 (+8 for r % 4 >= 2),
			// filters 8·(r/4) + 2·(lane % 4) and the next
			const i64 m = m0 + 64 * (WMI * wg + i) + 16 * warp + lane / 4 + 8 * ((r >> 1) & 1);
			const int k = k0 + 8 * (r / 4) + 2 * (lane % 4);
			if (m >= NPQ)
				continue;
			if (OUT_NHWC && d.K % 2 == 0 && k + 1 < d.K) {
#if TF32
				*reinterpret_cast<float2 *>(y + m * d.K + k) = make_float2(s0, s1);
#else
				u32 hv;
				asm("cvt.rn.f16x2.f32 %0, %2, %1;" : "=r"(hv) : "f"(s0), "f"(s1));
				*reinterpret_cast<u32 *>(y + m * d.K + k) = hv;
#endif
			} else {
				const i64 yp = conv_ypix<OUT_NHWC>(d, PQ, m);
				if (k < d.K)
					y[yp + (i64)k * conv_ystep<OUT_NHWC>(PQ)] = out_of(s0);
				if (k + 1 < d.K)
					y[yp + (i64)(k + 1) * conv_ystep<OUT_NHWC>(PQ)] = out_of(s1);
			}
		}
	}
}
template <int OUT_NHWC>
__device__ __forceinline__ void conv_cluster_finish(const float (&acc)[WMI][BN / 2], yt *__restrict__ y,
						    const conv_shape &d, i64 PQ, i64 NPQ, i64 m0, int k0, u32 sbase,
						    u32 rbar, u32 ncta, int wg, int warp, int lane)
{
	const u32 rbase = sbase + (u32)(STAGES * WG_STAGE); // the receive region, past the ring
	if (ncta == 2)
		conv_cluster_finish_n<OUT_NHWC, 2>(acc, y, d, PQ, NPQ, m0, k0, sbase, rbase, rbar, wg, warp, lane);
	else if (ncta == 4)
		conv_cluster_finish_n<OUT_NHWC, 4>(acc, y, d, PQ, NPQ, m0, k0, sbase, rbase, rbar, wg, warp, lane);
	else if (ncta == 8)
		conv_cluster_finish_n<OUT_NHWC, 8>(acc, y, d, PQ, NPQ, m0, k0, sbase, rbase, rbar, wg, warp, lane);
	else
		__trap(); // the host offers clusters of 2, 4 and 8
}

// the block's first tile in the persistent order (blockIdx.x), or 0 with split-K, read from the special register
// where it is called
__device__ __forceinline__ i64 first_tile(bool persist)
{
	u32 b;
	asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(b));
	return persist ? (i64)b : 0;
}

template <int OUT_NHWC>
__device__ __forceinline__ void conv_body_wg(const elt *__restrict__ x, const elt *__restrict__ w,
					     yt *__restrict__ y, const conv_shape &d, float *__restrict__ W,
					     int kc, const tmap_t *tmx, const tmap_t *tmw)
{
	extern __shared__ __align__(16) unsigned char wsm[];
	const u32 sbase = (smem_addr(wsm) + 1023u) & ~1023u;
#if KIND == 1
	__shared__ i64 pix_base[BM];
	__shared__ int pix_h[BM], pix_w[BM];
#endif
	__shared__ __align__(8) unsigned long long bars[2 * STAGES];
	const u32 full0 = smem_addr(bars), empty0 = full0 + 8u * STAGES;
	const int tid = threadIdx.x;
	const int CRS = d.C * d.R * d.S;
	const i64 PQ = (i64)d.P * d.Q, NPQ = (i64)d.N * PQ, MK = NPQ * d.K;
	const int gbeg = blockIdx.z * kc, gend = gbeg + kc < CRS ? gbeg + kc : CRS;
	const int nk = gbeg < gend ? (gend - gbeg + BK - 1) / BK : 0;
	// Tiles. Without split-K the host launches (min(tiles, resident blocks), 1, 1) blocks and block b computes
	// tiles b, b + gridDim.x, ... (the filter tiles of a pixel tile one after another: they read the same x);
	// the ring's stages and phases run on from tile to tile, so the producer fills the next tile's stages
	// while the consumers store this one. With split-K (gridDim.z > 1) the block's one tile is (blockIdx.x,
	// blockIdx.y), whose partial sums conv_reduce adds.
	const i64 tn = (d.K + BN - 1) / BN;
	const bool persist = gridDim.y == 1 && gridDim.z == 1;
	const i64 ntile = persist ? (NPQ + BM - 1) / BM * tn : 1, tstep = persist ? gridDim.x : 1;
	// a block's first tile is read in each role after its setmaxnreg (first_tile), so that no value is live
	// across the register reallocation: ptxas spilled a tile index computed before it (NOTES item 173)
	// A cluster split's receive barrier (conv_cluster_finish). The host launches the splits as one cluster of
	// gridDim.z blocks exactly where it passes no workspace (W null; conv_reduce sums a plain split's W). Neither
	// the cluster's size (%cluster_nctarank) nor a cluster barrier is touched otherwise: both load a word of the
	// constant bank that no other instruction needs, which cost plain launches 2-4% (run142).
	__shared__ __align__(8) unsigned long long cl_bar;
	const bool cl = gridDim.z > 1 && W == nullptr;
	if (tid == 0) {
		for (int s = 0; s < STAGES; s++) {
			mb_init(full0 + 8u * s, KIND == 1 ? 128 : 1); // each producer thread's copies of the stage, or
								       // one expect_tx a use (KIND 2)
			mb_init(empty0 + 8u * s, 4 * WGS); // each consumer warp, once its wgmmas have read the stage
		}
		if (cl) { // its one arrival: the expect_tx of conv_cluster_finish
			mb_init(smem_addr(&cl_bar), 1);
			asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
		}
	}
	__syncthreads();
	if (cl) // the wait that pairs with it is conv_cluster_finish's, before any split stores to another
		asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");

	if (tid >= CONS_THREADS) {
		// ---- producer: thread pt copies chunk pt % 8 of lines pt / 8 + 16·i ----
#if WGS == 2
		asm volatile("setmaxnreg.dec.sync.aligned.u32 136;" ::: "memory");
#endif
		const int pt = tid - CONS_THREADS;
#if KIND == 2
		// NPROD threads, lane 0 of the producer's first NPROD warps, take the ring's k-tiles in turn (it % NPROD),
		// so two instruction streams issue the copies where one did
		if (pt % 32 != 0 || pt >= 32 * NPROD)
			return;
		const int pw = pt / 32;
		asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<unsigned long long>(tmx)) : "memory");
		asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<unsigned long long>(tmw)) : "memory");
		conv_wait_prior(); // after the set-up and the maps' fetch, which touch nothing the kernel before writes
		// held in registers, as the consumers' (ptxas rebuilt them from SR_CgaCtaId every k-tile)
		u32 fullp = full0, emptyp = empty0, sbp = sbase;
		asm volatile("" : "+r"(fullp), "+r"(emptyp), "+r"(sbp));
		// the ring's k-tile count it so far, stepped: it % STAGES, the empty barrier's parity ((it / STAGES) & 1) ^ 1,
		// and it % NPROD, whose producer thread fills the stage
		u32 pst = 0, pph = 1, turn = 0;
#pragma unroll 1
		for (i64 tile = first_tile(persist); tile < ntile; tile += tstep) {
			const i64 m0 = (persist ? tile / tn : blockIdx.x) * (i64)BM;
			const int k0 = (int)(persist ? tile % tn : blockIdx.y) * BN;
#if !X2D
			const int n0 = (int)(m0 / PQ), pq = (int)(m0 - (i64)n0 * PQ), p0 = pq / d.Q, q0 = pq - p0 * d.Q;
			const int wb = q0 * d.str_w - d.pad_w, hb = p0 * d.str_h - d.pad_h;
			// k-tile t's tap (r, s) and channel c, divided out once a tile and stepped by BK after each copy
			// (g = (r·S + s)·C + c with 0 <= c < C, as the divisions give), so a producer thread's loop holds no
			// division
			const int rs0 = gbeg / d.C;
			int c = gbeg - rs0 * d.C, r = rs0 / d.S, s = rs0 - r * d.S;
#endif
#pragma unroll 1
			for (int t = 0; t < nk; t++) {
				if (turn == (u32)pw) {
					const u32 st = pst;
					mb_wait(emptyp + 8u * st, pph);
					const u32 sb = sbp + st * WG_STAGE, full = fullp + 8u * st;
					const int g = gbeg + t * BK;
					mb_expect_tx(full, WG_STAGE);
#if X2D // a 1x1 filter, stride 1, no padding: pixels m0.. of the matrix [N·H·W][C], channels g..
					tma_tile(sb, tmx, g, (int)m0, full);
#else
					tma_im2col(sb, tmx, c, wb, hb, n0, (unsigned short)(s * d.dil_w),
						   (unsigned short)(r * d.dil_h), full);
#endif
					tma_tile(sb + BM * 128u, tmw, g, k0, full);
				}
				if (++turn == NPROD)
					turn = 0;
				if (++pst == STAGES) {
					pst = 0;
					pph ^= 1;
				}
#if !X2D // every producer thread steps through every k-tile
				for (c += BK; c >= d.C; c -= d.C)
					if (++s == d.S) {
						s = 0;
						r++;
					}
#endif
			}
		}
		return;
#else
		conv_wait_prior();
		const int ch = pt % 8;
		int it = 0; // the ring's k-tiles so far
#pragma unroll 1
		for (i64 tile = first_tile(persist); tile < ntile; tile += tstep) {
			const i64 m0 = (persist ? tile / tn : blockIdx.x) * (i64)BM;
			const int k0 = (int)(persist ? tile % tn : blockIdx.y) * BN;
			// the tile's pixels decoded into the table (named barrier 2: the producer's 128 threads), once
			// every copy of the previous tile has been issued
			asm volatile("bar.sync 2, 128;" ::: "memory");
			for (int mm = pt; mm < BM; mm += 128)
				conv_pixel(pix_base + mm, pix_h + mm, pix_w + mm, d, PQ, NPQ, m0 + mm);
			asm volatile("bar.sync 2, 128;" ::: "memory");
#pragma unroll 1
			for (int t = 0; t < nk; t++, it++) {
				const int st = it % STAGES;
				mb_wait(empty0 + 8u * st, ((it / STAGES) & 1) ^ 1); // the consumers are done with its last use
				const u32 sb = sbase + (u32)st * WG_STAGE;
				const int g = gbeg + t * BK + ch * EPC;
				const int rs = g / d.C, c = g - rs * d.C, r = rs / d.S, s = rs - r * d.S;
				const bool gin = g < gend;
#pragma unroll
				for (int i = 0; i < WG_V; i++) {
					const int line = pt / 8 + 16 * i;
					const u32 dst = sb + (u32)line * 128u + (u32)((ch ^ (line & 7)) << 4);
					if (i < BM / 16) {
						const int h = pix_h[line] + r * d.dil_h, wi = pix_w[line] + s * d.dil_w;
						const bool ok = gin && (unsigned)h < (unsigned)d.H && (unsigned)wi < (unsigned)d.W;
						const elt *src = ok ? x + pix_base[line] + ((i64)h * d.W + wi) * d.C + c : x;
						asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
							     "r"(ok ? 16 : 0)
							     : "memory");
					} else {
						const int k = k0 + line - BM;
						const bool ok = gin && k < d.K;
						const elt *src = ok ? w + (i64)k * CRS + g : w;
						asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
							     "r"(ok ? 16 : 0)
							     : "memory");
					}
				}
				mb_arrive_cp(full0 + 8u * st);
			}
		}
		return;
#endif
	}

	// ---- consumers ----
#if WGS == 2
	asm volatile("setmaxnreg.inc.sync.aligned.u32 184;" ::: "memory");
#endif
	conv_wait_prior(); // before their stores to y and W (their loads wait for the producer's copies anyway)
	// the warpgroup's index broadcast from lane 0, so that ptxas knows it is the same in every lane and keeps
	// the descriptors built from it in uniform registers (no R2UR a wgmma)
	const int lane = tid % 32, warp = (tid / 32) % 4, wg = __shfl_sync(0xffffffffu, tid / 128, 0);
	const unsigned long long da0 = wg_desc(sbase + (u32)wg * WMI * 64u * 128u), db0 = wg_desc(sbase + BM * 128u);
	// the barriers' addresses held in registers: otherwise ptxas rebuilds them from SR_CgaCtaId every k-tile, a
	// chain of four dependent instructions ahead of the full barrier's wait
	u32 fullc = full0, emptyc = empty0;
	asm volatile("" : "+r"(fullc), "+r"(emptyc));
	int it = 0;
	u32 cst = 0, cph = 0; // it % STAGES and (it / STAGES) & 1, stepped with it
#pragma unroll 1
	for (i64 tile = first_tile(persist); tile < ntile; tile += tstep) {
		const i64 m0 = (persist ? tile / tn : blockIdx.x) * (i64)BM;
		const int k0 = (int)(persist ? tile % tn : blockIdx.y) * BN;
		float acc[WMI][BN / 2];
#pragma unroll
		for (int i = 0; i < WMI; i++)
#pragma unroll
			for (int r = 0; r < BN / 2; r++)
				acc[i][r] = 0.f;
#if TF32
		// The tensor cores add each k8 step into the fp32 accumulators with truncation, so over a long
		// reduction the error grows with its length times the sum's size (past fp32's tolerance from about
		// 300 TF32 products of 3xTF32's 3·C·R·S: run39). Each group of TF32_PROMOTE k-tiles (4 steps each) is
		// summed apart in tmp and added to acc by the CUDA cores, rounding to nearest: the group's wgmmas
		// retire before the next group's are issued (the other consumer warpgroup keeps the tensor cores busy
		// meanwhile). Two k-tiles a group where the ring has more than two stages: as GEMM's 3xTF32 (NOTES
		// items 85 and 87).
		float tmp[WMI][BN / 2];
#endif
#pragma unroll 1
		for (int t = 0; t < nk; t++, it++) {
			const u32 st = cst;
			mb_wait(fullc + 8u * st, cph);
			if (++cst == STAGES) {
				cst = 0;
				cph ^= 1;
			}
#if KIND == 1 // cp.async wrote the stage through the generic proxy; wgmma reads it through the async one
			asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
			const unsigned long long soff = (unsigned long long)((st * WG_STAGE) >> 4);
			asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
			for (int kk = 0; kk < 4; kk++) // k16 (TF32: k8) a step: 32 bytes along the line
#pragma unroll
				for (int i = 0; i < WMI; i++)
#if TF32
					wg_mma(tmp[i], da0 + soff + (unsigned long long)((i * 64 * 128 + kk * 32) >> 4),
					       db0 + soff + (unsigned long long)((kk * 32) >> 4), kk > 0 || t % TF32_PROMOTE != 0);
#else
					wg_mma(acc[i], da0 + soff + (unsigned long long)((i * 64 * 128 + kk * 32) >> 4),
					       db0 + soff + (unsigned long long)((kk * 32) >> 4), 1);
#endif
			asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#if TF32
			if ((t + 1) % TF32_PROMOTE == 0 || t + 1 == nk) {
				asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
				if (lane == 0) // oldest first: KIND 2's producer threads rely on the stages coming back in order
					for (int j = t % TF32_PROMOTE; j >= 0; j--)
						mb_arrive(emptyc + 8u * ((it - j) % STAGES));
#pragma unroll
				for (int i = 0; i < WMI; i++)
#pragma unroll
					for (int r = 0; r < BN / 2; r++) {
						asm volatile("" : "+f"(tmp[i][r])::"memory");
						acc[i][r] += tmp[i][r];
					}
			}
#else
			asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory"); // the previous k-tile's have retired
			if (t > 0 && lane == 0) // the previous k-tile's stage
				mb_arrive(emptyc + 8u * (st == 0 ? STAGES - 1 : st - 1));
#endif
		}
#if !TF32
		asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
		if (nk > 0 && lane == 0) // the tile's last stage
			mb_arrive(emptyc + 8u * ((it - 1) % STAGES));
#endif
#pragma unroll
		for (int i = 0; i < WMI; i++)
#pragma unroll
			for (int r = 0; r < BN / 2; r++)
				asm volatile("" : "+f"(acc[i][r])::"memory");
		// accumulator r of m64 block i: pixel 64·(WMI·wg + i) + 16·warp + lane/4 (+8 for r % 4 >= 2), filter
		// 8·(r/4) + 2·(lane % 4) + r % 2
		if (EPI_SMEM && OUT_NHWC && gridDim.z == 1 && d.K % 8 == 0) {
			// y in NHWC: each warp's 16 rows go out 64 filters at a time through its 2 KiB of shared memory
			// (16-byte chunks swizzled by the row, so neither side conflicts), as whole 128-byte lines of y
			const u32 eb = sbase + (u32)(STAGES * WG_STAGE) + (u32)(wg * 4 + warp) * 2048u;
#pragma unroll
			for (int i = 0; i < WMI; i++)
#pragma unroll
				for (int cc = 0; cc < BN / 64; cc++) {
#pragma unroll
					for (int j = 0; j < 8; j++)
#pragma unroll
						for (int hf = 0; hf < 2; hf++) {
							const int r = 4 * (8 * cc + j) + 2 * hf, row = lane / 4 + 8 * hf;
							u32 h;
							asm("cvt.rn.f16x2.f32 %0, %2, %1;" : "=r"(h) : "f"(acc[i][r]), "f"(acc[i][r + 1]));
							asm volatile("st.shared.b32 [%0], %1;" ::"r"(eb + (u32)row * 128u +
												  (u32)((j ^ (row & 7)) << 4) +
												  (u32)(lane % 4) * 4u),
								     "r"(h)
								     : "memory");
						}
					__syncwarp();
#pragma unroll
					for (int q = 0; q < 4; q++) {
						const int row = 4 * q + lane / 8, ch = lane % 8;
						u32 v0, v1, v2, v3;
						asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
							     : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3)
							     : "r"(eb + (u32)row * 128u + (u32)((ch ^ (row & 7)) << 4))
							     : "memory");
						const i64 m = m0 + 64 * (WMI * wg + i) + 16 * warp + row;
						const int k = k0 + 64 * cc + 8 * ch;
						if (m < NPQ && k < d.K)
							asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(y + m * d.K + k),
								     "r"(v0), "r"(v1), "r"(v2), "r"(v3)
								     : "memory");
					}
					__syncwarp();
				}
			continue;
		}
		if (gridDim.z == 1) {
#pragma unroll
			for (int i = 0; i < WMI; i++)
#pragma unroll
				for (int h = 0; h < 2; h++) { // the thread's two rows: r with (r >> 1) & 1 == h
					const i64 m = m0 + 64 * (WMI * wg + i) + 16 * warp + lane / 4 + 8 * h;
					if (m >= NPQ)
						continue;
					const i64 yp = conv_ypix<OUT_NHWC>(d, PQ, m); // once a pixel
#pragma unroll
					for (int r = 2 * h; r < BN / 2; r += 4) {
						const int k = k0 + 8 * (r / 4) + 2 * (lane % 4);
						if (OUT_NHWC && d.K % 2 == 0 && k + 1 < d.K) {
#if TF32
							*reinterpret_cast<float2 *>(y + m * d.K + k) =
								make_float2(acc[i][r], acc[i][r + 1]);
#else
							u32 hv;
							asm("cvt.rn.f16x2.f32 %0, %2, %1;"
							    : "=r"(hv)
							    : "f"(acc[i][r]), "f"(acc[i][r + 1]));
							*reinterpret_cast<u32 *>(y + m * d.K + k) = hv;
#endif
						} else {
							if (k < d.K)
								y[yp + (i64)k * conv_ystep<OUT_NHWC>(PQ)] = out_of(acc[i][r]);
							if (k + 1 < d.K)
								y[yp + (i64)(k + 1) * conv_ystep<OUT_NHWC>(PQ)] =
									out_of(acc[i][r + 1]);
						}
					}
				}
			continue;
		}
		if (W == nullptr) { // split-K in a cluster of the tile's gridDim.z splits; the receive region past the ring
			conv_cluster_finish<OUT_NHWC>(acc, y, d, PQ, NPQ, m0, k0, sbase, smem_addr(&cl_bar), gridDim.z,
						      wg, warp, lane);
			continue;
		}
		// split-K: the partial sums to W[z] for conv_reduce, a thread's two adjacent filters as one 8-byte
		// store where K is even
		float *wz = W + (i64)blockIdx.z * MK;
#pragma unroll
		for (int i = 0; i < WMI; i++)
#pragma unroll
			for (int r = 0; r < BN / 2; r += 2) {
				const i64 m = m0 + 64 * (WMI * wg + i) + 16 * warp + lane / 4 + 8 * ((r >> 1) & 1);
				const int k = k0 + 8 * (r / 4) + 2 * (lane % 4);
				if (m >= NPQ)
					continue;
				if (d.K % 2 == 0 && k + 1 < d.K) {
					*reinterpret_cast<float2 *>(wz + m * d.K + k) = make_float2(acc[i][r], acc[i][r + 1]);
				} else {
					if (k < d.K)
						wz[m * d.K + k] = acc[i][r];
					if (k + 1 < d.K)
						wz[m * d.K + k + 1] = acc[i][r + 1];
				}
			}
	}
}

#if KIND == 5
// ---- KIND 5: wgmma on a halo of x (sm_90a; NHWC, C = 64, stride 1, dilation 1, K a multiple of BN = 64) ----
// A tile is HALO_TR output rows x 64 pixels of one image, for the block's BN filters. Its halo, HALO_TR + R - 1
// input rows of 64 + S - 1 pixels of all 64 channels, comes in one tiled bulk copy (tmx: x as {C, W, H, N}, its box
// {64, 64 + S - 1, HALO_TR + R - 1, 1} at the tile's top-left tap, the padding the copy's zeros) as 128-byte lines
// in the 128-byte swizzle. Tap (r, s)'s operand for output row i is then the ordinary K-major swizzled descriptor
// started at line (i + r)·(64 + S - 1) + s: the swizzle follows the absolute shared address, as the copy wrote it
// (NOTES item 206: a base offset there made 89% of the outputs wrong). So x crosses L2 about
// (HALO_TR + R - 1)/HALO_TR times, not R·S times, in (HALO_TR + R - 1) x (64 + S - 1) lines of 128 bytes.
// The block's BN filters stay in shared memory for all its tiles: one tiled copy at the start (tmw: w as {C, K,
// R·S} with the strides C·R·S and C, a box {64, BN, R·S}: tap t's BN lines at t·BN·128). The blocks are
// persistent: block b keeps filter tile b % (K / BN) and takes every (gridDim.x / (K / BN))-th pixel tile (the host
// makes gridDim.x a multiple of K / BN). One producer thread (the last warpgroup's first) fills a ring of STAGES
// halos; WARPS_M = 2 consumer warpgroups take HALO_RPW output rows each, R·S·4 m64n64k16 wgmmas a row, the first
// with scale-d 0, and hand the halo back before their stores. The stores go through shared memory (8 KB a
// consumer warpgroup: a row of 64 pixels x 64 filters, 16-byte chunks XOR-swizzled by pixel) as whole 128-byte
// pixel lines. Dynamic shared memory (the host's halo_smem): 1024 for the alignment, R·S·BN·128 for the filters,
// STAGES halos rounded up to 1024, 16 KB of staging.
#define HALO_TR (BM / 64)
#define HALO_RPW (HALO_TR / 2)
static_assert(WARPS_M == 2 && BN == 64 && (HALO_TR == 2 || HALO_TR == 4), "halo: WARPS_M 2, BN 64, BM 128 or 256");
__device__ __forceinline__ void tma_tile4(u32 dst, const tmap_t *map, int c0, int c1, int c2, int c3, u32 bar)
{
	asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes"
		     " [%0], [%1, {%2, %3, %4, %5}], [%6];" ::"r"(dst),
		     "l"(reinterpret_cast<unsigned long long>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(bar)
		     : "memory");
}
__device__ __forceinline__ void tma_tile3(u32 dst, const tmap_t *map, int c0, int c1, int c2, u32 bar)
{
	asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
		     " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(dst),
		     "l"(reinterpret_cast<unsigned long long>(map)), "r"(c0), "r"(c1), "r"(c2), "r"(bar)
		     : "memory");
}

__device__ __forceinline__ void conv_body_halo(yt *__restrict__ y, const conv_shape &d, const tmap_t *tmx,
					       const tmap_t *tmw)
{
	extern __shared__ __align__(16) unsigned char wsm[];
	__shared__ __align__(8) unsigned long long full[STAGES], empty[STAGES], wfull;
	const u32 sbase = (smem_addr(wsm) + 1023u) & ~1023u;
	const int hw = 64 + d.S - 1, hr = HALO_TR + d.R - 1, rs = d.R * d.S;
	const u32 wbytes = (u32)rs * BN * 128u, hbytes = (u32)(hw * hr) * 128u, hstage = (hbytes + 1023u) & ~1023u;
	const u32 ring = sbase + wbytes, stg = ring + STAGES * hstage;
	const int nt = d.K / BN, qt = (d.Q + 63) / 64, pt = (d.P + HALO_TR - 1) / HALO_TR, mtiles = d.N * pt * qt;
	const int tid = threadIdx.x;
	u32 b;
	asm volatile("mov.u32 %0, %%ctaid.x;" : "=r"(b));
	const int ntile = (int)b % nt, mstep = (int)gridDim.x / nt, mfirst = (int)b / nt;
	if (tid == 0) {
		for (int i = 0; i < STAGES; i++) {
			mb_init(smem_addr(&full[i]), 1);
			mb_init(smem_addr(&empty[i]), CONS_THREADS);
		}
		mb_init(smem_addr(&wfull), 1);
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	__syncthreads();
	const int wg = __shfl_sync(0xffffffffu, tid / 128, 0);
	if (wg == WARPS_M) { // the producer warpgroup: one thread issues every copy
		asm volatile("setmaxnreg.dec.sync.aligned.u32 40;" ::: "memory");
		if (tid != 128 * WARPS_M)
			return;
		asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<unsigned long long>(tmx)) : "memory");
		asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<unsigned long long>(tmw)) : "memory");
		conv_wait_prior(); // as conv_body_wg's producer
		mb_expect_tx(smem_addr(&wfull), wbytes);
		tma_tile3(sbase, tmw, 0, ntile * BN, 0, smem_addr(&wfull));
		int it = 0;
		for (int m = mfirst; m < mtiles; m += mstep, it++) {
			const int s = it % STAGES;
			if (it >= STAGES)
				mb_wait(smem_addr(&empty[s]), ((it / STAGES) & 1) ^ 1);
			const int q0 = (m % qt) * 64, p0 = ((m / qt) % pt) * HALO_TR, n = m / (qt * pt);
			mb_expect_tx(smem_addr(&full[s]), hbytes);
			tma_tile4(ring + (u32)s * hstage, tmx, 0, q0 - d.pad_w, p0 - d.pad_h, n, smem_addr(&full[s]));
		}
		return;
	}
	asm volatile("setmaxnreg.inc.sync.aligned.u32 232;" ::: "memory"); // 40 + 2 x 232 = 3 x 168
	conv_wait_prior();
	const int ct = tid - 128 * wg, warp = ct / 32, lane = ct % 32;
	const u32 mystg = stg + (u32)wg * 8192u;
	const int k0 = ntile * BN;
	mb_wait(smem_addr(&wfull), 0);
	int it = 0;
	for (int m = mfirst; m < mtiles; m += mstep, it++) {
		const int s = it % STAGES;
		const int q0 = (m % qt) * 64, p0 = ((m / qt) % pt) * HALO_TR, n = m / (qt * pt);
		float acc[HALO_RPW][BN / 2];
		mb_wait(smem_addr(&full[s]), (it / STAGES) & 1);
		asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
		const u32 h0 = ring + (u32)s * hstage;
#pragma unroll
		for (int rr = 0; rr < HALO_RPW; rr++)
#pragma unroll 1
			for (int r = 0; r < d.R; r++)
#pragma unroll 1
				for (int sx = 0; sx < d.S; sx++) {
					const u32 a = h0 + (u32)((wg * HALO_RPW + rr + r) * hw + sx) * 128u;
					const u32 bw = sbase + (u32)(r * d.S + sx) * (BN * 128u);
#pragma unroll
					for (int j = 0; j < 4; j++)
						wg_mma(acc[rr], wg_desc(a + 32u * j), wg_desc(bw + 32u * j), (r | sx | j) != 0);
				}
		asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
		asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
		mb_arrive(smem_addr(&empty[s]));
#pragma unroll
		for (int rr = 0; rr < HALO_RPW; rr++) {
			const int p = p0 + wg * HALO_RPW + rr;
#pragma unroll
			for (int j = 0; j < 8; j++)
#pragma unroll
				for (int h = 0; h < 2; h++) {
					const int px = warp * 16 + lane / 4 + 8 * h;
					u32 hv;
					asm("cvt.rn.f16x2.f32 %0, %2, %1;" : "=r"(hv) : "f"(acc[rr][4 * j + 2 * h]), "f"(acc[rr][4 * j + 2 * h + 1]));
					asm volatile("st.shared.b32 [%0], %1;" ::"r"(mystg + (u32)px * 128u + ((u32)(j ^ (px & 7)) << 4) + 4u * (lane % 4)),
						     "r"(hv)
						     : "memory");
				}
			asm volatile("bar.sync %0, 128;" ::"r"(1 + wg) : "memory");
#pragma unroll
			for (int i = 0; i < 4; i++) {
				const int v = ct + 128 * i, px = v >> 3, ch = v & 7;
				uint4 o;
				asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];"
					     : "=r"(o.x), "=r"(o.y), "=r"(o.z), "=r"(o.w)
					     : "r"(mystg + (u32)px * 128u + ((u32)(ch ^ (px & 7)) << 4))
					     : "memory");
				if (q0 + px < d.Q && p < d.P)
					*reinterpret_cast<uint4 *>(y + (((i64)n * d.P + p) * d.Q + q0 + px) * d.K + k0 + ch * 8) = o;
			}
			asm volatile("bar.sync %0, 128;" ::"r"(1 + wg) : "memory");
		}
	}
}
#endif // KIND == 5
#endif

// The wgmma and halo kernels wait for the kernel before them (conv_wait_prior) in their bodies, each role after
// the block's set-up (its barriers, the producer's fetch of the tensor maps: kernel parameters, which no kernel
// writes), so that set-up overlaps the kernel before; the others, and a layout's kernel compiled out (a trap),
// wait first.
#define NCHW_WAITS_IN_BODY (LAYOUT_NCHW && VEC && (KIND == 1 || KIND == 2))
#define NHWC_WAITS_IN_BODY (LAYOUT_NHWC && VEC && (KIND == 1 || KIND == 2 || KIND == 5))

// tmx, tmw: KIND 2's and KIND 5's tensor maps of x and w (zeros for the other kernels, which do not read them)
#define CONV_ARGS                                                                                        \
	const elt *__restrict__ x, const elt *__restrict__ w, yt *__restrict__ y, conv_shape d,           \
		float *__restrict__ W, int kc, const __grid_constant__ tmap_t tmx,                         \
		const __grid_constant__ tmap_t tmw
#define CONV_PASS x, w, y, d, W, kc

// wgmma with one consumer warpgroup and at most 32 accumulators a thread ((BM/64)·BN <= 64): two blocks an SM (at most 128
// registers a thread; ptxas takes 255 unbounded). Not KIND 2: under that bound its producer thread's loop made
// ptxas spill 56 bytes.
#if VEC && KIND == 1 && WGS == 1 && WMI * BN <= 64 && !TF32 // (TF32: its k-tile sums need more)
#define MIN_BLOCKS 2
#else
#define MIN_BLOCKS 1
#endif

#if TF32 && !(VEC && KIND >= 1)
#error "TF32: the wgmma kernels only (VEC 1, KIND 1 or 2)"
#endif

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS) conv_nchw(CONV_ARGS)
{
	conv_let_reduce_start();
#if !NCHW_WAITS_IN_BODY
	conv_wait_prior();
#endif
#if KIND == 3
	ONLY(LAYOUT_NCHW, conv_body_direct<0>(x, w, y, d));
#elif KIND == 4 || KIND == 5 // NHWC only (src/ops/conv/conv.c offers them nothing else)
	__trap();
#elif VEC && KIND >= 1
	ONLY(LAYOUT_NCHW, conv_body_wg<0>(CONV_PASS, &tmx, &tmw));
#elif VEC // x and w as NHWC and KRSC (the host's to_nhwc copies), y NCHW
	ONLY(LAYOUT_NCHW, conv_body_vec<0>(CONV_PASS));
#else
	ONLY(LAYOUT_NCHW, conv_body<0>(CONV_PASS));
#endif
}

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS) conv_nhwc(CONV_ARGS)
{
	conv_let_reduce_start();
#if !NHWC_WAITS_IN_BODY
	conv_wait_prior();
#endif
#if KIND == 3
	ONLY(LAYOUT_NHWC, conv_body_direct<1>(x, w, y, d));
#elif KIND == 4
	ONLY(LAYOUT_NHWC, conv_body_direct_ld<1>(x, w, y, d));
#elif VEC && KIND == 5
	ONLY(LAYOUT_NHWC, conv_body_halo(y, d, &tmx, &tmw));
#elif VEC && KIND >= 1
	ONLY(LAYOUT_NHWC, conv_body_wg<1>(CONV_PASS, &tmx, &tmw));
#elif VEC
	ONLY(LAYOUT_NHWC, conv_body_vec<1>(CONV_PASS));
#else
	ONLY(LAYOUT_NHWC, conv_body<1>(CONV_PASS));
#endif
}

#if !TF32 // fp16's copies (the fp32 op has conv_split3)
// C not a multiple of 8 (first layers: C = 1, 3): the cp.async and wgmma kernels run the problem on copies
// made inside each launch, with the filter's width folded into the channels: a convolution with C' = S·C
// channels (rounded up to 8, the rest zero), a filter 1 wide and Q columns, stride 1 and no padding along
// the width. out[img][row][q][j] for j = s·C + c is in's element (img, c, row, q·str + s·dil - pad) (zero
// outside its Win columns); in is images x C x rows x Win (NCHW order) or images x rows x Win x C (src_nhwc).
// x: images N, rows H, Win W, Qout Q, the problem's stride, dilation and padding along the width; w (KCRS or
// KRSC): images K, rows R, Win S, Qout 1, stride and dilation 1, no padding. A thread writes 8 channels, 16
// bytes.
extern "C" __global__ void __launch_bounds__(256) unfold_w(const h16 *__restrict__ in, h16 *__restrict__ out,
							   i64 images, int rows, int Win, int C, int S, int Qout,
							   int str, int dil, int pad, int Cp, int src_nhwc)
{
	const int groups = Cp / 8;
	const i64 total = images * rows * Qout * groups;
	for (i64 e = (i64)blockIdx.x * 256 + threadIdx.x; e < total; e += (i64)gridDim.x * 256) {
		const int g = (int)(e % groups);
		const i64 pix = e / groups; // (img, row, q)
		const int q = (int)(pix % Qout);
		const i64 ir = pix / Qout; // img · rows + row
		const i64 img = ir / rows;
		const int row = (int)(ir % rows);
		u32 v[4];
#pragma unroll
		for (int j = 0; j < 8; j++) {
			const int jj = 8 * g + j, s = jj / C, c = jj - s * C, wi = q * str + s * dil - pad;
			u32 h = 0;
			if (s < S && (unsigned)wi < (unsigned)Win)
				h = in[src_nhwc ? (ir * Win + wi) * C + c : ((img * C + c) * rows + row) * Win + wi];
			if (j % 2 == 0)
				v[j / 2] = h;
			else
				v[j / 2] |= h << 16;
		}
		*reinterpret_cast<uint4 *>(out + pix * Cp + 8 * g) = make_uint4(v[0], v[1], v[2], v[3]);
	}
}

// NCHW's cp.async kernel reads x and w in NHWC and KRSC order (conv_common.cu's conv_to_nhwc)
extern "C" __global__ void __launch_bounds__(256) to_nhwc(const h16 *__restrict__ in, h16 *__restrict__ out,
							  int images, int C, int HW)
{
	conv_to_nhwc(in, out, images, C, HW);
}

CONV_REDUCE_KERNEL(h16, float, to_half(v))
#endif // !TF32
#endif // !defined(TF32) || TF32
