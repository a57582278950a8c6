/* store: the LMDB database of results. Write transactions are short and never span GPU work. */
#ifndef DLB_STORE_H
#define DLB_STORE_H
#include <stddef.h>

struct dlb_store;

/* Where results live: $DLBTUNE_DB, else $XDG_CACHE_HOME/dlbtune, else ~/.cache/dlbtune. */
int dlb_store_default_path(char *buf, size_t len);
/* Open (creating the directory and database if `create`) the database directory at path. */
int dlb_store_open(const char *path, int create, struct dlb_store **out);
void dlb_store_close(struct dlb_store *s);
/* The value stored under key (NUL-terminated, caller frees), or MDB_NOTFOUND. */
int dlb_store_get(struct dlb_store *s, const char *key, char **value);
int dlb_store_put(struct dlb_store *s, const char *key, const char *value);
/* Calls fn for every record in key order; stops early if fn returns non-zero (and returns that). */
int dlb_store_each(struct dlb_store *s, int (*fn)(const char *key, size_t klen, const char *val, size_t vlen, void *arg),
		   void *arg);
#endif
