/* verify: fresh random inputs, poisoned outputs and comparison with a reference, on the GPU. */
#ifndef DLB_VERIFY_H
#define DLB_VERIFY_H
#include "gpu.h"

#include <stdint.h>

struct dlb_check {
	double max_err;   /* max |out - ref| over finite outputs */
	double max_ref;   /* max |ref| */
	uint64_t nonfinite; /* outputs left NaN (unwritten) or inf */
	uint64_t bad;       /* outputs that fail the element-wise rule (fp16, int8; non-finite ones included) */
	double tol;         /* fp32: the absolute bound on max_err; fp16: the absolute part; int8: 0 */
	uint64_t refereed;  /* outputs judged against the exact sum in double instead, after a near miss (an op's
	                     * referee, e.g. dlb_gemm_referee); 0 if none */
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

/* Reduced precisions. Inputs: fp16 uniform in [-1, 1) rounded to half; int8 uniform integers in [-16, 15]
 * (an int32 sum of k products cannot overflow below k = 2^23). */
int dlb_fill_f16(struct dlb_gpu *g, void *p, int64_t n, uint64_t seed);
int dlb_fill_s8(struct dlb_gpu *g, void *p, int64_t n, uint64_t seed);
/* fp16 outputs against an fp32-accumulated reference of the same half inputs: every element finite and
 * |out - ref| <= DLB_TOL_FP16_REL·|ref| + dlb_tol_fp32(k). The relative part is two units of half's
 * rounding (2^-11 each: the output is rounded once); the absolute part covers the different fp32
 * summation order, as for fp32. A dropped k-step or a wrong index moves an element by O(1) and fails. */
#define DLB_TOL_FP16_REL (1.0 / 1024.0)
int dlb_compare_f16(struct dlb_gpu *g, const void *out, int64_t ldo, const float *ref, int64_t ldr, int64_t M,
		    int64_t N, double abs_tol, struct dlb_check *c);
/* int32 outputs: exact. max_err is the largest |difference|, bad the number of differing elements. */
int dlb_compare_s32(struct dlb_gpu *g, const int *out, int64_t ldo, const int *ref, int64_t ldr, int64_t M,
		    int64_t N, struct dlb_check *c);
/* The memory floor of an op (not a check): one launch that reads na bytes at a and nb at b once and writes
 * nc bytes at c once, streaming 16-byte vectors over the whole GPU. Timed by the harness like the kernels,
 * it is what no kernel that must read its inputs and write its output can beat by much. */
int dlb_stream_floor(struct dlb_gpu *g, const void *a, size_t na, const void *b, size_t nb, void *c, size_t nc);
#endif
