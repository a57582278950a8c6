/* vendor_cublas: every call checked; each enqueue is counted as a launch. */
#include "vendor_cublas.h"

#include "../../device.h"
#include "../../err.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int dlb_blas_open(cudaStream_t stream, struct dlb_blas *b)
{
	int rc = 0;
	memset(b, 0, sizeof *b);
	b->stream = stream;
	b->ws_bytes = (size_t)64 << 20;
	CUBLAS_CHECK(cublasCreate(&b->h));
	CUBLAS_CHECK(cublasSetStream(b->h, stream));
	/* Default math: no TF32 down-conversion, so fp32 is compared with fp32. */
	CUBLAS_CHECK(cublasSetMathMode(b->h, CUBLAS_DEFAULT_MATH));
	CUBLAS_CHECK(cublasLtCreate(&b->lt));
	DLB_CHECK(dlb_dev_alloc(&b->ws, b->ws_bytes));
fail:
	return rc;
}

void dlb_blas_close(struct dlb_blas *b)
{
	if (b->h)
		(void)cublasDestroy(b->h); /* teardown */
	if (b->lt)
		(void)cublasLtDestroy(b->lt);
	dlb_dev_free(b->ws);
	memset(b, 0, sizeof *b);
}

void dlb_blas_gemm_fp32(struct dlb_blas_gemm *g, int ta, int tb, int64_t m, int64_t n, int64_t k)
{
	g->ta = ta;
	g->tb = tb;
	g->m = m;
	g->n = n;
	g->k = k;
	g->lda = ta ? k : m;
	g->ldb = tb ? n : k;
	g->ldc = m;
	g->a_type = g->b_type = g->c_type = CUDA_R_32F;
	g->compute = CUBLAS_COMPUTE_32F;
	g->scale_type = CUDA_R_32F;
}

void dlb_blas_gemm_fp16(struct dlb_blas_gemm *g, int ta, int tb, int64_t m, int64_t n, int64_t k, int c_fp32)
{
	dlb_blas_gemm_fp32(g, ta, tb, m, n, k);
	g->a_type = g->b_type = CUDA_R_16F;
	g->c_type = c_fp32 ? CUDA_R_32F : CUDA_R_16F;
}

void dlb_blas_gemm_int8(struct dlb_blas_gemm *g, int ta, int tb, int64_t m, int64_t n, int64_t k)
{
	dlb_blas_gemm_fp32(g, ta, tb, m, n, k);
	g->a_type = g->b_type = CUDA_R_8I;
	g->c_type = CUDA_R_32I;
	g->compute = CUBLAS_COMPUTE_32I;
	g->scale_type = CUDA_R_32I;
}

/* alpha = 1, beta = 0 in the GEMM's scale type. */
union scale {
	float f;
	int32_t i;
};

static void scales(const struct dlb_blas_gemm *g, union scale *one, union scale *zero)
{
	if (g->scale_type == CUDA_R_32I)
		one->i = 1, zero->i = 0;
	else
		one->f = 1.0f, zero->f = 0.0f;
}

static cublasStatus_t gemm_call(struct dlb_blas *b, const struct dlb_blas_gemm *g, const void *A, const void *B,
				void *C)
{
	union scale one, zero;
	scales(g, &one, &zero);
	dlb_count_launch();
	if (g->a_type == CUDA_R_32F && g->c_type == CUDA_R_32F && g->compute == CUBLAS_COMPUTE_32F)
		return cublasSgemm_64(b->h, g->ta ? CUBLAS_OP_T : CUBLAS_OP_N, g->tb ? CUBLAS_OP_T : CUBLAS_OP_N, g->m,
				      g->n, g->k, &one.f, A, g->lda, B, g->ldb, &zero.f, C, g->ldc);
	return cublasGemmEx_64(b->h, g->ta ? CUBLAS_OP_T : CUBLAS_OP_N, g->tb ? CUBLAS_OP_T : CUBLAS_OP_N, g->m, g->n,
			       g->k, &one, A, g->a_type, g->lda, B, g->b_type, g->ldb, &zero, C, g->c_type, g->ldc,
			       g->compute, CUBLAS_GEMM_DEFAULT);
}

int dlb_blas_gemm_run(struct dlb_blas *b, const struct dlb_blas_gemm *g, const void *A, const void *B, void *C)
{
	int rc = 0;
	CUBLAS_CHECK(gemm_call(b, g, A, B, C));
fail:
	return rc;
}

int dlb_blas_gemm_try(struct dlb_blas *b, const struct dlb_blas_gemm *g, const void *A, const void *B, void *C,
		      int *supported)
{
	int rc = 0;
	cublasStatus_t st = gemm_call(b, g, A, B, C);
	*supported = !(st == CUBLAS_STATUS_NOT_SUPPORTED || st == CUBLAS_STATUS_INVALID_VALUE);
	if (*supported)
		CUBLAS_CHECK(st);
fail:
	return rc;
}

