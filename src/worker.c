/* worker: the request loop. Every reply carries the request's type; a failure carries dlb_last_error(). */
#include "worker.h"

#include "err.h"
#include "gpu.h"
#include "power.h"
#include "supervise.h"
#include "tune.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct worker {
	struct dlb_worker_ctx *w;
	struct dlb_device dev;
	struct dlb_gpu g;
	int dev_open, gpu_open;
	void *state; /* the current problem's */
	int problem;
	struct dlb_power *pw; /* NVML for energy bursts, opened on the first that asks; NULL: none (pw_why) */
	int pw_tried;
	char pw_why[160];
};

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int need_device(struct worker *k)
{
	int rc = 0;
	if (!k->dev_open) {
		DLB_CHECK(dlb_device_open(k->w->ordinal, &k->dev));
		k->dev_open = 1;
	}
fail:
	return rc;
}

static int need_gpu(struct worker *k)
{
	int rc = 0;
	DLB_CHECK(need_device(k));
	if (!k->gpu_open) {
		DLB_CHECK(dlb_gpu_open(&k->dev, &k->g));
		k->gpu_open = 1;
	}
fail:
	return rc;
}

/* The candidate, loaded into this worker on first use and checked against what the driver says its kernels
 * need: registers limit the threads a block may have. */
static int need_candidate(struct worker *k, int i, struct dlb_candidate **out)
{
	int rc = 0;
	const struct dlb_op *op = k->w->op;
	*out = NULL;
	if (!k->w->cand || i < 0 || i >= k->w->ncand)
		DLB_FAIL(DLB_E_USAGE, "no candidate %d", i);
	if (k->problem < 0)
		DLB_FAIL(DLB_E_USAGE, "no problem set up");
	struct dlb_candidate *c = &k->w->cand[i];
	if (c->job.rc || !c->job.cubin)
		DLB_FAIL(DLB_E_USAGE, "candidate %d was not compiled", i);
	DLB_CHECK(dlb_candidate_load(op, &k->dev, c));
	*out = c;
fail:
	return rc;
}

struct launch_ctx {
	const struct dlb_op *op;
	void *state;
	const struct dlb_candidate *c;
	int variant;
};

static int launch_one(void *ctx, int set)
{
	struct launch_ctx *x = ctx;
	return x->op->launch(x->state, x->c, x->variant, set);
}

struct vendor_launch_ctx {
	const struct dlb_op *op;
	void *state;
	int entry;
};

static int vendor_launch_one(void *ctx, int set)
{
	struct vendor_launch_ctx *x = ctx;
	return x->op->vendor_launch(x->state, x->entry, set);
}

/* The median of n samples (microseconds a launch); NAN if they cannot be summarised. */
static double median_of(const double *us, int n)
{
	double c[DLB_PAIRED_MAX];
	struct dlb_stats st;
	if (n < 1 || n > DLB_PAIRED_MAX)
		return NAN;
	memcpy(c, us, (size_t)n * sizeof *c);
	return dlb_stats_summarise(c, n, 0.95, &st) ? NAN : st.median;
}

/* Pair i: one sample of each, back to back, the order alternating from pair to pair so that neither always
 * runs right after the other (warm clocks, a cooler or hotter GPU). Both warm up first; the vendor then takes
 * the candidate's launches per sample, so each pair measures the same number of launches on the same sets. */
