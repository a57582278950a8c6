/* ops/sparse: sparse times dense, C = A·B with A (M×K) sparse in CSR and B (K×N), C (M×N) dense and row-major
 * (DeepBench's sparse suite; N = 1 is SpMV): the family (family.c: the dims M, N, K, sparsity, the matrix's
 * seed and pattern; its work 2·nnz·N; cuSPARSE and dense cuBLAS as baselines; the reference kernel) and its
 * fp32 and fp16 ops (spmm.c, templates/spmm.cu). The matrix itself is csr.c's, generated from the problem's dims. */
#ifndef DLB_OPS_SPMM_H
#define DLB_OPS_SPMM_H
#include "../../op.h"
#include "../gemm/vendor_cublas.h"
#include "vendor_cusparse.h"

extern const struct dlb_family dlb_family_spmm;
extern const struct dlb_op dlb_op_spmm;      /* fp32 on the CUDA cores */
extern const struct dlb_op dlb_op_spmm_fp16; /* fp16 values, B and C, fp32 sums, on the CUDA cores */

/* The problem's dims, in the order of struct dlb_problem's dim[] (DeepBench's columns first). */
enum { SPMM_M, SPMM_N, SPMM_K, SPMM_SPARSITY, SPMM_SEED, SPMM_PATTERN, SPMM_NDIMS };
#define SPMM_SPARSITY_SCALE 10000 /* the sparsity dim in units of 1/10000 */

#define SPMM_PATTERN_SKEWED 8 /* the pattern dim's value for uniform with one long row */
#define SPMM_PATTERN_FILE 9   /* A from a Matrix Market file (--matrix), named in keys by its hash */

struct dlb_csr;
/* The matrix of a --matrix file this process was given, by its key hash (the seed dim); DLB_E_USAGE where no
 * such file was given or it changed since. */
int dlb_spmm_read_file(int64_t hash, struct dlb_csr *a);

/* A pattern's blocks: 1×1 for uniform and skewed. */
void dlb_spmm_block(int64_t pattern, int *br, int *bc);
/* The nonzeros of the problem's matrix, from its dims alone: exact for uniform patterns and for blocks that
 * divide the matrix (clipped edge blocks hold fewer). */
double dlb_spmm_nnz(const int64_t *dim);

/* The vendor entries' kinds (the family's columns). */
enum { SPMM_KIND_CUSPARSE, SPMM_KIND_DENSE };

/* The family's per-process state: cuSPARSE's and cuBLAS's handles and the reference kernels
 * (templates/spmm_ref.cu). */
struct dlb_spmm_shared {
	cusparseHandle_t sp;
	struct dlb_blas blas;
	int blas_open, ref_loaded;
	struct dlb_module ref;
	cudaKernel_t ref_k, to_dense, ref_h, to_dense_h; /* _h: fp16's */
};
int dlb_spmm_shared_of(struct dlb_gpu *g, struct dlb_spmm_shared **out);
#endif
