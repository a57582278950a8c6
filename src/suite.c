/* suite: CSV parsing with the file and line named in every error. */
#include "suite.h"

#include "embedded.h"
#include "err.h"
#include "op.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Split `line` at commas in place; trims spaces; returns the field count (at most max). */
static int split_fields(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (n < max)
			f[n] = p;
		n++;
		char *c = strchr(p, ',');
		char *end = c ? c : p + strlen(p);
		while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
			end--;
		if (c) {
			*end = 0;
			p = c + 1;
		} else {
			*end = 0;
			break;
		}
	}
	return n;
}

/* The columns of the header line: for each dim of f, its field index, or -1 where the dim has a default. */
static int read_header(const struct dlb_family *f, char **fld, int nf, const char *origin, int lineno, int *col)
{
	int rc = 0;
	for (int d = 0; d < f->ndims; d++) {
		const char *name = f->dims[d].csv ? f->dims[d].csv : f->dims[d].name;
		col[d] = -1;
		for (int i = 0; i < nf && i < 16; i++)
			if (!strcmp(fld[i], name))
				col[d] = i;
		if (col[d] < 0 && !f->dims[d].has_default) {
			char want[256];
			dlb_suite_columns(f, want, sizeof want);
			DLB_USER_FAIL(DLB_E_PARSE, "%s:%d: header has no column '%s' (expected %s)", origin, lineno, name, want);
		}
	}
fail:
	return rc;
}

/* One row: every dim from its column, or its default. */
static int read_row(struct dlb_problem *p, char **fld, const int *col, const char *origin, int lineno)
{
	int rc = 0;
	const struct dlb_family *f = p->op->family;
	for (int d = 0; d < f->ndims; d++) {
		const struct dlb_dim *dim = &f->dims[d];
		char where[320];
		if (col[d] < 0) {
			p->dim[d] = dim->def;
			continue;
		}
		snprintf(where, sizeof where, "%s:%d: %s", origin, lineno, dim->csv ? dim->csv : dim->name);
		if (dlb_dim_parse(dim, where, fld[col[d]], &p->dim[d])) {
			char msg[512]; /* the message is rewritten as a parse error: copied out of the buffer it is in */
			snprintf(msg, sizeof msg, "%s", dlb_last_error());
			DLB_USER_FAIL(DLB_E_PARSE, "%s", msg);
		}
	}
	char why[256];
	if (f->check && f->check(p->dim, why, sizeof why))
		DLB_USER_FAIL(DLB_E_PARSE, "%s:%d: %s", origin, lineno, why);
fail:
	return rc;
}

void dlb_suite_columns(const struct dlb_family *f, char *buf, int len)
{
	int off = 0;
	buf[0] = 0;
	for (int d = 0; d < f->ndims && off < len; d++)
		off += snprintf(buf + off, (size_t)(len - off), "%s%s", d ? "," : "", f->dims[d].csv ? f->dims[d].csv : f->dims[d].name);
}

int dlb_suite_parse(const char *text, const char *origin, const struct dlb_op *op, enum dlb_prec prec,
		    struct dlb_suite *out)
{
	int rc = 0, cap = 64, lineno = 0, col[DLB_MAX_DIMS], have_header = 0;
	char *copy = strdup(text), want[256];
	memset(out, 0, sizeof *out);
	snprintf(out->name, sizeof out->name, "%s", origin);
	out->problems = malloc((size_t)cap * sizeof *out->problems);
	if (!copy || !out->problems)
		DLB_FAIL(ENOMEM, "out of memory reading %s", origin);
	char *save = NULL;
	for (char *line = copy; line; line = save) {
		char *nl = strchr(line, '\n');
		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = 0;
		lineno++;
		char *s = line;
		if (lineno == 1 && !strncmp(s, "\xef\xbb\xbf", 3)) /* a UTF-8 byte-order mark, as spreadsheets write */
			s += 3;
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (!*s || *s == '#')
			continue;
		char *f[16];
		int nf = split_fields(s, f, 16);
		if (!have_header) {
			DLB_CHECK(read_header(op->family, f, nf, origin, lineno, col));
			have_header = nf;
			continue;
		}
		if (nf != have_header)
			DLB_USER_FAIL(DLB_E_PARSE, "%s:%d: %d fields, the header has %d", origin, lineno, nf, have_header);
		struct dlb_problem p = {.op = op, .prec = prec, .line = lineno};
		DLB_CHECK(read_row(&p, f, col, origin, lineno));
		if (out->n == cap) {
			cap *= 2;
			struct dlb_problem *grown = realloc(out->problems, (size_t)cap * sizeof *grown);
			if (!grown)
				DLB_FAIL(ENOMEM, "out of memory reading %s", origin);
			out->problems = grown;
		}
		out->problems[out->n++] = p;
	}
	dlb_suite_columns(op->family, want, sizeof want);
	if (!have_header)
		DLB_USER_FAIL(DLB_E_PARSE, "%s: empty: no header line %s", origin, want);
	if (out->n == 0)
		DLB_USER_FAIL(DLB_E_PARSE, "%s: no problems after the header", origin);
	free(copy);
	return 0;
fail:
	free(copy);
	dlb_suite_free(out);
	return rc;
}

