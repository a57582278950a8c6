/* ops/conv/vendor_cudnn: cuDNN's descriptors, algorithm lists and runs for the conv family (vendor_cudnn.h). */
#include "vendor_cudnn.h"

#include "../../device.h"
#include "../../err.h"
#include "conv.h"

#include <string.h>

/* cuDNN 9 marks its convolution API deprecated in favour of the graph API; it is still the API whose
 * heuristic and Find users (DeepBench, Benanza, the frameworks) call, so it is the baseline here. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

int dlb_cudnn_open(void *stream, cudnnHandle_t *h)
{
	int rc = 0;
	*h = NULL;
	CUDNN_CHECK(cudnnCreate(h));
	CUDNN_CHECK(cudnnSetStream(*h, (cudaStream_t)stream));
fail:
	return rc;
}

void dlb_cudnn_close(cudnnHandle_t h)
{
	if (h)
		(void)cudnnDestroy(h); /* teardown */
}

const char *dlb_cudnn_algo_name(int algo)
{
	static const char *const names[] = {"IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM", "DIRECT",
					    "FFT", "FFT_TILING", "WINOGRAD", "WINOGRAD_NONFUSED"};
	return algo >= 0 && algo < (int)(sizeof names / sizeof names[0]) ? names[algo] : "?";
}

const char *dlb_cudnn_math_name(int math)
{
	switch (math) {
	case CUDNN_FMA_MATH:
		return "FMA";
	case CUDNN_DEFAULT_MATH:
		return "default (TF32 allowed)";
	case CUDNN_TENSOR_OP_MATH:
	case CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION:
		return "TF32 on the tensor cores";
	}
	return "?";
}

