/* ops/sparse/vendor_cusparse: see vendor_cusparse.h. */
#include "vendor_cusparse.h"

#include "../../device.h"
#include "../../err.h"

#include <stdio.h>
#include <string.h>

static const float one = 1.0f, zero = 0.0f; /* the compute type is fp32 in both precisions */

int dlb_cusparse_open(cudaStream_t stream, cusparseHandle_t *h)
{
	int rc = 0;
	*h = NULL;
	CUSPARSE_CHECK(cusparseCreate(h));
	CUSPARSE_CHECK(cusparseSetStream(*h, stream));
	return 0;
fail:
	if (*h)
		cusparseDestroy(*h);
	*h = NULL;
	return rc;
}

void dlb_cusparse_close(cusparseHandle_t h)
{
	if (h)
		cusparseDestroy(h);
}

/* The CSR algorithms of cusparse.h (the COO, blocked-ELL, SELL and BSR ones need other formats). */
static const struct {
	int id;
	const char *name;
} spmv_algos[] = {{CUSPARSE_SPMV_ALG_DEFAULT, "ALG_DEFAULT"},
		  {CUSPARSE_SPMV_CSR_ALG1, "CSR_ALG1"},
		  {CUSPARSE_SPMV_CSR_ALG2, "CSR_ALG2"}},
  spmm_algos[] = {{CUSPARSE_SPMM_ALG_DEFAULT, "ALG_DEFAULT"},
		  {CUSPARSE_SPMM_CSR_ALG1, "CSR_ALG1"},
		  {CUSPARSE_SPMM_CSR_ALG2, "CSR_ALG2"},
		  {CUSPARSE_SPMM_CSR_ALG3, "CSR_ALG3"}};

/* Whether algorithm i runs as SpMV: N = 1 in CSR or BSR (Blocked-ELL has SpMM only: one column) */
static int is_spmv(const struct dlb_cusparse_mm *s, int i)
{
	return s->vec && s->fmt[i] != DLB_CUSPARSE_ELL;
}

/* A's descriptor for algorithm i on set `set` */
static cusparseSpMatDescr_t mat_of(const struct dlb_cusparse_mm *s, int i, int set)
{
	return s->fmt[i] == DLB_CUSPARSE_BSR ? s->ab[set] : s->fmt[i] == DLB_CUSPARSE_ELL ? s->ae[set] : s->a[set];
}

const char *dlb_cusparse_algo_name(const struct dlb_cusparse_mm *s, int i)
{
	if (i < 0 || i >= s->nalgo)
		return "?";
	if (s->fmt[i] == DLB_CUSPARSE_BSR)
		return "BSR_ALG1";
	if (s->fmt[i] == DLB_CUSPARSE_ELL)
		return "BLOCKED_ELL_ALG1";
	return s->vec ? spmv_algos[i].name : spmm_algos[i].name;
}

void dlb_cusparse_algo_form(const struct dlb_cusparse_mm *s, int i, char *buf, size_t len)
{
	if (i >= 0 && i < s->nalgo && s->fmt[i] != DLB_CUSPARSE_CSR)
		snprintf(buf, len, "%s, %s %dx%d int32", is_spmv(s, i) ? "SpMV" : "SpMM",
			 s->fmt[i] == DLB_CUSPARSE_BSR ? "BSR" : "Blocked-ELL", s->bs, s->bs);
	else
		snprintf(buf, len, "%s, CSR int32", s->vec ? "SpMV" : "SpMM");
}

void dlb_cusparse_mm_close(struct dlb_cusparse_mm *s)
{
	for (int i = 0; i < DLB_CUSPARSE_MAX_SETS; i++) {
		if (s->a[i])
			cusparseDestroySpMat(s->a[i]);
		if (s->ab[i])
			cusparseDestroySpMat(s->ab[i]);
		if (s->ae[i])
			cusparseDestroySpMat(s->ae[i]);
		if (s->bm[i])
			cusparseDestroyDnMat(s->bm[i]);
		if (s->cm[i])
			cusparseDestroyDnMat(s->cm[i]);
		if (s->bv[i])
			cusparseDestroyDnVec(s->bv[i]);
		if (s->cv[i])
			cusparseDestroyDnVec(s->cv[i]);
	}
	for (int a = 0; a < DLB_CUSPARSE_MAX_ALGOS; a++)
		for (int i = 0; i < DLB_CUSPARSE_MAX_SETS; i++)
			dlb_dev_free(s->buf[a][i]);
	memset(s, 0, sizeof *s);
}

