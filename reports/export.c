/* export: four renderings of catalog rows. */
#include "export.h"

#include "../src/err.h"
#include "../src/op.h"
#include "../store/record.h"
#include "columns.h"
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

/* The rows' context (GPU, driver, CUDA, op), then the family's columns; a new header where the family changes
 * (each family has its own columns). */
static void export_csv(FILE *out, const struct dlb_row *rows, int n)
{
	const struct dlb_family *cur = NULL;
	struct dlb_column cols[DLB_MAX_COLUMNS];
	int ncols = 0;
	if (!n) { /* nothing matched: still a CSV file, with the header of the first family built */
		ncols = dlb_columns(dlb_family_at(0), cols, DLB_MAX_COLUMNS);
		fprintf(out, "gpu,gpu_id,driver,cuda,op,");
		dlb_columns_csv_header(out, cols, ncols, DLB_IN_XCSV);
		fputc('\n', out);
	}
	for (int i = 0; i < n; i++) {
		const struct dlb_row *w = &rows[i];
		if (w->r.p.op->family != cur) {
			cur = w->r.p.op->family;
			ncols = dlb_columns(cur, cols, DLB_MAX_COLUMNS);
			if (i)
				fputc('\n', out);
			fprintf(out, "gpu,gpu_id,driver,cuda,op,");
			dlb_columns_csv_header(out, cols, ncols, DLB_IN_XCSV);
			fputc('\n', out);
		}
		dlb_csv_string(out, w->k.gpu);
		fprintf(out, ",%s,%d,%d,%s,", w->k.id, w->k.driver, w->k.cuda, w->k.op);
		dlb_columns_csv_row(out, &(struct dlb_row_ctx){&w->r, 1, w->stale}, cols, ncols, DLB_IN_XCSV);
		fputc('\n', out);
	}
}

/* Markdown groups rows by GPU, driver, op and precision; within a group they keep key order. */
static int md_order(const void *a, const void *b)
{
	const struct dlb_row *x = *(const struct dlb_row *const *)a, *y = *(const struct dlb_row *const *)b;
	int c;
	if ((c = strcmp(x->k.gpu, y->k.gpu)) || (c = strcmp(x->k.id, y->k.id)))
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
	char titles[96];
	dlb_padded_titles(r->p.op->family, titles, sizeof titles);
	if (padded)
		fprintf(out, "\nPadded: %d of %d rows ran with %s rounded up to multiples of %d (DeepBench's rule); "
			     "%s; %s count the shape as given.\n",
			padded, nrows, titles, in->pad_to, DLB_PADDING_NOTE, dlb_op_unit(r->p.op));
}

/* A Markdown line of the text columns: the titles (x NULL) or a row's cells. */
static void md_line(FILE *out, const struct dlb_column *cols, int n, const struct dlb_op *op,
		    const struct dlb_row_ctx *x)
{
	for (int i = 0; i < n; i++) {
		char cell[320];
		if (!dlb_column_in(&cols[i], DLB_IN_MD))
			continue;
		if (x)
			dlb_cell_text(x, &cols[i], cell, sizeof cell);
		else
			snprintf(cell, sizeof cell, "%s", dlb_column_title(&cols[i], op));
		fprintf(out, "| %s ", *cell ? cell : "—");
	}
	fprintf(out, "|\n");
	if (x)
		return;
	for (int i = 0; i < n; i++)
		if (dlb_column_in(&cols[i], DLB_IN_MD))
			fprintf(out, "|%s", cols[i].width > 0 ? "---:" : "---");
	fprintf(out, "|\n");
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
	struct dlb_column cols[DLB_MAX_COLUMNS];
	int ncols = 0;
	for (int i = 0; i < n; i++) {
		const struct dlb_row *w = sorted[i], *prev = i ? sorted[i - 1] : NULL;
		const struct dlb_result *r = &w->r;
		int64_t run[DLB_MAX_DIMS];
		if (!prev || strcmp(w->k.id, prev->k.id) || w->k.driver != prev->k.driver || strcmp(w->k.op, prev->k.op) ||
		    strcmp(w->k.prec, prev->k.prec)) {
			if (prev)
				md_padding_note(out, padded, nrows, &prev->r);
			padded = nrows = 0;
			char where[320];
			dlb_key_gpu_text(&w->k, where, sizeof where);
			fprintf(out, "\n## %s %s on %s\n\n", w->k.op, w->k.prec, where);
			ncols = dlb_columns(r->p.op->family, cols, DLB_MAX_COLUMNS);
			md_line(out, cols, ncols, r->p.op, NULL);
		}
		nrows++;
		padded += dlb_problem_padded(&r->p, run);
		md_line(out, cols, ncols, r->p.op, &(struct dlb_row_ctx){r, 1, w->stale});
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

/* Values of names in a configuration "A=1 B=2 ..."; 0 when every name is there. A parameter of op's space that
 * a record predates (fp32's KIND, KS, KU) takes its first value, which is what the template ran then. */
static int config_values(const struct dlb_op *op, const char *config, const char **names, int nn, long *vals)
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
		if (!found && f < op->space.nparams) {
			vals[f] = op->space.params[f].values[0];
			found = 1;
		}
		if (!found)
			return DLB_E_PARSE;
	}
	return 0;
}

