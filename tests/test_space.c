/* test_space: constraint rows of each kind on hand-made configurations; the GEMM tuning space — enumeration
 * and its constraint counts, the same sets as the predicates it was first written with, device limits, the
 * text form of a configuration — and the split-K factors. */
#include "err.h"
#include "ops/gemm/gemm.h"
#include "problem.h"
#include "spacecmd.h"
#include "tune.h"
#include "testlib.h"

#include <errno.h>
#include <limits.h>

/* The split-K rule of dlb_gemm_splits: a split grid has at most WAVES blocks per SM, and each split keeps at least
 * KSTEPS k-steps of BK. */
#define WAVES 8
#define KSTEPS 4

static const struct dlb_space *space;

/* ---- each kind of row, on a space of three parameters X, Y, Z ---- */

enum { X, Y, Z };

static int sum_at_most_10(const int *v, const struct dlb_limits *lim)
{
	(void)lim;
	return v[X] + v[Y] + v[Z] <= 10;
}

static int ok3(const struct dlb_constraint *c, int x, int y, int z, const struct dlb_limits *lim)
{
	int v[DLB_MAX_PARAMS] = {[X] = x, [Y] = y, [Z] = z};
	return dlb_constraint_ok(c, v, lim);
}

static void test_kinds(void)
{
	const struct dlb_constraint mul = {.text = "X % Y == 0", .kind = DLB_CON_MULTIPLE, .a = X, .b = Y};
	CHECK_EQ_INT(ok3(&mul, 12, 4, 1, NULL), 1);
	CHECK_EQ_INT(ok3(&mul, 12, 5, 1, NULL), 0);
	CHECK_EQ_INT(ok3(&mul, 4, 12, 1, NULL), 0);
	CHECK_EQ_INT(ok3(&mul, 12, 0, 1, NULL), 0); /* a zero divisor fails the row rather than trapping */

	const struct dlb_constraint mul8 = {.text = "X % 8 == 0", .kind = DLB_CON_MULTIPLE, .a = X, .b = DLB_CONST, .n = 8};
	CHECK_EQ_INT(ok3(&mul8, 24, 5, 5, NULL), 1);
	CHECK_EQ_INT(ok3(&mul8, 20, 4, 4, NULL), 0);

	const struct dlb_constraint div = {.text = "X divides Y", .kind = DLB_CON_DIVIDES, .a = X, .b = Y};
	CHECK_EQ_INT(ok3(&div, 4, 12, 1, NULL), 1);
	CHECK_EQ_INT(ok3(&div, 12, 4, 1, NULL), 0);
	CHECK_EQ_INT(ok3(&div, 0, 4, 1, NULL), 0);

	const struct dlb_constraint div64 = {.text = "Z divides 64", .kind = DLB_CON_DIVIDES, .a = Z, .b = DLB_CONST, .n = 64};
	CHECK_EQ_INT(ok3(&div64, 1, 1, 16, NULL), 1);
	CHECK_EQ_INT(ok3(&div64, 1, 1, 48, NULL), 0);

	/* X*Y/Z^2 in [2, 6], compared exactly: 6*2/2^2 = 3; 6*5/2^2 = 7.5; 3*3/3^2 = 1; 5*5/3^2 = 2.78 */
	const struct dlb_constraint prod = {
		.text = "X*Y/Z^2 in [2, 6]", .kind = DLB_CON_PRODUCT, .exp = {[X] = 1, [Y] = 1, [Z] = -2}, .lo = 2, .hi = 6};
	CHECK_EQ_INT(ok3(&prod, 6, 2, 2, NULL), 1);
	CHECK_EQ_INT(ok3(&prod, 6, 5, 2, NULL), 0);
	CHECK_EQ_INT(ok3(&prod, 3, 3, 3, NULL), 0);
	CHECK_EQ_INT(ok3(&prod, 5, 5, 3, NULL), 1);
	CHECK_EQ_INT(ok3(&prod, 4, 6, 2, NULL), 1); /* 6: the bounds are inclusive */
	CHECK_EQ_INT(ok3(&prod, 25, 1, 2, NULL), 0); /* 6.25: truncating division would have let it pass */
	CHECK_EQ_INT(ok3(&prod, 6, 2, 0, NULL), 0); /* a zero denominator fails */

	/* X*Y <= the device's threads per block, and >= 32: the bound is the limit, not .hi */
	const struct dlb_constraint lim_row = {.text = "X*Y <= max threads per block",
					       .kind = DLB_CON_PRODUCT,
					       .exp = {[X] = 1, [Y] = 1},
					       .lo = 32,
					       .hi_limit = DLB_LIMIT_THREADS_PER_BLOCK};
	struct dlb_limits lim = {.max_threads_per_block = 256, .smem_static = 48 * 1024};
	CHECK_EQ_INT(ok3(&lim_row, 16, 16, 1, &lim), 1);
	CHECK_EQ_INT(ok3(&lim_row, 32, 16, 1, &lim), 0);
	CHECK_EQ_INT(ok3(&lim_row, 32, 16, 1, NULL), 1); /* no device known: its limit is not applied */
	CHECK_EQ_INT(ok3(&lim_row, 4, 4, 1, NULL), 0);   /* the constant lower bound still is */
	lim.max_threads_per_block = 1024;
	CHECK_EQ_INT(ok3(&lim_row, 32, 16, 1, &lim), 1);
	CHECK_EQ_INT(ok3(&lim_row, 64, 32, 1, &lim), 0);
	const struct dlb_constraint smem_row = {.text = "4*X*Y <= static shared memory",
						.kind = DLB_CON_PRODUCT,
						.exp = {[X] = 1, [Y] = 1},
						.lo = 0,
						.hi_limit = DLB_LIMIT_SMEM_STATIC};
	CHECK_EQ_INT(ok3(&smem_row, 128, 384, 1, &lim), 1); /* 49152 = 48 KiB */
	CHECK_EQ_INT(ok3(&smem_row, 128, 385, 1, &lim), 0);
	CHECK_EQ_INT(dlb_limit_value(&lim, DLB_LIMIT_SMEM_STATIC), 48 * 1024);
	CHECK_EQ_STR(dlb_limit_name(DLB_LIMIT_THREADS_PER_BLOCK), "max threads per block");

	const struct dlb_constraint custom = {.text = "X+Y+Z <= 10", .kind = DLB_CON_CUSTOM, .ok = sum_at_most_10};
	CHECK_EQ_INT(ok3(&custom, 2, 3, 5, NULL), 1);
	CHECK_EQ_INT(ok3(&custom, 2, 3, 6, NULL), 0);

	/* The first failing row, 1-based; 0 when all pass. */
	const struct dlb_constraint rows[] = {mul, div64, custom};
	int v[DLB_MAX_PARAMS] = {[X] = 8, [Y] = 2, [Z] = 48};
	CHECK_EQ_INT(dlb_constraint_first_failed(rows, 3, v, NULL), 2);
	v[Z] = 8;
	CHECK_EQ_INT(dlb_constraint_first_failed(rows, 3, v, NULL), 3);
	v[Y] = 3;
	CHECK_EQ_INT(dlb_constraint_first_failed(rows, 3, v, NULL), 1);
	v[X] = 3, v[Y] = 3, v[Z] = 4;
	CHECK_EQ_INT(dlb_constraint_first_failed(rows, 3, v, NULL), 0);

	/* Well-formed rows pass the check; malformed ones are named. */
	const struct dlb_constraint good[] = {mul, mul8, div, div64, prod, lim_row, smem_row, custom};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		CHECK(dlb_constraint_check(&good[i], 3) == 0, "\"%s\": %s", good[i].text, dlb_last_error());
	const struct dlb_constraint bad[] = {
		{.text = "X % W", .kind = DLB_CON_MULTIPLE, .a = X, .b = 3},
		{.text = "X % 0", .kind = DLB_CON_MULTIPLE, .a = X, .b = DLB_CONST, .n = 0},
		{.text = "empty product", .kind = DLB_CON_PRODUCT, .lo = 1, .hi = 2},
		{.text = "W in [1, 2]", .kind = DLB_CON_PRODUCT, .exp = {[3] = 1}, .lo = 1, .hi = 2},
		{.text = "X in [2, 1]", .kind = DLB_CON_PRODUCT, .exp = {[X] = 1}, .lo = 2, .hi = 1},
		{.text = "X <= ?", .kind = DLB_CON_PRODUCT, .exp = {[X] = 1}, .hi_limit = DLB_LIMIT_COUNT},
		{.text = "no predicate", .kind = DLB_CON_CUSTOM},
		{.text = "no kind", .kind = DLB_CON_COUNT},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		dlb_clear_error();
		CHECK(dlb_constraint_check(&bad[i], 3) == EINVAL, "\"%s\" passed the check", bad[i].text);
		CHECK_HAS(dlb_last_error(), bad[i].text);
	}
	for (int k = 0; k < space->nconstraints; k++)
		CHECK(dlb_constraint_check(&space->constraints[k], space->nparams) == 0, "gemm row %d: %s", k,
		      dlb_last_error());
	for (int k = 0; k < dlb_op_gemm.nlimit_checks; k++)
		CHECK(dlb_constraint_check(&dlb_op_gemm.limit_checks[k], space->nparams) == 0, "gemm limit row %d: %s",
		      k, dlb_last_error());
}

