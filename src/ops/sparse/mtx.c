/* ops/sparse/mtx: see mtx.h. */
#include "mtx.h"

#include "../../err.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The next line into buf (its newline dropped); 0 at the end; DLB_E_PARSE for a line longer than buf. */
static int next_line(FILE *f, const char *name, char *buf, int len, int64_t *lineno, int *got)
{
	int rc = 0;
	*got = 0;
	if (!fgets(buf, len, f))
		return 0;
	(*lineno)++;
	size_t n = strlen(buf);
	int more = n && buf[n - 1] != '\n' && ungetc(fgetc(f), f) != EOF;
	if (n && buf[n - 1] == '\n')
		buf[--n] = 0;
	else if (more)
		DLB_USER_FAIL(DLB_E_PARSE, "%s:%" PRId64 ": line longer than %d characters", name, *lineno, len - 2);
	if (n && buf[n - 1] == '\r')
		buf[--n] = 0;
	*got = 1;
fail:
	return rc;
}

static int blank(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return !*s;
}

/* A whole integer field: its end in *end. */
static int int_field(const char *s, int64_t *v, const char **end)
{
	char *e;
	errno = 0;
	long long x = strtoll(s, &e, 10);
	if (e == s || errno || (*e && !isspace((unsigned char)*e)))
		return -1;
	*v = x;
	*end = e;
	return 0;
}

struct placed {
	int64_t pos, line; /* row·cols + col; the line it was read from */
};

