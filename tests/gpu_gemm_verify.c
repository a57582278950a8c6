/* gpu_gemm_verify: every candidate of each GEMM space (fp32, fp16, int8), with every split-K variant,
 * verified against the reference on odd shapes in all four layouts: fp32 and fp16 within their tolerances
 * (src/verify.h), int8 exactly, on dimensions padded to multiples of 4. Exit 77 without a GPU (99 if
 * DLB_REQUIRE_GPU is set). Arguments: the precisions to check (default: all three).
 * DLB_VERIFY_SHAPES=N keeps the first N shapes, DLB_VERIFY_SKIP=N drops the first N, DLB_VERIFY_SHAPE=MxNxK
 * checks that shape alone, and DLB_VERIFY_ONLY=TEXT compiles and checks only the candidates whose
 * configuration contains TEXT or one of its '|'-separated pieces (for a run under compute-sanitizer or
 * ncu). DLB_VERIFY_EXPLAIN=1 (fp32): after each wrong run, the output farthest from the reference, recomputed
 * exactly in double on the CPU, so a line tells whether the candidate or the reference is off there. fp32's
 * near misses go to the referee (dlb_gemm_referee): each refereed run is printed and counted, and the referee
 * is itself tried once per run of the test, on the first verified fp32 run with at least 1024 outputs
 * (referee_selftest). */
#include "../src/device.h"
#include "../src/err.h"
#include "../src/kernels.h"
#include "../store/kcache.h"
#include "../src/ops/gemm/gemm.h"
#include "../src/ops/gemm/gemm_tc.h"
#include "../src/tune.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fp32: the skinny family (N <= 16) runs on 1x1x1, 7x7x7, 1760x16x1760 and 129x7x1760, and on the last four:
 * N = 1 with split-K (5124x1x1760), a k tail of every length on unaligned rows (1760x3x5123: K odd, no float4
 * on the K-contiguous operands), M not a multiple of 4 with K under one batch (127x2x67), and BN = 4's float4
 * columns of B with an M tail (4099x4x129). */
/* The TMA tile (KIND 3) reads operands as stored where their lines are 16-byte strided, and others from copies
 * (lines rounded up to 4 floats): a transposed A, a transposed B with N not a multiple of 4, and from M = 1024 B
 * as stored (transposed for its [k][n] loop). It runs NN where M and K are multiples of 4 (from M = 1024 M
 * alone), TN where K is (from M = 1024 always), NT where M is, and TT on every shape here, odd ones included. The last, 132x68x1764, has M and K multiples of 4 (all four
 * layouts) and K no multiple of 16 or 32: its k tail comes zero-filled from the copy engine, at every split (2 to
 * 16 there). */
static const int64_t shapes_fp32[][3] = {
	{1, 1, 1},     {7, 7, 7},       {35, 35, 35},  {129, 129, 129}, {1760, 16, 1760},
	{35, 1760, 129}, {129, 7, 1760}, {33, 17, 4099}, {127, 131, 67},  {1760, 1760, 1760},
	{5124, 1, 1760}, {1760, 3, 5123}, {127, 2, 67}, {4099, 4, 129}, {132, 68, 1764},
};

/* The odd sizes 1, 3, 35, 127, 1760, 5124 in every position; 1760x3x5124 takes the skinny family
 * (N <= 64) through several k-windows of B and a k tail on 16-byte rows. The four before 1760x5124x200 put A
 * 'n' with M = 1, 35 and 63 (the repack of A for wgmma, pack_t) through k tails within a k-tile, splits of 1 to
 * 8, and a last split with no k at all (35x64x2056 split 8). 1760x5124x200 has more tiles than an H100 or H200
 * has SMs (at 128x256, 14 x 21), so the persistent candidates run (PERSIST 1 and 2: two or three tiles a
 * block, k tails). The last, 2120x1064x528, has rows 16-byte aligned in every layout and both precisions
 * (int8 'n' operands through pack_t), so TMA and the pairs of blocks (TMA 2, 3) run in all four: odd tile
 * counts (a pair's second tile outside C: BM 128 gives 17 M-tiles, BN 256 5 N-tiles), a k tail, and more tiles
 * than SMs at 128x128 (17 x 9), so persistent pairs too. */
static const int64_t shapes_tc[][3] = {
	{1, 1, 1},      {3, 3, 3},       {35, 35, 35},    {127, 127, 127}, {1760, 3, 35},  {5124, 35, 127},
	{35, 1760, 1760}, {127, 5124, 3}, {3, 127, 5124}, {1, 1760, 127},  {5124, 1, 1760}, {1760, 127, 5124},
	{1760, 3, 5124}, {1, 33, 136},   {35, 127, 520},  {63, 40, 200},   {35, 64, 2056}, {1760, 5124, 200},
	{2120, 1064, 528},
};

