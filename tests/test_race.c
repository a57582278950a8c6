/* test_race: the statistics under the racer (Student t, Welch), then the racer and the strategies on
 * synthetic landscapes, over 1000 seeded runs each: racing finds a configuration within 1% of the true best
 * in >= 99% of runs with <= 20% of the samples of a fixed 50 per candidate; the model strategy with the
 * search-level stop does so evaluating <= 25% of the candidates in >= 95% of runs. CPU only. */
#include "../search/landscape.h"
#include "../search/stats.h"
#include "testlib.h"

/* A sampler of constant-ish times that records how it was asked. */
struct counting {
	int calls, taken, asks[64];
};

static int count_sample(void *arg, int k, double *t)
{
	struct counting *c = arg;
	if (c->calls < 64)
		c->asks[c->calls] = k;
	c->calls++;
	for (int j = 0; j < k; j++, c->taken++)
		t[j] = 100.0 * (1 + 0.02 * ((c->taken * 7) % 5)); /* 100..108: a spread of a few percent */
	return 0;
}

/* Candidates whose index is a multiple of 7 fail (no samples); the others are raced on a landscape. */
struct failing {
	const struct dlb_landscape *L;
	struct dlb_pcg32 rng;
	int i;
};

static int failing_sample(void *arg, int k, double *t)
{
	struct failing *f = arg;
	for (int j = 0; j < k; j++)
		t[j] = dlb_landscape_sample(f->L, f->i, &f->rng);
	return 0;
}

static int failing_evaluate(void *arg, int i, const struct dlb_race_summary *inc, int final, struct dlb_race_summary *out)
{
	struct failing *f = arg;
	struct dlb_race_opts ro;
	dlb_race_defaults(&ro);
	if (final)
		dlb_race_final_opts(&ro, &ro);
	if (i % 7 == 0) {
		memset(out, 0, sizeof *out);
		out->stop = DLB_RACE_ERROR;
		return 0;
	}
	f->i = i;
	dlb_race(&ro, failing_sample, f, inc, out);
	return 0;
}

static void test_racer_modes(const struct dlb_landscape *L)
{
	struct dlb_race_opts ro;
	struct dlb_race_summary out, fast = {.n = 10, .mean = log(10.0), .var = 1e-6, .est = 10.0};
	struct counting c = {0};
	dlb_race_defaults(&ro);
	/* racing: min_samples in one request, then rounds of 2; far slower than the incumbent: stopped at once */
	dlb_race(&ro, count_sample, &c, &fast, &out);
	CHECK(out.stop == DLB_RACE_SLOWER && c.taken == 4 && c.calls == 1 && c.asks[0] == 4,
	      "slower: stop %s after %d samples in %d requests", dlb_race_stop_name(out.stop), c.taken, c.calls);
	memset(&c, 0, sizeof c);
	dlb_race(&ro, count_sample, &c, NULL, &out);
	CHECK(c.asks[0] == 4 && c.calls > 1 && c.asks[1] == 2, "rounds: first %d, then %d", c.asks[0], c.asks[1]);
	CHECK(out.taken == c.taken && out.n <= out.taken, "taken %d (sampler %d), kept %d", out.taken, c.taken, out.n);
	/* fixed: exactly that many samples, whatever the incumbent says */
	memset(&c, 0, sizeof c);
	ro.fixed = 7;
	dlb_race(&ro, count_sample, &c, &fast, &out);
	CHECK(out.stop == DLB_RACE_FIXED && c.taken == 7 && out.n == 7, "fixed 7: stop %s, %d taken, %d kept",
	      dlb_race_stop_name(out.stop), c.taken, out.n);
	struct dlb_race_opts fin;
	dlb_race_final_opts(&ro, &fin);
	CHECK_EQ_INT(fin.fixed, ro.max_samples); /* the showdown of a fixed search: max_samples each */

	/* a seconds budget, on the simulation's clock (the sum of the sampled times): 200 candidates of ~10-40 us
	 * with ~10 samples each would take ~40 ms; 5 ms stops the search early */
	struct dlb_search_opts so;
	struct dlb_sim_result r;
	dlb_search_defaults(&so);
	dlb_race_defaults(&ro);
	so.strategy = DLB_STRAT_RANDOM;
	so.window = 1000;
	so.budget_s = 0.005;
	REQUIRE(dlb_simulate(L, &so, &ro, 20, 5, &r) == 0, "simulate");
	CHECK(r.evaluated_max < 0.5 && r.evaluated_share > 0.02, "budget 5 ms: evaluated %.3f (max %.3f)",
	      r.evaluated_share, r.evaluated_max);

	/* --min-search on the same clock: the window stops no search before min_s; 10 s is beyond the whole
	 * landscape, so every candidate is evaluated; without it the window stops the model early */
	dlb_search_defaults(&so);
	dlb_race_defaults(&ro);
	so.min_s = 10.0;
	REQUIRE(dlb_simulate(L, &so, &ro, 20, 5, &r) == 0, "simulate");
	CHECK(r.evaluated_share == 1.0, "min_s 10 s: evaluated %.3f", r.evaluated_share);
	so.min_s = 0;
	REQUIRE(dlb_simulate(L, &so, &ro, 20, 5, &r) == 0, "simulate");
	CHECK(r.evaluated_max < 0.5, "min_s 0: evaluated at most %.3f", r.evaluated_max);

	/* failed candidates: counted, never the best, left out of the model's fit */
	struct failing f = {.L = L};
	struct dlb_search_result res;
	dlb_search_defaults(&so);
	dlb_pcg32_seed(&f.rng, 11, 1);
	REQUIRE(dlb_search(&so, &(struct dlb_points){L->n, L->dim, L->coord}, failing_evaluate, &f, &res) == 0, "search");
	CHECK(res.best >= 0 && res.best % 7 != 0, "best %d", res.best);
	double best = INFINITY;
	for (int i = 0; i < L->n; i++)
		if (i % 7 && L->truth[i] < best)
			best = L->truth[i];
	CHECK(res.best >= 0 && L->truth[res.best] <= 1.01 * best, "with failures: %.3f, best %.3f",
	      res.best >= 0 ? L->truth[res.best] : NAN, best);
	CHECK(res.evaluated < L->n / 2, "with failures: %d evaluated", res.evaluated);
}

