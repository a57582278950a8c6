/* test_record: a result survives JSON encoding field by field (NaN as null), and what is not a v1 record is
 * refused. */
#include "../store/record.h"
#include "err.h"
#include "ops/gemm.h"
#include "result.h"
#include "testlib.h"

/* Equal, or both NaN. */
static int same(double a, double b)
{
	return a == b || (isnan(a) && isnan(b));
}

static struct dlb_stats stats(int n, double median)
{
	/* Thirds and sevenths: not exact in binary, so a lossy number format shows. */
	return (struct dlb_stats){.n = n,
				  .median = median,
				  .median_lo = median - 1.0 / 3,
				  .median_hi = median + 1.0 / 7,
				  .mean = median + 0.1,
				  .mean_lo = median - 0.2,
				  .mean_hi = median + 0.3,
				  .stddev = 0.123456789012345678,
				  .min = median - 1,
				  .max = median * 1e10};
}

static void check_stats(const char *what, const struct dlb_stats *a, const struct dlb_stats *b)
{
	CHECK(a->n == b->n, "%s.n %d, expected %d", what, a->n, b->n);
	const double *x[] = {&a->median, &a->median_lo, &a->median_hi, &a->mean, &a->mean_lo, &a->mean_hi,
			     &a->stddev,  &a->min,       &a->max};
	const double *y[] = {&b->median, &b->median_lo, &b->median_hi, &b->mean, &b->mean_lo, &b->mean_hi,
			     &b->stddev,  &b->min,       &b->max};
	for (int i = 0; i < 9; i++)
		CHECK(same(*x[i], *y[i]), "%s field %d: %.17g, expected %.17g", what, i, *x[i], *y[i]);
}

static struct dlb_trial trials[3] = {
	{"BM=64 BN=64 BK=8 TM=8 TN=4 SPLITK=1", DLB_ST_OK, 41.25, 3.0517578125e-05},
	{"BM=32 BN=16 BK=8 TM=4 TN=2 SPLITK=4", DLB_ST_WRONG_ANSWER, NAN, 0.7071067811865476},
	{"BM=128 BN=128 BK=32 TM=8 TN=8 SPLITK=1", DLB_ST_RESOURCE_LIMIT, NAN, NAN},
};

static void sample_result(struct dlb_result *r)
{
	memset(r, 0, sizeof *r);
	r->p = (struct dlb_problem){.op = &dlb_op_gemm, .prec = DLB_PREC_FP32, .m = 1760, .n = 16, .k = 1760};
	r->found = 1;
	snprintf(r->config, sizeof r->config, "%s", trials[0].config);
	r->tuned = stats(15, 40.875);
	r->max_err = 3.0517578125e-05;
	r->tol = 1.0 / 3000;
	r->peak_tflops = 66.9;
	r->gpu_seconds = 12.345678901234567;
	snprintf(r->gpu, sizeof r->gpu, "NVIDIA H100 80GB HBM3");
	snprintf(r->timestamp, sizeof r->timestamp, "2025-01-02T03:04:05Z");
	r->nvendor = 3;
	r->vendor[0] = (struct dlb_vendor_entry){"cublasSgemm", 0, 1, stats(15, 44.5)};
	r->vendor[1] = (struct dlb_vendor_entry){"cublasLt#0", 1, 1, stats(15, 43.0 + 1.0 / 9)};
	r->vendor[2] = (struct dlb_vendor_entry){"cublasLt#1", 1, 0, {0}}; /* failed verification: not timed */
	for (int s = 0; s < DLB_ST_COUNT; s++)
		r->counts[s] = 10 * s + 1;
	r->ntrials = 3;
	r->trials = trials;
}

