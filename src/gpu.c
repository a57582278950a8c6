/* gpu: lazily created per-process GPU context. */
#include "gpu.h"

#include "embedded.h"
#include "err.h"
#include "jit.h"
#include "op.h"

#include <errno.h>
#include <string.h>

int dlb_gpu_open(struct dlb_device *dev, struct dlb_gpu *g)
{
	int rc = 0;
	memset(g, 0, sizeof *g);
	g->dev = dev;
	dlb_device_arch(dev, g->arch, sizeof g->arch);
	DLB_CHECK(dlb_bench_open(dev, &g->bench));
	DLB_CHECK(dlb_gpu_load_embedded(g, "util.cu", &g->util));
	DLB_CHECK(dlb_module_kernel(&g->util, "fill_f32_pm1", &g->fill_f32));
	DLB_CHECK(dlb_module_kernel(&g->util, "compare_f32", &g->compare_f32));
	DLB_CHECK(dlb_module_kernel(&g->util, "fill_f16_pm1", &g->fill_f16));
	DLB_CHECK(dlb_module_kernel(&g->util, "fill_s8_16", &g->fill_s8));
	DLB_CHECK(dlb_module_kernel(&g->util, "compare_f16", &g->compare_f16));
	DLB_CHECK(dlb_module_kernel(&g->util, "compare_s32", &g->compare_s32));
	DLB_CHECK(dlb_module_kernel(&g->util, "stream_floor", &g->stream_floor));
	DLB_CHECK(dlb_module_kernel(&g->util, "hold_stream", &g->bench.hold));
	g->bench.sweep = g->stream_floor; /* the L2 flush reads (bench.c's flush_l2) */
	DLB_CHECK(dlb_dev_alloc((void **)&g->d_res, 4 * sizeof(unsigned)));
fail:
	return rc;
}

int dlb_gpu_load_embedded(struct dlb_gpu *g, const char *name, struct dlb_module *m)
{
	int rc = 0;
	struct dlb_jit_job job = {0};
	const struct dlb_embedded *e = dlb_embedded_find(name);
	if (!e)
		DLB_FAIL(DLB_E_PARSE, "%s is not embedded in this binary", name);
	job.source = e->text;
	job.arch = g->arch;
	if (dlb_jit_compile(&job))
		DLB_FAIL(DLB_E_NVRTC, "compiling %s for %s: %s", name, g->arch, job.log ? job.log : "");
	DLB_CHECK(dlb_module_load(job.cubin, m));
fail:
	dlb_jit_job_free(&job);
	return rc;
}

int dlb_gpu_family_state(struct dlb_gpu *g, const struct dlb_family *f, void **state)
{
	int rc = 0;
	*state = NULL;
	for (int i = 0; i < g->nfam; i++)
		if (g->fam[i] == f) {
			*state = g->fam_state[i];
			return 0;
		}
	if (!f->open)
		return 0;
	if (g->nfam == DLB_GPU_MAX_FAMILIES)
		DLB_FAIL(ENOSPC, "more than %d op families in one process", DLB_GPU_MAX_FAMILIES);
	DLB_CHECK(f->open(g, state));
	g->fam[g->nfam] = f;
	g->fam_state[g->nfam++] = *state;
fail:
	return rc;
}

void dlb_gpu_close(struct dlb_gpu *g)
{
	dlb_dev_free(g->d_res);
	for (int i = g->nfam - 1; i >= 0; i--)
		if (g->fam[i]->close)
			g->fam[i]->close(g->fam_state[i]);
	dlb_module_unload(&g->util);
	dlb_bench_close(&g->bench);
	memset(g, 0, sizeof *g);
}
