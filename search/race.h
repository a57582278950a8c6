/* race: how many timing samples one candidate gets. Samples are taken in rounds; the racer works on log
 * times (timing noise is multiplicative), and stops a candidate as soon as it can say one of:
 *   slower     it is slower than the incumbent best with confidence (one-sided Welch test, p < alpha);
 *   precise    its mean is known to the target relative precision (CI half-width, Student t);
 *   cap        it reached the sample cap without either: flagged noisy.
 * With `fixed` set there is no racing: every candidate gets exactly that many samples (stop "fixed") — the
 * classic tuner, kept as the baseline racing is measured against.
 * Leading samples that are far above the rest (cold caches, clocks ramping) are discarded first. */
#ifndef DLB_RACE_H
#define DLB_RACE_H

struct dlb_race_opts {
	double confidence; /* of the CI behind "precise" (default 0.95) */
	double precision;  /* target relative half-width (default 0.01) */
	double alpha;      /* significance of "slower" (default 0.01: 200 candidates each tested against the
	                    * incumbent must rarely throw away the true best) */
	int min_samples;   /* before any decision (default 4; "precise" needs twice as many) */
	int max_samples;   /* the cap (default 50) */
	int round;         /* samples per round after the first min_samples (default 2) */
	int max_discard;   /* leading samples that may be discarded as warm-up (default 3) */
	int fixed;         /* > 0: no racing, exactly this many samples (default 0) */
};
void dlb_race_defaults(struct dlb_race_opts *o);
/* The options of a showdown race (search/strategy.h): half the target width, twice the cap; with fixed
 * sampling, max_samples samples each. */
void dlb_race_final_opts(const struct dlb_race_opts *o, struct dlb_race_opts *out);

enum dlb_race_stop { DLB_RACE_SLOWER, DLB_RACE_PRECISE, DLB_RACE_CAP, DLB_RACE_FIXED, DLB_RACE_ERROR };
const char *dlb_race_stop_name(enum dlb_race_stop s);

/* What is known of a candidate: moments of its log times. */
struct dlb_race_summary {
	int n;            /* samples kept */
	int taken;        /* samples taken, discarded ones included */
	double mean, var; /* of log(time) */
	double est;       /* exp(mean): the time estimate (geometric mean) */
	double rel_half;  /* CI half-width of the mean, relative */
	enum dlb_race_stop stop;
};

/* Takes k more samples of the candidate into t[0..k) (a round at a time: one request to a GPU worker).
 * 0 ok; anything else ends the race with DLB_RACE_ERROR. */
typedef int (*dlb_sample_fn)(void *arg, int k, double *t);
/* Take samples of one candidate, racing it against the incumbent (NULL or n == 0: none yet). The samples
 * kept are the last out->n of the out->taken taken (the first taken - n were discarded as warm-up). */
void dlb_race(const struct dlb_race_opts *o, dlb_sample_fn sample, void *arg, const struct dlb_race_summary *incumbent,
	      struct dlb_race_summary *out);
/* One-sided Welch test: the p-value of "a is not slower than b" given a's and b's log-time moments. */
double dlb_welch_p_slower(const struct dlb_race_summary *a, const struct dlb_race_summary *b);
#endif
