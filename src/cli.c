/* cli: getopt_long; strict number parsing; no GPU needed for anything here. */
#include "cli.h"

#include "err.h"
#include "jit.h"
#include "op.h"
#include "suite.h"
#include "../search/strategy.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* "gemm: fp32 fp16" for every op: what this binary has kernels for. */
static void built_list(char *buf, int len)
{
	char ops[128];
	int off = 0;
	dlb_op_names(ops, sizeof ops);
	buf[0] = 0;
	for (char *name = strtok(ops, " "); name && off < len; name = strtok(NULL, " ")) {
		char precs[64];
		dlb_op_precs(name, precs, sizeof precs);
		off += snprintf(buf + off, (size_t)(len - off), "%s%s: %s", off ? "; " : "", name, precs);
	}
}

/* One entry per precision, from the table the reports use, so --help and the table headers agree. */
static void usage_precisions(FILE *out)
{
	char built[256];
	built_list(built, sizeof built);
	fprintf(out,
		"  --prec P[,P...]  precision (default fp32). tune and compile take a comma-separated list and run\n"
		"                   each in the order given, into one database (one table per precision); space,\n"
		"                   lookup, simulate, export and db take one. Built in this binary: %s\n",
		built);
	for (int p = 0; p < DLB_PREC_COUNT; p++) {
		const struct dlb_prec_info *in = dlb_prec_info((enum dlb_prec)p);
		fprintf(out, "                   %s  %s\n                         throughput in %s; %%peak relative to %s\n", in->name,
			in->about, in->unit, in->peak);
		if (in->pad_to > 1)
			fprintf(out,
				"                         the sizes an op pads (below) that are not multiples of %d are\n"
				"                         padded up to them (DeepBench's rule): the inputs are padded once,\n"
				"                         the padded problem is timed (the time does not include the\n"
				"                         padding), the row shows both shapes, and %s count the shape as given\n",
				in->pad_to, in->unit);
	}
	fprintf(out, "                   Each table names the peak it uses; an op judged by the bytes it moves (GB/s)\n"
		     "                   is measured against the memory bandwidth.\n");
}

/* Each family's examples. */
static void usage_examples(FILE *out)
{
	const struct dlb_family *f;
	for (int i = 0; (f = dlb_family_at(i)) != NULL; i++)
		if (f->examples)
			fputs(f->examples, out);
}

/* Each family's problem: its dims as options, its layouts, its suites. */
static void usage_problems(FILE *out)
{
	const struct dlb_family *f;
	for (int i = 0; (f = dlb_family_at(i)) != NULL; i++) {
		char layouts[256], suites[256], range[160], pads[64];
		fprintf(out, "  --op %s: %s\n", f->name, f->about);
		for (int d = 0; d < f->ndims; d++) {
			const struct dlb_dim *dim = &f->dims[d];
			char opt[64], def[48] = "";
			dlb_dim_range(dim, range, sizeof range);
			snprintf(opt, sizeof opt, "--%s %s", dim->name, dim->title);
			if (dim->kind == DLB_DIM_CHOICE) { /* "--NAME A|B"; a long list only in the range that follows */
				int off = snprintf(opt, sizeof opt, "--%s ", dim->name);
				for (int j = 0; j < dim->nnames && off < (int)sizeof opt; j++)
					off += snprintf(opt + off, sizeof opt - (size_t)off, "%s%s", j ? "|" : "", dim->names[j]);
				if (off >= 40)
					snprintf(opt, sizeof opt, "--%s %s", dim->name, dim->title);
			}
			if (dim->has_default)
				dlb_dim_format(dim, dim->def, def, sizeof def);
			fprintf(out, "    %-14s %s (%s%s%s%s%s)\n", opt, dim->about, range, *def ? "; default " : "", def,
				dim->csv ? "; suite column " : "", dim->csv ? dim->csv : "");
		}
		for (int o = 0; o < f->noptions; o++) {
			char opt[64];
			snprintf(opt, sizeof opt, "--%s %s", f->options[o].name, f->options[o].arg);
			fprintf(out, "    %-14s %s\n", opt, f->options[o].about);
		}
		dlb_layout_names(f, layouts, sizeof layouts);
		if (*layouts)
			fprintf(out, "    --layout L     every layout dim at once (with a suite: every row): %s\n", layouts);
		dlb_padded_titles(f, pads, sizeof pads);
		if (*pads)
			fprintf(out, "    int8 pads %s up to multiples of 4 (see --prec)\n", pads);
		fprintf(out, "    a size or number may be a sweep FROM:TO:STEP (tune, compile): one problem per value\n");
		dlb_suite_builtin_names(f->name, suites, sizeof suites);
		fprintf(out, "    --suite NAME|FILE  built-in suite (%s) or a CSV file whose header names the\n"
			     "                   options above; default: %s\n",
			suites, f->default_suite);
	}
}

/* Each family's vendor baselines and reference. */
static void usage_vendors(FILE *out)
{
	const struct dlb_family *f;
	for (int i = 0; (f = dlb_family_at(i)) != NULL; i++)
		fprintf(out, "  %s: %s\n", f->name, f->vendor_about);
}

