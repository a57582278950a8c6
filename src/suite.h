/* suite: problem lists — DeepBench's suites built into the binary, or a user's CSV file. */
#ifndef DLB_SUITE_H
#define DLB_SUITE_H
#include "problem.h"

struct dlb_suite {
	char name[256];
	struct dlb_problem *problems;
	int n;
};

/* Parse CSV text: a header naming the columns m,n,k,a_t,b_t (any order), then one problem a row; blank
 * lines and lines starting with '#' are skipped. `origin` names the source in errors ("FILE:LINE: ...").
 * Returns 0, DLB_E_PARSE (message via dlb_last_error) or ENOMEM. */
int dlb_suite_parse(const char *text, const char *origin, const struct dlb_op *op, enum dlb_prec prec,
		    struct dlb_suite *out);
/* NAME ("training", "inference_server", or "gemm_training") selects a built-in suite of the op; anything
 * containing '/' or ending in .csv is read as a file. */
int dlb_suite_load(const char *name_or_file, const struct dlb_op *op, enum dlb_prec prec, struct dlb_suite *out);
/* Built-in suite names for an op, space-separated, for --help and errors. */
void dlb_suite_builtin_names(const struct dlb_op *op, char *buf, int len);
void dlb_suite_free(struct dlb_suite *s);
#endif
