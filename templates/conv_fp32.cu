// conv_fp32.cu — forward convolution y = x * w in fp32 on the CUDA cores, as an implicit GEMM: rows are the
// output pixels (n, p, q), columns the filters k, and the reduction runs over (c, r, s); the im2col
// addressing is in the loads, so nothing is unfolded in memory.
//
// Tunables (each has a default below, so this file compiles alone):
//   BM      output pixels per thread block
//   BN      filters per thread block
//   BK      reduction steps per shared-memory stage
//   TM, TN  pixels and filters per thread
// Constraints (checked by the host before compiling, see src/ops/conv/conv.c):
//   BM % TM == 0, BN % TN == 0, threads = (BM/TM)·(BN/TN) in [64, 256]
// Kernels: conv_nchw (x and y NCHW, w KCRS) and conv_nhwc (x and y NHWC, w KRSC); the host compiles one per
// cubin (LAYOUT_NCHW, LAYOUT_NHWC: the other kernel traps). In both the reduction index g walks the filter's
// own order (KCRS: c, r, s; KRSC: r, s, c), so a filter row is w[k·CRS + g]. Out-of-range taps read 0 (the
// padding); any stride, dilation, filter and odd size. Grid (ceil(N·P·Q/BM), ceil(K/BN)), THREADS threads.
// Loads: NCHW reads x along the pixels (q fastest), NHWC along the reduction (c fastest): each coalesced in
// its own layout. y is written along the pixels (NCHW) or the filters (NHWC) for the same reason.

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
#define BK 8 // reduction steps per stage
#endif
#ifndef TM
#define TM 4 // pixels per thread
#endif
#ifndef TN
#define TN 4 // filters per thread
#endif
#define THREADS ((BM / TM) * (BN / TN))

typedef long long i64;

struct conv_shape {
	int N, C, H, W, K, R, S, P, Q, pad_h, pad_w, str_h, str_w, dil_h, dil_w;
};

template <int NHWC>
__device__ __forceinline__ void conv_body(const float *__restrict__ x, const float *__restrict__ w,
					  float *__restrict__ y, const conv_shape &d)
{
	__shared__ float As[BK][BM]; // the im2col tile, As[g][m]
	__shared__ float Bs[BK][BN]; // the filter tile, Bs[g][k]
	const int tid = threadIdx.x;
	const i64 PQ = (i64)d.P * d.Q, NPQ = (i64)d.N * PQ;
	const int RS = d.R * d.S, CRS = d.C * RS;
	const i64 m0 = (i64)blockIdx.x * BM;
	const int k0 = blockIdx.y * BN;
	// the thread's pixels m0 + tm + i·(BM/TM) and filters k0 + tn + j·(BN/TN); neighbours differ in the
	// index y is written along
	const int tm = NHWC ? tid / (BN / TN) : tid % (BM / TM);
	const int tn = NHWC ? tid % (BN / TN) : tid / (BM / TM);
	float acc[TM][TN];
#pragma unroll
	for (int i = 0; i < TM; i++)
#pragma unroll
		for (int j = 0; j < TN; j++)
			acc[i][j] = 0.f;
	for (int g0 = 0; g0 < CRS; g0 += BK) {
		for (int e = tid; e < BM * BK; e += THREADS) {
			const int mm = NHWC ? e / BK : e % BM, gg = NHWC ? e % BK : e / BM;
			const i64 m = m0 + mm;
			const int g = g0 + gg;
			float v = 0.f;
			if (m < NPQ && g < CRS) {
				const int n = (int)(m / PQ), pq = (int)(m % PQ), p = pq / d.Q, q = pq % d.Q;
				int c, r, s;
				if (NHWC) {
					c = g % d.C;
					r = g / d.C / d.S;
					s = g / d.C % d.S;
				} else {
					c = g / RS;
					r = g % RS / d.S;
					s = g % d.S;
				}
				const int h = p * d.str_h - d.pad_h + r * d.dil_h, wi = q * d.str_w - d.pad_w + s * d.dil_w;
				if (h >= 0 && h < d.H && wi >= 0 && wi < d.W)
					v = NHWC ? x[(((i64)n * d.H + h) * d.W + wi) * d.C + c]
						 : x[(((i64)n * d.C + c) * d.H + h) * d.W + wi];
			}
			As[gg][mm] = v;
		}
		for (int e = tid; e < BN * BK; e += THREADS) {
			const int nn = e / BK, gg = e % BK, k = k0 + nn, g = g0 + gg;
			Bs[gg][nn] = k < d.K && g < CRS ? w[(i64)k * CRS + g] : 0.f;
		}
		__syncthreads();
#pragma unroll
		for (int gg = 0; gg < BK; gg++) {
			float a[TM], b[TN];
#pragma unroll
			for (int i = 0; i < TM; i++)
				a[i] = As[gg][tm + i * (BM / TM)];
#pragma unroll
			for (int j = 0; j < TN; j++)
				b[j] = Bs[gg][tn + j * (BN / TN)];
#pragma unroll
			for (int i = 0; i < TM; i++)
#pragma unroll
				for (int j = 0; j < TN; j++)
					acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
		}
		__syncthreads();
	}
#pragma unroll
	for (int i = 0; i < TM; i++) {
		const i64 m = m0 + tm + i * (BM / TM);
		if (m >= NPQ)
			continue;
		const i64 n = m / PQ, pq = m % PQ;
#pragma unroll
		for (int j = 0; j < TN; j++) {
			const int k = k0 + tn + j * (BN / TN);
			if (k < d.K)
				y[NHWC ? m * d.K + k : (n * d.K + k) * PQ + pq] = acc[i][j];
		}
	}
}

extern "C" __global__ void __launch_bounds__(THREADS) conv_nchw(const float *__restrict__ x,
								 const float *__restrict__ w, float *__restrict__ y,
								 conv_shape d)
{
	ONLY(LAYOUT_NCHW, conv_body<0>(x, w, y, d));
}

extern "C" __global__ void __launch_bounds__(THREADS) conv_nhwc(const float *__restrict__ x,
								 const float *__restrict__ w, float *__restrict__ y,
								 conv_shape d)
{
	ONLY(LAYOUT_NHWC, conv_body<1>(x, w, y, d));
}
