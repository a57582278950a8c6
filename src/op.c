/* op: the registry. */
#include "op.h"

#include "ops/gemm.h"

#include <stdio.h>
#include <string.h>

const struct dlb_op *const dlb_ops[] = {&dlb_op_gemm, NULL};

const struct dlb_op *dlb_op_find(const char *name)
{
	for (int i = 0; dlb_ops[i]; i++)
		if (!strcmp(dlb_ops[i]->name, name))
			return dlb_ops[i];
	return NULL;
}

void dlb_op_names(char *buf, int len)
{
	int off = 0;
	buf[0] = 0;
	for (int i = 0; dlb_ops[i] && off < len; i++)
		off += snprintf(buf + off, (size_t)(len - off), "%s%s", i ? " " : "", dlb_ops[i]->name);
}
