/* kernels: the candidates of one op for one target, compiled when the search is about to want them. A
 * candidate is read from the kernel cache (store/kcache.h) when it is there; otherwise the compiler process
 * (src/jit.h) compiles it, on the host's cores, in the order the search says it will want them, and the
 * result goes into the cache for every later run and every other process using the database. */
#ifndef DLB_KERNELS_H
#define DLB_KERNELS_H
#include "../store/store.h"
#include "jit.h"
#include "op.h"

struct dlb_kernel_stats {
	int cached;        /* read from the kernel cache (a cached compile failure included) */
	int compiled;      /* compiled by NVRTC in this run */
	int failed;        /* of those read or compiled: NVRTC rejected the source, or the compiler died on it */
	int corrupt;       /* cache entries that failed their checks: compiled again and replaced */
	double nvrtc_s;    /* NVRTC time of the candidates compiled in this run, summed over threads */
	double wait_s;     /* time the caller waited for a candidate: compiling on the critical path */
};

struct dlb_kernels {
	const struct dlb_op *op;
	char arch[16];
	struct dlb_candidate *cand; /* cand[i].job.rc: DLB_E_LIMIT when over a limit (never compiled) */
	int n;                      /* nconf * nspec: candidate s * nconf + i is configuration i, specialisation s */
	int nconf, nspec;
	int nonly;                  /* configurations left out by `only` (kept, as limit rejections) */
	unsigned char *state;       /* per candidate (kernels.c) */
	char **defines, **keys;     /* per candidate: its define block, its kernel cache key */
	char *tpl;
	struct dlb_store *cache;    /* NULL: no cache */
	int cache_writes;           /* 0 after a write failed: the run goes on without storing */
	struct dlb_jit_server server;
	int threads, restarts, verbose;
	int *want, nwant;           /* the last list given to the compiler process */
	int *unsaved, nunsaved;     /* compiled, not yet written to the cache */
	unsigned char *claimed;     /* per candidate: we claimed it in the cache (store/kcache.h) */
	int progress;               /* print "compiling: k/n" on a terminal while waiting for all */
	struct dlb_kernel_stats st;
};

/* The space of op, filtered by its constraints and the limits, with nothing compiled yet: each configuration
 * once per source specialisation of the op (op->nspecs; dlb_kernels_spec gives a problem's range). With every > 1 only
 * every every-th configuration of each kernel family (each value of the first categorical parameter); with
 * only, only the configurations whose text contains one of its '|'-separated pieces (the others are kept as
 * limit rejections). cache may be NULL; threads 0: one per core. Starts the compiler process. */
int dlb_kernels_open(const struct dlb_op *op, const char *arch, const struct dlb_limits *lim, int every,
		     const char *only, struct dlb_store *cache, int threads, int verbose, struct dlb_kernels **out);
void dlb_kernels_close(struct dlb_kernels *k);
/* The candidate problem p runs configuration i (0 .. k->nconf - 1) with: i in the specialisation it needs. */
int dlb_kernels_for(const struct dlb_kernels *k, const struct dlb_problem *p, int i);
/* The name of candidate i's specialisation ("NN"), or "" when the op has one source for every problem. */
const char *dlb_kernels_spec_name(const struct dlb_kernels *k, int i);
/* The candidates the caller will probably want next, most likely first: cached ones are read now; the rest
 * become the compiler process's queue (replacing what it had not started). */
int dlb_kernels_ahead(struct dlb_kernels *k, const int *ids, int n);
/* 1 when candidate i is compiled (or known to fail: cand[i].job.rc says). */
int dlb_kernels_ready(const struct dlb_kernels *k, int i);
/* Wait for candidate i (asking for it first); the wait counts as compile time on the critical path. */
int dlb_kernels_need(struct dlb_kernels *k, int i);
/* Wait until one of ids[0..n) is ready; *which: its index in ids (the first ready one in ids' order). */
int dlb_kernels_any(struct dlb_kernels *k, const int *ids, int n, int *which);
/* Take whatever the compiler process has finished, without waiting (between GPU requests). */
int dlb_kernels_poll(struct dlb_kernels *k);
/* Every candidate within the limits, compiled or read (the `compile` command, the GPU tests). */
int dlb_kernels_all(struct dlb_kernels *k);
/* The candidates ids[0..n), compiled or read (the `compile` command for a suite's problems). */
int dlb_kernels_some(struct dlb_kernels *k, const int *ids, int n);
/* The full source of candidate i (define block + template); caller frees. */
char *dlb_kernels_source(const struct dlb_kernels *k, int i);
/* The fd that is readable when the compiler process has something to say (-1: none running). */
int dlb_kernels_fd(const struct dlb_kernels *k);

/* db gc for a kernel cache: drop (unless dry) the entries no run of this build can use, those of an op or
 * precision it lacks, another template, other compile options or another NVRTC, and the damaged ones.
 * *dropped of *total entries. */
int dlb_kernels_cache_gc(struct dlb_store *kc, int dry, int *dropped, int *total);
#endif
