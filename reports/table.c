/* table: one column list, three renderings. Numbers that do not exist are "n/a" in text and CSV and null in
 * JSON: never a made-up value. */
#include "table.h"

#include "../src/op.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

static const char *op_name(const struct dlb_result *r)
{
	return r->p.op ? r->p.op->name : "?";
}

/* Rows a and b belong to one table: the same op and precision. */
static int same_group(const struct dlb_result *a, const struct dlb_result *b)
{
	return a->p.prec == b->p.prec && !strcmp(op_name(a), op_name(b));
}

/* Geometric mean of the speedups (paired: the side-by-side ones) over the rows of g's group (g NULL: every
 * row) that have one. */
static double geomean_of(const struct dlb_result *rows, int n, const struct dlb_result *g, int paired, int *count)
{
	double logsum = 0;
	int c = 0;
	for (int i = 0; i < n; i++) {
		double s = paired ? dlb_result_paired_speedup(&rows[i]) : dlb_result_speedup(&rows[i]);
		if ((!g || same_group(&rows[i], g)) && s > 0 && isfinite(s)) {
			logsum += log(s);
			c++;
		}
	}
	if (count)
		*count = c;
	return c ? exp(logsum / c) : NAN;
}

static double geomean(const struct dlb_result *rows, int n, const struct dlb_result *g, int *count)
{
	return geomean_of(rows, n, g, 0, count);
}

double dlb_geomean_speedup(const struct dlb_result *rows, int n, int *count)
{
	return geomean(rows, n, NULL, count);
}

/* The first row of each group: it starts a table. */
static int first_of_group(const struct dlb_result *rows, int i)
{
	for (int j = 0; j < i; j++)
		if (same_group(&rows[j], &rows[i]))
			return 0;
	return 1;
}

const char *dlb_fmt_num(char *buf, size_t len, double x, const char *f)
{
	if (isfinite(x))
		snprintf(buf, len, f, x);
	else
		snprintf(buf, len, "n/a");
	return buf;
}

/* The peak of a group: the first row's that has one (a run's rows share their device). */
static double group_peak(const struct dlb_result *rows, int n, const struct dlb_result *g)
{
	for (int i = 0; i < n; i++)
		if (same_group(&rows[i], g) && rows[i].peak_tflops > 0 && isfinite(rows[i].peak_tflops))
			return rows[i].peak_tflops;
	return NAN;
}

