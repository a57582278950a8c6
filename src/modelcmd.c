/* modelcmd: the unique layers of ONNX models (see modelcmd.h). */
#include "modelcmd.h"
#include "app.h"
#include "tune.h"
#include "err.h"
#include "onnx.h"
#include "op.h"
#include "problem.h"
#include "suite.h"
#include "catalog.h"
#include "dbcmd.h"
#include "result.h"
#include "../store/store.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MODELS 64

/* One unique layer (or, for ops no family takes, one op type). */
struct layer {
	char *key;                  /* op | input shapes | attributes: what makes two layers the same */
	const struct dlb_family *f; /* the family that takes it; NULL: an op dlbtune does not tune */
	char op[48];
	char text[320];             /* how it is shown */
	int count[MAX_MODELS];      /* occurrences in each model */
	int total;
	int not_inferred;           /* nodes of it whose outputs' shapes are not known */
	char why[96];
	int mapped;                 /* f's problem: dim[], times per node; else nomap says why */
	int64_t dim[DLB_MAX_DIMS], times;
	char nomap[128];
	double us[3];               /* from the database, a call: tuned, vendor default, vendor best; NAN: unknown */
};

struct layers {
	struct layer *l;
	int n, cap;
};

static const struct dlb_family *family_of(const char *op)
{
	for (int i = 0; dlb_family_at(i); i++) {
		const struct dlb_family *f = dlb_family_at(i);
		for (const char *const *o = f->onnx_ops; o && *o; o++)
			if (!strcmp(*o, op))
				return f;
	}
	return NULL;
}

