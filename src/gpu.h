/* gpu: everything one process needs to run and time kernels on one GPU, created on the first cache miss:
 * the device, the timing harness, cuBLAS handles and the helper kernels of templates/util.cu. */
#ifndef DLB_GPU_H
#define DLB_GPU_H
#include "bench.h"
#include "device.h"
#include "vendor_cublas.h"

struct dlb_gpu {
	struct dlb_device *dev;
	struct dlb_bench bench;
	struct dlb_blas blas;
	struct dlb_module util;
	cudaKernel_t fill_f32, compare_f32, fill_f16, fill_s8, compare_f16, compare_s32, gemm_ref_s8, stream_floor;
	unsigned *d_res; /* compare results */
	char arch[16];
};

int dlb_gpu_open(struct dlb_device *dev, struct dlb_gpu *g);
void dlb_gpu_close(struct dlb_gpu *g);
#endif