/* ---- the GEMM space ---- */

/* The predicates GEMM's rows were first written as, before rows became data, with the skinny family (KIND 2),
 * 3xTF32 (KIND 1) and the TMA tile (KIND 3) beside the tiles (KIND 0): the sets must not change. */
static int gemm_static_ok(const int *v)
{
	if (v[GEMM_KIND] == GEMM_KIND_TMA_TILE)
		return v[GEMM_TM] == 8 && v[GEMM_KS] == 1 && v[GEMM_KU] == 4 && !v[GEMM_L2PF] && v[GEMM_WGS] == 1 &&
		       !v[GEMM_ASPLIT] && v[GEMM_STAGES] != 6 && v[GEMM_BK] != 8 &&
		       (v[GEMM_BM] == 64 || v[GEMM_BM] == 128) && (v[GEMM_BN] == 64 || v[GEMM_BN] == 128) &&
		       ((v[GEMM_TN] == 8 && !(v[GEMM_BM] == 128 && v[GEMM_BN] == 128 && v[GEMM_BK] == 16)) ||
			(v[GEMM_TN] == 16 && v[GEMM_BM] == 128 && v[GEMM_BN] == 128 && v[GEMM_BK] == 16));
	if (v[GEMM_KIND] == GEMM_KIND_TF32X3) {
		int mi = v[GEMM_BM] / (64 * v[GEMM_WGS]);
		return v[GEMM_TM] == 4 && v[GEMM_TN] == 2 && v[GEMM_KS] == 1 && v[GEMM_KU] == 4 && !v[GEMM_L2PF] &&
		       v[GEMM_BK] == 32 && v[GEMM_BM] == 64 * v[GEMM_WGS] * mi && (mi == 1 || mi == 2) &&
		       v[GEMM_BN] >= 64 && mi * v[GEMM_BN] <= 128 &&
		       v[GEMM_WGS] * v[GEMM_BN] * (256 * mi + 16) <=
			       v[GEMM_STAGES] * (v[GEMM_BM] + v[GEMM_BN]) * 128 * (v[GEMM_ASPLIT] == 2 ? 2 : 1);
	}
	if (v[GEMM_WGS] != 1 || v[GEMM_STAGES] != 3 || v[GEMM_ASPLIT])
		return 0;
	if (v[GEMM_KIND] == GEMM_KIND_SKINNY) {
		int threads = v[GEMM_BM] / 4 * v[GEMM_KS];
		return v[GEMM_TM] == 4 && v[GEMM_TN] == 2 && v[GEMM_BN] <= 4 && v[GEMM_BK] == 16 && threads >= 64 &&
		       threads <= 512 && v[GEMM_KU] * (4 + v[GEMM_BN]) + 4 * v[GEMM_BN] <= 96;
	}
	if (v[GEMM_KS] != 1 || v[GEMM_KU] != 4 || v[GEMM_L2PF] || v[GEMM_BN] < 16)
		return 0;
	if ((v[GEMM_BM] == 256 && v[GEMM_TM] != 8) || (v[GEMM_TN] == 16 && (v[GEMM_TM] != 8 || v[GEMM_BN] < 64)))
		return 0;
	if (v[GEMM_BM] % v[GEMM_TM] || v[GEMM_BN] % v[GEMM_TN])
		return 0;
	int threads = (v[GEMM_BM] / v[GEMM_TM]) * (v[GEMM_BN] / v[GEMM_TN]);
	int staged = v[GEMM_TN] == 16 ? 32 : 64;
	return threads >= 64 && threads <= 256 && (v[GEMM_BM] + v[GEMM_BN]) * v[GEMM_BK] <= staged * threads;
}

