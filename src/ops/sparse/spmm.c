/* ops/sparse/spmm: the sparse-times-dense ops, fp32 and fp16 (templates/spmm.cu; fp16: A's values, B and C in
 * half, every product and sum in fp32, the same kernels with SPMM_FP16 set): six kernel families in one space
 * (KIND 0 FFMA nonzero-split, 1 FFMA column-split, 2 FFMA B staged in shared memory, 3 the same with A
 * segmented, 4 KIND 0 with 16-bit column indices, 6 FFMA on A's BSR copy where a block pattern's square blocks
 * tile M and K: names that begin with their arithmetic, search/space.h), and in fp16 two more (KIND 5 HMMA: A
 * made dense in shared memory a slice at a time, on the tensor cores; KIND 7 HMMA on the BSR copy's 16x16 and
 * 32x32 blocks), their
 * constraints as data, the matrix generated from the problem's dims and uploaded once (KIND 0-2 read csr.c's
 * CSR as it is; KIND 3 reads segs.c's slab-segmented copies, KIND 4 a 16-bit copy of the columns and KIND 5
 * tiles.c's tiled copies, each made once a problem on the host, their times shown with the matrix's
 * statistics), launches, verification against
 * the family's reference kernel, and the baselines: every cuSPARSE CSR algorithm and dense cuBLAS (through the
 * GEMM family's runner). */
#include "spmm.h"

#include "../../err.h"
#include "../gemm/gemm.h"
#include "csr.h"
#include "bsr.h"
#include "segs.h"
#include "tiles.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { S_KIND, S_TPR, S_VN, S_WARPS, S_RPW, S_BK, S_MINB, S_NZV, S_NPARAMS };

#define KIND_ABOUT                                                                                                \
	"0: nonzero-split (lanes share a row's nonzeros); 1: column-split (lanes share its columns); 2: slabs of B in " \
	"shared memory; 3: the same with A slab-segmented; 4: as 0, with 16-bit column indices (K <= 65536)"
#define KIND6_ABOUT                                                                                               \
	"6: A in BSR, RPW x RPW blocks (block patterns whose square blocks tile M and K), a lane's RPW rows in registers"
#define KIND6_NAME "FFMA BSR blocks"
#define KIND_NAMES                                                                                                \
	"FFMA nonzero-split", "FFMA column-split", "FFMA B slabs in shared memory", "FFMA B slabs, A segmented",         \
		"FFMA nonzero-split, 16-bit columns"
#define VN_ABOUT "columns per lane (KIND 5: n8 tiles a warp)"
/* the tunables after KIND and VN, the same in both precisions (fp16's KIND has a value more, its VN 16) */
#define OTHER_PARAMS                                                                                              \
	[S_TPR] = {"TPR", "lanes per row (KIND 0, 1, 4)", 6, {1, 2, 4, 8, 16, 32}},                                    \
	[S_WARPS] = {"WARPS", "warps per block (16: KIND 3)", 5, {1, 2, 4, 8, 16}},                                    \
	[S_RPW] = {"RPW", "rows per warp (KIND 2, 3; KIND 5: m16 tiles a warp; KIND 6, 7: the block's side)", 6,            \
		   {1, 2, 4, 8, 16, 32}},                                                                                \
	[S_BK] = {"BK", "rows of B per shared-memory slab (KIND 2, 3, 5); KIND 6: 64 stages A's blocks in shared memory", 4, {32, 64, 128, 256}},                     \
	[S_MINB] = {"MINB", "KIND 3: blocks an SM its registers are capped for (launch bounds' minimum); KIND 6: warps an " \
			    "SM in eights, 1 uncapped", 4, {1, 2, 3, 4}}, \
	[S_NZV] = {"NZV", "KIND 0, 4: nonzeros a lane reads at once (4, 8: 16-byte loads of values and of columns)", 3, \
		   {1, 4, 8}}

static const struct dlb_param s_params[S_NPARAMS] = {
	[S_KIND] = {"KIND", KIND_ABOUT "; " KIND6_ABOUT, 6, {0, 1, 2, 3, 4, 6}, 1,
		    (const char *const[]){KIND_NAMES, KIND6_NAME}},
	[S_VN] = {"VN", VN_ABOUT, 4, {1, 2, 4, 8}},
	OTHER_PARAMS,
};

/* fp16: KIND 5 too, the tensor cores on A made dense a slice at a time (tiles.c's copy) */
static const struct dlb_param h_params[S_NPARAMS] = {
	[S_KIND] = {"KIND", KIND_ABOUT "; 5: tensor cores (mma.sync) on A made dense in shared memory a k-slice at a "
				       "time, from a tiled copy; " KIND6_ABOUT "; 7: tensor cores (mma.sync) on A's BSR copy, "
				       "RPW 8, 16 or 32",
		    8, {0, 1, 2, 3, 4, 5, 6, 7}, 1,
		    (const char *const[]){KIND_NAMES, "HMMA A dense in shared memory, tiled copy", KIND6_NAME,
					  "HMMA BSR blocks"}},
	[S_VN] = {"VN", VN_ABOUT " (16: KIND 5 only)", 5, {1, 2, 4, 8, 16}},
	OTHER_PARAMS,
};

/* KIND 2 and 3 stage B in shared-memory slabs */
static int slabbed(const int *v)
{
	return v[S_KIND] == 2 || v[S_KIND] == 3;
}

static int c_plain(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return slabbed(v) || v[S_KIND] >= 5 || (v[S_RPW] == 1 && v[S_BK] == 32);
}

/* KIND 6: RPW the block's side (its rows' four columns at a time), every lane of a warp on its own columns (TPR
 * 32), BK 32 (A's values read from global memory) or 64 (staged in shared memory, B a step ahead), a lane's
 * accumulators RPW*VN <= 64 */
static int c_bsr(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return v[S_KIND] != 6 ||
	       (v[S_TPR] == 32 && (v[S_BK] == 32 || v[S_BK] == 64) && v[S_RPW] >= 4 && v[S_RPW] * v[S_VN] <= 64);
}

/* fp16's KIND 7: RPW the block's side, 8 (half an m16k8 fragment), 16 or 32 (whole m16k16 ones), VN a warp's
 * groups of 32 columns (four n8 tiles each), accumulators 16*(RPW/16)*VN <= 64; TPR 32 and BK 32 (unused) */
static int c_bsr_mma(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return v[S_KIND] != 7 || (v[S_TPR] == 32 && v[S_BK] == 32 && v[S_RPW] >= 8 &&
				  v[S_VN] <= 4 && v[S_RPW] * v[S_VN] <= 64);
}

static int c_slab(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return !slabbed(v) || (v[S_TPR] == 32 && v[S_VN] >= 4 && v[S_WARPS] >= 2 && v[S_RPW] * v[S_VN] <= 64);
}

/* KIND 3's rows per warp and slabs: the groups and slices of its segmented copies (one copy each, so few) */
#define SEG_RPWS 3
#define SEG_BKS 3
#define SEG_FORMATS (SEG_RPWS * SEG_BKS)
static const int seg_rpw[SEG_RPWS] = {4, 8, 16}, seg_bk[SEG_BKS] = {32, 64, 128};

/* The segmented copy configuration v reads, or -1 */
static int seg_format_of(const int *v)
{
	for (int i = 0; i < SEG_RPWS; i++)
		for (int j = 0; j < SEG_BKS; j++)
			if (seg_rpw[i] == v[S_RPW] && seg_bk[j] == v[S_BK])
				return i * SEG_BKS + j;
	return -1;
}

static int c_seg(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return v[S_KIND] == 3 ? seg_format_of(v) >= 0 : v[S_WARPS] <= 8;
}

/* NZV 8 holds eight rows of B a lane in flight: VN <= 4 (the N <= 4 rows it is for) */
static int c_nzv(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return v[S_NZV] == 1 || ((v[S_KIND] == 0 || v[S_KIND] == 4) && (v[S_NZV] == 4 || v[S_VN] <= 4));
}

static int c_minb(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	/* KIND 3: the threads an SM allows, and a thread's accumulators and some 48 registers more (56 with slabs
	 * of over 32 rows) under the cap (ptxas's: the share of the 64K registers, a multiple of 8) */
	if (v[S_KIND] == 3)
		return 32 * v[S_WARPS] * v[S_MINB] <= 2048 &&
		       v[S_RPW] * v[S_VN] + (v[S_BK] > 32 ? 56 : 48) <= (65536 / (32 * v[S_WARPS] * v[S_MINB]) & ~7);
	/* KIND 6 with A staged (BK 64): two steps' rows of B and no values of A ahead; fitted as below */
	if (v[S_KIND] == 6 && v[S_BK] == 64)
		return v[S_MINB] == 1 ||
		       v[S_RPW] * v[S_VN] + 12 * v[S_VN] + 5 * v[S_RPW] + 12 <= (65536 / (256 * v[S_MINB]) & ~7);
	/* KIND 6: 8·MINB warps an SM (templates/spmm.cu's K6_MINB): the accumulators, four rows of B, the four
	 * values of A ptxas loads ahead for each of the block's rows and 28 registers more under 65536 / (256·MINB)
	 * to a multiple of 8 (fitted to ptxas's reports for both precisions: no candidate it admits spills; a
	 * different ptxas may need them refitted) */
	if (v[S_KIND] == 6)
		return v[S_MINB] == 1 ||
		       v[S_RPW] * v[S_VN] + 4 * v[S_VN] + 4 * v[S_RPW] + 28 <= (65536 / (256 * v[S_MINB]) & ~7);
	return v[S_MINB] == 1;
}

