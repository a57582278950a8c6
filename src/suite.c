/* suite: CSV parsing with the file and line named in every error. */
#include "suite.h"

#include "embedded.h"
#include "err.h"
#include "op.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COL_M, COL_N, COL_K, COL_AT, COL_BT, NCOLS };
static const char *const col_names[NCOLS] = {"m", "n", "k", "a_t", "b_t"};

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

int dlb_suite_parse(const char *text, const char *origin, const struct dlb_op *op, enum dlb_prec prec,
		    struct dlb_suite *out)
{
	int rc = 0, cap = 64, lineno = 0, col[NCOLS], have_header = 0;
	char *copy = strdup(text);
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
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (!*s || *s == '#')
			continue;
		char *f[16];
		int nf = split_fields(s, f, 16);
		if (!have_header) {
			for (int c = 0; c < NCOLS; c++) {
				col[c] = -1;
				for (int i = 0; i < nf && i < 16; i++)
					if (!strcmp(f[i], col_names[c]))
						col[c] = i;
				if (col[c] < 0)
					DLB_USER_FAIL(DLB_E_PARSE, "%s:%d: header has no column '%s' (expected m,n,k,a_t,b_t)",
						 origin, lineno, col_names[c]);
			}
			have_header = nf;
			continue;
		}
		if (nf != have_header)
			DLB_USER_FAIL(DLB_E_PARSE, "%s:%d: %d fields, the header has %d", origin, lineno, nf, have_header);
		struct dlb_problem p = {.op = op, .prec = prec, .line = lineno};
		int64_t *dims[3] = {&p.m, &p.n, &p.k};
		for (int c = COL_M; c <= COL_K; c++)
			if (dlb_parse_dim(f[col[c]], dims[c]))
				DLB_USER_FAIL(DLB_E_PARSE, "%s:%d: %s = '%s' is not a size in 1..%lld", origin, lineno,
					 col_names[c], f[col[c]], (long long)(DLB_MAX_DIM));
		for (int c = COL_AT; c <= COL_BT; c++) {
			const char *v = f[col[c]];
			if (strcmp(v, "0") && strcmp(v, "1"))
				DLB_USER_FAIL(DLB_E_PARSE, "%s:%d: %s = '%s' must be 0 or 1", origin, lineno, col_names[c], v);
		}
		p.ta = f[col[COL_AT]][0] == '1';
		p.tb = f[col[COL_BT]][0] == '1';
		if (out->n == cap) {
			cap *= 2;
			struct dlb_problem *grown = realloc(out->problems, (size_t)cap * sizeof *grown);
			if (!grown)
				DLB_FAIL(ENOMEM, "out of memory reading %s", origin);
			out->problems = grown;
		}
		out->problems[out->n++] = p;
	}
	if (!have_header)
		DLB_USER_FAIL(DLB_E_PARSE, "%s: empty: no header line m,n,k,a_t,b_t", origin);
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

void dlb_suite_builtin_names(const struct dlb_op *op, char *buf, int len)
{
	int off = 0;
	size_t pl = strlen(op->name);
	buf[0] = 0;
	for (const struct dlb_embedded *e = dlb_embedded_files; e->name && off < len; e++) {
		size_t nl = strlen(e->name);
		if (nl > pl + 5 && !strncmp(e->name, op->name, pl) && e->name[pl] == '_' &&
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
		dlb_suite_builtin_names(op, names, sizeof names);
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
