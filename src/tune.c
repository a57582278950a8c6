/* tune: exhaustive for now — every candidate (and each launch-time variant) is verified, then screened with
 * a few samples; the best few are timed in full. The racing search replaces the screening step. */
#include "tune.h"

#include "../store/key.h"
#include "../store/record.h"
#include "embedded.h"
#include "err.h"

#include <errno.h>
#include <lmdb.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t dlb_interrupted;

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void dlb_limits_of(const struct dlb_device *dev, struct dlb_limits *lim)
{
	lim->max_threads_per_block = dev ? dev->max_threads_per_block : 1024;
	lim->smem_static = dev ? dev->smem_per_block : 48 * 1024;
	lim->smem_optin = dev ? dev->smem_per_block_optin : 99 * 1024;
	lim->regs_per_block = dev ? dev->regs_per_block : 65536;
}

int dlb_candidate_within_limits(const struct dlb_op *op, const struct dlb_candidate *c, const struct dlb_limits *lim)
{
	for (int i = 0; i < op->nlimit_checks; i++)
		if (!op->limit_checks[i].ok(c->cfg.v, lim))
			return i + 1;
	return 0;
}

static void compile_progress(int done, int n, void *arg)
{
	(void)arg;
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\rcompiling candidates: %d/%d", done, n);
	if (done == n && isatty(STDERR_FILENO))
		fputc('\n', stderr);
}

int dlb_compile_space(const struct dlb_op *op, const char *arch, const struct dlb_limits *lim, int verbose,
		      struct dlb_candidate **out, int *n)
{
	int rc = 0;
	struct dlb_config *cfgs = NULL;
	struct dlb_candidate *c = NULL;
	struct dlb_jit_job *jobs = NULL;
	int *jidx = NULL;
	const struct dlb_embedded *tpl = dlb_embedded_find(op->template_file);
	*out = NULL;
	*n = 0;
	if (!tpl)
		DLB_FAIL(DLB_E_PARSE, "template %s is not embedded in this binary", op->template_file);
	int rejected[16] = {0};
	int count = dlb_space_enumerate(&op->space, NULL, &cfgs, rejected);
	if (count < 0)
		DLB_FAIL(ENOMEM, "out of memory enumerating the space");
	if (verbose)
		for (int k = 0; k < op->space.nconstraints; k++)
			fprintf(stderr, "constraint \"%s\" removed %d configurations\n", op->space.constraints[k].text,
				rejected[k]);
	c = calloc((size_t)(count ? count : 1), sizeof *c);
	jobs = calloc((size_t)(count ? count : 1), sizeof *jobs);
	jidx = calloc((size_t)(count ? count : 1), sizeof *jidx);
	if (!c || !jobs || !jidx)
		DLB_FAIL(ENOMEM, "out of memory");
	const char *names[DLB_MAX_PARAMS];
	for (int p = 0; p < op->space.nparams; p++)
		names[p] = op->space.params[p].name;
	int njobs = 0;
	for (int i = 0; i < count; i++) {
		c[i].cfg = cfgs[i];
		dlb_config_format(&op->space, &cfgs[i], c[i].text, sizeof c[i].text);
		c[i].job.rc = DLB_E_LIMIT; /* until compiled */
		if (dlb_candidate_within_limits(op, &c[i], lim))
			continue;
		c[i].job.source = dlb_jit_source(names, cfgs[i].v, op->space.nparams, tpl->text);
		if (!c[i].job.source)
			DLB_FAIL(ENOMEM, "out of memory");
		c[i].job.arch = arch;
		jidx[njobs] = i;
		jobs[njobs++] = c[i].job;
	}
	dlb_jit_compile_many(jobs, njobs, 0, compile_progress, NULL);
	for (int j = 0; j < njobs; j++)
		c[jidx[j]].job = jobs[j];
	*out = c;
	*n = count;
	c = NULL;
fail:
	free(cfgs);
	free(jobs);
	free(jidx);
	if (c)
		dlb_candidates_free(c, count);
	return rc;
}

