/* test_record: a result survives the store field by field (best, vendor entries and trials in their own
 * sub-databases; NaN as JSON null), and what is not a record of this version is refused; a result as printed
 * (reports/table.c) and exported (reports/export.c): per-precision units and peaks, int8's padded shapes, n/a
 * where a vendor number does not exist. */
#include "../reports/export.h"
#include "../reports/table.h"
#include "../store/key.h"
#include "../store/record.h"
#include "../store/store.h"
#include "err.h"
#include "ops/conv/conv.h"
#include "ops/gemm/gemm.h"
#include "bench.h"
#include "result.h"
#include "testlib.h"

#include <errno.h>
#include <math.h>
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
	 .hi_us = NAN, .max_err = 0.7071067811865476, .seconds = 0.25, .seq = 2, .timestamp = "2025-01-02T03:04:06Z"},
	{.config = "BM=64 BN=64 BK=8 TM=8 TN=4 SPLITK=1", .status = DLB_ST_OK, .n = 15, .median_us = 41.25,
	 .lo_us = 41.0 + 1.0 / 3, .hi_us = 41.5 + 1.0 / 7, .max_err = 3.0517578125e-05, .stop = "samples",
	 .seconds = 1.0 / 3, .seq = 1, .timestamp = "2025-01-02T03:04:07Z"},
};

#define KEY "v2|gemm|fp32|NN|1760x16x1760|gpu=NVIDIA H100 80GB HBM3|id=GPU-1|sm=90|driver=13000|cuda=13000|" \
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
	r->p = (struct dlb_problem){.op = &dlb_op_gemm, .prec = DLB_PREC_FP32, .dim = {[GEMM_M] = 1760, [GEMM_N] = 16, [GEMM_K] = 1760}};
	r->found = 1;
	snprintf(r->key, sizeof r->key, "%s", KEY);
	snprintf(r->platform, sizeof r->platform, "GPU-1|driver=13000|cuda=13000|nvrtc=1300|cublas=130100|cudnn=91400|"
						  "cusparse=12603|dlbtune=0.1.0");
	snprintf(r->config, sizeof r->config, "%s", trials[2].config);
	r->tuned = stats(15, 40.875);
	r->max_err = 3.0517578125e-05;
	r->tol = 1.0 / 3000;
	r->peak = 66.9;
	r->gpu_seconds = 12.345678901234567;
	snprintf(r->gpu, sizeof r->gpu, "NVIDIA H100 80GB HBM3");
	snprintf(r->timestamp, sizeof r->timestamp, "2025-01-02T03:04:05Z");
	r->nvendor = 4;
	/* in name order, the order a load returns them */
	r->vendor[0] = (struct dlb_vendor_entry){"cublasLt#0", 1, 1, stats(15, 43.0 + 1.0 / 9)};
	snprintf(r->vendor[0].config, sizeof r->vendor[0].config, "algo 39, tile 128x128, stages 128xAUTO, cluster 1x2x1");
	r->vendor[1] = (struct dlb_vendor_entry){"cublasLt#1", 1, 0, {0}}; /* failed verification: not timed */
	r->vendor[1].other_math = 1; /* kept through a save and a load */
	r->vendor[2] = (struct dlb_vendor_entry){"cublasSgemm", 0, 1, stats(15, 44.5)};
	r->vendor[2].rel_err = (struct dlb_rel_err){16, 3.0 / 1024 / 1024, 1.0 / 1024 / 1024}; /* kept through a load */
	r->rel_err = (struct dlb_rel_err){16, 5.0 / 1024 / 1024, 0.75 / 1024 / 1024};
	r->vendor[3] = (struct dlb_vendor_entry){"stream floor", 0, 1, stats(15, 9.25), 1};
	r->paired = (struct dlb_paired){.n = 30, .tuned = stats(30, 40.5), .vendor_st = stats(30, 43.25),
					.speedup = {.n = 30, .median = 1.0625, .median_lo = 1.0546875, .median_hi = 1.0703125,
						    .min = 0.984375, .max = 1.125}};
	snprintf(r->paired.vendor, sizeof r->paired.vendor, "cublasLt#0");
	r->paired.e_tuned = (struct dlb_energy){.calls = 4938, .seconds = 0.2, .joules = 101.5, .watts_max = 530.25,
						.sm_mhz_min = 1755, .sm_mhz_max = 1980, .readings = 97, .reasons = 0x4 | 0x8,
						.steps = 41, .steady = 1, .graphed = 1};
	r->paired.e_vendor = (struct dlb_energy){.calls = 4624, .seconds = 0.2, .joules = NAN, .watts_max = NAN};
	for (int s = 0; s < DLB_ST_COUNT; s++)
		r->counts[s] = 10 * s + 1;
	r->ntrials = 3;
	r->trials = trials;
}

/* A fresh database in a new directory dir (a mkdtemp template), and its removal. */
static struct dlb_store *temp_store(char *dir)
{
	struct dlb_store *db = NULL;
	REQUIRE(mkdtemp(dir), "mkdtemp failed");
	REQUIRE(dlb_store_open(dir, DLB_STORE_CREATE, &db) == 0, "open: %s", dlb_last_error());
	return db;
}

static void temp_store_remove(struct dlb_store *db, const char *dir)
{
	char cmd[64];
	dlb_store_close(db);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK_EQ_INT(system(cmd), 0);
}

