/* race: Welch's test and the Student-t interval from GSL, on log times. */
#include "race.h"

#include "stats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void dlb_race_defaults(struct dlb_race_opts *o)
{
	*o = (struct dlb_race_opts){.confidence = 0.95, .precision = 0.01, .alpha = 0.01, .min_samples = 4,
				    .max_samples = 50, .round = 2, .max_discard = 3};
}

void dlb_race_final_opts(const struct dlb_race_opts *o, struct dlb_race_opts *out)
{
	*out = *o;
	out->precision = o->precision / 2;
	out->max_samples = 2 * o->max_samples;
	if (o->fixed > 0)
		out->fixed = o->max_samples;
}

const char *dlb_race_stop_name(enum dlb_race_stop s)
{
	static const char *const names[] = {"slower", "precise", "cap", "fixed", "error"};
	return (unsigned)s < 5 ? names[s] : "?";
}

double dlb_welch_p_slower(const struct dlb_race_summary *a, const struct dlb_race_summary *b)
{
	if (a->n < 2 || b->n < 2)
		return 1.0;
	double va = a->var / a->n, vb = b->var / b->n, se2 = va + vb;
	if (se2 <= 0)
		return a->mean > b->mean ? 0.0 : 1.0;
	double t = (a->mean - b->mean) / sqrt(se2);
	double dof = se2 * se2 / (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	if (!(dof > 0))
		dof = a->n + b->n - 2;
	return gsl_cdf_tdist_Q(t, dof); /* P(T > t) under "not slower" */
}

static void summarise(const double *lx, int n, struct dlb_race_summary *s, double confidence)
{
	double m = 0, v = 0;
	for (int i = 0; i < n; i++)
		m += lx[i];
	m /= n;
	for (int i = 0; i < n; i++)
		v += (lx[i] - m) * (lx[i] - m);
	v = n > 1 ? v / (n - 1) : 0;
	s->n = n;
	s->mean = m;
	s->var = v;
	s->est = exp(m);
	s->rel_half = n > 1 ? expm1(dlb_t_quantile(confidence, n - 1) * sqrt(v / n)) : INFINITY;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void dlb_race(const struct dlb_race_opts *o, dlb_sample_fn sample, void *arg, const struct dlb_race_summary *inc,
	      struct dlb_race_summary *out)
{
	int fixed = o->fixed > 0, max = fixed ? o->fixed : o->max_samples, cap = max + o->max_discard;
	double *lx = malloc((size_t)cap * sizeof *lx), tmp[64];
	memset(out, 0, sizeof *out);
	out->stop = DLB_RACE_ERROR;
	if (!lx)
		return;
	int n = 0, taken = 0, want = fixed ? max : o->min_samples;
	for (;;) {
		while (n < want && n < max) {
			int k = (want < max ? want : max) - n;
			if (sample(arg, k, lx + n)) {
				out->taken = taken;
				free(lx);
				return;
			}
			for (int j = 0; j < k; j++)
				if (!(lx[n + j] > 0)) {
					out->taken = taken;
					free(lx);
					return;
				}
			for (int j = 0; j < k; j++)
				lx[n + j] = log(lx[n + j]);
			taken += k;
			n += k;
			/* warm-up: while the first kept sample is well above the median of the others, drop it */
			while (!fixed && n == o->min_samples && taken - n < o->max_discard && n - 1 <= 64) {
				memcpy(tmp, lx + 1, (size_t)(n - 1) * sizeof *tmp);
				qsort(tmp, (size_t)(n - 1), sizeof *tmp, cmp_double);
				double med = tmp[(n - 1) / 2];
				if (lx[0] - med <= 3 * log1p(o->precision) + 0.05)
					break;
				memmove(lx, lx + 1, (size_t)(n - 1) * sizeof *lx);
				n--;
			}
		}
		summarise(lx, n, out, o->confidence);
		out->taken = taken;
		if (fixed) {
			out->stop = DLB_RACE_FIXED;
			break;
		}
		if (inc && inc->n >= 2 && dlb_welch_p_slower(out, inc) < o->alpha) {
			out->stop = DLB_RACE_SLOWER;
			break;
		}
		/* Precise: the CI is tight, from at least twice the minimum sample (a variance from 5 samples can be
		 * small by chance). Near-ties are settled afterwards, by the search's showdown. */
		if (n >= 2 * o->min_samples && out->rel_half <= o->precision) {
			out->stop = DLB_RACE_PRECISE;
			break;
		}
		if (n >= o->max_samples) {
			out->stop = DLB_RACE_CAP;
			break;
		}
		want = n + o->round;
	}
	free(lx);
}
