/* device: CUDA runtime calls, each checked with its file:line. */
#include "device.h"

#include "err.h"
#include "result.h"
#include "../store/record.h"
#include "config.h"

#include <math.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "op.h"

#include <cuda.h>
#include <nvrtc.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static _Atomic uint64_t launches;

void dlb_versions_get(struct dlb_versions *v)
{
	memset(v, 0, sizeof *v);
	/* These cannot fail in ways that matter here; a zero means "not available". */
	if (cudaRuntimeGetVersion(&v->runtime) != cudaSuccess)
		v->runtime = 0;
	if (cudaDriverGetVersion(&v->driver) != cudaSuccess)
		v->driver = 0;
	if (nvrtcVersion(&v->nvrtc_major, &v->nvrtc_minor) != NVRTC_SUCCESS)
		v->nvrtc_major = v->nvrtc_minor = 0;
}

int dlb_device_count(int *count)
{
	int rc = 0;
	*count = 0;
	cudaError_t e = cudaGetDeviceCount(count);
	if (e == cudaErrorInsufficientDriver)
		DLB_USER_FAIL(DLB_E_NODRIVER, "no CUDA driver is loaded on this machine (cudaGetDeviceCount: %s); "
					 "GPU commands need an NVIDIA GPU and its driver",
			 cudaGetErrorName(e));
	if (e == cudaErrorNoDevice || (e == cudaSuccess && *count == 0))
		DLB_USER_FAIL(DLB_E_NODEVICE, "the CUDA driver sees no GPU (cudaGetDeviceCount: %s)",
			 cudaGetErrorName(e == cudaSuccess ? cudaErrorNoDevice : e));
	CUDA_CHECK(e);
fail:
	return rc;
}

static int attr(enum cudaDeviceAttr a, int dev, int *out)
{
	int rc = 0;
	CUDA_CHECK(cudaDeviceGetAttribute(out, a, dev));
fail:
	return rc;
}

int dlb_device_open(int ordinal, struct dlb_device *dev)
{
	int rc = 0, count = 0;
	memset(dev, 0, sizeof *dev);
	DLB_CHECK(dlb_device_count(&count));
	if (ordinal < 0 || ordinal >= count)
		DLB_USER_FAIL(DLB_E_NODEVICE, "no GPU %d: this machine has %d (0..%d)", ordinal, count, count - 1);
	CUDA_CHECK(cudaSetDevice(ordinal));
	struct cudaDeviceProp p;
	CUDA_CHECK(cudaGetDeviceProperties(&p, ordinal));
	dev->ordinal = ordinal;
	snprintf(dev->name, sizeof dev->name, "%s", p.name);
	const unsigned char *u = (const unsigned char *)p.uuid.bytes;
	snprintf(dev->uuid, sizeof dev->uuid,
		 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1], u[2],
		 u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
	dev->cc_major = p.major;
	dev->cc_minor = p.minor;
	dev->sm_count = p.multiProcessorCount;
	dev->l2_bytes = (size_t)p.l2CacheSize;
	dev->smem_per_block = p.sharedMemPerBlock;
	dev->smem_per_block_optin = p.sharedMemPerBlockOptin;
	dev->smem_per_sm = p.sharedMemPerMultiprocessor;
	dev->max_threads_per_block = p.maxThreadsPerBlock;
	dev->regs_per_block = p.regsPerBlock;
	dev->regs_per_sm = p.regsPerMultiprocessor;
	dev->total_mem = p.totalGlobalMem;
	DLB_CHECK(attr(cudaDevAttrClockRate, ordinal, &dev->clock_khz));
	DLB_CHECK(attr(cudaDevAttrMemoryClockRate, ordinal, &dev->mem_clock_khz));
	DLB_CHECK(attr(cudaDevAttrGlobalMemoryBusWidth, ordinal, &dev->mem_bus_bits));
	dlb_versions_get(&dev->ver);
	CUDA_CHECK(cudaStreamCreateWithFlags(&dev->stream, cudaStreamNonBlocking));
fail:
	return rc;
}

