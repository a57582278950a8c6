/* pcg32: implemented from the published algorithm (M. E. O'Neill, "PCG: A Family of Simple Fast
 * Space-Efficient Statistically Good Algorithms for Random Number Generation", 2014). The same steps are
 * in templates/util.cu for filling device buffers. */
#include "pcg32.h"

#define PCG_MULT 6364136223846793005ULL

uint32_t dlb_pcg32_next(struct dlb_pcg32 *rng)
{
	uint64_t old = rng->state;
	rng->state = old * PCG_MULT + rng->inc;
	uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
	uint32_t rot = (uint32_t)(old >> 59u);
	return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

void dlb_pcg32_seed(struct dlb_pcg32 *rng, uint64_t initstate, uint64_t initseq)
{
	rng->state = 0;
	rng->inc = (initseq << 1u) | 1u;
	dlb_pcg32_next(rng);
	rng->state += initstate;
	dlb_pcg32_next(rng);
}

uint32_t dlb_pcg32_bounded(struct dlb_pcg32 *rng, uint32_t bound)
{
	if (bound == 0)
		return 0;
	uint32_t threshold = (-bound) % bound; /* values below this would bias the result */
	for (;;) {
		uint32_t r = dlb_pcg32_next(rng);
		if (r >= threshold)
			return r % bound;
	}
}

float dlb_pcg32_float_pm1(struct dlb_pcg32 *rng)
{
	/* 24 random bits give every float in [0,1) on a 2^-24 grid exactly. */
	float u = (float)(dlb_pcg32_next(rng) >> 8) * (1.0f / 16777216.0f);
	return 2.0f * u - 1.0f;
}