static int gemm_limits_ok(const int *v, const struct dlb_limits *lim)
{
	if (v[GEMM_KIND] == GEMM_KIND_TF32X3)
		return (size_t)v[GEMM_STAGES] * (v[GEMM_BM] + v[GEMM_BN]) * 128 * (v[GEMM_ASPLIT] == 2 ? 2 : 1) +
				       16 * v[GEMM_STAGES] + 1024 <=
			       lim->smem_optin &&
		       128 * (v[GEMM_WGS] + 1) <= lim->max_threads_per_block && (lim->sm == 0 || (lim->sm == 90 && lim->sm_specific));
	if (v[GEMM_KIND] == GEMM_KIND_TMA_TILE)
		return (size_t)v[GEMM_STAGES] * (v[GEMM_BM] + v[GEMM_BN]) * v[GEMM_BK] * 4 + 1024 <= lim->smem_optin &&
		       (lim->sm == 0 || lim->sm >= 90);
	if (v[GEMM_KIND] == GEMM_KIND_SKINNY)
		return (size_t)v[GEMM_KS] * v[GEMM_BN] * v[GEMM_BM] * 4 <= lim->smem_static &&
		       v[GEMM_BM] / 4 * v[GEMM_KS] <= lim->max_threads_per_block;
	int threads = (v[GEMM_BM] / v[GEMM_TM]) * (v[GEMM_BN] / v[GEMM_TN]);
	int skew = v[GEMM_BK] == 8 ? 0 : v[GEMM_BK] == 16 ? 8 : 12; /* floats, each stage of each operand */
	size_t smem = 2u * ((size_t)v[GEMM_BK] * (size_t)(v[GEMM_BM] + 4 + v[GEMM_BN] + 4) + 2u * skew) * sizeof(float);
	return smem <= lim->smem_static && threads <= lim->max_threads_per_block;
}

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
	CHECK_EQ_INT(total, 1814400);
	CHECK_EQ_INT(n, 454);
	/* 1814400 = 5 BM x 7 BN x 3 BK x 2 TM x 4 TN x 4 KIND x 5 KS x 3 KU x 2 L2PF x 2 WGS x 3 STAGES x 3 ASPLIT.
	 * One family per configuration leaves 354 tiles (BN >= 16, KS 1, KU 4, L2PF 0, WGS 1, STAGES 3, ASPLIT 0;
	 * TM 8 where BM is 256 or TN 16; BN >= 64 where TN is 16), 450 skinny ones (TM 4, TN 2, BN <= 4, BK 16) and
	 * 630 3xTF32 ones (5 BM x 7 BN x 2 WGS x 3 STAGES x 3 ASPLIT) and 16 TMA tiles (BM, BN 64 or 128, BK 16 or
	 * 32, STAGES 3 or 4, 128x128 with BK 32 only at 8 x 8 a thread; and 128x128 BK 16 at 8 x 16): 1450, so it
	 * removes 1812950. Tiles: threads
	 * in [64, 256] then removes 162 and staging 18 (174 left). Skinny: of 5 BM x 5 KS, 15 have threads
	 * (BM/4)*KS in [64, 512]; with registers, KU 4, 8, 16 at BN 1 and 4, 8 at BN 2 and 4; both L2PF: 15 x 7 x 2
	 * = 210 of 450 (-240). 3xTF32: BM = 64*WGS*MI gives 4 (BM, WGS) pairs; BN 64, 128 with MI*BN <= 128: 2 at
	 * MI 1, 1 at MI 2; x 3 STAGES x 3 ASPLIT = 54 of 630 (-576), all with the epilogue in the ring.
	 * 174 + 210 + 54 + 16 = 454. */
	CHECK_EQ_INT(space->nconstraints, 5);
	CHECK(rejected[0] == 1812950 && rejected[1] == 162 && rejected[2] == 18 && rejected[3] == 240 &&
		      rejected[4] == 576,
	      "rejected %d, %d, %d, %d, %d; expected 1812950, 162, 18, 240, 576", rejected[0], rejected[1], rejected[2],
	      rejected[3], rejected[4]);
	CHECK_EQ_INT(n + rejected[0] + rejected[1] + rejected[2] + rejected[3] + rejected[4], total);

	/* The same set, in the same order, as the original predicates give over the full product. */
	int same = 0, seen = 0;
	for (long idx = 0; idx < total; idx++) {
		int v[DLB_MAX_PARAMS] = {0};
		long r = idx;
		for (int p = space->nparams - 1; p >= 0; p--) {
			v[p] = space->params[p].values[r % space->params[p].nvalues];
			r /= space->params[p].nvalues;
		}
		if (!gemm_static_ok(v))
			continue;
		same += seen < n && !memcmp(v, cfgs[seen].v, sizeof v);
		seen++;
	}
	CHECK(seen == n && same == n, "original predicates: %d configurations, %d equal to the %d enumerated", seen,
	      same, n);

	int bad = 0, unordered = 0, outside = 0;
	for (int i = 0; i < n; i++) {
		for (int c = 0; c < space->nconstraints; c++)
			bad += !dlb_constraint_ok(&space->constraints[c], cfgs[i].v, NULL);
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
	int within = 0, agree = 0;
	for (int i = 0; i < n; i++) {
		struct dlb_candidate cand;
		memset(&cand, 0, sizeof cand);
		cand.cfg = cfgs[i];
		int in = dlb_candidate_within_limits(&dlb_op_gemm, &cand, &lim) == 0;
		within += in;
		agree += in == gemm_limits_ok(cfgs[i].v, &lim);
	}
	CHECK_EQ_INT(within, 409); /* 11 tiles over 48 KiB of shared memory, 33 3xTF32 rings over the default opt-in
				    * (17 of the 18 with ASPLIT 2, whose stages are twice as large), and the TMA tile's
				    * 128x128 BK 32 ring of 4 stages (129 KiB) */
	CHECK(agree == n, "the limit rows and the original limit predicates disagree on %d configurations", n - agree);
	CHECK(within >= 100, "only %d candidates within the default limits; the project needs >= 100", within);

	/* BM=128 BN=128 BK=32: 2*(32*(128+4+128+4) + 2*12)*4 = 67776 bytes of shared memory, over 48 KiB. */
	struct dlb_candidate big = {
		.cfg = {.v = {[GEMM_BM] = 128, [GEMM_BN] = 128, [GEMM_BK] = 32, [GEMM_TM] = 8, [GEMM_TN] = 8, [GEMM_KS] = 1,
			      [GEMM_KU] = 4}}};
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
	struct dlb_config one = {
		.v = {[GEMM_BM] = 64, [GEMM_BN] = 128, [GEMM_BK] = 8, [GEMM_TM] = 8, [GEMM_TN] = 4, [GEMM_KS] = 1, [GEMM_KU] = 4,
		      [GEMM_WGS] = 1, [GEMM_STAGES] = 3}};
	dlb_config_format(space, &one, buf, sizeof buf);
	CHECK_EQ_STR(buf, "BM=64 BN=128 BK=8 TM=8 TN=4 KIND=0 KS=1 KU=4 L2PF=0 WGS=1 STAGES=3 ASPLIT=0");
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

	CHECK_EQ_INT(dlb_config_parse(space, "STAGES=3 KU=8 TN=4 TM=8 L2PF=1 BK=16 KS=4 BN=64 WGS=1 ASPLIT=0 BM=128 KIND=2", &c),
		     0); /* any order */
	CHECK(c.v[GEMM_BM] == 128 && c.v[GEMM_BN] == 64 && c.v[GEMM_BK] == 16 && c.v[GEMM_TM] == 8 && c.v[GEMM_TN] == 4 &&
		      c.v[GEMM_KIND] == 2 && c.v[GEMM_KS] == 4 && c.v[GEMM_KU] == 8 && c.v[GEMM_L2PF] == 1,
	      "reordered text parsed as %d %d %d %d %d %d %d %d %d", c.v[0], c.v[1], c.v[2], c.v[3], c.v[4], c.v[5],
	      c.v[6], c.v[7], c.v[8]);
	static const char *const bad[] = {"BM=64 XX=3", "BM=64", "garbage", "", "BM=64 BN=64 BK=8 TM=8",
					  "BM=64 BN=64 BK=8 TM=8 TN=x", "BM=64 BN=64 BK=8 TM=8 TN=4 extra"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK(dlb_config_parse(space, bad[i], &c) == DLB_E_PARSE, "\"%s\" parsed as a configuration", bad[i]);
}

/* The text of `dlbtune space`, and a malformed row refused by name. */
static char *report_of(const struct dlb_op *op, enum dlb_prec prec, int verbose, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	REQUIRE(f, "open_memstream failed");
	*rc = dlb_space_report(f, op, prec, verbose, NULL);
	fclose(f);
	return text;
}

static void test_report(void)
{
	int rc;
	char *text = report_of(&dlb_op_gemm, DLB_PREC_FP32, 0, &rc);
	CHECK_EQ_INT(rc, 0);
	CHECK_HAS(text, "space of gemm fp32: 12 parameters\n");
	CHECK_HAS(text, "  BK      k-depth of one shared-memory stage (skinny: the split-K grain)                 8 16 "
			"32\n");
	const char *rows[] = {"all combinations", "one family", "tile: BM % TM == 0", "tile: staged floats per thread",
			      "skinny: threads", "3xTF32: BM = 64*WGS*MI", "shared memory (tile 2*(BK*(BM+BN+8) + 2*SKEW_MAX)*4",
			      "threads <= max threads per block", "3xTF32 (wgmma) only on sm_90a",
			      "TMA tile only on sm_90 and later", "candidates to compile"};
	const char *counts[] = {"1814400\n", "1450  (-1812950)\n", "1288  (-162)\n", "1270  (-18)\n", "1030  (-240)\n",
				"454  (-576)\n", "409  (-45)\n", "409  (-0)\n", "409  (-0)\n", "409  (-0)\n", "409\n"};
	const char *at = text;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const char *row = at ? strstr(at, rows[i]) : NULL;
		const char *end = row ? strchr(row, '\n') : NULL;
		size_t n = strlen(counts[i]);
		CHECK(end && (size_t)(end + 1 - row) >= n && !strncmp(end + 1 - n, counts[i], n),
		      "row \"%s\" missing, out of order or not ending in %s", rows[i], counts[i]);
		at = end;
	}
	CHECK(at && !at[1], "the count is not the last line");
	CHECK_HAS(text, "the search's default window: a 50th of a problem's points, within 4..8 (--window)\n");
	CHECK(!strstr(text, "BM=16 BN=32"), "configurations listed without verbose");
	free(text);

	text = report_of(&dlb_op_gemm, DLB_PREC_FP32, 1, &rc);
	int listed = 0;
	for (const char *p = text; (p = strstr(p, "\n  BM=")); p++)
		listed++;
	CHECK_EQ_INT(listed, 409);
	free(text);

	text = report_of(&dlb_op_gemm, DLB_PREC_FP16, 0, &rc);
	CHECK_EQ_INT(rc, DLB_E_USAGE);
	CHECK_HAS(dlb_last_error(), "holds the fp32 space");
	free(text);

	/* an op's ceiling on the default window: shown, and what the search takes (0: 8; at least 4) */
	struct dlb_op wide = dlb_op_gemm;
	wide.search_window_max = 48;
	text = report_of(&wide, DLB_PREC_FP32, 0, &rc);
	CHECK_HAS(text, "within 4..48 (--window)\n");
	free(text);
	CHECK_EQ_INT(dlb_search_window_ceiling(0), 8);
	CHECK_EQ_INT(dlb_search_window_ceiling(-3), 8);
	CHECK_EQ_INT(dlb_search_window_ceiling(3), 4);
	CHECK_EQ_INT(dlb_search_window_ceiling(6), 6);
	CHECK_EQ_INT(dlb_search_window_ceiling(48), 48);

	struct dlb_op broken = dlb_op_gemm;
	struct dlb_constraint rows_bad[] = {{.text = "BM % 0", .kind = DLB_CON_MULTIPLE, .a = 0, .b = DLB_CONST}};
	broken.space.constraints = rows_bad;
	broken.space.nconstraints = 1;
	text = report_of(&broken, DLB_PREC_FP32, 0, &rc);
	CHECK_EQ_INT(rc, EINVAL);
	CHECK_HAS(dlb_last_error(), "BM % 0");
	free(text);
}