void dlb_cli_usage(FILE *out)
{
	char ops[128];
	dlb_op_names(ops, sizeof ops);
	fprintf(out,
		"dlbtune - JIT-compile, verify and time deep-learning kernels against the vendor libraries\n"
		"\n"
		"Usage:\n"
		"  dlbtune [tune] --op OP [problem] [options]   tune, compare with the vendor, store the results\n"
		"  dlbtune compile --op OP [--arch ARCH]         JIT-compile every candidate into the kernel cache\n"
		"                 [--suite S | problem]         (no GPU needed); with a suite or a problem, only\n"
		"                                                what those problems run\n"
		"  dlbtune space --op OP [--arch ARCH] [-v]      the tuning space: its size after each constraint\n"
		"                                                and device limit (no GPU needed)\n"
		"  dlbtune devices                               list the GPUs and library versions\n"
		"  dlbtune lookup --op OP [problem]              the stored best; for an untuned shape, a labelled\n"
		"                                                guess from the nearest tuned one\n"
		"  dlbtune export --format csv|json|md|h         best-config tables (filters: --op --prec --device)\n"
		"  dlbtune report --out DIR                      the results as a page: DIR/index.html and report.md,\n"
		"                                                a table, a speedup plot and a roofline (gnuplot\n"
		"                                                SVG) per op, precision and GPU (filters as for\n"
		"                                                export); with --compare DB_B, the problems both\n"
		"                                                databases hold, B's time / ours, tuned and vendor\n"
		"  dlbtune import FILE.json                      add an export's records to the database\n"
		"  dlbtune merge OTHER_DB                        add another database's records\n"
		"  dlbtune db stats|list|show|verify|gc|migrate  look after the database (see Database below)\n"
		"  dlbtune simulate [--trials T] [--from-db]     the search against a synthetic landscape, or the\n"
		"                                                landscapes recorded in the database (no GPU)\n"
		"  dlbtune model FILE.onnx... [--batch N]        read ONNX models, infer every tensor's shape (the\n"
		"        [--prec P] [--layout L] [--dry-run]     inputs' symbolic batch dims set to N) and list the\n"
		"        [--suite-out PREFIX]                    unique layers the families take (Conv, Gemm,\n"
		"                                                MatMul) with their counts per model and the problem\n"
		"                                                each is (or why it is none; --layout NHWC: the\n"
		"                                                convolutions channels-last), and the other ops by\n"
		"                                                count; --suite-out writes PREFIX_<op>.csv suites of\n"
		"                                                them for --suite. Then tunes, on the GPU (--device\n"
		"                                                N, --devices; tune's search options), the layers\n"
		"                                                the database lacks for it, only those, and gives\n"
		"                                                each layer's tuned, vendor-default and vendor-best\n"
		"                                                times and each model's lower bounds: sequential\n"
		"                                                and along its critical path, the other ops by\n"
		"                                                their bytes. --dry-run: no GPU, tune nothing, the\n"
		"                                                totals from what the database holds (--device: a\n"
		"                                                GPU name filter); --json: all of it as JSON;\n"
		"                                                --csv: the layers, other ops and bounds as rows\n"
		"  dlbtune --help | --version\n"
		"\n"
		"Examples:\n");
	usage_examples(out);
	fprintf(out,
		"  dlbtune export --format md --device H200      a Markdown table of what was tuned on H200s\n"
		"\n"
		"What is tuned:\n"
		"  --op OP          operation: %s (default %s)\n",
		ops, dlb_family_at(0)->name);
	usage_precisions(out);
	usage_problems(out);
	fprintf(out,
		"\n"
		"Where and how:\n"
		"  --device N       GPU ordinal (default 0); for lookup, export and db: a substring of a GPU's\n"
		"                   name, model id (132sm-79GiB-...) or UUID to filter by\n"
		"  --devices LIST   tune: 'all' GPUs or ordinals like 0,2,3 at once: each GPU takes the next\n"
		"                   problem when it finishes one (one database; each kernel compiled once)\n"
		"  --per-gpu        tune: results answer for this physical GPU only (keyed by its UUID); by\n"
		"                   default a result answers for every GPU of the same model (name, SMs,\n"
		"                   memory, clocks, compute capability), labelled with where it was measured\n"
		"  --shard I/N      tune, compile: only part I (0..N-1) of the suite split into N parts of equal\n"
		"                   estimated work, into the database <db>/shards/I-of-N (`dlbtune merge` joins\n"
		"                   them); a Slurm array task or an MPI rank finds its part without --shard\n"
		"                   (SLURM_ARRAY_TASK_ID/_COUNT, OMPI_COMM_WORLD_RANK/_SIZE, PMI_RANK/_SIZE;\n"
		"                   --shard 0/1 keeps the whole suite there);\n"
		"                   with --dry-run, tune lists the part's problems and exits (no GPU needed)\n"
		"  --db PATH        result database directory (default $DLBTUNE_DB, else\n"
		"                   $XDG_CACHE_HOME/dlbtune, else ~/.cache/dlbtune)\n"
		"  --retune         measure again even if the database has a current result\n"
		"  --samples N      timed samples of every vendor algorithm (default 15)\n"
		"  --paired N       after the baselines, N samples each of the winner and the vendor best, taken\n"
		"                   in alternation: the 'paired' speedup (default 30, at most 64; 0: none)\n"
		"  --power-ms MS    after the pairs, bursts of back-to-back calls of about MS milliseconds each,\n"
		"                   ours, the vendor's, the vendor's, ours (each side once early, once late),\n"
		"                   while NVML's energy counter, power, SM clock and clock-event reasons are read:\n"
		"                   joules per call and work per joule, ours and the vendor's (default 500; 0:\n"
		"                   none). The counter moves about every 100 ms: a burst in which it moved fewer\n"
		"                   than 3 times, or in which no two steps could be timed to a twentieth of\n"
		"                   the time between them, and a machine without NVML, give n/a\n"
		"  --arch ARCH      compile target for `compile` (default sm_90a; e.g. sm_80, sm_90); with `space`,\n"
		"                   that target's limits (sm_90: 227 KiB of opt-in shared memory) in place of\n"
		"                   the defaults of any sm_80+ GPU\n"
		"  --emit DIR       with `compile`: write each candidate's source and cubin to DIR/PREC/ (e.g.\n"
		"                   DIR/fp32/BM-64_BN-64_..._TN-4.cu and .sm_90a.cubin), one folder per precision\n"
		"  --every N        with `compile`: only every Nth candidate of each kernel family (a quick sample)\n"
		"  --only TEXT      tune, compile (export, lookup, report, db list/show: that search's results):\n"
		"                   only the configurations whose text (as `space -vv` prints it)\n"
		"                   contains TEXT, or one of its '|'-separated pieces: e.g. --only 'KIND=2',\n"
		"                   --only 'KIND=1|KIND=2' (each piece matched alone: 'KIND=1|2' would keep every\n"
		"                   configuration with a 2 in it), or one configuration in full to time or profile\n"
		"                   it alone. A restricted search stores its results under keys of their own\n"
		"                   (only=TEXT): they answer for the same restriction only, in tune, lookup,\n"
		"                   export, report and db list/show given the same --only (a TEXT over 63\n"
		"                   characters is keyed by its first 46, '~' and a hash of the whole). A piece\n"
		"                   family:NAME keeps the kernel families whose names begin with NAME (the KIND\n"
		"                   names of `space`): --only 'family:3xTF32'\n"
		"  --fp32-math M    tune, compile (and the reading commands, as --only): any (default) or ffma:\n"
		"                   only kernels in classic fp32 arithmetic,\n"
		"                   FMA on the CUDA cores, for fp32 ops. Where an fp32 space also has other\n"
		"                   families (3xTF32 in conv and gemm) that is --only 'family:FFMA', a\n"
		"                   restricted search; where every family is FFMA it is the full search\n"
		"  --no-cache       tune, compile: compile every candidate with NVRTC, neither reading nor writing\n"
		"                   the kernel cache (DB/kernels: compiled candidates keyed by source, target,\n"
		"                   NVRTC and options; `db stats` shows it, `db gc` trims it); to time compiling\n"
		"\n"
		"Search (tune and simulate):\n"
		"  --strategy S     model (default): a least-squares fit of log time on each parameter and its\n"
		"                   square (a fit of its own per kernel family: a categorical parameter such as KIND),\n"
		"                   refit after every candidate, proposes the predicted best untried one after a\n"
		"                   random start (3 per parameter + 3, at most an eighth of the candidates,\n"
		"                   taking the families in turn); anneal: simulated annealing over neighbours; random: a PCG32\n"
		"                   permutation; exhaustive: every candidate in order\n"
		"  --budget N|Ns    at most N candidates, or N seconds, per problem\n"
		"  --seed N         of the random start, the permutation and annealing (default 1)\n"
		"  --seeds N        the winners of the N nearest tuned shapes on this GPU go first (default 3)\n"
		"  --window W       a search stops when its last W candidates improved the best by no more than\n"
		"                   1%% (default: a 50th of the problem's points, candidates x launch variants,\n"
		"                   at least 4 and at most 8 or the ceiling an op with a rugged space sets:\n"
		"                   `space` shows it), when its budget is spent, or when every candidate was\n"
		"                   tried; the row says why.\n"
		"                   The 3 best estimates are then raced again, one after another, to half the\n"
		"                   precision (a showdown: near-ties, and a GPU clock that drifted during the\n"
		"                   search).\n"
		"  --min-search S   the window stops no search before S seconds (tune's default: %g; simulate's:\n"
		"                   0, on its clock of summed sample times). Small problems time a candidate in\n"
		"                   about a millisecond, so there the search goes on to most of the space for\n"
		"                   little more than the compile already cost; 0 turns it off\n"
		"  Racing: each candidate is sampled in rounds (after 2 warm-up runs; leading samples far above the\n"
		"  rest are dropped) and stops as soon as it is slower than the best so far (one-sided Welch test on\n"
		"  log times, p < 0.01), or its 95%% CI is within the precision, or it reaches the cap (flagged noisy).\n"
		"  --confidence C   of the CI behind 'precise' (default 0.95)\n"
		"  --precision P    target relative CI half-width (default 0.01: 1%% is the gap the search resolves)\n"
		"  --min-samples N  before any decision (default 4: the fewest that give a usable variance;\n"
		"                   'precise' needs twice as many)\n"
		"  --max-samples N  the cap (default 50)\n"
		"  --fixed-samples N  no racing: exactly N samples per candidate (the showdown: --max-samples);\n"
		"                   with --strategy exhaustive this is the classic tuner, kept as the baseline\n"
		"  simulate: --trials T (default 100) seeded runs per landscape; --from-db replays every current\n"
		"  result's trials (--op/--prec/--layout/--device filter; --any-version); else a synthetic\n"
		"  landscape: --candidates N (default 200), --noise CV (default 0.03), --outliers P (default 0)\n"
		"\n"
		"Output:\n"
		"  (default)        a table on stdout; progress on stderr\n"
		"  --csv, --json    machine-readable results on stdout: one row per problem, its precision, its\n"
		"                   throughput with the unit, and the shape run (padded, padded_m/n/k; JSON: padded)\n"
		"  n/a              a number that does not exist: no vendor algorithm of that kind (e.g. none of a\n"
		"                   algorithm for a layout), none verified, or no verified candidate; then the speedup\n"
		"                   is n/a too (CSV: n/a, JSON: null)\n"
		"  -v, --verbose    constraint counts, per-candidate registers/spills, kernel launch count, the\n"
		"                   paired speedup by order (pairs with the winner first, with the vendor first);\n"
		"                   -vv: every candidate's trial as it finishes; with space: every configuration left\n"
		"\n"
		"Database:\n"
		"  Every trial, the best of each problem, every vendor algorithm's time and the platform it ran on\n"
		"  (GPU, driver, libraries, host) are kept. A result is current when this build (template, CUDA\n"
		"  runtime, NVRTC, the op's vendor library) measured it, on the GPU and driver in its key, and no\n"
		"  newer driver has measured the same problem on that GPU; only current results answer a tune or a\n"
		"  lookup.\n"
		"  db stats         sizes, schema, entries per sub-database, platforms\n"
		"  db list          current results; --stale: only the others; --any-version: all\n"
		"  db show [KEY]    one result in full (or every result of the problem options)\n"
		"  db verify        read every entry and check the references between them; exit 1 on a problem\n"
		"  db gc            delete the trials of stale results (their best rows stay); --dry-run\n"
		"  db migrate       bring a database of an older schema up to date (a backup is kept);\n"
		"                   commands that only read open the database read-only and never migrate\n"
		"  db salvage DEST  copy every record that can still be read and passes its checks out of a\n"
		"                   damaged database (--db) into a new one at DEST, skipping damaged stretches;\n"
		"                   the damaged one is only read\n"
		"  --format F       export format: csv, json (re-importable), md, h (a C header)\n"
		"  --out DIR        report: where index.html, report.md and each plot's CSV, gnuplot script\n"
		"                   and SVG go (gnuplot: configure's, or DLBTUNE_GNUPLOT; none: tables only)\n"
		"  --compare DB_B   report: add a comparison with DB_B's results on the same problems: its time /\n"
		"                   ours, tuned and vendor best, per GPU and driver of each side\n"
		"  --compare-device F  report: the same comparison within this database: the results on GPUs\n"
		"                   matching F against those matching --device (e.g. --device H100\n"
		"                   --compare-device H200)\n"
		"  --stale, --any-version  which results db list, export and lookup consider (default:\n"
		"                   current); --any-version also for report\n"
		"  Environment: DLBTUNE_DB (path), DLBTUNE_DB_MAPSIZE (initial map of a new database, bytes,\n"
		"  default 64 MiB; the map doubles when full), DLBTUNE_DB_MAXSIZE (ceiling, default 64 GiB).\n"
		"\n"
		"How numbers are made: every candidate is run on fresh PCG32 random inputs with its output\n"
		"poisoned first and compared with the op's reference; only verified candidates are timed. Timing\n"
		"uses CUDA events, warm-up, an L2 flush before every sample (a read of max(2×L2, 64 MiB), so no\n"
		"dirty line is left for the sample to write back) and input sets rotated within a sample; medians with\n"
		"95%% confidence intervals. The vendor baselines are each verified and timed\n"
		"by the same code on the same buffers:\n",
		DLB_MIN_SEARCH_S);
	usage_vendors(out);
	fprintf(out,
		"'speedup' is the best verified vendor time / tuned, n/a when there is none. 'floor' is the stream\n"
		"floor: one launch that only reads the inputs and writes the output once, timed the same way;\n"
		"vendor / floor bounds the speedup any kernel can reach on that row. 'paired' is the speedup measured side by\n"
		"side: the winner and the vendor best, sample for sample in one loop after the search (each pair\n"
		"back to back, the order alternating), as the median of the pairs' ratios vendor / tuned with its\n"
		"95%% CI. Both then run at the same clock, which at the largest shapes the power cap moves by up\n"
		"to 20%% from one moment to the next.\n"
		"\n"
		"Compiling: candidates are compiled as the search asks for them (its first random points at once,\n"
		"then the model's best predictions ahead of time), by a compiler process with a thread per core, and\n"
		"kept in the kernel cache beside the database (DB/kernels), which every later run and every process\n"
		"using the database reads: a new shape compiles only what its search proposes that no earlier one\n"
		"did. Each problem's line says how many were compiled, how many came from the cache, and the seconds\n"
		"spent waiting for the compiler. `dlbtune compile` fills the cache before GPU time starts.\n"
		"\n"
		"Faults: every candidate runs in a worker process. One that fails to compile, exceeds a device limit,\n"
		"computes a wrong answer, faults or hangs (no reply within 10 s plus 20x its expected time) is stored\n"
		"with that status, and a fresh worker goes on with the next; -v shows each restart and why. An\n"
		"interrupted run (Ctrl-C) keeps every finished trial; the same command resumes where it stopped.\n"
		"\n"
		"Exit status: 0 ok; 1 runtime error (CUDA, database); 2 bad command line or input; 3 no CUDA driver\n"
		"or GPU; 4 a problem had no verified candidate; 130 interrupted (finished problems are kept). With a\n"
		"list of precisions, a precision that fails is named and the next one still runs; the status is\n"
		"then the first failed precision's (an interrupt stops at once).\n");
}

