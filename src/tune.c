/* tune: per problem, the points (compiled candidates x launch variants) are searched by search/strategy.c;
 * each point the strategy proposes is verified, then raced (search/race.c) against the incumbent with
 * samples from a GPU worker; every outcome is stored as a trial the moment it is known. */
#define _GNU_SOURCE /* memmem */
#include "tune.h"
#include "power.h"

#include "../store/key.h"
#include "catalog.h"
#include "../store/record.h"
#include "embedded.h"
#include "kernels.h"
#include "worker.h"
#include "err.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
	lim->sm = dev ? dev->cc_major * 10 + dev->cc_minor : 0;
	lim->sm_specific = dev && dev->cc_major == 9 && dev->cc_minor == 0; /* we compile for sm_90a there */
}

void dlb_limits_for_arch(const char *arch, int have_device, struct dlb_limits *lim)
{
	int sm = 0;
	char suffix = 0;
	if (sscanf(arch, "sm_%d%c", &sm, &suffix) < 1)
		return;
	lim->sm = sm;
	lim->sm_specific = suffix == 'a';
	if (!have_device) /* the architecture's own limit beats the generic default */
		lim->smem_optin = sm == 90 ? 227 * 1024 : sm == 80 || sm == 87 ? 163 * 1024 : lim->smem_optin;
}

int dlb_candidate_within_limits(const struct dlb_op *op, const struct dlb_candidate *c, const struct dlb_limits *lim)
{
	return dlb_constraint_first_failed(op->limit_checks, op->nlimit_checks, c->cfg.v, lim);
}

int dlb_candidate_load(const struct dlb_op *op, const struct dlb_device *dev, struct dlb_candidate *c)
{
	int rc = 0;
	size_t dyn = op->dyn_smem ? op->dyn_smem(c->cfg.v) : 0;
	if (!c->loaded) {
		DLB_CHECK(dlb_module_load(c->job.cubin, &c->mod));
		c->loaded = 1;
		for (int n = 0; n < op->nkernels; n++)
			DLB_CHECK(dlb_module_kernel(&c->mod, op->kernel_names[n], &c->kernels[n]));
		/* the most demanding of the launched kernels (a source specialisation's other kernels are stubs) */
		DLB_CHECK(dlb_kernel_attrs(c->kernels[0], &c->attrs));
		for (int n = 1; n < op->ndyn_kernels; n++) {
			struct cudaFuncAttributes a;
			DLB_CHECK(dlb_kernel_attrs(c->kernels[n], &a));
			if (a.maxThreadsPerBlock < c->attrs.maxThreadsPerBlock)
				c->attrs.maxThreadsPerBlock = a.maxThreadsPerBlock;
			if (a.numRegs > c->attrs.numRegs)
				c->attrs.numRegs = a.numRegs;
			if (a.sharedSizeBytes > c->attrs.sharedSizeBytes)
				c->attrs.sharedSizeBytes = a.sharedSizeBytes;
		}
		/* always: the static shared memory counts too, so even a dynamic size under 48 KiB may need it */
		for (int n = 0; dyn > 0 && dyn <= dev->smem_per_block_optin && n < op->ndyn_kernels; n++)
			DLB_CHECK(dlb_kernel_allow_smem(c->kernels[n], dyn));
	}
	if (dyn + c->attrs.sharedSizeBytes > dev->smem_per_block_optin)
		DLB_FAIL(DLB_E_LIMIT, "%s: %zu bytes of shared memory, the device allows %zu", c->text,
			 dyn + (size_t)c->attrs.sharedSizeBytes, dev->smem_per_block_optin);
	struct dlb_limits lim;
	dlb_limits_of(dev, &lim);
	if (c->attrs.maxThreadsPerBlock < lim.max_threads_per_block)
		lim.max_threads_per_block = c->attrs.maxThreadsPerBlock;
	if (dlb_candidate_within_limits(op, c, &lim))
		DLB_FAIL(DLB_E_LIMIT, "%s: the driver allows %d threads per block with %d registers a thread", c->text,
			 c->attrs.maxThreadsPerBlock, c->attrs.numRegs);
	if (c->attrs.sharedSizeBytes > dev->smem_per_block)
		DLB_FAIL(DLB_E_LIMIT, "%s: %zu bytes of static shared memory, the device allows %zu", c->text,
			 (size_t)c->attrs.sharedSizeBytes, dev->smem_per_block);
fail:
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

void dlb_device_key_id(const struct dlb_device *dev, int per_gpu, char *buf, size_t len)
{
	if (per_gpu)
		snprintf(buf, len, "%s", dev->uuid);
	else
		dlb_key_model_id(dev->sm_count, (double)dev->total_mem / (1 << 30), dev->clock_khz / 1000,
				 dev->mem_clock_khz / 1000, buf, len);
}

int dlb_problem_key(const struct dlb_device *dev, int per_gpu, const struct dlb_problem *p, const char *only, char *buf,
		    size_t len)
{
	int rc = 0;
	struct dlb_key k = {0};
	dlb_key_of_problem(p, &k);
	dlb_key_only_text(only ? only : "", k.only, sizeof k.only);
	snprintf(k.gpu, sizeof k.gpu, "%.127s", dev->name);
	dlb_device_key_id(dev, per_gpu, k.id, sizeof k.id);
	k.sm = dev->cc_major * 10 + dev->cc_minor;
	k.driver = dev->ver.driver;
	k.cuda = dev->ver.runtime;
	k.nvrtc = dev->ver.nvrtc_major * 100 + dev->ver.nvrtc_minor;
	if (dlb_key_encode(&k, buf, len) < 0)
		DLB_FAIL(DLB_E_USAGE, "the database key of %s is longer than %zu bytes", k.shape, len);
fail:
	return rc;
}

int dlb_check_memory(const struct dlb_suite *suite, const struct dlb_device *dev, size_t free_b)
{
	int rc = 0;
	for (int i = 0; i < suite->n; i++) {
		const struct dlb_problem *p = &suite->problems[i];
		size_t need = p->op->device_bytes(p, dev);
		if (need > free_b) {
			char d[256];
			dlb_problem_describe(p, d, sizeof d);
			DLB_USER_FAIL(DLB_E_USAGE, "%s%s%s needs %.2f GiB of device memory; GPU %d has %.2f GiB free",
				      p->line ? suite->name : "", p->line ? ": " : "", d, (double)need / (1 << 30),
				      dev->ordinal, (double)free_b / (1 << 30));
		}
	}
fail:
	return rc;
}

static void trial_config(const struct dlb_op *op, const struct dlb_candidate *c, int variant, char *buf, size_t len)
{
	if (op->variant_name)
		snprintf(buf, len, "%.96s %.16s=%d", c->text, op->variant_name, variant);
	else
		snprintf(buf, len, "%s", c->text);
}

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
	t->seq = 0; /* the trials this search has stored, this one included (the caller counted it) */
	for (int s = 0; s < DLB_ST_COUNT; s++)
		t->seq += r->counts[s];
	return dlb_trial_save(db, r->key, t);
}

/* ---- the parent's side: requests to a worker, and worker faults turned into trial statuses ---- */

#define SETUP_LIMIT_S 300.0 /* problem setup (buffers, reference) and the vendor baselines */
#define FLOOR_S 10.0        /* no candidate request is given less (unless a test says otherwise) */
#define MAX_RESTARTS 100    /* per problem: a GPU that keeps failing is not a candidate's fault */

struct run {
	const struct dlb_tune_opts *o;
	struct dlb_store *db;
	struct dlb_sup sup;
	struct dlb_worker_ctx wctx;
	int problem;       /* set up in the running worker, or -1 */
	double floor_s;    /* of every candidate request's time limit */
	int restarts;      /* in this problem */
	int total_restarts;
	uint64_t launches; /* counted by workers that were stopped in order */
	struct dlb_kernels *ks; /* the candidates, compiled on demand (NULL: only the test's extra candidates) */
	unsigned char *sent;    /* per candidate: the running worker has its cubin */
	struct dlb_kernel_stats problem_kernels; /* of the last problem tuned */
	char data_note[DLB_OP_NOTE_MAX];         /* the op's line about the problem's data ("" for none) */
	int power_said;                          /* why no energy was measured has been said */
};

/* 1 when candidate i's cubin is in the parent (a worker forked now inherits it). */
static int in_parent(const struct run *x, int i)
{
	return !x->ks || i >= x->ks->n || dlb_kernels_ready(x->ks, i);
}

