/* merge: the better-supported side wins (dlb_result_support_cmp); trials are merged one by one, the one timed
 * after the L2 flush that reads, then the one with more samples winning; platforms widen their first/last-seen
 * window. */
#include "merge.h"

#include "../src/err.h"
#include "../src/op.h"
#include "../src/supervise.h"
#include "key.h"
#include "record.h"

#include <errno.h>
#include <jansson.h>
#include <lmdb.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct merge_ctx {
	const struct dlb_incoming *in;
	int outcome; /* 0 added, 1 replaced, 2 kept */
	char why[128];
	int trials_added, trials_replaced, platform_added;
};

static int merge_fn(struct dlb_txn *txn, void *arg)
{
	int rc = 0;
	struct merge_ctx *m = arg;
	const struct dlb_result *in = &m->in->r;
	char *old = NULL, k[700];
	json_t *j = NULL;
	struct dlb_result cur = {0};
	/* the transaction may run again after the map grows: start clean */
	m->outcome = 0;
	m->why[0] = 0;
	m->trials_added = m->trials_replaced = m->platform_added = 0;
	if (m->in->has_plat) {
		char *p = NULL;
		int changed;
		int gr = dlb_txn_get(txn, DLB_T_PLATFORMS, m->in->plat.key, &p);
		free(p);
		DLB_CHECK(dlb_platform_put(txn, &m->in->plat, &changed));
		m->platform_added = gr == DLB_E_NOTFOUND;
	}
	rc = dlb_txn_get(txn, DLB_T_BEST, in->key, &old);
	if (rc == 0) {
		j = dlb_json_parse(old, strlen(old));
		if (dlb_best_from_json(j, &cur) == 0) {
			int cmp = dlb_result_support_cmp(in, &cur);
			if (cmp <= 0) {
				m->outcome = 2;
				snprintf(m->why, sizeof m->why, "%s", cmp == 0 ? "already present" : "the stored one is better supported");
			} else {
				m->outcome = 1;
				if (in->flush_read != cur.flush_read)
					snprintf(m->why, sizeof m->why, "timed after the L2 flush that reads (the stored one: "
									 "after the older memset)");
				else
					snprintf(m->why, sizeof m->why, "better supported: %s, %d samples (stored: %s, %d samples)",
						 in->found ? "verified" : "unverified", in->tuned.n,
						 cur.found ? "verified" : "unverified", cur.tuned.n);
			}
		} else {
			m->outcome = 1;
			snprintf(m->why, sizeof m->why, "the stored record was unreadable");
		}
	} else if (rc != DLB_E_NOTFOUND) {
		DLB_FAIL(rc, "reading %s: %s", in->key, dlb_strerror(rc));
	}
	rc = 0;
	if (m->outcome != 2)
		DLB_CHECK(dlb_txn_put_result(txn, in));
	for (int i = 0; i < in->ntrials; i++) {
		const struct dlb_trial *t = &in->trials[i];
		char *tv = NULL;
		if (dlb_trial_key(in->key, t->config, k, sizeof k))
			DLB_FAIL(ENAMETOOLONG, "trial key too long under %s", in->key);
		rc = dlb_txn_get(txn, DLB_T_TRIALS, k, &tv);
		if (rc == 0) {
			struct dlb_trial ct;
			json_t *tj = dlb_json_parse(tv, strlen(tv));
			int keep = dlb_trial_from_json(tj, &ct) == 0 &&
				   (ct.flush_read != t->flush_read ? ct.flush_read : ct.n >= t->n);
			json_decref(tj);
			free(tv);
			if (keep)
				continue;
			m->trials_replaced++;
		} else if (rc == DLB_E_NOTFOUND) {
			m->trials_added++;
		} else {
			DLB_FAIL(rc, "reading a trial of %s: %s", in->key, dlb_strerror(rc));
		}
		rc = 0;
		DLB_CHECK(dlb_txn_put_json(txn, DLB_T_TRIALS, k, dlb_trial_json(t)));
	}
fail:
	json_decref(j);
	free(old);
	return rc;
}

int dlb_merge_record(struct dlb_store *s, const struct dlb_incoming *in, FILE *log, struct dlb_merge_counts *c)
{
	int rc = 0;
	struct merge_ctx m = {in, 0, "", 0, 0, 0};
	DLB_CHECK(dlb_store_write(s, merge_fn, &m));
	c->added += m.outcome == 0;
	c->replaced += m.outcome == 1;
	c->kept += m.outcome == 2;
	c->trials_added += m.trials_added;
	c->trials_replaced += m.trials_replaced;
	c->platforms_added += m.platform_added;
	if (log) {
		static const char *const verbs[] = {"added", "replaced", "kept"};
		fprintf(log, "%s %s%s%s%s\n", verbs[m.outcome], in->r.key, *m.why ? " (" : "", m.why, *m.why ? ")" : "");
		fflush(log);
	}
fail:
	return rc;
}

/* ---- export files ---- */

/* A time that can have been measured: finite and positive. */
static int time_ok(double us)
{
	return isfinite(us) && us > 0;
}