static int parse_int(const char *opt, const char *s, long lo, long hi, int *out)
{
	int rc = 0;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < lo || v > hi)
		DLB_USER_FAIL(DLB_E_USAGE, "%s '%s': expected an integer in %ld..%ld", opt, s, lo, hi);
	*out = (int)v;
fail:
	return rc;
}

/* --devices all | N,N,...: distinct ordinals */
static int parse_devices(const char *arg, struct dlb_cli *c)
{
	int rc = 0;
	char buf[1024];
	c->devices_str = arg;
	c->ndevices = 0;
	c->devices_all = !strcmp(arg, "all");
	if (c->devices_all)
		return 0;
	if (!*arg || strlen(arg) >= sizeof buf || *arg == ',' || arg[strlen(arg) - 1] == ',' || strstr(arg, ",,"))
		DLB_USER_FAIL(DLB_E_USAGE, "--devices '%s': give 'all' or GPU ordinals separated by commas, e.g. 0,2,3", arg);
	snprintf(buf, sizeof buf, "%s", arg);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int d;
		if (c->ndevices == DLB_MAX_DEVICES)
			DLB_USER_FAIL(DLB_E_USAGE, "--devices '%s': at most %d GPUs", arg, DLB_MAX_DEVICES);
		DLB_CHECK(parse_int("--devices", t, 0, 1023, &d));
		for (int j = 0; j < c->ndevices; j++)
			if (c->devices[j] == d)
				DLB_USER_FAIL(DLB_E_USAGE, "--devices '%s': GPU %d is named twice", arg, d);
		c->devices[c->ndevices++] = d;
	}
fail:
	return rc;
}

static int parse_double(const char *opt, const char *s, double lo, double hi, double *out)
{
	int rc = 0;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (!*s || *end || errno || !(v >= lo && v <= hi))
		DLB_USER_FAIL(DLB_E_USAGE, "%s '%s': expected a number in %g..%g", opt, s, lo, hi);
	*out = v;
fail:
	return rc;
}

const char *dlb_cli_only(const struct dlb_cli *c, const struct dlb_op *op)
{
	if (c->fp32_ffma && op->prec == DLB_PREC_FP32 && dlb_op_has_non_ffma(op))
		return DLB_ONLY_FFMA;
	return c->only;
}

