// conv_common.cu — what the convolution kernels of every precision share: the shape they take, the block's
// decoded output pixels, the output's index in each layout and the deterministic split-K finish. The host
// puts it before the precision's own template (op.h: template_file is this file, template_extra the
// precision's), after the tunables' defines.

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

typedef long long i64;

// As the host passes it (src/ops/conv/conv.c): P, Q the output's height and width.
struct conv_shape {
	int N, C, H, W, K, R, S, P, Q, pad_h, pad_w, str_h, str_w, dil_h, dil_w;
};

// The block's NB output pixels m0, m0 + 1, ... decoded once: image n's first element of x, and the pixel's
// top-left tap (h, w), far above the image for a pixel past the end (so every tap of it reads 0).
template <int NB, int NT>
__device__ __forceinline__ void conv_pixels(i64 *base, int *ph, int *pw, const conv_shape &d, i64 m0)
{
	const i64 PQ = (i64)d.P * d.Q, NPQ = (i64)d.N * PQ;
	for (int mm = threadIdx.x; mm < NB; mm += NT) {
		const i64 m = m0 + mm;
		if (m < NPQ) {
			const int n = (int)(m / PQ), pq = (int)(m % PQ), p = pq / d.Q, q = pq % d.Q;
			base[mm] = (i64)n * d.C * d.H * d.W;
			ph[mm] = p * d.str_h - d.pad_h;
			pw[mm] = q * d.str_w - d.pad_w;
		} else {
			base[mm] = 0;
			ph[mm] = -(1 << 30);
			pw[mm] = 0;
		}
	}
	__syncthreads();
}

// y's index of output pixel m (n, p, q) and filter k: NHWC y[m][k], NCHW y[n][k][p][q]
template <int NHWC>
__device__ __forceinline__ i64 conv_yi(const conv_shape &d, i64 PQ, i64 m, int k)
{
	return NHWC ? m * d.K + k : (m / PQ * d.K + k) * PQ + m % PQ;
}

// Split-K, after the block has written its partial sums to W[blockIdx.z] (N·P·Q × K, row m, column k): the
// last split of the tile to arrive adds the tile's partial sums in the order z = 0, 1, ... (the result does
// not depend on arrival order), writes y through put(y, index, sum), and leaves the tile's counter at zero for
// the next launch. Rolled on purpose: it runs once per tile, and unrolling it costs compile time.
template <int NHWC, int NB, int NN, int NT, class Part, class Out, class Put>
__device__ __forceinline__ void conv_splitk_finish(Out *y, const Part *W, unsigned *counters, const conv_shape &d,
						   i64 m0, int k0, Put put)
{
	__shared__ int last_block;
	const i64 PQ = (i64)d.P * d.Q, NPQ = (i64)d.N * PQ, MK = NPQ * d.K;
	__threadfence();
	__syncthreads();
	const unsigned tile = blockIdx.y * gridDim.x + blockIdx.x;
	if (threadIdx.x == 0)
		last_block = atomicAdd(&counters[tile], 1u) == gridDim.z - 1;
	__syncthreads();
	if (!last_block)
		return;
	__threadfence();
#pragma unroll 1
	for (int e = threadIdx.x; e < NB * NN; e += NT) {
		const i64 m = m0 + e / NN;
		const int k = k0 + e % NN;
		if (m < NPQ && k < d.K) {
			Part sum = 0;
			for (unsigned z = 0; z < gridDim.z; z++)
				sum += __ldcg(W + z * MK + m * d.K + k);
			put(y, conv_yi<NHWC>(d, PQ, m, k), sum);
		}
	}
	if (threadIdx.x == 0)
		counters[tile] = 0;
}
