/* ops/gemm_tc: the GEMM op entries for the tensor cores — fp16 (half A, B, C; fp32 accumulation) and int8
 * (int8 A and B; int32 C and accumulation, dimensions padded to multiples of 4). Spaces and constraints as
 * data, buffers, launches, verification and the cuBLAS / cuBLASLt baselines. Template: templates/gemm_tc.cu. */
#include "gemm_tc.h"

#include "gemm.h"

#include "../../err.h"
#include "../../../search/pcg32.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Indices: the first three match GEMM_BM, GEMM_BN, GEMM_BK, so dlb_gemm_splits serves both templates.
 * KIND picks the kernel family: 0 = mma.sync (templates/gemm_tc.cu; WM, WN, STAGES), 1 = wgmma for Hopper
 * (templates/gemm_wgmma.cu; WGS consumer warpgroups of BM/WGS rows, STAGES; WM and WN fixed at 64), 2 = skinny
 * products without tensor cores for the few-column rows, all four layouts (the end of gemm_tc.cu; BM rows and
 * BN columns per block, KS k-slices of threads, STAGES groups of 4 k per thread and batch; BK only the split-K
 * grain). BN 1, 2, 4 exist for the skinny family only; 144, 208, 240 (widths that fit N to whole waves of tiles,
 * B K-major only) for wgmma only. PERSIST (wgmma only): persistent blocks, one per SM, each
 * walking tiles b, b + SMs, ... with the epilogue staged in shared memory of its own, so the producer loads
 * the next tile while the consumers store this one; no split-K then. PERSIST 2 (WGS 2): ping-pong, the two
 * consumer warpgroups take the block's tiles in turn, each a whole tile, one's epilogue under the other's
 * wgmmas. CLK (wgmma only): split-K's splits of a tile run as one thread-block cluster and are summed through
 * distributed shared memory (splits 2..8). TMA (wgmma only): the stages are filled by the bulk tensor copy
 * engine from tensor maps the host encodes (rows 16-byte aligned only); TMA 2 and 3 run the blocks in clusters
 * of two whose tiles share B (2: adjacent M-tiles) or A (3: adjacent N-tiles), each block copying half of the
 * shared tile into both (multicast), so the pair reads it from L2 once (no split-K, no CLK). */
enum { TC_BM, TC_BN, TC_BK, TC_WM, TC_WN, TC_STAGES, TC_KIND, TC_WGS, TC_KS, TC_PERSIST, TC_CLK, TC_TMA, TC_NPARAMS };
_Static_assert((int)TC_BM == (int)GEMM_BM && (int)TC_BN == (int)GEMM_BN && (int)TC_BK == (int)GEMM_BK,
	       "split-K reads BM, BN, BK");

#define TC_PARAMS(bk_lo, bk_hi)                                                                           \
	{                                                                                                     \
		[TC_BM] = {"BM", "rows of C per thread block", 4, {32, 64, 128, 256}},                            \
		[TC_BN] = {"BN", "columns of C per thread block", 13,                                              \
			  {1, 2, 4, 8, 16, 32, 64, 128, 144, 192, 208, 240, 256}},                                  \
		[TC_BK] = {"BK", "k-depth of one pipeline stage (elements)", 2, {bk_lo, bk_hi}},                  \
		[TC_WM] = {"WM", "rows of C per warp (mma.sync)", 3, {16, 32, 64}},                               \
		[TC_WN] = {"WN", "columns of C per warp (mma.sync)", 3, {16, 32, 64}},                            \
		[TC_STAGES] = {"STAGES", "shared-memory stages in flight (skinny: 4-k groups per batch)", 6,         \
			       {2, 3, 4, 6, 8, 12}},                                                              \
		[TC_KIND] = {"KIND", "0: mma.sync, 1: wgmma (sm_90a), 2: skinny (no tensor cores)", 3, {0, 1, 2}, 1,      \
			     (const char *const[]){"mma.sync", "wgmma", "skinny"}},                                 \
		[TC_WGS] = {"WGS", "consumer warpgroups (wgmma)", 2, {1, 2}},                                     \
		[TC_KS] = {"KS", "k-slices of threads per block (skinny)", 6, {1, 4, 8, 16, 32, 64}},              \
		[TC_PERSIST] = {"PERSIST", "wgmma: 1 = one block per SM walks the tiles, its epilogue overlapping " \
				"the next tile's loads; 2 = so, its two consumer warpgroups on alternate tiles",      \
				3, {0, 1, 2}},                                                                        \
		[TC_CLK] = {"CLK", "wgmma split-K: 1 = a tile's splits are one thread-block cluster, summed "     \
			    "through distributed shared memory", 2, {0, 1}},                                       \
		[TC_TMA] = {"TMA", "wgmma: 0 = stages filled by cp.async, 1 = by the bulk tensor copy engine; "   \
			    "2, 3 = so, in pairs of blocks that share B (2: adjacent M-tiles) or A (3: adjacent "  \
			    "N-tiles), each copying half of it to both (multicast)", 4, {0, 1, 2, 3}, 1},           \
	}

static const struct dlb_param fp16_params[TC_NPARAMS] = TC_PARAMS(32, 64);
static const struct dlb_param int8_params[TC_NPARAMS] = TC_PARAMS(64, 128);

static int is_wgmma(const int *v)
{
	return v[TC_KIND] == 1;
}

static int is_skinny(const int *v)
{
	return v[TC_KIND] == 2;
}

/* wgmma in pairs of blocks (a cluster of two) that share one operand's tiles: TMA 2 (B), 3 (A) */
static int is_pair(const int *v)
{
	return is_wgmma(v) && v[TC_TMA] >= 2;
}

/* The skinny template's derived sizes for element size es (templates/gemm_tc.cu, KIND 2: VEC, RT, THREADS,
 * KU, CW, WIN_R, WIN_BYTES, RED_BYTES). */
struct skinny_geo {
	int vec;          /* rows of a thread: one 16-byte vector */
	int threads;      /* BM/vec row threads x KS slices */
	int ku;           /* k of one batch: 4*STAGES */
	size_t win_bytes; /* the staged window of B: WIN_R rounds of KS chunks of CW words */
	size_t red_bytes; /* the warps' sums: warps x BM x BN words */
};

static struct skinny_geo skinny_geo_of(const int *v, int es)
{
	struct skinny_geo g;
	int bn = v[TC_BN];
	g.vec = 16 / es;
	g.threads = v[TC_BM] / g.vec * v[TC_KS];
	g.ku = 4 * v[TC_STAGES];
	int cw = (es == 1 ? g.ku / 4 * bn : g.ku * bn) + (bn < 4 ? bn : 4);
	int round = v[TC_KS] * cw * 4, rounds = 16384 / round > 1 ? 16384 / round : 1;
	g.win_bytes = (size_t)rounds * (size_t)round;
	g.red_bytes = (size_t)(g.threads / 32) * (size_t)v[TC_BM] * (size_t)bn * 4;
	return g;
}

static int threads_of(const int *v, int es)
{
	if (is_skinny(v))
		return skinny_geo_of(v, es).threads;
	return is_wgmma(v) ? 128 * (v[TC_WGS] + 1) : 32 * (v[TC_BM] / v[TC_WM]) * (v[TC_BN] / v[TC_WN]);
}

/* The wgmma template's MI: m64 blocks of a consumer warpgroup's tile (BM/64 each with PERSIST 2). */
static int wgmma_mi(const int *v)
{
	return v[TC_BM] / (64 * (v[TC_PERSIST] == 2 ? 1 : v[TC_WGS]));
}