/* Between GPU requests, and while waiting for one: take what the compiler process has finished. */
static void drain_compiler(void *arg)
{
	struct run *x = arg;
	if (x->ks && dlb_kernels_poll(x->ks) && x->o->verbose)
		fprintf(stderr, "\ndlbtune: %s\n", dlb_last_error());
	x->sup.side_fd = x->ks ? dlb_kernels_fd(x->ks) : -1; /* a compiler process started again has another */
}

static int worker_error(const struct dlb_reply *rep, const char *what)
{
	int rc = 0;
	DLB_USER_FAIL(rep->rc, "%s: %s", what, rep->len ? (const char *)rep->payload : dlb_strerror(rep->rc));
fail:
	return rc;
}

/* A running worker with the current problem set up. A fresh worker that cannot set the problem up is tried
 * again twice, a second and then two apart. (Restarted workers that failed cudaSetDevice with an
 * initialization error on the H100 were not helped by this: the parent had loaded the driver, which the
 * seeds' currency check no longer does; docs/NOTES.md item 40. The message says if the parent has it.) */
static int worker_up_once(struct run *x);

/* Whether this process loaded the driver (libcuda) or ran NVRTC (its builtins library): a worker forked from
 * such a process fails its first CUDA call (docs/NOTES.md). "" when neither. */
static const char *driver_loaded(void)
{
	static char what[64];
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	what[0] = 0;
	while (f && fgets(line, sizeof line, f) && !what[0])
		if (strstr(line, "libcuda.so") || strstr(line, "libnvrtc-builtins"))
			snprintf(what, sizeof what, " (this process has %s mapped)",
				 strstr(line, "libcuda.so") ? "libcuda" : "libnvrtc-builtins");
	if (f)
		fclose(f);
	return what;
}

static int worker_up(struct run *x)
{
	int fresh = x->sup.pid <= 0, rc = worker_up_once(x);
	for (int wait_s = 1; fresh && rc && rc != DLB_E_INTERRUPTED && !dlb_interrupted && wait_s <= 2; wait_s++) {
		if (x->o->verbose)
			fprintf(stderr, "\ndlbtune: a fresh worker failed: %s%s; trying again in %d s\n", dlb_last_error(),
				driver_loaded(), wait_s);
		dlb_sup_stop(&x->sup);
		sleep((unsigned)wait_s);
		rc = worker_up_once(x);
	}
	return rc;
}

static int worker_up_once(struct run *x)
{
	int rc = 0;
	struct dlb_reply rep = {0};
	if (x->sup.pid <= 0) {
		DLB_CHECK(dlb_sup_start(&x->sup, x->o->worker ? x->o->worker : dlb_worker_main, &x->wctx, x->o->verbose));
		for (int i = 0; i < x->wctx.ncand; i++) /* what the new worker inherited */
			x->sent[i] = in_parent(x, i);
		x->sup.side_fd = x->ks ? dlb_kernels_fd(x->ks) : -1;
		x->sup.side = drain_compiler;
		x->sup.side_arg = x;
	}
	if (x->problem >= 0) {
		struct dlb_w_index req = {x->problem};
		rc = dlb_sup_call(&x->sup, DLB_W_PROBLEM, &req, sizeof req, SETUP_LIMIT_S, &rep);
		if (rc > 0 && rc <= DLB_SUP_GARBAGE)
			DLB_FAIL(DLB_E_CUDA, "the worker could not set up the problem: %s", x->sup.why);
		DLB_CHECK(rc);
		if (rep.rc)
			DLB_CHECK(worker_error(&rep, "setting up the problem"));
		if (rep.len > 0 && rep.len <= sizeof x->data_note) { /* the op's line about the data */
			memcpy(x->data_note, rep.payload, rep.len);
			x->data_note[rep.len - 1] = 0;
		}
	}
fail:
	dlb_reply_free(&rep);
	return rc;
}

/* Stop the worker in order, keeping its launch count. */
static void worker_down(struct run *x)
{
	struct dlb_reply rep = {0};
	if (x->sup.pid > 0 && dlb_sup_call(&x->sup, DLB_W_LAUNCHES, NULL, 0, 30.0, &rep) == 0 && rep.rc == 0 &&
	    rep.len == sizeof(uint64_t)) {
		uint64_t n;
		memcpy(&n, rep.payload, sizeof n);
		x->launches += n;
	}
	dlb_reply_free(&rep);
	dlb_sup_stop(&x->sup);
}

/* One request about trial t. Returns 0 with *rep holding a good reply; or 0 with *rep empty and t's status
 * and error set, when the candidate failed (its own error, or the worker died, hung or was poisoned — then a
 * fresh worker is already running); or an error that ends the run (interrupted, or no worker will start). */
static int ask(struct run *x, uint32_t type, const void *req, uint32_t len, double limit_s, struct dlb_trial *t,
	       struct dlb_reply *rep)
{
	int rc = dlb_sup_call(&x->sup, type, req, len, limit_s, rep);
	if (rc == 0 && rep->rc == 0)
		return 0;
	if (rc == 0 && rep->type != type)
		return 0; /* cannot happen: dlb_sup_call checks the type */
	if (rc == DLB_E_INTERRUPTED || (rc && rc > DLB_SUP_GARBAGE))
		return rc;
	if (rc && dlb_interrupted) { /* the worker went down with the interrupt: not the candidate's fault */
		dlb_reply_free(rep);
		return DLB_E_INTERRUPTED;
	}
	int restart = rc != 0;
	if (rc) {
		t->status = rc == DLB_SUP_TIMEOUT ? DLB_ST_TIMEOUT : DLB_ST_RUNTIME_FAULT;
		snprintf(t->error, sizeof t->error, "%.159s", x->sup.why);
	} else {
		t->status = rep->rc == DLB_E_LIMIT ? DLB_ST_RESOURCE_LIMIT : DLB_ST_RUNTIME_FAULT;
		snprintf(t->error, sizeof t->error, "%s", rep->len ? (const char *)rep->payload : dlb_strerror(rep->rc));
		if (rep->rc == DLB_E_CUDA_STICKY) { /* it replied and is ending: its context is lost */
			char why[320];
			snprintf(why, sizeof why, "sticky CUDA error: %.250s", t->error);
			dlb_sup_kill(&x->sup, why);
			restart = 1;
		} else if (rep->rc != DLB_E_LIMIT && rep->rc != DLB_E_CUDA) {
			/* anything unexpected: do not trust this worker further; it answers, so it may end in order */
			if (x->o->verbose)
				fprintf(stderr, "\ndlbtune: worker stopped: %s\n", t->error);
			dlb_sup_stop(&x->sup);
			restart = 1;
		}
	}
	dlb_reply_free(rep);
	if (!restart)
		return 0;
	if (x->o->verbose)
		fprintf(stderr, "\n  %s: %s: %s; starting a fresh worker\n", t->config, dlb_status_name(t->status), t->error);
	x->restarts++;
	x->total_restarts++;
	if (x->restarts > MAX_RESTARTS)
		DLB_FAIL(DLB_E_CUDA, "%d worker restarts on one problem: giving up on it", x->restarts);
	DLB_CHECK(worker_up(x));
fail:
	return rc;
}

/* A request for k samples: the floor plus 20x what it should take, from the candidate's own verification run
 * (an over-estimate: it includes the poison and the compare). */
static double samples_limit(const struct run *x, const struct dlb_bench_opts *b, int reps, int k, double per_launch_s)
{
	double launch = per_launch_s > b->min_sample_us * 1e-6 ? per_launch_s : b->min_sample_us * 1e-6;
	return x->floor_s + 20.0 * (b->warmup + (double)k * (reps > 0 ? reps : 1) + 2) * launch;
}

/* Trials an interrupted run stored for this key: their configurations are not measured again. */
static const struct dlb_trial *stored_trial(const struct dlb_trial *st, int n, const char *config)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(st[i].config, config))
			return &st[i];
	return NULL;
}

/* One point of a problem's search: a compiled candidate with one launch-time variant. */
struct point {
	int cand, variant;
	int trial;       /* its index in r->trials; -1 until evaluated */
	double verify_s; /* its verification run */
	int reps, next;  /* launches per sample (0: not sized yet), samples taken so far */
	int have_st;     /* st holds its last race's statistics, measured by this run */
	struct dlb_stats st;
};

/* The search of one problem: what the evaluate and sample callbacks of search/ need. */
struct prun {
	struct run *x;
	struct dlb_result *r;
	struct point *pt;
	int npt;
	const struct dlb_trial *stored;
	int nstored, resumed;
	double best_verify_s;
	struct point *cur;     /* being sampled */
	struct dlb_trial *cur_t;
	double *buf;           /* the current race's samples */
	int nbuf, capbuf;
	int rc;                /* an error that ends the run, from inside a callback */
	const char *progress;
	int evaluated;
};

