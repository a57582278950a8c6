/* store: LMDB environment, sub-databases, schema check and migration, map growth, short transactions. */
#include "store.h"

#include "../src/err.h"
#include "guard.h"
#include "record.h"

#include <errno.h>
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "config.h"

static const char *const table_names[DLB_T_COUNT] = {
	[DLB_T_META] = "meta",   [DLB_T_PLATFORMS] = "platforms", [DLB_T_TRIALS] = "trials",
	[DLB_T_BEST] = "best",   [DLB_T_VENDOR] = "vendor",       [DLB_T_KERNELS] = "kernels",
};

/* The sub-databases of each kind of store. */
#define RESULT_TABLES (1u << DLB_T_META | 1u << DLB_T_PLATFORMS | 1u << DLB_T_TRIALS | 1u << DLB_T_BEST | 1u << DLB_T_VENDOR)
#define KERNEL_TABLES (1u << DLB_T_META | 1u << DLB_T_KERNELS)

const char *dlb_table_name(enum dlb_table t)
{
	return (unsigned)t < DLB_T_COUNT ? table_names[t] : "?";
}

struct dlb_store {
	MDB_env *env;
	MDB_dbi dbi[DLB_T_COUNT];
	char path[4096];
	int rdonly;
	unsigned tables; /* RESULT_TABLES or KERNEL_TABLES */
	int schema;      /* the version this build writes for that kind */
	int in_each; /* inside dlb_store_each's read transaction: the map must not be moved */
};

struct dlb_txn {
	struct dlb_store *s;
	MDB_txn *txn;
};

int dlb_store_default_path(char *buf, size_t len)
{
	const char *db = getenv("DLBTUNE_DB"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;
	if (db && *db)
		n = snprintf(buf, len, "%s", db);
	else if (xdg && *xdg)
		n = snprintf(buf, len, "%s/dlbtune", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.cache/dlbtune", home);
	else
		return ENOENT;
	return n < 0 || (size_t)n >= len ? ENAMETOOLONG : 0;
}

const char *dlb_store_path(const struct dlb_store *s)
{
	return s->path;
}

int dlb_store_has(const struct dlb_store *s, enum dlb_table t)
{
	return (unsigned)t < DLB_T_COUNT && (s->tables >> t & 1);
}

static size_t size_from_env(const char *name, size_t dflt)
{
	const char *v = getenv(name);
	char *end;
	if (!v || !*v)
		return dflt;
	unsigned long long x = strtoull(v, &end, 10);
	return *end || x < 16384 ? dflt : (size_t)x;
}

size_t dlb_store_initial_map(void)
{
	return size_from_env("DLBTUNE_DB_MAPSIZE", (size_t)64 << 20);
}

static size_t map_ceiling(void)
{
	return size_from_env("DLBTUNE_DB_MAXSIZE", (size_t)64 << 30);
}

/* mkdir -p */
static int make_dirs(const char *path)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp)
		return ENAMETOOLONG;
	for (char *p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(tmp, 0755) && errno != EEXIST)
				return errno;
			*p = '/';
		}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return errno;
	return 0;
}

/* Begin a transaction, adopting a map other processes have grown — as often as they keep growing it while
 * this one waits for the writer lock. Never while another transaction of this process is open: LMDB may
 * only move the map when none is (callers of dlb_store_each must not open transactions in the callback). */
static int txn_begin(struct dlb_store *s, unsigned flags, MDB_txn **txn)
{
	int rc;
	while ((rc = mdb_txn_begin(s->env, NULL, flags, txn)) == MDB_MAP_RESIZED && !s->in_each) {
		if ((rc = mdb_env_set_mapsize(s->env, 0)) != 0)
			return rc;
		dlb_guard_remap(s->env);
	}
	return rc;
}

