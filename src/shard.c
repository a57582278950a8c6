/* shard: longest-processing-time-first over a cost model of tuning (see dlb_shard_cost). */
#include "shard.h"

#include "err.h"
#include "op.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dlb_shard_parse(const char *text, struct dlb_shard *out)
{
	int rc = 0;
	long i, n;
	char *end, *end2;
	errno = 0;
	i = strtol(text, &end, 10);
	if (end == text || *end != '/' || errno)
		goto bad;
	n = strtol(end + 1, &end2, 10);
	if (end2 == end + 1 || *end2 || errno || n < 1 || n > DLB_SHARD_MAX || i < 0 || i >= n)
		goto bad;
	out->index = (int)i;
	out->count = (int)n;
	snprintf(out->from, sizeof out->from, "--shard");
	return 0;
bad:
	DLB_USER_FAIL(DLB_E_USAGE, "--shard '%s': expected I/N, part I (counted from 0) of N parts, 0 <= I < N <= %d, e.g. "
				   "--shard 0/4",
		      text, DLB_SHARD_MAX);
fail:
	return rc;
}

/* An integer environment variable: 1 (and *v), 0 when unset, -1 when not an integer. */
static int env_int(const char *name, long *v)
{
	const char *s = getenv(name);
	char *end;
	if (!s || !*s)
		return 0;
	errno = 0;
	*v = strtol(s, &end, 10);
	return *end || errno ? -1 : 1;
}

int dlb_shard_from_env(struct dlb_shard *out)
{
	int rc = 0;
	static const char *const pairs[][2] = {
		{"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"}, /* Open MPI */
		{"PMI_RANK", "PMI_SIZE"},                         /* MPICH, Intel MPI (Hydra) */
		{"PMIX_RANK", "PMIX_SIZE"},                       /* PMIx launchers */
		{"MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_SIZE"},   /* MVAPICH2 */
	};
	long id, count, min = 0;
	int a = env_int("SLURM_ARRAY_TASK_ID", &id), b = env_int("SLURM_ARRAY_TASK_COUNT", &count);
	if (a && b) {
		int c = env_int("SLURM_ARRAY_TASK_MIN", &min);
		if (a < 0 || b < 0 || c < 0 || count < 1 || count > DLB_SHARD_MAX || id - min < 0 || id - min >= count)
			DLB_USER_FAIL(DLB_E_USAGE, "a Slurm array task, but SLURM_ARRAY_TASK_ID=%s, SLURM_ARRAY_TASK_MIN=%s and "
						   "SLURM_ARRAY_TASK_COUNT=%s give no part of the suite (the array must be "
						   "MIN..MIN+COUNT-1 without gaps; or give --shard I/N)",
				      getenv("SLURM_ARRAY_TASK_ID"), getenv("SLURM_ARRAY_TASK_MIN") ? getenv("SLURM_ARRAY_TASK_MIN") : "unset",
				      getenv("SLURM_ARRAY_TASK_COUNT"));
		out->index = (int)(id - min);
		out->count = (int)count;
		snprintf(out->from, sizeof out->from, "SLURM_ARRAY_TASK_ID");
		return 1;
	}
	for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
		a = env_int(pairs[i][0], &id);
		b = env_int(pairs[i][1], &count);
		if (!a || !b)
			continue;
		if (a < 0 || b < 0 || count < 1 || count > DLB_SHARD_MAX || id < 0 || id >= count)
			DLB_USER_FAIL(DLB_E_USAGE, "%s=%s and %s=%s give no part of the suite (or give --shard I/N)", pairs[i][0],
				      getenv(pairs[i][0]), pairs[i][1], getenv(pairs[i][1]));
		out->index = (int)id;
		out->count = (int)count;
		snprintf(out->from, sizeof out->from, "%s", pairs[i][0]);
		return 1;
	}
	return 0;
fail:
	return rc;
}

/* Measured on H100 and H200 (docs/results/fleet): a search takes its floor of about 3 s whatever the shape; the
 * baselines and the side-by-side timing add a few hundred runs of the kernel. The kernel's time is guessed
 * from the work at a nominal rate (300 TFLOP/s, 2 TB/s): only the order of magnitude matters here. */
double dlb_shard_cost(const struct dlb_problem *p)
{
	const struct dlb_family *f = p->op->family;
	double work = f->work(p);
	double kernel_s = f->work_kind == DLB_WORK_BYTES ? work / 2e12 : work / 3e14;
	return 4.0 + 300.0 * kernel_s;
}

struct costed {
	double cost;
	int index;
};

static int by_cost_desc(const void *a, const void *b)
{
	const struct costed *x = a, *y = b;
	if (x->cost != y->cost)
		return x->cost < y->cost ? 1 : -1;
	return x->index - y->index;
}

int dlb_shard_assign(const struct dlb_suite *s, int count, int *owner)
{
	int rc = 0;
	struct costed *c = malloc((size_t)(s->n ? s->n : 1) * sizeof *c);
	double *load = calloc((size_t)count, sizeof *load);
	if (!c || !load)
		DLB_FAIL(ENOMEM, "out of memory");
	for (int i = 0; i < s->n; i++)
		c[i] = (struct costed){dlb_shard_cost(&s->problems[i]), i};
	qsort(c, (size_t)s->n, sizeof *c, by_cost_desc);
	for (int j = 0; j < s->n; j++) {
		int best = 0;
		for (int g = 1; g < count; g++)
			if (load[g] < load[best])
				best = g;
		owner[c[j].index] = best;
		load[best] += c[j].cost;
	}
fail:
	free(c);
	free(load);
	return rc;
}

int dlb_shard_filter(struct dlb_suite *s, const struct dlb_shard *sh, double *total_cost, double *part_cost)
{
	int rc = 0, kept = 0;
	int *owner = malloc((size_t)(s->n ? s->n : 1) * sizeof *owner);
	double total = 0, part = 0;
	if (!owner)
		DLB_FAIL(ENOMEM, "out of memory");
	DLB_CHECK(dlb_shard_assign(s, sh->count, owner));
	for (int i = 0; i < s->n; i++) {
		double c = dlb_shard_cost(&s->problems[i]);
		total += c;
		if (owner[i] != sh->index)
			continue;
		part += c;
		s->problems[kept++] = s->problems[i];
	}
	s->n = kept;
	if (total_cost)
		*total_cost = total;
	if (part_cost)
		*part_cost = part;
fail:
	free(owner);
	return rc;
}
