// gemm_fp32.cu — C = op(A) · op(B) in fp32, column-major as in cuBLAS (DeepBench's convention).
//
// Four kernel families, chosen by KIND: 0 the tile kernel (FFMA from shared-memory tiles), 3 the same tile with
// its stages filled by TMA (sm_90; NN and NT), 2 the skinny kernel for a few columns of C (at the end of the file, with
// its own tunables and constraints), 1 3xTF32 on the tensor cores: gemm_wgmma.cu, which the op appends to this
// file, in TF32 (PREC_TF32), run on the copies split3 writes.
// Tile tunables (each has a default below, so this file compiles alone):
//   BM, BN   rows / columns of C computed by one thread block
//   BK       depth of one k-step held in shared memory (double-buffered)
//   TM, TN   rows / columns of C computed by one thread (TM a multiple of 4, TN of 2)
//   GM       block tiles along M grouped together so neighbours share B in L2
// Constraints (checked by the host before compiling, see src/ops/gemm/gemm.c):
//   BM % TM == 0, BN % TN == 0; threads = (BM/TM)·(BN/TN) in [64, 256] (a power of two, so it covers
//   whole lines of every tile: see tile_loader)
//   shared memory 2·(BK·(BM+4 + BN+4) + 2·SKEW_MAX)·4 bytes within the static 48 KiB (SKEW_MAX: 0, 8 or 12
//   floats at BK 8, 16, 32)
// Run-time arguments, so one compiled candidate serves every shape:
//   M, N, K, leading dimensions, k_chunk (split-K: block z covers k in [z·k_chunk, (z+1)·k_chunk),
//   a multiple of BK),
//   and which operands may be read as float4 (leading dimension a multiple of 4).
// Kernels: gemm_nn, gemm_nt, gemm_tn, gemm_tt (n: as stored, t: transposed, for A then B). With split-K
// (gridDim.z > 1) partial products go to the workspace W and the last split of each tile to finish sums
// them in a fixed order (deterministic) using one counter per tile in `counters` (zero before and after).
// Index arithmetic is 64-bit: M·K, K·N and M·N may pass 2^31.

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

// KIND picks the kernel family: 0 (or undefined) the tile kernel below, 3 the same tile fed by the tensor copy
// engine (TMA, sm_90; gemm_nn and gemm_nt, the other layouts through transposed copies), 2 the skinny kernel at
// the end of the file (few columns of C: GEMV-like rows), 1 gemm_wgmma.cu's kernel in TF32.
#ifndef KIND
#define KIND 0
#endif

typedef long long i64;

// ---- split3: 3xTF32's copies of one operand (every family's module has it; the host runs it for A and for B,
// inside the timed launch, before a KIND 1 kernel) ----
// x is the operand as stored (column-major, leading dimension ld): kmaj 1, element (line l, depth k) at
// x[l·ld + k] (A 't', B 'n'); 0, at x[k·ld + l] (A 'n', B 't'). Lines are rows of op(A) or columns of op(B).
// p gets lines of 3·kp floats (kp: K rounded up to a multiple of 4, so every copy's line is 16-byte aligned),
// three parts of kp each: with big = tf32(v) and small = tf32(v - big) (cvt.rna; v - big is exact in fp32),
// A's parts are (small, big, big) and B's (b_order 1) (big, small, big), so the one TF32 product of the copies
// over 3·kp is small·big + big·small + big·big: 3xTF32 (the small·small term, about 2^-22 relative, is what it
// drops), the small terms summed first. Zeros at k in [K, kp). Grid (ceil(kp/32), ceil(lines/32)), block
// (32, 8): a 32 x 32 tile through shared memory, read along whichever dimension x has contiguous.
// inter 1 (gemm_wgmma.cu's ASPLIT): kp a multiple of 32 and the parts interleaved 32 depths at a time, depth k
// of part j at (k / 32) * 96 + j * 32 + k % 32 of the line; inter 2: one part, v as it is (no rounding), at k:
// a K-major copy of A, zeros from K to kp, that ASPLIT's kernel splits itself; inter 3 (ASPLIT 2): kp a multiple of
// 32 and two parts, big and small, interleaved 32 depths at a time, depth k of part j at (k / 32) * 64 + j * 32 +
// k % 32 of a line of 2·kp, for A and B alike (the kernel pairs the parts itself).
__device__ __forceinline__ float tf32_round(float v)
{
	unsigned u;
	asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(u) : "f"(v));
	return __uint_as_float(u);
}

extern "C" __global__ void __launch_bounds__(256) split3(const float *__restrict__ x, i64 ld, int kmaj, i64 lines,
							  i64 K, i64 kp, int b_order, int inter, float *__restrict__ p)
{
	__shared__ float tile[32][33]; // [line][k]
	const int tx = threadIdx.x, ty = threadIdx.y;
	const i64 k0 = (i64)blockIdx.x * 32, l0 = (i64)blockIdx.y * 32;
	for (int j = ty; j < 32; j += 8) {
		const i64 l = kmaj ? l0 + j : l0 + tx, k = kmaj ? k0 + tx : k0 + j;
		const float v = l < lines && k < K ? (kmaj ? x[l * ld + k] : x[k * ld + l]) : 0.f;
		if (kmaj)
			tile[j][tx] = v;
		else
			tile[tx][j] = v;
	}
	__syncthreads();
	for (int j = ty; j < 32; j += 8) {
		const i64 l = l0 + j, k = k0 + tx;
		if (l >= lines || k >= kp)
			continue;
		const float v = tile[j][tx], big = tf32_round(v), small = tf32_round(v - big);
		if (inter == 2) {
			p[l * kp + k] = v;
			continue;
		}
		if (inter == 3) { // two parts, big then small, interleaved 32 depths at a time (gemm_wgmma.cu's ASPLIT 2)
			float *o = p + l * 2 * kp + k / 32 * 64 + k % 32;
			o[0] = big;
			o[32] = small;
			continue;
		}
		const i64 step = inter ? 32 : kp; // from one part to the next
		float *o = p + l * 3 * kp + (inter ? k / 32 * 96 + k % 32 : k);
		o[0] = b_order ? big : small;
		o[step] = b_order ? small : big;
		o[2 * step] = big;
	}
}