int dlb_cusparse_mm_open(cusparseHandle_t h, int m, int n, int k, int nnz, int half, int nsets, void *const *row_ptr,
			 void *const *col, void *const *val, void *const *b, void *const *c, struct dlb_cusparse_mm *s)
{
	const cudaDataType t = half ? CUDA_R_16F : CUDA_R_32F;
	int rc = 0;
	memset(s, 0, sizeof *s);
	if (nsets < 1 || nsets > DLB_CUSPARSE_MAX_SETS)
		DLB_FAIL(DLB_E_USAGE, "%d input sets: cuSPARSE's baselines take 1..%d", nsets, DLB_CUSPARSE_MAX_SETS);
	s->h = h;
	s->m = m;
	s->n = n;
	s->k = k;
	s->nnz = nnz;
	s->nsets = nsets;
	s->half = half;
	for (int i = 0; i < nsets; i++) {
		s->pre[i] = -1;
		s->b[i] = b[i];
		s->c[i] = c[i];
	}
	s->vec = n == 1;
	for (int i = 0; i < nsets; i++) {
		CUSPARSE_CHECK(cusparseCreateCsr(&s->a[i], m, k, nnz, row_ptr[i], col[i], val[i], CUSPARSE_INDEX_32I,
						 CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, t));
		if (s->vec) {
			CUSPARSE_CHECK(cusparseCreateDnVec(&s->bv[i], k, b[i], t));
			CUSPARSE_CHECK(cusparseCreateDnVec(&s->cv[i], m, c[i], t));
		} else {
			CUSPARSE_CHECK(cusparseCreateDnMat(&s->bm[i], k, n, n, b[i], t, CUSPARSE_ORDER_ROW));
			CUSPARSE_CHECK(cusparseCreateDnMat(&s->cm[i], m, n, n, c[i], t, CUSPARSE_ORDER_ROW));
		}
	}
	s->nalgo = s->vec ? (int)(sizeof spmv_algos / sizeof spmv_algos[0]) : (int)(sizeof spmm_algos / sizeof spmm_algos[0]);
	for (int a = 0; a < s->nalgo; a++) {
		s->algo[a] = s->vec ? spmv_algos[a].id : spmm_algos[a].id;
		s->fmt[a] = DLB_CUSPARSE_CSR;
	}
	return 0;
fail:
	dlb_cusparse_mm_close(s);
	return rc;
}

int dlb_cusparse_mm_add_blocks(struct dlb_cusparse_mm *s, int bs, int64_t nnzb, int64_t ell_cols,
			       void *const *bsr_row_ptr, void *const *bsr_col, void *const *bsr_val,
			       void *const *ell_ind, void *const *ell_val)
{
	const cudaDataType t = s->half ? CUDA_R_16F : CUDA_R_32F;
	int rc = 0;
	/* Blocked-ELL's SpMM runs on the tensor cores only: with fp32 values that is TF32, which is not an fp32
	 * baseline, so it joins in fp16 alone */
	const int ell = s->half;
	if (bs < 2 || s->m % bs || s->k % bs || s->bs || s->nalgo + 1 + ell > DLB_CUSPARSE_MAX_ALGOS)
		DLB_FAIL(DLB_E_USAGE, "cuSPARSE's block formats: blocks of %d on a %dx%d matrix, %d algorithms", bs, s->m,
			 s->k, s->nalgo);
	s->bs = bs;
	for (int i = 0; i < s->nsets; i++) {
		CUSPARSE_CHECK(cusparseCreateBsr(&s->ab[i], s->m / bs, s->k / bs, nnzb, bs, bs, bsr_row_ptr[i], bsr_col[i],
						 bsr_val[i], CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
						 t, CUSPARSE_ORDER_ROW));
		if (!ell)
			continue;
		CUSPARSE_CHECK(cusparseCreateBlockedEll(&s->ae[i], s->m, s->k, bs, ell_cols, ell_ind[i], ell_val[i],
							CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, t));
		if (s->vec) { /* Blocked-ELL has no SpMV: SpMM with one column */
			CUSPARSE_CHECK(cusparseCreateDnMat(&s->bm[i], s->k, 1, 1, s->b[i], t, CUSPARSE_ORDER_ROW));
			CUSPARSE_CHECK(cusparseCreateDnMat(&s->cm[i], s->m, 1, 1, s->c[i], t, CUSPARSE_ORDER_ROW));
		}
	}
	s->algo[s->nalgo] = s->vec ? (int)CUSPARSE_SPMV_BSR_ALG1 : (int)CUSPARSE_SPMM_BSR_ALG1;
	s->fmt[s->nalgo++] = DLB_CUSPARSE_BSR;
	if (ell) {
		s->algo[s->nalgo] = CUSPARSE_SPMM_BLOCKED_ELL_ALG1;
		s->fmt[s->nalgo++] = DLB_CUSPARSE_ELL;
	}
	return 0;
fail: /* the CSR algorithms stay; the block descriptors made so far go with dlb_cusparse_mm_close */
	return rc;
}