static void test_round_trip(void)
{
	struct dlb_result r, d;
	char dir[] = "/tmp/dlb_test_record.XXXXXX";
	struct dlb_store *db = temp_store(dir);
	sample_result(&r);
	r.flush_read = 1;
	trials[1].flush_read = 1; /* the others: timed after the older flush */
	CHECK_EQ_INT(dlb_result_save(db, &r), 0);
	for (int i = 0; i < 3; i++)
		CHECK_EQ_INT(dlb_trial_save(db, r.key, &trials[i]), 0);

	struct dlb_problem other = {.op = &dlb_op_gemm, .dim = {[GEMM_M] = 7, [GEMM_N] = 8, [GEMM_K] = 9, [GEMM_TA] = 1}};
	memset(&d, 0, sizeof d);
	d.p = other;
	d.cached = 1;
	CHECK_EQ_INT(dlb_result_load(db, KEY, 1, &d), 0);
	CHECK(GM(&d.p) == 7 && GN(&d.p) == 8 && GK(&d.p) == 9 && GTA(&d.p) == 1 && d.p.op == &dlb_op_gemm,
	      "the caller's problem was not kept");
	CHECK_EQ_STR(d.key, KEY);
	CHECK_EQ_STR(d.platform, r.platform);
	CHECK_EQ_INT(d.found, 1);
	CHECK_EQ_STR(d.config, r.config);
	check_stats("tuned", &d.tuned, &r.tuned);
	CHECK(same(d.max_err, r.max_err), "max_err %.17g", d.max_err);
	CHECK(same(d.tol, r.tol), "tol %.17g, expected %.17g", d.tol, r.tol);
	CHECK(same(d.peak, r.peak), "peak %.17g", d.peak);
	CHECK(same(d.gpu_seconds, r.gpu_seconds), "gpu_seconds %.17g", d.gpu_seconds);
	CHECK_EQ_STR(d.gpu, r.gpu);
	CHECK_EQ_STR(d.timestamp, r.timestamp);
	CHECK_EQ_INT(d.flush_read, 1); /* timed after the flush that reads: kept */
	CHECK_EQ_INT(d.nvendor, 4);
	for (int i = 0; i < 4 && i < d.nvendor; i++) { /* vendor entries come back in name order, as stored */
		char what[32];
		snprintf(what, sizeof what, "vendor[%d]", i);
		CHECK_EQ_STR(d.vendor[i].name, r.vendor[i].name);
		CHECK_EQ_STR(d.vendor[i].config, r.vendor[i].config);
		CHECK(d.vendor[i].kind == r.vendor[i].kind && d.vendor[i].ok == r.vendor[i].ok &&
			      d.vendor[i].is_floor == r.vendor[i].is_floor && d.vendor[i].other_math == r.vendor[i].other_math,
		      "%s: kind %d ok %d floor %d, expected %d %d %d", what, d.vendor[i].kind, d.vendor[i].ok,
		      d.vendor[i].is_floor, r.vendor[i].kind, r.vendor[i].ok, r.vendor[i].is_floor);
		check_stats(what, &d.vendor[i].st, &r.vendor[i].st);
	}
	for (int s = 0; s < DLB_ST_COUNT; s++)
		CHECK(d.counts[s] == r.counts[s], "counts[%s] %d, expected %d", dlb_status_name((enum dlb_status)s),
		      d.counts[s], r.counts[s]);
	/* the measured accuracy, ours and an entry's; none for the entries without it */
	CHECK(d.rel_err.n == 16 && same(d.rel_err.max, r.rel_err.max) && same(d.rel_err.mean, r.rel_err.mean),
	      "rel_err n %d max %g mean %g", d.rel_err.n, d.rel_err.max, d.rel_err.mean);
	CHECK(d.vendor[2].rel_err.n == 16 && same(d.vendor[2].rel_err.max, r.vendor[2].rel_err.max) &&
		      same(d.vendor[2].rel_err.mean, r.vendor[2].rel_err.mean) && d.vendor[0].rel_err.n == 0,
	      "vendor rel_err n %d max %g, entry 0 n %d", d.vendor[2].rel_err.n, d.vendor[2].rel_err.max,
	      d.vendor[0].rel_err.n);
	CHECK_EQ_INT(d.paired.n, 30);
	CHECK_EQ_STR(d.paired.vendor, "cublasLt#0");
	check_stats("paired tuned", &d.paired.tuned, &r.paired.tuned);
	check_stats("paired vendor", &d.paired.vendor_st, &r.paired.vendor_st);
	/* the energy bursts: every field back, a missing counter (NAN joules) still missing */
	CHECK(d.paired.e_tuned.calls == 4938 && same(d.paired.e_tuned.seconds, 0.2) && same(d.paired.e_tuned.joules, 101.5) &&
		      same(d.paired.e_tuned.watts_max, 530.25) && d.paired.e_tuned.sm_mhz_min == 1755 &&
		      d.paired.e_tuned.sm_mhz_max == 1980 && d.paired.e_tuned.readings == 97 && d.paired.e_tuned.reasons == 0xc &&
		      d.paired.e_tuned.steps == 41 && d.paired.e_tuned.steady == 1 && d.paired.e_vendor.steady == 0 &&
		      d.paired.e_tuned.graphed == 1 && d.paired.e_vendor.graphed == 0,
	      "energy of ours: %d calls, %.17g s, %.17g J", d.paired.e_tuned.calls, d.paired.e_tuned.seconds,
	      d.paired.e_tuned.joules);
	CHECK(d.paired.e_vendor.calls == 4624 && isnan(d.paired.e_vendor.joules) && isnan(d.paired.e_vendor.watts_max),
	      "energy of the vendor's: %d calls, %g J", d.paired.e_vendor.calls, d.paired.e_vendor.joules);
	CHECK(isnan(dlb_result_j_per_call(&d, 1)) && isnan(dlb_result_per_watt(&d, 1)), "no counter, no J/call");
	CHECK(same(dlb_result_watts(&d, 0), 507.5), "mean watts %.17g", dlb_result_watts(&d, 0));
	d.paired.e_tuned.graphed = 0; /* one by one, at its paired 40.5 us a call: still the kernel's */
	CHECK(!dlb_result_host_bound(&d, 0) && same(dlb_result_watts(&d, 0), 507.5), "one by one at the paired time");
	d.paired.e_tuned.seconds = 0.3; /* 60.8 us a call, 1.5 times the paired time: the GPU waited on the host */
	CHECK(dlb_result_host_bound(&d, 0) && isnan(dlb_result_j_per_call(&d, 0)) && isnan(dlb_result_per_watt(&d, 0)),
	      "a host-bound burst must give n/a");
	d.paired.e_tuned.graphed = 1; /* as a graph the GPU ran alone: the burst's own time per call stands */
	CHECK(!dlb_result_host_bound(&d, 0) && same(dlb_result_watts(&d, 0), 101.5 / 0.3), "graphed: %g W",
	      dlb_result_watts(&d, 0));
	d.paired.e_tuned.seconds = 0.2;
	d.paired.e_tuned.steady = 0; /* too few counter steps: joules stored, but no J/call made of them */
	CHECK(isnan(dlb_result_j_per_call(&d, 0)) && isnan(dlb_result_watts(&d, 0)) && isnan(dlb_result_per_watt(&d, 0)),
	      "an unsteady burst must give n/a");
	CHECK(same(d.paired.speedup.median, 1.0625) && same(d.paired.speedup.median_lo, 1.0546875) &&
		      same(d.paired.speedup.median_hi, 1.0703125) && same(d.paired.speedup.min, 0.984375) &&
		      same(d.paired.speedup.max, 1.125),
	      "paired speedup %.17g [%.17g, %.17g]", d.paired.speedup.median, d.paired.speedup.median_lo,
	      d.paired.speedup.median_hi);
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
		CHECK_EQ_INT(a->seq, b->seq); /* the first has none: 0 again */
		CHECK_EQ_INT(a->flush_read, b->flush_read);
	}
	CHECK_EQ_INT(d.cached, 0); /* not a stored field */
	dlb_result_free(&d);
	CHECK(d.trials == NULL && d.ntrials == 0, "dlb_result_free left %d trials", d.ntrials);

	/* Without trials: everything else, and no trial list. */
	memset(&d, 0, sizeof d);
	CHECK_EQ_INT(dlb_result_load(db, KEY, 0, &d), 0);
	CHECK(d.ntrials == 0 && d.trials == NULL, "with_trials = 0 loaded %d trials", d.ntrials);
	CHECK_EQ_INT(d.nvendor, 4);
	CHECK_EQ_STR(d.config, r.config);
	dlb_result_free(&d);
	CHECK_EQ_INT(dlb_result_load(db, "v1|no such key", 0, &d), DLB_E_NOTFOUND);

	/* JSON has no NaN: the text must still be valid JSON (null), which the loads above already read. */
	char *json = encode_best(&r), *tj = dlb_json_text(dlb_trial_json(&trials[0]));
	REQUIRE(json && tj, "encoding returned NULL");
	CHECK(!strstr(json, "nan") && !strstr(json, "NaN"), "NaN written into the JSON: %s", json);
	CHECK(!strstr(tj, "nan") && !strstr(tj, "NaN"), "NaN written into the JSON: %s", tj);
	CHECK(strstr(json, "\"l2_flush\":\"read\"") != NULL, "no l2_flush in %s", json);
	free(json);
	r.flush_read = 0; /* a record of the older flush says nothing, and loads as such */
	json = encode_best(&r);
	REQUIRE(json, "encoding returned NULL");
	CHECK(!strstr(json, "l2_flush"), "l2_flush written for the older flush: %s", json);
	free(json);
	free(tj);
	temp_store_remove(db, dir);
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

