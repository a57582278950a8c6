/* op: the registry. */
#include "op.h"

#include "ops/gemm.h"
#include "ops/gemm_tc.h"

#include "embedded.h"
#include "jit.h"

#include <stdio.h>
#include <stdlib.h>
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

char *dlb_op_template(const struct dlb_op *op)
{
	const struct dlb_embedded *a = dlb_embedded_find(op->template_file);
	const struct dlb_embedded *b = op->template_extra ? dlb_embedded_find(op->template_extra) : NULL;
	if (!a || (op->template_extra && !b))
		return NULL;
	size_t la = a->size, lb = b ? b->size : 0;
	char *t = malloc(la + lb + 1);
	if (!t)
		return NULL;
	memcpy(t, a->text, la);
	if (b)
		memcpy(t + la, b->text, lb);
	t[la + lb] = 0;
	return t;
}

uint64_t dlb_op_template_hash_of(const struct dlb_op *op)
{
	char *t = dlb_op_template(op);
	uint64_t h = t ? dlb_hash64(t, strlen(t)) : 0;
	free(t);
	return h;
}
