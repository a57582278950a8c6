/* kcache: keys, the entry's binary layout and its checks. The LMDB side is store.c's (DLB_STORE_KERNELS). */
#include "kcache.h"

#include "../src/err.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* An entry: this head, then its key, its define block, the cubin and the log (no terminators). Host byte
 * order: a cache copied to a machine of the other byte order fails the magic and is compiled again. */
struct head {
	char magic[8];
	uint64_t sum; /* FNV-1a of every byte after this field */
	uint32_t key_len, defines_len, cubin_len, log_len;
	int32_t rc, nkernels;
	double seconds;
	struct dlb_kernel_report kernels[DLB_JIT_MAX_KERNELS];
};
static const char magic[8] = "dlbkc01";

int dlb_kcache_key(const char *op, const char *prec, const char *arch, const char *compiler, const char *options,
		   uint64_t tpl_hash, const char *defines, const char *config, char *key, size_t len)
{
	int n = snprintf(key, len, "k1|%s|%s|%s|%s|opt=%016llx|tpl=%016llx|def=%016llx|%s", op, prec, arch, compiler,
			 (unsigned long long)dlb_hash64(options, strlen(options)), (unsigned long long)tpl_hash,
			 (unsigned long long)dlb_hash64(defines, strlen(defines)), config);
	return n < 0 || (size_t)n >= len ? DLB_E_USAGE : 0;
}

int dlb_kcache_open(const char *db_dir, int rdonly, struct dlb_store **out)
{
	int rc = 0;
	char dir[4200];
	if (snprintf(dir, sizeof dir, "%s/kernels", db_dir) >= (int)sizeof dir)
		DLB_USER_FAIL(ENAMETOOLONG, "database path too long");
	DLB_CHECK(dlb_store_open(dir, DLB_STORE_KERNELS | (rdonly ? DLB_STORE_RDONLY : DLB_STORE_CREATE), out));
fail:
	return rc;
}

static uint64_t sum_of(const void *value, size_t len)
{
	size_t from = offsetof(struct head, sum) + sizeof(uint64_t);
	return dlb_hash64((const char *)value + from, len - from);
}

int dlb_kcache_check(const void *value, size_t len)
{
	int rc = 0;
	struct head h;
	if (len < sizeof h)
		DLB_FAIL(DLB_E_CORRUPT, "%zu bytes, shorter than an entry's head", len);
	memcpy(&h, value, sizeof h);
	if (memcmp(h.magic, magic, sizeof magic))
		DLB_FAIL(DLB_E_CORRUPT, "not a kernel cache entry of this format");
	if ((uint64_t)sizeof h + h.key_len + h.defines_len + h.cubin_len + h.log_len != len)
		DLB_FAIL(DLB_E_CORRUPT, "%zu bytes where its head counts %llu", len,
			 (unsigned long long)sizeof h + h.key_len + h.defines_len + h.cubin_len + h.log_len);
	if (h.nkernels < 0 || h.nkernels > DLB_JIT_MAX_KERNELS || (h.rc == 0) != (h.cubin_len > 0))
		DLB_FAIL(DLB_E_CORRUPT, "its head is inconsistent (rc %d, %u cubin bytes)", h.rc, h.cubin_len);
	if (sum_of(value, len) != h.sum)
		DLB_FAIL(DLB_E_CORRUPT, "checksum mismatch: its bytes changed after it was written");
fail:
	return rc;
}

int dlb_kcache_failed(const void *value, size_t len)
{
	struct head h;
	if (dlb_kcache_check(value, len))
		return -1;
	memcpy(&h, value, sizeof h);
	return h.rc != 0;
}

