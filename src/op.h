/* op: an op is one table entry — its tuning space, template, and the hooks that set up a problem, launch a
 * candidate, verify it and time the vendor. Adding an op touches src/ops/<op>.c, templates/<op>*.cu and the
 * registry in op.c. */
#ifndef DLB_OP_H
#define DLB_OP_H
#include "../search/space.h"
#include "../search/stats.h"
#include "gpu.h"
#include "jit.h"
#include "problem.h"
#include "result.h"
#include "verify.h"

#include <stddef.h>

/* One configuration, compiled (or not) and loaded (or not). */
struct dlb_candidate {
	struct dlb_config cfg;
	char text[128]; /* "BM=64 BN=64 ..." */
	struct dlb_jit_job job;
	int loaded;
	struct dlb_module mod;
	cudaKernel_t kernels[DLB_JIT_MAX_KERNELS];
	struct cudaFuncAttributes attrs; /* of kernels[0] */
};

struct dlb_op {
	const char *name;
	enum dlb_prec prec;                  /* one entry per (name, precision) */
	const char *summary;
	const char *template_file;           /* embedded file name */
	const char *template_extra;          /* a second embedded file appended to the first, or NULL */
	const char *defines;                 /* fixed lines put before the tunables' defines (e.g. the precision) */
	const char *const *kernel_names;     /* looked up in each candidate's module */
	int nkernels;
	int ndyn_kernels;                    /* the first ndyn_kernels of them take dyn_smem; the rest none */
	const char *variant_name;            /* a launch-time tunable (e.g. SPLITK), or NULL */
	struct dlb_space space;              /* compile-time tunables and their constraints */
	const struct dlb_constraint *limit_checks; /* device-limit rows, given a struct dlb_limits (search/space.h) */
	int nlimit_checks;

	/* Dynamic shared memory (bytes) a configuration's first ndyn_kernels kernels are launched with; NULL:
	 * none. Loading a candidate raises those kernels' limit to it (the opt-in limit beyond 48 KiB). */
	size_t (*dyn_smem)(const int *v);

	double (*flops)(const struct dlb_problem *p);
	/* Device bytes the problem needs (inputs, outputs, reference, workspace). */
	size_t (*device_bytes)(const struct dlb_problem *p, const struct dlb_device *dev);
	/* One line: "1760x16x1760 NN". */
	void (*describe)(const struct dlb_problem *p, char *buf, int len);

	/* GPU side: one problem at a time. */
	int (*setup)(struct dlb_gpu *g, const struct dlb_problem *p, void **state);
	/* Launch-time variants of a configuration for this problem (values of variant_name); returns the count,
	 * 0 when the configuration is not worth trying on this problem. */
	int (*variants)(void *state, const struct dlb_candidate *c, int *values, int max);
	/* Input sets the timing may rotate over. */
	int (*nsets)(void *state);
	int (*launch)(void *state, const struct dlb_candidate *c, int variant, int set);
	/* Poison set 0's output, run, compare with the reference. */
	int (*verify)(void *state, const struct dlb_candidate *c, int variant, struct dlb_check *out);
	/* Verify and time every vendor baseline; returns how many entries of out were filled (or < 0). */
	int (*vendor)(void *state, const struct dlb_bench_opts *o, struct dlb_vendor_entry *out, int max, int *n);
	/* Run entry `entry` of the last vendor() call on this problem once, on input set `set` (the side-by-side
	 * timing of the winner and the vendor best); NULL when the op cannot. */
	int (*vendor_launch)(void *state, int entry, int set);
	void (*teardown)(void *state);
};

extern const struct dlb_op *const dlb_ops[];
/* The entry of op `name` in precision `prec`, or NULL when that precision of the op is not built. */
const struct dlb_op *dlb_op_find(const char *name, enum dlb_prec prec);
/* The op's template text: template_file, then template_extra; caller frees; NULL if one is not embedded. */
char *dlb_op_template(const struct dlb_op *op);
/* FNV-1a hash of that text, as in the op's database keys (0 if missing). */
uint64_t dlb_op_template_hash_of(const struct dlb_op *op);
/* Whether any precision of op `name` is built. */
int dlb_op_known(const char *name);
/* "fp32 fp16 int8": the precisions built for op `name`. */
void dlb_op_precs(const char *name, char *buf, int len);
/* "gemm" — the registered names, space-separated, each once. */
void dlb_op_names(char *buf, int len);
#endif
