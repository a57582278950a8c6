/* ops/gemm: the GEMM op entry — fp32 space and constraints as data, buffers, launches, cuBLAS baselines. */
#include "gemm.h"

#include "../../err.h"
#include "../../../search/pcg32.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* KIND picks the family (templates/gemm_fp32.cu): 0 = tiles from shared memory (BM, BN, BK, TM, TN), 3 = the
 * same 8 x 8 thread tiles fed by the tensor copy engine (sm_90, NN; BM, BN, BK, STAGES), 2 = skinny
 * products for a few columns of C (BM, BN 1..4, KS, KU, L2PF; BK only the split-K grain), 1 = 3xTF32 on the
 * tensor cores (templates/gemm_wgmma.cu in TF32: BM = 64*WGS*MI, BN, STAGES; BK 32, one 128-byte line of
 * floats), run on split copies of A and B (split3: each value as a TF32 big part and a TF32 remainder). A
 * family's unused parameters are pinned to one value each, so no configuration is counted twice. */
static const struct dlb_param gemm_params[GEMM_NPARAMS] = {
	[GEMM_BM] = {"BM", "rows of C per thread block (256: tile with TM 8, skinny, 3xTF32)", 5,
		     {16, 32, 64, 128, 256}},
	[GEMM_BN] = {"BN", "columns of C per thread block (1, 2, 4: skinny only)", 7, {1, 2, 4, 16, 32, 64, 128}},
	[GEMM_BK] = {"BK", "k-depth of one shared-memory stage (skinny: the split-K grain)", 3, {8, 16, 32}},
	[GEMM_TM] = {"TM", "rows of C per thread (tile)", 2, {4, 8}},
	[GEMM_TN] = {"TN", "columns of C per thread (tile; 16: with TM 8 and BN >= 64)", 4, {2, 4, 8, 16}},
	[GEMM_KIND] = {"KIND", "0: FFMA tiles, 1: 3xTF32 on wgmma (sm_90a), 2: FFMA skinny, 3: FFMA tile, TMA", 4,
		       {0, 1, 2, 3}, 1,
		       (const char *const[]){"FFMA tile", "3xTF32 wgmma", "FFMA skinny", "FFMA TMA tile"}},
	[GEMM_KS] = {"KS", "k-slices of threads per block (skinny)", 5, {1, 4, 8, 16, 32}},
	[GEMM_KU] = {"KU", "k per thread per batch of loads (skinny)", 3, {4, 8, 16}},
	[GEMM_L2PF] = {"L2PF", "1: A read past L1 with a 256-byte L2 prefetch per miss (skinny)", 2, {0, 1}},
	[GEMM_WGS] = {"WGS", "consumer warpgroups of 128 threads (3xTF32)", 2, {1, 2}},
	[GEMM_STAGES] = {"STAGES", "shared-memory stages in the ring (3xTF32, TMA tile)", 3, {3, 4, 6}},
	[GEMM_ASPLIT] = {"ASPLIT", "3xTF32's copies: 0 three parts, 1 A split in the kernel, 2 two parts a stage", 3,
			 {0, 1, 2}},
};

static int is_skinny(const int *v)
{
	return v[GEMM_KIND] == GEMM_KIND_SKINNY;
}

static int is_tf32x3(const int *v)
{
	return v[GEMM_KIND] == GEMM_KIND_TF32X3;
}

static int is_tma_tile(const int *v)
{
	return v[GEMM_KIND] == GEMM_KIND_TMA_TILE;
}

/* Whether the TMA tile reads B in [k][n] boxes (gemm_fp32.cu's gemm_nt): B transposed as stored (or its padded
 * copy), and from M = TMA_XB_MIN_M a copy of B transposed. run72 (H200): that loop ran 8% faster than NN's
 * [n][k] one on the same sizes (512 to 7680 x 7000 to 24000); the copy moves 8*K*N bytes against the product's
 * 2*M*N*K flops, about 53/M of its time at the H200's rates, which pays from M near 700. */
#define TMA_XB_MIN_M 1024
static int tma_reads_kn(const struct dlb_problem *p)
{
	return GTB(p) || GM(p) >= TMA_XB_MIN_M;
}

/* Whether the TMA tile reads B (leading dimension ldb) from a copy: B not transposed but read in [k][n] boxes
 * (its transposed copy), or B transposed with ldb not a multiple of 4 (its lines padded). */
static int tma_copies_b(const struct dlb_problem *p, int64_t ldb)
{
	return tma_reads_kn(p) && (!GTB(p) || ldb % 4);
}

/* 3xTF32: m64 wgmmas per consumer warpgroup (gemm_wgmma.cu's MI) */
static int tf32x3_mi(const int *v)
{
	return v[GEMM_BM] / (64 * v[GEMM_WGS]);
}

/* 3xTF32: the epilogue's staging, WGS x BN columns of 64*MI floats padded by 16 bytes (EPI_BYTES) */
static size_t tf32x3_epi_bytes(const int *v)
{
	return (size_t)v[GEMM_WGS] * (size_t)v[GEMM_BN] * (size_t)(64 * tf32x3_mi(v) * 4 + 16);
}

static int threads_of(const int *v)
{
	if (is_skinny(v))
		return v[GEMM_BM] / 4 * v[GEMM_KS];
	if (is_tf32x3(v))
		return 128 * (v[GEMM_WGS] + 1);
	return (v[GEMM_BM] / v[GEMM_TM]) * (v[GEMM_BN] / v[GEMM_TN]);
}

/* Shared memory: static for the FFMA families, dynamic for 3xTF32 (gemm_wgmma.cu's SMEM_BYTES: the ring, its
 * barriers, 1024 bytes of alignment) */
static size_t smem_of(const int *v)
{
	if (is_skinny(v))
		return (size_t)v[GEMM_KS] * (size_t)v[GEMM_BN] * (size_t)v[GEMM_BM] * sizeof(float);
	if (is_tma_tile(v)) /* gemm_fp32.cu's KIND 3: the ring, and 1024 bytes to align its first stage */
		return (size_t)v[GEMM_STAGES] * (size_t)(v[GEMM_BM] + v[GEMM_BN]) * (size_t)v[GEMM_BK] * sizeof(float) +
		       1024;
	if (is_tf32x3(v)) /* gemm_wgmma.cu's SMEM_BYTES: ASPLIT 2's stages hold both parts of each operand */
		return (size_t)v[GEMM_STAGES] * (size_t)(v[GEMM_BM] + v[GEMM_BN]) * 128 * (v[GEMM_ASPLIT] == 2 ? 2 : 1) +
		       16 * (size_t)v[GEMM_STAGES] + 1024;
	/* gemm_fp32.cu's two stages of each operand: BK lines of BM+4 (BN+4) floats, the last group of 8 lines
	 * shifted by SKEW_MAX (0, 8, 12 floats at BK 8, 16, 32) */
	int bk = v[GEMM_BK], skew_max = (bk / 8 - 1) * (128 / bk);
	return 2u * ((size_t)bk * (size_t)(v[GEMM_BM] + 4 + v[GEMM_BN] + 4) + 2u * (size_t)skew_max) * sizeof(float);
}

static size_t gemm_dyn_smem(const int *v)
{
	return is_tf32x3(v) || is_tma_tile(v) ? smem_of(v) : 0;
}

/* One family per configuration: a tile leaves KS, KU and L2PF at 1, 4 and 0, has at least 16 columns, and its
 * large shapes (256 rows; 16 columns a thread, with at least 64 a block: a warp's 64x64) have 8 rows a thread;
 * a skinny block leaves TM and TN at 4 and 2, has 1 to 4 columns and the split-K grain 16; 3xTF32
 * leaves TM, TN, KS, KU, L2PF at 4, 2, 1, 4, 0 and has BK 32; only 3xTF32 sets WGS, STAGES and ASPLIT (else 1,
 * 3, 0), but for the TMA tile, which has 8 x 8 a thread, 64 or 128 rows and columns, BK 16 or 32 and STAGES 3
 * or 4 (run62 and run64's probe: BK 8, and 8 x 16 at BK 8, were slower); at 128x128 BK 32 only (under NVRTC, BK 16 there
 * spills 16 bytes at 128 registers), and 8 x 16 a thread at 128x128 BK 16 (KIND 0's winner at N >= 24000). */
