/* ops/gemm/family: what every GEMM op shares — the problem (M, N, K and the two transposes, DeepBench's a_t
 * and b_t), its work (2·M·N·K), its vendor (cuBLAS: the handles and the int8 reference kernel, opened once
 * per process), and its extra columns (cuBLAS and best-cuBLASLt times). */
#include "gemm.h"

#include "../../err.h"
#include "../../onnx.h"
#include "../../../search/pcg32.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const trans_names[] = {"N", "T"};

static const struct dlb_dim gemm_dims[GEMM_NDIMS] = {
	[GEMM_M] = {.name = "m", .title = "M", .width = 6, .about = "rows of C and of op(A)", .kind = DLB_DIM_SIZE, .lo = 1,
		    .hi = DLB_MAX_DIM, .pad = 1},
	[GEMM_N] = {.name = "n", .title = "N", .width = 6, .about = "columns of C and of op(B)", .kind = DLB_DIM_SIZE, .lo = 1,
		    .hi = DLB_MAX_DIM, .pad = 1},
	[GEMM_K] = {.name = "k", .title = "K", .about = "the inner dimension", .kind = DLB_DIM_SIZE, .lo = 1,
		    .hi = DLB_MAX_DIM, .pad = 1},
	[GEMM_TA] = {.name = "ta", .csv = "a_t", .title = "A", .about = "A stored transposed (T) or not (N)",
		     .kind = DLB_DIM_CHOICE, .has_default = 1, .def = 0, .names = trans_names, .nnames = 2},
	[GEMM_TB] = {.name = "tb", .csv = "b_t", .title = "B", .about = "B stored transposed (T) or not (N)",
		     .kind = DLB_DIM_CHOICE, .has_default = 1, .def = 0, .names = trans_names, .nnames = 2},
};

/* ONNX's row-major Y (M x N) = op(A) op(B) is the column-major Y' (N x M) = op(B)' op(A)': m = N, n = M, and
 * the cuBLAS-sense transposes swap roles (a_t = transB, b_t = transA). Gemm's bias (C) is not timed. MatMul:
 * batch dims of A with a 2-D B fold into M; batch dims on B make one problem per batch (*times). */
static int gemm_from_onnx(const struct dlb_onnx_graph *g, const struct dlb_onnx_node *n, int64_t *d, int64_t *times,
			  char *why, int len)
{
	const struct dlb_onnx_shape *a = n->nin > 1 && n->in[0] >= 0 ? &g->t[n->in[0]].shape : NULL,
				    *b = n->nin > 1 && n->in[1] >= 0 ? &g->t[n->in[1]].shape : NULL;
	*times = 1;
	if (!a || !b || !a->known || !b->known) {
		snprintf(why, (size_t)len, "its shapes are not known");
		return DLB_E_USAGE;
	}
	if (!strcmp(n->op, "Gemm")) {
		int64_t ta = dlb_onnx_int(n, "transA", 0), tb = dlb_onnx_int(n, "transB", 0);
		if (a->rank != 2 || b->rank != 2) {
			snprintf(why, (size_t)len, "inputs of rank %d and %d", a->rank, b->rank);
			return DLB_E_USAGE;
		}
		d[GEMM_N] = a->d[ta ? 1 : 0];
		d[GEMM_K] = a->d[ta ? 0 : 1];
		d[GEMM_M] = b->d[tb ? 0 : 1];
		d[GEMM_TA] = tb != 0;
		d[GEMM_TB] = ta != 0;
		return 0;
	}
	int64_t m = a->rank >= 2 ? a->d[a->rank - 2] : 1, k = a->d[a->rank - 1], nn = b->rank >= 2 ? b->d[b->rank - 1] : 1;
	int64_t batch_a = 1, batch_b = 1;
	for (int i = 0; i < a->rank - 2; i++)
		batch_a *= a->d[i];
	for (int i = 0; i < b->rank - 2; i++)
		batch_b *= b->d[i];
	if (batch_b == 1) /* weights: A's batch rows are more rows */
		m *= batch_a;
	else /* both batched (attention's scores and context): one product per batch of the broadcast */
		*times = batch_a > batch_b ? batch_a : batch_b;
	d[GEMM_M] = nn;
	d[GEMM_N] = m;
	d[GEMM_K] = k;
	d[GEMM_TA] = d[GEMM_TB] = 0;
	return 0;
}