// ---- transpose: an operand copied into the layout KIND 3 reads, A on TN and TT problems, B on NN and TN ones
// with M >= 1024 (the host runs it inside the timed launch, before the tile kernel) ----
// x is rows x cols, column-major (leading dimension ld); y gets its transpose, cols x rows, column-major (leading
// dimension ldy >= cols; y's rows from cols to ldy are not written: the tensor maps stop at cols). Grid
// (ceil(rows/32), ceil(cols/32)), block (32, 8): a 32 x 32 tile through shared memory, read and written along
// the contiguous dimension of each.
extern "C" __global__ void __launch_bounds__(256) transpose(const float *__restrict__ x, i64 ld, i64 rows, i64 cols,
							     float *__restrict__ y, i64 ldy)
{
	__shared__ float tile[32][33]; // [col][row]
	const int tx = threadIdx.x, ty = threadIdx.y;
	const i64 r0 = (i64)blockIdx.x * 32, c0 = (i64)blockIdx.y * 32;
	for (int j = ty; j < 32; j += 8)
		if (r0 + tx < rows && c0 + j < cols)
			tile[j][tx] = x[(c0 + j) * ld + r0 + tx];
	__syncthreads();
	for (int j = ty; j < 32; j += 8)
		if (c0 + tx < cols && r0 + j < rows)
			y[(r0 + j) * ldy + c0 + tx] = tile[tx][j];
}

#if KIND == 1
#define PREC_TF32 1 // gemm_wgmma.cu's kernel, appended by the op
#else
#define GEMM_ARGS                                                                                        \
	i64 M, i64 N, i64 K, const float *__restrict__ A, i64 lda, const float *__restrict__ B, i64 ldb,   \
		float *__restrict__ C, i64 ldc, float *__restrict__ W, unsigned *__restrict__ counters,       \
		i64 k_chunk, int vec_a, int vec_b, int vec_c
#define GEMM_PASS M, N, K, A, lda, B, ldb, C, ldc, W, counters, k_chunk, vec_a, vec_b, vec_c

// The tile and skinny kernels are programmatic dependent launches on sm_90 (src/ops/gemm/gemm.c's gemm_launch):
// each block first lets the kernel after it on the stream start, then waits, before its first access to global
// memory, for the kernel before it to finish and its writes (C, W, the counters) to be visible. A launch and its
// blocks' start overlap the tail of the kernel before; the next grid's blocks are placed only once every block of
// this one has run the trigger, so they take no SM from this grid's later waves.
__device__ __forceinline__ void gemm_overlap_prior()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
	asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
	asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Split-K, both families: once a block's partial products are in W, whether it is the last split of its tile to
// arrive (every thread of the block calls it; flag is a __shared__ word). That block then sums the partials
// (splitk_sum) and leaves the tile's counter at zero for the next launch.
__device__ __forceinline__ bool splitk_last(unsigned *counters, unsigned &flag)
{
	__threadfence();
	__syncthreads();
	if (threadIdx.x == 0)
		flag = atomicAdd(&counters[blockIdx.x], 1u) == gridDim.z - 1;
	__syncthreads();
	if (!flag)
		return false;
	__threadfence();
	return true;
}

// C(row, col) as the splits' partials summed in the order z = 0, 1, ... (W: one M x N slab per split, ld M), so
// the result does not depend on which split finished first.
__device__ __forceinline__ float splitk_sum(const float *W, i64 M, i64 N, i64 row, i64 col)
{
	float sum = 0.f;
	for (unsigned z = 0; z < gridDim.z; z++)
		sum += __ldcg(W + z * (M * N) + col * M + row);
	return sum;
}
#endif // KIND != 1

#if KIND == 0 || KIND == 3

#ifndef BM
#define BM 64 // rows of C per block
#endif
#ifndef BN
#define BN 64 // columns of C per block
#endif
#ifndef BK
#define BK 8 // k-depth per shared-memory stage
#endif
#ifndef TM
#define TM 8 // rows of C per thread
#endif
#ifndef TN
#define TN 4 // columns of C per thread
#endif
#ifndef GM
#define GM 8 // M-tiles per group in the block order
#endif

#define THREADS ((BM / TM) * (BN / TN))
// The order of a k step's FMAs, and how C leaves registers, decide how often an FFMA finds two of its three
// source registers in one of the register file's two banks (reg % 2) with neither in the operand-reuse cache:
// the dispatch stalls that ncu counted at 0.36 an issue against cuBLAS's 0.10 (docs/NOTES.md items 132, 251).
// SERPENTINE (tiles of 8 x 8 or more a thread): b[j] held while a's column is walked, down for one j and up for
// the next, so the a[i] at each turn is read again at once (two cached operands there), and C stored an element
// at a time, which frees ptxas to put each accumulator in the bank its FMAs need (float4 stores tie a
// thread's four rows of C to an aligned quad, the same parity as A's fragment). sass_bank.py's two-bank port
// model: 0.16-0.28 extra cycles an FFMA -> 0.08-0.14 for these tiles in all four layouts (item 252); the 4 x 8
// and 8 x 4 tiles gain nothing from it and keep the row-major order and float4 stores. The sums are the same
// in the same order of k, so the results are the same bits.
#define SERPENTINE (TM == 8 && TN >= 8)

// One depth of the thread's outer product: acc += a b^T, in SERPENTINE's order where it applies. kk: the depth
// (a constant once the caller's loops unroll), whose parity turns the walk.
__device__ __forceinline__ void fma_step(float (&acc)[TM][TN], const float (&a)[TM], const float (&b)[TN], int kk)
{
#if SERPENTINE
#pragma unroll
	for (int j = 0; j < TN; j++)
#pragma unroll
		for (int ii = 0; ii < TM; ii++) {
			const int i = (j + kk) % 2 ? TM - 1 - ii : ii;
			acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
		}
#else
#pragma unroll
	for (int i = 0; i < TM; i++)
#pragma unroll
		for (int j = 0; j < TN; j++)
			acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
#endif
}
#define PAD 4 // keeps float4 alignment and breaks the bank pattern of transposed stores
#define LDS_A (BM + PAD)
#define LDS_B (BN + PAD)
// A stage holds depth k of a tile at s[k * LDS + SKEW(k) + row]: the lines of each group of 8 depths are shifted
// by 128/BK floats more than the group before (BK 16: 0, 8; BK 32: 0, 4, 8, 12; BK 8: none), so the transposing
// stores of an operand contiguous along k (a warp writes 128/BK rows at each of BK/4 depths 4 apart; with LDS a
// multiple of 4 the depths 8 apart fell on the same banks: two-way conflicts at BK 16, four-way at BK 32) reach
// 32 different banks. The shift is the same for every lane at a depth, so the fragment loads stay whole 16-byte
// chunks in distinct banks, and it grows with k, so no line overlaps the next. SKEW_MAX: the largest.
#define SKEW(k) ((k) / 8 % (BK / 8) * (128 / BK))
#define SKEW_MAX SKEW(BK - 1)
#define STAGE_A (BK * LDS_A + SKEW_MAX)
#define STAGE_B (BK * LDS_B + SKEW_MAX)

