/* toy_check: the tests' toy op (tests/toy/rowsum.c) through every generic path that needs no GPU — options,
 * suites, the space, keys, the store and the catalog, the run's table in text, CSV and JSON, and every export
 * format — with nothing outside tests/ knowing it exists. `toy_check --make-db DIR` writes a database of toy
 * results for tests/toy/toy_op.sh, which drives the same through the dlbtune_toy program. */
#define _GNU_SOURCE /* open_memstream */
#include "../../reports/export.h"
#include "../../reports/table.h"
#include "../../store/key.h"
#include "../../store/record.h"
#include "../../store/store.h"
#include "../testlib.h"
#include "catalog.h"
#include "cli.h"
#include "err.h"
#include "rowsum.h"
#include "suite.h"

#include <jansson.h>
#include <stdlib.h>
#include <unistd.h>

static const struct dlb_op *toy;

static int parse(struct dlb_cli *c, int argc, char **argv)
{
	dlb_clear_error();
	return dlb_cli_parse(argc, argv, c);
}

#define PARSE(c, ...) parse((c), (int)(sizeof(char *[]){"dlbtune", __VA_ARGS__} / sizeof(char *)), (char *[]){"dlbtune", __VA_ARGS__})

static void test_options(void)
{
	struct dlb_cli c;
	CHECK_EQ_INT(PARSE(&c, "--op", "rowsum", "--rows", "1024", "--cols", "4096"), 0);
	CHECK(c.have_shape && c.dim[0] == 1024 && c.dim[1] == 4096 && c.dim[2] == 100,
	      "rows %lld cols %lld scale %lld, shape %d", (long long)c.dim[0], (long long)c.dim[1], (long long)c.dim[2],
	      c.have_shape);
	CHECK_EQ_INT(PARSE(&c, "--op", "rowsum", "--rows", "7", "--cols", "9", "--scale", "0.25"), 0);
	CHECK_EQ_INT(c.dim[2], 25);
	CHECK_EQ_INT(PARSE(&c, "--op", "rowsum", "--m", "5"), DLB_E_USAGE);
	CHECK_HAS(dlb_last_error(), "--m is not a dimension of rowsum");
	CHECK_EQ_INT(PARSE(&c, "--op", "rowsum", "--rows", "0", "--cols", "4"), DLB_E_USAGE);
	CHECK_HAS(dlb_last_error(), "--rows '0'");
	CHECK_EQ_INT(PARSE(&c, "--op", "rowsum", "--rows", "2", "--cols", "4", "--scale", "0.125"), DLB_E_USAGE);
	CHECK_HAS(dlb_last_error(), "--scale '0.125'");
	CHECK_EQ_INT(PARSE(&c, "--op", "rowsum", "--rows", "2"), DLB_E_USAGE);
	CHECK_HAS(dlb_last_error(), "--rows and --cols");
	CHECK_EQ_INT(PARSE(&c, "--op", "rowsum", "--layout", "NN"), DLB_E_USAGE);
	CHECK_HAS(dlb_last_error(), "has no layouts");
	CHECK_EQ_INT(PARSE(&c, "lookup", "--op", "rowsum", "--rows", "2"), DLB_E_USAGE);
	CHECK_HAS(dlb_last_error(), "lookup needs the problem: --rows and --cols");
	/* the built-in family's options stay as they were */
	CHECK_EQ_INT(PARSE(&c, "--op", "gemm", "--m", "35", "--n", "700", "--k", "2048", "--layout", "TN"), 0);
	CHECK_EQ_INT(PARSE(&c, "--op", "gemm", "--rows", "5"), DLB_E_USAGE);

	char *help = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&help, &len);
	REQUIRE(f, "open_memstream");
	dlb_cli_usage(f);
	fclose(f);
	CHECK_HAS(help, "--op rowsum: y(rows) = scale * sum");
	CHECK_HAS(help, "--scale scale");
	CHECK_HAS(help, "0.01..1000.00; default 1.00");
	CHECK_HAS(help, "built-in suite (small)");
	CHECK_HAS(help, "gemm: fp32 fp16 int8; conv: fp32 fp16 int8; spmm: fp32 fp16; rowsum: fp32");
	free(help);
}