/* KIND 5: a warp's MI = RPW m16 tiles and NI = VN n8 tiles (accumulators 4*RPW*VN: up to 128 registers), its
 * group's rows and a slice's columns within the tiled copy's 9 and 7 bits; VN 16 (128 columns a block, the A
 * tile's zeroing and scatter shared by twice the mma of VN 8) only there */
static int c_mma(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return v[S_KIND] != 5 ? v[S_VN] <= 8
			      : v[S_TPR] == 32 && v[S_RPW] <= 4 && v[S_BK] <= 128 && v[S_WARPS] >= 2 &&
					v[S_RPW] * v[S_VN] <= 32;
}

#define S_CONSTRAINTS                                                                                             \
	{.text = "KIND 0, 1, 4: RPW = 1, BK = 32 (theirs are unused)", .kind = DLB_CON_CUSTOM, .ok = c_plain}, \
	{.text = "KIND 2, 3: TPR = 32, VN >= 4, WARPS >= 2, accumulators RPW*VN <= 64 a thread", .kind = DLB_CON_CUSTOM, \
	 .ok = c_slab}, \
	{.text = "KIND 3: RPW 4, 8 or 16 and BK 32, 64 or 128 (a segmented copy of A each); the others: WARPS <= 8", \
	 .kind = DLB_CON_CUSTOM, \
	 .ok = c_seg}, \
	{.text = "MINB: KIND 3's, at most 2048 threads an SM (32*WARPS*MINB), registers RPW*VN + 48 " \
		 "(56 where BK > 32) <= 65536 / (32*WARPS*MINB) to a multiple of 8; KIND 6's (8*MINB warps an SM), " \
		 "RPW*VN + 4*VN + 4*RPW + 28 (BK 64: RPW*VN + 12*VN + 5*RPW + 12) <= 65536 / (256*MINB) to a multiple " \
		 "of 8; 1 for the others", \
	 .kind = DLB_CON_CUSTOM, \
	 .ok = c_minb}, \
	{.text = "NZV 4, 8: KIND 0 and 4 only; NZV 8 with VN <= 4", .kind = DLB_CON_CUSTOM, .ok = c_nzv}, \
	{.text = "KIND 6: TPR = 32, BK = 32 or 64 (A staged in shared memory), RPW (the block's side) >= 4, " \
		 "accumulators RPW*VN <= 64 a thread", \
	 .kind = DLB_CON_CUSTOM, \
	 .ok = c_bsr}

static const struct dlb_constraint s_constraints[] = {S_CONSTRAINTS};
static const struct dlb_constraint h_constraints[] = {
	S_CONSTRAINTS,
	{.text = "KIND 5: TPR = 32, RPW (m16 tiles a warp) <= 4, BK <= 128, WARPS >= 2, RPW*VN <= 32; the others: "
		 "VN <= 8",
	 .kind = DLB_CON_CUSTOM,
	 .ok = c_mma},
	{.text = "KIND 7: TPR = 32, BK = 32, RPW (the block's side) 8, 16 or 32, VN (32 columns each) <= 4, RPW*VN <= 64",
	 .kind = DLB_CON_CUSTOM,
	 .ok = c_bsr_mma},
};

/* KIND 2's and 3's two slabs: BK rows of 32·VN elements of es bytes each (KIND 3 also takes its segments'
 * buffers, sized from the matrix: seg_smem) */
static size_t slab_smem(const int *v, int es)
{
	return slabbed(v) ? 2 * (size_t)v[S_BK] * 32 * (size_t)v[S_VN] * (size_t)es : 0;
}

static size_t s_dyn_smem(const int *v)
{
	return slab_smem(v, 4);
}

/* fp16: KIND 5's two slices of B (BK rows of 8·VN halves, 8 more where VN is even: an odd count of 16-byte units)
 * and each warp's A tile (16·RPW rows of BK + 8) */
static size_t h_dyn_smem(const int *v)
{
	if (v[S_KIND] == 5)
		return (2 * (size_t)v[S_BK] * (8 * (size_t)v[S_VN] + (v[S_VN] % 2 ? 0 : 8)) +
			(size_t)v[S_WARPS] * 16 * (size_t)v[S_RPW] * ((size_t)v[S_BK] + 8)) * 2;
	return slab_smem(v, 2);
}

static int l_smem(const int *v, const struct dlb_limits *lim)
{
	return !lim || s_dyn_smem(v) <= lim->smem_optin;
}

static int l_smem_h(const int *v, const struct dlb_limits *lim)
{
	return !lim || h_dyn_smem(v) <= lim->smem_optin;
}

#define THREADS_LIMIT                                                                                             \
	{.text = "threads 32*WARPS <= max threads per block", .kind = DLB_CON_PRODUCT, .exp = {[S_WARPS] = 1}, .lo = 1, \
	 .hi = 8, .hi_limit = DLB_LIMIT_THREADS_PER_BLOCK}
static const struct dlb_constraint s_limit_checks[] = {
	{.text = "KIND 2, 3: shared memory 2*BK*32*VN*4 bytes <= opt-in limit per block", .kind = DLB_CON_CUSTOM, .ok = l_smem},
	THREADS_LIMIT,
};
static const struct dlb_constraint h_limit_checks[] = {
	{.text = "KIND 2, 3: shared memory 2*BK*32*VN*2 bytes, KIND 5 (2*BK*(8*VN+8, VN 1: 8) + WARPS*16*RPW*(BK+8))*2 "
		 "<= opt-in limit per block",
	 .kind = DLB_CON_CUSTOM,
	 .ok = l_smem_h},
	THREADS_LIMIT,
};

static const char *const s_kernels[] = {"spmm"};

/* fp16's KIND 5: its m16 tiles a warp and slices, the groups (16·MI rows) and slices of its tiled copies */
#define TILE_MIS 3
#define TILE_BKS 3
#define TILE_FORMATS (TILE_MIS * TILE_BKS)
static const int tile_mi[TILE_MIS] = {1, 2, 4}, tile_bk[TILE_BKS] = {32, 64, 128};

/* ---- problem state ---- */

#define MAX_SETS DLB_CUSPARSE_MAX_SETS
#define MAX_ENTRIES DLB_RESULT_MAX_VENDOR

struct spmm_state {
	struct dlb_gemm_io io; /* what the dense baseline's runner (the GEMM family's) runs on */
	struct dlb_gemm_vendor_keep keep;
	struct dlb_blas_gemm dense; /* C^T (N×M) = B^T (N×K) · A^T (K×M) in cuBLAS's column-major terms */
	struct dlb_gpu *g;
	struct dlb_spmm_shared *shared;
	int m, n, k, nnz, nsets;
	int es; /* bytes of an element of A's values, B and C: 4, or 2 (fp16) */
	double tol;
	struct dlb_csr_stats stats;
	int *rp[MAX_SETS];   /* row_ptr, m + 1 */
	void *av[MAX_SETS];  /* val (nnz elements) then col (nnz ints, 16-byte aligned): one range, what the stream
	                      * floor reads */
	void *B[MAX_SETS], *C[MAX_SETS], *Ad[MAX_SETS]; /* Ad: the dense A, made on the first vendor call */
	float *ref; /* fp32 in both precisions */
	struct dlb_cusparse_mm cs;
	int cs_open, cur;
	int nent, ent_sparse[MAX_ENTRIES], ent_index[MAX_ENTRIES]; /* per entry: cuSPARSE's algorithm, or the dense
	                                                            * runner's entry */
	/* KIND 4's copy of the column indices in 16 bits (on every set), made where K and N let KIND 4 run */
	int col16_built;
	double col16_ms;
	uint16_t *col16[MAX_SETS];
	/* KIND 3's segmented copies of A (one per seg_rpw and seg_bk, on every set), made where N lets KIND 3 run */
	int segs_built;
	double segs_left_out; /* bytes the copies would have taken where they were too large to make, or 0 */
	double segs_ms;    /* building them on the host */
	size_t segs_bytes; /* all of them, one set */
	struct {
		int max16;
		unsigned *off[MAX_SETS];
		void *data[MAX_SETS];
	} seg[SEG_FORMATS];
	/* KIND 3's tensor maps of B (struct dlb_tmap's bytes: the state is not 64-byte aligned) for each slab shape
	 * (VN 4 or 8, seg_bk) and set, where k3_tma_applies: encoded when s_variants first offers the shape */
	unsigned char k3_tm[2 * SEG_BKS][MAX_SETS][sizeof(struct dlb_tmap)];
	int k3_tm_ok[2 * SEG_BKS];
	/* KIND 3's blocks an SM for the last kernel k3_schedule asked about, keyed by what decides it (the handle,
	 * threads, registers, static and dynamic shared memory: a handle may be reused by a later module) */
	cudaKernel_t k3_occ_k;
	int k3_occ_threads, k3_occ_regs;
	size_t k3_occ_static, k3_occ_smem;
	int k3_occ;
	/* fp16's KIND 5: the tiled copies of A (one per tile_mi and tile_bk, on every set), made where N >= 8 */
	int tiles_built;
	double tiles_left_out; /* bytes the copies would have taken where they were too large to make, or 0 */
	double tiles_ms;    /* building them on the host */
	size_t tiles_bytes; /* all of them, one set */
	struct {
		uint32_t *off[MAX_SETS], *ent[MAX_SETS];
	} tile[TILE_FORMATS];
	/* cuSPARSE's block formats where A is square blocks tiling M and K: BSR and Blocked-ELL copies on every set */
	int blocks_bs;      /* their block side, or 0 */
	double blocks_ms;   /* building them on the host */
	size_t blocks_bytes; /* both, one set */
	char blocks_why[112]; /* why a block pattern has none, or "" */
	void *bsr_rp[MAX_SETS], *bsr_col[MAX_SETS], *bsr_val[MAX_SETS], *ell_ind[MAX_SETS], *ell_val[MAX_SETS];
};