static int supply(struct run *x, int ci, struct dlb_trial *t);

/* The racer's sample callback: k more samples of the current point, from the worker. */
static int take_samples(void *arg, int k, double *t)
{
	struct prun *q = arg;
	struct run *x = q->x;
	struct point *p = q->cur;
	struct dlb_reply rep = {0};
	if (!x->sent[p->cand]) { /* a point resumed from a stored trial: this worker has not had its cubin */
		int rc = supply(x, p->cand, q->cur_t);
		if (rc) {
			q->rc = rc;
			return rc;
		}
		if (q->cur_t->status != DLB_ST_OK)
			return 1;
	}
	while (k > 0) {
		int chunk = k < DLB_W_MAX_SAMPLES ? k : DLB_W_MAX_SAMPLES;
		struct dlb_w_sample_req req = {{p->cand, p->variant}, x->o->sample, p->reps, p->next, chunk};
		int rc = ask(x, DLB_W_SAMPLES, &req, sizeof req, samples_limit(x, &req.opts, p->reps, chunk, p->verify_s),
			     q->cur_t, &rep);
		if (rc) {
			q->rc = rc;
			return rc;
		}
		if (!rep.payload) /* the candidate failed: the trial says how */
			return 1;
		struct dlb_w_samples got;
		memcpy(&got, rep.payload, sizeof got);
		dlb_reply_free(&rep);
		if (got.n != chunk || got.reps < 1) {
			q->cur_t->status = DLB_ST_RUNTIME_FAULT;
			snprintf(q->cur_t->error, sizeof q->cur_t->error, "the worker returned %d of %d samples", got.n, chunk);
			return 1;
		}
		p->reps = got.reps;
		p->next += chunk;
		if (q->nbuf + chunk > q->capbuf) {
			int cap = 2 * (q->nbuf + chunk);
			double *nb = realloc(q->buf, (size_t)cap * sizeof *nb);
			if (!nb) {
				q->rc = ENOMEM;
				return ENOMEM;
			}
			q->buf = nb;
			q->capbuf = cap;
		}
		memcpy(q->buf + q->nbuf, got.us, (size_t)chunk * sizeof *t);
		memcpy(t, got.us, (size_t)chunk * sizeof *t);
		q->nbuf += chunk;
		t += chunk;
		k -= chunk;
	}
	return 0;
}

static enum dlb_race_stop stop_of(const char *stop)
{
	if (!strncmp(stop, "final_", 6))
		stop += 6;
	for (int s = 0; s <= DLB_RACE_ERROR; s++)
		if (!strcmp(stop, dlb_race_stop_name((enum dlb_race_stop)s)))
			return (enum dlb_race_stop)s;
	return !strcmp(stop, "slow_verify") ? DLB_RACE_SLOWER : DLB_RACE_CAP; /* older stop reasons: a timing */
}

/* What the racer needs to know of a stored trial (a resumed run): its centre and spread, in log time. */
static void summary_of_trial(const struct dlb_trial *t, const struct dlb_race_opts *ro, struct dlb_race_summary *s)
{
	memset(s, 0, sizeof *s);
	s->stop = DLB_RACE_ERROR;
	if (t->status != DLB_ST_OK || !(t->median_us > 0) || t->n < 1)
		return;
	s->n = t->n;
	s->taken = t->taken > t->n ? t->taken : t->n;
	s->mean = log(t->median_us);
	s->est = t->median_us;
	s->rel_half = t->hi_us > t->lo_us ? 0.5 * (t->hi_us - t->lo_us) / t->median_us : INFINITY;
	double se = t->n > 1 && isfinite(s->rel_half) ? log1p(s->rel_half) / dlb_t_quantile(ro->confidence, t->n - 1) : 0;
	s->var = se * se * t->n;
	s->stop = stop_of(t->stop);
}

static void stats_of_trial(const struct dlb_trial *t, struct dlb_stats *st)
{
	*st = (struct dlb_stats){.n = t->n, .median = t->median_us, .median_lo = t->lo_us, .median_hi = t->hi_us,
				 .mean = t->mean_us, .mean_lo = NAN, .mean_hi = NAN, .stddev = NAN, .min = NAN, .max = NAN};
}

static void new_trial(const struct dlb_op *op, const struct dlb_candidate *c, int variant, struct dlb_trial *t)
{
	memset(t, 0, sizeof *t);
	trial_config(op, c, variant, t->config, sizeof t->config);
	t->median_us = t->lo_us = t->hi_us = t->mean_us = t->max_err = NAN;
	t->flush_read = 1; /* timed, if at all, after bench.c's flush that reads */
}

/* Candidate ci, compiled (waiting for it if need be) and in the running worker. A candidate that did not
 * compile gets its trial's status and log; 0 unless the run must end. */
static int supply(struct run *x, int ci, struct dlb_trial *t)
{
	int rc = 0;
	struct dlb_reply rep = {0};
	char *msg = NULL;
	if (x->ks && ci < x->ks->n && !dlb_kernels_ready(x->ks, ci))
		DLB_CHECK(dlb_kernels_need(x->ks, ci));
	const struct dlb_candidate *c = &x->wctx.cand[ci];
	if (c->job.rc) {
		t->status = c->job.rc == DLB_E_LIMIT ? DLB_ST_RESOURCE_LIMIT : DLB_ST_COMPILE_ERROR;
		snprintf(t->error, sizeof t->error, "%s", c->job.log && *c->job.log ? c->job.log : "NVRTC failed");
		goto fail;
	}
	if (x->sent[ci])
		goto fail;
	struct dlb_w_cand head = {ci, 0};
	size_t len = sizeof head + c->job.cubin_size;
	if (!(msg = malloc(len)))
		DLB_FAIL(ENOMEM, "out of memory");
	memcpy(msg, &head, sizeof head);
	memcpy(msg + sizeof head, c->job.cubin, c->job.cubin_size);
	DLB_CHECK(ask(x, DLB_W_CUBIN, msg, (uint32_t)len, x->floor_s, t, &rep));
	if (t->status == DLB_ST_OK) {
		x->sent[ci] = 1;
	} else if (x->sup.pid > 0 && x->sent[ci]) { /* the worker failed, not the candidate: the fresh one has it */
		t->status = DLB_ST_OK;
		t->error[0] = 0;
	}
fail:
	dlb_reply_free(&rep);
	free(msg);
	return rc;
}

/* search/'s ahead callback: compile (or read) the points the search expects to want next. */
static void ahead(void *arg, const int *pts, int n)
{
	struct prun *q = arg;
	struct run *x = q->x;
	int *ids = malloc((size_t)(n ? n : 1) * sizeof *ids), m = 0;
	if (!x->ks || !ids) {
		free(ids);
		return;
	}
	for (int j = 0; j < n; j++)
		ids[m++] = q->pt[pts[j]].cand;
	if (dlb_kernels_ahead(x->ks, ids, m) && x->o->verbose)
		fprintf(stderr, "\ndlbtune: %s\n", dlb_last_error());
	free(ids);
}

/* search/'s pick callback: of the random start's points, the first whose candidate is compiled (waiting for
 * one if none is). */
static int pick(void *arg, const int *pts, int n)
{
	struct prun *q = arg;
	struct run *x = q->x;
	int *ids = malloc((size_t)(n ? n : 1) * sizeof *ids), which = 0;
	if (!x->ks || !ids) {
		free(ids);
		return 0;
	}
	for (int j = 0; j < n; j++)
		ids[j] = q->pt[pts[j]].cand < x->ks->n ? q->pt[pts[j]].cand : -1;
	for (int j = 0; j < n; j++)
		if (ids[j] < 0) { /* a test's extra candidate: always ready */
			free(ids);
			return j;
		}
	if (dlb_kernels_any(x->ks, ids, n, &which))
		which = 0; /* evaluate finds the interrupt or the failure */
	free(ids);
	return which;
}

/* search/'s evaluate callback: verify point i (the first time), then race it against the incumbent; every
 * outcome is stored as the point's trial before this returns. */
