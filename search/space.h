/* space: a tuning space as data — parameters with value lists and constraint rows — enumerated and filtered. */
#ifndef DLB_SPACE_H
#define DLB_SPACE_H
#include <stddef.h>

#define DLB_MAX_PARAMS 12
#define DLB_MAX_VALUES 16

struct dlb_param {
	const char *name; /* the template macro it sets */
	const char *doc;
	int nvalues;
	int values[DLB_MAX_VALUES];
	int categorical; /* the values name kinds (kernel families), not amounts: the search's model gives each
	                  * value a level of its own, and its random start visits every value in turn */
	const char *const *value_names; /* a categorical parameter's kernel families as people name them, one
	                                 * per value ("FFMA", "3xTF32 wgmma, TMA im2col"); NULL: none. An fp32
	                                 * family's name begins with its arithmetic: "FFMA" for classic fp32 on
	                                 * the CUDA cores (what --fp32-math ffma keeps) */
};

struct dlb_config {
	int v[DLB_MAX_PARAMS]; /* values, in the order of the op's parameter table */
};

/* Device limits a configuration is checked against before it is compiled. */
struct dlb_limits {
	int max_threads_per_block;
	size_t smem_static; /* static shared memory per block (48 KiB) */
	size_t smem_optin;
	int regs_per_block;
	int sm;          /* target architecture, e.g. 90 for sm_90 / sm_90a; 0 when unknown (any row passes) */
	int sm_specific; /* the target has the arch-specific features (sm_90a: wgmma, setmaxnreg) */
};

/* A field of struct dlb_limits, named in a row whose bound is the device's. */
enum dlb_limit_field {
	DLB_LIMIT_NONE, /* the row's own constant */
	DLB_LIMIT_THREADS_PER_BLOCK,
	DLB_LIMIT_SMEM_STATIC,
	DLB_LIMIT_SMEM_OPTIN,
	DLB_LIMIT_REGS_PER_BLOCK,
	DLB_LIMIT_COUNT
};

/* What a constraint row says about a configuration v. */
enum dlb_constraint_kind {
	DLB_CON_MULTIPLE, /* v[a] is a multiple of v[b] (of n when b is DLB_CONST) */
	DLB_CON_DIVIDES,  /* v[a] divides v[b] (divides n when b is DLB_CONST) */
	DLB_CON_PRODUCT,  /* lo <= prod v[p]^exp[p] <= hi (or <= the limit field hi_limit), exactly, as a fraction */
	DLB_CON_CUSTOM,	  /* ok(v, lim): for what is not a product (sums, several bounds at once) */
	DLB_CON_COUNT
};

#define DLB_CONST (-1) /* in place of a parameter index: the row's constant n */

/* A constraint row: data the enumeration, the device-limit check and `dlbtune space` all read the same way,
 * with the text users see. Rows whose bound is a device limit (hi_limit, or a CUSTOM predicate that reads
 * lim) pass when no limits are given: the static check before a device is known. */
struct dlb_constraint {
	const char *text;
	enum dlb_constraint_kind kind;
	int a, b;			 /* MULTIPLE, DIVIDES: parameter indices; b may be DLB_CONST */
	int n;				 /* MULTIPLE, DIVIDES: the constant, when b is DLB_CONST */
	signed char exp[DLB_MAX_PARAMS]; /* PRODUCT: each parameter's exponent (0: not in the product) */
	long long lo, hi;		 /* PRODUCT: the bounds, inclusive */
	enum dlb_limit_field hi_limit;	 /* PRODUCT: the upper bound is this device limit instead of hi */
	int (*ok)(const int *v, const struct dlb_limits *lim); /* CUSTOM; lim may be NULL */
};

struct dlb_space {
	const struct dlb_param *params;
	int nparams;
	const struct dlb_constraint *constraints;
	int nconstraints;
};

/* 1 when configuration v satisfies row c under lim (NULL: no device known, limit bounds pass), else 0. */
int dlb_constraint_ok(const struct dlb_constraint *c, const int *v, const struct dlb_limits *lim);
/* 0 when v satisfies every one of rows[0..n), else 1 + the index of the first row it fails. */
int dlb_constraint_first_failed(const struct dlb_constraint *rows, int n, const int *v, const struct dlb_limits *lim);
/* 0 when row c is well formed for a space of nparams parameters; otherwise EINVAL, with the row and the
 * fault in dlb_last_error(). */
int dlb_constraint_check(const struct dlb_constraint *c, int nparams);
/* The value of a limit field (0 for DLB_LIMIT_NONE), and its name ("max threads per block"). */
long long dlb_limit_value(const struct dlb_limits *lim, enum dlb_limit_field f);
const char *dlb_limit_name(enum dlb_limit_field f);

/* Every configuration satisfying all constraints, in a fixed order (the first parameter varies slowest).
 * `limits` is passed through to the rows (device limits, or NULL for the static check).
 * rejected[c] (if given, one per constraint) counts configurations the first failing constraint removed.
 * Returns the count, or -1 when out of memory. */
int dlb_space_enumerate(const struct dlb_space *s, const struct dlb_limits *limits, struct dlb_config **out,
			int *rejected);
/* "BM=64 BN=64 BK=8 TM=8 TN=4" */
void dlb_config_format(const struct dlb_space *s, const struct dlb_config *c, char *buf, int len);
/* Parse the format above back; 0 or DLB_E_PARSE. */
int dlb_config_parse(const struct dlb_space *s, const char *text, struct dlb_config *c);

/* The order of a parameter's values along the search's coordinate: by magnitude, a negative value just before
 * its positive twin (-2 before 2 before -4). A negative value names the same amount done another way (a split
 * over K reduced in a cluster rather than through memory, say): ranked by sign first, the two ways would sit at
 * opposite ends of the axis, where the model's curve and the polish's one-step neighbours cannot see that
 * -4 is next to 4. Returns 1 when a comes before b. */
int dlb_value_before(int a, int b);
/* The search's coordinates along one parameter: each of n values, stride ints apart, replaced in place by its
 * rank among the distinct values in dlb_value_before's order. distinct: scratch for n ints. Returns how many
 * distinct values there are. tune and simulate both rank their points with it, so a replay sees the axes a
 * search saw. */
int dlb_value_ranks(int *v, int n, int stride, int *distinct);
#endif