int dlb_cudnn_conv_open(cudnnHandle_t h, const int64_t *d, enum dlb_cudnn_type type, struct dlb_cudnn_conv *c)
{
	int rc = 0;
	cudnnTensorDescriptor_t x = NULL, y = NULL;
	cudnnFilterDescriptor_t w = NULL;
	cudnnConvolutionDescriptor_t cv = NULL, dm = NULL;
	int64_t P, Q;
	int n, k, p, q;
	memset(c, 0, sizeof *c);
	c->h = h;
	c->type = type;
	/* int8: x and w int8, y float, int32 accumulation (cuDNN's INT8_EXT_CONFIG) */
	cudnnDataType_t dt = type == DLB_CUDNN_F16 ? CUDNN_DATA_HALF : type == DLB_CUDNN_S8 ? CUDNN_DATA_INT8 : CUDNN_DATA_FLOAT;
	cudnnDataType_t yt = type == DLB_CUDNN_S8 ? CUDNN_DATA_FLOAT : dt;
	cudnnDataType_t acc = type == DLB_CUDNN_S8 ? CUDNN_DATA_INT32 : CUDNN_DATA_FLOAT;
	dlb_conv_out(d, &P, &Q);
	cudnnTensorFormat_t fmt = d[CONV_LAYOUT] == CONV_NHWC ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
	CUDNN_CHECK(cudnnCreateTensorDescriptor(&x));
	c->x_desc = x;
	CUDNN_CHECK(cudnnCreateTensorDescriptor(&y));
	c->y_desc = y;
	CUDNN_CHECK(cudnnCreateFilterDescriptor(&w));
	c->w_desc = w;
	CUDNN_CHECK(cudnnCreateConvolutionDescriptor(&cv));
	c->conv_desc = cv;
	CUDNN_CHECK(cudnnSetTensor4dDescriptor(x, fmt, dt, (int)d[CONV_N], (int)d[CONV_C], (int)d[CONV_H], (int)d[CONV_W]));
	CUDNN_CHECK(cudnnSetFilter4dDescriptor(w, dt, fmt, (int)d[CONV_K], (int)d[CONV_C], (int)d[CONV_R], (int)d[CONV_S]));
	CUDNN_CHECK(cudnnSetConvolution2dDescriptor(cv, (int)d[CONV_PAD_H], (int)d[CONV_PAD_W], (int)d[CONV_STRIDE_H],
						    (int)d[CONV_STRIDE_W], (int)d[CONV_DIL_H], (int)d[CONV_DIL_W],
						    CUDNN_CROSS_CORRELATION, acc));
	/* fp32: strict (FMA), no TF32. fp16 inputs accumulate in fp32 (the compute type above) on the tensor cores,
	 * int8 in int32 */
	CUDNN_CHECK(cudnnSetConvolutionMathType(cv, type == DLB_CUDNN_F32 ? CUDNN_FMA_MATH : CUDNN_TENSOR_OP_MATH));
	CUDNN_CHECK(cudnnCreateConvolutionDescriptor(&dm));
	c->conv_dm = dm;
	CUDNN_CHECK(cudnnSetConvolution2dDescriptor(dm, (int)d[CONV_PAD_H], (int)d[CONV_PAD_W], (int)d[CONV_STRIDE_H],
						    (int)d[CONV_STRIDE_W], (int)d[CONV_DIL_H], (int)d[CONV_DIL_W],
						    CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
	CUDNN_CHECK(cudnnSetConvolutionMathType(dm, CUDNN_DEFAULT_MATH)); /* what a user gets without asking */
	CUDNN_CHECK(cudnnGetConvolution2dForwardOutputDim(cv, x, w, &n, &k, &p, &q));
	if (n != d[CONV_N] || k != d[CONV_K] || p != P || q != Q)
		DLB_FAIL(DLB_E_VENDOR, "cuDNN's output is %dx%dx%dx%d, ours %lldx%lldx%lldx%lld", n, k, p, q,
			 (long long)d[CONV_N], (long long)d[CONV_K], (long long)P, (long long)Q);
	CUDNN_CHECK(cudnnSetTensor4dDescriptor(y, fmt, yt, n, k, p, q));
fail:
	if (rc)
		dlb_cudnn_conv_close(c);
	return rc;
}

void dlb_cudnn_conv_close(struct dlb_cudnn_conv *c)
{
	if (c->x_desc)
		(void)cudnnDestroyTensorDescriptor(c->x_desc); /* teardown */
	if (c->y_desc)
		(void)cudnnDestroyTensorDescriptor(c->y_desc);
	if (c->w_desc)
		(void)cudnnDestroyFilterDescriptor(c->w_desc);
	if (c->conv_desc)
		(void)cudnnDestroyConvolutionDescriptor(c->conv_desc);
	if (c->conv_dm)
		(void)cudnnDestroyConvolutionDescriptor(c->conv_dm);
	dlb_dev_free(c->ws);
	memset(c, 0, sizeof *c);
}

static int add_algo(struct dlb_cudnn_conv *c, int algo, size_t ws, int from_find, int math)
{
	for (int i = 0; i < c->nalgo; i++)
		if (c->algo[i] == algo && c->from_find[i] == from_find)
			return 0;
	if (c->nalgo == DLB_CUDNN_MAX_ALGOS)
		return 0;
	c->algo[c->nalgo] = algo;
	c->ws_need[c->nalgo] = ws;
	c->math[c->nalgo] = math;
	c->from_find[c->nalgo++] = from_find;
	return 0;
}

int dlb_cudnn_conv_algos(struct dlb_cudnn_conv *c, const void *x, const void *w, void *y, size_t ws_max)
{
	int rc = 0, got = 0;
	cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
	size_t need = 0;
	c->nalgo = 0;
	/* the workspace Find may use: the most any algorithm asks for, within ws_max */
	for (int a = 0; a < 2 * CUDNN_CONVOLUTION_FWD_ALGO_COUNT; a++) {
		size_t b = 0;
		/* an algorithm cuDNN has no engine for answers an error here: it is not a candidate */
		if (cudnnGetConvolutionForwardWorkspaceSize(c->h, c->x_desc, c->w_desc,
							    a < CUDNN_CONVOLUTION_FWD_ALGO_COUNT ? c->conv_desc : c->conv_dm,
							    c->y_desc,
							    (cudnnConvolutionFwdAlgo_t)(a % CUDNN_CONVOLUTION_FWD_ALGO_COUNT),
							    &b) == CUDNN_STATUS_SUCCESS &&
		    b <= ws_max && b > need)
			need = b;
	}
	if (need > c->ws_bytes) {
		dlb_dev_free(c->ws);
		c->ws = NULL;
		c->ws_bytes = 0;
		DLB_CHECK(dlb_dev_alloc(&c->ws, need));
		c->ws_bytes = need;
	}
	CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithm_v7(c->h, c->x_desc, c->w_desc, c->conv_desc, c->y_desc,
							   CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf));
	for (int i = 0; i < got; i++) /* the heuristic's first choice that fits */
		if (perf[i].status == CUDNN_STATUS_SUCCESS && perf[i].memory <= c->ws_bytes) {
			add_algo(c, (int)perf[i].algo, perf[i].memory, 0, (int)perf[i].mathType);
			break;
		}
	got = 0;
	CUDNN_CHECK(cudnnFindConvolutionForwardAlgorithmEx(c->h, c->x_desc, x, c->w_desc, w, c->conv_desc, c->y_desc, y,
							   CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf, c->ws,
							   c->ws_bytes));
	for (int i = 0; i < got; i++)
		if (perf[i].status == CUDNN_STATUS_SUCCESS && perf[i].memory <= c->ws_bytes &&
		    (c->type != DLB_CUDNN_F32 || perf[i].mathType == CUDNN_FMA_MATH))
			add_algo(c, (int)perf[i].algo, perf[i].memory, 1, (int)perf[i].mathType);
	if (c->type != DLB_CUDNN_F32) /* fp16 and int8 have no stricter math to tell apart */
		goto fail;
	got = 0; /* Find in the default math: its fastest, with the math type it ran */
	CUDNN_CHECK(cudnnFindConvolutionForwardAlgorithmEx(c->h, c->x_desc, x, c->w_desc, w, c->conv_dm, c->y_desc, y,
							   CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &got, perf, c->ws,
							   c->ws_bytes));
	for (int i = 0; i < got; i++)
		if (perf[i].status == CUDNN_STATUS_SUCCESS && perf[i].memory <= c->ws_bytes) {
			add_algo(c, (int)perf[i].algo, perf[i].memory, 2, (int)perf[i].mathType);
			/* runs with the math type Find reported for it (set once: never while timing) */
			CUDNN_CHECK(cudnnSetConvolutionMathType(c->conv_dm, perf[i].mathType));
			break;
		}
fail:
	return rc;
}

int dlb_cudnn_conv_run(struct dlb_cudnn_conv *c, int i, const void *x, const void *w, void *y)
{
	int rc = 0;
	const float one = 1.f, zero = 0.f;
	if (i < 0 || i >= c->nalgo)
		DLB_FAIL(DLB_E_USAGE, "no cuDNN algorithm %d", i);
	CUDNN_CHECK(cudnnConvolutionForward(c->h, &one, c->x_desc, x, c->w_desc, w,
					    c->from_find[i] == 2 ? c->conv_dm : c->conv_desc,
					    (cudnnConvolutionFwdAlgo_t)c->algo[i], c->ws, c->ws_bytes, &zero,
					    c->y_desc, y));
	dlb_count_launch();
fail:
	return rc;
}
