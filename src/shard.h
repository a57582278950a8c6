/* shard: a suite split into N disjoint parts of about equal estimated work, computed the same way on every
 * host, so that the tasks of a Slurm array (or the ranks of an MPI job) each tune one part into a database of
 * their own without talking to each other; `dlbtune merge` of the parts gives what one run would have. */
#ifndef DLB_SHARD_H
#define DLB_SHARD_H
#include "suite.h"

#include <stddef.h>

#define DLB_SHARD_MAX 4096

struct dlb_shard {
	int index, count; /* part index (0-based) of count */
	char from[64];    /* where it came from: "--shard", "SLURM_ARRAY_TASK_ID", "OMPI_COMM_WORLD_RANK", ... */
};

/* "I/N" with 0 <= I < N <= DLB_SHARD_MAX: 0, or DLB_E_USAGE with the reason. */
int dlb_shard_parse(const char *text, struct dlb_shard *out);
/* The part a scheduler gave this process: a Slurm array task (SLURM_ARRAY_TASK_ID minus SLURM_ARRAY_TASK_MIN, of
 * SLURM_ARRAY_TASK_COUNT), else an MPI launcher's rank and size (Open MPI, MPICH/Hydra's PMI, PMIx, MVAPICH2).
 * 1 when one was found, 0 when none, DLB_E_USAGE when the variables are there but make no sense. */
int dlb_shard_from_env(struct dlb_shard *out);
/* Estimated seconds to tune p: the search's floor plus a share that grows with the problem's work. */
double dlb_shard_cost(const struct dlb_problem *p);
/* owner[i] (0 .. count - 1) for each of the suite's problems: the costliest first, each onto the part with the
 * least estimated work so far (ties: the lower part; equal costs: suite order). Deterministic. */
int dlb_shard_assign(const struct dlb_suite *s, int count, int *owner);
/* Keep only part sh->index of s (in suite order); *total_cost and *part_cost (may be NULL) say how much of the
 * estimated work that is. */
int dlb_shard_filter(struct dlb_suite *s, const struct dlb_shard *sh, double *total_cost, double *part_cost);
#endif
