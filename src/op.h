/* op: the seam between generic code and the op families. A family (GEMM, convolution, ...) declares its
 * problem — dimensions, work measure, vendor library, extra table columns — once; an op is one (family,
 * precision) entry with its tuning space, template and the hooks that set up a problem, launch a candidate,
 * verify it and time the vendor. Generic code loops over what they declare and never names one of them.
 * docs/ARCHITECTURE.md says how to add one. */
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

/* A library the results depend on: its version is recorded with every platform (and, for a family's vendor
 * library, in every key, so a result measured with another version never answers as current). */
struct dlb_lib {
	const char *key;  /* in key and platform texts and JSON (lower case) */
	const char *name; /* for people */
	long long (*version)(void);              /* the version this build runs with; works without a GPU */
	void (*format)(long long v, char *buf, int len); /* "13.1.0" */
	int in_platform_key;                     /* part of the platform key text (in the registry's order) */
};
/* Every library known to the build (src/ops/libs.c), NULL-terminated, in the order of platform records. */
extern const struct dlb_lib *const dlb_libs[];
/* The version of lib this build runs with, as text. */
void dlb_lib_version_text(const struct dlb_lib *lib, char *buf, int len);

/* An extra column of a family's tables: the best verified vendor entry of one kind (e.g. GEMM's cuBLAS and
 * best-cuBLASLt times). */
struct dlb_vendor_col {
	const char *title; /* text table ("... us") */
	const char *field; /* CSV column and JSON field ("..._us") */
	int kind;          /* vendor entries with this kind (struct dlb_vendor_entry) */
	/* Where a kind holds several algorithms: a column before the time naming the fastest (its entry's name
	 * after the first ':'), with these title and field; NULL for none. */
	const char *name_title, *name_field;
};

struct dlb_result;
/* A number a family derives from a result (a convolution's output size, the winner's workspace): NAN where it
 * does not exist. `after` places it: 0 after the problem's dims, 1 after the family's vendor columns. */
struct dlb_derived_col {
	const char *title, *field;
	int width;
	const char *fmt; /* text and CSV ("%g") */
	int after;
	double (*get)(const struct dlb_result *r);
};

/* How a family's throughput is measured. */
enum dlb_work_kind {
	DLB_WORK_FLOPS, /* work() in operations: the precision's unit (TFLOP/s, TOPS) against its compute peak */
	DLB_WORK_BYTES, /* work() in bytes moved: GB/s against the device's memory bandwidth */
};

struct dlb_gpu;

/* An option beyond the dims that gives part of a problem from a file (the sparse family's --matrix FILE: A read
 * from a Matrix Market file). set() reads value and fills the dims it decides, marking them in given[]; it keeps
 * what the family's setup needs to find the data again, in this process (workers are forked from it). 0, or
 * DLB_E_USAGE / DLB_E_PARSE with the reason (a malformed file names its line). */
struct dlb_family_option {
	const char *name;  /* --NAME */
	const char *arg;   /* "FILE" */
	const char *about; /* for --help */
	int (*set)(const char *value, int64_t *dim, int *given);
};

/* What one op family declares about its problems. */
struct dlb_onnx_graph;
struct dlb_onnx_node;
/* A plot of the family's own, which the report draws for each group of its results: one series per y column
 * against the x column, columns named by their CSV field in the family's column list (reports/columns.c). */
struct dlb_family_plot {
	const char *name;   /* of its files: <group>_<name>.csv, .gp, .svg */
	const char *title;  /* "speedup wrt dense against sparsity" */
	const char *x;      /* the x column's field */
	int logx;           /* a log scale on x */
	const char *y[4];   /* the series' fields, NULL-terminated */
	const char *ylabel;
	int one;            /* a dashed line at y = 1 (even) */
};

