/* table: the results of a run as a table for people, CSV for spreadsheets, or JSON for machines. */
#ifndef DLB_TABLE_H
#define DLB_TABLE_H
#include "../src/result.h"
#include "columns.h"

#include <jansson.h>
#include <stdio.h>

/* What every format says of a padded row (int8: the dims an op pads rounded up to multiples of 4). */
#define DLB_PADDING_NOTE "the inputs are padded once, the padded problem is timed, and the time does not include the padding"

enum dlb_format { DLB_FMT_TEXT, DLB_FMT_CSV, DLB_FMT_JSON };

/* Text: one table per op and precision: a line naming the unit and the peak, the rows, the geometric mean of
 * the speedup (and of the paired speedup) over rows that have one, and a footnote when rows were padded. CSV and JSON: one row per problem
 * with its precision, unit and the shape run; JSON adds each precision's unit, peak and geomean. */
void dlb_table_print(FILE *out, enum dlb_format fmt, const struct dlb_result *rows, int n, const char *gpu);
/* Geometric mean of vendor-best/tuned over rows with both; NAN when none. */
double dlb_geomean_speedup(const struct dlb_result *rows, int n, int *count);
#endif