int dlb_cli_op(const char *name, enum dlb_prec prec, const struct dlb_op **out)
{
	int rc = 0;
	char precs[64];
	const struct dlb_op *op = dlb_op_find(name, prec);
	if (!op && !dlb_op_known(name)) {
		char ops[128];
		dlb_op_names(ops, sizeof ops);
		DLB_USER_FAIL(DLB_E_USAGE, "unknown op '%s' (known: %s)", name, ops);
	}
	if (!op) {
		dlb_op_precs(name, precs, sizeof precs);
		DLB_USER_FAIL(DLB_E_USAGE, "%s has no %s kernels in this build (built: %s)", name, dlb_prec_name(prec), precs);
	}
	if (out)
		*out = op;
fail:
	return rc;
}

/* --prec P[,P...]: known names, each once, in the order given. */
static int parse_precs(const char *s, struct dlb_cli *c)
{
	int rc = 0;
	const char *p = s;
	c->nprecs = 0;
	for (;;) {
		int len = (int)strcspn(p, ",");
		char name[16];
		enum dlb_prec prec;
		if (len == 0)
			DLB_USER_FAIL(DLB_E_USAGE, "--prec '%s': an empty precision (a list is comma-separated: fp32,fp16)", s);
		snprintf(name, sizeof name, "%.*s", len, p);
		if (len >= (int)sizeof name || dlb_prec_parse(name, &prec))
			DLB_USER_FAIL(DLB_E_USAGE, "unknown precision '%.*s' (fp32, fp16, int8)", len, p);
		for (int i = 0; i < c->nprecs; i++)
			if (c->precs[i] == prec)
				DLB_USER_FAIL(DLB_E_USAGE, "--prec '%s': %s is given twice", s, name);
		c->precs[c->nprecs++] = prec; /* fits: each precision at most once */
		if (!p[len])
			break;
		p += len + 1;
	}
	c->prec = c->precs[0];
fail:
	return rc;
}

enum { O_SUITE = 256, O_LAYOUT, O_DEVICE, O_DB, O_RETUNE, O_CSV, O_JSON, O_ARCH, O_EMIT, O_EVERY, O_SAMPLES, O_PREC,
       O_OP, O_FORMAT, O_STALE, O_ANY, O_DRY, O_STRATEGY, O_BUDGET, O_SEED, O_CONFIDENCE, O_PRECISION, O_MIN_SAMPLES,
       O_MAX_SAMPLES, O_FIXED, O_SEEDS, O_TRIALS, O_FROM_DB, O_CANDIDATES, O_NOISE, O_OUTLIERS, O_WINDOW, O_MIN_SEARCH,
       O_PAIRED, O_POWER_MS, O_BATCH, O_SUITE_OUT, O_NO_CACHE, O_ONLY, O_OUT, O_COMPARE, O_COMPARE_DEVICE, O_DEVICES, O_SHARD, O_PER_GPU, O_FP32_MATH, O_DIM /* O_DIM + i: the i-th distinct dim name of the families */ };

static const struct {
	const char *word, *sub;
	enum dlb_command cmd;
	int nargs; /* operands: 0, 1, -1 for "0 or 1", -2 for "1 or more" */
} commands[] = {
	{"tune", NULL, DLB_CMD_TUNE, 0},         {"compile", NULL, DLB_CMD_COMPILE, 0},
	{"space", NULL, DLB_CMD_SPACE, 0},       {"devices", NULL, DLB_CMD_DEVICES, 0},
	{"db", "stats", DLB_CMD_DB_STATS, 0},
	{"db", "list", DLB_CMD_DB_LIST, 0},      {"db", "show", DLB_CMD_DB_SHOW, -1},
	{"db", "verify", DLB_CMD_DB_VERIFY, 0},  {"db", "gc", DLB_CMD_DB_GC, 0},
	{"db", "migrate", DLB_CMD_DB_MIGRATE, 0},  {"db", "salvage", DLB_CMD_DB_SALVAGE, 1},
	{"export", NULL, DLB_CMD_EXPORT, 0},     {"report", NULL, DLB_CMD_REPORT, 0},
	{"import", NULL, DLB_CMD_IMPORT, 1},
	{"merge", NULL, DLB_CMD_MERGE, 1},       {"lookup", NULL, DLB_CMD_LOOKUP, 0},
	{"simulate", NULL, DLB_CMD_SIMULATE, 0}, {"model", NULL, DLB_CMD_MODEL, -2},
	{"help", NULL, DLB_CMD_HELP, 0},
};

static const struct option fixed_options[] = {
	{"op", required_argument, 0, O_OP},         {"prec", required_argument, 0, O_PREC},
	{"layout", required_argument, 0, O_LAYOUT}, {"suite", required_argument, 0, O_SUITE},
	{"device", required_argument, 0, O_DEVICE}, {"db", required_argument, 0, O_DB},
	{"retune", no_argument, 0, O_RETUNE},       {"csv", no_argument, 0, O_CSV},
	{"json", no_argument, 0, O_JSON},           {"arch", required_argument, 0, O_ARCH},
	{"emit", required_argument, 0, O_EMIT},     {"every", required_argument, 0, O_EVERY},
	{"out", required_argument, 0, O_OUT},       {"compare", required_argument, 0, O_COMPARE},
	{"compare-device", required_argument, 0, O_COMPARE_DEVICE},
	{"no-cache", no_argument, 0, O_NO_CACHE},   {"only", required_argument, 0, O_ONLY},
	{"devices", required_argument, 0, O_DEVICES}, {"shard", required_argument, 0, O_SHARD},
	{"per-gpu", no_argument, 0, O_PER_GPU},       {"fp32-math", required_argument, 0, O_FP32_MATH},
	{"samples", required_argument, 0, O_SAMPLES}, {"paired", required_argument, 0, O_PAIRED},
	{"power-ms", required_argument, 0, O_POWER_MS}, {"batch", required_argument, 0, O_BATCH},
	{"suite-out", required_argument, 0, O_SUITE_OUT},
	{"strategy", required_argument, 0, O_STRATEGY},
	{"budget", required_argument, 0, O_BUDGET}, {"seed", required_argument, 0, O_SEED},
	{"confidence", required_argument, 0, O_CONFIDENCE}, {"precision", required_argument, 0, O_PRECISION},
	{"min-samples", required_argument, 0, O_MIN_SAMPLES}, {"max-samples", required_argument, 0, O_MAX_SAMPLES},
	{"fixed-samples", required_argument, 0, O_FIXED}, {"seeds", required_argument, 0, O_SEEDS},
	{"trials", required_argument, 0, O_TRIALS}, {"from-db", no_argument, 0, O_FROM_DB},
	{"candidates", required_argument, 0, O_CANDIDATES}, {"noise", required_argument, 0, O_NOISE},
	{"outliers", required_argument, 0, O_OUTLIERS}, {"window", required_argument, 0, O_WINDOW},
	{"min-search", required_argument, 0, O_MIN_SEARCH},
	{"format", required_argument, 0, O_FORMAT}, {"stale", no_argument, 0, O_STALE},
	{"any-version", no_argument, 0, O_ANY},     {"dry-run", no_argument, 0, O_DRY},
	{"verbose", no_argument, 0, 'v'},           {"help", no_argument, 0, 'h'},
	{"version", no_argument, 0, 'V'},
};
#define NFIXED (int)(sizeof fixed_options / sizeof fixed_options[0])
#define MAX_DIM_NAMES 64

/* The option table: the fixed options, then one per distinct dim name of the families (--m, --w, ...). */
static void build_options(struct option *opts, const char **dim_names, int *ndim_names)
{
	const struct dlb_family *f;
	int n = NFIXED;
	memcpy(opts, fixed_options, sizeof fixed_options);
	*ndim_names = 0;
	for (int i = 0; (f = dlb_family_at(i)) != NULL; i++)
		for (int d = 0; d < f->ndims + f->noptions && *ndim_names < MAX_DIM_NAMES; d++) {
			const char *name = d < f->ndims ? f->dims[d].name : f->options[d - f->ndims].name;
			int seen = 0;
			for (int j = 0; j < n; j++)
				seen |= !strcmp(opts[j].name, name);
			if (seen)
				continue;
			dim_names[*ndim_names] = name;
			opts[n++] = (struct option){name, required_argument, 0, O_DIM + (*ndim_names)++};
		}
	opts[n] = (struct option){0, 0, 0, 0};
}