static void test_splits(void)
{
	int v[GEMM_NPARAMS] = {[GEMM_BM] = 128, [GEMM_BN] = 128, [GEMM_BK] = 8, [GEMM_TM] = 8, [GEMM_TN] = 8};
	struct dlb_problem p = {.op = &dlb_op_gemm, .dim = {[GEMM_M] = 4096, [GEMM_N] = 4096, [GEMM_K] = 4096}};
	int s[16];
	int n = dlb_gemm_splits(&p, v, 132, 0, s, 16);
	CHECK(n == 1 && s[0] == 1, "4096^3 on 132 SMs: %d splits, first %d; expected only 1", n, s[0]);

	/* Few tiles, deep k: split-K pays. */
	int w[GEMM_NPARAMS] = {[GEMM_BM] = 32, [GEMM_BN] = 16, [GEMM_BK] = 8, [GEMM_TM] = 4, [GEMM_TN] = 2};
	struct dlb_problem q = {.op = &dlb_op_gemm, .dim = {[GEMM_M] = 512, [GEMM_N] = 8, [GEMM_K] = 500000}};
	int64_t tiles = (512 / 32) * 1;
	n = dlb_gemm_splits(&q, w, 132, 0, s, 16);
	CHECK(n >= 2, "512x8x500000: only %d split factor(s)", n);
	CHECK_EQ_INT(s[0], 1);
	for (int i = 1; i < n; i++) {
		CHECK(s[i] == 2 * s[i - 1], "split %d is %d after %d: not the next power of two", i, s[i], s[i - 1]);
		CHECK(tiles * s[i] <= WAVES * 132, "split %d: %lld tiles x %d > %d x 132 SMs", i, (long long)tiles,
		      s[i], WAVES);
		CHECK(GK(&q) / s[i] >= KSTEPS * w[GEMM_BK], "split %d: k/%d = %lld < %d BK", i, s[i],
		      (long long)(GK(&q) / s[i]), KSTEPS);
	}
	int want = 1; /* with WAVES 2 and KSTEPS 8: 1 2 4 8 16, as 16 tiles x 32 would be 512 > 264 */
	for (int f = 2; f <= 64 && tiles * f <= WAVES * 132 && GK(&q) / f >= KSTEPS * w[GEMM_BK]; f *= 2)
		want++;
	CHECK_EQ_INT(n, want);

	/* max bounds the list; k too shallow to split leaves 1. */
	CHECK_EQ_INT(dlb_gemm_splits(&q, w, 132, 0, s, 3), 3);
	CHECK_EQ_INT(dlb_gemm_splits(&q, w, 132, 0, s, 0), 0);
	GK(&q) = 40;
	CHECK_EQ_INT(dlb_gemm_splits(&q, w, 132, 0, s, 16), 1);
	CHECK_EQ_INT(dlb_gemm_splits(&q, w, 132, 1, s, 16), 1);

	/* fill: 35x8457x4096 with 64x128 tiles of BK 16 is 67 tiles on 132 SMs. Blocks dealt evenly, a split's time
	 * on the busiest SM is ceil(67 s / 132) x ceil(4096 / s / 16) k-steps: s 2, 4, 8: 256, 192, 160 (16 is over
	 * the rule: 1072 blocks > 8 x 132); between them 3 (2 x 86 = 172), 7 (4 x 37 = 148) and 13 (7 x 20 = 140),
	 * each below both of its powers of two (5 costs 156 and 6 172, 9-15 145 at best but 13). */
	int f[GEMM_NPARAMS] = {[GEMM_BM] = 64, [GEMM_BN] = 128, [GEMM_BK] = 16, [GEMM_TM] = 8, [GEMM_TN] = 8};
	struct dlb_problem r = {.op = &dlb_op_gemm, .dim = {[GEMM_M] = 35, [GEMM_N] = 8457, [GEMM_K] = 4096}};
	const int want_fill[] = {1, 2, 3, 4, 7, 8, 13};
	n = dlb_gemm_splits(&r, f, 132, 1, s, 16);
	CHECK_EQ_INT(n, 7);
	for (int i = 0; i < n && i < 7; i++)
		CHECK(s[i] == want_fill[i], "35x8457x4096 filled: split %d is %d, want %d", i, s[i], want_fill[i]);
	CHECK_EQ_INT(dlb_gemm_splits(&r, f, 132, 0, s, 16), 4); /* 1 2 4 8 */
	CHECK_EQ_INT(dlb_gemm_splits(&r, f, 132, 1, s, 4), 4);  /* max still bounds the list: 1 2 3 4 */
	CHECK_EQ_INT(s[3], 4);
	/* a grid that fills the SMs at a power of two gains nothing between: 132 tiles (M 1056 = 33 x 32, N 512)
	 * cost ceil(132 s / 132) x ceil(4096 / s / 16) = 256 at every s, so no factor is added */
	struct dlb_problem e = {.op = &dlb_op_gemm, .dim = {[GEMM_M] = 33 * 64, [GEMM_N] = 4 * 128, [GEMM_K] = 4096}};
	n = dlb_gemm_splits(&e, f, 132, 1, s, 16);
	for (int i = 1; i < n; i++)
		CHECK(s[i] == 2 * s[i - 1], "132 tiles filled: split %d is %d after %d", i, s[i], s[i - 1]);
}