// Which elements of C a thread computes (warp tiling). A warp's lanes form LM x LN (LM along M), and the block's
// warps WARPS_M down M by the rest across N. A thread's TM rows are TM/4 chunks of 4 rows, LM*4 apart; its TN
// columns are TN/CN chunks of CN, LN*CN apart. So at each k the LM lanes of a column read LM consecutive 16-byte chunks of A's stage (one
// shared-memory wavefront for 8) and a warp reads its A and B fragments in TM/4 + TN/CN such loads: about a
// quarter of the wavefronts of a thread tile of consecutive rows (a warp of 32 threads down M read 512 bytes of
// A per load, four wavefronts, while the B loads were broadcasts), which left the FFMA pipes waiting on shared
// memory. LM is 8 where a block has 8 threads down M and 4 across N; where it has fewer across N, LM grows so
// that LM*LN = 32 (threads (BM/TM)*(BN/TN) >= 64 and both powers of two: some LM, LN always divide them).
#define CN (TN < 4 ? TN : 4)
#define TPM (BM / TM) // threads down M
#define TPN (BN / TN) // threads across N
#define LM0 (TPM < 8 ? TPM : 8)
#define LM (32 / LM0 > TPN ? 32 / TPN : LM0)
#define LN (32 / LM)
#define WARPS_M (TPM / LM)
static_assert(TPM % LM == 0 && TPN % LN == 0 && LM * LN == 32, "a warp's lanes must tile the block's threads");

// offsets of a thread's i-th row and j-th column from its first (tm0, tn0)
__device__ __forceinline__ int row_of(int i) { return i / 4 * (LM * 4) + i % 4; }
__device__ __forceinline__ int col_of(int j) { return j / CN * (LN * CN) + j % CN; }

// Moves BK-deep tiles of one operand from global memory to registers to shared memory. ROWS is the tile's
// extent along M (for A) or N (for B). CONTIG_K: the operand is contiguous along k (A transposed, B as
// stored); otherwise it is contiguous along M/N. Each thread owns PER_THREAD float4 vectors whose addresses
// differ by a fixed stride, so one 64-bit base pointer per thread, advanced once per k-tile, addresses
// them all; bounds are checked only on edge tiles, where out-of-range elements read as zero.
template <int ROWS, bool CONTIG_K>
struct tile_loader {
	static constexpr int NVEC = ROWS * BK / 4;
	static constexpr int PER_THREAD = (NVEC + THREADS - 1) / THREADS;
	// vectors per "line" along the contiguous dimension, and lines advanced from one vector to the next
	static constexpr int LINE = CONTIG_K ? BK / 4 : ROWS / 4;
	static constexpr int LINES_PER_STEP = THREADS / LINE;
	static_assert(THREADS % LINE == 0, "threads must cover whole lines");

	float4 v[PER_THREAD];
	const float *base; // this thread's first vector at the current k-tile
	i64 step;          // from one of its vectors to the next
	int row, kk;       // of the first vector within the tile

	__device__ __forceinline__ void init(const float *p, i64 ld, i64 row0, i64 k0, int tid)
	{
		row = CONTIG_K ? tid / LINE : (tid % LINE) * 4;
		kk = CONTIG_K ? (tid % LINE) * 4 : tid / LINE;
		base = CONTIG_K ? p + (row0 + row) * ld + (k0 + kk) : p + (k0 + kk) * ld + (row0 + row);
		step = (i64)LINES_PER_STEP * ld;
	}
	__device__ __forceinline__ void advance(i64 ld)
	{
		base += CONTIG_K ? (i64)BK : (i64)BK * ld;
	}
	__device__ __forceinline__ static bool valid(int r, int tid)
	{
		return NVEC % THREADS == 0 || tid + r * THREADS < NVEC;
	}
	// Whole tile in range and 16-byte aligned: no checks at all.
	__device__ __forceinline__ void load_fast(int tid)
	{
#pragma unroll
		for (int r = 0; r < PER_THREAD; r++)
			if (valid(r, tid))
				v[r] = __ldg(reinterpret_cast<const float4 *>(base + r * step));
	}
	// Whole tile in range but rows not 16-byte aligned (a leading dimension not a multiple of 4, as N = 7133 in
	// DeepBench's NT rows): four unchecked scalar loads a vector. Without this, such problems took load_edge on
	// every tile, and its bounds checks cost about 200 instructions a warp per k-tile (ncu, run36).
	__device__ __forceinline__ void load_fast_scalar(int tid)
	{
#pragma unroll
		for (int r = 0; r < PER_THREAD; r++)
			if (valid(r, tid)) {
				const float *src = base + r * step;
				v[r] = make_float4(__ldg(src), __ldg(src + 1), __ldg(src + 2), __ldg(src + 3));
			}
	}
	// Edge tile: rows beyond `rows`, k beyond `kend` read as zero; vec says whether float4 is allowed.
	__device__ __forceinline__ void load_edge(i64 row0, i64 rows, i64 k0, i64 kend, bool vec, int tid)
	{
#pragma unroll
		for (int r = 0; r < PER_THREAD; r++) {
			v[r] = make_float4(0.f, 0.f, 0.f, 0.f);
			if (!valid(r, tid))
				continue;
			const i64 gr = row0 + row + (CONTIG_K ? r * LINES_PER_STEP : 0);
			const i64 gk = k0 + kk + (CONTIG_K ? 0 : r * LINES_PER_STEP);
			const float *src = base + r * step;
			float *e = &v[r].x;
			// the vector runs along the contiguous dimension (pos..pos+3, bounded by lim); its line
			// (the other coordinate) is either wholly in range or wholly out
			const bool line_ok = CONTIG_K ? gr < rows : gk < kend;
			const i64 pos = CONTIG_K ? gk : gr, lim = CONTIG_K ? kend : rows;
			if (!line_ok)
				continue;
			if (vec && pos + 3 < lim) {
				v[r] = *reinterpret_cast<const float4 *>(src);
			} else {
#pragma unroll
				for (int u = 0; u < 4; u++)
					e[u] = pos + u < lim ? src[u] : 0.f;
			}
		}
	}
	// Shared layout is k-major: s[kk * LDS + SKEW(kk) + row].
	template <int LDS>
	__device__ __forceinline__ void store(float *s, int tid) const
	{
#pragma unroll
		for (int r = 0; r < PER_THREAD; r++) {
			if (!valid(r, tid))
				continue;
			const int rr = row + (CONTIG_K ? r * LINES_PER_STEP : 0);
			const int k = kk + (CONTIG_K ? 0 : r * LINES_PER_STEP);
			if (CONTIG_K) {
				float *d = s + SKEW(k) + rr; // k is a multiple of 4: one skew for all four
				d[(k + 0) * LDS] = v[r].x;
				d[(k + 1) * LDS] = v[r].y;
				d[(k + 2) * LDS] = v[r].z;
				d[(k + 3) * LDS] = v[r].w;
			} else {
				*reinterpret_cast<float4 *>(&s[k * LDS + SKEW(k) + rr]) = v[r];
			}
		}
	}
};

