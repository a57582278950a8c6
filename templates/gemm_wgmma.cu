// gemm_wgmma.cu — Hopper (sm_90a) GEMM on the tensor cores through wgmma.mma_async, column-major as in
// cuBLAS (DeepBench's convention): C (M×N, ldc) = op(A) · op(B), no alpha/beta (C is overwritten).
//
// Precision (macro PREC_INT8):
//   0 (default): A, B, C IEEE half (passed as unsigned short bit patterns); products accumulate in fp32
//                (wgmma .f32.f16.f16); C rounded to nearest. All four layouts (nn, nt, tn, tt): wgmma's
//                transpose bits read M/N-major tiles directly.
//   1:           A, B signed int8, C int32, accumulate s32 (wgmma .s32.s8.s8). Only gemm_tn (both operands
//                K-major, as wgmma requires for 8-bit types); gemm_nn, gemm_nt, gemm_tt exist and __trap().
// PREC_TF32 1 (the fp32 op's 3xTF32 family, with PREC_INT8 0): A, B, C fp32, read by the tensor cores as TF32
//                (wgmma .f32.tf32.tf32, k8: 32 bytes of a line a step, as fp16's k16), accumulate fp32. Only
//                gemm_tn, as int8 (wgmma reads TF32 K-major only). The host runs it on the split copies that
//                gemm_fp32.cu's split3 writes, so its one TF32 product is 3xTF32's three. The tensor cores add
//                each k8 step into the fp32 accumulators with truncation, so over a long reduction the error
//                grows with its length times the sum's size (past fp32's tolerance at 1760^3: run09). So each
//                group of TF32_PROMOTE k-tiles (4 steps each) is summed apart in tmp (scale-d 0 at its first
//                step) and added to acc by the CUDA cores, rounding to nearest, once its wgmmas have retired
//                (INFLIGHT 0; the accumulators twice: MI*BN <= 128). As conv_fp16.cu's TF32 kernels (one
//                k-tile a group there).
//
// Structure: one producer warpgroup (the last 128 threads) moves tiles with 16-byte cp.async into a ring of
// STAGES shared-memory stages, laid out in the 128-byte swizzle that the wgmma matrix descriptors name;
// each stage completes on an mbarrier ("full", cp.async.mbarrier.arrive.noinc) and is handed back on
// another ("empty") once the consumers' wgmmas that read it have retired. WGS consumer warpgroups each
// compute BM/WGS rows × BN columns with MI = BM/(64·WGS) m64nBN wgmmas per k-step, and either keep one
// k-tile of wgmmas in flight while the next is issued (INFLIGHT=1) or wait for them and hand the stage back
// at once (INFLIGHT=0, the default: the other consumer keeps the tensor cores busy). setmaxnreg moves
// registers from the producer to the consumers (WGS = 2: 168 registers a thread at launch, producer 56,
// consumers 224; 56 + 2*224 = 3*168, so the consumers' setmaxnreg.inc never waits on registers the CTA does
// not own). The epilogue stages each
// consumer's tile through shared memory (column-major) and writes C with 16-byte stores along M where vec_c
// allows, element-wise otherwise. Blocks walk the tiles in groups of GM M-tiles that share one N-tile (L2
// reuse). The producer issues its first stage's B, then griddepcontrol.wait, then A: launched as a
// programmatic dependent of a kernel that writes A (the host's repack of A), only the loads of A wait for it;
// launched normally, the wait returns at once.
//
// Tunables (each has a default below, so this file compiles alone):
//   WGS     consumer warpgroups: 1 or 2
//   BM      rows of C per block: 64·WGS·MI with MI (m64 wgmmas per consumer warpgroup) 1 or 2
//   BN      columns of C per block: 16, 32, 64, 128, 144, 192, 208, 240 or 256. 16 and 32 are for narrow
//           problems (the tile does not pad N = 16 to 64 columns of MMAs and split-K partials); 144, 208 and
//           240 fit N to whole waves of tiles where a multiple of 64 leaves a wave part empty (cuBLASLt's
//           heuristic picks such widths too, e.g. 256x144 at 3072x1500x1024 fp16). Those not a multiple of
//           64 need B K-major (nn, tn): an MN-major B tile is whole 64-element swizzle rows, so gemm_nt and
//           gemm_tt __trap() there
//   BK      k-depth of one stage: fixed by the precision to one 128-byte swizzle row, 64 (fp16) or 128 (int8)
//   STAGES  shared-memory stages in the ring, 2..16
//   GM      M-tiles per group in the block order (>= 1)
//   INFLIGHT 1: each consumer keeps its previous k-tile's wgmmas in flight while issuing the next (a stage
//           is handed back one k-tile later); 0: it waits for its own wgmmas every k-tile (the other
//           consumer warpgroup keeps the tensor cores busy) and hands the stage back at once; with WGS=1
//           use INFLIGHT=1
//   L2PF    L2 prefetch size hint on the cp.async loads: 0 (none), 128 or 256
//   PERSIST 1: persistent blocks (the host launches min(tiles, SMs)); block b computes tiles b, b + gridDim.x,
//           ...; the ring's stages and phases run on from tile to tile, and the epilogue stages C in an
//           area of its own (EPI_BYTES), so the producer fills the ring with the next tile's k-tiles while
//           the consumers store this one. No split-K (gridDim.z must be 1). 0: one tile per block.
//           2 ("ping-pong", WGS = 2): persistent as 1, but the two consumer warpgroups take the block's
//           tiles in turn, each a whole BM x BN tile (MI = BM/64): the ring carries tile b's k-tiles for
//           one, then tile b + gridDim.x's for the other, so one warpgroup's epilogue (stores straight from
//           its registers, no staging) overlaps the other's wgmmas. INFLIGHT 1.
//   CLK     split-K's sum (gridDim.z > 1): 1: the host launches the splits of a tile as one thread-block
//           cluster (1, 1, gridDim.z), at most 8; every split but the first leaves its partial sums in its
//           own shared memory (the ring, free by then), and the first reads them over distributed shared
//           memory (mapa, ld.shared::cluster) between two cluster barriers. No W, no counters, no second trip
//           through L2. 0: through W and the counters in global memory (below). No PERSIST.
//   TMA     1: the producer's first thread fills each stage with the bulk tensor copy engine
//           (cp.async.bulk.tensor.2d, the tensor maps tma / tmb from the host, 128-byte swizzle, zeros
//           outside the matrix) and one mbarrier.arrive.expect_tx of the stage's bytes; the host runs it
//           only where both operands' rows are 16-byte aligned. 0: 128 producer threads with cp.async.
//           2 and 3: TMA, and the blocks run in thread-block clusters of two (the host launches cluster
//           dims (2, 1, 1); blocks 2c and 2c + 1 are pair c, rank = blockIdx.x & 1) whose tiles share one
//           operand's tile: 2, the pair's tiles are adjacent M-tiles of one N-tile and share B; 3, adjacent
//           N-tiles of one M-tile and share A. Each rank copies half of the shared tile (the host's tensor map
//           has half the box's outer lines: K-major rows, MN-major k) into the same place of both ranks' stage
//           with one multicast copy, so the pair reads the shared tile from L2 once. A stage is refilled only
//           once both ranks' consumers have handed it back (each consumer warp arrives on the empty barrier of
//           both ranks). A rank whose own tile lies outside C (an odd count of tiles in the paired dimension)
//           still copies its half and runs its wgmmas on zeros; it writes nothing. No split-K, no CLK. (Pairs
//           work with PERSIST 0; the host's space runs them with PERSIST 1 and 2, where they are not slower.)
// Resident A (AR, not a tunable: the host asks for it with vec_a == 0, fp16 only, where AR_OK: BM 64, WGS 1,
//   TMA 1, PERSIST 0): A stored 'n' with columns neither TMA nor cp.async can read (M = 35: 70 bytes), which
//   the host would otherwise transpose in a launch of its own (pack_t). The block holds every row of A (M <=
//   64), and its k range of A as stored is one contiguous run of (k_chunk - 1)*lda + M elements, 16-byte
//   aligned: the producer's first thread copies it with plain bulk copies into a staging area past the ring's
//   barriers; the consumers and the producer's three idle warps lay it out K-major in the ring's A slots, k-tile
//   t in stage t (so the host gives it at most STAGES k-tiles a block), then the wgmmas read A there while the
//   ring carries B alone. Dynamic shared memory: SMEM_BYTES + 16 + the staging rounded up to 16 bytes.
// Derived:
//   THREADS    = 128*(WGS+1)
//   MI         = BM/(64*WGS) (PERSIST 2: BM/64)
//   ES_C       = 2 (fp16) or 4 (int8: C is int32)
//   EPI_BYTES  = WGS*BN*(64*MI*ES_C + 16)     (the epilogue's staging)
//   SMEM_BYTES = STAGES*(BM+BN)*128 + 16*STAGES + 1024 (+ EPI_BYTES with PERSIST 1)   (dynamic shared memory,
//                bytes; the host must give exactly this: cudaFuncSetAttribute(MaxDynamicSharedMemorySize) and
//                the launch)
// Constraints (host-side rows):
//   WGS in {1, 2}
//   MI in {1, 2}, BM == 64*WGS*MI (PERSIST 2: WGS == 2, BM == 64*MI)
//   BN in {16, 32, 64, 128, 144, 192, 208, 240, 256}; BN % 64 != 0: B K-major (the host runs nn, tn only)
//   MI * BN <= 256 (accumulators: MI*BN/2 registers per consumer thread), or 288 (MI 2, BN 144: BM 256 with
//                  WGS 2, one wave of tiles at 3072 x 1500, or BM 128 with WGS 1) with PERSIST 0 and CLK 0 (0
//                  bytes of spill there; 8 with PERSIST 2 or CLK)
//   2 <= STAGES <= 16
//   L2PF in {0, 128, 256}, INFLIGHT in {0, 1}, PERSIST in {0, 1, 2}, CLK in {0, 1}, not with PERSIST,
//   TMA in {0, 1, 2, 3}; 2 and 3: not with CLK, no split-K (gridDim.z 1), gridDim.x even
//   CLK: BM*BN*4 <= STAGES*(BM+BN)*128                 (a split's fp32 / int32 partial sums fit the ring)
//   SMEM_BYTES <= 232448                           (227 KiB)
//   EPI_BYTES <= STAGES*(BM+BN)*128 with PERSIST 0          (the epilogue reuses the stage ring)
//   BK == 128 / sizeof(element of A)  (i.e. leave BK at its default)
// Measured (H200, 8192^3): the first version's best was WGS=2 BM=128 BN=256 STAGES=4 (fp16 ~690-700 TFLOP/s,
// int8 ~1400 TOPS; docs/notes_wgmma.md); the suites' winners since are in docs/results/tensorcore_h200.md.
// Launch: grid dim3(ceil(M/BM)*ceil(N/BN), 1, splits) (PERSIST: dim3(min(tiles, SMs), 1, 1)), block THREADS,
// dynamic shared memory SMEM_BYTES.
// Run-time arguments: M, N, K, leading dimensions (64-bit); split-K (gridDim.z > 1): block z covers k in
// [z·k_chunk, (z+1)·k_chunk), k_chunk a multiple of BK (>= K without split); W holds
// splits·tiles·BM·BN fp32 (int32) partial products, counters one zeroed word per tile (each tile's last
// split sums the partials in z order and resets its word). vec_a, vec_b: the widest copy every row of A / B
// allows, 16 or 8 bytes (leading dimension × element size a multiple of it, base aligned): 8 moves each
// 16-byte chunk as two 8-byte cp.async; vec_c says C may be written in 16-byte vectors. M, N, K need not be
// multiples of the tiles: out-of-range input is zero-filled by cp.async's src-size operand (never read),
// out-of-range C is never written.