/* The wgmma epilogue's staging: WGS consumers x BN columns of 64*MI outputs, padded by 16 bytes (EPI_BYTES). */
static size_t wgmma_epi_bytes(const int *v, int es)
{
	int wgs = v[TC_WGS], mi = wgmma_mi(v), es_c = es == 1 ? 4 : 2;
	return (size_t)wgs * (size_t)v[TC_BN] * (size_t)(64 * mi * es_c + 16);
}

/* The templates' SMEM_BYTES for element size es (see templates/gemm_tc.cu and gemm_wgmma.cu). */
static size_t tile_bytes(int rows, int bk, int es)
{
	size_t kmajor = (size_t)rows * (size_t)(bk * es + 16), mmajor = (size_t)bk * (size_t)(rows * es + 16);
	return kmajor > mmajor ? kmajor : mmajor;
}

static size_t smem_es(const int *v, int es)
{
	if (is_wgmma(v))
		return (size_t)v[TC_STAGES] * (size_t)(v[TC_BM] + v[TC_BN]) * 128 + 16 * (size_t)v[TC_STAGES] + 1024 +
		       (v[TC_PERSIST] == 1 ? wgmma_epi_bytes(v, es) : 0);
	if (is_skinny(v)) {
		struct skinny_geo g = skinny_geo_of(v, es);
		return g.win_bytes > g.red_bytes ? g.win_bytes : g.red_bytes;
	}
	size_t pipe = (size_t)v[TC_STAGES] * (tile_bytes(v[TC_BM], v[TC_BK], es) + tile_bytes(v[TC_BN], v[TC_BK], es));
	size_t epi = (size_t)v[TC_BN] * (size_t)(v[TC_BM] + 4) * 4;
	return pipe > epi ? pipe : epi;
}

static size_t smem_fp16(const int *v)
{
	return smem_es(v, 2);
}

static size_t smem_int8(const int *v)
{
	return smem_es(v, 1);
}

/* ---- mma.sync rows (KIND 0): each passes the wgmma configurations, which have their own rows ---- */

static int k_multiple(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return v[TC_KIND] != 0 || (v[TC_BM] % v[TC_WM] == 0 && v[TC_BN] % v[TC_WN] == 0);
}

static int k_warps(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	int w = (v[TC_BM] / v[TC_WM]) * (v[TC_BN] / v[TC_WN]);
	return v[TC_KIND] != 0 || (w >= 2 && w <= 8);
}

/* a warp tile of at least 512 outputs: below it, fragment loads outnumber the mma instructions they feed */
static int k_warp_tile(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return v[TC_KIND] != 0 || (v[TC_WM] * v[TC_WN] >= 512 && (v[TC_WM] / 16) * (v[TC_WN] / 8) * 4 <= 128);
}

static int k_pieces_es(const int *v, int es)
{
	int t = threads_of(v, es), kb = v[TC_BK] * es;
	return v[TC_KIND] != 0 || (t > 0 && (v[TC_BM] * kb / 16) % t == 0 && (v[TC_BN] * kb / 16) % t == 0);
}

/* A constraint row's two entries, one per precision: name_es(v, element size) for fp16 (2) and int8 (1). */
#define PER_ES(name)                                                                                         \
	static int name##_fp16(const int *v, const struct dlb_limits *lim)                                   \
	{                                                                                                     \
		(void)lim;                                                                                    \
		return name##_es(v, 2);                                                                       \
	}                                                                                                     \
	static int name##_int8(const int *v, const struct dlb_limits *lim)                                   \
	{                                                                                                     \
		(void)lim;                                                                                    \
		return name##_es(v, 1);                                                                       \
	}

PER_ES(k_pieces)

static int k_one_family(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	if (is_skinny(v)) /* BM, BN, KS and STAGES matter; BK is the split-K grain */
		return !v[TC_PERSIST] && !v[TC_CLK] && !v[TC_TMA] && v[TC_WM] == 64 && v[TC_WN] == 64 &&
		       v[TC_WGS] == 1 && (v[TC_STAGES] == 2 || v[TC_STAGES] == 4);
	if (v[TC_KS] != 1 || ((v[TC_PERSIST] || v[TC_CLK] || v[TC_TMA]) && !is_wgmma(v)) ||
	    (v[TC_PERSIST] && v[TC_CLK]) || (is_pair(v) && (!v[TC_PERSIST] || v[TC_BN] < 64)))
		return 0;
	return is_wgmma(v) ? v[TC_WM] == 64 && v[TC_WN] == 64 : v[TC_WGS] == 1 && v[TC_STAGES] <= 4 &&
							     (v[TC_BN] & (v[TC_BN] - 1)) == 0;
}

/* ---- skinny rows (KIND 2) ---- */

/* Columns and accumulators: acc[BN*VEC] per thread; the split-K grain BK at its smallest (BK does nothing else
 * here); KU = 16 k per batch (256 bytes of A in flight per thread) where the accumulators are few (BN <= 4),
 * 8 where they are many (BN >= 8: registers). */
static int s_columns_es(const int *v, int es)
{
	if (!is_skinny(v))
		return 1;
	int bn = v[TC_BN];
	return bn <= 16 && (16 / es) * bn <= 128 && v[TC_BK] == (es == 2 ? 32 : 64) &&
	       v[TC_STAGES] == (bn <= 4 ? 4 : 2);
}

/* Threads: each column of A is read in pieces of at least 64 bytes (RT >= 4 row threads), a warp holds whole
 * k-slices (RT <= 32), 128 to 512 threads. */
static int s_threads_es(const int *v, int es)
{
	if (!is_skinny(v))
		return 1;
	struct skinny_geo g = skinny_geo_of(v, es);
	int rt = v[TC_BM] / g.vec;
	return v[TC_BM] * es >= 64 && rt <= 32 && g.threads >= 128 && g.threads <= 512;
}

/* Registers: the template's EST_REGS (accumulators, a batch of A, the batch's values of B up to 64, 32 for
 * the rest; int8 16 more, EST_REGS_T, which its tn and tt kernels need) of all threads within one SM's 64K,
 * so one block fits without spilling; shared memory within 48 KB (no opt-in). */
static int s_resources_es(const int *v, int es)
{
	if (!is_skinny(v))
		return 1;
	struct skinny_geo g = skinny_geo_of(v, es);
	int bvals = es == 1 ? g.ku / 4 * v[TC_BN] : g.ku * v[TC_BN];
	size_t regs = (size_t)(g.vec * v[TC_BN] + 4 * g.ku + (bvals < 64 ? bvals : 64) + 32 + (es == 1 ? 16 : 0)) *
		      (size_t)g.threads;
	return regs <= 65536 && smem_es(v, es) <= 48 * 1024;
}

PER_ES(s_columns)

PER_ES(s_threads)

PER_ES(s_resources)

/* ---- wgmma rows (KIND 1) ---- */