static void *val_of(struct spmm_state *s, int set)
{
	return s->av[set];
}

/* the columns start 16-byte aligned after the values (NZV 4 and 8 read them in 16-byte loads); KIND 0 and 4 read
 * whole groups of NZV (<= 8) entries, so a group that ends a row may reach 7 entries past the last nonzero: the
 * range has AV_SLACK bytes more, zeros (so does the 16-bit copy of the columns, COL16_SLACK entries) */
#define AV_SLACK 48
#define COL16_SLACK 8
static int *col_of(struct spmm_state *s, int set)
{
	return (int *)((char *)s->av[set] + (((size_t)s->nnz * (size_t)s->es + 15) & ~(size_t)15));
}

/* bytes of an element of the problem's values, B and C: what its op declares */
static int es_of(const struct dlb_problem *p)
{
	return p->op->es_in;
}

static size_t set_bytes(const struct dlb_problem *p)
{
	const int64_t *d = p->dim;
	double nnz = dlb_spmm_nnz(d), es = es_of(p);
	return (size_t)(nnz * (es + 4) + AV_SLACK + ((double)d[SPMM_M] + 1) * 4 + (double)d[SPMM_K] * (double)d[SPMM_N] * es +
			(double)d[SPMM_M] * (double)d[SPMM_N] * es + (double)d[SPMM_M] * (double)d[SPMM_K] * es);
}

static int sets_for(const struct dlb_problem *p, const struct dlb_device *dev)
{
	return dlb_bench_sets(dev, set_bytes(p), MAX_SETS);
}

/* Whether KIND 4 (KIND 0 with 16-bit column indices) may run on a problem: its copy is made then. */
static int col16_wanted(int64_t n, int64_t k)
{
	return n <= 16 && k <= 65536;
}

/* KIND 3's segmented copies, one set, at most (all of them) */
static double segs_bound(const int64_t *d)
{
	double b = 0;
	for (int i = 0; i < SEG_FORMATS; i++)
		b += dlb_segs_bytes_bound(d[SPMM_M], d[SPMM_K], dlb_spmm_nnz(d), seg_rpw[i / SEG_BKS], seg_bk[i % SEG_BKS]);
	return b;
}

static int tile_format_of(const int *v)
{
	for (int i = 0; i < TILE_MIS; i++)
		for (int j = 0; j < TILE_BKS; j++)
			if (tile_mi[i] == v[S_RPW] && tile_bk[j] == v[S_BK])
				return i * TILE_BKS + j;
	return -1;
}

static double tiles_bytes_all(const int64_t *d)
{
	double b = 0;
	for (int i = 0; i < TILE_FORMATS; i++)
		b += dlb_tiles_bytes(d[SPMM_M], d[SPMM_K], dlb_spmm_nnz(d), 16 * tile_mi[i / TILE_BKS], tile_bk[i % TILE_BKS]);
	return b;
}

#define TILES_MAX_BYTES 4e9 /* beyond this KIND 5 is left out (a huge matrix's offsets alone would fill a GPU) */

/* Whether KIND 5 may run on a problem: fp16 with N >= 8 (an n8 tile at least full), its copies within
 * TILES_MAX_BYTES. They are made then. */
static int tiles_wanted(const struct dlb_problem *p)
{
	return p->prec == DLB_PREC_FP16 && p->dim[SPMM_N] >= 8 && tiles_bytes_all(p->dim) <= TILES_MAX_BYTES;
}

#define SEGS_MAX_BYTES 4e9 /* beyond this KIND 3 is left out (a huge matrix's headers alone would fill a GPU) */

/* Whether KIND 3 may run on a problem: N columns at least half of its smallest chunk (128), and its copies
 * within SEGS_MAX_BYTES. They are made then. */
static int seg_wanted(const int64_t *d)
{
	return 2 * d[SPMM_N] >= 32 * 4 && segs_bound(d) <= SEGS_MAX_BYTES;
}

static size_t s_device_bytes(const struct dlb_problem *p, const struct dlb_device *dev)
{
	/* the sets (with the dense A and KIND 3's copies), the reference, cuSPARSE's buffers (a guess: a row
	 * pointer's worth per set and algorithm) and the L2 flush */
	size_t col16 = col16_wanted(p->dim[SPMM_N], p->dim[SPMM_K]) ? 2 * ((size_t)dlb_spmm_nnz(p->dim) + COL16_SLACK) : 0;
	size_t segs = seg_wanted(p->dim) ? (size_t)segs_bound(p->dim) : 0;
	size_t tiles = tiles_wanted(p) ? (size_t)tiles_bytes_all(p->dim) : 0;
	int br, bc;
	/* cuSPARSE's block formats: BSR, and Blocked-ELL's padding to the widest block row (a guess: three times the
	 * CSR's bytes covers a widest block row up to about 5x the mean; far sparser block patterns are small) */
	dlb_spmm_block(p->dim[SPMM_PATTERN], &br, &bc);
	size_t blocks = br > 1 && br == bc ? 3 * (size_t)dlb_spmm_nnz(p->dim) * (size_t)(es_of(p) + 4) : 0;
	return (size_t)sets_for(p, dev) * (set_bytes(p) + segs + col16 + tiles + blocks +
					   4 * ((size_t)p->dim[SPMM_M] + 1) * DLB_CUSPARSE_MAX_ALGOS) +
	       4 * (size_t)p->dim[SPMM_M] * (size_t)p->dim[SPMM_N] + dlb_bench_flush_bytes(dev);
}

static void s_teardown(void *state)
{
	struct spmm_state *s = state;
	if (!s)
		return;
	dlb_gemm_vendor_free(&s->keep);
	if (s->cs_open)
		dlb_cusparse_mm_close(&s->cs);
	for (int i = 0; i < MAX_SETS; i++) {
		dlb_dev_free(s->rp[i]);
		dlb_dev_free(s->av[i]);
		dlb_dev_free(s->B[i]);
		dlb_dev_free(s->C[i]);
		dlb_dev_free(s->Ad[i]);
		dlb_dev_free(s->col16[i]);
		for (int f = 0; f < SEG_FORMATS; f++) {
			dlb_dev_free(s->seg[f].off[i]);
			dlb_dev_free(s->seg[f].data[i]);
		}
		for (int f = 0; f < TILE_FORMATS; f++) {
			dlb_dev_free(s->tile[f].off[i]);
			dlb_dev_free(s->tile[f].ent[i]);
		}
		dlb_dev_free(s->bsr_rp[i]);
		dlb_dev_free(s->bsr_col[i]);
		dlb_dev_free(s->bsr_val[i]);
		dlb_dev_free(s->ell_ind[i]);
		dlb_dev_free(s->ell_val[i]);
	}
	dlb_dev_free(s->ref);
	free(s);
}

/* Some rows of the reference against a CPU sum in double: the first, the last, the longest and a few between.
 * The reference sums in double and rounds once, so the two agree to fp32's rounding. */