// KIND: when this file follows gemm_tc.cu in one source (the op's template), KIND == 1 selects it.
#if !defined(KIND) || KIND == 1

#ifndef PREC_INT8
#define PREC_INT8 0
#endif
#ifndef PREC_TF32
#define PREC_TF32 0
#endif
#ifndef TF32_PROMOTE
// 3xTF32: k-tiles summed on the tensor cores (scale-d 0 at the first k-step of each group) before one wait and
// one add into acc by the CUDA cores. 2 (run17, H200): 3-5% faster (paired) than 1 on large shapes, 4 slower
// than 2 (the group holds its stages until the wait); the error stays at ~1e-8 of sum |a b| (NOTES item 85).
// ASPLIT 2: 1, a k-tile's three products (12 k-steps) a group.
#define TF32_PROMOTE (ASPLIT == 2 ? 1 : 2)
#endif
#ifndef ASPLIT
// 3xTF32 (TMA 0): 1 = A comes as stored (fp32) and each consumer thread loads its wgmma fragments of a stage's A
// tile, rounds them into the part that k-tile needs in registers and runs wgmma with A from registers (A is
// read once from memory, not copied three times first). K (the kernel's) is 3*kp with kp a multiple of
// BK, the parts interleaved a k-tile at a time: k-tile T holds part T % 3 of A's depths (T / 3)*BK ..; A's
// lines hold kp floats (zeros from the problem's K up: the host's copy where A is not so) and lda is theirs;
// gemm_nn reads A stored 'n' (M-major, a_mn_load). B is the host's split copy in the same interleaved order.
// 2 = the host's split copies hold two parts a line (PAIR): part 0 the TF32 big part, 1 the remainder,
// interleaved BK depths at a time (depth k of part j at (k / BK) * 2 * BK + j * BK + k % BK); K (the kernel's)
// is the depth, kp a multiple of BK, and lda = ldb = 2 * K. A stage holds a k-tile's four tiles (A big, A
// small, B big, B small; STAGE_BYTES twice the others') and the consumers issue its three products from them,
// small·big, big·small, big·big: 2 (BM + BN) lines copied into shared memory a k-tile where the three-part
// copies take 3 (BM + BN), and the split pass writes two parts, not three.
// 0 = both operands the host's split copies, three parts a line one after the other.
#define ASPLIT 0
#endif
#define ASPL (PREC_TF32 && ASPLIT == 1) // A split in the kernel
#define PAIR (PREC_TF32 && ASPLIT == 2) // two-part copies, three products a stage
#ifndef WGS
#define WGS 2 // consumer warpgroups
#endif
#ifndef BM
#define BM 128 // rows of C per block
#endif
#ifndef BN
#define BN 256 // columns of C per block
#endif
#if PREC_INT8
#define ES_AB 1
#define ES_C 4
#elif PREC_TF32
#define ES_AB 4
#define ES_C 4
#else
#define ES_AB 2
#define ES_C 2
#endif
#ifndef BK
#define BK (128 / ES_AB) // k-depth per stage: one 128-byte swizzle row
#endif
#ifndef STAGES
#define STAGES 4 // stages in the shared-memory ring
#endif
#ifndef GM
#define GM 8 // M-tiles per group in the block order
#endif
#ifndef PERSIST
#define PERSIST 0 // 1: persistent blocks walk the tiles, the epilogue in its own shared memory; 2: ping-pong
#endif
#ifndef INFLIGHT
#define INFLIGHT (!PREC_TF32 && (WGS == 1 || PERSIST == 2)) // 1: one k-tile of wgmmas kept in flight; 0: none
#endif
#ifndef L2PF
#define L2PF 0 // cp.async L2 prefetch hint: 0 none, 128 or 256 bytes
#endif
#ifndef CLK
#define CLK 0 // split-K: 1 = the splits form a cluster and sum through distributed shared memory
#endif
#ifndef TMA
#define TMA 0 // 1: stages filled by the bulk tensor copy engine; 0: by cp.async; 2, 3: TMA in pairs (below)
#endif
#define MC (TMA >= 2)       // a cluster of two blocks shares one operand's tiles (multicast)
#define MC_B (TMA == 2)     // the pair: adjacent M-tiles that share B (3: adjacent N-tiles that share A)

#define THREADS (128 * (WGS + 1))
// setmaxnreg with WGS 2 (168 a thread at launch): PROD_REGS + 2 * CONS_REGS <= 3 * 168. Pairs: with 56 / 224
// ptxas spilled in most WGS 2 candidates, with 80 / 208 in 8 of the 500 (8 bytes: the tile count, kept across
// setmaxnreg and reloaded once a tile, outside the k-loop; SASS of BM 128 BN 208 TMA 3).
#define PROD_REGS (MC ? 80 : 56)
#define CONS_REGS (MC ? 208 : 224)
#define PP (PERSIST == 2)                   // ping-pong: each consumer warpgroup a whole tile of its own
#define AR_OK (!PREC_INT8 && !PREC_TF32 && TMA == 1 && !PERSIST && WGS == 1 && BM == 64) // a resident A can run (below)
#define MI (BM / (64 * (PP ? 1 : WGS)))
#define STAGE_BYTES ((1 + PAIR) * (BM + BN) * 128)
#define EPI_CS (64 * MI * ES_C + 16)        // bytes per staged column of a consumer's tile in the epilogue
#define EPI_BYTES (WGS * BN * EPI_CS)       // the epilogue's staging area (the ring's start unless PERSIST)
#define SMEM_BYTES (STAGES * STAGE_BYTES + 16 * STAGES + 1024 + (PERSIST == 1 ? EPI_BYTES : 0))

static_assert(WGS == 1 || WGS == 2, "WGS must be 1 or 2");
static_assert(BM == 64 * (PP ? 1 : WGS) * MI && (MI == 1 || MI == 2), "BM must be 64*WGS*MI (PP: 64*MI), MI 1|2");
static_assert(!PP || (WGS == 2 && INFLIGHT == 1), "PERSIST 2 (ping-pong) needs WGS 2 and INFLIGHT 1");
static_assert(BN == 16 || BN == 32 || BN == 64 || BN == 128 || BN == 144 || BN == 192 || BN == 208 || BN == 240 ||
		      BN == 256,
	      "BN must be 16, 32, 64, 128, 144, 192, 208, 240 or 256");
static_assert(MI * BN <= 256 || (MI * BN == 288 && PERSIST == 0 && CLK == 0),
	      "too many accumulators per consumer thread");
static_assert(STAGES >= 2 && STAGES <= 16, "STAGES in 2..16");
static_assert(L2PF == 0 || L2PF == 128 || L2PF == 256, "L2PF in {0, 128, 256}");
static_assert(INFLIGHT == 0 || INFLIGHT == 1, "INFLIGHT in {0, 1}");
static_assert(!PREC_TF32 || (!INFLIGHT && !PP && MI * BN <= 128), "TF32: INFLIGHT 0, no ping-pong, MI*BN <= 128");
static_assert(!PREC_TF32 || (TF32_PROMOTE >= 1 && TF32_PROMOTE < STAGES), "TF32_PROMOTE: at least 1, and fewer k-tiles than the ring holds");
static_assert(!ASPLIT || (PREC_TF32 && !TMA && !PERSIST && !CLK && ASPLIT <= 2),
	      "ASPLIT 1, 2: 3xTF32 with cp.async (TMA 0), no PERSIST, no CLK");
static_assert(BK * ES_AB == 128, "BK is one 128-byte swizzle row");
static_assert(SMEM_BYTES <= 232448, "shared memory over 227 KiB");
static_assert(PERSIST || EPI_BYTES <= STAGES * STAGE_BYTES, "epilogue does not fit the ring");
static_assert(PERSIST >= 0 && PERSIST <= 2, "PERSIST in {0, 1, 2}");
static_assert(CLK == 0 || (CLK == 1 && !PERSIST), "CLK in {0, 1}, not with PERSIST");
static_assert(TMA >= 0 && TMA <= 3, "TMA in {0, 1, 2, 3}");
static_assert(!MC || !CLK, "TMA 2, 3 (pairs) not with CLK");
static_assert(!CLK || BM * BN * 4 <= STAGES * STAGE_BYTES, "CLK: the partial sums do not fit the ring");

typedef long long i64;
typedef unsigned long long u64;
typedef unsigned u32;

#if PREC_INT8
typedef signed char TA;
typedef int TC;
typedef int ACC;
typedef int4 ACC4;
__device__ __forceinline__ int4 make_acc4(int a, int b, int c, int d) { return make_int4(a, b, c, d); }
#elif PREC_TF32
typedef float TA;
typedef float TC;
typedef float ACC;
typedef float4 ACC4;
__device__ __forceinline__ float4 make_acc4(float a, float b, float c, float d) { return make_float4(a, b, c, d); }
#else
// IEEE half as its bit pattern (the host may pass __half* or unsigned short*): no cuda_fp16.h, which NVRTC
// finds only with an include path.
typedef unsigned short TA;
typedef unsigned short TC;
typedef float ACC;
typedef float4 ACC4;
__device__ __forceinline__ float4 make_acc4(float a, float b, float c, float d) { return make_float4(a, b, c, d); }
#endif

// ---- PTX wrappers ---------------------------------------------------------------------------------------

