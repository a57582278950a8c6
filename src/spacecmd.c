/* spacecmd: the same rows, in the same order, as the enumeration and the limit check of `tune` and `compile`,
 * so the counts printed are the ones a run starts from. */
#include "spacecmd.h"

#include "err.h"
#include "tune.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MIN_LABEL 40 /* width of the label column */

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

static int label_width(const struct dlb_op *op)
{
	int w = MIN_LABEL;
	for (int k = 0; k < op->space.nconstraints; k++)
		w = max_int(w, (int)strlen(op->space.constraints[k].text));
	for (int k = 0; k < op->nlimit_checks; k++)
		w = max_int(w, (int)strlen(op->limit_checks[k].text));
	return w;
}

static void print_params(FILE *out, const struct dlb_space *s)
{
	int wn = 0, wd = 0;
	for (int p = 0; p < s->nparams; p++) {
		wn = max_int(wn, (int)strlen(s->params[p].name));
		wd = max_int(wd, (int)strlen(s->params[p].doc));
	}
	for (int p = 0; p < s->nparams; p++) {
		fprintf(out, "  %-*s  %-*s ", wn, s->params[p].name, wd, s->params[p].doc);
		for (int j = 0; j < s->params[p].nvalues; j++)
			fprintf(out, " %d", s->params[p].values[j]);
		fputc('\n', out);
	}
}

static void print_limits(FILE *out, const struct dlb_limits *lim, const char *arch)
{
	if (arch)
		fprintf(out, "device limits (%s; `tune` applies the real device's limits, and the driver's register and\n"
			     "shared-memory check when it loads each candidate):\n", arch);
	else
		fprintf(out, "device limits (defaults of any sm_80+ GPU, or --arch ARCH's; `tune` applies the real device's\n"
			     "limits, and the driver's register and shared-memory check when it loads each candidate):\n");
	for (int f = DLB_LIMIT_NONE + 1; f < DLB_LIMIT_COUNT; f++)
		fprintf(out, "  %-32s %lld%s\n", dlb_limit_name(f), dlb_limit_value(lim, f),
			f == DLB_LIMIT_SMEM_STATIC || f == DLB_LIMIT_SMEM_OPTIN ? " bytes" : "");
}

/* One line: the row's text, the size left after it, and how many it removed. */
static void print_step(FILE *out, int width, const char *text, long left, long removed)
{
	fprintf(out, "%-*s  %6ld  (-%ld)\n", width, text, left, removed);
}

int dlb_space_report(FILE *out, const struct dlb_op *op, enum dlb_prec prec, int verbose, const char *arch)
{
	int rc = 0, n = 0;
	const struct dlb_space *s = &op->space;
	struct dlb_config *cfgs = NULL;
	int *rejected = NULL, *limited = NULL;
	struct dlb_limits lim;
	dlb_limits_of(NULL, &lim);
	if (arch)
		dlb_limits_for_arch(arch, 0, &lim);
	if (prec != op->prec)
		DLB_USER_FAIL(DLB_E_USAGE, "%s %s: this entry holds the %s space", op->name, dlb_prec_name(prec),
			      dlb_prec_name(op->prec));
	for (int k = 0; k < s->nconstraints; k++)
		DLB_CHECK(dlb_constraint_check(&s->constraints[k], s->nparams));
	for (int k = 0; k < op->nlimit_checks; k++)
		DLB_CHECK(dlb_constraint_check(&op->limit_checks[k], s->nparams));
	rejected = calloc((size_t)max_int(s->nconstraints, 1), sizeof *rejected);
	limited = calloc((size_t)max_int(op->nlimit_checks, 1), sizeof *limited);
	if (!rejected || !limited)
		DLB_FAIL(ENOMEM, "out of memory");
	if ((n = dlb_space_enumerate(s, NULL, &cfgs, rejected)) < 0)
		DLB_FAIL(ENOMEM, "out of memory enumerating the space of %s", op->name);

	int width = label_width(op);
	long left = 1;
	for (int p = 0; p < s->nparams; p++)
		left *= s->params[p].nvalues;
	fprintf(out, "space of %s %s: %d parameters\n", op->name, dlb_prec_name(prec), s->nparams);
	print_params(out, s);
	fprintf(out, "\n%-*s  %6ld\n", width, "all combinations", left);
	for (int k = 0; k < s->nconstraints; k++) {
		left -= rejected[k];
		print_step(out, width, s->constraints[k].text, left, rejected[k]);
	}

	/* The limit rows apply to what the constraint rows left, first failing row counted, as in tune. */
	int kept = 0;
	for (int i = 0; i < n; i++) {
		int failed = dlb_constraint_first_failed(op->limit_checks, op->nlimit_checks, cfgs[i].v, &lim);
		if (failed)
			limited[failed - 1]++;
		else
			cfgs[kept++] = cfgs[i];
	}
	fputc('\n', out);
	print_limits(out, &lim, arch);
	left = n;
	for (int k = 0; k < op->nlimit_checks; k++) {
		left -= limited[k];
		print_step(out, width, op->limit_checks[k].text, left, limited[k]);
	}

	if (verbose) {
		fprintf(out, "\nconfigurations left:\n");
		for (int i = 0; i < kept; i++) {
			char text[128];
			dlb_config_format(s, &cfgs[i], text, sizeof text);
			fprintf(out, "  %s\n", text);
		}
	}
	fputc('\n', out);
	if (op->variant_name)
		fprintf(out,
			"launch-time variants: each candidate also runs with the values of %s that suit each\n"
			"problem, so a problem measures more points than there are candidates\n",
			op->variant_name);
	fprintf(out, "the search's default window: a 50th of a problem's points, within 4..%d (--window)\n",
		dlb_search_window_ceiling(op->search_window_max));
	fprintf(out, "%-*s  %6d\n", width, "candidates to compile", kept);
	if (fflush(out) || ferror(out))
		DLB_FAIL(EIO, "cannot write the space of %s: %s", op->name, strerror(errno ? errno : EIO));
fail:
	free(cfgs);
	free(rejected);
	free(limited);
	return rc;
}

int dlb_cmd_space(const struct dlb_cli *c)
{
	int rc = 0;
	const struct dlb_op *op;
	DLB_CHECK(dlb_cli_op(c->op, c->prec, &op));
	DLB_CHECK(dlb_space_report(stdout, op, c->prec, c->verbose, c->have_arch ? c->arch : NULL));
fail:
	return rc;
}
