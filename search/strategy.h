/* strategy: which candidate to evaluate next, and when to stop the search of one problem.
 *   exhaustive  every candidate, in order (no search-level stop)
 *   random      a PCG32 permutation
 *   anneal      simulated annealing over neighbours (one parameter moved one step)
 *   model       a least-squares fit (GSL) of log time on each parameter and its square (on one level per
 *               value for a categorical parameter), refit after every evaluation, proposing the
 *               predicted-best untried candidate (after a random start that takes the values of the first
 *               categorical parameter in turn)
 * Search-level stop (all but exhaustive): after the random start, stop when the last `window` evaluations
 * improved the best by no more than eps (relative) and at least min_s seconds have passed, or the budget
 * (candidates or seconds) is spent. A
 * candidate that failed (no samples) counts as an evaluation without improvement and is left out of the
 * model's fit. Candidates are raced
 * (search/race.h) against the incumbent best. */
#ifndef DLB_STRATEGY_H
#define DLB_STRATEGY_H
#include "race.h"

#include <stdint.h>

enum dlb_strategy { DLB_STRAT_EXHAUSTIVE, DLB_STRAT_RANDOM, DLB_STRAT_ANNEAL, DLB_STRAT_MODEL, DLB_STRAT_COUNT };
const char *dlb_strategy_name(enum dlb_strategy s);
int dlb_strategy_parse(const char *s, enum dlb_strategy *out);

/* Candidates as points: coord[i*dim + d] is the index of candidate i's value of parameter d. Bit d of
 * categorical: parameter d names kinds, not amounts (see struct dlb_param). */
struct dlb_points {
	int n, dim;
	const int *coord;
	unsigned categorical;
};

struct dlb_search_opts {
	enum dlb_strategy strategy;
	int budget;     /* most candidates evaluated; 0: no limit */
	double budget_s; /* most seconds spent evaluating (by clock); 0: no limit */
	double (*clock)(void *arg); /* seconds, given evaluate's arg; NULL: the monotonic wall clock */
	uint64_t seed;
	double eps;     /* improvement that counts (default 0.01) */
	int window;     /* evaluations without one before stopping (0, the default: a fiftieth of the points, within
	                 * 4..the ceiling of window_max) */
	int window_max; /* the default window's ceiling (0: 8) */
	double min_s;   /* the window stops no search before this many seconds (by clock): where candidates are cheap to
	                 * time, searching on costs little and finds what the model missed; 0 (the default): none */
	int start;      /* random evaluations before the model proposes (0, the default: 3 per parameter + 3, at most an
	                 * eighth of the candidates, at least parameters + 3) */
	const int *first; /* candidates to evaluate first (seeds from nearby shapes), -1 terminated; may be NULL */
	int polish;     /* after a stop for want of improvement, try the best's untried neighbours (default 1) */
	int final;      /* the best few estimates raced again, tighter, to settle near-ties and drift (default 3) */
	/* For a caller whose points need work before they can be evaluated (compiling them): ahead(arg, pts, n)
	 * names the points the search expects to evaluate next, most likely first — the seeds and the random
	 * start's points at once, then after each fit the model's `lookahead` best predictions (the next ones
	 * of the order for random and exhaustive, the best's untried neighbours before a polish); pick(arg, pts,
	 * n) chooses which of n points that are equally good to the search (the random start's) to evaluate now,
	 * as an index into pts, and may wait until one is ready. NULL: neither; the order of evaluation is then
	 * the same as with them when pick always answers 0. */
	void (*ahead)(void *arg, const int *pts, int n);
	int (*pick)(void *arg, const int *pts, int n);
	int lookahead; /* 0: 8 */
};
void dlb_search_defaults(struct dlb_search_opts *o);
/* The default window's ceiling for a window_max (dlb_search_opts): 8 for 0 or less, else window_max, at least 4. */
int dlb_search_window_ceiling(int window_max);

struct dlb_search_result {
	int best;                      /* -1 when nothing finished */
	struct dlb_race_summary best_s;
	int evaluated;
	long samples;                  /* taken, over every candidate */
	char why[160];                 /* why the search stopped */
};

/* Race candidate i against the incumbent (NULL: none); with final, to half the target precision (the showdown
 * of the best few: the first with no incumbent, the others against the showdown's leader). 0, or an error
 * that ends the search. */
typedef int (*dlb_evaluate_fn)(void *arg, int i, const struct dlb_race_summary *incumbent, int final,
			       struct dlb_race_summary *out);
int dlb_search(const struct dlb_search_opts *o, const struct dlb_points *pts, dlb_evaluate_fn evaluate, void *arg,
	       struct dlb_search_result *res);
#endif