static char *read_file(const char *path, int *rc)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	if (!fp) {
		*rc = errno;
		return NULL;
	}
	size_t cap = 4096, n = 0, got;
	buf = malloc(cap + 1);
	while (buf && (got = fread(buf + n, 1, cap - n, fp)) > 0) {
		n += got;
		if (n == cap) {
			char *grown = realloc(buf, 2 * cap + 1);
			if (!grown) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = grown;
			cap *= 2;
		}
	}
	*rc = !buf ? ENOMEM : ferror(fp) ? EIO : 0;
	fclose(fp);
	if (*rc) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	if (memchr(buf, 0, n)) { /* a binary file is not a suite */
		free(buf);
		*rc = DLB_E_PARSE;
		return NULL;
	}
	return buf;
}

void dlb_suite_builtin_names(const char *op_name, char *buf, int len)
{
	const struct dlb_embedded *e;
	int off = 0;
	size_t pl = strlen(op_name);
	buf[0] = 0;
	for (int i = 0; (e = dlb_embedded_at(i)) != NULL && off < len; i++) {
		size_t nl = strlen(e->name);
		if (nl > pl + 5 && !strncmp(e->name, op_name, pl) && e->name[pl] == '_' &&
		    !strcmp(e->name + nl - 4, ".csv"))
			off += snprintf(buf + off, (size_t)(len - off), "%s%.*s", off ? " " : "", (int)(nl - pl - 5),
					e->name + pl + 1);
	}
}

int dlb_suite_load(const char *spec, const struct dlb_op *op, enum dlb_prec prec, struct dlb_suite *out)
{
	int rc = 0;
	size_t len = strlen(spec);
	if (strchr(spec, '/') || (len > 4 && !strcmp(spec + len - 4, ".csv"))) {
		char *text = read_file(spec, &rc);
		if (!text) {
			if (rc == DLB_E_PARSE)
				DLB_USER_FAIL(DLB_E_PARSE, "%s: not a text file", spec);
			DLB_USER_FAIL(DLB_E_PARSE, "cannot read suite file %s: %s", spec, strerror(rc));
		}
		rc = dlb_suite_parse(text, spec, op, prec, out);
		free(text);
		return rc;
	}
	char file[256];
	size_t pl = strlen(op->name);
	if (!strncmp(spec, op->name, pl) && spec[pl] == '_')
		snprintf(file, sizeof file, "%s.csv", spec);
	else
		snprintf(file, sizeof file, "%s_%s.csv", op->name, spec);
	const struct dlb_embedded *e = dlb_embedded_find(file);
	if (!e) {
		char names[256];
		dlb_suite_builtin_names(op->name, names, sizeof names);
		DLB_USER_FAIL(DLB_E_USAGE, "unknown suite '%s' for --op %s (built in: %s; or give a FILE.csv)", spec,
			 op->name, names);
	}
	rc = dlb_suite_parse(e->text, file, op, prec, out);
	if (!rc)
		snprintf(out->name, sizeof out->name, "%s", file);
fail:
	return rc;
}

void dlb_suite_free(struct dlb_suite *s)
{
	free(s->problems);
	s->problems = NULL;
	s->n = 0;
}
