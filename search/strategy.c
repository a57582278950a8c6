/* strategy: the proposal loop shared by every strategy; each strategy is its `next` function. */
#include "strategy.h"

#include "pcg32.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const names[DLB_STRAT_COUNT] = {"exhaustive", "random", "anneal", "model"};

const char *dlb_strategy_name(enum dlb_strategy s)
{
	return (unsigned)s < DLB_STRAT_COUNT ? names[s] : "?";
}

int dlb_strategy_parse(const char *s, enum dlb_strategy *out)
{
	for (int i = 0; i < DLB_STRAT_COUNT; i++)
		if (!strcmp(s, names[i])) {
			*out = (enum dlb_strategy)i;
			return 0;
		}
	return -1;
}

void dlb_search_defaults(struct dlb_search_opts *o)
{
	*o = (struct dlb_search_opts){.strategy = DLB_STRAT_MODEL, .seed = 1, .eps = 0.01, .window = 0, .final = 3,
				      .polish = 1};
}

struct state {
	const struct dlb_search_opts *o;
	const struct dlb_points *p;
	struct dlb_pcg32 rng;
	int *done;       /* evaluated */
	double *logt;    /* log estimate of evaluated ones */
	int *order;      /* a permutation (exhaustive, random, the random start) */
	int next_in_order;
	int cur;         /* annealing: the current point */
	double temp;
	int nfit;        /* evaluations the model was last fit on */
	double *pred;    /* model predictions */
	int *start;      /* the random start's points, in the order they are taken (model, anneal) */
	int nstart;
	int *list;       /* scratch for ahead and pick */
	void *arg;       /* the caller's */
};

static void tell_ahead(struct state *s, const int *pts, int n)
{
	if (s->o->ahead && n > 0)
		s->o->ahead(s->arg, pts, n);
}

/* The next `lookahead` untried points of the order (random, exhaustive). */
static void ahead_in_order(struct state *s)
{
	int n = 0;
	for (int k = s->next_in_order; k < s->p->n && n < s->o->lookahead; k++)
		if (!s->done[s->order[k]])
			s->list[n++] = s->order[k];
	tell_ahead(s, s->list, n);
}

static int pick_in_order(struct state *s)
{
	while (s->next_in_order < s->p->n && s->done[s->order[s->next_in_order]])
		s->next_in_order++;
	return s->next_in_order < s->p->n ? s->order[s->next_in_order++] : -1;
}

/* The neighbours of i: one coordinate moved by one step. Returns a random untried one, or -1. */
static int untried_neighbour(struct state *s, int i)
{
	const struct dlb_points *p = s->p;
	int cand[64], nc = 0;
	for (int j = 0; j < p->n && nc < 64; j++) {
		int diff = 0, far = 0;
		for (int d = 0; d < p->dim; d++) {
			int dd = abs(p->coord[i * p->dim + d] - p->coord[j * p->dim + d]);
			diff += dd != 0;
			far |= dd > 1;
		}
		if (diff == 1 && !far && !s->done[j])
			cand[nc++] = j;
	}
	return nc ? cand[dlb_pcg32_bounded(&s->rng, (uint32_t)nc)] : -1;
}

static int next_anneal(struct state *s, int best)
{
	if (s->cur < 0)
		s->cur = best >= 0 ? best : pick_in_order(s);
	int j = untried_neighbour(s, s->cur);
	if (j < 0 && best >= 0)
		j = untried_neighbour(s, best);
	if (j < 0) /* a local region exhausted: jump */
		j = pick_in_order(s);
	return j;
}

/* The random start: in permutation order, but taking the values of the first categorical parameter in turn
 * (the value with the fewest evaluations so far, among those with untried points), so that every kind of
 * kernel is sampled before the model is fit. Without a categorical parameter: the permutation's order. */
