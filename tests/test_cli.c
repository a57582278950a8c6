/* test_cli: the command line — defaults, commands, a problem on the command line, and every usage error. */
#include "cli.h"
#include "err.h"
#include "op.h"
#include "ops/gemm/gemm.h"
#include "ops/sparse/spmm.h"
#include "testlib.h"

#include <stdarg.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS 32

/* argv stays valid after parse() returns: the parsed struct points into it. */
static char *args[MAX_ARGS + 2];

/* Parse "dlbtune" followed by the NULL-terminated arguments in list. */
static int parse_list(struct dlb_cli *c, char *const *list)
{
	int argc = 0;
	args[argc++] = "dlbtune";
	for (; argc < MAX_ARGS && *list; list++)
		args[argc++] = *list;
	args[argc] = NULL;
	dlb_clear_error();
	return dlb_cli_parse(argc, args, c);
}

/* The same with the arguments in ap. */
static int vparse(struct dlb_cli *c, va_list ap)
{
	char *list[MAX_ARGS + 1];
	int n = 0;
	for (char *a; n < MAX_ARGS && (a = va_arg(ap, char *));)
		list[n++] = a;
	list[n] = NULL;
	return parse_list(c, list);
}

static int parse(struct dlb_cli *c, ...)
{
	va_list ap;
	va_start(ap, c);
	int rc = vparse(c, ap);
	va_end(ap);
	return rc;
}

static void test_defaults(void)
{
	struct dlb_cli c;
	CHECK_EQ_INT(parse(&c, NULL), 0);
	CHECK_EQ_INT(c.cmd, DLB_CMD_TUNE);
	CHECK_EQ_STR(c.op, "gemm");
	CHECK_EQ_INT(c.prec, DLB_PREC_FP32);
	CHECK_EQ_INT(c.samples, 15);
	CHECK_EQ_STR(c.strategy, "model");
	CHECK_EQ_INT(c.min_samples, 4);
	CHECK_EQ_INT(c.max_samples, 50);
	CHECK_EQ_INT(c.fixed_samples, 0);
	CHECK_EQ_INT(c.seeds, 3);
	CHECK_EQ_INT(c.device, 0);
	CHECK_EQ_INT(c.have_shape, 0);
	CHECK(!c.suite && !c.db && !c.emit && !c.csv && !c.json && !c.retune && !c.verbose && !c.dim[GEMM_TA] && !c.dim[GEMM_TB],
	      "defaults: a flag or path is set");

	/* Nothing carries over from one parse to the next. */
	CHECK_EQ_INT(parse(&c, "--csv", "--retune", "-v", "--ta", "1", "--db", "/tmp/d", NULL), 0);
	CHECK(c.csv && c.retune && c.verbose && c.dim[GEMM_TA] == 1, "--csv --retune -v --ta 1 not all set");
	CHECK_EQ_STR(c.db, "/tmp/d");
	CHECK_EQ_INT(parse(&c, NULL), 0);
	CHECK(!c.csv && !c.retune && !c.verbose && !c.dim[GEMM_TA] && !c.db, "options of the previous parse carried over");
}

