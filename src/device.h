/* device: the CUDA runtime seam — device facts, library versions, loading NVRTC cubins and counted launches.
 * Only the runtime API is used, linked statically, so the binary starts and reports cleanly without a driver. */
#ifndef DLB_DEVICE_H
#define DLB_DEVICE_H
#include "problem.h"

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

struct dlb_versions {
	int runtime;     /* cudaRuntimeGetVersion, e.g. 13000 */
	int driver;      /* cudaDriverGetVersion; 0 when no driver is installed */
	int nvrtc_major, nvrtc_minor;
};

struct dlb_device {
	int ordinal;
	char name[256];
	char uuid[48];          /* "GPU-xxxxxxxx-xxxx-..." */
	int cc_major, cc_minor; /* compute capability */
	int sm_count;
	int clock_khz;          /* peak SM clock the driver reports */
	int mem_clock_khz, mem_bus_bits;
	size_t l2_bytes;
	size_t smem_per_block, smem_per_block_optin, smem_per_sm;
	int max_threads_per_block, regs_per_block, regs_per_sm;
	size_t total_mem;
	struct dlb_versions ver;
	cudaStream_t stream;
};

/* Versions of the CUDA runtime, driver and NVRTC (the libraries: struct dlb_lib); works without a GPU (driver then reads 0). */
void dlb_versions_get(struct dlb_versions *v);
/* Count of CUDA devices, or DLB_E_NODRIVER / DLB_E_NODEVICE with a message naming the cause. */
int dlb_device_count(int *count);
int dlb_device_open(int ordinal, struct dlb_device *dev);
void dlb_device_close(struct dlb_device *dev);
/* fp32 FMA peak (TFLOP/s) from SM count and clock: 128 FP32 lanes per SM on sm_80+ (64 on sm_80 itself). */
double dlb_device_fp32_peak_tflops(const struct dlb_device *dev);
/* Peak of a precision in TFLOP/s (TOPS for int8) from the SM count and the clock the driver reports (its
 * maximum: on an H100 SXM 1.98 GHz, so 1070 TFLOP/s fp16 where NVIDIA's 989 assumes 1.83 GHz — the % of
 * peak shown is the stricter one). NAN where unknown. */
double dlb_device_peak_tflops(const struct dlb_device *dev, enum dlb_prec prec);
/* Memory bandwidth in GB/s from the memory clock and bus width; NAN when the driver reports neither. */
double dlb_device_peak_gbs(const struct dlb_device *dev);
/* The NVRTC target for this device: "sm_80", "sm_90a" (Hopper's arch-specific features), ... */
void dlb_device_arch(const struct dlb_device *dev, char *buf, size_t len);
int dlb_device_free_mem(size_t *free_bytes);
/* The platform record of dev: GPU facts, driver and library versions, host, kernel, dlbtune version. */
struct dlb_platform;
void dlb_platform_of(const struct dlb_device *dev, struct dlb_platform *p);

/* A loaded cubin and kernels looked up in it. */
struct dlb_module {
	cudaLibrary_t lib;
};
int dlb_module_load(const void *cubin, struct dlb_module *m);
void dlb_module_unload(struct dlb_module *m);
int dlb_module_kernel(const struct dlb_module *m, const char *name, cudaKernel_t *k);
/* Registers, static shared memory and max threads of a kernel, as the driver sees them. */
int dlb_kernel_attrs(cudaKernel_t k, struct cudaFuncAttributes *attrs);
/* Allow kernel k (on the current device) `bytes` of dynamic shared memory. */
int dlb_kernel_allow_smem(cudaKernel_t k, size_t bytes);

/* The grid of a grid-stride kernel over n elements with `threads` a block: enough blocks for one element a
 * thread, at most 8 an SM (the kernel loops over the rest), at least 1. */
dim3 dlb_grid_for(int64_t n, int threads, int sm_count);

/* Every kernel dlbtune enqueues (its own and vendor calls) goes through here or dlb_count_launch(),
 * so `--verbose` can prove that a cached run launched nothing. */
