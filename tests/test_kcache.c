/* test_kcache: the kernel cache without NVRTC or a GPU. Keys differ whenever anything that changes the binary
 * does (op, precision, target, NVRTC, options, template, defines, configuration); a stored cubin and a stored
 * failure come back byte for byte; a job without a verdict is not stored; an entry with a flipped byte, cut
 * short, holding another key or built from other defines is reported damaged, never returned; two processes
 * writing the same keys at once leave every entry whole. */
#include "../src/err.h"
#include "../src/kernels.h"
#include "../store/kcache.h"
#include "../store/store.h"
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *DEFS = "#define BM 64\n#define BN 32\n";

static int key_of(char *out, const char *op, const char *prec, const char *arch, const char *compiler,
		  const char *options, uint64_t tpl, const char *defines, const char *config)
{
	return dlb_kcache_key(op, prec, arch, compiler, options, tpl, defines, config, out, DLB_KCACHE_KEY_MAX);
}

/* A fake compiled job: n cubin bytes from seed, a log, one kernel report. */
static void fake_job(struct dlb_jit_job *j, size_t n, unsigned seed)
{
	memset(j, 0, sizeof *j);
	j->cubin = malloc(n);
	j->cubin_size = n;
	for (size_t i = 0; i < n; i++)
		((unsigned char *)j->cubin)[i] = (unsigned char)((i * 2654435761u + seed) >> 13);
	j->log = strdup("ptxas info: 0 bytes spill");
	j->verdict = 1;
	j->nkernels = 1;
	j->kernels[0].registers = 168;
	j->seconds = 1.5;
}

struct put_one {
	const char *key;
	const void *v;
	size_t len;
};

static int put_raw(struct dlb_txn *t, void *arg)
{
	struct put_one *p = arg;
	return dlb_txn_put_bin(t, DLB_T_KERNELS, p->key, p->v, p->len);
}

/* One of two processes: 40 rounds of writing the same 8 keys (in one transaction per round), then checking
 * what it reads back. */
static int writer(const char *dir, unsigned seed)
{
	struct dlb_store *kc;
	if (dlb_kcache_open(dir, 0, &kc))
		return 2;
	char keys[8][DLB_KCACHE_KEY_MAX], *kp[8], *dp[8];
	struct dlb_jit_job jobs[8], *jp[8];
	for (int i = 0; i < 8; i++) {
		char cfg[32];
		snprintf(cfg, sizeof cfg, "BM=%d", i);
		key_of(keys[i], "gemm", "fp16", "sm_90a", "nvrtc=13.0/1", "-O3", 7, DEFS, cfg);
		kp[i] = keys[i];
		dp[i] = (char *)DEFS;
		fake_job(&jobs[i], 20000 + 977 * (size_t)i, (unsigned)i); /* both writers store the same bytes */
		jp[i] = &jobs[i];
	}
	int bad = 0;
	for (int r = 0; r < 40 && !bad; r++) {
		if (dlb_kcache_put(kc, kp, dp, jp, 8))
			bad = 3;
		for (int i = 0; i < 8 && !bad; i++) {
			struct dlb_jit_job got = {0};
			int rc = dlb_kcache_get(kc, keys[i], DEFS, &got);
			if (rc == DLB_E_NOTFOUND && r == 0)
				continue;
			if (rc || got.cubin_size != jobs[i].cubin_size || memcmp(got.cubin, jobs[i].cubin, got.cubin_size))
				bad = 4;
			dlb_jit_job_free(&got);
		}
	}
	(void)seed;
	for (int i = 0; i < 8; i++)
		dlb_jit_job_free(&jobs[i]);
	dlb_store_close(kc);
	return bad;
}