static int c_family(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	if (is_tf32x3(v))
		return v[GEMM_TM] == 4 && v[GEMM_TN] == 2 && v[GEMM_KS] == 1 && v[GEMM_KU] == 4 && !v[GEMM_L2PF] &&
		       v[GEMM_BK] == 32;
	if (is_tma_tile(v))
		return v[GEMM_TM] == 8 && v[GEMM_KS] == 1 && v[GEMM_KU] == 4 && !v[GEMM_L2PF] && v[GEMM_WGS] == 1 &&
		       !v[GEMM_ASPLIT] && (v[GEMM_BM] == 64 || v[GEMM_BM] == 128) &&
		       (v[GEMM_BN] == 64 || v[GEMM_BN] == 128) && v[GEMM_BK] >= 16 && v[GEMM_STAGES] <= 4 &&
		       (v[GEMM_TN] == 8 ? v[GEMM_BM] * v[GEMM_BN] < 128 * 128 || v[GEMM_BK] == 32
					: v[GEMM_TN] == 16 && v[GEMM_BM] == 128 && v[GEMM_BN] == 128 && v[GEMM_BK] == 16);
	if (v[GEMM_WGS] != 1 || v[GEMM_STAGES] != 3 || v[GEMM_ASPLIT])
		return 0;
	if (is_skinny(v))
		return v[GEMM_TM] == 4 && v[GEMM_TN] == 2 && v[GEMM_BN] <= 4 && v[GEMM_BK] == 16;
	if (v[GEMM_KS] != 1 || v[GEMM_KU] != 4 || v[GEMM_L2PF] || v[GEMM_BN] < 16)
		return 0;
	if ((v[GEMM_BM] == 256 || v[GEMM_TN] == 16) && v[GEMM_TM] != 8)
		return 0;
	return v[GEMM_TN] != 16 || v[GEMM_BN] >= 64;
}

/* 3xTF32's tile (gemm_wgmma.cu's constraints, PERSIST 0, CLK 0, TMA 0): BM = 64*WGS*MI with MI 1 or 2, BN 64
 * or 128, MI*BN <= 128 (the accumulators twice: each k-tile is summed apart, then added by the CUDA cores), the
 * epilogue's staging within the ring */
static int c_tf32x3(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	if (!is_tf32x3(v))
		return 1;
	int mi = tf32x3_mi(v);
	return v[GEMM_BM] == 64 * v[GEMM_WGS] * mi && (mi == 1 || mi == 2) && v[GEMM_BN] >= 64 &&
	       mi * v[GEMM_BN] <= 128 &&
	       tf32x3_epi_bytes(v) <= (size_t)v[GEMM_STAGES] * (size_t)(v[GEMM_BM] + v[GEMM_BN]) * 128 *
					(v[GEMM_ASPLIT] == 2 ? 2 : 1);
}

static int c_tile_shape(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	if (is_skinny(v) || is_tf32x3(v))
		return 1;
	int t = threads_of(v);
	return v[GEMM_BM] % v[GEMM_TM] == 0 && v[GEMM_BN] % v[GEMM_TN] == 0 && t >= 64 && t <= 256;
}

static int c_staging(const int *v, const struct dlb_limits *lim)
{
	(void)lim; /* floats each thread holds in flight for the next stage: more would spill (beside a thread's 128
		    * accumulators at 8 x 16, more than 32) */
	int most = v[GEMM_TM] * v[GEMM_TN] >= 128 ? 32 : 64;
	return is_skinny(v) || is_tf32x3(v) || is_tma_tile(v) ||
	       (v[GEMM_BM] + v[GEMM_BN]) * v[GEMM_BK] <= most * threads_of(v);
}

/* The skinny kernel's registers of data: acc[4][BN], a batch of A (4*KU) and of B (KU*BN) */
static int c_skinny(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	if (!is_skinny(v))
		return 1;
	int t = threads_of(v);
	return t >= 64 && t <= 512 && v[GEMM_KU] * (4 + v[GEMM_BN]) + 4 * v[GEMM_BN] <= 96;
}

static const struct dlb_constraint gemm_constraints[] = {
	{.text = "one family: tile KS 1, KU 4, L2PF 0, BN >= 16, TM 8 where BM 256 or TN 16, BN >= 64 where TN 16; "
		 "skinny TM 4, TN 2, BN <= 4, BK 16; 3xTF32 TM 4, TN 2, KS 1, KU 4, L2PF 0, BK 32; TMA tile TM 8, TN 8, "
		 "KS 1, KU 4, L2PF 0, BM and BN 64 or 128, BK >= 16 (32 at 128x128), STAGES <= 4, or TN 16 at 128x128 "
		 "BK 16; WGS 1, STAGES 3 and ASPLIT 0 but 3xTF32 and TMA tile",
	 .kind = DLB_CON_CUSTOM, .ok = c_family},
	{.text = "tile: BM % TM == 0, BN % TN == 0, threads (BM/TM)*(BN/TN) in [64, 256]", .kind = DLB_CON_CUSTOM,
	 .ok = c_tile_shape},
	{.text = "tile: staged floats per thread (BM+BN)*BK/threads <= 64 (32 where TM*TN = 128; not the TMA tile)",
	 .kind = DLB_CON_CUSTOM,
	 .ok = c_staging},
	{.text = "skinny: threads (BM/4)*KS in [64, 512], KU*(4+BN) + 4*BN <= 96 floats of data per thread",
	 .kind = DLB_CON_CUSTOM, .ok = c_skinny},
	{.text = "3xTF32: BM = 64*WGS*MI, MI 1 or 2, BN >= 64, MI*BN <= 128, epilogue WGS*BN*(256*MI+16) bytes "
		 "<= the ring STAGES*(BM+BN)*128",
	 .kind = DLB_CON_CUSTOM, .ok = c_tf32x3},
};

static int l_smem(const int *v, const struct dlb_limits *lim)
{
	return !lim || smem_of(v) <= (is_tf32x3(v) || is_tma_tile(v) ? lim->smem_optin : lim->smem_static);
}

static int l_threads(const int *v, const struct dlb_limits *lim)
{
	return !lim || threads_of(v) <= lim->max_threads_per_block;
}

/* wgmma and setmaxnreg exist only on the arch-specific Hopper target */
static int l_wgmma(const int *v, const struct dlb_limits *lim)
{
	return !is_tf32x3(v) || !lim || lim->sm == 0 || (lim->sm == 90 && lim->sm_specific);
}

/* the tensor copy engine (cp.async.bulk.tensor) exists from sm_90 on */
static int l_tma(const int *v, const struct dlb_limits *lim)
{
	return !is_tma_tile(v) || !lim || lim->sm == 0 || lim->sm >= 90;
}

static const struct dlb_constraint gemm_limit_checks[] = {
	{.text = "shared memory (tile 2*(BK*(BM+BN+8) + 2*SKEW_MAX)*4, skinny KS*BN*BM*4 bytes: static limit per "
		 "block; 3xTF32 and the TMA tile their ring: opt-in limit)",
	 .kind = DLB_CON_CUSTOM, .ok = l_smem},
	{.text = "threads <= max threads per block", .kind = DLB_CON_CUSTOM, .ok = l_threads},
	{.text = "3xTF32 (wgmma) only on sm_90a", .kind = DLB_CON_CUSTOM, .ok = l_wgmma},
	{.text = "TMA tile only on sm_90 and later", .kind = DLB_CON_CUSTOM, .ok = l_tma},
};