__device__ __forceinline__ u32 smem_u32(const void *p) { return (u32)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void mbar_init(u32 bar, u32 count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_wait(u32 bar, u32 parity)
{
	asm volatile("{\n.reg .pred done;\nWAIT_%=:\n"
		     "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
		     "@!done bra WAIT_%=;\n}\n" ::"r"(bar),
		     "r"(parity)
		     : "memory");
}
__device__ __forceinline__ void mbar_arrive(u32 bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
// Arrives on bar once every cp.async this thread issued so far has landed (count not incremented).
__device__ __forceinline__ void mbar_arrive_cpasync(u32 bar)
{
	asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void cp_async16(u32 dst, const void *src, u32 bytes)
{
#if L2PF == 256
	asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(bytes)
		     : "memory");
#elif L2PF == 128
	asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(bytes)
		     : "memory");
#else
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(bytes) : "memory");
#endif
}
// 8-byte copy (cp.async has no .cg form below 16 bytes): for rows that are only 8-byte aligned.
__device__ __forceinline__ void cp_async8(u32 dst, const void *src, u32 bytes)
{
	asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(dst), "l"(src), "r"(bytes) : "memory");
}
// One 16-byte chunk of a tile, bytes (0..16) of it read and the rest zero-filled: one copy, or two of 8 bytes
// where the operand's rows are only 8-byte aligned (V8). The swizzle moves whole 16-byte chunks, so the two
// halves land side by side as one chunk would. safe: a valid address for a copy that reads nothing.
template <bool V8>
__device__ __forceinline__ void cp_chunk(u32 dst, const char *src, const char *safe, u32 bytes)
{
	if (!V8) {
		cp_async16(dst, bytes ? src : safe, bytes);
		return;
	}
	const u32 b0 = bytes < 8 ? bytes : 8u, b1 = bytes > 8 ? bytes - 8 : 0u;
	cp_async8(dst, b0 ? src : safe, b0);
	cp_async8(dst + 8, b1 ? src + 8 : safe, b1);
}
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait()
{
	asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}
__device__ __forceinline__ void named_sync(int id, int n)
{
	asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n) : "memory");
}
// The tensor copy engine (TMA): a 2-D tensor map (CUtensorMap, 128 opaque bytes) and one box of it into
// shared memory at dst, completing on the mbarrier bar (complete_tx: its transaction count falls by the
// box's bytes, zeros outside the matrix included).
struct __align__(64) tmap_t {
	unsigned long long v[16];
};
__device__ __forceinline__ void tma_load(u32 dst, const tmap_t *map, int x, int y, u32 bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
		     " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst), "l"(reinterpret_cast<u64>(map)), "r"(x), "r"(y), "r"(bar)
		     : "memory");
}
// The same box into shared memory at dst of each CTA of the cluster in mask (the same offset in each),
// completing on the mbarrier at bar's offset in each of them.
__device__ __forceinline__ void tma_load_mc(u32 dst, const tmap_t *map, int x, int y, u32 bar, unsigned short mask)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
		     " [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(dst), "l"(reinterpret_cast<u64>(map)), "r"(x), "r"(y),
		     "r"(bar), "h"(mask)
		     : "memory");
}
// Arrives on bar (the one arrival it expects) and raises its transaction count by bytes.
__device__ __forceinline__ void mbar_expect_tx(u32 bar, u32 bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
// Both halves of a cluster barrier: every thread of the cluster's CTAs (whole warps) arrives, and its
// shared-memory writes before it are visible to the cluster's reads after it.
__device__ __forceinline__ void cluster_sync()
{
	asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}
// Arrives on the barrier at bar's offset in the cluster's CTA of rank r. The default (.release.cta) order: a
// consumer arrives after its wgmma.wait_group, by which its wgmmas have read the stage, and the other rank
// writes the stage only after its producer has seen the phase complete. (.release.cluster puts a MEMBAR.GPU in
// front of every arrival, and .acquire.cluster another behind the producer's wait: two a k-tile.)
__device__ __forceinline__ void mbar_arrive_rank(u32 bar, u32 r)
{
	asm volatile("{\n.reg .b32 ra;\nmapa.shared::cluster.u32 ra, %0, %1;\n"
		     "mbarrier.arrive.shared::cluster.b64 _, [ra];\n}\n" ::"r"(bar),
		     "r"(r)
		     : "memory");
}
// A consumer warp hands a stage back: to its own producer, and in a pair to both ranks' producers (each
// rank's copies write into both ranks' stages).
__device__ __forceinline__ void release_stage(u32 bar)
{
#if MC
	mbar_arrive_rank(bar, 0);
	mbar_arrive_rank(bar, 1);
#else
	mbar_arrive(bar);
#endif
}
// 16 bytes of another CTA's shared memory (a shared::cluster address from mapa).
__device__ __forceinline__ ACC4 ld_cluster4(u32 addr)
{
	ACC4 v;
#if PREC_INT8
	asm volatile("ld.shared::cluster.v4.s32 {%0, %1, %2, %3}, [%4];"
		     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
		     : "r"(addr)
		     : "memory");
#else
	asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
		     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
		     : "r"(addr)
		     : "memory");
#endif
	return v;
}
// Pins accumulators in program order relative to the asm around them (wgmma writes them asynchronously).
template <int N>
__device__ __forceinline__ void fence_regs(float (&d)[N])
{
#pragma unroll
	for (int i = 0; i < N; i++)
		asm volatile("" : "+f"(d[i])::"memory");
}
template <int N>
__device__ __forceinline__ void fence_regs(int (&d)[N])
{
#pragma unroll
	for (int i = 0; i < N; i++)
		asm volatile("" : "+r"(d[i])::"memory");
}
#if PREC_TF32
// 3xTF32: the n k-tiles of a group (the last is the ring's k-tile it) summed in tmp by the tensor cores: waits
// for their wgmmas, hands their stages back and adds tmp into acc on the CUDA cores (rounding to nearest).
__device__ __forceinline__ void tf32_group_end(ACC (&acc)[MI][BN / 2], ACC (&tmp)[MI][BN / 2], u32 empty0, u32 it,
					       int n, int lane)
{
	wgmma_wait<0>();
	if (lane == 0)
		for (int j = 0; j < n; j++)
			release_stage(empty0 + 8 * ((it - j) % STAGES));
#pragma unroll
	for (int mi = 0; mi < MI; mi++) {
		fence_regs(tmp[mi]);
#pragma unroll
		for (int r = 0; r < BN / 2; r++)
			acc[mi][r] += tmp[mi][r];
	}
}
#endif
// An accumulator pair acc[mi][r], acc[mi][r + 1] (r even: two adjacent columns of one row) as the two
// elements of C, for both epilogues: int32 as it is; fp16 rounded to nearest by one packed conversion (a
// cvt.rn.f16.f32 per element makes ptxas serialize the wgmmas, C7514).
struct c_pair {
	TC lo, hi;
};
__device__ __forceinline__ c_pair c_pair_of(ACC a, ACC b)
{
#if PREC_INT8 || PREC_TF32
	return {a, b};
#else
	u32 h;
	asm("cvt.rn.f16x2.f32 %0, %2, %1;" : "=r"(h) : "f"(a), "f"(b));
	return {(TC)(h & 0xffffu), (TC)(h >> 16)};
#endif
}

// Shared-memory matrix descriptor, 128-byte swizzle; lbo/sbo in bytes.
__device__ __forceinline__ u64 make_desc(u32 addr, u32 lbo, u32 sbo)
{
	return (u64)((addr & 0x3FFFF) >> 4) | ((u64)(lbo >> 4) << 16) | ((u64)(sbo >> 4) << 32) | (1ull << 62);
}

// wgmma m64nNk16 (fp16 → fp32), m64nNk32 (s8 → s32) and m64nNk8 (TF32 → fp32), A and B from shared memory
// through descriptors: one function wgmma_n<N> per N of the space, written by WGMMA_N below. Its asm operands
// are the N/2 accumulators d[0..N/2) ("%0".."%(N/2-1)", constraint "+f" or "+r"), then the descriptors da, db
// (%(N/2), %(N/2+1)), the scale-d flag (%(N/2+2): scd, 0 d = A·B, 1 d += A·B), and for fp16 the transpose bits
// TRA, TRB (1: M/N-major).
// WG_S<n>: the names "%0, ..., %(n-1)"; WG_O<n>(c): the operands d[0..n) with constraint "+" c.
#define WG_S8 "%0, %1, %2, %3, %4, %5, %6, %7"
#define WG_S16 WG_S8 ", %8, %9, %10, %11, %12, %13, %14, %15"
#define WG_S24 WG_S16 ", %16, %17, %18, %19, %20, %21, %22, %23"
#define WG_S32 WG_S24 ", %24, %25, %26, %27, %28, %29, %30, %31"
#define WG_S40 WG_S32 ", %32, %33, %34, %35, %36, %37, %38, %39"
#define WG_S48 WG_S40 ", %40, %41, %42, %43, %44, %45, %46, %47"
#define WG_S56 WG_S48 ", %48, %49, %50, %51, %52, %53, %54, %55"
#define WG_S64 WG_S56 ", %56, %57, %58, %59, %60, %61, %62, %63"
#define WG_S72 WG_S64 ", %64, %65, %66, %67, %68, %69, %70, %71"
#define WG_S80 WG_S72 ", %72, %73, %74, %75, %76, %77, %78, %79"
#define WG_S88 WG_S80 ", %80, %81, %82, %83, %84, %85, %86, %87"
#define WG_S96 WG_S88 ", %88, %89, %90, %91, %92, %93, %94, %95"
#define WG_S104 WG_S96 ", %96, %97, %98, %99, %100, %101, %102, %103"
#define WG_S112 WG_S104 ", %104, %105, %106, %107, %108, %109, %110, %111"
#define WG_S120 WG_S112 ", %112, %113, %114, %115, %116, %117, %118, %119"
#define WG_S128 WG_S120 ", %120, %121, %122, %123, %124, %125, %126, %127"
#define WG_D8(c, i)                                                                                           \
	"+" c(d[i]), "+" c(d[i + 1]), "+" c(d[i + 2]), "+" c(d[i + 3]), "+" c(d[i + 4]), "+" c(d[i + 5]),     \
		"+" c(d[i + 6]), "+" c(d[i + 7])