/* A GPU that slows while it works: every evaluation is 3% slower than the one before (a clock that drifts
 * as the chip heats). Candidates 0..5 in order (exhaustive): the true best, 5, is measured last, at +15%,
 * so its estimate sits 10% above candidate 0's early one; the showdown must still race it against 0 (at
 * about the same drift) and pick it. Candidates 1..4 are far slower and stop early against the leader. */
struct drifting {
	double truth[6];
	int evals, cur, raced[6];
	long samples;
};

static int drifting_sample(void *arg, int k, double *t)
{
	struct drifting *d = arg;
	for (int j = 0; j < k; j++, d->samples++) /* +-0.5% spread, deterministic */
		t[j] = d->truth[d->cur] * (1 + 0.03 * d->evals) * (1 + 0.005 * (double)(d->samples % 3 - 1));
	return 0;
}

static int drifting_evaluate(void *arg, int i, const struct dlb_race_summary *inc, int final,
			     struct dlb_race_summary *out)
{
	struct drifting *d = arg;
	struct dlb_race_opts ro;
	dlb_race_defaults(&ro);
	if (final) {
		dlb_race_final_opts(&ro, &ro);
		d->raced[i]++;
	}
	d->cur = i;
	dlb_race(&ro, drifting_sample, d, inc, out);
	d->evals++;
	return 0;
}

static void test_showdown_drift(void)
{
	struct drifting d = {.truth = {1.05, 1.5, 1.5, 1.5, 1.5, 1.0}};
	int coord[6] = {0, 1, 2, 3, 4, 5};
	struct dlb_search_opts so;
	struct dlb_search_result res;
	dlb_search_defaults(&so);
	so.strategy = DLB_STRAT_EXHAUSTIVE;
	REQUIRE(dlb_search(&so, &(struct dlb_points){6, 1, coord}, drifting_evaluate, &d, &res) == 0, "search");
	CHECK(d.raced[0] == 1 && d.raced[5] == 1, "showdown raced 0: %d, 5: %d times", d.raced[0], d.raced[5]);
	CHECK_EQ_INT(res.best, 5);
	CHECK(res.best_s.n >= 8, "the winner's showdown race kept %d samples", res.best_s.n);
}

/* Three kernel families (parameter 0, categorical) on a 6 x 6 grid of two other parameters, each family with
 * its optimum elsewhere: the best family (0.8x) has its best where the other two are slow. With the
 * parameter marked categorical, the model fits each family on its own and finds the best in >= 95% of runs;
 * as one more number, it does not (printed, not asserted). */