/* The command words before the options: argv[1] and perhaps argv[2] ("db list"). *first: where options start. */
static int parse_command(int argc, char **argv, struct dlb_cli *c, int *first, int *nargs)
{
	int rc = 0;
	*first = 1;
	*nargs = 0;
	if (argc < 2 || argv[1][0] == '-')
		return 0;
	const char *w = argv[1], *sub = argc > 2 ? argv[2] : "";
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		if (strcmp(w, commands[i].word) || (commands[i].sub && strcmp(sub, commands[i].sub)))
			continue;
		c->cmd = commands[i].cmd;
		*nargs = commands[i].nargs;
		*first += commands[i].sub ? 2 : 1;
		return 0;
	}
	if (!strcmp(w, "db"))
		DLB_USER_FAIL(DLB_E_USAGE, "db: expected a subcommand: stats, list, show, verify, gc, migrate, salvage");
	DLB_USER_FAIL(DLB_E_USAGE,
		      "unknown command '%s' (tune, compile, space, devices, lookup, export, import, merge, db, "
		      "simulate; see --help)",
		      w);
fail:
	return rc;
}

static int parse_budget(const char *s, struct dlb_cli *c)
{
	int rc = 0;
	size_t len = strlen(s);
	if (len > 1 && s[len - 1] == 's') {
		char num[32];
		snprintf(num, sizeof num, "%.*s", (int)(len - 1), s);
		if (parse_double("--budget", num, 0.001, 1e7, &c->budget_s))
			DLB_USER_FAIL(DLB_E_USAGE, "--budget '%s': expected candidates (e.g. 40) or seconds (e.g. 90s)", s);
	} else if (parse_int("--budget", s, 1, 100000000, &c->budget)) {
		DLB_USER_FAIL(DLB_E_USAGE, "--budget '%s': expected candidates (e.g. 40) or seconds (e.g. 90s)", s);
	}
fail:
	return rc;
}

/* The options of the search (tune and simulate); 1 when ch is not one of them. */
static int search_option(int ch, const char *arg, struct dlb_cli *c, int *rc)
{
	switch (ch) {
	case O_STRATEGY: {
		enum dlb_strategy st;
		if (dlb_strategy_parse(arg, &st)) {
			dlb_set_error(NULL, 0, "--strategy '%s': expected exhaustive, random, anneal or model", arg);
			*rc = DLB_E_USAGE;
		}
		c->strategy = arg;
		break;
	}
	case O_BUDGET:
		*rc = parse_budget(arg, c);
		break;
	case O_SEED: {
		char *end;
		errno = 0;
		c->seed = strtoll(arg, &end, 10);
		if (!*arg || *end || errno || c->seed < 0) {
			dlb_set_error(NULL, 0, "--seed '%s': expected a non-negative integer", arg);
			*rc = DLB_E_USAGE;
		}
		break;
	}
	case O_CONFIDENCE:
		*rc = parse_double("--confidence", arg, 0.5, 0.9999, &c->confidence);
		break;
	case O_PRECISION:
		*rc = parse_double("--precision", arg, 0.0001, 0.5, &c->precision);
		break;
	case O_MIN_SAMPLES:
		*rc = parse_int("--min-samples", arg, 2, 1000, &c->min_samples);
		break;
	case O_MAX_SAMPLES:
		*rc = parse_int("--max-samples", arg, 2, 10000, &c->max_samples);
		break;
	case O_FIXED:
		*rc = parse_int("--fixed-samples", arg, 1, 10000, &c->fixed_samples);
		break;
	case O_SEEDS:
		*rc = parse_int("--seeds", arg, 0, 16, &c->seeds);
		break;
	case O_WINDOW:
		*rc = parse_int("--window", arg, 1, 100000, &c->window);
		break;
	case O_MIN_SEARCH:
		*rc = parse_double("--min-search", arg, 0, 1e6, &c->min_search_s);
		break;
	default:
		return 1;
	}
	c->have_search = 1;
	return 0;
}

/* The options of simulate; 1 when ch is not one of them. */
static int sim_option(int ch, const char *arg, struct dlb_cli *c, int *rc)
{
	switch (ch) {
	case O_TRIALS:
		*rc = parse_int("--trials", arg, 1, 1000000, &c->trials);
		break;
	case O_FROM_DB:
		c->from_db = 1;
		break;
	case O_CANDIDATES:
		*rc = parse_int("--candidates", arg, 8, 100000, &c->candidates);
		c->have_synthetic = 1;
		break;
	case O_NOISE:
		*rc = parse_double("--noise", arg, 0, 1, &c->noise);
		c->have_synthetic = 1;
		break;
	case O_OUTLIERS:
		*rc = parse_double("--outliers", arg, 0, 0.5, &c->outliers);
		c->have_synthetic = 1;
		break;
	default:
		return 1;
	}
	c->have_sim = 1;
	return 0;
}

/* Every other option of one getopt step. */
static int apply_option(int ch, const char *arg, struct dlb_cli *c, const char **dim_names, int ndim_names)
{
	int rc = 0;
	if (!search_option(ch, arg, c, &rc) || !sim_option(ch, arg, c, &rc))
		return rc;
	if (ch >= O_DIM && ch < O_DIM + ndim_names) { /* resolved once --op is known */
		if (c->ndim_args == (int)(sizeof c->dim_args / sizeof c->dim_args[0]))
			DLB_USER_FAIL(DLB_E_USAGE, "too many problem options");
		c->dim_args[c->ndim_args++] = (struct dlb_dim_arg){dim_names[ch - O_DIM], arg};
		return 0;
	}
	switch (ch) {
	case O_OP:
		if (!dlb_op_known(arg)) {
			char ops[128];
			dlb_op_names(ops, sizeof ops);
			DLB_USER_FAIL(DLB_E_USAGE, "unknown op '%s' (known: %s)", arg, ops);
		}
		c->op = arg;
		c->have_op = 1;
		break;
	case O_PREC:
		DLB_CHECK(parse_precs(arg, c));
		c->have_prec = 1;
		break;
	case O_LAYOUT:
		c->layout = arg;
		break;
	case O_SUITE:
		c->suite = arg;
		break;
	case O_DEVICE:
		if (!*arg)
			DLB_USER_FAIL(DLB_E_USAGE, "--device: empty value");
		c->device_str = arg;
		break;
	case O_DB:
		if (!*arg)
			DLB_USER_FAIL(DLB_E_USAGE, "--db: empty path");
		c->db = arg;
		break;
	case O_RETUNE:
		c->retune = 1;
		break;
	case O_NO_CACHE:
		c->no_cache = 1;
		break;
	case O_CSV:
		c->csv = 1;
		break;
	case O_JSON:
		c->json = 1;
		break;
	case O_ARCH: {
		/* sm_ and 2 or 3 digits, then at most an 'a' or 'f' (the arch- and family-specific targets) */
		size_t nd = strspn(arg + (strncmp(arg, "sm_", 3) ? 0 : 3), "0123456789");
		const char *tail = arg + 3 + nd;
		if (strncmp(arg, "sm_", 3) || nd < 2 || nd > 3 || (*tail && (strchr("af", *tail) == NULL || tail[1])))
			DLB_USER_FAIL(DLB_E_USAGE, "--arch '%s': expected sm_NN or sm_NNa (e.g. sm_90a)", arg);
		int sm = atoi(arg + 3), lo, hi;
		if (sm < 80)
			DLB_USER_FAIL(DLB_E_USAGE, "--arch %s: dlbtune's kernels need sm_80 or newer (cp.async, mma.sync)", arg);
		if (!dlb_jit_arch_supported(sm, &lo, &hi))
			DLB_USER_FAIL(DLB_E_USAGE, "--arch %s: this NVRTC does not compile for sm_%d (it knows sm_%d to sm_%d)",
				      arg, sm, lo, hi);
		c->arch = arg;
		c->have_arch = 1;
		break;
	}
	case O_EMIT:
		c->emit = arg;
		break;
	case O_OUT:
		c->out = arg;
		break;
	case O_COMPARE:
		c->compare = arg;
		break;
	case O_COMPARE_DEVICE:
		if (!*arg)
			DLB_USER_FAIL(DLB_E_USAGE, "--compare-device: empty value");
		c->compare_device = arg;
		break;
	case O_EVERY:
		DLB_CHECK(parse_int("--every", arg, 1, 1000000, &c->every));
		break;
	case O_DEVICES:
		DLB_CHECK(parse_devices(arg, c));
		break;
	case O_PER_GPU:
		c->per_gpu = 1;
		break;
	case O_FP32_MATH:
		if (strcmp(arg, "any") && strcmp(arg, "ffma"))
			DLB_USER_FAIL(DLB_E_USAGE, "--fp32-math '%s': give any (every fp32 kernel family) or ffma (classic "
						   "fp32 arithmetic on the CUDA cores only)", arg);
		c->fp32_ffma = !strcmp(arg, "ffma");
		break;
	case O_SHARD:
		DLB_CHECK(dlb_shard_parse(arg, &c->shard));
		break;
	case O_ONLY:
		if (!*arg || strlen(arg) > 1000 || *arg == '|' || arg[strlen(arg) - 1] == '|' || strstr(arg, "||"))
			DLB_USER_FAIL(DLB_E_USAGE, "--only '%s': give a configuration's text or pieces of it separated by "
						   "'|', none empty, e.g. --only 'KIND=2' (at most 1000 characters)",
				      arg);
		c->only = arg;
		break;
	case O_SAMPLES:
		DLB_CHECK(parse_int("--samples", arg, 3, 10000, &c->samples));
		break;
	case O_PAIRED:
		DLB_CHECK(parse_int("--paired", arg, 0, DLB_PAIRED_MAX, &c->paired));
		c->have_paired = 1;
		break;
	case O_SUITE_OUT:
		c->suite_out = arg;
		break;
	case O_BATCH: {
		int b;
		DLB_CHECK(parse_int("--batch", arg, 1, 1 << 20, &b));
		c->batch = b;
		break;
	}
	case O_POWER_MS:
		DLB_CHECK(parse_double("--power-ms", arg, 0, 60000, &c->power_ms));
		c->have_paired = 1;
		break;
	case O_FORMAT:
		c->format = arg;
		break;
	case O_STALE:
		c->stale = 1;
		break;
	case O_ANY:
		c->any_version = 1;
		break;
	case O_DRY:
		c->dry_run = 1;
		break;
	case 'v':
		c->verbose++;
		break;
	case 'h':
		c->cmd = DLB_CMD_HELP;
		break;
	case 'V':
		c->cmd = DLB_CMD_VERSION;
		break;
	}
fail:
	return rc;
}

