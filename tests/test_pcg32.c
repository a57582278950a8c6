/* test_pcg32: the generator against the published reference output, and the ranges of its derived draws. */
#include "../search/pcg32.h"
#include "testlib.h"

static void test_reference(void)
{
	/* pcg32-demo (pcg-c-basic): seeded with (42, 54), the first six outputs. */
	static const uint32_t want[6] = {0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e};
	struct dlb_pcg32 r;
	dlb_pcg32_seed(&r, 42, 54);
	for (int i = 0; i < 6; i++) {
		uint32_t got = dlb_pcg32_next(&r);
		CHECK(got == want[i], "output %d: 0x%08x, expected 0x%08x", i, got, want[i]);
	}
	CHECK(r.inc & 1, "inc 0x%llx must be odd", (unsigned long long)r.inc);

	/* Same seed, same stream; another stream, another sequence. */
	struct dlb_pcg32 a, b, c;
	dlb_pcg32_seed(&a, 7, 1);
	dlb_pcg32_seed(&b, 7, 1);
	dlb_pcg32_seed(&c, 7, 2);
	int same = 1, differ = 0;
	for (int i = 0; i < 100; i++) {
		uint32_t x = dlb_pcg32_next(&a);
		same &= x == dlb_pcg32_next(&b);
		differ += x != dlb_pcg32_next(&c);
	}
	CHECK(same, "two generators with one seed diverged");
	CHECK(differ > 90, "streams 1 and 2 agree in %d of 100 outputs", 100 - differ);
}

static void test_bounded(void)
{
	struct dlb_pcg32 r;
	dlb_pcg32_seed(&r, 1234, 5);
	static const uint32_t bounds[] = {1, 2, 3, 7, 10, 1000, 0x80000001u, 0xffffffffu};
	for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
		uint32_t bound = bounds[b], over = 0, max = 0;
		for (int i = 0; i < 20000; i++) {
			uint32_t x = dlb_pcg32_bounded(&r, bound);
			over += x >= bound;
			max = x > max ? x : max;
		}
		CHECK(over == 0, "bound %u: %u of 20000 draws >= bound", bound, over);
		if (bound > 1000)
			CHECK(max > bound / 2, "bound %u: largest of 20000 draws is only %u", bound, max);
	}

	/* Small bounds: every value comes up, and about equally often (deterministic seed, generous margin). */
	for (uint32_t bound = 2; bound <= 10; bound++) {
		int count[10] = {0}, n = 100000;
		for (int i = 0; i < n; i++)
			count[dlb_pcg32_bounded(&r, bound)]++;
		int lo = n, hi = 0;
		for (uint32_t v = 0; v < bound; v++) {
			lo = count[v] < lo ? count[v] : lo;
			hi = count[v] > hi ? count[v] : hi;
		}
		double expect = (double)n / bound;
		CHECK(lo > 0, "bound %u: some value never drawn in %d draws", bound, n);
		CHECK(lo > 0.95 * expect && hi < 1.05 * expect, "bound %u: counts from %d to %d, expected about %.0f",
		      bound, lo, hi, expect);
	}
}

static void test_float_pm1(void)
{
	struct dlb_pcg32 r;
	dlb_pcg32_seed(&r, 99, 3);
	int n = 100000, outside = 0, neg = 0;
	double sum = 0, lo = 2, hi = -2;
	float first = dlb_pcg32_float_pm1(&r);
	int all_equal = 1;
	for (int i = 0; i < n; i++) {
		float x = dlb_pcg32_float_pm1(&r);
		outside += !(x >= -1.0f && x < 1.0f);
		neg += x < 0;
		all_equal &= x == first;
		sum += x;
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
	}
	CHECK(outside == 0, "%d of %d draws outside [-1, 1)", outside, n);
	CHECK(!all_equal, "all %d draws equal %g", n, first);
	CHECK(fabs(sum / n) < 0.01, "mean of %d draws is %g, expected about 0", n, sum / n);
	CHECK(neg > 0.48 * n && neg < 0.52 * n, "%d of %d draws negative", neg, n);
	CHECK(lo < -0.999 && hi > 0.999, "draws span [%g, %g], expected nearly [-1, 1)", lo, hi);
}

int main(void)
{
	test_reference();
	test_bounded();
	test_float_pm1();
	return TEST_DONE();
}
