/* verify: helper kernels from templates/util.cu, launched through dlb_launch (so they are counted). */
#include "verify.h"

#include "err.h"

#include <float.h>
#include <string.h>

int dlb_fill_f32(struct dlb_gpu *g, float *p, int64_t n, uint64_t seed)
{
	int64_t nn = n;
	void *args[] = {&p, &nn, &seed};
	return dlb_launch(g->fill_f32, dlb_grid_for(n, 256, g->dev->sm_count), (dim3){256, 1, 1}, 0, g->dev->stream,
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

/* Zero the result words, run the comparison kernel, read the words back. */
static int run_compare(struct dlb_gpu *g, cudaKernel_t k, int64_t M, int64_t N, void **args, unsigned h[4])
{
	int rc = 0;
	dlb_count_launch();
	CUDA_CHECK(cudaMemsetAsync(g->d_res, 0, 4 * sizeof(unsigned), g->dev->stream));
	DLB_CHECK(dlb_launch(k, dlb_grid_for(M * N, 256, g->dev->sm_count), (dim3){256, 1, 1}, 0, g->dev->stream, args));
	CUDA_CHECK(cudaMemcpyAsync(h, g->d_res, 4 * sizeof(unsigned), cudaMemcpyDeviceToHost, g->dev->stream));
	CUDA_CHECK(cudaStreamSynchronize(g->dev->stream));
fail:
	return rc;
}

int dlb_compare_f32(struct dlb_gpu *g, const float *out, int64_t ldo, const float *ref, int64_t ldr, int64_t M,
		    int64_t N, double tol, struct dlb_check *c)
{
	int rc = 0;
	unsigned h[4];
	void *args[] = {&out, &ldo, &ref, &ldr, &M, &N, &g->d_res};
	DLB_CHECK(run_compare(g, g->compare_f32, M, N, args, h));
	c->max_err = bits_to_float(h[0]);
	c->nonfinite = h[1];
	c->max_ref = bits_to_float(h[2]);
	c->tol = tol;
	c->refereed = 0;
	c->bad = c->nonfinite + (c->max_err > tol);
	c->ok = c->nonfinite == 0 && c->max_err <= tol;
fail:
	return rc;
}

int dlb_fill_f16(struct dlb_gpu *g, void *p, int64_t n, uint64_t seed)
{
	int64_t nn = n;
	void *args[] = {&p, &nn, &seed};
	return dlb_launch(g->fill_f16, dlb_grid_for(n, 256, g->dev->sm_count), (dim3){256, 1, 1}, 0, g->dev->stream,
			  args);
}

int dlb_fill_s8(struct dlb_gpu *g, void *p, int64_t n, uint64_t seed)
{
	int64_t nn = n;
	void *args[] = {&p, &nn, &seed};
	return dlb_launch(g->fill_s8, dlb_grid_for(n, 256, g->dev->sm_count), (dim3){256, 1, 1}, 0, g->dev->stream,
			  args);
}

int dlb_compare_f16(struct dlb_gpu *g, const void *out, int64_t ldo, const float *ref, int64_t ldr, int64_t M,
		    int64_t N, double abs_tol, struct dlb_check *c)
{
	int rc = 0;
	unsigned h[4];
	float rel = (float)DLB_TOL_FP16_REL, at = (float)abs_tol;
	void *args[] = {&out, &ldo, &ref, &ldr, &M, &N, &rel, &at, &g->d_res};
	DLB_CHECK(run_compare(g, g->compare_f16, M, N, args, h));
	c->max_err = bits_to_float(h[0]);
	c->bad = h[1];
	c->nonfinite = 0; /* counted in bad */
	c->max_ref = bits_to_float(h[2]);
	c->tol = abs_tol;
	c->refereed = 0;
	c->ok = c->bad == 0;
fail:
	return rc;
}

int dlb_compare_s32(struct dlb_gpu *g, const int *out, int64_t ldo, const int *ref, int64_t ldr, int64_t M,
		    int64_t N, struct dlb_check *c)
{
	int rc = 0;
	unsigned h[4];
	void *args[] = {&out, &ldo, &ref, &ldr, &M, &N, &g->d_res};
	DLB_CHECK(run_compare(g, g->compare_s32, M, N, args, h));
	c->max_err = h[0];
	c->bad = h[1];
	c->nonfinite = 0;
	c->max_ref = h[2];
	c->tol = 0;
	c->refereed = 0;
	c->ok = c->bad == 0;
fail:
	return rc;
}

double dlb_tol_fp32(int64_t k)
{
	return 8.0 * FLT_EPSILON * (double)k * 0.25;
}

int dlb_stream_floor(struct dlb_gpu *g, const void *a, size_t na, const void *b, size_t nb, void *c, size_t nc)
{
	int64_t la = (int64_t)na, lb = (int64_t)nb, lc = (int64_t)nc;
	void *args[] = {&a, &la, &b, &lb, &c, &lc};
	/* four 16-byte loads per thread per step; at most 8 blocks of 256 per SM */
	int64_t work = (la + lb) / 64 > lc / 16 ? (la + lb) / 64 : lc / 16;
	return dlb_launch(g->stream_floor, dlb_grid_for(work, 256, g->dev->sm_count), (dim3){256, 1, 1}, 0,
			  g->dev->stream, args);
}
