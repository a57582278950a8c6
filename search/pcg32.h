/* pcg32: O'Neill's PCG-XSH-RR generator (64-bit state, 32-bit output), for inputs and random search. */
#ifndef DLB_PCG32_H
#define DLB_PCG32_H
#include <stdint.h>

struct dlb_pcg32 {
	uint64_t state;
	uint64_t inc; /* stream selector, always odd */
};

void dlb_pcg32_seed(struct dlb_pcg32 *rng, uint64_t initstate, uint64_t initseq);
uint32_t dlb_pcg32_next(struct dlb_pcg32 *rng);
/* Uniform in [0, bound) without modulo bias. */
uint32_t dlb_pcg32_bounded(struct dlb_pcg32 *rng, uint32_t bound);
/* Uniform float in [-1, 1). */
float dlb_pcg32_float_pm1(struct dlb_pcg32 *rng);
#endif