void dlb_device_close(struct dlb_device *dev)
{
	if (dev->stream)
		(void)cudaStreamDestroy(dev->stream); /* teardown: nothing useful to do on failure */
	dev->stream = NULL;
}

double dlb_device_fp32_peak_tflops(const struct dlb_device *dev)
{
	/* FP32 lanes per SM: 64 on sm_80 (A100), 128 on sm_86/89/90 and later. */
	int lanes = (dev->cc_major == 8 && dev->cc_minor == 0) ? 64 : 128;
	return 2.0 * lanes * dev->sm_count * (dev->clock_khz * 1e3) / 1e12;
}

/* Dense tensor-core operations per clock per SM (a multiply-add counts 2): fp16 inputs with fp32
 * accumulation, and int8. A100 (sm_80): 312 TFLOP/s = 108 SMs x 1.41 GHz x 2048. H100/H200 (sm_90):
 * 989 TFLOP/s and 1979 TOPS = 132 SMs x 1.83 GHz x 4096 / 8192. Other chips: unknown (NAN), not guessed. */
static const struct {
	int major, minor;
	double fp16, int8;
} tensor_rates[] = {
	{8, 0, 2048, 4096},
	{9, 0, 4096, 8192},
};

double dlb_device_peak_gbs(const struct dlb_device *dev)
{
	/* double data rate: two transfers per memory clock over the bus */
	double gbs = 2.0 * (dev->mem_clock_khz * 1e3) * (dev->mem_bus_bits / 8.0) / 1e9;
	return gbs > 0 ? gbs : NAN;
}

double dlb_device_peak_tflops(const struct dlb_device *dev, enum dlb_prec prec)
{
	if (prec == DLB_PREC_FP32)
		return dlb_device_fp32_peak_tflops(dev);
	for (size_t i = 0; i < sizeof tensor_rates / sizeof tensor_rates[0]; i++)
		if (tensor_rates[i].major == dev->cc_major && tensor_rates[i].minor == dev->cc_minor)
			return (prec == DLB_PREC_FP16 ? tensor_rates[i].fp16 : tensor_rates[i].int8) * dev->sm_count *
			       (dev->clock_khz * 1e3) / 1e12;
	return NAN;
}

void dlb_device_arch(const struct dlb_device *dev, char *buf, size_t len)
{
	/* Hopper: the arch-specific target, so templates may use wgmma and setmaxnreg */
	snprintf(buf, len, "sm_%d%d%s", dev->cc_major, dev->cc_minor, dev->cc_major == 9 && dev->cc_minor == 0 ? "a" : "");
}

int dlb_device_free_mem(size_t *free_bytes)
{
	int rc = 0;
	size_t total = 0;
	CUDA_CHECK(cudaMemGetInfo(free_bytes, &total));
fail:
	return rc;
}

int dlb_module_load(const void *cubin, struct dlb_module *m)
{
	int rc = 0;
	m->lib = NULL;
	CUDA_CHECK(cudaLibraryLoadData(&m->lib, cubin, NULL, NULL, 0, NULL, NULL, 0));
fail:
	return rc;
}

void dlb_module_unload(struct dlb_module *m)
{
	if (m->lib)
		(void)cudaLibraryUnload(m->lib); /* teardown */
	m->lib = NULL;
}

int dlb_module_kernel(const struct dlb_module *m, const char *name, cudaKernel_t *k)
{
	int rc = 0;
	CUDA_CHECK(cudaLibraryGetKernel(k, m->lib, name));
fail:
	return rc;
}

int dlb_kernel_attrs(cudaKernel_t k, struct cudaFuncAttributes *attrs)
{
	int rc = 0;
	CUDA_CHECK(cudaFuncGetAttributes(attrs, (const void *)k));
fail:
	return rc;
}

