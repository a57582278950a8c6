// conv_fp16.cu — forward convolution y = x * w with fp16 inputs and output and fp32 accumulation, on the tensor
// cores (mma.sync m16n8k16): the implicit GEMM of conv_fp32.cu, rows the output pixels (n, p, q), columns the
// filters k, the reduction over (c, r, s), with the im2col addressing in the loads. Half values travel as
// their 16 bits (no header is included; conversions are PTX cvt).
//
// Tunables (each has a default below, so this file compiles alone):
//   BM, BN            output pixels and filters per thread block
//   BK                reduction steps per shared-memory stage (a multiple of 16: one mma's k)
//   WARPS_M, WARPS_N  the block's warps; each computes a (BM/WARPS_M) × (BN/WARPS_N) tile of 16×8 mma tiles
// Constraints (checked by the host before compiling, see src/ops/conv/conv.c):
//   BM/WARPS_M >= 16, BN/WARPS_N >= 8, 2 <= WARPS_M·WARPS_N <= 8, (BM/WARPS_M)·(BN/WARPS_N) <= 4096
// Launch-time: gridDim.z splits the reduction (split-K) with kc steps a split, as in conv_fp32.cu, whose
// kernels' arguments, layouts (conv_nchw, conv_nhwc; one per cubin), shared pixel table, register double
// buffering and deterministic split-K reduction this file repeats for 16-bit elements.
// Shared tiles are K-major (As[m][g], Bs[k][g]), rows padded by 8 halves, so the fragments' 32-bit reads of
// a warp hit 32 distinct banks.

#ifndef LAYOUT_NCHW
#define LAYOUT_NCHW 1
#endif
#ifndef LAYOUT_NHWC
#define LAYOUT_NHWC 1
#endif
#define ONLY(on, ...) ONLY_(on, __VA_ARGS__)
#define ONLY_(on, ...) ONLY_##on(__VA_ARGS__)
#define ONLY_1(...) __VA_ARGS__
#define ONLY_0(...) __trap()

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
#define THREADS (32 * WARPS_M * WARPS_N)
#define WTM (BM / WARPS_M) // a warp's pixels
#define WTN (BN / WARPS_N) // a warp's filters
#define MI (WTM / 16)      // its mma tiles down
#define NI (WTN / 8)       // and across
#define LDS (BK + 8)       // halves per shared row

typedef long long i64;
typedef unsigned short h16;

#define LA ((BM * BK + THREADS - 1) / THREADS) // im2col elements a thread loads per stage
#define LB ((BN * BK + THREADS - 1) / THREADS) // filter elements a thread loads per stage

struct conv_shape {
	int N, C, H, W, K, R, S, P, Q, pad_h, pad_w, str_h, str_w, dil_h, dil_w;
};

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

template <int NHWC>
__device__ __forceinline__ void conv_body(const h16 *__restrict__ x, const h16 *__restrict__ w,
					  h16 *__restrict__ y, const conv_shape &d, float *__restrict__ W,
					  unsigned *__restrict__ counters, int kc)
{
	__shared__ __align__(16) h16 As[2][BM][LDS]; // the im2col tile, As[m][g]
	__shared__ __align__(16) h16 Bs[2][BN][LDS]; // the filter tile, Bs[k][g]
	__shared__ i64 pix_base[BM];
	__shared__ int pix_h[BM], pix_w[BM];
	__shared__ int last_block;
	const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
	const int gid = lane / 4, t4 = lane % 4; // the mma fragments' row group and thread in it
	const int wm0 = (warp % WARPS_M) * WTM, wn0 = (warp / WARPS_M) * WTN;
	const i64 PQ = (i64)d.P * d.Q, NPQ = (i64)d.N * PQ;
	const int RS = d.R * d.S, CRS = d.C * RS;
	const i64 m0 = (i64)blockIdx.x * BM;
	const int k0 = blockIdx.y * BN;
	const int gbeg = blockIdx.z * kc, gend = gbeg + kc < CRS ? gbeg + kc : CRS;
	for (int mm = tid; mm < BM; mm += THREADS) {
		const i64 m = m0 + mm;
		if (m < NPQ) {
			const int n = (int)(m / PQ), pq = (int)(m % PQ), p = pq / d.Q, q = pq % d.Q;
			pix_base[mm] = (i64)n * d.C * d.H * d.W;
			pix_h[mm] = p * d.str_h - d.pad_h;
			pix_w[mm] = q * d.str_w - d.pad_w;
		} else {
			pix_base[mm] = 0;
			pix_h[mm] = -(1 << 30); // every tap above the image
			pix_w[mm] = 0;
		}
	}
	__syncthreads();
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
	// accumulator e of tile (i, j): pixel wm0 + 16i + gid (+8 for e >= 2), filter wn0 + 8j + 2·t4 + e % 2
	const i64 MK = NPQ * d.K;
	if (gridDim.z == 1) {
#pragma unroll
		for (int i = 0; i < MI; i++)
#pragma unroll
			for (int j = 0; j < NI; j++)
#pragma unroll
				for (int e = 0; e < 4; e++) {
					const i64 m = m0 + wm0 + i * 16 + gid + (e >= 2 ? 8 : 0);
					const int k = k0 + wn0 + j * 8 + t4 * 2 + e % 2;
					if (m < NPQ && k < d.K)
						y[NHWC ? m * d.K + k : (m / PQ * d.K + k) * PQ + m % PQ] = to_half(acc[i][j][e]);
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
	__threadfence();
	__syncthreads();
	const unsigned tile = blockIdx.y * gridDim.x + blockIdx.x;
	if (tid == 0)
		last_block = atomicAdd(&counters[tile], 1u) == gridDim.z - 1;
	__syncthreads();
	if (!last_block)
		return;
	__threadfence();
	// The last split sums the tile in z order, one element a thread at a time (rolled: once per tile).
#pragma unroll 1
	for (int e = tid; e < BM * BN; e += THREADS) {
		const i64 m = m0 + e / BN;
		const int k = k0 + e % BN;
		if (m < NPQ && k < d.K) {
			float sum = 0.f;
			for (unsigned z = 0; z < gridDim.z; z++)
				sum += __ldcg(W + z * MK + m * d.K + k);
			y[NHWC ? m * d.K + k : (m / PQ * d.K + k) * PQ + m % PQ] = to_half(sum);
		}
	}
	if (tid == 0)
		counters[tile] = 0;
}

#define CONV_ARGS                                                                                        \
	const h16 *__restrict__ x, const h16 *__restrict__ w, h16 *__restrict__ y, conv_shape d,           \
		float *__restrict__ W, unsigned *__restrict__ counters, int kc
#define CONV_PASS x, w, y, d, W, counters, kc

extern "C" __global__ void __launch_bounds__(THREADS) conv_nchw(CONV_ARGS)
{
	ONLY(LAYOUT_NCHW, conv_body<0>(CONV_PASS));
}

extern "C" __global__ void __launch_bounds__(THREADS) conv_nhwc(CONV_ARGS)
{
	ONLY(LAYOUT_NHWC, conv_body<1>(CONV_PASS));
}
