/* simulate: the search's offline proof — the real strategies and racer run against landscapes instead of a
 * GPU: a synthetic one, or those recorded in a database (one per tuned problem, from its trials). */
#include "simulate.h"

#include "../search/landscape.h"
#include "../search/space.h"
#include "../store/record.h"
#include "catalog.h"
#include "dbcmd.h"
#include "err.h"
#include "op.h"
#include "../search/stats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dlb_cli_search(const struct dlb_cli *c, double default_min_s, struct dlb_search_opts *so, struct dlb_race_opts *ro)
{
	dlb_search_defaults(so);
	if (dlb_strategy_parse(c->strategy, &so->strategy))
		so->strategy = DLB_STRAT_MODEL; /* cli.c checked it */
	so->budget = c->budget;
	so->budget_s = c->budget_s;
	so->seed = (uint64_t)c->seed;
	so->window = c->window;
	so->min_s = c->min_search_s >= 0 ? c->min_search_s : default_min_s;
	dlb_race_defaults(ro);
	ro->confidence = c->confidence;
	ro->precision = c->precision;
	ro->min_samples = c->min_samples;
	ro->max_samples = c->max_samples;
	ro->fixed = c->fixed_samples;
}

/* A configuration: the op's parameters and its launch variant (e.g. the tensor-core GEMM's 12 and SPLITK). */
#define MAX_DIM (DLB_MAX_PARAMS + 1)

/* "BM=64 BN=32 ... SPLITK=2": the values in order; the count, or -1 when it is not of that form. */
static int config_values(const char *text, char names[][16], int *values, int max)
{
	int n = 0, used;
	const char *p = text;
	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		if (n == max || sscanf(p, "%15[^= ]=%d%n", names[n], &values[n], &used) != 2)
			return -1;
		p += used;
		n++;
	}
	return n;
}

/* A verified trial timed well enough to stand in a landscape. */
static int timed_trial(const struct dlb_trial *t)
{
	return t->status == DLB_ST_OK && t->median_us > 0 && t->n >= 2 && strcmp(t->stop, "slow_verify");
}

/* The landscape of one recorded search: every verified, timed trial is a candidate whose true time is its
 * median and whose noise is the spread its confidence interval implies. Returns 0, or 1 when the trials do
 * not make a landscape (fewer than 8 timed candidates, or configurations of different forms). */
static int recorded_landscape(const struct dlb_result *r, const struct dlb_op *op, double confidence,
			      struct dlb_landscape *L, int **trial_of)
{
	int n = 0, dim = -1;
	char names0[MAX_DIM][16], names[MAX_DIM][16];
	int vals[MAX_DIM];
	for (int i = 0; i < r->ntrials; i++) {
		const struct dlb_trial *t = &r->trials[i];
		if (!timed_trial(t))
			continue;
		int d = config_values(t->config, dim < 0 ? names0 : names, vals, MAX_DIM);
		if (d < 1 || (dim >= 0 && d != dim))
			return 1;
		for (int k = 0; dim >= 0 && k < d; k++)
			if (strcmp(names[k], names0[k]))
				return 1;
		dim = d;
		n++;
	}
	if (n < 8)
		return 1;
	if (dlb_landscape_alloc(n, dim, L))
		return ENOMEM;
	int *distinct = calloc((size_t)n, sizeof *distinct); /* scratch for the coordinates */
	double *sds = calloc((size_t)n, sizeof *sds);
	*trial_of = calloc((size_t)n, sizeof **trial_of);
	if (!distinct || !sds || !*trial_of) {
		free(distinct);
		free(sds);
		free(*trial_of);
		*trial_of = NULL;
		dlb_landscape_free(L);
		return ENOMEM;
	}
	int j = 0, nsd = 0;
	for (int i = 0; i < r->ntrials; i++) {
		const struct dlb_trial *t = &r->trials[i];
		if (!timed_trial(t))
			continue;
		config_values(t->config, names, vals, MAX_DIM);
		memcpy(&L->coord[(size_t)j * (size_t)dim], vals, (size_t)dim * sizeof *vals);
		(*trial_of)[j] = i;
		L->truth[j] = t->median_us;
		/* the CI half-width of a median is about 1.25 standard errors of a mean: sd ~ half * sqrt(n) / (1.25 t) */
		double half = t->hi_us > t->lo_us ? 0.5 * log(t->hi_us / t->lo_us) : NAN;
		L->sd[j] = isfinite(half) && t->n >= 5 ? half * sqrt((double)t->n) / (1.25 * dlb_t_quantile(confidence, t->n - 1))
						     : NAN;
		if (isfinite(L->sd[j]))
			sds[nsd++] = L->sd[j];
		j++;
	}
	/* Candidates with too few samples to say: the median spread of the others (at least 0.2%). */
	double typical = 0.01;
	if (nsd) {
		for (int a = 1; a < nsd; a++)
			for (int b = a; b > 0 && sds[b - 1] > sds[b]; b--) {
				double x = sds[b];
				sds[b] = sds[b - 1];
				sds[b - 1] = x;
			}
		typical = sds[nsd / 2];
	}
	for (int i = 0; i < n; i++) {
		if (!isfinite(L->sd[i]))
			L->sd[i] = typical;
		if (L->sd[i] < 0.002)
			L->sd[i] = 0.002;
	}
	/* the op's categorical parameters, by name */
	for (int d = 0; d < dim && d < 32 && op; d++)
		for (int k = 0; k < op->space.nparams; k++)
			if (op->space.params[k].categorical && !strcmp(op->space.params[k].name, names0[d]))
				L->categorical |= 1u << d;
	/* coordinates: each value's rank among the distinct values of its parameter, as tune ranks them */
	for (int d = 0; d < dim; d++)
		dlb_value_ranks(L->coord + d, n, dim, distinct);
	free(distinct);
	free(sds);
	return 0;
}

