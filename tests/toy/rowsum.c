/* rowsum: the tests' toy op — y[i] = scale · Σ_j x[i, j] over a row-major fp32 matrix — an op family that
 * lives only under tests/ and plugs into dlbtune through the seam every family uses (src/op.h): its dims
 * (two sizes and a real with a default), its work in bytes (judged in GB/s against the memory bandwidth), its
 * "vendor" (a naive kernel of its own, tests/toy/rowsum_ref.cu, opened once per process), its template, its
 * built-in suite, and a CPU reference every candidate is verified against. Nothing outside tests/ names it. */
#include "rowsum.h"

#include "device.h"
#include "err.h"
#include "verify.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { R_ROWS, R_COLS, R_SCALE, R_NDIMS };

static const struct dlb_dim rowsum_dims[R_NDIMS] = {
	[R_ROWS] = {.name = "rows", .title = "rows", .about = "rows of x, and the length of y", .kind = DLB_DIM_SIZE,
		    .lo = 1, .hi = 1 << 24},
	[R_COLS] = {.name = "cols", .title = "cols", .about = "columns of x: the length of each sum", .kind = DLB_DIM_SIZE,
		    .lo = 1, .hi = 1 << 28},
	[R_SCALE] = {.name = "scale", .title = "scale", .about = "the factor applied to each sum", .kind = DLB_DIM_REAL,
		     .lo = 1, .hi = 100000, .scale = 100, .has_default = 1, .def = 100},
};

static double rowsum_work(const struct dlb_problem *p)
{
	return 4.0 * (double)p->dim[R_ROWS] * (double)p->dim[R_COLS] + 4.0 * (double)p->dim[R_ROWS]; /* bytes moved */
}

static long long toyref_version(void)
{
	return 1;
}

static void toyref_format(long long v, char *buf, int len)
{
	snprintf(buf, (size_t)len, "%lld", v);
}

static const struct dlb_lib toyref = {"toyref", "rowsum's naive kernel", toyref_version, toyref_format, 0};

static const struct dlb_vendor_col rowsum_cols[] = {{"naive us", "naive_us", 0}};

/* The family's per-process state: the naive kernel. */
struct rowsum_shared {
	struct dlb_module mod;
	cudaKernel_t naive;
};

static int rowsum_open(struct dlb_gpu *g, void **state)
{
	int rc = 0;
	struct rowsum_shared *s = calloc(1, sizeof *s);
	if (!s)
		DLB_FAIL(ENOMEM, "out of memory");
	DLB_CHECK(dlb_gpu_load_embedded(g, "rowsum_ref.cu", &s->mod));
	if ((rc = dlb_module_kernel(&s->mod, "rowsum_naive", &s->naive)) != 0) {
		dlb_module_unload(&s->mod);
		goto fail;
	}
	*state = s;
	return 0;
fail:
	free(s);
	*state = NULL;
	return rc;
}

static void rowsum_close(void *state)
{
	struct rowsum_shared *s = state;
	if (s)
		dlb_module_unload(&s->mod);
	free(s);
}

const struct dlb_family toy_family_rowsum = {
	.name = "rowsum",
	.about = "y(rows) = scale * sum over the columns of x(rows x cols), fp32 (the tests' toy op)",
	.examples = "  dlbtune --op rowsum --rows 1024 --cols 4096   the toy op on one problem\n",
	.default_suite = "small",
	.dims = rowsum_dims,
	.ndims = R_NDIMS,
	.work_kind = DLB_WORK_BYTES,
	.work = rowsum_work,
	.vendor_lib = &toyref,
	.vendor_about = "a naive kernel (one thread a row); verified against a CPU sum in double precision",
	.cols = rowsum_cols,
	.ncols = 1,
	.open = rowsum_open,
	.close = rowsum_close,
};

/* ---- the fp32 op ---- */

enum { P_BLOCK, P_ROWS, P_NPARAMS };

static const struct dlb_param rowsum_params[P_NPARAMS] = {
	[P_BLOCK] = {"BLOCK", "threads per block", 4, {64, 128, 256, 512}},
	[P_ROWS] = {"ROWS", "rows per block", 4, {1, 2, 4, 8}},
};

static const struct dlb_constraint rowsum_constraints[] = {
	{.text = "threads per row BLOCK/ROWS in [8, 256]", .kind = DLB_CON_PRODUCT,
	 .exp = {[P_BLOCK] = 1, [P_ROWS] = -1}, .lo = 8, .hi = 256},
};

