/* cli: the command line — commands, options, and every check that can be made before touching a GPU. */
#ifndef DLB_CLI_H
#define DLB_CLI_H
#include "problem.h"
#include "shard.h"

#include <stdint.h>
#include <stdio.h>

#define DLB_MAX_DEVICES 64 /* GPUs of one --devices run */

enum dlb_command {
	DLB_CMD_TUNE,
	DLB_CMD_COMPILE,
	DLB_CMD_SPACE,
	DLB_CMD_DEVICES,
	DLB_CMD_DB_STATS,
	DLB_CMD_DB_LIST,
	DLB_CMD_DB_SHOW,
	DLB_CMD_DB_VERIFY,
	DLB_CMD_DB_GC,
	DLB_CMD_DB_MIGRATE,
	DLB_CMD_DB_SALVAGE,
	DLB_CMD_EXPORT,
	DLB_CMD_REPORT,
	DLB_CMD_IMPORT,
	DLB_CMD_MERGE,
	DLB_CMD_LOOKUP,
	DLB_CMD_SIMULATE,
	DLB_CMD_MODEL,
	DLB_CMD_HELP,
	DLB_CMD_VERSION
};

/* Exit codes (documented in --help and the README). */
enum {
	DLB_EXIT_OK = 0,
	DLB_EXIT_FAILURE = 1,   /* a runtime error: CUDA, database, I/O */
	DLB_EXIT_USAGE = 2,     /* bad command line or input */
	DLB_EXIT_NOGPU = 3,     /* no CUDA driver or no such GPU */
	DLB_EXIT_UNVERIFIED = 4, /* finished, but some problem has no verified candidate */
	DLB_EXIT_INTERRUPTED = 130
};

/* tune's --min-search: below it, the window does not stop a search. A small problem's candidate is verified
 * and raced in about a millisecond (H200: the 1171 int8 points of 3072x16x1024 NN in 2.3 s), so there the search
 * covers most of the space for little more than the compile cost, and finds what the model's window missed
 * (NOTES item 25). */
#define DLB_MIN_SEARCH_S 3.0

struct dlb_cli {
	enum dlb_command cmd;
	const char *op;
	enum dlb_prec prec;     /* the first of precs: the precision of every command that takes one */
	enum dlb_prec precs[DLB_PREC_COUNT]; /* --prec as given: tune and compile run each, in this order */
	int nprecs;             /* at least 1; more only for tune and compile */
	int have_op, have_prec, have_layout; /* given explicitly (filters of the database commands) */
	/* The problem: options named after the dims of every family, as given, then resolved against --op's */
	struct dlb_dim_arg {
		const char *name, *value;
	} dim_args[2 * DLB_MAX_DIMS];
	int ndim_args;
	const char *layout;     /* --layout as given */
	const struct dlb_family *family; /* --op's */
	int64_t dim[DLB_MAX_DIMS]; /* the values (defaults where not given) */
	int dim_given[DLB_MAX_DIMS];
	int have_shape;         /* every dim without a default given: one problem */
	int have_dims;          /* some SIZE or REAL dim given (db show's filter) */
	/* A sweep: one SIZE or REAL dim given as FROM:TO:STEP (tune and compile): one problem per value, in units
	 * of the dim (a REAL's 1/scale); sweep_dim -1 for none. dim[sweep_dim] holds FROM. */
	int sweep_dim;
	int64_t sweep_to, sweep_step;
	const char *suite;
	int device;             /* GPU ordinal, for the commands that run on a GPU */
	const char *device_str; /* --device as given: a GPU name or UUID filter for the database commands */
	const char *devices_str; /* --devices as given (tune): NULL when not */
	int devices_all;        /* --devices all */
	int devices[DLB_MAX_DEVICES], ndevices; /* --devices N,N,...: the ordinals */
	int per_gpu;            /* tune: keys name the GPU's UUID, not its model */
	struct dlb_shard shard; /* tune, compile: --shard I/N, or the scheduler's (count 0: the whole suite) */
	const char *db;
	const char *arg;        /* the operand: import FILE, merge DB, db show KEY */
	char **files;           /* model: the ONNX files (pointers into argv) */
	int nfiles;
	long long batch;        /* model: the size of the inputs' symbolic batch dims (0: the files' own) */
	const char *suite_out;  /* model --suite-out PREFIX: the unique layers as PREFIX_<op>.csv suites */
	const char *format;     /* export --format */
	int stale, any_version, dry_run;
	const char *arch;
	int have_arch;          /* --arch given (space: that target's limits, else the sm_80+ defaults) */
	const char *emit;
	const char *out;        /* report --out DIR */
	const char *compare;    /* report --compare DB */
	const char *compare_device; /* report --compare-device FILTER: the same database's results on those GPUs */
	int every;              /* compile: every Nth candidate */
	const char *only;       /* tune, compile: only configurations containing one of its '|'-separated pieces */
	int fp32_ffma;          /* tune, compile: --fp32-math ffma (dlb_cli_only gives what it means for an op) */
	int no_cache;           /* tune, compile: neither read nor write the kernel cache */
	int retune, verbose;
	int csv, json;
	int samples;            /* of each vendor algorithm */
	int paired, have_paired; /* pairs of the side-by-side timing (struct dlb_paired); given (or --power-ms) */
	double power_ms;         /* each one's energy burst after the pairs (struct dlb_energy); 0: none */
	/* the search (tune and simulate) */
	const char *strategy;
	int budget;             /* candidates; 0: none */
	double budget_s;        /* seconds; 0: none */
	long long seed;
	double confidence, precision;
	int min_samples, max_samples, fixed_samples, seeds, window;
	double min_search_s;    /* --min-search; -1: the command's default */
	/* simulate */
	int trials, from_db, candidates;
	double noise, outliers;
	int have_search;        /* some search option was given */
	int have_sim, have_synthetic; /* some simulate option; some option of a synthetic landscape */
};

/* Parse argv. 0 ok; DLB_E_USAGE with the reason in dlb_last_error(). Never exits. */
int dlb_cli_parse(int argc, char **argv, struct dlb_cli *c);
void dlb_cli_usage(FILE *out);
/* The problem the options give, for op (of c->family). */
void dlb_cli_problem(const struct dlb_cli *c, const struct dlb_op *op, struct dlb_problem *p);
/* The problems a sweep gives (1 without one), and the i-th of them. */
int dlb_cli_sweep_count(const struct dlb_cli *c);
void dlb_cli_sweep_problem(const struct dlb_cli *c, const struct dlb_op *op, int i, struct dlb_problem *p);
/* The registry entry of op `name` in precision prec (out may be NULL: just the check); DLB_E_USAGE naming
 * the precisions built when that one is not ("gemm has no int8 kernels in this build (built: fp32)"). */
int dlb_cli_op(const char *name, enum dlb_prec prec, const struct dlb_op **out);
/* The --only restriction for op: --only's, or with --fp32-math ffma DLB_ONLY_FFMA where op is fp32 and has
 * families of another arithmetic (elsewhere ffma restricts nothing: NULL, the full space). */
const char *dlb_cli_only(const struct dlb_cli *c, const struct dlb_op *op);
#endif
