/* space: Cartesian product of the parameter lists, filtered row by row. */
#include "space.h"

#include "../src/err.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const limit_names[DLB_LIMIT_COUNT] = {
	[DLB_LIMIT_NONE] = "constant",
	[DLB_LIMIT_THREADS_PER_BLOCK] = "max threads per block",
	[DLB_LIMIT_SMEM_STATIC] = "static shared memory per block",
	[DLB_LIMIT_SMEM_OPTIN] = "opt-in shared memory per block",
	[DLB_LIMIT_REGS_PER_BLOCK] = "registers per block",
};

const char *dlb_limit_name(enum dlb_limit_field f)
{
	return f >= 0 && f < DLB_LIMIT_COUNT ? limit_names[f] : "unknown limit";
}

long long dlb_limit_value(const struct dlb_limits *lim, enum dlb_limit_field f)
{
	switch (f) {
	case DLB_LIMIT_THREADS_PER_BLOCK:
		return lim->max_threads_per_block;
	case DLB_LIMIT_SMEM_STATIC:
		return (long long)lim->smem_static;
	case DLB_LIMIT_SMEM_OPTIN:
		return (long long)lim->smem_optin;
	case DLB_LIMIT_REGS_PER_BLOCK:
		return lim->regs_per_block;
	default:
		return 0;
	}
}

/* lo <= prod v[p]^exp[p] <= hi, compared as num <= hi*den without rounding. A product past 64 bits fails the
 * row; a bound past 64 bits once multiplied by den is no bound at all. */
static int product_ok(const struct dlb_constraint *c, const int *v, const struct dlb_limits *lim)
{
	long long num = 1, den = 1, bound;
	for (int p = 0; p < DLB_MAX_PARAMS; p++)
		for (int e = c->exp[p]; e != 0; e += e > 0 ? -1 : 1)
			if (__builtin_mul_overflow(e > 0 ? num : den, (long long)v[p], e > 0 ? &num : &den))
				return 0;
	if (den == 0)
		return 0;
	if (den < 0)
		num = -num, den = -den;
	if (__builtin_mul_overflow(c->lo, den, &bound) ? c->lo > 0 : num < bound)
		return 0;
	if (c->hi_limit != DLB_LIMIT_NONE && !lim)
		return 1; /* no device known yet: its limit is checked later */
	long long hi = c->hi_limit != DLB_LIMIT_NONE ? dlb_limit_value(lim, c->hi_limit) : c->hi;
	return __builtin_mul_overflow(hi, den, &bound) ? hi > 0 : num <= bound;
}

/* x is a multiple of d; a zero divisor fails the row rather than trapping */
static int multiple(long long x, long long d)
{
	return d != 0 && x % d == 0;
}

int dlb_constraint_ok(const struct dlb_constraint *c, const int *v, const struct dlb_limits *lim)
{
	switch (c->kind) {
	case DLB_CON_MULTIPLE:
		return multiple(v[c->a], c->b == DLB_CONST ? c->n : v[c->b]);
	case DLB_CON_DIVIDES:
		return multiple(c->b == DLB_CONST ? c->n : v[c->b], v[c->a]);
	case DLB_CON_PRODUCT:
		return product_ok(c, v, lim);
	case DLB_CON_CUSTOM:
		return c->ok(v, lim) != 0;
	default:
		return 0;
	}
}

int dlb_constraint_first_failed(const struct dlb_constraint *rows, int n, const int *v, const struct dlb_limits *lim)
{
	for (int k = 0; k < n; k++)
		if (!dlb_constraint_ok(&rows[k], v, lim))
			return k + 1;
	return 0;
}