static void test_suites(void)
{
	struct dlb_suite s = {0};
	CHECK_EQ_INT(dlb_suite_load("small", toy, DLB_PREC_FP32, &s), 0);
	CHECK_EQ_INT(s.n, 4);
	if (s.n == 4)
		CHECK(s.problems[2].dim[0] == 333 && s.problems[2].dim[1] == 7777 && s.problems[2].dim[2] == 225,
		      "row 3: %lld %lld %lld", (long long)s.problems[2].dim[0], (long long)s.problems[2].dim[1],
		      (long long)s.problems[2].dim[2]);
	dlb_suite_free(&s);
	/* scale has a default: a suite may leave it out */
	CHECK_EQ_INT(dlb_suite_parse("cols,rows\n8,2\n", "mine.csv", toy, DLB_PREC_FP32, &s), 0);
	CHECK(s.n == 1 && s.problems[0].dim[0] == 2 && s.problems[0].dim[1] == 8 && s.problems[0].dim[2] == 100,
	      "a suite without scale");
	dlb_suite_free(&s);
	CHECK_EQ_INT(dlb_suite_parse("rows,scale\n8,2\n", "bad.csv", toy, DLB_PREC_FP32, &s), DLB_E_PARSE);
	CHECK_HAS(dlb_last_error(), "bad.csv:1: header has no column 'cols' (expected rows,cols,scale)");
	CHECK_EQ_INT(dlb_suite_parse("rows,cols\n8,2\n8,x\n", "bad.csv", toy, DLB_PREC_FP32, &s), DLB_E_PARSE);
	CHECK_HAS(dlb_last_error(), "bad.csv:3: cols 'x'");
}

static void test_space(void)
{
	struct dlb_config *cfgs = NULL;
	int n = dlb_space_enumerate(&toy->space, NULL, &cfgs, NULL);
	CHECK_EQ_INT(n, 15); /* 4 x 4, less BLOCK 512 with ROWS 1: 512 threads a row */
	free(cfgs);
}

static struct dlb_problem problem(int64_t rows, int64_t cols, int64_t scale)
{
	return (struct dlb_problem){.op = toy, .prec = DLB_PREC_FP32, .dim = {rows, cols, scale}};
}

static void test_keys(void)
{
	struct dlb_problem p = problem(1024, 4096, 150), q = {.op = toy};
	struct dlb_key k = {0}, d;
	char buf[DLB_KEY_MAX + 1];
	dlb_key_of_problem(&p, &k);
	snprintf(k.gpu, sizeof k.gpu, "Test GPU");
	snprintf(k.id, sizeof k.id, "GPU-toy");
	REQUIRE(dlb_key_encode(&k, buf, sizeof buf) > 0, "encode");
	CHECK(!strncmp(buf, "v2|rowsum|fp32|-|1024x4096x1.50|gpu=Test GPU|", 44), "key %s", buf);
	CHECK_HAS(buf, "|toyref=1|tpl=");
	CHECK_EQ_INT(dlb_key_decode(buf, strlen(buf), &d), 0);
	CHECK_EQ_INT(dlb_problem_from_text(&q, d.layout, d.shape), 0);
	CHECK(dlb_problem_same_dims(&p, &q), "the key's problem came back as %lld %lld %lld", (long long)q.dim[0],
	      (long long)q.dim[1], (long long)q.dim[2]);
	CHECK(dlb_problem_from_text(&q, "NN", d.shape) != 0, "a layout for an op without one");
	CHECK(dlb_problem_from_text(&q, "-", "1024x4096") != 0, "a shape with a dim missing");
	char opts[200];
	dlb_problem_options(toy->family, p.dim, opts, sizeof opts);
	CHECK_EQ_STR(opts, "--rows 1024 --cols 4096 --scale 1.50");
	CHECK_NEAR(dlb_op_throughput(toy, &p, 10.0), (4.0 * 1024 * 4096 + 4.0 * 1024) / 10e-6 / 1e9, 1e-9);
	CHECK_EQ_STR(dlb_op_unit(toy), "GB/s");
}