int dlb_launch(cudaKernel_t k, dim3 grid, dim3 block, size_t smem, cudaStream_t s, void **args);
/* The same with launch attributes (sm_90+; with neither, a plain launch). dependent: a programmatic dependent
 * launch: the kernel may start while the previous kernel on the stream is still running, once every block of
 * that one has run griddepcontrol.launch_dependents; the kernel's own griddepcontrol.wait then waits for it to
 * finish and for its memory. cluster: thread-block clusters of cluster.x x cluster.y x cluster.z blocks,
 * co-scheduled on one GPC ({1, 1, 1}: none). */
int dlb_launch_ex(cudaKernel_t k, dim3 grid, dim3 block, size_t smem, cudaStream_t s, void **args, int dependent,
		  dim3 cluster);
/* How many clusters of `cluster` blocks of kernel k (block threads, smem bytes of dynamic shared memory each)
 * the device runs at once. */
int dlb_max_clusters(cudaKernel_t k, dim3 block, size_t smem, dim3 cluster, int *n);
/* A tensor map for the bulk tensor copy engine (a CUtensorMap: 128 opaque bytes, 64-byte aligned, passed
 * to a kernel by value as a __grid_constant__ parameter). */
struct dlb_tmap {
	_Alignas(64) unsigned char bytes[128];
};
/* Tiles of box_inner x box_outer elements (es bytes: 1, 2 or 4: bytes, fp16, fp32) of a matrix with `inner` contiguous elements per
 * line, `outer` lines, `stride` bytes from line to line (a multiple of 16; base 16-byte aligned), written to
 * shared memory in the 128-byte swizzle (box_inner * es must be 128); outside the matrix, zeros. dlb_tmap_tiled
 * of rank 2. */
int dlb_tmap_2d(struct dlb_tmap *m, int es, const void *base, uint64_t inner, uint64_t outer, uint64_t stride,
		uint32_t box_inner, uint32_t box_outer);
/* A tensor map of rank 2..5 (dims: elements, innermost first; strides: the bytes of dimensions 1..rank-1, each
 * a multiple of 16, in any order, so a box can step through dimensions laid out outer-first: driver 580 accepts
 * this, though the driver API's documentation describes strides that grow; base 16-byte aligned),
 * boxes of box[] elements written to shared memory in the 128-byte swizzle (box[0] * es must be 128); outside
 * the tensor, zeros. Through the driver's cuTensorMapEncodeTiled (found at run time). */
int dlb_tmap_tiled(struct dlb_tmap *m, int es, const void *base, int rank, const uint64_t *dims,
		   const uint64_t *strides, const uint32_t *box);
/* As dlb_tmap_2d, but the box is written to shared memory as it lies in the matrix, box_outer lines of box_inner
 * elements one after another (no swizzle; box_inner * es a multiple of 16, both at most 256). */
int dlb_tmap_2d_plain(struct dlb_tmap *m, int es, const void *base, uint64_t inner, uint64_t outer, uint64_t stride,
		      uint32_t box_inner, uint32_t box_outer);
/* An im2col tensor map of a tensor of es-byte elements (2: fp16, 4: fp32) in NHWC order (nhwc: its N, H, W, C;
 * base 16-byte aligned, C·es a multiple of 16) for convolutions: a copy loads `pixels` pixels x `channels` channels (128 bytes: the 128-byte swizzle),
 * stepping through W, then H, then N by step (W, H) within the pixels from lower (W, H: minus the padding) to
 * the far edge plus upper (the padding less the dilated filter's extent), each read at the copy's offsets;
 * outside the tensor, zeros. Through the driver's cuTensorMapEncodeIm2col (found at run time). */
int dlb_tmap_im2col(struct dlb_tmap *m, int es, const void *base, const uint64_t nhwc[4], const int lower[2],
		    const int upper[2], const uint32_t step[2], uint32_t channels, uint32_t pixels);
void dlb_count_launch(void);
uint64_t dlb_launch_count(void);

int dlb_dev_alloc(void **p, size_t bytes);
void dlb_dev_free(void *p);
#endif
