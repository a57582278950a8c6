/* app: the commands and their exit codes — dlbtune's main, as a function, so that a program that registers
 * ops of its own (the tests' toy op) runs exactly the same commands. */
#include "app.h"

#include "../reports/table.h"
#include "../store/kcache.h"
#include "../store/store.h"
#include "cli.h"
#include "dbcmd.h"
#include "config.h"
#include "device.h"
#include "err.h"
#include "kernels.h"
#include "op.h"
#include "simulate.h"
#include "modelcmd.h"
#include "spacecmd.h"
#include "suite.h"
#include "tune.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static int exit_code_for(int rc)
{
	switch (rc) {
	case 0:
		return DLB_EXIT_OK;
	case DLB_E_USAGE:
	case DLB_E_PARSE:
		return DLB_EXIT_USAGE;
	case DLB_E_NODRIVER:
	case DLB_E_NODEVICE:
		return DLB_EXIT_NOGPU;
	case DLB_E_INTERRUPTED:
		return DLB_EXIT_INTERRUPTED;
	case DLB_E_WRONG:
		return DLB_EXIT_UNVERIFIED;
	default:
		return DLB_EXIT_FAILURE;
	}
}

static int report(int rc)
{
	if (rc) {
		const char *detail = dlb_last_error();
		fprintf(stderr, "dlbtune: error: %s\n", *detail ? detail : dlb_strerror(rc));
		if (rc == DLB_E_NODRIVER || rc == DLB_E_NODEVICE)
			fprintf(stderr, "dlbtune: note: `dlbtune compile`, space, lookup, export, import, merge, db and --help work without a GPU\n");
	}
	return exit_code_for(rc);
}

static void on_signal(int sig)
{
	(void)sig;
	dlb_interrupted = 1;
}

static void print_version(void)
{
	struct dlb_versions v;
	dlb_versions_get(&v);
	printf("dlbtune %s\n", PACKAGE_VERSION);
	printf("CUDA runtime %d.%d (static)\n", v.runtime / 1000, (v.runtime % 1000) / 10);
	if (v.driver)
		printf("CUDA driver  %d.%d\n", v.driver / 1000, (v.driver % 1000) / 10);
	else
		printf("CUDA driver  none found\n");
	printf("NVRTC        %d.%d\n", v.nvrtc_major, v.nvrtc_minor);
	for (int i = 0; dlb_libs[i]; i++) {
		char ver[32];
		dlb_lib_version_text(dlb_libs[i], ver, sizeof ver);
		printf("%-12s %s\n", dlb_libs[i]->name, ver);
	}
}

static int cmd_devices(void)
{
	int rc = 0, n = 0;
	DLB_CHECK(dlb_device_count(&n));
	for (int i = 0; i < n; i++) {
		struct dlb_device d;
		char arch[16];
		DLB_CHECK(dlb_device_open(i, &d));
		dlb_device_arch(&d, arch, sizeof arch);
		printf("GPU %d: %s (%s), %s, %d SMs at %d MHz, %.1f GiB, L2 %zu MiB, smem/block %zu KiB (opt-in %zu KiB); "
		       "peaks:",
		       i, d.name, d.uuid, arch, d.sm_count, d.clock_khz / 1000, (double)d.total_mem / (1 << 30),
		       d.l2_bytes >> 20, d.smem_per_block >> 10, d.smem_per_block_optin >> 10);
		for (int p = 0; p < DLB_PREC_COUNT; p++) {
			char peak[32];
			dlb_fmt_num(peak, sizeof peak, dlb_device_peak_tflops(&d, (enum dlb_prec)p), "%.1f");
			printf("%s %s %s %s", p ? "," : "", dlb_prec_name((enum dlb_prec)p), peak,
			       dlb_prec_info((enum dlb_prec)p)->unit);
		}
		char gbs[32];
		printf(", memory %s GB/s\n", dlb_fmt_num(gbs, sizeof gbs, dlb_device_peak_gbs(&d), "%.0f"));
		dlb_device_close(&d);
	}
fail:
	return rc;
}