struct dlb_family {
	const char *name;  /* --op, keys, built-in suites (<name>_<suite>.csv) */
	const char *about; /* the problem in one line, for --help */
	const char *examples;      /* lines of --help's examples ("  dlbtune --op NAME ...   what it does\n") */
	const char *default_suite; /* the built-in suite tune runs without --suite or a problem ("training") */
	const struct dlb_dim *dims;
	int ndims;
	enum dlb_work_kind work_kind;
	double (*work)(const struct dlb_problem *p); /* of the problem as given (not padded) */
	/* Bytes a kernel must move at least on the problem as given: its inputs read once and its output written
	 * once, with input elements of es_in bytes and output elements of es_out (the op's). The report's roofline
	 * puts work / min_bytes on its x axis. NULL: not known (no roofline). */
	double (*min_bytes)(const struct dlb_problem *p, int es_in, int es_out);
	/* Whether the dims, each within its range, make a problem together (a convolution's filter must fit
	 * its padded input): 0, or DLB_E_USAGE with the reason in why. NULL: every combination does. */
	int (*check)(const int64_t *dim, char *why, int len);
	/* lookup's nearest shape; NULL: Euclidean in log2 of the SIZE and REAL dims, plus 1 for another layout */
	double (*distance)(const struct dlb_problem *a, const struct dlb_problem *b);
	const struct dlb_lib *vendor_lib; /* its version is in every key of the family */
	const char *vendor_about;         /* for --help: the baselines and the reference */
	const struct dlb_vendor_col *cols;
	int ncols;
	const struct dlb_family_option *options; /* NULL: none */
	int noptions;
	const struct dlb_derived_col *derived; /* NULL: none */
	int nderived;
	/* The problem as people read it in progress lines and messages ("700x161 c1 n1 k32 20x5 stride 2 NCHW"),
	 * layout included; NULL: the key's shape and layout texts. Keys never use it. */
	void (*describe)(const int64_t *dim, char *buf, int len);
	/* The family's per-process GPU state (its vendor library's handles, reference kernels), opened on first
	 * use by dlb_gpu_family_state and closed with the GPU context; NULL when it has none. */
	int (*open)(struct dlb_gpu *g, void **state);
	void (*close)(void *state);
	/* The ONNX op types whose nodes are this family's problems (`dlbtune model`), NULL-terminated; NULL: none */
	const char *const *onnx_ops;
	/* Node n (one of onnx_ops, its shapes inferred: src/onnx.h) as this family's problem: 0 with dim[] set (the
	 * rest at their defaults) and *times the problems of that shape the node computes (a product batched on
	 * both sides: one per batch); or DLB_E_USAGE with the reason in why (what the family does not tune). */
	int (*from_onnx)(const struct dlb_onnx_graph *g, const struct dlb_onnx_node *n, int64_t *dim, int64_t *times,
			 char *why, int len);
	const struct dlb_family_plot *plot; /* the report's plot of the family's own; NULL: none */
};

#define DLB_OP_NOTE_MAX 512 /* struct dlb_op's data_note (spmm fp16 on a block pattern: about 290 with every copy named) */

/* One configuration, compiled (or not) and loaded (or not). */
struct dlb_candidate {
	struct dlb_config cfg;
	char text[128]; /* "BM=64 BN=64 ..." */
	struct dlb_jit_job job;
	int left_out; /* --only left it out (src/kernels.h): never compiled, not a point of the search, no trial */
	int loaded;
	struct dlb_module mod;
	cudaKernel_t kernels[DLB_JIT_MAX_KERNELS];
	struct cudaFuncAttributes attrs; /* the most demanding of the first ndyn_kernels (at least the first): fewest threads, most registers and static shared memory */
};

struct dlb_op {
	const char *name;                    /* the family's name */
	const struct dlb_family *family;
	enum dlb_prec prec;                  /* one entry per (family, precision) */
	const char *summary;
	int es_in, es_out;                   /* bytes of an input element and of an output element (dlb_op_min_bytes) */
	const char *template_file;           /* embedded file name */
	const char *template_extra;          /* a second embedded file appended to the first, or NULL */
	const char *template_more;           /* a third, after the second, or NULL */
	const char *defines;                 /* fixed lines put before the tunables' defines (e.g. the precision) */
	const char *const *kernel_names;     /* looked up in each candidate's module */
	int nkernels;
	int ndyn_kernels;                    /* the first ndyn_kernels of them (the main kernels, one per layout) take
	                                      * dyn_smem; the rest none */
	const char *variant_name;            /* a launch-time tunable (e.g. SPLITK), or NULL */
	int search_window_max;               /* the search's default window: a fiftieth of the points, within 4 and
	                                      * this (0: 8); more for a space whose best kind of kernel is a small
	                                      * part of it (docs/NOTES.md item 165) */
	/* Source specialisations: per configuration, nspecs cubins, each compiled with one of spec_defines after
	 * the tunables' defines (gemm: one per kernel layout, whose other layouts' kernels trap). A problem needs
	 * only the one its launches use with configuration v (spec_of), which compiles in a fraction of the time
	 * of all. 0: one source serves every problem. */
	int nspecs;
	const char *const *spec_defines;
	const char *const *spec_names;       /* short names for listings and cache keys */
	int (*spec_of)(const struct dlb_problem *p, const int *v);
	/* Whether some problem may run configuration v with specialisation s (what `compile` compiles without a
	 * suite); NULL: every one may. */
	int (*spec_used)(const struct dlb_op *op, int s, const int *v);
	struct dlb_space space;              /* compile-time tunables and their constraints */
	const struct dlb_constraint *limit_checks; /* device-limit rows, given a struct dlb_limits (search/space.h) */
	int nlimit_checks;

	/* Dynamic shared memory (bytes) a configuration's first ndyn_kernels kernels are launched with; NULL:
	 * none. Loading a candidate raises those kernels' limit to it (the opt-in limit beyond 48 KiB). */
	size_t (*dyn_smem)(const int *v);

