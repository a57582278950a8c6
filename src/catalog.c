/* catalog: load best records in key order, decode them, mark stale ones, filter. */
#define _GNU_SOURCE /* strcasestr */
#include "catalog.h"

#include "../store/record.h"
#include "device.h"
#include "embedded.h"
#include "err.h"
#include "jit.h"
#include "op.h"
#include "supervise.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

uint64_t dlb_op_template_hash(const char *op_name, const char *prec_name)
{
	enum dlb_prec prec;
	const struct dlb_op *op = dlb_prec_parse(prec_name, &prec) ? NULL : dlb_op_find(op_name, prec);
	return op ? dlb_op_template_hash_of(op) : 0;
}

void dlb_key_of_problem(const struct dlb_problem *p, struct dlb_key *k)
{
	const struct dlb_lib *lib = p->op->family->vendor_lib;
	snprintf(k->op, sizeof k->op, "%s", p->op->name);
	snprintf(k->prec, sizeof k->prec, "%s", dlb_prec_name(p->prec));
	dlb_problem_layout(p, k->layout, sizeof k->layout);
	dlb_problem_shape(p, k->shape, sizeof k->shape);
	snprintf(k->vlib, sizeof k->vlib, "%s", lib->key);
	k->vlib_version = lib->version();
	k->tpl_hash = dlb_op_template_hash_of(p->op);
}

int dlb_key_matches_build(const struct dlb_key *k, const struct dlb_versions *build, char *why, size_t len)
{
	struct dlb_versions v;
	if (build)
		v = *build;
	else
		dlb_versions_get(&v);
	enum dlb_prec prec;
	const struct dlb_op *op = dlb_prec_parse(k->prec, &prec) ? NULL : dlb_op_find(k->op, prec);
	if (!op)
		return snprintf(why, len, "op %s %s is not in this build", k->op, k->prec), 1;
	const struct dlb_lib *lib = op->family->vendor_lib;
	if (k->tpl_hash != dlb_op_template_hash(k->op, k->prec))
		return snprintf(why, len, "another %s %s template", k->op, k->prec), 1;
	if (k->cuda != v.runtime)
		return snprintf(why, len, "CUDA runtime %d, this build %d", k->cuda, v.runtime), 1;
	if (k->nvrtc != v.nvrtc_major * 100 + v.nvrtc_minor)
		return snprintf(why, len, "NVRTC %d, this build %d", k->nvrtc, v.nvrtc_major * 100 + v.nvrtc_minor), 1;
	if (strcmp(k->vlib, lib->key) || k->vlib_version != lib->version())
		return snprintf(why, len, "%s %lld, this build %s %lld", k->vlib, k->vlib_version, lib->name, lib->version()), 1;
	return 0;
}

/* --device's filter: a substring of the GPU's name, of the key's id (a model or a UUID), or of the UUID of the
 * GPU that measured it (the platform key starts with it). */
static int device_matches(const struct dlb_key *k, const char *platform, const char *dev)
{
	char uuid[64];
	snprintf(uuid, sizeof uuid, "%.*s", (int)strcspn(platform, "|"), platform);
	return !dev || strcasestr(k->gpu, dev) || strcasestr(k->id, dev) || strcasestr(uuid, dev);
}

static int same_problem_gpu(const struct dlb_key *a, const struct dlb_key *b)
{
	return !strcmp(a->op, b->op) && !strcmp(a->prec, b->prec) && !strcmp(a->layout, b->layout) &&
	       !strcmp(a->shape, b->shape) && !strcmp(a->id, b->id) && !strcmp(a->only, b->only);
}

/* --only's filter (struct dlb_filter's only) on a key's restriction, where '|' is stored as '/' and a long one as
 * its prefix and hash (dlb_key_only_text) */
static int only_matches(const char *key_only, const char *want_text)
{
	if (want_text && !strcmp(want_text, "*"))
		return 1;
	if (!want_text)
		return !*key_only;
	char buf[sizeof ((struct dlb_key *)0)->only];
	dlb_key_only_text(want_text, buf, sizeof buf); /* as the key holds it */
	const char *want = buf;
	for (; *want && *key_only; want++, key_only++)
		if (*key_only != (*want == '|' ? '/' : *want))
			return 0;
	return !*want && !*key_only;
}