static int check_op(struct dlb_device *dev, struct dlb_gpu *g, const struct dlb_op *op);

/* The referee (dlb_gemm_referee) tried on a verified fp32 run of at least 1024 outputs: its output moved off the
 * reference by 1.5 tol at one element, once by moving the reference (ours is right: the referee must accept it,
 * one element refereed) and once by moving ours (the referee must reject it), and by 3 tol (no near miss: wrong
 * without a referee). Returns the number of failures, printed. */
static int referee_selftest(void *state, int64_t m, int64_t n)
{
	const struct dlb_gemm_io *io = state;
	float *c = io->C[0], *r = (float *)io->ref; /* device memory: the test may move its elements */
	size_t e = ((size_t)m * (size_t)n) / 2;
	float c0, r0;
	struct dlb_check chk;
	int bad = 0;
	cudaError_t ce = cudaMemcpy(&c0, c + e, 4, cudaMemcpyDeviceToHost);
	if (ce == cudaSuccess)
		ce = cudaMemcpy(&r0, r + e, 4, cudaMemcpyDeviceToHost);
	if (ce != cudaSuccess)
		return printf("FAIL referee: %s\n", cudaGetErrorString(ce)), 1;
	if (io->check(io->state, &chk) || !chk.ok)
		return printf("FAIL referee: the run to start from is not right: %s\n", dlb_last_error()), 1;
	const struct {
		float *at, value;
		int ok, refereed;
		const char *what;
	} t[] = {
		{r, (float)(c0 + 1.5 * chk.tol), 1, 1, "the reference off by 1.5 tol (ours right)"},
		{c, (float)(r0 + 1.5 * chk.tol), 0, 1, "ours off by 1.5 tol"},
		{c, (float)(r0 + 3 * chk.tol), 0, 0, "ours off by 3 tol"},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct dlb_check x;
		if (cudaMemcpy(c + e, &c0, 4, cudaMemcpyHostToDevice) || cudaMemcpy(r + e, &r0, 4, cudaMemcpyHostToDevice) ||
		    cudaMemcpy(t[i].at + e, &t[i].value, 4, cudaMemcpyHostToDevice) || io->check(io->state, &x)) {
			printf("FAIL referee, %s: %s\n", t[i].what, dlb_last_error());
			bad++;
			continue;
		}
		if (x.ok != t[i].ok || (x.refereed != 0) != t[i].refereed) {
			printf("FAIL referee, %s: ok %d (want %d), %llu refereed, max err %g (tol %g)\n", t[i].what, x.ok,
			       t[i].ok, (unsigned long long)x.refereed, x.max_err, x.tol);
			bad++;
		}
	}
	if (cudaMemcpy(c + e, &c0, 4, cudaMemcpyHostToDevice) || cudaMemcpy(r + e, &r0, 4, cudaMemcpyHostToDevice))
		bad++;
	printf("gpu_gemm_verify: referee self-test on %lldx%lld: %s\n", (long long)m, (long long)n,
	       bad ? "FAILED" : "accepts a reference off by 1.5 tol, rejects ours off by 1.5 and 3 tol");
	return bad;
}

/* DLB_VERIFY_EXPLAIN (fp32 ops, whose state begins with their struct dlb_gemm_io): the element of C[0] (m x n,
 * leading dimension m) farthest from the reference, both against the exact sum in double of its inputs. */
static void explain(void *state, int64_t m, int64_t n)
{
	const struct dlb_gemm_io *io = state;
	const struct dlb_blas_gemm *bg = io->blas;
	size_t mn = (size_t)m * (size_t)n;
	float *c = malloc(mn * sizeof *c), *r = malloc(mn * sizeof *r), *tmp = malloc((size_t)bg->k * sizeof *tmp);
	double *a = malloc((size_t)bg->k * sizeof *a), *b = malloc((size_t)bg->k * sizeof *b);
	if (!c || !r || !tmp || !a || !b || !io->ref || cudaMemcpy(c, io->C[0], mn * 4, cudaMemcpyDeviceToHost) ||
	    cudaMemcpy(r, io->ref, mn * 4, cudaMemcpyDeviceToHost)) {
		printf("  explain: no copy of C or the reference\n");
		goto done;
	}
	size_t w = 0;
	double worst = -1;
	for (size_t e = 0; e < mn; e++)
		if (fabs((double)c[e] - (double)r[e]) > worst)
			worst = fabs((double)c[e] - (double)r[e]), w = e;
	int64_t i = (int64_t)(w % (size_t)m), j = (int64_t)(w / (size_t)m);
	if (dlb_gemm_read_k(io->A[0], bg->lda, bg->ta, i, bg->k, bg->a_type, tmp, a) ||
	    dlb_gemm_read_k(io->B[0], bg->ldb, !bg->tb, j, bg->k, bg->b_type, tmp, b)) {
		printf("  explain: %s\n", dlb_last_error());
		goto done;
	}
	double exact = 0, scale = 0;
	for (int64_t kk = 0; kk < bg->k; kk++)
		exact += a[kk] * b[kk], scale += fabs(a[kk] * b[kk]);
	printf("  explain: C(%" PRId64 ",%" PRId64 "): ours %.9g, reference %.9g, exact %.12g; ours - exact %.3g, "
	       "reference - exact %.3g (sum |a b| %.4g)\n",
	       i, j, (double)c[w], (double)r[w], exact, (double)c[w] - exact, (double)r[w] - exact, scale);
done:
	free(c);
	free(r);
	free(tmp);
	free(a);
	free(b);
}

