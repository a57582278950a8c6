// conv_int8.cu — forward convolution y = x * w with int8 inputs and int32 accumulation and output, on the tensor
// cores (mma.sync m16n8k32 s8): DeepBench's int8 rule, C padded to a multiple of 4 by the host (the padded
// problem is what runs). The implicit GEMM of conv_fp16.cu's cp.async kernel in bytes: rows the output pixels
// (n, p, q), columns the filters k, the reduction over (c, r, s) in KRSC order, x NHWC.
//
// Tunables (each has a default below, so this file compiles after conv_common.cu alone):
//   BM, BN            output pixels and filters per thread block
//   BK                reduction steps (bytes) per shared-memory stage, a multiple of 32 (one mma's k)
//   WARPS_M, WARPS_N  the block's warps; each computes a (BM/WARPS_M) × (BN/WARPS_N) tile of 16×8 mma tiles
//   STAGES            cp.async stages in flight
//   CHUNK, LAYOUT_*   set by the host's source specialisation, not searched: CHUNK 16 where C is a multiple of
//                     16 (16 channels of one tap, one 16-byte copy), else 4 (4 channels, 4-byte copies)
// Constraints (checked by the host before compiling, see src/ops/conv/conv.c):
//   BM/WARPS_M >= 16, BN/WARPS_N >= 8, 2 <= WARPS_M·WARPS_N <= 8, (BM/WARPS_M)·(BN/WARPS_N) <= 4096
// Launch-time: gridDim.z splits the reduction (split-K) with kc steps a split, whole stages of BK; partial
// sums are int32 and their sum does not depend on the order.
// NCHW problems: the host first copies x and w to NHWC and KRSC (to_nhwc, below) inside the timed launch, and
// the kernel writes y in NCHW. Shared memory is dynamic: STAGES·(BM+BN)·(BK+16) bytes; rows padded by 16 bytes
// so that ldmatrix's 8 rows of a warp fall in distinct banks. For 8-bit elements an mma's A and B fragments
// are, word for word, those of the 16-bit m16n8k16, so ldmatrix.b16 loads them as in conv_fp16.cu.

#ifndef BM
#define BM 64 // output pixels per block
#endif
#ifndef BN
#define BN 64 // filters per block
#endif
#ifndef BK
#define BK 64 // reduction steps (bytes) per stage
#endif
#ifndef WARPS_M
#define WARPS_M 2
#endif
#ifndef WARPS_N
#define WARPS_N 2
#endif
#ifndef STAGES
#define STAGES 3
#endif
#ifndef CHUNK
#define CHUNK 16
#endif
#define THREADS (32 * WARPS_M * WARPS_N)
#define WTM (BM / WARPS_M) // a warp's pixels
#define WTN (BN / WARPS_N) // a warp's filters
#define MI (WTM / 16)      // its mma tiles down
#define NI (WTN / 8)       // and across
#define LDS (BK + 16)      // bytes per shared row
#define CPR (BK / CHUNK)   // copies per tile row
#define VA ((BM * CPR + THREADS - 1) / THREADS) // copies of x a thread makes per stage
#define VB ((BN * CPR + THREADS - 1) / THREADS) // of w
#define A_STAGE (BM * LDS) // bytes
#define B_STAGE (BN * LDS)

typedef signed char s8;

__device__ __forceinline__ void mma16832(int (&c)[4], u32 a0, u32 a1, u32 a2, u32 a3, u32 b0, u32 b1)
{
	asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
		     "{%0,%1,%2,%3};\n"
		     : "+r"(c[0]), "+r"(c[1]), "+r"(c[2]), "+r"(c[3])
		     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

// CHUNK bytes from global to shared, zeros where !ok: x through L1 (its pixels are read again by the
// filter's taps), w past it where the copy is 16 bytes
__device__ __forceinline__ void cp_x(void *dst, const void *src, bool ok)
{
	if (CHUNK == 16)
		cp16_ca(dst, src, ok);
	else
		cp4_ca(dst, src, ok);
}

__device__ __forceinline__ void cp_w(void *dst, const void *src, bool ok)
{
	if (CHUNK == 16)
		cp16(dst, src, ok);
	else
		cp4_ca(dst, src, ok);
}

// Accumulator e of mma tile (i, j) is pixel wm0 + 16i + gid (+8 for e >= 2) and filter wn0 + 8j + 2·t4 + e % 2.
// Without split-K straight to y (NHWC with K even: a thread's two filters as one 8-byte store); with it, the
// partial sums to W[z] for conv_reduce.
template <int NHWC>
__device__ __forceinline__ void store_tile(const int (&acc)[MI][NI][4], int *__restrict__ y, int *__restrict__ W,
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
						*reinterpret_cast<int2 *>(y + m * d.K + k) = make_int2(acc[i][j][e], acc[i][j][e + 1]);
					} else {
						if (k < d.K)
							y[yp + (i64)k * conv_ystep<NHWC>(PQ)] = acc[i][j][e];
						if (k + 1 < d.K)
							y[yp + (i64)(k + 1) * conv_ystep<NHWC>(PQ)] = acc[i][j][e + 1];
					}
				}
			}
		return;
	}
	int *wz = W + (i64)blockIdx.z * MK;
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

