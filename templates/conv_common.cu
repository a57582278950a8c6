// conv_common.cu — what the convolution kernels of every precision share: the shape they take, the block's
// decoded output pixels, the output's index in each layout, the deterministic split-K reduction, and the tensor-core
// kernels' cp.async copies, ldmatrix loads and NCHW-to-NHWC copy. The host
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

// Output pixel m decoded: image n's first element of x, and the pixel's top-left tap (h, w), far above the image
// for a pixel past the end (so every tap of it reads 0).
__device__ __forceinline__ void conv_pixel(i64 *base, int *ph, int *pw, const conv_shape &d, i64 PQ, i64 NPQ, i64 m)
{
	if (m < NPQ) {
		const int n = (int)(m / PQ), pq = (int)(m % PQ), p = pq / d.Q, q = pq % d.Q;
		*base = (i64)n * d.C * d.H * d.W;
		*ph = p * d.str_h - d.pad_h;
		*pw = q * d.str_w - d.pad_w;
	} else {
		*base = 0;
		*ph = -(1 << 30);
		*pw = 0;
	}
}

// The block's NB output pixels m0, m0 + 1, ... decoded once, by its NT threads, into shared tables.
template <int NB, int NT>
__device__ __forceinline__ void conv_pixels(i64 *base, int *ph, int *pw, const conv_shape &d, i64 m0)
{
	const i64 PQ = (i64)d.P * d.Q, NPQ = (i64)d.N * PQ;
	for (int mm = threadIdx.x; mm < NB; mm += NT)
		conv_pixel(base + mm, ph + mm, pw + mm, d, PQ, NPQ, m0 + mm);
	__syncthreads();
}

// y's index of output pixel m (n, p, q) at filter 0: NHWC y[m][0] = m·K, NCHW y[n][0][p][q] = n·K·P·Q + p·Q + q =
// m + n·(K - 1)·P·Q; filter k's is that plus k·conv_ystep (NHWC 1, NCHW P·Q). A store site decodes each pixel
// once and steps through its filters: m / PQ, a 64-bit division (some 40 instructions when both fit 32 bits, else a
// called routine), done once a stored element (as it was) cost an NCHW epilogue about as much as a short
// reduction's whole loop (docs/NOTES.md item 140).
template <int NHWC>
__device__ __forceinline__ i64 conv_ypix(const conv_shape &d, i64 PQ, i64 m)
{
	return NHWC ? m * d.K : m + m / PQ * (d.K - 1) * PQ;
}
template <int NHWC>
__device__ __forceinline__ i64 conv_ystep(i64 PQ)
{
	return NHWC ? 1 : PQ;
}
// conv_ypix where the image n of pixel m is known: no division
template <int NHWC>
__device__ __forceinline__ i64 conv_ypix_n(const conv_shape &d, i64 PQ, i64 m, int n)
{
	return NHWC ? m * d.K : m + (i64)n * (d.K - 1) * PQ;
}

