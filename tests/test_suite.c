/* test_suite: CSV suites — valid text, every error naming its file and line, the built-in suites, files — and
 * what a problem runs as: the precision facts and int8's padding to multiples of 4. */
#include "err.h"
#include "op.h"
#include "ops/gemm/gemm.h"
#include "suite.h"
#include "testlib.h"

#include <unistd.h>

static const struct dlb_op *gemm;

static void check_problem(const struct dlb_suite *s, int i, int64_t m, int64_t n, int64_t k, int ta, int tb)
{
	if (!CHECK(i < s->n, "%s: no problem %d (%d parsed)", s->name, i, s->n))
		return;
	const struct dlb_problem *p = &s->problems[i];
	CHECK(GM(p) == m && GN(p) == n && GK(p) == k && GTA(p) == ta && GTB(p) == tb,
	      "%s: problem %d is %lld,%lld,%lld,%d,%d; expected %lld,%lld,%lld,%d,%d", s->name, i, (long long)GM(p),
	      (long long)GN(p), (long long)GK(p), GTA(p), GTB(p), (long long)m, (long long)n, (long long)k, ta, tb);
}

static void test_valid(void)
{
	struct dlb_suite s;
	const char *text = "# a comment\n"
			   "m,n,k,a_t,b_t\n"
			   "\n"
			   "1760,16,1760,0,0\n"
			   "  # an indented comment\n"
			   "   \n"
			   "35, 700 ,2048,1,0\n"
			   "2147483647,8,2147483647,0,1";
	CHECK_EQ_INT(dlb_suite_parse(text, "ok.csv", gemm, DLB_PREC_FP32, &s), 0);
	CHECK_EQ_INT(s.n, 3);
	check_problem(&s, 0, 1760, 16, 1760, 0, 0);
	check_problem(&s, 1, 35, 700, 2048, 1, 0);
	check_problem(&s, 2, 2147483647, 8, 2147483647, 0, 1);
	CHECK_EQ_INT(s.problems[0].line, 4);
	CHECK_EQ_INT(s.problems[1].line, 7);
	CHECK_EQ_INT(s.problems[2].line, 8);
	CHECK(s.problems[0].op == gemm && s.problems[2].prec == DLB_PREC_FP32, "op or precision not set on problems");
	CHECK_EQ_STR(s.name, "ok.csv");
	dlb_suite_free(&s);
	CHECK(s.problems == NULL && s.n == 0, "dlb_suite_free left %d problems", s.n);

	/* Columns in another order, extra columns, CRLF line ends. */
	text = "b_t,k,note,a_t,n,m\r\n"
	       "1,30,x,0,20,10\r\n"
	       "\r\n"
	       "0,3,y,1,2,1\r\n";
	CHECK_EQ_INT(dlb_suite_parse(text, "order.csv", gemm, DLB_PREC_FP32, &s), 0);
	CHECK_EQ_INT(s.n, 2);
	check_problem(&s, 0, 10, 20, 30, 0, 1);
	check_problem(&s, 1, 1, 2, 3, 1, 0);
	dlb_suite_free(&s);

	/* A UTF-8 byte-order mark before the header, as spreadsheets save CSV (issue 34: "header has no column
	 * 'm'"). */
	text = "\xef\xbb\xbfm,n,k\n5,6,7\n";
	CHECK_EQ_INT(dlb_suite_parse(text, "bom.csv", gemm, DLB_PREC_FP32, &s), 0);
	CHECK_EQ_INT(s.n, 1);
	check_problem(&s, 0, 5, 6, 7, 0, 0);
	dlb_suite_free(&s);

	/* More rows than the first allocation holds. */
	char big[200 * 24] = "m,n,k,a_t,b_t\n";
	for (int i = 1; i <= 200; i++)
		snprintf(big + strlen(big), sizeof big - strlen(big), "%d,%d,%d,%d,0\n", i, i + 1, i + 2, i % 2);
	CHECK_EQ_INT(dlb_suite_parse(big, "big.csv", gemm, DLB_PREC_FP32, &s), 0);
	CHECK_EQ_INT(s.n, 200);
	check_problem(&s, 0, 1, 2, 3, 1, 0);
	check_problem(&s, 199, 200, 201, 202, 0, 0);
	dlb_suite_free(&s);
}

/* text must fail with DLB_E_PARSE and a message containing want (and the reason word, if given). */
static void expect_error(const char *text, const char *want, const char *why)
{
	struct dlb_suite s;
	dlb_clear_error();
	int rc = dlb_suite_parse(text, "x.csv", gemm, DLB_PREC_FP32, &s);
	CHECK(rc == DLB_E_PARSE, "\"%s\": returned %d, expected DLB_E_PARSE", text, rc);
	CHECK(strstr(dlb_last_error(), want), "\"%s\": message \"%s\" does not name \"%s\"", text, dlb_last_error(),
	      want);
	if (why)
		CHECK(strstr(dlb_last_error(), why), "\"%s\": message \"%s\" does not say \"%s\"", text,
		      dlb_last_error(), why);
	if (rc == 0)
		dlb_suite_free(&s);
}

