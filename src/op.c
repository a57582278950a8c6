/* op: the registry — the built-in ops (src/ops/registry.c) and those a program registers — and the generic
 * facts derived from what a family declares. */
#include "op.h"

#include "device.h"
#include "embedded.h"
#include "err.h"
#include "jit.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EXTRA_OPS 16
static const struct dlb_op *extra_ops[MAX_EXTRA_OPS];
static int nextra;

int dlb_op_register(const struct dlb_op *op)
{
	if (nextra == MAX_EXTRA_OPS)
		return ENOSPC;
	extra_ops[nextra++] = op;
	return 0;
}

const struct dlb_op *dlb_op_at(int i)
{
	int nb = 0;
	while (dlb_builtin_ops[nb])
		nb++;
	if (i < 0)
		return NULL;
	if (i < nb)
		return dlb_builtin_ops[i];
	return i - nb < nextra ? extra_ops[i - nb] : NULL;
}

const struct dlb_op *dlb_op_find(const char *name, enum dlb_prec prec)
{
	const struct dlb_op *op;
	for (int i = 0; (op = dlb_op_at(i)) != NULL; i++)
		if (!strcmp(op->name, name) && op->prec == prec)
			return op;
	return NULL;
}

const struct dlb_family *dlb_family_find(const char *name)
{
	const struct dlb_op *op;
	for (int i = 0; (op = dlb_op_at(i)) != NULL; i++)
		if (!strcmp(op->family->name, name))
			return op->family;
	return NULL;
}

const struct dlb_family *dlb_family_at(int n)
{
	const struct dlb_op *op;
	for (int i = 0; (op = dlb_op_at(i)) != NULL; i++) {
		int seen = 0;
		for (int j = 0; j < i; j++)
			seen |= dlb_op_at(j)->family == op->family;
		if (!seen && n-- == 0)
			return op->family;
	}
	return NULL;
}

int dlb_op_known(const char *name)
{
	return dlb_family_find(name) != NULL;
}

void dlb_op_precs(const char *name, char *buf, int len)
{
	const struct dlb_op *op;
	int off = 0;
	buf[0] = 0;
	for (int i = 0; (op = dlb_op_at(i)) != NULL && off < len; i++)
		if (!strcmp(op->name, name))
			off += snprintf(buf + off, (size_t)(len - off), "%s%s", off ? " " : "", dlb_prec_name(op->prec));
}

void dlb_op_names(char *buf, int len)
{
	const struct dlb_family *f;
	int off = 0;
	buf[0] = 0;
	for (int i = 0; (f = dlb_family_at(i)) != NULL && off < len; i++)
		off += snprintf(buf + off, (size_t)(len - off), "%s%s", off ? " " : "", f->name);
}

int dlb_family_dim(const struct dlb_family *f, const char *name)
{
	for (int d = 0; d < f->ndims; d++)
		if (!strcmp(f->dims[d].name, name))
			return d;
	return -1;
}

const char *dlb_op_unit(const struct dlb_op *op)
{
	return op->family->work_kind == DLB_WORK_BYTES ? "GB/s" : dlb_prec_info(op->prec)->unit;
}

const char *dlb_op_peak_about(const struct dlb_op *op)
{
	return op->family->work_kind == DLB_WORK_BYTES ? "the device memory bandwidth from memory clock x bus width" : dlb_prec_info(op->prec)->peak;
}

double dlb_op_peak(const struct dlb_op *op, const struct dlb_device *dev)
{
	if (op->family->work_kind == DLB_WORK_BYTES)
		return dlb_device_peak_gbs(dev);
	return dlb_device_peak_tflops(dev, op->prec);
}

double dlb_op_min_bytes(const struct dlb_op *op, const struct dlb_problem *p)
{
	if (!op->family->min_bytes || op->es_in <= 0 || op->es_out <= 0)
		return NAN;
	return op->family->min_bytes(p, op->es_in, op->es_out);
}

double dlb_op_throughput(const struct dlb_op *op, const struct dlb_problem *p, double us)
{
	double scale = op->family->work_kind == DLB_WORK_BYTES ? 1e9 : 1e12;
	return op->family->work(p) / (us * 1e-6) / scale;
}

void dlb_lib_version_text(const struct dlb_lib *lib, char *buf, int len)
{
	lib->format(lib->version(), buf, len);
}

const char *dlb_op_config_family(const struct dlb_op *op, const char *config)
{
	for (int i = 0; op && config && i < op->space.nparams; i++) {
		const struct dlb_param *p = &op->space.params[i];
		if (!p->value_names)
			continue;
		size_t n = strlen(p->name);
		for (const char *t = config; (t = strstr(t, p->name)) != NULL; t += n) {
			if ((t != config && t[-1] != ' ') || t[n] != '=')
				continue;
			char *end;
			if (!(t[n + 1] == '-' || (t[n + 1] >= '0' && t[n + 1] <= '9')))
				return NULL;
			long v = strtol(t + n + 1, &end, 10);
			if (*end && *end != ' ')
				return NULL;
			for (int j = 0; j < p->nvalues; j++)
				if (p->values[j] == v)
					return p->value_names[j];
			return NULL;
		}
		return NULL;
	}
	return NULL;
}

int dlb_op_has_non_ffma(const struct dlb_op *op)
{
	for (int i = 0; i < op->space.nparams; i++) {
		const struct dlb_param *p = &op->space.params[i];
		for (int j = 0; p->value_names && j < p->nvalues; j++)
			if (strncmp(p->value_names[j], "FFMA", 4) != 0)
				return 1;
	}
	return 0;
}

char *dlb_op_template(const struct dlb_op *op)
{
	const char *names[3] = {op->template_file, op->template_extra, op->template_more};
	const struct dlb_embedded *parts[3] = {NULL, NULL, NULL};
	size_t len = 0;
	for (int i = 0; i < 3; i++) {
		if (!names[i])
			continue;
		if (!(parts[i] = dlb_embedded_find(names[i])))
			return NULL;
		len += parts[i]->size;
	}
	if (!parts[0])
		return NULL;
	char *t = malloc(len + 1);
	if (!t)
		return NULL;
	len = 0;
	for (int i = 0; i < 3; i++)
		if (parts[i]) {
			memcpy(t + len, parts[i]->text, parts[i]->size);
			len += parts[i]->size;
		}
	t[len] = 0;
	return t;
}

uint64_t dlb_op_template_hash_of(const struct dlb_op *op)
{
	char *t = dlb_op_template(op);
	uint64_t h = t ? dlb_hash64(t, strlen(t)) : 0;
	free(t);
	return h;
}