static int pick_start(struct state *s)
{
	const struct dlb_points *p = s->p;
	int d = 0, count[64] = {0}, left[64] = {0}, want = -1;
	while (d < p->dim && !(p->categorical >> d & 1))
		d++;
	if (d == p->dim)
		return pick_in_order(s);
	for (int i = 0; i < p->n; i++) {
		int c = p->coord[i * p->dim + d];
		if (c < 0 || c >= 64)
			return pick_in_order(s);
		if (s->done[i])
			count[c]++;
		else
			left[c]++;
	}
	for (int c = 0; c < 64; c++)
		if (left[c] && (want < 0 || count[c] < count[want]))
			want = c;
	for (int k = 0; want >= 0 && k < p->n; k++)
		if (!s->done[s->order[k]] && p->coord[s->order[k] * p->dim + d] == want)
			return s->order[k];
	return -1;
}

/* The first categorical parameter (its index), or -1. */
static int first_categorical(const struct dlb_points *p)
{
	for (int d = 0; d < p->dim && d < 32; d++)
		if (p->categorical >> d & 1)
			return d;
	return -1;
}

/* Candidate i's features. Without a categorical parameter: 1, then per parameter x_d in [0,1] (and x_d^2
 * with quad). With one, a block of those per value of the first categorical parameter — its own level and
 * its own slopes, zero outside the candidate's block — so that each kind of kernel has a model of its own;
 * further categorical parameters get one indicator per value but the first. Returns how many (row may be
 * NULL: just count; i < 0: count only). */
static int features(const struct dlb_points *p, const int *maxc, int quad, int i, double *row)
{
	int cat = first_categorical(p), blocks = cat >= 0 ? maxc[cat] + 1 : 1, f = 0;
	for (int b = 0; b < blocks; b++) {
		int on = i >= 0 && (cat < 0 || p->coord[i * p->dim + cat] == b);
		if (row)
			row[f] = on;
		f++;
		for (int d = 0; d < p->dim; d++) {
			if (d == cat)
				continue;
			int c = i >= 0 ? p->coord[i * p->dim + d] : 0;
			if (p->categorical >> d & 1) {
				for (int level = 1; level <= maxc[d]; level++, f++)
					if (row)
						row[f] = on && c == level;
				continue;
			}
			double x = on && maxc[d] ? (double)c / maxc[d] : 0;
			if (row)
				row[f] = x;
			f++;
			if (quad) {
				if (row)
					row[f] = x * x;
				f++;
			}
		}
	}
	return f;
}

/* Least squares of log time on the features (the squares only once there are enough points for them), and
 * predictions for every candidate. */
static void fit_model(struct state *s)
{
	const struct dlb_points *p = s->p;
	int m = 0, maxc[32] = {0};
	if (p->dim > 32)
		return;
	for (int i = 0; i < p->n; i++)
		m += s->done[i] && isfinite(s->logt[i]);
	for (int i = 0; i < p->n; i++)
		for (int d = 0; d < p->dim; d++)
			if (p->coord[i * p->dim + d] > maxc[d])
				maxc[d] = p->coord[i * p->dim + d];
	int quad = m >= features(p, maxc, 1, -1, NULL) + 2, nf = features(p, maxc, quad, -1, NULL);
	if (m < nf + 2) /* too few points for this model: no prediction */
		return;
	gsl_matrix *X = gsl_matrix_alloc((size_t)m, (size_t)nf), *cov = gsl_matrix_alloc((size_t)nf, (size_t)nf);
	gsl_vector *y = gsl_vector_alloc((size_t)m), *c = gsl_vector_alloc((size_t)nf);
	gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc((size_t)m, (size_t)nf);
	double *row = malloc((size_t)nf * sizeof *row);
	if (!X || !cov || !y || !c || !w || !row)
		goto done;
	for (int i = 0, r = 0; i < p->n; i++) {
		if (!s->done[i] || !isfinite(s->logt[i]))
			continue;
		features(p, maxc, quad, i, row);
		for (int f = 0; f < nf; f++)
			gsl_matrix_set(X, (size_t)r, (size_t)f, row[f]);
		gsl_vector_set(y, (size_t)r, s->logt[i]);
		r++;
	}
	double chisq;
	/* GSL's default error handler aborts the process; here a fit that fails (the SVD can fail to converge:
	 * run65 met it in a 1024x700x512 search) only costs this step its model, checked below. */
	gsl_error_handler_t *handler = gsl_set_error_handler_off();
	int fitted = gsl_multifit_linear(X, y, c, cov, &chisq, w) == GSL_SUCCESS;
	gsl_set_error_handler(handler);
	if (!fitted)
		s->nfit = 0; /* this step picks from the random start; the next evaluation fits again */
	else {
		for (int i = 0; i < p->n; i++) {
			features(p, maxc, quad, i, row);
			double v = 0;
			for (int f = 0; f < nf; f++)
				v += gsl_vector_get(c, (size_t)f) * row[f];
			s->pred[i] = v;
		}
		s->nfit = m;
	}
done:
	free(row);
	gsl_multifit_linear_free(w);
	gsl_vector_free(c);
	gsl_vector_free(y);
	gsl_matrix_free(cov);
	gsl_matrix_free(X);
}