/* A dim's name as a C identifier: '-' (pad-w, matrix-seed) becomes '_'. */
static void h_ident(FILE *out, const char *name)
{
	for (; *name; name++)
		fputc(*name == '-' ? '_' : *name, out);
}

/* The problem's fields of a header struct: its layout as text, its sizes as integers, its reals as doubles. */
static void h_problem_fields(FILE *out, const struct dlb_family *f)
{
	fprintf(out, "\tconst char *gpu, *gpu_id, *prec%s;\n", dlb_family_has_layout(f) ? ", *layout" : "");
	for (int kind = DLB_DIM_SIZE; kind <= DLB_DIM_REAL; kind += DLB_DIM_REAL - DLB_DIM_SIZE) {
		int first = 1;
		for (int d = 0; d < f->ndims; d++)
			if ((int)f->dims[d].kind == kind) {
				fputs(first ? (kind == DLB_DIM_SIZE ? "\tlong long " : "\tdouble ") : ", ", out);
				h_ident(out, f->dims[d].name);
				first = 0;
			}
		if (!first)
			fprintf(out, ";\n");
	}
}

static void h_problem_values(FILE *out, const struct dlb_problem *p)
{
	const struct dlb_family *f = p->op->family;
	char text[64];
	if (dlb_family_has_layout(f)) {
		dlb_problem_layout(p, text, sizeof text);
		fprintf(out, ", \"%s\"", text);
	}
	for (int kind = DLB_DIM_SIZE; kind <= DLB_DIM_REAL; kind += DLB_DIM_REAL - DLB_DIM_SIZE)
		for (int d = 0; d < f->ndims; d++)
			if ((int)f->dims[d].kind == kind) {
				dlb_dim_format(&f->dims[d], p->dim[d], text, sizeof text);
				fprintf(out, ", %s", text);
			}
}

static void export_h(FILE *out, const struct dlb_row *rows, int n)
{
	fprintf(out, "/* Best configurations tuned by dlbtune " PACKAGE_VERSION
		     "; generated by `dlbtune export --format h`, do not edit.\n"
		     " * One table per op: (GPU, precision, the op's problem) -> the template parameters that won, and the\n"
		     " * tuned median in microseconds. Rows without a verified winner are left out. */\n");
	fprintf(out, "#ifndef DLBTUNE_BEST_H\n#define DLBTUNE_BEST_H\n"
		     "#ifdef __GNUC__\n#define DLBTUNE_UNUSED __attribute__((unused))\n#else\n#define DLBTUNE_UNUSED\n#endif\n");
	const struct dlb_op *op;
	for (int o = 0; (op = dlb_op_at(o)) != NULL; o++) {
		const char *names[DLB_MAX_PARAMS + 1];
		long vals[DLB_MAX_PARAMS + 1];
		int nn = op_fields(op, names, DLB_MAX_PARAMS + 1), count = 0;
		for (int i = 0; i < n; i++)
			count += rows[i].r.p.op == op && rows[i].r.found;
		if (!count)
			continue;
		fprintf(out, "\nstruct dlbtune_%s_best {\n", op->name);
		h_problem_fields(out, op->family);
		fprintf(out, "\tint");
		for (int f = 0; f < nn; f++)
			fprintf(out, "%s %s", f ? "," : "", names[f]);
		fprintf(out, ";\n\tdouble median_us;\n};\n\nstatic const struct dlbtune_%s_best dlbtune_%s_best[] DLBTUNE_UNUSED = {\n",
			op->name, op->name);
		int written = 0;
		for (int i = 0; i < n; i++) {
			const struct dlb_row *w = &rows[i];
			if (w->r.p.op != op || !w->r.found)
				continue;
			if (config_values(op, w->r.config, names, nn, vals)) {
				fprintf(out, "\t/* %s: configuration '%s' has not every field */\n", w->k.shape, w->r.config);
				continue;
			}
			fprintf(out, "\t{\"");
			for (const char *p = w->k.gpu; *p; p++)
				fprintf(out, *p == '"' || *p == '\\' ? "\\%c" : "%c", *p);
			fprintf(out, "\", \"%s\", \"%s\"", w->k.id, w->k.prec);
			h_problem_values(out, &w->r.p);
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

/* The problem's fields of an exported record: "layout" (where the op has one), then each size and real. */
static void json_record_problem(json_t *rec, const struct dlb_problem *p)
{
	char text[64];
	json_t *sizes = dlb_problem_sizes_json(p);
	if (rec && dlb_family_has_layout(p->op->family)) {
		dlb_problem_layout(p, text, sizeof text);
		json_object_set_new(rec, "layout", json_string(text));
	}
	if (rec && sizes)
		json_object_update(rec, sizes);
	json_decref(sizes);
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
		/* the problem's fields and "padded" are derived from the key: for readers, import ignores them */
		json_t *rec = json_pack("{s:s,s:s,s:s}", "key", w->r.key, "op", w->k.op, "prec", w->k.prec);
		json_t *rest = json_pack("{s:o,s:s,s:o,s:o,s:o,s:o}", "padded", dlb_padded_json(&w->r.p), "gpu", w->k.gpu,
					 "platform", plat, "best", dlb_best_json(&w->r), "vendor", vendor, "trials", tc.arr);
		json_record_problem(rec, &w->r.p);
		if (rec && rest)
			json_object_update(rec, rest);
		json_decref(rest);
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