/* ---- reports ---- */

/* gemm's entry relabelled int8: the rows need only its name and flops (2·M·N·K of the shape as given). */
static struct dlb_op gemm_int8;

static void report_row(struct dlb_row *w, enum dlb_prec prec, int64_t m, int64_t n, int64_t k, double tuned_us,
		       double peak)
{
	char key[DLB_KEY_MAX + 1];
	memset(w, 0, sizeof *w);
	snprintf(key, sizeof key,
		 "v2|gemm|%s|NN|%lldx%lldx%lld|gpu=Test GPU|id=GPU-1|sm=90|driver=13000|cuda=13000|nvrtc=1300|"
		 "cublas=130100|tpl=0123456789abcdef",
		 dlb_prec_name(prec), (long long)m, (long long)n, (long long)k);
	REQUIRE(dlb_key_decode(key, strlen(key), &w->k) == 0, "cannot decode %s", key);
	struct dlb_result *r = &w->r;
	snprintf(r->key, sizeof r->key, "%s", key);
	r->p = (struct dlb_problem){.op = prec == DLB_PREC_INT8 ? &gemm_int8 : &dlb_op_gemm, .prec = prec,
				    .dim = {[GEMM_M] = m, [GEMM_N] = n, [GEMM_K] = k}};
	r->found = 1;
	snprintf(r->config, sizeof r->config, "BM=64 BN=64 BK=16 TM=4 TN=4 SPLITK=1");
	r->tuned = stats(15, tuned_us);
	r->peak = peak;
	r->max_err = r->tol = 0;
	snprintf(r->timestamp, sizeof r->timestamp, "2026-01-02T03:04:05Z");
}

/* Three rows: int8 35x700x2047 (runs padded to 36x700x2048; cuBLAS but no cuBLASLt algorithm), int8 64x64x64
 * (every vendor entry failed verification: no vendor number, no speedup), fp32 35x700x2047 (no peak recorded). */
static void report_rows(struct dlb_row w[3])
{
	gemm_int8 = dlb_op_gemm;
	gemm_int8.prec = DLB_PREC_INT8;
	report_row(&w[0], DLB_PREC_INT8, 35, 700, 2047, 10.0, 1979.0);
	w[0].r.nvendor = 2; /* the floor is faster than anything, and is no vendor: the speedup stays 1.2 */
	w[0].r.vendor[0] = (struct dlb_vendor_entry){"cublasGemmEx", 0, 1, stats(15, 12.0)};
	w[0].r.vendor[0].rel_err = (struct dlb_rel_err){16, 2.5e-7, 1e-7};
	w[0].r.rel_err = (struct dlb_rel_err){16, 1.5e-7, 2.5e-8};
	w[0].r.vendor[1] = (struct dlb_vendor_entry){"stream floor", 0, 1, stats(15, 3.0), 1};
	w[0].r.paired = (struct dlb_paired){.n = 30, .vendor = "cublasGemmEx", .tuned = stats(30, 9.8),
					    .vendor_st = stats(30, 12.25),
					    .speedup = {.n = 30, .median = 1.25, .median_lo = 1.2, .median_hi = 1.3}};
	/* bursts of 10 us and 12.5 us a call at 500 and 550 W: 5 and 6.875 mJ a call */
	w[0].r.paired.e_tuned = (struct dlb_energy){.calls = 20000, .seconds = 0.2, .joules = 100, .watts_max = 520,
						    .sm_mhz_min = 1755, .sm_mhz_max = 1980, .readings = 90, .reasons = 0x4,
						    .steps = 8, .steady = 1};
	w[0].r.paired.e_vendor = (struct dlb_energy){.calls = 16000, .seconds = 0.2, .joules = 110, .watts_max = 560,
						     .sm_mhz_min = 1700, .sm_mhz_max = 1980, .readings = 90, .reasons = 0x1,
						     .steps = 8, .steady = 1};
	report_row(&w[1], DLB_PREC_INT8, 64, 64, 64, 5.0, 1979.0);
	w[1].r.nvendor = 2;
	w[1].r.vendor[0] = (struct dlb_vendor_entry){"cublasGemmEx", 0, 0, stats(15, 4.0)};
	w[1].r.vendor[1] = (struct dlb_vendor_entry){"cublasLt#0", 1, 0, {0}};
	report_row(&w[2], DLB_PREC_FP32, 35, 700, 2047, 20.0, NAN);
	w[2].r.nvendor = 1;
	w[2].r.vendor[0] = (struct dlb_vendor_entry){"cublasSgemm", 0, 1, stats(15, 30.0)};
}

/* What fn printed, as a string (caller frees). */
static char *printed(void (*fn)(FILE *, const struct dlb_result *, int, void *), const struct dlb_result *rows, int n,
		     void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	REQUIRE(f, "open_memstream failed");
	fn(f, rows, n, arg);
	REQUIRE(fclose(f) == 0, "fclose failed");
	return buf;
}

static void print_fmt(FILE *f, const struct dlb_result *rows, int n, void *arg)
{
	dlb_table_print(f, *(enum dlb_format *)arg, rows, n, "Test GPU");
}

/* The three rows as dlb_table_print writes them in fmt (caller frees). */
static char *table(const struct dlb_result *rows, enum dlb_format fmt)
{
	char *t = printed(print_fmt, rows, 3, &fmt);
	REQUIRE(t && *t, "nothing printed");
	return t;
}

/* The line of text that contains needle, copied into buf ("" when none). */
static const char *line_with(const char *text, const char *needle, char *buf, size_t len)
{
	const char *at = strstr(text, needle);
	buf[0] = 0;
	if (!at)
		return buf;
	while (at > text && at[-1] != '\n')
		at--;
	snprintf(buf, len, "%.*s", (int)strcspn(at, "\n"), at);
	return buf;
}