static void test_valid(void)
{
	struct dlb_cli c;
	CHECK_EQ_INT(parse(&c, "--op", "gemm", "--m", "35", "--n", "700", "--k", "2048", "--ta", "1", NULL), 0);
	CHECK_EQ_INT(c.have_shape, 1);
	CHECK_EQ_INT(c.dim[GEMM_M], 35);
	CHECK_EQ_INT(c.dim[GEMM_N], 700);
	CHECK_EQ_INT(c.dim[GEMM_K], 2048);
	CHECK_EQ_INT(c.dim[GEMM_TA], 1);
	CHECK_EQ_INT(c.dim[GEMM_TB], 0);
	CHECK_EQ_INT(c.cmd, DLB_CMD_TUNE);

	CHECK_EQ_INT(parse(&c, "tune", "--m", "2147483647", "--n", "1", "--k", "1", "--tb", "1", NULL), 0);
	CHECK_EQ_INT(c.dim[GEMM_M], 2147483647);
	CHECK_EQ_INT(c.dim[GEMM_TB], 1);
	CHECK_EQ_INT(c.cmd, DLB_CMD_TUNE);

	CHECK_EQ_INT(parse(&c, "--layout", "TN", NULL), 0);
	CHECK(c.dim[GEMM_TA] == 1 && c.dim[GEMM_TB] == 0, "--layout TN: ta %d tb %d", (int)c.dim[GEMM_TA], (int)c.dim[GEMM_TB]);
	CHECK_EQ_INT(parse(&c, "--layout", "NT", NULL), 0);
	CHECK(c.dim[GEMM_TA] == 0 && c.dim[GEMM_TB] == 1, "--layout NT: ta %d tb %d", (int)c.dim[GEMM_TA], (int)c.dim[GEMM_TB]);

	CHECK_EQ_INT(parse(&c, "compile", "--arch", "sm_80", NULL), 0);
	CHECK_EQ_INT(c.cmd, DLB_CMD_COMPILE);
	CHECK_EQ_STR(c.arch, "sm_80");
	CHECK_EQ_INT(parse(&c, "compile", "--arch", "sm_90a", "--emit", "/tmp/e", NULL), 0);
	CHECK_EQ_STR(c.arch, "sm_90a");
	CHECK_EQ_STR(c.emit, "/tmp/e");
	/* targets dlbtune cannot compile for are refused when parsed (issue 34: sm_50 compiled "146 failed" and
	 * exited 0; sm_1000 was accepted by space) */
	CHECK_EQ_INT(parse(&c, "compile", "--arch", "sm_50", NULL), DLB_E_USAGE);
	CHECK(strstr(dlb_last_error(), "need sm_80 or newer") != NULL, "--arch sm_50: %s", dlb_last_error());
	CHECK_EQ_INT(parse(&c, "space", "--op", "gemm", "--arch", "sm_1000", NULL), DLB_E_USAGE);
	CHECK_EQ_INT(parse(&c, "space", "--op", "gemm", "--arch", "sm_90x", NULL), DLB_E_USAGE);
	CHECK_EQ_INT(parse(&c, "space", "--op", "gemm", "--arch", "sm_899", NULL), DLB_E_USAGE);
	CHECK(strstr(dlb_last_error(), "does not compile for sm_899") != NULL, "--arch sm_899: %s", dlb_last_error());
	CHECK_EQ_INT(parse(&c, "compile", "--arch", "sm_100a", NULL), 0);

	CHECK_EQ_INT(parse(&c, "space", "--op", "gemm", "-v", NULL), 0);
	CHECK_EQ_INT(c.cmd, DLB_CMD_SPACE);
	CHECK(c.verbose && c.prec == DLB_PREC_FP32, "space -v: verbose %d prec %d", c.verbose, (int)c.prec);
	CHECK(!c.have_arch, "space without --arch: have_arch set");
	CHECK_EQ_INT(parse(&c, "space", "--op", "gemm", "--arch", "sm_90a", NULL), 0);
	CHECK(c.have_arch && !strcmp(c.arch, "sm_90a"), "space --arch sm_90a: have_arch %d arch %s", c.have_arch, c.arch);

	CHECK_EQ_INT(parse(&c, "db", "list", "--db", "/tmp/x", NULL), 0);
	CHECK_EQ_INT(c.cmd, DLB_CMD_DB_LIST);
	CHECK_EQ_STR(c.db, "/tmp/x");
	CHECK_EQ_INT(parse(&c, "devices", NULL), 0);
	CHECK_EQ_INT(c.cmd, DLB_CMD_DEVICES);

	CHECK_EQ_INT(parse(&c, "--help", NULL), 0);
	CHECK_EQ_INT(c.cmd, DLB_CMD_HELP);
	CHECK_EQ_INT(parse(&c, "-h", NULL), 0);
	CHECK_EQ_INT(c.cmd, DLB_CMD_HELP);
	CHECK_EQ_INT(parse(&c, "--version", NULL), 0);
	CHECK_EQ_INT(c.cmd, DLB_CMD_VERSION);

	CHECK_EQ_INT(parse(&c, "--suite", "inference_server", "--json", "--samples", "30", "--device", "1", NULL), 0);
	CHECK_EQ_STR(c.suite, "inference_server");
	CHECK(c.json && !c.csv, "--json: json %d csv %d", c.json, c.csv);
	CHECK(c.samples == 30 && c.device == 1, "samples %d device %d", c.samples, c.device);
	CHECK_EQ_INT(c.paired, 30); /* the default */
	CHECK_EQ_INT(parse(&c, "--m", "8", "--n", "8", "--k", "8", "--paired", "0", NULL), 0);
	CHECK_EQ_INT(c.paired, 0);
	CHECK_EQ_INT(parse(&c, "--m", "8", "--n", "8", "--k", "8", "--paired", "64", NULL), 0);
	CHECK_EQ_INT(c.paired, 64);

	/* the search */
	CHECK_EQ_INT(parse(&c, "--strategy", "anneal", "--budget", "90s", "--seed", "7", "--confidence", "0.99",
			   "--precision", "0.005", "--min-samples", "6", "--max-samples", "80", "--seeds", "0", NULL),
		     0);
	CHECK_EQ_STR(c.strategy, "anneal");
	CHECK(c.budget == 0 && c.budget_s == 90.0, "--budget 90s: %d candidates, %g s", c.budget, c.budget_s);
	CHECK(c.seed == 7 && c.confidence == 0.99 && c.precision == 0.005, "seed %lld confidence %g precision %g",
	      c.seed, c.confidence, c.precision);
	CHECK(c.min_samples == 6 && c.max_samples == 80 && c.seeds == 0, "samples %d..%d seeds %d", c.min_samples,
	      c.max_samples, c.seeds);
	CHECK_EQ_INT(parse(&c, "--budget", "40", "--strategy", "exhaustive", "--fixed-samples", "5", NULL), 0);
	CHECK(c.budget == 40 && c.budget_s == 0 && c.fixed_samples == 5, "--budget 40: %d, %g s; fixed %d", c.budget,
	      c.budget_s, c.fixed_samples);
	CHECK_EQ_INT(parse(&c, "simulate", "--trials", "20", "--noise", "0.05", "--outliers", "0.01", NULL), 0);
	CHECK(c.cmd == DLB_CMD_SIMULATE && c.trials == 20 && c.noise == 0.05 && c.outliers == 0.01,
	      "simulate: cmd %d trials %d noise %g outliers %g", c.cmd, c.trials, c.noise, c.outliers);
	CHECK_EQ_INT(parse(&c, "simulate", "--from-db", "--strategy", "random", NULL), 0);
	CHECK(c.from_db, "--from-db not set");
}