#define WG_O8(c) WG_D8(c, 0)
#define WG_O16(c) WG_O8(c), WG_D8(c, 8)
#define WG_O24(c) WG_O16(c), WG_D8(c, 16)
#define WG_O32(c) WG_O24(c), WG_D8(c, 24)
#define WG_O40(c) WG_O32(c), WG_D8(c, 32)
#define WG_O48(c) WG_O40(c), WG_D8(c, 40)
#define WG_O56(c) WG_O48(c), WG_D8(c, 48)
#define WG_O64(c) WG_O56(c), WG_D8(c, 56)
#define WG_O72(c) WG_O64(c), WG_D8(c, 64)
#define WG_O80(c) WG_O72(c), WG_D8(c, 72)
#define WG_O88(c) WG_O80(c), WG_D8(c, 80)
#define WG_O96(c) WG_O88(c), WG_D8(c, 88)
#define WG_O104(c) WG_O96(c), WG_D8(c, 96)
#define WG_O112(c) WG_O104(c), WG_D8(c, 104)
#define WG_O120(c) WG_O112(c), WG_D8(c, 112)
#define WG_O128(c) WG_O120(c), WG_D8(c, 120)
#define WG_STR(x) #x
// The precision's part: the instruction's shape and types, the accumulators' constraint, and for fp16 the
// transpose bits (immediates after the scale-d flag; int8 has none, both operands K-major).
#if PREC_INT8
#define WG_TYPES "k32.s32.s8.s8"
#define WG_C "r"
#define WG_TRANS(T1, T2) ""
#define WG_TRANS_IN
#elif PREC_TF32 // the scale immediates, no transpose bits (TF32 is read K-major only)
#define WG_TYPES "k8.f32.tf32.tf32"
#define WG_C "f"
#define WG_TRANS(T1, T2) ", 1, 1"
#define WG_TRANS_IN
#else
#define WG_TYPES "k16.f32.f16.f16"
#define WG_C "f"
#define WG_TRANS(T1, T2) ", 1, 1, %" WG_STR(T1) ", %" WG_STR(T2)
#define WG_TRANS_IN , "n"(TRA), "n"(TRB)
#endif
// NACC = N/2, and the operand numbers NACC, NACC + 1, NACC + 2 (fp16: and NACC + 3, NACC + 4) as literals.
#define WGMMA_N(N, NACC, DA, DB, SC, T1, T2)                                                                  \
	template <int TRA, int TRB>                                                                               \
	__device__ __forceinline__ void wgmma_n##N(ACC(&d)[NACC], u64 da, u64 db, int scd)                        \
	{                                                                                                         \
		asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" WG_STR(SC) ", 0;\n"                              \
			     "wgmma.mma_async.sync.aligned.m64n" WG_STR(N) WG_TYPES " {" WG_S##NACC "}, %" WG_STR(DA)    \
			     ", %" WG_STR(DB) ", p" WG_TRANS(T1, T2) ";\n}\n"                                             \
			     : WG_O##NACC(WG_C)                                                                       \
			     : "l"(da), "l"(db), "r"(scd) WG_TRANS_IN);                                               \
	}
WGMMA_N(16, 8, 8, 9, 10, 11, 12)
WGMMA_N(32, 16, 16, 17, 18, 19, 20)
WGMMA_N(64, 32, 32, 33, 34, 35, 36)
WGMMA_N(128, 64, 64, 65, 66, 67, 68)
WGMMA_N(144, 72, 72, 73, 74, 75, 76)
WGMMA_N(192, 96, 96, 97, 98, 99, 100)
WGMMA_N(208, 104, 104, 105, 106, 107, 108)
WGMMA_N(240, 120, 120, 121, 122, 123, 124)
WGMMA_N(256, 128, 128, 129, 130, 131, 132)

template <int TRA, int TRB>
__device__ __forceinline__ void wgmma_bn(ACC (&d)[BN / 2], u64 da, u64 db, int scd)
{
	if constexpr (BN == 16)
		wgmma_n16<TRA, TRB>(d, da, db, scd);
	else if constexpr (BN == 32)
		wgmma_n32<TRA, TRB>(d, da, db, scd);
	else if constexpr (BN == 64)
		wgmma_n64<TRA, TRB>(d, da, db, scd);
	else if constexpr (BN == 128)
		wgmma_n128<TRA, TRB>(d, da, db, scd);
	else if constexpr (BN == 144)
		wgmma_n144<TRA, TRB>(d, da, db, scd);
	else if constexpr (BN == 192)
		wgmma_n192<TRA, TRB>(d, da, db, scd);
	else if constexpr (BN == 208)
		wgmma_n208<TRA, TRB>(d, da, db, scd);
	else if constexpr (BN == 240)
		wgmma_n240<TRA, TRB>(d, da, db, scd);
	else
		wgmma_n256<TRA, TRB>(d, da, db, scd);
}

// ---- producer: one operand's tile per stage -------------------------------------------------------------
//
// A stage holds an operand tile as lines of 128 bytes (8 chunks of 16 bytes); chunk c of line l sits at
// l*128 + ((c ^ (l % 8)) * 16): the 128-byte swizzle, in 1024-byte atoms of 8 lines.
//   K-major (A 't', B 'n', int8 always): line l = row l of the tile (M or N index), 128 bytes of k.
//   MN-major (A 'n', B 't', fp16 only): line l = 64*g + k holds elements 64g..64g+63 (M or N) at depth k.
// The 128 producer threads: thread p takes chunk p%8 of lines p/8 + 16j, j = 0 .. ROWS/16-1, so its
// swizzled chunk position and its destination (+2048 bytes per j) are fixed.
template <int ROWS, bool KMAJ>
struct tile_loader {
	static constexpr int NJ = ROWS / 16;
	static constexpr int EPC = 16 / ES_AB; // elements per chunk
	const char *g;                          // this thread's chunk j = 0 at the current k-tile
	const char *safe;                       // a valid address for chunks that read nothing
	i64 jstride;                            // bytes from chunk j to j+1 (K-major) or j to j+1 within a group
	i64 kstep;                              // bytes from one k-tile to the next
	int lim;                                // K-major: lines of this thread in range are 16j < lim;
	                                        // MN-major: elements of group gg in range: lim - 64gg
	int kpos;                               // K-major: k of this thread's chunk at k-tile 0 / MN-major: line0
	u32 dst0;                               // stage-relative destination of chunk 0
	bool full;                              // every line (K-major) / element (MN-major) of the tile in range
	bool v8;                                // rows only 8-byte aligned: two 8-byte copies per chunk

	__device__ __forceinline__ void init(const TA *p, i64 ld, i64 rows, i64 row0, int pt, int vec)
	{
		v8 = vec < 16;
		const int ch = pt & 7, line0 = pt >> 3;
		safe = reinterpret_cast<const char *>(p);
		dst0 = line0 * 128 + ((ch ^ (line0 & 7)) << 4);
		full = rows - row0 >= ROWS;
		jstride = 16 * ld * ES_AB;
		if (KMAJ) {
			g = safe + ((row0 + line0) * ld + ch * EPC) * ES_AB;
			kstep = BK * ES_AB;
			const i64 l = rows - row0 - line0;
			lim = l <= 0 ? 0 : l >= ROWS ? ROWS : (int)l;
			kpos = ch * EPC;
		} else {
			g = safe + ((i64)line0 * ld + row0 + ch * EPC) * ES_AB;
			kstep = BK * ld * ES_AB;
			const i64 l = rows - row0 - ch * EPC;
			lim = l <= 0 ? 0 : l >= ROWS ? ROWS : (int)l;
			kpos = line0;
		}
	}
	// Skips t k-tiles (split-K: a block starts at its own k range).
	__device__ __forceinline__ void skip(i64 t) { g += t * kstep; }
	// Issues this thread's chunks of the k-tile starting at k0 into the stage tile at sbase, then advances.
	// K: the end of this block's k range.
	__device__ __forceinline__ void load(u32 sbase, i64 k0, i64 K)
	{
		if (v8)
			load_v<true>(sbase, k0, K);
		else
			load_v<false>(sbase, k0, K);
		g += kstep;
	}
	template <bool V8>
	__device__ __forceinline__ void load_v(u32 sbase, i64 k0, i64 K)
	{
		const u32 d = sbase + dst0;
		// An opaque copy of the stride: otherwise the compiler hoists q + j*stride for every j out of the
		// k loop, more 64-bit registers than the producer has (it spills).
		i64 js = jstride;
		asm volatile("" : "+l"(js));
		if (full && k0 + BK <= K) { // interior: every chunk whole
			const char *q = g;
			if (KMAJ) {
#pragma unroll
				for (int j = 0; j < NJ; j++, q += js)
					cp_chunk<V8>(d + j * 2048, q, q, 16);
			} else {
#pragma unroll
				for (int jj = 0; jj < 4; jj++, q += js)
#pragma unroll
					for (int gg = 0; gg < ROWS / 64; gg++)
						cp_chunk<V8>(d + (gg * 4 + jj) * 2048, q + gg * 64 * ES_AB, q, 16);
			}
		} else if (KMAJ) {
			const i64 left = (K - k0 - kpos) * ES_AB;
			const u32 kb = left <= 0 ? 0u : left >= 16 ? 16u : (u32)left;
			const char *q = g;
#pragma unroll
			for (int j = 0; j < NJ; j++, q += js)
				cp_chunk<V8>(d + j * 2048, q, safe, 16 * j < lim ? kb : 0u);
		} else {
			const char *q = g;
#pragma unroll
			for (int jj = 0; jj < 4; jj++, q += js) {
				const bool kin = k0 + kpos + 16 * jj < K;
#pragma unroll
				for (int gg = 0; gg < ROWS / 64; gg++) {
					const int left = (lim - 64 * gg) * ES_AB;
					const u32 b = !kin || left <= 0 ? 0u : left >= 16 ? 16u : (u32)left;
					cp_chunk<V8>(d + (gg * 4 + jj) * 2048, q + gg * 64 * ES_AB, safe, b);
				}
			}
		}
	}
};

#if ASPL
// ---- ASPLIT: A's part made in registers, wgmma with A from registers -----------------------------------------
static_assert(BN == 64 || BN == 128, "ASPLIT: BN 64 or 128");
static_assert(TF32_PROMOTE == 2, "ASPLIT: the consumer's loop takes the k-tiles two at a time");
// Part `part` of v's split as split3 makes it (tf32_round: gemm_fp32.cu, which this file is appended to in TF32).
__device__ __forceinline__ u32 tf32_part(float v, int part)
{
	const float big = tf32_round(v);
	return __float_as_uint(part ? big : tf32_round(v - big));
}
// d (+)= A·B, m64nNk8 TF32, A from registers: a[0..3] as a warp's rows 16w.. of mma.m16n8k8's A fragment (a0
// row g col q, a1 row g+8 col q, a2 row g col q+4, a3 row g+8 col q+4; g = lane/4, q = lane%4), B as above.
#define WGMMA_RA(N, NACC, A0, A1, A2, A3, DB, SC)                                                              \
	__device__ __forceinline__ void wgmma_ra_n##N(ACC(&d)[NACC], const u32(&a)[4], u64 db, int scd)           \
	{                                                                                                         \
		asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" WG_STR(SC) ", 0;\n"                              \
			     "wgmma.mma_async.sync.aligned.m64n" WG_STR(N) WG_TYPES " {" WG_S##NACC "}, {%" WG_STR(A0)   \
			     ", %" WG_STR(A1) ", %" WG_STR(A2) ", %" WG_STR(A3) "}, %" WG_STR(DB) ", p, 1, 1;\n}\n"      \
			     : WG_O##NACC(WG_C)                                                                       \
			     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scd));                         \
	}
