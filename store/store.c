/* store: one named sub-database, "best", key → JSON record (see store/record.c). */
#include "store.h"

#include "../src/err.h"

#include <errno.h>
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct dlb_store {
	MDB_env *env;
	MDB_dbi best;
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

int dlb_store_open(const char *path, int create, struct dlb_store **out)
{
	int rc = 0;
	MDB_txn *txn = NULL;
	struct stat st;
	struct dlb_store *s = calloc(1, sizeof *s);
	*out = NULL;
	if (!s)
		DLB_FAIL(ENOMEM, "out of memory");
	if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode))
		DLB_USER_FAIL(ENOTDIR, "database path %s is not a directory", path);
	if (create) {
		if ((rc = make_dirs(path)) != 0)
			DLB_USER_FAIL(rc, "cannot create database directory %s: %s", path, strerror(rc));
	} else if (stat(path, &st) != 0) {
		DLB_USER_FAIL(ENOENT, "no database at %s", path);
	}
	MDB_CHECK(mdb_env_create(&s->env));
	MDB_CHECK(mdb_env_set_maxdbs(s->env, 8));
	MDB_CHECK(mdb_env_set_mapsize(s->env, (size_t)1 << 30));
	rc = mdb_env_open(s->env, path, create ? 0 : MDB_RDONLY, 0644);
	if (rc)
		DLB_USER_FAIL(rc, "cannot open database %s: %s", path, mdb_strerror(rc));
	int dead = 0;
	MDB_CHECK(mdb_reader_check(s->env, &dead)); /* slots of processes that died */
	MDB_CHECK(mdb_txn_begin(s->env, NULL, create ? 0 : MDB_RDONLY, &txn));
	rc = mdb_dbi_open(txn, "best", create ? MDB_CREATE : 0, &s->best);
	if (rc == MDB_NOTFOUND) {
		mdb_txn_abort(txn);
		txn = NULL;
		DLB_USER_FAIL(rc, "database %s holds no results yet", path);
	}
	MDB_CHECK(rc);
	rc = mdb_txn_commit(txn);
	txn = NULL;
	MDB_CHECK(rc);
	*out = s;
	return 0;
fail:
	if (txn)
		mdb_txn_abort(txn);
	if (s && s->env)
		mdb_env_close(s->env);
	free(s);
	return rc;
}

void dlb_store_close(struct dlb_store *s)
{
	if (!s)
		return;
	mdb_env_close(s->env);
	free(s);
}

int dlb_store_get(struct dlb_store *s, const char *key, char **value)
{
	int rc = 0;
	MDB_txn *txn = NULL;
	MDB_val k = {strlen(key), (void *)key}, v;
	*value = NULL;
	MDB_CHECK(mdb_txn_begin(s->env, NULL, MDB_RDONLY, &txn));
	rc = mdb_get(txn, s->best, &k, &v);
	if (rc == MDB_NOTFOUND)
		goto fail;
	MDB_CHECK(rc);
	*value = malloc(v.mv_size + 1);
	if (!*value)
		DLB_FAIL(ENOMEM, "out of memory");
	memcpy(*value, v.mv_data, v.mv_size);
	(*value)[v.mv_size] = 0;
fail:
	if (txn)
		mdb_txn_abort(txn);
	return rc;
}

int dlb_store_put(struct dlb_store *s, const char *key, const char *value)
{
	int rc = 0;
	MDB_txn *txn = NULL;
	MDB_val k = {strlen(key), (void *)key}, v = {strlen(value), (void *)value};
	MDB_CHECK(mdb_txn_begin(s->env, NULL, 0, &txn));
	MDB_CHECK(mdb_put(txn, s->best, &k, &v, 0));
	rc = mdb_txn_commit(txn);
	txn = NULL;
	MDB_CHECK(rc);
fail:
	if (txn)
		mdb_txn_abort(txn);
	return rc;
}

int dlb_store_each(struct dlb_store *s, int (*fn)(const char *, size_t, const char *, size_t, void *), void *arg)
{
	int rc = 0;
	MDB_txn *txn = NULL;
	MDB_cursor *cur = NULL;
	MDB_val k, v;
	MDB_CHECK(mdb_txn_begin(s->env, NULL, MDB_RDONLY, &txn));
	MDB_CHECK(mdb_cursor_open(txn, s->best, &cur));
	while ((rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) == 0)
		if ((rc = fn(k.mv_data, k.mv_size, v.mv_data, v.mv_size, arg)) != 0)
			goto fail;
	if (rc == MDB_NOTFOUND)
		rc = 0;
	MDB_CHECK(rc);
fail:
	if (cur)
		mdb_cursor_close(cur);
	if (txn)
		mdb_txn_abort(txn);
	return rc;
}
