/* problem: name tables ({text, enumerant}) and strict parsing of sizes. */
#include "problem.h"

#include "err.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *text;
	enum dlb_prec prec;
} prec_names[] = {
	{"fp32", DLB_PREC_FP32},
	{"fp16", DLB_PREC_FP16},
	{"int8", DLB_PREC_INT8},
};
_Static_assert(sizeof prec_names / sizeof prec_names[0] == DLB_PREC_COUNT, "one name per precision");

const char *dlb_prec_name(enum dlb_prec p)
{
	return (unsigned)p < DLB_PREC_COUNT ? prec_names[p].text : "?";
}

int dlb_prec_parse(const char *s, enum dlb_prec *out)
{
	for (unsigned i = 0; i < DLB_PREC_COUNT; i++)
		if (!strcmp(s, prec_names[i].text)) {
			*out = prec_names[i].prec;
			return 0;
		}
	return DLB_E_USAGE;
}

static const char *const layout_names[4] = {"NN", "NT", "TN", "TT"}; /* index ta*2+tb */

const char *dlb_layout_name(int ta, int tb)
{
	return layout_names[(ta ? 2 : 0) + (tb ? 1 : 0)];
}

int dlb_layout_parse(const char *s, int *ta, int *tb)
{
	for (int i = 0; i < 4; i++)
		if (!strcasecmp(s, layout_names[i])) {
			*ta = i / 2;
			*tb = i % 2;
			return 0;
		}
	return DLB_E_USAGE;
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