/* the four layouts (index ta*2 + tb), then 3xTF32's split of an operand, then the TMA tile's transposed copy */
static const char *const gemm_kernels[] = {"gemm_nn", "gemm_nt", "gemm_tn", "gemm_tt", "split3", "transpose"};
enum { GEMM_SPLIT3_KERNEL = 4, GEMM_XPOSE_KERNEL = 5 };

/* ASPLIT reads A as stored 'n' with gemm_wgmma.cu's gemm_nn where its columns are 16-byte aligned and K is a
 * multiple of 32 (whole k-tiles, no read past K); otherwise A 'n' goes through a K-major copy to gemm_tn. */
static int asplit_nn(const struct dlb_problem *p, const int *v)
{
	return is_tf32x3(v) && v[GEMM_ASPLIT] == 1 && !GTA(p) && GM(p) % 4 == 0 && GK(p) % 32 == 0;
}

/* 3xTF32 runs TN on the split copies whatever the problem's layout (ASPLIT: NN where asplit_nn); the TMA tile
 * NN or NT (tma_reads_kn); the other FFMA families the problem's own. */
static int gemm_spec_of(const struct dlb_problem *p, const int *v)
{
	if (is_tma_tile(v))
		return tma_reads_kn(p); /* gemm_nn or gemm_nt: a transposed A is read from a copy (gemm_launch) */
	return asplit_nn(p, v) ? 0 : is_tf32x3(v) ? 2 : dlb_gemm_spec_of(p, v);
}

static int gemm_spec_used(const struct dlb_op *op, int s, const int *v)
{
	if (is_tma_tile(v))
		return s == 0 || s == 1; /* NN and NT */
	return is_tf32x3(v) ? s == 2 || (v[GEMM_ASPLIT] == 1 && s == 0) : dlb_gemm_spec_used(op, s, v);
}

/* ---- problem state ---- */

#define MAX_SETS DLB_GEMM_MAX_SETS
#define SPLIT_WAVES 8
#define MAX_TILES_SPLIT (SPLIT_WAVES * 256) /* counters: more tiles than a split grid can have on any GPU */
#define TMA_BOXES 8 /* the TMA tile's (BM, BN, BK): 64 or 128, 64 or 128, 16 or 32 (c_family) */

struct gemm_state {
	struct dlb_gemm_io io; /* first: the vendor baselines' view of this state (dlb_gemm_op_vendor) */
	struct dlb_gpu *g;
	struct dlb_blas *handles; /* the family's */
	struct dlb_problem p;
	struct dlb_blas_gemm blas;
	int nsets;
	float *A[MAX_SETS], *B[MAX_SETS], *C[MAX_SETS];
	float *ref;
	void *ws;           /* split-K partial products (fp32) */
	size_t ws_elems;
	unsigned *counters; /* split-K arrival count per tile; zero between launches */
	float *sp[2];       /* 3xTF32: the split copies of A and B (split3), lines of 3*kp, allocated at first use */
	float *xa, *xb;     /* the TMA tile's copies (xpose_reserve): op(A) in NN's layout where A is transposed;
	                     * op(B) transposed (xb_copied) */
	int64_t ldxa, ldxb; /* their leading dimensions: M and N rounded up to multiples of 4 */
	int64_t kp;         /* K rounded up to a multiple of 4 */
	int64_t kp32;       /* K rounded up to a multiple of 32 (ASPLIT's parts, a k-tile each) */
	double tol, tol_tf32; /* fp32's; TF32's for cuBLAS's TF32 entry */
	/* the TMA tile's tensor maps (struct dlb_tmap's bytes: the state is not 64-byte aligned) for each of its
	 * boxes (tma_box_of), input set and operand (A, B); tm_ok[box]: encoded */
	unsigned char tm[TMA_BOXES][MAX_SETS][2][sizeof(struct dlb_tmap)];
	int tm_ok[TMA_BOXES];
	uint64_t seed;
	struct dlb_gemm_vendor_keep vkeep;
};

static size_t set_bytes(const struct dlb_problem *p)
{
	return sizeof(float) * ((size_t)GM(p) * (size_t)GK(p) + (size_t)GK(p) * (size_t)GN(p) + (size_t)GM(p) * (size_t)GN(p));
}

/* Enough input sets that MAX_SETS launches in a row never find their inputs in L2. */
static int sets_for(const struct dlb_problem *p, const struct dlb_device *dev)
{
	return dlb_bench_sets(dev, set_bytes(p), MAX_SETS);
}

/* May a configuration of mn tiles run problem p split s ways? The grid stays within SPLIT_WAVES blocks per SM
 * and each split keeps >= 4 k-steps: skinny problems are latency-bound, and more blocks put more loads in flight. */
static int split_ok(const struct dlb_problem *p, const int *v, int64_t mn, int sm_count, int s)
{
	return mn * s <= SPLIT_WAVES * (int64_t)sm_count && GK(p) / s >= 4 * v[GEMM_BK];
}

/* A split's time in k-steps on the busiest SM: the grid's blocks dealt evenly over the SMs, each block the k-steps
 * of its chunk (gemm_launch's kc). */
static int64_t split_cost(const struct dlb_problem *p, const int *v, int64_t mn, int sm_count, int s)
{
	int64_t kc = (GK(p) + s - 1) / s, steps = (kc + v[GEMM_BK] - 1) / v[GEMM_BK];
	return (mn * s + sm_count - 1) / sm_count * steps;
}

int dlb_gemm_splits(const struct dlb_problem *p, const int *v, int sm_count, int fill, int *splits, int max)
{
	int64_t mn = ((GM(p) + v[GEMM_BM] - 1) / v[GEMM_BM]) * ((GN(p) + v[GEMM_BN] - 1) / v[GEMM_BN]);
	int n = 0;
	if (max > 0)
		splits[n++] = 1;
	for (int s = 2; n < max && s <= 64; s *= 2) {
		/* fill: between s/2 and s, the factor of least cost where it costs less than both (s where allowed) */
		int best = 0, ok = split_ok(p, v, mn, sm_count, s);
		int64_t bar = split_cost(p, v, mn, sm_count, s / 2), cost = ok ? split_cost(p, v, mn, sm_count, s) : bar;
		bar = cost < bar ? cost : bar;
		for (int f = s / 2 + 1; fill && f < s && split_ok(p, v, mn, sm_count, f); f++)
			if ((cost = split_cost(p, v, mn, sm_count, f)) < bar)
				bar = cost, best = f;
		if (best)
			splits[n++] = best;
		if (!ok || n >= max)
			break;
		splits[n++] = s;
	}
	return n;
}

/* K rounded up to a multiple of 4: the length of each of 3xTF32's three parts of a split line */
static int64_t kp_of(const struct dlb_problem *p)
{
	return (GK(p) + 3) / 4 * 4;
}

/* K rounded up to a multiple of 32: the same with ASPLIT, whose parts interleave a k-tile (32 floats) at a time;
 * the split copies' lines are 3 times this long, room for either */
static int64_t kp32_of(const struct dlb_problem *p)
{
	return (GK(p) + 31) / 32 * 32;
}

/* 3xTF32 runs where N > 16 (fewer columns are the skinny family's) */
static int tf32x3_applies(const struct dlb_problem *p)
{
	return GN(p) > 16;
}