static int evaluate(void *arg, int i, const struct dlb_race_summary *inc, int final, struct dlb_race_summary *out)
{
	struct prun *q = arg;
	struct run *x = q->x;
	struct dlb_result *r = q->r;
	const struct dlb_tune_opts *o = x->o;
	const struct dlb_op *op = r->p.op;
	struct point *p = &q->pt[i];
	struct dlb_reply rep = {0};
	struct dlb_trial *t;
	int rc = 0;
	double tt = now_s();
	memset(out, 0, sizeof *out);
	out->stop = DLB_RACE_ERROR;
	if (dlb_interrupted)
		return DLB_E_INTERRUPTED;
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r%s %s %d of %d candidates ", q->progress, final ? "showdown," : "evaluating,",
			q->evaluated + 1, q->npt);
	if (!final) {
		q->evaluated++;
		p->trial = r->ntrials++;
		t = &r->trials[p->trial];
		new_trial(op, &x->wctx.cand[p->cand], p->variant, t);
		const struct dlb_trial *prev = stored_trial(q->stored, q->nstored, t->config);
		if (prev) { /* measured by an interrupted run of this same key */
			*t = *prev;
			q->resumed++;
			r->counts[t->status]++;
			summary_of_trial(t, &o->race, out);
			return 0;
		}
		DLB_CHECK(supply(x, p->cand, t));
		if (t->status != DLB_ST_OK) /* it did not compile, or the worker died taking its cubin */
			goto store;
		struct dlb_w_cand req = {p->cand, p->variant};
		double limit = q->best_verify_s > 0 ? 50 * q->best_verify_s : 0;
		DLB_CHECK(ask(x, DLB_W_VERIFY, &req, sizeof req, limit > x->floor_s ? limit : x->floor_s, t, &rep));
		if (!rep.payload) /* failed: ask set the status */
			goto store;
		struct dlb_w_verified vf;
		memcpy(&vf, rep.payload, sizeof vf);
		dlb_reply_free(&rep);
		p->verify_s = vf.seconds;
		t->max_err = vf.chk.max_err;
		if (!vf.chk.ok) {
			t->status = DLB_ST_WRONG_ANSWER;
			t->max_err = vf.chk.nonfinite ? INFINITY : vf.chk.max_err;
			goto store;
		}
		r->tol = vf.chk.tol; /* the op's tolerance for this problem */
		if (q->best_verify_s == 0 || vf.seconds < q->best_verify_s)
			q->best_verify_s = vf.seconds;
		double verify_us = 1e6 * vf.seconds;
		if (inc && verify_us > 2000 && verify_us > 3 * inc->est) {
			/* Verified, but its one run (with the poison and compare around it) already took 3x the best: it
			 * cannot win, and timing it would cost more than it tells. */
			t->n = 1;
			t->median_us = verify_us;
			snprintf(t->stop, sizeof t->stop, "slow_verify");
			*out = (struct dlb_race_summary){.n = 1, .taken = 0, .mean = log(verify_us), .est = verify_us,
							 .rel_half = INFINITY, .stop = DLB_RACE_SLOWER};
			goto store;
		}
	} else {
		t = &r->trials[p->trial];
		if (!strncmp(t->stop, "final_", 6)) { /* raced in the showdown before an interrupt */
			summary_of_trial(t, &o->race, out);
			return 0;
		}
		r->counts[t->status]--; /* counted again below */
	}
	{
		struct dlb_race_opts ro = o->race;
		if (final)
			dlb_race_final_opts(&o->race, &ro);
		q->cur = p;
		q->cur_t = t;
		q->nbuf = 0;
		q->rc = 0;
		dlb_race(&ro, take_samples, q, inc, out);
		if (q->rc) {
			rc = q->rc;
			goto fail;
		}
		if (out->stop == DLB_RACE_ERROR) {
			if (t->status == DLB_ST_OK) { /* a sample that was not a time */
				t->status = DLB_ST_RUNTIME_FAULT;
				snprintf(t->error, sizeof t->error, "a timing sample was not a positive time");
			}
			out->n = 0;
		} else {
			struct dlb_stats st;
			int skip = out->taken - out->n;
			DLB_CHECK(dlb_stats_summarise(q->buf + skip, out->n, o->race.confidence, &st));
			p->st = st;
			p->have_st = 1;
			t->n = st.n;
			t->median_us = st.median;
			t->lo_us = st.median_lo;
			t->hi_us = st.median_hi;
			t->mean_us = st.mean;
			t->taken = out->taken;
			t->noisy = out->stop == DLB_RACE_CAP;
			snprintf(t->stop, sizeof t->stop, "%s%s", final ? "final_" : "", dlb_race_stop_name(out->stop));
		}
	}
store:
	t->seconds += now_s() - tt;
	r->counts[t->status]++;
	DLB_CHECK(finish_trial(x->db, r, t));
	if (o->verbose > 1)
		fprintf(stderr, "\n  %-48s %-14s n=%-3d %10.3f us  err %-9.3g %s", t->config, dlb_status_name(t->status),
			t->n, t->median_us, t->max_err, t->stop);
fail:
	dlb_reply_free(&rep);
	return rc;
}

/* Coordinates of the points for search/: per parameter (and the launch variant), the rank of the point's
 * value among the values the points have. */
static int point_coords(const struct dlb_op *op, const struct dlb_candidate *cand, const struct point *pt, int n,
			int dim, int *coord)
{
	int *distinct = malloc((size_t)(n ? n : 1) * sizeof *distinct);
	if (!distinct)
		return ENOMEM;
	for (int i = 0; i < n; i++)
		for (int d = 0; d < dim; d++)
			coord[i * dim + d] = d < op->space.nparams ? cand[pt[i].cand].cfg.v[d] : pt[i].variant;
	for (int d = 0; d < dim; d++)
		dlb_value_ranks(coord + d, n, dim, distinct);
	free(distinct);
	return 0;
}

/* The winner (point p) and the vendor best, timed side by side (struct dlb_paired). Their failure is the row's
 * loss only: a warning, and the row keeps its separate times. */
static int time_paired(struct run *x, const struct point *p, struct dlb_result *r, const char *progress)
{
	int rc = 0;
	const struct dlb_vendor_entry *vb = dlb_result_vendor_best(r);
	struct dlb_reply rep = {0};
	memset(&r->paired, 0, sizeof r->paired);
	memset(&r->rel_err, 0, sizeof r->rel_err);
	if (!vb || !r->p.op->vendor_launch || x->o->paired < 1)
		return 0;
	struct dlb_w_paired_req req = {.c = {p->cand, p->variant}, .entry = (int)(vb - r->vendor),
				       .n = x->o->paired < DLB_PAIRED_MAX ? x->o->paired : DLB_PAIRED_MAX,
				       .opts = x->o->sample, .power_ms = x->o->power_ms};
	req.opts.cutoff_us = 0;
	struct dlb_trial pt = {.config = "side-by-side timing"};
	DLB_CHECK(supply(x, p->cand, &pt));
	double per_launch_s = 1e-6 * (r->tuned.median > vb->st.median ? r->tuned.median : vb->st.median);
	if (pt.status == DLB_ST_OK)
		DLB_CHECK(ask(x, DLB_W_PAIRED, &req, sizeof req,
			      samples_limit(x, &req.opts, 0, 2 * req.n + 2, per_launch_s) + 60 + 4e-3 * req.power_ms, &pt,
			      &rep));
	if (!rep.payload || rep.len != sizeof(struct dlb_w_paired)) {
		fprintf(stderr, "\ndlbtune: warning: %s: the side-by-side timing failed (%s); the row has no paired speedup\n",
			progress, pt.error[0] ? pt.error : "no reply");
		goto fail;
	}
	struct dlb_w_paired w;
	memcpy(&w, rep.payload, sizeof w);
	if (w.n < 1 || w.n > DLB_PAIRED_MAX)
		DLB_FAIL(DLB_E_CUDA, "the worker's side-by-side reply has %d pairs", w.n);
	struct dlb_paired *d = &r->paired;
	double ratio[DLB_PAIRED_MAX];
	for (int i = 0; i < w.n; i++) {
		if (!(w.tuned[i] > 0) || !(w.vendor[i] > 0)) {
			fprintf(stderr, "\ndlbtune: warning: %s: a side-by-side sample was not a positive time; the row has no "
					"paired speedup\n", progress);
			goto fail;
		}
		ratio[i] = w.vendor[i] / w.tuned[i];
	}
	struct dlb_stats by[2];
	if (x->o->verbose && !dlb_paired_by_order(ratio, w.n, x->o->vendor.confidence, by)) /* an order effect? */
		fprintf(stderr, "\n    %s: side by side, by order: winner first %.2fx [%.2f, %.2f] (%d pairs), vendor "
				"first %.2fx [%.2f, %.2f] (%d)\n", progress, by[0].median, by[0].median_lo, by[0].median_hi,
			by[0].n, by[1].median, by[1].median_lo, by[1].median_hi, by[1].n);
	snprintf(d->vendor, sizeof d->vendor, "%s", vb->name);
	DLB_CHECK(dlb_stats_summarise(ratio, w.n, x->o->vendor.confidence, &d->speedup));
	DLB_CHECK(dlb_stats_summarise(w.tuned, w.n, x->o->vendor.confidence, &d->tuned));
	DLB_CHECK(dlb_stats_summarise(w.vendor, w.n, x->o->vendor.confidence, &d->vendor_st));
	d->n = w.n;
	d->e_tuned = w.e_tuned;
	d->e_vendor = w.e_vendor;
	r->rel_err = w.rel_err;
	if (x->o->verbose && r->rel_err.n > 0)
		fprintf(stderr, "\n    %s: accuracy at %d sampled outputs, |c - exact| / sum |a b|: ours max %.3g, mean %.3g; %s "
				"max %.3g, mean %.3g\n", progress, r->rel_err.n, r->rel_err.max, r->rel_err.mean, vb->name,
			vb->rel_err.max, vb->rel_err.mean);
	for (int i = 0; i < 2 && x->o->verbose; i++) {
		const struct dlb_energy *e = i ? &d->e_vendor : &d->e_tuned;
		char ev[128];
		dlb_clock_reasons_text(e->reasons, ev, sizeof ev);
		const char *how = e->steady ? "steady part" : e->steps < 3 ? "n/a: too few counter steps"
									   : "n/a: no two steps timed closely enough";
		if (e->calls > 0)
			fprintf(stderr, "\n    %s: energy of %s: %d calls in %.3f s, %.4g J (%s, %d counter steps), %d readings, "
					"SM %d-%d MHz, clock events %s, %s\n", progress, i ? "the vendor's" : "ours", e->calls,
				e->seconds, e->joules, how, e->steps, e->readings, e->sm_mhz_min, e->sm_mhz_max,
				e->readings ? ev : "n/a",
				e->graphed ? "launched as CUDA graphs" : "launched one by one (no graph captured)");
	}
	if (x->o->power_ms > 0 && w.power_why[0] && !x->power_said) { /* once a run */
		fprintf(stderr, "\ndlbtune: note: no power or energy measured: %s\n", w.power_why);
		x->power_said = 1;
	}
fail:
	if (rc)
		memset(&r->paired, 0, sizeof r->paired);
	dlb_reply_free(&rep);
	return rc;
}