static void print_group_text(FILE *out, const struct dlb_result *rows, int n, const struct dlb_result *g,
			     const char *gpu)
{
	const struct dlb_prec_info *in = dlb_prec_info(g->p.prec);
	double peak = group_peak(rows, n, g);
	int padded = 0, nrows = 0, c = 0, cp = 0;
	fprintf(out, "%s %s on %s (%s): throughput in %s; ", op_name(g), in->name, gpu ? gpu : "?", in->about, in->unit);
	if (isfinite(peak))
		fprintf(out, "%%peak relative to %.1f %s, %s from SM count x clock\n", peak, in->unit, in->peak);
	else
		fprintf(out, "%%peak n/a (no %s peak known for this GPU)\n", in->name);
	fprintf(out, "%6s %6s %7s %-6s | %-40s | %9s %8s %7s | %9s %9s | %8s %7s | %9s | %s\n", "M", "N", "K",
		"layout", "best config", "tuned us", in->unit, "%peak", "cuBLAS us", "Lt-best", "speedup", "paired", "floor us",
		"verified");
	for (int i = 0; i < n; i++) {
		const struct dlb_result *r = &rows[i];
		char a[32], b[32], cc[32], d[32], e[32], f[32], pa[32], fl[32], pad[96] = "";
		int64_t pm, pn, pk;
		if (!same_group(r, g))
			continue;
		nrows++;
		if (dlb_problem_padded(&r->p, &pm, &pn, &pk)) {
			snprintf(pad, sizeof pad, ", padded: %lldx%lldx%lld", (long long)pm, (long long)pn, (long long)pk);
			padded++;
		}
		fprintf(out, "%6lld %6lld %7lld %-6s | %-40s | %9s %8s %7s | %9s %9s | %8s %7s | %9s | %s%s%s\n", (long long)r->p.m,
			(long long)r->p.n, (long long)r->p.k, dlb_layout_name(r->p.ta, r->p.tb),
			r->found ? r->config : "(no verified candidate)",
			dlb_fmt_num(a, sizeof a, r->found ? r->tuned.median : NAN, "%.2f"),
			dlb_fmt_num(b, sizeof b, dlb_result_throughput(r), "%.2f"),
			dlb_fmt_num(cc, sizeof cc, dlb_result_pct_peak(r), "%.1f%%"),
			dlb_fmt_num(d, sizeof d, dlb_result_cublas_us(r), "%.2f"),
			dlb_fmt_num(e, sizeof e, dlb_result_lt_best_us(r), "%.2f"),
			dlb_fmt_num(f, sizeof f, dlb_result_speedup(r), "%.2fx"),
			dlb_fmt_num(pa, sizeof pa, dlb_result_paired_speedup(r), "%.2fx"),
			dlb_fmt_num(fl, sizeof fl, dlb_result_floor_us(r), "%.2f"), r->found ? "yes" : "no",
			r->cached ? " (cached)" : "", pad);
	}
	double gm = geomean(rows, n, g, &c), gp = geomean_of(rows, n, g, 1, &cp);
	if (c)
		fprintf(out, "geomean speedup vs vendor best (%d rows, %s): %.3fx", c, gpu ? gpu : "?", gm);
	else
		fprintf(out, "geomean speedup vs vendor best: n/a (no row has both a tuned and a vendor time)");
	if (cp)
		fprintf(out, "; paired, side by side (%d rows): %.3fx\n", cp, gp);
	else
		fprintf(out, "; paired: n/a (no row was timed side by side)\n");
	if (padded)
		fprintf(out, "padded: %d of %d rows ran with M, N and K rounded up to multiples of %d (DeepBench's rule); %s; %s "
			     "count the shape as given\n",
			padded, nrows, in->pad_to, DLB_PADDING_NOTE, in->unit);
}

/* One table per op and precision, in the order they first appear. */
static void print_text(FILE *out, const struct dlb_result *rows, int n, const char *gpu)
{
	for (int i = 0, tables = 0; i < n; i++)
		if (first_of_group(rows, i)) {
			if (tables++)
				fputc('\n', out);
			print_group_text(out, rows, n, &rows[i], gpu);
		}
}

static void print_csv(FILE *out, const struct dlb_result *rows, int n)
{
	fprintf(out, "m,n,k,layout,prec,best_config,tuned_us,tuned_ci_lo,tuned_ci_hi,throughput,unit,pct_peak,peak,"
		     "cublas_us,cublaslt_best_us,speedup,verified,cached,padded,padded_m,padded_n,padded_k,floor_us,"
		     "vendor_best,vendor_best_config,paired_vendor,paired_n,paired_tuned_us,paired_vendor_us,paired_speedup,"
		     "paired_speedup_lo,paired_speedup_hi\n");
	for (int i = 0; i < n; i++) {
		const struct dlb_result *r = &rows[i];
		char a[32], b[32], c[32], d[32], e[32], f[32], g[32], h[32], pk[32], fl[32], pr[160];
		int64_t pm, pn, pkk;
		const struct dlb_vendor_entry *vb = dlb_result_vendor_best(r);
		int padded = dlb_problem_padded(&r->p, &pm, &pn, &pkk); /* the shape run, also when unpadded */
		fprintf(out, "%lld,%lld,%lld,%s,%s,\"%s\",%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%d,%d,%d,%lld,%lld,%lld,%s,%s,\"%s\",%s\n",
			(long long)r->p.m, (long long)r->p.n, (long long)r->p.k, dlb_layout_name(r->p.ta, r->p.tb),
			dlb_prec_name(r->p.prec), r->found ? r->config : "",
			dlb_fmt_num(a, sizeof a, r->found ? r->tuned.median : NAN, "%.3f"),
			dlb_fmt_num(b, sizeof b, r->found ? r->tuned.median_lo : NAN, "%.3f"),
			dlb_fmt_num(c, sizeof c, r->found ? r->tuned.median_hi : NAN, "%.3f"),
			dlb_fmt_num(d, sizeof d, dlb_result_throughput(r), "%.3f"), dlb_prec_info(r->p.prec)->unit,
			dlb_fmt_num(e, sizeof e, dlb_result_pct_peak(r), "%.2f"), dlb_fmt_num(pk, sizeof pk, r->peak_tflops, "%.1f"),
			dlb_fmt_num(f, sizeof f, dlb_result_cublas_us(r), "%.3f"),
			dlb_fmt_num(g, sizeof g, dlb_result_lt_best_us(r), "%.3f"),
			dlb_fmt_num(h, sizeof h, dlb_result_speedup(r), "%.4f"), r->found, r->cached, padded, (long long)pm,
			(long long)pn, (long long)pkk, dlb_fmt_num(fl, sizeof fl, dlb_result_floor_us(r), "%.3f"),
			vb ? vb->name : "", vb ? vb->config : "", dlb_paired_csv(r, pr, sizeof pr));
	}
}