static size_t gemm_device_bytes(const struct dlb_problem *p, const struct dlb_device *dev)
{
	size_t mn = (size_t)GM(p) * (size_t)GN(p) * sizeof(float);
	size_t ws = (size_t)SPLIT_WAVES * dev->sm_count * 128 * 128 * sizeof(float); /* split-K bound: see dlb_gemm_splits */
	size_t tc = 0;
	ws = ws < 64 * mn ? ws : 64 * mn;
	if (tf32x3_applies(p)) { /* the split copies, and split-K partials of whole 3xTF32 tiles (BM*BN <= 16384) */
		size_t tiles = (size_t)(GM(p) + 255) * (size_t)(GN(p) + 255) * sizeof(float);
		size_t ws_tc = (size_t)SPLIT_WAVES * dev->sm_count * 16384 * sizeof(float);
		tc = 3 * (size_t)kp32_of(p) * (size_t)(GM(p) + GN(p)) * sizeof(float);
		ws_tc = ws_tc < 64 * tiles ? ws_tc : 64 * tiles;
		ws = ws > ws_tc ? ws : ws_tc;
	}
	/* the TMA tile's copies (xpose_reserve): a transposed A; B where it reads a copy (xb_copied) */
	int xb = tma_copies_b(p, GTB(p) ? GN(p) : GK(p)); /* the problem's ldb: N or K */
	size_t xp = ((GTA(p) ? (size_t)(GM(p) + 3) / 4 * 4 * (size_t)GK(p) : 0) +
		     (xb ? (size_t)(GN(p) + 3) / 4 * 4 * (size_t)GK(p) : 0)) * sizeof(float);
	return (size_t)sets_for(p, dev) * set_bytes(p) + mn + ws + tc + xp +
	       dlb_bench_flush_bytes(dev) + ((size_t)64 << 20) /* cuBLASLt workspace */;
}

static void gemm_teardown(void *state)
{
	struct gemm_state *s = state;
	if (!s)
		return;
	for (int i = 0; i < MAX_SETS; i++) {
		dlb_dev_free(s->A[i]);
		dlb_dev_free(s->B[i]);
		dlb_dev_free(s->C[i]);
	}
	dlb_dev_free(s->ref);
	dlb_dev_free(s->ws);
	dlb_dev_free(s->counters);
	dlb_dev_free(s->sp[0]);
	dlb_dev_free(s->xa);
	dlb_dev_free(s->xb);
	dlb_gemm_vendor_free(&s->vkeep);
	free(s);
}

/* Recompute a few reference elements on the CPU in double precision: a wrong layout in the cuBLAS call
 * would otherwise make every candidate look wrong (or right). */
static int spot_check_reference(struct gemm_state *s)
{
	int rc = 0;
	const struct dlb_problem *p = &s->p;
	float *tmp = malloc((size_t)GK(p) * sizeof *tmp);
	double *fa = malloc((size_t)GK(p) * sizeof *fa), *fb = malloc((size_t)GK(p) * sizeof *fb);
	if (!tmp || !fa || !fb)
		DLB_FAIL(ENOMEM, "out of memory for the reference spot check");
	struct dlb_pcg32 rng;
	dlb_pcg32_seed(&rng, s->seed, 99);
	for (int t = 0; t < 8; t++) {
		int64_t i = dlb_pcg32_bounded(&rng, (uint32_t)(GM(p) < UINT32_MAX ? GM(p) : UINT32_MAX));
		int64_t j = dlb_pcg32_bounded(&rng, (uint32_t)(GN(p) < UINT32_MAX ? GN(p) : UINT32_MAX));
		/* op(A)(i, :) is contiguous when A is stored transposed; op(B)(:, j) when B is not */
		DLB_CHECK(dlb_gemm_read_k(s->A[0], s->blas.lda, GTA(p), i, GK(p), CUDA_R_32F, tmp, fa));
		DLB_CHECK(dlb_gemm_read_k(s->B[0], s->blas.ldb, !GTB(p), j, GK(p), CUDA_R_32F, tmp, fb));
		float got;
		CUDA_CHECK(cudaMemcpy(&got, s->ref + j * GM(p) + i, sizeof got, cudaMemcpyDeviceToHost));
		double want = 0;
		for (int64_t k = 0; k < GK(p); k++)
			want += fa[k] * fb[k];
		if (!(fabs((double)got - want) <= s->tol))
			DLB_FAIL(DLB_E_WRONG, "cuBLAS reference disagrees with the CPU at C(%lld,%lld): %.9g vs %.9g",
				 (long long)i, (long long)j, (double)got, want);
	}
fail:
	free(tmp);
	free(fa);
	free(fb);
	return rc;
}

/* C[0] against the reference within an absolute tolerance: fp32's (the candidates, cuBLAS's strict entries) or
 * TF32's (cuBLAS's TF32 entry); a near miss goes to the referee */
static int compare_c(struct gemm_state *s, double tol, struct dlb_check *out)
{
	int rc = 0;
	DLB_CHECK(dlb_compare_f32(s->g, s->C[0], GM(&s->p), s->ref, GM(&s->p), GM(&s->p), GN(&s->p), tol, out));
	DLB_CHECK(dlb_gemm_referee(&s->blas, GM(&s->p), GN(&s->p), s->A[0], s->B[0], s->C[0], s->ref, out));
fail:
	return rc;
}

static int check_state(void *state, struct dlb_check *out)
{
	struct gemm_state *s = state;
	return compare_c(s, s->tol, out);
}

static int check_tf32(void *state, struct dlb_check *out)
{
	struct gemm_state *s = state;
	return compare_c(s, s->tol_tf32, out);
}

/* The op's accuracy hook: C[0] at sampled outputs against the exact result in double. */
static int gemm_accuracy(void *state, struct dlb_rel_err *out)
{
	struct gemm_state *s = state;
	return dlb_gemm_sample_errors(&s->blas, GM(&s->p), GN(&s->p), s->A[0], s->B[0], s->C[0], s->seed, out);
}

/* What the baselines run on: this op's buffers and check (dlb_gemm_vendor). */
static void io_of(struct gemm_state *s)
{
	struct dlb_gemm_io *io = &s->io;
	*io = (struct dlb_gemm_io){.classic = "cublasSgemm", .g = s->g, .handles = s->handles, .blas = &s->blas,
				   .nsets = s->nsets, .a_bytes = (size_t)GM(&s->p) * (size_t)GK(&s->p) * sizeof(float),
				   .b_bytes = (size_t)GK(&s->p) * (size_t)GN(&s->p) * sizeof(float),
				   .c_bytes = (size_t)GM(&s->p) * (size_t)GN(&s->p) * sizeof(float), .ref = s->ref,
				   .check = check_state,
				   .accuracy = gemm_accuracy, .check_tf32 = check_tf32, .state = s, .keep = &s->vkeep};
	for (int i = 0; i < s->nsets; i++)
		io->A[i] = s->A[i], io->B[i] = s->B[i], io->C[i] = s->C[i];
}

static int gemm_setup(struct dlb_gpu *g, const struct dlb_problem *p, void **state)
{
	int rc = 0;
	struct gemm_state *s = calloc(1, sizeof *s);
	if (!s)
		DLB_FAIL(ENOMEM, "out of memory");
	s->g = g;
	s->p = *p;
	struct dlb_gemm_shared *shared;
	DLB_CHECK(dlb_gemm_shared_of(g, &shared));
	s->handles = &shared->blas;
	dlb_blas_gemm_fp32(&s->blas, GTA(p), GTB(p), GM(p), GN(p), GK(p));
	s->nsets = sets_for(p, g->dev);
	s->tol = dlb_tol_fp32(GK(p));
	/* inputs rounded to TF32 (2^-11 relative each): errors of random sign, 8 times their typical sum's size */
	s->tol_tf32 = s->tol + 8.0 * sqrt((double)GK(p)) / 2048.0;
	s->seed = dlb_fresh_seed();
	s->kp = kp_of(p);
	s->kp32 = kp32_of(p);
	size_t mk = (size_t)GM(p) * (size_t)GK(p), kn = (size_t)GK(p) * (size_t)GN(p), mn = (size_t)GM(p) * (size_t)GN(p);
	for (int i = 0; i < s->nsets; i++) {
		DLB_CHECK(dlb_dev_alloc((void **)&s->A[i], mk * 4));
		DLB_CHECK(dlb_dev_alloc((void **)&s->B[i], kn * 4));
		DLB_CHECK(dlb_dev_alloc((void **)&s->C[i], mn * 4));
		DLB_CHECK(dlb_fill_f32(g, s->A[i], (int64_t)mk, s->seed + 2 * (uint64_t)i));
		DLB_CHECK(dlb_fill_f32(g, s->B[i], (int64_t)kn, s->seed + 2 * (uint64_t)i + 1));
	}
	DLB_CHECK(dlb_dev_alloc((void **)&s->counters, MAX_TILES_SPLIT * sizeof(unsigned)));
	dlb_count_launch();
	CUDA_CHECK(cudaMemsetAsync(s->counters, 0, MAX_TILES_SPLIT * sizeof(unsigned), g->dev->stream));
	DLB_CHECK(dlb_dev_alloc((void **)&s->ref, mn * 4));
	DLB_CHECK(dlb_poison(g, s->ref, mn * 4));
	DLB_CHECK(dlb_blas_gemm_run(s->handles, &s->blas, s->A[0], s->B[0], s->ref));
	CUDA_CHECK(cudaStreamSynchronize(g->dev->stream));
	DLB_CHECK(spot_check_reference(s));
	io_of(s);
	*state = s;
	return 0;
fail:
	gemm_teardown(s);
	*state = NULL;
	return rc;
}

