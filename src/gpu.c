/* gpu: lazily created per-process GPU context. */
#include "gpu.h"

#include "embedded.h"
#include "err.h"
#include "jit.h"

#include <errno.h>
#include <string.h>

int dlb_gpu_open(struct dlb_device *dev, struct dlb_gpu *g)
{
	int rc = 0;
	struct dlb_jit_job job = {0};
	memset(g, 0, sizeof *g);
	g->dev = dev;
	dlb_device_arch(dev, g->arch, sizeof g->arch);
	DLB_CHECK(dlb_bench_open(dev, &g->bench));
	DLB_CHECK(dlb_blas_open(dev->stream, &g->blas));
	const struct dlb_embedded *util = dlb_embedded_find("util.cu");
	if (!util)
		DLB_FAIL(DLB_E_PARSE, "util.cu is not embedded in this binary");
	job.source = util->text;
	job.arch = g->arch;
	if (dlb_jit_compile(&job))
		DLB_FAIL(DLB_E_NVRTC, "compiling util.cu for %s: %s", g->arch, job.log ? job.log : "");
	DLB_CHECK(dlb_module_load(job.cubin, &g->util));
	DLB_CHECK(dlb_module_kernel(&g->util, "fill_f32_pm1", &g->fill_f32));
	DLB_CHECK(dlb_module_kernel(&g->util, "compare_f32", &g->compare_f32));
	DLB_CHECK(dlb_module_kernel(&g->util, "fill_f16_pm1", &g->fill_f16));
	DLB_CHECK(dlb_module_kernel(&g->util, "fill_s8_16", &g->fill_s8));
	DLB_CHECK(dlb_module_kernel(&g->util, "compare_f16", &g->compare_f16));
	DLB_CHECK(dlb_module_kernel(&g->util, "compare_s32", &g->compare_s32));
	DLB_CHECK(dlb_module_kernel(&g->util, "gemm_ref_s8", &g->gemm_ref_s8));
	DLB_CHECK(dlb_module_kernel(&g->util, "stream_floor", &g->stream_floor));
	DLB_CHECK(dlb_dev_alloc((void **)&g->d_res, 4 * sizeof(unsigned)));
fail:
	dlb_jit_job_free(&job);
	return rc;
}

void dlb_gpu_close(struct dlb_gpu *g)
{
	dlb_dev_free(g->d_res);
	dlb_module_unload(&g->util);
	dlb_blas_close(&g->blas);
	dlb_bench_close(&g->bench);
	memset(g, 0, sizeof *g);
}