// Writes this thread's TM×TN results to a column-major matrix (float4 along M where aligned and in range, but
// element by element with SERPENTINE); (m0, n0) is its first element, the others at row_of and col_of from it.
__device__ __forceinline__ void store_tile(float (&acc)[TM][TN], float *dst, i64 ld, i64 M, i64 N, i64 m0, i64 n0,
					   bool vec)
{
#pragma unroll
	for (int j = 0; j < TN; j++) {
		const i64 col = n0 + col_of(j);
		if (col >= N)
			continue;
#pragma unroll
		for (int i = 0; i < TM; i += 4) {
			const i64 row = m0 + row_of(i);
			float *d = dst + col * ld + row;
			if (!SERPENTINE && vec && row + 3 < M) {
				*reinterpret_cast<float4 *>(d) = make_float4(acc[i][j], acc[i + 1][j], acc[i + 2][j], acc[i + 3][j]);
			} else {
#pragma unroll
				for (int u = 0; u < 4; u++)
					if (row + u < M)
						d[u] = acc[i + u][j];
			}
		}
	}
}

#if KIND == 3
// ---- KIND 3: KIND 0's thread tile, its FMA order and its epilogue, fed by the tensor copy engine ----
// KIND 0's threads load the next k-tile into registers, store it to shared memory and meet at a barrier: run52's
// ncu found 27% of its stall samples in that block, and a probe without it (docs/results/gemm_fp32/
// tma_ffma_probe.cu: run62, run64) ran 0.93-1.02x of cuBLAS on the rows where KIND 0 is weakest. Here thread 0
// issues two TMA boxes a k-tile into a ring of STAGES stages, each completing on its mbarrier: A's box is BK
// lines of BM floats as A lies in memory ([k][m]), B's BN lines of BK floats ([n][k]); zeros outside the
// matrices, so there are no edge paths. A lane reads four depths of one of its columns of B in one LDS.128, and
// a depth of four of its rows of A in another; a quarter-warp reads one 128-byte line of A, and one address of
// B (a broadcast). B transposed (NT, TT: contiguous along N) is read as stored, like A: its box is BK lines of
// BN floats ([k][n]), and a lane reads a depth of four of its columns in one LDS.128 (gemm_nt). The host's
// tensor maps (src/ops/gemm/gemm.c) need lda and ldb multiples of 4 (16-byte strides). A transposed A (TN, TT)
// is first copied by transpose into NN's layout, its leading dimension rounded up to a multiple of 4; a
// transposed B whose N is not a multiple of 4 into lines so padded; and from M = 1024 (gemm.c's TMA_XB_MIN_M,
// where that loop's speed pays for the copy) B as stored, by transpose, into [k][n] lines for gemm_nt. So below
// M = 1024 NN needs M and K multiples of 4 and TN K; from it NN needs M; NT needs M; TT nothing.
#ifndef STAGES
#define STAGES 4
#endif
#define STAGE_FLOATS ((BM + BN) * BK)
static_assert(TM % 4 == 0 && TN % 4 == 0 && BK % 4 == 0 && BM <= 256 && BN <= 256 && BK <= 256,
	      "whole float4s; TMA boxes of at most 256 elements a side");

struct __align__(64) tmap3_t { // a CUtensorMap (128 opaque bytes), passed by value as a __grid_constant__
	unsigned long long v[16];
};

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void tma_box(unsigned dst, const tmap3_t *map, int x, int y, unsigned bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
		     " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
		     "l"(reinterpret_cast<unsigned long long>(map)), "r"(x), "r"(y), "r"(bar)
		     : "memory");
}

__device__ __forceinline__ void mbar_wait_parity(unsigned bar, unsigned parity)
{
	asm volatile("{\n.reg .pred done;\nWAIT_%=:\n"
		     "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
		     "@!done bra WAIT_%=;\n}\n" ::"r"(bar),
		     "r"(parity)
		     : "memory");
}