/* Split-K partial products (floats) that configuration v needs with `split` splits: an M x N slab per split for
 * the FFMA families, whole tiles for 3xTF32 (gemm_wgmma.cu's W) */
static size_t ws_elems_for(const struct gemm_state *s, const int *v, int split)
{
	if (split <= 1)
		return 0;
	if (!is_tf32x3(v))
		return (size_t)split * (size_t)GM(&s->p) * (size_t)GN(&s->p);
	int64_t mt = (GM(&s->p) + v[GEMM_BM] - 1) / v[GEMM_BM], nt = (GN(&s->p) + v[GEMM_BN] - 1) / v[GEMM_BN];
	return (size_t)split * (size_t)(mt * v[GEMM_BM]) * (size_t)(nt * v[GEMM_BN]);
}

/* 3xTF32's split copies: M lines of A then N of B, 3*kp32 floats each (room for 3*kp, or ASPLIT's), allocated
 * once (never inside a timed region); DLB_E_LIMIT where the device has no room (then the family does not run on
 * this problem). */
static int split_reserve(struct gemm_state *s)
{
	if (s->sp[0])
		return 0;
	size_t line = 3 * (size_t)s->kp32;
	if (dlb_dev_alloc((void **)&s->sp[0], line * (size_t)(GM(&s->p) + GN(&s->p)) * sizeof(float))) {
		dlb_clear_error();
		return DLB_E_LIMIT;
	}
	s->sp[1] = s->sp[0] + line * (size_t)GM(&s->p);
	return 0;
}

/* The depth gemm_wgmma.cu's 3xTF32 kernel runs over: the three parts of kp one after another (ASPLIT 0) or of
 * kp32 interleaved a k-tile at a time (1), or kp32 itself, a k-tile's three products at once (2). */
static int64_t tf32x3_depth(const struct gemm_state *s, const int *v)
{
	return v[GEMM_ASPLIT] == 2 ? s->kp32 : 3 * (v[GEMM_ASPLIT] ? s->kp32 : s->kp);
}

/* The TMA tile runs on sm_90 and later where the operands it reads as stored have 16-byte line strides: A where
 * not transposed, and B where it reads it in [n][k] boxes. A transposed A, B read in [k][n] boxes but not
 * transposed, and a transposed B whose stride is not a multiple of 4 it reads from copies (xpose_reserve). */
static int tma_tile_applies(const struct gemm_state *s)
{
	return (GTA(&s->p) || s->blas.lda % 4 == 0) && (tma_reads_kn(&s->p) || s->blas.ldb % 4 == 0) &&
	       s->g->dev->cc_major >= 9;
}

static int xb_copied(const struct gemm_state *s)
{
	return tma_copies_b(&s->p, s->blas.ldb);
}

/* The TMA tile's copies: a transposed A in NN's layout, op(A), M x K with M rounded up to a multiple of 4 a
 * column; op(B) transposed, N x K with N so rounded (xb_copied). Allocated once (never inside a timed region);
 * DLB_E_LIMIT where the device has no room (then the family does not run on this problem). */
static int xpose_reserve(struct gemm_state *s)
{
	const struct dlb_problem *p = &s->p;
	s->ldxa = (GM(p) + 3) / 4 * 4;
	s->ldxb = (GN(p) + 3) / 4 * 4;
	if ((GTA(p) && !s->xa && dlb_dev_alloc((void **)&s->xa, (size_t)s->ldxa * (size_t)GK(p) * sizeof(float))) ||
	    (xb_copied(s) && !s->xb && dlb_dev_alloc((void **)&s->xb, (size_t)s->ldxb * (size_t)GK(p) * sizeof(float)))) {
		dlb_clear_error();
		return DLB_E_LIMIT;
	}
	return 0;
}

/* which of the TMA tile's TMA_BOXES box shapes v has */
static int tma_box_of(const int *v)
{
	return (v[GEMM_BM] == 128) * 4 + (v[GEMM_BN] == 128) * 2 + (v[GEMM_BK] == 32);
}

/* The TMA tile's tensor maps of every input set for v's boxes (gemm_fp32.cu's KIND 3): A as stored (or its
 * copy, xpose_reserve), M floats a line, K lines, boxes of BM x BK; B as stored, K floats a line and N lines in
 * boxes of BK x BN, or where tma_reads_kn, op(B) transposed (B as stored or its copy), N floats a line and K
 * lines in boxes of BN x BK; no swizzle, zeros outside.
 * Encoded once a box shape, when gemm_variants first offers a candidate with it: never inside a timed launch. */
static int tma_maps(struct gemm_state *s, const int *v)
{
	int rc = 0;
	const struct dlb_problem *p = &s->p;
	int box = tma_box_of(v);
	struct dlb_tmap m;
	for (int i = 0; i < s->nsets; i++) {
		DLB_CHECK(dlb_tmap_2d_plain(&m, 4, GTA(p) ? s->xa : s->A[i], (uint64_t)GM(p), (uint64_t)GK(p),
					    (uint64_t)(GTA(p) ? s->ldxa : s->blas.lda) * 4, (uint32_t)v[GEMM_BM],
					    (uint32_t)v[GEMM_BK]));
		memcpy(s->tm[box][i][0], &m, sizeof m);
		if (tma_reads_kn(p))
			DLB_CHECK(dlb_tmap_2d_plain(&m, 4, xb_copied(s) ? s->xb : s->B[i], (uint64_t)GN(p), (uint64_t)GK(p),
						    (uint64_t)(xb_copied(s) ? s->ldxb : s->blas.ldb) * 4, (uint32_t)v[GEMM_BN],
						    (uint32_t)v[GEMM_BK]));
		else
			DLB_CHECK(dlb_tmap_2d_plain(&m, 4, s->B[i], (uint64_t)GK(p), (uint64_t)GN(p),
						    (uint64_t)s->blas.ldb * 4, (uint32_t)v[GEMM_BK], (uint32_t)v[GEMM_BN]));
		memcpy(s->tm[box][i][1], &m, sizeof m);
	}
	s->tm_ok[box] = 1;
fail:
	return rc;
}