static void print_line(const char *label, const struct dlb_sim_result *r)
{
	printf("%s: accuracy %.3f, gap %+.2f%%, samples %.3f of fixed N=50, evaluated %.3f (max %.3f), GPU time %.3f of "
	       "exhaustive N=3\n",
	       label, r->accuracy, 100 * (r->gap - 1), r->samples_ratio, r->evaluated_share, r->evaluated_max,
	       r->time_search / r->time_exhaustive);
}

static int simulate_db(const struct dlb_cli *c, const struct dlb_search_opts *so, const struct dlb_race_opts *ro,
		       struct dlb_sim_result *total, int *nland)
{
	int rc = 0, nrows = 0;
	struct dlb_store *s = NULL;
	struct dlb_row *rows = NULL;
	char path[4096];
	struct dlb_filter f;
	dlb_filter_of(c, &f);
	DLB_CHECK(dlb_db_path(c, path, sizeof path));
	DLB_CHECK(dlb_store_open(path, DLB_STORE_RDONLY, &s));
	DLB_CHECK(dlb_catalog_load(s, &f, &rows, &nrows));
	double acc = 0, samp = 0, ev = 0, evmax = 0, tsearch = 0, texh = 0, lgap = 0;
	int skipped = 0;
	for (int i = 0; i < nrows; i++) {
		struct dlb_result r = {0};
		struct dlb_landscape L;
		int *trial_of = NULL, first[17], nfirst = 0;
		DLB_CHECK(dlb_result_load(s, rows[i].r.key, 1, &r));
		int lr = recorded_landscape(&r, rows[i].r.p.op, ro->confidence, &L, &trial_of);
		if (lr == ENOMEM) {
			dlb_result_free(&r);
			DLB_FAIL(ENOMEM, "out of memory");
		}
		char label[400];
		snprintf(label, sizeof label, "%s %s %s %s on %s", rows[i].k.op, rows[i].k.prec, rows[i].k.layout,
			 rows[i].k.shape, rows[i].k.gpu);
		if (lr) {
			if (c->verbose)
				printf("%s: skipped (fewer than 8 timed candidates, or configurations of different "
				       "forms)\n",
				       label);
			skipped++;
			dlb_result_free(&r);
			continue;
		}
		/* As tune does: the winners of the nearest other shapes tuned on the same GPU go first (here, the
		 * winners this database recorded for them). */
		char near[16][128];
		int nnear = c->seeds > 0 ? dlb_rows_nearest(rows, nrows, &rows[i].r.p, rows[i].k.id, c->seeds, near) : 0;
		for (int j = 0; j < nnear; j++)
			for (int q = 0; q < L.n; q++)
				if (!strcmp(r.trials[trial_of[q]].config, near[j])) {
					first[nfirst++] = q;
					break;
				}
		first[nfirst] = -1;
		struct dlb_search_opts sso = *so;
		sso.first = first;
		if (rows[i].r.p.op) /* as tune does: the op's ceiling on the default window */
			sso.window_max = rows[i].r.p.op->search_window_max;
		struct dlb_sim_result one;
		int sr = dlb_simulate(&L, &sso, ro, c->trials, (uint64_t)c->seed, &one);
		int n = L.n;
		free(trial_of);
		dlb_landscape_free(&L);
		dlb_result_free(&r);
		if (sr)
			DLB_FAIL(ENOMEM, "out of memory in the simulation");
		char line[480];
		snprintf(line, sizeof line, "%s, %d candidates", label, n);
		print_line(line, &one);
		acc += one.accuracy;
		lgap += log(one.gap);
		tsearch += one.time_search;
		texh += one.time_exhaustive;
		samp += one.samples_ratio;
		ev += one.evaluated_share;
		if (one.evaluated_max > evmax)
			evmax = one.evaluated_max;
		(*nland)++;
	}
	if (!*nland)
		DLB_USER_FAIL(DLB_E_NOTFOUND, "%s has no recorded search with 8 or more timed candidates%s", path,
			      nrows ? "" : " (no current results match the filters; --any-version includes stale ones)");
	if (skipped)
		printf("(%d results skipped: fewer than 8 timed candidates, or configurations of different forms)\n",
		       skipped);
	*total = (struct dlb_sim_result){.trials = c->trials, .accuracy = acc / *nland, .samples_ratio = samp / *nland,
					 .evaluated_share = ev / *nland, .evaluated_max = evmax, .time_search = tsearch,
					 .time_exhaustive = texh, .gap = exp(lgap / *nland)};
fail:
	dlb_catalog_free(rows, nrows);
	dlb_store_close(s);
	return rc;
}

