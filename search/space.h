/* space: a tuning space as data — parameters with value lists and constraint rows — enumerated and filtered. */
#ifndef DLB_SPACE_H
#define DLB_SPACE_H

#define DLB_MAX_PARAMS 12
#define DLB_MAX_VALUES 12

struct dlb_param {
	const char *name; /* the template macro it sets */
	const char *doc;
	int nvalues;
	int values[DLB_MAX_VALUES];
};

struct dlb_config {
	int v[DLB_MAX_PARAMS]; /* values, in the order of the op's parameter table */
};

/* A constraint row: a predicate over a configuration, with the text users see in `--verbose`. */
struct dlb_constraint {
	const char *text;
	int (*ok)(const int *v, const void *limits);
};

struct dlb_space {
	const struct dlb_param *params;
	int nparams;
	const struct dlb_constraint *constraints;
	int nconstraints;
};

/* Every configuration satisfying all constraints, in a fixed order (the first parameter varies slowest).
 * `limits` is passed through to the predicates (device limits, or NULL for the static check).
 * rejected[c] (if given, one per constraint) counts configurations the first failing constraint removed.
 * Returns the count, or -1 when out of memory. */
int dlb_space_enumerate(const struct dlb_space *s, const void *limits, struct dlb_config **out, int *rejected);
/* "BM=64 BN=64 BK=8 TM=8 TN=4" */
void dlb_config_format(const struct dlb_space *s, const struct dlb_config *c, char *buf, int len);
/* Parse the format above back; 0 or DLB_E_PARSE. */
int dlb_config_parse(const struct dlb_space *s, const char *text, struct dlb_config *c);
#endif