static int write_file(const char *dir, const char *name, const void *data, size_t len)
{
	int rc = 0;
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len)
		DLB_USER_FAIL(errno ? errno : EIO, "cannot write %s: %s", path, strerror(errno ? errno : EIO));
fail:
	if (f && fclose(f) && !rc)
		rc = EIO;
	return rc;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A file name from a candidate's text: "BM=64 BN=64" -> "BM-64_BN-64". */
static void candidate_file_base(const char *text, char *buf, size_t len)
{
	snprintf(buf, len, "%s", text);
	for (char *p = buf; *p; p++)
		if (*p == ' ' || *p == '=')
			*p = *p == ' ' ? '_' : '-';
}

/* Padded dims (int8: multiples of 4) must stay within the sizes their dims accept. */
static int check_padding(const struct dlb_suite *s)
{
	int rc = 0;
	for (int i = 0; i < s->n; i++) {
		const struct dlb_problem *p = &s->problems[i];
		const struct dlb_family *f = p->op->family;
		int64_t run[DLB_MAX_DIMS];
		char where[300] = "the command line", shape[200], shape_run[200];
		dlb_problem_padded(p, run);
		if (p->line)
			snprintf(where, sizeof where, "%s:%d", s->name, p->line);
		for (int d = 0; d < f->ndims; d++)
			if (f->dims[d].kind == DLB_DIM_SIZE && run[d] > f->dims[d].hi) {
				dlb_problem_shape(p, shape, sizeof shape);
				dlb_problem_shape_run(p, shape_run, sizeof shape_run);
				DLB_USER_FAIL(DLB_E_USAGE, "%s: %s pads %s to %s, past the largest %s %lld", where,
					      dlb_prec_name(p->prec), shape, shape_run, f->dims[d].title, (long long)f->dims[d].hi);
			}
	}
fail:
	return rc;
}

/* Everything the user typed about one precision, checked before the GPU is touched. */
static int load_problems(const struct dlb_cli *c, enum dlb_prec prec, struct dlb_run *pr)
{
	int rc = 0;
	pr->prec = prec;
	DLB_CHECK(dlb_cli_op(c->op, prec, &pr->op));
	if (c->have_shape) { /* one problem, or one per value of a sweep */
		int n = dlb_cli_sweep_count(c);
		pr->suite.problems = calloc((size_t)n, sizeof *pr->suite.problems);
		if (!pr->suite.problems)
			DLB_FAIL(ENOMEM, "out of memory");
		for (int i = 0; i < n; i++)
			dlb_cli_sweep_problem(c, pr->op, i, &pr->suite.problems[i]);
		pr->suite.n = n;
		snprintf(pr->suite.name, sizeof pr->suite.name, "command line");
	} else {
		DLB_CHECK(dlb_suite_load(c->suite ? c->suite : pr->op->family->default_suite, pr->op, prec, &pr->suite));
		/* --layout with a suite: every row in that layout (e.g. DeepBench's NCHW conv suites in NHWC) */
		for (int i = 0; c->layout && i < pr->suite.n; i++)
			if (dlb_layout_parse(pr->op->family, c->layout, pr->suite.problems[i].dim))
				DLB_USER_FAIL(DLB_E_USAGE, "unknown layout '%s' for %s", c->layout, pr->op->family->name);
	}
	if (c->shard.count > 1) {
		int all = pr->suite.n;
		double total = 0, part = 0;
		DLB_CHECK(dlb_shard_filter(&pr->suite, &c->shard, &total, &part));
		fprintf(stderr, "dlbtune: part %d of 0..%d (%s): %d of the %d problems of %s %s, %.1f%% of the estimated "
				"work\n", c->shard.index, c->shard.count - 1, c->shard.from, pr->suite.n, all,
			pr->op->name, dlb_prec_name(prec), total > 0 ? 100 * part / total : 0);
	}
	DLB_CHECK(check_padding(&pr->suite));
fail:
	return rc;
}

/* One precision's space, compiled for c->arch (or read from the kernel cache kc, which may be NULL); with
 * --emit, each candidate written to DIR/<prec>/. */