/* Text to out (stdout; NULL with --json, which prints the JSON instead). */
static void say(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(FILE *out, const char *fmt, ...)
{
	va_list ap;
	if (!out)
		return;
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
}

static json_t *jnumber(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* Append printf output to buf at *off (truncating at len). */
static void add(char *buf, size_t len, size_t *off, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	if (*off >= len)
		return;
	va_start(ap, fmt);
	int w = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	*off = w < 0 ? len : *off + (size_t)w > len ? len : *off + (size_t)w;
}

/* A node's description: its inputs' shapes, its attributes (ints, strings), its first output's shape. */
static void describe(const struct dlb_onnx_graph *g, const struct dlb_onnx_node *n, char *buf, size_t len,
		     int with_out)
{
	size_t off = 0;
	char s[96];
	buf[0] = 0;
	for (int i = 0; i < n->nin; i++) {
		if (n->in[i] < 0) {
			add(buf, len, &off, "%s-", i ? ", " : "");
			continue;
		}
		const struct dlb_onnx_tensor *t = &g->t[n->in[i]];
		dlb_onnx_shape_text(&t->shape, s, sizeof s);
		add(buf, len, &off, "%s%s%s", i ? ", " : "", t->is_weight ? "w " : "", s);
	}
	for (int a = 0; a < n->nattr; a++) {
		int64_t v[16];
		char str[64];
		const char *name = dlb_onnx_attr_name(n, a);
		int nv = dlb_onnx_ints(n, name, v, 16);
		if (nv >= 0) {
			add(buf, len, &off, "; %s ", name);
			for (int k = 0; k < nv && k < 16; k++)
				add(buf, len, &off, "%s%lld", k ? "," : "", (long long)v[k]);
		} else if (dlb_onnx_str(n, name, str, sizeof str) && *str)
			add(buf, len, &off, "; %s %s", name, str);
	}
	if (with_out && n->nout > 0 && n->out[0] >= 0) {
		dlb_onnx_shape_text(&g->t[n->out[0]].shape, s, sizeof s);
		add(buf, len, &off, " -> %s", s);
	}
}

/* A node's layer key: a family's node by op, inputs' shapes and attributes; any other op by its type. */
static const struct dlb_family *key_of(const struct dlb_onnx_graph *g, const struct dlb_onnx_node *n, char *key,
				       size_t len, char *text, size_t tlen)
{
	const struct dlb_family *f = family_of(n->op);
	text[0] = 0;
	if (f) {
		describe(g, n, text, tlen, 1);
		snprintf(key, len, "%s|%s", n->op, text);
	} else
		snprintf(key, len, "%s", n->op);
	return f;
}

/* A mapped layer's problem as people read it: the family's description, else its shape and layout texts. */
static void problem_text(const struct layer *l, char *desc, size_t len)
{
	if (l->f->describe)
		l->f->describe(l->dim, desc, (int)len);
	else {
		char shape[128], lay[64];
		dlb_shape_text(l->f, l->dim, shape, (int)sizeof shape);
		dlb_layout_text(l->f, l->dim, lay, (int)sizeof lay);
		snprintf(desc, len, "%s %s", shape, lay);
	}
}

static struct layer *lookup_layer(const struct layers *ls, const char *key)
{
	for (int i = 0; i < ls->n; i++)
		if (!strcmp(ls->l[i].key, key))
			return &ls->l[i];
	return NULL;
}

static struct layer *find_layer(struct layers *ls, const char *key)
{
	for (int i = 0; i < ls->n; i++)
		if (!strcmp(ls->l[i].key, key))
			return &ls->l[i];
	if (ls->n == ls->cap) {
		int cap = ls->cap ? 2 * ls->cap : 64;
		struct layer *l = realloc(ls->l, (size_t)cap * sizeof *l);
		if (!l)
			return NULL;
		ls->l = l;
		ls->cap = cap;
	}
	struct layer *l = &ls->l[ls->n];
	memset(l, 0, sizeof *l);
	if (!(l->key = strdup(key)))
		return NULL;
	ls->n++;
	return l;
}

/* The database's answer for the mapped layers in the command's precision: per layer the stored best of the
 * newest driver on one GPU (results on GPUs matching device, NULL: any; where several hold them, --device
 * chooses), its vendor default (kind 0 of the family: cuBLAS's classic call, cuDNN's heuristic choice) and
 * vendor best; the sums over the model's calls of those layers (a sequential lower bound of their part of the
 * model), printed to out (NULL: quietly). *missing_out: the mapped layers it does not hold. build: the
 * versions a GPU worker reported (NULL: this process asks the CUDA runtime, after which it must fork no GPU
 * worker). */
static int from_db(const struct dlb_cli *c, const char *device, const struct dlb_versions *build, struct layers *ls,
		   double *gbs, int *have, int *missing_out, FILE *out, json_t *jdb)
{
	int rc = 0, nrows = 0, found = 0, missing = 0, nmapped = 0;
	struct dlb_store *s = NULL;
	struct dlb_row *rows = NULL;
	char path[4096], gpu[160] = "", gid[64] = "";
	const struct dlb_row **best = calloc((size_t)(ls->n ? ls->n : 1), sizeof *best);
	if (!best)
		DLB_FAIL(ENOMEM, "out of memory");
	*have = 0;
	for (int i = 0; i < ls->n; i++)
		ls->l[i].us[0] = ls->l[i].us[1] = ls->l[i].us[2] = NAN;
	DLB_CHECK(dlb_db_path(c, path, sizeof path));
	rc = dlb_store_open(path, DLB_STORE_RDONLY, &s);
	if (rc == DLB_E_NOTFOUND) {
		say(out, "\nNo database at %s: nothing tuned yet to total.\n", path);
		json_object_set_new(jdb, "path", json_string(path));
		json_object_set_new(jdb, "exists", json_false());
		rc = 0;
		for (int i = 0; i < ls->n; i++)
			missing += ls->l[i].mapped;
		goto fail;
	}
	DLB_CHECK(rc);
	for (int fi = 0; dlb_family_at(fi); fi++) {
		const struct dlb_family *f = dlb_family_at(fi);
		int n = 0, used = 0;
		struct dlb_row *r = NULL;
		for (int i = 0; i < ls->n; i++)
			used |= ls->l[i].f == f && ls->l[i].mapped;
		if (!used)
			continue;
		struct dlb_filter flt;
		dlb_filter_of(c, &flt);
		flt.device = device;
		flt.build = build;
		flt.op = f->name;
		flt.prec = (int)c->prec;
		flt.layout = NULL;
		DLB_CHECK(dlb_catalog_load(s, &flt, &r, &n));
		struct dlb_row *all = realloc(rows, (size_t)(nrows + n + 1) * sizeof *all); /* kept for best[] */
		if (!all) {
			dlb_catalog_free(r, n);
			DLB_FAIL(ENOMEM, "out of memory");
		}
		rows = all;
		if (n)
			memcpy(rows + nrows, r, (size_t)n * sizeof *r);
		free(r); /* its rows' contents now belong to rows[] */
		nrows += n;
	}
	for (int i = 0; i < ls->n; i++) { /* the GPU: --device's, or the only one holding these layers */
		const struct layer *l = &ls->l[i];
		for (int j = 0; j < nrows && l->mapped; j++) {
			const struct dlb_row *w = &rows[j];
			if (w->r.p.op && w->r.p.op->family == l->f && w->r.found &&
			    !memcmp(w->r.p.dim, l->dim, (size_t)l->f->ndims * sizeof *l->dim)) {
				if (!*gid) {
					snprintf(gid, sizeof gid, "%s", w->k.id);
					snprintf(gpu, sizeof gpu, "%s", w->k.gpu);
				} else if (strcmp(gid, w->k.id))
					DLB_USER_FAIL(DLB_E_USAGE, "the database holds this model's layers for more than one GPU "
								   "(%s and %s): choose one with --device", gpu, w->k.gpu);
				if (!best[i] || w->k.driver > best[i]->k.driver)
					best[i] = w;
			}
		}
	}
	double tuned = 0, dflt = 0, vbest = 0;
	int dflt_all = 1, best_all = 1;
	say(out, "\nFrom the database %s, %s%s%s:\n", path, dlb_prec_name(c->prec), *gpu ? " on " : "", *gpu ? gpu : "");
	say(out, "  %-44s %6s %10s %11s %10s\n", "layer (its family's problem)", "calls", "tuned us", "default us", "best us");
	for (int i = 0; i < ls->n; i++) {
		const struct layer *l = &ls->l[i];
		char desc[256], t[3][32];
		if (!l->mapped)
			continue;
		nmapped++;
		if (!best[i]) {
			missing++;
			continue;
		}
		found++;
		const struct dlb_result *r = &best[i]->r;
		double calls = (double)l->total * (double)(l->times > 0 ? l->times : 1);
		double d = dlb_result_kind_best_us(r, 0), b = dlb_result_vendor_best_us(r);
		ls->l[i].us[0] = r->tuned.median;
		ls->l[i].us[1] = d;
		ls->l[i].us[2] = b;
		if (!isfinite(*gbs))
			*gbs = dlb_result_gbs(s, r);
		tuned += calls * r->tuned.median;
		if (isfinite(d))
			dflt += calls * d;
		else
			dflt_all = 0;
		if (isfinite(b))
			vbest += calls * b;
		else
			best_all = 0;
		problem_text(l, desc, sizeof desc);
		say(out, "  %-5s %-38.38s %6.0f %10s %11s %10s\n", l->f->name, desc, calls,
		       dlb_fmt_num(t[0], sizeof t[0], r->tuned.median, "%.2f"), dlb_fmt_num(t[1], sizeof t[1], d, "%.2f"),
		       dlb_fmt_num(t[2], sizeof t[2], b, "%.2f"));
	}
	if (found) {
		char t[3][32];
		say(out, "  sequential lower bound of these %d layers (the other ops not counted): tuned %.2f us, vendor "
		       "default %s us, vendor best %s us",
		       found, tuned, dflt_all ? dlb_fmt_num(t[0], sizeof t[0], dflt, "%.2f") : "n/a",
		       best_all ? dlb_fmt_num(t[1], sizeof t[1], vbest, "%.2f") : "n/a");
		if (dflt_all && best_all && tuned > 0)
			say(out, "; tuned %.2fx the default, %.2fx the best", dflt / tuned, vbest / tuned);
		say(out, "\n");
	}
	/* The other ops' bandwidth: measured, the best stream floor among this GPU's results here (a launch that
	 * only reads the inputs and writes the output once), else the peak from the GPU's memory clock. */
	double measured = NAN;
	char from[200] = "";
	for (int j = 0; j < nrows && *gid; j++) {
		const struct dlb_row *w = &rows[j];
		double fl = dlb_result_floor_us(&w->r), bytes = w->r.p.op ? dlb_op_min_bytes(w->r.p.op, &w->r.p) : NAN;
		if (strcmp(w->k.id, gid) || !w->r.found || !(fl > 0) || !(bytes > 0))
			continue;
		double g = bytes / (fl * 1e3);
		if (!(g <= measured)) {
			char shape[160];
			measured = g;
			dlb_problem_shape(&w->r.p, shape, sizeof shape);
			snprintf(from, sizeof from, "measured: the stream floor of %s %s %s", w->r.p.op->family->name,
				 dlb_prec_name(w->r.p.prec), shape);
		}
	}
	if (isfinite(measured))
		*gbs = measured;
	else if (isfinite(*gbs))
		snprintf(from, sizeof from, "the peak from the GPU's memory clock and bus (no stream floor here)");
	if (isfinite(*gbs))
		say(out, "  memory bandwidth for the other ops: %.0f GB/s, %s\n", *gbs, from);
	*have = found > 0;
	json_object_set_new(jdb, "path", json_string(path));
	json_object_set_new(jdb, "exists", json_true());
	json_object_set_new(jdb, "prec", json_string(dlb_prec_name(c->prec)));
	json_object_set_new(jdb, "gpu", *gpu ? json_string(gpu) : json_null());
	json_object_set_new(jdb, "layers_found", json_integer(found));
	json_object_set_new(jdb, "layers_missing", json_integer(missing));
	json_object_set_new(jdb, "bandwidth_gbs", jnumber(*gbs));
	json_object_set_new(jdb, "bandwidth_from", *from ? json_string(from) : json_null());
	if (missing)
		say(out, "  %d of the %d layers with a problem are not in the database for %s%s%s: `dlbtune model` without "
			 "--dry-run tunes them on a GPU (or `dlbtune --op OP --prec %s --suite FILE` on the suites --suite-out "
			 "writes)\n",
		    missing, nmapped, dlb_prec_name(c->prec), *gpu ? " on " : "", *gpu ? gpu : "", dlb_prec_name(c->prec));
fail:
	if (missing_out)
		*missing_out = missing;
	if (rows)
		dlb_catalog_free(rows, nrows);
	free(best);
	if (s)
		dlb_store_close(s);
	return rc;
}

static int by_family_then_count(const void *a, const void *b)
{
	const struct layer *x = a, *y = b;
	if ((x->f == NULL) != (y->f == NULL))
		return x->f ? -1 : 1;
	if (x->f && y->f && x->f != y->f)
		return strcmp(x->f->name, y->f->name);
	int c = strcmp(x->op, y->op);
	return c ? c : y->total - x->total;
}

/* Ops that move no bytes on a GPU (a view of the same data, or host-side shape arithmetic) */
static const char *const free_ops[] = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity", "Shape",
				       "Constant", "Dropout", NULL};

/* Bytes node n reads and writes at es bytes an element (its inputs and outputs once); -1 where a shape is not
 * known. */
static double node_bytes(const struct dlb_onnx_graph *g, const struct dlb_onnx_node *n, int es)
{
	double b = 0;
	for (int i = 0; i < n->nin + n->nout; i++) {
		int t = i < n->nin ? n->in[i] : n->out[i - n->nin];
		if (t < 0)
			continue;
		int64_t e = dlb_onnx_numel(&g->t[t].shape);
		if (e < 0)
			return -1;
		b += (double)e * es;
	}
	return b;
}

/* One model's lower bounds in each column (tuned, vendor default, vendor best): sequential, the sum of its
 * nodes' times; parallel, its critical path (a node starts when the nodes making its inputs have finished).
 * A family's node takes its layer's stored time a call times its calls; any other op the time of its bytes at
 * the GPU's memory bandwidth (the view ops none); a node of no known time counts 0 and is counted. */
static int model_bounds(const struct dlb_cli *c, const struct dlb_onnx_graph *g, const struct layers *ls, double gbs,
			FILE *out, json_t *jb)
{
	int rc = 0, unknown = 0, es = c->prec == DLB_PREC_INT8 ? 1 : c->prec == DLB_PREC_FP16 ? 2 : 4;
	double *fin = calloc((size_t)(g->nnodes ? g->nnodes : 1) * 3, sizeof *fin), seq[3] = {0, 0, 0},
	       par[3] = {0, 0, 0}, other = 0;
	int *maker = malloc((size_t)(g->ntensors ? g->ntensors : 1) * sizeof *maker);
	char key[1024], text[320], bw[32];
	if (!fin || !maker)
		DLB_FAIL(ENOMEM, "out of memory");
	for (int t = 0; t < g->ntensors; t++)
		maker[t] = -1;
	for (int i = 0; i < g->nnodes; i++) {
		const struct dlb_onnx_node *n = &g->n[i];
		double t[3] = {0, 0, 0};
		int known = 1;
		if (key_of(g, n, key, sizeof key, text, sizeof text)) {
			const struct layer *l = lookup_layer(ls, key);
			for (int k = 0; k < 3; k++)
				if (l && l->mapped && isfinite(l->us[k]))
					t[k] = (double)(l->times > 0 ? l->times : 1) * l->us[k];
				else
					known = 0;
		} else {
			int free_op = 0;
			for (const char *const *o = free_ops; *o; o++)
				free_op |= !strcmp(*o, n->op);
			double b = free_op ? 0 : node_bytes(g, n, es);
			if (b >= 0 && (free_op || isfinite(gbs))) {
				t[0] = t[1] = t[2] = free_op ? 0 : b / (gbs * 1e3);
				other += t[0];
			} else
				known = 0;
		}
		unknown += !known;
		for (int k = 0; k < 3; k++) {
			double start = 0;
			for (int j = 0; j < n->nin; j++)
				if (n->in[j] >= 0 && maker[n->in[j]] >= 0 && fin[3 * maker[n->in[j]] + k] > start)
					start = fin[3 * maker[n->in[j]] + k];
			fin[3 * i + k] = start + t[k];
			seq[k] += t[k];
			par[k] = fin[3 * i + k] > par[k] ? fin[3 * i + k] : par[k];
		}
		for (int j = 0; j < n->nout; j++)
			if (n->out[j] >= 0)
				maker[n->out[j]] = i;
	}
	say(out, "  %s: lower bounds, sequential / parallel (critical path): tuned %.2f / %.2f us, vendor default %.2f / "
	       "%.2f us, vendor best %.2f / %.2f us; the other ops by their bytes at %s GB/s: %.2f us of the "
	       "sequential",
	       g->path, seq[0], par[0], seq[1], par[1], seq[2], par[2], dlb_fmt_num(bw, sizeof bw, gbs, "%.0f"), other);
	if (unknown)
		say(out, "; %d nodes of unknown time counted as 0", unknown);
	say(out, "\n");
	json_t *o = json_pack("{s:s,s:{s:o,s:o,s:o},s:{s:o,s:o,s:o},s:o,s:o,s:i}", "file", g->path, "sequential_us", "tuned",
			      jnumber(seq[0]), "vendor_default", jnumber(seq[1]), "vendor_best", jnumber(seq[2]), "parallel_us", "tuned",
			      jnumber(par[0]), "vendor_default", jnumber(par[1]), "vendor_best", jnumber(par[2]), "other_ops_us", jnumber(other),
			      "bandwidth_gbs", jnumber(gbs), "unknown_nodes", unknown);
	if (!o || json_array_append_new(jb, o))
		DLB_FAIL(DLB_E_JSON, "cannot encode %s's bounds as JSON", g->path);
fail:
	free(fin);
	free(maker);
	return rc;
}

/* Tunes the mapped layers in c's precision on c's GPUs: one run per family. dlb_tune answers the layers the
 * database already holds for that GPU without GPU work (unless --retune) and tunes the rest; gid gets the
 * GPU's key id. */
static int tune_layers(const struct dlb_cli *c, const struct layers *ls, char *gid, size_t len)
{
	int rc = 0, nruns = 0;
	struct dlb_run runs[16] = {0};
	for (int fi = 0; dlb_family_at(fi) && nruns < 16; fi++) {
		const struct dlb_family *f = dlb_family_at(fi);
		struct dlb_run *r = &runs[nruns];
		int n = 0;
		for (int i = 0; i < ls->n; i++)
			n += ls->l[i].f == f && ls->l[i].mapped;
		if (!n)
			continue;
		nruns++;
		DLB_CHECK(dlb_cli_op(f->name, c->prec, &r->op));
		r->prec = c->prec;
		r->suite.problems = calloc((size_t)n, sizeof *r->suite.problems);
		if (!r->suite.problems)
			DLB_FAIL(ENOMEM, "out of memory");
		snprintf(r->suite.name, sizeof r->suite.name, "the %s %s layers", c->nfiles > 1 ? "models'" : "model's", f->name);
		for (int i = 0; i < ls->n; i++)
			if (ls->l[i].f == f && ls->l[i].mapped) {
				struct dlb_problem *p = &r->suite.problems[r->suite.n++];
				p->op = r->op;
				p->prec = r->op->prec;
				memcpy(p->dim, ls->l[i].dim, sizeof p->dim);
			}
	}
	if (nruns)
		rc = dlb_tune_runs(c, runs, nruns, !c->json && !c->csv, gid, len);
fail:
	for (int i = 0; i < nruns; i++)
		dlb_suite_free(&runs[i].suite);
	return rc;
}

/* CSV field: a string quoted (doubling its quotes), a number as is, null as n/a. */
static void csv_str(const char *v)
{
	putchar('"');
	for (; v && *v; v++) {
		if (*v == '"')
			putchar('"');
		putchar(*v);
	}
	putchar('"');
}

static void csv_num(json_t *v)
{
	if (json_is_number(v))
		printf("%.6g", json_number_value(v));
	else
		printf("n/a");
}

/* --csv: the JSON's layers, other ops and bounds as rows of one table: kind layer (a unique layer over all
 * the models: its count, calls per node and times a call), other_op (an op no family takes, by count) and
 * bound (a model's lower bounds in microseconds: sequential in the time columns, the critical path in the
 * parallel ones, and the other ops' share of the sequential). */
static void print_csv(json_t *root, int nm)
{
	size_t i;
	json_t *v;
	printf("kind,model,family,op,problem,count,per_model,calls_per_node,tuned_us,vendor_default_us,vendor_best_us,"
	       "parallel_tuned_us,parallel_vendor_default_us,parallel_vendor_best_us,other_ops_us,why_not\n");
	json_array_foreach(json_object_get(root, "layers"), i, v) {
		char per[8 * MAX_MODELS + 8] = "";
		size_t j, off = 0;
		json_t *x;
		json_array_foreach(json_object_get(v, "per_model"), j, x)
			off += (size_t)snprintf(per + off, sizeof per - off, "%s%lld", j ? " " : "", (long long)json_integer_value(x));
		printf("layer,,%s,%s,", json_string_value(json_object_get(v, "family")), json_string_value(json_object_get(v, "op")));
		csv_str(json_string_value(json_object_get(v, "problem")));
		printf(",%lld,%s,%lld,", (long long)json_integer_value(json_object_get(v, "count")), nm > 1 ? per : "",
		       (long long)json_integer_value(json_object_get(v, "calls_per_node")));
		csv_num(json_object_get(v, "tuned_us"));
		putchar(',');
		csv_num(json_object_get(v, "vendor_default_us"));
		putchar(',');
		csv_num(json_object_get(v, "vendor_best_us"));
		printf(",,,,,");
		csv_str(json_string_value(json_object_get(v, "why_not")));
		putchar('\n');
	}
	json_array_foreach(json_object_get(root, "other_ops"), i, v)
		printf("other_op,,,%s,,%lld,,,,,,,,,,\n", json_string_value(json_object_get(v, "op")),
		       (long long)json_integer_value(json_object_get(v, "count")));
	json_array_foreach(json_object_get(root, "bounds"), i, v) {
		json_t *sq = json_object_get(v, "sequential_us"), *pa = json_object_get(v, "parallel_us");
		printf("bound,");
		csv_str(json_string_value(json_object_get(v, "file")));
		printf(",,,,,,,");
		const char *k[3] = {"tuned", "vendor_default", "vendor_best"};
		for (int a = 0; a < 2; a++)
			for (int b = 0; b < 3; b++) {
				csv_num(json_object_get(a ? pa : sq, k[b]));
				putchar(',');
			}
		csv_num(json_object_get(v, "other_ops_us"));
		printf(",\n");
	}
}

int dlb_cmd_model(const struct dlb_cli *c)
{
	int rc = 0, nm = c->nfiles;
	struct layers ls = {0};
	struct dlb_onnx_graph *g = NULL, *gs[MAX_MODELS] = {0};
	char key[1024], text[320];
	double gbs = NAN;
	FILE *out = c->json || c->csv ? NULL : stdout;
	json_t *root = json_pack("{s:[],s:[],s:[],s:{},s:[]}", "models", "layers", "other_ops", "database", "bounds");
	if (!root)
		DLB_FAIL(ENOMEM, "out of memory");
	if (nm > MAX_MODELS)
		DLB_USER_FAIL(DLB_E_USAGE, "model reads at most %d files at once", MAX_MODELS);
	for (int m = 0; m < nm; m++) {
		DLB_CHECK(dlb_onnx_load(c->files[m], c->batch, &g));
		int inferred = 0, tuned = 0;
		for (int i = 0; i < g->nnodes; i++) {
			const struct dlb_onnx_node *n = &g->n[i];
			const struct dlb_family *f = key_of(g, n, key, sizeof key, text, sizeof text);
			inferred += n->inferred;
			tuned += f != NULL;
			struct layer *l = find_layer(&ls, key);
			if (!l)
				DLB_FAIL(ENOMEM, "out of memory");
			if (!l->total) {
				l->f = f;
				snprintf(l->op, sizeof l->op, "%.47s", n->op);
				snprintf(l->text, sizeof l->text, "%s", f ? text : "");
				if (f && !f->from_onnx)
					snprintf(l->nomap, sizeof l->nomap, "the family reads no ONNX node");
				else if (f) { /* the family's problem, its other dims at their defaults */
					for (int d = 0; d < f->ndims; d++)
						l->dim[d] = f->dims[d].has_default ? f->dims[d].def : 0;
					l->mapped = n->inferred &&
						    f->from_onnx(g, n, l->dim, &l->times, l->nomap, (int)sizeof l->nomap) == 0;
					if (!n->inferred)
						snprintf(l->nomap, sizeof l->nomap, "its output's shape is not known");
				}
			}
			l->count[m]++;
			l->total++;
			if (!n->inferred && l->not_inferred++ == 0)
				snprintf(l->why, sizeof l->why, "%s", n->why);
		}
		say(out, "%s: %d nodes, %d of them layers dlbtune's families take; outputs' shapes inferred for %d ",
		       c->files[m], g->nnodes, tuned, inferred);
		if (c->batch)
			say(out, "(batch %lld)", c->batch);
		else
			say(out, "(batch as in the file; --batch N sets a symbolic one)");
		say(out, "; %d shapes the file records checked, %d differ%s%s\n", g->checked, g->mismatched,
		       g->mismatched ? ": first " : "", g->mismatched ? g->first_mismatch : "");
		json_t *jm = json_pack("{s:s,s:i,s:i,s:i,s:o,s:i,s:i}", "file", c->files[m], "nodes", g->nnodes, "family_nodes",
				       tuned, "inferred", inferred, "batch", c->batch ? json_integer(c->batch) : json_null(),
				       "recorded_checked", g->checked, "recorded_differ", g->mismatched);
		if (!jm || json_array_append_new(json_object_get(root, "models"), jm))
			DLB_FAIL(DLB_E_JSON, "cannot encode %s as JSON", c->files[m]);
		gs[m] = g; /* kept for its bounds */
		g = NULL;
	}
	qsort(ls.l, (size_t)ls.n, sizeof *ls.l, by_family_then_count);
	if (c->layout) { /* --layout: every layer of a family that has it (e.g. NHWC convolutions) */
		int took = 0;
		for (int i = 0; i < ls.n; i++)
			if (ls.l[i].mapped && !dlb_layout_parse(ls.l[i].f, c->layout, ls.l[i].dim))
				took++;
		if (!took)
			DLB_USER_FAIL(DLB_E_USAGE, "--layout %s: no layer of these models has that layout", c->layout);
	}
	int uniq = 0, all = 0;
	for (int i = 0; i < ls.n; i++)
		if (ls.l[i].f) {
			uniq++;
			all += ls.l[i].total;
		}
	say(out, "\n%d unique layers of %d (same op, input shapes and attributes)%s:\n", uniq, all,
	       nm > 1 ? "; count per model, in the order given" : "");
	for (int i = 0; i < ls.n; i++) {
		const struct layer *l = &ls.l[i];
		if (!l->f)
			continue;
		say(out, "  %-5s %-7s %4d", l->f->name, l->op, l->total);
		if (nm > 1) {
			say(out, "  (");
			for (int m = 0; m < nm; m++)
				say(out, "%s%d", m ? " " : "", l->count[m]);
			say(out, ")");
		}
		say(out, "  %s%s%s%s\n", l->text, l->not_inferred ? "  [output not inferred: " : "",
		       l->not_inferred ? l->why : "", l->not_inferred ? "]" : "");
		if (l->mapped) {
			char desc[256];
			problem_text(l, desc, sizeof desc);
			say(out, "        -> %s %s", l->f->name, desc);
			if (l->times > 1)
				say(out, " (x%lld a node: one per batch)", (long long)l->times);
			say(out, "\n");
		} else
			say(out, "        -> not tuned: %s\n", l->nomap);
	}
	if (c->suite_out) { /* the mapped layers as suites `dlbtune --op F --suite FILE` takes */
		for (int i = 0; dlb_family_at(i); i++) {
			const struct dlb_family *f = dlb_family_at(i);
			char path[4096], cols[512], v[64];
			int rows = 0;
			FILE *o = NULL;
			for (int k = 0; k < ls.n; k++) {
				const struct layer *l = &ls.l[k];
				if (l->f != f || !l->mapped)
					continue;
				if (!o) {
					snprintf(path, sizeof path, "%s_%s.csv", c->suite_out, f->name);
					if (!(o = fopen(path, "w")))
						DLB_USER_FAIL(DLB_E_USAGE, "cannot write %s: %s", path, strerror(errno));
					dlb_suite_columns(f, cols, (int)sizeof cols);
					fprintf(o, "%s\n", cols);
				}
				for (int d = 0; d < f->ndims; d++) {
					dlb_dim_format(&f->dims[d], l->dim[d], v, (int)sizeof v);
					fprintf(o, "%s%s", d ? "," : "", v);
				}
				fprintf(o, "\n");
				rows++;
			}
			if (o && fclose(o))
				DLB_USER_FAIL(DLB_E_USAGE, "cannot write %s: %s", path, strerror(errno));
			if (rows)
				say(out, "wrote %s: %d problems (dlbtune --op %s --suite %s)\n", path, rows, f->name, path);
		}
	}
	say(out, "\nother ops (dlbtune does not tune them):");
	int any = 0;
	for (int i = 0; i < ls.n; i++)
		if (!ls.l[i].f) {
			say(out, "%s %s x%d", any++ ? "," : "", ls.l[i].op, ls.l[i].total);
			if (ls.l[i].not_inferred)
				say(out, " (%d not inferred: %s)", ls.l[i].not_inferred, ls.l[i].why);
		}
	say(out, "%s\n", any ? "" : " none");
	int have = 0, missing = 0, nmapped = 0, tuned_rc = 0;
	char gid[64] = "";
	const char *device = c->dry_run ? c->device_str : NULL;
	struct dlb_device dev;
	const struct dlb_versions *build = NULL;
	const struct dlb_op *op0 = NULL;
	for (int i = 0; i < ls.n; i++)
		if (ls.l[i].mapped && nmapped++ == 0)
			DLB_CHECK(dlb_cli_op(ls.l[i].f->name, c->prec, &op0));
	if (!c->dry_run && nmapped) { /* tune what the database lacks for this GPU */
		size_t free_mem = 0;
		int prc = dlb_tune_probe(c->ndevices ? c->devices[0] : c->device, op0, &dev, &free_mem, NULL);
		if (prc == DLB_E_NODRIVER || prc == DLB_E_NODEVICE) {
			fprintf(stderr, "dlbtune: no GPU to tune on (%s): nothing is tuned; the totals are what the database "
					"holds, from any GPU (--dry-run says so without looking for one)\n", dlb_last_error());
			fflush(stderr);
		} else {
			DLB_CHECK(prc);
			dlb_device_key_id(&dev, c->per_gpu, gid, sizeof gid);
			device = gid;
			build = &dev.ver;
			json_t *scratch = json_object();
			rc = from_db(c, device, build, &ls, &gbs, &have, &missing, NULL, scratch);
			json_decref(scratch);
			DLB_CHECK(rc);
			if (missing || c->retune) {
				if (!c->json && !c->csv)
					fprintf(stderr, "dlbtune: %d of the %d layers are not in the database for %s %s: tuning them%s\n",
						missing, nmapped, dev.name, dlb_prec_name(c->prec),
						c->retune ? " (--retune: all of them)" : "");
				say(out, "\n");
				fflush(stdout);
				/* a layer without a verified candidate is named in the table and left out of the totals */
				tuned_rc = tune_layers(c, &ls, gid, sizeof gid);
				if (tuned_rc && tuned_rc != DLB_E_WRONG)
					DLB_CHECK(tuned_rc);
			} else
				say(out, "\nAll %d layers with a problem are in the database for %s %s: nothing to tune.\n", nmapped,
				    dev.name, dlb_prec_name(c->prec));
			json_object_set_new(json_object_get(root, "database"), "tuned_here", json_integer(c->retune ? nmapped : missing));
		}
	}
	DLB_CHECK(from_db(c, device, build, &ls, &gbs, &have, &missing, out, json_object_get(root, "database")));
	for (int m = 0; m < nm && have; m++)
		DLB_CHECK(model_bounds(c, gs[m], &ls, gbs, out, json_object_get(root, "bounds")));
	for (int i = 0; i < ls.n; i++) { /* the layers, and the other ops, as JSON */
		const struct layer *l = &ls.l[i];
		json_t *o, *per = json_array();
		for (int m = 0; m < nm && per; m++)
			json_array_append_new(per, json_integer(l->count[m]));
		if (l->f) {
			char desc[256] = "";
			if (l->mapped)
				problem_text(l, desc, sizeof desc);
			o = json_pack("{s:s,s:s,s:i,s:o,s:s,s:o,s:o,s:I,s:o,s:o,s:o}", "family", l->f->name, "op", l->op, "count",
				      l->total, "per_model", per ? per : json_null(), "onnx", l->text, "problem",
				      l->mapped ? json_string(desc) : json_null(), "why_not", l->mapped ? json_null() : json_string(l->nomap),
				      "calls_per_node", (json_int_t)(l->times > 0 ? l->times : 1), "tuned_us", jnumber(l->us[0]),
				      "vendor_default_us", jnumber(l->us[1]), "vendor_best_us", jnumber(l->us[2]));
		} else
			o = json_pack("{s:s,s:i,s:o,s:i}", "op", l->op, "count", l->total, "per_model", per ? per : json_null(),
				      "not_inferred", l->not_inferred);
		if (!o || json_array_append_new(json_object_get(root, l->f ? "layers" : "other_ops"), o))
			DLB_FAIL(DLB_E_JSON, "cannot encode the layers as JSON");
	}
	if (c->json) {
		json_dumpf(root, stdout, JSON_INDENT(1));
		putchar('\n');
	}
	if (c->csv)
		print_csv(root, nm);
	if (tuned_rc)
		DLB_USER_FAIL(tuned_rc, "some layers have no verified candidate (the tuning table names them); the totals "
					"leave them out");
fail:
	json_decref(root);
	dlb_onnx_free(g);
	for (int m = 0; m < nm && m < MAX_MODELS; m++)
		dlb_onnx_free(gs[m]);
	for (int i = 0; i < ls.n; i++)
		free(ls.l[i].key);
	free(ls.l);
	return rc;
}