int dlb_cmd_simulate(const struct dlb_cli *c)
{
	int rc = 0, nland = 0;
	struct dlb_search_opts so;
	struct dlb_race_opts ro;
	struct dlb_sim_result total;
	dlb_cli_search(c, 0, &so, &ro);
	printf("strategy %s, %s; %d seeded runs per landscape\n", dlb_strategy_name(so.strategy),
	       ro.fixed ? "fixed sampling" : "racing", c->trials);
	if (ro.fixed)
		printf("racer: fixed %d samples per candidate, showdown %d\n", ro.fixed, ro.max_samples);
	else
		printf("racer: %d to %d samples, precision %.2f%% at %.0f%% confidence, slower at p < %.2f\n", ro.min_samples,
		       ro.max_samples, 100 * ro.precision, 100 * ro.confidence, ro.alpha);
	if (c->from_db) {
		DLB_CHECK(simulate_db(c, &so, &ro, &total, &nland));
		printf("mean over %d recorded landscapes:\n", nland);
	} else {
		/* a grid of three parameters with about c->candidates points */
		int a = (int)floor(cbrt((double)c->candidates) + 1e-9), levels[3];
		if (a < 2)
			a = 2;
		levels[0] = levels[1] = a;
		levels[2] = (c->candidates + a * a - 1) / (a * a);
		struct dlb_landscape L;
		if (dlb_landscape_synthetic(levels, 3, c->noise, c->outliers, (uint64_t)c->seed, &L))
			DLB_FAIL(ENOMEM, "out of memory");
		printf("synthetic landscape: %d candidates (%dx%dx%d), noise CV %.1f%%, outliers %.1f%%\n", L.n, levels[0],
		       levels[1], levels[2], 100 * c->noise, 100 * c->outliers);
		rc = dlb_simulate(&L, &so, &ro, c->trials, (uint64_t)c->seed, &total);
		dlb_landscape_free(&L);
		if (rc)
			DLB_FAIL(ENOMEM, "out of memory in the simulation");
	}
	printf("geometric mean gap of the choice to the true best: %+.2f%%\n", 100 * (total.gap - 1));
	printf("estimated GPU time: %.3f of exhaustive search with fixed 3 samples (each candidate costs a\n"
	       "verification and two warm-up runs besides its samples; the fixed search's showdown is 3 x 50)\n",
	       total.time_search / total.time_exhaustive);
	printf("accuracy %.3f (share of runs within 1%% of the true best), samples %.3f (ratio to fixed N=50), "
	       "evaluated %.3f (share of candidates)\n",
	       total.accuracy, total.samples_ratio, total.evaluated_share);
fail:
	return rc;
}