static int count_of(const char *text, const char *needle)
{
	int c = 0;
	for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		c++;
	return c;
}

/* "padded" of the int8 35x700x2047 row: the shape run, and that the time leaves the padding out. */
static void check_padded_json(const char *what, json_t *pad, const char *text)
{
	CHECK(json_is_object(pad) && json_integer_value(json_object_get(pad, "m")) == 36 &&
		      json_integer_value(json_object_get(pad, "n")) == 700 &&
		      json_integer_value(json_object_get(pad, "k")) == 2048 &&
		      json_is_false(json_object_get(pad, "time_includes_padding")) && json_object_size(pad) == 4,
	      "%s: padded of the int8 35x700x2047 row: %s", what, text);
}

static void no_made_up_numbers(const char *what, const char *text)
{
	CHECK(!strstr(text, "nan") && !strstr(text, "inf") && !strstr(text, "NaN"), "%s: a NaN or inf printed:\n%s",
	      what, text);
}

static void test_table_text(const struct dlb_result *rows)
{
	char *t = table(rows, DLB_FMT_TEXT), line[512];
	/* one table per precision, each headed by its unit and peak */
	CHECK_HAS(t, "gemm int8 on Test GPU (int8 inputs; int32 outputs; int32 accumulation): throughput in TOPS; %peak relative "
		     "to 1979.0 TOPS, the dense int8 tensor-core peak from SM count x clock");
	CHECK_HAS(t, "gemm fp32 on Test GPU (fp32 inputs and outputs; fp32 accumulation): throughput in TFLOP/s; %peak n/a (no fp32 "
		     "peak known for this GPU)");
	CHECK(strstr(t, "gemm int8 on") < strstr(t, "gemm fp32 on"), "tables not in the order of the rows:\n%s", t);
	CHECK_EQ_INT(count_of(t, "geomean speedup"), 2);
	CHECK_HAS(line_with(t, "    TOPS ", line, sizeof line), "K layout | best config");
	CHECK_HAS(line_with(t, " TFLOP/s ", line, sizeof line), "K layout | best config");
	/* the padded row: its shape as given, the shape run, its time, throughput of the shape as given, no cuBLASLt */
	line_with(t, "    35    700    2047", line, sizeof line);
	CHECK_HAS(line, "10.00    10.03    0.5%");
	CHECK_HAS(line, "12.00       n/a       n/a |    1.20x   1.25x |      3.00 | yes, padded: 36x700x2048");
	/* every vendor entry failed verification: n/a, never a number */
	line_with(t, "    64     64      64", line, sizeof line);
	CHECK_HAS(line, "|       n/a       n/a       n/a |      n/a     n/a |       n/a | yes");
	CHECK(!strstr(line, "padded"), "64x64x64 is not padded: %s", line);
	/* the footnote, once, under the int8 table only */
	CHECK_EQ_INT(count_of(t, "padded: 1 of 2 rows ran with M, N and K rounded up to multiples of 4 (DeepBench's rule); "
				 "the inputs are padded once, the padded problem is timed, and the time does not include "
				 "the padding; TOPS count the shape as given"),
		     1);
	CHECK(strstr(t, "padded: 1 of 2 rows") < strstr(t, "gemm fp32 on"), "the footnote is not under the int8 table");
	CHECK_HAS(t, "geomean speedup vs vendor best (1 rows, Test GPU): 1.200x; paired, side by side (1 rows): 1.250x\n");
	CHECK_HAS(t, "geomean speedup vs vendor best (1 rows, Test GPU): 1.500x; paired: n/a (no row was timed side by side)\n");
	line_with(t, "    35    700    2047 NN     | BM=64 BN=64 BK=16 TM=4 TN=4 SPLITK=1     |     20.00", line,
		  sizeof line);
	CHECK_HAS(line, "5.02     n/a |     30.00       n/a       n/a |    1.50x     n/a |       n/a | yes");
	no_made_up_numbers("text", t);
	free(t);
}

static void test_table_csv(const struct dlb_result *rows)
{
	char *t = table(rows, DLB_FMT_CSV), line[512];
	/* the problem's dims, then the generic columns with GEMM's vendor columns after the peak */
	CHECK_HAS(t, "m,n,k,layout,prec,best_config,kernel_family,tuned_us,tuned_ci_lo,tuned_ci_hi,throughput,unit,pct_peak,peak,"
		     "cublas_us,cublaslt_best_us,cublas_tf32_us,vendor_best,vendor_best_config,speedup,paired_vendor,paired_n,"
		     "paired_tuned_us,paired_vendor_us,paired_speedup,paired_speedup_lo,paired_speedup_hi,tuned_j_per_call,"
		     "vendor_j_per_call,tuned_per_watt,vendor_per_watt,tuned_watts,vendor_watts,tuned_watts_max,"
		     "vendor_watts_max,tuned_sm_mhz,vendor_sm_mhz,tuned_clock_events,vendor_clock_events,floor_us,verified,"
		     "rel_err_max,rel_err_mean,vendor_rel_err_max,vendor_rel_err_mean,cached,tuned_on_gpu,measured_on,padded,padded_m,padded_n,padded_k\n");
	CHECK_HAS(line_with(t, "35,700,2047,NN,int8", line, sizeof line),
		  ",10.030,TOPS,0.51,1979.0,12.000,n/a,n/a,\"cublasGemmEx\",\"\",1.2000,\"cublasGemmEx\",30,9.800,12.250,1.2500,"
		  "1.2000,1.3000,0.005,0.006875,0.0200606,0.0145895,500.0,550.0,520.0,560.0,\"1755-1980\",\"1700-1980\","
		  "\"sw_power_cap\",\"none\",3.000,1,1.5e-07,2.5e-08,2.5e-07,1e-07,0,n/a,\"\",1,36,700,2048");
	CHECK_HAS(line_with(t, "64,64,64,NN,int8", line, sizeof line),
		  ",0.105,TOPS,0.01,1979.0,n/a,n/a,n/a,\"\",\"\",n/a,\"\",0,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,"
		  "\"\",\"\",\"\",\"\",n/a,1,n/a,n/a,n/a,n/a,0,n/a,\"\",0,64,64,64");
	CHECK_HAS(line_with(t, "35,700,2047,NN,fp32", line, sizeof line),
		  ",5.015,TFLOP/s,n/a,n/a,30.000,n/a,n/a,\"cublasSgemm\",\"\",1.5000,\"\",0,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,"
		  "n/a,n/a,\"\",\"\",\"\",\"\",n/a,1,n/a,n/a,n/a,n/a,0,n/a,\"\",0,35,700,2047");
	CHECK_EQ_INT(count_of(t, "\n"), 4);
	no_made_up_numbers("csv", t);
	free(t);
}

