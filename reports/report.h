/* report: the database's results as a page people read. For each op × precision × GPU (the groups of the
 * Markdown export) it writes the table of results and the paired speedup per problem, sorted, with its 95% CI
 * and a line at 1.0: the plot's data as CSV, its gnuplot script, and the plot as SVG where gnuplot runs. Then
 * DIR/index.html (no network, no script; it links the SVGs beside it) and DIR/report.md. Each group names the
 * platforms its results were measured on (s's platform records). With other (--compare B), a comparison
 * follows: the problems both hold, per op × precision × (GPU, driver) of each side, their tuned times and the
 * ratio B / A (above 1: A is faster), with the vendor best's ratio beside it, as a table and a sorted plot. */
#ifndef DLB_REPORTS_REPORT_H
#define DLB_REPORTS_REPORT_H
#include "../src/catalog.h"

/* rows: the results to show (any order). gnuplot: the program's path, or NULL or "" where there is none (the
 * pages then say that the plots are missing, and why: why_no_plots). Writes into dir, which must exist or be
 * creatable; the files this report writes replace an earlier one's (index.html and report.md only once
 * whole), others there are left. 0, or an errno / DLB_E_* with the reason reported. */
struct dlb_report_other {
	const struct dlb_row *rows; /* --compare: another database's results (the same filters) */
	int n;
	const char *source; /* its description */
};
int dlb_report(const char *dir, struct dlb_store *s, const struct dlb_row *rows, int n, const char *gnuplot,
	       const char *why_no_plots, const char *source, const struct dlb_report_other *other);
#endif
