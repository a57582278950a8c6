/* dbcmd: the commands that work on the database alone — db stats|list|show|verify|gc, export, import, merge,
 * lookup. None needs a GPU. */
#ifndef DLB_DBCMD_H
#define DLB_DBCMD_H
#include "../store/store.h"
#include "catalog.h"
#include "cli.h"

#include <stdio.h>

/* The database directory: --db, else the default (store.h); for part I of N of a suite (--shard, or a Slurm
 * array task) its own directory under it, <db>/shards/I-of-N (opening it creates it and its parents). */
int dlb_db_path(const struct dlb_cli *c, char *buf, size_t len);
int dlb_cmd_db(const struct dlb_cli *c);
/* The catalog filter of the command line's --op, --prec, --layout, --device, --stale and --any-version. */
void dlb_filter_of(const struct dlb_cli *c, struct dlb_filter *f);
/* Read every entry of every sub-database and check the references between them. Problems are written to
 * out, one per line, and counted in *problems; the return value is non-zero only when reading failed. */
int dlb_db_verify(struct dlb_store *s, FILE *out, int *problems);
#endif