static double gemm_work(const struct dlb_problem *p)
{
	return 2.0 * (double)GM(p) * (double)GN(p) * (double)GK(p);
}

/* A and B read once, C written once */
static double gemm_min_bytes(const struct dlb_problem *p, int es_in, int es_out)
{
	return ((double)GM(p) * (double)GK(p) + (double)GK(p) * (double)GN(p)) * es_in +
	       (double)GM(p) * (double)GN(p) * es_out;
}

/* The vendor entries' kinds: 0 the classic entry point (cublasSgemm, cublasGemmEx), 1 a cuBLASLt algorithm, 2
 * fp32's cuBLAS in TF32 math (shown, labelled, never the baseline). */
static const struct dlb_vendor_col gemm_cols[] = {
	{"cuBLAS us", "cublas_us", DLB_GEMM_KIND_CUBLAS},
	{"Lt-best", "cublaslt_best_us", DLB_GEMM_KIND_LT},
	{"TF32 us", "cublas_tf32_us", DLB_GEMM_KIND_TF32},
};

static int gemm_open(struct dlb_gpu *g, void **state)
{
	int rc = 0;
	struct dlb_gemm_shared *s = calloc(1, sizeof *s);
	if (!s)
		DLB_FAIL(ENOMEM, "out of memory");
	DLB_CHECK(dlb_blas_open(g->dev->stream, &s->blas));
	s->blas_open = 1;
	DLB_CHECK(dlb_gpu_load_embedded(g, "gemm_ref.cu", &s->ref));
	s->ref_loaded = 1;
	DLB_CHECK(dlb_module_kernel(&s->ref, "gemm_ref_s8", &s->ref_s8));
	*state = s;
	return 0;
fail:
	if (s && s->blas_open)
		dlb_blas_close(&s->blas);
	free(s);
	*state = NULL;
	return rc;
}

static void gemm_close(void *state)
{
	struct dlb_gemm_shared *s = state;
	if (!s)
		return;
	if (s->ref_loaded)
		dlb_module_unload(&s->ref);
	dlb_blas_close(&s->blas);
	free(s);
}

void dlb_gemm_run_shape(const struct dlb_problem *p, int64_t *m, int64_t *n, int64_t *k)
{
	int64_t run[DLB_MAX_DIMS];
	dlb_problem_padded(p, run);
	*m = run[GEMM_M];
	*n = run[GEMM_N];
	*k = run[GEMM_K];
}

int dlb_gemm_ws_reserve(void **ws, size_t *elems, size_t need)
{
	if (need <= *elems)
		return 0;
	dlb_dev_free(*ws);
	*ws = NULL;
	*elems = 0;
	if (dlb_dev_alloc(ws, need * 4))
		return DLB_E_LIMIT;
	*elems = need;
	return 0;
}

int dlb_gemm_shared_of(struct dlb_gpu *g, struct dlb_gemm_shared **out)
{
	return dlb_gpu_family_state(g, &dlb_family_gemm, (void **)out);
}

int dlb_gemm_ref_s8(struct dlb_gpu *g, int64_t M, int64_t N, int64_t K, const void *A, int64_t lda, int ta,
		    const void *B, int64_t ldb, int tb, int *C, int64_t ldc)
{
	int rc = 0;
	struct dlb_gemm_shared *s;
	int64_t mb = (M + 15) / 16, nb = (N + 15) / 16;
	DLB_CHECK(dlb_gemm_shared_of(g, &s));
	if (mb > 0x7fffffff || nb > 65535)
		DLB_FAIL(DLB_E_LIMIT, "the int8 reference kernel's grid cannot cover %lldx%lld", (long long)M, (long long)N);
	void *args[] = {&M, &N, &K, &A, &lda, &ta, &B, &ldb, &tb, &C, &ldc};
	DLB_CHECK(dlb_launch(s->ref_s8, (dim3){(unsigned)mb, (unsigned)nb, 1}, (dim3){16, 16, 1}, 0, g->dev->stream,
			     args));
fail:
	return rc;
}