static int spot_check_reference(struct spmm_state *s, const struct dlb_csr *a)
{
	int rc = 0;
	const size_t nb = (size_t)s->k * (size_t)s->n;
	float *B = malloc(nb * sizeof *B), *row = malloc((size_t)s->n * sizeof *row);
	uint16_t *h = s->es == 2 ? malloc(nb * sizeof *h) : NULL;
	if (!B || !row || (s->es == 2 && !h))
		DLB_FAIL(ENOMEM, "out of memory for the reference spot check");
	if (h) { /* fp16's B, widened as the kernels widen it */
		CUDA_CHECK(cudaMemcpy(h, s->B[0], nb * sizeof *h, cudaMemcpyDeviceToHost));
		for (size_t i = 0; i < nb; i++)
			B[i] = (float)dlb_half_value(h[i]);
	} else
		CUDA_CHECK(cudaMemcpy(B, s->B[0], nb * sizeof *B, cudaMemcpyDeviceToHost));
	int64_t longest = 0;
	for (int64_t r = 1; r < a->rows; r++)
		if (a->row_ptr[r + 1] - a->row_ptr[r] > a->row_ptr[longest + 1] - a->row_ptr[longest])
			longest = r;
	int64_t rows[] = {0, a->rows - 1, longest, a->rows / 3, a->rows / 2, 2 * a->rows / 3};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int64_t r = rows[i];
		CUDA_CHECK(cudaMemcpy(row, s->ref + r * s->n, (size_t)s->n * sizeof *row, cudaMemcpyDeviceToHost));
		for (int64_t n = 0; n < s->n; n++) {
			double sum = 0, mag = 0;
			for (int64_t j = a->row_ptr[r]; j < a->row_ptr[r + 1]; j++) {
				double t = (double)a->val[j] * (double)B[(int64_t)a->col[j] * s->n + n];
				sum += t;
				mag += fabs(t);
			}
			if (!(fabs((double)row[n] - sum) <= 1e-6 * mag + 1e-30))
				DLB_FAIL(DLB_E_WRONG, "the reference disagrees with the CPU at C(%lld,%lld): %.9g vs %.9g",
					 (long long)r, (long long)n, (double)row[n], sum);
		}
	}
fail:
	free(B);
	free(row);
	free(h);
	return rc;
}

static int check(void *state, struct dlb_check *out);

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* KIND 4's column indices in 16 bits, converted on the host (timed) and put on every set. */
static int build_col16(struct spmm_state *s, const struct dlb_csr *a)
{
	int rc = 0;
	double t0 = now_ms();
	uint16_t *c16 = malloc((size_t)(a->nnz ? a->nnz : 1) * sizeof *c16);
	if (!c16)
		DLB_FAIL(ENOMEM, "out of memory for 16-bit column indices");
	for (int64_t j = 0; j < a->nnz; j++)
		c16[j] = (uint16_t)a->col[j]; /* cols <= 65536 */
	s->col16_ms = now_ms() - t0;
	for (int set = 0; set < s->nsets; set++) {
		DLB_CHECK(dlb_dev_alloc((void **)&s->col16[set], ((size_t)a->nnz + COL16_SLACK) * 2));
		CUDA_CHECK(cudaMemset(s->col16[set], 0, ((size_t)a->nnz + COL16_SLACK) * 2));
		CUDA_CHECK(cudaMemcpy(s->col16[set], c16, (size_t)a->nnz * 2, cudaMemcpyHostToDevice));
	}
	s->col16_built = 1;
fail:
	free(c16);
	return rc;
}

/* KIND 3's segmented copies of a, built on the host (timed: the conversion a vendor calls preprocessing) and
 * put on every set. */
static int build_segs(struct spmm_state *s, const struct dlb_csr *a)
{
	int rc = 0;
	struct dlb_segs f = {0};
	for (int i = 0; i < SEG_FORMATS; i++) {
		double t0 = now_ms();
		DLB_CHECK(dlb_segs_build(a, seg_rpw[i / SEG_BKS], seg_bk[i % SEG_BKS], &f));
		s->segs_ms += now_ms() - t0;
		size_t noff = (size_t)(f.groups * f.slices + 1) * sizeof *f.off;
		s->segs_bytes += f.bytes + noff;
		s->seg[i].max16 = f.max16;
		for (int set = 0; set < s->nsets; set++) {
			DLB_CHECK(dlb_dev_alloc((void **)&s->seg[i].off[set], noff));
			DLB_CHECK(dlb_dev_alloc(&s->seg[i].data[set], f.bytes ? f.bytes : 16));
			CUDA_CHECK(cudaMemcpy(s->seg[i].off[set], f.off, noff, cudaMemcpyHostToDevice));
			CUDA_CHECK(cudaMemcpy(s->seg[i].data[set], f.data, f.bytes, cudaMemcpyHostToDevice));
		}
		dlb_segs_free(&f);
	}
	s->segs_built = 1;
fail:
	dlb_segs_free(&f);
	return rc;
}

/* x rounded to the nearest IEEE half (ties to even), as its bits; |x| < 65520 (the caller checks) */
static uint16_t half_bits(double x)
{
	const uint16_t sign = signbit(x) ? 0x8000 : 0;
	const double a = fabs(x);
	if (a < 0x1p-14) /* zero or subnormal: a multiple of 2^-24 (1024 of them: the smallest normal's bits) */
		return (uint16_t)(sign | (uint16_t)nearbyint(a * 0x1p24));
	int e;
	frexp(a, &e); /* a = f·2^e, f in [0.5, 1) */
	long q = lrint(ldexp(a, 11 - e)); /* 11 significant bits: 1024 to 2048 */
	if (q == 2048) {
		q = 1024;
		e++;
	}
	return (uint16_t)(sign | (uint16_t)((e + 14) << 10) | (uint16_t)(q - 1024));
}

/* fp16: A's values rounded to half, in *h, and a->val set to exactly those values (what the reference and the
 * segmented copies read); a value beyond half's range is the file's, and an error. */
static int round_values(struct dlb_csr *a, uint16_t **h)
{
	int rc = 0;
	*h = malloc((size_t)(a->nnz ? a->nnz : 1) * sizeof **h);
	if (!*h)
		DLB_FAIL(ENOMEM, "out of memory for the fp16 values");
	for (int64_t j = 0; j < a->nnz; j++) {
		if (!(fabsf(a->val[j]) < 65520.0f))
			DLB_USER_FAIL(DLB_E_USAGE, "A's value %g (nonzero %lld) does not fit fp16 (largest 65504): use --prec fp32",
				      (double)a->val[j], (long long)j);
		(*h)[j] = half_bits(a->val[j]);
		a->val[j] = (float)dlb_half_value((*h)[j]);
	}
fail:
	return rc;
}

/* n values (fp32) to the op's precision in a new buffer: a copy, or half's bits (fp16: a's values are half
 * values already, so exactly) */
static void *values_as(const struct spmm_state *s, const float *v, size_t n)
{
	void *out = malloc((n ? n : 1) * (size_t)s->es);
	if (out && s->es == 2)
		for (size_t j = 0; j < n; j++)
			((uint16_t *)out)[j] = half_bits(v[j]);
	else if (out)
		memcpy(out, v, n * sizeof *v);
	return out;
}

/* One host array on every set, in new device buffers (at least 16 bytes each). */
static int upload(struct spmm_state *s, void **dst, const void *src, size_t bytes)
{
	int rc = 0;
	for (int set = 0; set < s->nsets; set++) {
		DLB_CHECK(dlb_dev_alloc(&dst[set], bytes ? bytes : 16));
		CUDA_CHECK(cudaMemcpy(dst[set], src, bytes, cudaMemcpyHostToDevice));
	}
fail:
	return rc;
}

/* cuSPARSE's block formats for A made of bs x bs blocks: a BSR copy and, in fp16 (Blocked-ELL's SpMM is
 * TF32 with fp32 values: vendor_cusparse.h), a Blocked-ELL one, built on the host (timed, like its own
 * conversions would be; shown with the matrix's statistics) and put on every set, and its block algorithms
 * added to the baselines (the vendor's best shot on a block pattern). */
static int build_blocks(struct spmm_state *s, const struct dlb_csr *a, int bs)
{
	int rc = 0;
	struct dlb_bsr b = {0};
	int32_t *ind = NULL;
	float *ev = NULL;
	void *bv = NULL, *evh = NULL;
	const int ell = s->es == 2;
	double t0 = now_ms();
	DLB_CHECK(dlb_bsr_from_csr(a, bs, &b));
	if (ell)
		DLB_CHECK(dlb_bsr_to_ell(&b, &ind, &ev));
	const size_t nbv = (size_t)b.nnzb * (size_t)bs * (size_t)bs, es = (size_t)s->es,
		     nslots = ell ? (size_t)(b.brows * b.ell_blocks) : 0, nev = nslots * (size_t)bs * (size_t)bs;
	bv = values_as(s, b.val, nbv);
	evh = ell ? values_as(s, ev, nev) : NULL;
	if (!bv || (ell && !evh))
		DLB_FAIL(ENOMEM, "out of memory for the block formats' values");
	s->blocks_ms = now_ms() - t0;
	DLB_CHECK(upload(s, s->bsr_rp, b.row_ptr, ((size_t)b.brows + 1) * 4));
	DLB_CHECK(upload(s, s->bsr_col, b.col, (size_t)b.nnzb * 4));
	DLB_CHECK(upload(s, s->bsr_val, bv, nbv * es));
	if (ell) {
		DLB_CHECK(upload(s, s->ell_ind, ind, nslots * 4));
		DLB_CHECK(upload(s, s->ell_val, evh, nev * es));
	}
	s->blocks_bytes = ((size_t)b.brows + 1 + (size_t)b.nnzb + nslots) * 4 + (nbv + nev) * es;
	DLB_CHECK(dlb_cusparse_mm_add_blocks(&s->cs, bs, b.nnzb, b.ell_blocks * bs, s->bsr_rp, s->bsr_col, s->bsr_val,
					     s->ell_ind, s->ell_val));
	s->blocks_bs = bs;
fail:
	dlb_bsr_free(&b);
	free(ind);
	free(ev);
	free(bv);
	free(evh);
	return rc;
}

