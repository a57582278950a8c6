/* app: dlbtune's commands behind one entry point; returns the exit status (src/cli.h). */
#ifndef DLB_APP_H
#define DLB_APP_H
#include "cli.h"
#include "op.h"
#include "suite.h"

#include <stddef.h>

/* One op's problems in one precision, as a tune runs them. */
struct dlb_run {
	enum dlb_prec prec;
	const struct dlb_op *op;
	struct dlb_suite suite;
};

int dlb_main(int argc, char **argv);
/* Tunes (or answers from the database) each run in turn on the GPUs c names (--device N, --devices) into c's
 * database, with c's search, pairing and power options; a failed run is named and the next one goes on.
 * print_table: the table of every problem answered or measured on stdout (text, --csv or --json). gpu_id
 * (may be NULL) gets the first GPU's key id (its model, or its UUID with --per-gpu). */
int dlb_tune_runs(const struct dlb_cli *c, struct dlb_run *runs, int nruns, int print_table, char *gpu_id,
		  size_t len);
#endif