int main(void)
{
	/* keys */
	char base[DLB_KCACHE_KEY_MAX], k[DLB_KCACHE_KEY_MAX];
	REQUIRE(key_of(base, "gemm", "fp16", "sm_90a", "nvrtc=13.0/109338064", "-O3 -std=c++17", 42, DEFS,
		       "BM=64 BN=32") == 0,
		"key");
	CHECK(!strncmp(base, "k1|gemm|fp16|sm_90a|nvrtc=13.0/109338064|opt=", 44) && strstr(base, "|BM=64 BN=32"),
	      "key layout: %s", base);
	key_of(k, "gemm", "fp16", "sm_90a", "nvrtc=13.0/109338064", "-O3 -std=c++17", 42, DEFS, "BM=64 BN=32");
	CHECK_EQ_STR(k, base);
	struct {
		const char *what, *op, *prec, *arch, *compiler, *options, *defines, *config;
		uint64_t tpl;
	} change[] = {
		{"op", "conv", "fp16", "sm_90a", "nvrtc=13.0/109338064", "-O3 -std=c++17", NULL, "BM=64 BN=32", 42},
		{"precision", "gemm", "int8", "sm_90a", "nvrtc=13.0/109338064", "-O3 -std=c++17", NULL, "BM=64 BN=32", 42},
		{"target", "gemm", "fp16", "sm_80", "nvrtc=13.0/109338064", "-O3 -std=c++17", NULL, "BM=64 BN=32", 42},
		{"NVRTC version", "gemm", "fp16", "sm_90a", "nvrtc=13.1/109338064", "-O3 -std=c++17", NULL, "BM=64 BN=32", 42},
		{"NVRTC library", "gemm", "fp16", "sm_90a", "nvrtc=13.0/109338065", "-O3 -std=c++17", NULL, "BM=64 BN=32", 42},
		{"an option", "gemm", "fp16", "sm_90a", "nvrtc=13.0/109338064", "-O2 -std=c++17", NULL, "BM=64 BN=32", 42},
		{"the template", "gemm", "fp16", "sm_90a", "nvrtc=13.0/109338064", "-O3 -std=c++17", NULL, "BM=64 BN=32", 43},
		{"a define", "gemm", "fp16", "sm_90a", "nvrtc=13.0/109338064", "-O3 -std=c++17", "#define BM 64\n#define BN 64\n",
		 "BM=64 BN=32", 42},
		{"the configuration", "gemm", "fp16", "sm_90a", "nvrtc=13.0/109338064", "-O3 -std=c++17", NULL, "BM=64 BN=64",
		 42},
	};
	for (size_t i = 0; i < sizeof change / sizeof *change; i++) {
		key_of(k, change[i].op, change[i].prec, change[i].arch, change[i].compiler, change[i].options, change[i].tpl,
		       change[i].defines ? change[i].defines : DEFS, change[i].config);
		CHECK(strcmp(k, base), "changing %s keeps the key %s", change[i].what, k);
	}
	char longcfg[600];
	memset(longcfg, 'x', sizeof longcfg - 1);
	longcfg[sizeof longcfg - 1] = 0;
	CHECK(key_of(k, "gemm", "fp16", "sm_90a", "nvrtc", "", 1, DEFS, longcfg) == DLB_E_USAGE, "a key too long");

	char dir[] = "/tmp/dlb_test_kcache.XXXXXX";
	REQUIRE(mkdtemp(dir), "mkdtemp");
	struct dlb_store *kc;
	REQUIRE(dlb_kcache_open(dir, 0, &kc) == 0, "open: %s", dlb_last_error());
	CHECK(dlb_store_has(kc, DLB_T_KERNELS) && !dlb_store_has(kc, DLB_T_TRIALS), "a kernel cache has its own tables");

	/* a miss, then a hit: the same bytes */
	struct dlb_jit_job got = {0}, good, failed = {0}, nov = {0};
	CHECK(dlb_kcache_get(kc, base, DEFS, &got) == DLB_E_NOTFOUND, "a miss");
	fake_job(&good, 300000, 1);
	char fkey[DLB_KCACHE_KEY_MAX], nkey[DLB_KCACHE_KEY_MAX];
	key_of(fkey, "gemm", "fp16", "sm_90a", "nvrtc=13.0/109338064", "-O3 -std=c++17", 42, DEFS, "BM=256 BN=256");
	key_of(nkey, "gemm", "fp16", "sm_90a", "nvrtc=13.0/109338064", "-O3 -std=c++17", 42, DEFS, "BM=128 BN=256");
	failed.rc = DLB_E_NVRTC;
	failed.verdict = 1; /* NVRTC said no: it would say so again */
	failed.log = strdup("candidate.cu(12): error: too many resources requested");
	nov.rc = DLB_E_NVRTC; /* no verdict: the compiler process died on it */
	nov.log = strdup("the compiler process was killed by signal 9");
	char *keys[] = {base, fkey, nkey}, *defs[] = {(char *)DEFS, (char *)DEFS, (char *)DEFS};
	struct dlb_jit_job *jobs[] = {&good, &failed, &nov};
	REQUIRE(dlb_kcache_put(kc, keys, defs, jobs, 3) == 0, "put: %s", dlb_last_error());
	CHECK(dlb_kcache_get(kc, base, DEFS, &got) == 0 && got.rc == 0 && got.verdict == 1 &&
		      got.cubin_size == good.cubin_size && !memcmp(got.cubin, good.cubin, good.cubin_size) &&
		      !strcmp(got.log, good.log) && got.nkernels == 1 && got.kernels[0].registers == 168 && got.seconds == 1.5,
	      "the hit is not what was stored");
	dlb_jit_job_free(&got);
	CHECK(dlb_kcache_get(kc, fkey, DEFS, &got) == 0 && got.rc == DLB_E_NVRTC && !got.cubin && got.log &&
		      strstr(got.log, "too many resources"),
	      "the failure was not kept with its log (rc %d)", got.rc);
	dlb_jit_job_free(&got);
	CHECK(dlb_kcache_get(kc, nkey, DEFS, &got) == DLB_E_NOTFOUND, "a job without a verdict was stored");
	CHECK(dlb_kcache_get(kc, base, "#define BM 64\n#define BN 64\n", &got) == DLB_E_CORRUPT &&
		      strstr(dlb_last_error(), "other defines"),
	      "an entry built from other defines was returned");

	/* damaged entries: a copy of the good one with one byte flipped, cut short, and under another key */
	void *v;
	size_t len;
	REQUIRE(dlb_store_get_bin(kc, DLB_T_KERNELS, base, &v, &len) == 0, "raw read");
	CHECK(dlb_kcache_check(v, len) == 0 && dlb_kcache_failed(v, len) == 0, "the raw entry checks");
	size_t at[] = {100, len / 2, len - 1};
	for (int i = 0; i < 3; i++) {
		char *w = malloc(len);
		memcpy(w, v, len);
		w[at[i]] ^= 0x10;
		struct put_one p = {base, w, len};
		REQUIRE(dlb_store_write(kc, put_raw, &p) == 0, "raw write");
		CHECK(dlb_kcache_get(kc, base, DEFS, &got) == DLB_E_CORRUPT, "byte %zu flipped: not reported", at[i]);
		CHECK(dlb_kcache_check(w, len) == DLB_E_CORRUPT && dlb_kcache_failed(w, len) == -1, "check of a flip");
		free(w);
	}
	struct put_one cut = {base, v, len - 1000};
	REQUIRE(dlb_store_write(kc, put_raw, &cut) == 0, "raw write");
	CHECK(dlb_kcache_get(kc, base, DEFS, &got) == DLB_E_CORRUPT, "an entry cut short was returned");
	struct put_one tiny = {base, v, 20};
	REQUIRE(dlb_store_write(kc, put_raw, &tiny) == 0, "raw write");
	CHECK(dlb_kcache_get(kc, base, DEFS, &got) == DLB_E_CORRUPT, "a 20-byte entry was returned");
	struct put_one moved = {fkey, v, len};
	REQUIRE(dlb_store_write(kc, put_raw, &moved) == 0, "raw write");
	CHECK(dlb_kcache_get(kc, fkey, DEFS, &got) == DLB_E_CORRUPT && strstr(dlb_last_error(), "another key"),
	      "an entry under another key was returned");
	/* written again: whole again */
	REQUIRE(dlb_kcache_put(kc, keys, defs, jobs, 1) == 0, "put again");
	CHECK(dlb_kcache_get(kc, base, DEFS, &got) == 0 && got.cubin_size == good.cubin_size, "rewritten entry");
	dlb_jit_job_free(&got);
	free(v);
	dlb_jit_job_free(&good);
	dlb_jit_job_free(&failed);
	dlb_jit_job_free(&nov);
	dlb_store_close(kc);

	/* a read-only open of the same cache reads without a write transaction */
	REQUIRE(dlb_kcache_open(dir, 1, &kc) == 0, "read-only open: %s", dlb_last_error());
	CHECK(dlb_kcache_get(kc, base, DEFS, &got) == 0, "read-only hit");
	dlb_jit_job_free(&got);
	dlb_store_close(kc);

	/* db gc: none of these entries is of this build (a made-up template and compiler), nor is a key of
	 * another format; a dry run drops nothing */
	REQUIRE(dlb_kcache_open(dir, 0, &kc) == 0, "open: %s", dlb_last_error());
	struct put_one odd = {"not a kernel key", "x", 1};
	REQUIRE(dlb_store_write(kc, put_raw, &odd) == 0, "raw write");
	struct dlb_kcache_stats st;
	REQUIRE(dlb_kcache_stats(kc, &st) == 0, "stats");
	/* base (whole), fkey (the good entry moved under it: its own checks pass, the key check does not), odd */
	CHECK(st.entries == 3 && st.failed == 0 && st.damaged == 1 && st.bytes > 600000,
	      "stats: %zu entries, %zu failed, %zu damaged, %zu bytes", st.entries, st.failed, st.damaged, st.bytes);
	int dropped = -1, total = -1;
	CHECK(dlb_kernels_cache_gc(kc, 1, &dropped, &total) == 0 && dropped == 3 && total == 3,
	      "gc dry run: %d of %d (%s)", dropped, total, dlb_last_error());
	CHECK(dlb_kcache_stats(kc, &st) == 0 && st.entries == 3, "the dry run dropped something");
	CHECK(dlb_kernels_cache_gc(kc, 0, &dropped, &total) == 0 && dropped == 3 && total == 3, "gc: %d of %d",
	      dropped, total);
	CHECK(dlb_kcache_stats(kc, &st) == 0 && st.entries == 0, "after gc: %zu entries", st.entries);
	dlb_store_close(kc);

	/* two processes writing the same keys at once */
	char dir2[] = "/tmp/dlb_test_kcache2.XXXXXX";
	REQUIRE(mkdtemp(dir2), "mkdtemp");
	fflush(NULL);
	pid_t pid[2];
	for (int i = 0; i < 2; i++) {
		pid[i] = fork();
		REQUIRE(pid[i] >= 0, "fork");
		if (pid[i] == 0)
			_exit(writer(dir2, (unsigned)i));
	}
	for (int i = 0; i < 2; i++) {
		int ws = 0;
		waitpid(pid[i], &ws, 0);
		CHECK(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "writer %d: status %d", i, ws);
	}
	CHECK(writer(dir2, 2) == 0, "after both: every entry whole");

	/* claims (--devices: processes sharing a cache compile a candidate once) */
	REQUIRE(dlb_kcache_open(dir2, 0, &kc) == 0, "open: %s", dlb_last_error());
	char ckey[] = "k1|gemm|fp16|sm_90a|claimed";
	char *ckeys[1] = {ckey};
	CHECK(dlb_kcache_claimed(kc, ckey) == 0, "a claim nobody made");
	REQUIRE(dlb_kcache_claim(kc, ckey) == 0, "claim: %s", dlb_last_error());
	CHECK(dlb_kcache_claimed(kc, ckey) == 0, "our own claim counts as another's");
	fflush(NULL);
	pid_t cp = fork(); /* another process sees the claim of a live one */
	REQUIRE(cp >= 0, "fork");
	if (cp == 0) {
		struct dlb_store *k2 = NULL;
		int seen = dlb_kcache_open(dir2, 0, &k2) == 0 && dlb_kcache_claimed(k2, ckey) == 1;
		dlb_store_close(k2);
		_exit(seen ? 0 : 1);
	}
	int cs = 0;
	waitpid(cp, &cs, 0);
	CHECK(WIFEXITED(cs) && WEXITSTATUS(cs) == 0, "another process does not see the claim");
	/* storing the entry drops the claim */
	char clog[] = "error";
	struct dlb_jit_job cj = {.rc = DLB_E_NVRTC, .verdict = 1, .log = clog};
	struct dlb_jit_job *cjobs[1] = {&cj};
	char *cdefs[1] = {(char *)DEFS};
	REQUIRE(dlb_kcache_put(kc, ckeys, cdefs, cjobs, 1) == 0, "put: %s", dlb_last_error());
	char *cv = NULL;
	CHECK(dlb_store_get(kc, DLB_T_META, "claim|k1|gemm|fp16|sm_90a|claimed", &cv) == DLB_E_NOTFOUND,
	      "the put left the claim: %s", cv ? cv : "");
	free(cv);
	/* a claim of a process that is gone counts for nothing; unclaim drops only our own */
	cp = fork();
	REQUIRE(cp >= 0, "fork");
	if (cp == 0) {
		struct dlb_store *k2 = NULL;
		int ok = dlb_kcache_open(dir2, 0, &k2) == 0 && dlb_kcache_claim(k2, ckey) == 0;
		dlb_store_close(k2);
		_exit(ok ? 0 : 1);
	}
	waitpid(cp, &cs, 0);
	CHECK(WIFEXITED(cs) && WEXITSTATUS(cs) == 0, "the child's claim");
	CHECK(dlb_kcache_claimed(kc, ckey) == 0, "the claim of a process that is gone counts");
	REQUIRE(dlb_kcache_unclaim(kc, ckeys, 1) == 0, "unclaim");
	cv = NULL;
	CHECK(dlb_store_get(kc, DLB_T_META, "claim|k1|gemm|fp16|sm_90a|claimed", &cv) == 0, "unclaim dropped another's");
	free(cv);
	REQUIRE(dlb_kcache_claim(kc, ckey) == 0 && dlb_kcache_unclaim(kc, ckeys, 1) == 0, "claim, unclaim");
	CHECK(dlb_store_get(kc, DLB_T_META, "claim|k1|gemm|fp16|sm_90a|claimed", &cv) == DLB_E_NOTFOUND,
	      "unclaim left our claim");
	dlb_store_close(kc);
	char cmd[200];
	snprintf(cmd, sizeof cmd, "rm -rf %s %s", dir, dir2);
	if (system(cmd))
		printf("could not remove %s\n", dir);
	return TEST_DONE();
}