WGMMA_RA(64, 32, 32, 33, 34, 35, 36, 37)
WGMMA_RA(128, 64, 64, 65, 66, 67, 68, 69)
__device__ __forceinline__ void wgmma_ra(ACC (&d)[BN / 2], const u32 (&a)[4], u64 db, int scd)
{
#if BN == 64
	wgmma_ra_n64(d, a, db, scd);
#else
	wgmma_ra_n128(d, a, db, scd);
#endif
}
// A thread's fragments of one k-tile (4 k8 steps) of its warp's rows, MI blocks of 64: the stage's A tile as
// copied (fp32, K-major, 128-byte swizzle: chunk c of line r at r*128 + ((c ^ (r % 8)) * 16)), each value made
// part `part` of the split (0 small = tf32(v - tf32(v)), 1 and 2 big = tf32(v): split3's A order). row0: the
// byte address of line 16*warp + g of this warpgroup's rows (its r % 8 is g, as for every line it reads).
__device__ __forceinline__ void a_frags(u32 (&f)[MI][4][4], u32 row0, int g, int q, int part)
{
#pragma unroll
	for (int mi = 0; mi < MI; mi++)
#pragma unroll
		for (int kk = 0; kk < 4; kk++) {
			const u32 lo = row0 + mi * 8192 + q * 4 + ((u32)((2 * kk) ^ g) << 4);
			const u32 hi = row0 + mi * 8192 + q * 4 + ((u32)((2 * kk + 1) ^ g) << 4);
			float v[4];
			asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v[0]) : "r"(lo) : "memory");
			asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v[1]) : "r"(lo + 1024) : "memory");
			asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v[2]) : "r"(hi) : "memory");
			asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v[3]) : "r"(hi + 1024) : "memory");
#pragma unroll
			for (int i = 0; i < 4; i++)
				f[mi][kk][i] = tf32_part(v[i], part);
		}
}
// A stored 'n' (M-major; the host's condition: lda % 4 == 0, K a multiple of BK): the stage's A tile as BK
// lines of BM floats, one per depth k (line k at k*BM*4 bytes), 16-byte chunk c (rows 4c..4c+3) at ((c ^ 2*(k %
// 4)) * 16) within it: the XOR spreads a fragment load's four depths over the banks. Thread pt of the producer
// copies chunks pt, pt + 128, ... of the k-tile at depth k0, rows from m0 (zeros past M).
__device__ __forceinline__ void a_mn_load(u32 st, const float *A, i64 lda, i64 M, i64 m0, i64 k0, int pt)
{
	constexpr int CPL = BM / 4, LS = 128 / CPL; // chunks per line; lines from one of a thread's chunks to the next
	const int c = pt % CPL, k0t = pt / CPL;     // its chunk in each line, its first line
	const i64 m = m0 + 4 * c, left = (M - m) * 4;
	const u32 bytes = left <= 0 ? 0u : left >= 16 ? 16u : (u32)left;
	const float *src = bytes ? A + (k0 + k0t) * lda + m : A;
	i64 js = bytes ? LS * lda : 0; // opaque (as tile_loader's): no address per chunk hoisted out of the k loop
	asm volatile("" : "+l"(js));
#pragma unroll
	for (int j = 0; j < BM / 16; j++, src += js) {
		const int k = k0t + LS * j;
		cp_async16(st + (u32)(k * BM * 4) + ((u32)(c ^ ((k & 3) * 2)) << 4), src, bytes);
	}
}
// a_frags for that layout: m0r the warpgroup's first row of this warp's (16*warp + g, its own rows lie at
// m0r + 64*mi and + 8), the depths 8kk + q and + 4 (both q modulo 4).
__device__ __forceinline__ void a_frags_mn(u32 (&f)[MI][4][4], u32 slot, int m0r, int q, int part)
{
#pragma unroll
	for (int mi = 0; mi < MI; mi++)
#pragma unroll
		for (int kk = 0; kk < 4; kk++) {
			float v[4];
#pragma unroll
			for (int i = 0; i < 4; i++) {
				const int m = m0r + 64 * mi + 8 * (i & 1), k = 8 * kk + q + 4 * (i >> 1);
				const u32 a = slot + (u32)(k * BM * 4) + ((u32)((m >> 2) ^ (2 * q)) << 4) + (u32)(m & 3) * 4;
				asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v[i]) : "r"(a) : "memory");
			}
#pragma unroll
			for (int i = 0; i < 4; i++)
				f[mi][kk][i] = tf32_part(v[i], part);
		}
}
template <int B>
struct ic {
	static constexpr int value = B;
};
#endif

// ---- split-K's partial sums, in register order: 16-byte vector q = mi * (BN/8) + r/4 of a thread at
// w[q * CT] (CT = the consumer threads; a warp's vector is 512 contiguous bytes) -------------------------
template <int CT>
__device__ __forceinline__ void store_partials(ACC4 *w, const ACC (&acc)[MI][BN / 2])
{
#pragma unroll
	for (int mi = 0; mi < MI; mi++)
#pragma unroll
		for (int r = 0; r < BN / 2; r += 4)
			w[(mi * (BN / 8) + r / 4) * CT] = make_acc4(acc[mi][r], acc[mi][r + 1], acc[mi][r + 2], acc[mi][r + 3]);
}
// Adds one split's partial sums to acc; load(q) returns the thread's vector q of that split.
template <typename Load>
__device__ __forceinline__ void add_partials(ACC (&acc)[MI][BN / 2], Load load)
{
#pragma unroll
	for (int mi = 0; mi < MI; mi++)
#pragma unroll
		for (int r = 0; r < BN / 2; r += 4) {
			const ACC4 v = load(mi * (BN / 8) + r / 4);
			acc[mi][r] += v.x;
			acc[mi][r + 1] += v.y;
			acc[mi][r + 2] += v.z;
			acc[mi][r + 3] += v.w;
		}
}

// ---- a resident A (AR): fp16 A stored 'n' whose columns neither TMA nor cp.async can read (M = 35: 70
// bytes), in a block that holds all its rows (BM 64, M <= 64), without the repack launch -------------------
//
// The copy engine without a tensor map: bytes (a multiple of 16) from global src (16-byte aligned) to shared
// dst, completing on bar like a box.
__device__ __forceinline__ void bulk_load(u32 dst, const void *src, u32 bytes, u32 bar)
{
	asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
			     dst),
		     "l"(reinterpret_cast<u64>(src)), "r"(bytes), "r"(bar)
		     : "memory");
}
// The staging h holds the block's k range of A as stored (depth k's column at k*lda elements, rows 0..M-1 of
// the last one). Writes it as K-major tiles in the 128-byte swizzle: depths 64t..64t+63 into stage t's A slot
// (sbase + t * STAGE_BYTES, where the consumers' descriptors read stage t), row m at m * 128 bytes, chunk c
// (depths 8c..8c+7 of the tile) at ((c ^ (m & 7)) * 16). Thread lt of nthr builds whole chunks: eight
// independent 2-byte loads along the staging's column stride (consecutive threads take consecutive rows: a
// warp's loads fall on contiguous bytes), one 16-byte store. Depths >= kn of the last tile are zeros (B's rows
// there are zeros, but 0 times a stale NaN is not), and are not read (they lie past the staging); rows >= M
// are not written (they reach only rows of C that are never stored). Plain loads: the compiler keeps them
// after the caller's mbarrier wait (an asm with a memory clobber).
__device__ __forceinline__ void ar_layout(u32 sbase, const unsigned short *h, u32 M, u32 lda, u32 kn, int ntiles,
					  u32 lt, u32 nthr)
{
	const u32 nchunks = (u32)ntiles * 8u * M;
	u32 c = lt / M, m = lt - c * M;               // chunk c over the whole range (8 per tile), row m
	const u32 dc = nthr / M, dm = nthr - dc * M; // the step of nthr chunks
#pragma unroll 2
	for (u32 q = lt; q < nchunks; q += nthr) {
		const u32 k0 = 8u * c;
		const unsigned short *col = h + k0 * lda + m;
		u32 r[4];
		if (k0 + 8u <= kn) {
#pragma unroll
			for (int i = 0; i < 4; i++)
				r[i] = (u32)col[(2 * i) * lda] | (u32)col[(2 * i + 1) * lda] << 16;
		} else {
#pragma unroll
			for (int i = 0; i < 4; i++) {
				const u32 ka = k0 + 2u * (u32)i;
				r[i] = (ka < kn ? (u32)col[(2 * i) * lda] : 0u) |
				       (ka + 1u < kn ? (u32)col[(2 * i + 1) * lda] : 0u) << 16;
			}
		}
		const u32 dst = sbase + (c >> 3) * (u32)STAGE_BYTES + m * 128u + (((c & 7u) ^ (m & 7u)) << 4);
		asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(dst), "r"(r[0]), "r"(r[1]), "r"(r[2]),
			     "r"(r[3])
			     : "memory");
		c += dc, m += dm;
		if (m >= M)
			m -= M, c++;
	}
}

// ---- the kernel body -------------------------------------------------------------------------------------

// The origin (m0, n0) of this block's tile in unit pid of an mt x nt grid of units, in the grouped order: GM
// consecutive M-units share one N-unit (L2 reuse). A unit is a tile, or with MC a pair of tiles adjacent in
// M (MC_B) or N, of which rank takes the first (0) or the second (1).
__device__ __forceinline__ void tile_origin(i64 pid, i64 mt, i64 nt, u32 rank, i64 &m0, i64 &n0)
{
	const i64 width = (i64)GM * nt;
	const i64 first_m = (pid / width) * GM;
	const i64 gsize = mt - first_m < GM ? mt - first_m : GM;
	const i64 mu = first_m + (pid % width) % gsize, nu = (pid % width) / gsize;
	m0 = (MC_B ? 2 * mu + rank : mu) * BM;
	n0 = (MC && !MC_B ? 2 * nu + rank : nu) * BN;
}

