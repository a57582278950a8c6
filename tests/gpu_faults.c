/* gpu_faults: test-only candidates (tests/fault_gemm.cu) that write out of bounds, never return, compute a
 * wrong answer and fail to compile, mixed into the real fp32 GEMM space on one problem. The search must
 * finish, pick a verified best from the real space, and store each fault with its status. Prints the
 * statuses and the time each fault cost. Exit 77 without a GPU (99 if DLB_REQUIRE_GPU is set). */
#include "../store/record.h"
#include "../store/store.h"
#include "device.h"
#include "err.h"
#include "jit.h"
#include "ops/gemm/gemm.h"
#include "testlib.h"
#include "tune.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NFAULT 4
static const char *const fault_names[NFAULT + 1] = {"", "out-of-bounds write", "never returns", "wrong answer",
						    "does not compile"};
static const enum dlb_status fault_status[NFAULT + 1] = {DLB_ST_OK, DLB_ST_RUNTIME_FAULT, DLB_ST_TIMEOUT,
							 DLB_ST_WRONG_ANSWER, DLB_ST_COMPILE_ERROR};

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) || !(buf = calloc(1, (size_t)n + 1)) ||
	    fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (f)
		fclose(f);
	return buf;
}

int main(void)
{
	struct dlb_device dev;
	size_t free_mem = 0;
	int rc = dlb_tune_probe(0, &dlb_op_gemm, &dev, &free_mem, NULL);
	if (rc == DLB_E_NODRIVER || rc == DLB_E_NODEVICE) {
		printf("gpu_faults: skipped: %s\n", dlb_last_error());
		return getenv("DLB_REQUIRE_GPU") ? 99 : 77;
	}
	REQUIRE(rc == 0, "probe: %s", dlb_last_error());
	const char *srcdir = getenv("top_srcdir") ? getenv("top_srcdir") : ".";
	char path[512], arch[16], dir[] = "/tmp/dlb_gpu_faults.XXXXXX", dbdir[64];
	snprintf(path, sizeof path, "%s/tests/fault_gemm.cu", srcdir);
	char *tpl = read_file(path);
	REQUIRE(tpl, "cannot read %s", path);
	dlb_device_arch(&dev, arch, sizeof arch);

	/* The fault candidates, compiled as the real ones are: "#define NAME value" lines, then the text. */
	struct dlb_candidate extra[NFAULT];
	const char *names[GEMM_NPARAMS + 1] = {"BM", "BN", "BK", "TM", "TN", "KIND", "KS",
						    "KU", "L2PF", "WGS", "STAGES", "ASPLIT", "FAULT"};
	memset(extra, 0, sizeof extra);
	for (int f = 1; f <= NFAULT; f++) {
		struct dlb_candidate *c = &extra[f - 1];
		int v[GEMM_NPARAMS + 1] = {64, 64, 8, 8, 4, GEMM_KIND_TILE, 1, 4, 0, 1, 3, 0, f};
		memcpy(c->cfg.v, v, sizeof v);
		snprintf(c->text, sizeof c->text, "FAULT=%d BM=64 BN=64 BK=8 TM=8 TN=4 KIND=0 KS=1 KU=4 L2PF=0 WGS=1 STAGES=3 ASPLIT=0",
			 f);
		c->job.source = dlb_jit_source(NULL, names, v, GEMM_NPARAMS + 1, tpl);
		c->job.arch = arch;
		REQUIRE(c->job.source, "out of memory");
	}
	/* compiled in a child process, as the real space is: this process forks GPU workers next */
	struct dlb_jit_job jobs[NFAULT];
	for (int f = 0; f < NFAULT; f++)
		jobs[f] = extra[f].job;
	REQUIRE(dlb_jit_compile_isolated(jobs, NFAULT, 0, NULL, NULL) == 0, "no compiler process");
	for (int f = 0; f < NFAULT; f++) {
		extra[f].job = jobs[f];
		REQUIRE((jobs[f].rc != 0) == (f == 3), "FAULT=%d: compile returned %d: %s", f + 1, jobs[f].rc,
			jobs[f].log ? jobs[f].log : "");
	}

	REQUIRE(mkdtemp(dir), "mkdtemp");
	snprintf(dbdir, sizeof dbdir, "%s/db", dir);
	struct dlb_store *db = NULL;
	REQUIRE(dlb_store_open(dbdir, DLB_STORE_CREATE, &db) == 0, "open: %s", dlb_last_error());
	struct dlb_problem p = {&dlb_op_gemm, DLB_PREC_FP32, {1024, 1024, 32, 0, 0}, 0};
	struct dlb_suite suite = {.name = "faults", .problems = &p, .n = 1};
	struct dlb_result res = {0};
	struct dlb_tune_opts o = {.verbose = 1,
				  .sample = {.warmup = 2, .min_sample_us = 20, .confidence = 0.95},
				  .vendor = {.warmup = 2, .samples = 15, .min_sample_us = 20, .confidence = 0.95},
				  .extra = extra, .nextra = NFAULT};
	dlb_search_defaults(&o.search);
	o.search.strategy = DLB_STRAT_EXHAUSTIVE; /* every fault candidate must be tried */
	dlb_race_defaults(&o.race);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = dlb_tune(&o, &suite, &dev, 1, db, &res);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK(rc == 0, "dlb_tune: %s", dlb_last_error());
	errno = 0;
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD, "a worker was left behind");

	char key[600];
	struct dlb_result got = {0};
	REQUIRE(dlb_problem_key(&dev, 0, &p, NULL, key, sizeof key) == 0, "key");
	REQUIRE(dlb_result_load(db, key, 1, &got) == 0, "no stored result: %s", dlb_last_error());
	CHECK_EQ_INT(got.found, 1);
	CHECK(!strstr(got.config, "FAULT"), "a fault candidate won: %s", got.config);
	CHECK(got.nvendor > 0, "no vendor baseline");
	printf("\n%s, %s 1024x1024x32 NN: best %s %.2f us; vendor best %.2f us; %d trials in %.1f s\n", dev.name,
	       dlb_prec_name(p.prec), got.config, got.tuned.median, dlb_result_vendor_best_us(&got), got.ntrials,
	       (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
	printf("%-16s %6s\n", "status", "trials");
	for (int s = 0; s < DLB_ST_COUNT; s++)
		printf("%-16s %6d\n", dlb_status_name((enum dlb_status)s), got.counts[s]);
	printf("\n%-44s %-20s %-14s %8s  %s\n", "fault candidate", "fault", "status", "seconds", "error");
	int seen[NFAULT + 1] = {0};
	double other_max = 0;
	for (int i = 0; i < got.ntrials; i++) {
		const struct dlb_trial *t = &got.trials[i];
		int f = 0;
		if (sscanf(t->config, "FAULT=%d", &f) != 1 || f < 1 || f > NFAULT) {
			CHECK(t->status == DLB_ST_OK || t->status == DLB_ST_RESOURCE_LIMIT, "real candidate %s: %s (%s)",
			      t->config, dlb_status_name(t->status), t->error);
			if (t->seconds > other_max)
				other_max = t->seconds;
			continue;
		}
		seen[f]++;
		printf("%-44s %-20s %-14s %8.3f  %.70s\n", t->config, fault_names[f], dlb_status_name(t->status), t->seconds,
		       t->error);
		CHECK(t->status == fault_status[f], "%s: %s, expected %s", t->config, dlb_status_name(t->status),
		      dlb_status_name(fault_status[f]));
	}
	printf("the slowest real candidate's trial: %.3f s\n", other_max);
	for (int f = 1; f <= NFAULT; f++)
		CHECK(seen[f] >= 1, "no trial of FAULT=%d", f);
	dlb_result_free(&got);
	dlb_store_close(db);
	for (int f = 0; f < NFAULT; f++) {
		free((void *)extra[f].job.source);
		dlb_jit_job_free(&extra[f].job);
	}
	free(tpl);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	return TEST_DONE();
}
