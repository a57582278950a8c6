/* ops/conv: forward convolution, y = x * w (cross-correlation, as cuDNN and DeepBench compute it): the
 * family (family.c: DeepBench's dims, the output size, the work 2·N·K·P·Q·C·R·S, the reference kernel) and
 * its ops (conv.c: implicit GEMMs over (N·P·Q) × K × (C·R·S), fp32 on the CUDA cores, fp16 and int8 on the
 * tensor cores). */
#ifndef DLB_OPS_CONV_H
#define DLB_OPS_CONV_H
#include "../../op.h"
#include "vendor_cudnn.h"

extern const struct dlb_family dlb_family_conv;
extern const struct dlb_op dlb_op_conv;      /* fp32 on the CUDA cores */
extern const struct dlb_op dlb_op_conv_fp16; /* fp16 inputs and output, fp32 accumulation, tensor cores */
extern const struct dlb_op dlb_op_conv_int8; /* int8 inputs, int32 accumulation and output, tensor cores */

/* The problem's dims, in the order of struct dlb_problem's dim[] (DeepBench's columns first). S is the
 * filter's width and R its height, as in DeepBench and cuDNN. */
enum { CONV_W, CONV_H, CONV_C, CONV_N, CONV_K, CONV_S, CONV_R, CONV_PAD_W, CONV_PAD_H, CONV_STRIDE_W, CONV_STRIDE_H,
       CONV_DIL_W, CONV_DIL_H, CONV_LAYOUT, CONV_NDIMS };
enum { CONV_NCHW, CONV_NHWC }; /* the layouts of x and y; the filter's is KCRS or KRSC to match */

/* The output's height P and width Q; both are at least 1 for a problem the family accepts. */
void dlb_conv_out(const int64_t *dim, int64_t *p, int64_t *q);

/* The family's per-process state: the reference kernels (fp32, fp16 and int8 inputs), int8's conversions for
 * its vendor entries (templates/conv_ref.cu) and cuDNN's handle. */
struct dlb_conv_shared {
	struct dlb_module ref;
	cudaKernel_t ref_f32, ref_f16, ref_s8, s8_to_f16, f32_to_s32;
	int ref_loaded;
	cudnnHandle_t cudnn;
};
int dlb_conv_shared_of(struct dlb_gpu *g, struct dlb_conv_shared **out);
#endif
