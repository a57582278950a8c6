/* test_race: the statistics under the racer (Student t, Welch), then the racer and the strategies on
 * synthetic landscapes, over 1000 seeded runs each: racing finds a configuration within 1% of the true best
 * in >= 99% of runs with <= 20% of the samples of a fixed 50 per candidate; the model strategy with the
 * search-level stop does so evaluating <= 25% of the candidates in >= 95% of runs. CPU only. */
#include "../search/landscape.h"
#include "../search/stats.h"
#include "testlib.h"

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
	dlb_landscape_free(&L);
	return TEST_DONE();
}
