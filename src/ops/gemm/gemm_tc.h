/* ops/gemm_tc: dense GEMM on the tensor cores (templates/gemm_tc.cu) — fp16 with fp32 accumulation, and int8
 * with int32 accumulation on dimensions padded to multiples of 4. Same problem convention as ops/gemm. */
#ifndef DLB_OPS_GEMM_TC_H
#define DLB_OPS_GEMM_TC_H
#include "../../op.h"

extern const struct dlb_op dlb_op_gemm_fp16;
extern const struct dlb_op dlb_op_gemm_int8;
#endif
