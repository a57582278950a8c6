/* table: one column list, three renderings. */
#include "table.h"

#include "../src/op.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

double dlb_geomean_speedup(const struct dlb_result *rows, int n, int *count)
{
	double logsum = 0;
	int c = 0;
	for (int i = 0; i < n; i++) {
		double s = dlb_result_speedup(&rows[i]);
		if (s > 0) {
			logsum += log(s);
			c++;
		}
	}
	if (count)
		*count = c;
	return c ? exp(logsum / c) : NAN;
}

static const char *fmt_num(char *buf, size_t len, double x, const char *f)
{
	if (isnan(x))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, f, x);
	return buf;
}

static void print_text(FILE *out, const struct dlb_result *rows, int n)
{
	fprintf(out, "%6s %6s %7s %-6s | %-40s | %9s %8s %7s | %9s %9s | %8s | %s\n", "M", "N", "K", "layout",
		"best config", "tuned us", "TFLOP/s", "%peak", "cuBLAS us", "Lt-best", "speedup", "verified");
	for (int i = 0; i < n; i++) {
		const struct dlb_result *r = &rows[i];
		char a[32], b[32], c[32], d[32], e[32], f[32];
		double tfl = dlb_result_tflops(r);
		fprintf(out, "%6lld %6lld %7lld %-6s | %-40s | %9s %8s %7s | %9s %9s | %8s | %s%s\n", (long long)r->p.m,
			(long long)r->p.n, (long long)r->p.k, dlb_layout_name(r->p.ta, r->p.tb),
			r->found ? r->config : "(no verified candidate)",
			fmt_num(a, sizeof a, r->found ? r->tuned.median : NAN, "%.2f"), fmt_num(b, sizeof b, tfl, "%.2f"),
			fmt_num(c, sizeof c, tfl / r->peak_tflops * 100.0, "%.1f%%"),
			fmt_num(d, sizeof d, dlb_result_cublas_us(r), "%.2f"),
			fmt_num(e, sizeof e, dlb_result_lt_best_us(r), "%.2f"),
			fmt_num(f, sizeof f, dlb_result_speedup(r), "%.2fx"), r->found ? "yes" : "no",
			r->cached ? " (cached)" : "");
	}
}

static void print_csv(FILE *out, const struct dlb_result *rows, int n)
{
	fprintf(out, "m,n,k,layout,prec,best_config,tuned_us,tuned_ci_lo,tuned_ci_hi,tflops,pct_peak,cublas_us,"
		     "cublaslt_best_us,speedup,verified,cached\n");
	for (int i = 0; i < n; i++) {
		const struct dlb_result *r = &rows[i];
		char a[32], b[32], c[32], d[32], e[32], f[32], g[32], h[32];
		double tfl = dlb_result_tflops(r);
		fprintf(out, "%lld,%lld,%lld,%s,%s,\"%s\",%s,%s,%s,%s,%s,%s,%s,%s,%d,%d\n", (long long)r->p.m,
			(long long)r->p.n, (long long)r->p.k, dlb_layout_name(r->p.ta, r->p.tb), dlb_prec_name(r->p.prec),
			r->found ? r->config : "", fmt_num(a, sizeof a, r->found ? r->tuned.median : NAN, "%.3f"),
			fmt_num(b, sizeof b, r->found ? r->tuned.median_lo : NAN, "%.3f"),
			fmt_num(c, sizeof c, r->found ? r->tuned.median_hi : NAN, "%.3f"), fmt_num(d, sizeof d, tfl, "%.3f"),
			fmt_num(e, sizeof e, tfl / r->peak_tflops * 100.0, "%.2f"),
			fmt_num(f, sizeof f, dlb_result_cublas_us(r), "%.3f"),
			fmt_num(g, sizeof g, dlb_result_lt_best_us(r), "%.3f"),
			fmt_num(h, sizeof h, dlb_result_speedup(r), "%.4f"), r->found, r->cached);
	}
}

static json_t *jnum(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static void print_json(FILE *out, const struct dlb_result *rows, int n, const char *gpu)
{
	json_t *arr = json_array();
	for (int i = 0; i < n; i++) {
		const struct dlb_result *r = &rows[i];
		double tfl = dlb_result_tflops(r);
		json_t *o = json_object();
		json_object_set_new(o, "op", json_string(r->p.op->name));
		json_object_set_new(o, "prec", json_string(dlb_prec_name(r->p.prec)));
		json_object_set_new(o, "m", json_integer(r->p.m));
		json_object_set_new(o, "n", json_integer(r->p.n));
		json_object_set_new(o, "k", json_integer(r->p.k));
		json_object_set_new(o, "layout", json_string(dlb_layout_name(r->p.ta, r->p.tb)));
		json_object_set_new(o, "verified", json_boolean(r->found));
		json_object_set_new(o, "cached", json_boolean(r->cached));
		json_object_set_new(o, "best_config", r->found ? json_string(r->config) : json_null());
		json_object_set_new(o, "tuned_us", jnum(r->found ? r->tuned.median : NAN));
		json_object_set_new(o, "tuned_ci95_us", json_pack("[o,o]", jnum(r->found ? r->tuned.median_lo : NAN),
								 jnum(r->found ? r->tuned.median_hi : NAN)));
		json_object_set_new(o, "tuned_samples", json_integer(r->tuned.n));
		json_object_set_new(o, "tflops", jnum(tfl));
		json_object_set_new(o, "pct_peak", jnum(tfl / r->peak_tflops * 100.0));
		json_object_set_new(o, "cublas_us", jnum(dlb_result_cublas_us(r)));
		json_object_set_new(o, "cublaslt_best_us", jnum(dlb_result_lt_best_us(r)));
		json_object_set_new(o, "speedup_vs_vendor_best", jnum(dlb_result_speedup(r)));
		json_object_set_new(o, "max_err", jnum(r->max_err));
		json_object_set_new(o, "tolerance", jnum(r->tol));
		json_t *counts = json_object();
		for (int s = 0; s < DLB_ST_COUNT; s++)
			json_object_set_new(counts, dlb_status_name((enum dlb_status)s), json_integer(r->counts[s]));
		json_object_set_new(o, "trial_counts", counts);
		json_array_append_new(arr, o);
	}
	int c = 0;
	double gm = dlb_geomean_speedup(rows, n, &c);
	json_t *root = json_pack("{s:s,s:o,s:o,s:i}", "gpu", gpu ? gpu : "", "results", arr, "geomean_speedup",
				 jnum(gm), "rows_with_speedup", c);
	json_dumpf(root, out, JSON_INDENT(1));
	fputc('\n', out);
	json_decref(root);
}

void dlb_table_print(FILE *out, enum dlb_format fmt, const struct dlb_result *rows, int n, const char *gpu)
{
	if (fmt == DLB_FMT_JSON) {
		print_json(out, rows, n, gpu);
		return;
	}
	if (fmt == DLB_FMT_CSV) {
		print_csv(out, rows, n);
		return;
	}
	print_text(out, rows, n);
	int c = 0;
	double gm = dlb_geomean_speedup(rows, n, &c);
	if (c)
		fprintf(out, "geomean speedup vs vendor best (%d rows, %s): %.3fx\n", c, gpu ? gpu : "?", gm);
	else
		fprintf(out, "geomean speedup vs vendor best: n/a (no row has both a tuned and a vendor time)\n");
}