int dlb_lt_plan_create(struct dlb_blas *b, const struct dlb_blas_gemm *g, struct dlb_lt_plan *p)
{
	int rc = 0;
	cublasLtMatmulPreference_t pref = NULL;
	memset(p, 0, sizeof *p);
	p->g = *g;
	cublasOperation_t opa = g->ta ? CUBLAS_OP_T : CUBLAS_OP_N, opb = g->tb ? CUBLAS_OP_T : CUBLAS_OP_N;
	CUBLAS_CHECK(cublasLtMatmulDescCreate(&p->op, g->compute, g->scale_type));
	CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSA, &opa, sizeof opa));
	CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(p->op, CUBLASLT_MATMUL_DESC_TRANSB, &opb, sizeof opb));
	/* Layouts describe the matrices as stored: rows × cols with leading dimension ld. */
	CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&p->a, g->a_type, (uint64_t)(g->ta ? g->k : g->m),
						(uint64_t)(g->ta ? g->m : g->k), g->lda));
	CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&p->b, g->b_type, (uint64_t)(g->tb ? g->n : g->k),
						(uint64_t)(g->tb ? g->k : g->n), g->ldb));
	CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&p->c, g->c_type, (uint64_t)g->m, (uint64_t)g->n, g->ldc));
	CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
	CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
							  &b->ws_bytes, sizeof b->ws_bytes));
	cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(b->lt, p->op, p->a, p->b, p->c, p->c, pref,
							    DLB_LT_MAX_ALGOS, p->algos, &p->nalgos);
	/* NOT_SUPPORTED is an answer (no algorithm for this case), not a failure. */
	if (st == CUBLAS_STATUS_NOT_SUPPORTED)
		p->nalgos = 0;
	else
		CUBLAS_CHECK(st);
fail:
	if (pref)
		(void)cublasLtMatmulPreferenceDestroy(pref); /* teardown */
	return rc;
}

int dlb_lt_run(struct dlb_blas *b, const struct dlb_lt_plan *p, int algo, const void *A, const void *B, void *C)
{
	int rc = 0;
	union scale one, zero;
	scales(&p->g, &one, &zero);
	dlb_count_launch();
	CUBLAS_CHECK(cublasLtMatmul(b->lt, p->op, &one, A, p->a, B, p->b, &zero, C, p->c, C, p->c,
				    &p->algos[algo].algo, b->ws, b->ws_bytes, b->stream));
fail:
	return rc;
}

/* One configuration attribute of an algorithm, read into an int whatever its stored width (2 or 4 bytes). */
static int lt_attr(const cublasLtMatmulAlgo_t *a, cublasLtMatmulAlgoConfigAttributes_t attr, size_t width, int *out)
{
	int rc = 0;
	size_t written = 0;
	uint32_t u32 = 0;
	uint16_t u16 = 0;
	CUBLAS_CHECK(cublasLtMatmulAlgoConfigGetAttribute(a, attr, width == 2 ? (void *)&u16 : (void *)&u32, width,
							  &written));
	*out = width == 2 ? (int)u16 : (int)(int32_t)u32;
fail:
	return rc;
}

static const char *lt_named(const char *name, int id, char *buf, size_t len)
{
	if (name)
		return name;
	snprintf(buf, len, "%d", id);
	return buf;
}

int dlb_lt_describe(const struct dlb_lt_plan *p, int algo, char *buf, size_t len)
{
	int rc = 0, id, tile, stages, cluster, splitk, red, swz, custom;
	char t[16], s[16], c[16];
	const cublasLtMatmulAlgo_t *a = &p->algos[algo].algo;
	DLB_CHECK(lt_attr(a, CUBLASLT_ALGO_CONFIG_ID, sizeof(int32_t), &id));
	DLB_CHECK(lt_attr(a, CUBLASLT_ALGO_CONFIG_TILE_ID, sizeof(uint32_t), &tile));
	DLB_CHECK(lt_attr(a, CUBLASLT_ALGO_CONFIG_STAGES_ID, sizeof(uint32_t), &stages));
	DLB_CHECK(lt_attr(a, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, sizeof(uint16_t), &cluster));
	DLB_CHECK(lt_attr(a, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, sizeof(int32_t), &splitk));
	DLB_CHECK(lt_attr(a, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, sizeof(uint32_t), &red));
	DLB_CHECK(lt_attr(a, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, sizeof(uint32_t), &swz));
	DLB_CHECK(lt_attr(a, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, sizeof(uint32_t), &custom));
	snprintf(buf, len, "algo %d, tile %s, stages %s, cluster %s, split-K %d, reduction %d, swizzle %d, custom %d", id,
		 lt_named(dlb_lt_tile_name(tile), tile, t, sizeof t),
		 lt_named(dlb_lt_stages_name(stages), stages, s, sizeof s),
		 lt_named(dlb_lt_cluster_name(cluster), cluster, c, sizeof c), splitk, red, swz, custom);
fail:
	return rc;
}