/* A positive count from the environment, else 0. */
static size_t env_count(const char *name)
{
	const char *v = getenv(name);
	return v && atoi(v) > 0 ? (size_t)atoi(v) : 0;
}

int main(int argc, char **argv)
{
	struct dlb_device dev;
	struct dlb_gpu g;
	int rc = dlb_device_open(0, &dev);
	if (rc == DLB_E_NODRIVER || rc == DLB_E_NODEVICE) {
		printf("gpu_gemm_verify: skipped: %s\n", dlb_last_error());
		return getenv("DLB_REQUIRE_GPU") ? 99 : 77;
	}
	if (rc || dlb_gpu_open(&dev, &g)) {
		printf("gpu_gemm_verify: %s\n", dlb_last_error());
		return 99;
	}
	int failed = 0;
	for (int prec = 0; prec < DLB_PREC_COUNT; prec++) {
		int want = argc < 2;
		for (int a = 1; a < argc; a++)
			want |= !strcmp(argv[a], dlb_prec_name(prec));
		if (want) {
			int r = check_op(&dev, &g, dlb_op_find("gemm", prec));
			if (r == 99)
				return 99;
			failed |= r;
		}
	}
	dlb_gpu_close(&g);
	dlb_device_close(&dev);
	return failed;
}

static int check_op(struct dlb_device *dev, struct dlb_gpu *g, const struct dlb_op *op)
{
	struct dlb_kernels *k = NULL;
	struct dlb_store *kc = NULL;
	struct dlb_candidate *cand;
	struct dlb_limits lim;
	int ncand;
	const int64_t(*shapes)[3] = op->prec == DLB_PREC_FP32 ? shapes_fp32 : shapes_tc;
	size_t nshapes = op->prec == DLB_PREC_FP32 ? sizeof shapes_fp32 / sizeof shapes_fp32[0]
						    : sizeof shapes_tc / sizeof shapes_tc[0];
	/* DLB_VERIFY_ONLY=TEXT: only the candidates whose configuration contains TEXT, or one of its
	 * '|'-separated pieces (e.g. "KIND=2" under compute-sanitizer, "BN=144|BN=208"; the others are not
	 * compiled); DLB_VERIFY_SHAPES=N: only the first N shapes;
	 * DLB_VERIFY_SKIP=N: not the first N; DLB_VERIFY_SHAPE=MxNxK: that shape alone (a probe);
	 * DLB_VERIFY_CACHE=DB: the kernel cache of database DB (compiled once, verified on every run);
	 * DLB_VERIFY_EVERY=N: every N-th configuration of each kernel family (a sample) */
	const char *only = getenv("DLB_VERIFY_ONLY");
	static int64_t one[1][3];
	const char *sh = getenv("DLB_VERIFY_SHAPE");
	if (sh && sscanf(sh, "%" SCNd64 "x%" SCNd64 "x%" SCNd64, &one[0][0], &one[0][1], &one[0][2]) == 3)
		shapes = one, nshapes = 1;
	dlb_limits_of(dev, &lim);
	const char *cache = getenv("DLB_VERIFY_CACHE");
	size_t every = env_count("DLB_VERIFY_EVERY");
	if ((cache && dlb_kcache_open(cache, 0, &kc)) ||
	    dlb_kernels_open(op, g->arch, &lim, every > 1 ? (int)every : 1, only, kc, 0, 0, &k)) {
		printf("gpu_gemm_verify: %s\n", dlb_last_error());
		return 99;
	}
	cand = k->cand;
	ncand = k->n;
	long runs = 0, wrong = 0, errors = 0, compiled = 0, refereed = 0;
	int selftest = op->prec == DLB_PREC_FP32 ? -1 : 0; /* -1: the referee's self-test still to run */
	size_t keep = env_count("DLB_VERIFY_SHAPES"), first = env_count("DLB_VERIFY_SKIP");
	if (keep && keep < nshapes)
		nshapes = keep;
	/* what the shapes need: each configuration in the source specialisation each layout runs it with */
	int *ids = malloc((size_t)(ncand ? ncand : 1) * sizeof *ids), nids = 0;
	unsigned char *want = calloc((size_t)(ncand ? ncand : 1), 1);
	if (!ids || !want)
		return printf("gpu_gemm_verify: out of memory\n"), 99;
	for (size_t s = first; s < nshapes; s++)
		for (int layout = 0; layout < 4; layout++) {
			struct dlb_problem p = {op, op->prec, {shapes[s][0], shapes[s][1], shapes[s][2], layout / 2, layout % 2},
						0};
			for (int j = 0; j < k->nconf; j++) {
				int i = dlb_kernels_for(k, &p, j);
				if (!want[i])
					ids[nids++] = i;
				want[i] = 1;
			}
		}
	if (dlb_kernels_some(k, ids, nids)) {
		printf("gpu_gemm_verify: %s\n", dlb_last_error());
		return 99;
	}
	free(ids);
	for (int i = 0; i < ncand; i++) {
		if (!want[i] || cand[i].job.rc) /* not compiled: over a limit, failed, or left out */
			continue;
		compiled++;
		/* as the worker loads it: a candidate the limit rows reject on this device is a test failure (every
		 * one compiled here fits the device, so a rejection means a limit row and the template disagree) */
		if (dlb_candidate_load(op, dev, &cand[i]))
			return printf("load %s: %s\n", cand[i].text, dlb_last_error()), 99;
	}
	for (size_t s = first; s < nshapes; s++)
		for (int layout = 0; layout < 4; layout++) {
			struct dlb_problem p = {op, op->prec, {shapes[s][0], shapes[s][1], shapes[s][2], layout / 2, layout % 2},
						0};
			char desc[256];
			dlb_problem_describe(&p, desc, sizeof desc);
			void *state = NULL;
			if (op->setup(g, &p, &state)) {
				printf("setup %s: %s\n", desc, dlb_last_error());
				return 99;
			}
			for (int j = 0; j < k->nconf; j++) {
				int i = dlb_kernels_for(k, &p, j); /* compiled for the layout its launches use */
				if (!cand[i].loaded)
					continue;
				int splits[12]; /* as many as the search asks for (worker.h's DLB_W_MAX_VARIANTS) */
				int nv = op->variants(state, &cand[i], splits, 12);
				for (int v = 0; v < nv; v++) {
					struct dlb_check chk;
					runs++;
					int vr = op->verify(state, &cand[i], splits[v], &chk);
					if (vr) {
						errors++;
						printf("ERROR %s SPLITK=%d on %s: %s\n", cand[i].text, splits[v], desc,
						       dlb_last_error());
						if (vr == DLB_E_CUDA_STICKY)
							return 1;
					} else if (chk.ok && selftest < 0 && p.dim[GEMM_M] * p.dim[GEMM_N] >= 1024) {
						selftest = referee_selftest(state, p.dim[GEMM_M], p.dim[GEMM_N]);
					}
					if (!vr && chk.refereed) {
						refereed++;
						printf("refereed %s %s SPLITK=%d on %s: %llu outputs off the reference by more than "
						       "tol judged against the exact sum: %s (max err %g, tol %g)\n",
						       dlb_prec_name(op->prec), cand[i].text, splits[v], desc,
						       (unsigned long long)chk.refereed, chk.ok ? "right" : "wrong", chk.max_err,
						       chk.tol);
					}
					if (!vr && !chk.ok) {
						wrong++;
						printf("WRONG %s %s SPLITK=%d on %s: max err %g (tol %g), %llu non-finite, %llu "
						       "failing\n",
						       dlb_prec_name(op->prec), cand[i].text, splits[v], desc, chk.max_err, chk.tol,
						       (unsigned long long)chk.nonfinite, (unsigned long long)chk.bad);
						if (getenv("DLB_VERIFY_EXPLAIN") && op->prec == DLB_PREC_FP32)
							explain(state, p.dim[GEMM_M], p.dim[GEMM_N]);
					}
				}
			}
			op->teardown(state);
		}
	printf("gpu_gemm_verify: %s: %ld candidates on %s, %ld runs over %zu shapes x 4 layouts: %ld wrong, %ld errors"
	       " (%ld refereed)\n",
	       dlb_prec_name(op->prec), compiled, dev->name, runs, first < nshapes ? nshapes - first : 0, wrong,
	       errors, refereed);
	printf("gpu_gemm_verify: %s: %d candidates from the kernel cache, %d compiled (%.1f s of NVRTC)\n",
	       dlb_prec_name(op->prec), k->st.cached, k->st.compiled, k->st.nvrtc_s);
	free(want);
	dlb_kernels_close(k);
	dlb_store_close(kc);
	return wrong || errors || selftest > 0 || compiled < (only || every > 1 ? 1 : 100) ? 1 : 0;
}