void dlb_candidates_free(struct dlb_candidate *c, int n)
{
	if (!c)
		return;
	for (int i = 0; i < n; i++) {
		if (c[i].loaded)
			dlb_module_unload(&c[i].mod);
		free((void *)c[i].job.source);
		dlb_jit_job_free(&c[i].job);
	}
	free(c);
}

int dlb_problem_key(const struct dlb_device *dev, const struct dlb_problem *p, char *buf, size_t len)
{
	const struct dlb_embedded *tpl = dlb_embedded_find(p->op->template_file);
	struct dlb_key k = {0};
	snprintf(k.op, sizeof k.op, "%s", p->op->name);
	snprintf(k.prec, sizeof k.prec, "%s", dlb_prec_name(p->prec));
	snprintf(k.layout, sizeof k.layout, "%s", dlb_layout_name(p->ta, p->tb));
	k.m = p->m;
	k.n = p->n;
	k.k = p->k;
	snprintf(k.gpu, sizeof k.gpu, "%.127s", dev->name);
	snprintf(k.uuid, sizeof k.uuid, "%s", dev->uuid);
	k.sm = dev->cc_major * 10 + dev->cc_minor;
	k.driver = dev->ver.driver;
	k.cuda = dev->ver.runtime;
	k.nvrtc = dev->ver.nvrtc_major * 100 + dev->ver.nvrtc_minor;
	k.cublas = dev->ver.cublas;
	k.tpl_hash = tpl ? dlb_hash64(tpl->text, tpl->size) : 0;
	return dlb_key_encode(&k, buf, len) < 0 ? DLB_E_USAGE : 0;
}

int dlb_check_memory(const struct dlb_suite *suite, const struct dlb_device *dev)
{
	int rc = 0;
	size_t free_b = 0;
	DLB_CHECK(dlb_device_free_mem(&free_b));
	for (int i = 0; i < suite->n; i++) {
		const struct dlb_problem *p = &suite->problems[i];
		size_t need = p->op->device_bytes(p, dev);
		if (need > free_b) {
			char d[128];
			p->op->describe(p, d, sizeof d);
			DLB_USER_FAIL(DLB_E_USAGE, "%s%s%s needs %.2f GiB of device memory; GPU %d has %.2f GiB free",
				      p->line ? suite->name : "", p->line ? ": " : "", d, (double)need / (1 << 30),
				      dev->ordinal, (double)free_b / (1 << 30));
		}
	}
fail:
	return rc;
}

/* Load every compiled candidate onto the device and check it against what the driver reports. */
static int load_candidates(const struct dlb_op *op, struct dlb_candidate *c, int n)
{
	int rc = 0;
	for (int i = 0; i < n; i++) {
		if (c[i].job.rc)
			continue;
		DLB_CHECK(dlb_module_load(c[i].job.cubin, &c[i].mod));
		c[i].loaded = 1;
		for (int k = 0; k < op->nkernels; k++)
			DLB_CHECK(dlb_module_kernel(&c[i].mod, op->kernel_names[k], &c[i].kernels[k]));
		DLB_CHECK(dlb_kernel_attrs(c[i].kernels[0], &c[i].attrs));
	}
fail:
	return rc;
}

struct cand_ctx {
	const struct dlb_op *op;
	void *state;
	const struct dlb_candidate *c;
	int variant;
};

static int cand_launch(void *ctx, int set)
{
	struct cand_ctx *x = ctx;
	return x->op->launch(x->state, x->c, x->variant, set);
}

struct scored {
	int cand, variant, trial;
	double screen_us;
};

static int by_screen(const void *a, const void *b)
{
	double x = ((const struct scored *)a)->screen_us, y = ((const struct scored *)b)->screen_us;
	return (x > y) - (x < y);
}