int dlb_kernel_allow_smem(cudaKernel_t k, size_t bytes)
{
	int rc = 0, dev = 0;
	CUDA_CHECK(cudaGetDevice(&dev));
	CUDA_CHECK(cudaKernelSetAttributeForDevice(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes, dev));
fail:
	return rc;
}

void dlb_count_launch(void)
{
	atomic_fetch_add(&launches, 1);
}

uint64_t dlb_launch_count(void)
{
	return atomic_load(&launches);
}

dim3 dlb_grid_for(int64_t n, int threads, int sm_count)
{
	int64_t blocks = (n + threads - 1) / threads, cap = (int64_t)sm_count * 8;
	return (dim3){(unsigned)(blocks < 1 ? 1 : blocks > cap ? cap : blocks), 1, 1};
}

int dlb_launch(cudaKernel_t k, dim3 grid, dim3 block, size_t smem, cudaStream_t s, void **args)
{
	int rc = 0;
	dlb_count_launch();
	CUDA_CHECK(cudaLaunchKernel((const void *)k, grid, block, args, smem, s));
fail:
	return rc;
}

/* The launch attribute of thread-block clusters of cluster.x x cluster.y x cluster.z blocks. */
static void cluster_attr(cudaLaunchAttribute *a, dim3 cluster)
{
	a->id = cudaLaunchAttributeClusterDimension;
	a->val.clusterDim.x = cluster.x;
	a->val.clusterDim.y = cluster.y;
	a->val.clusterDim.z = cluster.z;
}

int dlb_launch_ex(cudaKernel_t k, dim3 grid, dim3 block, size_t smem, cudaStream_t s, void **args, int dependent,
		  dim3 cluster)
{
	int rc = 0;
	cudaLaunchAttribute attr[2];
	unsigned n = 0;
	memset(attr, 0, sizeof attr);
	if (dependent) {
		attr[n].id = cudaLaunchAttributeProgrammaticStreamSerialization;
		attr[n++].val.programmaticStreamSerializationAllowed = 1;
	}
	if (cluster.x * cluster.y * cluster.z > 1)
		cluster_attr(&attr[n++], cluster);
	cudaLaunchConfig_t cfg = {
	    .gridDim = grid, .blockDim = block, .dynamicSmemBytes = smem, .stream = s, .attrs = attr, .numAttrs = n};
	dlb_count_launch();
	CUDA_CHECK(cudaLaunchKernelExC(&cfg, (const void *)k, args));
fail:
	return rc;
}

int dlb_max_clusters(cudaKernel_t k, dim3 block, size_t smem, dim3 cluster, int *n)
{
	int rc = 0;
	cudaLaunchAttribute attr;
	memset(&attr, 0, sizeof attr);
	cluster_attr(&attr, cluster);
	cudaLaunchConfig_t cfg = {.gridDim = cluster, .blockDim = block, .dynamicSmemBytes = smem, .attrs = &attr,
				  .numAttrs = 1};
	*n = 0;
	CUDA_CHECK(cudaOccupancyMaxActiveClusters(n, (const void *)k, &cfg));
fail:
	return rc;
}