static const struct dlb_constraint rowsum_limits[] = {
	{.text = "BLOCK <= max threads per block", .kind = DLB_CON_PRODUCT, .exp = {[P_BLOCK] = 1}, .lo = 1,
	 .hi_limit = DLB_LIMIT_THREADS_PER_BLOCK},
};

static const char *const rowsum_kernels[] = {"rowsum"};

#define MAX_SETS 4

struct rowsum_state {
	struct dlb_gpu *g;
	struct rowsum_shared *shared;
	int64_t rows, cols;
	float scale;
	int nsets;
	float *x[MAX_SETS], *y[MAX_SETS], *ref;
	double tol;
};

static size_t set_bytes(const struct dlb_problem *p)
{
	return 4 * ((size_t)p->dim[R_ROWS] * (size_t)p->dim[R_COLS] + (size_t)p->dim[R_ROWS]);
}

static int sets_for(const struct dlb_problem *p, const struct dlb_device *dev)
{
	return dlb_bench_sets(dev, set_bytes(p), MAX_SETS);
}

static size_t rowsum_device_bytes(const struct dlb_problem *p, const struct dlb_device *dev)
{
	return (size_t)(sets_for(p, dev) + 1) * set_bytes(p) + dlb_bench_flush_bytes(dev);
}

static void rowsum_teardown(void *state)
{
	struct rowsum_state *s = state;
	if (!s)
		return;
	for (int i = 0; i < MAX_SETS; i++) {
		dlb_dev_free(s->x[i]);
		dlb_dev_free(s->y[i]);
	}
	dlb_dev_free(s->ref);
	free(s);
}

/* The CPU reference: each row summed in double from set 0's x, scaled, then copied to the device. */
static int cpu_reference(struct rowsum_state *s)
{
	int rc = 0;
	size_t n = (size_t)s->rows * (size_t)s->cols;
	float *x = malloc(n * sizeof *x), *y = malloc((size_t)s->rows * sizeof *y);
	if (!x || !y)
		DLB_FAIL(ENOMEM, "out of memory for the CPU reference");
	CUDA_CHECK(cudaMemcpy(x, s->x[0], n * sizeof *x, cudaMemcpyDeviceToHost));
	for (int64_t i = 0; i < s->rows; i++) {
		double sum = 0;
		for (int64_t j = 0; j < s->cols; j++)
			sum += x[i * s->cols + j];
		y[i] = (float)(s->scale * sum);
	}
	CUDA_CHECK(cudaMemcpy(s->ref, y, (size_t)s->rows * sizeof *y, cudaMemcpyHostToDevice));
fail:
	free(x);
	free(y);
	return rc;
}

static int rowsum_setup(struct dlb_gpu *g, const struct dlb_problem *p, void **state)
{
	int rc = 0;
	struct rowsum_state *s = calloc(1, sizeof *s);
	if (!s)
		DLB_FAIL(ENOMEM, "out of memory");
	s->g = g;
	DLB_CHECK(dlb_gpu_family_state(g, p->op->family, (void **)&s->shared));
	s->rows = p->dim[R_ROWS];
	s->cols = p->dim[R_COLS];
	s->scale = (float)((double)p->dim[R_SCALE] / 100.0);
	s->nsets = sets_for(p, g->dev);
	/* a sum of cols values uniform in [-1, 1): 8 eps per term, times |scale|, plus the float rounding of ref */
	s->tol = fabs(s->scale) * (8.0 * ldexp(1.0, -23) * (double)s->cols * 0.5 + 1e-6);
	uint64_t seed = dlb_fresh_seed(); /* fresh inputs every run */
	for (int i = 0; i < s->nsets; i++) {
		DLB_CHECK(dlb_dev_alloc((void **)&s->x[i], (size_t)s->rows * (size_t)s->cols * 4));
		DLB_CHECK(dlb_dev_alloc((void **)&s->y[i], (size_t)s->rows * 4));
		DLB_CHECK(dlb_fill_f32(g, s->x[i], s->rows * s->cols, seed + (uint64_t)i));
	}
	DLB_CHECK(dlb_dev_alloc((void **)&s->ref, (size_t)s->rows * 4));
	CUDA_CHECK(cudaStreamSynchronize(g->dev->stream));
	DLB_CHECK(cpu_reference(s));
	*state = s;
	return 0;
fail:
	rowsum_teardown(s);
	*state = NULL;
	return rc;
}