/* fp16's KIND 5: the tiled copies of a (values hval), built on the host (timed, like KIND 3's) and put on every
 * set. */
static int build_tiles(struct spmm_state *s, const struct dlb_csr *a, const uint16_t *hval)
{
	int rc = 0;
	struct dlb_tiles t = {0};
	for (int i = 0; i < TILE_FORMATS; i++) {
		double t0 = now_ms();
		DLB_CHECK(dlb_tiles_build(a, hval, 16 * tile_mi[i / TILE_BKS], tile_bk[i % TILE_BKS], &t));
		s->tiles_ms += now_ms() - t0;
		size_t noff = ((size_t)t.groups * (size_t)t.slices + 1) * sizeof *t.off, nent = (size_t)a->nnz * sizeof *t.ent;
		s->tiles_bytes += noff + nent;
		for (int set = 0; set < s->nsets; set++) {
			DLB_CHECK(dlb_dev_alloc((void **)&s->tile[i].off[set], noff));
			DLB_CHECK(dlb_dev_alloc((void **)&s->tile[i].ent[set], nent ? nent : 16));
			CUDA_CHECK(cudaMemcpy(s->tile[i].off[set], t.off, noff, cudaMemcpyHostToDevice));
			CUDA_CHECK(cudaMemcpy(s->tile[i].ent[set], t.ent, nent, cudaMemcpyHostToDevice));
		}
		dlb_tiles_free(&t);
	}
	s->tiles_built = 1;
fail:
	dlb_tiles_free(&t);
	return rc;
}

static int s_setup(struct dlb_gpu *g, const struct dlb_problem *p, void **state)
{
	int rc = 0;
	struct dlb_csr a = {0};
	int *rp32 = NULL;
	uint16_t *hval = NULL;
	struct spmm_state *s = calloc(1, sizeof *s);
	if (!s)
		DLB_FAIL(ENOMEM, "out of memory");
	s->g = g;
	DLB_CHECK(dlb_spmm_shared_of(g, &s->shared));
	const int64_t *d = p->dim;
	int br, bc;
	dlb_spmm_block(d[SPMM_PATTERN], &br, &bc);
	double sparsity = (double)d[SPMM_SPARSITY] / SPMM_SPARSITY_SCALE;
	if (d[SPMM_PATTERN] == SPMM_PATTERN_FILE) {
		DLB_CHECK(dlb_spmm_read_file(d[SPMM_SEED], &a));
		if (a.rows != d[SPMM_M] || a.cols != d[SPMM_K])
			DLB_USER_FAIL(DLB_E_USAGE, "the matrix file of hash %lld is %lldx%lld, not the problem's %lldx%lld",
				      (long long)d[SPMM_SEED], (long long)a.rows, (long long)a.cols, (long long)d[SPMM_M],
				      (long long)d[SPMM_K]);
	} else if (d[SPMM_PATTERN] == SPMM_PATTERN_SKEWED)
		DLB_CHECK(dlb_csr_generate_skewed(d[SPMM_M], d[SPMM_K], sparsity, (uint64_t)d[SPMM_SEED], &a));
	else
		DLB_CHECK(dlb_csr_generate(d[SPMM_M], d[SPMM_K], sparsity, br, bc, (uint64_t)d[SPMM_SEED], &a));
	s->es = es_of(p);
	if (s->es == 2)
		DLB_CHECK(round_values(&a, &hval));
	dlb_csr_stats(&a, &s->stats);
	s->m = (int)d[SPMM_M];
	s->n = (int)d[SPMM_N];
	s->k = (int)d[SPMM_K];
	s->nnz = (int)a.nnz;
	s->nsets = sets_for(p, g->dev);
	/* a dot product of a row's nonzeros: the longest row bounds every output's; B is in [-1, 1), and A's
	 * values too where generated (a file's may be larger: its largest magnitude scales the bound) */
	double amax = 1.0;
	for (int64_t j = 0; j < a.nnz; j++)
		amax = fabs((double)a.val[j]) > amax ? fabs((double)a.val[j]) : amax;
	s->tol = dlb_tol_fp32(s->stats.longest_row > 0 ? s->stats.longest_row : 1) * amax;
	rp32 = malloc(((size_t)s->m + 1) * sizeof *rp32);
	if (!rp32)
		DLB_FAIL(ENOMEM, "out of memory");
	for (int64_t r = 0; r <= s->m; r++)
		rp32[r] = (int)a.row_ptr[r];
	uint64_t seed = dlb_fresh_seed(); /* B fresh every run; A is the problem's own */
	size_t nb = (size_t)s->k * (size_t)s->n, nc = (size_t)s->m * (size_t)s->n, nz = (size_t)s->nnz;
	for (int i = 0; i < s->nsets; i++) {
		DLB_CHECK(dlb_dev_alloc((void **)&s->rp[i], ((size_t)s->m + 1) * 4));
		DLB_CHECK(dlb_dev_alloc(&s->av[i], nz * ((size_t)s->es + 4) + AV_SLACK));
		CUDA_CHECK(cudaMemset(s->av[i], 0, nz * ((size_t)s->es + 4) + AV_SLACK));
		DLB_CHECK(dlb_dev_alloc(&s->B[i], nb * (size_t)s->es));
		DLB_CHECK(dlb_dev_alloc(&s->C[i], nc * (size_t)s->es));
		CUDA_CHECK(cudaMemcpy(s->rp[i], rp32, ((size_t)s->m + 1) * 4, cudaMemcpyHostToDevice));
		CUDA_CHECK(cudaMemcpy(val_of(s, i), hval ? (void *)hval : (void *)a.val, nz * (size_t)s->es,
				      cudaMemcpyHostToDevice));
		CUDA_CHECK(cudaMemcpy(col_of(s, i), a.col, nz * 4, cudaMemcpyHostToDevice));
		if (s->es == 2)
			DLB_CHECK(dlb_fill_f16(g, s->B[i], (int64_t)nb, seed + (uint64_t)i));
		else
			DLB_CHECK(dlb_fill_f32(g, s->B[i], (int64_t)nb, seed + (uint64_t)i));
	}
	if (seg_wanted(d))
		DLB_CHECK(build_segs(s, &a));
	else if (2 * s->n >= 32 * 4)
		s->segs_left_out = segs_bound(d);
	if (col16_wanted(s->n, s->k))
		DLB_CHECK(build_col16(s, &a));
	if (tiles_wanted(p))
		DLB_CHECK(build_tiles(s, &a, hval));
	else if (p->prec == DLB_PREC_FP16 && s->n >= 8)
		s->tiles_left_out = tiles_bytes_all(d);
	DLB_CHECK(dlb_dev_alloc((void **)&s->ref, nc * 4));
	DLB_CHECK(dlb_poison(g, s->ref, nc * 4));
	{
		int *rp = s->rp[0], *col = col_of(s, 0);
		void *val = val_of(s, 0), *B = s->B[0];
		float *ref = s->ref;
		void *args[] = {&rp, &col, &val, &B, &ref, &s->m, &s->n};
		DLB_CHECK(dlb_launch(s->es == 2 ? s->shared->ref_h : s->shared->ref_k,
				     dlb_grid_for((int64_t)nc, 256, g->dev->sm_count), (dim3){256, 1, 1}, 0,
				     g->dev->stream, args));
	}
	CUDA_CHECK(cudaStreamSynchronize(g->dev->stream));
	DLB_CHECK(spot_check_reference(s, &a));
	void *rps[MAX_SETS], *cols[MAX_SETS], *vals[MAX_SETS], *bs[MAX_SETS], *cs[MAX_SETS];
	for (int i = 0; i < s->nsets; i++) {
		rps[i] = s->rp[i];
		cols[i] = col_of(s, i);
		vals[i] = val_of(s, i);
		bs[i] = s->B[i];
		cs[i] = s->C[i];
	}
	DLB_CHECK(dlb_cusparse_mm_open(s->shared->sp, s->m, s->n, s->k, s->nnz, s->es == 2, s->nsets, rps, cols, vals, bs,
				       cs, &s->cs));
	s->cs_open = 1;
	if (br > 1 || bc > 1) { /* a block pattern: cuSPARSE's block formats too, where its blocks fit them */
		int brc = br == bc && s->m % br == 0 && s->k % br == 0 ? build_blocks(s, &a, br) : DLB_E_USAGE;
		if (brc == DLB_E_USAGE || brc == DLB_E_VENDOR) { /* none for this matrix: said in its statistics */
			if (br != bc)
				snprintf(s->blocks_why, sizeof s->blocks_why, "blocks not square");
			else if (s->m % br || s->k % br)
				snprintf(s->blocks_why, sizeof s->blocks_why, "M, K not multiples of %d", br);
			else
				dlb_last_error_brief("cusparse", s->blocks_why, sizeof s->blocks_why);
			dlb_clear_error();
		} else
			DLB_CHECK(brc);
	}
	/* the dense baseline: row-major C = A·B is column-major C^T = B^T·A^T, with B as cuBLAS's A (fp16: half in
	 * and out, fp32 compute) */
	if (s->es == 2)
		dlb_blas_gemm_fp16(&s->dense, 0, 0, s->n, s->m, s->k, 0);
	else
		dlb_blas_gemm_fp32(&s->dense, 0, 0, s->n, s->m, s->k);
	const size_t es = (size_t)s->es;
	s->io = (struct dlb_gemm_io){.classic = s->es == 2 ? "cublasGemmEx" : "cublasSgemm", .g = g,
				     .handles = &s->shared->blas, .blas = &s->dense, .nsets = s->nsets, .a_bytes = nb * es,
				     .c_bytes = nc * es, .check = check, .state = s, .keep = &s->keep};
	/* the floor reads B and what CSR holds (val, col, row_ptr) and writes C once */
	s->io.b_bytes = nz * (es + 4) + ((size_t)s->m + 1) * 4;
	if (s->io.b_bytes > (size_t)s->m * (size_t)s->k * es)
		s->io.b_bytes = (size_t)s->m * (size_t)s->k * es; /* within the dense A it is given */
	for (int i = 0; i < s->nsets; i++) {
		s->io.A[i] = s->B[i];
		s->io.C[i] = s->C[i];
	}
	free(rp32);
	free(hval);
	dlb_csr_free(&a);
	*state = s;
	return 0;
fail:
	free(rp32);
	free(hval);
	dlb_csr_free(&a);
	s_teardown(s);
	*state = NULL;
	return rc;
}