// One operand's tile of a stage from the copy engine: K-major one box of BK x ROWS, MN-major ROWS/64 boxes of
// 64 elements x BK, 8 KiB apart (the LBO of the descriptors). SHARED (a pair's shared operand): the box has
// half the outer lines (K-major rows, MN-major k), and this rank copies its half into both ranks.
template <int ROWS, bool KMAJ, bool SHARED>
__device__ __forceinline__ void tma_tile(u32 dst, const tmap_t *map, int row0, int k0, u32 bar, u32 rank)
{
	if (KMAJ) {
		if (SHARED)
			tma_load_mc(dst + rank * (ROWS / 2) * 128, map, k0, row0 + (int)rank * (ROWS / 2), bar, 3);
		else
			tma_load(dst, map, k0, row0, bar);
	} else {
#pragma unroll
		for (int g = 0; g < ROWS / 64; g++) {
			if (SHARED)
				tma_load_mc(dst + g * 8192 + rank * (BK / 2) * 128, map, row0 + 64 * g,
					    k0 + (int)rank * (BK / 2), bar, 3);
			else
				tma_load(dst + g * 8192, map, row0 + 64 * g, k0, bar);
		}
	}
}

// TA_T / TB_T: 1 when A / B is stored transposed ('t'). AR: A is resident (above; the host asks for it with
// vec_a == 0 where AR_OK).
template <int TA_T, int TB_T, bool AR>
__device__ __forceinline__ void gemm_body(i64 M, i64 N, i64 K, const TA *__restrict__ A, i64 lda,
					  const TA *__restrict__ B, i64 ldb, TC *__restrict__ C, i64 ldc,
					  ACC *__restrict__ W, unsigned *__restrict__ counters, i64 k_chunk, int vec_a,
					  int vec_b, int vec_c, const tmap_t *tma, const tmap_t *tmb)
{
	// A is K-major when stored transposed or resident (AR: laid out K-major in shared memory by this kernel),
	// B when stored as is. Transpose bits: 1 = M/N-major.
	constexpr bool A_KMAJ = TA_T == 1 || AR, B_KMAJ = TB_T == 0;
	constexpr int TRA = A_KMAJ ? 0 : 1, TRB = B_KMAJ ? 0 : 1;
	static_assert(!AR || (AR_OK && TA_T == 0), "a resident A: fp16 A 'n', BM 64, WGS 1, TMA 1, PERSIST 0");
	// AR: past the ring's barriers, one mbarrier (A's k range landed), then the staging of that range as
	// stored, ((k_chunk - 1) * lda + M) elements, 16-byte aligned.
	const u32 stg_bytes = AR ? (u32)((((k_chunk - 1) * lda + M) * ES_AB + 15) & ~15ll) : 0u;

	extern __shared__ __align__(1024) unsigned char smem[];
	{
		u32 dyn;
		asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
		if (dyn < (u32)SMEM_BYTES + (AR ? 16u + stg_bytes : 0u))
			__trap();
		if (AR && (M > 64 || k_chunk > (i64)STAGES * BK)) // the host's conditions for a resident A
			__trap();
#if CLK
		u32 ncta;
		asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(ncta));
		if (gridDim.z > 1 && ncta != gridDim.z) // the splits of a tile must be one cluster
			__trap();
#endif
#if MC
		u32 ncta;
		asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(ncta));
		if (ncta != 2 || gridDim.z != 1) // a pair is a cluster of two; no split-K
			__trap();
#endif
	}
	// 1024-byte aligned base: the swizzle pattern repeats on 1024-byte boundaries of the address.
	const u32 raw = smem_u32(smem);
	const u32 sbase = (raw + 1023u) & ~1023u;
	unsigned char *const gbase = smem + (sbase - raw);
	const u32 full0 = sbase + STAGES * STAGE_BYTES, empty0 = full0 + 8 * STAGES;
	const u32 abar = empty0 + 8 * STAGES, stg = abar + 16; // AR

	const int tid = threadIdx.x;
	if (tid == 0) {
		for (int s = 0; s < STAGES; s++) {
			mbar_init(full0 + 8 * s, TMA ? 1 : 128); // TMA: one expect_tx; else each producer thread's copies
			// one arrival per consumer warp that reads it (MC: in either rank of the pair)
			mbar_init(empty0 + 8 * s, (PP ? 4 : 4 * WGS) * (MC ? 2 : 1));
		}
		if (AR)
			mbar_init(abar, 1); // the staging's expect_tx
	}
#if MC // the other rank's copies and arrivals reach these barriers only once they are initialized
	asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	cluster_sync();
#else
	__syncthreads();
#endif

	// Tiles: block b takes tile b, and with PERSIST also b + gridDim.x, b + 2·gridDim.x, ... (no split-K).
	// The ring's stage and phase run on across a block's tiles (it counts its k-tiles). MC: the units are
	// pairs of tiles, pair b/2 for block b, then b/2 + gridDim.x/2, ... (PERSIST).
	// UNIT0: the block's first unit, read where it is used (a copy in a register changed the SASS of the
	// kernels without pairs).
#if MC
	const u32 rank = blockIdx.x & 1;
#define UNIT0 (blockIdx.x >> 1)
	const i64 mt = MC_B ? ((M + BM - 1) / BM + 1) / 2 : (M + BM - 1) / BM;
	const i64 nt = MC_B ? (N + BN - 1) / BN : ((N + BN - 1) / BN + 1) / 2, ntile_all = mt * nt;
	const i64 tstep = PERSIST ? (i64)(gridDim.x >> 1) : ntile_all;
#else
	const u32 rank = 0;
#define UNIT0 blockIdx.x
	const i64 mt = (M + BM - 1) / BM, nt = (N + BN - 1) / BN, ntile_all = mt * nt;
	const i64 tstep = PERSIST ? (i64)gridDim.x : ntile_all;
#endif
	// Split-K: this block's k range [kbeg, kend); k_chunk is a multiple of BK (>= K without split).
	const i64 kbeg = (i64)blockIdx.z * k_chunk, kend = kbeg + k_chunk < K ? kbeg + k_chunk : K;
	const int ntiles = kend > kbeg ? (int)((kend - kbeg + BK - 1) / BK) : 0;

	if (tid >= 128 * WGS) {
		// ---- producer warpgroup ----
#if WGS == 2
		asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(PROD_REGS));
#endif
		const int pt = tid - 128 * WGS;
		u32 it = 0;
#if TMA
		// One thread issues every stage: the stage's bytes expected on its full barrier (MC: the other rank's
		// half of the shared tile included), then B's box(es), then (after griddepcontrol.wait at the first)
		// A's (tma_tile).
		if (pt == 0) {
			if (!AR)
				asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<u64>(tma)) : "memory");
			asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<u64>(tmb)) : "memory");
		}
		if (AR && pt == 0 && ntiles > 0) {
			// AR: the block's k range of A as stored, first: one bulk copy per k-tile of the 16-byte
			// multiple of its bytes, the rest (under 16 bytes) by this thread, before the arrival that
			// publishes it. Its start, kbeg * lda elements in, is 16-byte aligned (kbeg a multiple of 64).
			asm volatile("griddepcontrol.wait;" ::: "memory");
			const unsigned char *src = reinterpret_cast<const unsigned char *>(A + kbeg * lda);
			const u32 bytes = (u32)(((kend - kbeg - 1) * lda + M) * ES_AB), bulk = bytes & ~15u;
			for (u32 b = bulk; b < bytes; b += 2)
				*reinterpret_cast<unsigned short *>(gbase + (stg - sbase) + b) =
					*reinterpret_cast<const unsigned short *>(src + b);
			mbar_expect_tx(abar, bulk);
			const u32 piece = (u32)(BK * lda * ES_AB); // one k-tile's columns: a multiple of 16 bytes
			for (u32 b = 0; b < bulk; b += piece)
				bulk_load(stg + b, src + b, bulk - b < piece ? bulk - b : piece, abar);
		}
#pragma unroll 1
		for (i64 tile = UNIT0; pt == 0 && tile < ntile_all; tile += tstep) {
			i64 m0, n0;
			tile_origin(tile, mt, nt, rank, m0, n0); // MC: the shared tile's origin is the same in both ranks
#pragma unroll 1
			for (int t = 0; t < ntiles; t++, it++) {
				const u32 s = it % STAGES, full = full0 + 8 * s;
				mbar_wait(empty0 + 8 * s, ((it / STAGES) & 1) ^ 1);
				const u32 st = sbase + s * STAGE_BYTES;
				const int k0 = (int)(kbeg + (i64)t * BK);
				mbar_expect_tx(full, AR ? BN * 128 : STAGE_BYTES); // AR: B alone
				tma_tile<BN, B_KMAJ, MC_B>(st + BM * 128, tmb, (int)n0, k0, full, rank);
				if (AR)
					continue;
				if (it == 0) // a kernel that wrote A (the host's repack) may still run: wait for it
					asm volatile("griddepcontrol.wait;" ::: "memory");
				tma_tile<BM, A_KMAJ, MC && !MC_B>(st, tma, (int)m0, k0, full, rank);
			}
		}
		if (AR && pt >= 32) { // AR: the producer's idle warps lay out A with the consumers (threads 128..223)
			if (ntiles > 0) {
				mbar_wait(abar, 0);
				const unsigned short *h = reinterpret_cast<const unsigned short *>(gbase + (stg - sbase));
				ar_layout(sbase, h, (u32)M, (u32)lda, (u32)(kend - kbeg), ntiles, (u32)pt + 96u, 224u);
				fence_proxy_async(); // generic-proxy writes, read by the wgmmas (async proxy)
			}
			asm volatile("bar.arrive 6, 224;" ::: "memory");
		}
#else
		(void)tma;
		(void)tmb;