static int compile_prec(const struct dlb_cli *c, enum dlb_prec prec, struct dlb_store *kc)
{
	int rc = 0, failed = 0, limited = 0, left = 0;
	struct dlb_kernels *k = NULL;
	unsigned char *want = NULL; /* per candidate: compile it */
	struct dlb_limits lim;
	const struct dlb_op *op;
	char dir[4096];
	double t0 = now_s();
	DLB_CHECK(dlb_cli_op(c->op, prec, &op));
	dlb_limits_of(NULL, &lim);
	if (c->emit) {
		snprintf(dir, sizeof dir, "%s/%s", c->emit, dlb_prec_name(prec));
		if (mkdir(dir, 0755) && errno != EEXIST)
			DLB_USER_FAIL(errno, "cannot create %s: %s", dir, strerror(errno));
	}
	DLB_CHECK(dlb_kernels_open(op, c->arch, &lim, c->every, dlb_cli_only(c, op), kc, 0, c->verbose, &k));
	/* with a suite or a shape: only the candidates its problems run (each configuration in the source
	 * specialisation a problem needs) */
	unsigned char spec_used[64] = {0};
	int *ids = malloc((size_t)(k->n ? k->n : 1) * sizeof *ids), nids = 0;
	if (!(want = calloc((size_t)(k->n ? k->n : 1), 1)) || !ids) {
		free(ids);
		DLB_FAIL(ENOMEM, "out of memory");
	}
	if (c->suite || c->have_shape) {
		struct dlb_run pr = {0};
		rc = load_problems(c, prec, &pr);
		for (int i = 0; !rc && i < pr.suite.n; i++)
			for (int j = 0; j < k->nconf; j++)
				want[dlb_kernels_for(k, &pr.suite.problems[i], j)] = 1;
		dlb_suite_free(&pr.suite);
	} else { /* every candidate some problem may run */
		for (int i = 0; i < k->n; i++)
			want[i] = !op->spec_used || op->spec_used(op, i / k->nconf, k->cand[i].cfg.v);
	}
	for (int i = 0; i < k->n; i++)
		if (want[i]) {
			ids[nids++] = i;
			spec_used[i / k->nconf % 64] = 1;
		}
	if (!rc)
		rc = dlb_kernels_some(k, ids, nids);
	free(ids);
	if (rc == DLB_E_INTERRUPTED)
		DLB_USER_FAIL(rc, "interrupted while compiling; what was compiled is in the kernel cache");
	DLB_CHECK(rc);
	int nspec = 0;
	for (int s = 0; s < k->nspec; s++)
		nspec += spec_used[s % 64];
	for (int i = 0; i < k->n; i++) {
		struct dlb_candidate *x = &k->cand[i];
		char name[160];
		if (!want[i])
			continue;
		snprintf(name, sizeof name, "%s%s%s", x->text, k->nspec > 1 ? " " : "", dlb_kernels_spec_name(k, i));
		if (x->left_out) { /* not compiled: not over any limit either */
			left++;
			if (c->verbose)
				printf("%-40s left out (--only)\n", name);
			continue;
		}
		if (x->job.rc == DLB_E_LIMIT) {
			limited++;
			if (c->verbose)
				printf("%-40s resource_limit (over the device limits)\n", name);
			continue;
		}
		if (x->job.rc) {
			failed++;
			printf("%-40s compile_error\n%s\n", name, x->job.log ? x->job.log : dlb_last_error());
			continue;
		}
		if (c->verbose) {
			printf("%-40s %.2fs", name, x->job.seconds);
			for (int j = 0; j < x->job.nkernels; j++)
				printf("  %s: %d regs, %d B spill st/%d B ld, %d B stack, %d B smem", x->job.kernels[j].name,
				       x->job.kernels[j].registers, x->job.kernels[j].spill_stores,
				       x->job.kernels[j].spill_loads, x->job.kernels[j].stack_bytes,
				       x->job.kernels[j].smem_bytes);
			printf("\n");
		}
		if (c->emit) {
			char base[160], file[192], *src = dlb_kernels_source(k, i);
			if (!src)
				DLB_FAIL(ENOMEM, "out of memory");
			candidate_file_base(name, base, sizeof base);
			snprintf(file, sizeof file, "%s.cu", base);
			rc = write_file(dir, file, src, strlen(src));
			free(src);
			DLB_CHECK(rc);
			snprintf(file, sizeof file, "%s.%s.cubin", base, c->arch);
			DLB_CHECK(write_file(dir, file, x->job.cubin, x->job.cubin_size));
		}
	}
	/* where the candidates came from, then the line scripts read (tests/compile_all.sh): last */
	printf("%s %s: %d read from the kernel cache, %d compiled by NVRTC (%.1f s of NVRTC on %d threads)", op->name,
	       dlb_prec_name(prec), k->st.cached, k->st.compiled, k->st.nvrtc_s, k->server.threads);
	if (k->st.corrupt)
		printf(", %d damaged cache entries compiled again", k->st.corrupt);
	printf(", %.1f s\n", now_s() - t0);
	if (c->nprecs > 1)
		printf("%s %s: ", op->name, dlb_prec_name(prec));
	int ncounted = nids;
	char each[128] = ""; /* "as NN, NT, TN and TT" */
	for (int s = 0, shown = 0; k->nspec > 1 && s < k->nspec; s++)
		if (spec_used[s % 64])
			snprintf(each + strlen(each), sizeof each - strlen(each), "%s%s",
				 shown++ == 0 ? "as " : shown < nspec ? ", " : " and ", dlb_kernels_spec_name(k, s * k->nconf));
	if (c->every > 1)
		printf("compiled %d candidates (every %dth configuration%s%s) for %s, %d failed\n", ncounted - limited - left, c->every,
		       *each ? ", " : "", each, c->arch, failed);
	else
		printf("compiled %d candidates%s%s%s for %s, %d failed\n", ncounted - limited - left, *each ? " (" : "", each,
		       *each ? ")" : "", c->arch, failed);
fail:
	free(want);
	dlb_kernels_close(k);
	return rc;
}

