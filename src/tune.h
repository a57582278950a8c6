/* tune: the driver — for each problem, answer from the database or compile, verify, time and store. */
#ifndef DLB_TUNE_H
#define DLB_TUNE_H
#include "../search/race.h"
#include "../search/strategy.h"
#include "../store/store.h"
#include "bench.h"
#include "op.h"
#include "result.h"
#include "suite.h"
#include "supervise.h"

#include <signal.h>

struct dlb_tune_opts {
	int retune;                 /* ignore stored results */
	int verbose;
	struct dlb_search_opts search; /* strategy, budget, seed, search-level stop (search/strategy.h) */
	struct dlb_race_opts race;     /* per candidate: when to stop sampling (search/race.h) */
	struct dlb_bench_opts sample;  /* how one sample of a candidate is taken: warm-up, launches per sample */
	struct dlb_bench_opts vendor;  /* every vendor algorithm: a fixed number of samples */
	int seeds;                     /* best configurations of this many nearby tuned shapes go first (0: none) */
	struct dlb_store *kcache;      /* the kernel cache (store/kcache.h); NULL: every candidate compiled */
	int paired;                    /* pairs of samples of the winner and the vendor best, timed side by side
	                                * after the baselines (struct dlb_paired; 0: none) */
	double power_ms;               /* after the pairs, each one's energy burst of about this long (struct
	                                * dlb_energy; 0: none) */
	int per_gpu;                   /* key results by the GPU's UUID, not its model (--per-gpu) */
	const char *only;              /* a restricted search (src/kernels.h): only these configurations; its
	                                * results and trials live under keys of their own (store/key.h's only) */
	/* Test hooks: candidates appended to the compiled space (or, with only_extra, instead of it), another
	 * worker (NULL: dlb_worker_main), and the floor of every candidate's time limit (0: 10 s). */
	const struct dlb_candidate *extra;
	int nextra, only_extra;
	dlb_worker_fn worker;
	double floor_s;
};


void dlb_candidates_free(struct dlb_candidate *c, int n);
/* Limits of a device (or the defaults every sm_80+ GPU meets, when dev is NULL). */
void dlb_limits_of(const struct dlb_device *dev, struct dlb_limits *lim);
/* The target of an NVRTC arch name ("sm_90a") in lim; without a device (have_device 0), also that target's
 * opt-in shared memory in place of the generic default. */
void dlb_limits_for_arch(const char *arch, int have_device, struct dlb_limits *lim);
/* 0 when cand passes every limit row of op. */
int dlb_candidate_within_limits(const struct dlb_op *op, const struct dlb_candidate *c, const struct dlb_limits *lim);
/* Loads a compiled candidate's module and kernels on the current device (once), gives its kernels the
 * dynamic shared memory they need, and checks it against the device with the driver's own numbers (the
 * kernel's register-bound maximum threads, its static shared memory): DLB_E_LIMIT when it does not fit. The
 * worker runs every candidate through it; so do the GPU tests, so a limit row that wrongly rejects a family
 * fails there. */
int dlb_candidate_load(const struct dlb_op *op, const struct dlb_device *dev, struct dlb_candidate *c);

/* The database key of problem p on dev; only: the restriction of a restricted search (--only), or NULL. */
int dlb_problem_key(const struct dlb_device *dev, int per_gpu, const struct dlb_problem *p, const char *only, char *buf,
		    size_t len);
/* The id= of dev's keys: its model (store/key.h), or with per_gpu its UUID. */
void dlb_device_key_id(const struct dlb_device *dev, int per_gpu, char *buf, size_t len);
/* Every problem must fit in free_bytes of device memory; DLB_E_USAGE naming the first that does not. */
int dlb_check_memory(const struct dlb_suite *suite, const struct dlb_device *dev, size_t free_bytes);
/* Start a worker on GPU ordinal just to learn the device (facts, versions, free memory) and, if count is not
 * NULL, how many GPUs there are: the parent process never calls CUDA itself. */
int dlb_tune_probe(int ordinal, const struct dlb_op *op, struct dlb_device *dev, size_t *free_mem, int *count);
/* Tune (or look up) every problem of the suite; results[i] for problem i. GPU work runs in worker processes:
 * a candidate that faults, hangs or poisons the context is stored with its status and a fresh worker goes
 * on. Each trial is stored as it finishes; an interrupted problem resumes from its stored trials. Stops on
 * an interrupt (DLB_E_INTERRUPTED); a problem that cannot be set up is marked failed and skipped.
 * With ndev > 1 GPUs (devs[0..ndev)), one driver process per GPU takes the next problem when it finishes one;
 * they share the database and the kernel cache (a candidate is compiled once: store/kcache.h's claims), and
 * results[i].ran_on says which GPU tuned problem i. ndev 1 is the same as one GPU without the others. */
int dlb_tune(const struct dlb_tune_opts *o, const struct dlb_suite *suite, const struct dlb_device *devs, int ndev,
	     struct dlb_store *db, struct dlb_result *results);
#endif