/* Double the map after MDB_MAP_FULL, within the ceiling and the free disk. */
static int grow_map(struct dlb_store *s)
{
	int rc = 0;
	MDB_envinfo info;
	struct statvfs fs;
	MDB_CHECK(mdb_env_info(s->env, &info));
	size_t cur = info.me_mapsize, want = cur * 2, ceiling = map_ceiling();
	if (want > ceiling)
		want = ceiling;
	if (want <= cur)
		DLB_USER_FAIL(MDB_MAP_FULL,
			      "database %s is full at its ceiling of %.1f MiB (set DLBTUNE_DB_MAXSIZE to allow more)",
			      s->path, (double)cur / (1 << 20));
	if (statvfs(s->path, &fs) == 0) {
		size_t avail = (size_t)fs.f_bavail * fs.f_frsize;
		if (avail < want - cur)
			DLB_USER_FAIL(ENOSPC, "database %s is full (%.1f MiB) and the disk has only %.1f MiB free",
				      s->path, (double)cur / (1 << 20), (double)avail / (1 << 20));
	}
	MDB_CHECK(mdb_env_set_mapsize(s->env, want));
	dlb_guard_remap(s->env);
fail:
	return rc;
}

int dlb_store_write(struct dlb_store *s, int (*fn)(struct dlb_txn *, void *), void *arg)
{
	int rc = 0;
	if (s->rdonly)
		DLB_FAIL(EROFS, "database %s is open read-only", s->path);
	for (;;) {
		struct dlb_txn t = {s, NULL};
		dlb_clear_error();
		MDB_CHECK(txn_begin(s, 0, &t.txn));
		rc = fn(&t, arg);
		if (rc == 0)
			rc = mdb_txn_commit(t.txn);
		else
			mdb_txn_abort(t.txn);
		if (rc != MDB_MAP_FULL)
			break;
		DLB_CHECK(grow_map(s));
	}
	if (rc && !*dlb_last_error())
		DLB_FAIL(rc, "writing to %s: %s", s->path, dlb_strerror(rc));
fail:
	return rc;
}

static int copy_value(const MDB_val *v, char **value)
{
	*value = malloc(v->mv_size + 1);
	if (!*value)
		return ENOMEM;
	memcpy(*value, v->mv_data, v->mv_size);
	(*value)[v->mv_size] = 0;
	return 0;
}

int dlb_txn_get(struct dlb_txn *t, enum dlb_table tb, const char *key, char **value)
{
	MDB_val k = {strlen(key), (void *)key}, v;
	*value = NULL;
	int rc = mdb_get(t->txn, t->s->dbi[tb], &k, &v);
	if (rc == MDB_NOTFOUND) /* callers see the project's code: LMDB stays inside this module */
		return DLB_E_NOTFOUND;
	return rc ? rc : copy_value(&v, value);
}

int dlb_txn_put(struct dlb_txn *t, enum dlb_table tb, const char *key, const char *value)
{
	return dlb_txn_put_bin(t, tb, key, value, strlen(value));
}

int dlb_txn_put_bin(struct dlb_txn *t, enum dlb_table tb, const char *key, const void *value, size_t len)
{
	int rc = 0;
	MDB_val k = {strlen(key), (void *)key}, v = {len, (void *)value};
	if (k.mv_size == 0 || k.mv_size > (size_t)mdb_env_get_maxkeysize(t->s->env))
		DLB_FAIL(MDB_BAD_VALSIZE, "key of %zu bytes for %s: LMDB takes 1..%d", k.mv_size, table_names[tb],
			 mdb_env_get_maxkeysize(t->s->env));
	rc = mdb_put(t->txn, t->s->dbi[tb], &k, &v, 0);
	if (rc && rc != MDB_MAP_FULL) /* a full map is handled by dlb_store_write */
		DLB_FAIL(rc, "mdb_put(%s): %s", table_names[tb], mdb_strerror(rc));
fail:
	return rc;
}

int dlb_txn_del(struct dlb_txn *t, enum dlb_table tb, const char *key)
{
	MDB_val k = {strlen(key), (void *)key};
	int rc = mdb_del(t->txn, t->s->dbi[tb], &k, NULL);
	return rc == MDB_NOTFOUND ? 0 : rc;
}

int dlb_txn_del_prefix(struct dlb_txn *t, enum dlb_table tb, const char *prefix, int *count)
{
	int rc = 0, n = 0;
	MDB_cursor *cur = NULL;
	size_t plen = strlen(prefix);
	MDB_val k = {plen, (void *)prefix}, v;
	MDB_CHECK(mdb_cursor_open(t->txn, t->s->dbi[tb], &cur));
	for (;;) { /* seek again after each delete: simpler than LMDB's cursor state after mdb_cursor_del */
		k = (MDB_val){plen, (void *)prefix};
		rc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE);
		if (rc || k.mv_size < plen || memcmp(k.mv_data, prefix, plen))
			break;
		MDB_CHECK(mdb_cursor_del(cur, 0));
		n++;
	}
	if (rc == MDB_NOTFOUND)
		rc = 0;
	MDB_CHECK(rc);
