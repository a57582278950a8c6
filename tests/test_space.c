/* test_space: the GEMM tuning space — enumeration and its constraint counts, device limits, the text form of a
 * configuration, and the split-K factors. */
#include "err.h"
#include "ops/gemm.h"
#include "problem.h"
#include "tune.h"
#include "testlib.h"

/* The split-K rule of dlb_gemm_splits: a split grid has at most WAVES blocks per SM, and each split keeps at least
 * KSTEPS k-steps of BK. */
#define WAVES 8
#define KSTEPS 4

static const struct dlb_space *space;

static void test_enumerate(void)
{
	int rejected[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
	struct dlb_config *cfgs = NULL;
	REQUIRE(space->nconstraints <= 8, "%d constraints", space->nconstraints);
	int n = dlb_space_enumerate(space, NULL, &cfgs, rejected);
	REQUIRE(n >= 0 && cfgs, "enumeration failed: %d", n);

	long total = 1;
	for (int p = 0; p < space->nparams; p++)
		total *= space->params[p].nvalues;
	CHECK_EQ_INT(total, 288);
	CHECK_EQ_INT(n, 153);
	CHECK_EQ_INT(space->nconstraints, 3);
	CHECK(rejected[0] == 0 && rejected[1] == 129 && rejected[2] == 6, "rejected %d, %d, %d; expected 0, 129, 6",
	      rejected[0], rejected[1], rejected[2]);
	CHECK_EQ_INT(n + rejected[0] + rejected[1] + rejected[2], total);

	int bad = 0, unordered = 0, outside = 0;
	for (int i = 0; i < n; i++) {
		for (int c = 0; c < space->nconstraints; c++)
			bad += !space->constraints[c].ok(cfgs[i].v, NULL);
		for (int p = 0; p < space->nparams; p++) {
			int found = 0;
			for (int j = 0; j < space->params[p].nvalues; j++)
				found |= space->params[p].values[j] == cfgs[i].v[p];
			outside += !found;
		}
		/* First parameter slowest, value lists ascending: strictly increasing in lexicographic order. */
		if (i > 0) {
			int p = 0;
			while (p < space->nparams && cfgs[i].v[p] == cfgs[i - 1].v[p])
				p++;
			unordered += p == space->nparams || cfgs[i].v[p] < cfgs[i - 1].v[p];
		}
	}
	CHECK(bad == 0, "%d constraint violations among the enumerated configurations", bad);
	CHECK(outside == 0, "%d values not in their parameter's list", outside);
	CHECK(unordered == 0, "%d configurations out of order or repeated", unordered);

	/* Device limits of a default sm_80+ GPU. */
	struct dlb_limits lim;
	dlb_limits_of(NULL, &lim);
	CHECK_EQ_INT(lim.smem_static, 48 * 1024);
	CHECK_EQ_INT(lim.max_threads_per_block, 1024);
	int within = 0;
	for (int i = 0; i < n; i++) {
		struct dlb_candidate cand;
		memset(&cand, 0, sizeof cand);
		cand.cfg = cfgs[i];
		within += dlb_candidate_within_limits(&dlb_op_gemm, &cand, &lim) == 0;
	}
	CHECK_EQ_INT(within, 146);
	CHECK(within >= 100, "only %d candidates within the default limits; the project needs >= 100", within);

	/* BM=128 BN=128 BK=32: 2*32*(128+4+128+4)*4 = 67584 bytes of shared memory, over 48 KiB. */
	struct dlb_candidate big = {
		.cfg = {.v = {[GEMM_BM] = 128, [GEMM_BN] = 128, [GEMM_BK] = 32, [GEMM_TM] = 8, [GEMM_TN] = 8}}};
	CHECK_EQ_INT(dlb_candidate_within_limits(&dlb_op_gemm, &big, &lim), 1);
	lim.smem_static = 99 * 1024;
	CHECK_EQ_INT(dlb_candidate_within_limits(&dlb_op_gemm, &big, &lim), 0);
	lim.max_threads_per_block = 128; /* (128/8)*(128/8) = 256 threads */
	CHECK_EQ_INT(dlb_candidate_within_limits(&dlb_op_gemm, &big, &lim), 2);
	free(cfgs);
}

static void test_text(void)
{
	struct dlb_config *cfgs = NULL, c;
	int n = dlb_space_enumerate(space, NULL, &cfgs, NULL);
	REQUIRE(n > 0, "enumeration failed");
	char buf[128];
	struct dlb_config one = {.v = {[GEMM_BM] = 64, [GEMM_BN] = 128, [GEMM_BK] = 8, [GEMM_TM] = 8, [GEMM_TN] = 4}};
	dlb_config_format(space, &one, buf, sizeof buf);
	CHECK_EQ_STR(buf, "BM=64 BN=128 BK=8 TM=8 TN=4");
	int mismatched = 0;
	for (int i = 0; i < n; i++) {
		dlb_config_format(space, &cfgs[i], buf, sizeof buf);
		if (dlb_config_parse(space, buf, &c) || memcmp(c.v, cfgs[i].v, sizeof c.v)) {
			if (!mismatched++)
				CHECK(0, "\"%s\" does not parse back to itself", buf);
		}
	}
	CHECK(mismatched == 0, "%d of %d configurations do not round-trip", mismatched, n);
	free(cfgs);

	CHECK_EQ_INT(dlb_config_parse(space, "TN=4 TM=8 BK=16 BN=64 BM=128", &c), 0); /* any order */
	CHECK(c.v[GEMM_BM] == 128 && c.v[GEMM_BN] == 64 && c.v[GEMM_BK] == 16 && c.v[GEMM_TM] == 8 && c.v[GEMM_TN] == 4,
	      "reordered text parsed as %d %d %d %d %d", c.v[0], c.v[1], c.v[2], c.v[3], c.v[4]);
	static const char *const bad[] = {"BM=64 XX=3", "BM=64", "garbage", "", "BM=64 BN=64 BK=8 TM=8",
					  "BM=64 BN=64 BK=8 TM=8 TN=x", "BM=64 BN=64 BK=8 TM=8 TN=4 extra"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK(dlb_config_parse(space, bad[i], &c) == DLB_E_PARSE, "\"%s\" parsed as a configuration", bad[i]);
}

static void test_splits(void)
{
	int v[GEMM_NPARAMS] = {[GEMM_BM] = 128, [GEMM_BN] = 128, [GEMM_BK] = 8, [GEMM_TM] = 8, [GEMM_TN] = 8};
	struct dlb_problem p = {.op = &dlb_op_gemm, .m = 4096, .n = 4096, .k = 4096};
	int s[16];
	int n = dlb_gemm_splits(&p, v, 132, s, 16);
	CHECK(n == 1 && s[0] == 1, "4096^3 on 132 SMs: %d splits, first %d; expected only 1", n, s[0]);

	/* Few tiles, deep k: split-K pays. */
	int w[GEMM_NPARAMS] = {[GEMM_BM] = 32, [GEMM_BN] = 16, [GEMM_BK] = 8, [GEMM_TM] = 4, [GEMM_TN] = 2};
	struct dlb_problem q = {.op = &dlb_op_gemm, .m = 512, .n = 8, .k = 500000};
	int64_t tiles = (512 / 32) * 1;
	n = dlb_gemm_splits(&q, w, 132, s, 16);
	CHECK(n >= 2, "512x8x500000: only %d split factor(s)", n);
	CHECK_EQ_INT(s[0], 1);
	for (int i = 1; i < n; i++) {
		CHECK(s[i] == 2 * s[i - 1], "split %d is %d after %d: not the next power of two", i, s[i], s[i - 1]);
		CHECK(tiles * s[i] <= WAVES * 132, "split %d: %lld tiles x %d > %d x 132 SMs", i, (long long)tiles,
		      s[i], WAVES);
		CHECK(q.k / s[i] >= KSTEPS * w[GEMM_BK], "split %d: k/%d = %lld < %d BK", i, s[i],
		      (long long)(q.k / s[i]), KSTEPS);
	}
	int want = 1; /* with WAVES 2 and KSTEPS 8: 1 2 4 8 16, as 16 tiles x 32 would be 512 > 264 */
	for (int f = 2; f <= 64 && tiles * f <= WAVES * 132 && q.k / f >= KSTEPS * w[GEMM_BK]; f *= 2)
		want++;
	CHECK_EQ_INT(n, want);

	/* max bounds the list; k too shallow to split leaves 1. */
	CHECK_EQ_INT(dlb_gemm_splits(&q, w, 132, s, 3), 3);
	CHECK_EQ_INT(dlb_gemm_splits(&q, w, 132, s, 0), 0);
	q.k = 40;
	CHECK_EQ_INT(dlb_gemm_splits(&q, w, 132, s, 16), 1);
}

int main(void)
{
	space = &dlb_op_gemm.space;
	test_enumerate();
	test_text();
	test_splits();
	return TEST_DONE();
}