static int paired(struct worker *k, struct dlb_candidate *c, const struct dlb_w_paired_req *r, struct dlb_w_paired *v)
{
	int rc = 0, reps_t = 0, reps_v = 0, taken = 0;
	const struct dlb_op *op = k->w->op;
	struct launch_ctx x = {op, k->state, c, r->c.variant};
	struct vendor_launch_ctx y = {op, k->state, r->entry};
	int nsets = op->nsets(k->state);
	DLB_CHECK(dlb_bench_samples(&k->g.bench, vendor_launch_one, &y, nsets, &r->opts, &reps_v, 0, 0, NULL, &taken));
	DLB_CHECK(dlb_bench_samples(&k->g.bench, launch_one, &x, nsets, &r->opts, &reps_t, 0, 0, NULL, &taken));
	reps_v = reps_t;
	for (int i = 0; i < r->n; i++)
		for (int j = 0; j < 2; j++) {
			if ((i + j) % 2 == 0)
				DLB_CHECK(dlb_bench_samples(&k->g.bench, launch_one, &x, nsets, &r->opts, &reps_t, i, 1, &v->tuned[i],
							    &taken));
			else
				DLB_CHECK(dlb_bench_samples(&k->g.bench, vendor_launch_one, &y, nsets, &r->opts, &reps_v, i, 1,
							    &v->vendor[i], &taken));
		}
	v->n = r->n;
	v->reps = reps_t;
	memset(&v->e_tuned, 0, sizeof v->e_tuned);
	memset(&v->e_vendor, 0, sizeof v->e_vendor);
	v->power_why[0] = 0;
	if (r->power_ms > 0) { /* then each one's energy, at its median time per call from the pairs */
		if (!k->pw_tried) {
			char pci[32];
			k->pw_tried = 1;
			CUDA_CHECK(cudaDeviceGetPCIBusId(pci, (int)sizeof pci, k->dev.ordinal));
			DLB_CHECK(dlb_power_open(pci, &k->pw, k->pw_why, sizeof k->pw_why));
		}
		snprintf(v->power_why, sizeof v->power_why, "%s", k->pw ? "" : k->pw_why);
		/* ours, the vendor's, the vendor's, ours (ABBA): a burst runs hotter or cooler, and at another clock,
		 * by its place after the one before (the report's run01: the vendor's bursts, always second, ran at
		 * lower clocks under the power cap in 51 of the 71 rows where the clock fell) */
		double mt = median_of(v->tuned, r->n), mv = median_of(v->vendor, r->n);
		for (int i = 0; i < 4; i++) {
			int ours = i == 0 || i == 3;
			struct dlb_energy e;
			DLB_CHECK(dlb_bench_energy(&k->g.bench, k->pw, ours ? launch_one : vendor_launch_one, ours ? (void *)&x : (void *)&y,
						   nsets, ours ? mt : mv, r->power_ms, &e));
			dlb_energy_add(ours ? &v->e_tuned : &v->e_vendor, &e);
		}
	}
	memset(&v->rel_err, 0, sizeof v->rel_err);
	if (op->accuracy) { /* the winner's output once more, poisoned first, then its error at sampled outputs */
		struct dlb_check chk;
		DLB_CHECK(op->verify(k->state, c, r->c.variant, &chk));
		if (chk.ok)
			DLB_CHECK(op->accuracy(k->state, &v->rel_err));
	}
fail:
	return rc;
}