static int w_shape_es(const int *v, int es)
{
	if (!is_wgmma(v))
		return 1;
	int pp = v[TC_PERSIST] == 2, mi = wgmma_mi(v);
	int bn_ok = v[TC_BN] % 16 == 0; /* the list has only widths wgmma and the template take: 16 .. 256 */
	size_t ring = (size_t)v[TC_STAGES] * (size_t)(v[TC_BM] + v[TC_BN]) * 128;
	return v[TC_BK] * es == 128 && v[TC_BM] == 64 * (pp ? 1 : v[TC_WGS]) * mi && (mi == 1 || mi == 2) &&
	       (!pp || v[TC_WGS] == 2) && bn_ok &&
	       (mi * v[TC_BN] <= 256 || (mi * v[TC_BN] == 288 && !v[TC_PERSIST] && !v[TC_CLK])) &&
	       v[TC_STAGES] >= 3 &&
	       (v[TC_PERSIST] || wgmma_epi_bytes(v, es) <= ring) &&
	       (!v[TC_CLK] || (size_t)v[TC_BM] * (size_t)v[TC_BN] * 4 <= ring);
}

PER_ES(w_shape)

#define TC_CONSTRAINTS(pieces, wshape, scolumns, sthreads, sresources)                                       \
	{.text = "one family: mma.sync WGS 1, STAGES <= 4, BN a power of 2; wgmma WM = WN = 64; skinny also WGS 1, "    \
		 "STAGES 2 or 4; "                                                                                   \
		 "KS 1 but skinny; PERSIST, CLK and TMA 0 but wgmma; not both PERSIST and CLK; TMA 2, 3 (pairs) " \
		 "with PERSIST 1 or 2 (H200: pairs of one-tile blocks ran 3-12% slower than their TMA 1 twins) and "\
		 "BN >= 64 (narrow tiles are for narrow problems, where a shared tile is small)",                   \
	 .kind = DLB_CON_CUSTOM, .ok = k_one_family},                                                           \
		{.text = "skinny: BN <= 16, VEC*BN <= 128 accumulators (VEC = 16/ES), BK the smallest, KU = "     \
			 "4*STAGES = 16 for BN <= 4, 8 for BN >= 8",                                            \
		 .kind = DLB_CON_CUSTOM, .ok = scolumns},                                                       \
		{.text = "skinny: BM*ES >= 64, RT = BM/VEC <= 32, threads RT*KS in [128, 512]",                  \
		 .kind = DLB_CON_CUSTOM, .ok = sthreads},                                                       \
		{.text = "skinny: (VEC*BN + 4*KU + min(B values, 64) + 32, int8 + 16) registers x threads <= 65536, " \
			 "shared memory <= 48 KB",                                                                     \
		 .kind = DLB_CON_CUSTOM, .ok = sresources},                                                     \
		{.text = "mma.sync: BM % WM == 0, BN % WN == 0", .kind = DLB_CON_CUSTOM, .ok = k_multiple},     \
		{.text = "mma.sync: warps (BM/WM)*(BN/WN) in [2, 8]", .kind = DLB_CON_CUSTOM, .ok = k_warps},   \
		{.text = "mma.sync: WM*WN >= 512, accumulators (WM/16)*(WN/8)*4 <= 128", .kind = DLB_CON_CUSTOM, \
		 .ok = k_warp_tile},                                                                            \
		{.text = "mma.sync: 16-byte pieces of a stage a multiple of the threads", .kind = DLB_CON_CUSTOM, \
		 .ok = pieces},                                                                                 \
		{.text = "wgmma: BK*ES = 128, BM = 64*WGS*MI (PERSIST 2: WGS 2, BM = 64*MI), MI 1 or 2, BN a "       \
			 "multiple of 16, MI*BN <= 256 (288 with PERSIST 0 and CLK 0), STAGES >= 3, epilogue fits "  \
			 "the ring (PERSIST 1: its own area; 2: none), CLK: partial sums BM*BN*4 fit it",             \
		 .kind = DLB_CON_CUSTOM, .ok = wshape }

static const struct dlb_constraint fp16_constraints[] = {
	TC_CONSTRAINTS(k_pieces_fp16, w_shape_fp16, s_columns_fp16, s_threads_fp16, s_resources_fp16)};
static const struct dlb_constraint int8_constraints[] = {
	TC_CONSTRAINTS(k_pieces_int8, w_shape_int8, s_columns_int8, s_threads_int8, s_resources_int8)};

/* The mma.sync template also has 128 bytes of static shared memory (alignment of the split-K flag). */
static int l_smem_fp16(const int *v, const struct dlb_limits *lim)
{
	return !lim || smem_fp16(v) + 128 <= lim->smem_optin;
}

static int l_smem_int8(const int *v, const struct dlb_limits *lim)
{
	return !lim || smem_int8(v) + 128 <= lim->smem_optin;
}

/* The threads a candidate of this precision launches (a skinny int8 block has half the row threads of an
 * fp16 one): the worker lowers the limit to what the driver allows the compiled kernel, which is exactly
 * that many when __launch_bounds__ names them. */
static int l_threads_fp16(const int *v, const struct dlb_limits *lim)
{
	return !lim || threads_of(v, 2) <= lim->max_threads_per_block;
}

static int l_threads_int8(const int *v, const struct dlb_limits *lim)
{
	return !lim || threads_of(v, 1) <= lim->max_threads_per_block;
}

/* wgmma and setmaxnreg exist only on the arch-specific Hopper target */
static int l_wgmma(const int *v, const struct dlb_limits *lim)
{
	return !is_wgmma(v) || !lim || lim->sm == 0 || (lim->sm == 90 && lim->sm_specific);
}

#define TC_LIMITS(smem, threads)                                                                                      \
	{.text = "shared memory (mma.sync: STAGES tiles or the epilogue; wgmma: its ring) <= opt-in limit",     \
	 .kind = DLB_CON_CUSTOM, .ok = smem},                                                                    \
		{.text = "threads <= max threads per block", .kind = DLB_CON_CUSTOM, .ok = threads},            \
		{.text = "wgmma only on sm_90a", .kind = DLB_CON_CUSTOM, .ok = l_wgmma}

static const struct dlb_constraint fp16_limits[] = {TC_LIMITS(l_smem_fp16, l_threads_fp16)};
static const struct dlb_constraint int8_limits[] = {TC_LIMITS(l_smem_int8, l_threads_int8)};

/* the four layouts (index ta*2 + tb), then wgmma's repacks of an operand: aligned copy, transpose (these two
 * launch without dynamic shared memory: pack_t's tile is static, and a GEMM's opt-in size plus it may exceed
 * the device's limit) */
static const char *const tc_kernels[] = {"gemm_nn", "gemm_nt", "gemm_tn", "gemm_tt", "pack_cols", "pack_t"};
enum { TC_PACK_KERNEL = 4, TC_PACKT_KERNEL = 5 };

/* ---- problem state ---- */

#define MAX_SETS DLB_GEMM_MAX_SETS
#define SPLIT_WAVES 8
#define MAX_TILES_SPLIT (SPLIT_WAVES * 256) /* as in gemm.c: more tiles than a split grid has on any GPU */

/* wgmma's repack of an operand (A: 0, B: 1) that it cannot read as stored, run by tc_launch inside each timed
 * launch of a wgmma candidate (pack_cols / pack_t in templates/gemm_tc.cu). The operand as stored is a
 * column-major matrix of `rows` contiguous elements (leading dimension ld) by `cols`. */
struct tc_pack {
	int how;            /* 0: read as stored; PACK_COPY: lines not 8-byte aligned (fp16 B 't' with N = 7133),
	                     * copied to lines of ld_out; PACK_T: transposed to K-major lines of ld_out: int8
	                     * stored M/N-major (A 'n', B 't'), which wgmma reads K-major only, and fp16 A 'n' with
	                     * lines not 8-byte aligned (M = 35), which it reads faster K-major (NOTES item 23) */
	int64_t rows, cols, ld_out;
	void *P[DLB_GEMM_MAX_SETS];
};
enum { PACK_COPY = 1, PACK_T = 2 };