static int next_model(struct state *s, int evaluated)
{
	if (evaluated < s->o->start || s->nfit < 0)
		return pick_start(s);
	fit_model(s);
	if (s->nfit == 0)
		return pick_start(s);
	int best = -1;
	for (int i = 0; i < s->p->n; i++)
		if (!s->done[i] && (best < 0 || s->pred[i] < s->pred[best]))
			best = i;
	if (s->o->ahead && best >= 0) { /* the best predictions, best first: what the next fits will likely pick */
		int n = 0;
		for (int i = 0; i < s->p->n; i++) {
			if (s->done[i])
				continue;
			int at = n < s->o->lookahead ? n++ : n;
			while (at > 0 && s->pred[s->list[at - 1]] > s->pred[i]) {
				if (at < s->o->lookahead)
					s->list[at] = s->list[at - 1];
				at--;
			}
			if (at < s->o->lookahead)
				s->list[at] = i;
		}
		tell_ahead(s, s->list, n);
	}
	return best;
}

/* The random start's points, as pick_start takes them one after the other once the seeds are done. */
static void plan_start(struct state *s, const int *first, int start)
{
	int nseed = 0;
	for (const int *f = first; f && *f >= 0; f++)
		if (*f < s->p->n && !s->done[*f]) {
			s->done[*f] = 1;
			s->list[nseed++] = *f;
		}
	for (int k = nseed; k < start; k++) {
		int j = pick_start(s);
		if (j < 0)
			break;
		s->done[j] = 1;
		s->start[s->nstart++] = j;
	}
	for (int k = 0; k < nseed; k++)
		s->done[s->list[k]] = 0;
	for (int k = 0; k < s->nstart; k++)
		s->done[s->start[k]] = 0;
	memcpy(s->list + nseed, s->start, (size_t)s->nstart * sizeof *s->list);
	tell_ahead(s, s->list, nseed + s->nstart);
}

/* The next of the random start's points: the caller's pick among those not yet evaluated; -1 when none is
 * left. */
static int next_start(struct state *s)
{
	int n = 0;
	for (int k = 0; k < s->nstart; k++)
		if (!s->done[s->start[k]])
			s->list[n++] = s->start[k];
	if (!n)
		return -1;
	int j = s->o->pick ? s->o->pick(s->arg, s->list, n) : 0;
	return s->list[j >= 0 && j < n ? j : 0];
}

/* Book candidate i's race: 0 when it is not the new best, 1 when it is, 2 when by more than eps. */
static int record(struct state *s, struct dlb_search_result *res, int i, const struct dlb_race_summary *r)
{
	s->done[i] = 1;
	s->logt[i] = r->n ? r->mean : INFINITY;
	res->evaluated++;
	res->samples += r->taken;
	if (!r->n || r->stop == DLB_RACE_SLOWER || r->stop == DLB_RACE_ERROR ||
	    (res->best >= 0 && r->est >= res->best_s.est))
		return 0;
	int by_eps = res->best < 0 || r->est < res->best_s.est * (1 - s->o->eps);
	res->best = i;
	res->best_s = *r;
	return by_eps ? 2 : 1;
}