/* A result as tune stores it, with its trials and its platform. */
static void fill(struct dlb_result *r, int64_t rows, int64_t cols, int64_t scale, double us)
{
	struct dlb_key k = {0};
	memset(r, 0, sizeof *r);
	r->p = problem(rows, cols, scale);
	dlb_key_of_problem(&r->p, &k);
	snprintf(k.gpu, sizeof k.gpu, "Test GPU");
	snprintf(k.id, sizeof k.id, "GPU-toy");
	k.driver = k.cuda = 13000;
	REQUIRE(dlb_key_encode(&k, r->key, sizeof r->key) > 0, "encode");
	r->found = 1;
	snprintf(r->config, sizeof r->config, "BLOCK=256 ROWS=2");
	r->tuned = (struct dlb_stats){.n = 12, .median = us, .median_lo = us * 0.99, .median_hi = us * 1.01};
	r->peak = 4800;
	r->max_err = 1e-6;
	r->tol = 1e-4;
	r->counts[DLB_ST_OK] = 2;
	snprintf(r->gpu, sizeof r->gpu, "Test GPU");
	snprintf(r->timestamp, sizeof r->timestamp, "2026-11-25T00:00:00Z");
	r->nvendor = 1;
	r->vendor[0] = (struct dlb_vendor_entry){.name = "rowsum_naive", .kind = 0, .ok = 1,
						 .st = {.n = 15, .median = 2 * us, .median_lo = 1.9 * us, .median_hi = 2.1 * us}};
}

static void save(struct dlb_store *db, const struct dlb_result *r)
{
	struct dlb_trial t = {.status = DLB_ST_OK, .n = 12, .median_us = r->tuned.median, .lo_us = r->tuned.median_lo,
			      .hi_us = r->tuned.median_hi, .mean_us = r->tuned.median};
	snprintf(t.config, sizeof t.config, "%s", r->config);
	snprintf(t.stop, sizeof t.stop, "precise");
	CHECK_EQ_INT(dlb_trial_save(db, r->key, &t), 0);
	CHECK_EQ_INT(dlb_result_save(db, r), 0);
}

static int make_db(const char *dir, struct dlb_result rows[2])
{
	struct dlb_store *db = NULL;
	struct dlb_platform plat = {0};
	REQUIRE(dlb_store_open(dir, DLB_STORE_CREATE, &db) == 0, "open %s: %s", dir, dlb_last_error());
	fill(&rows[0], 1024, 4096, 100, 10.0);
	fill(&rows[1], 4096, 1024, 50, 12.5);
	snprintf(plat.gpu, sizeof plat.gpu, "Test GPU");
	snprintf(plat.uuid, sizeof plat.uuid, "GPU-toy");
	plat.driver = plat.cuda = 13000;
	plat.nvrtc = 1300;
	snprintf(plat.dlbtune, sizeof plat.dlbtune, "0.1.0");
	dlb_platform_key(&plat);
	CHECK_EQ_INT(dlb_platform_save(db, &plat), 0);
	for (int i = 0; i < 2; i++) {
		snprintf(rows[i].platform, sizeof rows[i].platform, "%s", plat.key);
		save(db, &rows[i]);
	}
	dlb_store_close(db);
	return 0;
}

static char *printed_table(const struct dlb_result *rows, int n, enum dlb_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	REQUIRE(f, "open_memstream");
	dlb_table_print(f, fmt, rows, n, "Test GPU");
	fclose(f);
	return buf;
}