int dlb_catalog_load(struct dlb_store *s, const struct dlb_filter *f, struct dlb_row **rows, int *n)
{
	int rc = 0;
	struct {
		struct dlb_row *rows;
		int n, unreadable;
	} c = {NULL, 0, 0};
	char **keys = NULL;
	int nkeys = 0;
	*rows = NULL;
	*n = 0;
	DLB_CHECK(dlb_store_keys(s, DLB_T_BEST, "", &keys, &nkeys));
	c.rows = calloc(nkeys ? (size_t)nkeys : 1, sizeof *c.rows);
	if (!c.rows)
		DLB_FAIL(ENOMEM, "out of memory");
	for (int i = 0; i < nkeys; i++) {
		struct dlb_row *row = &c.rows[c.n];
		if (strlen(keys[i]) >= sizeof row->r.key || dlb_key_decode(keys[i], strlen(keys[i]), &row->k)) {
			c.unreadable++;
			continue;
		}
		snprintf(row->r.key, sizeof row->r.key, "%s", keys[i]);
		c.n++;
	}
	if (c.unreadable)
		fprintf(stderr, "dlbtune: warning: %d best records have unreadable keys (see `dlbtune db verify`)\n",
			c.unreadable);
	/* Stale: built differently, or superseded by a newer driver on the same GPU — as measured by this
	 * build: a result of another build never makes one of this build stale. */
	for (int i = 0; i < c.n; i++)
		c.rows[i].stale = c.rows[i].other_build =
			dlb_key_matches_build(&c.rows[i].k, f->build, c.rows[i].why, sizeof c.rows[i].why) != 0;
	for (int i = 0; i < c.n; i++) {
		struct dlb_row *a = &c.rows[i];
		if (dlb_interrupted) /* Ctrl-C in a walk of a large database (list, show, gc, export) */
			DLB_USER_FAIL(DLB_E_INTERRUPTED, "interrupted while reading %d results", c.n);
		if (a->stale)
			continue;
		for (int j = 0; j < c.n; j++)
			if (j != i && !c.rows[j].other_build && c.rows[j].k.driver > a->k.driver &&
			    same_problem_gpu(&a->k, &c.rows[j].k)) {
				a->stale = 1;
				snprintf(a->why, sizeof a->why, "driver %d; remeasured under driver %d", a->k.driver,
					 c.rows[j].k.driver);
				break;
			}
	}
	int keep = 0;
	for (int i = 0; i < c.n; i++) {
		struct dlb_row *a = &c.rows[i];
		enum dlb_prec prec;
		if (dlb_interrupted) {
			for (int j = 0; j < keep; j++)
				dlb_result_free(&c.rows[j].r);
			DLB_USER_FAIL(DLB_E_INTERRUPTED, "interrupted after reading %d of %d results", i, c.n);
		}
		int ok = (!f->op || !strcmp(f->op, a->k.op)) && (!f->layout || !strcmp(f->layout, a->k.layout)) &&
			 (f->prec < 0 || (dlb_prec_parse(a->k.prec, &prec) == 0 && (int)prec == f->prec)) &&
			 (f->currency == DLB_ANY_VERSION || (f->currency == DLB_STALE) == a->stale) &&
			 only_matches(a->k.only, f->only);
		if (!ok)
			continue;
		struct dlb_row row = *a;
		char key[sizeof row.r.key];
		snprintf(key, sizeof key, "%s", a->r.key);
		rc = dlb_result_load(s, key, 0, &row.r);
		if (rc == DLB_E_JSON) {
			fprintf(stderr, "dlbtune: warning: %s; skipped\n", dlb_last_error());
			rc = 0;
			continue;
		}
		DLB_CHECK(rc);
		if (!device_matches(&a->k, row.r.platform, f->device) || dlb_prec_parse(a->k.prec, &row.r.p.prec)) {
			dlb_result_free(&row.r);
			continue;
		}
		row.r.p.op = dlb_op_find(a->k.op, row.r.p.prec);
		if (!row.r.p.op || dlb_problem_from_text(&row.r.p, a->k.layout, a->k.shape))
			continue;
		row.r.cached = 1;
		c.rows[keep++] = row;
	}
	*rows = c.rows;
	*n = keep;
	c.rows = NULL;
fail:
	free(c.rows);
	dlb_keys_free(keys, nkeys);
	return rc;
}

