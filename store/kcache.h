/* kcache: the kernel cache. Each compiled candidate (its cubin and ptxas report) and each candidate NVRTC
 * rejected (its log) is kept under a key made of everything that changes the binary, in an LMDB environment
 * of its own beside the results: <database>/kernels (docs/DATABASE.md says why there). Every process using
 * the database shares it; reads take no write transaction. An entry repeats its key and its exact define
 * block and carries a checksum of its bytes: one that fails any check is a miss, compiled again and
 * overwritten, never loaded. */
#ifndef DLB_KCACHE_H
#define DLB_KCACHE_H
#include "../src/jit.h"
#include "store.h"

#include <stddef.h>
#include <stdint.h>

#define DLB_KCACHE_KEY_MAX 480 /* LMDB's default key limit is 511 bytes */

/* The key of one candidate, readable and in this order: the format, op, precision, target, the compiler
 * (NVRTC's version and the size of the library that was loaded: a patch release changes it), FNV-1a hashes
 * of the compile options, the template text and the define block (the op's fixed defines and the
 * tunables'), then the configuration:
 *   k1|gemm|fp16|sm_90a|nvrtc=13.0/109338064|opt=…|tpl=…|def=…|BM=64 BN=64 …
 * The source NVRTC compiles is the define block followed by the template, so these name it exactly. */
int dlb_kcache_key(const char *op, const char *prec, const char *arch, const char *compiler, const char *options,
		   uint64_t tpl_hash, const char *defines, const char *config, char *key, size_t len);

/* Open (creating it unless rdonly) the kernel cache of the result database directory db_dir. */
int dlb_kcache_open(const char *db_dir, int rdonly, struct dlb_store **out);

/* The entry under key: 0 with job's outputs filled (rc, verdict 1, cubin, log, kernels, seconds; the caller
 * frees them with dlb_jit_job_free); DLB_E_NOTFOUND; or DLB_E_CORRUPT when the entry fails a check (too
 * short, checksum, another key or define block inside), with the reason in dlb_last_error(). */
int dlb_kcache_get(struct dlb_store *kc, const char *key, const char *defines, struct dlb_jit_job *job);

/* Store n jobs in one write transaction: only those with a verdict (a cubin, or NVRTC's compile error). */
int dlb_kcache_put(struct dlb_store *kc, char *const *keys, char *const *defines, struct dlb_jit_job *const *jobs,
		   int n);

/* Claims, so that processes sharing a cache (one driver per GPU, `--devices`) compile a candidate once: a
 * process about to compile key claims it (its pid and the time, in the cache's meta table under "claim|" +
 * key); another process that finds the claim waits for the entry instead. dlb_kcache_put drops the claims of
 * the keys it stores. A claim of a process that is gone, or older than an hour, counts for nothing. */
int dlb_kcache_claim(struct dlb_store *kc, const char *key);
/* 1 when another live process claimed key, else 0 (also when the cache cannot be read). */
int dlb_kcache_claimed(struct dlb_store *kc, const char *key);
/* Drop this process's claims of keys[0..n) (compiles that ended without an entry). */
int dlb_kcache_unclaim(struct dlb_store *kc, char *const *keys, int n);

/* What a kernel cache holds: entries, how many are failures and how many fail their checks, and the bytes
 * of all entries. */
struct dlb_kcache_stats {
	size_t entries, failed, damaged, bytes;
};
int dlb_kcache_stats(struct dlb_store *kc, struct dlb_kcache_stats *st);

/* The fields of a key (dlb_kcache_key's order): 0, or DLB_E_PARSE for a key of another format. Each field
 * is copied into its buffer (64 bytes each). */
struct dlb_kcache_key_fields {
	char op[64], prec[64], arch[64], compiler[64], opt[64], tpl[64];
};
int dlb_kcache_key_parse(const char *key, size_t len, struct dlb_kcache_key_fields *f);

/* The entry's own size check and checksum, without the key: 0 or DLB_E_CORRUPT (db verify, gc). */
int dlb_kcache_check(const void *value, size_t len);
/* Whether an entry holds a failure (1) or a cubin (0); -1 when it is not an entry. */
int dlb_kcache_failed(const void *value, size_t len);
#endif