static void test_store_and_tables(void)
{
	char dir[] = "/tmp/toy_check.XXXXXX";
	struct dlb_result rows[2];
	struct dlb_store *db = NULL;
	struct dlb_row *cat = NULL;
	int n = 0;
	REQUIRE(mkdtemp(dir), "mkdtemp");
	make_db(dir, rows);
	REQUIRE(dlb_store_open(dir, DLB_STORE_RDONLY, &db) == 0, "reopen: %s", dlb_last_error());
	/* the catalog reads the problems back from the keys: the toy's layout "-" and its three dims */
	struct dlb_filter f = {.op = "rowsum", .prec = -1, .currency = DLB_ANY_VERSION};
	CHECK_EQ_INT(dlb_catalog_load(db, &f, &cat, &n), 0);
	CHECK_EQ_INT(n, 2);
	for (int i = 0; i < n; i++)
		CHECK(cat[i].r.p.op == toy && (dlb_problem_same_dims(&cat[i].r.p, &rows[0].p) ||
					     dlb_problem_same_dims(&cat[i].r.p, &rows[1].p)),
		      "catalog row %d: %s", i, cat[i].r.key);

	char *t = printed_table(rows, 2, DLB_FMT_TEXT);
	CHECK_HAS(t, "rowsum fp32 on Test GPU");
	CHECK_HAS(t, "throughput in GB/s; %peak relative to 4800.0 GB/s, the device memory bandwidth from memory clock x "
		     "bus width\n");
	CHECK_HAS(t, "   rows    cols   scale | best config");
	CHECK_HAS(t, "|  naive us |  speedup");
	CHECK_HAS(t, "   1024    4096       1 | BLOCK=256 ROWS=2");
	CHECK_HAS(t, "geomean speedup vs vendor best (2 rows, Test GPU): 2.000x");
	free(t);
	t = printed_table(rows, 2, DLB_FMT_CSV);
	CHECK_HAS(t, "rows,cols,scale,prec,best_config,tuned_us,");
	CHECK_HAS(t, ",peak,naive_us,vendor_best,");
	CHECK_HAS(t, "4096,1024,0.5,fp32,\"BLOCK=256 ROWS=2\",12.500,");
	CHECK(!strstr(t, "padded_scale") && strstr(t, "padded,padded_rows,padded_cols\n"), "padded columns: %s", t);
	free(t);
	t = printed_table(rows, 2, DLB_FMT_JSON);
	json_t *root = json_loads(t, 0, NULL), *r0 = json_array_get(json_object_get(root, "results"), 0);
	CHECK(json_integer_value(json_object_get(r0, "rows")) == 1024 &&
		      json_number_value(json_object_get(r0, "scale")) == 1.0 && json_object_get(r0, "naive_us") &&
		      !json_object_get(r0, "layout"),
	      "JSON row: %s", t);
	CHECK_EQ_STR(json_string_value(json_object_get(r0, "unit")), "GB/s");
	json_decref(root);
	free(t);

	/* every export format */
	const char *want[] = {"gpu,gpu_id,driver,cuda,op,rows,cols,scale,prec,", "\"rows\":1024,\"cols\":4096,\"scale\":1.0",
			      "| rows | cols | scale | best config |", "long long rows, cols;\n\tdouble scale;"};
	for (int fmt = 0; fmt < DLB_EXPORT_COUNT; fmt++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&buf, &len);
		REQUIRE(out, "open_memstream");
		CHECK_EQ_INT(dlb_export(out, (enum dlb_export_format)fmt, db, cat, n), 0);
		fclose(out);
		CHECK_HAS(buf, want[fmt]);
		free(buf);
	}
	dlb_catalog_free(cat, n);
	dlb_store_close(db);
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK_EQ_INT(system(cmd), 0);
}

int main(int argc, char **argv)
{
	REQUIRE(toy_register() == 0, "cannot register the toy op");
	toy = dlb_op_find("rowsum", DLB_PREC_FP32);
	REQUIRE(toy == &toy_op_rowsum, "the registered op is not found by name");
	if (argc == 3 && !strcmp(argv[1], "--make-db")) {
		struct dlb_result rows[2];
		make_db(argv[2], rows);
		return TEST_DONE();
	}
	test_options();
	test_suites();
	test_space();
	test_keys();
	test_store_and_tables();
	return TEST_DONE();
}
