/* problem: precisions with their facts, and what generic code does with an op's dims: padding, parsing,
 * the key's layout and shape text. */
#include "problem.h"

#include "err.h"
#include "op.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct dlb_prec_info prec_infos[] = {
	[DLB_PREC_FP32] = {"fp32", "fp32 inputs and outputs; fp32 accumulation", "TFLOP/s",
			   "the fp32 CUDA-core FMA peak from SM count x clock", 1},
	[DLB_PREC_FP16] = {"fp16", "half inputs and outputs; fp32 accumulation (DeepBench's pseudo-fp16)", "TFLOP/s",
			   "the dense fp16 tensor-core peak from SM count x clock", 1},
	[DLB_PREC_INT8] = {"int8", "int8 inputs; int32 outputs; int32 accumulation", "TOPS",
			   "the dense int8 tensor-core peak from SM count x clock", 4},
};
_Static_assert(sizeof prec_infos / sizeof prec_infos[0] == DLB_PREC_COUNT, "one entry per precision");

const struct dlb_prec_info *dlb_prec_info(enum dlb_prec p)
{
	return &prec_infos[(unsigned)p < DLB_PREC_COUNT ? p : DLB_PREC_FP32];
}

const char *dlb_prec_name(enum dlb_prec p)
{
	return (unsigned)p < DLB_PREC_COUNT ? prec_infos[p].name : "?";
}

int dlb_prec_parse(const char *s, enum dlb_prec *out)
{
	for (unsigned i = 0; i < DLB_PREC_COUNT; i++)
		if (!strcmp(s, prec_infos[i].name)) {
			*out = (enum dlb_prec)i;
			return 0;
		}
	return DLB_E_USAGE;
}

static int64_t round_up(int64_t x, int64_t q)
{
	return (x + q - 1) / q * q;
}

static const struct dlb_family *family_of(const struct dlb_problem *p)
{
	return p->op->family;
}

int dlb_problem_padded(const struct dlb_problem *p, int64_t run[DLB_MAX_DIMS])
{
	const struct dlb_family *f = family_of(p);
	int64_t q = dlb_prec_info(p->prec)->pad_to;
	int changed = 0;
	for (int d = 0; d < DLB_MAX_DIMS; d++) {
		run[d] = p->dim[d];
		if (d < f->ndims && f->dims[d].pad && f->dims[d].kind == DLB_DIM_SIZE) {
			run[d] = round_up(p->dim[d], q);
			changed |= run[d] != p->dim[d];
		}
	}
	return changed;
}

/* Titles of the dims that pass test, "A, B and C". */
static void join_titles(const struct dlb_family *f, int pad_only, char *buf, int len)
{
	int n = 0, seen = 0, off = 0;
	for (int d = 0; d < f->ndims; d++)
		n += !pad_only || f->dims[d].pad;
	buf[0] = 0;
	for (int d = 0; d < f->ndims && off < len; d++) {
		if (pad_only && !f->dims[d].pad)
			continue;
		seen++;
		off += snprintf(buf + off, (size_t)(len - off), "%s%s", seen == 1 ? "" : seen == n ? " and " : ", ",
				f->dims[d].title);
	}
}

void dlb_padded_titles(const struct dlb_family *f, char *buf, int len)
{
	join_titles(f, 1, buf, len);
}

/* Digits of a REAL dim: as many as its scale has zeros. */
static int real_digits(const struct dlb_dim *d)
{
	int digits = 0;
	for (int64_t s = d->scale; s > 1; s /= 10)
		digits++;
	return digits;
}

void dlb_dim_format(const struct dlb_dim *d, int64_t v, char *buf, int len)
{
	if (d->kind == DLB_DIM_CHOICE)
		snprintf(buf, (size_t)len, "%s", v >= 0 && v < d->nnames ? d->names[v] : "?");
	else if (d->kind == DLB_DIM_REAL)
		snprintf(buf, (size_t)len, "%.*f", real_digits(d), (double)v / (double)d->scale);
	else
		snprintf(buf, (size_t)len, "%lld", (long long)v);
}

void dlb_dim_range(const struct dlb_dim *d, char *buf, int len)
{
	if (d->kind == DLB_DIM_CHOICE) {
		int off = 0;
		buf[0] = 0;
		for (int i = 0; i < d->nnames && off < len; i++) /* "0 or 1, or N or T" */
			off += snprintf(buf + off, (size_t)(len - off), "%s%d", i == 0 ? "" : i + 1 == d->nnames ? " or " : ", ", i);
		for (int i = 0; i < d->nnames && off < len; i++)
			off += snprintf(buf + off, (size_t)(len - off), "%s%s", i == 0 ? ", or " : i + 1 == d->nnames ? " or " : ", ",
					d->names[i]);
	} else {
		char lo[40], hi[40];
		dlb_dim_format(d, d->lo, lo, sizeof lo);
		dlb_dim_format(d, d->hi, hi, sizeof hi);
		snprintf(buf, (size_t)len, "%s..%s", lo, hi);
	}
}