/* The kernel cache of the database, or NULL (with a warning) when it cannot be used: compiling goes on. */
static struct dlb_store *open_kernel_cache(const struct dlb_cli *c)
{
	char path[4096];
	struct dlb_store *kc = NULL;
	if (c->no_cache)
		return NULL;
	if (dlb_db_path(c, path, sizeof path) || dlb_kcache_open(path, 0, &kc)) {
		fprintf(stderr, "dlbtune: warning: no kernel cache (%s); every candidate is compiled\n", dlb_last_error());
		return NULL;
	}
	return kc;
}

static int cmd_compile(const struct dlb_cli *c)
{
	int rc = 0;
	struct dlb_store *kc = NULL;
	if (c->emit && mkdir(c->emit, 0755) && errno != EEXIST)
		DLB_USER_FAIL(errno, "cannot create %s: %s", c->emit, strerror(errno));
	kc = open_kernel_cache(c);
	for (int i = 0; i < c->nprecs; i++)
		DLB_CHECK(compile_prec(c, c->precs[i], kc));
fail:
	dlb_store_close(kc);
	return rc;
}


/* Moves the rows worth printing (answered, measured or failed) to the front; their count. */
static int keep_shown(struct dlb_result *rows, int n)
{
	int shown = 0;
	for (int i = 0; i < n; i++)
		if (rows[i].cached || rows[i].nvendor || rows[i].failed)
			rows[shown++] = rows[i];
	return shown;
}

