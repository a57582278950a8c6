/* problem: name tables (precisions with their facts, layouts), int8 padding, and strict parsing of sizes. */
#include "problem.h"

#include "err.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct dlb_prec_info prec_infos[] = {
	[DLB_PREC_FP32] = {"fp32", "fp32 A, B, C; fp32 accumulation", "TFLOP/s",
			   "the fp32 CUDA-core FMA peak", 1},
	[DLB_PREC_FP16] = {"fp16", "half A, B, C; fp32 accumulation (DeepBench's pseudo-fp16)", "TFLOP/s",
			   "the dense fp16 tensor-core peak", 1},
	[DLB_PREC_INT8] = {"int8", "int8 A, B; int32 C; int32 accumulation", "TOPS",
			   "the dense int8 tensor-core peak", 4},
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

int dlb_problem_padded(const struct dlb_problem *p, int64_t *pm, int64_t *pn, int64_t *pk)
{
	int64_t q = dlb_prec_info(p->prec)->pad_to;
	*pm = round_up(p->m, q);
	*pn = round_up(p->n, q);
	*pk = round_up(p->k, q);
	return *pm != p->m || *pn != p->n || *pk != p->k;
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