int dlb_constraint_check(const struct dlb_constraint *c, int nparams)
{
	int rc = 0;
	const char *text = c->text;
	if (!text)
		DLB_FAIL(EINVAL, "a constraint row of kind %d has no text", (int)c->kind);
	switch (c->kind) {
	case DLB_CON_MULTIPLE:
	case DLB_CON_DIVIDES:
		if (c->a < 0 || c->a >= nparams || c->b < DLB_CONST || c->b >= nparams)
			DLB_FAIL(EINVAL, "constraint \"%s\": parameter index %d or %d outside the %d parameters", text,
				 c->a, c->b, nparams);
		if (c->b == DLB_CONST && c->n == 0)
			DLB_FAIL(EINVAL, "constraint \"%s\": constant 0", text);
		break;
	case DLB_CON_PRODUCT: {
		int terms = 0;
		for (int p = 0; p < DLB_MAX_PARAMS; p++) {
			if (c->exp[p] && p >= nparams)
				DLB_FAIL(EINVAL, "constraint \"%s\": exponent for parameter %d of %d", text, p,
					 nparams);
			terms += c->exp[p] != 0;
		}
		if (!terms)
			DLB_FAIL(EINVAL, "constraint \"%s\": a product of no parameters", text);
		if (c->hi_limit < 0 || c->hi_limit >= DLB_LIMIT_COUNT)
			DLB_FAIL(EINVAL, "constraint \"%s\": limit field %d", text, (int)c->hi_limit);
		if (c->hi_limit == DLB_LIMIT_NONE && c->hi < c->lo)
			DLB_FAIL(EINVAL, "constraint \"%s\": empty range [%lld, %lld]", text, c->lo, c->hi);
		break;
	}
	case DLB_CON_CUSTOM:
		if (!c->ok)
			DLB_FAIL(EINVAL, "constraint \"%s\": custom row without a predicate", text);
		break;
	default:
		DLB_FAIL(EINVAL, "constraint \"%s\": unknown kind %d", text, (int)c->kind);
	}
fail:
	return rc;
}

int dlb_space_enumerate(const struct dlb_space *s, const struct dlb_limits *limits, struct dlb_config **out,
			int *rejected)
{
	long total = 1;
	for (int p = 0; p < s->nparams; p++)
		total *= s->params[p].nvalues;
	struct dlb_config *list = malloc((size_t)(total ? total : 1) * sizeof *list);
	if (!list)
		return -1;
	if (rejected)
		memset(rejected, 0, (size_t)s->nconstraints * sizeof *rejected);
	int n = 0;
	for (long idx = 0; idx < total; idx++) {
		struct dlb_config c;
		memset(&c, 0, sizeof c);
		long r = idx;
		for (int p = s->nparams - 1; p >= 0; p--) {
			c.v[p] = s->params[p].values[r % s->params[p].nvalues];
			r /= s->params[p].nvalues;
		}
		int failed = dlb_constraint_first_failed(s->constraints, s->nconstraints, c.v, limits);
		if (!failed)
			list[n++] = c;
		else if (rejected)
			rejected[failed - 1]++;
	}
	*out = list;
	return n;
}

void dlb_config_format(const struct dlb_space *s, const struct dlb_config *c, char *buf, int len)
{
	int off = 0;
	buf[0] = 0;
	for (int p = 0; p < s->nparams && off < len; p++)
		off += snprintf(buf + off, (size_t)(len - off), "%s%s=%d", p ? " " : "", s->params[p].name, c->v[p]);
}

int dlb_config_parse(const struct dlb_space *s, const char *text, struct dlb_config *c)
{
	memset(c, 0, sizeof *c);
	int seen = 0;
	const char *p = text;
	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		char name[32];
		int value, used;
		if (sscanf(p, "%31[^= ]=%d%n", name, &value, &used) != 2)
			return DLB_E_PARSE;
		int found = 0;
		for (int k = 0; k < s->nparams; k++)
			if (!strcmp(s->params[k].name, name)) {
				c->v[k] = value;
				seen |= 1 << k;
				found = 1;
			}
		if (!found)
			return DLB_E_PARSE;
		p += used;
	}
	return seen == (1 << s->nparams) - 1 ? 0 : DLB_E_PARSE;
}

int dlb_value_before(int a, int b)
{
	unsigned ma = a < 0 ? 0u - (unsigned)a : (unsigned)a, mb = b < 0 ? 0u - (unsigned)b : (unsigned)b; /* INT_MIN too */
	return ma != mb ? ma < mb : a < b;
}

int dlb_value_ranks(int *v, int n, int stride, int *distinct)
{
	int nd = 0;
	for (int i = 0; i < n; i++) { /* the distinct values, in order (insertion: a parameter has few) */
		int x = v[(size_t)i * (size_t)stride], at = 0;
		while (at < nd && dlb_value_before(distinct[at], x))
			at++;
		if (at < nd && distinct[at] == x)
			continue;
		memmove(distinct + at + 1, distinct + at, (size_t)(nd - at) * sizeof *distinct);
		distinct[at] = x;
		nd++;
	}
	for (int i = 0; i < n; i++) {
		int *x = &v[(size_t)i * (size_t)stride], at = 0;
		while (distinct[at] != *x)
			at++;
		*x = at;
	}
	return nd;
}
