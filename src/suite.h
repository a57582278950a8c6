/* suite: problem lists — DeepBench's suites built into the binary, or a user's CSV file. */
#ifndef DLB_SUITE_H
#define DLB_SUITE_H
#include "problem.h"

struct dlb_suite {
	char name[256];
	struct dlb_problem *problems;
	int n;
};

/* Parse CSV text: a header naming the op's dims (their csv names, any order; a dim with a default may be left
 * out), then one problem a row; blank lines and lines starting with '#' are skipped. `origin` names the source in errors ("FILE:LINE: ...").
 * Returns 0, DLB_E_PARSE (message via dlb_last_error) or ENOMEM. */
int dlb_suite_parse(const char *text, const char *origin, const struct dlb_op *op, enum dlb_prec prec,
		    struct dlb_suite *out);
/* NAME ("training", or "gemm_training") selects a built-in suite of the op (embedded <op>_<NAME>.csv); anything
 * containing '/' or ending in .csv is read as a file. */
int dlb_suite_load(const char *name_or_file, const struct dlb_op *op, enum dlb_prec prec, struct dlb_suite *out);
/* Built-in suite names for an op, space-separated, for --help and errors. */
void dlb_suite_builtin_names(const char *op_name, char *buf, int len);
/* The columns of a family's suites, "m,n,k,a_t,b_t". */
struct dlb_family;
void dlb_suite_columns(const struct dlb_family *f, char *buf, int len);
void dlb_suite_free(struct dlb_suite *s);
#endif