fail:
	if (cur)
		mdb_cursor_close(cur);
	if (count)
		*count = n;
	return rc;
}

struct put_one {
	enum dlb_table t;
	const char *key, *value;
};

static int put_one_fn(struct dlb_txn *t, void *arg)
{
	struct put_one *p = arg;
	return dlb_txn_put(t, p->t, p->key, p->value);
}

int dlb_store_put(struct dlb_store *s, enum dlb_table t, const char *key, const char *value)
{
	struct put_one p = {t, key, value};
	return dlb_store_write(s, put_one_fn, &p);
}

int dlb_store_get(struct dlb_store *s, enum dlb_table tb, const char *key, char **value)
{
	size_t len;
	return dlb_store_get_bin(s, tb, key, (void **)value, &len);
}

int dlb_store_get_bin(struct dlb_store *s, enum dlb_table tb, const char *key, void **value, size_t *len)
{
	int rc = 0;
	struct dlb_txn t = {s, NULL};
	MDB_val k = {strlen(key), (void *)key}, v;
	*value = NULL;
	*len = 0;
	MDB_CHECK(txn_begin(s, MDB_RDONLY, &t.txn));
	rc = mdb_get(t.txn, s->dbi[tb], &k, &v);
	if (rc == MDB_NOTFOUND)
		rc = DLB_E_NOTFOUND;
	else if (rc == 0 && (rc = copy_value(&v, (char **)value)) == 0)
		*len = v.mv_size;
	if (rc && rc != DLB_E_NOTFOUND)
		DLB_FAIL(rc, "reading %s from %s: %s", table_names[tb], s->path, dlb_strerror(rc));
fail:
	if (t.txn)
		mdb_txn_abort(t.txn);
	return rc;
}

/* The entries from the first key >= start (byte order) whose keys start with prefix. */
static int walk(struct dlb_store *s, enum dlb_table tb, const char *start, size_t slen, const char *prefix,
		dlb_store_each_fn fn, void *arg)
{
	int rc = 0;
	MDB_txn *txn = NULL;
	MDB_cursor *cur = NULL;
	size_t plen = strlen(prefix);
	MDB_val k = {slen, (void *)start}, v;
	MDB_CHECK(txn_begin(s, MDB_RDONLY, &txn));
	MDB_CHECK(mdb_cursor_open(txn, s->dbi[tb], &cur));
	rc = mdb_cursor_get(cur, &k, &v, slen ? MDB_SET_RANGE : MDB_FIRST);
	int from_fn = 0;
	s->in_each++;
	while (rc == 0) {
		if (k.mv_size < plen || memcmp(k.mv_data, prefix, plen))
			break;
		if ((rc = fn(k.mv_data, k.mv_size, v.mv_data, v.mv_size, arg)) != 0) {
			from_fn = 1; /* fn's own code and message go back as they are */
			break;
		}
		rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT);
	}
	s->in_each--;
	if (rc == MDB_NOTFOUND)
		rc = 0;
	if (rc && !from_fn)
		DLB_FAIL(rc, "reading %s of %s: %s", table_names[tb], s->path, mdb_strerror(rc));
fail:
	if (cur)
		mdb_cursor_close(cur);
	if (txn)
		mdb_txn_abort(txn);
	return rc;
}

int dlb_store_each(struct dlb_store *s, enum dlb_table tb, const char *prefix, dlb_store_each_fn fn, void *arg)
{
	return walk(s, tb, prefix, strlen(prefix), prefix, fn, arg);
}

int dlb_store_each_from(struct dlb_store *s, enum dlb_table tb, const char *start, size_t slen, dlb_store_each_fn fn,
			void *arg)
{
	return walk(s, tb, start, slen, "", fn, arg);
}

struct keys {
	char **k;
	int n, cap;
};

static int add_key(const char *k, size_t kl, const char *v, size_t vl, void *arg)
{
	(void)v, (void)vl;
	struct keys *ks = arg;
	if (ks->n == ks->cap) {
		int cap = ks->cap ? 2 * ks->cap : 256;
		char **nk = realloc(ks->k, (size_t)cap * sizeof *nk);
		if (!nk)
			return ENOMEM;
		ks->k = nk;
		ks->cap = cap;
	}
	if (!(ks->k[ks->n] = strndup(k, kl)))
		return ENOMEM;
	ks->n++;
	return 0;
}