static void test_table_json(const struct dlb_result *rows)
{
	char *t = table(rows, DLB_FMT_JSON);
	json_error_t err;
	json_t *root = json_loads(t, 0, &err), *res = json_object_get(root, "results");
	REQUIRE(root && json_array_size(res) == 3, "not the JSON of 3 rows: %s", t);
	json_t *a = json_array_get(res, 0), *b = json_array_get(res, 1), *c = json_array_get(res, 2);
	check_padded_json("json", json_object_get(a, "padded"), t);
	CHECK(json_integer_value(json_object_get(a, "m")) == 35 && json_integer_value(json_object_get(a, "k")) == 2047,
	      "the row's own shape is the one given");
	CHECK_EQ_STR(json_string_value(json_object_get(a, "unit")), "TOPS");
	CHECK_NEAR(json_number_value(json_object_get(a, "throughput")), 10.0303, 1e-4);
	CHECK(json_is_null(json_object_get(a, "cublaslt_best_us")), "no cuBLASLt algorithm must be null");
	CHECK_NEAR(json_number_value(json_object_get(a, "speedup_vs_vendor_best")), 1.2, 1e-12);
	CHECK_NEAR(json_number_value(json_object_get(a, "stream_floor_us")), 3.0, 1e-12);
	CHECK(json_is_null(json_object_get(c, "stream_floor_us")), "no floor measured must be null");
	json_t *pa = json_object_get(a, "paired"), *ci = json_object_get(pa, "speedup_ci95");
	CHECK_EQ_STR(json_string_value(json_object_get(pa, "vendor")), "cublasGemmEx");
	CHECK_EQ_INT(json_integer_value(json_object_get(pa, "pairs")), 30);
	CHECK_NEAR(json_number_value(json_object_get(pa, "tuned_us")), 9.8, 1e-12);
	CHECK_NEAR(json_number_value(json_object_get(pa, "vendor_us")), 12.25, 1e-12);
	CHECK_NEAR(json_number_value(json_object_get(pa, "speedup")), 1.25, 1e-12);
	CHECK(json_array_size(ci) == 2 && json_number_value(json_array_get(ci, 0)) == 1.2 &&
		      json_number_value(json_array_get(ci, 1)) == 1.3,
	      "paired speedup_ci95: %s", t);
	json_t *en = json_object_get(json_object_get(pa, "energy"), "tuned"), *ev = json_object_get(json_object_get(pa, "energy"), "vendor");
	CHECK_NEAR(json_number_value(json_object_get(en, "j_per_call")), 0.005, 1e-15);
	CHECK_NEAR(json_number_value(json_object_get(en, "per_watt")), 10.0303 / 500, 1e-6);
	CHECK_NEAR(json_number_value(json_object_get(en, "watts")), 500, 1e-9);
	CHECK_EQ_INT(json_integer_value(json_object_get(en, "sm_mhz_min")), 1755);
	CHECK_EQ_STR(json_string_value(json_object_get(en, "clock_events")), "sw_power_cap");
	CHECK_EQ_STR(json_string_value(json_object_get(ev, "clock_events")), "none"); /* idle is no throttle */
	CHECK_NEAR(json_number_value(json_object_get(ev, "j_per_call")), 0.006875, 1e-15);
	CHECK(json_is_null(json_object_get(b, "paired")) && json_is_null(json_object_get(c, "paired")),
	      "rows timed apart only must have paired null");
	CHECK(json_is_null(json_object_get(b, "padded")), "64x64x64 int8 is not padded");
	CHECK(json_is_null(json_object_get(b, "cublas_us")) && json_is_null(json_object_get(b, "cublaslt_best_us")) &&
		      json_is_null(json_object_get(b, "speedup_vs_vendor_best")),
	      "unverified vendor entries must give null, not a number");
	CHECK_EQ_STR(json_string_value(json_object_get(c, "unit")), "TFLOP/s");
	CHECK(json_is_null(json_object_get(c, "pct_peak")) && json_is_null(json_object_get(c, "peak")),
	      "no peak recorded: pct_peak and peak null");
	json_t *groups = json_object_get(root, "precisions"), *g0 = json_array_get(groups, 0);
	CHECK_EQ_INT(json_array_size(groups), 2);
	CHECK_EQ_STR(json_string_value(json_object_get(g0, "prec")), "int8");
	CHECK_EQ_STR(json_string_value(json_object_get(g0, "unit")), "TOPS");
	CHECK_NEAR(json_number_value(json_object_get(g0, "peak")), 1979.0, 0);
	CHECK_NEAR(json_number_value(json_object_get(g0, "geomean_speedup")), 1.2, 1e-12);
	CHECK_EQ_INT(json_integer_value(json_object_get(g0, "rows_with_speedup")), 1);
	CHECK_NEAR(json_number_value(json_object_get(g0, "geomean_paired_speedup")), 1.25, 1e-12);
	CHECK_EQ_INT(json_integer_value(json_object_get(g0, "rows_with_paired")), 1);
	CHECK(json_is_null(json_object_get(json_array_get(groups, 1), "geomean_paired_speedup")),
	      "fp32 has no paired row: its geomean must be null");
	CHECK_EQ_STR(json_string_value(json_object_get(json_array_get(groups, 1), "prec")), "fp32");
	CHECK_EQ_INT(json_integer_value(json_object_get(root, "rows_with_speedup")), 2);
	json_decref(root);
	free(t);
}

/* The vendor best's configuration (cuBLASLt's, where it is the best) in the CSV and JSON tables. */
static void test_vendor_config(const struct dlb_result *given)
{
	struct dlb_result rows[3] = {given[0], given[1], given[2]};
	const char *cfg = "algo 6, tile 64x64, stages 64xAUTO, cluster 1x1x1, split-K 1";
	rows[2].nvendor = 2;
	rows[2].vendor[1] = (struct dlb_vendor_entry){"cublasLt#0", 1, 1, stats(15, 25.0)};
	snprintf(rows[2].vendor[1].config, sizeof rows[2].vendor[1].config, "%s", cfg);
	char *t = table(rows, DLB_FMT_CSV), line[512], want[160];
	snprintf(want, sizeof want, ",25.000,n/a,\"cublasLt#0\",\"%s\",1.2500,", cfg);
	CHECK_HAS(line_with(t, "35,700,2047,NN,fp32", line, sizeof line), want);
	free(t);
	t = table(rows, DLB_FMT_JSON);
	json_t *root = json_loads(t, 0, NULL), *c = json_array_get(json_object_get(root, "results"), 2);
	REQUIRE(c, "no third row: %s", t);
	CHECK_EQ_STR(json_string_value(json_object_get(c, "vendor_best")), "cublasLt#0");
	CHECK_EQ_STR(json_string_value(json_object_get(c, "vendor_best_config")), cfg);
	json_decref(root);
	free(t);
}

struct export_arg {
	enum dlb_export_format fmt;
	struct dlb_store *s;
	const struct dlb_row *rows;
};