// acc += this block's rows m0.. and columns n0.. of A[:, kbeg:kend] B[kbeg:kend, :], the thread's elements at tr
// + row_of(i), tc + col_of(j); TB: B's box [n][k] (0) or [k][n] (1). Dynamic shared memory: STAGES stages and
// 1024 bytes to align the first.
template <int TB>
__device__ __forceinline__ void tma_mainloop(float (&acc)[TM][TN], const tmap3_t *tma, const tmap3_t *tmb, i64 m0,
					     i64 n0, i64 kbeg, i64 kend, int tr, int tc, int tid)
{
	extern __shared__ __align__(16) float dsm[];
	__shared__ __align__(8) unsigned long long full[STAGES];
	const int ntiles = kend > kbeg ? (int)((kend - kbeg + BK - 1) / BK) : 0;
	const unsigned base = (smem_addr(dsm) + 1023u) & ~1023u, fb = smem_addr(full);
	if (tid == 0) {
		asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<unsigned long long>(tma)) : "memory");
		asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<unsigned long long>(tmb)) : "memory");
		for (int s = 0; s < STAGES; s++)
			asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(fb + 8 * s) : "memory");
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	__syncthreads();
	auto issue = [&](int t) { // k-tile t into stage t % STAGES (thread 0)
		const int s = t % STAGES;
		const unsigned dst = base + s * STAGE_FLOATS * 4, bar = fb + 8 * s;
		const int k0 = (int)(kbeg + (i64)t * BK);
		asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(STAGE_FLOATS * 4)
			     : "memory");
		tma_box(dst, tma, (int)m0, k0, bar);              // A: x = m, y = k
		if (TB)
			tma_box(dst + BM * BK * 4, tmb, (int)n0, k0, bar); // B: x = n, y = k
		else
			tma_box(dst + BM * BK * 4, tmb, k0, (int)n0, bar); // B: x = k, y = n
	};
	if (tid == 0)
		for (int t = 0; t < STAGES - 1 && t < ntiles; t++)
			issue(t);
	const float *sm0 = dsm + (base - smem_addr(dsm)) / 4;
	for (int t = 0; t < ntiles; t++) {
		__syncthreads(); // every thread is done with k-tile t - 1, whose stage the next copy fills
		if (tid == 0 && t + STAGES - 1 < ntiles) {
			// the stage's reads (generic proxy) before the copy engine's writes (async proxy)
			asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
			issue(t + STAGES - 1);
		}
		const int s = t % STAGES;
		mbar_wait_parity(fb + 8 * s, (unsigned)(t / STAGES) & 1u);
		const float *as = sm0 + s * STAGE_FLOATS, *bs = as + BM * BK;
		if (TB) {
#pragma unroll
			for (int kk = 0; kk < BK; kk++) {
				float a[TM], b[TN];
#pragma unroll
				for (int i = 0; i < TM; i += 4) {
					const float4 x = *reinterpret_cast<const float4 *>(&as[kk * BM + tr + row_of(i)]);
					a[i] = x.x, a[i + 1] = x.y, a[i + 2] = x.z, a[i + 3] = x.w;
				}
#pragma unroll
				for (int j = 0; j < TN; j += 4) {
					const float4 y = *reinterpret_cast<const float4 *>(&bs[kk * BN + tc + col_of(j)]);
					b[j] = y.x, b[j + 1] = y.y, b[j + 2] = y.z, b[j + 3] = y.w;
				}
				fma_step(acc, a, b, kk);
			}
			continue;
		}
#pragma unroll
		for (int k4 = 0; k4 < BK; k4 += 4) {
			float b4[TN][4];
#pragma unroll
			for (int j = 0; j < TN; j++) {
				const float4 v = *reinterpret_cast<const float4 *>(&bs[(tc + col_of(j)) * BK + k4]);
				b4[j][0] = v.x, b4[j][1] = v.y, b4[j][2] = v.z, b4[j][3] = v.w;
			}
#pragma unroll
			for (int d = 0; d < 4; d++) {
				float a[TM], b[TN];
#pragma unroll
				for (int i = 0; i < TM; i += 4) {
					const float4 x = *reinterpret_cast<const float4 *>(&as[(k4 + d) * BM + tr + row_of(i)]);
					a[i] = x.x, a[i + 1] = x.y, a[i + 2] = x.z, a[i + 3] = x.w;
				}
#pragma unroll
				for (int j = 0; j < TN; j++)
					b[j] = b4[j][d];
				fma_step(acc, a, b, d);
			}
		}
	}
}
#define BODY_EXTRA , const tmap3_t *tma, const tmap3_t *tmb
#else
#define BODY_EXTRA
#endif // KIND == 3