int dlb_store_keys(struct dlb_store *s, enum dlb_table t, const char *prefix, char ***keys, int *n)
{
	struct keys ks = {0};
	int rc = dlb_store_each(s, t, prefix, add_key, &ks);
	if (rc == ENOMEM)
		dlb_set_error(__FILE__, __LINE__, "out of memory listing %s", table_names[t]);
	if (rc) {
		dlb_keys_free(ks.k, ks.n);
		ks.k = NULL;
		ks.n = 0;
	}
	*keys = ks.k;
	*n = ks.n;
	return rc;
}

void dlb_keys_free(char **keys, int n)
{
	for (int i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

/* LMDB maps the file and trusts its meta page: a file cut short would fault on the first read of a missing
 * page, so compare the committed size with the real one before anything is read. */
static int check_not_truncated(struct dlb_store *s)
{
	int rc = 0;
	MDB_envinfo info;
	MDB_stat st;
	struct stat fst;
	char file[4200];
	MDB_CHECK(mdb_env_info(s->env, &info));
	MDB_CHECK(mdb_env_stat(s->env, &st));
	snprintf(file, sizeof file, "%s/data.mdb", s->path);
	if (stat(file, &fst) != 0)
		DLB_USER_FAIL(errno, "cannot stat %s: %s", file, strerror(errno));
	size_t need = ((size_t)info.me_last_pgno + 1) * st.ms_psize;
	if ((size_t)fst.st_size < need)
		DLB_USER_FAIL(DLB_E_DBFORMAT,
			      "database %s is truncated: data.mdb has %lld bytes but its last committed page ends at %zu; "
			      "restore it from a copy (dlbtune backs up before migrating, never truncates)",
			      s->path, (long long)fst.st_size, need);
fail:
	return rc;
}

/* What the main database says about the layout: which named sub-databases exist, anything foreign. */
struct layout {
	int has[DLB_T_COUNT];
	int foreign; /* a key that is not one of our sub-databases */
	char foreign_key[64];
	int empty;
};

static int read_layout(MDB_txn *txn, unsigned tables, struct layout *l)
{
	int rc = 0;
	MDB_dbi main_dbi;
	MDB_cursor *cur = NULL;
	MDB_val k, v;
	memset(l, 0, sizeof *l);
	l->empty = 1;
	MDB_CHECK(mdb_dbi_open(txn, NULL, 0, &main_dbi));
	MDB_CHECK(mdb_cursor_open(txn, main_dbi, &cur));
	while ((rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) == 0) {
		int known = 0;
		l->empty = 0;
		for (int t = 0; t < DLB_T_COUNT; t++)
			if ((tables >> t & 1) && k.mv_size == strlen(table_names[t]) &&
			    !memcmp(k.mv_data, table_names[t], k.mv_size))
				l->has[t] = known = 1;
		if (!known && !l->foreign) {
			l->foreign = 1;
			snprintf(l->foreign_key, sizeof l->foreign_key, "%.*s", (int)(k.mv_size < 48 ? k.mv_size : 48),
				 (const char *)k.mv_data);
		}
	}
	if (rc == MDB_NOTFOUND)
		rc = 0;
	MDB_CHECK(rc);
fail:
	if (cur)
		mdb_cursor_close(cur);
	return rc;
}

static void iso_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
}

static int open_tables(MDB_txn *txn, struct dlb_store *s, unsigned flags)
{
	int rc = 0;
	for (int t = 0; t < DLB_T_COUNT; t++)
		if (s->tables >> t & 1)
			MDB_CHECK(mdb_dbi_open(txn, table_names[t], flags, &s->dbi[t]));
fail:
	return rc;
}

/* What a user can do with a database found damaged when it is opened (db verify cannot open it either). */
#define SALVAGE_HINT "`dlbtune db salvage DEST` copies what is still readable into a new database"

static int read_schema(MDB_txn *txn, struct dlb_store *s, int *schema)
{
	int rc = 0;
	MDB_val k = {14, "schema_version"}, v;
	char buf[32];
	char *end;
	rc = mdb_get(txn, s->dbi[DLB_T_META], &k, &v);
	if (rc == MDB_NOTFOUND)
		DLB_USER_FAIL(DLB_E_DBFORMAT, "database %s has no schema_version in its meta sub-database", s->path);
	if (rc) /* not an old database to migrate: a damaged one */
		DLB_USER_FAIL(DLB_E_DBFORMAT, "database %s is damaged (its schema_version cannot be read: %s); " SALVAGE_HINT,
			      s->path, mdb_strerror(rc));
	snprintf(buf, sizeof buf, "%.*s", (int)(v.mv_size < 31 ? v.mv_size : 31), (const char *)v.mv_data);
	long x = strtol(buf, &end, 10);
	if (!*buf || *end || x < 1)
		DLB_USER_FAIL(DLB_E_DBFORMAT, "database %s: schema_version '%s' is not a number", s->path, buf);
	*schema = (int)x;
fail:
	return rc;
}

static int put_text(MDB_txn *txn, MDB_dbi dbi, const char *key, const char *val)
{
	MDB_val k = {strlen(key), (void *)key}, v = {strlen(val), (void *)val};
	return mdb_put(txn, dbi, &k, &v, 0);
}

static int write_meta(MDB_txn *txn, struct dlb_store *s)
{
	int rc = 0;
	char ver[16], now[32];
	snprintf(ver, sizeof ver, "%d", s->schema);
	iso_now(now, sizeof now);
	MDB_CHECK(put_text(txn, s->dbi[DLB_T_META], "schema_version", ver));
	MDB_CHECK(put_text(txn, s->dbi[DLB_T_META], "created", now));
	MDB_CHECK(put_text(txn, s->dbi[DLB_T_META], "created_by", "dlbtune " PACKAGE_VERSION));
fail:
	return rc;
}

struct migrate_ctx {
	struct dlb_store *s;
	int n, already;
};

/* The schema recorded in a transaction: 0 when meta holds none, -1 when it is not a number or cannot be read
 * (damage: read_schema then says what). */
static int schema_in_txn(MDB_txn *txn, MDB_dbi meta)
{
	MDB_val k = {14, "schema_version"}, v;
	char buf[32], *end;
	int rc = mdb_get(txn, meta, &k, &v);
	if (rc)
		return rc == MDB_NOTFOUND ? 0 : -1;
	snprintf(buf, sizeof buf, "%.*s", (int)(v.mv_size < 31 ? v.mv_size : 31), (const char *)v.mv_data);
	long x = strtol(buf, &end, 10);
	return *buf && !*end && x > 0 && x < 1000000 ? (int)x : -1;
}

int dlb_txn_entries(struct dlb_txn *t, enum dlb_table tb, char ***keys, char ***vals, int *n)
{
	int rc = 0;
	MDB_cursor *cur = NULL;
	MDB_val k, v;
	size_t cap = 0;
	*keys = *vals = NULL;
	*n = 0;
	MDB_CHECK(mdb_cursor_open(t->txn, t->s->dbi[tb], &cur));
	while ((rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) == 0) {
		if ((size_t)*n == cap) {
			cap = cap ? 2 * cap : 64;
			char **nk = realloc(*keys, cap * sizeof **keys), **nv = nk ? realloc(*vals, cap * sizeof **vals) : NULL;
			if (nk)
				*keys = nk;
			if (!nv)
				DLB_FAIL(ENOMEM, "out of memory");
			*vals = nv;
		}
		(*keys)[*n] = (*vals)[*n] = NULL;
		rc = copy_value(&k, &(*keys)[*n]);
		if (!rc)
			rc = copy_value(&v, &(*vals)[*n]);
		(*n)++;
		DLB_CHECK(rc);
	}
	if (rc == MDB_NOTFOUND)
		rc = 0;
	MDB_CHECK(rc);
fail:
	if (cur)
		mdb_cursor_close(cur);
	return rc;
}

void dlb_entries_free(char **keys, char **vals, int n)
{
	for (int i = 0; i < n; i++) {
		free(keys ? keys[i] : NULL);
		free(vals ? vals[i] : NULL);
	}
	free(keys);
	free(vals);
}

/* Every step from schema `from` to this build's, in the one write transaction: schema 1 (dlbtune 0.1: one
 * sub-database "best" whose records held their trials and vendor times) to 2, then 2 to 3 (keys name the
 * GPU's model, not its UUID: store/key.h). A failure or a kill leaves the database as it was. */
static int migrate(struct dlb_txn *t, void *arg)
{
	int rc = 0, n = 0;
	struct migrate_ctx *m = arg;
	char **keys = NULL, **vals = NULL;
	m->n = m->already = 0;
	/* another process may have migrated while this one made its backup: then there is nothing to do */
	DLB_CHECK(open_tables(t->txn, m->s, MDB_CREATE));
	int schema = schema_in_txn(t->txn, m->s->dbi[DLB_T_META]);
	if (schema < 0) /* check_schema read it a moment ago: another process, or damage */
		DLB_USER_FAIL(DLB_E_DBFORMAT, "database %s: its schema_version cannot be read now", m->s->path);
	if (schema >= DLB_SCHEMA_VERSION) {
		m->already = 1;
		goto fail;
	}
	if (schema < 2) {
		/* collect first: the loop below rewrites the sub-database being walked */
		DLB_CHECK(dlb_txn_entries(t, DLB_T_BEST, &keys, &vals, &n));
		for (int i = 0; i < n; i++)
			DLB_CHECK(dlb_record_migrate_v1(t, keys[i], vals[i]));
	}
	DLB_CHECK(dlb_record_migrate_keys(t, &m->n));
	MDB_CHECK(mdb_drop(t->txn, m->s->dbi[DLB_T_META], 0));
	DLB_CHECK(write_meta(t->txn, m->s));
fail:
	dlb_entries_free(keys, vals, n);
	return rc;
}

static int backup_and_migrate(struct dlb_store *s, int from)
{
	int rc = 0;
	char dir[4300], stamp[32];
	time_t now = time(NULL);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", gmtime(&now));
	/* a fresh directory: an earlier attempt (failed, or another process's) may have made one this second */
	for (int i = 0;; i++) {
		if (i == 0)
			snprintf(dir, sizeof dir, "%s/backup-schema%d-%s", s->path, from, stamp);
		else
			snprintf(dir, sizeof dir, "%s/backup-schema%d-%s-%d", s->path, from, stamp, i);
		if (mkdir(dir, 0755) == 0)
			break;
		if (errno != EEXIST || i == 1000)
			DLB_USER_FAIL(errno, "cannot create backup directory %s: %s", dir, strerror(errno));
	}
	char f[4400];
	snprintf(f, sizeof f, "%s/data.mdb", dir);
	dlb_guard_undo(f, dir); /* a fault in the copy (a damaged page) leaves no half-made backup behind */
	rc = mdb_env_copy2(s->env, dir, MDB_CP_COMPACT);
	dlb_guard_undo(NULL, NULL);
	if (rc) {
		unlink(f);
		rmdir(dir);
		if (rc == MDB_CORRUPTED || rc == MDB_PAGE_NOTFOUND || rc == MDB_INVALID)
			DLB_USER_FAIL(DLB_E_DBFORMAT, "database %s is damaged (%s): it cannot be backed up, so it is not "
				      "migrated; `dlbtune db salvage DEST` copies what is still readable", s->path, mdb_strerror(rc));
		DLB_USER_FAIL(rc > 0 ? rc : DLB_E_DBFORMAT, "cannot back database %s up in %s before migrating it: %s; nothing "
			      "was changed", s->path,
			      dir, mdb_strerror(rc));
	}
	struct migrate_ctx m = {s, 0, 0};
	DLB_CHECK(dlb_store_write(s, migrate, &m));
	if (m.already)
		goto fail;
	fprintf(stderr, "dlbtune: migrated database %s from schema %d to %d (%d results); the old one is in %s\n",
		s->path, from, DLB_SCHEMA_VERSION, m.n, dir);
fail:
	return rc;
}

/* Look at what the file holds, create the sub-databases of a new one, refuse what we cannot read. */
static int check_schema(struct dlb_store *s, unsigned flags)
{
	int rc = 0, schema = 0, migrate_from = 0;
	MDB_txn *txn = NULL;
	struct layout l;
	const char *what = s->tables == KERNEL_TABLES ? "kernel cache" : "database";
	MDB_CHECK(txn_begin(s, s->rdonly ? MDB_RDONLY : 0, &txn));
	DLB_CHECK(read_layout(txn, s->tables, &l));
	if (l.foreign && s->tables == KERNEL_TABLES)
		DLB_USER_FAIL(DLB_E_DBFORMAT, "%s is an LMDB database but not a dlbtune kernel cache (it holds '%s'); "
			      "move it away (the cache is rebuilt as kernels are compiled) or run with --no-cache",
			      s->path, l.foreign_key);
	if (l.foreign)
		DLB_USER_FAIL(DLB_E_DBFORMAT,
			      "%s is an LMDB database but not dlbtune's (it holds '%s'); give dlbtune its own --db directory",
			      s->path, l.foreign_key);
	if (l.empty) {
		if (s->rdonly || !(flags & DLB_STORE_CREATE))
			DLB_USER_FAIL(DLB_E_NOTFOUND, "%s %s is empty: nothing has been stored yet", what, s->path);
		DLB_CHECK(open_tables(txn, s, MDB_CREATE));
		DLB_CHECK(write_meta(txn, s));
		schema = s->schema;
	} else {
		if (l.has[DLB_T_META])
			MDB_CHECK(mdb_dbi_open(txn, table_names[DLB_T_META], 0, &s->dbi[DLB_T_META]));
		if (l.has[DLB_T_META] && schema_in_txn(txn, s->dbi[DLB_T_META]))
			DLB_CHECK(read_schema(txn, s, &schema));
		else if (l.has[DLB_T_BEST] && !l.has[DLB_T_PLATFORMS] && !l.has[DLB_T_TRIALS] && !l.has[DLB_T_VENDOR])
			schema = 1; /* no schema number and only "best": dlbtune 0.1 wrote it */
		else if (l.has[DLB_T_BEST]) /* schema 2's sub-databases, its schema number lost */
			DLB_USER_FAIL(DLB_E_DBFORMAT,
				      "database %s is damaged (its meta sub-database has lost its schema_version); " SALVAGE_HINT,
				      s->path);
		else
			DLB_USER_FAIL(DLB_E_DBFORMAT, "%s is an LMDB database but not dlbtune's", s->path);
	}
	if (schema > s->schema)
		DLB_USER_FAIL(DLB_E_DBFORMAT,
			      "%s %s has schema %d, written by a newer dlbtune; this dlbtune (" PACKAGE_VERSION
			      ") reads schema %d and older. Use the newer dlbtune, or another --db",
			      what, s->path, schema, s->schema);
	if (schema < s->schema) {
		if (s->rdonly)
			DLB_USER_FAIL(DLB_E_DBFORMAT,
				      "database %s has schema %d; this dlbtune reads schema %d and migrates older ones, "
				      "but only for a command that writes: run `dlbtune db migrate --db %s` (it keeps a backup)",
				      s->path, schema, DLB_SCHEMA_VERSION, s->path);
		migrate_from = schema; /* nothing is written until the backup exists */
	} else {
		DLB_CHECK(open_tables(txn, s, s->rdonly ? 0 : MDB_CREATE));
	}
	if (migrate_from) {
		mdb_txn_abort(txn);
		txn = NULL;
		DLB_CHECK(backup_and_migrate(s, migrate_from));
		goto fail;
	}
	rc = mdb_txn_commit(txn);
	txn = NULL;
	MDB_CHECK(rc);
fail:
	if (txn)
		mdb_txn_abort(txn);
	return rc;
}

int dlb_store_open(const char *path, unsigned flags, struct dlb_store **out)
{
	int rc = 0;
	struct stat st;
	char file[4200];
	struct dlb_store *s = calloc(1, sizeof *s);
	*out = NULL;
	if (!s)
		DLB_FAIL(ENOMEM, "out of memory");
	if (snprintf(s->path, sizeof s->path, "%s", path) >= (int)sizeof s->path)
		DLB_USER_FAIL(ENAMETOOLONG, "database path too long");
	s->rdonly = !!(flags & DLB_STORE_RDONLY);
	s->tables = flags & DLB_STORE_KERNELS ? KERNEL_TABLES : RESULT_TABLES;
	s->schema = flags & DLB_STORE_KERNELS ? DLB_KERNELS_SCHEMA_VERSION : DLB_SCHEMA_VERSION;
	if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode))
		DLB_USER_FAIL(ENOTDIR, "database path %s is a file; dlbtune keeps a database in a directory", path);
	snprintf(file, sizeof file, "%s/data.mdb", path);
	int exists = stat(file, &st) == 0;
	if (!exists && errno != ENOENT) /* there, perhaps, but not for us: say why */
		DLB_USER_FAIL(errno, "cannot read database %s: %s", path, strerror(errno));
	if (!exists) {
		if (!(flags & DLB_STORE_CREATE) || s->rdonly)
			DLB_USER_FAIL(DLB_E_NOTFOUND, "no database at %s (run `dlbtune --op OP` or `dlbtune import` first)",
				      path);
		if ((rc = make_dirs(path)) != 0)
			DLB_USER_FAIL(rc, "cannot create database directory %s: %s", path, strerror(rc));
	}
	if (exists && st.st_size == 0 && s->rdonly) /* LMDB would say "Bad file descriptor" */
		DLB_USER_FAIL(DLB_E_DBFORMAT, "%s is empty (0 bytes): there is no database in it (a copy cut short?)", file);
	MDB_CHECK(mdb_env_create(&s->env));
	MDB_CHECK(mdb_env_set_maxdbs(s->env, DLB_T_COUNT + 2));
	MDB_CHECK(mdb_env_set_maxreaders(s->env, 256));
	if (!exists || st.st_size == 0) /* an existing one keeps the map size recorded in it */
		MDB_CHECK(mdb_env_set_mapsize(s->env, dlb_store_initial_map()));
	rc = mdb_env_open(s->env, path, MDB_NOTLS | (s->rdonly ? MDB_RDONLY : 0), 0644);
	if (rc == MDB_INVALID || rc == MDB_VERSION_MISMATCH || rc == EINVAL)
		DLB_USER_FAIL(DLB_E_DBFORMAT, "%s is not an LMDB database dlbtune can read (%s)", file, mdb_strerror(rc));
	if (rc)
		DLB_USER_FAIL(rc, "cannot open database %s: %s", path, mdb_strerror(rc));
	dlb_guard_open(s->env, s->path);
	if (!(flags & DLB_STORE_SALVAGE) || !s->rdonly) /* salvage reads what is there; a missing page faults */
		DLB_CHECK(check_not_truncated(s));
	int dead = 0;
	if (!s->rdonly)
		MDB_CHECK(mdb_reader_check(s->env, &dead)); /* reader slots of processes that died */
	DLB_CHECK(check_schema(s, flags));
	*out = s;
	return 0;