#pragma unroll 1
		for (i64 tile = UNIT0; tile < ntile_all; tile += tstep) {
			i64 m0, n0;
			tile_origin(tile, mt, nt, rank, m0, n0);
			tile_loader<BM, A_KMAJ> la;
			tile_loader<BN, B_KMAJ> lb;
			la.init(A, lda, M, m0, pt, vec_a);
			lb.init(B, ldb, N, n0, pt, vec_b);
#if PAIR // the remainder parts, BK floats along each line; both parts step 2 * BK floats a k-tile
			tile_loader<BM, A_KMAJ> la2;
			tile_loader<BN, B_KMAJ> lb2;
			la2.init(A + BK, lda, M, m0, pt, vec_a);
			lb2.init(B + BK, ldb, N, n0, pt, vec_b);
			la.kstep = la2.kstep = lb.kstep = lb2.kstep = 2 * BK * ES_AB;
			la2.skip(kbeg / BK);
			lb2.skip(kbeg / BK);
#endif
#if !ASPL // (ASPLIT 1: A's position is worked out per k-tile below)
			la.skip(kbeg / BK);
#endif
			lb.skip(kbeg / BK);
#if ASPL // k-tile T = kbeg/BK + t: A's depths (T/3)*BK.. as stored (the consumers make part T % 3 of them)
			const char *const ga0 = la.g;
			const i64 T0 = kbeg / BK, kp = K / 3;
#endif
#pragma unroll 1
			for (int t = 0; t < ntiles; t++, it++) {
				const u32 s = it % STAGES;
				mbar_wait(empty0 + 8 * s, ((it / STAGES) & 1) ^ 1);
				const u32 st = sbase + s * STAGE_BYTES;
#if PAIR // the stage: A big, A small, B big, B small; positions along the lines of two parts
				const i64 kq = 2 * (kbeg + (i64)t * BK);
				lb.load(st + 2 * BM * 128, kq, 2 * kend);
				lb2.load(st + (2 * BM + BN) * 128, kq + BK, 2 * kend);
#else
				lb.load(st + BM * 128, kbeg + (i64)t * BK, kend);
#endif
				if (it == 0) // a kernel that wrote A (the host's repack) may still run: wait for it
					asm volatile("griddepcontrol.wait;" ::: "memory");
#if ASPL
				if constexpr (A_KMAJ) {
					la.g = ga0 + ((T0 + t) / 3) * la.kstep;
					la.load(st, ((T0 + t) / 3) * BK, kp);
				} else {
					a_mn_load(st, A, lda, M, m0, ((T0 + t) / 3) * BK, pt);
				}
#elif PAIR
				la.load(st, kq, 2 * kend);
				la2.load(st + BM * 128, kq + BK, 2 * kend);
#else
				la.load(st, kbeg + (i64)t * BK, kend);
#endif
				mbar_arrive_cpasync(full0 + 8 * s);
			}
		}
#endif
#if CLK
		if (gridDim.z > 1) { // the consumers' two cluster barriers count every thread of the cluster
			cluster_sync();
			cluster_sync();
		}
#endif
#if MC // the consumers' last cluster barrier (below) counts every thread of the pair
		__syncwarp();
		cluster_sync();
#endif
		return;
	}

	// ---- consumer warpgroups ----
#if WGS == 2
	asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(CONS_REGS));
#endif
	// the warpgroup's index broadcast from lane 0, so that ptxas knows it is the same in every lane and keeps
	// the descriptors built from it in uniform registers (no R2UR a wgmma: the conv consumers' 66312fa)
	const int wg = __shfl_sync(0xffffffffu, tid >> 7, 0), warp = (tid >> 5) & 3, lane = tid & 31;
	if (AR) { // A's tiles laid out by the consumers and the producer's warps 1..3 (named barrier 6)
		if (ntiles > 0) {
			mbar_wait(abar, 0);
			const unsigned short *h = reinterpret_cast<const unsigned short *>(gbase + (stg - sbase));
			ar_layout(sbase, h, (u32)M, (u32)lda, (u32)(kend - kbeg), ntiles, (u32)tid, 224u);
			fence_proxy_async();
		}
		named_sync(6, 224);
	}
	// Descriptors at stage 0, k-step 0. K-major: 8-line groups 1024 bytes apart (SBO), next k-step +32 bytes.
	// MN-major: 8-k groups 1024 bytes apart (SBO), 64-element groups 8192 bytes apart (LBO), next k-step
	// (16 k = two 8-k groups) +2048 bytes.
	const u64 da0 = make_desc(sbase + (PP ? 0 : wg * MI) * 64 * 128, A_KMAJ ? 16 : 8192, 1024);
	const u64 db0 = make_desc(sbase + (1 + PAIR) * BM * 128, B_KMAJ ? 16 : 8192, 1024); // PAIR: B big
	constexpr u32 KSTEP_A = A_KMAJ ? 32 : 2048, KSTEP_B = B_KMAJ ? 32 : 2048; // bytes per wgmma k-step
	constexpr u32 MSTEP_A = 64 * 128;                                      // next m64 block: 8 KiB either way

	// Ping-pong: this warpgroup takes the block's tiles wg, wg + 2, ... (the ring's k-tiles of the others
	// are the other warpgroup's), and the two take turns through the ring: a warpgroup starts a tile's
	// k-tiles once the other has passed the full barriers of its previous tile (named barrier 4 + wg; the
	// other arrives there). Without the turns, a warpgroup would wait on a stage a whole use ahead of the
	// ring, and the parity of an mbarrier cannot tell that use from the one before it.
	u32 it = PP ? wg * ntiles : 0;
#pragma unroll 1
	for (i64 tile = UNIT0 + (PP ? wg * tstep : 0); tile < ntile_all; tile += (PP ? 2 : 1) * tstep) {
		i64 m0, n0;
		tile_origin(tile, mt, nt, rank, m0, n0);
#if PP
		if (tile != UNIT0) // every tile but the block's first: wait for the turn
			asm volatile("bar.sync %0, 256;" ::"r"(4 + wg) : "memory");
#endif
		ACC acc[MI][BN / 2];
#pragma unroll
		for (int mi = 0; mi < MI; mi++)
#pragma unroll
			for (int r = 0; r < BN / 2; r++)
				acc[mi][r] = 0;
#if PREC_TF32
		ACC tmp[MI][BN / 2]; // TF32_PROMOTE k-tiles' sum (above: the truncation of the tensor cores' accumulation)
#endif
#if ASPL
		// Two k-tiles a step (a TF32_PROMOTE group): each reads A's fragments from the stage into its own
		// registers (b), made into part T % 3, and issues its wgmmas with A from them; the registers stay
		// untouched until the group's wgmmas have retired (wait 0), then the group's sum is added.
		u32 af[2][MI][4][4];
		const int g = lane >> 2, q = lane & 3;
		auto ktile = [&](auto bc, int t) {
			constexpr int b = decltype(bc)::value;
			const u32 s = it % STAGES;
			mbar_wait(full0 + 8 * s, (it / STAGES) & 1);
			fence_proxy_async(); // B: cp.async's writes, read by the wgmmas (async proxy)
			if constexpr (A_KMAJ)
				a_frags(af[b], sbase + s * STAGE_BYTES + (u32)((wg * MI * 64 + warp * 16 + g) * 128), g, q,
					(int)((kbeg / BK + t) % 3));
			else
				a_frags_mn(af[b], sbase + s * STAGE_BYTES, wg * MI * 64 + warp * 16 + g, q, (int)((kbeg / BK + t) % 3));
			const u64 soff = (u64)((s * STAGE_BYTES) >> 4);
			wgmma_fence();
#pragma unroll
			for (int kk = 0; kk < 4; kk++)
#pragma unroll
				for (int mi = 0; mi < MI; mi++)
					wgmma_ra(tmp[mi], af[b][mi][kk], db0 + soff + ((kk * KSTEP_B) >> 4), kk > 0 || b != 0);
			wgmma_commit();
			if (b == 1 || t + 1 == ntiles) {
				tf32_group_end(acc, tmp, empty0, it, b + 1, lane);
#pragma unroll
				for (int j = 0; j < 2; j++) // A's registers were read by those wgmmas: untouched until now
#pragma unroll
					for (int mi = 0; mi < MI; mi++)
#pragma unroll
						for (int kk = 0; kk < 4; kk++)
							fence_regs(reinterpret_cast<int(&)[4]>(af[j][mi][kk]));
			}
			it++;
		};
#pragma unroll 1
		for (int t = 0; t < ntiles; t += 2) {
			ktile(ic<0>{}, t);
			if (t + 1 < ntiles)
				ktile(ic<1>{}, t + 1);
		}
#else
#pragma unroll 1
		for (int t = 0; t < ntiles; t++, it++) {
			const u32 s = it % STAGES;
			mbar_wait(full0 + 8 * s, (it / STAGES) & 1);
			// cp.async wrote through the generic proxy and wgmma reads through the async one: a fence. The
			// copy engine writes through the async proxy, ordered by the full barrier: no fence (it is a MEMBAR).
#if !TMA
			fence_proxy_async();
#endif
			const u64 soff = (u64)((s * STAGE_BYTES) >> 4);
			wgmma_fence();
#if PAIR // small·big, big·small, big·big (the three-part copies' order of parts): A small is BM lines past A
	 // big, B small BN lines past B big
#pragma unroll
			for (int pr = 0; pr < 3; pr++)
#pragma unroll
				for (int kk = 0; kk < 4; kk++)
#pragma unroll
					for (int mi = 0; mi < MI; mi++)
						wgmma_bn<TRA, TRB>(tmp[mi],
								   da0 + soff + (((pr == 0 ? BM * 128 : 0) + mi * MSTEP_A + kk * KSTEP_A) >> 4),
								   db0 + soff + (((pr == 1 ? BN * 128 : 0) + kk * KSTEP_B) >> 4),
								   pr > 0 || kk > 0 || t % TF32_PROMOTE != 0);
#else
#pragma unroll
			for (int kk = 0; kk < BK * ES_AB / 32; kk++) {
#pragma unroll
				for (int mi = 0; mi < MI; mi++)
#if PREC_TF32
					wgmma_bn<TRA, TRB>(tmp[mi], da0 + soff + ((mi * MSTEP_A + kk * KSTEP_A) >> 4),
							   db0 + soff + ((kk * KSTEP_B) >> 4), kk > 0 || t % TF32_PROMOTE != 0);
#else
					wgmma_bn<TRA, TRB>(acc[mi], da0 + soff + ((mi * MSTEP_A + kk * KSTEP_A) >> 4),
							   db0 + soff + ((kk * KSTEP_B) >> 4), 1);
#endif
			}
#endif // PAIR
			wgmma_commit();
#if INFLIGHT
			wgmma_wait<1>(); // the previous k-tile's wgmmas have retired: hand its stage back
			if (t > 0 && lane == 0)
				release_stage(empty0 + 8 * ((it - 1) % STAGES));
#elif PREC_TF32
			if ((t + 1) % TF32_PROMOTE == 0 || t + 1 == ntiles)
				tf32_group_end(acc, tmp, empty0, it, t % TF32_PROMOTE + 1, lane);
#else
			wgmma_wait<0>(); // this k-tile's wgmmas have retired: hand its stage back
			if (lane == 0)
				release_stage(empty0 + 8 * s);
#endif
		}
#endif // ASPLIT
#if PP
		if (tile + tstep < ntile_all) // past this tile's full barriers: the block's next tile is the other's
			asm volatile("bar.arrive %0, 256;" ::"r"(5 - wg) : "memory");
#endif
		wgmma_wait<0>();
#if INFLIGHT && PERSIST
		if (ntiles > 0 && lane == 0) // the tile's last stage: the next tile's k-tiles need it
			release_stage(empty0 + 8 * ((it - 1) % STAGES));
#endif
#pragma unroll
		for (int mi = 0; mi < MI; mi++)
			fence_regs(acc[mi]);

		// ---- split-K (never with PERSIST): every split stores its accumulators to W in register order,
		// 16 bytes at a time, W[z][tile][reg/4][thread][4] (coalesced: a warp's store is 512 contiguous
		// bytes); the last split of the tile to arrive sums all of them in the order z = 0, 1, ...
		// (deterministic, in fp32 / int32) into its registers and goes on to the epilogue. W holds
		// splits · tiles · BM · BN elements. ----
#if CLK
		// ---- split-K across a cluster (CLK): the splits of this tile are the cluster's CTAs, rank z = blockIdx.z.
		// Splits 1.. store their accumulators to their own ring in register order ([reg/4][thread], 16 bytes);
		// after a cluster barrier, split 0 adds them to its registers in the order z = 1, 2, ... (the same sums
		// as through W: deterministic) and, after a second one that lets the others exit, runs the epilogue. ----
		if (gridDim.z > 1) {
			constexpr int CT = 128 * WGS;
			named_sync(1, CT); // every consumer is past its last wgmma: the ring is free
			const u32 mine = sbase + (u32)tid * 16u;
			if (blockIdx.z != 0)
				store_partials<CT>(reinterpret_cast<ACC4 *>(gbase) + tid, acc);
			cluster_sync();
			if (blockIdx.z == 0) {
#pragma unroll 1
				for (u32 z = 1; z < gridDim.z; z++) {
					u32 remote;
					asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(mine), "r"(z));
					add_partials(acc, [&](int q) { return ld_cluster4(remote + (u32)(q * CT) * 16u); });
				}
			}
			cluster_sync(); // split 0 has read every partial sum: the others' shared memory may go
			if (blockIdx.z != 0)
				return;
		}
