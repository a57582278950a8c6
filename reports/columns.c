/* columns: each column once — its names, formats, where it appears and how its value is read from a result. */
#include "columns.h"

#include "../src/op.h"
#include "../src/power.h"
#include "../src/problem.h"

#include <math.h>
#include <string.h>

static void set_str(struct dlb_cell *c, const char *s)
{
	c->kind = DLB_CELL_STR;
	snprintf(c->s, sizeof c->s, "%s", s ? s : "");
}

static void set_num(struct dlb_cell *c, double x)
{
	c->kind = DLB_CELL_NUM;
	c->x = x;
}

static void set_int(struct dlb_cell *c, long long i, enum dlb_cell_kind kind)
{
	c->kind = kind;
	c->i = i;
}

static json_t *jnum(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* ---- the getters ---- */

static void g_dim(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	const struct dlb_dim *d = &x->r->p.op->family->dims[c->arg];
	if (d->kind == DLB_DIM_SIZE) {
		set_int(out, x->r->p.dim[c->arg], DLB_CELL_INT);
		return;
	}
	char v[64];
	dlb_dim_format(d, x->r->p.dim[c->arg], v, sizeof v);
	if (d->kind == DLB_DIM_REAL)
		set_num(out, (double)x->r->p.dim[c->arg] / (double)d->scale);
	else
		set_str(out, v);
}

static void g_padded_dim(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	int64_t run[DLB_MAX_DIMS];
	dlb_problem_padded(&x->r->p, run); /* the shape run, also when unpadded */
	set_int(out, run[c->arg], DLB_CELL_INT);
}

static void g_layout(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	out->kind = DLB_CELL_STR;
	dlb_problem_layout(&x->r->p, out->s, sizeof out->s);
}

static void g_prec(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	set_str(out, dlb_prec_name(x->r->p.prec));
}

static void g_config(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	set_str(out, x->r->found ? x->r->config : "");
	out->missing = !x->r->found;
}

static void g_family(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	const char *f = x->r->found ? dlb_op_config_family(x->r->p.op, x->r->config) : NULL;
	set_str(out, f ? f : "");
	out->missing = !f;
}

/* the configuration, and its kernel family where the op names one: "BM=128 ... KIND=2 (3xTF32 wgmma, TMA)" */
static void t_config(const struct dlb_row_ctx *x, const struct dlb_column *c, char *buf, int len)
{
	(void)c;
	const char *f = x->r->found ? dlb_op_config_family(x->r->p.op, x->r->config) : NULL;
	snprintf(buf, (size_t)len, "%s%s%s%s", x->r->found ? x->r->config : "(no verified candidate)", f ? " (" : "",
		 f ? f : "", f ? ")" : "");
}

static void g_tuned(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	const struct dlb_result *r = x->r;
	double v = c->arg == 0 ? r->tuned.median : c->arg == 1 ? r->tuned.median_lo : r->tuned.median_hi;
	set_num(out, r->found ? v : NAN);
}

static void g_tuned_ci(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	const struct dlb_result *r = x->r;
	out->kind = DLB_CELL_JSON;
	out->j = json_pack("[o,o]", jnum(r->found ? r->tuned.median_lo : NAN), jnum(r->found ? r->tuned.median_hi : NAN));
}

static void t_tuned_ci(const struct dlb_row_ctx *x, const struct dlb_column *c, char *buf, int len)
{
	(void)c;
	const struct dlb_result *r = x->r;
	if (r->found)
		snprintf(buf, (size_t)len, "%.2f [%.2f, %.2f]", r->tuned.median, r->tuned.median_lo, r->tuned.median_hi);
	else
		snprintf(buf, (size_t)len, "none verified");
}

static void g_samples(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	set_int(out, x->r->tuned.n, DLB_CELL_INT);
}

static void g_throughput(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	set_num(out, dlb_result_throughput(x->r));
}

static void g_unit(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	set_str(out, dlb_op_unit(x->r->p.op));
}

static void g_pct_peak(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	set_num(out, dlb_result_pct_peak(x->r));
}

static void g_peak(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	set_num(out, x->r->peak);
}

static void g_vendor_kind(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	set_num(out, dlb_result_kind_best_us(x->r, c->arg));
}

static void g_derived(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	const struct dlb_family *f = x->r->p.op ? x->r->p.op->family : NULL;
	set_num(out, f && c->arg < f->nderived ? f->derived[c->arg].get(x->r) : NAN);
}

static void g_vendor_kind_name(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	const struct dlb_vendor_entry *v = dlb_result_kind_best(x->r, c->arg);
	const char *colon = v ? strchr(v->name, ':') : NULL;
	set_str(out, v ? (colon ? colon + 1 : v->name) : "");
	out->missing = !v;
}

/* arg 0: its name, 1: its time, 2: its configuration */
static void g_vendor_best(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	const struct dlb_vendor_entry *vb = dlb_result_vendor_best(x->r);
	if (c->arg == 1) {
		set_num(out, vb ? vb->st.median : NAN);
	} else {
		set_str(out, !vb ? "" : c->arg == 0 ? vb->name : vb->config);
		out->missing = !vb || (c->arg == 2 && !vb->config[0]);
	}
}

static void g_speedup(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	set_num(out, dlb_result_speedup(x->r));
}

/* arg 0: vendor, 1: pairs, 2: tuned us, 3: vendor us, 4: speedup, 5: its CI low, 6: high */
static void g_paired(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	const struct dlb_result *r = x->r;
	const struct dlb_paired *d = &r->paired;
	int have = r->found && d->n > 0;
	switch (c->arg) {
	case 0:
		set_str(out, have ? d->vendor : "");
		break;
	case 1:
		set_int(out, have ? d->n : 0, DLB_CELL_INT);
		break;
	default: {
		double v[] = {0, 0, d->tuned.median, d->vendor_st.median, d->speedup.median, d->speedup.median_lo,
			      d->speedup.median_hi};
		set_num(out, have ? v[c->arg] : NAN);
	}
	}
}

static void t_paired_ci(const struct dlb_row_ctx *x, const struct dlb_column *c, char *buf, int len)
{
	(void)c;
	const struct dlb_result *r = x->r;
	if (isfinite(dlb_result_paired_speedup(r)))
		snprintf(buf, (size_t)len, "%.2fx [%.2f, %.2f]", dlb_result_paired_speedup(r), dlb_result_paired_lo(r),
			 dlb_result_paired_hi(r));
	else
		snprintf(buf, (size_t)len, "n/a");
}

static void g_paired_json(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	out->kind = DLB_CELL_JSON;
	out->j = dlb_paired_json(x->r);
}

/* The energy bursts (struct dlb_energy): arg 0 ours, 1 the vendor's, + 2·(0 J/call, 1 per watt, 2 mean watts,
 * 3 highest power reading) */
static void g_energy(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	const struct dlb_result *r = x->r;
	int which = c->arg % 2;
	const struct dlb_energy *e = which ? &r->paired.e_vendor : &r->paired.e_tuned;
	switch (c->arg / 2) {
	case 0:
		set_num(out, dlb_result_j_per_call(r, which));
		break;
	case 1:
		set_num(out, dlb_result_per_watt(r, which));
		break;
	case 2:
		set_num(out, dlb_result_watts(r, which));
		break;
	default:
		set_num(out, isfinite(dlb_result_watts(r, which)) && e->readings > 0 ? e->watts_max : NAN);
	}
}

/* The SM clock's range ("1755-1980") and the clock-event reasons while a burst ran: arg 0/1 ours/vendor's
 * clock, 2/3 their reasons; "" where not measured */
static void g_clocks(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	const struct dlb_result *r = x->r;
	const struct dlb_energy *e = c->arg % 2 ? &r->paired.e_vendor : &r->paired.e_tuned;
	int have = r->found && r->paired.n > 0 && e->calls > 0 && e->readings > 0;
	set_str(out, "");
	out->missing = !have;
	if (!have)
		return;
	if (c->arg < 2) {
		if (e->sm_mhz_max > 0)
			snprintf(out->s, sizeof out->s, "%d-%d", e->sm_mhz_min, e->sm_mhz_max);
		else
			out->missing = 1;
	} else {
		dlb_clock_reasons_text(e->reasons, out->s, sizeof out->s);
	}
}

static void g_floor(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	set_num(out, dlb_result_floor_us(x->r));
}

static void g_verified(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	set_int(out, x->r->found, DLB_CELL_BOOL);
}

static void t_verified(const struct dlb_row_ctx *x, const struct dlb_column *c, char *buf, int len)
{
	(void)c;
	char pad[200] = "";
	if (dlb_problem_padded(&x->r->p, (int64_t[DLB_MAX_DIMS]){0})) {
		char shape[180];
		dlb_problem_shape_run(&x->r->p, shape, sizeof shape);
		snprintf(pad, sizeof pad, ", padded: %s", shape);
	}
	char gpu[80] = "";
	if (x->r->ran_on && !x->exported)
		snprintf(gpu, sizeof gpu, " (GPU %d)", x->r->ran_on - 1);
	if (*x->r->elsewhere && !x->exported)
		snprintf(gpu, sizeof gpu, ", measured on %.20s", x->r->elsewhere);
	snprintf(buf, (size_t)len, "%s%s%s%s", x->r->found ? "yes" : "no",
		 x->r->cached && !x->exported ? " (cached)" : "", gpu, pad);
}

/* Answered by a result another GPU of the same model measured: its UUID ("" otherwise). */
static void g_elsewhere(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	out->kind = DLB_CELL_STR;
	snprintf(out->s, sizeof out->s, "%s", x->exported ? "" : x->r->elsewhere);
	out->missing = !*out->s;
}

/* The GPU (ordinal) that tuned the row in a run over several GPUs (--devices); missing otherwise. */
static void g_ran_on(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	out->kind = DLB_CELL_NUM; /* NAN: "" in CSV, null in JSON */
	out->x = !x->r->ran_on || x->exported ? NAN : x->r->ran_on - 1;
}

static void g_cached(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	set_int(out, x->r->cached, DLB_CELL_BOOL);
}

static void g_current(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	set_int(out, !x->stale, DLB_CELL_BOOL);
}

static void g_measured(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	set_str(out, x->r->timestamp);
}

static void g_padded(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	int64_t run[DLB_MAX_DIMS];
	set_int(out, dlb_problem_padded(&x->r->p, run), DLB_CELL_BOOL);
}

static void g_padded_json(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	out->kind = DLB_CELL_JSON;
	out->j = dlb_padded_json(&x->r->p);
}

static void g_max_err(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	set_num(out, c->arg ? x->r->tol : x->r->max_err);
}

/* Measured accuracy (struct dlb_rel_err): arg 0, 1 the winner's max and mean, 2, 3 the vendor best's; NAN
 * (n/a) where it was not measured. */
static void g_rel_err(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	const struct dlb_vendor_entry *vb = dlb_result_vendor_best(x->r);
	const struct dlb_rel_err *e = c->arg < 2 ? &x->r->rel_err : vb ? &vb->rel_err : NULL;
	set_num(out, !e || e->n < 1 ? NAN : c->arg % 2 ? e->mean : e->max);
}

static void g_counts(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out)
{
	(void)c;
	json_t *counts = json_object();
	for (int s = 0; s < DLB_ST_COUNT; s++)
		json_object_set_new(counts, dlb_status_name((enum dlb_status)s), json_integer(x->r->counts[s]));
	out->kind = DLB_CELL_JSON;
	out->j = counts;
}

/* ---- the list ---- */

enum { T = DLB_IN_TEXT, C = DLB_IN_CSV, J = DLB_IN_JSON, X = DLB_IN_XCSV, M = DLB_IN_MD };

/* Before the problem's columns. */
static const struct dlb_column head[] = {
	{.field = "prec", .where = C | J | X, .get = g_prec},
	{.title = "best config", .field = "best_config", .width = -40, .quote = 1, .where = T | C | J | X | M, .group = 1,
	 .get = g_config, .get_text = t_config},
	{.field = "kernel_family", .quote = 1, .where = C | J | X, .get = g_family}, /* families that name them */
	{.title = "tuned us", .field = "tuned_us", .width = 9, .fmt_text = "%.2f", .fmt_csv = "%.3f",
	 .where = T | C | J | X, .group = 2, .arg = 0, .get = g_tuned},
	{.title = "tuned µs [95% CI]", .field = "tuned_us", .where = M, .get = g_tuned, .get_text = t_tuned_ci},
	{.field = "tuned_ci_lo", .fmt_csv = "%.3f", .where = C | X, .arg = 1, .get = g_tuned},
	{.field = "tuned_ci_hi", .fmt_csv = "%.3f", .where = C | X, .arg = 2, .get = g_tuned},
	{.field = "tuned_ci95_us", .where = J, .get = g_tuned_ci},
	{.field = "tuned_samples", .where = J | X, .get = g_samples},
	{.unit_title = 1, .field = "throughput", .width = 8, .fmt_text = "%.2f", .fmt_csv = "%.3f",
	 .where = T | C | J | X | M, .group = 2, .get = g_throughput},
	{.field = "unit", .where = C | J | X, .get = g_unit},
	{.title = "%peak", .field = "pct_peak", .width = 7, .fmt_text = "%.1f%%", .fmt_csv = "%.2f", .where = T | C | J | X | M,
	 .group = 2, .get = g_pct_peak},
	{.field = "peak", .fmt_csv = "%.1f", .where = C | J | X, .get = g_peak},
};

/* After the family's vendor columns (group 3). */
static const struct dlb_column tail[] = {
	{.title = "vendor best", .field = "vendor_best", .quote = 1, .where = C | J | X | M, .arg = 0, .get = g_vendor_best},
	{.field = "vendor_best_us", .fmt_csv = "%.3f", .where = X, .arg = 1, .get = g_vendor_best},
	{.field = "vendor_best_config", .quote = 1, .where = C | J | X, .arg = 2, .get = g_vendor_best},
	{.title = "speedup", .field = "speedup", .jfield = "speedup_vs_vendor_best", .width = 8, .fmt_text = "%.2fx",
	 .fmt_csv = "%.4f", .where = T | C | J | X | M, .group = 4, .get = g_speedup},
	{.field = "paired_vendor", .quote = 1, .where = C | X, .arg = 0, .get = g_paired},
	{.field = "paired_n", .where = C | X, .arg = 1, .get = g_paired},
	{.field = "paired_tuned_us", .fmt_csv = "%.3f", .where = C | X, .arg = 2, .get = g_paired},
	{.field = "paired_vendor_us", .fmt_csv = "%.3f", .where = C | X, .arg = 3, .get = g_paired},
	{.title = "paired", .field = "paired_speedup", .width = 7, .fmt_text = "%.2fx", .fmt_csv = "%.4f",
	 .where = T | C | X, .group = 4, .arg = 4, .get = g_paired},
	{.title = "paired [95% CI]", .field = "paired_speedup", .where = M, .arg = 4, .get = g_paired,
	 .get_text = t_paired_ci},
	{.field = "paired_speedup_lo", .fmt_csv = "%.4f", .where = C | X, .arg = 5, .get = g_paired},
	{.field = "paired_speedup_hi", .fmt_csv = "%.4f", .where = C | X, .arg = 6, .get = g_paired},
	{.field = "paired", .where = J, .get = g_paired_json},
	{.title = "J/call", .field = "tuned_j_per_call", .width = 9, .fmt_text = "%.3g", .fmt_csv = "%.6g", .where = C | X | M, .arg = 0,
	 .get = g_energy},
	{.title = "vendor J/call", .field = "vendor_j_per_call", .width = 9, .fmt_text = "%.3g", .fmt_csv = "%.6g", .where = C | X | M,
	 .arg = 1, .get = g_energy},
	{.unit_title = 2, .field = "tuned_per_watt", .width = 9, .fmt_text = "%.3g", .fmt_csv = "%.6g", .where = C | X | M, .arg = 2,
	 .get = g_energy},
	{.unit_title = 3, .field = "vendor_per_watt", .width = 9, .fmt_text = "%.3g", .fmt_csv = "%.6g", .where = C | X | M, .arg = 3,
	 .get = g_energy},
	{.field = "tuned_watts", .fmt_csv = "%.1f", .where = C | X, .arg = 4, .get = g_energy},
	{.field = "vendor_watts", .fmt_csv = "%.1f", .where = C | X, .arg = 5, .get = g_energy},
	{.field = "tuned_watts_max", .fmt_csv = "%.1f", .where = C | X, .arg = 6, .get = g_energy},
	{.field = "vendor_watts_max", .fmt_csv = "%.1f", .where = C | X, .arg = 7, .get = g_energy},
	{.title = "SM MHz", .field = "tuned_sm_mhz", .quote = 1, .where = C | X | M, .arg = 0, .get = g_clocks},
	{.field = "vendor_sm_mhz", .quote = 1, .where = C | X, .arg = 1, .get = g_clocks},
	{.field = "tuned_clock_events", .quote = 1, .where = C | X, .arg = 2, .get = g_clocks},
	{.field = "vendor_clock_events", .quote = 1, .where = C | X, .arg = 3, .get = g_clocks},
	{.title = "floor us", .field = "floor_us", .jfield = "stream_floor_us", .width = 9, .fmt_text = "%.2f",
	 .fmt_csv = "%.3f", .where = T | C | J | X | M, .group = 5, .get = g_floor},
	{.title = "verified", .field = "verified", .where = T | C | J | X | M, .group = 6, .get = g_verified,
	 .get_text = t_verified},
	{.field = "rel_err_max", .fmt_csv = "%.3g", .where = C | X, .arg = 0, .get = g_rel_err},
	{.field = "rel_err_mean", .fmt_csv = "%.3g", .where = C | X, .arg = 1, .get = g_rel_err},
	{.field = "vendor_rel_err_max", .fmt_csv = "%.3g", .where = C | X, .arg = 2, .get = g_rel_err},
	{.field = "vendor_rel_err_mean", .fmt_csv = "%.3g", .where = C | X, .arg = 3, .get = g_rel_err},
	{.field = "cached", .where = C | J, .get = g_cached},
	{.field = "tuned_on_gpu", .fmt_csv = "%.0f", .where = C | J, .get = g_ran_on},
	{.field = "measured_on", .quote = 1, .where = C | J, .get = g_elsewhere},
	{.title = "current", .field = "current", .where = X | M, .group = 6, .get = g_current},
	{.field = "measured", .where = X, .get = g_measured},
	{.field = "padded", .where = C | X, .get = g_padded},
	{.field = "padded", .where = J, .get = g_padded_json},
	{.field = "max_err", .where = J, .arg = 0, .get = g_max_err},
	{.field = "tolerance", .where = J, .arg = 1, .get = g_max_err},
	{.field = "trial_counts", .where = J, .get = g_counts},
};

#define COUNT(a) (int)(sizeof(a) / sizeof(a)[0])

static void add_derived(const struct dlb_family *f, int after, struct dlb_column *out, int *n, int max)
{
	for (int i = 0; i < f->nderived && *n < max; i++)
		if (f->derived[i].after == after)
			out[(*n)++] = (struct dlb_column){.title = f->derived[i].title, .field = f->derived[i].field,
							  .width = f->derived[i].width, .fmt_text = f->derived[i].fmt,
							  .fmt_csv = f->derived[i].fmt, .where = T | C | J | X | M,
							  .group = after ? 3 : 0, .arg = i, .get = g_derived};
}

/* Whether an op of the family names its kernel families (a parameter with value_names): then the family's
 * tables have kernel_family */
static int names_kinds(const struct dlb_family *f)
{
	for (int p = 0; p < DLB_PREC_COUNT; p++) {
		const struct dlb_op *op = dlb_op_find(f->name, (enum dlb_prec)p);
		for (int i = 0; op && op->family == f && i < op->space.nparams; i++)
			if (op->space.params[i].value_names)
				return 1;
	}
	return 0;
}

int dlb_columns(const struct dlb_family *f, struct dlb_column *out, int max)
{
	int n = 0;
	/* the problem: its sizes, then its layout */
	for (int d = 0; d < f->ndims && n < max; d++) {
		if (f->dims[d].kind == DLB_DIM_CHOICE)
			continue;
		out[n++] = (struct dlb_column){.title = f->dims[d].title, .field = f->dims[d].name,
					       .width = f->dims[d].width ? f->dims[d].width : 7,
					       .fmt_text = "%g", .fmt_csv = "%g", .where = T | C | J | X | M, .arg = d,
					       .get = g_dim};
	}
	add_derived(f, 0, out, &n, max);
	if (dlb_family_has_layout(f) && n < max)
		out[n++] = (struct dlb_column){.title = "layout", .field = "layout", .width = -6, .where = T | C | J | X | M,
					       .get = g_layout};
	const int named = names_kinds(f);
	for (int i = 0; i < COUNT(head) && n < max; i++)
		if (head[i].get != g_family || named)
			out[n++] = head[i];
	for (int i = 0; i < f->ncols && n < max; i++) {
		if (f->cols[i].name_field && n < max)
			out[n++] = (struct dlb_column){.title = f->cols[i].name_title, .field = f->cols[i].name_field,
						       .width = -21, .quote = 1, .where = T | C | J | X | M, .group = 3,
						       .arg = f->cols[i].kind, .get = g_vendor_kind_name};
		if (n < max)
			out[n++] = (struct dlb_column){.title = f->cols[i].title, .field = f->cols[i].field, .width = 9,
						       .fmt_text = "%.2f", .fmt_csv = "%.3f", .where = T | C | J | X | M,
						       .group = 3, .arg = f->cols[i].kind, .get = g_vendor_kind};
	}
	add_derived(f, 1, out, &n, max);
	for (int i = 0; i < COUNT(tail) && n < max; i++)
		out[n++] = tail[i];
	/* the shape run: padded_<dim> after padded */
	for (int d = 0; d < f->ndims && n < max; d++)
		if (f->dims[d].kind == DLB_DIM_SIZE)
			out[n++] = (struct dlb_column){.field = f->dims[d].name, .prefix = "padded_", .where = C | X, .arg = d,
						       .get = g_padded_dim};
	return n;
}

/* ---- rendering ---- */

void dlb_cell_text(const struct dlb_row_ctx *x, const struct dlb_column *c, char *buf, int len)
{
	struct dlb_cell cell = {0};
	if (c->get_text) {
		c->get_text(x, c, buf, len);
		return;
	}
	c->get(x, c, &cell);
	switch (cell.kind) {
	case DLB_CELL_STR:
		snprintf(buf, (size_t)len, "%s", cell.missing ? "n/a" : cell.s);
		break;
	case DLB_CELL_NUM:
		dlb_fmt_num(buf, (size_t)len, cell.x, c->fmt_text ? c->fmt_text : "%g");
		break;
	case DLB_CELL_INT:
		snprintf(buf, (size_t)len, "%lld", cell.i);
		break;
	case DLB_CELL_BOOL:
		snprintf(buf, (size_t)len, "%s", cell.i ? "yes" : "no");
		break;
	case DLB_CELL_JSON:
		json_decref(cell.j);
		snprintf(buf, (size_t)len, "n/a");
		break;
	}
}

void dlb_csv_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void dlb_cell_csv(FILE *out, const struct dlb_row_ctx *x, const struct dlb_column *c)
{
	struct dlb_cell cell = {0};
	char buf[64];
	c->get(x, c, &cell);
	switch (cell.kind) {
	case DLB_CELL_STR:
		if (c->quote)
			dlb_csv_string(out, cell.s);
		else
			fputs(cell.s, out);
		break;
	case DLB_CELL_NUM:
		fputs(dlb_fmt_num(buf, sizeof buf, cell.x, c->fmt_csv ? c->fmt_csv : "%g"), out);
		break;
	case DLB_CELL_INT:
	case DLB_CELL_BOOL:
		fprintf(out, "%lld", cell.i);
		break;
	case DLB_CELL_JSON:
		json_decref(cell.j);
		break;
	}
}

json_t *dlb_cell_json(const struct dlb_row_ctx *x, const struct dlb_column *c)
{
	struct dlb_cell cell = {0};
	c->get(x, c, &cell);
	switch (cell.kind) {
	case DLB_CELL_STR:
		return cell.missing ? json_null() : json_string(cell.s);
	case DLB_CELL_NUM:
		return jnum(cell.x);
	case DLB_CELL_INT:
		return json_integer(cell.i);
	case DLB_CELL_BOOL:
		return json_boolean(cell.i);
	case DLB_CELL_JSON:
		return cell.j;
	}
	return json_null();
}

int dlb_column_in(const struct dlb_column *c, int where)
{
	return (c->where & where) != 0;
}

const char *dlb_column_title(const struct dlb_column *c, const struct dlb_op *op)
{
	if (c->unit_title >= 2) { /* work per joule, ours (2) or the vendor's (3): the unit per watt */
		const char *u = dlb_op_unit(op);
		int v = c->unit_title == 3;
		return !strcmp(u, "GB/s") ? (v ? "vendor GB/s/W" : "GB/s/W")
		       : !strcmp(u, "TOPS") ? (v ? "vendor TOPS/W" : "TOPS/W")
					    : (v ? "vendor TFLOP/s/W" : "TFLOP/s/W");
	}
	return c->unit_title ? dlb_op_unit(op) : c->title ? c->title : c->field;
}

void dlb_columns_csv_header(FILE *out, const struct dlb_column *cols, int n, int where)
{
	int first = 1;
	for (int i = 0; i < n; i++)
		if (dlb_column_in(&cols[i], where)) {
			fprintf(out, "%s%s%s", first ? "" : ",", cols[i].prefix ? cols[i].prefix : "", cols[i].field);
			first = 0;
		}
}

void dlb_columns_csv_row(FILE *out, const struct dlb_row_ctx *x, const struct dlb_column *cols, int n, int where)
{
	int first = 1;
	for (int i = 0; i < n; i++)
		if (dlb_column_in(&cols[i], where)) {
			if (!first)
				fputc(',', out);
			dlb_cell_csv(out, x, &cols[i]);
			first = 0;
		}
}

json_t *dlb_columns_json(const struct dlb_row_ctx *x, const struct dlb_column *cols, int n, int where)
{
	json_t *o = json_object();
	for (int i = 0; o && i < n; i++)
		if (dlb_column_in(&cols[i], where))
			json_object_set_new(o, cols[i].jfield ? cols[i].jfield : cols[i].field, dlb_cell_json(x, &cols[i]));
	return o;
}

json_t *dlb_problem_sizes_json(const struct dlb_problem *p)
{
	const struct dlb_family *f = p->op->family;
	json_t *o = json_object();
	for (int d = 0; o && d < f->ndims; d++)
		if (f->dims[d].kind == DLB_DIM_SIZE)
			json_object_set_new(o, f->dims[d].name, json_integer(p->dim[d]));
		else if (f->dims[d].kind == DLB_DIM_REAL)
			json_object_set_new(o, f->dims[d].name, json_real((double)p->dim[d] / (double)f->dims[d].scale));
	return o;
}

json_t *dlb_padded_json(const struct dlb_problem *p)
{
	int64_t run[DLB_MAX_DIMS];
	if (!dlb_problem_padded(p, run))
		return json_null();
	const struct dlb_family *f = p->op->family;
	json_t *o = json_object();
	for (int d = 0; o && d < f->ndims; d++)
		if (f->dims[d].kind == DLB_DIM_SIZE)
			json_object_set_new(o, f->dims[d].name, json_integer(run[d]));
	if (o)
		json_object_set_new(o, "time_includes_padding", json_false());
	return o;
}

/* One burst as the JSON rows give it: what was measured, and what it gives per call */
static json_t *energy_json(const struct dlb_result *r, int which)
{
	const struct dlb_energy *e = which ? &r->paired.e_vendor : &r->paired.e_tuned;
	char reasons[128];
	dlb_clock_reasons_text(e->reasons, reasons, sizeof reasons);
	if (e->calls < 1)
		return json_null();
	return json_pack("{s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:i,s:i,s:i,s:s,s:i,s:b,s:b,s:b}", "calls", e->calls, "seconds",
			 jnum(e->seconds), "joules", jnum(e->joules), "j_per_call", jnum(dlb_result_j_per_call(r, which)),
			 "per_watt", jnum(dlb_result_per_watt(r, which)), "watts", jnum(dlb_result_watts(r, which)),
			 "watts_max", jnum(e->watts_max), "sm_mhz_min", e->sm_mhz_min, "sm_mhz_max", e->sm_mhz_max,
			 "readings", e->readings, "clock_events", e->readings > 0 ? reasons : "", "counter_steps", e->steps,
			 "steady", e->steady, "graphed", e->graphed, "host_bound", dlb_result_host_bound(r, which));
}

json_t *dlb_paired_json(const struct dlb_result *r)
{
	const struct dlb_paired *d = &r->paired;
	if (!r->found || d->n < 1)
		return json_null();
	json_t *j = json_pack("{s:s,s:i,s:o,s:o,s:o,s:[o,o]}", "vendor", d->vendor, "pairs", d->n, "tuned_us",
			      jnum(d->tuned.median), "vendor_us", jnum(d->vendor_st.median), "speedup",
			      jnum(d->speedup.median), "speedup_ci95", jnum(d->speedup.median_lo), jnum(d->speedup.median_hi));
	if (j && (d->e_tuned.calls > 0 || d->e_vendor.calls > 0))
		json_object_set_new(j, "energy", json_pack("{s:o,s:o}", "tuned", energy_json(r, 0), "vendor", energy_json(r, 1)));
	return j;
}