static double wall_s(void *arg)
{
	(void)arg;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int dlb_search_window_ceiling(int window_max)
{
	return window_max > 4 ? window_max : window_max > 0 ? 4 : 8;
}

int dlb_search(const struct dlb_search_opts *o, const struct dlb_points *p, dlb_evaluate_fn evaluate, void *arg,
	       struct dlb_search_result *res)
{
	int rc = 0, since = 0, stopped_idle = 0;
	struct dlb_search_opts oo = *o;
	struct state s = {.o = &oo, .p = p, .cur = -1, .arg = arg};
	memset(res, 0, sizeof *res);
	res->best = -1;
	if (oo.start <= 0) { /* 3 per parameter + 3, at most an eighth of the space, at least enough for a line */
		oo.start = 3 * p->dim + 3;
		if (oo.start > p->n / 8)
			oo.start = p->n / 8;
		if (oo.start < p->dim + 3)
			oo.start = p->dim + 3;
	}
	if (oo.window <= 0) { /* a fiftieth of the space, within 4..window_max (8) */
		int most = dlb_search_window_ceiling(oo.window_max);
		oo.window = p->n / 50;
		oo.window = oo.window < 4 ? 4 : oo.window > most ? most : oo.window;
	}
	if (!oo.clock)
		oo.clock = wall_s;
	if (oo.lookahead <= 0)
		oo.lookahead = 8;
	double t0 = oo.clock(arg);
	s.done = calloc((size_t)p->n + 1, sizeof *s.done);
	s.logt = calloc((size_t)p->n + 1, sizeof *s.logt);
	s.order = calloc((size_t)p->n + 1, sizeof *s.order);
	s.pred = calloc((size_t)p->n + 1, sizeof *s.pred);
	s.start = calloc((size_t)p->n + 1, sizeof *s.start);
	s.list = calloc((size_t)p->n + (size_t)oo.lookahead + 1, sizeof *s.list);
	if (!s.done || !s.logt || !s.order || !s.pred || !s.start || !s.list) {
		rc = -1;
		goto out;
	}
	dlb_pcg32_seed(&s.rng, oo.seed, 54u);
	for (int i = 0; i < p->n; i++)
		s.order[i] = i;
	if (oo.strategy != DLB_STRAT_EXHAUSTIVE)
		for (int i = p->n - 1; i > 0; i--) { /* Fisher-Yates */
			int j = (int)dlb_pcg32_bounded(&s.rng, (uint32_t)i + 1), t = s.order[i];
			s.order[i] = s.order[j];
			s.order[j] = t;
		}
	const int *first = oo.first;
	if (oo.strategy == DLB_STRAT_MODEL || oo.strategy == DLB_STRAT_ANNEAL)
		plan_start(&s, first, oo.start);
	for (;;) {
		int budget_left = oo.budget <= 0 || res->evaluated < oo.budget;
		if (!budget_left) {
			snprintf(res->why, sizeof res->why, "budget of %d candidates spent", oo.budget);
			break;
		}
		if (oo.budget_s > 0 && oo.clock(arg) - t0 >= oo.budget_s) {
			snprintf(res->why, sizeof res->why, "budget of %g s spent (%d of %d evaluated)", oo.budget_s,
				 res->evaluated, p->n);
			break;
		}
		if (oo.strategy != DLB_STRAT_EXHAUSTIVE && res->evaluated >= oo.start && since >= oo.window &&
		    (oo.min_s <= 0 || oo.clock(arg) - t0 >= oo.min_s)) {
			char after[48] = "";
			if (oo.min_s > 0)
				snprintf(after, sizeof after, ", after at least %g s", oo.min_s);
			snprintf(res->why, sizeof res->why,
				 "no improvement beyond %.1f%% in the last %d candidates%s (%d of %d evaluated)",
				 100 * oo.eps, oo.window, after, res->evaluated, p->n);
			stopped_idle = 1;
			break;
		}
		int i = -1;
		while (first && *first >= 0 && i < 0) { /* seeds first */
			if (*first < p->n && !s.done[*first])
				i = *first;
			first++;
		}
		if (i < 0 && res->evaluated < oo.start && oo.strategy != DLB_STRAT_RANDOM &&
		    oo.strategy != DLB_STRAT_EXHAUSTIVE)
			i = next_start(&s);
		if (i < 0) {
			switch (oo.strategy) {
			case DLB_STRAT_ANNEAL:
				i = res->evaluated < oo.start ? pick_start(&s) : next_anneal(&s, res->best);
				break;
			case DLB_STRAT_MODEL:
				i = next_model(&s, res->evaluated);
				break;
			default:
				i = pick_in_order(&s);
				ahead_in_order(&s);
			}
		}
		if (i < 0) {
			snprintf(res->why, sizeof res->why, "every candidate evaluated (%d)", p->n);
			break;
		}
		struct dlb_race_summary r;
		if ((rc = evaluate(arg, i, res->best >= 0 ? &res->best_s : NULL, 0, &r)) != 0)
			break;
		since++;
		if (record(&s, res, i, &r) == 2)
			since = 0;
		if (res->evaluated == oo.start) /* the window counts the strategy's own proposals, not the start's */
			since = 0;
		if (oo.strategy == DLB_STRAT_ANNEAL && s.cur >= 0 && r.n) { /* move, or not */
			double delta = r.mean - s.logt[s.cur];
			if (s.temp <= 0)
				s.temp = 0.05;
			if (delta < 0 || exp(-delta / s.temp) > (double)dlb_pcg32_next(&s.rng) / 4294967296.0)
				s.cur = i;
			s.temp *= 0.95;
		}
	}
	/* Polish: a search that stopped for want of improvement tries the untried neighbours of its best (one
	 * parameter one step away), moving to any that is better, until none is left untried: the model's
	 * blind spots are usually one parameter off. */
	int polished = 0;
	while (!rc && oo.polish && stopped_idle && res->best >= 0 && (oo.budget <= 0 || res->evaluated < oo.budget)) {
		int i = untried_neighbour(&s, res->best);
		if (i < 0)
			break;
		if (oo.ahead) { /* all of the best's untried neighbours: one of them comes next */
			int n = 0;
			for (int j = 0; j < p->n; j++) {
				int diff = 0, far = 0;
				for (int d = 0; d < p->dim; d++) {
					int dd = abs(p->coord[res->best * p->dim + d] - p->coord[j * p->dim + d]);
					diff += dd != 0;
					far |= dd > 1;
				}
				if (diff == 1 && !far && !s.done[j])
					s.list[n++] = j;
			}
			tell_ahead(&s, s.list, n);
		}
		struct dlb_race_summary r;
		if ((rc = evaluate(arg, i, &res->best_s, 0, &r)) != 0)
			break;
		polished++;
		record(&s, res, i, &r);
	}
	if (polished) {
		size_t len = strlen(res->why);
		snprintf(res->why + len, sizeof res->why - len, "; then %d neighbours of the best", polished);
	}
	/* Showdown: the `final` lowest estimates raced again from fresh samples, one after another, to twice the
	 * precision; each after the first against the showdown's leader, so one that is clearly slower stops
	 * early. Finalists by rank, not by distance from the best estimate: the search's estimates were taken
	 * minutes apart, and on a GPU whose clock drifts while it works (a long tune of 8192^3 fp16 on an H200
	 * ended 10% slower than it began) the true best can sit well above an early, lucky estimate. */
	if (!rc && res->best >= 0 && oo.final > 1) {
		int top[8], nt = 0;
		for (int k = 0; k < oo.final && k < 8; k++) {
			int pick = -1;
			for (int i = 0; i < p->n; i++) {
				int taken = 0;
				for (int q = 0; q < nt; q++)
					taken |= top[q] == i;
				if (s.done[i] && !taken && isfinite(s.logt[i]) &&
				    (pick < 0 || s.logt[i] < s.logt[pick]))
					pick = i;
			}
			if (pick < 0)
				break;
			top[nt++] = pick;
		}
		if (nt > 1) {
			struct dlb_race_summary best_r = {0};
			int best_i = -1;
			for (int q = 0; q < nt && !rc; q++) {
				struct dlb_race_summary r;
				if ((rc = evaluate(arg, top[q], best_i >= 0 ? &best_r : NULL, 1, &r)) != 0)
					break;
				res->samples += r.taken;
				if (r.n && r.stop != DLB_RACE_ERROR && r.stop != DLB_RACE_SLOWER &&
				    (best_i < 0 || r.est < best_r.est)) {
					best_i = top[q];
					best_r = r;
				}
			}
			if (!rc && best_i >= 0) {
				res->best = best_i;
				res->best_s = best_r;
			}
		}
	}
out:
	free(s.done);
	free(s.logt);
	free(s.order);
	free(s.pred);
	free(s.start);
	free(s.list);
	return rc;
}