/* "--m, --n and --k": the options of the family's dims without a default. */
static void required_list(const struct dlb_family *f, char *buf, int len)
{
	int n = 0, seen = 0, off = 0;
	for (int d = 0; d < f->ndims; d++)
		n += !f->dims[d].has_default;
	buf[0] = 0;
	for (int d = 0; d < f->ndims && off < len; d++)
		if (!f->dims[d].has_default) {
			seen++;
			off += snprintf(buf + off, (size_t)(len - off), "%s--%s", seen == 1 ? "" : seen == n ? " and " : ", ",
					f->dims[d].name);
		}
}

/* f's option named name (not a dim), or NULL. */
static const struct dlb_family_option *family_option(const struct dlb_family *f, const char *name)
{
	for (int i = 0; i < f->noptions; i++)
		if (!strcmp(f->options[i].name, name))
			return &f->options[i];
	return NULL;
}

#define MAX_SWEEP 10000

/* --NAME FROM:TO:STEP: each part a value of the dim (STEP in its units too, above 0), FROM <= TO, at most
 * MAX_SWEEP values, one sweep, for the commands that run problems. */
static int parse_sweep(struct dlb_cli *c, int d, const char *where, const char *value)
{
	int rc = 0;
	const struct dlb_dim *dim = &c->family->dims[d];
	char part[3][64];
	int64_t v[3];
	if (c->cmd != DLB_CMD_TUNE && c->cmd != DLB_CMD_COMPILE)
		DLB_USER_FAIL(DLB_E_USAGE, "%s '%s': a sweep (FROM:TO:STEP) is for tuning and compile only", where, value);
	if (c->sweep_dim >= 0 && c->sweep_dim != d)
		DLB_USER_FAIL(DLB_E_USAGE, "%s '%s': one sweep at a time (--%s is one already)", where, value,
			      c->family->dims[c->sweep_dim].name);
	const char *a = value, *b = strchr(a, ':'), *e = b ? strchr(b + 1, ':') : NULL;
	if (!b || !e || strchr(e + 1, ':') || b - a >= 64 || e - b - 1 >= 64 || strlen(e + 1) >= 64)
		DLB_USER_FAIL(DLB_E_USAGE, "%s '%s': expected FROM:TO:STEP (e.g. 0.7:0.99:0.01)", where, value);
	snprintf(part[0], sizeof part[0], "%.*s", (int)(b - a), a);
	snprintf(part[1], sizeof part[1], "%.*s", (int)(e - b - 1), b + 1);
	snprintf(part[2], sizeof part[2], "%s", e + 1);
	for (int i = 0; i < 3; i++) {
		char w[96];
		snprintf(w, sizeof w, "%s's %s", where, i == 0 ? "FROM" : i == 1 ? "TO" : "STEP");
		DLB_CHECK(dlb_dim_parse(dim, w, part[i], &v[i]));
	}
	if (v[2] <= 0 || v[0] > v[1])
		DLB_USER_FAIL(DLB_E_USAGE, "%s '%s': expected FROM <= TO and a STEP above 0", where, value);
	if ((v[1] - v[0]) / v[2] + 1 > MAX_SWEEP)
		DLB_USER_FAIL(DLB_E_USAGE, "%s '%s': %lld values, at most %d", where, value,
			      (long long)((v[1] - v[0]) / v[2] + 1), MAX_SWEEP);
	c->sweep_dim = d;
	c->dim[d] = v[0];
	c->sweep_to = v[1];
	c->sweep_step = v[2];
fail:
	return rc;
}

int dlb_cli_sweep_count(const struct dlb_cli *c)
{
	return c->sweep_dim < 0 ? 1 : (int)((c->sweep_to - c->dim[c->sweep_dim]) / c->sweep_step + 1);
}

void dlb_cli_sweep_problem(const struct dlb_cli *c, const struct dlb_op *op, int i, struct dlb_problem *p)
{
	dlb_cli_problem(c, op, p);
	if (c->sweep_dim >= 0)
		p->dim[c->sweep_dim] += (int64_t)i * c->sweep_step;
}

/* The problem options, checked against --op's dims: values, defaults, the layout, whether one problem is
 * given whole. */
