/* vendor_cublas: the vendor baselines for GEMM — cublasGemmEx (cublasSgemm semantics for fp32, default
 * non-TF32 math) and every algorithm cuBLASLt's heuristic proposes (up to DLB_LT_MAX_ALGOS). */
#ifndef DLB_VENDOR_CUBLAS_H
#define DLB_VENDOR_CUBLAS_H
#include <cublasLt.h>
#include <cublas_v2.h>
#include <stdint.h>

#define DLB_LT_MAX_ALGOS 8

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
	cublasLtMatmulDesc_t op;
	cublasLtMatrixLayout_t a, b, c;
	int nalgos;
	cublasLtMatmulHeuristicResult_t algos[DLB_LT_MAX_ALGOS];
};

int dlb_blas_open(cudaStream_t stream, struct dlb_blas *b);
void dlb_blas_close(struct dlb_blas *b);
void dlb_blas_gemm_fp32(struct dlb_blas_gemm *g, int ta, int tb, int64_t m, int64_t n, int64_t k);
/* cublasSgemm for fp32, else cublasGemmEx with the default algorithm. */
int dlb_blas_gemm_run(struct dlb_blas *b, const struct dlb_blas_gemm *g, const void *A, const void *B, void *C);
/* Heuristic list for this GEMM; nalgos may be 0 (the vendor does not support it). */
int dlb_lt_plan_create(struct dlb_blas *b, const struct dlb_blas_gemm *g, struct dlb_lt_plan *p);
int dlb_lt_run(struct dlb_blas *b, const struct dlb_lt_plan *p, int algo, const void *A, const void *B, void *C);
void dlb_lt_plan_destroy(struct dlb_lt_plan *p);
#endif