/* The TMA tile's kernel (gemm_fp32.cu's KIND 3): gemm_nt, which reads B in [k][n] boxes, for a transposed B and,
 * from M = 1024, for B as stored (a transposed copy, gemm.c's tma_reads_kn); gemm_nn below. Only those two
 * sources are compiled for it. */
static void test_tma_spec(void)
{
	int v[GEMM_NPARAMS] = {[GEMM_BM] = 128, [GEMM_BN] = 64, [GEMM_BK] = 16, [GEMM_TM] = 8, [GEMM_TN] = 8,
			       [GEMM_KIND] = GEMM_KIND_TMA_TILE, [GEMM_STAGES] = 3};
	const struct {
		int64_t m;
		int ta, tb, spec;
	} c[] = {{512, 0, 0, 0}, {1023, 1, 0, 0}, {1024, 0, 0, 1}, {4096, 1, 0, 1}, {35, 0, 1, 1}, {35, 1, 1, 1}};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		struct dlb_problem p = {.op = &dlb_op_gemm, .dim = {[GEMM_M] = c[i].m, [GEMM_N] = 7000, [GEMM_K] = 2048,
								    [GEMM_TA] = c[i].ta, [GEMM_TB] = c[i].tb}};
		CHECK(dlb_op_gemm.spec_of(&p, v) == c[i].spec, "TMA tile, M %lld, layout %c%c: source %d, want %d",
		      (long long)c[i].m, "NT"[c[i].ta], "NT"[c[i].tb], dlb_op_gemm.spec_of(&p, v), c[i].spec);
	}
	for (int sp = 0; sp < 4; sp++)
		CHECK(!!dlb_op_gemm.spec_used(&dlb_op_gemm, sp, v) == (sp < 2), "TMA tile: source %d used %d", sp,
		      dlb_op_gemm.spec_used(&dlb_op_gemm, sp, v));
}