/* The widest copy (16, 8, 4, 2, 1 bytes) that every row of an operand allows: rows start at multiples of
 * ld·es bytes from a base cudaMalloc aligns to 256. */
static int vec_of(int64_t ld, size_t es)
{
	int64_t row = ld * (int64_t)es;
	for (int v = 16; v > 1; v /= 2)
		if (row % v == 0 && (size_t)v >= es)
			return v;
	return (int)es;
}

/* Operand op of an m x n x k problem with leading dimension ld, stored transposed (t) or not: its repack.
 * Copies get lines of 16-byte multiples, so TMA can read them. */
static void pack_plan(int op, int t, int64_t m, int64_t n, int64_t k, int64_t ld, int int8, struct tc_pack *q)
{
	size_t es = int8 ? 1 : 2;
	int kmajor = op ? !t : t;
	memset(q, 0, sizeof *q);
	q->rows = op ? (t ? n : k) : (t ? k : m);
	q->cols = op ? (t ? k : n) : (t ? m : k);
	if (!kmajor && (int8 || (op == 0 && vec_of(ld, es) < 8))) {
		q->how = PACK_T;
		q->ld_out = (q->cols + 15) / 16 * 16;
	} else if (vec_of(ld, es) < 8) {
		q->how = PACK_COPY;
		q->ld_out = (q->rows + (int64_t)(16 / es) - 1) / (int64_t)(16 / es) * (int64_t)(16 / es);
	}
}

static size_t pack_bytes(const struct tc_pack *q, size_t es)
{
	return q->how == PACK_T ? (size_t)q->rows * (size_t)q->ld_out * es
				: q->how ? (size_t)q->cols * (size_t)q->ld_out * es : 0;
}

struct tc_state {
	struct dlb_gemm_io io;     /* first: the vendor baselines' view of this state (dlb_gemm_op_vendor) */
	struct dlb_gpu *g;
	struct dlb_blas *handles;  /* the family's */
	struct dlb_problem p;
	int64_t m, n, k;           /* the dimensions run (int8: padded) */
	int int8;
	size_t es_in, es_out;      /* element sizes */
	struct dlb_blas_gemm blas; /* the vendor's GEMM: same types as ours */
	int nsets;
	void *A[MAX_SETS], *B[MAX_SETS], *C[MAX_SETS];
	void *ref;                 /* fp16: fp32 reference; int8: int32 */
	const char *ref_by;        /* what computed it */
	struct tc_pack pk[2];      /* wgmma's repacks of A and B (pack_plan) */
	struct tc_tmap {           /* TMA: the last tensor map encoded per set and operand (A, B) */
		const void *base;
		int64_t ld, inner, outer;
		unsigned box_inner, box_outer;
		unsigned char m[sizeof(struct dlb_tmap)]; /* bytes: the state is not 64-byte aligned */
	} tm[MAX_SETS][2];
	cudaKernel_t pair_k;       /* the last paired (TMA 2, 3) persistent kernel launched, its shared memory */
	size_t pair_smem;
	int pair_slots;            /* and how many clusters of two of it the device runs at once */
	cudaKernel_t ar_k;         /* the last kernel given more shared memory for a resident A (ar_bytes) */
	size_t ar_smem;            /* and how much */
	void *ws;                  /* split-K partial products (fp32 or int32) */
	size_t ws_elems;
	unsigned *counters;
	double abs_tol;
	uint64_t seed;
	struct dlb_gemm_vendor_keep vkeep;
};

static size_t set_bytes(const struct tc_state *s)
{
	return s->es_in * ((size_t)s->m * (size_t)s->k + (size_t)s->k * (size_t)s->n) +
	       s->es_out * (size_t)s->m * (size_t)s->n;
}

static size_t tc_device_bytes(const struct dlb_problem *p, const struct dlb_device *dev)
{
	struct tc_state s = {.p = *p, .int8 = p->prec == DLB_PREC_INT8};
	dlb_gemm_run_shape(p, &s.m, &s.n, &s.k);
	s.es_in = s.int8 ? 1 : 2;
	s.es_out = s.int8 ? 4 : 2;
	size_t sets = (size_t)dlb_bench_sets(dev, set_bytes(&s), MAX_SETS);
	size_t mn = (size_t)s.m * (size_t)s.n * 4;
	/* split-K: at most SPLIT_WAVES blocks per SM of tiles up to 256 x 256, and at most 64 splits of the
	 * problem rounded up to whole tiles (wgmma) */
	size_t ws = (size_t)SPLIT_WAVES * dev->sm_count * 256 * 256 * 4;
	size_t ws_tiles = 64 * (size_t)(s.m + 255) * (size_t)(s.n + 255) * 4;
	/* wgmma's repacks of A and B (pack_plan), one per set; the operands are stored with tight leading
	 * dimensions (dlb_blas_gemm_*) */
	struct tc_pack qa, qb;
	pack_plan(0, GTA(p), s.m, s.n, s.k, GTA(p) ? s.k : s.m, s.int8, &qa);
	pack_plan(1, GTB(p), s.m, s.n, s.k, GTB(p) ? s.n : s.k, s.int8, &qb);
	size_t packed = sets * (pack_bytes(&qa, s.es_in) + pack_bytes(&qb, s.es_in));
	/* int8's vendor route through TN (dlb_lt_tn_create): one K-major copy of each operand */
	size_t tn = s.int8 ? (size_t)s.k * ((size_t)s.m + (size_t)s.n) : 0;
	return sets * set_bytes(&s) + mn + (ws < ws_tiles ? ws : ws_tiles) + packed + tn + dlb_bench_flush_bytes(dev) +
	       ((size_t)64 << 20);
}

static void tc_teardown(void *state)
{
	struct tc_state *s = state;
	if (!s)
		return;
	for (int i = 0; i < MAX_SETS; i++) {
		dlb_dev_free(s->A[i]);
		dlb_dev_free(s->B[i]);
		dlb_dev_free(s->C[i]);
		dlb_dev_free(s->pk[0].P[i]);
		dlb_dev_free(s->pk[1].P[i]);
	}
	dlb_dev_free(s->ref);
	dlb_dev_free(s->ws);
	dlb_dev_free(s->counters);
	dlb_gemm_vendor_free(&s->vkeep);
	free(s);
}

/* A few reference elements recomputed on the CPU (exactly for int8, in double for fp16): a wrong layout or
 * type in the reference call would otherwise make every candidate look wrong (or right). */