/* A decimal number with at most digits fraction digits, scaled: "0.9" with scale 10000 -> 9000. */
static int parse_scaled(const char *s, int64_t scale, int digits, int64_t *out)
{
	int64_t whole = 0, frac = 0;
	int nfrac = 0;
	const char *p = s;
	if (!isdigit((unsigned char)*p) && *p != '.')
		return DLB_E_USAGE;
	for (; isdigit((unsigned char)*p); p++) {
		whole = whole * 10 + (*p - '0');
		if (whole > DLB_MAX_DIM)
			return DLB_E_USAGE;
	}
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++) {
			if (++nfrac > digits)
				return DLB_E_USAGE; /* finer than the dim resolves */
			frac = frac * 10 + (*p - '0');
		}
	if (*p || p == s || (p == s + 1 && *s == '.'))
		return DLB_E_USAGE;
	for (int i = nfrac; i < digits; i++)
		frac *= 10;
	*out = whole * scale + frac;
	return 0;
}

/* A SIZE dim's value: dlb_parse_dim's positive integer, or 0 where the dim allows it (a padding). */
static int size_parse(const struct dlb_dim *d, const char *s, int64_t *v)
{
	if (d->lo == 0 && !strcmp(s, "0")) {
		*v = 0;
		return 0;
	}
	return dlb_parse_dim(s, v);
}

int dlb_dim_parse(const struct dlb_dim *d, const char *where, const char *s, int64_t *out)
{
	int rc = 0;
	char range[160];
	int64_t v = 0;
	dlb_dim_range(d, range, sizeof range);
	if (d->kind == DLB_DIM_CHOICE) {
		for (int i = 0; i < d->nnames; i++) {
			char idx[16];
			snprintf(idx, sizeof idx, "%d", i);
			if (!strcmp(s, idx) || !strcasecmp(s, d->names[i])) {
				*out = i;
				return 0;
			}
		}
		DLB_USER_FAIL(DLB_E_USAGE, "%s '%s': expected %s", where, s, range);
	}
	if (d->kind == DLB_DIM_REAL ? parse_scaled(s, d->scale, real_digits(d), &v) : size_parse(d, s, &v))
		DLB_USER_FAIL(DLB_E_USAGE, "%s '%s': expected a %s in %s", where, s, d->kind == DLB_DIM_REAL ? "number" : "size",
			      range);
	if (v < d->lo || v > d->hi)
		DLB_USER_FAIL(DLB_E_USAGE, "%s '%s': out of range %s", where, s, range);
	*out = v;
fail:
	return rc;
}

void dlb_layout_text(const struct dlb_family *f, const int64_t *dim, char *buf, int len)
{
	int off = 0;
	buf[0] = 0;
	for (int d = 0; d < f->ndims && off < len; d++)
		if (f->dims[d].kind == DLB_DIM_CHOICE)
			off += snprintf(buf + off, (size_t)(len - off), "%s", f->dims[d].names[dim[d]]);
	if (!off)
		snprintf(buf, (size_t)len, "-");
}

void dlb_problem_layout(const struct dlb_problem *p, char *buf, int len)
{
	dlb_layout_text(family_of(p), p->dim, buf, len);
}

void dlb_shape_text(const struct dlb_family *f, const int64_t *dim, char *buf, int len)
{
	int off = 0;
	buf[0] = 0;
	for (int d = 0; d < f->ndims && off < len; d++) {
		if (f->dims[d].kind == DLB_DIM_CHOICE)
			continue;
		char v[40];
		dlb_dim_format(&f->dims[d], dim[d], v, sizeof v);
		off += snprintf(buf + off, (size_t)(len - off), "%s%s", off ? "x" : "", v);
	}
}

void dlb_problem_shape(const struct dlb_problem *p, char *buf, int len)
{
	dlb_shape_text(family_of(p), p->dim, buf, len);
}

void dlb_problem_shape_run(const struct dlb_problem *p, char *buf, int len)
{
	int64_t run[DLB_MAX_DIMS];
	dlb_problem_padded(p, run);
	dlb_shape_text(family_of(p), run, buf, len);
}

void dlb_problem_describe(const struct dlb_problem *p, char *buf, int len)
{
	char shape[200], layout[64];
	if (family_of(p)->describe) {
		family_of(p)->describe(p->dim, buf, len);
		return;
	}
	dlb_problem_shape(p, shape, sizeof shape);
	dlb_problem_layout(p, layout, sizeof layout);
	if (!strcmp(layout, "-"))
		snprintf(buf, (size_t)len, "%s", shape);
	else
		snprintf(buf, (size_t)len, "%s %s", shape, layout);
}