#else
		if (gridDim.z > 1) {
			constexpr int CT = 128 * WGS, NR = MI * (BN / 2);
			// The flag lives at the start of the ring (no static shared memory, which would count against the
			// opt-in limit): written only after the barrier below, when every consumer's wgmmas have retired.
			volatile unsigned *last_split = reinterpret_cast<volatile unsigned *>(gbase);
			const i64 tile_elems = (i64)NR * CT;
			store_partials<CT>(
				reinterpret_cast<ACC4 *>(W + ((i64)blockIdx.z * gridDim.x + blockIdx.x) * tile_elems) + tid, acc);
			__threadfence();
			named_sync(1, CT);
			if (tid == 0)
				*last_split = atomicAdd(&counters[blockIdx.x], 1u) == gridDim.z - 1;
			named_sync(1, CT);
			if (!*last_split)
				return;
			__threadfence();
#pragma unroll
			for (int mi = 0; mi < MI; mi++)
#pragma unroll
				for (int r = 0; r < BN / 2; r++)
					acc[mi][r] = 0;
			const ACC4 *wz = reinterpret_cast<const ACC4 *>(W + (i64)blockIdx.x * tile_elems) + tid;
			const i64 zstep = (i64)gridDim.x * tile_elems / 4;
#pragma unroll 1
			for (unsigned z = 0; z < gridDim.z; z++, wz += zstep)
				add_partials(acc, [&](int q) { return __ldcg(wz + q * CT); });
			if (tid == 0)
				counters[blockIdx.x] = 0;
		}
#endif

		// ---- epilogue, ping-pong: straight from the registers (a warp's store is 8 rows of 4 columns) while
		// the other warpgroup runs its wgmmas; then past the other warpgroup's tile in the ring ----
#if PP
		it += ntiles;
#pragma unroll
		for (int mi = 0; mi < MI; mi++) {
			const i64 gr0 = m0 + 64 * mi + 16 * warp + (lane >> 2);
#pragma unroll
			for (int r = 0; r < BN / 2; r += 2) { // acc[r], acc[r+1]: columns gc, gc+1 of row gr
				const i64 gc = n0 + 8 * (r / 4) + 2 * (lane & 3), gr = gr0 + 8 * ((r >> 1) & 1);
				if (gr >= M || gc >= N)
					continue;
				const c_pair v = c_pair_of(acc[mi][r], acc[mi][r + 1]);
				TC *dst = C + gc * ldc + gr;
				dst[0] = v.lo;
				if (gc + 1 < N)
					dst[ldc] = v.hi;
			}
		}
#else
		// ---- epilogue: through shared memory, the ring (free once every consumer is past its last wgmma) or,
		// with PERSIST, an area of its own (the producer is already filling the ring with the next tile) ----
		constexpr int ROWS = 64 * MI;             // rows of this warpgroup's tile
		constexpr int CS = EPI_CS;                // bytes per staged column (padded: conflict-free stores)
#if PERSIST
		unsigned char *const stg = gbase + STAGES * STAGE_BYTES + 16 * STAGES + wg * BN * CS;
#else
		named_sync(1, 128 * WGS);
		unsigned char *const stg = gbase + wg * BN * CS;
#endif
#pragma unroll
		for (int mi = 0; mi < MI; mi++) {
#pragma unroll
			for (int r = 0; r < BN / 2; r += 2) { // acc[r], acc[r+1]: columns col, col+1 of one row
				const int col = 8 * (r / 4) + 2 * (lane & 3);
				const int row = 64 * mi + 16 * warp + (lane >> 2) + 8 * ((r >> 1) & 1);
				const c_pair v = c_pair_of(acc[mi][r], acc[mi][r + 1]);
				*reinterpret_cast<TC *>(stg + col * CS + row * ES_C) = v.lo;
				*reinterpret_cast<TC *>(stg + (col + 1) * CS + row * ES_C) = v.hi;
			}
		}
		named_sync(2 + wg, 128);
		constexpr int EPV = 16 / ES_C;   // elements per 16-byte vector
		constexpr int CPC = ROWS / EPV;  // vectors per column
		const int wt = tid & 127;
		const i64 r0 = m0 + wg * ROWS;
#pragma unroll 4
		for (int q = wt; q < BN * CPC; q += 128) {
			const int col = q / CPC, part = q % CPC;
			const i64 gc = n0 + col, gr = r0 + part * EPV;
			if (gc >= N || gr >= M)
				continue;
			const uint4 v = *reinterpret_cast<const uint4 *>(stg + col * CS + part * 16);
			TC *dst = C + gc * ldc + gr;
			if (vec_c && gr + EPV <= M) {
				*reinterpret_cast<uint4 *>(dst) = v;
			} else {
				const TC *e = reinterpret_cast<const TC *>(&v);
#pragma unroll
				for (int u = 0; u < EPV; u++)
					if (gr + u < M)
						dst[u] = e[u];
			}
		}
#if PERSIST
		named_sync(2 + wg, 128); // the staging area is read out before the next tile writes it
#endif
#endif // PP
	} // tiles
#if MC
	// The other rank's consumers arrive on this block's empty barriers until their last k-tile: neither
	// block exits (and gives up its shared memory) before both are done.
	cluster_sync();
#endif
#undef UNIT0
}

// tma, tmb: the tensor maps of A and B (read only with TMA; the host passes zeros otherwise).
#define GEMM_ARGS                                                                                        \
	i64 M, i64 N, i64 K, const TA *__restrict__ A, i64 lda, const TA *__restrict__ B, i64 ldb,         \
		TC *__restrict__ C, i64 ldc, ACC *__restrict__ W, unsigned *__restrict__ counters, i64 k_chunk, \
		int vec_a, int vec_b, int vec_c, const __grid_constant__ tmap_t tma,                    \
		const __grid_constant__ tmap_t tmb
#define GEMM_PASS M, N, K, A, lda, B, ldb, C, ldc, W, counters, k_chunk, vec_a, vec_b, vec_c, &tma, &tmb

#if PREC_INT8 || PREC_TF32
#if ASPL // A as stored 'n' (B the split copy, 'n')
extern "C" __global__ void __launch_bounds__(THREADS, 1) gemm_nn(GEMM_ARGS) { ONLY(LAYOUT_NN, gemm_body<0, 0, false>(GEMM_PASS)); }
#else
extern "C" __global__ void __launch_bounds__(THREADS, 1) gemm_nn(GEMM_ARGS) { __trap(); }
#endif
extern "C" __global__ void __launch_bounds__(THREADS, 1) gemm_nt(GEMM_ARGS) { __trap(); }
extern "C" __global__ void __launch_bounds__(THREADS, 1) gemm_tn(GEMM_ARGS) { ONLY(LAYOUT_TN, gemm_body<1, 0, false>(GEMM_PASS)); }
extern "C" __global__ void __launch_bounds__(THREADS, 1) gemm_tt(GEMM_ARGS) { __trap(); }
#else
// A 'n': where AR_OK, the host's vec_a == 0 asks for a resident A (its own instance of the body).
#if AR_OK
#define GEMM_A_N(TB_T)                                         \
	if (vec_a == 0)                                        \
		gemm_body<0, TB_T, true>(GEMM_PASS);           \
	else                                                   \
		gemm_body<0, TB_T, false>(GEMM_PASS)
#else
#define GEMM_A_N(TB_T) gemm_body<0, TB_T, false>(GEMM_PASS)
#endif
extern "C" __global__ void __launch_bounds__(THREADS, 1) gemm_nn(GEMM_ARGS) { ONLY(LAYOUT_NN, GEMM_A_N(0)); }
extern "C" __global__ void __launch_bounds__(THREADS, 1) gemm_tn(GEMM_ARGS) { ONLY(LAYOUT_TN, gemm_body<1, 0, false>(GEMM_PASS)); }
#if BN % 64 == 0
extern "C" __global__ void __launch_bounds__(THREADS, 1) gemm_nt(GEMM_ARGS) { ONLY(LAYOUT_NT, GEMM_A_N(1)); }
extern "C" __global__ void __launch_bounds__(THREADS, 1) gemm_tt(GEMM_ARGS) { ONLY(LAYOUT_TT, gemm_body<1, 1, false>(GEMM_PASS)); }
#else // a B tile that is not whole MN-major swizzle rows of 64 elements
extern "C" __global__ void __launch_bounds__(THREADS, 1) gemm_nt(GEMM_ARGS) { __trap(); }
extern "C" __global__ void __launch_bounds__(THREADS, 1) gemm_tt(GEMM_ARGS) { __trap(); }
#endif
#endif

#endif // KIND == 1