static int spot_check_reference(struct tc_state *s)
{
	int rc = 0;
	struct dlb_pcg32 rng;
	dlb_pcg32_seed(&rng, s->seed, 99);
	void *tmp = malloc((size_t)s->k * 2);
	double *fa = malloc((size_t)s->k * sizeof *fa), *fb = malloc((size_t)s->k * sizeof *fb);
	if (!tmp || !fa || !fb)
		DLB_FAIL(ENOMEM, "out of memory for the reference spot check");
	for (int t = 0; t < 8; t++) {
		int64_t i = dlb_pcg32_bounded(&rng, (uint32_t)(s->m < UINT32_MAX ? s->m : UINT32_MAX));
		int64_t j = dlb_pcg32_bounded(&rng, (uint32_t)(s->n < UINT32_MAX ? s->n : UINT32_MAX));
		/* op(A)(i, :) is contiguous when A is stored transposed; op(B)(:, j) when B is not */
		DLB_CHECK(dlb_gemm_read_k(s->A[0], s->blas.lda, GTA(&s->p), i, s->k, s->blas.a_type, tmp, fa));
		DLB_CHECK(dlb_gemm_read_k(s->B[0], s->blas.ldb, !GTB(&s->p), j, s->k, s->blas.b_type, tmp, fb));
		double want = 0, got;
		for (int64_t kk = 0; kk < s->k; kk++)
			want += fa[kk] * fb[kk];
		if (s->int8) {
			int32_t v;
			CUDA_CHECK(cudaMemcpy(&v, (const int32_t *)s->ref + j * s->m + i, 4, cudaMemcpyDeviceToHost));
			got = v;
		} else {
			float v;
			CUDA_CHECK(cudaMemcpy(&v, (const float *)s->ref + j * s->m + i, 4, cudaMemcpyDeviceToHost));
			got = v;
		}
		if (s->int8 ? got != want : !(fabs(got - want) <= s->abs_tol))
			DLB_FAIL(DLB_E_WRONG, "%s reference disagrees with the CPU at C(%lld,%lld): %.9g vs %.9g", s->ref_by,
				 (long long)i, (long long)j, got, want);
	}
fail:
	free(tmp);
	free(fa);
	free(fb);
	return rc;
}

/* The reference output: fp16 — cublasGemmEx on the same half inputs with fp32 output (fp32 accumulation,
 * not rounded to half); int8 — cuBLASLt's first heuristic algorithm when it has one for this layout, else
 * our reference kernel (exact either way). */
static int compute_reference(struct tc_state *s)
{
	int rc = 0;
	struct dlb_lt_plan plan;
	memset(&plan, 0, sizeof plan);
	struct dlb_gpu *g = s->g;
	if (!s->int8) {
		struct dlb_blas_gemm rg;
		dlb_blas_gemm_fp16(&rg, GTA(&s->p), GTB(&s->p), s->m, s->n, s->k, 1);
		DLB_CHECK(dlb_blas_gemm_run(s->handles, &rg, s->A[0], s->B[0], s->ref));
		s->ref_by = "cublasGemmEx (fp16 in, fp32 out)";
	} else {
		DLB_CHECK(dlb_lt_plan_create(s->handles, &s->blas, &plan));
		if (plan.nalgos > 0) {
			DLB_CHECK(dlb_lt_run(s->handles, &plan, 0, s->A[0], s->B[0], s->ref));
			s->ref_by = "cuBLASLt int8";
		} else {
			DLB_CHECK(dlb_gemm_ref_s8(g, s->m, s->n, s->k, s->A[0], s->blas.lda, GTA(&s->p), s->B[0], s->blas.ldb,
						  GTB(&s->p), s->ref, s->m));
			s->ref_by = "dlbtune's int8 reference kernel";
		}
	}
	CUDA_CHECK(cudaStreamSynchronize(g->dev->stream));
fail:
	dlb_lt_plan_destroy(&plan);
	return rc;
}

static int check_output(struct tc_state *s, struct dlb_check *out);

static int check_state(void *state, struct dlb_check *out)
{
	return check_output(state, out);
}

/* The op's accuracy hook: C[0] at sampled outputs of the shape as given (not the padding). */
static int tc_accuracy(void *state, struct dlb_rel_err *out)
{
	struct tc_state *s = state;
	return dlb_gemm_sample_errors(&s->blas, GM(&s->p), GN(&s->p), s->A[0], s->B[0], s->C[0], s->seed, out);
}

/* What the baselines run on: this op's buffers and check (dlb_gemm_vendor). */
static void io_of(struct tc_state *s)
{
	struct dlb_gemm_io *io = &s->io;
	*io = (struct dlb_gemm_io){.classic = "cublasGemmEx", .g = s->g, .handles = s->handles, .blas = &s->blas,
				   .nsets = s->nsets, .a_bytes = (size_t)s->m * (size_t)s->k * s->es_in,
				   .b_bytes = (size_t)s->k * (size_t)s->n * s->es_in,
				   .c_bytes = (size_t)s->m * (size_t)s->n * s->es_out, .ref = s->ref, .check = check_state,
				   .accuracy = tc_accuracy, .state = s, .keep = &s->vkeep};
	for (int i = 0; i < s->nsets; i++)
		io->A[i] = s->A[i], io->B[i] = s->B[i], io->C[i] = s->C[i];
}

static int tc_setup(struct dlb_gpu *g, const struct dlb_problem *p, void **state)
{
	int rc = 0;
	struct tc_state *s = calloc(1, sizeof *s);
	if (!s)
		DLB_FAIL(ENOMEM, "out of memory");
	s->g = g;
	s->p = *p;
	s->int8 = p->prec == DLB_PREC_INT8;
	dlb_gemm_run_shape(p, &s->m, &s->n, &s->k); /* int8: multiples of 4 (DeepBench) */
	struct dlb_gemm_shared *shared;
	DLB_CHECK(dlb_gemm_shared_of(g, &shared));
	s->handles = &shared->blas;
	s->es_in = s->int8 ? 1 : 2;
	s->es_out = s->int8 ? 4 : 2;
	if (s->int8)
		dlb_blas_gemm_int8(&s->blas, GTA(p), GTB(p), s->m, s->n, s->k);
	else
		dlb_blas_gemm_fp16(&s->blas, GTA(p), GTB(p), s->m, s->n, s->k, 0);
	s->abs_tol = s->int8 ? 0 : dlb_tol_fp32(s->k);
	s->nsets = dlb_bench_sets(g->dev, set_bytes(s), MAX_SETS);
	/* Fresh inputs on every run. Padding (int8) is filled like the rest: the padded GEMM is what runs and is
	 * timed, padded once here, outside every timed region. */
	s->seed = dlb_fresh_seed();
	size_t mk = (size_t)s->m * (size_t)s->k, kn = (size_t)s->k * (size_t)s->n, mn = (size_t)s->m * (size_t)s->n;
	for (int i = 0; i < s->nsets; i++) {
		DLB_CHECK(dlb_dev_alloc(&s->A[i], mk * s->es_in));
		DLB_CHECK(dlb_dev_alloc(&s->B[i], kn * s->es_in));
		DLB_CHECK(dlb_dev_alloc(&s->C[i], mn * s->es_out));
		uint64_t sa = s->seed + 2 * (uint64_t)i, sb = sa + 1;
		DLB_CHECK(s->int8 ? dlb_fill_s8(g, s->A[i], (int64_t)mk, sa) : dlb_fill_f16(g, s->A[i], (int64_t)mk, sa));
		DLB_CHECK(s->int8 ? dlb_fill_s8(g, s->B[i], (int64_t)kn, sb) : dlb_fill_f16(g, s->B[i], (int64_t)kn, sb));
	}
	/* wgmma reads its operands with cp.async (8 or 16 bytes) or TMA (16-byte aligned lines), and int8 ones
	 * K-major only: an operand it cannot read as stored is repacked inside each timed launch of a wgmma
	 * candidate (tc_launch; the search weighs the repack's time with the kernel's) */
	pack_plan(0, GTA(p), s->m, s->n, s->k, s->blas.lda, s->int8, &s->pk[0]);
	pack_plan(1, GTB(p), s->m, s->n, s->k, s->blas.ldb, s->int8, &s->pk[1]);
	for (int op = 0; op < 2; op++) {
		size_t bytes = pack_bytes(&s->pk[op], s->es_in);
		for (int i = 0; bytes && i < s->nsets; i++) {
			DLB_CHECK(dlb_dev_alloc(&s->pk[op].P[i], bytes));
			dlb_count_launch();
			CUDA_CHECK(cudaMemsetAsync(s->pk[op].P[i], 0, bytes, g->dev->stream));
		}
	}
	DLB_CHECK(dlb_dev_alloc((void **)&s->counters, MAX_TILES_SPLIT * sizeof(unsigned)));
	dlb_count_launch();
	CUDA_CHECK(cudaMemsetAsync(s->counters, 0, MAX_TILES_SPLIT * sizeof(unsigned), g->dev->stream));
	DLB_CHECK(dlb_dev_alloc(&s->ref, mn * 4));
	DLB_CHECK(dlb_poison(g, s->ref, mn * 4));
	DLB_CHECK(compute_reference(s));
	DLB_CHECK(spot_check_reference(s));
	io_of(s);
	*state = s;
	return 0;
fail:
	tc_teardown(s);
	*state = NULL;
	return rc;
}