static json_t *jnum(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

json_t *dlb_padded_json(const struct dlb_problem *p)
{
	int64_t m, n, k;
	if (!dlb_problem_padded(p, &m, &n, &k))
		return json_null();
	return json_pack("{s:I,s:I,s:I,s:b}", "m", (json_int_t)m, "n", (json_int_t)n, "k", (json_int_t)k,
			 "time_includes_padding", 0);
}

json_t *dlb_paired_json(const struct dlb_result *r)
{
	const struct dlb_paired *d = &r->paired;
	if (!r->found || d->n < 1)
		return json_null();
	return json_pack("{s:s,s:i,s:o,s:o,s:o,s:[o,o]}", "vendor", d->vendor, "pairs", d->n, "tuned_us",
			 jnum(d->tuned.median), "vendor_us", jnum(d->vendor_st.median), "speedup", jnum(d->speedup.median),
			 "speedup_ci95", jnum(d->speedup.median_lo), jnum(d->speedup.median_hi));
}

const char *dlb_paired_csv(const struct dlb_result *r, char *buf, size_t len)
{
	const struct dlb_paired *d = &r->paired;
	char a[32], b[32], c[32], e[32], f[32];
	if (!r->found || d->n < 1) {
		snprintf(buf, len, "\"\",0,n/a,n/a,n/a,n/a,n/a");
		return buf;
	}
	snprintf(buf, len, "\"%s\",%d,%s,%s,%s,%s,%s", d->vendor, d->n, dlb_fmt_num(a, sizeof a, d->tuned.median, "%.3f"),
		 dlb_fmt_num(b, sizeof b, d->vendor_st.median, "%.3f"), dlb_fmt_num(c, sizeof c, d->speedup.median, "%.4f"),
		 dlb_fmt_num(e, sizeof e, d->speedup.median_lo, "%.4f"), dlb_fmt_num(f, sizeof f, d->speedup.median_hi, "%.4f"));
	return buf;
}

static json_t *row_json(const struct dlb_result *r)
{
	json_t *o = json_object();
	json_object_set_new(o, "op", json_string(op_name(r)));
	json_object_set_new(o, "prec", json_string(dlb_prec_name(r->p.prec)));
	json_object_set_new(o, "m", json_integer(r->p.m));
	json_object_set_new(o, "n", json_integer(r->p.n));
	json_object_set_new(o, "k", json_integer(r->p.k));
	json_object_set_new(o, "layout", json_string(dlb_layout_name(r->p.ta, r->p.tb)));
	json_object_set_new(o, "padded", dlb_padded_json(&r->p));
	json_object_set_new(o, "verified", json_boolean(r->found));
	json_object_set_new(o, "cached", json_boolean(r->cached));
	json_object_set_new(o, "best_config", r->found ? json_string(r->config) : json_null());
	json_object_set_new(o, "tuned_us", jnum(r->found ? r->tuned.median : NAN));
	json_object_set_new(o, "tuned_ci95_us", json_pack("[o,o]", jnum(r->found ? r->tuned.median_lo : NAN),
							 jnum(r->found ? r->tuned.median_hi : NAN)));
	json_object_set_new(o, "tuned_samples", json_integer(r->tuned.n));
	json_object_set_new(o, "throughput", jnum(dlb_result_throughput(r)));
	json_object_set_new(o, "unit", json_string(dlb_prec_info(r->p.prec)->unit));
	json_object_set_new(o, "pct_peak", jnum(dlb_result_pct_peak(r)));
	json_object_set_new(o, "peak", jnum(r->peak_tflops));
	json_object_set_new(o, "cublas_us", jnum(dlb_result_cublas_us(r)));
	json_object_set_new(o, "cublaslt_best_us", jnum(dlb_result_lt_best_us(r)));
	json_object_set_new(o, "speedup_vs_vendor_best", jnum(dlb_result_speedup(r)));
	const struct dlb_vendor_entry *vb = dlb_result_vendor_best(r);
	json_object_set_new(o, "vendor_best", vb ? json_string(vb->name) : json_null());
	json_object_set_new(o, "vendor_best_config", vb && vb->config[0] ? json_string(vb->config) : json_null());
	json_object_set_new(o, "stream_floor_us", jnum(dlb_result_floor_us(r)));
	json_object_set_new(o, "paired", dlb_paired_json(r));
	json_object_set_new(o, "max_err", jnum(r->max_err));
	json_object_set_new(o, "tolerance", jnum(r->tol));
	json_t *counts = json_object();
	for (int s = 0; s < DLB_ST_COUNT; s++)
		json_object_set_new(counts, dlb_status_name((enum dlb_status)s), json_integer(r->counts[s]));
	json_object_set_new(o, "trial_counts", counts);
	return o;
}

static void print_json(FILE *out, const struct dlb_result *rows, int n, const char *gpu)
{
	json_t *arr = json_array(), *groups = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(arr, row_json(&rows[i]));
	/* per op and precision: its unit, peak and geomean (one across precisions mixes unlike things) */
	for (int i = 0; i < n; i++) {
		if (!first_of_group(rows, i))
			continue;
		const struct dlb_prec_info *in = dlb_prec_info(rows[i].p.prec);
		int c = 0, cp = 0;
		double gm = geomean(rows, n, &rows[i], &c), gp = geomean_of(rows, n, &rows[i], 1, &cp);
		json_array_append_new(groups, json_pack("{s:s,s:s,s:s,s:s,s:o,s:s,s:o,s:i,s:o,s:i}", "op", op_name(&rows[i]),
							"prec", in->name, "computes", in->about, "unit", in->unit, "peak",
							jnum(group_peak(rows, n, &rows[i])), "peak_is", in->peak,
							"geomean_speedup", jnum(gm), "rows_with_speedup", c,
							"geomean_paired_speedup", jnum(gp), "rows_with_paired", cp));
	}
	int c = 0, cp = 0;
	double gm = geomean(rows, n, NULL, &c), gp = geomean_of(rows, n, NULL, 1, &cp);
	json_t *root = json_pack("{s:s,s:o,s:o,s:o,s:i,s:o,s:i}", "gpu", gpu ? gpu : "", "results", arr, "precisions",
				 groups, "geomean_speedup", jnum(gm), "rows_with_speedup", c, "geomean_paired_speedup",
				 jnum(gp), "rows_with_paired", cp);
	json_dumpf(root, out, JSON_INDENT(1));
	fputc('\n', out);
	json_decref(root);
}

void dlb_table_print(FILE *out, enum dlb_format fmt, const struct dlb_result *rows, int n, const char *gpu)
{
	if (fmt == DLB_FMT_JSON)
		print_json(out, rows, n, gpu);
	else if (fmt == DLB_FMT_CSV)
		print_csv(out, rows, n);
	else
		print_text(out, rows, n, gpu);
}
