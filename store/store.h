/* store: the LMDB database of results — named sub-databases, schema versions, a map that grows, and write
 * transactions that are short and never span GPU work. Key and value layouts are in docs/DATABASE.md. */
#ifndef DLB_STORE_H
#define DLB_STORE_H
#include <stddef.h>
#include <stdint.h>

#define DLB_SCHEMA_VERSION 3
#define DLB_KERNELS_SCHEMA_VERSION 1 /* of a kernel cache (DLB_STORE_KERNELS) */

/* The sub-databases. A result database has the first five: values are JSON text, keys readable text, so
 * mdb_dump shows everything. A kernel cache (DLB_STORE_KERNELS, store/kcache.h) has meta and kernels. */
enum dlb_table {
	DLB_T_META,      /* "schema_version" → "2", "created" → ISO time, "created_by" → dlbtune version */
	DLB_T_PLATFORMS, /* platform key → the GPU, host and library versions a measurement ran under */
	DLB_T_TRIALS,    /* result key + "|cfg=" + configuration → one candidate's trial */
	DLB_T_BEST,      /* result key → the winner and its statistics */
	DLB_T_VENDOR,    /* result key + "|alg=" + algorithm → one vendor algorithm's timing */
	DLB_T_KERNELS,   /* kernel key → one compiled (or failed) candidate, binary (store/kcache.h) */
	DLB_T_COUNT
};
const char *dlb_table_name(enum dlb_table t);

struct dlb_store;
struct dlb_txn;

enum {
	DLB_STORE_CREATE = 1, /* create the directory and an empty database when there is none */
	DLB_STORE_RDONLY = 2, /* never write (no migration either) */
	DLB_STORE_KERNELS = 4, /* a kernel cache, not a result database: sub-databases meta and kernels */
	DLB_STORE_SALVAGE = 8, /* with RDONLY: open a truncated file too (db salvage's walks, which may fault) */
};

/* Where results live: $DLBTUNE_DB, else $XDG_CACHE_HOME/dlbtune, else ~/.cache/dlbtune. */
int dlb_store_default_path(char *buf, size_t len);
/* Open the database directory at path. Refuses, with a message, a file that is not LMDB, a truncated one,
 * an LMDB database that is not dlbtune's, and a newer schema; migrates an older schema after a backup. */
int dlb_store_open(const char *path, unsigned flags, struct dlb_store **out);
void dlb_store_close(struct dlb_store *s);
const char *dlb_store_path(const struct dlb_store *s);
/* 1 when the store has sub-database t (a result database has no kernels, a kernel cache no results). */
int dlb_store_has(const struct dlb_store *s, enum dlb_table t);

/* The value under key (NUL-terminated, caller frees), or DLB_E_NOTFOUND. */
int dlb_store_get(struct dlb_store *s, enum dlb_table t, const char *key, char **value);
/* Run fn inside one write transaction and commit. When the map is full the transaction is aborted, the map
 * doubled (up to $DLBTUNE_DB_MAXSIZE, default 64 GiB, and never past the free disk) and fn run again from
 * the start, so fn must only read and write through the txn. A non-zero return from fn aborts. */
int dlb_store_write(struct dlb_store *s, int (*fn)(struct dlb_txn *txn, void *arg), void *arg);
int dlb_txn_get(struct dlb_txn *txn, enum dlb_table t, const char *key, char **value);
int dlb_txn_put(struct dlb_txn *txn, enum dlb_table t, const char *key, const char *value);
/* The same for values that are bytes, not text: *value (malloc'd, NUL-terminated beyond its *len bytes). */
int dlb_txn_put_bin(struct dlb_txn *txn, enum dlb_table t, const char *key, const void *value, size_t len);
int dlb_store_get_bin(struct dlb_store *s, enum dlb_table t, const char *key, void **value, size_t *len);
int dlb_txn_del(struct dlb_txn *txn, enum dlb_table t, const char *key);
/* Every entry of t, in key order (keys[i], vals[i] NUL-terminated; free with dlb_entries_free). */
int dlb_txn_entries(struct dlb_txn *txn, enum dlb_table t, char ***keys, char ***vals, int *n);
void dlb_entries_free(char **keys, char **vals, int n);
/* Delete every entry of t whose key starts with prefix; *count (if given) says how many. */
int dlb_txn_del_prefix(struct dlb_txn *txn, enum dlb_table t, const char *prefix, int *count);
/* Convenience: one put in its own transaction. */
int dlb_store_put(struct dlb_store *s, enum dlb_table t, const char *key, const char *value);

/* Calls fn for every entry of t whose key starts with prefix ("" for all), in key order, inside one read
 * transaction; stops early if fn returns non-zero (and returns that). */
typedef int (*dlb_store_each_fn)(const char *key, size_t klen, const char *val, size_t vlen, void *arg);
int dlb_store_each(struct dlb_store *s, enum dlb_table t, const char *prefix, dlb_store_each_fn fn, void *arg);
/* The same for every entry whose key is >= start (slen bytes, byte order; 0: from the first). */
int dlb_store_each_from(struct dlb_store *s, enum dlb_table t, const char *start, size_t slen, dlb_store_each_fn fn,
			void *arg);

/* Every key of t under prefix, in key order (byte order, as strcmp sorts them); free with dlb_keys_free. */
int dlb_store_keys(struct dlb_store *s, enum dlb_table t, const char *prefix, char ***keys, int *n);
void dlb_keys_free(char **keys, int n);

struct dlb_store_info {
	int schema;
	size_t map_bytes, used_bytes, file_bytes, page_bytes;
	unsigned readers, max_readers;
	size_t entries[DLB_T_COUNT]; /* 0 for a sub-database the store does not have */
	size_t bytes[DLB_T_COUNT];   /* the pages each one takes */
};
int dlb_store_info(struct dlb_store *s, struct dlb_store_info *info);
/* The initial map of a new database: $DLBTUNE_DB_MAPSIZE bytes, default 64 MiB. */
size_t dlb_store_initial_map(void);
#endif