/* Split-K workspace, in elements: mma.sync and skinny write M × N partial products per split, wgmma whole
 * tiles in register order (see the templates). */
static size_t ws_elems_for(const struct tc_state *s, const int *v, int split)
{
	if (split <= 1)
		return 0;
	int64_t mt = (s->m + v[TC_BM] - 1) / v[TC_BM], nt = (s->n + v[TC_BN] - 1) / v[TC_BN];
	if (is_wgmma(v))
		return (size_t)split * (size_t)(mt * v[TC_BM]) * (size_t)(nt * v[TC_BN]);
	return (size_t)split * (size_t)s->m * (size_t)s->n;
}

static int tc_variants(void *state, const struct dlb_candidate *c, int *values, int max)
{
	struct tc_state *s = state;
	/* Large problems (>= 4 waves of 128x128 tiles): tiles under 64x64 move more bytes per flop than the
	 * larger ones and cannot win. */
	if ((double)s->m * (double)s->n >= 4.0 * s->g->dev->sm_count * 128 * 128 &&
	    c->cfg.v[TC_BM] * c->cfg.v[TC_BN] < 64 * 64)
		return 0;
	if (is_skinny(c->cfg.v) && s->n > 64)
		return 0; /* for few columns only (every layout) */
	/* wgmma reads every operand, repacked where it cannot be read as stored (pack_plan); TMA: both lines
	 * 16-byte aligned as read */
	if (c->cfg.v[TC_TMA] && (vec_of(s->pk[0].how ? s->pk[0].ld_out : s->blas.lda, s->es_in) < 16 ||
				 vec_of(s->pk[1].how ? s->pk[1].ld_out : s->blas.ldb, s->es_in) < 16))
		return 0;
	/* wgmma's tiles that are not whole MN-major swizzle rows (BN 16, 32, 144, 208, 240): B read K-major (nn,
	 * tn, or B repacked by pack_t) only; the narrow ones (BN < 64) for narrow problems, or short ones (M <= 64:
	 * one M-tile, so the N-tiles are the grid) */
	if (is_wgmma(c->cfg.v) && c->cfg.v[TC_BN] % 64 != 0 &&
	    ((GTB(&s->p) && s->pk[1].how != PACK_T) || (c->cfg.v[TC_BN] < 64 && s->n >= 64 && s->m > 64)))
		return 0;
	int64_t mt = (s->m + c->cfg.v[TC_BM] - 1) / c->cfg.v[TC_BM];
	int64_t nt = (s->n + c->cfg.v[TC_BN] - 1) / c->cfg.v[TC_BN];
	/* pairs of blocks that share a tile (TMA 2: B, of two M-tiles; 3: A, of two N-tiles): where that
	 * dimension has two tiles or more, and without split-K */
	if (is_pair(c->cfg.v) && (c->cfg.v[TC_TMA] == 2 ? mt : nt) < 2)
		return 0;
	/* persistent blocks: only where there are more tiles than SMs (else it is the plain kernel with less
	 * shared memory), and without split-K */
	if (c->cfg.v[TC_PERSIST] || is_pair(c->cfg.v)) {
		if ((c->cfg.v[TC_PERSIST] && mt * nt <= s->g->dev->sm_count) || max < 1)
			return 0;
		values[0] = 1;
		return 1;
	}
	struct dlb_problem run = s->p;
	run.dim[GEMM_M] = s->m, run.dim[GEMM_N] = s->n, run.dim[GEMM_K] = s->k;
	int n = dlb_gemm_splits(&run, c->cfg.v, s->g->dev->sm_count, 0, values, max);
	if (c->cfg.v[TC_CLK]) { /* cluster split-K: splits 2..8 (a portable cluster), no workspace */
		int kept = 0;
		for (int i = 0; i < n; i++)
			if (values[i] >= 2 && values[i] <= 8)
				values[kept++] = values[i];
		return kept;
	}
	size_t need = 0;
	for (int i = 0; i < n; i++)
		if (ws_elems_for(s, c->cfg.v, values[i]) > need)
			need = ws_elems_for(s, c->cfg.v, values[i]);
	return dlb_gemm_ws_reserve(&s->ws, &s->ws_elems, need) ? 1 : n; /* no room: plain runs only */
}

static int tc_nsets(void *state)
{
	return ((struct tc_state *)state)->nsets;
}

/* The tensor map of one operand of set `set` (op 0: A, 1: B) for a wgmma tile of `rows` lines: K-major
 * (k contiguous: lines of BK elements, one per row) or M/N-major (boxes of 64 elements by BK, as the
 * template's MN-major tiles); half: the box has half its outer lines (rows, or k), the half that each block
 * of a pair copies of a shared tile (TMA 2, 3); encoded once per operand, buffer and box, and copied to out
 * (64-byte aligned, as the encoder and the launch want it). */
static int tc_tmap(struct tc_state *s, int set, int op, const void *base, int64_t ld, int kmajor, int64_t rows_total,
		   int rows, int bk, int half, struct dlb_tmap *out)
{
	int rc = 0;
	struct tc_tmap *t = &s->tm[set][op];
	int64_t inner = kmajor ? s->k : rows_total, outer = kmajor ? rows_total : s->k;
	unsigned bi = kmajor ? (unsigned)bk : 64u, bo = (unsigned)(kmajor ? rows : bk) / (half ? 2u : 1u);
	if (t->base != base || t->ld != ld || t->inner != inner || t->outer != outer || t->box_inner != bi ||
	    t->box_outer != bo) {
		struct dlb_tmap m;
		t->base = NULL;
		DLB_CHECK(dlb_tmap_2d(&m, (int)s->es_in, base, (uint64_t)inner, (uint64_t)outer,
				      (uint64_t)ld * s->es_in, bi, bo));
		memcpy(t->m, &m, sizeof t->m);
		t->base = base, t->ld = ld, t->inner = inner, t->outer = outer, t->box_inner = bi, t->box_outer = bo;
	}
	memcpy(out, t->m, sizeof t->m);
fail:
	return rc;
}