static int cmp_placed(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The entry arrays to at least need entries (doubling from 1024). */
static int grow(int64_t *cap, int64_t need, int64_t **r, int64_t **c, float **v, int64_t **line, const char *name)
{
	int rc = 0;
	int64_t to = *cap ? *cap : 1024;
	while (to < need)
		to *= 2;
	int64_t *nr = realloc(*r, (size_t)to * sizeof **r);
	if (nr)
		*r = nr;
	int64_t *nc = nr ? realloc(*c, (size_t)to * sizeof **c) : NULL;
	if (nc)
		*c = nc;
	float *nv = nc ? realloc(*v, (size_t)to * sizeof **v) : NULL;
	if (nv)
		*v = nv;
	int64_t *nl = nv ? realloc(*line, (size_t)to * sizeof **line) : NULL;
	if (!nl)
		DLB_FAIL(ENOMEM, "out of memory for %" PRId64 " entries of %s", need, name);
	*line = nl;
	*cap = to;
fail:
	return rc;
}

int dlb_mtx_read_stream(FILE *f, const char *name, struct dlb_csr *out)
{
	int rc = 0, got = 0, pattern = 0, symmetric = 0;
	int64_t lineno = 0, rows = 0, cols = 0, entries = 0, n = 0, cap = 0;
	int64_t *r = NULL, *c = NULL, *line = NULL;
	struct placed *order = NULL;
	float *v = NULL;
	char buf[1024], obj[32], fmt[32], field[32], sym[32];
	memset(out, 0, sizeof *out);
	DLB_CHECK(next_line(f, name, buf, sizeof buf, &lineno, &got));
	if (!got || sscanf(buf, "%%%%MatrixMarket %31s %31s %31s %31s", obj, fmt, field, sym) != 4)
		DLB_USER_FAIL(DLB_E_PARSE, "%s:1: not a Matrix Market file (its first line must be "
			      "\"%%%%MatrixMarket matrix coordinate real general\" or the like)", name);
	if (strcasecmp(obj, "matrix") || strcasecmp(fmt, "coordinate"))
		DLB_USER_FAIL(DLB_E_PARSE, "%s:1: a %s %s file: only sparse (\"matrix coordinate\") files are read", name,
			      obj, fmt);
	pattern = !strcasecmp(field, "pattern");
	if (!pattern && strcasecmp(field, "real") && strcasecmp(field, "integer"))
		DLB_USER_FAIL(DLB_E_PARSE, "%s:1: %s values: only real, integer and pattern are read", name, field);
	symmetric = !strcasecmp(sym, "symmetric");
	if (!symmetric && strcasecmp(sym, "general"))
		DLB_USER_FAIL(DLB_E_PARSE, "%s:1: %s matrices: only general and symmetric are read", name, sym);
	do /* comments and blank lines, then the size line */
		DLB_CHECK(next_line(f, name, buf, sizeof buf, &lineno, &got));
	while (got && (buf[0] == '%' || blank(buf)));
	const char *p = buf, *e;
	if (!got || int_field(p, &rows, &e) || int_field(e, &cols, &e) || int_field(e, &entries, &e) || !blank(e))
		DLB_USER_FAIL(DLB_E_PARSE, "%s:%" PRId64 ": expected the size line \"rows cols entries\"", name, lineno);
	if (rows < 1 || cols < 1 || rows > 2147483647 || cols > 2147483647 || entries < 0 ||
	    entries > (symmetric ? 1073741823 : 2147483647) || (double)entries > (double)rows * (double)cols)
		DLB_USER_FAIL(DLB_E_PARSE, "%s:%" PRId64 ": %" PRId64 " x %" PRId64 " with %" PRId64 " entries is not a matrix "
			      "dlbtune can hold (sizes 1..2^31-1, entries at most rows x cols and 2^31-1 stored)", name,
			      lineno, rows, cols,
			      entries);
	if (entries == 0) /* refused before the row offsets are allocated (CSR needs rows + 1 of them for any entry) */
		DLB_USER_FAIL(DLB_E_PARSE, "%s:%" PRId64 ": the size line declares no entries: a matrix with no nonzeros, "
			      "nothing to multiply", name, lineno);
	if (symmetric && rows != cols)
		DLB_USER_FAIL(DLB_E_PARSE, "%s:%" PRId64 ": a symmetric matrix must be square, not %" PRId64 " x %" PRId64,
			      name, lineno, rows, cols);
	for (int64_t i = 0; i < entries; i++) {
		do
			DLB_CHECK(next_line(f, name, buf, sizeof buf, &lineno, &got));
		while (got && (buf[0] == '%' || blank(buf)));
		if (!got)
			DLB_USER_FAIL(DLB_E_PARSE, "%s:%" PRId64 ": the file ends after %" PRId64 " of its %" PRId64 " entries",
				      name, lineno, i, entries);
		int64_t ri, ci;
		double x = 1;
		if (int_field(buf, &ri, &e) || int_field(e, &ci, &e))
			DLB_USER_FAIL(DLB_E_PARSE, "%s:%" PRId64 ": expected \"row col%s\"", name, lineno, pattern ? "" : " value");
		if (!pattern) {
			char *ve;
			errno = 0;
			x = strtod(e, &ve);
			/* an underflow (ERANGE with a tiny result) is a value; an fp32 overflow is not */
			if (ve == e || (errno && fabs(x) >= 1) || !blank(ve) || !(fabs(x) <= FLT_MAX))
				DLB_USER_FAIL(DLB_E_PARSE, "%s:%" PRId64 ": expected a finite value after \"%" PRId64 " %" PRId64 "\"",
					      name, lineno, ri, ci);
		} else if (!blank(e)) {
			DLB_USER_FAIL(DLB_E_PARSE, "%s:%" PRId64 ": a pattern entry is \"row col\" alone", name, lineno);
		}
		if (ri < 1 || ri > rows || ci < 1 || ci > cols)
			DLB_USER_FAIL(DLB_E_PARSE, "%s:%" PRId64 ": entry (%" PRId64 ", %" PRId64 ") is outside the %" PRId64
				      " x %" PRId64 " matrix (indices start at 1)", name, lineno, ri, ci, rows, cols);
		if (symmetric && ci > ri)
			DLB_USER_FAIL(DLB_E_PARSE, "%s:%" PRId64 ": entry (%" PRId64 ", %" PRId64 ") is above the diagonal of a "
				      "symmetric matrix (only the lower triangle is stored)", name, lineno, ri, ci);
		if (n + 2 > cap) /* grown as entries arrive: a size line alone cannot make dlbtune take gigabytes */
			DLB_CHECK(grow(&cap, n + 2, &r, &c, &v, &line, name));
		r[n] = ri - 1, c[n] = ci - 1, v[n] = (float)x, line[n++] = lineno;
		if (symmetric && ri != ci)
			r[n] = ci - 1, c[n] = ri - 1, v[n] = (float)x, line[n++] = lineno;
	}
	do
		DLB_CHECK(next_line(f, name, buf, sizeof buf, &lineno, &got));
	while (got && (buf[0] == '%' || blank(buf)));
	if (got)
		DLB_USER_FAIL(DLB_E_PARSE, "%s:%" PRId64 ": more entries than the %" PRId64 " the size line promised", name,
			      lineno, entries);
	/* a repeated entry: sort by position, name both lines */
	order = malloc((size_t)(n ? n : 1) * sizeof *order);
	if (!order)
		DLB_FAIL(ENOMEM, "out of memory for %" PRId64 " entries of %s", n, name);
	for (int64_t i = 0; i < n; i++)
		order[i] = (struct placed){r[i] * cols + c[i], line[i]};
	qsort(order, (size_t)n, sizeof *order, cmp_placed);
	for (int64_t i = 1; i < n; i++)
		if (order[i].pos == order[i - 1].pos) {
			int64_t a = order[i - 1].line, b = order[i].line;
			DLB_USER_FAIL(DLB_E_PARSE, "%s:%" PRId64 ": entry (%" PRId64 ", %" PRId64 ") was already given on line %" PRId64,
				      name, a > b ? a : b, order[i].pos / cols + 1, order[i].pos % cols + 1, a < b ? a : b);
		}
	DLB_CHECK(dlb_csr_from_coo(rows, cols, n, r, c, v, out));
fail:
	free(r);
	free(c);
	free(v);
	free(line);
	free(order);
	return rc;
}

int dlb_mtx_read(const char *path, struct dlb_csr *out)
{
	int rc = 0;
	FILE *f = fopen(path, "r");
	memset(out, 0, sizeof *out);
	if (!f)
		DLB_USER_FAIL(DLB_E_PARSE, "cannot read %s: %s", path, strerror(errno));
	rc = dlb_mtx_read_stream(f, path, out);
	fclose(f); /* read only: nothing to lose */
fail:
	return rc;
}
