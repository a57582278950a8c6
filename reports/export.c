/* export: four renderings of catalog rows. */
#include "export.h"

#include "../src/err.h"
#include "../src/op.h"
#include "../store/record.h"
#include "table.h"
#include "config.h"

#include <errno.h>
#include <lmdb.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const format_names[DLB_EXPORT_COUNT] = {
	[DLB_EXPORT_CSV] = "csv", [DLB_EXPORT_JSON] = "json", [DLB_EXPORT_MD] = "md", [DLB_EXPORT_HEADER] = "h"};

int dlb_export_format_parse(const char *s, enum dlb_export_format *out)
{
	for (int i = 0; i < DLB_EXPORT_COUNT; i++)
		if (!strcmp(s, format_names[i])) {
			*out = (enum dlb_export_format)i;
			return 0;
		}
	return DLB_E_PARSE;
}

static void csv_field(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void export_csv(FILE *out, const struct dlb_row *rows, int n)
{
	fprintf(out, "gpu,uuid,driver,cuda,op,prec,layout,m,n,k,config,median_us,ci_lo_us,ci_hi_us,samples,throughput,"
		     "unit,vendor_best,vendor_best_us,speedup,verified,current,measured,padded,padded_m,padded_n,padded_k,floor_us,"
		     "vendor_best_config,paired_vendor,paired_n,paired_tuned_us,paired_vendor_us,paired_speedup,paired_speedup_lo,"
		     "paired_speedup_hi\n");
	for (int i = 0; i < n; i++) {
		const struct dlb_row *w = &rows[i];
		const struct dlb_result *r = &w->r;
		const struct dlb_vendor_entry *vb = dlb_result_vendor_best(r);
		char a[32], b[32], c[32], d[32], e[32], f[32], fl[32], pr[160];
		double t = r->found ? r->tuned.median : NAN;
		int64_t pm, pn, pk;
		int padded = dlb_problem_padded(&r->p, &pm, &pn, &pk); /* the shape run, also when unpadded */
		csv_field(out, w->k.gpu);
		fprintf(out, ",%s,%d,%d,%s,%s,%s,%lld,%lld,%lld,", w->k.uuid, w->k.driver, w->k.cuda, w->k.op, w->k.prec,
			w->k.layout, (long long)w->k.m, (long long)w->k.n, (long long)w->k.k);
		csv_field(out, r->found ? r->config : "");
		dlb_fmt_num(a, sizeof a, t, "%.3f");
		dlb_fmt_num(b, sizeof b, r->found ? r->tuned.median_lo : NAN, "%.3f");
		dlb_fmt_num(c, sizeof c, r->found ? r->tuned.median_hi : NAN, "%.3f");
		dlb_fmt_num(d, sizeof d, dlb_result_throughput(r), "%.3f");
		dlb_fmt_num(e, sizeof e, vb ? vb->st.median : NAN, "%.3f");
		dlb_fmt_num(f, sizeof f, dlb_result_speedup(r), "%.4f");
		fprintf(out, ",%s,%s,%s,%d,%s,%s,", a, b, c, r->found ? r->tuned.n : 0, d, dlb_prec_info(r->p.prec)->unit);
		csv_field(out, vb ? vb->name : "");
		fprintf(out, ",%s,%s,%d,%d,%s,%d,%lld,%lld,%lld,%s,", e, f, r->found, !w->stale, r->timestamp, padded,
			(long long)pm, (long long)pn, (long long)pk, dlb_fmt_num(fl, sizeof fl, dlb_result_floor_us(r), "%.3f"));
		csv_field(out, vb ? vb->config : "");
		fprintf(out, ",%s\n", dlb_paired_csv(r, pr, sizeof pr));
	}
}

/* Markdown groups rows by GPU, driver, op and precision; within a group they keep key order. */
static int md_order(const void *a, const void *b)
{
	const struct dlb_row *x = *(const struct dlb_row *const *)a, *y = *(const struct dlb_row *const *)b;
	int c;
	if ((c = strcmp(x->k.gpu, y->k.gpu)) || (c = strcmp(x->k.uuid, y->k.uuid)))
		return c;
	if (x->k.driver != y->k.driver)
		return x->k.driver > y->k.driver ? -1 : 1; /* newest first */
	if ((c = strcmp(x->k.op, y->k.op)) || (c = strcmp(x->k.prec, y->k.prec)))
		return c;
	return x < y ? -1 : x > y;
}

/* Under a Markdown table whose rows were padded: what that means. */
static void md_padding_note(FILE *out, int padded, int nrows, const struct dlb_result *r)
{
	const struct dlb_prec_info *in = dlb_prec_info(r->p.prec);
	if (padded)
		fprintf(out, "\nPadded: %d of %d rows ran with M, N and K rounded up to multiples of %d (DeepBench's rule); "
			     "%s; %s count the shape as given.\n",
			padded, nrows, in->pad_to, DLB_PADDING_NOTE, in->unit);
}

static void export_md(FILE *out, const struct dlb_row *all, int n)
{
	const struct dlb_row **sorted = calloc(n ? (size_t)n : 1, sizeof *sorted);
	int padded = 0, nrows = 0; /* of the table being written */
	if (!sorted) {
		fprintf(out, "(out of memory)\n");
		return;
	}
	for (int i = 0; i < n; i++)
		sorted[i] = &all[i];
	qsort(sorted, (size_t)n, sizeof *sorted, md_order);
	fprintf(out, "# dlbtune best configurations\n\n");
	fprintf(out, "Tuned and vendor times are medians in microseconds with 95%% confidence intervals, measured by the "
		     "same harness; speedup = vendor best / tuned; paired: the speedup measured side by side after the search (the "
		     "winner and the vendor best sample for sample in one loop; the median of the pairs' ratios, 95%% CI); floor: the stream floor, one launch that reads the "
		     "inputs and writes the output once (vendor best / floor bounds any speedup); n/a: no such number "
		     "(no verified candidate, no verified vendor algorithm, not measured).\n");
	for (int i = 0; i < n; i++) {
		const struct dlb_row *w = sorted[i], *prev = i ? sorted[i - 1] : NULL;
		const struct dlb_result *r = &w->r;
		if (!prev || strcmp(w->k.uuid, prev->k.uuid) || w->k.driver != prev->k.driver || strcmp(w->k.op, prev->k.op) ||
		    strcmp(w->k.prec, prev->k.prec)) {
			if (prev)
				md_padding_note(out, padded, nrows, &prev->r);
			padded = nrows = 0;
			fprintf(out, "\n## %s %s on %s (%s), driver %d.%d, CUDA %d.%d\n\n", w->k.op, w->k.prec, w->k.gpu,
				w->k.uuid, w->k.driver / 1000, (w->k.driver % 1000) / 10, w->k.cuda / 1000,
				(w->k.cuda % 1000) / 10);
			fprintf(out, "| layout | M×N×K | config | tuned µs [95%% CI] | %s | vendor best | vendor µs | "
				     "speedup | paired [95%% CI] | floor µs | current |\n",
				dlb_prec_info(r->p.prec)->unit);
			fprintf(out, "|---|---|---|---|---:|---|---:|---:|---:|---:|---|\n");
		}
		const struct dlb_vendor_entry *vb = dlb_result_vendor_best(r);
		char t[96], tf[32], vu[32], sp[32], pa[96] = "n/a", fl[32], shape[160];
		int64_t pm, pn, pk;
		nrows++;
		int len = snprintf(shape, sizeof shape, "%lld×%lld×%lld", (long long)w->k.m, (long long)w->k.n, (long long)w->k.k);
		if (dlb_problem_padded(&r->p, &pm, &pn, &pk)) {
			snprintf(shape + len, sizeof shape - (size_t)len, " (padded: %lld×%lld×%lld)", (long long)pm, (long long)pn,
				 (long long)pk);
			padded++;
		}
		if (r->found)
			snprintf(t, sizeof t, "%.2f [%.2f, %.2f]", r->tuned.median, r->tuned.median_lo, r->tuned.median_hi);
		else
			snprintf(t, sizeof t, "none verified");
		dlb_fmt_num(tf, sizeof tf, dlb_result_throughput(r), "%.2f");
		dlb_fmt_num(vu, sizeof vu, vb ? vb->st.median : NAN, "%.2f");
		dlb_fmt_num(sp, sizeof sp, dlb_result_speedup(r), "%.2f×");
		dlb_fmt_num(fl, sizeof fl, dlb_result_floor_us(r), "%.2f");
		if (isfinite(dlb_result_paired_speedup(r)))
			snprintf(pa, sizeof pa, "%.2f× [%.2f, %.2f]", dlb_result_paired_speedup(r), dlb_result_paired_lo(r),
				 dlb_result_paired_hi(r));
		fprintf(out, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", w->k.layout, shape,
			r->found ? r->config : "—", t, tf, vb ? vb->name : "n/a", vu, sp, pa, fl, w->stale ? "no" : "yes");
	}
	if (n)
		md_padding_note(out, padded, nrows, &sorted[n - 1]->r);
	free(sorted);
}

/* The parameter names of an op's configurations: its space, then its launch-time variant. */
static int op_fields(const struct dlb_op *op, const char **names, int max)
{
	int n = 0;
	for (int p = 0; p < op->space.nparams && n < max; p++)
		names[n++] = op->space.params[p].name;
	if (op->variant_name && n < max)
		names[n++] = op->variant_name;
	return n;
}

/* Values of names in a configuration "A=1 B=2 ..."; 0 when every name is there. */
static int config_values(const char *config, const char **names, int nn, long *vals)
{
	for (int f = 0; f < nn; f++) {
		size_t len = strlen(names[f]);
		const char *p = config;
		int found = 0;
		while ((p = strstr(p, names[f])) != NULL) {
			if ((p == config || p[-1] == ' ') && p[len] == '=') {
				char *end;
				vals[f] = strtol(p + len + 1, &end, 10);
				found = end != p + len + 1 && (*end == ' ' || *end == 0);
				break;
			}
			p += len;
		}
		if (!found)
			return DLB_E_PARSE;
	}
	return 0;
}

static void export_h(FILE *out, const struct dlb_row *rows, int n)
{
	fprintf(out, "/* Best configurations tuned by dlbtune " PACKAGE_VERSION
		     "; generated by `dlbtune export --format h`, do not edit.\n"
		     " * One table per op: (GPU, precision, layout, M, N, K) -> the template parameters that won, and the\n"
		     " * tuned median in microseconds. Rows without a verified winner are left out. */\n");
	fprintf(out, "#ifndef DLBTUNE_BEST_H\n#define DLBTUNE_BEST_H\n"
		     "#ifdef __GNUC__\n#define DLBTUNE_UNUSED __attribute__((unused))\n#else\n#define DLBTUNE_UNUSED\n#endif\n");
	for (int o = 0; dlb_ops[o]; o++) {
		const struct dlb_op *op = dlb_ops[o];
		const char *names[DLB_MAX_PARAMS + 1];
		long vals[DLB_MAX_PARAMS + 1];
		int nn = op_fields(op, names, DLB_MAX_PARAMS + 1), count = 0;
		for (int i = 0; i < n; i++)
			count += rows[i].r.p.op == op && rows[i].r.found;
		if (!count)
			continue;
		fprintf(out, "\nstruct dlbtune_%s_best {\n\tconst char *gpu, *uuid, *prec, *layout;\n\tlong long m, n, k;\n\tint",
			op->name);
		for (int f = 0; f < nn; f++)
			fprintf(out, "%s %s", f ? "," : "", names[f]);
		fprintf(out, ";\n\tdouble median_us;\n};\n\nstatic const struct dlbtune_%s_best dlbtune_%s_best[] DLBTUNE_UNUSED = {\n",
			op->name, op->name);
		int written = 0;
		for (int i = 0; i < n; i++) {
			const struct dlb_row *w = &rows[i];
			if (w->r.p.op != op || !w->r.found)
				continue;
			if (config_values(w->r.config, names, nn, vals)) {
				fprintf(out, "\t/* %s: configuration '%s' has not every field */\n", w->k.layout, w->r.config);
				continue;
			}
			fprintf(out, "\t{\"");
			for (const char *p = w->k.gpu; *p; p++)
				fprintf(out, *p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
			fprintf(out, "\", \"%s\", \"%s\", \"%s\", %lld, %lld, %lld", w->k.uuid, w->k.prec, w->k.layout,
				(long long)w->k.m, (long long)w->k.n, (long long)w->k.k);
			for (int f = 0; f < nn; f++)
				fprintf(out, ", %ld", vals[f]);
			fprintf(out, ", %.15g},\n", w->r.tuned.median);
			written++;
		}
		fprintf(out, "};\nstatic const int dlbtune_%s_best_count DLBTUNE_UNUSED = %d;\n", op->name, written);
	}
	fprintf(out, "\n#endif\n");
}

struct trials_ctx {
	json_t *arr;
};

static int add_trial(const char *k, size_t kl, const char *v, size_t vl, void *arg)
{
	struct trials_ctx *c = arg;
	struct dlb_trial t;
	json_t *j = dlb_json_parse(v, vl);
	int rc = dlb_trial_from_json(j, &t);
	json_decref(j);
	if (rc == 0) /* re-encode, so what is exported is exactly what import stores */
		json_array_append_new(c->arr, dlb_trial_json(&t));
	else /* like the catalog: one unreadable value is reported (db verify names it) and skipped */
		fprintf(stderr, "dlbtune: warning: unreadable trial %.*s skipped\n", (int)(kl > 200 ? 200 : kl), k);
	return 0;
}

static int export_json(FILE *out, struct dlb_store *s, const struct dlb_row *rows, int n)
{
	int rc = 0;
	fprintf(out, "{\"format\":\"dlbtune-export\",\"version\":1,\"schema_version\":%d,\"records\":[",
		DLB_SCHEMA_VERSION);
	for (int i = 0; i < n; i++) {
		const struct dlb_row *w = &rows[i];
		char *pv = NULL, prefix[600];
		json_t *plat = json_null(), *vendor = json_array();
		struct trials_ctx tc = {json_array()};
		if (*w->r.platform && dlb_store_get(s, DLB_T_PLATFORMS, w->r.platform, &pv) == 0) {
			struct dlb_platform p;
			json_t *j = dlb_json_parse(pv, strlen(pv));
			if (dlb_platform_from_json(j, &p) == 0)
				plat = dlb_platform_json(&p);
			json_decref(j);
			free(pv);
		}
		for (int v = 0; v < w->r.nvendor; v++)
			json_array_append_new(vendor, dlb_vendor_json(&w->r.vendor[v]));
		snprintf(prefix, sizeof prefix, "%s|cfg=", w->r.key);
		rc = dlb_store_each(s, DLB_T_TRIALS, prefix, add_trial, &tc);
		/* "padded" is derived from the key (precision and shape): for readers, import ignores it */
		json_t *rec = json_pack("{s:s,s:s,s:s,s:s,s:I,s:I,s:I,s:o,s:s,s:o,s:o,s:o,s:o}", "key", w->r.key, "op",
					w->k.op, "prec", w->k.prec, "layout", w->k.layout, "m", (json_int_t)w->k.m, "n",
					(json_int_t)w->k.n, "k", (json_int_t)w->k.k, "padded", dlb_padded_json(&w->r.p),
					"gpu", w->k.gpu, "platform", plat, "best", dlb_best_json(&w->r), "vendor", vendor,
					"trials", tc.arr);
		if (rc) {
			json_decref(rec);
			DLB_FAIL(rc, "reading the trials of %s: %s", w->r.key, dlb_strerror(rc));
		}
		char *text = dlb_json_text(rec);
		if (!text)
			DLB_FAIL(ENOMEM, "out of memory");
		fprintf(out, "%s\n%s", i ? "," : "", text);
		free(text);
	}
	fprintf(out, "\n]}\n");
fail:
	return rc;
}

int dlb_export(FILE *out, enum dlb_export_format f, struct dlb_store *s, const struct dlb_row *rows, int n)
{
	int rc = 0;
	switch (f) {
	case DLB_EXPORT_CSV:
		export_csv(out, rows, n);
		break;
	case DLB_EXPORT_MD:
		export_md(out, rows, n);
		break;
	case DLB_EXPORT_HEADER:
		export_h(out, rows, n);
		break;
	case DLB_EXPORT_JSON:
		DLB_CHECK(export_json(out, s, rows, n));
		break;
	default:
		DLB_FAIL(DLB_E_USAGE, "unknown export format");
	}
	if (fflush(out) || ferror(out))
		DLB_USER_FAIL(errno ? errno : EIO, "writing the export: %s", strerror(errno ? errno : EIO));
fail:
	return rc;
}