int dlb_layout_parse(const struct dlb_family *f, const char *s, int64_t dim[DLB_MAX_DIMS])
{
	const char *p = s;
	int64_t got[DLB_MAX_DIMS];
	int any = 0;
	/* each CHOICE dim in turn takes the longest of its names the text starts with */
	for (int d = 0; d < f->ndims; d++) {
		if (f->dims[d].kind != DLB_DIM_CHOICE)
			continue;
		size_t best = 0;
		any = 1;
		for (int i = 0; i < f->dims[d].nnames; i++) {
			size_t l = strlen(f->dims[d].names[i]);
			if (l > best && !strncasecmp(p, f->dims[d].names[i], l)) {
				best = l;
				got[d] = i;
			}
		}
		if (!best)
			return DLB_E_USAGE;
		p += best;
	}
	if (!any || *p)
		return DLB_E_USAGE;
	for (int d = 0; d < f->ndims; d++)
		if (f->dims[d].kind == DLB_DIM_CHOICE)
			dim[d] = got[d];
	return 0;
}

void dlb_layout_names(const struct dlb_family *f, char *buf, int len)
{
	int64_t count = 1, at[DLB_MAX_DIMS] = {0};
	int off = 0;
	for (int d = 0; d < f->ndims; d++)
		if (f->dims[d].kind == DLB_DIM_CHOICE)
			count *= f->dims[d].nnames;
	buf[0] = 0;
	for (int64_t i = 0; i < count && i < 64 && off < len; i++) {
		int64_t r = i;
		for (int d = f->ndims - 1; d >= 0; d--) /* the last dim varies fastest */
			if (f->dims[d].kind == DLB_DIM_CHOICE) {
				at[d] = r % f->dims[d].nnames;
				r /= f->dims[d].nnames;
			}
		off += snprintf(buf + off, (size_t)(len - off), "%s", i ? ", " : "");
		for (int d = 0; d < f->ndims && off < len; d++)
			if (f->dims[d].kind == DLB_DIM_CHOICE)
				off += snprintf(buf + off, (size_t)(len - off), "%s", f->dims[d].names[at[d]]);
	}
}

int dlb_family_has_layout(const struct dlb_family *f)
{
	for (int d = 0; d < f->ndims; d++)
		if (f->dims[d].kind == DLB_DIM_CHOICE)
			return 1;
	return 0;
}

int dlb_problem_from_text(struct dlb_problem *p, const char *layout, const char *shape)
{
	const struct dlb_family *f = family_of(p);
	char tmp[256];
	if (dlb_family_has_layout(f) ? dlb_layout_parse(f, layout, p->dim) : strcmp(layout, "-"))
		return DLB_E_PARSE;
	snprintf(tmp, sizeof tmp, "%s", shape);
	char *save = NULL, *tok = strtok_r(tmp, "x", &save);
	for (int d = 0; d < f->ndims; d++) {
		if (f->dims[d].kind == DLB_DIM_CHOICE)
			continue;
		/* a stored value is taken as it was measured; only its form is checked */
		int64_t v;
		if (!tok || (f->dims[d].kind == DLB_DIM_REAL
				     ? parse_scaled(tok, f->dims[d].scale, real_digits(&f->dims[d]), &v)
				     : size_parse(&f->dims[d], tok, &v)))
			return DLB_E_PARSE;
		p->dim[d] = v;
		tok = strtok_r(NULL, "x", &save);
	}
	return tok ? DLB_E_PARSE : 0;
}

int dlb_problem_same_dims(const struct dlb_problem *a, const struct dlb_problem *b)
{
	if (!a->op || !b->op || a->op->family != b->op->family)
		return 0;
	for (int d = 0; d < a->op->family->ndims; d++)
		if (a->dim[d] != b->dim[d])
			return 0;
	return 1;
}

int dlb_parse_dim(const char *s, int64_t *out)
{
	if (!s || !*s)
		return DLB_E_USAGE;
	for (const char *p = s; *p; p++)
		if (!isdigit((unsigned char)*p))
			return DLB_E_USAGE;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v == 0 || v > (unsigned long long)(DLB_MAX_DIM))
		return DLB_E_USAGE;
	*out = (int64_t)v;
	return 0;
}

void dlb_problem_options(const struct dlb_family *f, const int64_t *dim, char *buf, int len)
{
	int off = 0;
	buf[0] = 0;
	for (int d = 0; d < f->ndims && off < len; d++) {
		char v[64];
		if (f->dims[d].kind == DLB_DIM_CHOICE)
			continue;
		dlb_dim_format(&f->dims[d], dim[d], v, sizeof v);
		off += snprintf(buf + off, (size_t)(len - off), "%s--%s %s", off ? " " : "", f->dims[d].name, v);
	}
	if (dlb_family_has_layout(f) && off < len) {
		char layout[64];
		dlb_layout_text(f, dim, layout, sizeof layout);
		snprintf(buf + off, (size_t)(len - off), " --layout %s", layout);
	}
}