/* A parse must have returned DLB_E_USAGE with a message containing want. */
static void check_usage(int rc, const char *want, const char *what)
{
	CHECK(rc == DLB_E_USAGE, "%s: returned %d, expected DLB_E_USAGE", what, rc);
	CHECK(*dlb_last_error(), "%s: no message", what);
	CHECK(strstr(dlb_last_error(), want), "%s: message \"%s\" does not contain \"%s\"", what, dlb_last_error(),
	      want);
}

/* The arguments must be refused with DLB_E_USAGE and a message containing want. */
static void expect_usage(const char *want, const char *what, ...)
{
	struct dlb_cli c;
	va_list ap;
	va_start(ap, what);
	int rc = vparse(&c, ap);
	va_end(ap);
	check_usage(rc, want, what);
}

static void test_errors(void)
{
	expect_usage("--paired '65': expected an integer in 0..64", "--paired 65", "--paired", "65", NULL);
	expect_usage("--paired and --power-ms go with tune", "--paired with db list", "db", "list", "--paired", "5", NULL);
	expect_usage("'0'", "--m 0", "--m", "0", "--n", "1", "--k", "1", NULL);
	expect_usage("'-3'", "--m -3", "--m", "-3", "--n", "1", "--k", "1", NULL);
	expect_usage("'abc'", "--m abc", "--m", "abc", "--n", "1", "--k", "1", NULL);
	expect_usage("'12x'", "--m 12x", "--m", "12x", "--n", "1", "--k", "1", NULL);
	expect_usage("'99999999999'", "--m 99999999999", "--m", "99999999999", "--n", "1", "--k", "1", NULL);
	expect_usage("--n", "--n 2147483648", "--m", "1", "--n", "2147483648", "--k", "1", NULL);
	expect_usage("--k", "--k ''", "--m", "1", "--n", "1", "--k", "", NULL);
	expect_usage("--k", "only --m and --n", "--m", "35", "--n", "700", NULL);
	expect_usage("conv2x", "--op conv2x", "--op", "conv2x", NULL);
	expect_usage("fp64", "--prec fp64", "--prec", "fp64", NULL);
	expect_usage("nosuch", "space --op nosuch", "space", "--op", "nosuch", NULL);
	expect_usage("'x'", "space with an operand", "space", "x", NULL);
	expect_usage("XY", "--layout XY", "--layout", "XY", NULL);
	expect_usage("--ta", "--ta 2", "--ta", "2", NULL);
	expect_usage("--tb", "--tb -1", "--tb", "-1", NULL);
	expect_usage("--json", "--csv --json", "--csv", "--json", NULL);
	expect_usage("--frobnicate", "--frobnicate", "--frobnicate", NULL);
	expect_usage("--m", "--m as the last argument", "--n", "1", "--m", NULL);
	expect_usage("--suite", "--suite with a shape", "--suite", "x.csv", "--m", "1", "--n", "2", "--k", "3", NULL);
	expect_usage("frob", "unknown command", "frob", NULL);
	expect_usage("list", "db without a subcommand", "db", NULL);
	expect_usage("list", "db with another subcommand", "db", "drop", NULL);
	expect_usage("--device", "--device -1", "--device", "-1", NULL);
	expect_usage("--samples", "--samples 1", "--samples", "1", NULL);
	expect_usage("--strategy", "--strategy best", "--strategy", "best", NULL);
	expect_usage("--budget", "--budget 0", "--budget", "0", NULL);
	expect_usage("--budget", "--budget 5m", "--budget", "5m", NULL);
	expect_usage("--budget", "--budget s", "--budget", "s", NULL);
	expect_usage("--confidence", "--confidence 1.5", "--confidence", "1.5", NULL);
	expect_usage("--precision", "--precision 0", "--precision", "0", NULL);
	expect_usage("--min-samples", "--min-samples 1", "--min-samples", "1", NULL);
	expect_usage("more than", "--min-samples above --max-samples", "--min-samples", "20", "--max-samples", "10", NULL);
	expect_usage("--seed", "--seed -3", "--seed", "-3", NULL);
	expect_usage("go with tune, model and simulate", "--strategy with export", "export", "--format", "csv", "--strategy",
		     "random", NULL);
	expect_usage("go with simulate", "--trials with tune", "--trials", "5", NULL);
	expect_usage("synthetic", "--from-db with --noise", "simulate", "--from-db", "--noise", "0.1", NULL);
	expect_usage("--emit", "--emit without compile", "--emit", "/tmp/e", NULL);
	expect_usage("'90'", "--arch 90", "compile", "--arch", "90", NULL);
	expect_usage("--arch goes with compile and space", "--arch with tune", "--arch", "sm_90a", NULL);
	expect_usage("--arch goes with compile and space", "--arch with lookup", "lookup", "--m", "1", "--n", "1", "--k", "1",
		     "--arch", "sm_80", NULL);
	expect_usage("stray", "a stray argument", "--m", "1", "stray", NULL);
	expect_usage("-x", "an unknown short option", "-x", NULL);
	expect_usage("--db", "--db ''", "--db", "", NULL);
}