static void test_errors(void)
{
	expect_error("m,n,k,a_t,b_t\n1,2,3,0,0\n1,2,3,0\n", "x.csv:3:", "fields");
	expect_error("m,n,k,a_t,b_t\n1,2,3,0,0\n1,2,3,0,0,7\n", "x.csv:3:", "fields");
	expect_error("m,n,k,a_t,b_t\n1,2,3,0,0\nabc,2,3,0,0\n", "x.csv:3:", "abc");
	expect_error("m,n,k,a_t,b_t\n# c\n1,0,3,0,0\n", "x.csv:3:", NULL);
	expect_error("m,n,k,a_t,b_t\n\n1,2,-5,0,0\n", "x.csv:3:", "-5");
	expect_error("m,n,k,a_t,b_t\n1,2,3,0,0\n1e3,2,3,0,0\n", "x.csv:3:", "1e3");
	expect_error("m,n,k,a_t,b_t\n1,2,3,0,0\n99999999999999,2,3,0,0\n", "x.csv:3:", "99999999999999");
	expect_error("m,n,k,a_t,b_t\n1,2,3,0,0\n2147483648,2,3,0,0\n", "x.csv:3:", NULL);
	expect_error("m,n,k,a_t,b_t\n1,2,3,0,0\n1,2,3,2,0\n", "x.csv:3:", "a_t");
	expect_error("m,n,k,a_t,b_t\n1,2,3,0,0\n1,2,3,0,\n", "x.csv:3:", "b_t");
	expect_error("m,n,k,a_t,b_t\n1,2,3,0,0\n1,,3,0,0\n", "x.csv:3:", NULL);
	expect_error("m,n,k,a_t,b_t\n1,2,3,0,0\n+7,2,3,0,0\n", "x.csv:3:", NULL);
	expect_error("# suite\n\nm,n,a_t,b_t\n1,2,0,0\n", "x.csv:3:", "'k'");
	expect_error("", "x.csv", "empty");
	expect_error("# only a comment\n\n", "x.csv", NULL);
	expect_error("m,n,k,a_t,b_t\n", "x.csv", NULL);
	expect_error("m,n,k,a_t,b_t\n# no rows\n\n", "x.csv", NULL);
}

static void count_layouts(const struct dlb_suite *s, int c[4])
{
	memset(c, 0, 4 * sizeof *c);
	for (int i = 0; i < s->n; i++)
		c[GTA(&s->problems[i]) * 2 + GTB(&s->problems[i])]++;
}

static void test_builtin(void)
{
	struct dlb_suite s;
	int c[4];
	CHECK_EQ_INT(dlb_suite_load("training", gemm, DLB_PREC_FP32, &s), 0);
	CHECK_EQ_INT(s.n, 160);
	count_layouts(&s, c);
	CHECK(c[0] == 77 && c[1] == 10 && c[2] == 73 && c[3] == 0, "training layouts NN %d NT %d TN %d TT %d", c[0],
	      c[1], c[2], c[3]);
	check_problem(&s, 0, 1760, 16, 1760, 0, 0);
	dlb_suite_free(&s);

	CHECK_EQ_INT(dlb_suite_load("gemm_training", gemm, DLB_PREC_FP32, &s), 0);
	CHECK_EQ_INT(s.n, 160);
	dlb_suite_free(&s);

	CHECK_EQ_INT(dlb_suite_load("inference_server", gemm, DLB_PREC_FP32, &s), 0);
	CHECK_EQ_INT(s.n, 75);
	dlb_suite_free(&s);

	memset(&s, 0, sizeof s);
	dlb_clear_error();
	CHECK_EQ_INT(dlb_suite_load("nosuch", gemm, DLB_PREC_FP32, &s), DLB_E_USAGE);
	CHECK_HAS(dlb_last_error(), "nosuch");
	CHECK_HAS(dlb_last_error(), "training");
	CHECK_HAS(dlb_last_error(), "inference_server");

	char names[256];
	dlb_suite_builtin_names(gemm->name, names, sizeof names);
	CHECK(!strcmp(names, "training inference_server") || !strcmp(names, "inference_server training"),
	      "built-in names \"%s\"", names);
}

