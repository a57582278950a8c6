// conv_fp32.cu — forward convolution y = x * w in fp32 on the CUDA cores, as an implicit GEMM: rows are the
// output pixels (n, p, q), columns the filters k, and the reduction runs over (c, r, s); the im2col
// addressing is in the loads, so nothing is unfolded in memory.
//
// Tunables (each has a default below, so this file compiles after conv_common.cu alone):
//   BM      output pixels per thread block
//   BN      filters per thread block
//   BK      reduction steps per shared-memory stage
//   TM, TN  pixels and filters per thread (adjacent ones: read from shared memory as vectors)
// Launch-time: gridDim.z splits the reduction (split-K over c, r, s) for layers with too few tiles to fill
// the GPU (batch 1, small images): chunk kc steps each.
// Constraints (checked by the host before compiling, see src/ops/conv/conv.c):
//   BM % TM == 0, BN % TN == 0, threads = (BM/TM)·(BN/TN) in [64, 256]
// Kernels: conv_nchw (x and y NCHW, w KCRS) and conv_nhwc (x and y NHWC, w KRSC); the host compiles one per
// cubin (LAYOUT_NCHW, LAYOUT_NHWC: the other kernel traps). In both the reduction index g walks the filter's
// own order (KCRS: c, r, s; KRSC: r, s, c), so a filter row is w[k·CRS + g]. Out-of-range taps read 0 (the
// padding); any stride, dilation, filter and odd size. Grid (ceil(N·P·Q/BM), ceil(K/BN), splits), THREADS.
// Loads: NCHW reads x along the pixels (q fastest), NHWC along the reduction (c fastest): each coalesced in
// its own layout. Each block decodes its pixels (n, p, q) once into shared memory. The next stage's loads
// are in registers while this one is computed (two shared buffers, one barrier a stage).
// Split-K: each split writes its partial sums to W[z] (N·P·Q × K); conv_reduce (conv_common.cu, which the
// host puts before this file) adds them in the order z = 0, 1, ... and writes y.

// The fp32 op's template is conv_common.cu, this file, then conv_fp16.cu: with TF32 1 (the 3xTF32 candidates,
// KIND 1 and 2) the kernels below are left out and conv_fp16.cu's wgmma kernels are built on fp32 elements;
// conv_split3 and conv_reduce (at the end) are in every cubin.
#if !defined(TF32) || !TF32

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
#ifndef KIND
#define KIND 0 // 0: the FFMA implicit GEMM; 3: the direct kernel in 3xTF32 (below); 1 and 2 are conv_fp16.cu's
#endif
#ifndef X2D
#define X2D 0 // KIND 0: 1 = a 1x1 filter (src/ops/conv/conv.c's r1s1_dims, the "-1x1" cubins)
#endif
#if KIND == 3
#define THREADS BM // two 16-pixel strips a warp
#else
#define THREADS ((BM / TM) * (BN / TN))
#endif

#define LA ((BM * BK + THREADS - 1) / THREADS) // im2col elements a thread loads per stage
#define LB ((BN * BK + THREADS - 1) / THREADS) // filter elements a thread loads per stage
#define PAD 4                                   // keeps rows 16-byte aligned, moves banks


template <int N>
__device__ __forceinline__ void lds_vec(float (&r)[N], const float *p)
{
	if (N % 4 == 0) {
#pragma unroll
		for (int i = 0; i < N; i += 4) {
			const float4 v = *reinterpret_cast<const float4 *>(p + i);
			r[i] = v.x, r[i + 1] = v.y, r[i + 2] = v.z, r[i + 3] = v.w;
		}
	} else {
#pragma unroll
		for (int i = 0; i < N; i += 2) {
			const float2 v = *reinterpret_cast<const float2 *>(p + i);
			r[i] = v.x, r[i + 1] = v.y;
		}
	}
}

