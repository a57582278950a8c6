/* ops/sparse/vendor_cusparse: cuSPARSE's baselines for C = A·B with A in CSR — cusparseSpMV (N = 1) or
 * cusparseSpMM (row-major B and C) with each CSR algorithm the installed version offers, buffers sized as it
 * asks, its preprocessing run (and timed by the caller) before any timed run, on every input set; and, where A
 * is made of square blocks, its block-format SpMM algorithms on copies of A in BSR and Blocked-ELL. */
#ifndef DLB_VENDOR_CUSPARSE_H
#define DLB_VENDOR_CUSPARSE_H
#include <cuda_runtime.h>
#include <cusparse.h>
#include <stddef.h>

/* Every cuSPARSE call: the statement and file:line on failure (src/err.h's form). */
#define CUSPARSE_CHECK(call)                                                                   \
	do {                                                                                   \
		cusparseStatus_t e_ = (call);                                                  \
		if (e_ != CUSPARSE_STATUS_SUCCESS)                                             \
			DLB_FAIL(DLB_E_VENDOR, "%s: %s", #call, cusparseGetErrorName(e_));     \
	} while (0)

#define DLB_CUSPARSE_MAX_SETS 4
#define DLB_CUSPARSE_MAX_ALGOS 6 /* CSR's four, BSR's and (fp16) Blocked-ELL's */

/* The format of A an algorithm reads */
enum { DLB_CUSPARSE_CSR, DLB_CUSPARSE_BSR, DLB_CUSPARSE_ELL };

/* One problem's descriptors, per input set, and per algorithm its buffers. */
struct dlb_cusparse_mm {
	cusparseHandle_t h;
	int m, n, k, nnz, nsets, vec; /* vec: N = 1, SpMV (the CSR algorithms) */
	int half, bs;                 /* bs: the block formats' block side (0: none added) */
	void *b[DLB_CUSPARSE_MAX_SETS], *c[DLB_CUSPARSE_MAX_SETS];
	cusparseSpMatDescr_t a[DLB_CUSPARSE_MAX_SETS];
	cusparseSpMatDescr_t ab[DLB_CUSPARSE_MAX_SETS], ae[DLB_CUSPARSE_MAX_SETS]; /* A in BSR, in Blocked-ELL */
	cusparseDnMatDescr_t bm[DLB_CUSPARSE_MAX_SETS], cm[DLB_CUSPARSE_MAX_SETS];
	cusparseDnVecDescr_t bv[DLB_CUSPARSE_MAX_SETS], cv[DLB_CUSPARSE_MAX_SETS];
	int nalgo;
	int algo[DLB_CUSPARSE_MAX_ALGOS];  /* cusparseSpMVAlg_t or cusparseSpMMAlg_t */
	int fmt[DLB_CUSPARSE_MAX_ALGOS];   /* DLB_CUSPARSE_CSR, _BSR or _ELL */
	size_t buf_bytes[DLB_CUSPARSE_MAX_ALGOS];
	void *buf[DLB_CUSPARSE_MAX_ALGOS][DLB_CUSPARSE_MAX_SETS];
	int ready[DLB_CUSPARSE_MAX_ALGOS]; /* buffers allocated and preprocessed */
	int pre[DLB_CUSPARSE_MAX_SETS];    /* the algorithm each set's A was last preprocessed for (-1: none) */
};

int dlb_cusparse_open(cudaStream_t stream, cusparseHandle_t *h);
void dlb_cusparse_close(cusparseHandle_t h);
/* Descriptors for set i of nsets: A (m×k, nnz, int32 indices) in row_ptr[i], col[i], val[i]; B (k×n) and C
 * (m×n) row-major in b[i] and c[i]; the values, B and C in fp32, or in fp16 where half (the compute type fp32
 * in both); the algorithms this cuSPARSE offers for CSR in that form. */
int dlb_cusparse_mm_open(cusparseHandle_t h, int m, int n, int k, int nnz, int half, int nsets, void *const *row_ptr,
			 void *const *col, void *const *val, void *const *b, void *const *c, struct dlb_cusparse_mm *s);
void dlb_cusparse_mm_close(struct dlb_cusparse_mm *s);
/* cuSPARSE's block-format algorithms added to s: BSR_ALG1 (SpMM, or SpMV where N = 1) on A in BSR (brows = m / bs
 * block rows, nnzb blocks of bs x bs, each row-major: row_ptr, col, val on every set) and, in fp16 only,
 * CUSPARSE_SPMM_BLOCKED_ELL_ALG1 on A in Blocked-ELL (ell_cols = the widest block row's blocks x bs: ind, val on
 * every set; SpMM with one column where N = 1). int32 indices, values in the precision s was opened with.
 * Blocked-ELL runs on the tensor cores only, so with fp32 values it would be TF32: not an fp32 baseline. */
int dlb_cusparse_mm_add_blocks(struct dlb_cusparse_mm *s, int bs, int64_t nnzb, int64_t ell_cols,
			       void *const *bsr_row_ptr, void *const *bsr_col, void *const *bsr_val,
			       void *const *ell_ind, void *const *ell_val);
/* "CSR_ALG2", "BSR_ALG1" */
const char *dlb_cusparse_algo_name(const struct dlb_cusparse_mm *s, int i);
/* What algorithm i runs on, into buf: "SpMV, CSR int32", "SpMM, BSR 4x4 int32", "SpMM, Blocked-ELL 4x4 int32" */
void dlb_cusparse_algo_form(const struct dlb_cusparse_mm *s, int i, char *buf, size_t len);
/* Size and allocate algorithm i's buffers on every set and run its preprocessing on each (once prepared: on the
 * sets last preprocessed for another algorithm): 0, or DLB_E_VENDOR with cuSPARSE's answer where it has no such
 * algorithm for this case. */
int dlb_cusparse_prepare(struct dlb_cusparse_mm *s, int i);
/* The preprocessing of algorithm i on set `set` again (what the caller times); 0 where there is none. */
int dlb_cusparse_preprocess(struct dlb_cusparse_mm *s, int i, int set);
/* Algorithm i's preprocessing again on every set whose A was last preprocessed for another (the descriptor keeps
 * the last one's analysis: run after another's, an algorithm was 6-7 us a call slower, run50's SpMV pairs). */
int dlb_cusparse_select(struct dlb_cusparse_mm *s, int i);
/* One run of algorithm i on set `set`: C = A·B. */
int dlb_cusparse_run(struct dlb_cusparse_mm *s, int i, int set);
#endif