/* Tune problem pi; on success r holds the result. Interrupts and unrecoverable worker errors are returned. */
static int tune_problem(struct run *x, int pi, struct dlb_candidate *cand, int ncand, struct dlb_result *r,
			const char *progress)
{
	struct dlb_kernel_stats ks0 = x->ks ? x->ks->st : (struct dlb_kernel_stats){0};
	int rc = 0, nstored = 0, *coord = NULL, first[17];
	const struct dlb_tune_opts *o = x->o;
	const struct dlb_op *op = r->p.op;
	struct dlb_trial *stored = NULL;
	struct dlb_reply rep = {0};
	struct prun q = {.x = x, .r = r, .progress = progress};
	double t0 = now_s();
	int mine = x->ks ? x->ks->nconf + ncand - x->ks->n : ncand; /* the candidates this problem may try */
	/* points: each candidate adds at most as many as a worker reply carries (worker.h) */
	r->trials = calloc((size_t)(mine ? mine : 1) * DLB_W_MAX_VARIANTS, sizeof *r->trials);
	q.pt = calloc((size_t)(mine ? mine : 1) * DLB_W_MAX_VARIANTS, sizeof *q.pt);
	if (!r->trials || !q.pt)
		DLB_FAIL(ENOMEM, "out of memory");
	if (!o->retune) /* an interrupted run's trials are not measured again; --retune measures everything */
		DLB_CHECK(dlb_trials_load(x->db, r->key, &stored, &nstored));
	/* ... except those timed after the older L2 flush (a build before 5fff2aa): their times are measured again
	 * (a failure does not depend on the flush, and is kept) */
	int kept = 0;
	for (int i = 0; i < nstored; i++)
		if (stored[i].flush_read || stored[i].n == 0)
			stored[kept++] = stored[i];
	nstored = kept;
	q.stored = stored;
	q.nstored = nstored;
	x->problem = pi;
	x->restarts = 0;
	x->data_note[0] = 0;
	DLB_CHECK(worker_up(x));
	/* The points: every compiled candidate with each of its launch variants for this problem. Candidates that
	 * did not compile, or that the driver refuses, are trials already. */
	/* each configuration in the specialisation this problem runs it with, then the test's extra candidates */
	int nconf = x->ks ? x->ks->nconf : 0;
	for (int j = 0; j < nconf + ncand - (x->ks ? x->ks->n : 0) && !dlb_interrupted; j++) {
		int i = j < nconf ? dlb_kernels_for(x->ks, &r->p, j) : j - nconf + (x->ks ? x->ks->n : 0);
		struct dlb_candidate *c = &cand[i];
		if (c->left_out) /* not this search's: stored as nothing, so a later full search measures it */
			continue;
		struct dlb_w_variants vars = {1, {1}};
		struct dlb_trial *t = &r->trials[r->ntrials];
		double tt = now_s();
		new_trial(op, c, 1, t);
		if (c->job.rc == DLB_E_LIMIT) {
			t->status = DLB_ST_RESOURCE_LIMIT; /* over the device's limits: never compiled */
			snprintf(t->error, sizeof t->error, "over the device's limits before compiling");
		} else if (c->job.rc) {
			t->status = DLB_ST_COMPILE_ERROR;
			snprintf(t->error, sizeof t->error, "%s", c->job.log && *c->job.log ? c->job.log : "NVRTC failed");
		} else {
			struct dlb_w_cand req = {i, 0};
			DLB_CHECK(ask(x, DLB_W_VARIANTS, &req, sizeof req, x->floor_s + 60, t, &rep));
			if (rep.payload)
				memcpy(&vars, rep.payload, sizeof vars);
			dlb_reply_free(&rep);
		}
		if (t->status != DLB_ST_OK) { /* the candidate as a whole */
			t->seconds = now_s() - tt;
			r->counts[t->status]++;
			r->ntrials++;
			if (!stored_trial(stored, nstored, t->config))
				DLB_CHECK(finish_trial(x->db, r, t));
			continue;
		}
		for (int v = 0; v < vars.n && v < DLB_W_MAX_VARIANTS; v++)
			q.pt[q.npt++] = (struct point){.cand = i, .variant = vars.values[v], .trial = -1};
	}
	if (dlb_interrupted)
		DLB_USER_FAIL(DLB_E_INTERRUPTED, "interrupted: finished trials are stored; the same command resumes");

	struct dlb_search_opts so = o->search;
	int dim = op->space.nparams + (op->variant_name ? 1 : 0), nseed = 0;
	coord = calloc((size_t)(q.npt ? q.npt : 1) * (size_t)dim, sizeof *coord);
	if (!coord)
		DLB_FAIL(ENOMEM, "out of memory");
	DLB_CHECK(point_coords(op, cand, q.pt, q.npt, dim, coord));
	if (o->seeds > 0) { /* the winners of the nearest tuned shapes on this GPU go first */
		char near[16][128];
		int nnear = 0;
		/* with the worker's versions: the parent must not load the driver (docs/NOTES.md) */
		char gid[48];
		dlb_device_key_id(x->wctx.dev, o->per_gpu, gid, sizeof gid);
		DLB_CHECK(dlb_catalog_nearest(x->db, &r->p, gid, o->only, &x->wctx.dev->ver, o->seeds, near, &nnear));
		for (int k = 0; k < nnear; k++)
			for (int j = 0; j < q.npt; j++) {
				char text[128];
				trial_config(op, &cand[q.pt[j].cand], q.pt[j].variant, text, sizeof text);
				if (!strcmp(text, near[k])) {
					first[nseed++] = j;
					break;
				}
			}
	}
	first[nseed] = -1;
	so.first = first;
	so.window_max = op->search_window_max;
	so.ahead = ahead;
	so.pick = pick;
	/* The search's seconds (its minimum, its budget) are the user's: wall time, waits for the compiler
	 * included (docs/NOTES.md item 40 measured the other choice). */
	so.lookahead = x->ks ? x->ks->server.threads : 0;
	if (so.lookahead < 8)
		so.lookahead = 8;
	struct dlb_search_result res;
	unsigned categorical = 0;
	for (int d = 0; d < op->space.nparams && d < 32; d++)
		if (op->space.params[d].categorical)
			categorical |= 1u << d;
	rc = dlb_search(&so, &(struct dlb_points){q.npt, dim, coord, categorical}, evaluate, &q, &res);
	if (rc == -1)
		DLB_FAIL(ENOMEM, "out of memory in the search");
	DLB_CHECK(rc);
	if (dlb_interrupted)
		DLB_USER_FAIL(DLB_E_INTERRUPTED, "interrupted: finished trials are stored; the same command resumes");
	if (q.resumed && o->verbose)
		fprintf(stderr, "\n  %d trials taken from an interrupted run\n", q.resumed);
	r->search = (struct dlb_search_info){.points = q.npt, .evaluated = res.evaluated, .samples = res.samples,
					     .seeds = nseed, .seconds = now_s() - t0};
	snprintf(r->search.strategy, sizeof r->search.strategy, "%s", dlb_strategy_name(so.strategy));
	snprintf(r->search.why, sizeof r->search.why, "%s", res.why);
	if (res.best >= 0) {
		const struct point *p = &q.pt[res.best];
		const struct dlb_trial *t = &r->trials[p->trial];
		r->found = 1;
		if (p->have_st)
			r->tuned = p->st;
		else
			stats_of_trial(t, &r->tuned);
		r->max_err = t->max_err;
		snprintf(r->config, sizeof r->config, "%s", t->config);
	}
	/* The vendor baselines, given one more worker if the first fails them. */
	for (int attempt = 0; attempt < 2; attempt++) {
		struct dlb_trial vt = {.config = "vendor baselines"};
		DLB_CHECK(ask(x, DLB_W_VENDOR, &o->vendor, sizeof o->vendor, SETUP_LIMIT_S, &vt, &rep));
		if (rep.payload) {
			struct dlb_w_vendor wv;
			memcpy(&wv, rep.payload, sizeof wv);
			dlb_reply_free(&rep);
			r->nvendor = wv.n < DLB_RESULT_MAX_VENDOR ? wv.n : DLB_RESULT_MAX_VENDOR;
			memcpy(r->vendor, wv.e, (size_t)r->nvendor * sizeof *r->vendor);
			break;
		}
		fprintf(stderr, "\ndlbtune: warning: %s: the vendor baselines failed (%s)%s\n", progress, vt.error,
			attempt ? "; the row has no vendor time" : "; trying once more");
	}
	if (r->found)
		DLB_CHECK(time_paired(x, &q.pt[res.best], r, progress));
	r->gpu_seconds = now_s() - t0;
	if (x->ks) { /* what this problem's search compiled */
		x->problem_kernels = x->ks->st;
		x->problem_kernels.cached -= ks0.cached;
		x->problem_kernels.compiled -= ks0.compiled;
		x->problem_kernels.failed -= ks0.failed;
		x->problem_kernels.corrupt -= ks0.corrupt;
		x->problem_kernels.nvrtc_s -= ks0.nvrtc_s;
		x->problem_kernels.wait_s -= ks0.wait_s;
	}
	r->peak = dlb_op_peak(r->p.op, x->wctx.dev);
	r->mem_peak = dlb_device_peak_gbs(x->wctx.dev);
	snprintf(r->gpu, sizeof r->gpu, "%.127s", x->wctx.dev->name);
	iso_now(r->timestamp, sizeof r->timestamp);
fail:
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r\033[K");
	dlb_reply_free(&rep);
	free(stored);
	free(coord);
	free(q.pt);
	free(q.buf);
	return rc;
}

int dlb_tune_probe(int ordinal, const struct dlb_op *op, struct dlb_device *dev, size_t *free_mem, int *count)
{
	int rc = 0;
	struct dlb_worker_ctx w = {.ordinal = ordinal, .op = op};
	struct dlb_sup sup = {0};
	struct dlb_reply rep = {0};
	DLB_CHECK(dlb_sup_start(&sup, dlb_worker_main, &w, 0));
	rc = dlb_sup_call(&sup, DLB_W_HELLO, NULL, 0, SETUP_LIMIT_S, &rep);
	if (rc > 0 && rc <= DLB_SUP_GARBAGE)
		DLB_FAIL(DLB_E_CUDA, "the GPU worker failed before it could report its device: %s", sup.why);
	DLB_CHECK(rc);
	if (rep.rc) /* e.g. no driver: the worker's message is the user's */
		DLB_USER_FAIL(rep.rc, "%s", rep.len ? (const char *)rep.payload : dlb_strerror(rep.rc));
	if (rep.len != sizeof(struct dlb_w_hello))
		DLB_FAIL(DLB_E_CUDA, "the GPU worker's hello has %u bytes", rep.len);
	struct dlb_w_hello h;
	memcpy(&h, rep.payload, sizeof h);
	*dev = h.dev;
	dev->stream = NULL;
	*free_mem = h.free_mem;
	if (count)
		*count = h.count;
fail:
	dlb_reply_free(&rep);
	dlb_sup_stop(&sup);
	return rc;
}

/* The problems a driver tunes, in order: each driver takes the next one when it finishes one. With several
 * drivers (one per GPU, each its own process) next is shared memory. */
struct queue {
	int *order, n; /* indices into the suite */
	int *next;
};

/* The next problem (its index in the suite) and its number in the run (1-based), or -1 when none is left. */
static int take_next(struct queue *q, int *nth)
{
	int i = __atomic_fetch_add(q->next, 1, __ATOMIC_SEQ_CST);
	if (i >= q->n)
		return -1;
	*nth = i + 1;
	return q->order[i];
}

#define MAX_FAILED_IN_A_ROW 3 /* problems, before a driver of several stops taking more */

/* What a driver process tells the parent (struct dlb_drive_msg over a pipe, src/supervise.h's frames). */
enum { MSG_STARTED = 1, MSG_DONE, MSG_END };
struct drive_msg {
	int index;             /* the problem (MSG_STARTED, MSG_DONE) */
	int rc;                /* MSG_DONE: 0 (stored), else why not; MSG_END: the driver's */
	char key[DLB_KEY_MAX + 1];
	char error[512];
};

static void tell(int fd, uint32_t type, int index, int rc, const char *key)
{
	struct drive_msg m = {.index = index, .rc = rc};
	if (fd < 0)
		return;
	snprintf(m.key, sizeof m.key, "%s", key ? key : "");
	snprintf(m.error, sizeof m.error, "%s", rc ? dlb_last_error() : "");
	if (dlb_msg_write(fd, type, rc, &m, sizeof m))
		dlb_interrupted = 1; /* the parent is gone: stop as after Ctrl-C, storing what finished */
}

/* One GPU's driver: the candidates, then the problems of q one after the other on dev. tag: "GPU n: " when
 * several GPUs share the run, else "". Each finished problem is stored (a restricted search's under its only=
 * key) and told to fd (-1: nobody listens). */
static int drive(const struct dlb_tune_opts *o, const struct dlb_suite *suite, const struct dlb_device *dev,
		 struct dlb_store *db, struct dlb_result *results, struct queue *q, int fd, const char *tag)
{
	int rc = 0, ncand = 0, ncompiled = 0, nth = 0, pi, failed_in_a_row = 0;
	struct dlb_candidate *cand = NULL;
	struct dlb_limits lim;
	char arch[16];
	double t_start = now_s();
	struct run x = {.o = o, .db = db, .problem = -1, .floor_s = o->floor_s > 0 ? o->floor_s : FLOOR_S};
	dlb_limits_of(dev, &lim);
	dlb_device_arch(dev, arch, sizeof arch);
	struct dlb_platform plat;
	dlb_platform_of(dev, &plat);
	DLB_CHECK(dlb_platform_save(db, &plat));
	const struct dlb_op *op = suite->problems[0].op;
	/* The candidates, compiled as the searches ask for them (src/kernels.h); the compiler process is forked
	 * here, before any GPU worker. */
	if (!o->only_extra)
		DLB_CHECK(dlb_kernels_open(op, arch, &lim, 1, o->only, o->kcache, 0, o->verbose, &x.ks));
	ncompiled = x.ks ? x.ks->n : 0;
	ncand = ncompiled + o->nextra;
	if (!(x.sent = calloc((size_t)(ncand ? ncand : 1), 1)))
		DLB_FAIL(ENOMEM, "out of memory");
	/* one array for the worker: the space, then the test's candidates (tests/gpu_faults.c) */
	cand = x.ks ? realloc(x.ks->cand, (size_t)(ncand ? ncand : 1) * sizeof *cand)
		    : calloc((size_t)(ncand ? ncand : 1), sizeof *cand);
	if (!cand)
		DLB_FAIL(ENOMEM, "out of memory");
	if (x.ks)
		x.ks->cand = cand;
	if (o->nextra)
		memcpy(cand + ncompiled, o->extra, (size_t)o->nextra * sizeof *cand);
	int nlimit = 0, nconf = x.ks ? x.ks->nconf : 0;
	for (int i = 0; i < ncompiled; i++)
		nlimit += cand[i].job.rc == DLB_E_LIMIT;
	int nonly = x.ks ? x.ks->nonly : 0;
	fprintf(stderr, "%s%d candidates for %s within the device's limits (%d more over them%s), %s as the search asks "
			"for them%s\n", tag, nconf - nlimit / (x.ks ? x.ks->nspec : 1) + o->nextra, arch,
		nlimit / (x.ks ? x.ks->nspec : 1) - nonly, nonly ? ", and the configurations --only leaves out" : "",
		x.ks && x.ks->nspec > 1 ? "each compiled for a problem's layout" : "compiled",
		!x.ks ? "" : o->kcache ? " or read from the kernel cache" : " (no kernel cache)");
	if (o->only)
		fprintf(stderr, "--only '%s': %d of the %d configurations; a restricted search: its results are stored "
				"under keys of their own (only=%s), apart from the whole space's\n",
			o->only, nconf - nonly, nconf, o->only);

	x.wctx = (struct dlb_worker_ctx){.ordinal = dev->ordinal, .op = op, .suite = suite, .cand = cand, .ncand = ncand,
					 .dev = dev};
	while ((pi = take_next(q, &nth)) >= 0) {
		struct dlb_result *r = &results[pi];
		char desc[256], progress[320];
		/* the key of the GPU that runs it (a restricted search's: its own, with the restriction) */
		DLB_CHECK(dlb_problem_key(dev, o->per_gpu, &r->p, o->only, r->key, sizeof r->key));
		dlb_problem_describe(&r->p, desc, sizeof desc);
		snprintf(progress, sizeof progress, "%s[%3d/%d] %s %s", tag, nth, q->n, dlb_prec_name(r->p.prec), desc);
		tell(fd, MSG_STARTED, pi, 0, r->key);
		rc = tune_problem(&x, pi, cand, ncand, r, progress);
		failed_in_a_row = rc ? failed_in_a_row + 1 : 0;
		if (rc) { /* this problem has no result; its finished trials are stored */
			struct dlb_problem keep = r->p;
			dlb_result_free(r);
			memset(r, 0, sizeof *r);
			r->p = keep;
			if (rc == DLB_E_INTERRUPTED)
				dlb_set_error(NULL, 0, "interrupted: finished problems and trials are stored; the same command "
						       "resumes where this one stopped");
			tell(fd, MSG_DONE, pi, rc, NULL);
			if (rc == DLB_E_INTERRUPTED || rc == ENOMEM)
				goto fail;
			fprintf(stderr, "\ndlbtune: error: %s: %s; going on with the next problem\n", progress, dlb_last_error());
			r->failed = 1;
			rc = 0;
			if (fd >= 0 && failed_in_a_row == MAX_FAILED_IN_A_ROW) { /* a broken GPU leaves the queue to the others */
				fprintf(stderr, "%s%d problems in a row failed on this GPU; it takes no more (the other GPUs go on)\n",
					tag, failed_in_a_row);
				break;
			}
			continue;
		}
		snprintf(r->platform, sizeof r->platform, "%s", plat.key);
		r->flush_read = 1; /* src/bench.c's flush_l2 with the kernel (every GPU run has it) */
		DLB_CHECK(dlb_result_save(db, r)); /* a restricted search's under its own key (only=) */
		tell(fd, MSG_DONE, pi, 0, r->key);
		char tu[32], vb[32], sp[32], fl[32];
		fprintf(stderr,
			"%s: %s %s us, vendor best %s us, %sx, stream floor %s us\n%s    %s: %d of %d candidates, %ld "
			"samples, %.1f s; stopped: %s (%d ok, %d wrong, %d faults)\n",
			progress, r->found ? r->config : "no verified candidate",
			dlb_fmt_num(tu, sizeof tu, r->found ? r->tuned.median : NAN, "%.2f"),
			dlb_fmt_num(vb, sizeof vb, dlb_result_vendor_best_us(r), "%.2f"),
			dlb_fmt_num(sp, sizeof sp, dlb_result_speedup(r), "%.2f"),
			dlb_fmt_num(fl, sizeof fl, dlb_result_floor_us(r), "%.2f"), tag, r->search.strategy, r->search.evaluated, r->search.points,
			r->search.samples, r->search.seconds, r->search.why, r->counts[DLB_ST_OK],
			r->counts[DLB_ST_WRONG_ANSWER], r->counts[DLB_ST_RUNTIME_FAULT] + r->counts[DLB_ST_TIMEOUT]);
		if (x.data_note[0])
			fprintf(stderr, "%s    data: %s\n", tag, x.data_note);
		if (r->paired.n)
			fprintf(stderr, "%s    side by side with %s, %d pairs: %.2f against %.2f us, paired speedup %.2fx [%.2f, "
					"%.2f]\n", tag, r->paired.vendor, r->paired.n, r->paired.tuned.median, r->paired.vendor_st.median,
				r->paired.speedup.median, r->paired.speedup.median_lo, r->paired.speedup.median_hi);
		if (x.ks) {
			const struct dlb_kernel_stats *k = &x.problem_kernels;
			fprintf(stderr, "%s    kernels: %d compiled (%.1f s of NVRTC), %d from the cache, %d failed; %.1f s "
					"waiting for the compiler; %d of %d compiled or cached so far\n", tag, k->compiled, k->nvrtc_s,
				k->cached, k->failed, k->wait_s, x.ks->st.compiled + x.ks->st.cached, ncand - nlimit);
		}
		dlb_result_free(r);
	}
fail:
	worker_down(&x);
	if (x.ks)
		fprintf(stderr, "%skernels: %d compiled by NVRTC (%.1f s on %d threads), %d read from the kernel cache, %d "
				"failed, %d damaged cache entries replaced; %.1f s waiting for the compiler\n",
			tag, x.ks->st.compiled, x.ks->st.nvrtc_s, x.ks->server.threads, x.ks->st.cached, x.ks->st.failed,
			x.ks->st.corrupt, x.ks->st.wait_s);
	if (o->verbose)
		fprintf(stderr, "%skernel launches: %llu, worker restarts: %d, wall %.2f s\n", tag,
			(unsigned long long)x.launches, x.total_restarts, now_s() - t_start);
	if (x.ks) {
		x.ks->n = ncompiled; /* the extras are the caller's */
		dlb_kernels_close(x.ks);
	} else {
		free(cand);
	}
	free(x.sent);
	return rc;
}

/* A driver process: its own handles on the database and the kernel cache (LMDB environments are not used
 * across fork), then drive(); the parent hears of every problem and of the end. */
static int driver_child(const struct dlb_tune_opts *o, const struct dlb_suite *suite, const struct dlb_device *dev,
			const char *db_path, const char *kc_path, struct dlb_result *results, struct queue *q, int fd)
{
	int rc = 0;
	struct dlb_store *db = NULL, *kc = NULL;
	struct dlb_tune_opts oo = *o;
	char tag[32];
	snprintf(tag, sizeof tag, "GPU %d: ", dev->ordinal);
	DLB_CHECK(dlb_store_open(db_path, 0, &db));
	if (kc_path && dlb_store_open(kc_path, DLB_STORE_KERNELS, &kc))
		fprintf(stderr, "%sdlbtune: warning: no kernel cache (%s); every candidate is compiled\n", tag,
			dlb_last_error());
	oo.kcache = kc;
	rc = drive(&oo, suite, dev, db, results, q, fd, tag);
fail:
	tell(fd, MSG_END, -1, rc, NULL);
	dlb_store_close(kc);
	dlb_store_close(db);
	return rc;
}

struct driver {
	pid_t pid;
	int fd, ordinal, current, ended, rc;
	char error[512];
};

/* The parent of several drivers: reads what they tell until every one has ended; results of finished
 * problems come from the database. */
static int drive_many(const struct dlb_tune_opts *o, const struct dlb_suite *suite, const struct dlb_device *devs,
		      int ndev, struct dlb_store *db, struct dlb_result *results, struct queue *q)
{
	int rc = 0, running = 0, forwarded = 0;
	struct driver *d = calloc((size_t)ndev, sizeof *d);
	struct pollfd *pfd = calloc((size_t)ndev, sizeof *pfd);
	char kc_path[4200] = "";
	if (!d || !pfd)
		DLB_FAIL(ENOMEM, "out of memory");
	if (o->kcache)
		snprintf(kc_path, sizeof kc_path, "%s", dlb_store_path(o->kcache));
	pid_t parent = getpid();
	for (int g = 0; g < ndev; g++) /* none started yet: nothing for the cleanup below to stop */
		d[g] = (struct driver){.pid = -1, .fd = -1, .ordinal = devs[g].ordinal, .current = -1};
	fflush(NULL);
	for (int g = 0; g < ndev; g++) {
		int p[2];
		if (pipe(p))
			DLB_FAIL(errno, "pipe: %s", strerror(errno));
		pid_t pid = fork();
		if (pid < 0) {
			close(p[0]);
			close(p[1]);
			DLB_FAIL(errno, "fork: %s", strerror(errno));
		}
		if (pid == 0) {
			/* a driver ends with its parent (as an interrupt: it stores what finished), and hears of a parent
			 * gone from a failed write, not from SIGPIPE */
			prctl(PR_SET_PDEATHSIG, SIGTERM);
			signal(SIGPIPE, SIG_IGN);
			if (getppid() != parent)
				_exit(1);
			close(p[0]);
			for (int h = 0; h < g; h++)
				close(d[h].fd);
			int crc = driver_child(o, suite, &devs[g], dlb_store_path(db), *kc_path ? kc_path : NULL, results,
					       q, p[1]);
			_exit(crc == 0 ? 0 : crc == DLB_E_INTERRUPTED ? 130 : 1);
		}
		close(p[1]);
		d[g].pid = pid;
		d[g].fd = p[0];
		running++;
	}
	while (running) {
		int n = 0;
		for (int g = 0; g < ndev; g++)
			if (d[g].fd >= 0)
				pfd[n++] = (struct pollfd){.fd = d[g].fd, .events = POLLIN};
		if (dlb_interrupted && !forwarded) { /* a signal to the parent alone reaches the drivers too */
			for (int g = 0; g < ndev; g++)
				if (d[g].fd >= 0)
					kill(d[g].pid, SIGINT);
			forwarded = 1;
		}
		if (poll(pfd, (nfds_t)n, 500) <= 0)
			continue;
		for (int j = 0; j < n; j++) {
			if (!(pfd[j].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			struct driver *v = NULL;
			for (int g = 0; g < ndev; g++)
				if (d[g].fd == pfd[j].fd)
					v = &d[g];
			struct dlb_reply m = {0};
			struct drive_msg dm;
			int mr = dlb_msg_read_through(v->fd, &m);
			if (mr || m.len != sizeof dm) { /* the driver is gone, or says nonsense: then it goes */
				dlb_reply_free(&m);
				if (mr != DLB_SUP_DIED)
					kill(v->pid, SIGKILL);
				close(v->fd);
				v->fd = -1;
				running--;
				int st = 0;
				while (waitpid(v->pid, &st, 0) < 0 && errno == EINTR)
					;
				if (!v->ended) {
					v->rc = DLB_E_CUDA;
					snprintf(v->error, sizeof v->error, "the driver process of GPU %d ended without a word "
									    "(status 0x%x)", v->ordinal, st);
					if (v->current >= 0)
						results[v->current].failed = 1;
				}
				continue;
			}
			uint32_t type = m.type;
			memcpy(&dm, m.payload, sizeof dm);
			dlb_reply_free(&m);
			if (type == MSG_STARTED) {
				v->current = dm.index;
			} else if (type == MSG_DONE) {
				struct dlb_result *r = &results[dm.index];
				v->current = -1;
				if (dm.rc == 0) {
					struct dlb_problem keep = r->p;
					int lr = dlb_result_load(db, dm.key, 0, r);
					r->p = keep;
					if (lr) {
						fprintf(stderr, "dlbtune: error: GPU %d's result for problem %d cannot be read back: "
								"%s\n", v->ordinal, dm.index + 1, dlb_last_error());
						r->failed = 1;
					}
				}
				r->failed |= dm.rc != 0 && dm.rc != DLB_E_INTERRUPTED;
				r->ran_on = v->ordinal + 1;
			} else if (type == MSG_END) {
				if (v->current >= 0 && dm.rc != DLB_E_INTERRUPTED) /* it ended inside a problem */
					results[v->current].failed = 1;
				v->current = -1;
				v->ended = 1;
				v->rc = dm.rc;
				snprintf(v->error, sizeof v->error, "%s", dm.error);
			}
		}
	}
	for (int g = 0; g < ndev; g++) /* an interrupt first, then the first driver's failure */
		if (d[g].rc == DLB_E_INTERRUPTED)
			DLB_FAIL(DLB_E_INTERRUPTED, "%s", d[g].error);
	for (int g = 0; g < ndev; g++)
		if (d[g].rc)
			DLB_FAIL(d[g].rc, "GPU %d: %s", d[g].ordinal, d[g].error);
fail:
	if (d)
		for (int g = 0; g < ndev; g++)
			if (d[g].fd >= 0 && d[g].pid > 0) { /* only after a failed fork: stop the ones started */
				kill(d[g].pid, SIGTERM);
				close(d[g].fd);
				waitpid(d[g].pid, NULL, 0);
			}
	free(d);
	free(pfd);
	return rc;
}

int dlb_tune(const struct dlb_tune_opts *o, const struct dlb_suite *suite, const struct dlb_device *devs, int ndev,
	     struct dlb_store *db, struct dlb_result *results)
{
	int rc = 0, misses = 0, next = 0, *shared = NULL;
	double t_start = now_s();
	char key[DLB_KEY_MAX + 1];
	struct queue q = {0};
	if (!(q.order = malloc((size_t)(suite->n ? suite->n : 1) * sizeof *q.order)))
		DLB_FAIL(ENOMEM, "out of memory");
	/* Database first: whatever is stored and current is answered without touching the GPU. A result of any of
	 * the GPUs answers. */
	for (int i = 0; i < suite->n; i++) {
		struct dlb_result *r = &results[i];
		int gr = DLB_E_NOTFOUND;
		memset(r, 0, sizeof *r);
		r->p = suite->problems[i];
		for (int g = 0; g < ndev && gr == DLB_E_NOTFOUND; g++) {
			DLB_CHECK(dlb_problem_key(&devs[g], o->per_gpu, &r->p, o->only, key, sizeof key));
			gr = o->retune ? DLB_E_NOTFOUND : dlb_result_load(db, key, 0, r);
		}
		if (gr == 0) {
			r->cached = 1;
			/* a result of another GPU of the same model: say where it was measured (the platform key starts
			 * with the UUID) */
			size_t ul = strcspn(r->platform, "|");
			int here = !*r->platform;
			for (int g = 0; g < ndev && !here; g++)
				here = strlen(devs[g].uuid) == ul && !strncmp(devs[g].uuid, r->platform, ul);
			if (!here)
				snprintf(r->elsewhere, sizeof r->elsewhere, "%.*s", (int)ul, r->platform);
			continue;
		}
		if (gr == DLB_E_JSON)
			fprintf(stderr, "dlbtune: warning: %s; tuning it again\n", dlb_last_error());
		else if (gr != DLB_E_NOTFOUND)
			DLB_CHECK(gr);
		memset(r, 0, sizeof *r);
		r->p = suite->problems[i];
		q.order[misses++] = i;
	}
	q.n = misses;
	int dirty = 0;
	for (int i = 0; i < suite->n; i++)
		dirty += results[i].cached && !results[i].flush_read;
	if (dirty)
		fprintf(stderr, "dlbtune: note: %d of the results answered from the database were timed after the older L2 "
				"flush, a memset that left the cache full of dirty lines for the first launches to write back "
				"(small memory-bound kernels, tuned and vendor alike, ran up to 30%% slower: docs/NOTES.md "
				"item 287); --retune measures them again\n", dirty);
	if (o->verbose)
		fprintf(stderr, "%d of %d problems answered from the database\n", suite->n - misses, suite->n);
	if (misses == 0) {
		if (o->verbose) /* the proof that a run answered from the database touched no GPU */
			fprintf(stderr, "kernel launches: 0, worker restarts: 0, wall %.2f s\n", now_s() - t_start);
		goto fail;
	}
	if (ndev > misses)
		ndev = misses; /* no GPU without a problem to take */
	if (ndev <= 1) {
		q.next = &next;
		rc = drive(o, suite, &devs[0], db, results, &q, -1, "");
		goto fail;
	}
	shared = mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		shared = NULL;
		DLB_FAIL(errno, "mmap: %s", strerror(errno));
	}
	*shared = 0;
	q.next = shared;
	rc = drive_many(o, suite, devs, ndev, db, results, &q);
fail:
	if (shared)
		munmap(shared, sizeof *shared);
	free(q.order);
	return rc;
}