int dlb_tune_runs(const struct dlb_cli *c, struct dlb_run *runs, int nruns, int print_table, char *gpu_id, size_t len)
{
	int rc = 0, total = 0, shown = 0, first_failure = 0;
	struct dlb_device *devs = calloc(DLB_MAX_DEVICES, sizeof *devs);
	int ndev = 1, count = 0;
	size_t free_mem = 0;
	struct dlb_store *db = NULL, *kc = NULL;
	struct dlb_result *results = NULL;
	char path[4096], failed[128] = "", gpus[128] = "";
	if (!devs)
		DLB_FAIL(ENOMEM, "out of memory");
	for (int i = 0; i < nruns; i++)
		total += runs[i].suite.n;
	DLB_CHECK(dlb_db_path(c, path, sizeof path));
	/* The GPUs: --device N, or --devices (all, or a list); each is asked for its facts and free memory. */
	DLB_CHECK(dlb_tune_probe(c->ndevices ? c->devices[0] : c->device, runs[0].op, &devs[0], &free_mem, &count));
	if (c->devices_all)
		ndev = count < DLB_MAX_DEVICES ? count : DLB_MAX_DEVICES;
	else if (c->ndevices)
		ndev = c->ndevices;
	for (int g = 0; g < ndev; g++) {
		int ordinal = c->devices_all ? g : c->ndevices ? c->devices[g] : c->device;
		if (ordinal >= count)
			DLB_USER_FAIL(DLB_E_USAGE, "--devices: there is no GPU %d; this machine has %d (`dlbtune devices` "
						   "lists them)", ordinal, count);
		if (g > 0)
			DLB_CHECK(dlb_tune_probe(ordinal, runs[0].op, &devs[g], &free_mem, NULL));
		for (int i = 0; i < nruns; i++)
			DLB_CHECK(dlb_check_memory(&runs[i].suite, &devs[g], free_mem));
		snprintf(gpus + strlen(gpus), sizeof gpus - strlen(gpus), "%s%d", g ? "," : "", ordinal);
	}
	if (gpu_id)
		dlb_device_key_id(&devs[0], c->per_gpu, gpu_id, len);
	int same = 1; /* every GPU of one model */
	for (int g = 1; g < ndev; g++)
		same &= !strcmp(devs[g].name, devs[0].name);
	DLB_CHECK(dlb_store_open(path, DLB_STORE_CREATE, &db));
	results = calloc((size_t)(total ? total : 1), sizeof *results);
	if (!results)
		DLB_FAIL(ENOMEM, "out of memory");
	kc = open_kernel_cache(c);
	struct dlb_tune_opts o = {
		.retune = c->retune,
		.verbose = c->verbose,
		.sample = {.warmup = 2, .samples = 0, .min_sample_us = 20.0, .confidence = c->confidence},
		.vendor = {.warmup = 2, .samples = c->samples, .min_sample_us = 20.0, .confidence = 0.95},
		.seeds = c->seeds,
		.paired = c->paired,
		.power_ms = c->power_ms,
		.kcache = kc,
		.only = c->only,
		.per_gpu = c->per_gpu,
	};
	dlb_cli_search(c, DLB_MIN_SEARCH_S, &o.search, &o.race);
	/* One run after the other, into the same database; a failed one is named and the next one runs. */
	for (int i = 0; i < nruns; i++) {
		const struct dlb_run *pr = &runs[i];
		struct dlb_result *rows = results + shown;
		memset(rows, 0, (size_t)pr->suite.n * sizeof *rows);
		if (!c->csv && !c->json)
			fprintf(stderr, "dlbtune: %s %s, %d problems from %s on GPU%s %s (%s%s), database %s\n", pr->op->name,
				dlb_prec_name(pr->prec), pr->suite.n, pr->suite.name, ndev > 1 ? "s" : "", gpus,
				ndev > 1 && same ? "each " : "", ndev > 1 && !same ? "GPUs of several models" : devs[0].name,
				path);
		o.only = dlb_cli_only(c, pr->op);
		if (c->fp32_ffma && pr->prec == DLB_PREC_FP32 && !o.only && !c->csv && !c->json)
			fprintf(stderr, "dlbtune: --fp32-math ffma: every %s fp32 kernel family is FFMA: the full search\n",
				pr->op->name);
		int trc = dlb_tune(&o, &pr->suite, devs, ndev, db, rows);
		shown += keep_shown(rows, pr->suite.n);
		if (trc && (nruns == 1 || trc == DLB_E_INTERRUPTED)) {
			rc = trc; /* its own message stands */
			break;
		}
		if (trc) {
			fprintf(stderr, "dlbtune: error: %s %s failed: %s%s\n", pr->op->name, dlb_prec_name(pr->prec),
				dlb_last_error(), i + 1 < nruns ? "; going on with the next" : "");
			first_failure = first_failure ? first_failure : trc;
			snprintf(failed + strlen(failed), sizeof failed - strlen(failed), "%s%s %s", *failed ? ", " : "",
				 pr->op->name, dlb_prec_name(pr->prec));
		}
	}
	/* Print what there is, also after an interrupt or a failure: finished problems are stored. */
	if (shown && print_table)
		dlb_table_print(stdout, c->csv ? DLB_FMT_CSV : c->json ? DLB_FMT_JSON : DLB_FMT_TEXT, results, shown,
				devs[0].name);
	if (rc)
		goto fail;
	if (first_failure)
		DLB_FAIL(first_failure, "%s failed (the error is above); the others ran and are stored", failed);
	for (int i = 0; i < shown; i++)
		if (!results[i].found)
			DLB_USER_FAIL(DLB_E_WRONG, "some problems have no verified candidate (see the table)");
fail:
	free(results);
	free(devs);
	dlb_store_close(kc);
	dlb_store_close(db);
	return rc;
}

