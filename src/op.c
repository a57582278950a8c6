/* op: the registry. */
#include "op.h"

#include "ops/gemm.h"
#include "ops/gemm_tc.h"

#include <stdio.h>
#include <string.h>

const struct dlb_op *const dlb_ops[] = {&dlb_op_gemm, &dlb_op_gemm_fp16, &dlb_op_gemm_int8, NULL};

const struct dlb_op *dlb_op_find(const char *name, enum dlb_prec prec)
{
	for (int i = 0; dlb_ops[i]; i++)
		if (!strcmp(dlb_ops[i]->name, name) && dlb_ops[i]->prec == prec)
			return dlb_ops[i];
	return NULL;
}

int dlb_op_known(const char *name)
{
	for (int i = 0; dlb_ops[i]; i++)
		if (!strcmp(dlb_ops[i]->name, name))
			return 1;
	return 0;
}

void dlb_op_precs(const char *name, char *buf, int len)
{
	int off = 0;
	buf[0] = 0;
	for (int i = 0; dlb_ops[i] && off < len; i++)
		if (!strcmp(dlb_ops[i]->name, name))
			off += snprintf(buf + off, (size_t)(len - off), "%s%s", off ? " " : "", dlb_prec_name(dlb_ops[i]->prec));
}

void dlb_op_names(char *buf, int len)
{
	int off = 0;
	buf[0] = 0;
	for (int i = 0; dlb_ops[i] && off < len; i++) {
		int seen = 0;
		for (int j = 0; j < i; j++)
			seen |= !strcmp(dlb_ops[j]->name, dlb_ops[i]->name);
		if (!seen)
			off += snprintf(buf + off, (size_t)(len - off), "%s%s", off ? " " : "", dlb_ops[i]->name);
	}
}
