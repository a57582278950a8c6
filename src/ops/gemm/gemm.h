/* ops/gemm: dense GEMM, C = op(A) · op(B), column-major (DeepBench / cuBLAS convention): the family
 * (family.c) and its fp32 op on the CUDA cores (gemm.c); the tensor-core ops are in gemm_tc.c. */
#ifndef DLB_OPS_GEMM_H
#define DLB_OPS_GEMM_H
#include "../../op.h"
#include "vendor_cublas.h"

extern const struct dlb_family dlb_family_gemm;
extern const struct dlb_op dlb_op_gemm;

/* The problem's dims, in the order of struct dlb_problem's dim[]. */
enum { GEMM_M, GEMM_N, GEMM_K, GEMM_TA, GEMM_TB, GEMM_NDIMS };
#define GM(p) ((p)->dim[GEMM_M])
#define GN(p) ((p)->dim[GEMM_N])
#define GK(p) ((p)->dim[GEMM_K])
#define GTA(p) ((int)(p)->dim[GEMM_TA]) /* 1: A stored transposed (cuBLAS's sense, as DeepBench's a_t) */
#define GTB(p) ((int)(p)->dim[GEMM_TB])

/* The layouts as source specialisations (op.h's nspecs): candidate sources for one layout, whose three other
 * layout kernels trap (the templates' ONLY macro), compile in about a third of the time of all four. The
 * index is ta * 2 + tb (the kernels gemm_nn, gemm_nt, gemm_tn, gemm_tt); a fifth has NN and TN, for wgmma
 * blocks that run either (gemm_tc.c's tc_spec_of). */
#define GEMM_SPECS 5
#define GEMM_SPEC_NN_TN 4
extern const char *const dlb_gemm_spec_defines[GEMM_SPECS];
extern const char *const dlb_gemm_spec_names[GEMM_SPECS];
int dlb_gemm_spec_of(const struct dlb_problem *p, const int *v); /* the problem's own layout */
int dlb_gemm_spec_used(const struct dlb_op *op, int s, const int *v); /* the four single layouts */

/* The M, N and K a problem runs with (int8: padded up to multiples of 4). */
void dlb_gemm_run_shape(const struct dlb_problem *p, int64_t *m, int64_t *n, int64_t *k);

/* Split-K workspace of 4-byte partials (fp32, int32) for need elements, grown here, never inside a timed region:
 * 0, or DLB_E_LIMIT when the device has no room (then the op runs without split-K). */
int dlb_gemm_ws_reserve(void **ws, size_t *elems, size_t need);

/* The kinds of the vendor entries (the family's columns): the classic entry point, and cuBLASLt's algorithms. */
enum { DLB_GEMM_KIND_CUBLAS, DLB_GEMM_KIND_LT, DLB_GEMM_KIND_TF32 };

/* What every GEMM op of a process shares (the family's state): cuBLAS handles and the reference kernels. */
struct dlb_gemm_shared {
	struct dlb_blas blas;
	struct dlb_module ref;
	cudaKernel_t ref_s8;
	int blas_open, ref_loaded;
};
int dlb_gemm_shared_of(struct dlb_gpu *g, struct dlb_gemm_shared **out);
/* C (int32, column-major, ld ldc) = op(A)·op(B) for int8 A and B: our exact reference where cuBLASLt has no
 * int8 algorithm. */
int dlb_gemm_ref_s8(struct dlb_gpu *g, int64_t M, int64_t N, int64_t K, const void *A, int64_t lda, int ta,
		    const void *B, int64_t ldb, int tb, int *C, int64_t ldc);

/* An IEEE half's value. */
double dlb_half_value(uint16_t h);
/* k elements of a device matrix of type t (fp32, fp16, int8, int32; column-major, leading dimension ld) as
 * doubles: line idx, contiguous (the column idx) or strided (the row idx, one 2-D copy); tmp holds k elements
 * of t. Row i of op(A) is contiguous where A is stored transposed; column j of op(B) where B is not. */
int dlb_gemm_read_k(const void *base, int64_t ld, int contiguous, int64_t idx, int64_t k, cudaDataType_t t, void *tmp,
		    double *out);
/* The error of C (what last ran into it) at 16 outputs of the problem's first m x n (the real ones, not the
 * padding), chosen by seed, against the exact sum in double of the inputs (struct dlb_rel_err). g gives the
 * layouts and element types (fp32, fp16, int8 in; fp32, fp16, int32 out). */
int dlb_gemm_sample_errors(const struct dlb_blas_gemm *g, int64_t m, int64_t n, const void *A, const void *B,
			   const void *C, uint64_t seed, struct dlb_rel_err *out);

/* The verification's referee, for fp32 C (m x n, leading dimension m) against an fp32 reference: on a near
 * miss (no non-finite output, max_err within 2 tol), each element off the reference by more than tol, if
 * there are at most 64, is recomputed in double from A and B (g: layouts, types, k) and judged against that
 * instead. The reference is an fp32 sum too, and over ~10^7 outputs its own error can reach the tolerance
 * (NOTES item 84). c is updated: ok, bad (elements off the exact sum by more than tol), max_err (those against
 * the exact sum, the others against the reference) and refereed; anything else leaves it as it was. */
int dlb_gemm_referee(const struct dlb_blas_gemm *g, int64_t m, int64_t n, const void *A, const void *B,
		     const float *C, const float *ref, struct dlb_check *c);
/* The referee's scan of one piece of host copies (n outputs of C and the reference from element base on): the
 * largest |c - r| within tol raises *worst; the indices of the outputs beyond tol (NaN too) go to at[] while
 * fewer than max are there, and *nat counts them, up to max + 1 (then the scan stops: too many to referee). */
