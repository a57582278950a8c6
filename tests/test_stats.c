/* test_stats: Student-t quantiles against the table, and summaries of small known samples. */
#include "../search/stats.h"
#include "testlib.h"

#include <errno.h>

static void test_t_quantile(void)
{
	/* Two-sided 95% critical values of Student's t. */
	static const struct {
		double dof, t;
	} table[] = {{1, 12.7062}, {2, 4.3027}, {4, 2.7764}, {10, 2.2281}, {14, 2.1448}, {30, 2.0423}, {1000, 1.9623}};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		CHECK(fabs(dlb_t_quantile(0.95, table[i].dof) - table[i].t) < 1e-3, "t(0.95, %g) = %.5f, expected %.4f",
		      table[i].dof, dlb_t_quantile(0.95, table[i].dof), table[i].t);
	CHECK_NEAR(dlb_t_quantile(0.99, 10), 3.1693, 1e-3);
	CHECK_NEAR(dlb_t_quantile(0.90, 5), 2.0150, 1e-3);
}

static void test_odd(void)
{
	double x[5] = {5, 1, 4, 2, 3};
	struct dlb_stats s;
	CHECK_EQ_INT(dlb_stats_summarise(x, 5, 0.95, &s), 0);
	CHECK_EQ_INT(s.n, 5);
	CHECK(x[0] == 1 && x[1] == 2 && x[2] == 3 && x[3] == 4 && x[4] == 5, "x not sorted in place: %g %g %g %g %g",
	      x[0], x[1], x[2], x[3], x[4]);
	CHECK_NEAR(s.median, 3, 0);
	CHECK_NEAR(s.mean, 3, 1e-12);
	CHECK_NEAR(s.stddev, sqrt(2.5), 1e-12); /* sample standard deviation: divides by n - 1 */
	CHECK_NEAR(s.min, 1, 0);
	CHECK_NEAR(s.max, 5, 0);
	/* n = 5: P(all five on one side of the median) = 1/16 > 5%, so no distribution-free interval: [min, max]. */
	CHECK_NEAR(s.median_lo, 1, 0);
	CHECK_NEAR(s.median_hi, 5, 0);
	double half = 2.7764 * sqrt(2.5) / sqrt(5.0);
	CHECK_NEAR(s.mean_lo, 3 - half, 1e-3);
	CHECK_NEAR(s.mean_hi, 3 + half, 1e-3);
}

static void test_even(void)
{
	double x[4] = {4, 1, 3, 2};
	struct dlb_stats s;
	CHECK_EQ_INT(dlb_stats_summarise(x, 4, 0.95, &s), 0);
	CHECK_NEAR(s.median, 2.5, 0);
	CHECK_NEAR(s.mean, 2.5, 1e-12);
	CHECK_NEAR(s.stddev, sqrt(5.0 / 3.0), 1e-12);
	CHECK_NEAR(s.min, 1, 0);
	CHECK_NEAR(s.max, 4, 0);

	double y[6] = {10, 10, 30, 20, 20, 40};
	CHECK_EQ_INT(dlb_stats_summarise(y, 6, 0.95, &s), 0);
	CHECK_NEAR(s.median, 20, 0);
	CHECK_NEAR(s.mean, 130.0 / 6, 1e-12);
}

static void test_fifteen(void)
{
	/* x_(i) = 10 i, given in reverse. P(Bin(15, 1/2) <= 3) = 0.0176 <= 0.025 < P(<= 4) = 0.059: the 95% interval
	 * is [x_(4), x_(12)]. */
	double x[15];
	for (int i = 0; i < 15; i++)
		x[i] = 10.0 * (15 - i);
	struct dlb_stats s;
	CHECK_EQ_INT(dlb_stats_summarise(x, 15, 0.95, &s), 0);
	CHECK_NEAR(s.median, 80, 0);
	CHECK_NEAR(s.median_lo, 40, 0);
	CHECK_NEAR(s.median_hi, 120, 0);
	CHECK(s.median_lo <= s.median && s.median <= s.median_hi, "median %g outside [%g, %g]", s.median, s.median_lo,
	      s.median_hi);
	CHECK(s.mean_lo < s.mean && s.mean < s.mean_hi, "mean %g outside (%g, %g)", s.mean, s.mean_lo, s.mean_hi);
	CHECK_NEAR(dlb_stats_rel_halfwidth(&s), (120.0 - 40.0) / 2 / 80.0, 1e-12);

	/* A lower confidence narrows the interval: at 0.80, P(<= 4) = 0.059 <= 0.10 < P(<= 5) = 0.151, so
	 * [x_(5), x_(11)]. */
	CHECK_EQ_INT(dlb_stats_summarise(x, 15, 0.80, &s), 0);
	CHECK_NEAR(s.median_lo, 50, 0);
	CHECK_NEAR(s.median_hi, 110, 0);
}

static void test_edges(void)
{
	struct dlb_stats s;
	double one = 7.5;
	CHECK_EQ_INT(dlb_stats_summarise(&one, 1, 0.95, &s), 0);
	CHECK(s.median == 7.5 && s.min == 7.5 && s.max == 7.5 && s.median_lo == 7.5 && s.median_hi == 7.5,
	      "n = 1: median %g [%g, %g], min %g, max %g", s.median, s.median_lo, s.median_hi, s.min, s.max);
	CHECK(s.stddev == 0 && s.mean_lo == 7.5 && s.mean_hi == 7.5, "n = 1: stddev %g, mean CI [%g, %g]", s.stddev,
	      s.mean_lo, s.mean_hi);

	double x[3] = {1, 2, 3};
	CHECK_EQ_INT(dlb_stats_summarise(x, 0, 0.95, &s), EINVAL);
	CHECK_EQ_INT(dlb_stats_summarise(x, -1, 0.95, &s), EINVAL);
	CHECK_EQ_INT(dlb_stats_summarise(x, 3, 0.0, &s), EINVAL);
	CHECK_EQ_INT(dlb_stats_summarise(x, 3, 1.0, &s), EINVAL);
	CHECK_EQ_INT(dlb_stats_summarise(x, 3, 95.0, &s), EINVAL);
	CHECK_EQ_INT(dlb_stats_summarise(x, 3, -0.5, &s), EINVAL);
	CHECK_EQ_INT(dlb_stats_summarise(x, 3, NAN, &s), EINVAL);

	struct dlb_stats z = {.median = 0, .median_lo = 0, .median_hi = 0};
	CHECK(isinf(dlb_stats_rel_halfwidth(&z)), "rel_halfwidth with median 0 = %g, expected inf",
	      dlb_stats_rel_halfwidth(&z));
	struct dlb_stats t = {.median = 100, .median_lo = 95, .median_hi = 107};
	CHECK_NEAR(dlb_stats_rel_halfwidth(&t), 0.06, 1e-12);
}

int main(void)
{
	test_t_quantile();
	test_odd();
	test_even();
	test_fifteen();
	test_edges();
	return TEST_DONE();
}