template <int NHWC>
__device__ __forceinline__ void conv_body(const float *__restrict__ x, const float *__restrict__ w,
					  float *__restrict__ y, const conv_shape &d, float *__restrict__ W, int kc)
{
	__shared__ __align__(16) float As[2][BK][BM + PAD]; // the im2col tile, As[g][m]
	__shared__ __align__(16) float Bs[2][BK][BN + PAD]; // the filter tile, Bs[g][k]
	__shared__ i64 pix_base[BM];                        // image n's first element
	__shared__ int pix_h[BM], pix_w[BM];                // the pixel's top-left tap (h, w); far out if none
	const int tid = threadIdx.x;
	const i64 PQ = (i64)d.P * d.Q, NPQ = (i64)d.N * PQ;
	const int RS = d.R * d.S, CRS = d.C * RS;
	const i64 m0 = (i64)blockIdx.x * BM;
	const int k0 = blockIdx.y * BN;
	const int gbeg = blockIdx.z * kc, gend = gbeg + kc < CRS ? gbeg + kc : CRS;
	conv_pixels<BM, THREADS>(pix_base, pix_h, pix_w, d, m0);
	// the thread's adjacent pixels tm·TM.. and filters tn·TN..; neighbours differ in the index y is written
	// along
	const int tm = NHWC ? tid / (BN / TN) : tid % (BM / TM);
	const int tn = NHWC ? tid % (BN / TN) : tid / (BM / TM);
	float acc[TM][TN];
#pragma unroll
	for (int i = 0; i < TM; i++)
#pragma unroll
		for (int j = 0; j < TN; j++)
			acc[i][j] = 0.f;
	float ra[LA], rb[LB];
#if X2D
	// A 1x1 filter: tap g of output pixel m is channel g of one input pixel (h, w) = (p·stride_h - pad_h,
	// q·stride_w - pad_w), x[n][g][h][w] (NCHW) or x[n][h][w][g] (NHWC), or 0 where that pixel is in the padding;
	// and w[k][g]. Each element a thread loads is decoded once into its offset at the block's first channel
	// (xo, wo; xok, wok: in range), which each stage advances by BK channels: no division by R·S and S and no
	// read of the pixel tables per element and stage, as the general path has. Where whole groups of four fall
	// to each thread (XV, WV), a thread's elements are such groups: four pixels of one channel of x in NCHW,
	// four channels of one filter of w, read as one float4 where the layer allows it (xv: stride 1, no padding
	// and H·W a multiple of 4, so a group is four neighbours in one image, 16-byte aligned; wv: C and the
	// split's chunk multiples of 4), else one by one (docs/NOTES.md item 138). load() must be called for g0 =
	// gbeg, gbeg + BK, ... in turn, as the two-stage loop below does: the offsets advance a stage a call.
#define XV (!NHWC && (BM / 4 * BK) % THREADS == 0) // then LA = 4·(BM/4·BK/THREADS)
#define WV ((BN * BK / 4) % THREADS == 0)
	__builtin_assume(tid >= 0 && tid < THREADS); // the launch's block size: e < BM·BK holds where LA·THREADS = BM·BK
	const i64 xs = NHWC ? 1 : (i64)d.H * d.W; // from one channel to the next in x
	const bool xv = XV && xs % 4 == 0 && d.str_h == 1 && d.str_w == 1 && d.pad_h == 0 && d.pad_w == 0,
		   wv = WV && CRS % 4 == 0 && kc % 4 == 0;
	i64 xo[LA], wo[LB]; // offsets, not pointers: past the last channel they may point past the tensor, unread
	bool xok[LA], wok[LB];
#pragma unroll
	for (int i = 0; i < LA; i++) {
		const int e = tid + i * THREADS, q = tid + i / 4 * THREADS; // element e, or group q's element i % 4
		const int mm = XV ? q % (BM / 4) * 4 + i % 4 : NHWC ? e / BK : e % BM;
		const int gg = XV ? q / (BM / 4) : NHWC ? e % BK : e / BM;
		xok[i] = (XV || e < BM * BK) && (unsigned)pix_h[mm] < (unsigned)d.H && (unsigned)pix_w[mm] < (unsigned)d.W;
		xo[i] = xok[i] ? pix_base[mm] + ((i64)pix_h[mm] * d.W + pix_w[mm]) * (NHWC ? d.C : 1) + (gbeg + gg) * xs : 0;
	}
#pragma unroll
	for (int i = 0; i < LB; i++) {
		const int e = tid + i * THREADS, q = tid + i / 4 * THREADS;
		const int k = k0 + (WV ? q / (BK / 4) : e / BK), gg = WV ? q % (BK / 4) * 4 + i % 4 : e % BK;
		wok[i] = (WV || e < BN * BK) && k < d.K;
		wo[i] = wok[i] ? (i64)k * CRS + gbeg + gg : 0;
	}
	auto load = [&](int g0) {
#pragma unroll
		for (int i = 0; i < LA; i++) {
			const int e = tid + i * THREADS, q = tid + i / 4 * THREADS;
			const int g = g0 + (XV ? q / (BM / 4) : NHWC ? e % BK : e / BM);
			if (XV && xv) { // four neighbours of one image, past N·P·Q all or none (N·P·Q = N·H·W, a multiple of 4)
				if (i % 4 == 0) {
					const float4 v = xok[i] && g < gend ? __ldg(reinterpret_cast<const float4 *>(x + xo[i]))
									    : make_float4(0.f, 0.f, 0.f, 0.f);
					ra[i] = v.x, ra[i + 1] = v.y, ra[i + 2] = v.z, ra[i + 3] = v.w;
					xo[i] += BK * xs;
				}
			} else {
				ra[i] = xok[i] && g < gend ? x[xo[i]] : 0.f;
				xo[i] += BK * xs;
			}
		}
#pragma unroll
		for (int i = 0; i < LB; i++) {
			const int e = tid + i * THREADS, q = tid + i / 4 * THREADS;
			const int g = g0 + (WV ? q % (BK / 4) * 4 + i % 4 : e % BK);
			if (WV && wv) { // four channels of one filter, all below gend or none (C and the chunk multiples of 4)
				if (i % 4 == 0) {
					const float4 v = wok[i] && g < gend ? __ldg(reinterpret_cast<const float4 *>(w + wo[i]))
									    : make_float4(0.f, 0.f, 0.f, 0.f);
					rb[i] = v.x, rb[i + 1] = v.y, rb[i + 2] = v.z, rb[i + 3] = v.w;
					wo[i] += BK;
				}
			} else {
				rb[i] = wok[i] && g < gend ? w[wo[i]] : 0.f;
				wo[i] += BK;
			}
		}
	};
#else
	auto load = [&](int g0) {
#pragma unroll
		for (int i = 0; i < LA; i++) {
			const int e = tid + i * THREADS;
			const int mm = NHWC ? e / BK : e % BM, gg = NHWC ? e % BK : e / BM, g = g0 + gg;
			float v = 0.f;
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
			rb[i] = e < BN * BK && k < d.K && g < gend ? w[(i64)k * CRS + g] : 0.f;
		}
	};
#endif
	auto store = [&](int buf) {
#if X2D
		if (XV) { // group tid + i/4·THREADS: four pixels of one channel, a 16-byte piece of a row of As
#pragma unroll
			for (int i = 0; i < LA; i += 4) {
				const int q = tid + i / 4 * THREADS;
				*reinterpret_cast<float4 *>(&As[buf][q / (BM / 4)][q % (BM / 4) * 4]) =
					make_float4(ra[i], ra[i + 1], ra[i + 2], ra[i + 3]);
			}
		} else
#endif
		{
#pragma unroll
			for (int i = 0; i < LA; i++) {
				const int e = tid + i * THREADS;
				if (e < BM * BK)
					As[buf][NHWC ? e % BK : e / BM][NHWC ? e / BK : e % BM] = ra[i];
			}
		}
#pragma unroll
		for (int i = 0; i < LB; i++) {
			const int e = tid + i * THREADS, q = tid + i / 4 * THREADS;
#if X2D
			if (WV) { // group q: four channels of one filter
				Bs[buf][q % (BK / 4) * 4 + i % 4][q / (BK / 4)] = rb[i];
				continue;
			}
#endif
			(void)q;
			if (e < BN * BK)
				Bs[buf][e % BK][e / BK] = rb[i];
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
		for (int gg = 0; gg < BK; gg++) {
			float a[TM], b[TN];
			lds_vec<TM>(a, &As[buf][gg][tm * TM]);
			lds_vec<TN>(b, &Bs[buf][gg][tn * TN]);
#pragma unroll
			for (int i = 0; i < TM; i++)
#pragma unroll
				for (int j = 0; j < TN; j++)
					acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
		}
		if (more)
			store(buf ^ 1);
		__syncthreads();
		buf ^= 1;
	}
	const i64 mt = m0 + tm * TM;
	const int kt = k0 + tn * TN;
	if (gridDim.z == 1) {
		if (!NHWC && (TM == 2 || TM % 4 == 0) && PQ % TM == 0) {
			// the thread's TM pixels lie in one image, side by side in y (NCHW), at an index that is a
			// multiple of TM (mt and P·Q are), or all past N·P·Q: one float2 or float4 store a filter (y
			// must be 16-byte aligned, as cudaMalloc's allocations in conv.c are)
			if (mt >= NPQ)
				return;
			float *yt = y + conv_ypix<0>(d, PQ, mt) + (i64)kt * PQ;
#pragma unroll
			for (int j = 0; j < TN; j++) {
				if (kt + j >= d.K)
					break;
#pragma unroll
				for (int i = 0; i < TM; i += TM < 4 ? TM : 4) {
					if constexpr (TM == 2)
						conv_st2(yt + i, acc[i][j], acc[i + 1][j]);
					else
						conv_st4(yt + i, acc[i][j], acc[i + 1][j], acc[i + 2][j], acc[i + 3][j]);
				}
				yt += PQ;
			}
			return;
		}
#pragma unroll
		for (int i = 0; i < TM; i++) {
			const i64 m = mt + i;
			if (m >= NPQ)
				continue;
			const i64 yp = conv_ypix<NHWC>(d, PQ, m);
#pragma unroll
			for (int j = 0; j < TN; j++)
				if (kt + j < d.K)
					y[yp + (i64)(kt + j) * conv_ystep<NHWC>(PQ)] = acc[i][j];
		}
		return;
	}
	const i64 MK = NPQ * d.K;
	float *wz = W + (i64)blockIdx.z * MK;
#pragma unroll
	for (int i = 0; i < TM; i++)
#pragma unroll
		for (int j = 0; j < TN; j++)
			if (mt + i < NPQ && kt + j < d.K)
				wz[(mt + i) * d.K + kt + j] = acc[i][j];
}

#if KIND == 3
// ---- KIND 3: the direct kernel of conv_fp16.cu's KIND 3 (layers of C·R·S <= 512 taps) in 3xTF32 ----
// A block owns DP = BM/BK output rows of DQ = BK pixels of one image and BN filters; it copies the input patch
// under the tile (zeros in the padding) and its filters to shared memory, the filters split once into their TF32
// big parts and remainders (two planes), and each warp's two 16-pixel strips build mma.sync m16n8k8 TF32
// fragments from the patch through a table of the taps' offsets, splitting each x value as it is read: every
// product is small·big + big·small + big·big (3xTF32, as conv_split3 arranges for the wgmma kinds), summed in fp32.
// The reduction is in w's own order (KCRS or KRSC) padded with zero weights to Kt, a multiple of 8.
// Shared memory (dynamic; src/ops/conv/conv.c's direct_smem): the patch, C·TR·TC floats (rounded up to 4); the
// filters' two planes, BN rows of Kt + 4 floats each; the offsets, Kt ints. THREADS = BM (two strips a warp).
#define DQ BK
#define DP (BM / BK)
#define DMI 2
#define DNI (BN / 8)
#define DNW (THREADS / 32)
#define DU 4 // patch elements a thread loads a pass (8 made ptxas spill at BM 64)
static_assert(BM % BK == 0 && BK % 16 == 0 && BM == 32 * DNW, "direct: DP rows of DQ pixels, two 16-pixel strips a warp");
static_assert(BN % 8 == 0 && BN % DNW == 0, "direct: whole n8 tiles; each warp copies BN/DNW filter rows");

__device__ __forceinline__ unsigned tf32_bits(float v)
{
	unsigned u;
	asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(u) : "f"(v));
	return u;
}