static int handle(struct worker *k, const struct dlb_reply *m, void *out, uint32_t *olen)
{
	int rc = 0;
	const struct dlb_op *op = k->w->op;
	struct dlb_candidate *c = NULL;
	*olen = 0;
	switch (m->type) {
	case DLB_W_HELLO: {
		struct dlb_w_hello *h = out;
		DLB_CHECK(need_device(k));
		h->dev = k->dev;
		DLB_CHECK(dlb_device_free_mem(&h->free_mem));
		DLB_CHECK(dlb_device_count(&h->count));
		*olen = sizeof *h;
		break;
	}
	case DLB_W_PROBLEM: {
		const struct dlb_w_index *r = m->payload;
		if (m->len != sizeof *r || !k->w->suite || r->index < 0 || r->index >= k->w->suite->n)
			DLB_FAIL(DLB_E_USAGE, "bad problem request");
		DLB_CHECK(need_gpu(k));
		if (k->state)
			op->teardown(k->state);
		k->state = NULL;
		k->problem = -1;
		DLB_CHECK(op->setup(&k->g, &k->w->suite->problems[r->index], &k->state));
		k->problem = r->index;
		if (op->data_note) { /* the reply: the op's line about the data, with its NUL */
			char *note = out;
			op->data_note(k->state, note, DLB_OP_NOTE_MAX);
			note[DLB_OP_NOTE_MAX - 1] = 0;
			*olen = (uint32_t)strlen(note) + 1;
		}
		break;
	}
	case DLB_W_VARIANTS: { /* from the configuration: the candidate need not be compiled yet */
		const struct dlb_w_cand *r = m->payload;
		struct dlb_w_variants *v = out;
		if (m->len != sizeof *r || !k->w->cand || r->cand < 0 || r->cand >= k->w->ncand || k->problem < 0)
			DLB_FAIL(DLB_E_USAGE, "bad variants request");
		if (op->variants) {
			v->n = op->variants(k->state, &k->w->cand[r->cand], v->values, DLB_W_MAX_VARIANTS);
		} else { /* no launch-time tunable: one launch, variant 1 */
			v->n = 1;
			v->values[0] = 1;
		}
		*olen = sizeof *v;
		break;
	}
	case DLB_W_VERIFY: {
		const struct dlb_w_cand *r = m->payload;
		struct dlb_w_verified *v = out;
		if (m->len != sizeof *r)
			DLB_FAIL(DLB_E_USAGE, "bad verify request");
		DLB_CHECK(need_candidate(k, r->cand, &c));
		double t0 = now_s();
		DLB_CHECK(op->verify(k->state, c, r->variant, &v->chk));
		v->seconds = now_s() - t0;
		*olen = sizeof *v;
		break;
	}
	case DLB_W_SAMPLES: {
		const struct dlb_w_sample_req *r = m->payload;
		struct dlb_w_samples *v = out;
		if (m->len != sizeof *r || r->k < 1 || r->k > DLB_W_MAX_SAMPLES || r->first < 0)
			DLB_FAIL(DLB_E_USAGE, "bad samples request");
		DLB_CHECK(need_candidate(k, r->c.cand, &c));
		struct launch_ctx x = {op, k->state, c, r->c.variant};
		v->reps = r->reps;
		DLB_CHECK(dlb_bench_samples(&k->g.bench, launch_one, &x, op->nsets(k->state), &r->opts, &v->reps, r->first,
					    r->k, v->us, &v->n));
		*olen = sizeof *v;
		break;
	}
	case DLB_W_VENDOR: {
		struct dlb_w_vendor *v = out;
		if (m->len != sizeof(struct dlb_bench_opts) || k->problem < 0)
			DLB_FAIL(DLB_E_USAGE, "bad vendor request");
		DLB_CHECK(op->vendor(k->state, m->payload, v->e, DLB_RESULT_MAX_VENDOR, &v->n));
		*olen = sizeof *v;
		break;
	}
	case DLB_W_PAIRED: {
		const struct dlb_w_paired_req *r = m->payload;
		if (m->len != sizeof *r || r->n < 1 || r->n > DLB_PAIRED_MAX || k->problem < 0 || !op->vendor_launch)
			DLB_FAIL(DLB_E_USAGE, "bad paired request");
		DLB_CHECK(need_candidate(k, r->c.cand, &c));
		DLB_CHECK(paired(k, c, r, out));
		*olen = sizeof(struct dlb_w_paired);
		break;
	}
	case DLB_W_CUBIN: { /* compiled after this worker was started */
		struct dlb_w_cand r;
		if (m->len <= sizeof r)
			DLB_FAIL(DLB_E_USAGE, "bad cubin request");
		memcpy(&r, m->payload, sizeof r);
		if (!k->w->cand || r.cand < 0 || r.cand >= k->w->ncand)
			DLB_FAIL(DLB_E_USAGE, "bad cubin request");
		c = &k->w->cand[r.cand];
		if (c->job.cubin) /* it had it already (the parent's copy, through fork) */
			break;
		if (!(c->job.cubin = malloc(m->len - sizeof r)))
			DLB_FAIL(ENOMEM, "out of memory for a cubin");
		memcpy(c->job.cubin, (const char *)m->payload + sizeof r, m->len - sizeof r);
		c->job.cubin_size = m->len - sizeof r;
		c->job.rc = 0;
		break;
	}
	case DLB_W_LAUNCHES: {
		uint64_t n = dlb_launch_count();
		memcpy(out, &n, sizeof n);
		*olen = sizeof n;
		break;
	}
	default:
		DLB_FAIL(DLB_E_USAGE, "unknown request %u", m->type);
	}
fail:
	return rc;
}

int dlb_worker_main(int in_fd, int out_fd, void *arg)
{
	struct worker k = {.w = arg, .problem = -1};
	struct dlb_reply m;
	union {
		struct dlb_w_hello h;
		struct dlb_w_variants v;
		struct dlb_w_verified f;
		struct dlb_w_samples sa;
		struct dlb_w_vendor vd;
		struct dlb_w_paired pa;
		uint64_t n;
		char note[DLB_OP_NOTE_MAX];
	} out;
	int sticky = 0;
	while (!sticky && dlb_msg_read(in_fd, &m) == 0) {
		if (m.type == DLB_MSG_QUIT) {
			dlb_reply_free(&m);
			break;
		}
		uint32_t olen = 0;
		dlb_clear_error();
		memset(&out, 0, sizeof out);
		int rc = handle(&k, &m, &out, &olen);
		const char *err = dlb_last_error();
		int wr = rc ? dlb_msg_write(out_fd, m.type, rc, err, (uint32_t)strlen(err))
			    : dlb_msg_write(out_fd, m.type, 0, &out, olen);
		sticky = rc == DLB_E_CUDA_STICKY; /* the context is poisoned: replied, now end */
		dlb_reply_free(&m);
		if (wr)
			break;
	}
	if (!sticky) {
		if (k.state)
			k.w->op->teardown(k.state);
		if (k.gpu_open)
			dlb_gpu_close(&k.g);
		if (k.dev_open)
			dlb_device_close(&k.dev);
	}
	dlb_power_close(k.pw);
	return sticky ? 3 : 0;
}