/* The extra dynamic shared memory of a resident A (gemm_wgmma.cu, AR), or 0 where the launch repacks A
 * instead: fp16 A stored 'n' with columns wgmma cannot read (pack_plan's transpose: M = 35, 70 bytes) and B
 * read 'n' (the specialisation NN_TN compiles its NT and TT kernels as traps), in a
 * wgmma block that holds every row of A (BM 64, M <= 64; one consumer warpgroup, TMA, one tile a block) and
 * whose k range of kc fits the ring, one k-tile a stage. The block copies its k range of A as stored into
 * shared memory (a 16-byte mbarrier slot, then (kc - 1)·lda + M elements) and lays it out there: no repack
 * launch. 0 too where that would pass the device's opt-in limit. (The kc·lda elements before a split's range
 * are a multiple of 64·lda, so its copy starts 16-byte aligned wherever A does.) */
static int ar_may(const int *v, int int8, int ta, int tb, int a_packed_t, int64_t m)
{
	return is_wgmma(v) && !int8 && !ta && !tb && a_packed_t && m <= 64 && v[TC_BM] == 64 && v[TC_WGS] == 1 &&
	       v[TC_TMA] == 1 && !v[TC_PERSIST];
}

static size_t ar_bytes(const struct tc_state *s, const int *v, int64_t kc)
{
	int tb = GTB(&s->p) && s->pk[1].how != PACK_T; /* B read 't' */
	if (!ar_may(v, s->int8, GTA(&s->p), tb, s->pk[0].how == PACK_T, s->m) ||
	    kc > (int64_t)v[TC_STAGES] * v[TC_BK])
		return 0;
	size_t bytes = 16 + ((size_t)((kc - 1) * s->blas.lda + s->m) * s->es_in + 15) / 16 * 16;
	return smem_fp16(v) + bytes <= s->g->dev->smem_per_block_optin ? bytes : 0;
}

/* The kernel layouts configuration v runs problem p with (op.h's spec_of): wgmma's repacks (pack_plan, as
 * tc_setup plans them) turn an operand it cannot read as stored into the other layout, except where a block
 * may keep all of A resident (ar_may; whether it does depends on the split): then NN or TN, both compiled
 * (specialisation GEMM_SPEC_NN_TN). The other kernels read their operands as stored. */
static int tc_spec_of(const struct dlb_problem *p, const int *v)
{
	int ta = GTA(p), tb = GTB(p), int8 = p->prec == DLB_PREC_INT8;
	if (is_wgmma(v)) {
		int64_t m, n, k;
		struct tc_pack qa, qb;
		dlb_gemm_run_shape(p, &m, &n, &k);
		pack_plan(0, ta, m, n, k, ta ? k : m, int8, &qa); /* cuBLAS's leading dimensions (vendor_cublas.c) */
		pack_plan(1, tb, m, n, k, tb ? n : k, int8, &qb);
		tb = qb.how == PACK_T ? 0 : tb;
		if (ar_may(v, int8, ta, tb, qa.how == PACK_T, m))
			return GEMM_SPEC_NN_TN;
		ta = qa.how == PACK_T ? 1 : ta;
	}
	return ta * 2 + tb;
}

/* The specialisations tc_spec_of can give configuration v: int8 wgmma reads K-major operands only (TN);
 * NN+TN only where a block may keep A resident; B 't' (NT, TT) only with whole MN-major swizzle rows
 * (BN % 64 == 0: the template's other B 't' kernels trap, and tc_variants never runs them); the others
 * each layout as stored. */
static int tc_spec_used(const struct dlb_op *op, int s, const int *v)
{
	if (!is_wgmma(v))
		return s != GEMM_SPEC_NN_TN;
	if (op->prec == DLB_PREC_INT8)
		return s == 2;
	if ((s == 1 || s == 3) && v[TC_BN] % 64 != 0)
		return 0;
	return s != GEMM_SPEC_NN_TN || ar_may(v, 0, 0, 0, 1, 1);
}