__device__ __forceinline__ void mma1688(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
	asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
		     "{%0,%1,%2,%3};\n"
		     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// the same from a zero accumulator
__device__ __forceinline__ void mma1688_0(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
	asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
		     "{%10,%10,%10,%10};\n"
		     : "=f"(c[0]), "=f"(c[1]), "=f"(c[2]), "=f"(c[3])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1), "f"(0.f));
}

// the epilogue's stores (conv_common.cu's conv_direct_store)
struct direct_put {
	static __device__ __forceinline__ void two(float *p, float a, float b)
	{
		*reinterpret_cast<float2 *>(p) = make_float2(a, b);
	}
	static __device__ __forceinline__ void one(float *p, float a)
	{
		*p = a;
	}
};

template <int NHWC>
__device__ __forceinline__ void conv_body_direct(const float *__restrict__ x, const float *__restrict__ w,
						 float *__restrict__ y, const conv_shape &d)
{
	extern __shared__ __align__(16) float dsm[];
	const int TR = (DP - 1) * d.str_h + (d.R - 1) * d.dil_h + 1, TC = (DQ - 1) * d.str_w + (d.S - 1) * d.dil_w + 1;
	const int CRS = d.C * d.R * d.S, Kt = (CRS + 7) & ~7, WP = Kt + 4; // WP: a filter row, 16 bytes of padding
	const int RL = NHWC ? TC * d.C : TC, NR = NHWC ? TR : d.C * TR;   // the patch: NR rows of RL elements
	const int patch = NR * RL;
	float *xs = dsm;
	float *wb = xs + ((patch + 3) & ~3), *wsm = wb + BN * WP; // the filters' big parts and remainders
	int *off = reinterpret_cast<int *>(wsm + BN * WP);

	const int qt = (d.Q + DQ - 1) / DQ, pt = (d.P + DP - 1) / DP, k0 = blockIdx.y * BN;
	const int t = blockIdx.x; // the tile: image n, output rows p0.., columns q0..
	const int n = t / (qt * pt), pq = t % (qt * pt), p0 = pq / qt * DP, q0 = pq % qt * DQ;
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	// The tile's patch, element e = row·RL + j, DU elements a thread a pass: load(e0, v) then put(e0, v).
	const int ih0 = p0 * d.str_h - d.pad_h, iw0 = q0 * d.str_w - d.pad_w;
	const int jlo = (iw0 < 0 ? -iw0 : 0) * d.C, jhi = (d.W - iw0 < TC ? d.W - iw0 : TC) * d.C; // NHWC: in the image
	auto load = [&](int e0, float (&v)[DU]) {
#pragma unroll
		for (int u = 0; u < DU; u++) {
			const int e = e0 + u * THREADS + threadIdx.x, row = e / RL, j = e - row * RL;
			v[u] = 0.f;
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
	auto put = [&](int e0, const float (&v)[DU]) {
#pragma unroll
		for (int u = 0; u < DU; u++) {
			const int e = e0 + u * THREADS + threadIdx.x;
			if (e < patch)
				xs[e] = v[u];
		}
	};
	// The filters: w[k0 + kk][k] for k < Kt, a warp a row at a time, zeros past CRS and past K, split as put.
	auto load_w = [&](int k, float (&v)[BN / DNW]) {
#pragma unroll
		for (int i = 0; i < BN / DNW; i++) {
			const int kk = warp + i * DNW;
			v[i] = k < CRS && k0 + kk < d.K ? w[(i64)(k0 + kk) * CRS + k] : 0.f;
		}
	};
	auto put_w = [&](int k, const float (&v)[BN / DNW]) {
		if (k < Kt)
#pragma unroll
			for (int i = 0; i < BN / DNW; i++) {
				const float big = __uint_as_float(tf32_bits(v[i]));
				wb[(warp + i * DNW) * WP + k] = big;
				wsm[(warp + i * DNW) * WP + k] = __uint_as_float(tf32_bits(v[i] - big));
			}
	};

	// both copies' first passes in flight together, the taps' offsets computed while they come, then the rest
	float pv[DU], wv[BN / DNW];
	load(0, pv);
	load_w(lane, wv);
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
	put_w(lane, wv);
	for (int e0 = THREADS * DU; e0 < patch; e0 += THREADS * DU) {
		load(e0, pv);
		put(e0, pv);
	}
	for (int k = lane + 32; k < Kt; k += 32) {
		load_w(k, wv);
		put_w(k, wv);
	}
	__syncthreads();

	const int gid = lane / 4, t4 = lane % 4;
	int base[DMI]; // pixel gid of each of the warp's strips: its first tap's element (gid + 8: + step8)
#pragma unroll
	for (int i = 0; i < DMI; i++) {
		const int strip = warp * DMI + i, pr = strip / (DQ / 16), pc = strip % (DQ / 16) * 16 + gid;
		base[i] = pr * d.str_h * RL + pc * d.str_w * cs;
	}
	const int step8 = 8 * d.str_w * cs;
	// A step's three products summed by the tensor cores from zero, then added to acc with one FADD: the tensor
	// cores' fp32 accumulation truncates, so three mma roundings a step into the running sum grew the error
	// with C·R·S past fp32's tolerance (C·R·S 288 and more: run75); a second accumulator for the small
	// products fixed that but cost registers and a block per SM (run76).
	float acc[DMI][DNI][4];
#pragma unroll
	for (int i = 0; i < DMI; i++)
#pragma unroll
		for (int j = 0; j < DNI; j++)
#pragma unroll
			for (int e = 0; e < 4; e++)
				acc[i][j][e] = 0.f;
	for (int kb = 0; kb < Kt; kb += 8) {
		const int o0 = off[kb + t4], o4 = off[kb + t4 + 4];
		unsigned bb[DNI][2], bs[DNI][2];
#pragma unroll
		for (int j = 0; j < DNI; j++) {
			const int at = (j * 8 + gid) * WP + kb + t4;
			bb[j][0] = __float_as_uint(wb[at]);
			bb[j][1] = __float_as_uint(wb[at + 4]);
			bs[j][0] = __float_as_uint(wsm[at]);
			bs[j][1] = __float_as_uint(wsm[at + 4]);
		}
#pragma unroll
		for (int i = 0; i < DMI; i++) {
			const float *xa = xs + base[i], *xb = xa + step8;
			const float v[4] = {xa[o0], xb[o0], xa[o4], xb[o4]};
			unsigned ab[4], as[4];
#pragma unroll
			for (int e = 0; e < 4; e++) {
				ab[e] = tf32_bits(v[e]);
				as[e] = tf32_bits(v[e] - __uint_as_float(ab[e]));
			}
#pragma unroll
			for (int j = 0; j < DNI; j++) {
				float t[4];
				mma1688_0(t, as, bb[j][0], bb[j][1]);
				mma1688(t, ab, bs[j][0], bs[j][1]);
				mma1688(t, ab, bb[j][0], bb[j][1]);
#pragma unroll
				for (int e = 0; e < 4; e++)
					acc[i][j][e] += t[e];
			}
		}
	}

	conv_direct_store<NHWC, DMI, DNI, DQ, direct_put, 0>(acc, y, d, n, p0, q0, k0, warp, lane);
}
#endif // KIND == 3

#define CONV_ARGS                                                                                        \
	const float *__restrict__ x, const float *__restrict__ w, float *__restrict__ y, conv_shape d,     \
		float *__restrict__ W, int kc
#define CONV_PASS x, w, y, d, W, kc

// KIND 3 with 32 filters a block: at most 80 registers, so that 3 blocks of 256 threads (6 of 128) fit an SM, as
// the kernel had them before its FADD a step (98 registers: 2 blocks, 10-17% slower on the few-tap rows, run76)
#if KIND == 3 && BN == 32
#define CONV_MINB (65536 / (THREADS * 80))
#else
#define CONV_MINB 1
#endif

extern "C" __global__ void __launch_bounds__(THREADS, CONV_MINB) conv_nchw(CONV_ARGS)
{
	conv_let_reduce_start();
	conv_wait_prior();
#if KIND == 3
	ONLY(LAYOUT_NCHW, conv_body_direct<0>(x, w, y, d));
#else
	ONLY(LAYOUT_NCHW, conv_body<0>(CONV_PASS));
#endif
}

extern "C" __global__ void __launch_bounds__(THREADS, CONV_MINB) conv_nhwc(CONV_ARGS)
{
	conv_let_reduce_start();
	conv_wait_prior();
#if KIND == 3
	ONLY(LAYOUT_NHWC, conv_body_direct<1>(x, w, y, d));
#else
	ONLY(LAYOUT_NHWC, conv_body<1>(CONV_PASS));
#endif
}
#endif // !TF32

// 3xTF32: v = big + rest with big = tf32(v) (round to nearest, ties away) and small = tf32(rest) (rest = v -
// big is exact in fp32); the product a·b is big_a·big_b + big_a·small_b + small_a·big_b up to small_a·small_b
// (2^-22 relative) and the rounding of small. conv_split3 writes the copies that make one TF32 convolution of
// them those three: x' (role 0) has channels big(c), big(c), small(c); w' (role 1) big(c), small(c), big(c);
// then zeros up to Cp (a multiple of 32: a k-tile of the TF32 kernels is 32 channels of one tap). in is images
// x C x HW (NCHW, KCRS) or images x HW x C (src_nhwc: NHWC, KRSC); out is images x HW x Cp. NCHW sources go
// through conv_common.cu's conv_nchw_walk (a 32 x 32 tile in shared memory where HW >= 32), as conv_to_nhwc;
// 32 x 8 threads.
__device__ __forceinline__ float tf32_of(float v)
{
	unsigned u;
	asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(u) : "f"(v));
	return __uint_as_float(u);
}

__device__ __forceinline__ void split3_put(float *o, int C, float v, int role)
{
	const float big = tf32_of(v), small = tf32_of(v - big);
	o[0] = big;
	o[C] = role ? small : big;
	o[2 * C] = role ? big : small;
}

extern "C" __global__ void __launch_bounds__(256) conv_split3(const float *__restrict__ in, float *__restrict__ out,
							      int images, int C, int HW, int Cp, int src_nhwc, int role)
{
	const int tid = threadIdx.y * 32 + threadIdx.x;
	if (src_nhwc) { // one source element a thread, grid-stride
		const i64 total = (i64)images * HW * C, step = (i64)gridDim.x * 256;
		for (i64 e = (i64)blockIdx.x * 256 + tid; e < total; e += step) {
			const i64 pix = e / C; // image · HW + i
			split3_put(out + pix * Cp + (e - pix * C), C, in[e], role);
		}
	} else {
		conv_nchw_walk(in, images, C, HW,
			       [&](i64 pix, int c, float v) { split3_put(out + pix * Cp + c, C, v, role); });
	}
	// the zero channels 3C .. Cp of every pixel (written once, by the grid's first blocks in turn)
	const int zc = Cp - 3 * C;
	if (zc > 0) {
		const i64 nb = (i64)gridDim.x * gridDim.y * gridDim.z;
		const i64 b = ((i64)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
		const i64 total = (i64)images * HW * zc;
		for (i64 e = b * 256 + tid; e < total; e += nb * 256) {
			const i64 pix = e / zc;
			out[pix * Cp + 3 * C + (int)(e - pix * zc)] = 0.f;
		}
	}
}

CONV_REDUCE_KERNEL(float, float, v)
