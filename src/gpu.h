/* gpu: everything one process needs to run and time kernels on one GPU, created on the first cache miss:
 * the device, the timing harness, the helper kernels of templates/util.cu, and each op family's own state
 * (its vendor library, its references), opened on first use. */
#ifndef DLB_GPU_H
#define DLB_GPU_H
#include "bench.h"
#include "device.h"

#define DLB_GPU_MAX_FAMILIES 8
struct dlb_family;

struct dlb_gpu {
	struct dlb_device *dev;
	struct dlb_bench bench;
	struct dlb_module util;
	cudaKernel_t fill_f32, compare_f32, fill_f16, fill_s8, compare_f16, compare_s32, stream_floor;
	const struct dlb_family *fam[DLB_GPU_MAX_FAMILIES];
	void *fam_state[DLB_GPU_MAX_FAMILIES];
	int nfam;
	unsigned *d_res; /* compare results */
	char arch[16];
};

int dlb_gpu_open(struct dlb_device *dev, struct dlb_gpu *g);
void dlb_gpu_close(struct dlb_gpu *g);
/* f's per-process state (f->open on first use, f->close with the context); *state NULL when f has none. */
int dlb_gpu_family_state(struct dlb_gpu *g, const struct dlb_family *f, void **state);
/* Compile an embedded file for this GPU and load it (a family's reference kernels). */
int dlb_gpu_load_embedded(struct dlb_gpu *g, const char *name, struct dlb_module *m);
#endif
