/* test_referee: the host half of the fp32 verification's referee (dlb_gemm_scan_misses, ops/gemm/family.c)
 * without a GPU: which outputs it sends on to be recomputed in double (those off the reference by more than
 * tol, NaN too, at their index in the whole output), the largest difference of the others, and where it stops
 * (more than max misses: too many to be the reference's own error). tests/gpu_gemm_verify tries the whole
 * referee on the GPU. */
#include "ops/gemm/gemm.h"
#include "testlib.h"

#define N 1000

static float c[N], r[N];

static void fill(void)
{
	for (int i = 0; i < N; i++)
		c[i] = r[i] = (float)(i % 17) / 8.0f - 1.0f; /* exactly representable: differences are what is set */
}

static void test_scan(void)
{
	const double tol = 1.0 / 1024;
	size_t at[4] = {0};
	int nat = 0;
	double worst = 0;

	fill();
	dlb_gemm_scan_misses(c, r, N, 0, tol, at, 4, &nat, &worst);
	CHECK_EQ_INT(nat, 0);
	CHECK(worst == 0, "worst %g of equal outputs", worst);

	fill();
	c[30] += (float)(0.5 * tol);  /* within tol: only raises worst */
	c[10] += (float)(1.5 * tol);  /* a miss */
	c[999] = nanf("");            /* a miss: NaN is never within tol */
	c[500] += (float)tol;         /* exactly tol: within */
	dlb_gemm_scan_misses(c, r, N, 7000, tol, at, 4, &nat, &worst);
	CHECK_EQ_INT(nat, 2);
	CHECK_EQ_INT(at[0], 7010); /* indices in the whole output: the piece began at element 7000 */
	CHECK_EQ_INT(at[1], 7999);
	CHECK(fabs(worst - tol) < 1e-12, "worst %g, expected the difference of exactly tol (%g)", worst, tol);

	/* pieces scanned one after the other add to the same list */
	dlb_gemm_scan_misses(c, r, 20, 9000, tol, at, 4, &nat, &worst);
	CHECK_EQ_INT(nat, 3);
	CHECK_EQ_INT(at[2], 9010);

	/* more than max: counted up to max + 1, the list holds the first max, and the scan stops */
	fill();
	for (int i = 100; i < 110; i++)
		c[i] += 1.0f;
	nat = 0, worst = 0;
	at[3] = 12345;
	dlb_gemm_scan_misses(c, r, N, 0, tol, at, 3, &nat, &worst);
	CHECK_EQ_INT(nat, 4);
	CHECK_EQ_INT(at[0], 100);
	CHECK_EQ_INT(at[2], 102);
	CHECK_EQ_INT(at[3], 12345); /* beyond max: not written */
	int before = nat;
	dlb_gemm_scan_misses(c, r, N, 0, tol, at, 3, &nat, &worst);
	CHECK_EQ_INT(nat, before); /* a scan that starts past max does nothing */
}

int main(void)
{
	test_scan();
	return TEST_DONE();
}