/* Whether this build has gemm kernels in p: what the command line must agree with, now and once more
 * precisions are built. */
static int built(enum dlb_prec p)
{
	return dlb_op_find("gemm", p) != NULL;
}

/* The refusal of an unbuilt precision: its name and the list of those built. */
static void check_not_built(int rc, enum dlb_prec p, const char *what)
{
	char want[160], precs[64];
	dlb_op_precs("gemm", precs, sizeof precs);
	snprintf(want, sizeof want, "gemm has no %s kernels in this build (built: %s)", dlb_prec_name(p), precs);
	CHECK(rc == DLB_E_USAGE, "%s: returned %d, expected DLB_E_USAGE", what, rc);
	CHECK(strstr(dlb_last_error(), want), "%s: message \"%s\" does not contain \"%s\"", what, dlb_last_error(), want);
}

static void test_precisions(void)
{
	struct dlb_cli c;
	static const char *const cmds[] = {"tune", "compile", "space"};
	CHECK_EQ_INT(parse(&c, NULL), 0);
	CHECK(c.nprecs == 1 && c.precs[0] == DLB_PREC_FP32 && !c.have_prec, "default: %d precisions, first %d",
	      c.nprecs, (int)c.precs[0]);

	/* each precision alone: taken where it is built, else refused naming what is built */
	for (int p = 0; p < DLB_PREC_COUNT; p++)
		for (int i = 0; i < 3; i++) {
			const char *name = dlb_prec_name((enum dlb_prec)p);
			char what[64];
			snprintf(what, sizeof what, "%s --prec %s", cmds[i], name);
			int rc = parse(&c, cmds[i], "--prec", name, NULL);
			if (!built((enum dlb_prec)p)) {
				check_not_built(rc, (enum dlb_prec)p, what);
				continue;
			}
			CHECK(rc == 0, "%s: %s", what, dlb_last_error());
			CHECK(c.nprecs == 1 && c.prec == (enum dlb_prec)p && c.precs[0] == c.prec && c.have_prec,
			      "%s: %d precisions, first %d", what, c.nprecs, (int)c.prec);
		}

	/* a list runs in the order given; the first unbuilt one is refused before anything runs */
	static const enum dlb_prec order[] = {DLB_PREC_INT8, DLB_PREC_FP32, DLB_PREC_FP16};
	for (int i = 0; i < 2; i++) {
		int rc = parse(&c, cmds[i], "--prec", "int8,fp32,fp16", NULL);
		int all = 1;
		for (int j = 0; j < 3 && all; j++)
			if (!built(order[j])) {
				check_not_built(rc, order[j], "--prec int8,fp32,fp16");
				all = 0;
			}
		if (!all)
			continue;
		CHECK(rc == 0, "%s --prec int8,fp32,fp16: %s", cmds[i], dlb_last_error());
		CHECK(c.nprecs == 3 && c.precs[0] == DLB_PREC_INT8 && c.precs[1] == DLB_PREC_FP32 &&
			      c.precs[2] == DLB_PREC_FP16 && c.prec == DLB_PREC_INT8,
		      "%s --prec int8,fp32,fp16: %d precisions %d %d %d, first %d", cmds[i], c.nprecs, (int)c.precs[0],
		      (int)c.precs[1], (int)c.precs[2], (int)c.prec);
	}
	/* a later --prec replaces an earlier one */
	CHECK_EQ_INT(parse(&c, "--prec", "fp16,int8", "--prec", "fp32", NULL), 0);
	CHECK(c.nprecs == 1 && c.prec == DLB_PREC_FP32, "--prec fp16,int8 --prec fp32: %d precisions, first %d", c.nprecs,
	      (int)c.prec);

	/* filters take any one known precision, built or not: results may come from another build */
	CHECK_EQ_INT(parse(&c, "export", "--format", "csv", "--prec", "int8", NULL), 0);
	CHECK(c.have_prec && c.prec == DLB_PREC_INT8 && c.nprecs == 1, "export --prec int8: prec %d", (int)c.prec);
	CHECK_EQ_INT(parse(&c, "lookup", "--m", "35", "--n", "700", "--k", "2048", "--prec", "fp16", NULL), 0);
	CHECK_EQ_INT(c.prec, DLB_PREC_FP16);
	CHECK_EQ_INT(parse(&c, "db", "list", "--prec", "int8", NULL), 0);
	CHECK_EQ_INT(parse(&c, "simulate", "--from-db", "--prec", "fp16", NULL), 0);

	/* refused in any build */
	static const struct {
		const char *want;
		char *args[12];
	} refusals[] = {
		{"fp32 is given twice", {"--prec", "fp32,fp32"}},
		{"fp16 is given twice", {"compile", "--prec", "fp16,int8,fp16"}},
		{"unknown precision 'fp64'", {"--prec", "fp32,fp64"}},
		{"unknown precision 'fp32x'", {"--prec", "fp32x"}},
		{"empty precision", {"--prec", "fp32,"}},
		{"empty precision", {"--prec", ",fp32"}},
		{"empty precision", {"--prec", ""}},
		{"goes with tune and compile", {"export", "--format", "csv", "--prec", "fp32,fp16"}},
		{"goes with tune and compile", {"space", "--prec", "fp32,fp16"}},
		{"goes with tune and compile", {"lookup", "--m", "1", "--n", "1", "--k", "1", "--prec", "fp32,int8"}},
		{"goes with tune and compile", {"simulate", "--prec", "int8,fp32"}},
		{"goes with tune and compile", {"db", "list", "--prec", "fp16,fp32"}},
	};
	for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
		char what[160] = "";
		for (char *const *a = refusals[i].args; *a; a++)
			snprintf(what + strlen(what), sizeof what - strlen(what), "%s'%s'", a == refusals[i].args ? "" : " ", *a);
		check_usage(parse_list(&c, refusals[i].args), refusals[i].want, what);
	}

	/* the registry lookup the commands share */
	const struct dlb_op *op = NULL;
	dlb_clear_error();
	CHECK_EQ_INT(dlb_cli_op("gemm", DLB_PREC_FP32, &op), 0);
	CHECK(op && op == dlb_op_find("gemm", DLB_PREC_FP32) && op->prec == DLB_PREC_FP32, "gemm fp32: wrong entry");
	CHECK_EQ_INT(dlb_cli_op("nosuch", DLB_PREC_FP32, NULL), DLB_E_USAGE);
	CHECK_HAS(dlb_last_error(), "unknown op 'nosuch'");
	for (int p = 0; p < DLB_PREC_COUNT; p++)
		if (!built((enum dlb_prec)p))
			check_not_built(dlb_cli_op("gemm", (enum dlb_prec)p, NULL), (enum dlb_prec)p, "dlb_cli_op");
}