static int resolve_problem(struct dlb_cli *c)
{
	int rc = 0, nreq = 0, got_req = 0;
	const struct dlb_family *f = c->family = dlb_family_find(c->op);
	char list[256];
	for (int d = 0; d < f->ndims; d++) {
		c->dim[d] = f->dims[d].has_default ? f->dims[d].def : 0;
		nreq += !f->dims[d].has_default;
	}
	for (int i = 0; i < c->ndim_args; i++) {
		const struct dlb_dim_arg *a = &c->dim_args[i];
		int d = dlb_family_dim(f, a->name);
		char where[64];
		if (d < 0 && family_option(f, a->name))
			continue; /* after the dims */
		if (d < 0) {
			int off = 0;
			for (int j = 0; j < f->ndims && off < (int)sizeof list; j++)
				off += snprintf(list + off, sizeof list - (size_t)off, "%s--%s", j ? " " : "", f->dims[j].name);
			DLB_USER_FAIL(DLB_E_USAGE, "--%s is not a dimension of %s (its problem options: %s)", a->name, f->name,
				      list);
		}
		snprintf(where, sizeof where, "--%s", a->name);
		if (strchr(a->value, ':') && f->dims[d].kind != DLB_DIM_CHOICE) /* choice names may hold ':' */
			DLB_CHECK(parse_sweep(c, d, where, a->value));
		else
			DLB_CHECK(dlb_dim_parse(&f->dims[d], where, a->value, &c->dim[d]));
		if (f->dims[d].kind == DLB_DIM_CHOICE)
			c->have_layout = 1;
		else
			c->have_dims = 1;
		got_req += !f->dims[d].has_default && !c->dim_given[d];
		c->dim_given[d] = 1;
	}
	for (int i = 0; i < c->ndim_args; i++) { /* the family's own options: they decide some dims */
		const struct dlb_family_option *fo = family_option(f, c->dim_args[i].name);
		int given[DLB_MAX_DIMS] = {0};
		if (!fo)
			continue;
		if (c->cmd != DLB_CMD_TUNE && c->cmd != DLB_CMD_COMPILE && c->cmd != DLB_CMD_LOOKUP &&
		    c->cmd != DLB_CMD_DB_SHOW)
			DLB_USER_FAIL(DLB_E_USAGE, "--%s gives a problem: for tuning, compile, lookup and db show", fo->name);
		DLB_CHECK(fo->set(c->dim_args[i].value, c->dim, given));
		for (int d = 0; d < f->ndims; d++)
			if (given[d]) {
				if (c->dim_given[d] || (c->sweep_dim == d))
					DLB_USER_FAIL(DLB_E_USAGE, "--%s and --%s: the %s decides %s", f->dims[d].name, fo->name,
						      fo->arg, f->dims[d].title);
				got_req += !f->dims[d].has_default;
				c->dim_given[d] = 1;
				if (f->dims[d].kind == DLB_DIM_CHOICE)
					c->have_layout = 1;
				else
					c->have_dims = 1;
			}
	}
	if (c->layout && c->cmd != DLB_CMD_MODEL) { /* model: every family that has it (src/modelcmd.c) */
		if (dlb_layout_parse(f, c->layout, c->dim)) {
			dlb_layout_names(f, list, sizeof list);
			DLB_USER_FAIL(DLB_E_USAGE, "unknown layout '%s' for %s (%s)", c->layout, f->name,
				      *list ? list : "it has no layouts");
		}
		c->have_layout = 1;
	}
	required_list(f, list, sizeof list);
	if (c->cmd == DLB_CMD_LOOKUP && got_req < nreq)
		DLB_USER_FAIL(DLB_E_USAGE, "lookup needs the problem: %s (and --prec, --layout)", list);
	if (got_req > 0) {
		if (got_req < nreq) {
			char missing[256];
			int off = 0;
			missing[0] = 0;
			for (int d = 0; d < f->ndims && off < (int)sizeof missing; d++)
				if (!f->dims[d].has_default && !c->dim_given[d])
					off += snprintf(missing + off, sizeof missing - (size_t)off, "%s--%s", off ? " " : "",
							f->dims[d].name);
			DLB_USER_FAIL(DLB_E_USAGE, "one problem needs all of %s (missing: %s)", list, missing);
		}
		if (c->suite)
			DLB_USER_FAIL(DLB_E_USAGE, "give either --suite or the problem (%s), not both", list);
	}
	c->have_shape = nreq > 0 && got_req == nreq;
	if (c->sweep_dim >= 0 && !c->have_shape)
		DLB_USER_FAIL(DLB_E_USAGE, "a sweep (--%s FROM:TO:STEP) needs the rest of the problem: %s",
			      f->dims[c->sweep_dim].name, list);
	char why[256];
	for (int i = 0; c->have_shape && f->check && i < dlb_cli_sweep_count(c); i++) {
		int64_t dim[DLB_MAX_DIMS];
		memcpy(dim, c->dim, sizeof dim);
		if (c->sweep_dim >= 0)
			dim[c->sweep_dim] += i * c->sweep_step;
		if (f->check(dim, why, sizeof why))
			DLB_USER_FAIL(DLB_E_USAGE, "%s", why);
	}
fail:
	return rc;
}

void dlb_cli_problem(const struct dlb_cli *c, const struct dlb_op *op, struct dlb_problem *p)
{
	memset(p, 0, sizeof *p);
	p->op = op;
	p->prec = op->prec;
	memcpy(p->dim, c->dim, sizeof p->dim);
}