static void trial_config(const struct dlb_op *op, const struct dlb_candidate *c, int variant, char *buf, size_t len)
{
	if (op->variant_name)
		snprintf(buf, len, "%s %s=%d", c->text, op->variant_name, variant);
	else
		snprintf(buf, len, "%s", c->text);
}

#define MAX_VARIANTS 8

/* Tune one problem; on success r holds the result. A sticky CUDA error is returned as is. */
static void iso_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
}

/* A trial is stored the moment it is known, in its own short transaction: a crash loses at most the one
 * being measured. */
static int finish_trial(struct dlb_store *db, const struct dlb_result *r, struct dlb_trial *t)
{
	iso_now(t->timestamp, sizeof t->timestamp);
	return dlb_trial_save(db, r->key, t);
}

static void set_timed(struct dlb_trial *t, const struct dlb_stats *st, const char *stop)
{
	t->n = st->n;
	t->median_us = st->median;
	t->lo_us = st->median_lo;
	t->hi_us = st->median_hi;
	snprintf(t->stop, sizeof t->stop, "%s", stop);
}

static int tune_problem(const struct dlb_tune_opts *o, struct dlb_gpu *g, struct dlb_store *db,
			struct dlb_candidate *cand, int ncand, struct dlb_result *r, const char *progress)
{
	int rc = 0;
	const struct dlb_op *op = r->p.op;
	void *state = NULL;
	struct scored *ok = NULL;
	int nok = 0;
	double t0 = now_s(), best_screen = 0;
	int tty = isatty(STDERR_FILENO);
	r->trials = calloc((size_t)ncand * MAX_VARIANTS, sizeof *r->trials);
	ok = calloc((size_t)ncand * MAX_VARIANTS, sizeof *ok);
	if (!r->trials || !ok)
		DLB_FAIL(ENOMEM, "out of memory");
	DLB_CHECK(op->setup(g, &r->p, &state));
	for (int i = 0; i < ncand && !dlb_interrupted; i++) {
		struct dlb_candidate *c = &cand[i];
		if (tty)
			fprintf(stderr, "\r%s candidate %d/%d ", progress, i + 1, ncand);
		int vals[MAX_VARIANTS] = {1}, nv = 1;
		if (!c->job.rc && c->loaded)
			nv = op->variants(state, c, vals, MAX_VARIANTS);
		for (int v = 0; v < nv; v++) {
			struct dlb_trial *t = &r->trials[r->ntrials++];
			memset(t, 0, sizeof *t);
			trial_config(op, c, vals[v], t->config, sizeof t->config);
			t->median_us = t->lo_us = t->hi_us = t->max_err = NAN;
			if (c->job.rc == DLB_E_LIMIT || (!c->job.rc && !c->loaded)) {
				t->status = DLB_ST_RESOURCE_LIMIT; /* over the device's limits: never compiled or loaded */
			} else if (c->job.rc) {
				t->status = DLB_ST_COMPILE_ERROR;
				snprintf(t->error, sizeof t->error, "%s", c->job.log && *c->job.log ? c->job.log : "NVRTC failed");
			} else {
				struct dlb_check chk = {0};
				double tv = now_s();
				int vr = op->verify(state, c, vals[v], &chk);
				double verify_us = 1e6 * (now_s() - tv);
				if (!vr)
					r->tol = chk.tol; /* the op's tolerance for this problem */
				if (vr == DLB_E_CUDA_STICKY) {
					t->status = DLB_ST_RUNTIME_FAULT;
					snprintf(t->error, sizeof t->error, "%s", dlb_last_error());
					r->counts[t->status]++;
					(void)finish_trial(db, r, t); /* the error below is what the user needs to see */
					DLB_FAIL(vr, "%s: %s: the GPU context is lost", t->config, t->error);
				}
				if (vr == DLB_E_LIMIT || vr == DLB_E_CUDA) {
					t->status = vr == DLB_E_LIMIT ? DLB_ST_RESOURCE_LIMIT : DLB_ST_RUNTIME_FAULT;
					snprintf(t->error, sizeof t->error, "%s", dlb_last_error());
					if (o->verbose)
						fprintf(stderr, "\n  %s: %s\n", t->config, dlb_last_error());
				} else if (vr) {
					DLB_CHECK(vr);
				} else if (!chk.ok) {
					t->status = DLB_ST_WRONG_ANSWER;
					t->max_err = chk.nonfinite ? INFINITY : chk.max_err;
				} else if (verify_us > 2000 && best_screen > 0 && verify_us > 3 * best_screen) {
					/* Verified, but its one run (with the poison and compare around it) already took 3x
					 * the best: it cannot win, and timing it would cost more than it tells. */
					t->status = DLB_ST_OK;
					t->max_err = chk.max_err;
					t->median_us = verify_us;
					t->n = 1;
					snprintf(t->stop, sizeof t->stop, "slow_verify");
				} else {
					struct cand_ctx x = {op, state, c, vals[v]};
					struct dlb_stats st;
					struct dlb_bench_opts screen = o->screen;
					/* a candidate 1.5x slower than the best screened so far cannot win: stop it early */
					screen.cutoff_us = best_screen > 0 ? 1.5 * best_screen : 0;
					t->max_err = chk.max_err;
					DLB_CHECK(dlb_bench_time(&g->bench, cand_launch, &x, op->nsets(state), &screen, &st));
					if (best_screen == 0 || st.median < best_screen)
						best_screen = st.median;
					t->status = DLB_ST_OK;
					set_timed(t, &st, st.n < screen.samples ? "cutoff" : "screen");
					ok[nok++] = (struct scored){i, vals[v], r->ntrials - 1, st.median};
				}
			}
			r->counts[t->status]++;
			DLB_CHECK(finish_trial(db, r, t));
		}
	}
	if (dlb_interrupted)
		DLB_USER_FAIL(DLB_E_INTERRUPTED, "interrupted: finished problems are stored; the same command resumes");
	/* The best few by screening are timed in full; the winner is the lowest full median. */
	qsort(ok, (size_t)nok, sizeof *ok, by_screen);
	for (int j = 0; j < nok && j < o->top; j++) {
		struct cand_ctx x = {op, state, &cand[ok[j].cand], ok[j].variant};
		struct dlb_stats st;
		DLB_CHECK(dlb_bench_time(&g->bench, cand_launch, &x, op->nsets(state), &o->final, &st));
		set_timed(&r->trials[ok[j].trial], &st, "samples");
		DLB_CHECK(finish_trial(db, r, &r->trials[ok[j].trial]));
		if (!r->found || st.median < r->tuned.median) {
			r->found = 1;
			r->tuned = st;
			r->max_err = r->trials[ok[j].trial].max_err;
			snprintf(r->config, sizeof r->config, "%s", r->trials[ok[j].trial].config);
		}
	}
	DLB_CHECK(op->vendor(state, &o->final, r->vendor, DLB_RESULT_MAX_VENDOR, &r->nvendor));
	r->gpu_seconds = now_s() - t0;
	r->peak_tflops = dlb_device_fp32_peak_tflops(g->dev);
	snprintf(r->gpu, sizeof r->gpu, "%.127s", g->dev->name);
	iso_now(r->timestamp, sizeof r->timestamp);
fail:
	if (tty)
		fprintf(stderr, "\r\033[K");
	if (state)
		op->teardown(state);
	free(ok);
	return rc;
}

