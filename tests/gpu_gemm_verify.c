/* gpu_gemm_verify: every candidate of the fp32 GEMM space (and every split-K variant) verified against
 * cuBLAS on odd shapes in all four layouts. Exit 77 without a GPU (99 if DLB_REQUIRE_GPU is set).
 * DLB_VERIFY_SHAPES=N keeps the first N shapes (for a run under compute-sanitizer). */
#include "../src/device.h"
#include "../src/err.h"
#include "../src/ops/gemm.h"
#include "../src/tune.h"

#include <stdio.h>
#include <stdlib.h>

static const int64_t shapes[][3] = {
	{1, 1, 1},     {7, 7, 7},       {35, 35, 35},  {129, 129, 129}, {1760, 16, 1760},
	{35, 1760, 129}, {129, 7, 1760}, {33, 17, 4099}, {127, 131, 67},  {1760, 1760, 1760},
};

int main(void)
{
	struct dlb_device dev;
	struct dlb_gpu g;
	struct dlb_candidate *cand = NULL;
	struct dlb_limits lim;
	int ncand = 0, rc = dlb_device_open(0, &dev);
	if (rc == DLB_E_NODRIVER || rc == DLB_E_NODEVICE) {
		printf("gpu_gemm_verify: skipped: %s\n", dlb_last_error());
		return getenv("DLB_REQUIRE_GPU") ? 99 : 77;
	}
	if (rc || dlb_gpu_open(&dev, &g)) {
		printf("gpu_gemm_verify: %s\n", dlb_last_error());
		return 99;
	}
	dlb_limits_of(&dev, &lim);
	if (dlb_compile_space(&dlb_op_gemm, g.arch, &lim, 0, &cand, &ncand)) {
		printf("gpu_gemm_verify: %s\n", dlb_last_error());
		return 99;
	}
	long runs = 0, wrong = 0, errors = 0, compiled = 0;
	size_t nshapes = sizeof shapes / sizeof shapes[0];
	if (getenv("DLB_VERIFY_SHAPES") && atoi(getenv("DLB_VERIFY_SHAPES")) > 0 &&
	    (size_t)atoi(getenv("DLB_VERIFY_SHAPES")) < nshapes)
		nshapes = (size_t)atoi(getenv("DLB_VERIFY_SHAPES"));
	for (int i = 0; i < ncand; i++) {
		if (cand[i].job.rc)
			continue;
		compiled++;
		if (dlb_module_load(cand[i].job.cubin, &cand[i].mod))
			return printf("load %s: %s\n", cand[i].text, dlb_last_error()), 99;
		cand[i].loaded = 1;
		for (int k = 0; k < dlb_op_gemm.nkernels; k++)
			if (dlb_module_kernel(&cand[i].mod, dlb_op_gemm.kernel_names[k], &cand[i].kernels[k]))
				return printf("kernel %s: %s\n", cand[i].text, dlb_last_error()), 99;
	}
	for (size_t s = 0; s < nshapes; s++)
		for (int layout = 0; layout < 4; layout++) {
			struct dlb_problem p = {&dlb_op_gemm, DLB_PREC_FP32, shapes[s][0], shapes[s][1], shapes[s][2],
						layout / 2, layout % 2, 0};
			void *state = NULL;
			if (dlb_op_gemm.setup(&g, &p, &state)) {
				printf("setup %lldx%lldx%lld: %s\n", (long long)p.m, (long long)p.n, (long long)p.k,
				       dlb_last_error());
				return 99;
			}
			for (int i = 0; i < ncand; i++) {
				if (!cand[i].loaded)
					continue;
				int splits[8];
				int nv = dlb_op_gemm.variants(state, &cand[i], splits, 8);
				for (int v = 0; v < nv; v++) {
					struct dlb_check chk;
					runs++;
					int vr = dlb_op_gemm.verify(state, &cand[i], splits[v], &chk);
					if (vr) {
						errors++;
						printf("ERROR %s SPLITK=%d on %lldx%lldx%lld %s: %s\n", cand[i].text, splits[v],
						       (long long)p.m, (long long)p.n, (long long)p.k,
						       dlb_layout_name(p.ta, p.tb), dlb_last_error());
						if (vr == DLB_E_CUDA_STICKY)
							return 1;
					} else if (!chk.ok) {
						wrong++;
						printf("WRONG %s SPLITK=%d on %lldx%lldx%lld %s: max err %g (tol %g), %llu "
						       "non-finite\n",
						       cand[i].text, splits[v], (long long)p.m, (long long)p.n, (long long)p.k,
						       dlb_layout_name(p.ta, p.tb), chk.max_err, chk.tol,
						       (unsigned long long)chk.nonfinite);
					}
				}
			}
			dlb_op_gemm.teardown(state);
		}
	printf("gpu_gemm_verify: %ld candidates on %s, %ld runs over %zu shapes x 4 layouts: %ld wrong, %ld errors\n",
	       compiled, dev.name, runs, nshapes, wrong, errors);
	dlb_candidates_free(cand, ncand);
	dlb_gpu_close(&g);
	dlb_device_close(&dev);
	return wrong || errors || compiled < 100 ? 1 : 0;
}