template <int TA, int TB>
__device__ __forceinline__ void gemm_body(i64 M, i64 N, i64 K, const float *__restrict__ A, i64 lda,
					  const float *__restrict__ B, i64 ldb, float *__restrict__ C, i64 ldc,
					  float *__restrict__ W, unsigned *__restrict__ counters, i64 k_chunk, int vec_a,
					  int vec_b, int vec_c BODY_EXTRA)
{
#if KIND == 0
	__shared__ __align__(16) float As[2][STAGE_A];
	__shared__ __align__(16) float Bs[2][STAGE_B];
#endif
	__shared__ unsigned last_block;

	const int tid = threadIdx.x;
	// Grouped block order: GM consecutive M-tiles share one N-tile (B stays in L2 while A streams).
	const i64 mt = (M + BM - 1) / BM, nt = (N + BN - 1) / BN;
	const i64 pid = blockIdx.x, width = (i64)GM * nt;
	const i64 first_m = (pid / width) * GM;
	const i64 gsize = mt - first_m < GM ? mt - first_m : GM;
	const i64 m0 = (first_m + (pid % width) % gsize) * BM;
	const i64 n0 = ((pid % width) / gsize) * BN;

	// This block's k range: all of K, or split z of gridDim.z.
	const i64 kbeg = (i64)blockIdx.z * k_chunk;
	const i64 kend = kbeg + k_chunk < K ? kbeg + k_chunk : K;

	const int warp = tid / 32, lane = tid % 32;
	const int tr = (warp % WARPS_M) * (LM * TM) + lane % LM * 4; // the thread's first row and column in the tile
	const int tc = (warp / WARPS_M) * (LN * TN) + lane / LM * CN;
	float acc[TM][TN];
#pragma unroll
	for (int i = 0; i < TM; i++)
#pragma unroll
		for (int j = 0; j < TN; j++)
			acc[i][j] = 0.f;

#if KIND == 3
	tma_mainloop<TB>(acc, tma, tmb, m0, n0, kbeg, kend, tr, tc, tid);
#else
	tile_loader<BM, TA == 1> la;
	tile_loader<BN, TB == 0> lb;
	la.init(A, lda, m0, kbeg, tid);
	lb.init(B, ldb, n0, kbeg, tid);
	// In range: no bounds checks; each operand's alignment picks float4 or scalar loads on its own.
	const bool interior = m0 + BM <= M && n0 + BN <= N;
	auto load = [&](i64 k0) {
		if (interior && k0 + BK <= kend) {
			if (vec_a)
				la.load_fast(tid);
			else
				la.load_fast_scalar(tid);
			if (vec_b)
				lb.load_fast(tid);
			else
				lb.load_fast_scalar(tid);
		} else {
			la.load_edge(m0, M, k0, kend, vec_a, tid);
			lb.load_edge(n0, N, k0, kend, vec_b, tid);
		}
	};
	const i64 ntiles = kend > kbeg ? (kend - kbeg + BK - 1) / BK : 0;

	if (ntiles > 0) {
		load(kbeg);
		la.template store<LDS_A>(As[0], tid);
		lb.template store<LDS_B>(Bs[0], tid);
		__syncthreads();
	}
	for (i64 t = 0; t < ntiles; t++) {
		const int cur = (int)(t & 1);
		const bool more = t + 1 < ntiles;
		if (more) { // next tile's global loads are in flight while this one is computed
			la.advance(lda);
			lb.advance(ldb);
			load(kbeg + (t + 1) * BK);
		}
		const float *as = As[cur], *bs = Bs[cur];
#pragma unroll
		for (int kk = 0; kk < BK; kk++) {
			float a[TM], b[TN];
#pragma unroll
			for (int i = 0; i < TM; i += 4) {
				float4 x = *reinterpret_cast<const float4 *>(&as[kk * LDS_A + SKEW(kk) + tr + row_of(i)]);
				a[i] = x.x, a[i + 1] = x.y, a[i + 2] = x.z, a[i + 3] = x.w;
			}
#pragma unroll
			for (int j = 0; j < TN; j += CN) {
				const float *y = &bs[kk * LDS_B + SKEW(kk) + tc + col_of(j)];
#if CN == 4
				const float4 y4 = *reinterpret_cast<const float4 *>(y);
				b[j] = y4.x, b[j + 1] = y4.y, b[j + 2] = y4.z, b[j + 3] = y4.w;
#else
				const float2 y2 = *reinterpret_cast<const float2 *>(y);
				b[j] = y2.x, b[j + 1] = y2.y;
#endif
			}
			fma_step(acc, a, b, kk);
		}
		if (more) {
			la.template store<LDS_A>(As[cur ^ 1], tid);
			lb.template store<LDS_B>(Bs[cur ^ 1], tid);
		}
		__syncthreads();
	}
#endif // KIND == 3

	const i64 tm0 = m0 + tr, tn0 = n0 + tc;
	if (gridDim.z == 1) {
		store_tile(acc, C, ldc, M, N, tm0, tn0, vec_c);
		return;
	}
	// Split-K: each split writes its partial product to W[z] (M×N, ld M); the last split of this tile to
	// arrive sums the partials in the order z = 0, 1, ... and writes C, so the result does not depend on
	// which split finished first. The tile's counter is left at zero for the next launch.
	const i64 MN = M * N;
	store_tile(acc, W + (i64)blockIdx.z * MN, M, M, N, tm0, tn0, M % 4 == 0);
	if (!splitk_last(counters, last_block))
		return;
	// The sums in splitk_sum's order (0, then split 0, 1, ...: the same bits). Where M % 4 == 0, a split at a
	// time into acc (dead since its store to W), the float4s of a split in flight together (predicated, not
	// branched, at the edges): a round trip a split, where an element at a time waits one for every element and
	// every four splits, the tail every split-K tile waits on (6-24% of the split rows' time in run43-44's
	// version, docs/results/gemm_fp32). It needs no registers the main loop has not: no spills (compile_all).
	if (M % 4 == 0) {
#pragma unroll
		for (int i = 0; i < TM; i++)
#pragma unroll
			for (int j = 0; j < TN; j++)
				acc[i][j] = 0.f;
		const float *p = W + tn0 * M + tm0;
#pragma unroll 1
		for (unsigned z = 0; z < gridDim.z; z++, p += MN)
#pragma unroll
			for (int j = 0; j < TN; j++)
#pragma unroll
				for (int i = 0; i < TM; i += 4) {
					const bool in = tm0 + row_of(i) < M && tn0 + col_of(j) < N;
					const float4 v = in ? __ldcg(reinterpret_cast<const float4 *>(p + col_of(j) * M + row_of(i)))
							    : make_float4(0.f, 0.f, 0.f, 0.f);
					acc[i][j] += v.x, acc[i + 1][j] += v.y, acc[i + 2][j] += v.z, acc[i + 3][j] += v.w;
				}
		store_tile(acc, C, ldc, M, N, tm0, tn0, vec_c);
	} else {
		// Rolled on purpose: this runs once per tile, and unrolling it per accumulator costs compile time.
#pragma unroll 1
		for (int e = 0; e < TM * TN; e++) {
			const i64 row = tm0 + row_of(e % TM), col = tn0 + col_of(e / TM);
			if (row < M && col < N)
				C[col * ldc + row] = splitk_sum(W, M, N, row, col);
		}
	}
	if (tid == 0)
		counters[blockIdx.x] = 0;
}

