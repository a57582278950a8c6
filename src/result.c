/* result: status names and the derived columns of the table. */
#include "result.h"

#include "err.h"
#include "op.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const status_names[DLB_ST_COUNT] = {
	[DLB_ST_OK] = "ok",
	[DLB_ST_COMPILE_ERROR] = "compile_error",
	[DLB_ST_RESOURCE_LIMIT] = "resource_limit",
	[DLB_ST_WRONG_ANSWER] = "wrong_answer",
	[DLB_ST_RUNTIME_FAULT] = "runtime_fault",
	[DLB_ST_TIMEOUT] = "timeout",
	[DLB_ST_NOISY] = "noisy",
};

const char *dlb_status_name(enum dlb_status s)
{
	return (unsigned)s < DLB_ST_COUNT ? status_names[s] : "?";
}

int dlb_status_parse(const char *s, enum dlb_status *out)
{
	for (int i = 0; i < DLB_ST_COUNT; i++)
		if (!strcmp(s, status_names[i])) {
			*out = (enum dlb_status)i;
			return 0;
		}
	return DLB_E_PARSE;
}

/* A side's bursts, where their joules are its kernel's: steady, and either launched as CUDA graphs or, launched
 * one by one, taking at most 1.2 times their paired time per call. A slower burst had the GPU idle between
 * calls while the host side of a library ran (the report's run06-07: cuDNN's 5 us convolutions at up to 53
 * times their paired time), and its joules were mostly idle power. */
int dlb_result_host_bound(const struct dlb_result *r, int which)
{
	const struct dlb_energy *e = which ? &r->paired.e_vendor : &r->paired.e_tuned;
	double paired_us = which ? r->paired.vendor_st.median : r->paired.tuned.median;
	return e->calls > 0 && !e->graphed && paired_us > 0 && 1e6 * e->seconds / e->calls > 1.2 * paired_us;
}

static const struct dlb_energy *energy_of(const struct dlb_result *r, int which)
{
	const struct dlb_energy *e = which ? &r->paired.e_vendor : &r->paired.e_tuned;
	return r->found && r->paired.n > 0 && e->calls > 0 && e->seconds > 0 && e->steady && isfinite(e->joules) &&
			       e->joules > 0 && !dlb_result_host_bound(r, which)
		       ? e
		       : NULL;
}

double dlb_result_j_per_call(const struct dlb_result *r, int which)
{
	const struct dlb_energy *e = energy_of(r, which);
	return e ? e->joules / e->calls : NAN;
}

double dlb_result_watts(const struct dlb_result *r, int which)
{
	const struct dlb_energy *e = energy_of(r, which);
	return e ? e->joules / e->seconds : NAN;
}

double dlb_result_per_watt(const struct dlb_result *r, int which)
{
	const struct dlb_energy *e = energy_of(r, which);
	if (!e || !r->p.op)
		return NAN;
	/* the op's rate at the burst's own time per call, over its mean power */
	return dlb_op_throughput(r->p.op, &r->p, 1e6 * e->seconds / e->calls) / (e->joules / e->seconds);
}

double dlb_result_throughput(const struct dlb_result *r)
{
	if (!r->found || !(r->tuned.median > 0) || !r->p.op)
		return NAN;
	return dlb_op_throughput(r->p.op, &r->p, r->tuned.median);
}

double dlb_result_pct_peak(const struct dlb_result *r)
{
	double t = dlb_result_throughput(r);
	return isfinite(t) && r->peak > 0 && isfinite(r->peak) ? t / r->peak * 100.0 : NAN;
}

/* The fastest vendor entry that was verified and timed (the floor is no vendor), of one kind or any (then not
 * one in another math: a TF32 time is never the fp32 vendor best). A tie goes
 * to the name that sorts first: a run holds its entries in the order they ran, a load in name order, and
 * both must name the same best. */
static const struct dlb_vendor_entry *best_entry(const struct dlb_result *r, int kind, int any)
{
	const struct dlb_vendor_entry *best = NULL;
	for (int i = 0; i < r->nvendor; i++) {
		const struct dlb_vendor_entry *v = &r->vendor[i];
		if (v->is_floor || !v->ok || !(v->st.median > 0) || !isfinite(v->st.median) ||
		    (!any && v->kind != kind) || (any && v->other_math))
			continue;
		if (!best || v->st.median < best->st.median ||
		    (v->st.median == best->st.median && strcmp(v->name, best->name) < 0))
			best = v;
	}
	return best;
}

static double best_of(const struct dlb_result *r, int kind, int any)
{
	const struct dlb_vendor_entry *v = best_entry(r, kind, any);
	return v ? v->st.median : NAN;
}

const struct dlb_vendor_entry *dlb_result_vendor_best(const struct dlb_result *r)
{
	return best_entry(r, 0, 1);
}

const struct dlb_vendor_entry *dlb_result_kind_best(const struct dlb_result *r, int kind)
{
	return best_entry(r, kind, 0);
}

double dlb_result_kind_best_us(const struct dlb_result *r, int kind)
{
	return best_of(r, kind, 0);
}

double dlb_result_vendor_best_us(const struct dlb_result *r)
{
	return best_of(r, 0, 1);
}

double dlb_result_floor_us(const struct dlb_result *r)
{
	for (int i = 0; i < r->nvendor; i++)
		if (r->vendor[i].is_floor && r->vendor[i].ok && r->vendor[i].st.median > 0)
			return r->vendor[i].st.median;
	return NAN;
}

double dlb_result_speedup(const struct dlb_result *r)
{
	double v = dlb_result_vendor_best_us(r);
	return r->found && r->tuned.median > 0 && v > 0 ? v / r->tuned.median : NAN;
}

double dlb_result_paired_speedup(const struct dlb_result *r)
{
	return r->found && r->paired.n > 0 ? r->paired.speedup.median : NAN;
}

int dlb_paired_by_order(const double *ratio, int n, double confidence, struct dlb_stats by[2])
{
	double half[2][DLB_PAIRED_MAX];
	int nh[2] = {0, 0};
	if (n < 2 || n > DLB_PAIRED_MAX)
		return EINVAL;
	for (int i = 0; i < n; i++)
		half[i % 2][nh[i % 2]++] = ratio[i];
	int rc = dlb_stats_summarise(half[0], nh[0], confidence, &by[0]);
	return rc ? rc : dlb_stats_summarise(half[1], nh[1], confidence, &by[1]);
}

double dlb_result_paired_lo(const struct dlb_result *r)
{
	return r->found && r->paired.n > 0 ? r->paired.speedup.median_lo : NAN;
}

double dlb_result_paired_hi(const struct dlb_result *r)
{
	return r->found && r->paired.n > 0 ? r->paired.speedup.median_hi : NAN;
}

void dlb_result_free(struct dlb_result *r)
{
	free(r->trials);
	r->trials = NULL;
	r->ntrials = 0;
}

const char *dlb_fmt_num(char *buf, size_t len, double x, const char *f)
{
	if (isfinite(x))
		snprintf(buf, len, f, x);
	else
		snprintf(buf, len, "n/a");
	return buf;
}