int dlb_key_shape_check(const struct dlb_key *k, char *why, size_t wlen)
{
	enum dlb_prec prec;
	const struct dlb_op *op = dlb_prec_parse(k->prec, &prec) ? NULL : dlb_op_find(k->op, prec);
	if (op) {
		const struct dlb_family *f = op->family;
		struct dlb_problem p = {.op = op, .prec = prec};
		char msg[256];
		if (dlb_problem_from_text(&p, k->layout, k->shape))
			return snprintf(why, wlen, "the key's shape '%.60s' is not a %s shape", k->shape, f->name), DLB_E_PARSE;
		for (int d = 0; d < f->ndims; d++)
			if (f->dims[d].kind != DLB_DIM_CHOICE && (p.dim[d] < f->dims[d].lo || p.dim[d] > f->dims[d].hi))
				return snprintf(why, wlen, "the key's %s = %lld is outside %lld..%lld", f->dims[d].name,
						(long long)p.dim[d], (long long)f->dims[d].lo, (long long)f->dims[d].hi),
				       DLB_E_PARSE;
		if (f->check && f->check(p.dim, msg, sizeof msg))
			return snprintf(why, wlen, "the key's shape: %.100s", msg), DLB_E_PARSE;
	}
	return 0;
}

/* What an imported record claims, checked as the command line and a suite are (a stored record is read as it
 * was measured; an import is outside input): its key's shape (dlb_key_shape_check), and measured times that are
 * finite and positive. 0, or DLB_E_PARSE with the reason in why. */
static int incoming_check(const struct dlb_incoming *in, const struct dlb_key *k, char *why, size_t wlen)
{
	if (dlb_key_shape_check(k, why, wlen))
		return DLB_E_PARSE;
	const struct dlb_result *r = &in->r;
	if (r->found && !(time_ok(r->tuned.median) && time_ok(r->tuned.median_lo) && time_ok(r->tuned.median_hi)))
		return snprintf(why, wlen, "\"best\": median_us %g (CI %g..%g) is not a time", r->tuned.median,
				r->tuned.median_lo, r->tuned.median_hi),
		       DLB_E_PARSE;
	for (int i = 0; i < r->nvendor; i++)
		if (r->vendor[i].ok && !time_ok(r->vendor[i].st.median))
			return snprintf(why, wlen, "vendor entry %d: median_us %g is not a time", i, r->vendor[i].st.median),
			       DLB_E_PARSE;
	for (int i = 0; i < r->ntrials; i++)
		if (r->trials[i].status == DLB_ST_OK && !time_ok(r->trials[i].median_us))
			return snprintf(why, wlen, "trial %d: median_us %g is not a time", i, r->trials[i].median_us),
			       DLB_E_PARSE;
	return 0;
}

int dlb_incoming_from_json(json_t *rec, struct dlb_incoming *in, char *why, size_t wlen)
{
	size_t i;
	json_t *v;
	struct dlb_key k;
	const char *key = json_string_value(json_object_get(rec, "key"));
	memset(in, 0, sizeof *in);
	if (!key || strlen(key) >= sizeof in->r.key || dlb_key_decode(key, strlen(key), &k))
		return snprintf(why, wlen, "no valid \"key\""), DLB_E_PARSE;
	snprintf(in->r.key, sizeof in->r.key, "%s", key);
	if (dlb_best_from_json(json_object_get(rec, "best"), &in->r))
		return snprintf(why, wlen, "\"best\" is not a record of version %d", DLB_RECORD_VERSION), DLB_E_PARSE;
	json_t *plat = json_object_get(rec, "platform");
	if (plat && !json_is_null(plat)) {
		if (dlb_platform_from_json(plat, &in->plat))
			return snprintf(why, wlen, "unreadable \"platform\""), DLB_E_PARSE;
		struct dlb_platform check = in->plat;
		dlb_platform_key(&check);
		if (strcmp(check.key, in->plat.key))
			return snprintf(why, wlen, "platform key does not match its fields"), DLB_E_PARSE;
		if (!dlb_platform_is(&in->plat, k.id))
			return snprintf(why, wlen, "platform is another GPU than the key's"), DLB_E_PARSE;
		in->has_plat = 1;
	}
	json_array_foreach(json_object_get(rec, "vendor"), i, v)
	{
		if (in->r.nvendor == DLB_RESULT_MAX_VENDOR)
			return snprintf(why, wlen, "more than %d vendor entries", DLB_RESULT_MAX_VENDOR), DLB_E_PARSE;
		if (dlb_vendor_from_json(v, &in->r.vendor[in->r.nvendor++]))
			return snprintf(why, wlen, "vendor entry %zu unreadable", i), DLB_E_PARSE;
	}
	json_t *trials = json_object_get(rec, "trials");
	if (json_array_size(trials)) {
		in->r.trials = calloc(json_array_size(trials), sizeof *in->r.trials);
		if (!in->r.trials)
			return snprintf(why, wlen, "out of memory"), ENOMEM;
		json_array_foreach(trials, i, v)
		{
			if (dlb_trial_from_json(v, &in->r.trials[in->r.ntrials]))
				return snprintf(why, wlen, "trial %zu unreadable", i), DLB_E_PARSE;
			in->r.ntrials++;
		}
	}
	if (k.version == 1) { /* exported before keys named the GPU's model: the model of its platform, if known */
		if (in->has_plat)
			dlb_platform_model_id(&in->plat, k.id, sizeof k.id);
		if (dlb_key_encode(&k, in->r.key, sizeof in->r.key) < 0)
			return snprintf(why, wlen, "the key is too long to rewrite"), DLB_E_PARSE;
	}
	return incoming_check(in, &k, why, wlen);
}