static int gemm_variants(void *state, const struct dlb_candidate *c, int *values, int max)
{
	struct gemm_state *s = state;
	struct dlb_problem run = s->p;
	/* Large problems (>= 4 waves of 128x128 tiles): tiles under 64x64 move more bytes per flop than the
	 * larger ones and cannot win; skipping them keeps exhaustive search affordable until the racing search
	 * replaces it. */
	if ((double)GM(&s->p) * (double)GN(&s->p) >= 4.0 * s->g->dev->sm_count * 128 * 128 &&
	    c->cfg.v[GEMM_BM] * c->cfg.v[GEMM_BN] < 64 * 64)
		return 0;
	if (is_skinny(c->cfg.v) && GN(&s->p) > 16)
		return 0; /* for a few columns only (every layout): wider products reuse A, which tiles do */
	if (is_tma_tile(c->cfg.v)) {
		if (!tma_tile_applies(s) || xpose_reserve(s))
			return 0;
		if (!s->tm_ok[tma_box_of(c->cfg.v)] && tma_maps(s, c->cfg.v))
			dlb_clear_error(); /* gemm_launch encodes them again, and its error is the candidate's */
	}
	if (is_tf32x3(c->cfg.v)) {
		if (!tf32x3_applies(&s->p) || split_reserve(s))
			return 0;
		run.dim[GEMM_K] = tf32x3_depth(s, c->cfg.v);
	}
	int n = dlb_gemm_splits(&run, c->cfg.v, s->g->dev->sm_count, 1, values, max);
	/* Workspace for the largest split, allocated now: never inside a timed region. */
	size_t need = 0;
	for (int i = 0; i < n; i++)
		if (ws_elems_for(s, c->cfg.v, values[i]) > need)
			need = ws_elems_for(s, c->cfg.v, values[i]);
	return dlb_gemm_ws_reserve(&s->ws, &s->ws_elems, need) ? 1 : n; /* no room: plain runs only */
}

static int gemm_nsets(void *state)
{
	return ((struct gemm_state *)state)->nsets;
}

/* 3xTF32's split of operand op (0: A, 1: B) of input set `set` into s->sp[op] (templates/gemm_fp32.cu, split3):
 * lines are rows of op(A) (K-major where A is stored 't') or columns of op(B) (K-major where B is 'n'). inter:
 * split3's (0 three parts of kp one after the other; ASPLIT 1's, parts of kp32 interleaved a k-tile at a time,
 * and 2, A as it is in lines of kp32; 3, ASPLIT 2's two parts interleaved a k-tile at a time). */
static int split_launch(struct gemm_state *s, const struct dlb_candidate *c, int op, int set, int inter)
{
	int rc = 0;
	const struct dlb_problem *p = &s->p;
	const float *x = op ? s->B[set] : s->A[set];
	int64_t ld = op ? s->blas.ldb : s->blas.lda, lines = op ? GN(p) : GM(p), K = GK(p), kp = inter ? s->kp32 : s->kp;
	int kmaj = op ? !GTB(p) : GTA(p), b_order = op;
	float *out = s->sp[op];
	if ((lines + 31) / 32 > 65535)
		DLB_FAIL(DLB_E_LIMIT, "3xTF32's split of %lld lines is over the grid's limit", (long long)lines);
	void *args[] = {&x, &ld, &kmaj, &lines, &K, &kp, &b_order, &inter, &out};
	dim3 grid = {(unsigned)((kp + 31) / 32), (unsigned)((lines + 31) / 32), 1};
	DLB_CHECK(dlb_launch(c->kernels[GEMM_SPLIT3_KERNEL], grid, (dim3){32, 8, 1}, 0, s->g->dev->stream, args));
fail:
	return rc;
}

/* The TMA tile's transposed copy of an operand x (rows x cols as stored, leading dimension ld) into y, cols x
 * rows with leading dimension ldy (templates/gemm_fp32.cu, transpose), inside the timed launch: the cost of the
 * layout is the candidate's. */
static int xpose_launch(struct gemm_state *s, const struct dlb_candidate *c, const float *x, int64_t ld, int64_t rows,
			int64_t cols, float *y, int64_t ldy)
{
	int rc = 0;
	if ((cols + 31) / 32 > 65535 || (rows + 31) / 32 > 0x7fffffff)
		DLB_FAIL(DLB_E_LIMIT, "the TMA tile's transposed copy of %lld x %lld is over the grid's limit",
			 (long long)rows, (long long)cols);
	void *args[] = {&x, &ld, &rows, &cols, &y, &ldy};
	dim3 grid = {(unsigned)((rows + 31) / 32), (unsigned)((cols + 31) / 32), 1};
	DLB_CHECK(dlb_launch(c->kernels[GEMM_XPOSE_KERNEL], grid, (dim3){32, 8, 1}, 0, s->g->dev->stream, args));
fail:
	return rc;
}

static int gemm_launch(void *state, const struct dlb_candidate *c, int split, int set)
{
	int rc = 0;
	struct gemm_state *s = state;
	const struct dlb_problem *p = &s->p;
	const int *v = c->cfg.v;
	int tc = is_tf32x3(v);
	int64_t mt = (GM(p) + v[GEMM_BM] - 1) / v[GEMM_BM], nt = (GN(p) + v[GEMM_BN] - 1) / v[GEMM_BN];
	if (mt * nt > 0x7fffffff || split > 65535)
		DLB_FAIL(DLB_E_LIMIT, "grid of %lld blocks exceeds the device's limit", (long long)(mt * nt));
	if (split > 1 && (mt * nt > MAX_TILES_SPLIT || ws_elems_for(s, v, split) > s->ws_elems))
		DLB_FAIL(DLB_E_LIMIT, "split-K %d needs more workspace or counters than were allocated", split);
	if (tc && !s->sp[0])
		DLB_FAIL(DLB_E_LIMIT, "3xTF32's split copies were not allocated (no room on the device)");
	int asplit = tc && v[GEMM_ASPLIT] == 1, pair = tc && v[GEMM_ASPLIT] == 2;
	int64_t M = GM(p), N = GN(p), K = tc ? tf32x3_depth(s, v) : GK(p), ldc = s->blas.ldc;
	int64_t lda = pair ? 2 * K : tc ? K : s->blas.lda, ldb = pair ? 2 * K : tc ? K : s->blas.ldb;
	int64_t kc = (K + split - 1) / split;
	kc = (kc + v[GEMM_BK] - 1) / v[GEMM_BK] * v[GEMM_BK];
	const float *A = s->A[set], *B = s->B[set];
	float *C = s->C[set], *W = s->ws;
	unsigned *counters = s->counters;
	int vec_a = lda % 4 == 0, vec_b = ldb % 4 == 0, vec_c = ldc % 4 == 0;
	/* KIND 3's and 3xTF32's kernels take two tensor maps more (zero where unused; the other kernels read the
	 * first 15 parameters only) */
	struct dlb_tmap tma, tmb;
	memset(&tma, 0, sizeof tma);
	memset(&tmb, 0, sizeof tmb);
	void *args[] = {&M, &N, &K, &A, &lda, &B, &ldb, &C, &ldc, &W, &counters, &kc, &vec_a, &vec_b, &vec_c, &tma, &tmb};
	dim3 grid = {(unsigned)(mt * nt), 1, (unsigned)split}, block = {(unsigned)threads_of(v), 1, 1};
	if (!tc) {
		/* The FFMA families, on sm_90 a programmatic dependent launch (templates/gemm_fp32.cu's
		 * gemm_overlap_prior). KIND 3 runs NN's or NT's kernel, after its copies (xb_copied, a transposed A),
		 * from its tensor maps (aligned copies here for the launch's parameters), with its ring in dynamic
		 * shared memory. */
		int kernel = GTA(p) * 2 + GTB(p);
		size_t smem = 0;
		if (is_tma_tile(v)) {
			if (!tma_tile_applies(s))
				DLB_FAIL(DLB_E_LIMIT, "the TMA tile runs on sm_90 and later where A (if not transposed) has M "
						      "and B (if not transposed and M < %d) K a multiple of 4", TMA_XB_MIN_M);
			if (xpose_reserve(s))
				DLB_FAIL(DLB_E_LIMIT, "no room on the device for the TMA tile's copies of its operands");
			if (GTA(p)) /* op(A) into NN's layout: A is K x M as stored */
				DLB_CHECK(xpose_launch(s, c, A, s->blas.lda, GK(p), GM(p), s->xa, s->ldxa));
			if (xb_copied(s) && GTB(p)) /* B (N x K as stored) into lines of a 16-byte multiple */
				CUDA_CHECK(cudaMemcpy2DAsync(s->xb, (size_t)s->ldxb * 4, B, (size_t)s->blas.ldb * 4,
							     (size_t)GN(p) * 4, (size_t)GK(p), cudaMemcpyDeviceToDevice,
							     s->g->dev->stream));
			else if (xb_copied(s)) /* op(B) transposed: B is K x N as stored */
				DLB_CHECK(xpose_launch(s, c, B, s->blas.ldb, GK(p), GN(p), s->xb, s->ldxb));
			A = GTA(p) ? s->xa : A, lda = GTA(p) ? s->ldxa : lda;
			vec_a = lda % 4 == 0;
			if (!s->tm_ok[tma_box_of(v)])
				DLB_CHECK(tma_maps(s, v));
			memcpy(&tma, s->tm[tma_box_of(v)][set][0], sizeof tma);
			memcpy(&tmb, s->tm[tma_box_of(v)][set][1], sizeof tmb);
			kernel = tma_reads_kn(p), smem = smem_of(v); /* gemm_nn or gemm_nt */
		}
		DLB_CHECK(dlb_launch_ex(c->kernels[kernel], grid, block, smem, s->g->dev->stream, args,
					s->g->dev->cc_major >= 9, (dim3){1, 1, 1}));
		return 0;
	}
	/* 3xTF32: the splits first, in the same timed launch, then gemm_wgmma.cu's TN kernel on the copies (lines
	 * of 3*kp floats: 16-byte aligned; no tensor maps, TMA 0). ASPLIT: B's copy interleaved, and A as stored
	 * where its lines are K-major, 16-byte aligned and hold whole k-tiles (K = kp32), else a plain K-major copy
	 * of it (lines of kp32); the kernel splits A itself. */
	B = s->sp[1];
	int nn = asplit_nn(p, v);
	if (nn && (s->blas.lda % 4 || (uintptr_t)A % 16))
		DLB_FAIL(DLB_E_LIMIT, "3xTF32 with A split in the kernel needs A's columns 16-byte aligned");
	if (!asplit) { /* ASPLIT 2: two parts a line, interleaved a k-tile at a time (split3's inter 3) */
		DLB_CHECK(split_launch(s, c, 0, set, pair ? 3 : 0));
		A = s->sp[0];
	} else if (nn) {
		lda = s->blas.lda;
	} else if (!GTA(p) || s->blas.lda % 4 || GK(p) != s->kp32 || (uintptr_t)A % 16) {
		DLB_CHECK(split_launch(s, c, 0, set, 2));
		A = s->sp[0], lda = s->kp32;
	} else {
		lda = s->blas.lda;
	}
	DLB_CHECK(split_launch(s, c, 1, set, pair ? 3 : asplit));
	vec_a = vec_b = 16; /* the widest copy, in bytes, for gemm_wgmma.cu (vec_c as above: 16-byte stores of C) */
	DLB_CHECK(dlb_launch(c->kernels[nn ? 0 : 2], grid, block, smem_of(v), s->g->dev->stream, args));
fail:
	return rc;
}

