/* table: the results of a run as a table for people, CSV for spreadsheets, or JSON for machines. */
#ifndef DLB_TABLE_H
#define DLB_TABLE_H
#include "../src/result.h"

#include <stdio.h>

enum dlb_format { DLB_FMT_TEXT, DLB_FMT_CSV, DLB_FMT_JSON };

/* Prints every row, then the geometric mean of the speedup over rows that have one. */
void dlb_table_print(FILE *out, enum dlb_format fmt, const struct dlb_result *rows, int n, const char *gpu);
/* Geometric mean of vendor-best/tuned over rows with both; NAN when none. */
double dlb_geomean_speedup(const struct dlb_result *rows, int n, int *count);
#endif
