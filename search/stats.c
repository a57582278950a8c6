/* stats: the CI for the median uses order statistics (binomial, no distribution assumed): timing samples
 * are skewed by interference, so the median and its interval are what we report. */
#include "stats.h"

#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double dlb_t_quantile(double confidence, double dof)
{
	return gsl_cdf_tdist_Pinv(0.5 + confidence / 2.0, dof);
}

/* Largest l (1-based) with P(Bin(n,1/2) <= l-1) <= alpha/2: then [x_l, x_{n+1-l}] covers the median with
 * probability >= confidence. Returns 0 when n is too small for any such interval. */
static int median_ci_rank(int n, double confidence)
{
	double alpha = 1.0 - confidence;
	int l = 0;
	for (int j = 1; j <= n / 2; j++) {
		if (gsl_cdf_binomial_P((unsigned)(j - 1), 0.5, (unsigned)n) <= alpha / 2.0)
			l = j;
		else
			break;
	}
	return l;
}

int dlb_stats_summarise(double *x, int n, double confidence, struct dlb_stats *out)
{
	if (!x || n < 1 || !out || !(confidence > 0.0 && confidence < 1.0))
		return EINVAL;
	qsort(x, (size_t)n, sizeof *x, cmp_double);
	out->n = n;
	out->min = x[0];
	out->max = x[n - 1];
	out->median = (n % 2) ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
	int l = median_ci_rank(n, confidence);
	/* Too few samples for a distribution-free interval: report the full range, which is honest. */
	out->median_lo = l ? x[l - 1] : x[0];
	out->median_hi = l ? x[n - l] : x[n - 1];
	double sum = 0, sq = 0;
	for (int i = 0; i < n; i++)
		sum += x[i];
	out->mean = sum / n;
	for (int i = 0; i < n; i++)
		sq += (x[i] - out->mean) * (x[i] - out->mean);
	out->stddev = n > 1 ? sqrt(sq / (n - 1)) : 0.0;
	double half = n > 1 ? dlb_t_quantile(confidence, n - 1) * out->stddev / sqrt((double)n) : 0.0;
	out->mean_lo = out->mean - half;
	out->mean_hi = out->mean + half;
	return 0;
}

double dlb_stats_rel_halfwidth(const struct dlb_stats *s)
{
	return s->median > 0 ? (s->median_hi - s->median_lo) / 2.0 / s->median : INFINITY;
}