template <int OUT_NHWC>
__device__ __forceinline__ void conv_body(const s8 *__restrict__ x, const s8 *__restrict__ w, int *__restrict__ y,
					  const conv_shape &d, int *__restrict__ W, int kc)
{
	extern __shared__ __align__(16) s8 dsm[]; // STAGES x tiles, then STAGES w tiles
	s8 *As = dsm, *Bs = dsm + STAGES * A_STAGE;
	__shared__ i64 pix_base[BM];
	__shared__ int pix_h[BM], pix_w[BM];
	const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
	const int wm0 = (warp % WARPS_M) * WTM, wn0 = (warp / WARPS_M) * WTN;
	const int CRS = d.C * d.R * d.S;
	const i64 m0 = (i64)blockIdx.x * BM;
	const int k0 = blockIdx.y * BN;
	const int gbeg = blockIdx.z * kc, gend = gbeg + kc < CRS ? gbeg + kc : CRS;
	conv_pixels<BM, THREADS>(pix_base, pix_h, pix_w, d, m0);
	int acc[MI][NI][4];
#pragma unroll
	for (int i = 0; i < MI; i++)
#pragma unroll
		for (int j = 0; j < NI; j++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				acc[i][j][e] = 0;
	// stage st's copies of the reduction steps [g0, g0 + BK): CHUNK channels of one tap each (C % CHUNK == 0)
	auto load = [&](int st, int g0) {
		s8 *as = As + st * A_STAGE, *bs = Bs + st * B_STAGE;
#pragma unroll
		for (int i = 0; i < VA; i++) {
			const int e = tid + i * THREADS;
			if (BM * CPR % THREADS == 0 || e < BM * CPR) {
				const int mm = e / CPR, cg = e % CPR, g = g0 + cg * CHUNK;
				const int rs = g / d.C, c = g - rs * d.C, r = rs / d.S, s = rs - r * d.S;
				const int h = pix_h[mm] + r * d.dil_h, wi = pix_w[mm] + s * d.dil_w;
				const bool ok = g < gend && (unsigned)h < (unsigned)d.H && (unsigned)wi < (unsigned)d.W;
				cp_x(as + mm * LDS + cg * CHUNK, ok ? x + pix_base[mm] + ((i64)h * d.W + wi) * d.C + c : x, ok);
			}
		}
#pragma unroll
		for (int i = 0; i < VB; i++) {
			const int e = tid + i * THREADS;
			if (BN * CPR % THREADS == 0 || e < BN * CPR) {
				const int nn = e / CPR, cg = e % CPR, g = g0 + cg * CHUNK, k = k0 + nn;
				const bool ok = g < gend && k < d.K;
				cp_w(bs + nn * LDS + cg * CHUNK, ok ? w + (i64)k * CRS + g : w, ok);
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
	// ldmatrix rows: x4 for 16 pixels x 32 bytes (lanes 0-15 rows at byte 0, 16-31 at byte 16), x2 for 8 filters
	const int a_row = lane % 16, a_col = (lane / 16) * 16, b_row = lane % 8, b_col = ((lane / 8) % 2) * 16;
	for (int kt = 0; kt < nk; kt++) {
		cp_wait<STAGES - 2>();
		__syncthreads(); // stage kt has landed for every thread; stage kt - 1 is no longer read
		const int nx = kt + STAGES - 1;
		if (nx < nk)
			load(nx % STAGES, gbeg + nx * BK);
		cp_commit();
		const s8 *as = As + (kt % STAGES) * A_STAGE, *bs = Bs + (kt % STAGES) * B_STAGE;
#pragma unroll
		for (int kk = 0; kk < BK; kk += 32) {
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
					mma16832(acc[i][j], a[i][0], a[i][1], a[i][2], a[i][3], b[j][0], b[j][1]);
		}
	}
	cp_wait<0>();
	store_tile<OUT_NHWC>(acc, y, W, d, m0, k0, wm0, wn0, lane);
}

// W: split-K's partial sums (the host's float workspace, as int32)
#define CONV_ARGS                                                                                        \
	const s8 *__restrict__ x, const s8 *__restrict__ w, int *__restrict__ y, conv_shape d,             \
		int *__restrict__ W, int kc
#define CONV_PASS x, w, y, d, W, kc

extern "C" __global__ void __launch_bounds__(THREADS) conv_nchw(CONV_ARGS)
{
	conv_let_reduce_start();
	conv_wait_prior();
	ONLY(LAYOUT_NCHW, conv_body<0>(CONV_PASS)); // x and w as NHWC and KRSC (the host's to_nhwc copies), y NCHW
}

extern "C" __global__ void __launch_bounds__(THREADS) conv_nhwc(CONV_ARGS)
{
	conv_let_reduce_start();
	conv_wait_prior();
	ONLY(LAYOUT_NHWC, conv_body<1>(CONV_PASS));
}

// NCHW problems' x and w to NHWC and KRSC (conv_common.cu's conv_to_nhwc)
extern "C" __global__ void __launch_bounds__(256) to_nhwc(const s8 *__restrict__ in, s8 *__restrict__ out, int images,
							  int C, int HW)
{
	conv_to_nhwc(in, out, images, C, HW);
}

CONV_REDUCE_KERNEL(int, int, v)
