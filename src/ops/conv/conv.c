/* ops/conv: the convolution ops — fp32 on the CUDA cores (templates/conv_fp32.cu), fp16 inputs with fp32
 * accumulation (conv_fp16.cu) and int8 inputs with int32 accumulation and output (conv_int8.cu, channels padded
 * to multiples of 4) on the tensor cores — their spaces and constraints as data, buffers, launches,
 * verification against the family's reference kernel, cuDNN's baselines. One cubin per layout (op.h's source
 * specialisations). The three share everything but the element sizes and the tunables that shape a launch. */
#include "conv.h"

#include "../../err.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fp32: KIND 0, the FFMA implicit GEMM of templates/conv_fp32.cu (strict fp32 on the CUDA cores); KIND 3, its
 * direct kernel for layers of few taps (fp16's KIND 3 in 3xTF32 on mma.sync m16n8k8); KIND 1 and 2,
 * 3xTF32 on the tensor cores (sm_90a): conv_fp16.cu's wgmma kernels built on fp32 elements (TF32 1), run on
 * copies of x and w that conv_split3 makes inside each launch (each value as a TF32 part and a TF32 remainder, the
 * channels tripled and rounded up to 32; split3), fed by cp.async (1) or the copy engine (2: im2col, or on 1x1
 * stride-1 layers a tiled map, x2d_dims). Each kind pins the tunables it does not read (FFMA: WARPS_M 1,
 * STAGES 2; 3xTF32: BK 32, TM and TN 2). */
enum { CONV_BM, CONV_BN, CONV_BK, CONV_TM, CONV_TN, CONV_WM, CONV_ST, CONV_KIND, CONV_NPARAMS };

static const struct dlb_param conv_params[CONV_NPARAMS] = {
	[CONV_BM] = {"BM", "output pixels per thread block (256: 3xTF32 only)", 4, {32, 64, 128, 256}},
	[CONV_BN] = {"BN", "filters per thread block", 4, {16, 32, 64, 128}},
	[CONV_BK] = {"BK", "reduction steps (c, r, s) per shared-memory stage (3xTF32: 32, one 128-byte line)", 3,
		     {8, 16, 32}},
	[CONV_TM] = {"TM", "output pixels per thread (FFMA)", 3, {2, 4, 8}},
	[CONV_TN] = {"TN", "filters per thread (FFMA)", 3, {2, 4, 8}},
	[CONV_WM] = {"WARPS_M", "consumer warpgroups along the pixels (3xTF32)", 2, {1, 2}},
	[CONV_ST] = {"STAGES", "shared-memory stages in flight (3xTF32)", 3, {2, 3, 4}},
	[CONV_KIND] = {"KIND",
		       "0: FFMA on the CUDA cores (strict fp32); 1: 3xTF32 on wgmma, cp.async copies (sm_90a); 2: 3xTF32 "
		       "on wgmma, the copy engine (sm_90a; im2col, or a tiled map of x on 1x1 stride-1 layers); 3: the "
		       "direct kernel in 3xTF32 on mma.sync (C x R x S <= 512, a tile of BM/BK rows of BK pixels)",
		       4,
		       {0, 1, 2, 3},
		       1,
		       (const char *const[]){"FFMA", "3xTF32 wgmma, cp.async", "3xTF32 wgmma, TMA", "3xTF32 direct, mma.sync"}},
};

static int f_wgmma(const int *v)
{
	return v[CONV_KIND] == 1 || v[CONV_KIND] == 2;
}

static int f_ffma(const int *v)
{
	return v[CONV_KIND] == 0;
}

/* KIND 3 (templates/conv_fp32.cu's conv_body_direct, fp16's KIND 3 in 3xTF32): BM threads, two 16-pixel strips a
 * warp; its shared memory depends on the problem (direct_smem), up to DIRECT_SMEM. */
#define DIRECT_SMEM ((size_t)96 * 1024)
#define DIRECT_MAX_TAPS 512 /* C·R·S at most: beyond it the implicit GEMM's stages win */
/* fp16's KIND 4 (NHWC, C % 8 == 0): conflict-free ldmatrix reads make longer reductions worth a patch in shared
 * memory (the filters stream through it in slabs); bounded by the shared memory alone, up to what sm_90 lets a
 * block have besides the kernels' static 16·BM + 4 bytes (227 KiB) */
#define DIRECT_LD_SMEM ((size_t)220 * 1024)
#define DIRECT_LD_SLAB 256 /* k a filter slab of KIND 4 (templates/conv_fp16.cu's DSLAB) */
/* The search's default window, up to a fiftieth of the points: 48 where the generic default stops at 8. The
 * kernels of the best kind (the wgmma ones, cluster splits) are a sixth of a 3x3 layer's 2238 points, and
 * replays of two exhaustively timed batch-1 layers (run110, no seeds) chose 8.2% off the best with 8 and 2.0%
 * with 44, evaluating 5.1% of the points instead of 2.1% (docs/NOTES.md item 165). */
#define CONV_WINDOW_MAX 48
static int f_direct(const int *v)
{
	return v[CONV_KIND] == 3;
}

/* templates/conv_fp32.cu: two stages of both tiles (rows padded by 4), the block's decoded pixels */
static size_t smem_of(const int *v)
{
	return 2 * (size_t)v[CONV_BK] * (size_t)(v[CONV_BM] + v[CONV_BN] + 8) * sizeof(float) +
	       (size_t)v[CONV_BM] * 16 + 4;
}

static int f_threads(const int *v)
{
	return f_wgmma(v) ? 128 * (v[CONV_WM] + 1) : f_direct(v) ? v[CONV_BM] : (v[CONV_BM] / v[CONV_TM]) * (v[CONV_BN] / v[CONV_TN]);
}

static int f_c_mult(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return !f_ffma(v) || (v[CONV_BM] % v[CONV_TM] == 0 && v[CONV_BN] % v[CONV_TN] == 0);
}

static int f_c_threads(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return !f_ffma(v) || (f_threads(v) >= 64 && f_threads(v) <= 256);
}

static int f_c_ffma(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return !f_ffma(v) || (v[CONV_BM] <= 128 && v[CONV_BN] <= 128 && v[CONV_BK] <= 16 && v[CONV_WM] == 1 &&
			      v[CONV_ST] == 2);
}

/* the direct kernel: BM/32 warps of two strips, BK (the tile's width) 16 or 32 dividing BM, BN <= 64 */
static int f_c_direct(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return !f_direct(v) || (v[CONV_BM] >= 64 && v[CONV_BK] >= 16 && v[CONV_BM] % v[CONV_BK] == 0 && v[CONV_BN] <= 64 &&
				v[CONV_TM] == 2 && v[CONV_TN] == 2 && v[CONV_WM] == 1 && v[CONV_ST] == 2);
}

/* as fp16's wgmma (h_c_wgmma), BN 32-256: BM = 64 x WARPS_M x (1 or 2); the accumulators of a thread's m64
 * blocks at most 128 columns, as each k-tile is summed apart in as many more registers (templates/conv_fp16.cu).
 * BN 32 (m64n32k8) is for layers with 32 filters, which a 64-wide tile computes twice over (docs/NOTES.md 141) */
static int f_c_tf32(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	int mi = v[CONV_BM] / (64 * v[CONV_WM]);
	return !f_wgmma(v) || (v[CONV_BK] == 32 && v[CONV_TM] == 2 && v[CONV_TN] == 2 && v[CONV_BN] >= 32 &&
			       v[CONV_BM] == 64 * v[CONV_WM] * mi && (mi == 1 || mi == 2) && mi * v[CONV_BN] <= 128);
}

static const struct dlb_constraint conv_constraints[] = {
	{.text = "FFMA: BM % TM == 0 and BN % TN == 0", .kind = DLB_CON_CUSTOM, .ok = f_c_mult},
	{.text = "FFMA: threads = (BM/TM)*(BN/TN) in [64, 256]", .kind = DLB_CON_CUSTOM, .ok = f_c_threads},
	{.text = "FFMA: BM <= 128, BN <= 128, BK <= 16, WARPS_M = 1, STAGES = 2", .kind = DLB_CON_CUSTOM, .ok = f_c_ffma},
	{.text = "3xTF32: BK = 32, TM = TN = 2, BM = 64*WARPS_M*MI (MI 1 or 2), BN >= 32, MI*BN <= 128",
	 .kind = DLB_CON_CUSTOM, .ok = f_c_tf32},
	{.text = "direct (KIND 3): BM >= 64, BK 16 or 32 dividing BM, BN <= 64, TM = TN = 2, WARPS_M = 1, STAGES = 2",
	 .kind = DLB_CON_CUSTOM, .ok = f_c_direct},
};

/* 3xTF32: STAGES lines of x and w (128 bytes each) from a 1024-byte aligned start; FFMA: none */
static size_t f_dyn_smem(const int *v)
{
	if (f_direct(v))
		return DIRECT_SMEM;
	return f_wgmma(v) ? (size_t)v[CONV_ST] * (size_t)(v[CONV_BM] + v[CONV_BN]) * 128 + 1024 : 0;
}

static int l_smem(const int *v, const struct dlb_limits *lim)
{
	return !lim || !f_ffma(v) || smem_of(v) <= lim->smem_static;
}

static int l_threads(const int *v, const struct dlb_limits *lim)
{
	return !lim || f_threads(v) <= lim->max_threads_per_block;
}

static int l_dyn(const int *v, const struct dlb_limits *lim)
{
	return !lim || !f_wgmma(v) || f_dyn_smem(v) + (size_t)v[CONV_BM] * 16 + 16 * (size_t)v[CONV_ST] <= lim->smem_optin;
}

static int l_wgmma(const int *v, const struct dlb_limits *lim)
{
	return !f_wgmma(v) || !lim || lim->sm == 0 || (lim->sm == 90 && lim->sm_specific);
}

static const struct dlb_constraint conv_limit_checks[] = {
	{.text = "FFMA: shared memory 8*BK*(BM+BN+8)+16*BM+4 bytes <= static limit per block", .kind = DLB_CON_CUSTOM,
	 .ok = l_smem},
	{.text = "threads <= max threads per block", .kind = DLB_CON_CUSTOM, .ok = l_threads},
	{.text = "3xTF32: shared memory 128*STAGES*(BM+BN)+1024+16*BM+16*STAGES bytes <= opt-in limit per block",
	 .kind = DLB_CON_CUSTOM, .ok = l_dyn},
	{.text = "3xTF32 (wgmma) only on sm_90a", .kind = DLB_CON_CUSTOM, .ok = l_wgmma},
};

/* fp16 (templates/conv_fp16.cu): KIND 0, tiles of warps, each a grid of 16x8 mma.sync tiles; KIND 1 (sm_90a,
 * C a multiple of 8), WARPS_M consumer warpgroups of m64 wgmmas and one producer warpgroup that fills their
 * cp.async stages; KIND 2 the same consumers fed by the copy engine (C a multiple of 64: an im2col tensor map
 * of x, or a tiled one on 1x1 stride-1 layers (x2d_dims), and a tiled one of w; tma_ok). int8 has no KIND. */
enum { H_BM, H_BN, H_BK, H_WM, H_WN, H_ST, H_KIND, H_NPARAMS };

static const struct dlb_param h_params[H_NPARAMS] = {
	[H_BM] = {"BM", "output pixels per thread block (256: wgmma only)", 3, {64, 128, 256}},
	[H_BN] = {"BN", "filters per thread block (256: wgmma only)", 4, {32, 64, 128, 256}},
	[H_BK] = {"BK", "reduction steps (c, r, s) per shared-memory stage (64: C a multiple of 8 only)", 3,
		  {16, 32, 64}},
	[H_WM] = {"WARPS_M", "warps along the pixels (wgmma: warpgroups)", 3, {1, 2, 4}},
	[H_WN] = {"WARPS_N", "warps along the filters", 3, {1, 2, 4}},
	[H_ST] = {"STAGES", "shared-memory stages in flight (C a multiple of 8; elsewhere 2; 6 and 8: wgmma only)", 5,
		  {2, 3, 4, 6, 8}},
	[H_KIND] = {"KIND",
		    "0: mma.sync; 1: wgmma, cp.async copies (sm_90a, C a multiple of 8); 2: wgmma, the copy engine "
		    "(sm_90a, C a multiple of 64; im2col, or a tiled map of x on 1x1 stride-1 layers); 3: direct, "
		    "mma.sync on the input patch in shared memory (C x R x S <= 512, a tile of BM/BK rows of BK pixels); "
		    "4: direct as 3 with ldmatrix on a bank-spread patch (NHWC, C a multiple of 8, filters of more than one "
		    "tap, sm_90's shared memory); 5: wgmma on a halo of x, the filters resident (sm_90a, NHWC, C = 64, "
		    "stride and dilation 1, K a multiple of 64; BM/64 output rows of 64 pixels a tile)",
		    6,
		    {0, 1, 2, 3, 4, 5},
		    1,
		    (const char *const[]){"mma.sync", "wgmma, cp.async", "wgmma, TMA", "direct, mma.sync",
					  "direct, ldmatrix", "halo, wgmma"}},
};

static int h_wgmma(const int *v)
{
	return v[H_KIND] == 1 || v[H_KIND] == 2 || v[H_KIND] == 5;
}

/* KIND 5 (templates/conv_fp16.cu's conv_body_halo): a tile of BM/64 output rows of 64 pixels from a halo of x in
 * shared memory, the block's 64 filters resident; its shared memory depends on the problem (halo_smem), up to
 * HALO_SMEM bytes */
static int h_halo(const int *v)
{
	return v[H_KIND] == 5;
}
#define HALO_SMEM (220 * 1024) /* h_limit_checks' text names it */

/* KIND 3 (templates/conv_fp16.cu's conv_body_direct): the block's input patch and filters in shared memory, the
 * mma.sync fragments read from them; BK is the tile's width in pixels. Its shared memory depends on the
 * problem (direct_smem); the kernels may take up to DIRECT_SMEM bytes. KIND 4 (conv_body_direct_ld) the same
 * with ldmatrix, for NHWC with C % 8 == 0, up to DIRECT_LD_SMEM. */
static int h_direct(const int *v)
{
	return v[H_KIND] == 3 || v[H_KIND] == 4;
}

/* two stages of both tiles (rows padded by 8 halves), the block's decoded pixels */
static size_t h_smem_of(const int *v)
{
	return 2 * (size_t)(v[H_BM] + v[H_BN]) * (size_t)(v[H_BK] + 8) * 2 + (size_t)v[H_BM] * 16 + 4;
}

/* mma.sync (KIND 0): the warp tile is a grid of 16x8 tiles */
static int h_c_warp_m(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return h_wgmma(v) || (v[H_BM] <= 128 && v[H_BM] / v[H_WM] >= 16);
}

static int h_c_warp_n(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return h_wgmma(v) || (v[H_BN] <= 128 && v[H_BN] / v[H_WN] >= 8);
}

static int h_c_warps(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return h_wgmma(v) || (v[H_WM] * v[H_WN] >= 2 && v[H_WM] * v[H_WN] <= 8);
}

static int h_c_acc(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return h_wgmma(v) || (v[H_BM] / v[H_WM]) * (v[H_BN] / v[H_WN]) <= 4096;
}

/* wgmma (KIND 1, 2): one 128-byte line of k a stage; BM = 64 x WARPS_M warpgroups x 1 or 2 m64 blocks each;
 * the m64nBNk16 accumulators of one or two blocks fit a thread; BN 32 for layers with 32 filters or too few
 * tiles (NOTES item 60) */
static int h_c_wgmma(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	int mi = v[H_WM] <= 2 ? v[H_BM] / (64 * v[H_WM]) : 0;
	return !h_wgmma(v) || (v[H_BK] == 64 && v[H_WN] == 1 && v[H_WM] <= 2 && v[H_BN] >= 32 &&
			       (mi == 1 || mi == 2) && mi * v[H_BN] <= 256);
}

/* more than 4 stages: only where the tiles are few and latency bound (wgmma, NOTES item 58) */
static int h_c_stages(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return v[H_ST] <= 4 || h_wgmma(v);
}

/* KIND 5: two consumer warpgroups of one or two 64-pixel rows each, 64 filters (all of a block's tiles), a ring of
 * two or three halos */
static int h_c_halo(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return !h_halo(v) || ((v[H_BM] == 128 || v[H_BM] == 256) && v[H_BN] == 64 && v[H_WM] == 2 && v[H_ST] <= 3);
}

/* KIND 3 and 4: one warp along the filters (all BN of them), whole 16-pixel strips a warp, filters of at most 64 */
static int h_c_direct(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return !h_direct(v) ||
	       (v[H_WN] == 1 && v[H_ST] == 2 && v[H_BN] <= 64 && v[H_BM] % v[H_BK] == 0 && (v[H_BM] / 16) % v[H_WM] == 0);
}

static const struct dlb_constraint h_constraints[] = {
	{.text = "STAGES > 4: wgmma only", .kind = DLB_CON_CUSTOM, .ok = h_c_stages},
	{.text = "direct (KIND 3, 4): WARPS_N = 1, STAGES = 2, BN <= 64, BK divides BM, whole 16-pixel strips a warp",
	 .kind = DLB_CON_CUSTOM, .ok = h_c_direct},
	{.text = "mma.sync: BM <= 128, warp tile BM/WARPS_M >= 16 pixels (one mma row)", .kind = DLB_CON_CUSTOM,
	 .ok = h_c_warp_m},
	{.text = "mma.sync: BN <= 128, warp tile BN/WARPS_N >= 8 filters (one mma column)", .kind = DLB_CON_CUSTOM,
	 .ok = h_c_warp_n},
	{.text = "mma.sync: warps WARPS_M*WARPS_N in [2, 8]", .kind = DLB_CON_CUSTOM, .ok = h_c_warps},
	{.text = "mma.sync: accumulators (BM/WARPS_M)*(BN/WARPS_N)/32 <= 128 a thread", .kind = DLB_CON_CUSTOM,
	 .ok = h_c_acc},
	{.text = "wgmma: BK = 64, WARPS_N = 1, BM = 64*WARPS_M*MI (WARPS_M, MI in 1..2), BN >= 32, MI*BN <= 256",
	 .kind = DLB_CON_CUSTOM, .ok = h_c_wgmma},
	{.text = "halo (KIND 5): BM 128 or 256, BN 64, WARPS_M 2, STAGES 2 or 3", .kind = DLB_CON_CUSTOM,
	 .ok = h_c_halo},
};

/* int8: mma.sync's rows as products */
static const struct dlb_constraint i_constraints[] = {
	{.text = "warp tile BM/WARPS_M >= 16 pixels (one mma row)", .kind = DLB_CON_PRODUCT,
	 .exp = {[H_BM] = 1, [H_WM] = -1}, .lo = 16, .hi = 1 << 20},
	{.text = "warp tile BN/WARPS_N >= 8 filters (one mma column)", .kind = DLB_CON_PRODUCT,
	 .exp = {[H_BN] = 1, [H_WN] = -1}, .lo = 8, .hi = 1 << 20},
	{.text = "warps WARPS_M*WARPS_N in [2, 8]", .kind = DLB_CON_PRODUCT, .exp = {[H_WM] = 1, [H_WN] = 1}, .lo = 2,
	 .hi = 8},
	{.text = "accumulators (BM/WARPS_M)*(BN/WARPS_N)/32 <= 128 a thread", .kind = DLB_CON_PRODUCT,
	 .exp = {[H_BM] = 1, [H_BN] = 1, [H_WM] = -1, [H_WN] = -1}, .lo = 1, .hi = 4096},
};

/* the register-staged kernels (BK <= 32, see h_scalar) */
static int h_l_smem(const int *v, const struct dlb_limits *lim)
{
	return !lim || v[H_BK] > 32 || h_wgmma(v) || h_direct(v) || h_smem_of(v) <= lim->smem_static;
}

/* The dynamic shared memory a kind may take: the direct kernels' and the halo kernel's bounds (their need is the
 * problem's: direct_smem, halo_smem); the cp.async kernels (C % 8 == 0): STAGES stages, mma.sync's rows padded by
 * 8 halves, wgmma's 128-byte lines from a 1024-byte aligned start and 2 KiB a consumer warp for the epilogue */
static size_t h_dyn_smem(const int *v)
{
	if (h_direct(v))
		return v[H_KIND] == 4 ? DIRECT_LD_SMEM : DIRECT_SMEM;
	if (h_halo(v))
		return HALO_SMEM;
	if (h_wgmma(v))
		return (size_t)v[H_ST] * (size_t)(v[H_BM] + v[H_BN]) * 128 + 1024 + 8192 * (size_t)v[H_WM];
	return (size_t)v[H_ST] * (size_t)(v[H_BM] + v[H_BN]) * (size_t)(v[H_BK] + 8) * 2;
}

/* KIND 4 with one warpgroup and BN 32 or 64 multiplies with wgmma (templates/conv_fp16.cu's K4WG) */
static int h_k4wg(const int *v)
{
	return v[H_KIND] == 4 && v[H_WM] == 4 && (v[H_BN] == 32 || v[H_BN] == 64);
}

/* wgmma exists only on the arch-specific Hopper target */
static int h_l_wgmma(const int *v, const struct dlb_limits *lim)
{
	return !(h_wgmma(v) || h_k4wg(v)) || !lim || lim->sm == 0 || (lim->sm == 90 && lim->sm_specific);
}

static int h_l_dyn(const int *v, const struct dlb_limits *lim)
{
	return !lim || h_dyn_smem(v) + (size_t)v[H_BM] * 16 + 4 + (h_wgmma(v) ? 16 * (size_t)v[H_ST] : 0) <=
			       lim->smem_optin;
}

static const struct dlb_constraint h_limit_checks[] = {
	{.text = "BK <= 32: shared memory 4*(BM+BN)*(BK+8)+16*BM+4 bytes <= static limit per block", .kind = DLB_CON_CUSTOM,
	 .ok = h_l_smem},
	{.text = "shared memory 2*STAGES*(BM+BN)*(BK+8)+16*BM+4 bytes (wgmma: 128*STAGES*(BM+BN)+1024+8192*WARPS_M+16*BM+4+"
		 "16*STAGES; halo: 220 KiB (HALO_SMEM)+16*BM+4+16*STAGES) <= opt-in limit per block",
	 .kind = DLB_CON_CUSTOM, .ok = h_l_dyn},
	{.text = "wgmma (KIND 1, 2, 5; KIND 4 with WARPS_M 4 and BN 32 or 64) only on sm_90a", .kind = DLB_CON_CUSTOM,
	 .ok = h_l_wgmma},
};

/* Every conv op's kernels, by index: the two layouts' convolutions (the first ndyn_kernels), split-K's
 * reduction (templates/conv_common.cu), then the op's copies: fp32's conv_split3; fp16's to_nhwc and
 * unfold_w; int8's to_nhwc. */
enum { K_NCHW, K_NHWC, K_REDUCE, K_COPY, K_UNFOLD };
static const char *const conv_kernels[] = {"conv_nchw", "conv_nhwc", "conv_reduce", "conv_split3"};

/* Whether a problem's x is the plain matrix [N·H·W][C] once in NHWC (a 1x1 filter, stride 1, no padding: the
 * output pixels are the input's). The copy engine's kernels (KIND 2) then read it through a tiled tensor map, a
 * GEMM's loads, compiled apart (X2D 1 in KIND 2's specialisations "…-1x1"; the FFMA kernel's "-1x1" ones are
 * every 1x1 layer, r1s1_dims): on an H200 the im2col map's loads cost
 * about 10% on such layers (NOTES item 61), and choosing between the two at run time slowed the other layers'
 * KIND 2 kernels by 5-8% (run60). */
static int x2d_dims(const int64_t *d)
{
	return d[CONV_R] == 1 && d[CONV_S] == 1 && d[CONV_STRIDE_W] == 1 && d[CONV_STRIDE_H] == 1 && d[CONV_PAD_W] == 0 &&
	       d[CONV_PAD_H] == 0 && d[CONV_N] * d[CONV_H] * d[CONV_W] <= INT32_MAX;
}

/* Whether a problem's filter is 1x1 (any stride, padding, dilation): tap g of an output pixel is then channel g of
 * one input pixel, which the FFMA kernel's X2D loads decode once (templates/conv_fp32.cu, docs/NOTES.md item 138). */
static int r1s1_dims(const int64_t *d)
{
	return d[CONV_R] == 1 && d[CONV_S] == 1;
}

/* fp32: one cubin per layout (the other layout's kernel traps), and per kind: FFMA (templates/conv_fp32.cu) or
 * 3xTF32 (conv_fp16.cu with TF32 1; x and w read from the NHWC and KRSC split copies, y in the problem's layout),
 * KIND 2's on 1x1 stride-1 layers apart (x2d_dims), FFMA's on every 1x1 layer (r1s1_dims) */
enum {
	F_SPEC_NCHW,
	F_SPEC_NHWC,
	F_SPEC_NCHW_T,
	F_SPEC_NHWC_T,
	F_SPEC_NCHW_T2,
	F_SPEC_NHWC_T2,
	F_SPEC_NCHW_X2D,
	F_SPEC_NHWC_X2D,
	F_NSPECS
};
static const char *const conv_spec_defines[] = {
    "#define LAYOUT_NCHW 1\n#define LAYOUT_NHWC 0\n#define TF32 0\n",
    "#define LAYOUT_NCHW 0\n#define LAYOUT_NHWC 1\n#define TF32 0\n",
    "#define LAYOUT_NCHW 1\n#define LAYOUT_NHWC 0\n#define TF32 1\n#define VEC 1\n#define WARPS_N 1\n",
    "#define LAYOUT_NCHW 0\n#define LAYOUT_NHWC 1\n#define TF32 1\n#define VEC 1\n#define WARPS_N 1\n",
    "#define LAYOUT_NCHW 1\n#define LAYOUT_NHWC 0\n#define TF32 1\n#define VEC 1\n#define WARPS_N 1\n#define X2D 1\n",
    "#define LAYOUT_NCHW 0\n#define LAYOUT_NHWC 1\n#define TF32 1\n#define VEC 1\n#define WARPS_N 1\n#define X2D 1\n",
    "#define LAYOUT_NCHW 1\n#define LAYOUT_NHWC 0\n#define TF32 0\n#define X2D 1\n",
    "#define LAYOUT_NCHW 0\n#define LAYOUT_NHWC 1\n#define TF32 0\n#define X2D 1\n"};
static const char *const conv_spec_names[] = {"NCHW",           "NHWC",           "NCHW3xTF32", "NHWC3xTF32",
					      "NCHW3xTF32-1x1", "NHWC3xTF32-1x1", "NCHW-1x1",   "NHWC-1x1"};

static int conv_spec_of(const struct dlb_problem *p, const int *v)
{
	int base = f_ffma(v) ? (r1s1_dims(p->dim) ? F_SPEC_NCHW_X2D : F_SPEC_NCHW)
		   : !f_wgmma(v) ? F_SPEC_NCHW
		   : v[CONV_KIND] == 2 && x2d_dims(p->dim) ? F_SPEC_NCHW_T2
							   : F_SPEC_NCHW_T;
	return base + (int)p->dim[CONV_LAYOUT];
}

static int conv_spec_used(const struct dlb_op *op, int s, const int *v)
{
	(void)op;
	if (s >= F_SPEC_NCHW_X2D)
		return f_ffma(v);
	if (s >= F_SPEC_NCHW_T2)
		return v[CONV_KIND] == 2;
	return (s >= F_SPEC_NCHW_T) == f_wgmma(v);
}

/* fp16 has four more: with C a multiple of 8, the reduction steps come 8 channels (16 bytes) at a time
 * (templates/conv_fp16.cu's VEC kernel, with STAGES), in NHWC (NHWC8) or in NCHW after copying x and w to NHWC
 * and KRSC inside the launch (NCHW8, kernel to_nhwc); the register-staged two ignore STAGES and are used with
 * 2 only, and with BK <= 32 (h_scalar); and NHWC8-1x1 and NCHW8-1x1, KIND 2 on 1x1 stride-1 layers (x2d_dims). */
enum { H_SPEC_NCHW, H_SPEC_NHWC, H_SPEC_NHWC8, H_SPEC_NCHW8, H_SPEC_NHWC8_X2D, H_SPEC_NCHW8_X2D, H_NSPECS };
static const char *const h_spec_defines[] = {"#define LAYOUT_NCHW 1\n#define LAYOUT_NHWC 0\n#define VEC 0\n",
					     "#define LAYOUT_NCHW 0\n#define LAYOUT_NHWC 1\n#define VEC 0\n",
					     "#define LAYOUT_NCHW 0\n#define LAYOUT_NHWC 1\n#define VEC 1\n",
					     "#define LAYOUT_NCHW 1\n#define LAYOUT_NHWC 0\n#define VEC 1\n",
					     "#define LAYOUT_NCHW 0\n#define LAYOUT_NHWC 1\n#define VEC 1\n#define X2D 1\n",
					     "#define LAYOUT_NCHW 1\n#define LAYOUT_NHWC 0\n#define VEC 1\n#define X2D 1\n"};
static const char *const h_spec_names[] = {"NCHW", "NHWC", "NHWC8", "NCHW8", "NHWC8-1x1", "NCHW8-1x1"};
static const char *const h_kernels[] = {"conv_nchw", "conv_nhwc", "conv_reduce", "to_nhwc", "unfold_w"}; /* int8: the first 4 */

static int h_vec(const int64_t *dim)
{
	return dim[CONV_C] % 8 == 0;
}

static int h_scalar(const int *v)
{
	return !h_wgmma(v) && !h_direct(v) && v[H_ST] == 2 && v[H_BK] <= 32;
}

/* C not a multiple of 8: the register-staged kernels on the problem as given, the others on copies with C
 * the filter's width folded into the channels (conv_launch, kernel unfold_w); KIND 2 on 1x1 layers apart
 * (x2d_dims; KIND 2 runs only where C % 64 == 0, tma_ok) */
static int h_spec_of(const struct dlb_problem *p, const int *v)
{
	if (v[H_KIND] == 4 || h_halo(v)) /* NHWC with C % 8 == 0 only (direct_smem, halo_ok) */
		return H_SPEC_NHWC8;
	if (h_direct(v) || (!h_vec(p->dim) && h_scalar(v)))
		return (int)p->dim[CONV_LAYOUT];
	int x2d = v[H_KIND] == 2 && x2d_dims(p->dim);
	if (p->dim[CONV_LAYOUT] == CONV_NHWC)
		return x2d ? H_SPEC_NHWC8_X2D : H_SPEC_NHWC8;
	return x2d ? H_SPEC_NCHW8_X2D : H_SPEC_NCHW8;
}

static int h_spec_used(const struct dlb_op *op, int s, const int *v)
{
	(void)op;
	if (s >= H_SPEC_NHWC8_X2D)
		return v[H_KIND] == 2;
	if (v[H_KIND] == 4 || h_halo(v))
		return s == H_SPEC_NHWC8;
	if (h_direct(v))
		return s == H_SPEC_NCHW || s == H_SPEC_NHWC;
	return s == H_SPEC_NHWC8 || s == H_SPEC_NCHW8 || h_scalar(v);
}

/* int8 (templates/conv_int8.cu): fp16's cp.async kernel in bytes, its tunables with BK in bytes (mma k 32) and
 * no KIND (mma.sync only) */
#define I_NPARAMS H_KIND
static const struct dlb_param i_params[I_NPARAMS] = {
	[H_BM] = {"BM", "output pixels per thread block", 2, {64, 128}},
	[H_BN] = {"BN", "filters per thread block", 3, {32, 64, 128}},
	[H_BK] = {"BK", "reduction steps (c, r, s), one byte each, per shared-memory stage", 3, {32, 64, 128}},
	[H_WM] = {"WARPS_M", "warps along the pixels", 3, {1, 2, 4}},
	[H_WN] = {"WARPS_N", "warps along the filters", 3, {1, 2, 4}},
	[H_ST] = {"STAGES", "shared-memory stages in flight", 3, {2, 3, 4}},
};

static size_t i_dyn_smem(const int *v)
{
	return (size_t)v[H_ST] * (size_t)(v[H_BM] + v[H_BN]) * (size_t)(v[H_BK] + 16);
}

static int i_l_dyn(const int *v, const struct dlb_limits *lim)
{
	return !lim || i_dyn_smem(v) + (size_t)v[H_BM] * 16 + 4 <= lim->smem_optin;
}

static const struct dlb_constraint i_limit_checks[] = {
	{.text = "shared memory STAGES*(BM+BN)*(BK+16)+16*BM+4 bytes <= opt-in limit per block", .kind = DLB_CON_CUSTOM,
	 .ok = i_l_dyn},
};

/* Copies of CHUNK channels of one tap: 16 where the padded C is a multiple of 16, else 4. NCHW problems copy x
 * and w to NHWC and KRSC inside the launch (to_nhwc), as fp16's NCHW8. */
enum { I_SPEC_NCHW4, I_SPEC_NHWC4, I_SPEC_NCHW16, I_SPEC_NHWC16, I_NSPECS };
static const char *const i_spec_defines[] = {"#define LAYOUT_NCHW 1\n#define LAYOUT_NHWC 0\n#define CHUNK 4\n",
					     "#define LAYOUT_NCHW 0\n#define LAYOUT_NHWC 1\n#define CHUNK 4\n",
					     "#define LAYOUT_NCHW 1\n#define LAYOUT_NHWC 0\n#define CHUNK 16\n",
					     "#define LAYOUT_NCHW 0\n#define LAYOUT_NHWC 1\n#define CHUNK 16\n"};
static const char *const i_spec_names[] = {"NCHW4", "NHWC4", "NCHW16", "NHWC16"};

static int i_spec_of(const struct dlb_problem *p, const int *v)
{
	int64_t run[DLB_MAX_DIMS];
	(void)v;
	dlb_problem_padded(p, run);
	return (run[CONV_C] % 16 == 0 ? I_SPEC_NCHW16 : I_SPEC_NCHW4) + (p->dim[CONV_LAYOUT] == CONV_NHWC);
}

/* ---- problem state ---- */

/* What differs between the precisions: the elements and the tunables that shape a launch. */
struct conv_kind {
	enum dlb_cudnn_type type;
	int es_in, es_out; /* bytes of an element of x and w, and of y */
	int vec_always;    /* every problem runs the cp.async kernel (int8) */
	int bm, bn, bk;    /* their parameters' indices */
	int wm, kd;        /* WARPS_M's and KIND's, or -1 (int8) */
	int st;            /* STAGES' */
	int (*threads)(const int *v);
};

static int h_threads(const int *v)
{
	return h_wgmma(v) ? 128 * (v[H_WM] + 1) : 32 * v[H_WM] * v[H_WN];
}

static int i_threads(const int *v)
{
	return 32 * v[H_WM] * v[H_WN];
}

static const struct conv_kind kind_f32 = {DLB_CUDNN_F32, 4, 4, 0, CONV_BM, CONV_BN, CONV_BK, CONV_WM, CONV_KIND,
					  CONV_ST, f_threads};
static const struct conv_kind kind_f16 = {DLB_CUDNN_F16, 2, 2, 0, H_BM, H_BN, H_BK, H_WM, H_KIND, H_ST, h_threads};
static const struct conv_kind kind_i8 = {DLB_CUDNN_S8, 1, 4, 1, H_BM, H_BN, H_BK, -1, -1, H_ST, i_threads};

static const struct conv_kind *kind_of(const struct dlb_op *op)
{
	return op->prec == DLB_PREC_FP16 ? &kind_f16 : op->prec == DLB_PREC_INT8 ? &kind_i8 : &kind_f32;
}

#define MAX_SETS 4
#define MAX_WS_BYTES ((size_t)256 << 20) /* split-K partial sums: at most this much workspace */

/* As the kernels take it (templates/conv_fp32.cu, conv_ref.cu): 15 ints. */
struct conv_shape {
	int N, C, H, W, K, R, S, P, Q, pad_h, pad_w, str_h, str_w, dil_h, dil_w;
};

#define MAX_ENTRIES (2 * DLB_CUDNN_MAX_ALGOS + 2)

struct conv_state {
	struct dlb_gpu *g;
	const struct conv_kind *kind;
	struct dlb_conv_shared *shared;
	struct conv_shape d;   /* as run: int8's C padded */
	struct conv_shape dp;  /* fp16 with C not a multiple of 8: the problem the copies xt, wt make (unfold_w):
	                        * C' = S·C rounded up to 8, S' = 1, W' = Q, no stride, dilation or padding along W */
	int cpad;              /* that C', or 0 */
	int no_split;          /* fp32: the 3xTF32 copies could not be had (split_room) */
	struct conv_shape d3;  /* fp32's 3xTF32 kernels: the problem on the split copies xt, wt (C' = 3·C rounded up
	                        * to 32, NHWC and KRSC) */
	int64_t run[DLB_MAX_DIMS];
	int nhwc, vec, nsets; /* vec: the cp.async kernel (fp16: h_spec_of; int8: always) */
	size_t (*dyn)(const int *v); /* its dynamic shared memory */
	size_t nx, nw, ny; /* elements */
	void *x[MAX_SETS], *w[MAX_SETS], *y[MAX_SETS];
	void *ref; /* fp32, or int8's exact int32 */
	void *xt, *wt; /* fp16 NCHW8: x and w copied to NHWC and KRSC inside each launch; fp32: the split copies */
	double tol, tol_tf32; /* fp32's (fp16: the absolute part), and TF32's for cuDNN's default math */
	float *ws;                /* split-K partial sums, ws_elems floats */
	size_t ws_elems;
	cudaKernel_t clu_k;       /* the last cluster launch's kernel, shared memory and cluster size, and how many */
	size_t clu_smem;          /* such clusters fit the device at once (cudaOccupancyMaxActiveClusters) */
	int clu_n, clu_slots;
	struct dlb_cudnn_conv cu; /* cuDNN's descriptors and algorithms for this problem */
	int cu_open;
	struct dlb_cudnn_conv *cur_cu; /* what cudnn_launch runs: algorithm cur of cur_cu, on cur_x, cur_w, cur_y */
	int cur;
	void **cur_x, **cur_w, **cur_y;
	/* int8's vendor entries: cuDNN's float y as int32 (cvt); cuDNN in fp16 on the same shape (the inputs / 16
	 * in xh, wh; yh; refh its fp32 reference) */
	int *cvt;
	void *xh[MAX_SETS], *wh[MAX_SETS], *yh[MAX_SETS];
	float *refh;
	struct dlb_cudnn_conv cuh;
	int cuh_open;
	char cu_why[112]; /* int8: why cuDNN has no descriptors for the problem */
	struct conv_tm {  /* fp16 KIND 2 and 5: the tensor maps last encoded for each set (x, w, the box they are
	                   * for, and which kind's) */
		const void *xb, *wb;
		int bm, bn, halo;
		unsigned char x[sizeof(struct dlb_tmap)], w[sizeof(struct dlb_tmap)]; /* bytes: the state is not
											* 64-byte aligned */
	} tm[MAX_SETS];
	int nent, ent_half[MAX_ENTRIES], ent_algo[MAX_ENTRIES]; /* the last vendor() call's entries: which cuDNN
	                                                         * problem and algorithm, -1 for none */
};

/* Elements of x, w and y of the problem as run (int8: C padded). */
static void sizes_of(const struct dlb_problem *p, size_t *nx, size_t *nw, size_t *ny)
{
	int64_t P, Q, d[DLB_MAX_DIMS];
	dlb_problem_padded(p, d);
	dlb_conv_out(d, &P, &Q);
	*nx = (size_t)d[CONV_N] * (size_t)d[CONV_C] * (size_t)d[CONV_H] * (size_t)d[CONV_W];
	*nw = (size_t)d[CONV_K] * (size_t)d[CONV_C] * (size_t)d[CONV_R] * (size_t)d[CONV_S];
	*ny = (size_t)d[CONV_N] * (size_t)d[CONV_K] * (size_t)P * (size_t)Q;
}

/* fp32's 3xTF32 copies: channels big, big, small (x) and big, small, big (w), then zeros to a multiple of 32 */
static int64_t split_channels(int64_t c)
{
	return (3 * c + 31) / 32 * 32;
}

static size_t set_bytes(const struct dlb_problem *p)
{
	size_t nx, nw, ny;
	sizes_of(p, &nx, &nw, &ny);
	const struct conv_kind *k = kind_of(p->op);
	return (size_t)k->es_in * (nx + nw) + (size_t)k->es_out * ny;
}

static int sets_for(const struct dlb_problem *p, const struct dlb_device *dev)
{
	return dlb_bench_sets(dev, set_bytes(p), MAX_SETS);
}

static size_t conv_device_bytes(const struct dlb_problem *p, const struct dlb_device *dev)
{
	size_t nx, nw, ny;
	sizes_of(p, &nx, &nw, &ny);
	const struct conv_kind *k = kind_of(p->op);
	int sets = sets_for(p, dev);
	size_t xt = k->es_in < 4 ? k->es_in * (nx + nw) : 0; /* NCHW's copies to NHWC; fp32: the split copies */
	if (k->type == DLB_CUDNN_F32) /* 3xTF32's split copies, where there is wgmma */
		xt = dev->cc_major == 9 ? 4 * (size_t)split_channels(p->dim[CONV_C]) * ((nx + nw) / (size_t)p->dim[CONV_C]) : 0;
	if (k->type == DLB_CUDNN_F16 && !h_vec(p->dim)) { /* the unfolded copies (unfold_w) */
		int64_t P, Q, cp = (p->dim[CONV_S] * p->dim[CONV_C] + 7) / 8 * 8;
		dlb_conv_out(p->dim, &P, &Q);
		xt = 2 * (size_t)cp * ((size_t)p->dim[CONV_N] * (size_t)p->dim[CONV_H] * (size_t)Q +
				       (size_t)p->dim[CONV_K] * (size_t)p->dim[CONV_R]);
	}
	/* int8: cuDNN's y as int32, and cuDNN fp16's sets and reference */
	size_t i8 = k->type == DLB_CUDNN_S8 ? 4 * ny + (size_t)sets * 2 * (nx + nw + ny) + 4 * ny : 0;
	return (size_t)sets * set_bytes(p) + 4 * ny + xt + i8 + MAX_WS_BYTES + dlb_bench_flush_bytes(dev);
}

/* Elements of fp16's unfolded copy of x: N x H x Q x C' */
static size_t unfolded_x(const struct conv_shape *d)
{
	return (size_t)d->N * (size_t)d->H * (size_t)d->Q * (size_t)((d->S * d->C + 7) / 8 * 8);
}

static void conv_teardown(void *state)
{
	struct conv_state *s = state;
	if (!s)
		return;
	for (int i = 0; i < MAX_SETS; i++) {
		dlb_dev_free(s->x[i]);
		dlb_dev_free(s->w[i]);
		dlb_dev_free(s->y[i]);
		dlb_dev_free(s->xh[i]);
		dlb_dev_free(s->wh[i]);
		dlb_dev_free(s->yh[i]);
	}
	dlb_dev_free(s->cvt);
	dlb_dev_free(s->refh);
	if (s->cuh_open)
		dlb_cudnn_conv_close(&s->cuh);
	dlb_dev_free(s->ref);
	dlb_dev_free(s->xt);
	dlb_dev_free(s->wt);
	dlb_dev_free(s->ws);
	if (s->cu_open)
		dlb_cudnn_conv_close(&s->cu);
	free(s);
}

/* The reference of x and w into ref, with the kernel for their type (the family's conv_ref.cu). */
static int launch_ref(struct conv_state *s, cudaKernel_t k, void *x, void *w, void *ref)
{
	void *args[] = {&x, &w, &ref, &s->d, &s->nhwc};
	return dlb_launch(k, dlb_grid_for((int64_t)s->ny, 256, s->g->dev->sm_count), (dim3){256, 1, 1}, 0,
			  s->g->dev->stream, args);
}

/* One of the family's elementwise conversions (s8_to_f16, f32_to_s32) of n elements. */
static int convert(struct conv_state *s, cudaKernel_t k, const void *in, void *out, size_t n)
{
	int64_t nn = (int64_t)n;
	void *args[] = {&in, &out, &nn};
	return dlb_launch(k, dlb_grid_for((int64_t)n, 256, s->g->dev->sm_count), (dim3){256, 1, 1}, 0,
			  s->g->dev->stream, args);
}

static int conv_setup(struct dlb_gpu *g, const struct dlb_problem *p, void **state)
{
	int rc = 0;
	struct conv_state *s = calloc(1, sizeof *s);
	if (!s)
		DLB_FAIL(ENOMEM, "out of memory");
	s->g = g;
	s->kind = kind_of(p->op);
	DLB_CHECK(dlb_conv_shared_of(g, &s->shared));
	dlb_problem_padded(p, s->run); /* int8: C a multiple of 4 (DeepBench), the padding filled like the rest */
	const int64_t *d = s->run;
	int64_t P, Q;
	dlb_conv_out(d, &P, &Q);
	s->d = (struct conv_shape){(int)d[CONV_N], (int)d[CONV_C], (int)d[CONV_H], (int)d[CONV_W], (int)d[CONV_K],
				   (int)d[CONV_R], (int)d[CONV_S], (int)P, (int)Q, (int)d[CONV_PAD_H], (int)d[CONV_PAD_W],
				   (int)d[CONV_STRIDE_H], (int)d[CONV_STRIDE_W], (int)d[CONV_DIL_H], (int)d[CONV_DIL_W]};
	s->nhwc = d[CONV_LAYOUT] == CONV_NHWC;
	s->vec = s->kind->vec_always || (s->kind->es_in == 2 && h_vec(d));
	s->dyn = p->op->dyn_smem;
	sizes_of(p, &s->nx, &s->nw, &s->ny);
	if (s->nx > ((size_t)1 << 40) || s->ny > ((size_t)1 << 40))
		DLB_USER_FAIL(DLB_E_LIMIT, "the tensors of this convolution are too large to hold");
	s->nsets = sets_for(p, g->dev);
	/* a dot product of C·R·S terms (fewer at the padded edges) */
	s->tol = dlb_tol_fp32(d[CONV_C] * d[CONV_R] * d[CONV_S]);
	/* TF32 rounds each input to 11 significant bits (relative error <= 2^-11), so a product of inputs in
	 * [-1, 1) is off by at most 2^-10 and the errors of k of them add like a random walk: 8·sqrt(k)·2^-11
	 * is about 8 of its standard deviations. A wrong tap or index moves an output by O(1). */
	s->tol_tf32 = s->tol + 8.0 * sqrt((double)(d[CONV_C] * d[CONV_R] * d[CONV_S])) / 2048.0;
	uint64_t seed = dlb_fresh_seed(); /* fresh inputs every run */
	size_t es = (size_t)s->kind->es_in;
	for (int i = 0; i < s->nsets; i++) {
		DLB_CHECK(dlb_dev_alloc(&s->x[i], s->nx * es));
		DLB_CHECK(dlb_dev_alloc(&s->w[i], s->nw * es));
		DLB_CHECK(dlb_dev_alloc(&s->y[i], s->ny * (size_t)s->kind->es_out));
		if (es == 1) { /* integers in [-16, 15] */
			DLB_CHECK(dlb_fill_s8(g, s->x[i], (int64_t)s->nx, seed + 2 * (uint64_t)i));
			DLB_CHECK(dlb_fill_s8(g, s->w[i], (int64_t)s->nw, seed + 2 * (uint64_t)i + 1));
		} else if (es == 2) { /* uniform in [-1, 1), rounded to half */
			DLB_CHECK(dlb_fill_f16(g, s->x[i], (int64_t)s->nx, seed + 2 * (uint64_t)i));
			DLB_CHECK(dlb_fill_f16(g, s->w[i], (int64_t)s->nw, seed + 2 * (uint64_t)i + 1));
		} else {
			DLB_CHECK(dlb_fill_f32(g, s->x[i], (int64_t)s->nx, seed + 2 * (uint64_t)i));
			DLB_CHECK(dlb_fill_f32(g, s->w[i], (int64_t)s->nw, seed + 2 * (uint64_t)i + 1));
		}
	}
	if (s->kind->type == DLB_CUDNN_F16 && !s->vec) {
		s->cpad = (s->d.S * s->d.C + 7) / 8 * 8;
		s->dp = s->d;
		s->dp.C = s->cpad;
		s->dp.W = s->d.Q;
		s->dp.S = 1;
		s->dp.pad_w = 0;
		s->dp.str_w = 1;
		s->dp.dil_w = 1;
		DLB_CHECK(dlb_dev_alloc(&s->xt, unfolded_x(&s->d) * es));
		DLB_CHECK(dlb_dev_alloc(&s->wt, (size_t)s->d.K * (size_t)s->d.R * (size_t)s->cpad * es));
	} else if (s->vec && !s->nhwc) {
		DLB_CHECK(dlb_dev_alloc(&s->xt, s->nx * es));
		DLB_CHECK(dlb_dev_alloc(&s->wt, s->nw * es));
	} else if (s->kind->type == DLB_CUDNN_F32) { /* 3xTF32's shape; its copies when a candidate asks (split_room) */
		s->d3 = s->d;
		s->d3.C = (int)split_channels(s->d.C);
	}
	DLB_CHECK(dlb_dev_alloc(&s->ref, s->ny * 4));
	DLB_CHECK(dlb_poison(g, s->ref, s->ny * 4));
	DLB_CHECK(launch_ref(s, es == 1 ? s->shared->ref_s8 : es == 2 ? s->shared->ref_f16 : s->shared->ref_f32, s->x[0],
			     s->w[0], s->ref));
	CUDA_CHECK(cudaStreamSynchronize(g->dev->stream));
	rc = dlb_cudnn_conv_open(s->shared->cudnn, d, s->kind->type, &s->cu);
	if (rc == DLB_E_VENDOR && s->kind->type == DLB_CUDNN_S8) /* the vendor entries say so */
		dlb_last_error_brief("cudnn", s->cu_why, sizeof s->cu_why);
	else if (rc)
		goto fail;
	s->cu_open = !rc;
	rc = 0;
	*state = s;
	return 0;
fail:
	conv_teardown(s);
	*state = NULL;
	return rc;
}

static int conv_nsets(void *state)
{
	return ((struct conv_state *)state)->nsets;
}

/* KIND 3, the direct kernel (fp16's and fp32's), and fp16's KIND 4 */
static int direct_of(const struct conv_state *s, const int *v)
{
	return s->kind->kd >= 0 && (v[s->kind->kd] == 3 || v[s->kind->kd] == 4);
}

/* The direct kernels' input patch under a tile of BM/BK rows of BK pixels: tr rows, tc columns of x */
static void direct_patch(const struct conv_state *s, const int *v, int64_t *tr, int64_t *tc)
{
	const struct conv_shape *d = &s->d;
	int64_t dq = v[s->kind->bk], dp = v[s->kind->bm] / v[s->kind->bk];
	*tr = (dp - 1) * d->str_h + (int64_t)(d->R - 1) * d->dil_h + 1;
	*tc = (dq - 1) * d->str_w + (int64_t)(d->S - 1) * d->dil_w + 1;
}

/* fp16's KIND 4 (conv_body_direct_ld): NHWC with C % 8 == 0 and a filter of more than one tap (on 1x1 layers no
 * two taps share a pixel, and the implicit GEMM reads x once already); the patch TR rows of str_w·TCs slots (TCs =
 * ceil(TC / str_w)) of Cp halves (C where C/8 is odd, else C + 8), the filters one or two
 * (more than one slab) buffers of BN rows of L + 8 halves (L = Kt where Kt <= 2·DIRECT_LD_SLAB, else
 * DIRECT_LD_SLAB; Kt = C·R·S rounded up to 16), Kt/8 offsets; with one warpgroup and BN 32 or 64 (K4WG, wgmma)
 * the slabs lines of 64 k without padding (L = Kt rounded up to 64 where Kt <= 2·DIRECT_LD_SLAB), offsets to Kt
 * rounded up to 64, and 1024 bytes for the slabs' alignment; 0 where it does not apply */
static size_t direct_ld_smem(const struct conv_state *s, const int *v)
{
	const struct conv_shape *d = &s->d;
	if (!s->nhwc || d->C % 8 != 0 || d->R * d->S == 1)
		return 0;
	int64_t kt = ((int64_t)d->C * d->R * d->S + 15) / 16 * 16, cp = (d->C / 8) % 2 ? d->C : d->C + 8, tr, tc;
	direct_patch(s, v, &tr, &tc);
	int64_t tcs = (tc + d->str_w - 1) / d->str_w, bn = v[s->kind->bn];
	if (h_k4wg(v)) { /* wgmma's lines of 64 k, 1024-byte aligned */
		int64_t l = kt <= 2 * DIRECT_LD_SLAB ? (kt + 63) / 64 * 64 : DIRECT_LD_SLAB, nb = kt > l ? 2 : 1;
		return (size_t)(1024 + 2 * (nb * bn * l + tr * d->str_w * tcs * cp) + 4 * ((kt + 63) / 64 * 8));
	}
	int64_t l = kt <= 2 * DIRECT_LD_SLAB ? kt : DIRECT_LD_SLAB, nb = kt > l ? 2 : 1;
	return (size_t)(2 * (tr * d->str_w * tcs * cp + nb * bn * (l + 8)) + 4 * (kt / 8));
}

/* KIND 3's shared memory on this problem (conv_body_direct of templates/conv_fp16.cu and conv_fp32.cu): the input
 * patch under a tile of BM/BK rows of BK pixels (C·TR·TC elements, rounded up to 16 bytes), the BN filters' rows
 * of Kt + 16 bytes' worth of elements (fp32: two planes, the TF32 parts and the remainders) and Kt offsets, where
 * Kt = C·R·S rounded up to an mma step (fp16 16, fp32 8); fp16 NHWC with K % 8 == 0 and K >= BN at least
 * BM·(BN + 8)·2 bytes, where its epilogue stages the results (direct_store_staged); 0 where the kernel does not
 * apply (more than
 * DIRECT_MAX_TAPS taps). */
static size_t direct_smem(const struct conv_state *s, const int *v)
{
	if (v[s->kind->kd] == 4)
		return direct_ld_smem(s, v);
	const struct conv_shape *d = &s->d;
	const int f32 = s->kind->type == DLB_CUDNN_F32, es = s->kind->es_in, step = f32 ? 8 : 16, per16 = 16 / es;
	int64_t taps = (int64_t)d->C * d->R * d->S, kt = (taps + step - 1) / step * step, tr, tc;
	if (taps > DIRECT_MAX_TAPS)
		return 0;
	direct_patch(s, v, &tr, &tc);
	size_t need = (size_t)(es * ((d->C * tr * tc + per16 - 1) / per16 * per16 + (f32 ? 2 : 1) * v[s->kind->bn] * (kt + per16)) +
			       4 * kt),
	       staged = (size_t)v[s->kind->bm] * (size_t)(v[s->kind->bn] + 8) * 2;
	/* fp16 NHWC's staged stores (conv_fp16.cu's direct_store_staged), where a block can take them: K % 8 == 0
	 * and at least one block's BN filters all in y */
	const int stages = !f32 && s->nhwc && d->K % 8 == 0 && d->K >= v[s->kind->bn];
	return stages && need < staged ? staged : need;
}

static void grid_of(const struct conv_state *s, const int *v, int64_t *gx, int64_t *gy)
{
	int64_t npq = (int64_t)s->d.N * s->d.P * s->d.Q;
	*gx = (npq + v[s->kind->bm] - 1) / v[s->kind->bm];
	if (direct_of(s, v)) { /* a tile of BM/BK rows of BK pixels of one image */
		int64_t dq = v[s->kind->bk], dp = v[s->kind->bm] / v[s->kind->bk];
		*gx = (int64_t)s->d.N * ((s->d.P + dp - 1) / dp) * ((s->d.Q + dq - 1) / dq);
	}
	*gy = ((int64_t)s->d.K + v[s->kind->bn] - 1) / v[s->kind->bn];
}

/* Candidate v runs one of the im2col wgmma kernels (fp16 KIND 1 and 2; fp32's 3xTF32), whose splits may sum in a
 * cluster; not KIND 5 (halo_of), which has no split */
static int wg_of(const struct conv_state *s, const int *v)
{
	return s->kind->kd >= 0 && (v[s->kind->kd] == 1 || v[s->kind->kd] == 2);
}

/* The dynamic shared memory of candidate v's launch as a cluster of `split` splits (templates/conv_fp16.cu's
 * conv_cluster_finish): past the ring (STAGES stages of BM + BN 128-byte lines, from a 1024-byte aligned start)
 * each split receives the others' shares of its part of the tile, (split - 1)/split of BM x BN floats; where
 * the op's own size (the fp16 epilogue's 8 KiB a consumer warpgroup) holds it, that size */
static size_t cluster_smem(const struct conv_state *s, const int *v, int split)
{
	size_t bm = (size_t)v[s->kind->bm], bn = (size_t)v[s->kind->bn];
	size_t need = (size_t)v[s->kind->st] * (bm + bn) * 128 + 1024 + (size_t)(split - 1) * bm * bn * 4 / (size_t)split;
	return need > s->dyn(v) ? need : s->dyn(v);
}

static int tma_of(const struct conv_state *s, const int *v)
{
	return s->kind->kd >= 0 && v[s->kind->kd] == 2;
}

/* fp32's 3xTF32 kernels, on the split copies */
static int tf32_of(const struct conv_state *s, const int *v)
{
	return s->kind->type == DLB_CUDNN_F32 && wg_of(s, v);
}

/* Whether the copy engine can feed KIND 2 on this problem: the cp.async layout (x in NHWC, w in KRSC: fp16 with
 * C % 8 == 0, or fp32's split copies), whole k-tiles of one 128-byte line of channels of one tap, and the im2col
 * map's limits (4-D: corners within [-128, 127], traversal steps of at most 8, a tap's offsets in 16 bits). */
static int tma_ok(const struct conv_state *s)
{
	const int f32 = s->kind->type == DLB_CUDNN_F32;
	const struct conv_shape *d = f32 ? &s->d3 : &s->d;
	int up_w = d->pad_w - d->dil_w * (d->S - 1), up_h = d->pad_h - d->dil_h * (d->R - 1);
	return (s->vec || (f32 && s->xt)) && d->C * s->kind->es_in % 128 == 0 && d->pad_w <= 128 && d->pad_h <= 128 && up_w >= -128 && up_w <= 127 &&
	       up_h >= -128 && up_h <= 127 && d->str_w <= 8 && d->str_h <= 8 && d->dil_w * (d->S - 1) < 65536 &&
	       d->dil_h * (d->R - 1) < 65536;
}

/* fp16's KIND 5 (templates/conv_fp16.cu's conv_body_halo) */
static int halo_of(const struct conv_state *s, const int *v)
{
	return s->kind->type == DLB_CUDNN_F16 && h_halo(v);
}

/* KIND 5's halo for a tile of tr output rows of 64 pixels: rows x columns of 128-byte lines (64 channels) */
static void halo_box(const struct conv_shape *d, int tr, int *rows, int *cols)
{
	*rows = tr + d->R - 1;
	*cols = 64 + d->S - 1;
}

/* KIND 5's dynamic shared memory on this problem: 1024 for the alignment, the filters (R·S·BN lines), STAGES halos
 * in 1024-byte steps, 16 KiB of staging for the stores (conv_body_halo) */
static size_t halo_smem(const struct conv_state *s, const int *v)
{
	int rows, cols;
	halo_box(&s->d, v[H_BM] / 64, &rows, &cols);
	size_t halo = ((size_t)rows * (size_t)cols * 128 + 1023) / 1024 * 1024;
	return 1024 + (size_t)s->d.R * (size_t)s->d.S * (size_t)v[H_BN] * 128 + (size_t)v[H_ST] * halo + 16384;
}

/* Whether KIND 5 runs this problem: NHWC with 64 channels (one 128-byte line a pixel), stride and dilation 1,
 * whole blocks of 64 filters, a halo box within the copy engine's 256 a dimension, its shared memory within
 * HALO_SMEM, and a Hopper GPU */
static int halo_ok(const struct conv_state *s, const int *v)
{
	const struct conv_shape *d = &s->d;
	int rows, cols;
	halo_box(d, v[H_BM] / 64, &rows, &cols);
	return s->g->dev->cc_major == 9 && s->nhwc && s->vec && !s->cpad && d->C == 64 && d->str_h == 1 &&
	       d->str_w == 1 && d->dil_h == 1 && d->dil_w == 1 && d->K % v[H_BN] == 0 && rows <= 256 && cols <= 256 &&
	       d->pad_h < 256 && d->pad_w < 256 && halo_smem(s, v) <= HALO_SMEM;
}

/* KIND 2's tensor maps of set `set` for a tile of bm pixels and bn filters, x and w as the kernel reads them
 * (NCHW8: the launch's NHWC and KRSC copies), into mx and mw; with halo, KIND 5's: x as {C, W, H, N}, a box of
 * one tile's halo (halo_box), and w (KRSC) as {C, K, R·S} with the strides C·R·S and C, a box of a block's bn
 * filters in every tap. Encoded once per set, tile and kind. */
static int tma_maps(struct conv_state *s, int set, const void *x, const void *w, int bm, int bn, int halo,
		    struct dlb_tmap *mx, struct dlb_tmap *mw)
{
	int rc = 0;
	struct conv_tm *t = &s->tm[set];
	const int es = s->kind->es_in, f32 = s->kind->type == DLB_CUDNN_F32;
	const struct conv_shape *d = f32 ? &s->d3 : &s->d;
	if (t->xb != x || t->wb != w || t->bm != bm || t->bn != bn || t->halo != halo) {
		uint64_t nhwc[4] = {(uint64_t)d->N, (uint64_t)d->H, (uint64_t)d->W, (uint64_t)d->C};
		int lower[2] = {-d->pad_w, -d->pad_h};
		int upper[2] = {d->pad_w - d->dil_w * (d->S - 1), d->pad_h - d->dil_h * (d->R - 1)};
		uint32_t step[2] = {(uint32_t)d->str_w, (uint32_t)d->str_h};
		uint64_t crs = (uint64_t)d->C * (uint64_t)d->R * (uint64_t)d->S;
		t->xb = NULL;
		if (halo) {
			int rows, cols;
			halo_box(d, bm / 64, &rows, &cols);
			uint64_t xd[4] = {(uint64_t)d->C, (uint64_t)d->W, (uint64_t)d->H, (uint64_t)d->N};
			uint64_t xs[3] = {(uint64_t)d->C * es, (uint64_t)d->C * d->W * es, (uint64_t)d->C * d->W * d->H * es};
			uint32_t xbox[4] = {(uint32_t)(128 / es), (uint32_t)cols, (uint32_t)rows, 1};
			uint64_t wd[3] = {(uint64_t)d->C, (uint64_t)d->K, (uint64_t)d->R * d->S};
			uint64_t wst[2] = {crs * (uint64_t)es, (uint64_t)d->C * es};
			uint32_t wbox[3] = {(uint32_t)(128 / es), (uint32_t)bn, (uint32_t)(d->R * d->S)};
			DLB_CHECK(dlb_tmap_tiled(mx, es, x, 4, xd, xs, xbox));
			DLB_CHECK(dlb_tmap_tiled(mw, es, w, 3, wd, wst, wbox));
		} else if (x2d_dims(s->run)) /* KIND 2's "-1x1" specialisations (X2D 1: conv_spec_of, h_spec_of) */
			DLB_CHECK(dlb_tmap_2d(mx, es, x, (uint64_t)d->C, (uint64_t)d->N * d->H * d->W, (uint64_t)d->C * es,
					      (uint32_t)(128 / es), (uint32_t)bm));
		else
			DLB_CHECK(dlb_tmap_im2col(mx, es, x, nhwc, lower, upper, step, (uint32_t)(128 / es), (uint32_t)bm));
		if (!halo)
			DLB_CHECK(dlb_tmap_2d(mw, es, w, crs, (uint64_t)d->K, crs * (uint64_t)es, (uint32_t)(128 / es),
					      (uint32_t)bn));
		memcpy(t->x, mx, sizeof t->x);
		memcpy(t->w, mw, sizeof t->w);
		t->xb = x, t->wb = w, t->bm = bm, t->bn = bn, t->halo = halo;
	}
	memcpy(mx, t->x, sizeof t->x);
	memcpy(mw, t->w, sizeof t->w);
fail:
	return rc;
}

/* Whether candidate v runs on the unfolded copies (fp16 with C not a multiple of 8, h_spec_of). */
static int padded(const struct conv_state *s, const int *v)
{
	return s->cpad && !h_scalar(v) && !direct_of(s, v);
}

/* The shape candidate v runs. */
static const struct conv_shape *shape_run(const struct conv_state *s, const int *v)
{
	return padded(s, v) ? &s->dp : tf32_of(s, v) ? &s->d3 : &s->d;
}

/* Reduction steps per split, whole stages of BK. */
static int chunk_of(const struct conv_state *s, const int *v, int split)
{
	const struct conv_shape *d = shape_run(s, v);
	int crs = d->C * d->R * d->S, kc = (crs + split - 1) / split, bk = v[s->kind->bk];
	return (kc + bk - 1) / bk * bk;
}

/* fp32's 3xTF32 copies of x and w (s->d3), allocated on the first candidate that needs them: 1 when they exist.
 * None on a GPU without wgmma (not sm_90), where 3·C·R·S would overflow the kernels' int indices, or where
 * the memory is not there (then the FFMA candidates run alone). */
static int split_room(struct conv_state *s)
{
	if (s->xt || s->no_split)
		return s->xt != NULL;
	s->no_split = 1;
	if (s->g->dev->cc_major != 9 || (int64_t)s->d3.C * s->d3.R * s->d3.S > INT32_MAX / 2)
		return 0;
	size_t nx = s->nx / (size_t)s->d.C * (size_t)s->d3.C, nw = s->nw / (size_t)s->d.C * (size_t)s->d3.C;
	if (dlb_dev_alloc(&s->xt, nx * 4) || dlb_dev_alloc(&s->wt, nw * 4)) {
		dlb_dev_free(s->xt);
		dlb_dev_free(s->wt);
		s->xt = s->wt = NULL;
		return 0;
	}
	s->no_split = 0;
	return 1;
}

/* Split-K over (c, r, s) when the tiles cannot fill the GPU twice (batch 1, small images, few filters):
 * 1, then 2, 4, ... while the grid stays under about 8 blocks per SM, each split has a stage (the last one
 * too: whole stages a split can leave the last with none) and the partial sums fit MAX_WS_BYTES. The
 * workspace for the largest is allocated here, never while timing. */
static int conv_variants(void *state, const struct dlb_candidate *c, int *values, int max)
{
	struct conv_state *s = state;
	const int *v = c->cfg.v;
	int64_t gx, gy;
	grid_of(s, v, &gx, &gy);
	int64_t tiles = gx * gy, sms = s->g->dev->sm_count, bk = v[s->kind->bk],
		crs = (int64_t)shape_run(s, v)->C * shape_run(s, v)->R * shape_run(s, v)->S, steps = (crs + bk - 1) / bk;
	int n = 0;
	if (direct_of(s, v)) { /* no split; 0 where it does not apply or its shared memory is over the bound the
				  * op's dyn_smem gives its kind */
		size_t need = direct_smem(s, v);
		values[0] = 1;
		return need > 0 && need <= s->dyn(v) && gx <= 0x7fffffff;
	}
	if (halo_of(s, v)) { /* no split: the persistent blocks keep their filters; 0 where it does not apply */
		values[0] = 1;
		return halo_ok(s, v);
	}
	if (s->kind->type == DLB_CUDNN_F16 && !s->vec && !h_scalar(v) && !s->cpad)
		return 0; /* STAGES and BK 64 are the cp.async kernel's */
	if (tf32_of(s, v) && !split_room(s))
		return 0; /* no split copies: not a Hopper GPU, a reduction too long for int, or no room */
	if (tma_of(s, v) && !tma_ok(s))
		return 0;
	values[n++] = 1;
	if (tiles >= 2 * sms)
		return n;
	size_t plane = (size_t)s->ny * sizeof(float), need = 0;
	for (int split = 2; split <= 64 && n < max; split *= 2) {
		if (tiles * split > 8 * sms || steps < split || (size_t)split * plane > MAX_WS_BYTES)
			break;
		if ((int64_t)chunk_of(s, v, split) * (split - 1) >= crs)
			continue;
		values[n++] = split;
		need = (size_t)split * s->ny;
	}
	/* The wgmma kernels' splits 2..8 once more as a thread-block cluster (1, 1, split) summing through
	 * distributed shared memory (templates/conv_fp16.cu's conv_cluster_finish): SPLITK = -split. No workspace,
	 * no conv_reduce; the others' shares of a split's part of the tile past its ring, within the device's
	 * shared memory a block (the static part, BM·16 + 16·STAGES + 64 bytes at most, as h_l_dyn counts it). */
	for (int i = 1, np = n; i < np && n < max; i++)
		if (wg_of(s, v) && values[i] <= 8 &&
		    cluster_smem(s, v, values[i]) + (size_t)v[s->kind->bm] * 16 + 16 * (size_t)v[s->kind->st] + 64 <=
			    s->g->dev->smem_per_block_optin)
			values[n++] = -values[i];
	if (need > s->ws_elems) {
		dlb_dev_free(s->ws);
		s->ws = NULL;
		s->ws_elems = 0;
		if (dlb_dev_alloc((void **)&s->ws, need * sizeof(float)))
			return 1; /* no room: plain runs only */
		s->ws_elems = need;
	}
	return n;
}

/* in[n][c][i] -> out[n][i][c]: n < images, c < C, i < HW (templates/conv_fp16.cu's to_nhwc) */
static int to_nhwc(struct conv_state *s, const struct dlb_candidate *c, void *in, void *out, int images, int C, int HW)
{
	int rc = 0;
	void *args[] = {&in, &out, &images, &C, &HW};
	dim3 grid = {(unsigned)((HW + 31) / 32), (unsigned)((C + 31) / 32), (unsigned)images};
	if (HW < 32) { /* one element a thread, at most 8 blocks an SM */
		int64_t blocks = ((int64_t)images * C * HW + 255) / 256, most = 8 * (int64_t)s->g->dev->sm_count;
		grid = (dim3){(unsigned)(blocks < most ? blocks : most), 1, 1};
	} else if (images > 65535) {
		DLB_FAIL(DLB_E_LIMIT, "%d images are over the grid's limit of 65535", images);
	}
	DLB_CHECK(dlb_launch(c->kernels[K_COPY], grid, (dim3){32, 8, 1}, 0, s->g->dev->stream, args));
fail:
	return rc;
}

/* x (w: x = 0) into the copy the shape s->dp reads (templates/conv_fp16.cu's unfold_w) */
static int unfold(struct conv_state *s, const struct dlb_candidate *c, int x, void *in, void *out)
{
	const struct conv_shape *d = &s->d;
	int64_t images = x ? d->N : d->K;
	int rows = x ? d->H : d->R, win = x ? d->W : d->S, C = d->C, S = d->S, q = x ? d->Q : 1, str = x ? d->str_w : 1,
	    dil = x ? d->dil_w : 1, pad = x ? d->pad_w : 0, cp = s->cpad, nhwc = s->nhwc;
	void *args[] = {&in, &out, &images, &rows, &win, &C, &S, &q, &str, &dil, &pad, &cp, &nhwc};
	return dlb_launch(c->kernels[K_UNFOLD], dlb_grid_for(images * rows * q * (cp / 8), 256, s->g->dev->sm_count),
			  (dim3){256, 1, 1}, 0, s->g->dev->stream, args);
}

/* x (w: x = 0) into its 3xTF32 copy (templates/conv_fp32.cu's conv_split3): NHWC or KRSC with s->d3.C channels */
static int split3(struct conv_state *s, const struct dlb_candidate *c, int x, void *in, void *out)
{
	const struct conv_shape *d = &s->d;
	int images = x ? d->N : d->K, C = d->C, HW = x ? d->H * d->W : d->R * d->S, cp = s->d3.C, nhwc = s->nhwc,
	    role = !x;
	void *args[] = {&in, &out, &images, &C, &HW, &cp, &nhwc, &role};
	int rc = 0;
	dim3 grid;
	if (nhwc || HW < 32) {
		int64_t blocks = ((int64_t)images * HW * C + 255) / 256, most = 8 * (int64_t)s->g->dev->sm_count;
		grid = (dim3){(unsigned)(blocks < most ? blocks : most), 1, 1};
	} else {
		if (images > 65535)
			DLB_FAIL(DLB_E_LIMIT, "%d images are over the grid's limit of 65535", images);
		grid = (dim3){(unsigned)((HW + 31) / 32), (unsigned)((C + 31) / 32), (unsigned)images};
	}
	DLB_CHECK(dlb_launch(c->kernels[K_COPY], grid, (dim3){32, 8, 1}, 0, s->g->dev->stream, args));
fail:
	return rc;
}

/* A convolution's launch: on sm_90 a programmatic dependent one (templates/conv_common.cu's conv_wait_prior), so
 * its start overlaps the tail of the kernel before it on the stream, as conv_reduce's overlaps the convolution's;
 * in clusters of `cluster` splits where cluster > 1 (conv_variants' SPLITK < 0). */
static int launch_conv(struct conv_state *s, cudaKernel_t k, dim3 grid, unsigned threads, size_t smem, void **args,
		       int cluster)
{
	return dlb_launch_ex(k, grid, (dim3){threads, 1, 1}, smem, s->g->dev->stream, args, s->g->dev->cc_major >= 9,
			     (dim3){1, 1, (unsigned)cluster});
}

static int conv_launch(void *state, const struct dlb_candidate *c, int split, int set)
{
	int rc = 0;
	struct conv_state *s = state;
	const int *v = c->cfg.v;
	int64_t gx, gy;
	grid_of(s, v, &gx, &gy);
	int cluster = split < -1 ? -split : 0; /* SPLITK < 0: the splits as one cluster (conv_variants) */
	if (cluster) {
		if (cluster > 8 || !wg_of(s, v))
			DLB_FAIL(DLB_E_LIMIT, "SPLITK=%d: a cluster of 2..8 splits, wgmma kernels only", split);
		split = cluster;
	}
	if (split < 1)
		split = 1;
	if (gx > 0x7fffffff || gy > 65535 || split > 65535)
		DLB_FAIL(DLB_E_LIMIT, "a grid of %lld x %lld x %d blocks is over the device's limits", (long long)gx,
			 (long long)gy, split);
	if (split > 1 && !cluster && (size_t)split * s->ny > s->ws_elems)
		DLB_FAIL(DLB_E_LIMIT, "split-K %d needs more workspace than was allocated", split);
	if (direct_of(s, v)) { /* x and w as they are; the shared memory this problem's tile needs; no tensor maps */
		struct dlb_tmap none;
		memset(&none, 0, sizeof none);
		void *dargs[] = {&s->x[set], &s->w[set], &s->y[set], &s->d, &s->ws, &split, &none, &none};
		DLB_CHECK(launch_conv(s, c->kernels[s->nhwc], (dim3){(unsigned)gx, (unsigned)gy, 1},
				      (unsigned)s->kind->threads(v), direct_smem(s, v), dargs, 1));
		return 0;
	}
	if (halo_of(s, v)) { /* x and w as they are, through KIND 5's tensor maps; persistent blocks, a whole number
			      * of them for each block of BN filters (conv_body_halo) */
		if (split != 1 || !halo_ok(s, v))
			DLB_FAIL(DLB_E_LIMIT,
				 "KIND 5 runs NHWC fp16 on a Hopper GPU with C = 64, stride and dilation 1, K a multiple "
				 "of %d, a halo box within 256 rows and columns, its shared memory within %d bytes, and no "
				 "split", v[s->kind->bn], HALO_SMEM);
		const struct conv_shape *d = &s->d;
		int tr = v[s->kind->bm] / 64;
		int64_t nt = d->K / v[s->kind->bn], mt = (int64_t)d->N * ((d->P + tr - 1) / tr) * ((d->Q + 63) / 64),
			per = mt < s->g->dev->sm_count / nt ? mt : s->g->dev->sm_count / nt;
		if (per < 1)
			per = 1;
		if (per * nt > 0x7fffffff)
			DLB_FAIL(DLB_E_LIMIT, "a grid of %lld blocks is over the device's limit", (long long)(per * nt));
		struct dlb_tmap mx, mw;
		DLB_CHECK(tma_maps(s, set, s->x[set], s->w[set], v[s->kind->bm], v[s->kind->bn], 1, &mx, &mw));
		int kc1 = 0;
		struct conv_shape kd = *d;
		void *hargs[] = {&s->x[set], &s->w[set], &s->y[set], &kd, &s->ws, &kc1, &mx, &mw};
		DLB_CHECK(launch_conv(s, c->kernels[s->nhwc], (dim3){(unsigned)(per * nt), 1, 1},
				      (unsigned)s->kind->threads(v), halo_smem(s, v), hargs, 1));
		return 0;
	}
	int kc = chunk_of(s, v, split);
	void *x = s->x[set], *w = s->w[set];
	int vec = s->vec;
	struct conv_shape kd = *shape_run(s, v);
	if (tf32_of(s, v)) { /* fp32 as 3xTF32: the split copies (s->d3), NHWC and KRSC from either layout */
		if (!s->xt)
			DLB_FAIL(DLB_E_LIMIT, "3xTF32 without its split copies (no variant was asked for first)");
		DLB_CHECK(split3(s, c, 1, x, s->xt));
		DLB_CHECK(split3(s, c, 0, w, s->wt));
		x = s->xt;
		w = s->wt;
		vec = 1;
	} else if (padded(s, v)) { /* x and w unfolded (s->dp), from either layout */
		DLB_CHECK(unfold(s, c, 1, x, s->xt));
		DLB_CHECK(unfold(s, c, 0, w, s->wt));
		x = s->xt;
		w = s->wt;
		vec = 1;
	} else if (s->vec && !s->nhwc) { /* NCHW8 (int8: all NCHW): x to NHWC, w to KRSC, then a kernel writing y in NCHW */
		DLB_CHECK(to_nhwc(s, c, x, s->xt, s->d.N, s->d.C, s->d.H * s->d.W));
		x = s->xt;
		if (s->d.R * s->d.S > 1) { /* a 1x1 filter's KCRS is KRSC */
			DLB_CHECK(to_nhwc(s, c, w, s->wt, s->d.K, s->d.C, s->d.R * s->d.S));
			w = s->wt;
		}
	}
	if (wg_of(s, v) && split == 1) {
		/* persistent blocks (templates/conv_fp16.cu KIND 1 and 2): as many as are resident at once, at most one
		 * a tile; two an SM where the kernel asks for them (KIND 1, one consumer warpgroup, (BM/64)·BN <= 64:
		 * its MIN_BLOCKS) and two blocks' shared memory fits (2 KiB each for the static part and the system's) */
		const int two = s->kind->type == DLB_CUDNN_F16 && !tma_of(s, v) && v[s->kind->wm] == 1 &&
				v[s->kind->bm] / 64 * v[s->kind->bn] <= 64 && 2 * (s->dyn(v) + 2048) <= s->g->dev->smem_per_sm;
		int64_t tiles = gx * gy, resident = (int64_t)s->g->dev->sm_count * (two ? 2 : 1);
		gx = tiles < resident ? tiles : resident;
		gy = 1;
	}
	struct dlb_tmap mx, mw; /* the wgmma kernels take KIND 2's tensor maps (zeros for the others) */
	memset(&mx, 0, sizeof mx);
	memset(&mw, 0, sizeof mw);
	if (tma_of(s, v))
		DLB_CHECK(tma_maps(s, set, x, w, v[s->kind->bm], v[s->kind->bn], 0, &mx, &mw));
	float *ws = cluster ? NULL : s->ws; /* no workspace: the kernels' sign of a cluster split (conv_cluster_finish) */
	void *args[] = {&x, &w, &s->y[set], &kd, &ws, &kc, &mx, &mw};
	unsigned threads = (unsigned)s->kind->threads(v);
	size_t dyn = vec ? s->dyn(v) : 0;
	dim3 grid = {(unsigned)gx, (unsigned)gy, (unsigned)split};
	if (cluster) {
		/* conv_variants offers clusters of 2..8 from the configuration alone; whether one fits (the GPU's
		 * clusters of SMs, the blocks' shared memory) is asked here once for each kernel, so a trial that
		 * cannot run is stored with this reason, not as a failed launch */
		cudaKernel_t k = c->kernels[s->nhwc];
		dyn = cluster_smem(s, v, cluster);
		if (s->clu_k != k || s->clu_smem != dyn || s->clu_n != cluster) {
			s->clu_k = NULL;
			if (dyn > s->dyn(v)) { /* over what the candidate's load allowed its kernels */
				if (dyn + c->attrs.sharedSizeBytes > s->g->dev->smem_per_block_optin)
					DLB_FAIL(DLB_E_LIMIT, "SPLITK=%d: %zu bytes of shared memory a block, the device "
							      "allows %zu", -cluster, dyn + (size_t)c->attrs.sharedSizeBytes,
						 s->g->dev->smem_per_block_optin);
				DLB_CHECK(dlb_kernel_allow_smem(k, dyn));
			}
			DLB_CHECK(dlb_max_clusters(k, (dim3){threads, 1, 1}, dyn, (dim3){1, 1, (unsigned)cluster},
						   &s->clu_slots));
			s->clu_k = k, s->clu_smem = dyn, s->clu_n = cluster;
		}
		if (s->clu_slots < 1)
			DLB_FAIL(DLB_E_LIMIT, "SPLITK=%d: no cluster of %d blocks with %zu bytes of shared memory each fits "
					      "this GPU", -cluster, cluster, dyn);
		DLB_CHECK(launch_conv(s, k, grid, threads, dyn, args, cluster));
	} else {
		DLB_CHECK(launch_conv(s, c->kernels[s->nhwc], grid, threads, dyn, args, 1));
	}
	if (split > 1 && !cluster) { /* the splits' partial sums into y, on every SM (templates/conv_common.cu's conv_reduce) */
		void *rargs[] = {&s->y[set], &s->ws, &kd, &split, &s->nhwc};
		int64_t groups = ((int64_t)s->ny + 3) / 4;
		DLB_CHECK(dlb_launch_ex(c->kernels[K_REDUCE], dlb_grid_for(groups, 256, s->g->dev->sm_count),
					(dim3){256, 1, 1}, 0, s->g->dev->stream, rargs, s->g->dev->cc_major >= 9,
					(dim3){1, 1, 1}));
	}
fail:
	return rc;
}

/* Set 0's output against the reference, as one column of ny elements. */
static int check(struct conv_state *s, double tol, struct dlb_check *out)
{
	int64_t n = (int64_t)s->ny;
	if (s->kind->type == DLB_CUDNN_S8) /* exact */
		return dlb_compare_s32(s->g, s->y[0], n, s->ref, n, n, 1, out);
	if (s->kind->type == DLB_CUDNN_F16) /* within DLB_TOL_FP16_REL·|ref| + tol */
		return dlb_compare_f16(s->g, s->y[0], n, s->ref, n, n, 1, tol, out);
	return dlb_compare_f32(s->g, s->y[0], n, s->ref, n, n, 1, tol, out);
}

static int conv_verify(void *state, const struct dlb_candidate *c, int variant, struct dlb_check *out)
{
	int rc = 0;
	struct conv_state *s = state;
	DLB_CHECK(dlb_poison(s->g, s->y[0], s->ny * (size_t)s->kind->es_out));
	if (variant > 1)
		DLB_CHECK(dlb_poison(s->g, s->ws, s->ws_elems * 4));
	DLB_CHECK(conv_launch(state, c, variant, 0));
	DLB_CHECK(check(s, s->tol, out));
fail:
	return rc;
}

/* Algorithm s->cur of s->cur_cu on input set `set` of its buffers (use_algo). */
static int cudnn_launch(void *state, int set)
{
	struct conv_state *s = state;
	return dlb_cudnn_conv_run(s->cur_cu, s->cur, s->cur_x[set], s->cur_w[set], s->cur_y[set]);
}

/* cudnn_launch's next runs: algorithm i of the problem's cuDNN descriptors, or (half) of int8's fp16 ones. */
static void use_algo(struct conv_state *s, int half, int i)
{
	s->cur_cu = half ? &s->cuh : &s->cu;
	s->cur = i;
	s->cur_x = half ? s->xh : s->x;
	s->cur_w = half ? s->wh : s->w;
	s->cur_y = half ? s->yh : s->y;
}

/* cuDNN's output of set 0 against the reference: as a candidate's (fp32 to tol); int8's float y exactly, as
 * int32; int8's fp16 entry against the fp32 reference of its own half inputs. */
static int check_vendor(struct conv_state *s, int half, double tol, struct dlb_check *out)
{
	int rc = 0;
	int64_t n = (int64_t)s->ny;
	if (half)
		return dlb_compare_f16(s->g, s->yh[0], n, s->refh, n, n, 1, s->tol, out);
	if (s->kind->type != DLB_CUDNN_S8)
		return check(s, tol, out);
	DLB_CHECK(convert(s, s->shared->f32_to_s32, s->y[0], s->cvt, s->ny));
	DLB_CHECK(dlb_compare_s32(s->g, s->cvt, n, s->ref, n, n, 1, out));
fail:
	return rc;
}

/* Verify algorithm i of cuDNN (half: int8's fp16 descriptors) like a candidate, then time it by the same harness
 * on the same sets; e gets the result. */
static int vendor_entry(struct conv_state *s, const struct dlb_bench_opts *o, int half, int i, double tol,
			struct dlb_vendor_entry *e)
{
	int rc = 0;
	struct dlb_check chk;
	use_algo(s, half, i);
	DLB_CHECK(dlb_poison(s->g, s->cur_y[0], s->ny * (half ? 2 : (size_t)s->kind->es_out)));
	DLB_CHECK(cudnn_launch(s, 0));
	DLB_CHECK(check_vendor(s, half, tol, &chk));
	e->ok = chk.ok;
	if (chk.ok)
		DLB_CHECK(dlb_bench_time(&s->g->bench, cudnn_launch, s, s->nsets, o, &e->st));
fail:
	return rc;
}

/* int8's fp16 entry: cuDNN in fp16 on the same shape (the nearest precision it has everywhere, which DeepBench
 * accepts), its inputs the int8 sets divided by 16 (exact in half), verified against their own fp32 reference:
 * Find's fastest, kind 3, never the int8 baseline. */
static int vendor_fp16(struct conv_state *s, const struct dlb_bench_opts *o, size_t ws_max, struct dlb_vendor_entry *e,
		       int *got)
{
	int rc = 0;
	*got = 0;
	if (!s->refh) {
		for (int i = 0; i < s->nsets; i++) {
			DLB_CHECK(dlb_dev_alloc(&s->xh[i], s->nx * 2));
			DLB_CHECK(dlb_dev_alloc(&s->wh[i], s->nw * 2));
			DLB_CHECK(dlb_dev_alloc(&s->yh[i], s->ny * 2));
			DLB_CHECK(convert(s, s->shared->s8_to_f16, s->x[i], s->xh[i], s->nx));
			DLB_CHECK(convert(s, s->shared->s8_to_f16, s->w[i], s->wh[i], s->nw));
		}
		DLB_CHECK(dlb_dev_alloc((void **)&s->refh, s->ny * 4));
		DLB_CHECK(dlb_poison(s->g, s->refh, s->ny * 4));
		DLB_CHECK(launch_ref(s, s->shared->ref_f16, s->xh[0], s->wh[0], s->refh));
		DLB_CHECK(dlb_cudnn_conv_open(s->shared->cudnn, s->run, DLB_CUDNN_F16, &s->cuh));
		s->cuh_open = 1;
	}
	DLB_CHECK(dlb_cudnn_conv_algos(&s->cuh, s->xh[0], s->wh[0], s->yh[0], ws_max));
	for (int i = 0; i < s->cuh.nalgo; i++)
		if (s->cuh.from_find[i] == 1) { /* Find's list is fastest first */
			memset(e, 0, sizeof *e);
			e->kind = 3;
			e->other_math = 1;
			snprintf(e->name, sizeof e->name, "cudnn-fp16:%s", dlb_cudnn_algo_name(s->cuh.algo[i]));
			snprintf(e->config, sizeof e->config,
				 "fp16 tensors (the int8 inputs / 16), fp32 accumulation, workspace %zu bytes: not int8",
				 s->cuh.ws_need[i]);
			DLB_CHECK(vendor_entry(s, o, 1, i, 0, e));
			*got = 1;
			break;
		}
fail:
	return rc;
}

/* cuDNN in the op's precision (fp32 strict): the heuristic's first choice (kind 0) and each algorithm cudnnFind
 * reports (kind 1), each verified against the reference like a candidate, then timed by the same harness on the
 * same sets. fp32: then Find's fastest in cuDNN's default math (kind 2), labelled with the math it used and never
 * the fp32 baseline; where that is TF32, it is verified to TF32's tolerance. int8: where cuDNN has no int8
 * engine for the problem (NCHW: it has none), an entry without a time that says so and why; then the fp16 entry
 * (vendor_fp16). */
static int conv_vendor(void *state, const struct dlb_bench_opts *o, struct dlb_vendor_entry *out, int max, int *n)
{
	int rc = 0;
	struct conv_state *s = state;
	size_t free_b = 0, total_b = 0;
	int int8 = s->kind->type == DLB_CUDNN_S8, half = s->kind->type == DLB_CUDNN_F16;
	char why[112] = "";
	*n = 0;
	s->nent = 0;
	CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
	if (int8 && !s->cvt)
		DLB_CHECK(dlb_dev_alloc((void **)&s->cvt, s->ny * 4));
	if (!s->cu_open) {
		snprintf(why, sizeof why, "%s", s->cu_why);
	} else if ((rc = dlb_cudnn_conv_algos(&s->cu, s->x[0], s->w[0], s->y[0], free_b / 2)) != 0) {
		if (!int8 || rc != DLB_E_VENDOR)
			goto fail;
		dlb_last_error_brief("cudnn", why, sizeof why); /* int8 without an engine: the reason, and on */
		s->cu.nalgo = 0;
		rc = 0;
	}
	for (int i = 0; s->cu_open && i < s->cu.nalgo && *n < max; i++) {
		struct dlb_vendor_entry *e = &out[*n];
		memset(e, 0, sizeof *e);
		int kind = s->cu.from_find[i], strict = s->kind->type != DLB_CUDNN_F32 || s->cu.math[i] == CUDNN_FMA_MATH;
		e->kind = kind;
		e->other_math = !strict;
		snprintf(e->name, sizeof e->name, "cudnn%s:%s%s", kind == 0 ? "-heuristic" : kind == 2 ? "-dm" : "",
			 dlb_cudnn_algo_name(s->cu.algo[i]),
			 strict ? "" : s->cu.math[i] == CUDNN_DEFAULT_MATH ? " (may be TF32)" : " (TF32)");
		if (int8)
			snprintf(e->config, sizeof e->config,
				 "int8 tensors, int32 accumulation, float y (compared as int32), workspace %zu bytes",
				 s->cu.ws_need[i]);
		else if (half)
			snprintf(e->config, sizeof e->config, "fp16 tensors, fp32 accumulation, math %s, workspace %zu bytes",
				 s->cu.math[i] == CUDNN_FMA_MATH ? "FMA" : "tensor ops", s->cu.ws_need[i]);
		else
			snprintf(e->config, sizeof e->config, "math %s%s, workspace %zu bytes",
				 dlb_cudnn_math_name(s->cu.math[i]), strict ? " (strict fp32)" : " (not fp32: never the baseline)",
				 s->cu.ws_need[i]);
		DLB_CHECK(vendor_entry(s, o, 0, i, strict ? s->tol : s->tol_tf32, e));
		s->ent_half[*n] = 0;
		s->ent_algo[(*n)++] = i;
	}
	if (int8 && *n == 0 && *n < max) { /* no int8 algorithm: n/a, with cuDNN's reason */
		struct dlb_vendor_entry *e = &out[*n];
		memset(e, 0, sizeof *e);
		e->kind = 1;
		snprintf(e->name, sizeof e->name, "cudnn:no int8 engine");
		snprintf(e->config, sizeof e->config, "n/a: %s", why[0] ? why : "no algorithm of cuDNN ran int8 here");
		s->ent_half[*n] = 0;
		s->ent_algo[(*n)++] = -1;
	}
	if (int8 && *n < max) {
		int got = 0;
		DLB_CHECK(vendor_fp16(s, o, free_b / 2, &out[*n], &got));
		if (got) {
			s->ent_half[*n] = 1;
			s->ent_algo[(*n)++] = s->cur;
		}
	}
	s->nent = *n;
fail:
	return rc;
}

static int conv_vendor_launch(void *state, int entry, int set)
{
	int rc = 0;
	struct conv_state *s = state;
	if (entry < 0 || entry >= s->nent || s->ent_algo[entry] < 0)
		DLB_FAIL(DLB_E_USAGE, "no cuDNN entry %d", entry);
	use_algo(s, s->ent_half[entry], s->ent_algo[entry]);
	rc = cudnn_launch(s, set);
fail:
	return rc;
}

const struct dlb_op dlb_op_conv = {
	.name = "conv",
	.family = &dlb_family_conv,
	.prec = DLB_PREC_FP32,
	.es_in = 4,
	.es_out = 4,
	.summary = "forward convolution, implicit GEMM: FFMA on the CUDA cores, or 3xTF32 on the tensor cores (wgmma on "
		   "sm_90a, fed by cp.async or the copy engine)",
	.template_file = "conv_common.cu",
	.template_extra = "conv_fp32.cu",
	.template_more = "conv_fp16.cu",
	.kernel_names = conv_kernels,
	.nkernels = 4,
	.ndyn_kernels = 2,
	.variant_name = "SPLITK",
	.search_window_max = CONV_WINDOW_MAX,
	.nspecs = F_NSPECS,
	.spec_defines = conv_spec_defines,
	.spec_names = conv_spec_names,
	.spec_of = conv_spec_of,
	.spec_used = conv_spec_used,
	.dyn_smem = f_dyn_smem,
	.space = {conv_params, CONV_NPARAMS, conv_constraints, sizeof conv_constraints / sizeof conv_constraints[0]},
	.limit_checks = conv_limit_checks,
	.nlimit_checks = sizeof conv_limit_checks / sizeof conv_limit_checks[0],
	.device_bytes = conv_device_bytes,
	.setup = conv_setup,
	.variants = conv_variants,
	.nsets = conv_nsets,
	.launch = conv_launch,
	.verify = conv_verify,
	.vendor = conv_vendor,
	.vendor_launch = conv_vendor_launch,
	.teardown = conv_teardown,
};

const struct dlb_op dlb_op_conv_fp16 = {
	.name = "conv",
	.family = &dlb_family_conv,
	.prec = DLB_PREC_FP16,
	.es_in = 2,
	.es_out = 2,
	.summary = "forward convolution, implicit GEMM with fp16 inputs and output on the tensor cores (mma.sync; "
		   "wgmma on sm_90a, fed by cp.async or the copy engine), fp32 accumulation",
	.template_file = "conv_common.cu",
	.template_extra = "conv_fp16.cu",
	.kernel_names = h_kernels,
	.nkernels = 5,
	.ndyn_kernels = 2,
	.variant_name = "SPLITK",
	.search_window_max = CONV_WINDOW_MAX,
	.nspecs = H_NSPECS,
	.spec_defines = h_spec_defines,
	.spec_names = h_spec_names,
	.spec_of = h_spec_of,
	.spec_used = h_spec_used,
	.dyn_smem = h_dyn_smem,
	.space = {h_params, H_NPARAMS, h_constraints, sizeof h_constraints / sizeof h_constraints[0]},
	.limit_checks = h_limit_checks,
	.nlimit_checks = sizeof h_limit_checks / sizeof h_limit_checks[0],
	.device_bytes = conv_device_bytes,
	.setup = conv_setup,
	.variants = conv_variants,
	.nsets = conv_nsets,
	.launch = conv_launch,
	.verify = conv_verify,
	.vendor = conv_vendor,
	.vendor_launch = conv_vendor_launch,
	.teardown = conv_teardown,
};

const struct dlb_op dlb_op_conv_int8 = {
	.name = "conv",
	.family = &dlb_family_conv,
	.prec = DLB_PREC_INT8,
	.es_in = 1,
	.es_out = 4,
	.summary = "forward convolution, implicit GEMM with int8 inputs on the tensor cores (mma.sync), int32 "
		   "accumulation and output, channels padded to multiples of 4",
	.template_file = "conv_common.cu",
	.template_extra = "conv_int8.cu",
	.kernel_names = h_kernels,
	.nkernels = 4,
	.ndyn_kernels = 2,
	.variant_name = "SPLITK",
	.search_window_max = CONV_WINDOW_MAX,
	.nspecs = I_NSPECS,
	.spec_defines = i_spec_defines,
	.spec_names = i_spec_names,
	.spec_of = i_spec_of,
	.dyn_smem = i_dyn_smem,
	.space = {i_params, I_NPARAMS, i_constraints, sizeof i_constraints / sizeof i_constraints[0]},
	.limit_checks = i_limit_checks,
	.nlimit_checks = sizeof i_limit_checks / sizeof i_limit_checks[0],
	.device_bytes = conv_device_bytes,
	.setup = conv_setup,
	.variants = conv_variants,
	.nsets = conv_nsets,
	.launch = conv_launch,
	.verify = conv_verify,
	.vendor = conv_vendor,
	.vendor_launch = conv_vendor_launch,
	.teardown = conv_teardown,
};