	/* Device bytes the problem needs (inputs, outputs, reference, workspace). */
	size_t (*device_bytes)(const struct dlb_problem *p, const struct dlb_device *dev);

	/* GPU side: one problem at a time. */
	int (*setup)(struct dlb_gpu *g, const struct dlb_problem *p, void **state);
	/* Launch-time variants of a configuration for this problem (values of variant_name); returns the count,
	 * 0 when the configuration is not worth trying on this problem. NULL: one launch, variant 1. */
	int (*variants)(void *state, const struct dlb_candidate *c, int *values, int max);
	/* Input sets the timing may rotate over. */
	int (*nsets)(void *state);
	int (*launch)(void *state, const struct dlb_candidate *c, int variant, int set);
	/* Poison set 0's output, run, compare with the reference. */
	int (*verify)(void *state, const struct dlb_candidate *c, int variant, struct dlb_check *out);
	/* The accuracy of what ran last into set 0's output (after verify), against the exact result in double at
	 * sampled outputs (struct dlb_rel_err); NULL: the op does not measure it. */
	int (*accuracy)(void *state, struct dlb_rel_err *out);
	/* Verify and time every vendor baseline; returns how many entries of out were filled (or < 0). */
	int (*vendor)(void *state, const struct dlb_bench_opts *o, struct dlb_vendor_entry *out, int max, int *n);
	/* Run entry `entry` of the last vendor() call on this problem once, on input set `set` (the side-by-side
	 * timing of the winner and the vendor best); NULL when the op cannot. */
	int (*vendor_launch)(void *state, int entry, int set);
	/* One line about the problem's data as setup made it (a generated sparse matrix's nonzeros and row
	 * lengths), at most DLB_OP_NOTE_MAX bytes with its NUL, shown under the problem's progress line; NULL: none. */
	void (*data_note)(void *state, char *buf, int len);
	void (*teardown)(void *state);
};

/* The ops of this build (src/ops/registry.c), NULL-terminated. */
extern const struct dlb_op *const dlb_builtin_ops[];
/* Add an op to those dlb_op_at lists (a program that brings its own, e.g. the tests' toy op); before any
 * parsing. 0, or ENOSPC. */
int dlb_op_register(const struct dlb_op *op);
/* The i-th op, built-in then registered; NULL past the last. */
const struct dlb_op *dlb_op_at(int i);
/* The family named name, or NULL. */
const struct dlb_family *dlb_family_find(const char *name);
/* The i-th distinct family, in the order of the ops; NULL past the last. */
const struct dlb_family *dlb_family_at(int i);
/* The entry of op `name` in precision `prec`, or NULL when that precision of the op is not built. */
const struct dlb_op *dlb_op_find(const char *name, enum dlb_prec prec);
/* The kernel family of a configuration of op as text ("BM=64 ... KIND=2"): the name of its value of the op's first
 * parameter that names its values (struct dlb_param's value_names); NULL where the op has none or the text does
 * not give it. */
const char *dlb_op_config_family(const struct dlb_op *op, const char *config);
/* 1 when op's space has a kernel family whose name does not begin with "FFMA" (conv fp32's 3xTF32), so that
 * --fp32-math ffma restricts it; 0 for an op whose families are all FFMA or unnamed. */
int dlb_op_has_non_ffma(const struct dlb_op *op);
/* The --only piece that keeps the families whose names begin with "FFMA". */
#define DLB_ONLY_FFMA "family:FFMA"

/* The op's template text: template_file, then template_extra and template_more; caller frees; NULL if one is not embedded. */
char *dlb_op_template(const struct dlb_op *op);
/* FNV-1a hash of that text, as in the op's database keys (0 if missing). */
uint64_t dlb_op_template_hash_of(const struct dlb_op *op);
/* Whether any precision of op `name` is built. */
int dlb_op_known(const char *name);
/* "fp32 fp16 int8": the precisions built for op `name`. */
void dlb_op_precs(const char *name, char *buf, int len);
/* "gemm" — the registered names, space-separated, each once. */
void dlb_op_names(char *buf, int len);
/* The dim of f named name, or -1. */
int dlb_family_dim(const struct dlb_family *f, const char *name);

/* Throughput: the family's unit for op's precision ("TFLOP/s", "TOPS", "GB/s"), what its %peak is a share of,
 * and that peak on dev in the unit (NAN when unknown). */
const char *dlb_op_unit(const struct dlb_op *op);
const char *dlb_op_peak_about(const struct dlb_op *op);
double dlb_op_peak(const struct dlb_op *op, const struct dlb_device *dev);
/* The family's min_bytes with the op's element sizes; NAN where either is not declared. */
double dlb_op_min_bytes(const struct dlb_op *op, const struct dlb_problem *p);
/* work / seconds in the op's unit. */
double dlb_op_throughput(const struct dlb_op *op, const struct dlb_problem *p, double us);
#endif
