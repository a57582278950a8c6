/* report: the database's results as a page people read. For each op × precision × GPU (the groups of the
 * Markdown export) it writes the table of results and the paired speedup per problem, sorted, with its 95% CI
 * and a line at 1.0: the plot's data as CSV, its gnuplot script, and the plot as SVG where gnuplot runs. Then
 * DIR/index.html (no network, no script; it links the SVGs beside it) and DIR/report.md. Each group names the
 * platforms its results were measured on (s's platform records). */
#ifndef DLB_REPORTS_REPORT_H
#define DLB_REPORTS_REPORT_H
#include "../src/catalog.h"

/* rows: the results to show (any order). gnuplot: the program's path, or NULL or "" where there is none (the
 * pages then say that the plots are missing, and why: why_no_plots). Writes into dir, which must exist or be
 * creatable; files of a previous report there are replaced. 0, or an errno / DLB_E_* with the reason reported. */
int dlb_report(const char *dir, struct dlb_store *s, const struct dlb_row *rows, int n, const char *gnuplot,
	       const char *why_no_plots, const char *source);
#endif