static void test_categorical(void)
{
	struct dlb_landscape L;
	REQUIRE(dlb_landscape_alloc(3 * 36, 3, &L) == 0, "landscape");
	const double base[3] = {1.0, 1.0, 0.8}, ca[3] = {1, 4, 1}, cb[3] = {1, 4, 5};
	for (int i = 0; i < L.n; i++) {
		int c = i / 36, x = (i / 6) % 6, y = i % 6;
		L.coord[i * 3] = c, L.coord[i * 3 + 1] = x, L.coord[i * 3 + 2] = y;
		L.truth[i] = 100 * base[c] * exp(0.05 * ((x - ca[c]) * (x - ca[c]) + (y - cb[c]) * (y - cb[c])));
		L.sd[i] = 0.03;
	}
	struct dlb_search_opts so;
	struct dlb_race_opts ro;
	struct dlb_sim_result num, cat;
	dlb_search_defaults(&so);
	dlb_race_defaults(&ro);
	REQUIRE(dlb_simulate(&L, &so, &ro, 300, 1, &num) == 0, "simulate");
	L.categorical = 1;
	REQUIRE(dlb_simulate(&L, &so, &ro, 300, 1, &cat) == 0, "simulate");
	printf("three families: categorical accuracy %.3f (evaluated %.3f); as a number %.3f (evaluated %.3f)\n",
	       cat.accuracy, cat.evaluated_share, num.accuracy, num.evaluated_share);
	CHECK(cat.accuracy >= 0.95, "families: accuracy %.3f", cat.accuracy);
	CHECK(cat.evaluated_share <= 0.3, "families: evaluated %.3f", cat.evaluated_share);
	dlb_landscape_free(&L);
}

int main(void)
{
	/* t quantiles: two-sided 95% at 10 and 4 degrees of freedom, 99% at 30 (tables) */
	CHECK_NEAR(dlb_t_quantile(0.95, 10), 2.228138852, 1e-6);
	CHECK_NEAR(dlb_t_quantile(0.95, 4), 2.776445105, 1e-6);
	CHECK_NEAR(dlb_t_quantile(0.99, 30), 2.749995654, 1e-6);
	/* Welch: equal moments give p = 0.5; a is 10 standard errors slower: p tiny; faster: p near 1 */
	struct dlb_race_summary a = {.n = 10, .mean = 1.0, .var = 0.01}, b = {.n = 10, .mean = 1.0, .var = 0.01};
	CHECK_NEAR(dlb_welch_p_slower(&a, &b), 0.5, 1e-12);
	a.mean = 1.0 + 10 * sqrt(0.002);
	CHECK(dlb_welch_p_slower(&a, &b) < 1e-6, "p %g", dlb_welch_p_slower(&a, &b));
	a.mean = 1.0 - 10 * sqrt(0.002);
	CHECK(dlb_welch_p_slower(&a, &b) > 0.999999, "p %g", dlb_welch_p_slower(&a, &b));

	int levels[3] = {5, 5, 8};
	struct dlb_landscape L;
	REQUIRE(dlb_landscape_synthetic(levels, 3, 0.03, 0.0, 42, &L) == 0, "landscape");
	CHECK_EQ_INT(L.n, 200);
	struct dlb_search_opts so;
	struct dlb_race_opts ro;
	struct dlb_sim_result r;
	dlb_search_defaults(&so);
	dlb_race_defaults(&ro);

	so.strategy = DLB_STRAT_EXHAUSTIVE;
	REQUIRE(dlb_simulate(&L, &so, &ro, 1000, 1, &r) == 0, "simulate");
	printf("racing, every candidate: accuracy %.3f, samples %.3f of fixed N=50\n", r.accuracy, r.samples_ratio);
	CHECK(r.accuracy >= 0.99, "racing accuracy %.3f < 0.99", r.accuracy);
	CHECK(r.samples_ratio <= 0.20, "racing used %.3f of the samples of N=50", r.samples_ratio);

	so.strategy = DLB_STRAT_MODEL;
	REQUIRE(dlb_simulate(&L, &so, &ro, 1000, 1, &r) == 0, "simulate");
	printf("model + stop: accuracy %.3f, evaluated %.3f (max %.3f), both %.3f, samples %.3f\n", r.accuracy,
	       r.evaluated_share, r.evaluated_max, r.within_both, r.samples_ratio);
	CHECK(r.within_both >= 0.95, "model strategy: %.3f of runs within 1%% evaluating <= 25%%", r.within_both);

	/* the other strategies run, stop, and keep to a budget */
	for (int s = DLB_STRAT_RANDOM; s <= DLB_STRAT_ANNEAL; s++) {
		so.strategy = (enum dlb_strategy)s;
		so.budget = 30;
		REQUIRE(dlb_simulate(&L, &so, &ro, 100, 3, &r) == 0, "simulate");
		printf("%s (budget 30): accuracy %.3f, evaluated %.3f\n", dlb_strategy_name(so.strategy), r.accuracy,
		       r.evaluated_share);
		CHECK(r.evaluated_max <= 30.0 / 200 + 1e-9, "%s evaluated %.3f over its budget", dlb_strategy_name(so.strategy),
		      r.evaluated_max);
		CHECK(r.accuracy > 0.1, "%s never near the best (%.3f)", dlb_strategy_name(so.strategy), r.accuracy);
	}
	test_racer_modes(&L);
	dlb_landscape_free(&L);
	test_categorical();
	test_showdown_drift();
	return TEST_DONE();
}