static void test_round_trip(void)
{
	struct dlb_result r, d;
	sample_result(&r);
	char *json = dlb_record_encode(&r);
	REQUIRE(json, "dlb_record_encode returned NULL");

	struct dlb_problem other = {.op = &dlb_op_gemm, .m = 7, .n = 8, .k = 9, .ta = 1};
	memset(&d, 0, sizeof d);
	d.p = other;
	d.cached = 1;
	CHECK_EQ_INT(dlb_record_decode(json, strlen(json), 1, &d), 0);
	CHECK(d.p.m == 7 && d.p.n == 8 && d.p.k == 9 && d.p.ta == 1 && d.p.op == &dlb_op_gemm,
	      "the caller's problem was not kept");
	CHECK_EQ_INT(d.found, 1);
	CHECK_EQ_STR(d.config, r.config);
	check_stats("tuned", &d.tuned, &r.tuned);
	CHECK(same(d.max_err, r.max_err), "max_err %.17g", d.max_err);
	CHECK(same(d.tol, r.tol), "tol %.17g, expected %.17g", d.tol, r.tol);
	CHECK(same(d.peak_tflops, r.peak_tflops), "peak_tflops %.17g", d.peak_tflops);
	CHECK(same(d.gpu_seconds, r.gpu_seconds), "gpu_seconds %.17g", d.gpu_seconds);
	CHECK_EQ_STR(d.gpu, r.gpu);
	CHECK_EQ_STR(d.timestamp, r.timestamp);
	CHECK_EQ_INT(d.nvendor, 3);
	for (int i = 0; i < 3 && i < d.nvendor; i++) {
		char what[32];
		snprintf(what, sizeof what, "vendor[%d]", i);
		CHECK_EQ_STR(d.vendor[i].name, r.vendor[i].name);
		CHECK(d.vendor[i].is_lt == r.vendor[i].is_lt && d.vendor[i].ok == r.vendor[i].ok,
		      "%s: is_lt %d ok %d, expected %d %d", what, d.vendor[i].is_lt, d.vendor[i].ok, r.vendor[i].is_lt,
		      r.vendor[i].ok);
		check_stats(what, &d.vendor[i].st, &r.vendor[i].st);
	}
	for (int s = 0; s < DLB_ST_COUNT; s++)
		CHECK(d.counts[s] == r.counts[s], "counts[%s] %d, expected %d", dlb_status_name((enum dlb_status)s),
		      d.counts[s], r.counts[s]);
	CHECK_EQ_INT(d.ntrials, 3);
	for (int i = 0; i < 3 && i < d.ntrials && d.trials; i++) {
		const struct dlb_trial *a = &d.trials[i], *b = &r.trials[i];
		CHECK_EQ_STR(a->config, b->config);
		CHECK(a->status == b->status, "trial %d: status %s, expected %s", i, dlb_status_name(a->status),
		      dlb_status_name(b->status));
		CHECK(same(a->median_us, b->median_us), "trial %d: median_us %.17g, expected %.17g", i, a->median_us,
		      b->median_us);
		CHECK(same(a->max_err, b->max_err), "trial %d: max_err %.17g, expected %.17g", i, a->max_err,
		      b->max_err);
	}
	CHECK_EQ_INT(d.cached, 0); /* not a stored field */
	dlb_result_free(&d);
	CHECK(d.trials == NULL && d.ntrials == 0, "dlb_result_free left %d trials", d.ntrials);

	/* Without trials: everything else, and no trial list. */
	memset(&d, 0, sizeof d);
	CHECK_EQ_INT(dlb_record_decode(json, strlen(json), 0, &d), 0);
	CHECK(d.ntrials == 0 && d.trials == NULL, "with_trials = 0 loaded %d trials", d.ntrials);
	CHECK_EQ_INT(d.nvendor, 3);
	CHECK_EQ_STR(d.config, r.config);
	dlb_result_free(&d);

	/* JSON has no NaN: the text must still be valid JSON (null), which the decoder above already read. */
	CHECK(!strstr(json, "nan") && !strstr(json, "NaN"), "NaN written into the JSON: %s", json);
	free(json);
}