// The direct kernels' epilogue (fp32's KIND 3, fp16's KIND 3 and 4): a warp's MI strips of 16 pixels x NI·8
// filters in mma.sync's accumulator layout, strip s at row s / (DQ / 16) of a tile DQ pixels wide from (p0, q0)
// of image n, filters from k0. Put writes y's elements: Put::two(p, a, b) two adjacent filters of an NHWC pixel
// in one store (p aligned to it), Put::one(p, a) one. PRED: NHWC with K even stores every pair under one predicate
// a column (k < K), whole tiles and partial ones alike; else a tile wholly in y stores unchecked and a partial one
// tests each pair (docs/NOTES.md items 195, 197: fp16's KIND 3 gains on partial tiles with PRED, KIND 4's
// registers move and it loses). fp16's KIND 3 in NHWC comes here only where K % 8 != 0 or for the last, partial
// block of filters; elsewhere it stores through conv_fp16.cu's direct_store_staged (item 215).
template <int NHWC, int MI, int NI, int DQ, class Put, int PRED, class T>
__device__ __forceinline__ void conv_direct_store(const float (&acc)[MI][NI][4], T *__restrict__ y, const conv_shape &d,
						  int n, int p0, int q0, int k0, int warp, int lane)
{
	const int gid = lane / 4, t4 = lane % 4;
	const i64 PQ = (i64)d.P * d.Q;
	// NHWC, K even and every filter of the tile in y (the usual case): two filters a store, no check a store
	const bool whole = !PRED && NHWC && d.K % 2 == 0 && k0 + 8 * NI <= d.K;
	// y: pixel (p0 + pr, q0 + pc (+8)), filters k0 + 8j + 2·t4 (+1)
#pragma unroll
	for (int i = 0; i < MI; i++) {
		const int strip = warp * MI + i, p = p0 + strip / (DQ / 16);
#pragma unroll
		for (int h = 0; h < 2; h++) {
			const int q = q0 + strip % (DQ / 16) * 16 + gid + 8 * h;
			if (p >= d.P || q >= d.Q)
				continue;
			const i64 m = ((i64)n * d.P + p) * d.Q + q, yp = conv_ypix_n<NHWC>(d, PQ, m, n);
			if (whole) {
				T *yk = y + m * d.K + k0 + t4 * 2;
#pragma unroll
				for (int j = 0; j < NI; j++)
					Put::two(yk + j * 8, acc[i][j][2 * h], acc[i][j][2 * h + 1]);
				continue;
			}
			if (PRED && NHWC && d.K % 2 == 0) { // k is even: k < K holds for both filters of a pair or neither
#pragma unroll
				for (int j = 0; j < NI; j++)
					if (k0 + j * 8 + t4 * 2 < d.K)
						Put::two(y + m * d.K + k0 + j * 8 + t4 * 2, acc[i][j][2 * h], acc[i][j][2 * h + 1]);
				continue;
			}
#pragma unroll
			for (int j = 0; j < NI; j++) {
				const int k = k0 + j * 8 + t4 * 2;
				const float v0 = acc[i][j][2 * h], v1 = acc[i][j][2 * h + 1];
				if (NHWC && d.K % 2 == 0 && k + 1 < d.K) {
					Put::two(y + m * d.K + k, v0, v1);
				} else {
					if (k < d.K)
						Put::one(y + yp + (i64)k * conv_ystep<NHWC>(PQ), v0);
					if (k + 1 < d.K)
						Put::one(y + yp + (i64)(k + 1) * conv_ystep<NHWC>(PQ), v1);
				}
			}
		}
	}
}