#if KIND == 3
// gemm_nn (B in [n][k] boxes) and gemm_nt (B in [k][n] boxes): the host copies a transposed A into the NN
// layout first (transpose, above), and B where gemm_nt reads a copy, so every layout runs one of these two; the
// other two kernels trap.
#define GEMM_ARGS3 GEMM_ARGS, const __grid_constant__ tmap3_t tma, const __grid_constant__ tmap3_t tmb
extern "C" __global__ void __launch_bounds__(THREADS) gemm_nn(GEMM_ARGS3) { gemm_overlap_prior(); ONLY(LAYOUT_NN, gemm_body<0, 0>(GEMM_PASS, &tma, &tmb)); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_nt(GEMM_ARGS3) { gemm_overlap_prior(); ONLY(LAYOUT_NT, gemm_body<0, 1>(GEMM_PASS, &tma, &tmb)); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_tn(GEMM_ARGS3) { gemm_overlap_prior(); __trap(); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_tt(GEMM_ARGS3) { gemm_overlap_prior(); __trap(); }
#else
extern "C" __global__ void __launch_bounds__(THREADS) gemm_nn(GEMM_ARGS) { gemm_overlap_prior(); ONLY(LAYOUT_NN, gemm_body<0, 0>(GEMM_PASS)); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_nt(GEMM_ARGS) { gemm_overlap_prior(); ONLY(LAYOUT_NT, gemm_body<0, 1>(GEMM_PASS)); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_tn(GEMM_ARGS) { gemm_overlap_prior(); ONLY(LAYOUT_TN, gemm_body<1, 0>(GEMM_PASS)); }
extern "C" __global__ void __launch_bounds__(THREADS) gemm_tt(GEMM_ARGS) { gemm_overlap_prior(); ONLY(LAYOUT_TT, gemm_body<1, 1>(GEMM_PASS)); }
#endif

#endif // KIND == 0 || KIND == 3

// ---- KIND 2: skinny products (a few columns of C: GEMV-like rows), all four layouts ----
// Where C has few columns each element of A is used BN times and never again, so the kernel is bound by the
// bytes of A in flight (Little's law: tens of KB per SM), not by FMAs, and a tile kernel's shared-memory
// staging of A is pure overhead.
// Block: BM rows x BN columns of C. THREADS = RT*KS: RT = BM/4 row threads, each owning 4 consecutive rows and
// all BN columns (acc[4][BN]), times KS k-slices. Grid (ceil(M/BM)*ceil(N/BN), 1, splits); the N-tiles of one
// M-tile are adjacent in blockIdx.x, so the blocks that read the same rows of A run together.
// k: the block's range is cut into chunks of KU consecutive k; slice s takes chunks s, s+KS, s+2*KS, ... A chunk
// is a batch: a thread issues all its loads for it (KU 16-byte loads of A, KU*BN values of B) before its FMAs.
//   nn, nt (A M-contiguous): thread (r, s) = (tid % RT, tid / RT); load u of a batch is the 4 rows at k0+u, and
//   the row threads of a slice read neighbouring 16 bytes.
//   tn, tt (A K-contiguous): thread (r, s) = (tid / KS, tid % KS); load (i, q) is row i's 4 k at k0+4q, and the
//   slices of a row are neighbouring lanes reading neighbouring chunks of it.
// B goes through the cache: every row thread of a slice reads the same values (a broadcast); as float4 along
// its contiguous dimension where aligned (nn, tn: along k; nt, tt with BN = 4: along the columns).
// Reduction in a fixed order (the result does not depend on timing): the slices' sums through shared memory in
// slice order, then the splits (gridDim.z > 1) through W and the last block of the tile, in z order, as KIND 0.
// Edges: rows >= M, columns >= N and k >= the range's end count as zero. A batch runs as above where it is whole,
// vec_a says A's leading dimension allows float4 and (nn, nt) its 4 rows are in range; otherwise k by k with
// scalar loads (few loads in flight: tails, and problems whose rows are not 16-byte aligned).
// Tunables: BM, BN (1, 2 or 4), KS, KU (a multiple of 4), L2PF (see ld_a); BK is only the split-K grain (k_chunk a multiple of it,
// so every chunk starts 16-byte aligned). Constraints (src/ops/gemm/gemm.c): THREADS in [64, 512];
// KU*(4 + BN) + 4*BN <= 96 floats of data per thread; shared memory KS*BM*BN*4 bytes within 48 KB.
#if KIND == 2

#ifndef BM
#define BM 64 // rows of C per block
#endif
#ifndef BN
#define BN 1 // columns of C per block
#endif
#ifndef BK
#define BK 16 // split-K grain
#endif
#ifndef KS
#define KS 8 // k-slices of threads per block
#endif
#ifndef KU
#define KU 8 // k of one batch per thread
#endif
#ifndef L2PF
#define L2PF 1 // A read with a 256-byte L2 prefetch per miss, bypassing L1
#endif

#define RT (BM / 4)
#define THREADS (RT * KS)
// 128 registers a thread at most (enough blocks per SM to fill its 64K registers), so the edge paths cannot
// cost the main loop its occupancy
#define MIN_BLOCKS (65536 / (128 * THREADS) > 1 ? 65536 / (128 * THREADS) : 1)

static_assert(BM % 4 == 0 && KU % 4 == 0 && BN >= 1 && BN <= 4 && BK % 4 == 0, "skinny tile");

// A's batches are read once. L2PF 1: they are not kept in L1, and each miss asks L2 for the whole 256-byte
// sector group, so DRAM serves longer runs of each column (nn, nt) or row (tn, tt): on an H200 the N = 1 rows of
// DeepBench's inference suite ran 12-17% faster, but 512x1x500000 (columns of 2 KB) 6% slower, hence a tunable.
__device__ __forceinline__ float4 ld_a(const float *p)
{
#if L2PF
	float4 v;
	asm("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
	    : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
	    : "l"(p));
	return v;
#else
	return __ldg(reinterpret_cast<const float4 *>(p));
#endif
}

template <int TA, int TB>
__device__ __forceinline__ void skinny_body(GEMM_ARGS)
{
	__shared__ float red[KS * BN * BM];
	__shared__ unsigned last_block;

	const int tid = threadIdx.x;
	const int r = TA ? tid / KS : tid % RT, sl = TA ? tid % KS : tid / RT;
	const i64 nt = (N + BN - 1) / BN;
	const i64 m0 = (i64)(blockIdx.x / nt) * BM, n0 = (i64)(blockIdx.x % nt) * BN;
	const i64 kbeg = (i64)blockIdx.z * k_chunk;
	const i64 kend = kbeg + k_chunk < K ? kbeg + k_chunk : K;
	const i64 row = m0 + 4 * r;
	const bool rows_in = row + 3 < M, cols_in = n0 + BN <= N;

	float acc[4][BN];
#pragma unroll
	for (int i = 0; i < 4; i++)
#pragma unroll
		for (int j = 0; j < BN; j++)
			acc[i][j] = 0.f;

	for (i64 k0 = kbeg + (i64)sl * KU; k0 < kend; k0 += (i64)KS * KU) {
		if (k0 + KU <= kend && vec_a && (TA || rows_in)) { // a whole batch, A as float4: all loads, then FMAs
			float a[KU][4], b[KU][BN];
			if (TA == 0) {
				const float *pa = A + k0 * lda + row;
#pragma unroll
				for (int u = 0; u < KU; u++) {
					const float4 x = ld_a(pa + u * lda);
					a[u][0] = x.x, a[u][1] = x.y, a[u][2] = x.z, a[u][3] = x.w;
				}
			} else {
				const float *pa = A + row * lda + k0;
#pragma unroll
				for (int i = 0; i < 4; i++)
#pragma unroll
					for (int q = 0; q < KU / 4; q++) {
						const float4 x = row + i < M ? ld_a(pa + i * lda + 4 * q) : make_float4(0.f, 0.f, 0.f, 0.f);
						a[4 * q][i] = x.x, a[4 * q + 1][i] = x.y, a[4 * q + 2][i] = x.z, a[4 * q + 3][i] = x.w;
					}
			}
			if (TB == 0 && vec_b) { // B(k, n) at B[n*ldb + k]: float4 along k
#pragma unroll
				for (int j = 0; j < BN; j++)
#pragma unroll
					for (int q = 0; q < KU / 4; q++) {
						const float4 y = n0 + j < N
									 ? __ldg(reinterpret_cast<const float4 *>(B + (n0 + j) * ldb + k0 + 4 * q))
									 : make_float4(0.f, 0.f, 0.f, 0.f);
						b[4 * q][j] = y.x, b[4 * q + 1][j] = y.y, b[4 * q + 2][j] = y.z, b[4 * q + 3][j] = y.w;
					}
			} else if (TB == 1 && BN == 4 && vec_b && cols_in) { // B(k, n) at B[k*ldb + n]: float4 along n
				if constexpr (BN == 4) {
#pragma unroll
					for (int u = 0; u < KU; u++) {
						const float4 y = __ldg(reinterpret_cast<const float4 *>(B + (k0 + u) * ldb + n0));
						b[u][0] = y.x, b[u][1] = y.y, b[u][2] = y.z, b[u][3] = y.w;
					}
				}
			} else {
#pragma unroll
				for (int u = 0; u < KU; u++)
#pragma unroll
					for (int j = 0; j < BN; j++)
						b[u][j] = n0 + j < N ? __ldg(TB ? B + (k0 + u) * ldb + n0 + j : B + (n0 + j) * ldb + k0 + u)
								     : 0.f;
			}
#pragma unroll
			for (int u = 0; u < KU; u++)
#pragma unroll
				for (int i = 0; i < 4; i++)
#pragma unroll
					for (int j = 0; j < BN; j++)
						acc[i][j] = fmaf(a[u][i], b[u][j], acc[i][j]);
		} else { // the end of the range, the last rows of M or unaligned rows: k by k, element by element
#pragma unroll 1
			for (i64 k = k0; k < k0 + KU && k < kend; k++) {
				float a[4], b[BN];
#pragma unroll
				for (int i = 0; i < 4; i++)
					a[i] = row + i < M ? __ldg(TA ? A + (row + i) * lda + k : A + k * lda + row + i) : 0.f;
#pragma unroll
				for (int j = 0; j < BN; j++)
					b[j] = n0 + j < N ? __ldg(TB ? B + k * ldb + n0 + j : B + (n0 + j) * ldb + k) : 0.f;
#pragma unroll
				for (int i = 0; i < 4; i++)
#pragma unroll
					for (int j = 0; j < BN; j++)
						acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
			}
		}
	}

	// the slices' sums, added in slice order by one thread per output of the tile. Unrolled on sm_90 and later:
	// the KS loads issue together, then the adds (rolled, each add waits for its own shared-memory load, about
	// KS * 30 cycles: 0.5 us at KS 32). Rolled before sm_90, where ptxas then spills the 't' kernels with KU 16
	// (docs/NOTES.md item 94).
#if __CUDA_ARCH__ >= 900
	constexpr int slice_unroll = KS;
#else
	constexpr int slice_unroll = 1;
#endif
#pragma unroll
	for (int i = 0; i < 4; i++)
#pragma unroll
		for (int j = 0; j < BN; j++)
			red[(sl * BN + j) * BM + 4 * r + i] = acc[i][j];
	__syncthreads();
	const bool split = gridDim.z > 1;
	const i64 MN = M * N;
	for (int e = tid; e < BM * BN; e += THREADS) {
		const int ii = e % BM, j = e / BM;
		const i64 m = m0 + ii, n = n0 + j;
		float sum = 0.f;
#pragma unroll slice_unroll
		for (int t = 0; t < KS; t++)
			sum += red[(t * BN + j) * BM + ii];
		if (m < M && n < N) {
			if (split)
				W[(i64)blockIdx.z * MN + n * M + m] = sum;
			else
				C[n * ldc + m] = sum;
		}
	}
	if (!split)
		return;
	if (!splitk_last(counters, last_block))
		return;
	for (int e = tid; e < BM * BN; e += THREADS) {
		const i64 m = m0 + e % BM, n = n0 + e / BM;
		if (m < M && n < N)
			C[n * ldc + m] = splitk_sum(W, M, N, m, n);
	}
	if (tid == 0)
		counters[blockIdx.x] = 0;
}

extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS) gemm_nn(GEMM_ARGS) { gemm_overlap_prior(); ONLY(LAYOUT_NN, skinny_body<0, 0>(GEMM_PASS)); }
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS) gemm_nt(GEMM_ARGS) { gemm_overlap_prior(); ONLY(LAYOUT_NT, skinny_body<0, 1>(GEMM_PASS)); }
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS) gemm_tn(GEMM_ARGS) { gemm_overlap_prior(); ONLY(LAYOUT_TN, skinny_body<1, 0>(GEMM_PASS)); }
extern "C" __global__ void __launch_bounds__(THREADS, MIN_BLOCKS) gemm_tt(GEMM_ARGS) { gemm_overlap_prior(); ONLY(LAYOUT_TT, skinny_body<1, 1>(GEMM_PASS)); }

#endif // KIND == 2