int dlb_tune(const struct dlb_tune_opts *o, const struct dlb_suite *suite, struct dlb_device *dev,
	     struct dlb_store *db, struct dlb_result *results)
{
	int rc = 0, misses = 0, ncand = 0, gpu_open = 0;
	struct dlb_candidate *cand = NULL;
	struct dlb_gpu g;
	struct dlb_limits lim;
	char key[DLB_KEY_MAX + 1];
	double t_start = now_s();
	dlb_limits_of(dev, &lim);
	/* Database first: whatever is stored and current is answered without touching the GPU. */
	for (int i = 0; i < suite->n; i++) {
		struct dlb_result *r = &results[i];
		memset(r, 0, sizeof *r);
		r->p = suite->problems[i];
		DLB_CHECK(dlb_problem_key(dev, &r->p, key, sizeof key));
		int gr = o->retune ? MDB_NOTFOUND : dlb_result_load(db, key, 0, r);
		if (gr == 0) {
			r->cached = 1;
			continue;
		}
		if (gr == DLB_E_JSON)
			fprintf(stderr, "dlbtune: warning: %s; tuning it again\n", dlb_last_error());
		else if (gr != MDB_NOTFOUND)
			DLB_CHECK(gr);
		memset(r, 0, sizeof *r);
		r->p = suite->problems[i];
		snprintf(r->key, sizeof r->key, "%s", key);
		misses++;
	}
	if (o->verbose)
		fprintf(stderr, "%d of %d problems answered from the database\n", suite->n - misses, suite->n);
	if (misses == 0)
		goto fail;

