/* stats: summaries of timing samples — median with a distribution-free 95% CI, mean with a Student-t CI. */
#ifndef DLB_STATS_H
#define DLB_STATS_H
#include <stddef.h>

struct dlb_stats {
	int n;
	double median, median_lo, median_hi; /* order-statistic CI for the median */
	double mean, mean_lo, mean_hi;       /* Student-t CI for the mean */
	double stddev, min, max;
};

/* Summarise x[0..n) (n >= 1) at the given two-sided confidence (e.g. 0.95); x is sorted in place. */
int dlb_stats_summarise(double *x, int n, double confidence, struct dlb_stats *out);
/* Two-sided Student-t quantile with `dof` degrees of freedom: t such that P(|T| <= t) = confidence. */
double dlb_t_quantile(double confidence, double dof);
/* Relative half-width of the median CI: (hi - lo) / 2 / median. */
double dlb_stats_rel_halfwidth(const struct dlb_stats *s);
#endif