int dlb_kcache_get(struct dlb_store *kc, const char *key, const char *defines, struct dlb_jit_job *job)
{
	int rc = 0;
	void *v = NULL;
	size_t len = 0;
	struct head h;
	rc = dlb_store_get_bin(kc, DLB_T_KERNELS, key, &v, &len);
	if (rc)
		goto fail;
	if ((rc = dlb_kcache_check(v, len)) != 0) {
		char why[512];
		snprintf(why, sizeof why, "%s", dlb_last_error());
		DLB_FAIL(DLB_E_CORRUPT, "kernel cache entry %.200s: %s", key, why);
	}
	memcpy(&h, v, sizeof h);
	const char *p = (const char *)v + sizeof h;
	if (h.key_len != strlen(key) || memcmp(p, key, h.key_len))
		DLB_FAIL(DLB_E_CORRUPT, "kernel cache entry %.200s holds another key", key);
	p += h.key_len;
	if (h.defines_len != strlen(defines) || memcmp(p, defines, h.defines_len))
		DLB_FAIL(DLB_E_CORRUPT, "kernel cache entry %.200s was compiled from other defines", key);
	p += h.defines_len;
	job->rc = h.rc;
	job->verdict = 1;
	job->seconds = h.seconds;
	job->nkernels = h.nkernels;
	memcpy(job->kernels, h.kernels, sizeof job->kernels);
	job->cubin = NULL;
	job->cubin_size = h.cubin_len;
	job->log = malloc((size_t)h.log_len + 1);
	if (h.cubin_len && (job->cubin = malloc(h.cubin_len)) != NULL)
		memcpy(job->cubin, p, h.cubin_len);
	if (!job->log || (h.cubin_len && !job->cubin)) {
		dlb_jit_job_free(job);
		DLB_FAIL(ENOMEM, "out of memory reading the kernel cache");
	}
	p += h.cubin_len;
	memcpy(job->log, p, h.log_len);
	job->log[h.log_len] = 0;
fail:
	free(v);
	return rc;
}

#define CLAIM_TTL_S 3600

static void claim_key(const char *key, char *buf, size_t len)
{
	snprintf(buf, len, "claim|%s", key);
}

struct claim_ctx {
	char *const *keys;
	int n, drop_any; /* drop_any: whoever claimed them (a stored entry); else only this process's claims */
};

static int unclaim_fn(struct dlb_txn *t, void *arg)
{
	int rc = 0;
	struct claim_ctx *x = arg;
	char ck[DLB_KCACHE_KEY_MAX + 16], *v = NULL;
	for (int i = 0; i < x->n; i++) {
		claim_key(x->keys[i], ck, sizeof ck);
		rc = dlb_txn_get(t, DLB_T_META, ck, &v);
		if (rc == DLB_E_NOTFOUND) {
			rc = 0;
			continue;
		}
		DLB_CHECK(rc);
		if (x->drop_any || atol(v) == (long)getpid())
			DLB_CHECK(dlb_txn_del(t, DLB_T_META, ck));
		free(v);
		v = NULL;
	}
fail:
	free(v);
	return rc;
}

int dlb_kcache_claim(struct dlb_store *kc, const char *key)
{
	char ck[DLB_KCACHE_KEY_MAX + 16], val[64];
	claim_key(key, ck, sizeof ck);
	snprintf(val, sizeof val, "%ld %lld", (long)getpid(), (long long)time(NULL));
	return dlb_store_put(kc, DLB_T_META, ck, val);
}