static void print_export(FILE *f, const struct dlb_result *unused, int n, void *arg)
{
	(void)unused;
	struct export_arg *e = arg;
	CHECK_EQ_INT(dlb_export(f, e->fmt, e->s, e->rows, n), 0);
}

static void test_export(const struct dlb_row *rows)
{
	char dir[] = "/tmp/dlb_test_export.XXXXXX", line[1024];
	struct dlb_store *db = temp_store(dir);
	struct export_arg e = {DLB_EXPORT_CSV, db, rows};
	char *t = printed(print_export, NULL, 3, &e);
	/* the run's CSV columns (export names and all) after the row's GPU, driver, CUDA and op */
	CHECK_HAS(t, "gpu,gpu_id,driver,cuda,op,m,n,k,layout,prec,best_config,kernel_family,tuned_us,tuned_ci_lo,tuned_ci_hi,tuned_samples,"
		     "throughput,unit,pct_peak,peak,cublas_us,cublaslt_best_us,cublas_tf32_us,vendor_best,vendor_best_us,vendor_best_config,"
		     "speedup,paired_vendor,paired_n,paired_tuned_us,paired_vendor_us,paired_speedup,paired_speedup_lo,"
		     "paired_speedup_hi,tuned_j_per_call,vendor_j_per_call,tuned_per_watt,vendor_per_watt,tuned_watts,"
		     "vendor_watts,tuned_watts_max,vendor_watts_max,tuned_sm_mhz,vendor_sm_mhz,tuned_clock_events,"
		     "vendor_clock_events,floor_us,verified,rel_err_max,rel_err_mean,vendor_rel_err_max,vendor_rel_err_mean,"
		     "current,measured,padded,padded_m,padded_n,padded_k\n");
	CHECK_HAS(line_with(t, "gemm,35,700,2047,NN,int8", line, sizeof line),
		  ",10.030,TOPS,0.51,1979.0,12.000,n/a,n/a,\"cublasGemmEx\",12.000,\"\",1.2000,\"cublasGemmEx\",30,9.800,12.250,"
		  "1.2500,1.2000,1.3000,0.005,0.006875,0.0200606,0.0145895,500.0,550.0,520.0,560.0,\"1755-1980\",\"1700-1980\","
		  "\"sw_power_cap\",\"none\",3.000,1,1.5e-07,2.5e-08,2.5e-07,1e-07,1,2026-01-02T03:04:05Z,1,36,700,2048");
	CHECK_HAS(line_with(t, "gemm,64,64,64,NN,int8", line, sizeof line),
		  ",TOPS,0.01,1979.0,n/a,n/a,n/a,\"\",n/a,\"\",n/a,\"\",0,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,n/a,"
		  "\"\",\"\",\"\",\"\",n/a,1,n/a,n/a,n/a,n/a,1,2026-01-02T03:04:05Z,0,64,64,64");
	CHECK_HAS(line_with(t, "gemm,35,700,2047,NN,fp32", line, sizeof line),
		  ",TFLOP/s,n/a,n/a,30.000,n/a,n/a,\"cublasSgemm\",30.000,\"\",1.5000,");
	no_made_up_numbers("export csv", t);
	free(t);

	e.fmt = DLB_EXPORT_MD;
	t = printed(print_export, NULL, 3, &e);
	/* the text table's columns, with the CIs, the vendor best's name and whether the row is current */
	CHECK_HAS(t, "## gemm int8 on Test GPU (GPU-1), driver 13.0, CUDA 13.0\n\n| M | N | K | layout | best config | "
		     "tuned µs [95% CI] | TOPS | %peak | cuBLAS us | Lt-best | TF32 us | vendor best | speedup | paired [95% CI] | "
		     "J/call | vendor J/call | TOPS/W | vendor TOPS/W | SM MHz | floor us | verified | current |\n"
		     "|---:|---:|---:|---|---|---|---:|");
	CHECK_HAS(t, "## gemm fp32 on Test GPU (GPU-1), driver 13.0, CUDA 13.0\n\n| M | N | K | layout | best config | "
		     "tuned µs [95% CI] | TFLOP/s |");
	CHECK_HAS(line_with(t, "| 64 | 64 | 64 | NN |", line, sizeof line),
		  "| 5.00 [4.67, 5.14] | 0.10 | 0.0% | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | n/a | yes | yes |");
	CHECK_HAS(line_with(t, "| 35 | 700 | 2047 | NN | BM=64 BN=64 BK=16 TM=4 TN=4 SPLITK=1 | 10.00", line, sizeof line),
		  "| 12.00 | n/a | n/a | cublasGemmEx | 1.20x | 1.25x [1.20, 1.30] | 0.005 | 0.00688 | 0.0201 | 0.0146 | 1755-1980 | "
		  "3.00 | yes, padded: 36x700x2048 | yes |");
	CHECK_EQ_INT(count_of(t, "\nPadded: 1 of 2 rows ran with M, N and K rounded up to multiples of 4 (DeepBench's rule); "
				 "the inputs are padded once, the padded problem is timed, and the time does not include "
				 "the padding; TOPS count the shape as given.\n"),
		     1);
	CHECK(strstr(t, "Padded: 1 of 2 rows") > strstr(t, "## gemm int8"), "the padding note is not under the int8 table");
	no_made_up_numbers("export md", t);
	free(t);

	e.fmt = DLB_EXPORT_JSON;
	t = printed(print_export, NULL, 3, &e);
	json_error_t err;
	json_t *root = json_loads(t, 0, &err), *recs = json_object_get(root, "records");
	REQUIRE(root && json_array_size(recs) == 3, "not an export of 3 records: %s", t);
	check_padded_json("export json", json_object_get(json_array_get(recs, 0), "padded"), t);
	CHECK(json_is_null(json_object_get(json_array_get(recs, 1), "padded")), "64x64x64: padded must be null");
	CHECK(json_is_null(json_object_get(json_array_get(recs, 2), "padded")), "fp32: padded must be null");
	json_decref(root);
	free(t);
	temp_store_remove(db, dir);
}

