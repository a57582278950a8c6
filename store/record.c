/* record: jansson in both directions. Unknown fields are ignored so later versions can add to a record;
 * numbers that are absent (NaN) are JSON null. */
#include "record.h"

#include "../src/err.h"
#include "key.h"
#include "../src/op.h"

#include <errno.h>
#include <lmdb.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static double num_of(json_t *j)
{
	return json_is_number(j) ? json_number_value(j) : NAN;
}

static void str_of(json_t *obj, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s", json_string_value(json_object_get(obj, name)) ?: "");
}

/* A string that becomes (part of) a key must fit whole: two configurations cut to the same prefix would
 * otherwise merge into one trial. */
static int whole_str_of(json_t *obj, const char *name, char *buf, size_t len)
{
	const char *v = json_string_value(json_object_get(obj, name));
	if (!v || strlen(v) >= len)
		return DLB_E_JSON;
	memcpy(buf, v, strlen(v) + 1);
	return 0;
}

/* Text for JSON: jansson refuses invalid UTF-8 (a log cut inside a character), so such bytes become '?'. */
static json_t *text(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	char buf[512];
	snprintf(buf, sizeof buf, "%s", s);
	for (char *p = buf; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	return json_string(buf);
}

static int int_of(json_t *obj, const char *name)
{
	return (int)json_integer_value(json_object_get(obj, name));
}

char *dlb_json_text(json_t *j)
{
	char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	return text;
}

json_t *dlb_json_parse(const char *text, size_t len)
{
	json_error_t err;
	json_t *j = json_loadb(text, len, 0, &err);
	if (j && !json_is_object(j)) {
		json_decref(j);
		j = NULL;
	}
	return j;
}

static json_t *stats_json(const struct dlb_stats *s)
{
	return json_pack("{s:i,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "n", s->n, "median_us", num(s->median),
			 "median_lo", num(s->median_lo), "median_hi", num(s->median_hi), "mean_us", num(s->mean),
			 "mean_lo", num(s->mean_lo), "mean_hi", num(s->mean_hi), "stddev", num(s->stddev), "min",
			 num(s->min), "max", num(s->max));
}

static int stats_from(json_t *j, struct dlb_stats *s)
{
	memset(s, 0, sizeof *s);
	if (!json_is_object(j) || !json_is_integer(json_object_get(j, "n")))
		return DLB_E_JSON;
	s->n = int_of(j, "n");
	s->median = num_of(json_object_get(j, "median_us"));
	s->median_lo = num_of(json_object_get(j, "median_lo"));
	s->median_hi = num_of(json_object_get(j, "median_hi"));
	s->mean = num_of(json_object_get(j, "mean_us"));
	s->mean_lo = num_of(json_object_get(j, "mean_lo"));
	s->mean_hi = num_of(json_object_get(j, "mean_hi"));
	s->stddev = num_of(json_object_get(j, "stddev"));
	s->min = num_of(json_object_get(j, "min"));
	s->max = num_of(json_object_get(j, "max"));
	return 0;
}

static json_t *energy_json(const struct dlb_energy *e)
{
	return json_pack("{s:i,s:o,s:o,s:o,s:i,s:i,s:i,s:I,s:i,s:b,s:b}", "calls", e->calls, "seconds",
			 num(e->seconds), "joules", num(e->joules), "watts_max", num(e->watts_max), "sm_mhz_min",
			 e->sm_mhz_min, "sm_mhz_max", e->sm_mhz_max, "readings", e->readings, "reasons",
			 (json_int_t)e->reasons, "steps", e->steps, "steady", e->steady, "graphed", e->graphed);
}

static void energy_from(json_t *j, struct dlb_energy *e)
{
	memset(e, 0, sizeof *e);
	e->joules = e->watts_max = NAN;
	if (!json_is_object(j))
		return;
	e->calls = int_of(j, "calls");
	e->seconds = num_of(json_object_get(j, "seconds"));
	e->joules = num_of(json_object_get(j, "joules"));
	e->watts_max = num_of(json_object_get(j, "watts_max"));
	e->sm_mhz_min = int_of(j, "sm_mhz_min");
	e->sm_mhz_max = int_of(j, "sm_mhz_max");
	e->readings = int_of(j, "readings");
	e->steps = int_of(j, "steps");
	e->steady = json_is_true(json_object_get(j, "steady"));
	e->graphed = json_is_true(json_object_get(j, "graphed")); /* absent before the report's run08 */
	e->reasons = (unsigned long long)json_integer_value(json_object_get(j, "reasons"));
	if (e->calls < 0 || !(e->seconds > 0))
		e->calls = 0; /* nothing usable */
}

/* A measured accuracy as {"n", "max", "mean"}; NULL (absent) when not measured and in older records. */
static json_t *rel_err_json(const struct dlb_rel_err *e)
{
	return e->n > 0 ? json_pack("{s:i,s:o,s:o}", "n", e->n, "max", num(e->max), "mean", num(e->mean)) : NULL;
}

static void rel_err_from(json_t *j, struct dlb_rel_err *e)
{
	memset(e, 0, sizeof *e);
	if (!json_is_object(j))
		return;
	e->n = int_of(j, "n");
	e->max = num_of(json_object_get(j, "max"));
	e->mean = num_of(json_object_get(j, "mean"));
	if (e->n < 0)
		e->n = 0;
}

json_t *dlb_best_json(const struct dlb_result *r)
{
	json_t *counts = json_object();
	if (!counts)
		return NULL;
	for (int s = 0; s < DLB_ST_COUNT; s++)
		json_object_set_new(counts, dlb_status_name((enum dlb_status)s), json_integer(r->counts[s]));
	json_t *j = json_pack("{s:i,s:b,s:s,s:o,s:o,s:o,s:o,s:o,s:s,s:s,s:s,s:o}", "record_version", DLB_RECORD_VERSION,
			      "found", r->found, "config", r->config, "tuned", stats_json(&r->tuned), "max_err",
			      num(r->max_err), "tol", num(r->tol), "peak", num(r->peak), "gpu_seconds",
			      num(r->gpu_seconds), "gpu", r->gpu, "timestamp", r->timestamp, "platform", r->platform,
			      "counts", counts);
	const struct dlb_paired *pd = &r->paired;
	if (j && pd->n > 0) /* absent when not measured, and in records made before it was */
		json_object_set_new(j, "paired",
				    json_pack("{s:s,s:i,s:o,s:o,s:{s:o,s:o,s:o,s:o,s:o}}", "vendor", pd->vendor, "n", pd->n,
					      "tuned", stats_json(&pd->tuned), "vendor_time", stats_json(&pd->vendor_st),
					      "speedup", "median", num(pd->speedup.median), "median_lo",
					      num(pd->speedup.median_lo), "median_hi", num(pd->speedup.median_hi), "min",
					      num(pd->speedup.min), "max", num(pd->speedup.max)));
	json_t *pj = j ? json_object_get(j, "paired") : NULL;
	if (pj && (pd->e_tuned.calls > 0 || pd->e_vendor.calls > 0)) /* absent when not measured and in older records */
		json_object_set_new(pj, "energy", json_pack("{s:o,s:o}", "tuned", energy_json(&pd->e_tuned), "vendor",
							      energy_json(&pd->e_vendor)));
	if (j && r->rel_err.n > 0)
		json_object_set_new(j, "rel_err", rel_err_json(&r->rel_err));
	if (j && r->flush_read) /* absent in records timed after the older flush (a memset) */
		json_object_set_new(j, "l2_flush", json_string("read"));
	if (j && isfinite(r->mem_peak) && r->mem_peak > 0) /* absent in records made before it was kept */
		json_object_set_new(j, "mem_peak", json_real(r->mem_peak));
	const struct dlb_search_info *si = &r->search;
	if (j && si->strategy[0]) /* absent in records made before searches had strategies */
		json_object_set_new(j, "search",
				    json_pack("{s:s,s:i,s:i,s:I,s:i,s:o,s:s}", "strategy", si->strategy, "points", si->points,
					      "evaluated", si->evaluated, "samples", (json_int_t)si->samples, "seeds",
					      si->seeds, "seconds", num(si->seconds), "why", si->why));
	return j;
}

/* The fields schema 1 and 2 share. */
static int best_fields(json_t *root, struct dlb_result *r)
{
	if (whole_str_of(root, "config", r->config, sizeof r->config) || stats_from(json_object_get(root, "tuned"), &r->tuned))
		return DLB_E_JSON;
	r->found = json_is_true(json_object_get(root, "found"));
	str_of(root, "gpu", r->gpu, sizeof r->gpu);
	str_of(root, "timestamp", r->timestamp, sizeof r->timestamp);
	if (json_object_get(root, "platform") && whole_str_of(root, "platform", r->platform, sizeof r->platform))
		return DLB_E_JSON;
	const char *fl = json_string_value(json_object_get(root, "l2_flush"));
	r->flush_read = fl && !strcmp(fl, "read");
	r->max_err = num_of(json_object_get(root, "max_err"));
	r->tol = num_of(json_object_get(root, "tol"));
	/* "peak_tflops" in records made before an op could be judged in GB/s */
	r->peak = num_of(json_object_get(root, json_object_get(root, "peak") ? "peak" : "peak_tflops"));
	r->gpu_seconds = num_of(json_object_get(root, "gpu_seconds"));
	r->mem_peak = num_of(json_object_get(root, "mem_peak"));
	rel_err_from(json_object_get(root, "rel_err"), &r->rel_err);
	json_t *counts = json_object_get(root, "counts");
	for (int s = 0; s < DLB_ST_COUNT; s++)
		r->counts[s] = int_of(counts, dlb_status_name((enum dlb_status)s));
	json_t *si = json_object_get(root, "search");
	memset(&r->search, 0, sizeof r->search);
	if (json_is_object(si)) {
		str_of(si, "strategy", r->search.strategy, sizeof r->search.strategy);
		r->search.points = int_of(si, "points");
		r->search.evaluated = int_of(si, "evaluated");
		r->search.samples = (long)json_integer_value(json_object_get(si, "samples"));
		r->search.seeds = int_of(si, "seeds");
		r->search.seconds = num_of(json_object_get(si, "seconds"));
		str_of(si, "why", r->search.why, sizeof r->search.why);
	}
	json_t *pd = json_object_get(root, "paired");
	memset(&r->paired, 0, sizeof r->paired);
	if (json_is_object(pd)) {
		json_t *sp = json_object_get(pd, "speedup");
		if (stats_from(json_object_get(pd, "tuned"), &r->paired.tuned) ||
		    stats_from(json_object_get(pd, "vendor_time"), &r->paired.vendor_st) || !json_is_object(sp))
			return DLB_E_JSON;
		str_of(pd, "vendor", r->paired.vendor, sizeof r->paired.vendor);
		r->paired.speedup.median = num_of(json_object_get(sp, "median"));
		r->paired.speedup.median_lo = num_of(json_object_get(sp, "median_lo"));
		r->paired.speedup.median_hi = num_of(json_object_get(sp, "median_hi"));
		r->paired.speedup.min = num_of(json_object_get(sp, "min"));
		r->paired.speedup.max = num_of(json_object_get(sp, "max"));
		r->paired.n = r->paired.speedup.n = int_of(pd, "n");
		json_t *en = json_object_get(pd, "energy");
		energy_from(json_object_get(en, "tuned"), &r->paired.e_tuned);
		energy_from(json_object_get(en, "vendor"), &r->paired.e_vendor);
	}
	return 0;
}

int dlb_best_from_json(json_t *root, struct dlb_result *r)
{
	if (!json_is_object(root) || json_integer_value(json_object_get(root, "record_version")) != DLB_RECORD_VERSION)
		return DLB_E_JSON;
	return best_fields(root, r);
}

json_t *dlb_trial_json(const struct dlb_trial *t)
{
	json_t *j = json_pack("{s:s,s:s,s:i,s:o,s:o,s:o,s:o,s:s,s:o,s:s}", "config", t->config, "status",
			      dlb_status_name(t->status), "n", t->n, "median_us", num(t->median_us), "lo_us",
			      num(t->lo_us), "hi_us", num(t->hi_us), "max_err", num(t->max_err), "stop", t->stop, "error",
			      text(t->error), "timestamp", t->timestamp);
	if (j && t->seconds > 0) /* absent in records written before it was measured */
		json_object_set_new(j, "seconds", json_real(t->seconds));
	if (j && t->seq > 0) /* absent in records written before it was kept */
		json_object_set_new(j, "seq", json_integer(t->seq));
	if (j && t->mean_us > 0) /* these three: absent in records made before racing */
		json_object_set_new(j, "mean_us", json_real(t->mean_us));
	if (j && t->taken > 0)
		json_object_set_new(j, "taken", json_integer(t->taken));
	if (j && t->noisy)
		json_object_set_new(j, "noisy", json_true());
	if (j && t->flush_read) /* absent in trials timed after the older flush (a memset) */
		json_object_set_new(j, "l2_flush", json_string("read"));
	return j;
}

int dlb_trial_from_json(json_t *j, struct dlb_trial *t)
{
	memset(t, 0, sizeof *t);
	if (!json_is_object(j) || whole_str_of(j, "config", t->config, sizeof t->config) ||
	    dlb_status_parse(json_string_value(json_object_get(j, "status")) ?: "", &t->status))
		return DLB_E_JSON;
	t->n = int_of(j, "n");
	t->median_us = num_of(json_object_get(j, "median_us"));
	t->lo_us = num_of(json_object_get(j, "lo_us"));
	t->hi_us = num_of(json_object_get(j, "hi_us"));
	t->max_err = num_of(json_object_get(j, "max_err"));
	str_of(j, "stop", t->stop, sizeof t->stop);
	str_of(j, "error", t->error, sizeof t->error);
	str_of(j, "timestamp", t->timestamp, sizeof t->timestamp);
	t->seconds = json_is_number(json_object_get(j, "seconds")) ? json_number_value(json_object_get(j, "seconds")) : 0;
	t->mean_us = json_is_number(json_object_get(j, "mean_us")) ? json_number_value(json_object_get(j, "mean_us")) : NAN;
	t->taken = int_of(j, "taken");
	t->seq = int_of(j, "seq");
	t->noisy = json_is_true(json_object_get(j, "noisy"));
	const char *fl = json_string_value(json_object_get(j, "l2_flush"));
	t->flush_read = fl && !strcmp(fl, "read");
	return 0;
}

json_t *dlb_vendor_json(const struct dlb_vendor_entry *v)
{
	json_t *o = json_pack("{s:s,s:i,s:b,s:o}", "name", v->name, "kind", v->kind, "ok", v->ok, "stats",
			      stats_json(&v->st));
	if (o && v->is_floor) /* absent in entries of vendor kernels and in records made before the floor */
		json_object_set_new(o, "floor", json_true());
	if (o && v->config[0]) /* where the vendor reports one; absent in records made before it was kept */
		json_object_set_new(o, "config", json_string(v->config));
	if (o && v->other_math) /* absent where the entry runs the problem's own precision */
		json_object_set_new(o, "other_math", json_true());
	if (o && v->rel_err.n > 0)
		json_object_set_new(o, "rel_err", rel_err_json(&v->rel_err));
	return o;
}

int dlb_vendor_from_json(json_t *j, struct dlb_vendor_entry *v)
{
	memset(v, 0, sizeof *v);
	if (!json_is_object(j) || whole_str_of(j, "name", v->name, sizeof v->name))
		return DLB_E_JSON;
	/* records made before families declared their vendor columns: "is_lt", true for kind 1 */
	json_t *kind = json_object_get(j, "kind");
	v->kind = kind ? (int)json_integer_value(kind) : json_is_true(json_object_get(j, "is_lt"));
	v->ok = json_is_true(json_object_get(j, "ok"));
	v->is_floor = json_is_true(json_object_get(j, "floor"));
	v->other_math = json_is_true(json_object_get(j, "other_math"));
	str_of(j, "config", v->config, sizeof v->config);
	rel_err_from(json_object_get(j, "rel_err"), &v->rel_err);
	return stats_from(json_object_get(j, "stats"), &v->st);
}

json_t *dlb_platform_json(const struct dlb_platform *p)
{
	json_t *j = json_pack("{s:s,s:s,s:s,s:i,s:i,s:i,s:i,s:i,s:o,s:o}", "key", p->key, "gpu", p->gpu, "uuid",
			      p->uuid, "sm", p->sm, "sm_count", p->sm_count, "clock_mhz", p->clock_mhz, "mem_clock_mhz",
			      p->mem_clock_mhz, "mem_bus_bits", p->mem_bus_bits, "memory_gib", num(p->memory_gib),
			      "l2_mib", num(p->l2_mib));
	json_t *v = json_pack("{s:i,s:i,s:i}", "driver", p->driver, "cuda", p->cuda, "nvrtc", p->nvrtc);
	for (int i = 0; v && dlb_libs[i] && i < DLB_MAX_LIBS; i++)
		json_object_set_new(v, dlb_libs[i]->key, json_integer(p->lib[i]));
	json_t *k = json_pack("{s:s,s:s,s:s,s:s,s:s}", "hostname", p->hostname, "kernel", p->kernel, "dlbtune",
			      p->dlbtune, "first_seen", p->first_seen, "last_seen", p->last_seen);
	if (k && p->cpu[0]) /* absent when unknown, and in records made before it was kept */
		json_object_set_new(k, "cpu", json_string(p->cpu));
	if (!j || !v || !k || json_object_update(j, v) || json_object_update(j, k)) {
		json_decref(j);
		j = NULL;
	}
	json_decref(v);
	json_decref(k);
	return j;
}

int dlb_platform_from_json(json_t *j, struct dlb_platform *p)
{
	memset(p, 0, sizeof *p);
	if (!json_is_object(j) || whole_str_of(j, "key", p->key, sizeof p->key) ||
	    whole_str_of(j, "uuid", p->uuid, sizeof p->uuid))
		return DLB_E_JSON;
	str_of(j, "gpu", p->gpu, sizeof p->gpu);
	p->sm = int_of(j, "sm");
	p->sm_count = int_of(j, "sm_count");
	p->clock_mhz = int_of(j, "clock_mhz");
	p->mem_clock_mhz = int_of(j, "mem_clock_mhz");
	p->mem_bus_bits = int_of(j, "mem_bus_bits");
	p->memory_gib = num_of(json_object_get(j, "memory_gib"));
	p->l2_mib = num_of(json_object_get(j, "l2_mib"));
	p->driver = int_of(j, "driver");
	p->cuda = int_of(j, "cuda");
	p->nvrtc = int_of(j, "nvrtc");
	for (int i = 0; dlb_libs[i] && i < DLB_MAX_LIBS; i++)
		p->lib[i] = json_integer_value(json_object_get(j, dlb_libs[i]->key));
	str_of(j, "hostname", p->hostname, sizeof p->hostname);
	str_of(j, "kernel", p->kernel, sizeof p->kernel);
	str_of(j, "cpu", p->cpu, sizeof p->cpu);
	str_of(j, "dlbtune", p->dlbtune, sizeof p->dlbtune);
	str_of(j, "first_seen", p->first_seen, sizeof p->first_seen);
	str_of(j, "last_seen", p->last_seen, sizeof p->last_seen);
	return 0;
}

static int sub_key(const char *rkey, const char *tag, const char *name, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s|%s=%s", rkey, tag, name);
	return n < 0 || (size_t)n >= len ? ENAMETOOLONG : 0;
}

int dlb_trial_key(const char *rkey, const char *config, char *buf, size_t len)
{
	return sub_key(rkey, "cfg", config, buf, len);
}

int dlb_vendor_key(const char *rkey, const char *name, char *buf, size_t len)
{
	return sub_key(rkey, "alg", name, buf, len);
}

void dlb_platform_model_id(const struct dlb_platform *p, char *buf, size_t len)
{
	dlb_key_model_id(p->sm_count, p->memory_gib, p->clock_mhz, p->mem_clock_mhz, buf, len);
}

int dlb_platform_is(const struct dlb_platform *p, const char *id)
{
	char model[48];
	dlb_platform_model_id(p, model, sizeof model);
	return !strcmp(p->uuid, id) || !strcmp(model, id);
}

void dlb_platform_key(struct dlb_platform *p)
{
	int off = snprintf(p->key, sizeof p->key, "%s|driver=%d|cuda=%d|nvrtc=%d|", p->uuid, p->driver, p->cuda, p->nvrtc);
	for (int i = 0; dlb_libs[i] && i < DLB_MAX_LIBS && off < (int)sizeof p->key; i++)
		if (dlb_libs[i]->in_platform_key)
			off += snprintf(p->key + off, sizeof p->key - (size_t)off, "%s=%lld|", dlb_libs[i]->key, p->lib[i]);
	if (off < (int)sizeof p->key)
		snprintf(p->key + off, sizeof p->key - (size_t)off, "dlbtune=%s", p->dlbtune);
}

/* ---- loading and saving whole results ---- */

struct load_ctx {
	struct dlb_result *r;
	int with_trials, cap, rc;
};

static int load_vendor(const char *k, size_t kl, const char *v, size_t vl, void *arg)
{
	(void)k;
	(void)kl;
	struct load_ctx *c = arg;
	if (c->r->nvendor == DLB_RESULT_MAX_VENDOR)
		return 0;
	json_t *j = dlb_json_parse(v, vl);
	int rc = dlb_vendor_from_json(j, &c->r->vendor[c->r->nvendor]);
	json_decref(j);
	if (rc == 0)
		c->r->nvendor++;
	return rc;
}

static int load_trial(const char *k, size_t kl, const char *v, size_t vl, void *arg)
{
	(void)k;
	(void)kl;
	struct load_ctx *c = arg;
	struct dlb_result *r = c->r;
	if (r->ntrials == c->cap) {
		int cap = c->cap ? 2 * c->cap : 64;
		struct dlb_trial *t = realloc(r->trials, (size_t)cap * sizeof *t);
		if (!t)
			return ENOMEM;
		r->trials = t;
		c->cap = cap;
	}
	json_t *j = dlb_json_parse(v, vl);
	int rc = dlb_trial_from_json(j, &r->trials[r->ntrials]);
	json_decref(j);
	if (rc == 0)
		r->ntrials++;
	return rc;
}

int dlb_result_load(struct dlb_store *s, const char *key, int with_trials, struct dlb_result *r)
{
	int rc = 0;
	char *val = NULL, prefix[600];
	json_t *j = NULL;
	struct dlb_problem keep = r->p;
	memset(r, 0, sizeof *r);
	r->p = keep;
	snprintf(r->key, sizeof r->key, "%s", key);
	rc = dlb_store_get(s, DLB_T_BEST, key, &val);
	if (rc)
		goto fail;
	j = dlb_json_parse(val, strlen(val));
	if (dlb_best_from_json(j, r))
		DLB_FAIL(DLB_E_JSON, "unreadable best record under %s", key);
	struct load_ctx c = {r, with_trials, 0, 0};
	snprintf(prefix, sizeof prefix, "%s|alg=", key);
	if ((rc = dlb_store_each(s, DLB_T_VENDOR, prefix, load_vendor, &c)) != 0)
		DLB_FAIL(rc, "unreadable vendor entry under %s", key);
	if (with_trials) {
		snprintf(prefix, sizeof prefix, "%s|cfg=", key);
		if ((rc = dlb_store_each(s, DLB_T_TRIALS, prefix, load_trial, &c)) != 0)
			DLB_FAIL(rc, "unreadable trial under %s", key);
	}
fail:
	json_decref(j);
	free(val);
	if (rc) {
		dlb_result_free(r);
		r->nvendor = 0;
	}
	return rc;
}

int dlb_txn_put_json(struct dlb_txn *txn, enum dlb_table t, const char *key, json_t *j)
{
	int rc = 0;
	char *val = dlb_json_text(j);
	if (!val) /* a NULL object from json_pack: a string that is not UTF-8, or no memory */
		DLB_FAIL(DLB_E_JSON, "cannot encode the %s value under %.200s as JSON", dlb_table_name(t), key);
	rc = dlb_txn_put(txn, t, key, val);
fail:
	free(val);
	return rc;
}

int dlb_trials_load(struct dlb_store *s, const char *rkey, struct dlb_trial **t, int *n)
{
	int rc = 0;
	char prefix[600];
	struct dlb_result r = {0};
	struct load_ctx c = {&r, 1, 0, 0};
	*t = NULL;
	*n = 0;
	snprintf(prefix, sizeof prefix, "%s|cfg=", rkey);
	if ((rc = dlb_store_each(s, DLB_T_TRIALS, prefix, load_trial, &c)) != 0) {
		free(r.trials);
		if (rc == DLB_E_JSON) /* unreadable trials are measured again */
			return 0;
		DLB_FAIL(rc, "reading the trials of %s: %s", rkey, dlb_strerror(rc));
	}
	*t = r.trials;
	*n = r.ntrials;
fail:
	return rc;
}

int dlb_txn_put_result(struct dlb_txn *txn, const struct dlb_result *r)
{
	int rc = 0;
	char k[700];
	/* a retune replaces the vendor entries too: none of the old ones may linger into "vendor best" */
	snprintf(k, sizeof k, "%s|alg=", r->key);
	DLB_CHECK(dlb_txn_del_prefix(txn, DLB_T_VENDOR, k, NULL));
	DLB_CHECK(dlb_txn_put_json(txn, DLB_T_BEST, r->key, dlb_best_json(r)));
	for (int i = 0; i < r->nvendor; i++) {
		if (dlb_vendor_key(r->key, r->vendor[i].name, k, sizeof k))
			DLB_FAIL(ENAMETOOLONG, "vendor key too long under %s", r->key);
		DLB_CHECK(dlb_txn_put_json(txn, DLB_T_VENDOR, k, dlb_vendor_json(&r->vendor[i])));
	}
fail:
	return rc;
}

static int save_result_fn(struct dlb_txn *txn, void *arg)
{
	return dlb_txn_put_result(txn, arg);
}

int dlb_result_save(struct dlb_store *s, const struct dlb_result *r)
{
	return dlb_store_write(s, save_result_fn, (void *)r);
}

struct trial_put {
	const char *rkey;
	const struct dlb_trial *t;
};

static int save_trial_fn(struct dlb_txn *txn, void *arg)
{
	int rc = 0;
	struct trial_put *p = arg;
	char k[700];
	if (dlb_trial_key(p->rkey, p->t->config, k, sizeof k))
		DLB_FAIL(ENAMETOOLONG, "trial key too long");
	DLB_CHECK(dlb_txn_put_json(txn, DLB_T_TRIALS, k, dlb_trial_json(p->t)));
fail:
	return rc;
}

int dlb_trial_save(struct dlb_store *s, const char *rkey, const struct dlb_trial *t)
{
	struct trial_put p = {rkey, t};
	return dlb_store_write(s, save_trial_fn, &p);
}

int dlb_platform_put(struct dlb_txn *txn, const struct dlb_platform *p, int *changed)
{
	int rc = 0;
	char *old = NULL;
	json_t *j = NULL;
	struct dlb_platform merged = *p, cur;
	*changed = 0;
	rc = dlb_txn_get(txn, DLB_T_PLATFORMS, p->key, &old);
	if (rc == 0) {
		j = dlb_json_parse(old, strlen(old));
		if (dlb_platform_from_json(j, &cur) == 0) {
			/* the same platform seen again: keep the widest window */
			if (*cur.first_seen && strcmp(cur.first_seen, merged.first_seen) < 0)
				snprintf(merged.first_seen, sizeof merged.first_seen, "%s", cur.first_seen);
			if (strcmp(cur.last_seen, merged.last_seen) > 0)
				snprintf(merged.last_seen, sizeof merged.last_seen, "%s", cur.last_seen);
			if (!strcmp(cur.first_seen, merged.first_seen) && !strcmp(cur.last_seen, merged.last_seen))
				goto fail; /* nothing new */
		}
	} else if (rc != DLB_E_NOTFOUND) {
		DLB_FAIL(rc, "reading platform %s: %s", p->key, dlb_strerror(rc));
	}
	DLB_CHECK(dlb_txn_put_json(txn, DLB_T_PLATFORMS, p->key, dlb_platform_json(&merged)));
	*changed = 1;
fail:
	if (rc == DLB_E_NOTFOUND)
		rc = 0;
	json_decref(j);
	free(old);
	return rc;
}

static int save_platform_fn(struct dlb_txn *txn, void *arg)
{
	int changed;
	return dlb_platform_put(txn, arg, &changed);
}

int dlb_platform_save(struct dlb_store *s, const struct dlb_platform *p)
{
	return dlb_store_write(s, save_platform_fn, (void *)p);
}

int dlb_result_support_cmp(const struct dlb_result *a, const struct dlb_result *b)
{
	int ta = 0, tb = 0;
	for (int s = 0; s < DLB_ST_COUNT; s++) {
		ta += a->counts[s];
		tb += b->counts[s];
	}
	if (a->flush_read != b->flush_read) /* timed after the flush that reads: the record to keep */
		return a->flush_read - b->flush_read;
	if (a->found != b->found)
		return a->found - b->found;
	if (a->found && a->tuned.n != b->tuned.n)
		return a->tuned.n - b->tuned.n;
	return ta - tb;
}

int dlb_record_migrate_v1(struct dlb_txn *txn, const char *key, const char *val)
{
	int rc = 0;
	size_t i;
	json_t *root = dlb_json_parse(val, strlen(val)), *v;
	struct dlb_result r = {0};
	char k[700];
	if (!root || json_integer_value(json_object_get(root, "record_version")) != 1 || best_fields(root, &r))
		DLB_USER_FAIL(DLB_E_DBFORMAT, "cannot migrate the schema-1 record under %s: not a schema-1 record", key);
	snprintf(r.key, sizeof r.key, "%s", key);
	json_array_foreach(json_object_get(root, "vendor"), i, v)
	{
		struct dlb_vendor_entry e;
		if (dlb_vendor_from_json(v, &e))
			DLB_USER_FAIL(DLB_E_DBFORMAT, "cannot migrate a vendor entry of %s", key);
		if (r.nvendor < DLB_RESULT_MAX_VENDOR)
			r.vendor[r.nvendor++] = e;
	}
	DLB_CHECK(dlb_txn_put_result(txn, &r));
	json_array_foreach(json_object_get(root, "trials"), i, v)
	{
		/* schema 1 kept the screening median only */
		struct dlb_trial t = {0};
		str_of(v, "config", t.config, sizeof t.config);
		if (dlb_status_parse(json_string_value(json_object_get(v, "status")) ?: "", &t.status))
			DLB_USER_FAIL(DLB_E_DBFORMAT, "cannot migrate a trial of %s", key);
		t.median_us = num_of(json_object_get(v, "median_us"));
		t.lo_us = t.hi_us = NAN;
		t.max_err = num_of(json_object_get(v, "max_err"));
		snprintf(t.timestamp, sizeof t.timestamp, "%.23s", r.timestamp);
		if (dlb_trial_key(key, t.config, k, sizeof k))
			DLB_FAIL(ENAMETOOLONG, "trial key too long");
		DLB_CHECK(dlb_txn_put_json(txn, DLB_T_TRIALS, k, dlb_trial_json(&t)));
	}
fail:
	json_decref(root);
	return rc;
}

/* ---- schema 2 to 3: keys of version 1 (uuid=) rewritten to version 2 (id=, the GPU's model) ---- */

struct rekey {
	char *from, *to; /* result keys */
};

static int rekey_cmp(const void *a, const void *b)
{
	return strcmp(((const struct rekey *)a)->from, ((const struct rekey *)b)->from);
}

/* The new id of a version-1 key measured on platform pkey (may be ""): the model of that platform, else of any
 * platform of the same GPU, else the UUID it had. */
static void new_id(const struct dlb_platform *plats, int np, const char *pkey, const char *uuid, char *id, size_t len)
{
	const struct dlb_platform *p = NULL;
	for (int i = 0; i < np && !p; i++)
		if (*pkey && !strcmp(plats[i].key, pkey))
			p = &plats[i];
	for (int i = 0; i < np && !p; i++)
		if (!strcmp(plats[i].uuid, uuid))
			p = &plats[i];
	if (p)
		dlb_platform_model_id(p, id, len);
	else
		snprintf(id, len, "%s", uuid);
}

/* The version-2 key for result key rkey (version 1): its model key, or, when that is taken (two GPUs of one
 * model measured the problem; or by an earlier entry of this walk), its UUID key. "" when rkey is not a
 * version-1 key. */
static int rekey_one(struct dlb_txn *t, const struct dlb_platform *plats, int np, const char *rkey, const char *pkey,
		     char *out, size_t len)
{
	struct dlb_key k;
	char uuid[48], *v = NULL;
	*out = 0;
	if (dlb_key_decode(rkey, strlen(rkey), &k) || k.version != 1)
		return 0;
	snprintf(uuid, sizeof uuid, "%s", k.id);
	new_id(plats, np, pkey, uuid, k.id, sizeof k.id);
	if (dlb_key_encode(&k, out, len) < 0)
		return DLB_E_USAGE;
	int rc = dlb_txn_get(t, DLB_T_BEST, out, &v);
	free(v);
	if (rc == DLB_E_NOTFOUND)
		return 0;
	if (rc)
		return rc;
	snprintf(k.id, sizeof k.id, "%s", uuid);
	return dlb_key_encode(&k, out, len) < 0 ? DLB_E_USAGE : 0;
}

int dlb_record_migrate_keys(struct dlb_txn *t, int *nresults)
{
	int rc = 0, np = 0, n = 0, nmap = 0;
	char **keys = NULL, **vals = NULL, nk[DLB_KEY_MAX + 1 + 200];
	struct dlb_platform *plats = NULL;
	struct rekey *map = NULL;
	*nresults = 0;
	DLB_CHECK(dlb_txn_entries(t, DLB_T_PLATFORMS, &keys, &vals, &n));
	if (!(plats = calloc((size_t)(n ? n : 1), sizeof *plats)))
		DLB_FAIL(ENOMEM, "out of memory");
	for (int i = 0; i < n; i++) { /* an unreadable one (db verify names it) is no model */
		json_t *j = dlb_json_parse(vals[i], strlen(vals[i]));
		if (j && dlb_platform_from_json(j, &plats[np]) == 0)
			np++;
		json_decref(j);
	}
	dlb_entries_free(keys, vals, n);
	keys = vals = NULL;
	n = 0;
	/* the results first: each decides its new key (model, or UUID if taken) for its vendor entries and trials */
	DLB_CHECK(dlb_txn_entries(t, DLB_T_BEST, &keys, &vals, &n));
	if (!(map = calloc((size_t)(n ? n : 1), sizeof *map)))
		DLB_FAIL(ENOMEM, "out of memory");
	for (int i = 0; i < n; i++) {
		struct dlb_result r = {0};
		json_t *j = dlb_json_parse(vals[i], strlen(vals[i]));
		if (!j || dlb_best_from_json(j, &r))
			r.platform[0] = 0; /* unreadable: moved with its key all the same, verify names it */
		json_decref(j);
		dlb_result_free(&r);
		DLB_CHECK(rekey_one(t, plats, np, keys[i], r.platform, nk, sizeof nk));
		if (!*nk)
			continue;
		DLB_CHECK(dlb_txn_put(t, DLB_T_BEST, nk, vals[i]));
		DLB_CHECK(dlb_txn_del(t, DLB_T_BEST, keys[i]));
		map[nmap].from = keys[i];
		if (!(map[nmap++].to = strdup(nk)))
			DLB_FAIL(ENOMEM, "out of memory");
		keys[i] = NULL;
		(*nresults)++;
	}
	/* vendor entries and trials: "<result key>|alg=..." and "<result key>|cfg=..." */
	static const struct {
		enum dlb_table t;
		const char *sep;
	} subs[] = {{DLB_T_VENDOR, "|alg="}, {DLB_T_TRIALS, "|cfg="}};
	for (size_t s = 0; s < sizeof subs / sizeof *subs; s++) {
		char **sk = NULL, **sv = NULL;
		int sn = 0;
		rc = dlb_txn_entries(t, subs[s].t, &sk, &sv, &sn);
		for (int i = 0; i < sn && !rc; i++) {
			char *at = strstr(sk[i], subs[s].sep), rkey[DLB_KEY_MAX + 1];
			if (!at || (size_t)(at - sk[i]) > DLB_KEY_MAX)
				continue;
			snprintf(rkey, sizeof rkey, "%.*s", (int)(at - sk[i]), sk[i]);
			struct rekey want = {.from = rkey}, *hit = nmap ? bsearch(&want, map, (size_t)nmap, sizeof *map, rekey_cmp) : NULL;
			const char *to = hit ? hit->to : NULL;
			char orphan[DLB_KEY_MAX + 1];
			struct dlb_key ok;
			if (!to) { /* trials of a search that never finished: they keep their GPU's UUID in a version-2
				    * key (two GPUs' unfinished searches of one problem cannot collide) */
				if (dlb_key_decode(rkey, strlen(rkey), &ok) || ok.version != 1 ||
				    dlb_key_encode(&ok, orphan, sizeof orphan) < 0)
					continue;
				to = orphan;
			}
			if (snprintf(nk, sizeof nk, "%s%s", to, at) >= (int)sizeof nk)
				continue;
			if (!(rc = dlb_txn_put(t, subs[s].t, nk, sv[i])))
				rc = dlb_txn_del(t, subs[s].t, sk[i]);
		}
		dlb_entries_free(sk, sv, sn);
		DLB_CHECK(rc);
	}
fail:
	dlb_entries_free(keys, vals, n);
	for (int m = 0; m < nmap; m++) {
		free(map[m].from);
		free(map[m].to);
	}
	free(map);
	free(plats);
	return rc;
}
