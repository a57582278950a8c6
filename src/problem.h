/* problem: what is tuned — op, precision, layout and shape — with name tables and validation. */
#ifndef DLB_PROBLEM_H
#define DLB_PROBLEM_H
#include <stdint.h>

enum dlb_prec { DLB_PREC_FP32, DLB_PREC_FP16, DLB_PREC_INT8, DLB_PREC_COUNT };

struct dlb_op;

struct dlb_problem {
	const struct dlb_op *op;
	enum dlb_prec prec;
	int64_t m, n, k; /* C(m×n) = op(A)(m×k) · op(B)(k×n), column-major */
	int ta, tb;      /* 1: that operand is stored transposed (cuBLAS's sense, as DeepBench) */
	int line;        /* line in the suite file it came from; 0 for the command line */
};

/* Largest dimension accepted: cuBLAS's 32-bit interfaces and our grid arithmetic stay safe below it. */
#define DLB_MAX_DIM (((int64_t)1 << 31) - 1)

const char *dlb_prec_name(enum dlb_prec p);
/* 0 and *out set, or DLB_E_USAGE for an unknown name. */
int dlb_prec_parse(const char *s, enum dlb_prec *out);
/* What a precision means, in the words of --help and of the table headers. */
struct dlb_prec_info {
	const char *name;  /* "fp16" */
	const char *about; /* what it computes: "half A, B, C; fp32 accumulation (...)" */
	const char *unit;  /* of its throughput: "TFLOP/s", "TOPS" */
	const char *peak;  /* what its %peak is a share of (the device's SM count x clock x rate per SM) */
	int pad_to;        /* M, N and K run as multiples of this (1: unpadded) */
};
/* The facts of p; those of fp32 for a value out of range. */
const struct dlb_prec_info *dlb_prec_info(enum dlb_prec p);
/* The dimensions a problem actually runs with: int8 rounds M, N and K up to multiples of 4 (DeepBench's rule:
 * the inputs are padded once and the padded GEMM is timed); other precisions run them unchanged. Returns 1
 * when any dimension changed. Derived from the precision and shape alone, so a stored result needs no field. */
int dlb_problem_padded(const struct dlb_problem *p, int64_t *pm, int64_t *pn, int64_t *pk);
/* "NN", "TN", ... from (ta, tb). */
const char *dlb_layout_name(int ta, int tb);
int dlb_layout_parse(const char *s, int *ta, int *tb);
/* Strict positive integer in [1, DLB_MAX_DIM]: no sign, no suffix, no overflow. */
int dlb_parse_dim(const char *s, int64_t *out);
#endif
