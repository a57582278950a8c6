/* test_faults: the real tuning driver against a fake worker that crashes, hangs, answers garbage, dies
 * mid-message, reports a sticky CUDA error or a resource limit: each candidate is stored with the right
 * status, a fresh worker carries on, the search completes with a verified best, and no process is left
 * behind. Then an interrupted search resumes without measuring again what it had finished. CPU only. */
#include "../store/record.h"
#include "../store/store.h"
#include "err.h"
#include "ops/gemm/gemm.h"
#include "supervise.h"
#include "testlib.h"
#include "tune.h"
#include "worker.h"

#include <errno.h>
#include <lmdb.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum behaviour { OK, LIMIT, CRASH, HANG, GARBAGE, HALF, STICKY, WRONG, CUDA_ERR, HANG_TIMING, SLOW_OK, NB };
static const char *const names[NB] = {"ok",    "limit", "crash",    "hang",        "garbage", "half",
				      "sticky", "wrong", "cuda_err", "hang_timing", "slow_ok"};
/* the candidates, in order; index 0 and the last are plain good ones */
static const enum behaviour plan[] = {OK,     LIMIT, CRASH,    HANG,        GARBAGE, HALF,
				      STICKY, WRONG, CUDA_ERR, HANG_TIMING, SLOW_OK, OK};
#define NCAND ((int)(sizeof plan / sizeof plan[0]))
#define NEXTRA (NCAND + 2) /* and one that did not compile, one over the limits before compiling */

static char verify_log[128];

static void log_verify(int cand)
{
	FILE *f = fopen(verify_log, "a");
	if (f) {
		fprintf(f, "%d\n", cand);
		fclose(f);
	}
}

static int fake_worker(int in, int out, void *arg)
{
	(void)arg;
	struct dlb_reply m;
	while (dlb_msg_read(in, &m) == 0) {
		int cand = m.len >= sizeof(struct dlb_w_cand) ? ((struct dlb_w_cand *)m.payload)->cand : -1;
		int req_k = m.len == sizeof(struct dlb_w_sample_req) ? ((struct dlb_w_sample_req *)m.payload)->k : 0;
		const struct dlb_w_paired_req *pr = m.len == sizeof *pr ? m.payload : NULL;
		int req_n = pr ? pr->n : 0, req_entry = pr ? pr->entry : -1;
		enum behaviour b = cand >= 0 && cand < NCAND ? plan[cand] : OK;
		uint32_t type = m.type;
		dlb_reply_free(&m);
		if (type == DLB_MSG_QUIT)
			return 0;
		switch (type) {
		case DLB_W_VARIANTS: {
			struct dlb_w_variants v = {1, {1}};
			if (b == LIMIT) {
				const char *e = "the driver allows 128 threads per block";
				dlb_msg_write(out, type, DLB_E_LIMIT, e, (uint32_t)strlen(e));
			} else {
				dlb_msg_write(out, type, 0, &v, sizeof v);
			}
			break;
		}
		case DLB_W_VERIFY: {
			struct dlb_w_verified v = {.chk = {.ok = 1, .tol = 1e-5, .max_err = 1e-7}, .seconds = 1e-3};
			const char *e;
			log_verify(cand);
			switch (b) {
			case CRASH:
				abort();
			case HANG:
				for (;;)
					pause();
			case GARBAGE:
				if (write(out, "this is not a reply, not at all: it is garbage!!", 48) < 0)
					_exit(1);
				for (;;)
					pause();
			case HALF:
				if (write(out, "1bld", 4) < 0) /* a header cut short */
					_exit(1);
				_exit(0);
			case STICKY:
				e = "cudaErrorIllegalAddress (an illegal memory access was encountered)";
				dlb_msg_write(out, type, DLB_E_CUDA_STICKY, e, (uint32_t)strlen(e));
				_exit(3);
			case CUDA_ERR:
				e = "cudaErrorLaunchFailure";
				dlb_msg_write(out, type, DLB_E_CUDA, e, (uint32_t)strlen(e));
				break;
			case WRONG:
				v.chk.ok = 0;
				v.chk.max_err = 0.5;
				/* fall through */
			default:
				dlb_msg_write(out, type, 0, &v, sizeof v);
			}
			break;
		}
		case DLB_W_SAMPLES: {
			if (b == HANG_TIMING)
				for (;;)
					pause();
			struct dlb_w_samples sa = {.reps = 1, .n = req_k};
			for (int j = 0; j < req_k; j++) /* a little spread, so the racer has a variance */
				sa.us[j] = (b == SLOW_OK ? 50.0 : 10.0 + cand) * (1 + 0.001 * (j % 3));
			dlb_msg_write(out, type, 0, &sa, sizeof sa);
			break;
		}
		case DLB_W_VENDOR: {
			struct dlb_w_vendor v = {1, {{"cublasSgemm", 0, 1, {.n = 15, .median = 12.0}}}};
			dlb_msg_write(out, type, 0, &v, sizeof v);
			break;
		}
		case DLB_W_PAIRED: { /* the winner (candidate 0, 10 us) against the vendor best (entry 0, 12 us) */
			struct dlb_w_paired pa = {.n = req_n, .reps = 1};
			const char *e = "paired: not the winner and the vendor best";
			if (cand != 0 || req_entry != 0 || req_n < 1 || req_n > DLB_PAIRED_MAX) {
				dlb_msg_write(out, type, DLB_E_CUDA, e, (uint32_t)strlen(e));
				break;
			}
			for (int j = 0; j < req_n; j++) {
				pa.tuned[j] = 10.0;
				pa.vendor[j] = 12.0 * (1 + 0.01 * (j % 2));
			}
			dlb_msg_write(out, type, 0, &pa, sizeof pa);
			break;
		}
		case DLB_W_LAUNCHES: {
			uint64_t n = 7;
			dlb_msg_write(out, type, 0, &n, sizeof n);
			break;
		}
		default: /* HELLO, PROBLEM */
			dlb_msg_write(out, type, 0, NULL, 0);
		}
	}
	return 0;
}