static int s_nsets(void *state)
{
	return ((struct spmm_state *)state)->nsets;
}

static int pow2_at_least(int n)
{
	int p = 1;
	while (p < n && p < (1 << 30))
		p *= 2;
	return p;
}

/* KIND 3 copies B's slabs with the tensor copy engine (templates/spmm.cu's k3_issue) on sm_90 and later where a
 * line of B is a multiple of 16 bytes; otherwise its kernel loads them itself and takes zeros for the map. */
static int k3_tma_applies(const struct spmm_state *s)
{
	return s->g->dev->cc_major >= 9 && (s->n * s->es) % 16 == 0;
}

static int k3_box_of(const int *v)
{
	return (v[S_VN] == 8) * SEG_BKS + seg_format_of(v) % SEG_BKS;
}

/* The tensor maps of B for v's slabs on every set: N elements a line, K lines, boxes of 32·VN x BK, no swizzle,
 * zeros outside. */
static int k3_maps(struct spmm_state *s, const int *v)
{
	int rc = 0;
	int box = k3_box_of(v);
	struct dlb_tmap m;
	for (int i = 0; i < s->nsets; i++) {
		DLB_CHECK(dlb_tmap_2d_plain(&m, s->es, s->B[i], (uint64_t)s->n, (uint64_t)s->k, (uint64_t)s->n * s->es,
					    (uint32_t)(32 * v[S_VN]), (uint32_t)v[S_BK]));
		memcpy(s->k3_tm[box][i], &m, sizeof m);
	}
	s->k3_tm_ok[box] = 1;
fail:
	return rc;
}

/* Whether a configuration is worth a launch on this problem: KIND 0 for N up to 16 with no more columns a lane
 * than N; KIND 1 with no more columns a group than N (to the next power of two): idle lanes otherwise; KIND 2
 * where a warp's 32·VN columns are at least half used; KIND 6 on the BSR copy of its block side, where a block's
 * WARPS·32·VN columns are at least half used (fp16's KIND 7 likewise). One launch each (no launch-time variants). */
static int s_variants(void *state, const struct dlb_candidate *c, int *values, int max)
{
	struct spmm_state *s = state;
	const int *v = c->cfg.v;
	int n2 = pow2_at_least(s->n);
	int ok = v[S_KIND] == 0   ? s->n <= 16 && v[S_VN] <= n2
		 : v[S_KIND] == 4 ? s->col16_built && s->n <= 16 && v[S_VN] <= n2
		 : v[S_KIND] == 1 ? v[S_TPR] * v[S_VN] <= n2
		 : v[S_KIND] == 3 ? s->segs_built && seg_format_of(v) >= 0 && 2 * s->n >= 32 * v[S_VN]
		 : v[S_KIND] == 5 ? s->tiles_built && tile_format_of(v) >= 0 && 8 * v[S_VN] <= (n2 > 8 ? n2 : 8)
		 : v[S_KIND] >= 6 ? s->blocks_bs == v[S_RPW] && 2 * s->n >= 32 * v[S_VN] * v[S_WARPS]
				  : 2 * s->n >= 32 * v[S_VN];
	if (!ok || max < 1)
		return 0;
	/* KIND 3's tensor maps, encoded now (never inside a timed launch); s_launch tries again and fails with the
	 * error */
	if (v[S_KIND] == 3 && k3_tma_applies(s) && !s->k3_tm_ok[k3_box_of(v)] && k3_maps(s, v))
		dlb_clear_error();
	values[0] = 1;
	return 1;
}

static void grid_of(const struct spmm_state *s, const int *v, unsigned *gx, unsigned *gy)
{
	int64_t rows = v[S_KIND] == 5 ? (int64_t)v[S_WARPS] * 16 * v[S_RPW]
		       : v[S_KIND] >= 6 ? v[S_RPW]
		       : slabbed(v)     ? (int64_t)v[S_WARPS] * v[S_RPW]
					: 32 * (int64_t)v[S_WARPS] / v[S_TPR];
	int64_t cols = v[S_KIND] == 0 || v[S_KIND] == 4 ? v[S_VN]
		       : v[S_KIND] == 1                 ? (int64_t)v[S_TPR] * v[S_VN]
		       : v[S_KIND] == 5                 ? 8 * (int64_t)v[S_VN]
		       : v[S_KIND] >= 6                 ? 32 * (int64_t)v[S_WARPS] * v[S_VN]
							: 32 * (int64_t)v[S_VN];
	int64_t x = (s->m + rows - 1) / rows, y = (s->n + cols - 1) / cols;
	*gx = (unsigned)x; /* m < 2^31 */
	*gy = (unsigned)(y < 65535 ? y : 65535); /* the kernels loop over the rest */
}

/* KIND 3's segment buffer in units of 16 bytes a warp (the longest segment, and a spare unit the kernel may
 * read past its last) and its whole dynamic shared memory. */
static int seg_span16(const struct spmm_state *s, const int *v)
{
	return s->seg[seg_format_of(v)].max16 + 1;
}

static size_t seg_smem(const struct spmm_state *s, const int *v)
{
	return slab_smem(v, s->es) + 2 * (size_t)v[S_WARPS] * (size_t)seg_span16(s, v) * 16 + 128; /* + 128: to align */
}

/* KIND 3's launch (templates/spmm.cu's k3_work): units of WARPS groups (a row block of a chunk), whole blocks for
 * every wave the SMs run full; the last wave's groups, where it would leave SMs idle, shared out in pieces of
 * tail_h groups a block (the smallest that gives no SM two), none across a chunk; tail_h 0 where no piece
 * smaller than a block fits. A piece's warps each walk a group, as in a whole block, with fewer warps beside
 * them on their SM: never slower than the whole block it replaces. *blocks: the grid. */