static int tc_launch(void *state, const struct dlb_candidate *c, int split, int set)
{
	int rc = 0;
	struct tc_state *s = state;
	const int *v = c->cfg.v;
	int64_t mt = (s->m + v[TC_BM] - 1) / v[TC_BM], nt = (s->n + v[TC_BN] - 1) / v[TC_BN];
	if (mt * nt > 0x7fffffff || split > 65535)
		DLB_FAIL(DLB_E_LIMIT, "grid of %lld blocks exceeds the device's limit", (long long)(mt * nt));
	int cluster = v[TC_CLK] && split > 1;
	if (cluster && split > 8)
		DLB_FAIL(DLB_E_LIMIT, "a cluster of %d splits is over the portable 8", split);
	if (split > 1 && !cluster && (mt * nt > MAX_TILES_SPLIT || ws_elems_for(s, v, split) > s->ws_elems))
		DLB_FAIL(DLB_E_LIMIT, "split-K %d needs more workspace or counters than were allocated", split);
	int64_t kc = (s->k + split - 1) / split;
	kc = (kc + v[TC_BK] - 1) / v[TC_BK] * v[TC_BK];
	int64_t M = s->m, N = s->n, K = s->k, lda = s->blas.lda, ldb = s->blas.ldb, ldc = s->blas.ldc;
	const void *A = s->A[set], *B = s->B[set];
	void *C = s->C[set], *W = s->ws;
	unsigned *counters = s->counters;
	int vec_a = vec_of(lda, s->es_in), vec_b = vec_of(ldb, s->es_in), vec_c = ldc % 4 == 0;
	int ta = GTA(&s->p), tb = GTB(&s->p), packed_a = 0, packed_b = 0;
	size_t ar = (uintptr_t)A % 16 ? 0 : ar_bytes(s, v, kc); /* the bulk copies read 16-byte aligned A */
	for (int op = 0; is_wgmma(v) && op < 2; op++) { /* repacks first, in the same timed launch */
		const struct tc_pack *q = &s->pk[op];
		if (!q->how || (op == 0 && ar))
			continue;
		const void *src = op ? B : A;
		void *dst = q->P[set];
		int64_t ld_in = op ? ldb : lda, rows = q->rows, cols = q->cols, ld_out = q->ld_out;
		int es = (int)s->es_in;
		void *pargs[] = {&src, &ld_in, &dst, &ld_out, &rows, &cols, &es};
		if (q->how == PACK_T) {
			if ((cols + 31) / 32 > 65535)
				DLB_FAIL(DLB_E_LIMIT, "a transpose of %lld lines is over the grid's limit",
					 (long long)cols);
			DLB_CHECK(dlb_launch(c->kernels[TC_PACKT_KERNEL],
					     (dim3){(unsigned)((rows + 31) / 32), (unsigned)((cols + 31) / 32), 1},
					     (dim3){32, 8, 1}, 0, s->g->dev->stream, pargs));
		} else {
			DLB_CHECK(dlb_launch(c->kernels[TC_PACK_KERNEL],
					     (dim3){(unsigned)((rows * cols + 255) / 256), 1, 1}, (dim3){256, 1, 1}, 0,
					     s->g->dev->stream, pargs));
		}
		if (op) {
			B = dst, ldb = ld_out, vec_b = vec_of(ldb, s->es_in), packed_b = 1;
			tb = q->how == PACK_T ? 0 : tb; /* B^T stored transposed: B as stored 'n' */
		} else {
			A = dst, lda = ld_out, vec_a = vec_of(lda, s->es_in), packed_a = 1;
			ta = q->how == PACK_T ? 1 : ta; /* A transposed: A stored 't' */
		}
	}
	if (ar)
		vec_a = 0; /* asks the kernel for the resident A */
	if (is_wgmma(v)) {
		if ((vec_a < 8 && !ar) || vec_b < 8)
			DLB_FAIL(DLB_E_LIMIT, "the wgmma kernel needs rows aligned to 8 bytes");
		vec_c = (size_t)ldc * s->es_out % 16 == 0; /* it writes C in 16-byte vectors */
	}
	struct dlb_tmap tma, tmb; /* wgmma's tensor maps: zeros unless TMA (A's too with a resident A) */
	memset(&tma, 0, sizeof tma);
	memset(&tmb, 0, sizeof tmb);
	if (is_wgmma(v) && v[TC_TMA]) {
		if ((vec_a < 16 && !ar) || vec_b < 16)
			DLB_FAIL(DLB_E_LIMIT, "TMA needs rows aligned to 16 bytes");
		if (!ar)
			DLB_CHECK(tc_tmap(s, set, 0, A, lda, ta, s->m, v[TC_BM], v[TC_BK], v[TC_TMA] == 3, &tma));
		DLB_CHECK(tc_tmap(s, set, 1, B, ldb, !tb, s->n, v[TC_BN], v[TC_BK], v[TC_TMA] == 2, &tmb));
	}
	void *args[] = {&M, &N, &K, &A, &lda, &B, &ldb, &C, &ldc,
			&W, &counters, &kc, &vec_a, &vec_b, &vec_c, &tma, &tmb};
	size_t smem = (s->int8 ? smem_int8(v) : smem_fp16(v)) + ar;
	if ((v[TC_PERSIST] || is_pair(v)) && split > 1)
		DLB_FAIL(DLB_E_LIMIT, "persistent blocks and pairs of blocks do not split K");
	int pair = is_pair(v);
	dim3 block = {(unsigned)threads_of(v, (int)s->es_in), 1, 1};
	dim3 clu = {pair ? 2u : 1u, 1, cluster ? (unsigned)split : 1u};
	cudaKernel_t k = c->kernels[ta * 2 + tb];
	if (ar && (s->ar_k != k || s->ar_smem < smem)) { /* the kernel's dynamic shared memory, raised once */
		s->ar_k = NULL;
		DLB_CHECK(dlb_kernel_allow_smem(k, smem));
		s->ar_k = k, s->ar_smem = smem;
	}
	if (is_wgmma(v) && s->int8 && !(ta && !tb))
		DLB_FAIL(DLB_E_LIMIT, "int8 wgmma reads K-major operands only");
	/* the blocks: a tile each; pairs: two per pair of tiles (a last M- or N-tile without a partner gets a
	 * partner outside C); persistent: one per SM, or as many pairs as run at once */
	int64_t units = !pair ? mt * nt : v[TC_TMA] == 2 ? (mt + 1) / 2 * nt : mt * ((nt + 1) / 2);
	int64_t blocks = pair ? 2 * units : mt * nt;
	if (v[TC_PERSIST] && mt * nt > s->g->dev->sm_count) {
		blocks = s->g->dev->sm_count;
		if (pair) {
			if (s->pair_k != k || s->pair_smem != smem) {
				s->pair_k = NULL;
				DLB_CHECK(dlb_max_clusters(k, block, smem, clu, &s->pair_slots));
				if (s->pair_slots < 1)
					DLB_FAIL(DLB_E_LIMIT, "no cluster of two blocks fits the device");
				s->pair_k = k, s->pair_smem = smem;
			}
			blocks = 2 * (units < s->pair_slots ? units : s->pair_slots);
		}
	}
	if (blocks > 0x7fffffff)
		DLB_FAIL(DLB_E_LIMIT, "grid of %lld blocks exceeds the device's limit", (long long)blocks);
	dim3 grid = {(unsigned)blocks, 1, (unsigned)split};
	/* after a repack of A alone: a programmatic dependent launch (its producer waits for the repacked A before
	 * loading it, see gemm_wgmma.cu; B's loads do not wait, so a repacked B is a plain launch after its
	 * repack); CLK: each tile's splits one cluster; TMA 2, 3: each pair one cluster */
	DLB_CHECK(dlb_launch_ex(k, grid, block, smem, s->g->dev->stream, args, packed_a && !packed_b, clu));
fail:
	return rc;
}

static int check_output(struct tc_state *s, struct dlb_check *out)
{
	if (s->int8)
		return dlb_compare_s32(s->g, s->C[0], s->m, s->ref, s->m, s->m, s->n, out);
	return dlb_compare_f16(s->g, s->C[0], s->m, s->ref, s->m, s->m, s->n, s->abs_tol, out);
}

static int tc_verify(void *state, const struct dlb_candidate *c, int split, struct dlb_check *out)
{
	int rc = 0;
	struct tc_state *s = state;
	DLB_CHECK(dlb_poison(s->g, s->C[0], (size_t)s->m * (size_t)s->n * s->es_out));
	if (split > 1)
		DLB_CHECK(dlb_poison(s->g, s->ws, s->ws_elems * 4));
	DLB_CHECK(tc_launch(state, c, split, 0));
	DLB_CHECK(check_output(s, out));
fail:
	return rc;
}

/* ---- vendor baselines: cublasGemmEx and cuBLASLt, by gemm.c's runner on our buffers ---- */

#define TC_OP_COMMON                                                                                          \
	.name = "gemm", .family = &dlb_family_gemm, .template_file = "gemm_tc.cu", .template_extra = "gemm_wgmma.cu",            \
	.kernel_names = tc_kernels, .nkernels = 6, .ndyn_kernels = 4,                                                 \
	.variant_name = "SPLITK", .device_bytes = tc_device_bytes,                                                 \
	.nspecs = GEMM_SPECS, .spec_defines = dlb_gemm_spec_defines, .spec_names = dlb_gemm_spec_names,           \
	.spec_of = tc_spec_of, .spec_used = tc_spec_used,                                                          \
	.setup = tc_setup, .variants = tc_variants, .nsets = tc_nsets, .launch = tc_launch, .verify = tc_verify,  \
	.accuracy = tc_accuracy,                                                                                     \
	.vendor = dlb_gemm_op_vendor, .vendor_launch = dlb_gemm_op_vendor_launch, .teardown = tc_teardown

const struct dlb_op dlb_op_gemm_fp16 = {
	TC_OP_COMMON,
	.prec = DLB_PREC_FP16,
	.es_in = 2,
	.es_out = 2,
	.summary = "dense matrix product on the tensor cores, half A, B, C with fp32 accumulation (mma.sync m16n8k16; "
		   "wgmma on sm_90a)",
	.defines = "#define PREC_INT8 0\n",
	.space = {fp16_params, TC_NPARAMS, fp16_constraints, sizeof fp16_constraints / sizeof fp16_constraints[0]},
	.limit_checks = fp16_limits,
	.nlimit_checks = sizeof fp16_limits / sizeof fp16_limits[0],
	.dyn_smem = smem_fp16,
};

const struct dlb_op dlb_op_gemm_int8 = {
	TC_OP_COMMON,
	.prec = DLB_PREC_INT8,
	.es_in = 1,
	.es_out = 4,
	.summary = "dense matrix product on the tensor cores, int8 A and B, int32 C and accumulation (mma.sync "
		   "m16n8k32; wgmma on sm_90a), dimensions padded to multiples of 4",
	.defines = "#define PREC_INT8 1\n",
	.space = {int8_params, TC_NPARAMS, int8_constraints, sizeof int8_constraints / sizeof int8_constraints[0]},
	.limit_checks = int8_limits,
	.nlimit_checks = sizeof int8_limits / sizeof int8_limits[0],
	.dyn_smem = smem_int8,
};
