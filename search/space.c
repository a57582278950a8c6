/* space: Cartesian product of the parameter lists, filtered row by row. */
#include "space.h"

#include "../src/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dlb_space_enumerate(const struct dlb_space *s, const void *limits, struct dlb_config **out, int *rejected)
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
		int ok = 1;
		for (int k = 0; k < s->nconstraints && ok; k++)
			if (!s->constraints[k].ok(c.v, limits)) {
				ok = 0;
				if (rejected)
					rejected[k]++;
			}
		if (ok)
			list[n++] = c;
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
