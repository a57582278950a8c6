/* table: the run's results in three renderings of one column list (reports/columns.h). Numbers that do not exist are "n/a" in text and CSV and null in
 * JSON: never a made-up value. */
#include "table.h"

#include "../src/op.h"
#include "columns.h"

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

/* The peak of a group: the first row's that has one (a run's rows share their device). */
static double group_peak(const struct dlb_result *rows, int n, const struct dlb_result *g)
{
	for (int i = 0; i < n; i++)
		if (same_group(&rows[i], g) && rows[i].peak > 0 && isfinite(rows[i].peak))
			return rows[i].peak;
	return NAN;
}

/* One line of the text columns: the titles (x NULL) or a row's cells. */
static void text_line(FILE *out, const struct dlb_column *cols, int n, const struct dlb_op *op,
		      const struct dlb_row_ctx *x)
{
	int prev_group = -1;
	for (int i = 0; i < n; i++) {
		const struct dlb_column *c = &cols[i];
		char cell[320];
		if (!dlb_column_in(c, DLB_IN_TEXT))
			continue;
		if (x)
			dlb_cell_text(x, c, cell, sizeof cell);
		else
			snprintf(cell, sizeof cell, "%s", dlb_column_title(c, op));
		fprintf(out, "%s", prev_group < 0 ? "" : c->group != prev_group ? " | " : " ");
		fprintf(out, c->width < 0 ? "%-*s" : "%*s", c->width < 0 ? -c->width : c->width, cell);
		prev_group = c->group;
	}
	fputc('\n', out);
}

static void print_group_text(FILE *out, const struct dlb_result *rows, int n, const struct dlb_result *g,
			     const char *gpu)
{
	const struct dlb_op *op = g->p.op;
	const struct dlb_prec_info *in = dlb_prec_info(g->p.prec);
	const char *unit = dlb_op_unit(op);
	struct dlb_column cols[DLB_MAX_COLUMNS];
	int ncols = dlb_columns(op->family, cols, DLB_MAX_COLUMNS);
	double peak = group_peak(rows, n, g);
	int padded = 0, nrows = 0, c = 0, cp = 0;
	fprintf(out, "%s %s on %s (%s): throughput in %s; ", op_name(g), in->name, gpu ? gpu : "?", in->about, unit);
	if (isfinite(peak))
		fprintf(out, "%%peak relative to %.1f %s, %s\n", peak, unit, dlb_op_peak_about(op));
	else
		fprintf(out, "%%peak n/a (no %s peak known for this GPU)\n", in->name);
	text_line(out, cols, ncols, op, NULL);
	for (int i = 0; i < n; i++) {
		const struct dlb_result *r = &rows[i];
		int64_t run[DLB_MAX_DIMS];
		if (!same_group(r, g))
			continue;
		nrows++;
		padded += dlb_problem_padded(&r->p, run);
		text_line(out, cols, ncols, op, &(struct dlb_row_ctx){r, 0, 0});
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
	if (padded) {
		char titles[96];
		dlb_padded_titles(op->family, titles, sizeof titles);
		fprintf(out, "padded: %d of %d rows ran with %s rounded up to multiples of %d (DeepBench's rule); %s; %s "
			     "count the shape as given\n",
			padded, nrows, titles, in->pad_to, DLB_PADDING_NOTE, unit);
	}
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

static json_t *jnum(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* One header per family (its columns differ), before its first row. */
static void print_csv(FILE *out, const struct dlb_result *rows, int n)
{
	const struct dlb_family *cur = NULL;
	struct dlb_column cols[DLB_MAX_COLUMNS];
	int ncols = 0;
	for (int i = 0; i < n; i++) {
		if (rows[i].p.op->family != cur) {
			cur = rows[i].p.op->family;
			ncols = dlb_columns(cur, cols, DLB_MAX_COLUMNS);
			if (i)
				fputc('\n', out);
			dlb_columns_csv_header(out, cols, ncols, DLB_IN_CSV);
			fputc('\n', out);
		}
		dlb_columns_csv_row(out, &(struct dlb_row_ctx){&rows[i], 0, 0}, cols, ncols, DLB_IN_CSV);
		fputc('\n', out);
	}
}

static json_t *row_json(const struct dlb_result *r)
{
	struct dlb_column cols[DLB_MAX_COLUMNS];
	int ncols = dlb_columns(r->p.op->family, cols, DLB_MAX_COLUMNS);
	json_t *o = json_object(), *rest = dlb_columns_json(&(struct dlb_row_ctx){r, 0, 0}, cols, ncols, DLB_IN_JSON);
	json_object_set_new(o, "op", json_string(op_name(r)));
	json_object_update(o, rest);
	json_decref(rest);
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
		const struct dlb_op *op = rows[i].p.op;
		int c = 0, cp = 0;
		double gm = geomean(rows, n, &rows[i], &c), gp = geomean_of(rows, n, &rows[i], 1, &cp);
		json_array_append_new(groups, json_pack("{s:s,s:s,s:s,s:s,s:o,s:s,s:o,s:i,s:o,s:i}", "op", op_name(&rows[i]),
							"prec", in->name, "computes", in->about, "unit", dlb_op_unit(op),
							"peak", jnum(group_peak(rows, n, &rows[i])), "peak_is",
							dlb_op_peak_about(op),
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
