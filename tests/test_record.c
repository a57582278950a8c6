/* test_record: a result survives the store field by field (best, vendor entries and trials in their own
 * sub-databases; NaN as JSON null), and what is not a record of this version is refused. */
#include "../store/record.h"
#include "../store/store.h"
#include "err.h"
#include "ops/gemm.h"
#include "result.h"
#include "testlib.h"

#include <lmdb.h>
#include <stdlib.h>

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

/* In key order (the order a load returns them): by configuration text. */
static struct dlb_trial trials[3] = {
	{.config = "BM=128 BN=128 BK=32 TM=8 TN=8 SPLITK=1", .status = DLB_ST_RESOURCE_LIMIT, .median_us = NAN,
	 .lo_us = NAN, .hi_us = NAN, .max_err = NAN, .error = "over the limit", .timestamp = "2025-01-02T03:04:05Z"},
	{.config = "BM=32 BN=16 BK=8 TM=4 TN=2 SPLITK=4", .status = DLB_ST_WRONG_ANSWER, .median_us = NAN, .lo_us = NAN,
	 .hi_us = NAN, .max_err = 0.7071067811865476, .seconds = 0.25, .timestamp = "2025-01-02T03:04:06Z"},
	{.config = "BM=64 BN=64 BK=8 TM=8 TN=4 SPLITK=1", .status = DLB_ST_OK, .n = 15, .median_us = 41.25,
	 .lo_us = 41.0 + 1.0 / 3, .hi_us = 41.5 + 1.0 / 7, .max_err = 3.0517578125e-05, .stop = "samples",
	 .seconds = 1.0 / 3, .timestamp = "2025-01-02T03:04:07Z"},
};

#define KEY "v1|gemm|fp32|NN|1760x16x1760|gpu=NVIDIA H100 80GB HBM3|uuid=GPU-1|sm=90|driver=13000|cuda=13000|" \
	    "nvrtc=1300|cublas=130100|tpl=0123456789abcdef"

static char *encode_best(const struct dlb_result *r)
{
	return dlb_json_text(dlb_best_json(r));
}

static int decode_best(const char *text, struct dlb_result *r)
{
	json_t *j = dlb_json_parse(text, strlen(text));
	int rc = dlb_best_from_json(j, r);
	json_decref(j);
	return rc;
}

static void sample_result(struct dlb_result *r)
{
	memset(r, 0, sizeof *r);
	r->p = (struct dlb_problem){.op = &dlb_op_gemm, .prec = DLB_PREC_FP32, .m = 1760, .n = 16, .k = 1760};
	r->found = 1;
	snprintf(r->key, sizeof r->key, "%s", KEY);
	snprintf(r->platform, sizeof r->platform, "GPU-1|driver=13000|cuda=13000|nvrtc=1300|cublas=130100|cudnn=91400|"
						  "cusparse=12603|dlbtune=0.1.0");
	snprintf(r->config, sizeof r->config, "%s", trials[2].config);
	r->tuned = stats(15, 40.875);
	r->max_err = 3.0517578125e-05;
	r->tol = 1.0 / 3000;
	r->peak_tflops = 66.9;
	r->gpu_seconds = 12.345678901234567;
	snprintf(r->gpu, sizeof r->gpu, "NVIDIA H100 80GB HBM3");
	snprintf(r->timestamp, sizeof r->timestamp, "2025-01-02T03:04:05Z");
	r->nvendor = 3;
	/* in name order, the order a load returns them */
	r->vendor[0] = (struct dlb_vendor_entry){"cublasLt#0", 1, 1, stats(15, 43.0 + 1.0 / 9)};
	r->vendor[1] = (struct dlb_vendor_entry){"cublasLt#1", 1, 0, {0}}; /* failed verification: not timed */
	r->vendor[2] = (struct dlb_vendor_entry){"cublasSgemm", 0, 1, stats(15, 44.5)};
	for (int s = 0; s < DLB_ST_COUNT; s++)
		r->counts[s] = 10 * s + 1;
	r->ntrials = 3;
	r->trials = trials;
}

