/* ops/gemm: dense GEMM, C = op(A) · op(B), column-major (DeepBench / cuBLAS convention). */
#ifndef DLB_OPS_GEMM_H
#define DLB_OPS_GEMM_H
#include "../op.h"

extern const struct dlb_op dlb_op_gemm;

/* Indices of the tunables in a configuration. */
enum { GEMM_BM, GEMM_BN, GEMM_BK, GEMM_TM, GEMM_TN, GEMM_NPARAMS };
/* Split-K factors a configuration may run with on problem p (always 1 first); returns the count. */
int dlb_gemm_splits(const struct dlb_problem *p, const int *v, int sm_count, int *splits, int max);
#endif