int dlb_kcache_claimed(struct dlb_store *kc, const char *key)
{
	char ck[DLB_KCACHE_KEY_MAX + 16], *v = NULL;
	long pid = 0;
	long long at = 0;
	claim_key(key, ck, sizeof ck);
	if (dlb_store_get(kc, DLB_T_META, ck, &v))
		return 0;
	int ok = sscanf(v, "%ld %lld", &pid, &at) == 2;
	free(v);
	if (!ok || pid <= 0 || pid == (long)getpid() || (long long)time(NULL) - at > CLAIM_TTL_S)
		return 0;
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

int dlb_kcache_unclaim(struct dlb_store *kc, char *const *keys, int n)
{
	struct claim_ctx x = {keys, n, 0};
	return n > 0 ? dlb_store_write(kc, unclaim_fn, &x) : 0;
}

struct put_ctx {
	char *const *keys, *const *defines;
	struct dlb_jit_job *const *jobs;
	int n;
};

static int put_fn(struct dlb_txn *t, void *arg)
{
	int rc = 0;
	struct put_ctx *x = arg;
	for (int i = 0; i < x->n; i++) {
		const struct dlb_jit_job *j = x->jobs[i];
		if (!j->verdict)
			continue;
		const char *log = j->log ? j->log : "";
		struct head h = {.key_len = (uint32_t)strlen(x->keys[i]), .defines_len = (uint32_t)strlen(x->defines[i]),
				 .cubin_len = j->rc ? 0 : (uint32_t)j->cubin_size, .log_len = (uint32_t)strlen(log),
				 .rc = j->rc, .nkernels = j->nkernels, .seconds = j->seconds};
		memcpy(h.magic, magic, sizeof magic);
		memcpy(h.kernels, j->kernels, sizeof h.kernels);
		size_t len = sizeof h + h.key_len + h.defines_len + h.cubin_len + h.log_len;
		char *v = malloc(len), *p = v;
		if (!v)
			DLB_FAIL(ENOMEM, "out of memory writing the kernel cache");
		memcpy(p, &h, sizeof h);
		p += sizeof h;
		memcpy(p, x->keys[i], h.key_len);
		p += h.key_len;
		memcpy(p, x->defines[i], h.defines_len);
		p += h.defines_len;
		if (h.cubin_len)
			memcpy(p, j->cubin, h.cubin_len);
		p += h.cubin_len;
		memcpy(p, log, h.log_len);
		h.sum = sum_of(v, len);
		memcpy(v + offsetof(struct head, sum), &h.sum, sizeof h.sum);
		rc = dlb_txn_put_bin(t, DLB_T_KERNELS, x->keys[i], v, len);
		free(v);
		DLB_CHECK(rc);
		struct claim_ctx c = {&x->keys[i], 1, 1}; /* stored: whoever claimed it need not wait any more */
		DLB_CHECK(unclaim_fn(t, &c));
	}
fail:
	return rc;
}

int dlb_kcache_put(struct dlb_store *kc, char *const *keys, char *const *defines, struct dlb_jit_job *const *jobs,
		   int n)
{
	struct put_ctx x = {keys, defines, jobs, n};
	return n > 0 ? dlb_store_write(kc, put_fn, &x) : 0;
}

static int stats_fn(const char *k, size_t kl, const char *v, size_t vl, void *arg)
{
	(void)k, (void)kl;
	struct dlb_kcache_stats *st = arg;
	int failed = dlb_kcache_failed(v, vl);
	st->entries++;
	st->bytes += vl;
	st->damaged += failed < 0;
	st->failed += failed > 0;
	return 0;
}

int dlb_kcache_stats(struct dlb_store *kc, struct dlb_kcache_stats *st)
{
	memset(st, 0, sizeof *st);
	return dlb_store_each(kc, DLB_T_KERNELS, "", stats_fn, st);
}

int dlb_kcache_key_parse(const char *key, size_t len, struct dlb_kcache_key_fields *f)
{
	char *out[] = {NULL, f->op, f->prec, f->arch, f->compiler, f->opt, f->tpl};
	size_t at = 0;
	memset(f, 0, sizeof *f);
	for (int i = 0; i < 7; i++) {
		size_t end = at;
		while (end < len && key[end] != '|')
			end++;
		if (end >= len || end - at >= 64)
			return DLB_E_PARSE;
		if (i == 0 && (end - at != 2 || memcmp(key, "k1", 2)))
			return DLB_E_PARSE;
		if (out[i])
			memcpy(out[i], key + at, end - at);
		at = end + 1;
	}
	return 0;
}