/* The search's coordinate order of a parameter's values: by magnitude, negative before positive at equal
 * magnitude, so that a variant done another way (-4) sits beside its twin (4). */
static void test_value_order(void)
{
	const int want[] = {-1, 1, -2, 2, -4, 4, -8, 8, 16};
	for (int i = 0; i < 9; i++)
		for (int j = 0; j < 9; j++)
			CHECK(dlb_value_before(want[i], want[j]) == (i < j), "%d before %d: %d", want[i], want[j],
			      dlb_value_before(want[i], want[j]));
	CHECK(dlb_value_before(0, -1) && !dlb_value_before(3, 3), "0 before -1, 3 not before 3");
	CHECK(dlb_value_before(INT_MAX, INT_MIN) && !dlb_value_before(INT_MIN, INT_MAX), "INT_MIN is the largest magnitude");
	/* ranks in place, every other int (a second parameter's values between, untouched) */
	int v[] = {4, 7, -4, 7, 1, 7, -2, 7, 4, 7, 16, 7}, distinct[6];
	const int rank[] = {3, 7, 2, 7, 0, 7, 1, 7, 3, 7, 4, 7};
	CHECK_EQ_INT(dlb_value_ranks(v, 6, 2, distinct), 5);
	for (int i = 0; i < 12; i++)
		CHECK(v[i] == rank[i], "value %d: rank %d, want %d", i, v[i], rank[i]);
}

int main(void)
{
	space = &dlb_op_gemm.space;
	test_kinds();
	test_enumerate();
	test_text();
	test_report();
	test_splits();
	test_tma_spec();
	test_value_order();
	return TEST_DONE();
}
