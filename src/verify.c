/* verify: helper kernels from templates/util.cu, launched through dlb_launch (so they are counted). */
#include "verify.h"

#include "err.h"

#include <float.h>
#include <string.h>

static dim3 grid_for(int64_t n, int threads, int sm_count)
{
	int64_t blocks = (n + threads - 1) / threads, cap = (int64_t)sm_count * 8;
	return (dim3){(unsigned)(blocks < 1 ? 1 : blocks > cap ? cap : blocks), 1, 1};
}

int dlb_fill_f32(struct dlb_gpu *g, float *p, int64_t n, uint64_t seed)
{
	int64_t nn = n;
	void *args[] = {&p, &nn, &seed};
	return dlb_launch(g->fill_f32, grid_for(n, 256, g->dev->sm_count), (dim3){256, 1, 1}, 0, g->dev->stream,
			  args);
}

int dlb_poison(struct dlb_gpu *g, void *p, size_t bytes)
{
	int rc = 0;
	dlb_count_launch();
	CUDA_CHECK(cudaMemsetAsync(p, 0xff, bytes, g->dev->stream));
fail:
	return rc;
}

static float bits_to_float(unsigned u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

int dlb_compare_f32(struct dlb_gpu *g, const float *out, int64_t ldo, const float *ref, int64_t ldr, int64_t M,
		    int64_t N, double tol, struct dlb_check *c)
{
	int rc = 0;
	unsigned h[4];
	void *args[] = {&out, &ldo, &ref, &ldr, &M, &N, &g->d_res};
	dlb_count_launch();
	CUDA_CHECK(cudaMemsetAsync(g->d_res, 0, 4 * sizeof(unsigned), g->dev->stream));
	DLB_CHECK(dlb_launch(g->compare_f32, grid_for(M * N, 256, g->dev->sm_count), (dim3){256, 1, 1}, 0,
			     g->dev->stream, args));
	CUDA_CHECK(cudaMemcpyAsync(h, g->d_res, sizeof h, cudaMemcpyDeviceToHost, g->dev->stream));
	CUDA_CHECK(cudaStreamSynchronize(g->dev->stream));
	c->max_err = bits_to_float(h[0]);
	c->nonfinite = h[1];
	c->max_ref = bits_to_float(h[2]);
	c->tol = tol;
	c->ok = c->nonfinite == 0 && c->max_err <= tol;
fail:
	return rc;
}

double dlb_tol_fp32(int64_t k)
{
	return 8.0 * FLT_EPSILON * (double)k * 0.25;
}
