/* ops/conv/vendor_cudnn: cuDNN's forward convolution, for the conv family's baselines — its descriptors for one
 * problem, its heuristic's first choice (cudnnGetConvolutionForwardAlgorithm_v7) and every algorithm
 * cudnnFindConvolutionForwardAlgorithmEx reports, each with the workspace it needs, in strict fp32 (FMA math:
 * a TF32 result is never called fp32); then Find's best in cuDNN's default math, with the math it used (TF32 on
 * the tensor cores where it chose them), shown beside them but never the fp32 baseline. The family's harness
 * verifies and times each one (conv.c). */
#ifndef DLB_OPS_CONV_VENDOR_CUDNN_H
#define DLB_OPS_CONV_VENDOR_CUDNN_H
#include <cudnn.h>
#include <stddef.h>
#include <stdint.h>

#define CUDNN_CHECK(call)                                                                                    \
	do {                                                                                                 \
		cudnnStatus_t e_ = (call);                                                                   \
		if (e_ != CUDNN_STATUS_SUCCESS)                                                              \
			DLB_FAIL(DLB_E_VENDOR, "%s: %s", #call, cudnnGetErrorString(e_));                    \
	} while (0)

#define DLB_CUDNN_MAX_ALGOS 16

/* One problem's descriptors, and the algorithms the heuristic and Find named for it. */
struct dlb_cudnn_conv {
	cudnnHandle_t h;
	void *x_desc, *y_desc, *w_desc, *conv_desc; /* cuDNN's descriptors (its legacy API's types) */
	void *conv_dm;                               /* the convolution in cuDNN's default math */
	int nalgo;
	int algo[DLB_CUDNN_MAX_ALGOS];
	size_t ws_need[DLB_CUDNN_MAX_ALGOS];
	int from_find[DLB_CUDNN_MAX_ALGOS]; /* 0: the heuristic's first choice; 1: one of Find's; 2: Find's best in
	                                     * the default math */
	int math[DLB_CUDNN_MAX_ALGOS];      /* cudnnMathType_t it ran with */
	int type;                           /* enum dlb_cudnn_type */
	void *ws;
	size_t ws_bytes;
};

/* The tensors' types: fp32; fp16 with fp32 accumulation; int8 x and w with int32 accumulation and a float y
 * (INT8_EXT_CONFIG, which cuDNN runs in NHWC only). */
enum dlb_cudnn_type { DLB_CUDNN_F32, DLB_CUDNN_F16, DLB_CUDNN_S8 };

int dlb_cudnn_open(void *stream, cudnnHandle_t *h);
void dlb_cudnn_close(cudnnHandle_t h);
/* Descriptors for the conv problem dim (ops/conv/conv.h's order), NCHW/KCRS or NHWC/KRSC: fp32 tensors in FMA
 * math, fp16 tensors with fp32 accumulation or int8 ones with int32 in tensor-op math. */
int dlb_cudnn_conv_open(cudnnHandle_t h, const int64_t *dim, enum dlb_cudnn_type type, struct dlb_cudnn_conv *c);
void dlb_cudnn_conv_close(struct dlb_cudnn_conv *c);
/* The heuristic's first choice, then each algorithm Find ran on x, w, y (y is overwritten) that succeeded
 * within ws_max bytes of workspace (fp32: those in FMA math; then Find's fastest in the default math, with
 * the math type it reports). The workspace they need is allocated once (c->ws). */
int dlb_cudnn_conv_algos(struct dlb_cudnn_conv *c, const void *x, const void *w, void *y, size_t ws_max);
/* Run algorithm i of c->algo: y = x * w. */
int dlb_cudnn_conv_run(struct dlb_cudnn_conv *c, int i, const void *x, const void *w, void *y);
/* "IMPLICIT_PRECOMP_GEMM" */
const char *dlb_cudnn_algo_name(int algo);
/* "FMA", "TF32/tensor cores" */
const char *dlb_cudnn_math_name(int math);
#endif