/* The kernel family a configuration names (the first parameter with value names: KIND) */
static void test_family(void)
{
	const struct dlb_op *conv = dlb_op_find("conv", DLB_PREC_FP32), *gemm = dlb_op_find("gemm", DLB_PREC_FP32);
	CHECK(conv != NULL && gemm != NULL, "no conv or gemm fp32 op");
	if (!conv || !gemm)
		return;
	const char *f = dlb_op_config_family(conv, "BM=128 BN=64 BK=32 TM=2 TN=2 WARPS_M=2 STAGES=4 KIND=2");
	CHECK(f && !strcmp(f, "3xTF32 wgmma, TMA"), "conv fp32 KIND=2: '%s'", f ? f : "(null)");
	f = dlb_op_config_family(conv, "KIND=0 BM=64");
	CHECK(f && !strcmp(f, "FFMA"), "conv fp32 KIND=0 first: '%s'", f ? f : "(null)");
	CHECK(!dlb_op_config_family(conv, "BM=64 KIND=7"), "a value the parameter does not have");
	CHECK(!dlb_op_config_family(conv, "BM=64 XKIND=1"), "a longer name ending in KIND");
	CHECK(!dlb_op_config_family(conv, "BM=64 KIND=1x"), "a value followed by junk");
	CHECK(!dlb_op_config_family(conv, "BM=64 KIND= 1"), "a space before the value");
	CHECK(!dlb_op_config_family(conv, "BM=64"), "no KIND");
	f = dlb_op_config_family(gemm, "BM=128 BN=64 KIND=1 WGS=2");
	CHECK(f && !strcmp(f, "3xTF32 wgmma"), "gemm fp32 KIND=1: '%s'", f ? f : "(null)");
	f = dlb_op_config_family(gemm, "BM=64 BN=64 KIND=3");
	CHECK(f && !strcmp(f, "FFMA TMA tile"), "gemm fp32 KIND=3: '%s'", f ? f : "(null)");
	CHECK(!dlb_op_config_family(gemm, "BM=64 BN=64 KIND=4"), "gemm fp32 has no KIND 4");
}