static void test_reports(void)
{
	struct dlb_row w[3];
	struct dlb_result rows[3];
	report_rows(w);
	for (int i = 0; i < 3; i++)
		rows[i] = w[i].r;
	/* derived numbers: of the shape as given; NAN (never a made-up number) where one does not exist */
	CHECK_NEAR(dlb_result_throughput(&rows[0]), 2.0 * 35 * 700 * 2047 / 10e-6 / 1e12, 1e-9);
	CHECK(isnan(dlb_result_kind_best_us(&rows[0], DLB_GEMM_KIND_LT)), "no cuBLASLt entry: %g", dlb_result_kind_best_us(&rows[0], DLB_GEMM_KIND_LT));
	CHECK(isnan(dlb_result_kind_best_us(&rows[1], DLB_GEMM_KIND_CUBLAS)) && isnan(dlb_result_vendor_best_us(&rows[1])) &&
		      isnan(dlb_result_speedup(&rows[1])),
	      "unverified vendor entries gave a number");
	CHECK(isnan(dlb_result_pct_peak(&rows[2])), "no peak: %%peak %g", dlb_result_pct_peak(&rows[2]));
	struct dlb_result zero = rows[0];
	zero.peak = 0;
	zero.vendor[0].st.median = 0; /* verified but never timed */
	CHECK(isnan(dlb_result_pct_peak(&zero)) && isnan(dlb_result_speedup(&zero)), "a zero peak or vendor time gave %g, %g",
	      dlb_result_pct_peak(&zero), dlb_result_speedup(&zero));
	/* a tie between vendor entries names the same best in either order (a run's order, a load's) */
	struct dlb_result tie = rows[2];
	tie.nvendor = 2;
	tie.vendor[0] = (struct dlb_vendor_entry){"cublasSgemm", 0, 1, stats(15, 30.0)};
	tie.vendor[1] = (struct dlb_vendor_entry){"cublasLt#0", 1, 1, stats(15, 30.0)};
	CHECK_EQ_STR(dlb_result_vendor_best(&tie)->name, "cublasLt#0");
	tie.vendor[1] = tie.vendor[0];
	tie.vendor[0] = (struct dlb_vendor_entry){"cublasLt#0", 1, 1, stats(15, 30.0)};
	CHECK_EQ_STR(dlb_result_vendor_best(&tie)->name, "cublasLt#0");
	/* an entry in another math (TF32 for fp32) is its kind's best, never the vendor best */
	tie.nvendor = 3;
	tie.vendor[2] = (struct dlb_vendor_entry){"cudnn-dm:IMPLICIT_GEMM (may be TF32)", 2, 1, stats(15, 10.0)};
	tie.vendor[2].other_math = 1;
	CHECK_EQ_STR(dlb_result_vendor_best(&tie)->name, "cublasLt#0");
	CHECK_NEAR(dlb_result_vendor_best_us(&tie), 30.0, 0);
	CHECK_NEAR(dlb_result_kind_best_us(&tie, 2), 10.0, 0);
	CHECK_EQ_STR(dlb_result_kind_best(&tie, 2)->name, "cudnn-dm:IMPLICIT_GEMM (may be TF32)");
	CHECK_NEAR(dlb_result_paired_speedup(&rows[0]), 1.25, 0);
	zero.found = 0; /* no winner: no paired speedup, whatever is left in the struct */
	CHECK(isnan(dlb_result_paired_speedup(&zero)) && isnan(dlb_result_paired_lo(&zero)) &&
		      isnan(dlb_result_paired_hi(&zero)) && isnan(dlb_result_paired_speedup(&rows[1])),
	      "a paired speedup without a winner or a side-by-side timing");
	test_table_text(rows);
	test_table_csv(rows);
	test_table_json(rows);
	test_vendor_config(rows);
	test_export(w);
}

/* The side-by-side ratios split by order: even pairs the winner first, odd ones the vendor first (the worker's
 * alternation). */
static void test_paired_by_order(void)
{
	double ratio[7] = {1.20, 1.30, 1.21, 1.31, 1.19, 1.29, 1.22}; /* the vendor 0.1 slower when it runs first */
	struct dlb_stats by[2];
	CHECK_EQ_INT(dlb_paired_by_order(ratio, 7, 0.95, by), 0);
	CHECK(by[0].n == 4 && by[1].n == 3, "by order: %d and %d pairs, expected 4 and 3", by[0].n, by[1].n);
	CHECK_NEAR(by[0].median, 1.205, 1e-12);
	CHECK_NEAR(by[1].median, 1.30, 1e-12);
	CHECK(by[0].min == 1.19 && by[0].max == 1.22 && by[1].min == 1.29 && by[1].max == 1.31,
	      "by order: winner first [%g, %g], vendor first [%g, %g]", by[0].min, by[0].max, by[1].min, by[1].max);
	CHECK_EQ_INT(dlb_paired_by_order(ratio, 1, 0.95, by), EINVAL);
	CHECK_EQ_INT(dlb_paired_by_order(ratio, DLB_PAIRED_MAX + 1, 0.95, by), EINVAL);
}

/* A convolution's row: its derived columns (output P×Q, the winner's and the vendor best's workspace), the
 * algorithm named beside each cuDNN kind's time, and the default-math entry shown but never the vendor best. */
static void test_conv_columns(void)
{
	struct dlb_result r;
	memset(&r, 0, sizeof r);
	r.p.op = &dlb_op_conv;
	r.p.prec = DLB_PREC_FP32;
	const int64_t dim[CONV_NDIMS] = {[CONV_W] = 28, [CONV_H] = 28, [CONV_C] = 128, [CONV_N] = 8, [CONV_K] = 128,
					 [CONV_S] = 3, [CONV_R] = 3, [CONV_PAD_W] = 1, [CONV_PAD_H] = 1,
					 [CONV_STRIDE_W] = 2, [CONV_STRIDE_H] = 2, [CONV_DIL_W] = 1, [CONV_DIL_H] = 1,
					 [CONV_LAYOUT] = CONV_NHWC};
	memcpy(r.p.dim, dim, sizeof dim);
	char desc[128];
	dlb_problem_describe(&r.p, desc, sizeof desc); /* as progress lines name it */
	CHECK_EQ_STR(desc, "28x28 c128 n8 k128 3x3 pad 1 stride 2 NHWC");
	r.p.dim[CONV_PAD_H] = 0;
	r.p.dim[CONV_DIL_W] = 2;
	r.p.dim[CONV_LAYOUT] = CONV_NCHW;
	dlb_problem_describe(&r.p, desc, sizeof desc);
	CHECK_EQ_STR(desc, "28x28 c128 n8 k128 3x3 pad 1x0 stride 2 dil 2x1 NCHW");
	memcpy(r.p.dim, dim, sizeof dim);
	r.found = 1;
	snprintf(r.config, sizeof r.config, "BM=32 BN=128 BK=8 TM=8 TN=2 SPLITK=4");
	r.tuned = stats(15, 100.0);
	r.peak = 66.9;
	r.nvendor = 3;
	r.vendor[0] = (struct dlb_vendor_entry){"cudnn-heuristic:IMPLICIT_PRECOMP_GEMM", 0, 1, stats(15, 125.0)};
	snprintf(r.vendor[0].config, sizeof r.vendor[0].config, "math FMA (strict fp32), workspace 7013392 bytes");
	r.vendor[1] = (struct dlb_vendor_entry){"cudnn:IMPLICIT_GEMM", 1, 1, stats(15, 150.0)};
	snprintf(r.vendor[1].config, sizeof r.vendor[1].config, "math FMA (strict fp32), workspace 0 bytes");
	r.vendor[2] = (struct dlb_vendor_entry){"cudnn-dm:WINOGRAD_NONFUSED (may be TF32)", 2, 1, stats(15, 50.0)};
	r.vendor[2].other_math = 1;
	enum dlb_format fmt = DLB_FMT_CSV;
	char *t = printed(print_fmt, &r, 1, &fmt), line[1024];
	REQUIRE(t, "nothing printed");
	CHECK_HAS(t, "w,h,c,n,k,s,r,pad-w,pad-h,stride-w,stride-h,dil-w,dil-h,p,q,layout,prec,");
	CHECK_HAS(t, ",cudnn_heuristic_algo,cudnn_heuristic_us,cudnn_find_algo,cudnn_find_us,cudnn_default_math_algo,"
		     "cudnn_default_math_us,cudnn_fp16_us,tuned_workspace_bytes,vendor_best_workspace_bytes,vendor_best,");
	/* P = Q = (28 + 2 - 3) / 2 + 1 = 14; ours 4 splits x 8x14x14 x 128 floats */
	CHECK_HAS(line_with(t, "28,28,128,8,128", line, sizeof line), ",1,1,14,14,NHWC,fp32,");
	CHECK_HAS(line, ",\"IMPLICIT_PRECOMP_GEMM\",125.000,\"IMPLICIT_GEMM\",150.000,\"WINOGRAD_NONFUSED (may be TF32)\","
			"50.000,n/a,3211264,7013392,\"cudnn-heuristic:IMPLICIT_PRECOMP_GEMM\",");
	free(t);
	r.found = 0; /* no winner: no workspace of ours */
	r.nvendor = 1;
	r.vendor[0] = r.vendor[2]; /* only the default-math entry: no vendor best, no vendor workspace */
	fmt = DLB_FMT_TEXT;
	t = printed(print_fmt, &r, 1, &fmt);
	REQUIRE(t, "nothing printed");
	CHECK_HAS(line_with(t, "NHWC", line, sizeof line), "(no verified candidate)");
	CHECK_HAS(line, "WINOGRAD_NONFUSED (may be TF32)     50.00       n/a        n/a        n/a |");
	free(t);
}

