/* merge: bring results measured elsewhere into this database — from an export file (import) or from another
 * database (merge). One record per write transaction; when both sides measured the same key (so the same
 * GPU, driver, libraries and template), the better-supported result is kept. Running either twice changes
 * nothing the second time. */
#ifndef DLB_MERGE_H
#define DLB_MERGE_H
#include "../src/result.h"
#include "key.h"
#include "store.h"

#include <jansson.h>
#include <stdio.h>

struct dlb_incoming {
	struct dlb_result r; /* r.key, best, vendor entries and trials */
	struct dlb_platform plat;
	int has_plat;
};

struct dlb_merge_counts {
	int added, replaced, kept;
	int trials_added, trials_replaced;
	int platforms_added;
};

/* Merge one record. Writes a line per record to log ("added KEY", "replaced KEY (...)", "kept KEY (...)")
 * after its transaction has committed, and flushes it, so what log says is stored is stored. */
int dlb_merge_record(struct dlb_store *s, const struct dlb_incoming *in, FILE *log, struct dlb_merge_counts *c);
/* One record of an export file as import reads it (in->r.trials allocated: dlb_result_free): 0, DLB_E_PARSE with
 * the reason in why, or ENOMEM. */
int dlb_incoming_from_json(json_t *rec, struct dlb_incoming *in, char *why, size_t wlen);
/* Every record of an export file (dlbtune export --format json). The whole file is read and checked before
 * anything is written: a malformed file changes nothing. */
int dlb_import_file(struct dlb_store *s, const char *path, FILE *log, struct dlb_merge_counts *c);
/* Every record of another database. */
int dlb_merge_db(struct dlb_store *dst, struct dlb_store *src, FILE *log, struct dlb_merge_counts *c);
/* A key's shape as a problem of its op: within the family's ranges, accepted by the family's check. Keys of
 * ops this build does not have pass. 0, or DLB_E_PARSE with the reason in why. */
int dlb_key_shape_check(const struct dlb_key *k, char *why, size_t wlen);
#endif