int dlb_cusparse_prepare(struct dlb_cusparse_mm *s, int i)
{
	int rc = 0;
	size_t bytes = 0;
	if (i < 0 || i >= s->nalgo)
		DLB_FAIL(DLB_E_USAGE, "no cuSPARSE algorithm %d", i);
	if (s->ready[i]) /* prepared before (a retried baseline): its analysis again where another's replaced it */
		return dlb_cusparse_select(s, i);
	if (is_spmv(s, i))
		CUSPARSE_CHECK(cusparseSpMV_bufferSize(s->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat_of(s, i, 0), s->bv[0], &zero,
						       s->cv[0], CUDA_R_32F, (cusparseSpMVAlg_t)s->algo[i], &bytes));
	else
		CUSPARSE_CHECK(cusparseSpMM_bufferSize(s->h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
						       &one, mat_of(s, i, 0), s->bm[0], &zero, s->cm[0], CUDA_R_32F,
						       (cusparseSpMMAlg_t)s->algo[i], &bytes));
	s->buf_bytes[i] = bytes;
	for (int set = 0; set < s->nsets; set++) {
		dlb_dev_free(s->buf[i][set]); /* from an earlier call that failed halfway */
		s->buf[i][set] = NULL;
		DLB_CHECK(dlb_dev_alloc(&s->buf[i][set], bytes ? bytes : 16));
		DLB_CHECK(dlb_cusparse_preprocess(s, i, set));
	}
	s->ready[i] = 1;
fail:
	return rc;
}

int dlb_cusparse_preprocess(struct dlb_cusparse_mm *s, int i, int set)
{
	int rc = 0;
	if (s->fmt[i] != DLB_CUSPARSE_CSR)
		return 0; /* cuSPARSE preprocesses CSR only; a block format's descriptor is its own */
	if (is_spmv(s, i))
		CUSPARSE_CHECK(cusparseSpMV_preprocess(s->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s->a[set], s->bv[set],
						       &zero, s->cv[set], CUDA_R_32F, (cusparseSpMVAlg_t)s->algo[i],
						       s->buf[i][set]));
	else
		CUSPARSE_CHECK(cusparseSpMM_preprocess(s->h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
						       &one, s->a[set], s->bm[set], &zero, s->cm[set], CUDA_R_32F,
						       (cusparseSpMMAlg_t)s->algo[i], s->buf[i][set]));
	s->pre[set] = i;
fail:
	return rc;
}

int dlb_cusparse_select(struct dlb_cusparse_mm *s, int i)
{
	int rc = 0;
	if (i < 0 || i >= s->nalgo || s->ready[i] <= 0)
		DLB_FAIL(DLB_E_USAGE, "cuSPARSE algorithm %d was not prepared", i);
	for (int set = 0; set < s->nsets; set++)
		if (s->fmt[i] == DLB_CUSPARSE_CSR && s->pre[set] != i)
			DLB_CHECK(dlb_cusparse_preprocess(s, i, set));
fail:
	return rc;
}

int dlb_cusparse_run(struct dlb_cusparse_mm *s, int i, int set)
{
	int rc = 0;
	if (i < 0 || i >= s->nalgo || s->ready[i] <= 0 || set < 0 || set >= s->nsets)
		DLB_FAIL(DLB_E_USAGE, "cuSPARSE algorithm %d on set %d was not prepared", i, set);
	if (is_spmv(s, i))
		CUSPARSE_CHECK(cusparseSpMV(s->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat_of(s, i, set), s->bv[set], &zero,
					    s->cv[set], CUDA_R_32F, (cusparseSpMVAlg_t)s->algo[i], s->buf[i][set]));
	else
		CUSPARSE_CHECK(cusparseSpMM(s->h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
					    mat_of(s, i, set), s->bm[set], &zero, s->cm[set], CUDA_R_32F,
					    (cusparseSpMMAlg_t)s->algo[i], s->buf[i][set]));
fail:
	return rc;
}
