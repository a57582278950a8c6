/* columns: the one list of a result's columns — the problem's dims and the family's vendor columns spliced
 * into the generic ones — from which the text table, CSV and JSON of a run and every export are rendered. */
#ifndef DLB_COLUMNS_H
#define DLB_COLUMNS_H
#include "../src/op.h"
#include "../src/result.h"

#include <jansson.h>
#include <stdio.h>

/* Where a column appears. */
enum {
	DLB_IN_TEXT = 1,  /* the run's text table */
	DLB_IN_CSV = 2,   /* the run's CSV */
	DLB_IN_JSON = 4,  /* the run's JSON rows */
	DLB_IN_XCSV = 8,  /* the CSV export */
	DLB_IN_MD = 16,   /* the Markdown export */
};

/* One row: a result; for rows of an export (read from the database), whether it is stale. */
struct dlb_row_ctx {
	const struct dlb_result *r;
	int exported, stale;
};

enum dlb_cell_kind { DLB_CELL_STR, DLB_CELL_NUM, DLB_CELL_INT, DLB_CELL_BOOL, DLB_CELL_JSON };
struct dlb_cell {
	enum dlb_cell_kind kind;
	int missing;   /* no such value: n/a in text, "" in CSV, null in JSON */
	char s[256];   /* STR */
	double x;      /* NUM: NAN is n/a (JSON null) */
	long long i;   /* INT, BOOL */
	json_t *j;     /* JSON: a new reference */
};

struct dlb_column {
	const char *title;    /* text and Markdown header */
	const char *field;    /* CSV column and JSON field */
	const char *prefix;   /* put before field in the CSV header ("padded_" before a dim's name), or NULL */
	const char *jfield;   /* JSON field when not field, else NULL */
	int width;            /* text: printf width, negative for left-aligned */
	const char *fmt_text; /* numbers in text and Markdown ("%.2f"), CSV ("%.3f") */
	const char *fmt_csv;
	int quote;            /* CSV: a quoted string */
	int unit_title;       /* text: the title is the op's unit ("TFLOP/s") */
	int where;            /* DLB_IN_* */
	int group;            /* text: " | " between columns of different groups */
	int arg;              /* the dim, or the vendor kind */
	void (*get)(const struct dlb_row_ctx *x, const struct dlb_column *c, struct dlb_cell *out);
	/* text and Markdown, when they show more than the value (e.g. "yes (cached), padded: ...") */
	void (*get_text)(const struct dlb_row_ctx *x, const struct dlb_column *c, char *buf, int len);
};

#define DLB_MAX_COLUMNS 96
/* The columns of a family's results, in order; the count. */
int dlb_columns(const struct dlb_family *f, struct dlb_column *out, int max);

/* A cell rendered for text (n/a for a missing number), for CSV, or as JSON (a new reference). */
void dlb_cell_text(const struct dlb_row_ctx *x, const struct dlb_column *c, char *buf, int len);
void dlb_cell_csv(FILE *out, const struct dlb_row_ctx *x, const struct dlb_column *c);
json_t *dlb_cell_json(const struct dlb_row_ctx *x, const struct dlb_column *c);
/* A quoted CSV string, quotes doubled. */
void dlb_csv_string(FILE *out, const char *s);

/* Whether c appears in where. */
int dlb_column_in(const struct dlb_column *c, int where);
/* Its text title for op. */
const char *dlb_column_title(const struct dlb_column *c, const struct dlb_op *op);
/* The CSV header line of the columns in where (no newline). */
void dlb_columns_csv_header(FILE *out, const struct dlb_column *cols, int n, int where);
/* One CSV row of the columns in where (no newline). */
void dlb_columns_csv_row(FILE *out, const struct dlb_row_ctx *x, const struct dlb_column *cols, int n, int where);
/* The row as a JSON object of the columns in where. */
json_t *dlb_columns_json(const struct dlb_row_ctx *x, const struct dlb_column *cols, int n, int where);

/* p's sizes and reals as {"<dim>": value, ...} (lookup's from_shape, an exported record's problem). */
json_t *dlb_problem_sizes_json(const struct dlb_problem *p);
/* The padded shape run for p, {"<dim>": ..., "time_includes_padding": false}, or JSON null when p runs as given. */
json_t *dlb_padded_json(const struct dlb_problem *p);
/* The side-by-side timing: {"vendor","pairs","tuned_us","vendor_us","speedup","speedup_ci95"}, or JSON null. */
json_t *dlb_paired_json(const struct dlb_result *r);
#endif