extern const struct dlb_lib dlb_lib_cublas;

/* index ta * 2 + tb, as the kernels' names gemm_nn, gemm_nt, gemm_tn, gemm_tt; then NN and TN together */
const char *const dlb_gemm_spec_defines[GEMM_SPECS] = {
	"#define LAYOUT_NN 1\n#define LAYOUT_NT 0\n#define LAYOUT_TN 0\n#define LAYOUT_TT 0\n",
	"#define LAYOUT_NN 0\n#define LAYOUT_NT 1\n#define LAYOUT_TN 0\n#define LAYOUT_TT 0\n",
	"#define LAYOUT_NN 0\n#define LAYOUT_NT 0\n#define LAYOUT_TN 1\n#define LAYOUT_TT 0\n",
	"#define LAYOUT_NN 0\n#define LAYOUT_NT 0\n#define LAYOUT_TN 0\n#define LAYOUT_TT 1\n",
	"#define LAYOUT_NN 1\n#define LAYOUT_NT 0\n#define LAYOUT_TN 1\n#define LAYOUT_TT 0\n",
};
const char *const dlb_gemm_spec_names[GEMM_SPECS] = {"NN", "NT", "TN", "TT", "NN+TN"};

int dlb_gemm_spec_of(const struct dlb_problem *p, const int *v)
{
	(void)v;
	return GTA(p) * 2 + GTB(p);
}

int dlb_gemm_spec_used(const struct dlb_op *op, int s, const int *v)
{
	(void)op, (void)v;
	return s != GEMM_SPEC_NN_TN;
}

/* The report's plot of GEMM results: the paired speedup against N, from GEMV (N = 1) to wide products. */
static const struct dlb_family_plot gemm_plot = {
	.name = "by_n",
	.title = "speedup against N (columns of C)",
	.x = "n",
	.logx = 1,
	.y = {"paired_speedup", NULL},
	.ylabel = "vendor best / tuned, paired (x)",
	.one = 1,
};

const struct dlb_family dlb_family_gemm = {
	.name = "gemm",
	.about = "C(MxN) = op(A)(MxK) op(B)(KxN), column-major as in cuBLAS",
	.examples = "  dlbtune --op gemm                             DeepBench's GEMM training suite, fp32, GPU 0\n"
		    "  dlbtune --op gemm --m 35 --n 700 --k 2048     one problem (layout NN unless --ta/--tb)\n"
		    "  dlbtune --op gemm --suite inference_server    another built-in suite\n"
		    "  dlbtune --op gemm --prec fp32,fp16,int8       the training suite in three precisions, in turn\n"
		    "  dlbtune --op gemm --suite my.csv --csv        your own suite (header m,n,k,a_t,b_t), CSV out\n"
		    "  dlbtune compile --op gemm --arch sm_90a -v    registers and spills of every candidate\n"
		    "  dlbtune space --op gemm -v                    parameters, constraint rows, the candidates left\n"
		    "  dlbtune lookup --op gemm --m 35 --n 700 --k 2048   what to run for this GEMM\n",
	.default_suite = "training",
	.onnx_ops = (const char *const[]){"Gemm", "MatMul", NULL},
	.from_onnx = gemm_from_onnx,
	.dims = gemm_dims,
	.ndims = GEMM_NDIMS,
	.work_kind = DLB_WORK_FLOPS,
	.min_bytes = gemm_min_bytes,
	.work = gemm_work,
	.vendor_lib = &dlb_lib_cublas,
	.vendor_about = "cuBLAS (fp32: cublasSgemm, default non-TF32 math; fp16 and int8: cublasGemmEx)\n"
			"        and every cuBLASLt heuristic algorithm (up to 8); int8 in NN, NT, TT also through TN, where\n"
			"        cuBLAS has its tensor-core kernels (cublasLt-TN#a: operands transposed by\n"
			"        cublasLtMatrixTransform inside the timed call, up to 4 TN algorithms); fp32 also cuBLAS in\n"
			"        TF32 math (cublasGemmEx-TF32, column TF32 us: shown with its accuracy, never the fp32\n"
			"        baseline, verified against TF32's tolerance fp32's + 8*sqrt(K)/2048); verified against\n"
			"        cublasSgemm (fp32: tolerance 8*eps*K/4), cublasGemmEx with fp32 output (fp16) or an exact\n"
			"        int32 reference (int8)",
	.cols = gemm_cols,
	.ncols = sizeof gemm_cols / sizeof gemm_cols[0],
	.open = gemm_open,
	.close = gemm_close,
	.plot = &gemm_plot,
};