static void on_alarm(int sig)
{
	(void)sig;
	dlb_interrupted = 1;
}

static int count_lines(const char *path, int cand)
{
	FILE *f = fopen(path, "r");
	int n = 0, c;
	while (f && fscanf(f, "%d", &c) == 1)
		n += c == cand;
	if (f)
		fclose(f);
	return n;
}

int main(void)
{
	char dir[] = "/tmp/dlb_test_faults.XXXXXX", cmd[128];
	REQUIRE(mkdtemp(dir), "mkdtemp");
	snprintf(verify_log, sizeof verify_log, "%s/verify.log", dir);
	struct dlb_store *db = NULL;
	snprintf(cmd, sizeof cmd, "%s/db", dir);
	REQUIRE(dlb_store_open(cmd, DLB_STORE_CREATE, &db) == 0, "open: %s", dlb_last_error());

	struct dlb_candidate extra[NEXTRA];
	memset(extra, 0, sizeof extra);
	static const char cubin[] = "not a cubin: the fake worker never loads it";
	for (int i = 0; i < NEXTRA; i++) {
		snprintf(extra[i].text, sizeof extra[i].text, "BM=%d BN=16 BK=8 TM=4 TN=2", 100 + i);
		extra[i].job.cubin = (void *)cubin;
	}
	extra[NCAND].job.rc = DLB_E_NVRTC;
	extra[NCAND].job.log = "error: expected a ';'";
	extra[NCAND + 1].job.rc = DLB_E_LIMIT;

	struct dlb_device dev = {.ordinal = 0, .name = "Fake GPU", .uuid = "GPU-fake", .cc_major = 9, .sm_count = 132,
				 .clock_khz = 1980000, .max_threads_per_block = 1024, .regs_per_block = 65536,
				 .smem_per_block = 48 << 10, .smem_per_block_optin = 227 << 10, .total_mem = 1ull << 34};
	struct dlb_problem p = {&dlb_op_gemm, DLB_PREC_FP32, {64, 64, 64, 0, 0}, 0};
	struct dlb_suite suite = {.name = "fake", .problems = &p, .n = 1};
	struct dlb_result res = {0};
	struct dlb_tune_opts o = {.sample = {.warmup = 1, .min_sample_us = 20, .confidence = 0.95},
				  .vendor = {.warmup = 1, .samples = 5, .min_sample_us = 20, .confidence = 0.95},
				  .paired = 5, .extra = extra, .nextra = NEXTRA, .only_extra = 1, .worker = fake_worker,
				  .floor_s = 0.5};

	dlb_search_defaults(&o.search);
	o.search.strategy = DLB_STRAT_EXHAUSTIVE; /* in order: the interrupt below lands on candidate 3 */
	dlb_race_defaults(&o.race);

	/* 1. Every kind of fault, in one search. */
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = dlb_tune(&o, &suite, &dev, 1, db, &res);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	CHECK(rc == 0, "dlb_tune: %d %s", rc, dlb_last_error());
	CHECK(secs < 10, "the search took %.1f s: a hang was not cut at its limit", secs);
	errno = 0;
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD, "a worker was left behind");
	struct dlb_result got = {0};
	REQUIRE(dlb_result_load(db, res.key, 1, &got) == 0, "no stored result: %s", dlb_last_error());
	CHECK_EQ_INT(got.found, 1);
	CHECK_EQ_STR(got.config, "BM=100 BN=16 BK=8 TM=4 TN=2 SPLITK=1"); /* the fastest good one */
	CHECK_EQ_INT(got.nvendor, 1);
	/* the side-by-side timing asked for the winner and the vendor best, and is stored */
	CHECK_EQ_INT(got.paired.n, 5);
	CHECK_EQ_STR(got.paired.vendor, "cublasSgemm");
	CHECK_NEAR(got.paired.speedup.median, 1.2, 1e-12);
	CHECK_NEAR(got.paired.tuned.median, 10.0, 0);
	CHECK_NEAR(got.paired.vendor_st.median, 12.0, 1e-12);
	CHECK(got.paired.speedup.median_lo <= 1.2 && got.paired.speedup.median_hi >= 1.2 &&
		      got.paired.speedup.median_hi <= 1.212 + 1e-12,
	      "paired CI [%g, %g]", got.paired.speedup.median_lo, got.paired.speedup.median_hi);
	static const enum dlb_status want[NB] = {
		[OK] = DLB_ST_OK,           [LIMIT] = DLB_ST_RESOURCE_LIMIT,   [CRASH] = DLB_ST_RUNTIME_FAULT,
		[HANG] = DLB_ST_TIMEOUT,    [GARBAGE] = DLB_ST_RUNTIME_FAULT,  [HALF] = DLB_ST_RUNTIME_FAULT,
		[STICKY] = DLB_ST_RUNTIME_FAULT, [WRONG] = DLB_ST_WRONG_ANSWER, [CUDA_ERR] = DLB_ST_RUNTIME_FAULT,
		[HANG_TIMING] = DLB_ST_TIMEOUT, [SLOW_OK] = DLB_ST_OK};
	static const char *const said[NB] = {[CRASH] = "signal 6",      [HANG] = "no reply within",
					     [GARBAGE] = "protocol",       [HALF] = "died",
					     [STICKY] = "IllegalAddress", [CUDA_ERR] = "LaunchFailure",
					     [HANG_TIMING] = "no reply within", [LIMIT] = "threads per block"};
	CHECK_EQ_INT(got.ntrials, NEXTRA);
	for (int i = 0; i < got.ntrials; i++) {
		const struct dlb_trial *t = &got.trials[i];
		int idx = atoi(t->config + 3) - 100;
		if (idx < 0 || idx >= NEXTRA) {
			CHECK(0, "unexpected trial %s", t->config);
			continue;
		}
		if (idx == NCAND) {
			CHECK(t->status == DLB_ST_COMPILE_ERROR, "%s: %s", t->config, dlb_status_name(t->status));
			CHECK_HAS(t->error, "expected a ';'");
			continue;
		}
		if (idx == NCAND + 1) {
			CHECK(t->status == DLB_ST_RESOURCE_LIMIT, "%s: %s", t->config, dlb_status_name(t->status));
			continue;
		}
		enum behaviour b = plan[idx];
		CHECK(t->status == want[b], "candidate %d (%s): status %s, expected %s", idx, names[b],
		      dlb_status_name(t->status), dlb_status_name(want[b]));
		if (said[b])
			CHECK(strstr(t->error, said[b]), "candidate %d (%s): error \"%s\" lacks \"%s\"", idx, names[b], t->error,
			      said[b]);
	}
	CHECK_EQ_INT(got.counts[DLB_ST_TIMEOUT], 2);
	CHECK_EQ_INT(got.counts[DLB_ST_RUNTIME_FAULT], 5);
	dlb_result_free(&got);
	printf("every fault recorded in %.2f s\n", secs);

	/* 2. Interrupted while candidate 3 hangs (its limit is long this time): the trials finished before it are
	 * stored, the worker is reaped; the rerun verifies only what had not been verified. */
	struct dlb_problem p2 = {&dlb_op_gemm, DLB_PREC_FP32, {128, 64, 64, 0, 0}, 0};
	suite.problems = &p2;
	o.floor_s = 60; /* the hang is ended by the interrupt, not by its limit */
	unlink(verify_log);
	signal(SIGALRM, on_alarm);
	alarm(2);
	memset(&res, 0, sizeof res);
	rc = dlb_tune(&o, &suite, &dev, 1, db, &res);
	CHECK_EQ_INT(rc, DLB_E_INTERRUPTED);
	errno = 0;
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD, "a worker was left behind after the interrupt");
	struct dlb_trial *stored = NULL;
	int nstored = 0;
	char key[600];
	REQUIRE(dlb_problem_key(&dev, 0, &p2, NULL, key, sizeof key) == 0, "key");
	CHECK_EQ_INT(dlb_trials_load(db, key, &stored, &nstored), 0);
	/* candidates 0, 1 (refused when its variants were asked) and 2, and the two that never compiled: those are
	 * known before the search starts */
	CHECK_EQ_INT(nstored, 5);
	free(stored);
	int before = count_lines(verify_log, 0);
	CHECK_EQ_INT(before, 1);
	CHECK_EQ_INT(count_lines(verify_log, 3), 1);
	dlb_interrupted = 0;
	o.floor_s = 0.5;
	memset(&res, 0, sizeof res);
	rc = dlb_tune(&o, &suite, &dev, 1, db, &res);
	CHECK(rc == 0, "resumed dlb_tune: %d %s", rc, dlb_last_error());
	CHECK_EQ_INT(count_lines(verify_log, 0), 1); /* not verified again */
	CHECK_EQ_INT(count_lines(verify_log, 2), 1); /* its crash is on record */
	CHECK_EQ_INT(count_lines(verify_log, 3), 2); /* the one interrupted is measured now */
	memset(&got, 0, sizeof got);
	CHECK_EQ_INT(dlb_result_load(db, res.key, 1, &got), 0);
	CHECK_EQ_INT(got.found, 1);
	CHECK_EQ_INT(got.ntrials, NEXTRA);
	dlb_result_free(&got);
	errno = 0;
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD, "a worker was left behind");

	/* 3. A restricted search (--only; src/kernels.c leaves the rest out as it leaves out candidate 0 here)
	 * stores its result and trials under a key of its own (only=BM=1) and nothing for what it left out, and
	 * nothing under the problem's own key; the full search after it measures candidate 0, the fastest, and
	 * stores it as the best. */
	struct dlb_problem p3 = {&dlb_op_gemm, DLB_PREC_FP32, {192, 64, 64, 0, 0}, 0};
	suite.problems = &p3;
	unlink(verify_log);
	extra[0].left_out = 1;
	extra[0].job.rc = DLB_E_LIMIT;
	o.only = "BM=1";
	memset(&res, 0, sizeof res);
	rc = dlb_tune(&o, &suite, &dev, 1, db, &res);
	CHECK(rc == 0, "restricted dlb_tune: %d %s", rc, dlb_last_error());
	CHECK_EQ_INT(res.found, 1);
	CHECK(strncmp(res.config, "BM=100 ", 7) != 0, "the restricted search ran the one it left out: %s", res.config);
	REQUIRE(dlb_problem_key(&dev, 0, &p3, "BM=1", key, sizeof key) == 0, "key");
	CHECK(!strcmp(res.key, key) && strstr(key, "|only=BM=1"), "the restricted search's key: %s", res.key);
	memset(&got, 0, sizeof got);
	CHECK_EQ_INT(dlb_result_load(db, key, 1, &got), 0);
	CHECK_EQ_STR(got.config, res.config);
	dlb_result_free(&got);
	stored = NULL;
	nstored = 0;
	CHECK_EQ_INT(dlb_trials_load(db, key, &stored, &nstored), 0);
	CHECK_EQ_INT(nstored, NEXTRA - 1);
	for (int i = 0; i < nstored; i++)
		CHECK(strncmp(stored[i].config, "BM=100 ", 7) != 0, "a trial of the configuration left out: %s (%s)",
		      stored[i].config, dlb_status_name(stored[i].status));
	free(stored);
	REQUIRE(dlb_problem_key(&dev, 0, &p3, NULL, key, sizeof key) == 0, "key");
	memset(&got, 0, sizeof got);
	CHECK_EQ_INT(dlb_result_load(db, key, 1, &got), DLB_E_NOTFOUND); /* the problem's own: untouched */
	stored = NULL;
	nstored = 0;
	CHECK(dlb_trials_load(db, key, &stored, &nstored) == 0 && nstored == 0, "%d trials under the whole space's key",
	      nstored);
	free(stored);
	CHECK_EQ_INT(count_lines(verify_log, 0), 0);
	extra[0].left_out = 0;
	extra[0].job.rc = 0;
	o.only = NULL;
	memset(&res, 0, sizeof res);
	rc = dlb_tune(&o, &suite, &dev, 1, db, &res);
	CHECK(rc == 0, "full dlb_tune: %d %s", rc, dlb_last_error());
	CHECK_EQ_INT(count_lines(verify_log, 0), 1);
	memset(&got, 0, sizeof got);
	CHECK_EQ_INT(dlb_result_load(db, res.key, 1, &got), 0);
	CHECK_EQ_STR(got.config, "BM=100 BN=16 BK=8 TM=4 TN=2 SPLITK=1");
	CHECK_EQ_INT(got.counts[DLB_ST_RESOURCE_LIMIT], 2); /* candidate 1 and the one over the limits, not 0 */
	dlb_result_free(&got);
	errno = 0;
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD, "a worker was left behind");

	/* 4. Two GPUs (--devices): one driver process each takes the next problem; every problem is tuned once,
	 * stored under the key of the GPU that ran it, and said to have run there. */
	struct dlb_device devs[2] = {dev, dev};
	devs[1].ordinal = 1;
	snprintf(devs[1].uuid, sizeof devs[1].uuid, "GPU-fake-2");
	struct dlb_problem many[6];
	struct dlb_result mres[6];
	for (int i = 0; i < 6; i++)
		many[i] = (struct dlb_problem){&dlb_op_gemm, DLB_PREC_FP32, {64 + 32 * i, 32, 64, 0, 0}, 0};
	suite.problems = many;
	suite.n = 6;
	o.nextra = 1; /* candidate 0 alone: a good one */
	unlink(verify_log);
	rc = dlb_tune(&o, &suite, devs, 2, db, mres);
	CHECK(rc == 0, "dlb_tune on two GPUs: %d %s", rc, dlb_last_error());
	CHECK_EQ_INT(count_lines(verify_log, 0), 6); /* each problem once */
	for (int i = 0; i < 6; i++) {
		CHECK(mres[i].ran_on == 1 || mres[i].ran_on == 2, "problem %d: ran_on %d", i, mres[i].ran_on);
		CHECK(mres[i].found && !mres[i].failed && !mres[i].cached, "problem %d: found %d failed %d", i,
		      mres[i].found, mres[i].failed);
		if (mres[i].ran_on < 1 || mres[i].ran_on > 2)
			continue;
		REQUIRE(dlb_problem_key(&devs[mres[i].ran_on - 1], 0, &many[i], NULL, key, sizeof key) == 0, "key");
		memset(&got, 0, sizeof got);
		CHECK(dlb_result_load(db, key, 0, &got) == 0, "problem %d: not stored under GPU %d's key", i,
		      mres[i].ran_on - 1);
		CHECK_EQ_STR(got.config, "BM=100 BN=16 BK=8 TM=4 TN=2 SPLITK=1");
		dlb_result_free(&got);
	}
	errno = 0;
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD, "a driver or worker was left behind");
	/* the same run again: everything answered from the database, nothing verified */
	unlink(verify_log);
	rc = dlb_tune(&o, &suite, devs, 2, db, mres);
	CHECK(rc == 0, "second dlb_tune on two GPUs: %d %s", rc, dlb_last_error());
	CHECK_EQ_INT(count_lines(verify_log, 0), 0);
	for (int i = 0; i < 6; i++)
		CHECK(mres[i].cached && !*mres[i].elsewhere, "problem %d not answered from the database (or said to be "
							    "measured elsewhere: %s)", i, mres[i].elsewhere);
	/* the two GPUs are one model: one key; --per-gpu keys them apart */
	char k0[600], k1[600];
	REQUIRE(dlb_problem_key(&devs[0], 0, &many[0], NULL, k0, sizeof k0) == 0 &&
			dlb_problem_key(&devs[1], 0, &many[0], NULL, k1, sizeof k1) == 0, "key");
	CHECK_EQ_STR(k0, k1);
	REQUIRE(dlb_problem_key(&devs[0], 1, &many[0], NULL, k0, sizeof k0) == 0 &&
			dlb_problem_key(&devs[1], 1, &many[0], NULL, k1, sizeof k1) == 0, "key");
	CHECK(strcmp(k0, k1) && strstr(k0, "|id=GPU-fake|"), "per-GPU keys: %s and %s", k0, k1);
	/* a third GPU of the model, alone: every result answers, labelled with the GPU that measured it */
	struct dlb_device third = dev;
	snprintf(third.uuid, sizeof third.uuid, "GPU-fake-3");
	unlink(verify_log);
	rc = dlb_tune(&o, &suite, &third, 1, db, mres);
	CHECK(rc == 0, "dlb_tune on a third GPU: %d %s", rc, dlb_last_error());
	CHECK_EQ_INT(count_lines(verify_log, 0), 0);
	for (int i = 0; i < 6; i++)
		CHECK(mres[i].cached && !strncmp(mres[i].elsewhere, "GPU-fake", 8) && strcmp(mres[i].elsewhere, "GPU-fake-3"),
		      "problem %d on a third GPU: cached %d, measured on '%s'", i, mres[i].cached, mres[i].elsewhere);
	/* --per-gpu on it: nothing of the others answers */
	o.per_gpu = 1;
	o.nextra = 1;
	suite.n = 1;
	rc = dlb_tune(&o, &suite, &third, 1, db, mres);
	CHECK(rc == 0 && !mres[0].cached && mres[0].found, "--per-gpu: cached %d found %d (%s)", mres[0].cached,
	      mres[0].found, dlb_last_error());
	o.per_gpu = 0;
	suite.n = 6;

	/* 5. Interrupted on two GPUs while both hang in candidate 3: the parent hears of it, the drivers stop, what
	 * finished is stored, no process is left. */
	for (int i = 0; i < 6; i++)
		many[i].dim[1] = 48;
	o.nextra = NEXTRA;
	o.floor_s = 60;
	signal(SIGINT, on_alarm); /* as dlbtune's main does: the parent passes the interrupt on to the drivers */
	alarm(2);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = dlb_tune(&o, &suite, devs, 2, db, mres);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	CHECK(rc == DLB_E_INTERRUPTED, "interrupted on two GPUs: %d %s", rc, dlb_last_error());
	CHECK(secs < 20, "two drivers took %.1f s to stop after the interrupt", secs);
	errno = 0;
	CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD, "a driver or worker was left behind after the interrupt");
	int started = 0;
	for (int g = 0; g < 1; g++) /* one model: one key for both GPUs */
		for (int i = 0; i < 6; i++) {
			REQUIRE(dlb_problem_key(&devs[g], 0, &many[i], NULL, key, sizeof key) == 0, "key");
			stored = NULL;
			nstored = 0;
			CHECK_EQ_INT(dlb_trials_load(db, key, &stored, &nstored), 0);
			started += nstored == 5; /* as in part 2 */
			free(stored);
		}
	CHECK_EQ_INT(started, 2);
	dlb_interrupted = 0;

	dlb_store_close(db);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK_EQ_INT(system(cmd), 0);
	return TEST_DONE();
}
