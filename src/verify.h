/* verify: fresh random inputs, poisoned outputs and comparison with a reference, on the GPU. */
#ifndef DLB_VERIFY_H
#define DLB_VERIFY_H
#include "gpu.h"

#include <stdint.h>

struct dlb_check {
	double max_err;   /* max |out - ref| over finite outputs */
	double max_ref;   /* max |ref| */
	uint64_t nonfinite; /* outputs left NaN (unwritten) or inf */
	double tol;
	int ok;
};

/* Uniform values in [-1, 1) from PCG32 (stream = thread), never zeros everywhere. */
int dlb_fill_f32(struct dlb_gpu *g, float *p, int64_t n, uint64_t seed);
/* Every byte 0xFF: a NaN in every float, so an element a kernel forgets to write cannot pass. */
int dlb_poison(struct dlb_gpu *g, void *p, size_t bytes);
/* Compare column-major M×N `out` (ld ldo) with `ref` (ld ldr). ok = no non-finite outputs and
 * max_err <= tol. */
int dlb_compare_f32(struct dlb_gpu *g, const float *out, int64_t ldo, const float *ref, int64_t ldr, int64_t M,
		    int64_t N, double tol, struct dlb_check *c);
/* Tolerance for an fp32 dot product of length k of inputs uniform in [-1,1): 8·eps·k·E|ab|, E|ab| = 1/4.
 * The expected error of a serial fp32 sum is about eps·k·σ/5 (σ = 1/3), so this is ~6× the typical
 * maximum over a few million outputs; an index error or a dropped k-step is O(1) and fails it. */
double dlb_tol_fp32(int64_t k);
#endif