	struct dlb_platform plat;
	dlb_platform_of(dev, &plat);
	DLB_CHECK(dlb_platform_save(db, &plat));
	DLB_CHECK(dlb_gpu_open(dev, &g));
	gpu_open = 1;
	double tc = now_s();
	DLB_CHECK(dlb_compile_space(suite->problems[0].op, g.arch, &lim, o->verbose, &cand, &ncand));
	DLB_CHECK(load_candidates(suite->problems[0].op, cand, ncand));
	int nlimit = 0, nfail = 0;
	for (int i = 0; i < ncand; i++) {
		nlimit += cand[i].job.rc == DLB_E_LIMIT;
		nfail += cand[i].job.rc && cand[i].job.rc != DLB_E_LIMIT;
	}
	fprintf(stderr, "compiled %d candidates for %s in %.1f s (%d more over the device's limits, %d failed to compile)\n",
		ncand - nlimit, g.arch, now_s() - tc, nlimit, nfail);

	int done = 0;
	for (int i = 0; i < suite->n; i++) {
		struct dlb_result *r = &results[i];
		if (r->cached)
			continue;
		char desc[128], progress[192];
		r->p.op->describe(&r->p, desc, sizeof desc);
		snprintf(progress, sizeof progress, "[%3d/%d] %s %s", ++done, misses, dlb_prec_name(r->p.prec), desc);
		rc = tune_problem(o, &g, db, cand, ncand, r, progress);
		if (rc) { /* this problem is not stored; what finished before it is */
			struct dlb_problem keep = r->p;
			dlb_result_free(r);
			memset(r, 0, sizeof *r);
			r->p = keep;
			goto fail;
		}
		snprintf(r->platform, sizeof r->platform, "%s", plat.key);
		DLB_CHECK(dlb_result_save(db, r));
		double sp = dlb_result_speedup(r);
		fprintf(stderr, "%s: %s %.2f us, vendor best %.2f us, %.2fx  (%d trials, %d ok, %d wrong, %.1f s)\n",
			progress, r->found ? r->config : "no verified candidate", r->found ? r->tuned.median : NAN,
			dlb_result_vendor_best_us(r), sp, r->ntrials, r->counts[DLB_ST_OK], r->counts[DLB_ST_WRONG_ANSWER],
			r->gpu_seconds);
		dlb_result_free(r);
	}
fail:
	if (o->verbose)
		fprintf(stderr, "kernel launches: %llu, wall %.2f s\n", (unsigned long long)dlb_launch_count(),
			now_s() - t_start);
	dlb_candidates_free(cand, ncand);
	if (gpu_open)
		dlb_gpu_close(&g);
	return rc;
}
