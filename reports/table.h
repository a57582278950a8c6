/* table: the results of a run as a table for people, CSV for spreadsheets, or JSON for machines. */
#ifndef DLB_TABLE_H
#define DLB_TABLE_H
#include "../src/result.h"

#include <jansson.h>
#include <stdio.h>

/* What every format says of a padded row (int8: M, N, K rounded up to multiples of 4). */
#define DLB_PADDING_NOTE "the inputs are padded once, the padded GEMM is timed, and the time does not include the padding"

enum dlb_format { DLB_FMT_TEXT, DLB_FMT_CSV, DLB_FMT_JSON };

/* Text: one table per op and precision: a line naming the unit and the peak, the rows, the geometric mean of
 * the speedup (and of the paired speedup) over rows that have one, and a footnote when rows were padded. CSV and JSON: one row per problem
 * with its precision, unit and the shape run; JSON adds each precision's unit, peak and geomean. */
void dlb_table_print(FILE *out, enum dlb_format fmt, const struct dlb_result *rows, int n, const char *gpu);
/* x with printf format f, or "n/a" when it is not a finite number. */
const char *dlb_fmt_num(char *buf, size_t len, double x, const char *f);
/* Geometric mean of vendor-best/tuned over rows with both; NAN when none. */
double dlb_geomean_speedup(const struct dlb_result *rows, int n, int *count);
/* The side-by-side timing: {"vendor","pairs","tuned_us","vendor_us","speedup","speedup_ci95"}, or JSON null
 * when the row has none. */
json_t *dlb_paired_json(const struct dlb_result *r);
/* The same as the CSV columns paired_vendor,paired_n,paired_tuned_us,paired_vendor_us,paired_speedup,
 * paired_speedup_lo,paired_speedup_hi (n/a and 0 pairs when the row has none). */
const char *dlb_paired_csv(const struct dlb_result *r, char *buf, size_t len);
/* The padded shape run for p, {"m","n","k","time_includes_padding": false}, or JSON null when p runs as given. */
json_t *dlb_padded_json(const struct dlb_problem *p);
#endif