/* An error inside a cluster of short options ("-xv") leaves getopt in the middle of the cluster, so these run in a
 * child: stale getopt state can read past argv. */
static void cluster_message(void)
{
	struct dlb_cli c;
	static char *a[] = {"dlbtune", "-xv", NULL};
	CHECK_EQ_INT(dlb_cli_parse(2, a, &c), DLB_E_USAGE);
	CHECK_HAS(dlb_last_error(), "-x");
}

static void reparse_after_cluster_error(void)
{
	struct dlb_cli c;
	static char *a1[] = {"dlbtune", "-xv", NULL}, *a2[] = {"dlbtune", NULL, NULL, NULL};
	CHECK_EQ_INT(dlb_cli_parse(2, a1, &c), DLB_E_USAGE);
	CHECK_EQ_INT(dlb_cli_parse(1, a2, &c), 0);
	CHECK_EQ_INT(c.verbose, 0);
}

/* Run fn in a child; its failed checks print there and count here as one. */
static void in_child(void (*fn)(void), const char *what)
{
	fflush(stdout);
	pid_t pid = fork();
	REQUIRE(pid >= 0, "fork failed");
	if (pid == 0) {
		int before = tl_failed;
		fn();
		fflush(stdout);
		_exit(tl_failed > before);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 1) {
		tl_checks++;
		tl_failed++;
		return;
	}
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: the child %s %d", what,
	      WIFEXITED(st) ? "exited with" : "died of signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

/* A size or a number given as FROM:TO:STEP: one problem per value, the last no further than TO. */
static void test_sweep(void)
{
	struct dlb_cli c;
	struct dlb_problem p;
	CHECK_EQ_INT(parse(&c, "--op", "gemm", "--m", "100:130:16", "--n", "8", "--k", "8", NULL), 0);
	CHECK_EQ_INT(c.have_shape, 1);
	CHECK_EQ_INT(dlb_cli_sweep_count(&c), 2);
	dlb_cli_sweep_problem(&c, &dlb_op_gemm, 1, &p);
	CHECK_EQ_INT(p.dim[GEMM_M], 116);
	CHECK_EQ_INT(p.dim[GEMM_N], 8);
	CHECK_EQ_INT(parse(&c, "--op", "spmm", "--m", "10", "--n", "1", "--k", "10", "--sparsity", "0.7:0.99:0.01", NULL), 0);
	CHECK_EQ_INT(dlb_cli_sweep_count(&c), 30);
	dlb_cli_sweep_problem(&c, &dlb_op_spmm, 29, &p);
	CHECK_EQ_INT(p.dim[SPMM_SPARSITY], 9900);
	dlb_cli_sweep_problem(&c, &dlb_op_spmm, 0, &p);
	CHECK_EQ_INT(p.dim[SPMM_SPARSITY], 7000);
	CHECK_EQ_INT(parse(&c, "--op", "gemm", "--m", "35", "--n", "8", "--k", "8", NULL), 0);
	CHECK_EQ_INT(dlb_cli_sweep_count(&c), 1);
	/* refused: for other commands, backwards, a zero step, two sweeps, a missing part, a bad value inside */
	CHECK_EQ_INT(parse(&c, "lookup", "--op", "gemm", "--m", "1:9:1", "--n", "8", "--k", "8", NULL), DLB_E_USAGE);
	CHECK_EQ_INT(parse(&c, "--op", "gemm", "--m", "9:1:1", "--n", "8", "--k", "8", NULL), DLB_E_USAGE);
	CHECK_EQ_INT(parse(&c, "--op", "gemm", "--m", "1:9:0", "--n", "8", "--k", "8", NULL), DLB_E_USAGE);
	CHECK_EQ_INT(parse(&c, "--op", "gemm", "--m", "1:9:1", "--n", "1:9:1", "--k", "8", NULL), DLB_E_USAGE);
	CHECK_EQ_INT(parse(&c, "--op", "gemm", "--m", "1:9", "--n", "8", "--k", "8", NULL), DLB_E_USAGE);
	CHECK_EQ_INT(parse(&c, "--op", "gemm", "--m", "1:x:1", "--n", "8", "--k", "8", NULL), DLB_E_USAGE);
	CHECK_EQ_INT(parse(&c, "--op", "gemm", "--m", "1:9:1", NULL), DLB_E_USAGE);
}

int main(void)
{
	test_sweep();
	test_defaults();
	test_valid();
	test_errors();
	test_precisions();
	test_family();
	in_child(cluster_message, "refusing \"-xv\"");
	in_child(reparse_after_cluster_error, "parsing no arguments after refusing \"-xv\"");
	return TEST_DONE();
}