static int k3_schedule(struct spmm_state *s, const struct dlb_candidate *c, int *full, int *tail_h, unsigned *blocks)
{
	int rc = 0;
	const int *v = c->cfg.v, warps = v[S_WARPS];
	const int64_t groups = (s->m + v[S_RPW] - 1) / v[S_RPW], gx = (groups + warps - 1) / warps;
	const int64_t chunks = (s->n + 32 * v[S_VN] - 1) / (32 * v[S_VN]), units = gx * chunks;
	if (units > INT_MAX || groups > INT_MAX)
		DLB_FAIL(DLB_E_LIMIT, "%s: %lld blocks of %d rows and %d columns, more than a launch takes", c->text,
			 (long long)units, warps * v[S_RPW], 32 * v[S_VN]);
	size_t smem = seg_smem(s, v);
	if (s->k3_occ_k != c->kernels[0] || s->k3_occ_threads != 32 * warps || s->k3_occ_regs != c->attrs.numRegs ||
	    s->k3_occ_static != c->attrs.sharedSizeBytes || s->k3_occ_smem != smem) {
		s->k3_occ_k = NULL; /* until the query succeeds */
		CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&s->k3_occ, (const void *)c->kernels[0],
									  32 * warps, smem));
		s->k3_occ_k = c->kernels[0];
		s->k3_occ_threads = 32 * warps;
		s->k3_occ_regs = c->attrs.numRegs;
		s->k3_occ_static = c->attrs.sharedSizeBytes;
		s->k3_occ_smem = smem;
	}
	*full = (int)units;
	*tail_h = 0;
	*blocks = (unsigned)units;
	const int64_t slots = (int64_t)s->k3_occ * s->g->dev->sm_count, f = slots > 0 ? units / slots * slots : units;
	if (f == units)
		return 0;
	int64_t tail = 0; /* the groups past the full blocks: each chunk's from where they stop */
	for (int64_t y = f / gx; y < chunks; y++)
		tail += groups - (y == f / gx ? f % gx * warps : 0);
	for (int64_t h = (tail + slots - 1) / slots; h < warps; h++) {
		int64_t pieces = 0;
		for (int64_t y = f / gx; y < chunks; y++)
			pieces += (groups - (y == f / gx ? f % gx * warps : 0) + h - 1) / h;
		if (pieces <= slots) {
			*full = (int)f;
			*tail_h = (int)h;
			*blocks = (unsigned)(f + pieces);
			return 0;
		}
	}
fail:
	return rc;
}

static int s_launch(void *state, const struct dlb_candidate *c, int variant, int set)
{
	struct spmm_state *s = state;
	(void)variant;
	unsigned gx, gy;
	grid_of(s, c->cfg.v, &gx, &gy);
	if (c->cfg.v[S_KIND] == 3) {
		int f = seg_format_of(c->cfg.v), span16 = seg_span16(s, c->cfg.v), box = k3_box_of(c->cfg.v);
		unsigned *off = s->seg[f].off[set];
		void *data = s->seg[f].data[set];
		void *B = s->B[set], *C = s->C[set];
		struct dlb_tmap tm; /* an aligned copy for the launch's parameters */
		memset(&tm, 0, sizeof tm);
		if (k3_tma_applies(s)) {
			int rc = s->k3_tm_ok[box] ? 0 : k3_maps(s, c->cfg.v); /* s_variants encoded them, or failed to */
			if (rc)
				return rc;
			memcpy(&tm, s->k3_tm[box][set], sizeof tm);
		}
		int full = 0, tail_h = 0;
		unsigned blocks = 0;
		int rc = k3_schedule(s, c, &full, &tail_h, &blocks);
		if (rc)
			return rc;
		void *args[] = {&off, &data, &span16, &B, &C, &s->m, &s->n, &s->k, &full, &tail_h, &tm};
		return dlb_launch(c->kernels[0], (dim3){blocks, 1, 1}, (dim3){32 * (unsigned)c->cfg.v[S_WARPS], 1, 1},
				  seg_smem(s, c->cfg.v), s->g->dev->stream, args);
	}
	if (c->cfg.v[S_KIND] == 5) {
		int f = tile_format_of(c->cfg.v);
		uint32_t *off = s->tile[f].off[set], *ent = s->tile[f].ent[set];
		void *B = s->B[set], *C = s->C[set];
		void *args[] = {&off, &ent, &B, &C, &s->m, &s->n, &s->k};
		return dlb_launch(c->kernels[0], (dim3){gx, gy, 1}, (dim3){32 * (unsigned)c->cfg.v[S_WARPS], 1, 1},
				  h_dyn_smem(c->cfg.v), s->g->dev->stream, args);
	}
	if (c->cfg.v[S_KIND] >= 6) { /* the BSR copy (s_variants: its block side is RPW) */
		void *rp = s->bsr_rp[set], *col = s->bsr_col[set], *val = s->bsr_val[set], *B = s->B[set], *C = s->C[set];
		void *args[] = {&rp, &col, &val, &B, &C, &s->m, &s->n, &s->k};
		return dlb_launch(c->kernels[0], (dim3){gx, gy, 1}, (dim3){32 * (unsigned)c->cfg.v[S_WARPS], 1, 1}, 0,
				  s->g->dev->stream, args);
	}
	int *rp = s->rp[set];
	void *col = c->cfg.v[S_KIND] == 4 ? (void *)s->col16[set] : (void *)col_of(s, set);
	void *val = val_of(s, set), *B = s->B[set], *C = s->C[set];
	void *args[] = {&rp, &col, &val, &B, &C, &s->m, &s->n, &s->k};
	return dlb_launch(c->kernels[0], (dim3){gx, 1 * gy, 1}, (dim3){32 * (unsigned)c->cfg.v[S_WARPS], 1, 1},
			  slab_smem(c->cfg.v, s->es), s->g->dev->stream, args);
}

/* Set 0's C (row-major M×N: column-major N×M) against the reference; also the dense runner's check. fp16: the
 * output's rounding to half allowed beside fp32's (dlb_compare_f16). */
static int check(void *state, struct dlb_check *out)
{
	struct spmm_state *s = state;
	if (s->es == 2)
		return dlb_compare_f16(s->g, s->C[0], s->n, s->ref, s->n, s->n, s->m, s->tol, out);
	return dlb_compare_f32(s->g, s->C[0], s->n, s->ref, s->n, s->n, s->m, s->tol, out);
}

static int s_verify(void *state, const struct dlb_candidate *c, int variant, struct dlb_check *out)
{
	int rc = 0;
	struct spmm_state *s = state;
	if (c->cfg.v[S_KIND] == 3) { /* its segments' buffers come with the matrix */
		size_t need = seg_smem(s, c->cfg.v);
		if (need + c->attrs.sharedSizeBytes > s->g->dev->smem_per_block_optin)
			DLB_FAIL(DLB_E_LIMIT, "%s: %zu bytes of shared memory with this matrix's segments, the device allows %zu",
				 c->text, need + (size_t)c->attrs.sharedSizeBytes, s->g->dev->smem_per_block_optin);
		DLB_CHECK(dlb_kernel_allow_smem(c->kernels[0], need));
	}
	DLB_CHECK(dlb_poison(s->g, s->C[0], (size_t)s->m * (size_t)s->n * (size_t)s->es));
	DLB_CHECK(s_launch(state, c, variant, 0));
	DLB_CHECK(check(s, out));
fail:
	return rc;
}

static int cusparse_launch(void *state, int set)
{
	struct spmm_state *s = state;
	return dlb_cusparse_run(&s->cs, s->cur, set);
}

static int cusparse_prep(void *state, int set)
{
	struct spmm_state *s = state;
	return dlb_cusparse_preprocess(&s->cs, s->cur, set);
}

/* cuSPARSE's algorithm i: prepared on every set, its preprocessing timed once, verified like a candidate, then
 * timed by the same harness on the same sets; an entry without a time that gives cuSPARSE's answer where it
 * has no such algorithm for the case or any of its calls fails (a CUDA error still ends the problem). */
static int cusparse_entry(struct spmm_state *s, const struct dlb_bench_opts *o, int i, struct dlb_vendor_entry *e)
{
	int rc = 0;
	struct dlb_check chk;
	double prep = NAN;
	memset(e, 0, sizeof *e);
	e->kind = SPMM_KIND_CUSPARSE;
	snprintf(e->name, sizeof e->name, "cusparse:%s", dlb_cusparse_algo_name(&s->cs, i));
	DLB_CHECK(dlb_cusparse_prepare(&s->cs, i));
	s->cur = i;
	DLB_CHECK(dlb_bench_once(&s->g->bench, cusparse_prep, s, 0, &prep));
	char form[48];
	dlb_cusparse_algo_form(&s->cs, i, form, sizeof form);
	snprintf(e->config, sizeof e->config, "%s, row-major B and C, buffer %zu bytes, preprocessing %.1f us", form,
		 s->cs.buf_bytes[i], prep);
	DLB_CHECK(dlb_poison(s->g, s->C[0], (size_t)s->m * (size_t)s->n * (size_t)s->es));
	DLB_CHECK(cusparse_launch(s, 0));
	DLB_CHECK(check(s, &chk));
	e->ok = chk.ok;
	if (chk.ok)
		DLB_CHECK(dlb_bench_time(&s->g->bench, cusparse_launch, s, s->nsets, o, &e->st));
fail:
	if (rc == DLB_E_VENDOR) { /* cuSPARSE refused this algorithm here: the entry says why, the others go on */
		char why[104];
		dlb_last_error_brief("cusparse", why, sizeof why);
		snprintf(e->config, sizeof e->config, "n/a: %s", why);
		memset(&e->st, 0, sizeof e->st);
		e->ok = 0;
		dlb_clear_error();
		rc = 0;
	}
	return rc;
}