void dlb_gemm_scan_misses(const float *c, const float *r, size_t n, size_t base, double tol, size_t *at, int max,
			  int *nat, double *worst);

/* Indices of the tunables in a configuration. */
enum {
	GEMM_BM,
	GEMM_BN,
	GEMM_BK,
	GEMM_TM,
	GEMM_TN,
	GEMM_KIND,
	GEMM_KS,
	GEMM_KU,
	GEMM_L2PF,
	GEMM_WGS,
	GEMM_STAGES,
	GEMM_ASPLIT,
	GEMM_NPARAMS
};
/* fp32's kernel families (GEMM_KIND): FFMA tiles, 3xTF32 on wgmma, skinny products for a few columns of C, and
 * FFMA tiles fed by the tensor copy engine */
enum { GEMM_KIND_TILE = 0, GEMM_KIND_TF32X3 = 1, GEMM_KIND_SKINNY = 2, GEMM_KIND_TMA_TILE = 3 };
/* Split-K factors a configuration may run with on problem p (1 first, then the powers of two the split rule
 * allows, ascending); returns the count. fill: also, between two such powers, the factor that best fills the SMs
 * where it beats both (fp32's families, for grids of few tiles; docs/NOTES.md item 266). */
int dlb_gemm_splits(const struct dlb_problem *p, const int *v, int sm_count, int fill, int *splits, int max);

#define DLB_GEMM_MAX_SETS 8 /* input sets a GEMM op rotates over (see each op's sets_for) */

/* What dlb_gemm_vendor leaves in the op's state so that one of its entries can be run again (the side-by-side
 * timing after the search): the cuBLASLt plan, and what each entry ran. Released by dlb_gemm_vendor_free. */
struct dlb_gemm_vendor_keep {
	struct dlb_lt_plan plan;
	struct dlb_lt_tn tn; /* int8 in another layout than TN: the operands transposed for cuBLASLt's TN algorithms */
	struct dlb_blas_gemm tf32; /* fp32: the same GEMM in CUBLAS_COMPUTE_32F_FAST_TF32 */
	int n;
	int algo[DLB_RESULT_MAX_VENDOR]; /* per entry: -1 the classic entry point, >= 0 a cuBLASLt algorithm, -2 the
	                                  * stream floor, DLB_GEMM_TF32_ENTRY cuBLAS in TF32 math,
	                                  * DLB_GEMM_TN_ENTRY + a: algorithm a of the TN route */
};
#define DLB_GEMM_TF32_ENTRY (-3)
#define DLB_GEMM_TN_ENTRY 100
#define DLB_GEMM_TN_ALGOS 4 /* TN algorithms timed (of cuBLASLt's heuristic list, best first) */

/* What a GEMM op's cuBLAS baselines run on: the op's own input sets and outputs, and how the op verifies
 * C[0] against its reference. */
struct dlb_gemm_io {
	const char *classic;              /* the classic entry point's name: cublasSgemm, cublasGemmEx */
	struct dlb_gpu *g;
	struct dlb_blas *handles;         /* the family's cuBLAS handles */
	const struct dlb_blas_gemm *blas; /* the vendor's GEMM, with the op's types */
	int nsets;
	void *A[DLB_GEMM_MAX_SETS], *B[DLB_GEMM_MAX_SETS], *C[DLB_GEMM_MAX_SETS];
	size_t a_bytes, b_bytes; /* of one input set (what the stream floor reads) */
	size_t c_bytes; /* of one output: poisoned before each verification */
	const void *ref; /* the reference C[0] is checked against (fp32 and fp16 ops: float; int8: int32), m x n,
	                  * leading dimension m: for diagnostics (tests/gpu_gemm_verify's DLB_VERIFY_EXPLAIN) */
	int (*check)(void *state, struct dlb_check *out);
	int (*accuracy)(void *state, struct dlb_rel_err *out); /* the op's accuracy hook, run on each verified entry */
	int (*check_tf32)(void *state, struct dlb_check *out); /* fp32: C[0] against TF32's tolerance; NULL: no TF32
	                                                        * entry */
	void *state;
	struct dlb_gemm_vendor_keep *keep; /* in the op's state: what the baselines ran, to run an entry again */
};
/* The baselines, each verified like the op's candidates and then timed by the same harness on the same
 * buffers: the classic entry point (named name: cublasSgemm, cublasGemmEx; left out where cuBLAS answers
 * that it has no kernel for the case) and each of cuBLASLt's heuristic algorithms, at most max entries;
 * the last entry is the stream floor (is_floor: dlb_stream_floor on the same sets, not a GEMM). */
int dlb_gemm_vendor(const struct dlb_gemm_io *io, const char *name, const struct dlb_bench_opts *o,
		    struct dlb_vendor_entry *out, int max, int *n);
/* Run entry `entry` of the last dlb_gemm_vendor on this problem once, on input set `set` (an op's
 * vendor_launch); DLB_E_USAGE when there is no such entry. */
int dlb_gemm_vendor_launch(const struct dlb_gemm_io *io, int entry, int set);
void dlb_gemm_vendor_free(struct dlb_gemm_vendor_keep *keep);
/* An op's vendor and vendor_launch hooks, for GEMM ops whose state begins with its struct dlb_gemm_io (filled
 * at setup): both GEMM ops' baselines through one runner. */
int dlb_gemm_op_vendor(void *state, const struct dlb_bench_opts *o, struct dlb_vendor_entry *out, int max, int *n);
int dlb_gemm_op_vendor_launch(void *state, int entry, int set);
#endif