static int gemm_verify(void *state, const struct dlb_candidate *c, int split, struct dlb_check *out)
{
	int rc = 0;
	struct gemm_state *s = state;
	DLB_CHECK(dlb_poison(s->g, s->C[0], (size_t)GM(&s->p) * (size_t)GN(&s->p) * 4));
	if (split > 1)
		DLB_CHECK(dlb_poison(s->g, s->ws, s->ws_elems * 4));
	DLB_CHECK(gemm_launch(state, c, split, 0));
	DLB_CHECK(compare_c(s, s->tol, out));
fail:
	return rc;
}

/* ---- vendor baselines, timed by the same harness on the same buffers (shared with ops/gemm_tc) ---- */

struct vendor_ctx {
	const struct dlb_gemm_io *io;
	const struct dlb_gemm_vendor_keep *keep;
	int algo; /* -1: the classic entry point; DLB_GEMM_TF32_ENTRY it in TF32 math; DLB_GEMM_TN_ENTRY + a: the TN
	           * route's a */
};

/* The GEMM the classic entry point runs for entry ctx: the problem's, or the same in TF32 math */
static const struct dlb_blas_gemm *classic_of(const struct vendor_ctx *v)
{
	return v->algo == DLB_GEMM_TF32_ENTRY ? &v->keep->tf32 : v->io->blas;
}

static int vendor_launch(void *ctx, int set)
{
	struct vendor_ctx *v = ctx;
	const struct dlb_gemm_io *io = v->io;
	if (v->algo < 0) /* the classic entry point (the stream floor, -2, never comes here) */
		return dlb_blas_gemm_run(io->handles, classic_of(v), io->A[set], io->B[set], io->C[set]);
	if (v->algo >= DLB_GEMM_TN_ENTRY)
		return dlb_lt_tn_run(io->handles, &v->keep->tn, v->algo - DLB_GEMM_TN_ENTRY, io->A[set], io->B[set],
				     io->C[set]);
	return dlb_lt_run(io->handles, &v->keep->plan, v->algo, io->A[set], io->B[set], io->C[set]);
}

static int floor_launch(void *ctx, int set)
{
	const struct dlb_gemm_io *io = ctx;
	return dlb_stream_floor(io->g, io->A[set], io->a_bytes, io->B[set], io->b_bytes, io->C[set], io->c_bytes);
}

/* Verify the vendor's output like ours, then time it. The classic entry point may answer that it has no
 * kernel for this case (int8 in some layouts): then *supported = 0 and nothing is timed. */
static int time_vendor(struct vendor_ctx *ctx, const struct dlb_bench_opts *o, struct dlb_vendor_entry *t,
		       int *supported)
{
	int rc = 0;
	const struct dlb_gemm_io *io = ctx->io;
	struct dlb_check chk;
	*supported = 1;
	DLB_CHECK(dlb_poison(io->g, io->C[0], io->c_bytes));
	if (ctx->algo < 0) /* the classic entry point, in the problem's math or TF32's */
		DLB_CHECK(dlb_blas_gemm_try(io->handles, classic_of(ctx), io->A[0], io->B[0], io->C[0], supported));
	else
		DLB_CHECK(vendor_launch(ctx, 0));
	if (!*supported)
		return 0;
	DLB_CHECK((ctx->algo == DLB_GEMM_TF32_ENTRY ? io->check_tf32 : io->check)(io->state, &chk));
	t->ok = chk.ok;
	if (t->ok && io->accuracy)
		DLB_CHECK(io->accuracy(io->state, &t->rel_err));
	if (t->ok)
		DLB_CHECK(dlb_bench_time(&io->g->bench, vendor_launch, ctx, io->nsets, o, &t->st));
fail:
	return rc;
}

/* int8 in NN, NT or TT: cuBLAS serves these layouts without its tensor-core kernels, so the vendor's best shot
 * is the TN route (dlb_lt_tn_run): each entry "cublasLt-TN#a" transposes what is not K-major and runs TN
 * algorithm a, at most DLB_GEMM_TN_ALGOS of them. Entries go before the stream floor's slot. */