static void test_not_found(void)
{
	/* No verified candidate: no config, zero tuned stats, no max_err. */
	struct dlb_result r, d;
	sample_result(&r);
	r.found = 0;
	r.config[0] = 0;
	memset(&r.tuned, 0, sizeof r.tuned);
	r.max_err = NAN;
	r.ntrials = 0;
	r.trials = NULL;
	char *json = dlb_record_encode(&r);
	REQUIRE(json, "dlb_record_encode returned NULL");
	memset(&d, 0, sizeof d);
	CHECK_EQ_INT(dlb_record_decode(json, strlen(json), 1, &d), 0);
	CHECK_EQ_INT(d.found, 0);
	CHECK_EQ_STR(d.config, "");
	CHECK(isnan(d.max_err), "max_err %g, expected NaN", d.max_err);
	CHECK(d.ntrials == 0 && d.trials == NULL, "%d trials from an empty list", d.ntrials);
	check_stats("tuned", &d.tuned, &r.tuned);
	dlb_result_free(&d);
	free(json);
}

static void expect_bad(const char *text, const char *what)
{
	struct dlb_result d;
	memset(&d, 0, sizeof d);
	int rc = dlb_record_decode(text, strlen(text), 1, &d);
	CHECK(rc == DLB_E_JSON, "%s: returned %d, expected DLB_E_JSON", what, rc);
	CHECK(d.trials == NULL, "%s: a trial list was left allocated", what);
	dlb_result_free(&d);
}

static void test_bad(void)
{
	expect_bad("not json", "not json");
	expect_bad("", "empty text");
	expect_bad("{}", "{}");
	expect_bad("[1,2]", "an array");
	expect_bad("{\"record_version\":99}", "version 99 alone");

	struct dlb_result r;
	sample_result(&r);
	char *json = dlb_record_encode(&r);
	REQUIRE(json, "dlb_record_encode returned NULL");
	char *v = strstr(json, "\"record_version\":1");
	REQUIRE(v, "no record_version 1 in %s", json);
	size_t len = strlen(json);
	char *bad = malloc(len + 8);
	REQUIRE(bad, "out of memory");
	snprintf(bad, len + 8, "%.*s\"record_version\":99%s", (int)(v - json), json,
		 v + strlen("\"record_version\":1"));
	expect_bad(bad, "a full record with record_version 99");

	snprintf(bad, len + 8, "%.*s", (int)(len / 2), json);
	expect_bad(bad, "half a record");

	char *st = strstr(json, "\"wrong_answer\"");
	while (st && st[-1] != ':') /* the trial's status, not the counts key */
		st = strstr(st + 1, "\"wrong_answer\"");
	REQUIRE(st, "no trial status in %s", json);
	snprintf(bad, len + 8, "%.*s\"wrong_answe\"%s", (int)(st - json), json, st + strlen("\"wrong_answer\""));
	expect_bad(bad, "a trial with an unknown status");
	free(bad);
	free(json);
}

static void test_status_names(void)
{
	for (int s = 0; s < DLB_ST_COUNT; s++) {
		const char *name = dlb_status_name((enum dlb_status)s);
		enum dlb_status back = DLB_ST_COUNT;
		CHECK(name && *name && strcmp(name, "?"), "status %d has no name", s);
		CHECK(dlb_status_parse(name, &back) == 0 && back == (enum dlb_status)s,
		      "\"%s\" parses back as %d, not %d", name, (int)back, s);
		for (int t = 0; t < s; t++)
			CHECK(strcmp(name, dlb_status_name((enum dlb_status)t)), "statuses %d and %d share \"%s\"",
			      t, s, name);
	}
	CHECK_EQ_STR(dlb_status_name(DLB_ST_OK), "ok");
	CHECK_EQ_STR(dlb_status_name(DLB_ST_COUNT), "?");
	enum dlb_status x;
	CHECK_EQ_INT(dlb_status_parse("?", &x), DLB_E_PARSE);
	CHECK_EQ_INT(dlb_status_parse("", &x), DLB_E_PARSE);
	CHECK_EQ_INT(dlb_status_parse("OK", &x), DLB_E_PARSE);
}

int main(void)
{
	test_round_trip();
	test_not_found();
	test_bad();
	test_status_names();
	return TEST_DONE();
}