typedef CUresult (*encode_tiled_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
				    const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
				    CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

/* The driver's function `name` (of the CUDA 12.0 driver API) into *fn, once: no link to libcuda. */
static int driver_entry(const char *name, void **fn)
{
	int rc = 0;
	if (*fn)
		return 0;
	enum cudaDriverEntryPointQueryResult q;
	CUDA_CHECK(cudaGetDriverEntryPointByVersion(name, fn, 12000, cudaEnableDefault, &q));
	if (q != cudaDriverEntryPointSuccess || !*fn) {
		*fn = NULL;
		DLB_FAIL(DLB_E_CUDA, "the driver has no %s (query result %d)", name, (int)q);
	}
fail:
	return rc;
}

/* the tensor-map element type of es-byte elements: bytes, fp16, fp32 */
static CUtensorMapDataType tmap_type(int es)
{
	return es == 1 ? CU_TENSOR_MAP_DATA_TYPE_UINT8
	       : es == 4 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
			 : CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
}

int dlb_tmap_2d(struct dlb_tmap *m, int es, const void *base, uint64_t inner, uint64_t outer, uint64_t stride,
		uint32_t box_inner, uint32_t box_outer)
{
	const uint64_t dims[2] = {inner, outer}, strides[1] = {stride};
	const uint32_t box[2] = {box_inner, box_outer};
	return dlb_tmap_tiled(m, es, base, 2, dims, strides, box);
}

static int encode_tiled(struct dlb_tmap *m, int es, const void *base, int rank, const uint64_t *dims,
			const uint64_t *strides, const uint32_t *box, CUtensorMapSwizzle swizzle);

int dlb_tmap_tiled(struct dlb_tmap *m, int es, const void *base, int rank, const uint64_t *dims,
		   const uint64_t *strides, const uint32_t *box)
{
	return encode_tiled(m, es, base, rank, dims, strides, box, CU_TENSOR_MAP_SWIZZLE_128B);
}

int dlb_tmap_2d_plain(struct dlb_tmap *m, int es, const void *base, uint64_t inner, uint64_t outer, uint64_t stride,
		      uint32_t box_inner, uint32_t box_outer)
{
	const uint64_t dims[2] = {inner, outer}, strides[1] = {stride};
	const uint32_t box[2] = {box_inner, box_outer};
	return encode_tiled(m, es, base, 2, dims, strides, box, CU_TENSOR_MAP_SWIZZLE_NONE);
}

static int encode_tiled(struct dlb_tmap *m, int es, const void *base, int rank, const uint64_t *dims,
			const uint64_t *strides, const uint32_t *box, CUtensorMapSwizzle swizzle)
{
	_Static_assert(sizeof(struct dlb_tmap) == sizeof(CUtensorMap), "a tensor map is 128 bytes");
	static void *fn;
	int rc = 0;
	if (rank < 2 || rank > 5)
		DLB_FAIL(DLB_E_LIMIT, "a tensor map of rank %d (2..5)", rank);
	DLB_CHECK(driver_entry("cuTensorMapEncodeTiled", &fn));
	encode_tiled_fn encode = (encode_tiled_fn)fn;
	memset(m, 0, sizeof *m);
	cuuint64_t dim[5], str[4];
	cuuint32_t bx[5], one[5] = {1, 1, 1, 1, 1};
	for (int i = 0; i < rank; i++) {
		dim[i] = dims[i], bx[i] = box[i];
		if (i)
			str[i - 1] = strides[i - 1];
	}
	CUresult r = encode((CUtensorMap *)m, tmap_type(es), (cuuint32_t)rank, (void *)base, dim, str, bx, one,
			    CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
			    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	if (r != CUDA_SUCCESS)
		DLB_FAIL(DLB_E_LIMIT,
			 "cuTensorMapEncodeTiled: error %d (rank %d, %llu x %llu%s elements of %d bytes, line stride %llu "
			 "bytes, box %u x %u%s)",
			 (int)r, rank, (unsigned long long)dims[0], (unsigned long long)dims[1], rank > 2 ? " x ..." : "",
			 es, (unsigned long long)strides[0], box[0], box[1], rank > 2 ? " x ..." : "");
fail:
	return rc;
}

typedef CUresult (*encode_im2col_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
				     const cuuint64_t *, const int *, const int *, cuuint32_t, cuuint32_t,
				     const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
				     CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

int dlb_tmap_im2col(struct dlb_tmap *m, int es, const void *base, const uint64_t nhwc[4], const int lower[2],
		    const int upper[2], const uint32_t step[2], uint32_t channels, uint32_t pixels)
{
	static void *fn;
	int rc = 0;
	DLB_CHECK(driver_entry("cuTensorMapEncodeIm2col", &fn));
	encode_im2col_fn encode = (encode_im2col_fn)fn;
	memset(m, 0, sizeof *m);
	/* innermost first: C, W, H, N; byte strides of W, H and N */
	cuuint64_t dim[4] = {nhwc[3], nhwc[2], nhwc[1], nhwc[0]};
	cuuint64_t str[3] = {(cuuint64_t)es * nhwc[3], (cuuint64_t)es * nhwc[3] * nhwc[2],
			     (cuuint64_t)es * nhwc[3] * nhwc[2] * nhwc[1]};
	cuuint32_t estr[4] = {1, step[0], step[1], 1}; /* element strides: the traversal's steps */
	CUresult r = encode((CUtensorMap *)m, tmap_type(es), 4, (void *)base, dim, str, lower, upper,
			    channels, pixels, estr, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
			    CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	if (r != CUDA_SUCCESS)
		DLB_FAIL(DLB_E_LIMIT,
			 "cuTensorMapEncodeIm2col: error %d (N %llu, H %llu, W %llu, C %llu; corners %d,%d and %d,%d; "
			 "steps %u,%u; %u channels x %u pixels)",
			 (int)r, (unsigned long long)nhwc[0], (unsigned long long)nhwc[1], (unsigned long long)nhwc[2],
			 (unsigned long long)nhwc[3], lower[0], lower[1], upper[0], upper[1], step[0], step[1], channels,
			 pixels);
fail:
	return rc;
}

int dlb_dev_alloc(void **p, size_t bytes)
{
	int rc = 0;
	*p = NULL;
	CUDA_CHECK(cudaMalloc(p, bytes ? bytes : 1));
fail:
	return rc;
}

void dlb_dev_free(void *p)
{
	if (p)
		(void)cudaFree(p); /* teardown */
}

void dlb_platform_of(const struct dlb_device *dev, struct dlb_platform *p)
{
	struct utsname u;
	time_t now = time(NULL);
	memset(p, 0, sizeof *p);
	snprintf(p->gpu, sizeof p->gpu, "%.127s", dev->name);
	snprintf(p->uuid, sizeof p->uuid, "%s", dev->uuid);
	p->sm = dev->cc_major * 10 + dev->cc_minor;
	p->sm_count = dev->sm_count;
	p->clock_mhz = dev->clock_khz / 1000;
	p->mem_clock_mhz = dev->mem_clock_khz / 1000;
	p->mem_bus_bits = dev->mem_bus_bits;
	p->memory_gib = (double)dev->total_mem / (1 << 30);
	p->l2_mib = (double)dev->l2_bytes / (1 << 20);
	p->driver = dev->ver.driver;
	p->cuda = dev->ver.runtime;
	p->nvrtc = dev->ver.nvrtc_major * 100 + dev->ver.nvrtc_minor;
	for (int i = 0; dlb_libs[i] && i < DLB_MAX_LIBS; i++)
		p->lib[i] = dlb_libs[i]->version();
	if (gethostname(p->hostname, sizeof p->hostname - 1))
		snprintf(p->hostname, sizeof p->hostname, "?");
	if (uname(&u) == 0)
		snprintf(p->kernel, sizeof p->kernel, "%.40s %.50s", u.sysname, u.release);
	FILE *ci = fopen("/proc/cpuinfo", "r"); /* Linux: the first "model name" line */
	char line[256];
	while (ci && fgets(line, sizeof line, ci)) {
		char *c = strchr(line, ':');
		if (strncmp(line, "model name", 10) || !c)
			continue;
		c += strspn(c + 1, " \t") + 1;
		c[strcspn(c, "\n")] = 0;
		snprintf(p->cpu, sizeof p->cpu, "%.95s", c);
		break;
	}
	if (ci)
		fclose(ci);
	snprintf(p->dlbtune, sizeof p->dlbtune, "%s", PACKAGE_VERSION);
	strftime(p->first_seen, sizeof p->first_seen, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	snprintf(p->last_seen, sizeof p->last_seen, "%s", p->first_seen);
	dlb_platform_key(p);
}
