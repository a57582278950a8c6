/* ops/registry: the ops built into dlbtune, one line per (family, precision). */
#include "conv/conv.h"
#include "gemm/gemm.h"
#include "gemm/gemm_tc.h"
#include "sparse/spmm.h"

const struct dlb_op *const dlb_builtin_ops[] = {&dlb_op_gemm, &dlb_op_gemm_fp16, &dlb_op_gemm_int8, &dlb_op_conv, &dlb_op_conv_fp16, &dlb_op_conv_int8,
						&dlb_op_spmm, &dlb_op_spmm_fp16, NULL};