/* The dense equivalent of A on every set, for dense cuBLAS (made once, on the first vendor call). */
static int make_dense(struct spmm_state *s)
{
	int rc = 0;
	size_t bytes = (size_t)s->m * (size_t)s->k * (size_t)s->es;
	for (int i = 0; i < s->nsets && !s->Ad[i]; i++) {
		DLB_CHECK(dlb_dev_alloc(&s->Ad[i], bytes));
		CUDA_CHECK(cudaMemsetAsync(s->Ad[i], 0, bytes, s->g->dev->stream));
		int *rp = s->rp[i], *col = col_of(s, i);
		void *val = val_of(s, i), *A = s->Ad[i];
		void *args[] = {&rp, &col, &val, &A, &s->m, &s->k};
		DLB_CHECK(dlb_launch(s->es == 2 ? s->shared->to_dense_h : s->shared->to_dense,
				     dlb_grid_for(s->m, 256, s->g->dev->sm_count), (dim3){256, 1, 1}, 0,
				     s->g->dev->stream, args));
		s->io.B[i] = s->Ad[i];
	}
fail:
	return rc;
}

/* Every cuSPARSE CSR algorithm, and on block patterns its block-format ones (kind 0: the baseline is their
 * fastest; the block ones take two of the entries the dense list could have), then dense cuBLAS on the dense A
 * (cublasSgemm and cuBLASLt's heuristic list through the GEMM family's runner, strict fp32; kind 1, shown and
 * never the baseline), then the stream floor (the runner's last entry). */
static int s_vendor(void *state, const struct dlb_bench_opts *o, struct dlb_vendor_entry *out, int max, int *n)
{
	int rc = 0, nd = 0;
	struct spmm_state *s = state;
	*n = 0;
	s->nent = 0;
	for (int i = 0; i < s->cs.nalgo && *n < max - 1; i++) {
		DLB_CHECK(cusparse_entry(s, o, i, &out[*n]));
		s->ent_sparse[*n] = 1;
		s->ent_index[(*n)++] = i;
	}
	DLB_CHECK(make_dense(s));
	DLB_CHECK(dlb_gemm_vendor(&s->io, s->io.classic, o, out + *n, max - *n, &nd));
	for (int j = 0; j < nd; j++) {
		struct dlb_vendor_entry *e = &out[*n];
		if (!e->is_floor) {
			char name[sizeof e->name];
			snprintf(name, sizeof name, "dense:%.40s", e->name);
			snprintf(e->name, sizeof e->name, "%s", name);
			e->kind = SPMM_KIND_DENSE;
			e->other_math = 1; /* another problem (the dense one): shown, never the baseline */
		}
		s->ent_sparse[*n] = 0;
		s->ent_index[(*n)++] = j;
	}
	s->nent = *n;
fail:
	return rc;
}

static int s_vendor_launch(void *state, int entry, int set)
{
	int rc = 0;
	struct spmm_state *s = state;
	if (entry < 0 || entry >= s->nent)
		DLB_FAIL(DLB_E_USAGE, "no vendor entry %d on this problem", entry);
	if (!s->ent_sparse[entry])
		return dlb_gemm_vendor_launch(&s->io, s->ent_index[entry], set);
	s->cur = s->ent_index[entry];
	DLB_CHECK(dlb_cusparse_select(&s->cs, s->cur)); /* the paired timing runs after every algorithm's entry */
	rc = cusparse_launch(s, set);
fail:
	return rc;
}

/* The matrix as generated: "A: 1966080 nonzeros (10.00%), rows of 181-334 (mean 256.0), 0 empty; 15.8 MB as CSR" */
static void s_data_note(void *state, char *buf, int len)
{
	const struct spmm_state *s = state;
	const struct dlb_csr_stats *t = &s->stats;
	int off = snprintf(buf, (size_t)len,
			   "A: %lld nonzeros (%.2f%%), rows of %lld-%lld (mean %.1f), %lld empty; %.1f MB as CSR",
			   (long long)t->nnz, 100.0 * (1.0 - t->sparsity), (long long)t->shortest_row,
			   (long long)t->longest_row, t->mean_row, (long long)t->empty_rows,
			   ((double)t->nnz * (s->es + 4) + ((double)s->m + 1) * 4) / 1e6);
	if (s->segs_built && off >= 0 && off < len)
		off += snprintf(buf + off, (size_t)(len - off), "; KIND 3's segmented copies %.1f MB, built in %.0f ms on the host",
				(double)s->segs_bytes / 1e6, s->segs_ms);
	if (s->segs_left_out > 0 && off >= 0 && off < len)
		off += snprintf(buf + off, (size_t)(len - off), "; KIND 3 left out: its segmented copies would take %.1f GB",
				s->segs_left_out / 1e9);
	if (s->col16_built && off >= 0 && off < len)
		off += snprintf(buf + off, (size_t)(len - off), "; KIND 4's 16-bit columns %.1f MB, made in %.1f ms on the host",
				(double)s->nnz * 2 / 1e6, s->col16_ms);
	if (s->tiles_built && off >= 0 && off < len)
		off += snprintf(buf + off, (size_t)(len - off), "; KIND 5's tiled copies %.1f MB, built in %.0f ms on the host",
				(double)s->tiles_bytes / 1e6, s->tiles_ms);
	if (s->tiles_left_out > 0 && off >= 0 && off < len)
		off += snprintf(buf + off, (size_t)(len - off), "; KIND 5 left out: its tiled copies would take %.1f GB",
				s->tiles_left_out / 1e9);
	if (s->blocks_bs && off >= 0 && off < len)
		off += snprintf(buf + off, (size_t)(len - off), "; cuSPARSE's %s %dx%d copies %.1f MB, built in %.0f ms on the host%s",
				s->es == 2 ? "BSR/ELL" : "BSR", s->blocks_bs, s->blocks_bs, (double)s->blocks_bytes / 1e6,
				s->blocks_ms,
				s->blocks_bs >= 8 && s->es == 2 ? " (KIND 6 and 7 read the BSR one)"
				: s->blocks_bs >= 4              ? " (KIND 6 reads the BSR one)"
								 : "");
	if (s->blocks_why[0] && off >= 0 && off < len)
		snprintf(buf + off, (size_t)(len - off), "; no cuSPARSE BSR/ELL: %s", s->blocks_why);
}

/* What the two precisions' ops share: the space, the hooks (the state knows its element size). */
#define SPMM_OP_COMMON                                                                                            \
	.name = "spmm", .family = &dlb_family_spmm, .template_file = "spmm.cu", .kernel_names = s_kernels,           \
	.nkernels = 1, .ndyn_kernels = 1, .nlimit_checks = 2, .device_bytes = s_device_bytes, .setup = s_setup,      \
	.variants = s_variants,                                                                                      \
	.nsets = s_nsets, .launch = s_launch, .verify = s_verify, .vendor = s_vendor, .vendor_launch = s_vendor_launch, \
	.data_note = s_data_note, .teardown = s_teardown

_Static_assert(sizeof s_limit_checks / sizeof s_limit_checks[0] == 2 &&
		       sizeof h_limit_checks / sizeof h_limit_checks[0] == 2,
	       "SPMM_OP_COMMON's nlimit_checks");

const struct dlb_op dlb_op_spmm = {
	SPMM_OP_COMMON,
	.prec = DLB_PREC_FP32,
	.es_in = 4,
	.es_out = 4,
	.space = {s_params, S_NPARAMS, s_constraints, sizeof s_constraints / sizeof s_constraints[0]},
	.summary = "sparse (CSR) times dense on the CUDA cores: nonzero-split, column-split and shared-memory-slab kernels "
		   "(A as CSR, with 16-bit columns, or slab-segmented), and on block patterns a BSR kernel",
	.dyn_smem = s_dyn_smem,
	.limit_checks = s_limit_checks,
};

const struct dlb_op dlb_op_spmm_fp16 = {
	SPMM_OP_COMMON,
	.prec = DLB_PREC_FP16,
	.es_in = 2,
	.es_out = 2,
	.space = {h_params, S_NPARAMS, h_constraints, sizeof h_constraints / sizeof h_constraints[0]},
	.summary = "sparse (CSR) times dense with A's values, B and C in fp16 and fp32 sums: the fp32 op's kernels reading "
		   "and writing half, the tensor cores on A made dense in shared memory a slice at a time, and on block "
		   "patterns the tensor cores on A's BSR blocks",
	.defines = "#define SPMM_FP16 1\n",
	.dyn_smem = h_dyn_smem,
	.limit_checks = h_limit_checks,
};
