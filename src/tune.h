/* tune: the driver — for each problem, answer from the database or compile, verify, time and store. */
#ifndef DLB_TUNE_H
#define DLB_TUNE_H
#include "../store/store.h"
#include "bench.h"
#include "op.h"
#include "result.h"
#include "suite.h"

#include <signal.h>

struct dlb_tune_opts {
	int retune;                 /* ignore stored results */
	int verbose;
	int top;                    /* candidates re-timed with the full sample count after screening */
	struct dlb_bench_opts screen; /* every verified candidate */
	struct dlb_bench_opts final;  /* the top candidates and every vendor algorithm */
};

/* Set by the signal handler in main; the driver stops between candidates, keeping finished problems. */
extern volatile sig_atomic_t dlb_interrupted;

/* The space of op filtered by its constraints and the given limits; compile failures and limit rejections
 * are kept with their status. *out holds nstatic (constraint-valid) candidates. */
int dlb_compile_space(const struct dlb_op *op, const char *arch, const struct dlb_limits *lim, int verbose,
		      struct dlb_candidate **out, int *n);
void dlb_candidates_free(struct dlb_candidate *c, int n);
/* Limits of a device (or the defaults every sm_80+ GPU meets, when dev is NULL). */
void dlb_limits_of(const struct dlb_device *dev, struct dlb_limits *lim);
/* 0 when cand passes every limit row of op. */
int dlb_candidate_within_limits(const struct dlb_op *op, const struct dlb_candidate *c, const struct dlb_limits *lim);

/* The database key of problem p on dev. */
int dlb_problem_key(const struct dlb_device *dev, const struct dlb_problem *p, char *buf, size_t len);
/* Every problem must fit in free device memory; DLB_E_USAGE naming the first that does not. */
int dlb_check_memory(const struct dlb_suite *suite, const struct dlb_device *dev);
/* Tune (or look up) every problem of the suite; results[i] for problem i. Stops early, keeping what is
 * stored, on an interrupt (DLB_E_INTERRUPTED) or an error that poisons the GPU context. */
int dlb_tune(const struct dlb_tune_opts *o, const struct dlb_suite *suite, struct dlb_device *dev,
	     struct dlb_store *db, struct dlb_result *results);
#endif