static int tn_entries(struct vendor_ctx *ctx, struct dlb_gemm_vendor_keep *keep, const struct dlb_bench_opts *o,
		      struct dlb_vendor_entry *out, int max, int *n)
{
	int rc = 0, supported;
	const struct dlb_blas_gemm *g = ctx->io->blas;
	if (g->a_type != CUDA_R_8I || (g->ta && !g->tb))
		return 0;
	if (dlb_lt_tn_create(ctx->io->handles, g, &keep->tn)) { /* no route (a transform cuBLASLt refuses): none */
		dlb_clear_error();
		return 0;
	}
	for (int a = 0; a < keep->tn.plan.nalgos && a < DLB_GEMM_TN_ALGOS && *n < max - 1; a++) {
		keep->algo[*n] = DLB_GEMM_TN_ENTRY + a;
		struct dlb_vendor_entry *t = &out[(*n)++];
		memset(t, 0, sizeof *t);
		snprintf(t->name, sizeof t->name, "cublasLt-TN#%d", a);
		t->kind = DLB_GEMM_KIND_LT;
		char cfg[sizeof t->config - 32];
		if (dlb_lt_describe(&keep->tn.plan, a, cfg, sizeof cfg)) {
			snprintf(cfg, sizeof cfg, "unreadable: %s", dlb_last_error());
			dlb_clear_error();
		}
		snprintf(t->config, sizeof t->config, "%s + %s",
			 !g->ta && g->tb ? "A, B transposed" : !g->ta ? "A transposed" : "B transposed", cfg);
		ctx->algo = DLB_GEMM_TN_ENTRY + a;
		DLB_CHECK(time_vendor(ctx, o, t, &supported));
	}
fail:
	return rc;
}

/* fp32: cuBLAS in CUBLAS_COMPUTE_32F_FAST_TF32, shown beside the strict fp32 baselines with its accuracy,
 * never the vendor best (other_math): a TF32 result is not an fp32 one. Verified against TF32's tolerance. */
static int tf32_entry(struct vendor_ctx *ctx, struct dlb_gemm_vendor_keep *keep, const struct dlb_bench_opts *o,
		      struct dlb_vendor_entry *out, int max, int *n)
{
	int rc = 0, supported;
	const struct dlb_gemm_io *io = ctx->io;
	if (!io->check_tf32 || io->blas->a_type != CUDA_R_32F || *n >= max - 1)
		return 0;
	keep->tf32 = *io->blas;
	keep->tf32.compute = CUBLAS_COMPUTE_32F_FAST_TF32;
	keep->algo[*n] = DLB_GEMM_TF32_ENTRY;
	struct dlb_vendor_entry *t = &out[(*n)++];
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "cublasGemmEx-TF32");
	t->kind = DLB_GEMM_KIND_TF32;
	t->other_math = 1;
	snprintf(t->config, sizeof t->config,
		 "CUBLAS_COMPUTE_32F_FAST_TF32: inputs rounded to TF32 on the tensor cores; not fp32");
	ctx->algo = DLB_GEMM_TF32_ENTRY;
	DLB_CHECK(time_vendor(ctx, o, t, &supported));
	if (!supported) /* no TF32 kernel for this case: the entry goes */
		(*n)--;
fail:
	return rc;
}

int dlb_gemm_vendor(const struct dlb_gemm_io *io, const char *name, const struct dlb_bench_opts *o,
		    struct dlb_vendor_entry *out, int max, int *n)
{
	int rc = 0, supported;
	struct dlb_gemm_vendor_keep *keep = io->keep;
	dlb_gemm_vendor_free(keep); /* a plan from an earlier call on this problem */
	*n = 0;
	if (max < 1)
		return 0;
	if (max > DLB_RESULT_MAX_VENDOR)
		max = DLB_RESULT_MAX_VENDOR;
	struct vendor_ctx ctx = {io, keep, -1};
	struct dlb_vendor_entry *t = &out[*n];
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "%s", name);
	DLB_CHECK(time_vendor(&ctx, o, t, &supported));
	if (supported)
		keep->algo[(*n)++] = -1;
	DLB_CHECK(dlb_lt_plan_create(io->handles, io->blas, &keep->plan));
	for (int a = 0; a < keep->plan.nalgos && *n < max - 1; a++) {
		keep->algo[*n] = a;
		t = &out[(*n)++];
		memset(t, 0, sizeof *t);
		snprintf(t->name, sizeof t->name, "cublasLt#%d", a);
		t->kind = DLB_GEMM_KIND_LT;
		/* only a label: an attribute this cuBLASLt cannot report leaves its error text, not a failed baseline */
		if (dlb_lt_describe(&keep->plan, a, t->config, sizeof t->config)) {
			snprintf(t->config, sizeof t->config, "unreadable: %s", dlb_last_error());
			dlb_clear_error();
		}
		ctx.algo = a;
		DLB_CHECK(time_vendor(&ctx, o, t, &supported));
	}
	DLB_CHECK(tn_entries(&ctx, keep, o, out, max, n));
	DLB_CHECK(tf32_entry(&ctx, keep, o, out, max, n));
	if (*n < max) { /* the floor: what reading the inputs and writing the output once takes here */
		keep->algo[*n] = -2;
		t = &out[(*n)++];
		memset(t, 0, sizeof *t);
		snprintf(t->name, sizeof t->name, "stream floor");
		t->is_floor = 1;
		t->ok = 1;
		DLB_CHECK(dlb_bench_time(&io->g->bench, floor_launch, (void *)io, io->nsets, o, &t->st));
	}
	keep->n = *n;
fail:
	if (rc)
		dlb_gemm_vendor_free(keep);
	return rc;
}

int dlb_gemm_vendor_launch(const struct dlb_gemm_io *io, int entry, int set)
{
	int rc = 0;
	const struct dlb_gemm_vendor_keep *keep = io->keep;
	if (entry < 0 || entry >= keep->n)
		DLB_FAIL(DLB_E_USAGE, "no vendor entry %d on this problem (%d timed): the baselines must run first", entry,
			 keep->n);
	if (keep->algo[entry] == -2)
		return floor_launch((void *)io, set);
	struct vendor_ctx ctx = {io, keep, keep->algo[entry]};
	DLB_CHECK(vendor_launch(&ctx, set));
fail:
	return rc;
}

void dlb_gemm_vendor_free(struct dlb_gemm_vendor_keep *keep)
{
	dlb_lt_plan_destroy(&keep->plan);
	dlb_lt_tn_destroy(&keep->tn);
	keep->n = 0;
}

int dlb_gemm_op_vendor(void *state, const struct dlb_bench_opts *o, struct dlb_vendor_entry *out, int max, int *n)
{
	const struct dlb_gemm_io *io = state;
	return dlb_gemm_vendor(io, io->classic, o, out, max, n);
}

int dlb_gemm_op_vendor_launch(void *state, int entry, int set)
{
	return dlb_gemm_vendor_launch(state, entry, set);
}

const struct dlb_op dlb_op_gemm = {
	.name = "gemm",
	.family = &dlb_family_gemm,
	.prec = DLB_PREC_FP32,
	.summary = "dense matrix product C = op(A) op(B), column-major",
	.es_in = 4,
	.es_out = 4,
	.template_file = "gemm_fp32.cu",
	.template_extra = "gemm_wgmma.cu",
	.kernel_names = gemm_kernels,
	.nkernels = 6,
	.ndyn_kernels = 4,
	.dyn_smem = gemm_dyn_smem,
	.variant_name = "SPLITK",
	.nspecs = GEMM_SPECS,
	.spec_defines = dlb_gemm_spec_defines,
	.spec_names = dlb_gemm_spec_names,
	.spec_of = gemm_spec_of,
	.spec_used = gemm_spec_used,
	.space = {gemm_params, GEMM_NPARAMS, gemm_constraints, sizeof gemm_constraints / sizeof gemm_constraints[0]},
	.limit_checks = gemm_limit_checks,
	.nlimit_checks = sizeof gemm_limit_checks / sizeof gemm_limit_checks[0],
	.device_bytes = gemm_device_bytes,
	.setup = gemm_setup,
	.variants = gemm_variants,
	.nsets = gemm_nsets,
	.launch = gemm_launch,
	.verify = gemm_verify,
	.accuracy = gemm_accuracy,
	.vendor = dlb_gemm_op_vendor,
	.vendor_launch = dlb_gemm_op_vendor_launch,
	.teardown = gemm_teardown,
};