static void test_round_trip(void)
{
	struct dlb_result r, d;
	struct dlb_store *db = NULL;
	char dir[] = "/tmp/dlb_test_record.XXXXXX", cmd[64];
	REQUIRE(mkdtemp(dir), "mkdtemp failed");
	REQUIRE(dlb_store_open(dir, DLB_STORE_CREATE, &db) == 0, "open: %s", dlb_last_error());
	sample_result(&r);
	CHECK_EQ_INT(dlb_result_save(db, &r), 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ_INT(dlb_trial_save(db, r.key, &trials[i]), 0);

	struct dlb_problem other = {.op = &dlb_op_gemm, .m = 7, .n = 8, .k = 9, .ta = 1};
	memset(&d, 0, sizeof d);
	d.p = other;
	d.cached = 1;
	CHECK_EQ_INT(dlb_result_load(db, KEY, 1, &d), 0);
	CHECK(d.p.m == 7 && d.p.n == 8 && d.p.k == 9 && d.p.ta == 1 && d.p.op == &dlb_op_gemm,
	      "the caller's problem was not kept");
	CHECK_EQ_STR(d.key, KEY);
	CHECK_EQ_STR(d.platform, r.platform);
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
	for (int i = 0; i < 3 && i < d.nvendor; i++) { /* vendor entries come back in name order, as stored */
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
		const struct dlb_trial *a = &d.trials[i], *b = &trials[i];
		CHECK_EQ_STR(a->config, b->config);
		CHECK(a->status == b->status, "trial %d: status %s, expected %s", i, dlb_status_name(a->status),
		      dlb_status_name(b->status));
		CHECK_EQ_INT(a->n, b->n);
		CHECK(same(a->median_us, b->median_us) && same(a->lo_us, b->lo_us) && same(a->hi_us, b->hi_us),
		      "trial %d: median %.17g [%.17g, %.17g]", i, a->median_us, a->lo_us, a->hi_us);
		CHECK(same(a->max_err, b->max_err), "trial %d: max_err %.17g, expected %.17g", i, a->max_err,
		      b->max_err);
		CHECK_EQ_STR(a->stop, b->stop);
		CHECK_EQ_STR(a->error, b->error);
		CHECK_EQ_STR(a->timestamp, b->timestamp);
		CHECK(same(a->seconds, b->seconds), "trial %d: seconds %.17g, expected %.17g", i, a->seconds, b->seconds);
	}
	CHECK_EQ_INT(d.cached, 0); /* not a stored field */
	dlb_result_free(&d);
	CHECK(d.trials == NULL && d.ntrials == 0, "dlb_result_free left %d trials", d.ntrials);

	/* Without trials: everything else, and no trial list. */
	memset(&d, 0, sizeof d);
	CHECK_EQ_INT(dlb_result_load(db, KEY, 0, &d), 0);
	CHECK(d.ntrials == 0 && d.trials == NULL, "with_trials = 0 loaded %d trials", d.ntrials);
	CHECK_EQ_INT(d.nvendor, 3);
	CHECK_EQ_STR(d.config, r.config);
	dlb_result_free(&d);
	CHECK_EQ_INT(dlb_result_load(db, "v1|no such key", 0, &d), MDB_NOTFOUND);

	/* JSON has no NaN: the text must still be valid JSON (null), which the loads above already read. */
	char *json = encode_best(&r), *tj = dlb_json_text(dlb_trial_json(&trials[0]));
	REQUIRE(json && tj, "encoding returned NULL");
	CHECK(!strstr(json, "nan") && !strstr(json, "NaN"), "NaN written into the JSON: %s", json);
	CHECK(!strstr(tj, "nan") && !strstr(tj, "NaN"), "NaN written into the JSON: %s", tj);
	free(json);
	free(tj);
	dlb_store_close(db);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK_EQ_INT(system(cmd), 0);
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
	char *json = encode_best(&r);
	REQUIRE(json, "encoding returned NULL");
	memset(&d, 0, sizeof d);
	CHECK_EQ_INT(decode_best(json, &d), 0);
	CHECK_EQ_INT(d.found, 0);
	CHECK_EQ_STR(d.config, "");
	CHECK(isnan(d.max_err), "max_err %g, expected NaN", d.max_err);
	check_stats("tuned", &d.tuned, &r.tuned);
	dlb_result_free(&d);
	free(json);
}

static void expect_bad(const char *text, const char *what)
{
	struct dlb_result d;
	memset(&d, 0, sizeof d);
	int rc = decode_best(text, &d);
	CHECK(rc == DLB_E_JSON, "%s: returned %d, expected DLB_E_JSON", what, rc);
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
	char *json = encode_best(&r);
	REQUIRE(json, "encoding returned NULL");
	CHECK_EQ_INT(decode_best(json, &r), 0); /* the unmodified text is good */
	char *v = strstr(json, "\"record_version\":2");
	REQUIRE(v, "no record_version 2 in %s", json);
	size_t len = strlen(json);
	char *bad = malloc(len + 8);
	REQUIRE(bad, "out of memory");
	snprintf(bad, len + 8, "%.*s\"record_version\":99%s", (int)(v - json), json,
		 v + strlen("\"record_version\":2"));
	expect_bad(bad, "a full record with record_version 99");
	snprintf(bad, len + 8, "%.*s\"record_version\":1%s", (int)(v - json), json, v + strlen("\"record_version\":2"));
	expect_bad(bad, "a schema-1 record outside a migration");

	snprintf(bad, len + 8, "%.*s", (int)(len / 2), json);
	expect_bad(bad, "half a record");
	free(bad);
	free(json);

	/* a trial with an unknown status */
	struct dlb_trial t;
	json_t *tj = dlb_trial_json(&trials[1]);
	REQUIRE(tj, "encoding returned NULL");
	CHECK_EQ_INT(dlb_trial_from_json(tj, &t), 0);
	json_object_set_new(tj, "status", json_string("wrong_answe"));
	CHECK_EQ_INT(dlb_trial_from_json(tj, &t), DLB_E_JSON);
	/* a configuration too long for the key is refused, not cut (two cut ones would become one trial) */
	char longcfg[300];
	memset(longcfg, 'A', sizeof longcfg - 1);
	longcfg[sizeof longcfg - 1] = 0;
	json_object_set_new(tj, "status", json_string("ok"));
	json_object_set_new(tj, "config", json_string(longcfg));
	CHECK_EQ_INT(dlb_trial_from_json(tj, &t), DLB_E_JSON);
	json_decref(tj);

	/* an error text cut inside a UTF-8 character still encodes (as '?') */
	struct dlb_trial cut = trials[0];
	snprintf(cut.error, sizeof cut.error, "ptxas: \xe2\x82");
	char *ct = dlb_json_text(dlb_trial_json(&cut));
	CHECK(ct && strstr(ct, "ptxas: ??"), "cut UTF-8 gave %s", ct ? ct : "(null)");
	free(ct);
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