int dlb_import_file(struct dlb_store *s, const char *path, FILE *log, struct dlb_merge_counts *c)
{
	int rc = 0;
	json_error_t err;
	struct dlb_incoming *ins = NULL;
	size_t n = 0;
	json_t *root = json_load_file(path, 0, &err);
	if (!root)
		DLB_USER_FAIL(DLB_E_PARSE, "%s:%d:%d: not JSON: %s", path, err.line, err.column, err.text);
	const char *fmt = json_string_value(json_object_get(root, "format"));
	json_t *records = json_object_get(root, "records");
	if (!fmt || strcmp(fmt, "dlbtune-export") || !json_is_array(records))
		DLB_USER_FAIL(DLB_E_PARSE, "%s: not a dlbtune export (expected {\"format\": \"dlbtune-export\", "
					   "\"records\": [...]} as written by `dlbtune export --format json`)",
			      path);
	if (json_integer_value(json_object_get(root, "schema_version")) > DLB_SCHEMA_VERSION)
		DLB_USER_FAIL(DLB_E_PARSE, "%s was exported from schema %lld; this dlbtune reads schema %d and older", path,
			      (long long)json_integer_value(json_object_get(root, "schema_version")), DLB_SCHEMA_VERSION);
	n = json_array_size(records);
	ins = calloc(n ? n : 1, sizeof *ins);
	if (!ins)
		DLB_FAIL(ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		char why[256];
		if (dlb_interrupted) /* the checks of a large file: nothing imported yet */
			DLB_USER_FAIL(DLB_E_INTERRUPTED, "interrupted while checking record %zu of %zu of %s; nothing was "
				      "imported", i + 1, n, path);
		int r = dlb_incoming_from_json(json_array_get(records, i), &ins[i], why, sizeof why);
		if (r == ENOMEM)
			DLB_FAIL(ENOMEM, "out of memory");
		if (r)
			DLB_USER_FAIL(DLB_E_PARSE, "%s: record %zu: %s; nothing was imported", path, i + 1, why);
	}
	for (size_t i = 0; i < n; i++) {
		if (dlb_interrupted) /* each record is merged in its own transaction: the ones before stay */
			DLB_USER_FAIL(DLB_E_INTERRUPTED, "interrupted after %zu of %zu records; importing %s again adds the rest",
				      i, n, path);
		DLB_CHECK(dlb_merge_record(s, &ins[i], log, c));
	}
fail:
	for (size_t i = 0; ins && i < n; i++)
		dlb_result_free(&ins[i].r);
	free(ins);
	json_decref(root);
	return rc;
}

/* ---- another database ---- */

int dlb_merge_db(struct dlb_store *dst, struct dlb_store *src, FILE *log, struct dlb_merge_counts *c)
{
	int rc = 0;
	struct {
		char **k;
		int n;
	} ks = {NULL, 0};
	DLB_CHECK(dlb_store_keys(src, DLB_T_BEST, "", &ks.k, &ks.n));
	for (int i = 0; i < ks.n; i++) {
		struct dlb_incoming in = {0};
		struct dlb_key k;
		char *pv = NULL;
		if (dlb_interrupted)
			DLB_USER_FAIL(DLB_E_INTERRUPTED, "interrupted after %d of %d results; merging %s again adds the rest",
				      i, ks.n, dlb_store_path(src));
		if (strlen(ks.k[i]) >= sizeof in.r.key || dlb_key_decode(ks.k[i], strlen(ks.k[i]), &k)) {
			fprintf(stderr, "dlbtune: warning: %s: unreadable key skipped: %.80s\n", dlb_store_path(src), ks.k[i]);
			continue;
		}
		rc = dlb_result_load(src, ks.k[i], 1, &in.r);
		if (rc == DLB_E_JSON) {
			fprintf(stderr, "dlbtune: warning: %s: %s; skipped\n", dlb_store_path(src), dlb_last_error());
			rc = 0;
			continue;
		}
		DLB_CHECK(rc);
		if (*in.r.platform && dlb_store_get(src, DLB_T_PLATFORMS, in.r.platform, &pv) == 0) {
			json_t *j = dlb_json_parse(pv, strlen(pv));
			in.has_plat = dlb_platform_from_json(j, &in.plat) == 0;
			json_decref(j);
			free(pv);
		}
		rc = dlb_merge_record(dst, &in, log, c);
		dlb_result_free(&in.r);
		DLB_CHECK(rc);
	}
fail:
	dlb_keys_free(ks.k, ks.n);
	return rc;
}