/* Options that go with some commands only, and pairs that exclude each other. */
static int check_combinations(struct dlb_cli *c)
{
	int rc = 0;
	int tune_cmd = c->cmd == DLB_CMD_TUNE || (c->cmd == DLB_CMD_MODEL && !c->dry_run); /* model tunes its layers */
	int gpu_cmd = tune_cmd || c->cmd == DLB_CMD_COMPILE || c->cmd == DLB_CMD_DEVICES;
	if (c->device_str && gpu_cmd)
		DLB_CHECK(parse_int("--device", c->device_str, 0, 1023, &c->device));
	int list_cmd = c->cmd == DLB_CMD_TUNE || c->cmd == DLB_CMD_COMPILE;
	if (c->nprecs > 1 && !list_cmd)
		DLB_USER_FAIL(DLB_E_USAGE, "--prec: a list of precisions goes with tune and compile; this command takes one");
	/* every precision is refused up front, before any of them runs */
	if (list_cmd || c->cmd == DLB_CMD_SPACE)
		for (int i = 0; i < c->nprecs; i++)
			DLB_CHECK(dlb_cli_op(c->op, c->precs[i], NULL));
	if (c->cmd == DLB_CMD_EXPORT) {
		if (!c->format)
			DLB_USER_FAIL(DLB_E_USAGE, "export needs --format csv, json, md or h");
		if (strcmp(c->format, "csv") && strcmp(c->format, "json") && strcmp(c->format, "md") &&
		    strcmp(c->format, "h"))
			DLB_USER_FAIL(DLB_E_USAGE, "--format '%s': expected csv, json, md or h", c->format);
	} else if (c->format) {
		DLB_USER_FAIL(DLB_E_USAGE, "--format goes with the export command");
	}
	if (c->cmd == DLB_CMD_REPORT && (!c->out || !*c->out))
		DLB_USER_FAIL(DLB_E_USAGE, "report needs --out DIR (the directory for index.html, report.md and the plots)");
	if (c->out && c->cmd != DLB_CMD_REPORT)
		DLB_USER_FAIL(DLB_E_USAGE, "--out goes with the report command");
	if (c->compare && c->cmd != DLB_CMD_REPORT)
		DLB_USER_FAIL(DLB_E_USAGE, "--compare goes with the report command");
	if (c->compare_device && c->cmd != DLB_CMD_REPORT)
		DLB_USER_FAIL(DLB_E_USAGE, "--compare-device goes with the report command");
	if (c->compare_device && c->compare)
		DLB_USER_FAIL(DLB_E_USAGE, "choose one of --compare (another database) and --compare-device (other GPUs of "
					   "this one)");
	if (c->compare_device && !c->device_str)
		DLB_USER_FAIL(DLB_E_USAGE, "--compare-device %s: give the GPUs to compare them with as --device (a name or "
					   "UUID filter, as for export)",
			      c->compare_device);
	if (c->stale && c->any_version)
		DLB_USER_FAIL(DLB_E_USAGE, "choose one of --stale and --any-version");
	if (c->stale && c->cmd != DLB_CMD_DB_LIST && c->cmd != DLB_CMD_EXPORT)
		DLB_USER_FAIL(DLB_E_USAGE, "--stale goes with db list and export");
	if (c->any_version && c->cmd != DLB_CMD_DB_LIST && c->cmd != DLB_CMD_EXPORT && c->cmd != DLB_CMD_LOOKUP &&
	    c->cmd != DLB_CMD_SIMULATE && c->cmd != DLB_CMD_REPORT && c->cmd != DLB_CMD_MODEL)
		DLB_USER_FAIL(DLB_E_USAGE,
			      "--any-version goes with db list, export, report, lookup, model and simulate --from-db");
	if ((c->batch || c->suite_out) && c->cmd != DLB_CMD_MODEL)
		DLB_USER_FAIL(DLB_E_USAGE, "--batch and --suite-out go with model");
	if (c->dry_run && c->cmd != DLB_CMD_DB_GC && c->cmd != DLB_CMD_TUNE && c->cmd != DLB_CMD_MODEL)
		DLB_USER_FAIL(DLB_E_USAGE, "--dry-run goes with tune, model and db gc");
	DLB_CHECK(resolve_problem(c));
	if (c->csv && c->json)
		DLB_USER_FAIL(DLB_E_USAGE, "choose one of --csv and --json");
	if (c->emit && c->cmd != DLB_CMD_COMPILE)
		DLB_USER_FAIL(DLB_E_USAGE, "--emit goes with the compile command");
	if (c->no_cache && c->cmd != DLB_CMD_COMPILE && !tune_cmd)
		DLB_USER_FAIL(DLB_E_USAGE, "--no-cache goes with tune, model and compile (the commands that compile kernels)");
	if (c->have_arch && c->cmd != DLB_CMD_COMPILE && c->cmd != DLB_CMD_SPACE)
		DLB_USER_FAIL(DLB_E_USAGE, "--arch goes with compile and space (tune compiles for the GPU it runs on)");
	if (c->every != 1 && c->cmd != DLB_CMD_COMPILE)
		DLB_USER_FAIL(DLB_E_USAGE, "--every goes with the compile command");
	int only_cmd = c->cmd == DLB_CMD_COMPILE || c->cmd == DLB_CMD_TUNE || c->cmd == DLB_CMD_EXPORT ||
		       c->cmd == DLB_CMD_LOOKUP || c->cmd == DLB_CMD_REPORT || c->cmd == DLB_CMD_DB_LIST ||
		       c->cmd == DLB_CMD_DB_SHOW;
	if (c->only && !only_cmd)
		DLB_USER_FAIL(DLB_E_USAGE, "--only goes with tune, compile, export, lookup, report, db list and db show");
	if (c->fp32_ffma && !only_cmd)
		DLB_USER_FAIL(DLB_E_USAGE, "--fp32-math goes with tune, compile, export, lookup, report, db list and db show");
	if (c->fp32_ffma && c->only)
		DLB_USER_FAIL(DLB_E_USAGE, "choose one of --fp32-math ffma and --only (ffma is --only '" DLB_ONLY_FFMA
					   "' where it restricts anything)");
	if (c->shard.count && c->cmd != DLB_CMD_TUNE && c->cmd != DLB_CMD_COMPILE)
		DLB_USER_FAIL(DLB_E_USAGE, "--shard goes with tune and compile");
	if (c->shard.count && c->have_shape && dlb_cli_sweep_count(c) == 1)
		DLB_USER_FAIL(DLB_E_USAGE, "--shard splits a suite or a sweep; one problem has nothing to split");
	/* a scheduler's part (a Slurm array task, an MPI rank) when --shard does not say */
	if (!c->shard.count && (c->cmd == DLB_CMD_TUNE || c->cmd == DLB_CMD_COMPILE) && !(c->have_shape && dlb_cli_sweep_count(c) == 1))
		if ((rc = dlb_shard_from_env(&c->shard)) == 1)
			rc = 0;
	DLB_CHECK(rc);
	if (c->per_gpu && !tune_cmd)
		DLB_USER_FAIL(DLB_E_USAGE, "--per-gpu goes with tune and model");
	if (c->devices_str && !tune_cmd)
		DLB_USER_FAIL(DLB_E_USAGE, "--devices goes with tune and model (the other commands use one GPU: --device N)");
	if (c->devices_str && c->device_str)
		DLB_USER_FAIL(DLB_E_USAGE, "choose one of --device and --devices");
	if (c->have_search && !tune_cmd && c->cmd != DLB_CMD_SIMULATE)
		DLB_USER_FAIL(DLB_E_USAGE, "search options (--strategy, --budget, --seed, --confidence, --precision, "
					   "--min-samples, --max-samples, --fixed-samples, --seeds) go with tune, model and simulate");
	if (c->have_paired && !tune_cmd)
		DLB_USER_FAIL(DLB_E_USAGE, "--paired and --power-ms go with tune and model");
	if (c->min_samples > c->max_samples)
		DLB_USER_FAIL(DLB_E_USAGE, "--min-samples %d is more than --max-samples %d", c->min_samples, c->max_samples);
	if (c->have_sim && c->cmd != DLB_CMD_SIMULATE)
		DLB_USER_FAIL(DLB_E_USAGE, "--trials, --from-db, --candidates, --noise and --outliers go with simulate");
	if (c->from_db && c->have_synthetic)
		DLB_USER_FAIL(DLB_E_USAGE, "--from-db replays recorded landscapes: --candidates, --noise and --outliers "
					   "describe a synthetic one");
fail:
	return rc;
}

static void set_defaults(struct dlb_cli *c)
{
	memset(c, 0, sizeof *c);
	c->cmd = DLB_CMD_TUNE;
	c->op = dlb_family_at(0)->name; /* the first family registered */
	c->prec = c->precs[0] = DLB_PREC_FP32;
	c->nprecs = 1;
	c->arch = "sm_90a";
	c->every = 1;
	c->samples = 15;
	c->paired = 30;
	c->power_ms = 500;
	c->strategy = "model";
	c->seed = 1;
	c->confidence = 0.95;
	c->precision = 0.01;
	c->min_samples = 4;
	c->max_samples = 50;
	c->seeds = 3;
	c->min_search_s = -1; /* tune: DLB_MIN_SEARCH_S; simulate: none */
	c->trials = 100;
	c->candidates = 200;
	c->noise = 0.03;
	c->sweep_dim = -1;
}

int dlb_cli_parse(int argc, char **argv, struct dlb_cli *c)
{
	struct option longopts[NFIXED + MAX_DIM_NAMES + 1];
	const char *dim_names[MAX_DIM_NAMES];
	int rc = 0, first, nargs, ndim_names;
	set_defaults(c);
	build_options(longopts, dim_names, &ndim_names);
	DLB_CHECK(parse_command(argc, argv, c, &first, &nargs));
	/* Options start after the command words: getopt sees them as argv[1..]. optind = 0 makes glibc reset
	 * all of its state, so parsing twice in one process is safe. */
	int ac = argc - (first - 1);
	char **av = argv + (first - 1);
	optind = 0;
	opterr = 0;
	int ch;
	while ((ch = getopt_long(ac, av, ":vhV", longopts, NULL)) != -1) {
		if (ch == ':')
			DLB_USER_FAIL(DLB_E_USAGE, "option %s needs a value", av[optind - 1]);
		if (ch == '?') {
			if (optopt) /* an unknown letter, perhaps inside a group such as -xv */
				DLB_USER_FAIL(DLB_E_USAGE, "unknown option '-%c' (see --help)", optopt);
			DLB_USER_FAIL(DLB_E_USAGE, "unknown option '%s' (see --help)", av[optind - 1]);
		}
		DLB_CHECK(apply_option(ch, optarg, c, dim_names, ndim_names));
	}
	if (c->cmd == DLB_CMD_HELP || c->cmd == DLB_CMD_VERSION)
		return 0;
	if (nargs == -2) { /* every operand */
		c->files = av + optind;
		c->nfiles = ac - optind;
		optind = ac;
		if (c->nfiles < 1)
			DLB_USER_FAIL(DLB_E_USAGE, "model needs one or more ONNX files");
		c->arg = c->files[0];
	}
	if (nargs != 0 && optind < ac)
		c->arg = av[optind++];
	if (nargs == 1 && !c->arg)
		DLB_USER_FAIL(DLB_E_USAGE, "%s needs an operand: %s",
			      c->cmd == DLB_CMD_IMPORT ? "import" : c->cmd == DLB_CMD_MERGE ? "merge" : "db salvage",
			      c->cmd == DLB_CMD_IMPORT   ? "the JSON file to import"
			      : c->cmd == DLB_CMD_MERGE ? "the database directory to merge from"
							 : "the new directory to copy what can be read into");
	if (optind < ac)
		DLB_USER_FAIL(DLB_E_USAGE, "unexpected argument '%s' (see --help)", av[optind]);
	DLB_CHECK(check_combinations(c));
fail:
	return rc;
}