void dlb_catalog_free(struct dlb_row *rows, int n)
{
	for (int i = 0; i < n; i++)
		dlb_result_free(&rows[i].r);
	free(rows);
}

/* Euclidean in log2 of the SIZE and REAL dims, and another layout one doubling away. */
static double default_distance(const struct dlb_problem *a, const struct dlb_problem *b)
{
	const struct dlb_family *f = a->op->family;
	double sum = 0;
	int other_layout = 0;
	for (int d = 0; d < f->ndims; d++) {
		if (f->dims[d].kind == DLB_DIM_CHOICE) {
			other_layout |= a->dim[d] != b->dim[d];
			continue;
		}
		double x = log2((double)a->dim[d] / (double)b->dim[d]);
		sum += x * x;
	}
	return sqrt(sum) + other_layout;
}

double dlb_problem_distance(const struct dlb_problem *a, const struct dlb_problem *b)
{
	const struct dlb_family *f = a->op->family;
	return f->distance ? f->distance(a, b) : default_distance(a, b);
}

int dlb_rows_nearest(const struct dlb_row *rows, int nrows, const struct dlb_problem *p, const char *gpu_id, int max,
		     char (*configs)[128])
{
	double dist[16];
	int n = 0;
	if (max > 16)
		max = 16;
	for (int i = 0; i < nrows; i++) {
		const struct dlb_row *w = &rows[i];
		if (!w->r.found || strcmp(w->k.id, gpu_id) || w->r.p.op != p->op || dlb_problem_same_dims(&w->r.p, p))
			continue;
		double d = dlb_problem_distance(&w->r.p, p);
		int dup = 0;
		for (int j = 0; j < n && !dup; j++)
			dup = !strcmp(configs[j], w->r.config);
		if (dup)
			continue;
		int at = n < max ? n++ : max; /* insertion into the sorted list; max: past its end */
		while (at > 0 && dist[at - 1] > d) {
			if (at < max) {
				dist[at] = dist[at - 1];
				memcpy(configs[at], configs[at - 1], 128);
			}
			at--;
		}
		if (at < max) {
			dist[at] = d;
			snprintf(configs[at], 128, "%s", w->r.config);
		}
	}
	return n;
}

int dlb_catalog_nearest(struct dlb_store *s, const struct dlb_problem *p, const char *gpu_id, const char *only,
			const struct dlb_versions *build, int max, char (*configs)[128], int *n)
{
	int rc = 0, nrows = 0;
	struct dlb_row *rows = NULL;
	struct dlb_filter f = {.op = p->op->name, .prec = (int)p->prec, .currency = DLB_CURRENT, .build = build,
			       .only = only};
	*n = 0;
	DLB_CHECK(dlb_catalog_load(s, &f, &rows, &nrows));
	*n = dlb_rows_nearest(rows, nrows, p, gpu_id, max, configs);
fail:
	dlb_catalog_free(rows, nrows);
	return rc;
}

/* The platform record `key` into *p: 0, the store's error (DLB_E_NOTFOUND: none), or DLB_E_PARSE. */
int dlb_platform_get(struct dlb_store *s, const char *key, struct dlb_platform *p)
{
	char *text = NULL;
	int got = dlb_store_get(s, DLB_T_PLATFORMS, key, &text);
	if (got)
		return got;
	json_t *j = dlb_json_parse(text, strlen(text));
	int bad = dlb_platform_from_json(j, p);
	json_decref(j);
	free(text);
	return bad ? DLB_E_PARSE : 0;
}

double dlb_result_gbs(struct dlb_store *s, const struct dlb_result *r)
{
	struct dlb_platform p;
	if (isfinite(r->mem_peak) && r->mem_peak > 0)
		return r->mem_peak;
	if (!*r->platform || dlb_platform_get(s, r->platform, &p))
		return NAN;
	struct dlb_device d = {.mem_clock_khz = p.mem_clock_mhz * 1000, .mem_bus_bits = p.mem_bus_bits};
	return dlb_device_peak_gbs(&d);
}
