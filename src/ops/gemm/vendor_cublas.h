/* vendor_cublas: the vendor baselines for GEMM — cublasGemmEx (cublasSgemm semantics for fp32, default
 * non-TF32 math) and every algorithm cuBLASLt's heuristic proposes (up to DLB_LT_MAX_ALGOS). */
#ifndef DLB_VENDOR_CUBLAS_H
#define DLB_VENDOR_CUBLAS_H
#include <cublasLt.h>
#include <cublas_v2.h>
#include <stdint.h>

#define DLB_LT_MAX_ALGOS 8

/* Every cuBLAS and cuBLASLt call: the statement and file:line on failure (src/err.h's form). */
#define CUBLAS_CHECK(call)                                                             \
	do {                                                                               \
		cublasStatus_t e_ = (call);                                                    \
		if (e_ != CUBLAS_STATUS_SUCCESS)                                               \
			DLB_FAIL(DLB_E_VENDOR, "%s: %s", #call, cublasGetStatusName(e_));          \
	} while (0)

struct dlb_blas {
	cublasHandle_t h;
	cublasLtHandle_t lt;
	cudaStream_t stream;
	void *ws; /* cuBLASLt workspace */
	size_t ws_bytes;
};

/* One GEMM as cuBLAS sees it: column-major, C(m×n) = op(A) op(B), beta = 0. */
struct dlb_blas_gemm {
	int ta, tb;
	int64_t m, n, k, lda, ldb, ldc;
	cudaDataType_t a_type, b_type, c_type;
	cublasComputeType_t compute;
	cudaDataType_t scale_type;
};

struct dlb_lt_plan {
	struct dlb_blas_gemm g;
	cublasLtMatmulDesc_t op;
	cublasLtMatrixLayout_t a, b, c;
	int nalgos;
	cublasLtMatmulHeuristicResult_t algos[DLB_LT_MAX_ALGOS];
};

int dlb_blas_open(cudaStream_t stream, struct dlb_blas *b);
void dlb_blas_close(struct dlb_blas *b);
void dlb_blas_gemm_fp32(struct dlb_blas_gemm *g, int ta, int tb, int64_t m, int64_t n, int64_t k);
/* fp16: half A, B and C, fp32 compute and scale (DeepBench's pseudo-fp16). With c_fp32, C is fp32: the
 * reference our fp16 kernels are verified against (the same half inputs, accumulated in fp32, not rounded). */
void dlb_blas_gemm_fp16(struct dlb_blas_gemm *g, int ta, int tb, int64_t m, int64_t n, int64_t k, int c_fp32);
/* int8: int8 A and B, int32 C, CUBLAS_COMPUTE_32I with int32 scale. */
void dlb_blas_gemm_int8(struct dlb_blas_gemm *g, int ta, int tb, int64_t m, int64_t n, int64_t k);
/* cublasSgemm for fp32, else cublasGemmEx with the default algorithm. */
int dlb_blas_gemm_run(struct dlb_blas *b, const struct dlb_blas_gemm *g, const void *A, const void *B, void *C);
/* The same, but CUBLAS_STATUS_NOT_SUPPORTED (and INVALID_VALUE, cuBLAS's answer to an int8 layout it lacks)
 * sets *supported = 0 and returns 0: the vendor has no kernel for this case, which is not an error. */
int dlb_blas_gemm_try(struct dlb_blas *b, const struct dlb_blas_gemm *g, const void *A, const void *B, void *C,
		      int *supported);
/* Heuristic list for this GEMM; nalgos may be 0 (the vendor does not support it). */
int dlb_lt_plan_create(struct dlb_blas *b, const struct dlb_blas_gemm *g, struct dlb_lt_plan *p);
int dlb_lt_run(struct dlb_blas *b, const struct dlb_lt_plan *p, int algo, const void *A, const void *B, void *C);
/* The configuration cuBLASLt reports for the plan's algorithm algo, as text: "algo 39, tile 128x128, stages
 * 128xAUTO, cluster 1x2x1, split-K 1, reduction 0, swizzle 0, custom 0" (the enum names of cublasLt.h; a value
 * the header does not name is shown as a number). */
int dlb_lt_describe(const struct dlb_lt_plan *p, int algo, char *buf, size_t len);
/* Names of cuBLASLt's tile, stages and cluster-shape values (NULL for a value the header does not name);
 * generated from cublasLt.h at build time (build-aux/lt_names.sh). */
const char *dlb_lt_tile_name(int id);
const char *dlb_lt_stages_name(int id);
const char *dlb_lt_cluster_name(int id);
void dlb_lt_plan_destroy(struct dlb_lt_plan *p);

/* int8 through cuBLASLt's tensor-core (IMMA) algorithms, which take the TN layout only (A and B K-major): what a
 * careful user of the vendor library does for another layout. Each call transposes the operands that are not
 * K-major with cuBLASLt's own cublasLtMatrixTransform into scratch buffers, then runs the TN plan, so the
 * transposes are inside the timed call, as our own repacks are. */
struct dlb_lt_tn {
	struct dlb_lt_plan plan;             /* the TN problem: ta = 1, tb = 0, lda = ldb = k */
	cublasLtMatrixTransformDesc_t tr_a, tr_b;
	cublasLtMatrixLayout_t a_in, b_in;   /* A, B as stored; NULL where already K-major */
	void *At, *Bt;                       /* the K-major copies (device scratch) */
	int ready;
};
/* Plan the TN route for int8 GEMM g (not itself TN): scratch, transforms and cuBLASLt's heuristic list for TN
 * (t->plan.nalgos may be 0). */
int dlb_lt_tn_create(struct dlb_blas *b, const struct dlb_blas_gemm *g, struct dlb_lt_tn *t);
/* Transpose A and/or B as needed, then run algorithm algo of the TN plan: C = op(A) op(B) as g asked. */
int dlb_lt_tn_run(struct dlb_blas *b, const struct dlb_lt_tn *t, int algo, const void *A, const void *B, void *C);
void dlb_lt_tn_destroy(struct dlb_lt_tn *t);
#endif