static int cmd_tune(const struct dlb_cli *c)
{
	int rc = 0, total = 0;
	struct dlb_run runs[DLB_PREC_COUNT] = {0};
	for (int i = 0; i < c->nprecs; i++) {
		DLB_CHECK(load_problems(c, c->precs[i], &runs[i]));
		total += runs[i].suite.n;
	}
	if (c->dry_run) { /* what this run (or this part of a suite) would tune, with no GPU */
		double est = 0;
		for (int i = 0; i < c->nprecs; i++)
			for (int j = 0; j < runs[i].suite.n; j++) {
				char desc[256];
				double s = dlb_shard_cost(&runs[i].suite.problems[j]);
				dlb_problem_describe(&runs[i].suite.problems[j], desc, sizeof desc);
				printf("%s %s %s\t%.0f s\n", runs[i].op->name, dlb_prec_name(runs[i].prec), desc, s);
				est += s;
			}
		fprintf(stderr, "dlbtune: --dry-run: %d problems, about %.0f s of tuning on one GPU (estimated; problems "
				"already in the database take none)\n", total, est);
		goto fail;
	}
	rc = dlb_tune_runs(c, runs, c->nprecs, 1, NULL, 0);
fail:
	for (int i = 0; i < c->nprecs; i++)
		dlb_suite_free(&runs[i].suite);
	return rc;
}

int dlb_main(int argc, char **argv)
{
	struct dlb_cli c;
	int rc = dlb_cli_parse(argc, argv, &c);
	if (rc) {
		fprintf(stderr, "dlbtune: error: %s\n", dlb_last_error());
		return DLB_EXIT_USAGE;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	switch (c.cmd) {
	case DLB_CMD_HELP:
		dlb_cli_usage(stdout);
		return DLB_EXIT_OK;
	case DLB_CMD_VERSION:
		print_version();
		return DLB_EXIT_OK;
	case DLB_CMD_DEVICES:
		return report(cmd_devices());
	case DLB_CMD_COMPILE:
		return report(cmd_compile(&c));
	case DLB_CMD_SPACE:
		return report(dlb_cmd_space(&c));
	case DLB_CMD_DB_STATS:
	case DLB_CMD_DB_LIST:
	case DLB_CMD_DB_SHOW:
	case DLB_CMD_DB_VERIFY:
	case DLB_CMD_DB_GC:
	case DLB_CMD_DB_MIGRATE:
	case DLB_CMD_DB_SALVAGE:
	case DLB_CMD_EXPORT:
	case DLB_CMD_REPORT:
	case DLB_CMD_IMPORT:
	case DLB_CMD_MERGE:
	case DLB_CMD_LOOKUP:
		return report(dlb_cmd_db(&c));
	case DLB_CMD_TUNE:
		return report(cmd_tune(&c));
	case DLB_CMD_SIMULATE:
		return report(dlb_cmd_simulate(&c));
	case DLB_CMD_MODEL:
		return report(dlb_cmd_model(&c));
	}
	return DLB_EXIT_FAILURE;
}
