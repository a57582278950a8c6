/* export: best-config tables from the database — CSV and Markdown for people and spreadsheets, JSON records
 * with their platform block for machines (and for `dlbtune import`), a C header a user can compile in. */
#ifndef DLB_REPORTS_EXPORT_H
#define DLB_REPORTS_EXPORT_H
#include "../src/catalog.h"

#include <stdio.h>

enum dlb_export_format { DLB_EXPORT_CSV, DLB_EXPORT_JSON, DLB_EXPORT_MD, DLB_EXPORT_HEADER, DLB_EXPORT_COUNT };
int dlb_export_format_parse(const char *s, enum dlb_export_format *out);

/* Rows in the order given (the catalog's key order); JSON also reads each row's trials and platform from s.
 * Output depends only on the stored records, so exporting the same database twice gives the same bytes. */
int dlb_export(FILE *out, enum dlb_export_format fmt, struct dlb_store *s, const struct dlb_row *rows, int n);
#endif
