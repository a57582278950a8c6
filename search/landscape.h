/* landscape: a tuning problem without a GPU — candidates with true times and a noise model — on which the
 * real strategies and racer run (`dlbtune simulate`, tests/test_race.c). Synthetic landscapes are a smooth
 * function of the parameters; recorded ones come from a database's trials. */
#ifndef DLB_LANDSCAPE_H
#define DLB_LANDSCAPE_H
#include "pcg32.h"
#include "strategy.h"

#include <stdint.h>

struct dlb_landscape {
	int n, dim;
	int *coord;      /* n*dim value indices */
	double *truth;   /* true time of each candidate */
	double *sd;      /* standard deviation of its log-time noise */
	double outlier;  /* probability that a sample is an outlier (1.5-3x slower) */
	unsigned categorical; /* bit d: parameter d names kinds, not amounts (struct dlb_points) */
};

/* Room for n candidates of dim coordinates, zeroed (a recorded landscape fills it); -1 out of memory. */
int dlb_landscape_alloc(int n, int dim, struct dlb_landscape *L);
/* n candidates on a grid of levels[0..dim) (n = their product), true times exp of a smooth function of the
 * coordinates (a tilted bowl, a weak interaction and a 1% ripple) spanning about 4x, noise of the given
 * coefficient of variation. */
int dlb_landscape_synthetic(const int *levels, int dim, double cv, double outlier, uint64_t seed,
			    struct dlb_landscape *L);
void dlb_landscape_free(struct dlb_landscape *L);
double dlb_landscape_sample(const struct dlb_landscape *L, int i, struct dlb_pcg32 *rng);

struct dlb_sim_result {
	int trials;
	double accuracy;        /* share of runs whose choice is within 1% of the true best */
	double samples_ratio;   /* samples taken / (50 x candidates), mean over runs */
	double evaluated_share; /* candidates evaluated / candidates, mean over runs */
	double evaluated_max;   /* the largest share in any run */
	double within_both;     /* share of runs within 1% AND evaluating <= 25% */
	/* Estimated GPU time, mean per run: every evaluated candidate costs a verification and two warm-up runs
	 * (3 x its true time) besides its samples; against an exhaustive search of fixed 3 samples (2 warm-up
	 * runs, a verification, 3 samples each, and a showdown of 3 x 50 samples of the best). */
	double time_search, time_exhaustive;
	double gap;             /* geometric mean of the chosen candidate's true time over the true best's */
};

/* trials seeded runs of the search (strategy, racer) on L. */
int dlb_simulate(const struct dlb_landscape *L, const struct dlb_search_opts *so, const struct dlb_race_opts *ro,
		 int trials, uint64_t seed, struct dlb_sim_result *out);
#endif