void dlb_lt_plan_destroy(struct dlb_lt_plan *p)
{
	/* teardown: failures here leave nothing to recover */
	if (p->op)
		(void)cublasLtMatmulDescDestroy(p->op);
	if (p->a)
		(void)cublasLtMatrixLayoutDestroy(p->a);
	if (p->b)
		(void)cublasLtMatrixLayoutDestroy(p->b);
	if (p->c)
		(void)cublasLtMatrixLayoutDestroy(p->c);
	memset(p, 0, sizeof *p);
}

/* One transpose of the TN route: the operand as stored (rows x cols, ld) to its transpose (cols x rows, ld cols). */
static int tn_transform(cublasLtMatrixTransformDesc_t *tr, cublasLtMatrixLayout_t *in, int64_t rows, int64_t cols,
			int64_t ld)
{
	int rc = 0;
	cublasOperation_t op = CUBLAS_OP_T;
	CUBLAS_CHECK(cublasLtMatrixTransformDescCreate(tr, CUDA_R_32F));
	CUBLAS_CHECK(cublasLtMatrixTransformDescSetAttribute(*tr, CUBLASLT_MATRIX_TRANSFORM_DESC_TRANSA, &op, sizeof op));
	CUBLAS_CHECK(cublasLtMatrixLayoutCreate(in, CUDA_R_8I, (uint64_t)rows, (uint64_t)cols, ld));
fail:
	return rc;
}

int dlb_lt_tn_create(struct dlb_blas *b, const struct dlb_blas_gemm *g, struct dlb_lt_tn *t)
{
	int rc = 0;
	memset(t, 0, sizeof *t);
	struct dlb_blas_gemm tn;
	dlb_blas_gemm_int8(&tn, 1, 0, g->m, g->n, g->k);
	if (!g->ta) { /* A stored m x k (ld lda): its transpose k x m is A K-major */
		DLB_CHECK(tn_transform(&t->tr_a, &t->a_in, g->m, g->k, g->lda));
		DLB_CHECK(dlb_dev_alloc(&t->At, (size_t)g->m * (size_t)g->k));
	}
	if (g->tb) { /* B stored n x k (ld ldb): its transpose k x n is B K-major */
		DLB_CHECK(tn_transform(&t->tr_b, &t->b_in, g->n, g->k, g->ldb));
		DLB_CHECK(dlb_dev_alloc(&t->Bt, (size_t)g->n * (size_t)g->k));
	}
	DLB_CHECK(dlb_lt_plan_create(b, &tn, &t->plan));
	t->ready = 1;
fail:
	if (rc)
		dlb_lt_tn_destroy(t);
	return rc;
}

int dlb_lt_tn_run(struct dlb_blas *b, const struct dlb_lt_tn *t, int algo, const void *A, const void *B, void *C)
{
	int rc = 0;
	const float one = 1.0f, zero = 0.0f;
	if (!t->ready || algo < 0 || algo >= t->plan.nalgos)
		DLB_FAIL(DLB_E_USAGE, "no TN algorithm %d planned", algo);
	/* the TN plan's A layout (k x m, ld k) and B layout (k x n, ld k) are the transposes' outputs */
	if (t->At) {
		dlb_count_launch();
		CUBLAS_CHECK(cublasLtMatrixTransform(b->lt, t->tr_a, &one, A, t->a_in, &zero, NULL, NULL, t->At, t->plan.a,
						     b->stream));
		A = t->At;
	}
	if (t->Bt) {
		dlb_count_launch();
		CUBLAS_CHECK(cublasLtMatrixTransform(b->lt, t->tr_b, &one, B, t->b_in, &zero, NULL, NULL, t->Bt, t->plan.b,
						     b->stream));
		B = t->Bt;
	}
	DLB_CHECK(dlb_lt_run(b, &t->plan, algo, A, B, C));
fail:
	return rc;
}

void dlb_lt_tn_destroy(struct dlb_lt_tn *t)
{
	/* teardown: failures here leave nothing to recover */
	if (t->tr_a)
		(void)cublasLtMatrixTransformDescDestroy(t->tr_a);
	if (t->tr_b)
		(void)cublasLtMatrixTransformDescDestroy(t->tr_b);
	if (t->a_in)
		(void)cublasLtMatrixLayoutDestroy(t->a_in);
	if (t->b_in)
		(void)cublasLtMatrixLayoutDestroy(t->b_in);
	dlb_dev_free(t->At);
	dlb_dev_free(t->Bt);
	dlb_lt_plan_destroy(&t->plan);
	memset(t, 0, sizeof *t);
}

