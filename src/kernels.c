/* kernels: per candidate NEW (not looked for) -> ASKED (not in the cache; given to the compiler process) ->
 * STARTED (it said so; claimed in the cache) -> READY (cand[i].job holds the cubin or the failure). A cache
 * hit goes from NEW to READY. ELSEWHERE: another process sharing the cache claimed it (it is compiling it):
 * not given to our compiler; read from the cache when it is there, asked for again if the claim goes away. */
#define _GNU_SOURCE /* memmem */
#include "kernels.h"

#include "../store/kcache.h"
#include "err.h"
#include "supervise.h"
#include "tune.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { NEW, ASKED, STARTED, READY, ELSEWHERE };

#define MAX_RESTARTS 8 /* of the compiler process in one run */

/* The compile options apart from the target: part of every cache key (src/jit.c uses the same list). */
static const char *options_text(void)
{
	return dlb_jit_options();
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* 1 when text contains one of the '|'-separated pieces of only (an empty piece matches everything), or, for a
 * piece "family:NAME", when the configuration's kernel family (dlb_op_config_family) begins with NAME. */
static int matches_any(const struct dlb_op *op, const char *text, const char *only)
{
	for (const char *p = only;; p++) {
		size_t len = strcspn(p, "|");
		const size_t fl = sizeof "family:" - 1;
		const char *fam = len > fl && !strncmp(p, "family:", fl) ? dlb_op_config_family(op, text) : NULL;
		if (fam ? !strncmp(fam, p + fl, len - fl) : memmem(text, strlen(text), p, len) != NULL)
			return 1;
		p += len;
		if (!*p)
			return 0;
	}
}

char *dlb_kernels_source(const struct dlb_kernels *k, int i)
{
	size_t a = strlen(k->defines[i]), b = strlen(k->tpl);
	char *s = malloc(a + b + 1);
	if (s) {
		memcpy(s, k->defines[i], a);
		memcpy(s + a, k->tpl, b + 1);
	}
	return s;
}

/* In the compiler process: the source of job i, from the parent's data as it was at the fork. */
static char *source_of(void *arg, int i)
{
	return dlb_kernels_source(arg, i);
}

int dlb_kernels_for(const struct dlb_kernels *k, const struct dlb_problem *p, int i)
{
	int s = k->nspec > 1 && k->op->spec_of ? k->op->spec_of(p, k->cand[i].cfg.v) : 0;
	return (s >= 0 && s < k->nspec ? s : 0) * k->nconf + i;
}

const char *dlb_kernels_spec_name(const struct dlb_kernels *k, int i)
{
	return k->nspec > 1 ? k->op->spec_names[i / k->nconf] : "";
}

int dlb_kernels_fd(const struct dlb_kernels *k)
{
	return k->server.pid > 0 ? k->server.from : -1;
}

int dlb_kernels_ready(const struct dlb_kernels *k, int i)
{
	return k->state[i] == READY;
}

static void unclaim(struct dlb_kernels *k, int st);

static int flush_cache(struct dlb_kernels *k)
{
	int rc = 0;
	if (!k->nunsaved)
		return 0;
	if (k->cache && k->cache_writes) {
		char **keys = malloc((size_t)k->nunsaved * sizeof *keys), **defs = malloc((size_t)k->nunsaved * sizeof *defs);
		struct dlb_jit_job **jobs = malloc((size_t)k->nunsaved * sizeof *jobs);
		if (keys && defs && jobs) {
			for (int j = 0; j < k->nunsaved; j++) {
				keys[j] = k->keys[k->unsaved[j]];
				defs[j] = k->defines[k->unsaved[j]];
				jobs[j] = &k->cand[k->unsaved[j]].job;
			}
			rc = dlb_kcache_put(k->cache, keys, defs, jobs, k->nunsaved);
		} else {
			rc = ENOMEM;
		}
		free(keys);
		free(defs);
		free(jobs);
		if (rc) { /* the run goes on; later runs compile these again; nobody waits for our entries */
			fprintf(stderr, "\ndlbtune: warning: cannot write the kernel cache (%s); going on without storing "
					"compiled kernels\n", *dlb_last_error() ? dlb_last_error() : dlb_strerror(rc));
			k->cache_writes = 0;
			rc = 0;
			unclaim(k, -1);
		} else {
			for (int j = 0; j < k->nunsaved; j++) /* the put dropped their claims */
				k->claimed[k->unsaved[j]] = 0;
		}
	}
	k->nunsaved = 0;
	return rc;
}

/* Drop our claims of the candidates in state st (all we claimed: -1): compiles that will leave no entry. */
static void unclaim(struct dlb_kernels *k, int st)
{
	int n = 0;
	char **keys = malloc((size_t)(k->n ? k->n : 1) * sizeof *keys);
	if (!keys || !k->cache)
		goto done;
	for (int i = 0; i < k->n; i++)
		if (k->claimed[i] && (st < 0 || k->state[i] == st)) {
			keys[n++] = k->keys[i];
			k->claimed[i] = 0;
		}
	if (dlb_kcache_unclaim(k->cache, keys, n) && k->verbose)
		fprintf(stderr, "\ndlbtune: warning: dropping claims in the kernel cache: %s\n", dlb_last_error());
done:
	free(keys);
}

/* ASKED -> ELSEWHERE when another process claimed it (it compiles it; we wait for its entry). 1 when so. */
static int elsewhere(struct dlb_kernels *k, int i)
{
	if (k->state[i] != ASKED || !k->cache || !dlb_kcache_claimed(k->cache, k->keys[i]))
		return 0;
	k->state[i] = ELSEWHERE;
	return 1;
}

static void ready(struct dlb_kernels *k, int i, struct dlb_jit_job *job)
{
	struct dlb_jit_job *j = &k->cand[i].job;
	const char *arch = j->arch;
	dlb_jit_job_free(j);
	*j = *job;
	j->source = NULL;
	j->arch = arch;
	k->state[i] = READY;
	k->st.failed += j->rc != 0;
}

static int restart_server(struct dlb_kernels *k);

/* One event from the compiler process, waiting up to timeout_s: 0 (or DLB_E_NOTFOUND when none came). A
 * process that died fails the jobs it had started, and is started again for the rest. */
static int take_one(struct dlb_kernels *k, double timeout_s)
{
	int rc = 0;
	struct dlb_jit_event ev;
	if (k->server.pid <= 0)
		DLB_FAIL(DLB_E_NVRTC, "the compiler process is not running (%s)", k->server.why);
	rc = dlb_jit_server_take(&k->server, timeout_s, &ev);
	if (rc == DLB_E_NVRTC) { /* it died: the jobs in flight are its victims (not cached: no verdict) */
		unclaim(k, STARTED);
		for (int i = 0; i < k->n; i++)
			if (k->state[i] == STARTED) {
				struct dlb_jit_job j = {.rc = DLB_E_NVRTC, .log = NULL};
				char why[256];
				snprintf(why, sizeof why, "%s while compiling this candidate", k->server.why);
				j.log = strdup(why);
				ready(k, i, &j);
			}
		return restart_server(k);
	}
	if (rc)
		goto fail;
	if (ev.id < 0 || ev.id >= k->n) {
		if (ev.kind == DLB_JIT_DONE)
			dlb_jit_job_free(&ev.job);
		DLB_FAIL(DLB_E_NVRTC, "the compiler process named candidate %d of %d", ev.id, k->n);
	}
	if (ev.kind == DLB_JIT_STARTED) {
		if (k->state[ev.id] != READY)
			k->state[ev.id] = STARTED;
		if (k->cache && k->cache_writes && !k->claimed[ev.id] && dlb_kcache_claim(k->cache, k->keys[ev.id]) == 0)
			k->claimed[ev.id] = 1;
		return 0;
	}
	if (k->state[ev.id] == READY) { /* cannot happen: each id is compiled once per process */
		dlb_jit_job_free(&ev.job);
		return 0;
	}
	ready(k, ev.id, &ev.job);
	k->st.compiled++;
	k->st.nvrtc_s += k->cand[ev.id].job.seconds;
	k->unsaved[k->nunsaved++] = ev.id;
fail:
	return rc;
}

/* Read candidate i from the cache: 1 when it was there (and is now READY), 0 when not. */
static int from_cache(struct dlb_kernels *k, int i)
{
	if (!k->cache)
		return 0;
	struct dlb_jit_job j = {0};
	int rc = dlb_kcache_get(k->cache, k->keys[i], k->defines[i], &j);
	if (rc == DLB_E_CORRUPT) {
		k->st.corrupt++;
		if (k->verbose)
			fprintf(stderr, "\ndlbtune: %s; compiling it again\n", dlb_last_error());
	} else if (rc && rc != DLB_E_NOTFOUND && k->verbose) {
		fprintf(stderr, "\ndlbtune: warning: reading the kernel cache: %s\n", dlb_last_error());
	}
	if (rc)
		return 0;
	ready(k, i, &j);
	k->st.cached++;
	return 1;
}

static int send_want(struct dlb_kernels *k)
{
	int rc = 0, n = 0;
	int *ids = malloc((size_t)(k->nwant ? k->nwant : 1) * sizeof *ids);
	if (!ids)
		DLB_FAIL(ENOMEM, "out of memory");
	for (int j = 0; j < k->nwant; j++)
		if (k->state[k->want[j]] == ASKED && !elsewhere(k, k->want[j]))
			ids[n++] = k->want[j];
	DLB_CHECK(dlb_jit_server_want(&k->server, ids, n));
fail:
	free(ids);
	return rc;
}

static int restart_server(struct dlb_kernels *k)
{
	int rc = 0;
	char why[160];
	snprintf(why, sizeof why, "%s", k->server.why);
	dlb_jit_server_stop(&k->server);
	if (++k->restarts > MAX_RESTARTS) { /* a compiler that keeps dying: what it has left fails with it */
		for (int i = 0; i < k->n; i++)
			if (k->state[i] == ASKED) {
				struct dlb_jit_job j = {.rc = DLB_E_NVRTC};
				j.log = strdup("not compiled: the compiler process died too often in this run");
				ready(k, i, &j);
			}
		return 0;
	}
	if (k->verbose)
		fprintf(stderr, "\ndlbtune: %s; starting the compiler process again\n", why);
	DLB_CHECK(dlb_jit_server_start(&k->server, k->threads, k->arch, k->n, source_of, k));
	DLB_CHECK(send_want(k));
fail:
	return rc;
}

int dlb_kernels_ahead(struct dlb_kernels *k, const int *ids, int n)
{
	int rc = 0;
	k->nwant = 0;
	for (int j = 0; j < n; j++) {
		int i = ids[j];
		if (i < 0 || i >= k->n || k->state[i] == READY)
			continue;
		if ((k->state[i] == NEW || k->state[i] == ELSEWHERE) && from_cache(k, i))
			continue;
		if (k->state[i] == NEW || k->state[i] == ELSEWHERE) /* send_want looks at the claims again */
			k->state[i] = ASKED;
		int dup = 0;
		for (int q = 0; q < k->nwant && !dup; q++)
			dup = k->want[q] == i;
		if (!dup)
			k->want[k->nwant++] = i;
	}
	if (k->server.pid > 0)
		DLB_CHECK(send_want(k));
fail:
	return rc;
}

int dlb_kernels_poll(struct dlb_kernels *k)
{
	int rc = 0;
	while (k->server.pid > 0 && (rc = take_one(k, 0)) == 0)
		;
	if (rc == DLB_E_NOTFOUND)
		rc = 0;
	if (!rc)
		rc = flush_cache(k);
	return rc;
}

int dlb_kernels_need(struct dlb_kernels *k, int i)
{
	int which;
	return dlb_kernels_any(k, &i, 1, &which);
}

int dlb_kernels_any(struct dlb_kernels *k, const int *ids, int n, int *which)
{
	int rc = 0;
	double t0 = now_s();
	int waited = 0, told = -1; /* told: the compiler process (by its restart count) that was asked */
	*which = 0;
	for (;;) {
		for (int j = 0; j < n; j++)
			if (k->state[ids[j]] == READY) {
				*which = j;
				goto done;
			}
		int away = 0; /* compiled by another process: poll the cache more often */
		for (int j = 0; j < n; j++) { /* nothing ready: ask for those nobody asked for, the first first */
			int i = ids[j];
			if ((k->state[i] == NEW || k->state[i] == ELSEWHERE) && from_cache(k, i)) {
				*which = j;
				goto done;
			}
			if (k->state[i] == NEW)
				k->state[i] = ASKED;
			if (k->state[i] == ELSEWHERE && !dlb_kcache_claimed(k->cache, k->keys[i])) {
				k->state[i] = ASKED; /* its claim went without an entry: ours to compile */
				told = -1;
				if (k->server.pid <= 0) { /* ours gave up: it fails as restart_server failed the rest */
					struct dlb_jit_job gone = {.rc = DLB_E_NVRTC};
					gone.log = strdup("not compiled: the compiler process died too often in this run, and "
							  "the process that claimed it left no entry");
					ready(k, i, &gone);
					*which = j;
					goto done;
				}
			}
		}
		if (told != k->restarts) { /* a process started again knows nothing of them */
			for (int j = n - 1; j >= 0; j--) /* in front of the queue, ids[0] first */
				if (k->state[ids[j]] == ASKED && !elsewhere(k, ids[j]) && k->server.pid > 0)
					DLB_CHECK(dlb_jit_server_urgent(&k->server, ids[j]));
			told = k->restarts;
		}
		for (int j = 0; j < n; j++)
			away += k->state[ids[j]] == ELSEWHERE;
		waited = 1;
		if (dlb_interrupted)
			DLB_FAIL(DLB_E_INTERRUPTED, "interrupted while compiling");
		if (k->server.pid <= 0 && away) { /* ours gave up (restart_server); another process's may still come */
			usleep(100000);
			continue;
		}
		rc = take_one(k, away ? 0.1 : 1.0);
		if (rc == DLB_E_NOTFOUND)
			rc = 0;
		DLB_CHECK(rc);
		/* what ours compiled goes into the cache now: another process may be waiting for it, as this one
		 * may be for another's */
		DLB_CHECK(flush_cache(k));
		if (k->progress && isatty(STDERR_FILENO))
			fprintf(stderr, "\rcompiling: %d compiled, %d from the cache", k->st.compiled, k->st.cached);
	}
done:
	if (waited)
		k->st.wait_s += now_s() - t0;
	rc = flush_cache(k);
fail:
	return rc;
}

int dlb_kernels_all(struct dlb_kernels *k)
{
	int rc = 0, *all = malloc((size_t)(k->n ? k->n : 1) * sizeof *all);
	if (!all)
		DLB_FAIL(ENOMEM, "out of memory");
	for (int i = 0; i < k->n; i++)
		all[i] = i;
	rc = dlb_kernels_some(k, all, k->n);
fail:
	free(all);
	return rc;
}

int dlb_kernels_some(struct dlb_kernels *k, const int *want, int n)
{
	int rc = 0, *ids = malloc((size_t)(n ? n : 1) * sizeof *ids), m = 0;
	if (!ids)
		DLB_FAIL(ENOMEM, "out of memory");
	for (int j = 0; j < n; j++)
		if (want[j] >= 0 && want[j] < k->n && k->state[want[j]] != READY)
			ids[m++] = want[j];
	DLB_CHECK(dlb_kernels_ahead(k, ids, m));
	k->progress = 1;
	for (int j = 0; j < m; j++)
		DLB_CHECK(dlb_kernels_need(k, ids[j]));
	if (m && isatty(STDERR_FILENO))
		fputc('\n', stderr);
fail:
	k->progress = 0;
	free(ids);
	return rc;
}

int dlb_kernels_open(const struct dlb_op *op, const char *arch, const struct dlb_limits *lim, int every,
		     const char *only, struct dlb_store *cache, int threads, int verbose, struct dlb_kernels **out)
{
	int rc = 0;
	struct dlb_config *cfgs = NULL;
	struct dlb_limits tl = *lim;
	struct dlb_kernels *k = calloc(1, sizeof *k);
	*out = NULL;
	if (!k)
		DLB_FAIL(ENOMEM, "out of memory");
	k->op = op;
	k->cache = cache;
	k->cache_writes = 1;
	k->threads = threads;
	k->verbose = verbose;
	k->server.pid = -1;
	snprintf(k->arch, sizeof k->arch, "%s", arch);
	if (!(k->tpl = dlb_op_template(op)))
		DLB_FAIL(DLB_E_PARSE, "the template of %s %s is not embedded in this binary", op->name,
			 dlb_prec_name(op->prec));
	dlb_limits_for_arch(arch, lim->sm != 0, &tl);
	int rejected[16] = {0};
	int count = dlb_space_enumerate(&op->space, NULL, &cfgs, rejected);
	if (count < 0)
		DLB_FAIL(ENOMEM, "out of memory enumerating the space");
	if (every > 1) { /* every every-th of each value of the first categorical parameter (each family) */
		int cat = -1, seen[DLB_MAX_VALUES] = {0}, kept = 0;
		for (int p = 0; p < op->space.nparams && cat < 0; p++)
			if (op->space.params[p].categorical)
				cat = p;
		for (int i = 0; i < count; i++) {
			int slot = 0;
			if (cat >= 0)
				while (slot < op->space.params[cat].nvalues - 1 &&
				       op->space.params[cat].values[slot] != cfgs[i].v[cat])
					slot++;
			if (seen[slot]++ % every == 0)
				cfgs[kept++] = cfgs[i];
		}
		count = kept;
	}
	if (verbose)
		for (int c = 0; c < op->space.nconstraints; c++)
			fprintf(stderr, "constraint \"%s\" removed %d configurations\n", op->space.constraints[c].text,
				rejected[c]);
	k->nconf = count;
	k->nspec = op->nspecs > 1 ? op->nspecs : 1;
	count *= k->nspec;
	size_t nn = (size_t)(count ? count : 1);
	k->cand = calloc(nn, sizeof *k->cand);
	k->state = calloc(nn, 1);
	k->defines = calloc(nn, sizeof *k->defines);
	k->keys = calloc(nn, sizeof *k->keys);
	k->want = calloc(nn, sizeof *k->want);
	k->unsaved = calloc(nn, sizeof *k->unsaved);
	k->claimed = calloc(nn, 1);
	if (!k->cand || !k->state || !k->defines || !k->keys || !k->want || !k->unsaved || !k->claimed)
		DLB_FAIL(ENOMEM, "out of memory");
	k->n = count;
	/* The compiler process first: its NVRTC is part of every key. */
	DLB_CHECK(dlb_jit_server_start(&k->server, threads, k->arch, count, source_of, k));
	const char *names[DLB_MAX_PARAMS];
	for (int p = 0; p < op->space.nparams; p++)
		names[p] = op->space.params[p].name;
	uint64_t tpl_hash = dlb_hash64(k->tpl, strlen(k->tpl));
	for (int i = 0; i < count; i++) {
		struct dlb_candidate *c = &k->cand[i];
		int spec = i / k->nconf, ci = i % k->nconf;
		const char *sdef = k->nspec > 1 ? op->spec_defines[spec] : "";
		char key[DLB_KCACHE_KEY_MAX], keycfg[160], *d;
		c->cfg = cfgs[ci];
		dlb_config_format(&op->space, &cfgs[ci], c->text, sizeof c->text);
		c->job.arch = k->arch;
		if (!(d = dlb_jit_defines(op->defines, names, cfgs[ci].v, op->space.nparams)) ||
		    !(k->defines[i] = malloc(strlen(d) + strlen(sdef) + 1))) {
			free(d);
			DLB_FAIL(ENOMEM, "out of memory");
		}
		sprintf(k->defines[i], "%s%s", d, sdef);
		free(d);
		snprintf(keycfg, sizeof keycfg, "%s%s%s", c->text, k->nspec > 1 ? " " : "",
			 k->nspec > 1 ? op->spec_names[spec] : "");
		DLB_CHECK(dlb_kcache_key(op->name, dlb_prec_name(op->prec), k->arch, k->server.compiler, options_text(),
					 tpl_hash, k->defines[i], keycfg, key, sizeof key));
		if (!(k->keys[i] = strdup(key)))
			DLB_FAIL(ENOMEM, "out of memory");
		int left_out = only && !matches_any(op, c->text, only);
		k->nonly += left_out && spec == 0;
		c->left_out = left_out;
		if (left_out || dlb_candidate_within_limits(op, c, &tl)) {
			c->job.rc = DLB_E_LIMIT; /* never compiled */
			k->state[i] = READY;
		}
	}
	if (only && k->nonly == k->nconf)
		DLB_USER_FAIL(DLB_E_USAGE, "--only '%s': no configuration of %s %s contains it (`dlbtune space --op %s "
					   "--prec %s -vv` lists them)",
			      only, op->name, dlb_prec_name(op->prec), op->name, dlb_prec_name(op->prec));
	/* the process was forked before the sources existed: it must see them, so start it again now */
	dlb_jit_server_stop(&k->server);
	DLB_CHECK(dlb_jit_server_start(&k->server, threads, k->arch, count, source_of, k));
	*out = k;
	k = NULL;
fail:
	free(cfgs);
	dlb_kernels_close(k);
	return rc;
}

void dlb_kernels_close(struct dlb_kernels *k)
{
	if (!k)
		return;
	(void)flush_cache(k);
	dlb_jit_server_stop(&k->server);
	if (k->claimed)
		unclaim(k, -1);
	free(k->claimed);
	for (int i = 0; i < k->n; i++) {
		free(k->defines[i]);
		free(k->keys[i]);
	}
	dlb_candidates_free(k->cand, k->n);
	free(k->state);
	free(k->defines);
	free(k->keys);
	free(k->want);
	free(k->unsaved);
	free(k->tpl);
	free(k);
}

/* ---- the cache's upkeep (db gc) ---- */

struct gc_scan {
	const char *compiler, *options;
	char **drop;
	int ndrop, cap, total;
};

/* 1 when this build can use the entry: its op and precision exist, and its compiler, options and template
 * are this build's; the target may be any. */
static int usable(const struct gc_scan *g, const char *key, size_t kl, const char *v, size_t vl)
{
	struct dlb_kcache_key_fields f;
	enum dlb_prec prec;
	char want[64];
	if (dlb_kcache_key_parse(key, kl, &f) || dlb_kcache_check(v, vl) || dlb_prec_parse(f.prec, &prec))
		return 0;
	const struct dlb_op *op = dlb_op_find(f.op, prec);
	if (!op || strcmp(f.compiler, g->compiler))
		return 0;
	snprintf(want, sizeof want, "opt=%016llx", (unsigned long long)dlb_hash64(g->options, strlen(g->options)));
	if (strcmp(f.opt, want))
		return 0;
	char *tpl = dlb_op_template(op);
	if (!tpl)
		return 0;
	snprintf(want, sizeof want, "tpl=%016llx", (unsigned long long)dlb_hash64(tpl, strlen(tpl)));
	free(tpl);
	return !strcmp(f.tpl, want);
}

static int gc_scan_fn(const char *k, size_t kl, const char *v, size_t vl, void *arg)
{
	struct gc_scan *g = arg;
	g->total++;
	if (usable(g, k, kl, v, vl))
		return 0;
	if (g->ndrop == g->cap) {
		int cap = g->cap ? 2 * g->cap : 64;
		char **d = realloc(g->drop, (size_t)cap * sizeof *d);
		if (!d)
			return ENOMEM;
		g->drop = d;
		g->cap = cap;
	}
	if (!(g->drop[g->ndrop] = strndup(k, kl)))
		return ENOMEM;
	g->ndrop++;
	return 0;
}

static int gc_drop_fn(struct dlb_txn *t, void *arg)
{
	int rc = 0;
	struct gc_scan *g = arg;
	for (int i = 0; i < g->ndrop; i++)
		DLB_CHECK(dlb_txn_del(t, DLB_T_KERNELS, g->drop[i]));
fail:
	return rc;
}

int dlb_kernels_cache_gc(struct dlb_store *kc, int dry, int *dropped, int *total)
{
	int rc = 0;
	struct dlb_jit_server s;
	struct gc_scan g = {.options = options_text()};
	*dropped = *total = 0;
	/* this build's compiler, as the compiler process names it (the parent never loads NVRTC) */
	DLB_CHECK(dlb_jit_server_start(&s, 1, "", 0, source_of, NULL));
	char compiler[sizeof s.compiler];
	snprintf(compiler, sizeof compiler, "%s", s.compiler);
	dlb_jit_server_stop(&s);
	g.compiler = compiler;
	DLB_CHECK(dlb_store_each(kc, DLB_T_KERNELS, "", gc_scan_fn, &g));
	if (!dry && g.ndrop)
		DLB_CHECK(dlb_store_write(kc, gc_drop_fn, &g));
	*dropped = g.ndrop;
	*total = g.total;
fail:
	for (int i = 0; i < g.ndrop; i++)
		free(g.drop[i]);
	free(g.drop);
	return rc;
}
