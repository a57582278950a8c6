/* record: results as the JSON values stored under their keys (readable in mdb_dump) and as the objects of
 * an export — one encoding serves both, so import(export(x)) stores exactly what x stored. */
#ifndef DLB_RECORD_H
#define DLB_RECORD_H
#include "../src/result.h"
#include "store.h"

#include <jansson.h>

#define DLB_RECORD_VERSION 2

/* Objects (new references) and their inverses. The from_json functions fill only what is stored:
 * dlb_best_from_json leaves r->p, r->key, r->vendor and r->trials alone. DLB_E_JSON on anything malformed. */
json_t *dlb_best_json(const struct dlb_result *r);
int dlb_best_from_json(json_t *j, struct dlb_result *r);
json_t *dlb_trial_json(const struct dlb_trial *t);
int dlb_trial_from_json(json_t *j, struct dlb_trial *t);
json_t *dlb_vendor_json(const struct dlb_vendor_entry *v);
int dlb_vendor_from_json(json_t *j, struct dlb_vendor_entry *v);
json_t *dlb_platform_json(const struct dlb_platform *p);
int dlb_platform_from_json(json_t *j, struct dlb_platform *p);
/* Compact text of j (caller frees); takes the reference. NULL when out of memory. */
char *dlb_json_text(json_t *j);
/* Parse a stored value; NULL when it is not a JSON object. */
json_t *dlb_json_parse(const char *text, size_t len);

/* Put j (taking the reference) as compact text. */
int dlb_txn_put_json(struct dlb_txn *txn, enum dlb_table t, const char *key, json_t *j);

/* Sub-keys of a result key. */
int dlb_trial_key(const char *rkey, const char *config, char *buf, size_t len);
int dlb_vendor_key(const char *rkey, const char *name, char *buf, size_t len);
/* The platform key of p, from its fields. */
void dlb_platform_key(struct dlb_platform *p);
/* The model id of p's GPU (store/key.h), and whether a key's id= names p's GPU (its UUID or its model). */
void dlb_platform_model_id(const struct dlb_platform *p, char *buf, size_t len);
int dlb_platform_is(const struct dlb_platform *p, const char *id);

/* The best record under key, with its vendor entries and, if asked, its trials. DLB_E_NOTFOUND when absent;
 * DLB_E_JSON when a stored value cannot be read. r->p is left to the caller. */
int dlb_result_load(struct dlb_store *s, const char *key, int with_trials, struct dlb_result *r);
/* Store best and vendor entries of r (under r->key) in one transaction. Trials are stored as they finish. */
int dlb_result_save(struct dlb_store *s, const struct dlb_result *r);
/* The same inside a transaction: the best record, its vendor entries replacing any stored before. */
int dlb_txn_put_result(struct dlb_txn *txn, const struct dlb_result *r);
int dlb_trial_save(struct dlb_store *s, const char *rkey, const struct dlb_trial *t);
/* Every trial stored under a result key (an interrupted search's, when there is no best yet); *t malloc'd. */
int dlb_trials_load(struct dlb_store *s, const char *rkey, struct dlb_trial **t, int *n);
/* Insert the platform, or widen its first/last-seen window. */
int dlb_platform_save(struct dlb_store *s, const struct dlb_platform *p);
int dlb_platform_put(struct dlb_txn *txn, const struct dlb_platform *p, int *changed);

/* How well a result is supported, to choose between two measurements of one key: a verified winner first,
 * then more timed samples of the winner, then more trials. <0, 0, >0 like strcmp. */
int dlb_result_support_cmp(const struct dlb_result *a, const struct dlb_result *b);

/* Schema 2 to 3: every key of version 1 (uuid=) in best, vendor and trials rewritten to version 2, naming the
 * GPU's model as its platform records give it (store/key.h); where two GPUs of one model measured the same
 * problem, the second keeps its UUID (a per-GPU result: nothing is lost). *nresults: results rewritten. */
int dlb_record_migrate_keys(struct dlb_txn *txn, int *nresults);
/* Rewrite one schema-1 record (trials and vendor times inside it) as schema-2 entries. */
int dlb_record_migrate_v1(struct dlb_txn *txn, const char *key, const char *val);
#endif