/* ---- accuracy: sampled outputs against the exact result in double ---- */

#define ERR_SAMPLES 16

static size_t type_bytes(cudaDataType_t t)
{
	return t == CUDA_R_8I ? 1 : t == CUDA_R_16F ? 2 : 4;
}

double dlb_half_value(uint16_t h)
{
	int e = (h >> 10) & 31, f = h & 1023;
	double v = e == 0 ? ldexp(f, -24) : e == 31 ? (f ? NAN : INFINITY) : ldexp(f + 1024, e - 25);
	return h & 0x8000 ? -v : v;
}

static double value_of(const void *p, size_t i, cudaDataType_t t)
{
	switch (t) {
	case CUDA_R_8I:
		return ((const int8_t *)p)[i];
	case CUDA_R_16F:
		return dlb_half_value(((const uint16_t *)p)[i]);
	case CUDA_R_32I:
		return ((const int32_t *)p)[i];
	default:
		return ((const float *)p)[i];
	}
}

int dlb_gemm_read_k(const void *base, int64_t ld, int contiguous, int64_t idx, int64_t k, cudaDataType_t t, void *tmp,
		    double *out)
{
	int rc = 0;
	size_t es = type_bytes(t);
	const char *b = base;
	if (contiguous)
		CUDA_CHECK(cudaMemcpy(tmp, b + (size_t)(idx * ld) * es, (size_t)k * es, cudaMemcpyDeviceToHost));
	else
		CUDA_CHECK(cudaMemcpy2D(tmp, es, b + (size_t)idx * es, (size_t)ld * es, es, (size_t)k, cudaMemcpyDeviceToHost));
	for (int64_t i = 0; i < k; i++)
		out[i] = value_of(tmp, (size_t)i, t);
fail:
	return rc;
}

/* How many near-miss elements the referee recomputes at most, and how many outputs it copies at a time. */
#define REFEREE_MAX 64
#define REFEREE_CHUNK ((size_t)1 << 24)

void dlb_gemm_scan_misses(const float *c, const float *r, size_t n, size_t base, double tol, size_t *at, int max,
			  int *nat, double *worst)
{
	for (size_t e = 0; e < n && *nat <= max; e++) {
		double d = fabs((double)c[e] - (double)r[e]);
		if (d <= tol)
			*worst = d > *worst ? d : *worst;
		else if ((*nat)++ < max) /* NaN too */
			at[*nat - 1] = base + e;
	}
}

