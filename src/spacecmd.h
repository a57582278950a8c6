/* spacecmd: `dlbtune space` — an op's tuning space row by row, with the size left after each; no GPU. */
#ifndef DLB_SPACECMD_H
#define DLB_SPACECMD_H
#include "cli.h"
#include "op.h"

#include <stdio.h>

/* Write to out: the parameters and their values, the full product, the size after each constraint row, then
 * after each device-limit row under the defaults every sm_80+ GPU meets (dlb_limits_of(NULL)), or those of
 * the target arch (e.g. "sm_90a"; NULL: the defaults), and (verbose) every configuration left; the last line
 * is the count. EINVAL for a malformed row, DLB_E_USAGE for a precision the op has no space for. */
int dlb_space_report(FILE *out, const struct dlb_op *op, enum dlb_prec prec, int verbose, const char *arch);
/* `dlbtune space`: the report of c->op on stdout. */
int dlb_cmd_space(const struct dlb_cli *c);
#endif
