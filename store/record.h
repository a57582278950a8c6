/* record: a result as the JSON value stored under its key (readable in mdb_dump). */
#ifndef DLB_RECORD_H
#define DLB_RECORD_H
#include "../src/result.h"

/* JSON text (caller frees), or NULL when out of memory. */
char *dlb_record_encode(const struct dlb_result *r);
/* Fill r's stored fields (not p, which the caller keeps); with_trials also loads the trial list.
 * DLB_E_JSON when the text is not a record of this version. */
int dlb_record_decode(const char *json, size_t len, int with_trials, struct dlb_result *r);
#endif