// One 8- or 16-byte store to y (p aligned to it): written through a float2 pointer, NVRTC compiled the KIND 0
// epilogue's to two 4-byte stores, and __stwb's to STG.E.64.STRONG.SM
__device__ __forceinline__ void conv_st2(float *p, float a, float b)
{
	asm volatile("st.global.v2.f32 [%0], {%1, %2};" ::"l"(p), "f"(a), "f"(b) : "memory");
}
__device__ __forceinline__ void conv_st4(float *p, float a, float b, float c, float e)
{
	asm volatile("st.global.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(a), "f"(b), "f"(c), "f"(e) : "memory");
}

// Split-K: each split writes its partial sums to W[blockIdx.z] (N·P·Q × K, row m, column k) and is done; the host
// then launches the op's conv_reduce, which runs conv_reduce_body over the whole output on every SM: y = the sum
// of the splits in the order z = 0, 1, ... (deterministic), written through put(y, index, sum). It is a
// programmatic dependent launch on sm_90 (the convolution lets it start at once, conv_let_reduce_start; it waits
// for the convolution's writes, griddepcontrol.wait), so its launch overlaps the convolution. The finish the
// last split of each tile ran alone (NOTES item 60) read split x BM x BN partial sums through one SM.
__device__ __forceinline__ void conv_let_reduce_start()
{
#if __CUDA_ARCH__ >= 900
	asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
// The convolutions are programmatic dependent launches too (sm_90; conv.c's launch_conv): a convolution may be
// scheduled while the kernel before it on the stream (the same convolution on the previous input set, a layer
// before it, a copy of x) runs its last blocks, and waits here, before its first access to global memory, for
// that kernel to finish and its writes to be visible. Its launch and its blocks' start overlap that kernel's tail.
// The wgmma and halo kernels (conv_fp16.cu's NCHW_ and NHWC_WAITS_IN_BODY) call it in each role after the block's
// set-up and the tensor maps' prefetch instead of at their entry.
__device__ __forceinline__ void conv_wait_prior()
{
#if __CUDA_ARCH__ >= 900
	asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

__device__ __forceinline__ void conv_ld4(const float *p, float (&v)[4])
{
	const float4 t = __ldcg(reinterpret_cast<const float4 *>(p));
	v[0] = t.x, v[1] = t.y, v[2] = t.z, v[3] = t.w;
}
__device__ __forceinline__ void conv_ld4(const int *p, int (&v)[4])
{
	const int4 t = __ldcg(reinterpret_cast<const int4 *>(p));
	v[0] = t.x, v[1] = t.y, v[2] = t.z, v[3] = t.w;
}

// A thread sums 4 consecutive elements at a time (16-byte loads where N·P·Q·K % 4 == 0), 4 splits' loads in
// flight at once; the output layout is y's (nhwc 1: y[m][k], 0: NCHW).
template <class Part, class Out, class Put>
__device__ __forceinline__ void conv_reduce_body(Out *__restrict__ y, const Part *__restrict__ W, const conv_shape &d,
						 int splits, int nhwc, Put put)
{
#if __CUDA_ARCH__ >= 900 // the next convolution may start too (it waits for this one: conv_wait_prior)
	asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
	asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
	const i64 PQ = (i64)d.P * d.Q, MK = (i64)d.N * PQ * d.K, groups = (MK + 3) / 4;
	const bool vec = MK % 4 == 0;
	for (i64 g = blockIdx.x * (i64)blockDim.x + threadIdx.x; g < groups; g += (i64)gridDim.x * blockDim.x) {
		const i64 e0 = 4 * g;
		Part sum[4] = {0, 0, 0, 0};
		int z = 0;
		if (vec)
			for (; z + 4 <= splits; z += 4) {
				Part v[4][4];
#pragma unroll
				for (int u = 0; u < 4; u++)
					conv_ld4(W + (z + u) * MK + e0, v[u]);
#pragma unroll
				for (int u = 0; u < 4; u++)
#pragma unroll
					for (int i = 0; i < 4; i++)
						sum[i] += v[u][i];
			}
		for (; z < splits; z++)
			if (vec) {
				Part v[4];
				conv_ld4(W + z * MK + e0, v);
#pragma unroll
				for (int i = 0; i < 4; i++)
					sum[i] += v[i];
			} else {
#pragma unroll
				for (int i = 0; i < 4; i++)
					if (e0 + i < MK)
						sum[i] += __ldcg(W + z * MK + e0 + i);
			}
		if (nhwc) {
#pragma unroll
			for (int i = 0; i < 4; i++)
				if (e0 + i < MK)
					put(y, e0 + i, sum[i]);
			continue;
		}
		// NCHW: element e is pixel e / K, filter e % K; the group's four decoded once, stepped through
		i64 m = e0 / d.K, yp = conv_ypix<0>(d, PQ, m);
		int k = (int)(e0 - m * d.K);
#pragma unroll
		for (int i = 0; i < 4; i++) {
			if (e0 + i >= MK)
				break;
			put(y, yp + (i64)k * PQ, sum[i]);
			if (++k == d.K && i < 3)
				k = 0, yp = conv_ypix<0>(d, PQ, ++m);
		}
	}
}

// The op's reduce kernel (in its own template, after its types): y of type OUT from partial sums of type PART,
// each converted by the expression CVT of v.
#define CONV_REDUCE_KERNEL(OUT, PART, CVT)                                                                     \
	extern "C" __global__ void __launch_bounds__(256) conv_reduce(OUT *__restrict__ y, const PART *__restrict__ W, \
								      conv_shape d, int splits, int nhwc)     \
	{                                                                                                      \
		conv_reduce_body(y, W, d, splits, nhwc, [](OUT *o, i64 i, PART v) { o[i] = CVT; });              \
	}

// ---- the cp.async kernels' pieces (fp16 and int8 on the tensor cores) ----

typedef unsigned u32;

__device__ __forceinline__ u32 smem_addr(const void *p)
{
	return (u32)__cvta_generic_to_shared(p);
}

// 16 bytes from global to shared, or 16 zero bytes where !ok (src is then not read): through L1 for x, whose
// pixels the filter's taps read again and again (.ca), past it for w (.cg)
__device__ __forceinline__ void cp16_ca(void *dst, const void *src, bool ok)
{
	asm volatile("cp.async.ca.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_addr(dst)), "l"(src),
		     "r"(ok ? 16 : 0));
}

__device__ __forceinline__ void cp16(void *dst, const void *src, bool ok)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem_addr(dst)), "l"(src),
		     "r"(ok ? 16 : 0));
}