static void test_files(void)
{
	struct dlb_suite s;
	memset(&s, 0, sizeof s);
	dlb_clear_error();
	CHECK_EQ_INT(dlb_suite_load("/nonexistent/x.csv", gemm, DLB_PREC_FP32, &s), DLB_E_PARSE);
	CHECK_HAS(dlb_last_error(), "/nonexistent/x.csv");

	char path[] = "/tmp/dlb_test_suiteXXXXXX.csv";
	int fd = mkstemps(path, 4);
	REQUIRE(fd >= 0, "cannot create a file in /tmp");
	FILE *fp = fdopen(fd, "w");
	REQUIRE(fp, "fdopen failed");
	fputs("m,n,k,a_t,b_t\n5,6,7,0,1\n8,9,10,1,1\n8,9,x,1,1\n", fp);
	fclose(fp);
	char want[64];
	snprintf(want, sizeof want, "%s:4:", path);
	dlb_clear_error();
	CHECK_EQ_INT(dlb_suite_load(path, gemm, DLB_PREC_FP32, &s), DLB_E_PARSE);
	CHECK_HAS(dlb_last_error(), want);

	/* The same file, fixed, loads; a name ending in .csv is a file even without a '/'. */
	fp = fopen(path, "w");
	REQUIRE(fp, "cannot rewrite %s", path);
	fputs("m,n,k,a_t,b_t\n5,6,7,0,1\n8,9,10,1,1\n", fp);
	fclose(fp);
	CHECK_EQ_INT(dlb_suite_load(path, gemm, DLB_PREC_FP32, &s), 0);
	CHECK_EQ_INT(s.n, 2);
	CHECK_EQ_STR(s.name, path);
	dlb_suite_free(&s);
	dlb_clear_error();
	CHECK_EQ_INT(dlb_suite_load("missing_here.csv", gemm, DLB_PREC_FP32, &s), DLB_E_PARSE);
	CHECK_HAS(dlb_last_error(), "missing_here.csv");
	unlink(path);
}

/* The shape run for prec and m x n x k must be want_*, and the return value whether it changed. */
static void check_padded(enum dlb_prec prec, int64_t m, int64_t n, int64_t k, int64_t wm, int64_t wn, int64_t wk)
{
	struct dlb_problem p = {.op = gemm, .prec = prec, .dim = {[GEMM_M] = m, [GEMM_N] = n, [GEMM_K] = k}};
	int64_t run[DLB_MAX_DIMS];
	int changed = dlb_problem_padded(&p, run);
	int64_t pm = run[GEMM_M], pn = run[GEMM_N], pk = run[GEMM_K];
	CHECK(pm == wm && pn == wn && pk == wk, "%s %lldx%lldx%lld runs as %lldx%lldx%lld, expected %lldx%lldx%lld",
	      dlb_prec_name(prec), (long long)m, (long long)n, (long long)k, (long long)pm, (long long)pn, (long long)pk,
	      (long long)wm, (long long)wn, (long long)wk);
	CHECK(changed == (wm != m || wn != n || wk != k), "%s %lldx%lldx%lld: returned %d", dlb_prec_name(prec),
	      (long long)m, (long long)n, (long long)k, changed);
}

static void test_padding(void)
{
	/* DeepBench: int8 dimensions that are not multiples of 4 are padded up to the next one */
	check_padded(DLB_PREC_INT8, 35, 700, 2047, 36, 700, 2048);
	check_padded(DLB_PREC_INT8, 1, 2, 3, 4, 4, 4);
	check_padded(DLB_PREC_INT8, 4, 8, 1760, 4, 8, 1760);
	check_padded(DLB_PREC_INT8, 5124, 9124, 1761, 5124, 9124, 1764);
	check_padded(DLB_PREC_INT8, DLB_MAX_DIM, 1, 4, (int64_t)1 << 31, 4, 4); /* past DLB_MAX_DIM: main refuses it */
	/* other precisions run the shape as given */
	check_padded(DLB_PREC_FP32, 35, 700, 2047, 35, 700, 2047);
	check_padded(DLB_PREC_FP16, 1, 2, 3, 1, 2, 3);

	const struct dlb_prec_info *i8 = dlb_prec_info(DLB_PREC_INT8), *f16 = dlb_prec_info(DLB_PREC_FP16),
				   *f32 = dlb_prec_info(DLB_PREC_FP32);
	CHECK_EQ_STR(i8->name, "int8");
	CHECK_EQ_STR(i8->unit, "TOPS");
	CHECK_EQ_STR(f16->unit, "TFLOP/s");
	CHECK_EQ_STR(f32->unit, "TFLOP/s");
	CHECK_HAS(i8->about, "int32 accumulation");
	CHECK_HAS(f16->about, "fp32 accumulation");
	CHECK_HAS(i8->peak, "tensor-core");
	CHECK(i8->pad_to == 4 && f16->pad_to == 1 && f32->pad_to == 1, "pad_to: int8 %d fp16 %d fp32 %d", i8->pad_to,
	      f16->pad_to, f32->pad_to);
	for (int p = 0; p < DLB_PREC_COUNT; p++) {
		enum dlb_prec back;
		CHECK(dlb_prec_parse(dlb_prec_info((enum dlb_prec)p)->name, &back) == 0 && (int)back == p,
		      "precision %d does not parse back from its name", p);
	}
}

int main(void)
{
	gemm = dlb_op_find("gemm", DLB_PREC_FP32);
	REQUIRE(gemm, "no gemm op");
	test_valid();
	test_errors();
	test_builtin();
	test_files();
	test_padding();
	return TEST_DONE();
}