int dlb_gemm_referee(const struct dlb_blas_gemm *g, int64_t m, int64_t n, const void *A, const void *B,
		     const float *C, const float *ref, struct dlb_check *c)
{
	int rc = 0;
	if (c->ok || c->nonfinite || !(c->max_err <= 2 * c->tol))
		return 0; /* right, or not a near miss: both within tol of the exact sum differ by at most 2 tol */
	size_t mn = (size_t)m * (size_t)n, chunk = mn < REFEREE_CHUNK ? mn : REFEREE_CHUNK;
	float *hc = malloc(chunk * sizeof *hc), *hr = malloc(chunk * sizeof *hr);
	void *tmp = malloc((size_t)g->k * 4);
	double *a = malloc((size_t)g->k * sizeof *a), *b = malloc((size_t)g->k * sizeof *b);
	size_t at[REFEREE_MAX];
	int nat = 0;
	double worst = 0; /* over the elements within tol of the reference */
	if (!hc || !hr || !tmp || !a || !b)
		DLB_FAIL(ENOMEM, "out of memory for the verification's referee");
	for (size_t e0 = 0; e0 < mn && nat <= REFEREE_MAX; e0 += chunk) {
		size_t len = mn - e0 < chunk ? mn - e0 : chunk;
		CUDA_CHECK(cudaMemcpy(hc, C + e0, len * sizeof *hc, cudaMemcpyDeviceToHost));
		CUDA_CHECK(cudaMemcpy(hr, ref + e0, len * sizeof *hr, cudaMemcpyDeviceToHost));
		dlb_gemm_scan_misses(hc, hr, len, e0, c->tol, at, REFEREE_MAX, &nat, &worst);
	}
	if (nat > REFEREE_MAX)
		goto fail; /* too many to be the reference's own error: stays wrong */
	uint64_t bad = 0;
	for (int t = 0; t < nat; t++) {
		int64_t i = (int64_t)(at[t] % (size_t)m), j = (int64_t)(at[t] / (size_t)m);
		DLB_CHECK(dlb_gemm_read_k(A, g->lda, g->ta, i, g->k, g->a_type, tmp, a));
		DLB_CHECK(dlb_gemm_read_k(B, g->ldb, !g->tb, j, g->k, g->b_type, tmp, b));
		double exact = 0;
		for (int64_t kk = 0; kk < g->k; kk++)
			exact += a[kk] * b[kk];
		float got;
		CUDA_CHECK(cudaMemcpy(&got, C + at[t], sizeof got, cudaMemcpyDeviceToHost));
		double d = fabs((double)got - exact);
		bad += !(d <= c->tol);
		worst = d > worst ? d : worst;
	}
	c->refereed = (uint64_t)nat;
	c->bad = bad;
	c->max_err = worst;
	c->ok = bad == 0;
fail:
	free(hc);
	free(hr);
	free(tmp);
	free(a);
	free(b);
	return rc;
}

int dlb_gemm_sample_errors(const struct dlb_blas_gemm *g, int64_t m, int64_t n, const void *A, const void *B,
			   const void *C, uint64_t seed, struct dlb_rel_err *out)
{
	int rc = 0;
	memset(out, 0, sizeof *out);
	void *tmp = malloc((size_t)g->k * 4);
	double *a = malloc((size_t)g->k * sizeof *a), *b = malloc((size_t)g->k * sizeof *b);
	if (!tmp || !a || !b)
		DLB_FAIL(ENOMEM, "out of memory for the accuracy samples");
	struct dlb_pcg32 rng;
	dlb_pcg32_seed(&rng, seed, 7);
	double sum = 0, worst = 0;
	for (int t = 0; t < ERR_SAMPLES; t++) {
		int64_t i = dlb_pcg32_bounded(&rng, (uint32_t)(m < UINT32_MAX ? m : UINT32_MAX));
		int64_t j = dlb_pcg32_bounded(&rng, (uint32_t)(n < UINT32_MAX ? n : UINT32_MAX));
		/* op(A)(i, :) is contiguous when A is stored transposed; op(B)(:, j) when B is not */
		DLB_CHECK(dlb_gemm_read_k(A, g->lda, g->ta, i, g->k, g->a_type, tmp, a));
		DLB_CHECK(dlb_gemm_read_k(B, g->ldb, !g->tb, j, g->k, g->b_type, tmp, b));
		double want = 0, scale = 0;
		for (int64_t kk = 0; kk < g->k; kk++) {
			want += a[kk] * b[kk];
			scale += fabs(a[kk] * b[kk]);
		}
		unsigned char cell[4];
		CUDA_CHECK(cudaMemcpy(cell, (const char *)C + (size_t)(j * g->ldc + i) * type_bytes(g->c_type),
				      type_bytes(g->c_type), cudaMemcpyDeviceToHost));
		double got = value_of(cell, 0, g->c_type), d = fabs(got - want);
		double e = scale > 0 ? d / scale : d == 0 ? 0 : INFINITY;
		if (!(e <= worst)) /* NaN too */
			worst = e;
		sum += e;
	}
	out->n = ERR_SAMPLES;
	out->max = worst;
	out->mean = sum / ERR_SAMPLES;
fail:
	free(tmp);
	free(a);
	free(b);
	return rc;
}