// 4 bytes (int8's 4 channels where C is not a multiple of 16), through L1, zeros where !ok
__device__ __forceinline__ void cp4_ca(void *dst, const void *src, bool ok)
{
	asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(smem_addr(dst)), "l"(src),
		     "r"(ok ? 4 : 0));
}

__device__ __forceinline__ void cp_commit()
{
	asm volatile("cp.async.commit_group;\n" ::);
}

template <int N> __device__ __forceinline__ void cp_wait()
{
	asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

__device__ __forceinline__ void ldm_x4(u32 (&r)[4], const void *p)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(smem_addr(p)));
}

__device__ __forceinline__ void ldm_x2(u32 (&r)[2], const void *p)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
		     : "=r"(r[0]), "=r"(r[1])
		     : "r"(smem_addr(p)));
}

// The cp.async kernels of NCHW problems read x and w in NHWC and KRSC order: in[n][c][i] -> out[n][i][c] for
// each of `images` images of C channels of HW elements (x: HW = H·W; w: n is the filter k and HW = R·S). HW >= 32: through a
// 32 x 32 shared tile, so that both the reads and the writes are coalesced; grid (ceil(HW/32), ceil(C/32),
// images). HW < 32 (a filter's taps): one output element a thread, c fastest, over a 1-D grid (the reads of
// a warp fall in a few lines). 32 x 8 threads. The host runs it inside the timed launch, as cuDNN's own NCHW
// kernels transform inside theirs; not at all where HW is 1 (1x1 filters: KCRS is KRSC).
// The walk itself: put(pixel, c, value) for each element, pixel = n·HW + i (conv_split3 writes its 3xTF32 copies
// through it).
template <class T, class Put>
__device__ __forceinline__ void conv_nchw_walk(const T *__restrict__ in, int images, int C, int HW, Put put)
{
	if (HW < 32) {
		const i64 total = (i64)images * C * HW, step = (i64)gridDim.x * 256;
		for (i64 e = (i64)blockIdx.x * 256 + threadIdx.y * 32 + threadIdx.x; e < total; e += step) {
			const i64 pix = e / C; // n·HW + i
			const int c = (int)(e - pix * C);
			put(pix, c, in[(pix / HW * C + c) * HW + pix % HW]);
		}
		return;
	}
	__shared__ T t[32][32 + 4 / sizeof(T)]; // rows 8·sizeof(T) + 1 words apart: a column hits 32 banks
	const i64 base = (i64)blockIdx.z * C * HW;
	const int i0 = blockIdx.x * 32, c0 = blockIdx.y * 32, tx = threadIdx.x;
	for (int r = threadIdx.y; r < 32; r += 8)
		if (c0 + r < C && i0 + tx < HW)
			t[r][tx] = in[base + (i64)(c0 + r) * HW + i0 + tx];
	__syncthreads();
	for (int r = threadIdx.y; r < 32; r += 8)
		if (i0 + r < HW && c0 + tx < C)
			put((i64)blockIdx.z * HW + i0 + r, c0 + tx, t[tx][r]);
}

template <class T>
__device__ __forceinline__ void conv_to_nhwc(const T *__restrict__ in, T *__restrict__ out, int images, int C, int HW)
{
	conv_nchw_walk(in, images, C, HW, [&](i64 pix, int c, T v) { out[pix * C + c] = v; });
}