fail:
	if (s && s->env) {
		dlb_guard_close(s->env);
		mdb_env_close(s->env);
	}
	free(s);
	return rc;
}

void dlb_store_close(struct dlb_store *s)
{
	if (!s)
		return;
	dlb_guard_close(s->env);
	mdb_env_close(s->env);
	free(s);
}

int dlb_store_info(struct dlb_store *s, struct dlb_store_info *info)
{
	int rc = 0;
	MDB_txn *txn = NULL;
	MDB_envinfo ei;
	MDB_stat est, st;
	struct stat fst;
	char file[4200];
	memset(info, 0, sizeof *info);
	MDB_CHECK(txn_begin(s, MDB_RDONLY, &txn));
	MDB_CHECK(mdb_env_info(s->env, &ei));
	MDB_CHECK(mdb_env_stat(s->env, &est));
	info->map_bytes = ei.me_mapsize;
	info->page_bytes = est.ms_psize;
	info->used_bytes = ((size_t)ei.me_last_pgno + 1) * est.ms_psize;
	info->readers = ei.me_numreaders;
	info->max_readers = ei.me_maxreaders;
	snprintf(file, sizeof file, "%s/data.mdb", s->path);
	if (stat(file, &fst) == 0)
		info->file_bytes = (size_t)fst.st_size;
	DLB_CHECK(read_schema(txn, s, &info->schema));
	for (int t = 0; t < DLB_T_COUNT; t++) {
		if (!(s->tables >> t & 1))
			continue;
		MDB_CHECK(mdb_stat(txn, s->dbi[t], &st));
		info->entries[t] = st.ms_entries;
		info->bytes[t] = (st.ms_branch_pages + st.ms_leaf_pages + st.ms_overflow_pages) * (size_t)st.ms_psize;
	}
fail:
	if (txn)
		mdb_txn_abort(txn);
	return rc;
}