static int rowsum_variants(void *state, const struct dlb_candidate *c, int *values, int max)
{
	(void)state;
	(void)c;
	if (max < 1)
		return 0;
	values[0] = 1;
	return 1;
}

static int rowsum_nsets(void *state)
{
	return ((struct rowsum_state *)state)->nsets;
}

static int run(struct rowsum_state *s, cudaKernel_t k, unsigned blocks, unsigned threads, int set)
{
	void *args[] = {&s->x[set], &s->y[set], &s->rows, &s->cols, &s->scale};
	return dlb_launch(k, (dim3){blocks, 1, 1}, (dim3){threads, 1, 1}, 0, s->g->dev->stream, args);
}

static int rowsum_launch(void *state, const struct dlb_candidate *c, int variant, int set)
{
	(void)variant;
	struct rowsum_state *s = state;
	int rows_per_block = c->cfg.v[P_ROWS];
	return run(s, c->kernels[0], (unsigned)((s->rows + rows_per_block - 1) / rows_per_block),
		   (unsigned)c->cfg.v[P_BLOCK], set);
}

static int check(struct rowsum_state *s, struct dlb_check *out)
{
	return dlb_compare_f32(s->g, s->y[0], s->rows, s->ref, s->rows, s->rows, 1, s->tol, out);
}

static int rowsum_verify(void *state, const struct dlb_candidate *c, int variant, struct dlb_check *out)
{
	int rc = 0;
	struct rowsum_state *s = state;
	DLB_CHECK(dlb_poison(s->g, s->y[0], (size_t)s->rows * 4));
	DLB_CHECK(rowsum_launch(state, c, variant, 0));
	DLB_CHECK(check(s, out));
fail:
	return rc;
}

static int naive_launch(void *state, int set)
{
	struct rowsum_state *s = state;
	return run(s, s->shared->naive, (unsigned)((s->rows + 127) / 128), 128, set);
}

/* The "vendor": the naive kernel, verified like a candidate, then timed by the same harness. */
static int rowsum_vendor(void *state, const struct dlb_bench_opts *o, struct dlb_vendor_entry *out, int max, int *n)
{
	int rc = 0;
	struct rowsum_state *s = state;
	struct dlb_check chk;
	*n = 0;
	if (max < 1)
		return 0;
	memset(&out[0], 0, sizeof out[0]);
	snprintf(out[0].name, sizeof out[0].name, "rowsum_naive");
	DLB_CHECK(dlb_poison(s->g, s->y[0], (size_t)s->rows * 4));
	DLB_CHECK(naive_launch(s, 0));
	DLB_CHECK(check(s, &chk));
	out[0].ok = chk.ok;
	if (chk.ok)
		DLB_CHECK(dlb_bench_time(&s->g->bench, naive_launch, s, s->nsets, o, &out[0].st));
	*n = 1;
fail:
	return rc;
}

static int rowsum_vendor_launch(void *state, int entry, int set)
{
	int rc = 0;
	if (entry != 0)
		DLB_FAIL(DLB_E_USAGE, "rowsum has one vendor entry, not %d", entry);
	rc = naive_launch(state, set);
fail:
	return rc;
}

const struct dlb_op toy_op_rowsum = {
	.name = "rowsum",
	.family = &toy_family_rowsum,
	.prec = DLB_PREC_FP32,
	.summary = "row sums of an fp32 matrix (the tests' toy op)",
	.template_file = "rowsum.cu",
	.kernel_names = rowsum_kernels,
	.nkernels = 1,
	.space = {rowsum_params, P_NPARAMS, rowsum_constraints, 1},
	.limit_checks = rowsum_limits,
	.nlimit_checks = 1,
	.device_bytes = rowsum_device_bytes,
	.setup = rowsum_setup,
	.variants = rowsum_variants,
	.nsets = rowsum_nsets,
	.launch = rowsum_launch,
	.verify = rowsum_verify,
	.vendor = rowsum_vendor,
	.vendor_launch = rowsum_vendor_launch,
	.teardown = rowsum_teardown,
};

int toy_register(void)
{
	int rc = dlb_embedded_register(toy_embedded_files);
	return rc ? rc : dlb_op_register(&toy_op_rowsum);
}
