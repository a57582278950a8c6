/* record: jansson in both directions; unknown fields are ignored so later versions can add to a record. */
#include "record.h"

#include "../src/err.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RECORD_VERSION 1

static json_t *stats_json(const struct dlb_stats *s)
{
	return json_pack("{s:i,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f}", "n", s->n, "median_us", s->median, "median_lo",
			 s->median_lo, "median_hi", s->median_hi, "mean_us", s->mean, "mean_lo", s->mean_lo,
			 "mean_hi", s->mean_hi, "stddev", s->stddev, "min", s->min, "max", s->max);
}

static int stats_from(json_t *j, struct dlb_stats *s)
{
	memset(s, 0, sizeof *s);
	if (!json_is_object(j))
		return DLB_E_JSON;
	return json_unpack(j, "{s:i,s:F,s:F,s:F,s:F,s:F,s:F,s:F,s:F,s:F}", "n", &s->n, "median_us", &s->median,
			   "median_lo", &s->median_lo, "median_hi", &s->median_hi, "mean_us", &s->mean, "mean_lo",
			   &s->mean_lo, "mean_hi", &s->mean_hi, "stddev", &s->stddev, "min", &s->min, "max", &s->max)
		       ? DLB_E_JSON
		       : 0;
}

/* JSON has no NaN: absent numbers are null. */
static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

char *dlb_record_encode(const struct dlb_result *r)
{
	json_t *root = json_object(), *vendor = json_array(), *trials = json_array(), *counts = json_object();
	char *text = NULL;
	if (!root || !vendor || !trials || !counts)
		goto done;
	for (int i = 0; i < r->nvendor; i++) {
		const struct dlb_vendor_entry *v = &r->vendor[i];
		json_array_append_new(vendor, json_pack("{s:s,s:b,s:b,s:o}", "name", v->name, "is_lt", v->is_lt, "ok",
							v->ok, "stats", stats_json(&v->st)));
	}
	for (int i = 0; i < r->ntrials; i++) {
		const struct dlb_trial *t = &r->trials[i];
		json_array_append_new(trials, json_pack("{s:s,s:s,s:o,s:o}", "config", t->config, "status",
							dlb_status_name(t->status), "median_us", num(t->median_us),
							"max_err", num(t->max_err)));
	}
	for (int s = 0; s < DLB_ST_COUNT; s++)
		json_object_set_new(counts, dlb_status_name((enum dlb_status)s), json_integer(r->counts[s]));
	json_object_set_new(root, "record_version", json_integer(RECORD_VERSION));
	json_object_set_new(root, "found", json_boolean(r->found));
	json_object_set_new(root, "config", json_string(r->config));
	json_object_set_new(root, "tuned", stats_json(&r->tuned));
	json_object_set_new(root, "max_err", num(r->max_err));
	json_object_set_new(root, "tol", num(r->tol));
	json_object_set_new(root, "peak_tflops", num(r->peak_tflops));
	json_object_set_new(root, "gpu_seconds", num(r->gpu_seconds));
	json_object_set_new(root, "gpu", json_string(r->gpu));
	json_object_set_new(root, "timestamp", json_string(r->timestamp));
	json_object_set_new(root, "counts", counts);
	json_object_set_new(root, "vendor", vendor);
	json_object_set_new(root, "trials", trials);
	counts = vendor = trials = NULL;
	text = json_dumps(root, JSON_COMPACT);
done:
	json_decref(root);
	json_decref(vendor);
	json_decref(trials);
	json_decref(counts);
	return text;
}

static double num_of(json_t *j)
{
	return json_is_number(j) ? json_number_value(j) : NAN;
}

int dlb_record_decode(const char *text, size_t len, int with_trials, struct dlb_result *r)
{
	int rc = DLB_E_JSON;
	json_error_t err;
	json_t *root = json_loadb(text, len, 0, &err), *v;
	struct dlb_problem keep = r->p;
	memset(r, 0, sizeof *r);
	r->p = keep;
	if (!root || !json_is_object(root))
		goto done;
	if (json_integer_value(json_object_get(root, "record_version")) != RECORD_VERSION)
		goto done;
	r->found = json_is_true(json_object_get(root, "found"));
	snprintf(r->config, sizeof r->config, "%s", json_string_value(json_object_get(root, "config")) ?: "");
	snprintf(r->gpu, sizeof r->gpu, "%s", json_string_value(json_object_get(root, "gpu")) ?: "");
	snprintf(r->timestamp, sizeof r->timestamp, "%s", json_string_value(json_object_get(root, "timestamp")) ?: "");
	if (stats_from(json_object_get(root, "tuned"), &r->tuned))
		goto done;
	r->max_err = num_of(json_object_get(root, "max_err"));
	r->tol = num_of(json_object_get(root, "tol"));
	r->peak_tflops = num_of(json_object_get(root, "peak_tflops"));
	r->gpu_seconds = num_of(json_object_get(root, "gpu_seconds"));
	json_t *counts = json_object_get(root, "counts");
	for (int s = 0; s < DLB_ST_COUNT; s++)
		r->counts[s] = (int)json_integer_value(json_object_get(counts, dlb_status_name((enum dlb_status)s)));
	size_t i;
	json_array_foreach(json_object_get(root, "vendor"), i, v)
	{
		if (r->nvendor == DLB_RESULT_MAX_VENDOR)
			break;
		struct dlb_vendor_entry *e = &r->vendor[r->nvendor++];
		snprintf(e->name, sizeof e->name, "%s", json_string_value(json_object_get(v, "name")) ?: "?");
		e->is_lt = json_is_true(json_object_get(v, "is_lt"));
		e->ok = json_is_true(json_object_get(v, "ok"));
		if (stats_from(json_object_get(v, "stats"), &e->st))
			goto done;
	}
	json_t *trials = json_object_get(root, "trials");
	if (with_trials && json_array_size(trials)) {
		r->trials = calloc(json_array_size(trials), sizeof *r->trials);
		if (!r->trials) {
			rc = ENOMEM;
			goto done;
		}
		json_array_foreach(trials, i, v)
		{
			struct dlb_trial *t = &r->trials[r->ntrials++];
			snprintf(t->config, sizeof t->config, "%s", json_string_value(json_object_get(v, "config")) ?: "");
			if (dlb_status_parse(json_string_value(json_object_get(v, "status")) ?: "", &t->status))
				goto done;
			t->median_us = num_of(json_object_get(v, "median_us"));
			t->max_err = num_of(json_object_get(v, "max_err"));
		}
	}
	rc = 0;
done:
	json_decref(root);
	if (rc)
		dlb_result_free(r);
	return rc;
}