/* The ABBA bursts of one side summed: the joules of the steady ones; clocks, power, reasons joined; graphed
 * where every burst counted was. */
static void test_energy_add(void)
{
	struct dlb_energy a = {0}, e1 = {.calls = 100, .seconds = 0.5, .joules = 300, .watts_max = 620, .sm_mhz_min = 1500,
				    .sm_mhz_max = 1980, .readings = 70, .steps = 4, .steady = 1, .reasons = 4, .graphed = 1},
			  e2 = {.calls = 120, .seconds = 0.6, .joules = 330, .watts_max = 650, .sm_mhz_min = 1440,
				.sm_mhz_max = 1900, .readings = 80, .steps = 5, .steady = 1, .reasons = 32};
	a.joules = a.watts_max = NAN;
	dlb_energy_add(&a, &e1);
	CHECK(a.calls == 100 && a.joules == 300 && a.steady == 1 && a.graphed, "the first burst: %d calls, %g J", a.calls,
	      a.joules);
	dlb_energy_add(&a, &e2);
	CHECK(a.calls == 220 && fabs(a.seconds - 1.1) < 1e-12 && a.joules == 630 && a.steady == 1 && a.watts_max == 650 &&
		      a.sm_mhz_min == 1440 && a.sm_mhz_max == 1980 && a.readings == 150 && a.steps == 9 && a.reasons == 36 &&
		      !a.graphed,
	      "two bursts (the second not graphed): %d calls %g s %g J steady %d, %g W, %d-%d MHz, %d readings, %d steps, reasons %llu", a.calls,
	      a.seconds, a.joules, a.steady, a.watts_max, a.sm_mhz_min, a.sm_mhz_max, a.readings, a.steps, a.reasons);
	struct dlb_energy n = e2;
	n.steady = 0;
	n.joules = NAN;
	n.readings = 10;
	dlb_energy_add(&a, &n);
	CHECK(a.calls == 220 && a.joules == 630 && a.steady && a.readings == 160 && a.steps == 14,
	      "an unsteady third leaves the joules of the steady two: %d calls, %g J, steady %d, %d readings", a.calls,
	      a.joules, a.steady, a.readings);
	struct dlb_energy u = {0}, s1 = e1;
	u.joules = u.watts_max = NAN;
	dlb_energy_add(&u, &n);
	dlb_energy_add(&u, &n);
	CHECK(u.calls == 240 && isnan(u.joules) && !u.steady, "two unsteady: %d calls, %g J", u.calls, u.joules);
	dlb_energy_add(&u, &s1);
	CHECK(u.calls == 100 && u.joules == 300 && u.steady && u.graphed && fabs(u.seconds - 0.5) < 1e-12 && u.readings == 90,
	      "then a steady one: its own %d calls, %g J, %g s, %d readings", u.calls, u.joules, u.seconds, u.readings);
	struct dlb_energy none = {0};
	dlb_energy_add(&a, &none);
	CHECK(a.calls == 220, "a burst not measured adds nothing: %d calls", a.calls);
}

/* The two steps a burst's power comes from: the furthest apart whose moments are known closely enough. */
static void test_energy_pick(void)
{
	/* steps every 0.1 s in a 0.5 s burst; the first and the last fell while power and clocks were read
	 * (spans of 20 ms), the others within 1 ms reads */
	double t[5] = {0.10, 0.20, 0.30, 0.40, 0.50}, w[5] = {0.020, 0.001, 0.001, 0.001, 0.020};
	uint64_t e[5] = {1000, 1070, 1140, 1210, 1280};
	int i = 0, j = 0;
	CHECK(dlb_energy_pick(t, w, e, 5, 0.5, &i, &j) && i == 0 && j == 4, "all narrow enough: %d..%d", i, j);
	w[0] = w[4] = 0.03; /* 0.06 > a tenth of 0.4 s, 0.031 > a tenth of 0.3 s: the first and last left out */
	CHECK(dlb_energy_pick(t, w, e, 5, 0.5, &i, &j) && i == 1 && j == 3, "the inner steps: %d..%d", i, j);
	CHECK(!dlb_energy_pick(t, w, e, 5, 1.5, &i, &j) && i < 0 && j < 0, "0.2 s is under a fifth of 1.5 s: %d..%d", i, j);
	CHECK(!dlb_energy_pick(t, w, e, 2, 0.5, &i, &j), "two steps are too few");
	w[1] = 0.05;
	CHECK(!dlb_energy_pick(t, w, e, 5, 0.5, &i, &j), "no pair two steps apart narrow enough: %d..%d", i, j);
	uint64_t flat[5] = {5, 5, 5, 5, 5};
	w[0] = w[1] = w[4] = 0.001;
	CHECK(!dlb_energy_pick(t, w, flat, 5, 0.5, &i, &j), "a counter that did not rise");
}

int main(void)
{
	test_energy_pick();
	test_energy_add();
	test_paired_by_order();
	test_round_trip();
	test_not_found();
	test_bad();
	test_status_names();
	test_reports();
	test_conv_columns();
	return TEST_DONE();
}
