/* dbcmd: one function per command; the work is in store/ (merge, records) and reports/ (export). */
#include "config.h"

#include "dbcmd.h"
#include "salvage.h"
#include "supervise.h"

#include "../reports/export.h"
#include "../reports/report.h"
#include "../reports/table.h"
#include "../store/kcache.h"
#include "../store/key.h"
#include "../store/merge.h"
#include "../store/record.h"
#include "catalog.h"
#include "err.h"
#include "kernels.h"
#include "op.h"

#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int dlb_db_path(const struct dlb_cli *c, char *buf, size_t len)
{
	int rc = 0;
	if (c->db)
		snprintf(buf, len, "%s", c->db);
	else if ((rc = dlb_store_default_path(buf, len)) != 0)
		DLB_USER_FAIL(rc, "no database path: set --db, DLBTUNE_DB or HOME");
	if (c->shard.count > 1) { /* a part of a suite: a database of its own, for `dlbtune merge` to join */
		size_t at = strlen(buf);
		if (snprintf(buf + at, len - at, "/shards/%d-of-%d", c->shard.index, c->shard.count) >= (int)(len - at))
			DLB_USER_FAIL(ENAMETOOLONG, "database path too long");
	}
fail:
	return rc;
}

/* The --layout of the command line as a key's layout text (one buffer: filters last as long as a command). */
static const char *cli_layout(const struct dlb_cli *c)
{
	static char layout[64];
	dlb_layout_text(c->family, c->dim, layout, sizeof layout);
	return layout;
}

void dlb_filter_of(const struct dlb_cli *c, struct dlb_filter *f)
{
	f->op = c->have_op ? c->op : NULL;
	f->prec = c->have_prec ? (int)c->prec : -1;
	f->layout = c->have_layout ? cli_layout(c) : NULL;
	f->device = c->device_str;
	/* a restriction's results with --only or --fp32-math ffma; else the whole space's, or (listing, showing and
	 * collecting garbage) every result */
	if (c->only)
		f->only = c->only;
	else if (c->fp32_ffma)
		f->only = DLB_ONLY_FFMA;
	else if (c->cmd == DLB_CMD_DB_LIST || c->cmd == DLB_CMD_DB_SHOW || c->cmd == DLB_CMD_DB_GC)
		f->only = "*";
	else
		f->only = NULL;
	f->currency = c->any_version ? DLB_ANY_VERSION : c->stale ? DLB_STALE : DLB_CURRENT;
	f->build = NULL; /* this process forks no GPU worker */
}

/* ---- stats ---- */

struct plat_print {
	FILE *out;
};

static int print_platform(const char *k, size_t kl, const char *v, size_t vl, void *arg)
{
	(void)k;
	(void)kl;
	struct plat_print *pp = arg;
	struct dlb_platform p;
	json_t *j = dlb_json_parse(v, vl);
	if (dlb_platform_from_json(j, &p) == 0) {
		fprintf(pp->out, "  %s (%s) on %s, %s: driver %d, CUDA %d, NVRTC %d, ", p.gpu, p.uuid, p.hostname, p.kernel,
			p.driver, p.cuda, p.nvrtc);
		for (int i = 0; dlb_libs[i] && i < DLB_MAX_LIBS; i++)
			if (dlb_libs[i]->in_platform_key)
				fprintf(pp->out, "%s %lld, ", dlb_libs[i]->name, p.lib[i]);
		fprintf(pp->out, "dlbtune %s; seen %s .. %s\n", p.dlbtune, p.first_seen, p.last_seen);
	} else
		fprintf(pp->out, "  (unreadable platform %.*s)\n", (int)kl, k);
	json_decref(j);
	return 0;
}

static int cmd_stats(struct dlb_store *s)
{
	int rc = 0;
	struct dlb_store_info in;
	DLB_CHECK(dlb_store_info(s, &in));
	printf("database   %s\n", dlb_store_path(s));
	printf("schema     %d (this dlbtune reads up to %d)\n", in.schema, DLB_SCHEMA_VERSION);
	printf("map        %.1f MiB, %.1f MiB used (%.0f%%), data.mdb %.1f MiB, page %zu B\n",
	       (double)in.map_bytes / (1 << 20), (double)in.used_bytes / (1 << 20),
	       100.0 * (double)in.used_bytes / (double)in.map_bytes, (double)in.file_bytes / (1 << 20), in.page_bytes);
	printf("readers    %u of %u slots\n", in.readers, in.max_readers);
	for (int t = 0; t < DLB_T_COUNT; t++)
		if (dlb_store_has(s, (enum dlb_table)t))
			printf("%-10s %zu entries\n", dlb_table_name((enum dlb_table)t), in.entries[t]);
	printf("platforms:\n");
	struct plat_print pp = {stdout};
	DLB_CHECK(dlb_store_each(s, DLB_T_PLATFORMS, "", print_platform, &pp));
fail:
	return rc;
}

/* ---- the kernel cache beside the database ---- */

/* Open <path>/kernels when it exists (read-only unless writes): 0 with *kc NULL when there is none. */
static int open_kernels(const char *path, int writes, struct dlb_store **kc)
{
	char file[4200];
	*kc = NULL;
	snprintf(file, sizeof file, "%s/kernels/data.mdb", path);
	if (access(file, F_OK) != 0)
		return 0;
	return dlb_kcache_open(path, !writes, kc);
}

static int kernels_stats(struct dlb_store *kc)
{
	int rc = 0;
	struct dlb_kcache_stats st;
	DLB_CHECK(dlb_kcache_stats(kc, &st));
	printf("%-10s %zu entries (%zu compile failures, %zu damaged), %.1f MiB, in %s\n", "kernels", st.entries,
	       st.failed, st.damaged, (double)st.bytes / (1 << 20), dlb_store_path(kc));
fail:
	return rc;
}

static int kernels_gc(const struct dlb_cli *c, struct dlb_store *kc)
{
	int rc = 0, dropped = 0, total = 0;
	DLB_CHECK(dlb_kernels_cache_gc(kc, c->dry_run, &dropped, &total));
	printf("%s %d of %d kernel cache entries (no run of this build can use them, or damaged)\n",
	       c->dry_run ? "would drop" : "dropped", dropped, total);
fail:
	return rc;
}

/* ---- list ---- */

static int cmd_list(const struct dlb_cli *c, struct dlb_store *s)
{
	int rc = 0, n = 0;
	struct dlb_row *rows = NULL;
	struct dlb_filter f;
	dlb_filter_of(c, &f);
	DLB_CHECK(dlb_catalog_load(s, &f, &rows, &n));
	for (int i = 0; i < n; i++) {
		const struct dlb_row *w = &rows[i];
		const struct dlb_result *r = &w->r;
		char t[96];
		if (r->found)
			snprintf(t, sizeof t, "%.3f us [%.3f, %.3f]", r->tuned.median, r->tuned.median_lo, r->tuned.median_hi);
		else
			snprintf(t, sizeof t, "(none verified)");
		printf("%s %s %s %s on %s (driver %d)%s%s%s: %s  %s  %s%s%s\n", w->k.op, w->k.prec, w->k.layout,
		       w->k.shape, w->k.gpu, w->k.driver, *w->k.only ? " [only " : "", w->k.only, *w->k.only ? "]" : "",
		       r->found ? r->config : "", t, r->timestamp, w->stale ? "  stale: " : "", w->stale ? w->why : "");
	}
	const char *which = f.currency == DLB_CURRENT ? "current " : f.currency == DLB_STALE ? "stale " : "";
	fprintf(stderr, "%d %sresults in %s%s\n", n, which, dlb_store_path(s),
		f.currency == DLB_CURRENT ? " (--stale for the others, --any-version for all)" : "");
fail:
	dlb_catalog_free(rows, n);
	return rc;
}

/* ---- show ---- */

static int show_one(struct dlb_store *s, const struct dlb_row *w)
{
	struct dlb_result r = {0};
	char *pv = NULL;
	printf("key        %s\n", w->r.key);
	printf("current    %s%s\n", w->stale ? "no: " : "yes", w->stale ? w->why : "");
	if (*w->r.platform && dlb_store_get(s, DLB_T_PLATFORMS, w->r.platform, &pv) == 0) {
		struct plat_print pp = {stdout};
		printf("platform");
		print_platform(w->r.platform, strlen(w->r.platform), pv, strlen(pv), &pp);
		free(pv);
	} else {
		printf("platform   %s\n", *w->r.platform ? "(missing)" : "(unknown: migrated from schema 1)");
	}
	int rc = dlb_result_load(s, w->r.key, 1, &r);
	if (rc)
		return rc;
	printf("best       %s: %.3f us [%.3f, %.3f], n=%d, max error %.3g (tolerance %.3g), measured %s in %.1f s\n",
	       r.found ? r.config : "(none verified)", r.tuned.median, r.tuned.median_lo, r.tuned.median_hi, r.tuned.n,
	       r.max_err, r.tol, r.timestamp, r.gpu_seconds);
	if (r.rel_err.n > 0)
		printf("accuracy   |c - exact| / sum |a b| at %d sampled outputs: max %.3g, mean %.3g\n", r.rel_err.n,
		       r.rel_err.max, r.rel_err.mean);
	printf("vendor     %d algorithms\n", r.nvendor);
	for (int i = 0; i < r.nvendor; i++) {
		char acc[64] = "";
		if (r.vendor[i].rel_err.n > 0)
			snprintf(acc, sizeof acc, "  rel err max %.3g, mean %.3g", r.vendor[i].rel_err.max,
				 r.vendor[i].rel_err.mean);
		printf("  %-28s %s %10.3f us [%.3f, %.3f] n=%d%s%s%s\n", r.vendor[i].name,
		       r.vendor[i].ok ? "ok   " : strncmp(r.vendor[i].config, "n/a", 3) == 0 ? "n/a  " : "wrong",
		       r.vendor[i].st.median, r.vendor[i].st.median_lo, r.vendor[i].st.median_hi, r.vendor[i].st.n, acc,
		       r.vendor[i].config[0] ? "  " : "", r.vendor[i].config);
	}
	if (r.paired.n)
		printf("paired     with %s, %d pairs side by side: %.3f us [%.3f, %.3f] against %.3f us [%.3f, %.3f]; speedup "
		       "%.3fx [%.3f, %.3f]\n",
		       r.paired.vendor, r.paired.n, r.paired.tuned.median, r.paired.tuned.median_lo, r.paired.tuned.median_hi,
		       r.paired.vendor_st.median, r.paired.vendor_st.median_lo, r.paired.vendor_st.median_hi,
		       r.paired.speedup.median, r.paired.speedup.median_lo, r.paired.speedup.median_hi);
	else
		printf("paired     (not measured)\n");
	printf("trials     %d\n", r.ntrials);
	for (int i = 0; i < r.ntrials; i++) {
		const struct dlb_trial *t = &r.trials[i];
		printf("  %-44s %-14s n=%-3d %10.3f us [%.3f, %.3f] %-11s %s\n", t->config, dlb_status_name(t->status), t->n,
		       t->median_us, t->lo_us, t->hi_us, t->stop, t->error);
	}
	dlb_result_free(&r);
	return 0;
}

static int cmd_show(const struct dlb_cli *c, struct dlb_store *s)
{
	int rc = 0, n = 0, shown = 0;
	struct dlb_row *rows = NULL;
	struct dlb_filter f;
	dlb_filter_of(c, &f);
	f.currency = DLB_ANY_VERSION;
	char shape[200];
	dlb_shape_text(c->family, c->dim, shape, sizeof shape);
	if (!c->arg && !c->have_shape)
		DLB_USER_FAIL(DLB_E_USAGE, "db show needs a KEY (from db list or mdb_dump) or a problem (see --help)");
	DLB_CHECK(dlb_catalog_load(s, &f, &rows, &n));
	for (int i = 0; i < n; i++) {
		const struct dlb_row *w = &rows[i];
		if (c->arg ? strcmp(c->arg, w->r.key) != 0 : strcmp(w->k.shape, shape) != 0)
			continue;
		if (shown++)
			printf("\n");
		DLB_CHECK(show_one(s, w));
	}
	if (!shown)
		DLB_USER_FAIL(DLB_E_NOTFOUND, "no stored result matches");
fail:
	dlb_catalog_free(rows, n);
	return rc;
}

/* ---- verify ---- */

/* The keys of one sub-database, in LMDB's (byte) order: references are checked against these rather than
 * with lookups from inside another read, which could not follow a map grown meanwhile. */
struct keyset {
	char **k;
	int n;
};

static int keyset_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int keyset_has(const struct keyset *ks, const char *key)
{
	return ks->n && bsearch(&key, ks->k, (size_t)ks->n, sizeof *ks->k, keyset_cmp) != NULL;
}

static void keyset_free(struct keyset *ks)
{
	dlb_keys_free(ks->k, ks->n);
}

/* A reference that was missing from the key snapshot: checked again after the scan, since another process
 * may have committed the target between the snapshot and the scan. */
struct suspect {
	enum dlb_table t, ref_t;
	char *key, *ref;
	const char *what;
};

struct verify_ctx {
	struct keyset platforms, best;
	struct dlb_platform *plats; /* the platform records read (walked before the results) */
	int nplats;
	struct suspect *sus;
	int nsus, capsus;
	FILE *out;
	int problems, entries, orphans;
	enum dlb_table t;
	char last_orphan[600];
};

static void problem(struct verify_ctx *v, const char *k, size_t kl, const char *what)
{
	v->problems++;
	fprintf(v->out, "%s: %.*s: %s\n", dlb_table_name(v->t), (int)(kl > 200 ? 200 : kl), k, what);
}

static void suspect(struct verify_ctx *v, const char *k, size_t kl, enum dlb_table ref_t, const char *ref,
		    const char *what)
{
	if (v->nsus == v->capsus) {
		int cap = v->capsus ? 2 * v->capsus : 16;
		struct suspect *n = realloc(v->sus, (size_t)cap * sizeof *n);
		if (!n) { /* no room to check again later: report it now */
			problem(v, k, kl, what);
			return;
		}
		v->sus = n;
		v->capsus = cap;
	}
	struct suspect *x = &v->sus[v->nsus];
	x->t = v->t;
	x->ref_t = ref_t;
	x->what = what;
	x->key = strndup(k, kl);
	x->ref = strdup(ref);
	if (!x->key || !x->ref) {
		free(x->key);
		free(x->ref);
		problem(v, k, kl, what);
		return;
	}
	v->nsus++;
}

/* Split "<result key>|tag=name" into the result key and the name. */
static int split_sub(const char *k, size_t kl, const char *tag, char *rkey, size_t rlen, const char **name)
{
	char buf[1024];
	if (kl >= sizeof buf)
		return -1;
	memcpy(buf, k, kl);
	buf[kl] = 0;
	char *at = strstr(buf, tag);
	if (!at || (size_t)(at - buf) >= rlen)
		return -1;
	*at = 0;
	memcpy(rkey, buf, (size_t)(at - buf) + 1); /* fits: checked above */
	*name = k + (at - buf) + strlen(tag);
	return 0;
}

static int verify_entry(const char *k, size_t kl, const char *val, size_t vl, void *arg)
{
	struct verify_ctx *v = arg;
	struct dlb_key key;
	char rkey[600];
	const char *name;
	if (dlb_interrupted) /* a walk of a large database stops on Ctrl-C (not in dlb_store_each: a run that was
			      * interrupted still reads its database on the way out) */
		return dlb_set_error(NULL, 0, "interrupted while verifying"), DLB_E_INTERRUPTED;
	json_t *j = dlb_json_parse(val, vl);
	v->entries++;
	switch (v->t) {
	case DLB_T_META:
		break;
	case DLB_T_PLATFORMS: {
		struct dlb_platform p, q;
		if (!j || dlb_platform_from_json(j, &p)) {
			problem(v, k, kl, "unreadable platform record");
			break;
		}
		q = p;
		dlb_platform_key(&q);
		if (strlen(q.key) != kl || memcmp(q.key, k, kl))
			problem(v, k, kl, "platform key does not match its fields");
		struct dlb_platform *more = realloc(v->plats, (size_t)(v->nplats + 1) * sizeof *more);
		if (more) {
			v->plats = more;
			v->plats[v->nplats++] = p;
		}
		break;
	}
	case DLB_T_BEST: {
		struct dlb_result r = {0};
		char why[256];
		if (dlb_key_decode(k, kl, &key))
			problem(v, k, kl, "unreadable key");
		else if (dlb_key_shape_check(&key, why, sizeof why))
			problem(v, k, kl, why);
		if (!j || dlb_best_from_json(j, &r)) {
			problem(v, k, kl, "unreadable best record");
			break;
		}
		if (*r.platform && !keyset_has(&v->platforms, r.platform))
			suspect(v, k, kl, DLB_T_PLATFORMS, r.platform, "its platform record is missing");
		else if (*r.platform) {
			const struct dlb_platform *pl = NULL;
			for (int i = 0; i < v->nplats && !pl; i++)
				if (!strcmp(v->plats[i].key, r.platform))
					pl = &v->plats[i];
			if (pl && !dlb_platform_is(pl, key.id))
				problem(v, k, kl, "its platform is another GPU than its key's");
		}
		if (r.found && !(isfinite(r.tuned.median) && r.tuned.median > 0 && r.tuned.n > 0))
			problem(v, k, kl, "a verified best without a timing");
		break;
	}
	case DLB_T_VENDOR:
	case DLB_T_TRIALS: {
		int is_trial = v->t == DLB_T_TRIALS;
		if (split_sub(k, kl, is_trial ? "|cfg=" : "|alg=", rkey, sizeof rkey, &name) ||
		    dlb_key_decode(rkey, strlen(rkey), &key)) {
			problem(v, k, kl, "unreadable key");
			break;
		}
		if (is_trial) {
			struct dlb_trial t;
			if (!j || dlb_trial_from_json(j, &t))
				problem(v, k, kl, "unreadable trial");
			else if (strlen(t.config) != kl - (size_t)(name - k) || memcmp(t.config, name, strlen(t.config)))
				problem(v, k, kl, "trial configuration differs from its key");
			else if (!keyset_has(&v->best, rkey) && strcmp(rkey, v->last_orphan)) {
				v->orphans++; /* an interrupted search: the next run measures it again */
				snprintf(v->last_orphan, sizeof v->last_orphan, "%s", rkey);
			}
		} else {
			struct dlb_vendor_entry e;
			if (!j || dlb_vendor_from_json(j, &e))
				problem(v, k, kl, "unreadable vendor entry");
			else if (!keyset_has(&v->best, rkey))
				suspect(v, k, kl, DLB_T_BEST, rkey, "vendor timing without a best record");
		}
		break;
	}
	default:
		break;
	}
	json_decref(j);
	return 0;
}

int dlb_db_verify(struct dlb_store *s, FILE *out, int *problems)
{
	int rc = 0;
	struct verify_ctx v = {.out = out};
	struct dlb_store_info in;
	DLB_CHECK(dlb_store_info(s, &in));
	DLB_CHECK(dlb_store_keys(s, DLB_T_PLATFORMS, "", &v.platforms.k, &v.platforms.n));
	DLB_CHECK(dlb_store_keys(s, DLB_T_BEST, "", &v.best.k, &v.best.n));
	if (in.schema != DLB_SCHEMA_VERSION) {
		v.problems++;
		fprintf(out, "meta: schema_version %d, expected %d\n", in.schema, DLB_SCHEMA_VERSION);
	}
	for (int t = 0; t < DLB_T_COUNT; t++) {
		v.t = (enum dlb_table)t;
		if (dlb_store_has(s, v.t))
			DLB_CHECK(dlb_store_each(s, v.t, "", verify_entry, &v));
	}
	for (int i = 0; i < v.nsus; i++) {
		struct suspect *x = &v.sus[i];
		char *val = NULL;
		int gr = dlb_store_get(s, x->ref_t, x->ref, &val);
		free(val);
		if (gr == DLB_E_NOTFOUND) {
			v.t = x->t;
			problem(&v, x->key, strlen(x->key), x->what);
		} else if (gr) {
			DLB_CHECK(gr);
		}
	}
	fprintf(out, "%s: %d entries read, %d problems; %zu results, %zu trials, %zu vendor timings, %zu platforms",
		dlb_store_path(s), v.entries, v.problems, in.entries[DLB_T_BEST], in.entries[DLB_T_TRIALS],
		in.entries[DLB_T_VENDOR], in.entries[DLB_T_PLATFORMS]);
	if (v.orphans)
		fprintf(out, "; %d searches without a best yet (interrupted runs; tuning measures them again)", v.orphans);
	fprintf(out, "\n");
	*problems = v.problems;
fail:
	keyset_free(&v.platforms);
	keyset_free(&v.best);
	free(v.plats);
	for (int i = 0; i < v.nsus; i++) {
		free(v.sus[i].key);
		free(v.sus[i].ref);
	}
	free(v.sus);
	return rc;
}

/* ---- gc ---- */

struct gc_ctx {
	struct dlb_row *rows;
	int n, deleted, dry;
};

static int gc_fn(struct dlb_txn *txn, void *arg)
{
	int rc = 0, cnt = 0;
	struct gc_ctx *g = arg;
	char prefix[600];
	g->deleted = 0;
	for (int i = 0; i < g->n; i++) {
		if (!g->rows[i].stale)
			continue;
		snprintf(prefix, sizeof prefix, "%s|cfg=", g->rows[i].r.key);
		DLB_CHECK(dlb_txn_del_prefix(txn, DLB_T_TRIALS, prefix, &cnt));
		g->deleted += cnt;
	}
fail:
	return rc;
}

struct count_ctx {
	int n;
};

static int count_fn(const char *k, size_t kl, const char *v, size_t vl, void *arg)
{
	(void)k, (void)kl, (void)v, (void)vl;
	((struct count_ctx *)arg)->n++;
	return 0;
}

static int cmd_gc(const struct dlb_cli *c, struct dlb_store *s)
{
	int rc = 0, n = 0, nstale = 0;
	struct dlb_row *rows = NULL;
	struct dlb_filter f;
	dlb_filter_of(c, &f);
	f.currency = DLB_STALE;
	DLB_CHECK(dlb_catalog_load(s, &f, &rows, &n));
	struct gc_ctx g = {rows, n, 0, c->dry_run};
	if (c->dry_run) {
		for (int i = 0; i < n; i++) {
			char prefix[600];
			struct count_ctx cc = {0};
			snprintf(prefix, sizeof prefix, "%s|cfg=", rows[i].r.key);
			DLB_CHECK(dlb_store_each(s, DLB_T_TRIALS, prefix, count_fn, &cc));
			g.deleted += cc.n;
		}
	} else if (n) {
		DLB_CHECK(dlb_store_write(s, gc_fn, &g));
	}
	nstale = n;
	printf("%s %d trials of %d stale results%s\n", c->dry_run ? "would delete" : "deleted", g.deleted, nstale,
	       nstale ? " (their best rows and vendor timings stay: db list --stale)" : "");
fail:
	dlb_catalog_free(rows, n);
	return rc;
}

/* ---- export, import, merge ---- */

static int cmd_export(const struct dlb_cli *c, struct dlb_store *s)
{
	int rc = 0, n = 0;
	struct dlb_row *rows = NULL;
	struct dlb_filter f;
	enum dlb_export_format fmt;
	dlb_filter_of(c, &f);
	if (dlb_export_format_parse(c->format, &fmt))
		DLB_USER_FAIL(DLB_E_USAGE, "unknown export format '%s'", c->format);
	DLB_CHECK(dlb_catalog_load(s, &f, &rows, &n));
	DLB_CHECK(dlb_export(stdout, fmt, s, rows, n));
	fprintf(stderr, "exported %d %sresults from %s\n", n,
		f.currency == DLB_CURRENT ? "current " : f.currency == DLB_STALE ? "stale " : "", dlb_store_path(s));
fail:
	dlb_catalog_free(rows, n);
	return rc;
}

/* gnuplot: $DLBTUNE_GNUPLOT (a name looked up in PATH, or a path, made absolute here: gnuplot runs in the report's
 * directory; empty or "none": no plots), else what configure found. */
static const char *gnuplot_of(const char **why, char *buf)
{
	const char *env = getenv("DLBTUNE_GNUPLOT");
	if (env) {
		*why = "DLBTUNE_GNUPLOT is empty or none";
		if (!*env || !strcmp(env, "none"))
			return NULL;
		if (!strchr(env, '/'))
			return env;
		if (!realpath(env, buf)) {
			*why = "DLBTUNE_GNUPLOT names no file";
			return NULL;
		}
		return buf;
	}
	*why = "configure found no gnuplot (Debian: gnuplot-nox; or set DLBTUNE_GNUPLOT to its path)";
	return *DLB_GNUPLOT ? DLB_GNUPLOT : NULL;
}

static int cmd_report(const struct dlb_cli *c, struct dlb_store *s)
{
	int rc = 0, n = 0, nb = 0;
	struct dlb_row *rows = NULL, *brows = NULL;
	struct dlb_store *b = NULL;
	struct dlb_filter f;
	const char *why = NULL, *gp;
	char source[4200], bsource[4200], gpbuf[PATH_MAX];
	struct dlb_report_other other = {NULL, 0, bsource};
	dlb_filter_of(c, &f);
	gp = gnuplot_of(&why, gpbuf);
	const char *which = f.currency == DLB_CURRENT ? "current" : "stale and current";
	DLB_CHECK(dlb_catalog_load(s, &f, &rows, &n));
	snprintf(source, sizeof source, "%s results of %s", which, dlb_store_path(s));
	if (c->compare) { /* B, read only, with the same filters; not A again (LMDB opens an environment once) */
		struct stat sa, sb;
		if (stat(c->compare, &sb))
			DLB_USER_FAIL(DLB_E_USAGE, "--compare %s: no database there (%s)", c->compare, strerror(errno));
		if (!S_ISDIR(sb.st_mode))
			DLB_USER_FAIL(DLB_E_USAGE, "--compare %s: not a database directory", c->compare);
		if (stat(dlb_store_path(s), &sa) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
			DLB_USER_FAIL(DLB_E_USAGE, "--compare %s: that is the database being reported (--db)", c->compare);
		rc = dlb_store_open(c->compare, DLB_STORE_RDONLY, &b);
		if (rc == DLB_E_NOTFOUND)
			DLB_USER_FAIL(DLB_E_USAGE, "--compare %s: no database there", c->compare);
		DLB_CHECK(rc);
		DLB_CHECK(dlb_catalog_load(b, &f, &brows, &nb));
		snprintf(bsource, sizeof bsource, "%s results of %s", which, dlb_store_path(b));
		other.rows = brows;
		other.n = nb;
	} else if (c->compare_device) { /* B: this database's results on the other GPUs, the other filters kept */
		struct dlb_filter fb = f;
		fb.device = c->compare_device;
		DLB_CHECK(dlb_catalog_load(s, &fb, &brows, &nb));
		snprintf(bsource, sizeof bsource, "%s results of %s on GPUs matching '%s'", which, dlb_store_path(s),
			 c->compare_device);
		snprintf(source + strlen(source), sizeof source - strlen(source), " on GPUs matching '%s'", c->device_str);
		other.rows = brows;
		other.n = nb;
	}
	DLB_CHECK(dlb_report(c->out, s, rows, n, gp, why, source, c->compare || c->compare_device ? &other : NULL));
fail:
	dlb_catalog_free(rows, n);
	dlb_catalog_free(brows, nb);
	dlb_store_close(b);
	return rc;
}

static void print_counts(const char *what, const struct dlb_merge_counts *m)
{
	fprintf(stderr, "%s: %d results added, %d replaced by better-supported ones, %d kept as they were; "
			"%d trials added, %d replaced; %d platforms added\n",
		what, m->added, m->replaced, m->kept, m->trials_added, m->trials_replaced, m->platforms_added);
}

static int cmd_import(const struct dlb_cli *c, struct dlb_store *s)
{
	int rc = 0;
	struct dlb_merge_counts m = {0};
	rc = dlb_import_file(s, c->arg, c->verbose ? stderr : stdout, &m);
	if (!rc || m.added || m.replaced || m.trials_added || m.trials_replaced || m.platforms_added)
		print_counts(c->arg, &m); /* not "0 results added" before the error that stopped it */
	return rc;
}

static int cmd_merge(const struct dlb_cli *c, struct dlb_store *s)
{
	int rc = 0;
	struct dlb_store *src = NULL;
	struct dlb_merge_counts m = {0};
	DLB_CHECK(dlb_store_open(c->arg, DLB_STORE_RDONLY, &src));
	rc = dlb_merge_db(s, src, stdout, &m);
	print_counts(c->arg, &m);
fail:
	dlb_store_close(src);
	return rc;
}

/* ---- lookup ---- */

static json_t *jnum(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static int cmd_lookup(const struct dlb_cli *c, struct dlb_store *s)
{
	int rc = 0, n = 0, answered = 0;
	struct dlb_row *rows = NULL;
	struct dlb_filter f;
	struct dlb_problem q;
	const struct dlb_op *op;
	json_t *arr = c->json ? json_array() : NULL;
	char layout[64], shape[200], opts[400];
	DLB_CHECK(dlb_cli_op(c->op, c->prec, &op));
	dlb_cli_problem(c, op, &q);
	dlb_problem_layout(&q, layout, sizeof layout);
	dlb_problem_shape(&q, shape, sizeof shape);
	dlb_problem_options(op->family, q.dim, opts, sizeof opts);
	dlb_filter_of(c, &f);
	f.op = c->op;
	f.prec = (int)c->prec;
	f.layout = layout;
	if (f.currency == DLB_STALE)
		DLB_USER_FAIL(DLB_E_USAGE, "lookup answers from current results, or any with --any-version");
	DLB_CHECK(dlb_catalog_load(s, &f, &rows, &n));
	for (int i = 0; i < n; i++) {
		int seen = 0;
		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(rows[j].k.id, rows[i].k.id);
		if (seen)
			continue;
		/* per GPU: the exact shape (newest driver first), else the nearest verified shape */
		const struct dlb_row *best = NULL;
		double bd = INFINITY;
		for (int j = i; j < n; j++) {
			const struct dlb_row *w = &rows[j];
			if (strcmp(w->k.id, rows[i].k.id) || !w->r.found)
				continue;
			double d = dlb_problem_distance(&w->r.p, &q);
			if (d < bd || (d == bd && best && w->k.driver > best->k.driver)) {
				bd = d;
				best = w;
			}
		}
		if (!best)
			continue;
		answered++;
		const struct dlb_result *r = &best->r;
		int exact = bd == 0;
		char on[64]; /* the GPU that measured it: its platform key starts with the UUID */
		snprintf(on, sizeof on, "%.*s", (int)strcspn(r->platform, "|"), r->platform);
		if (arr) {
			double sp = dlb_result_speedup(r);
			json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:b,s:f,s:o,s:s,s:o,s:o,s:o,s:o,s:b,s:s,s:s}", "gpu", best->k.gpu,
					      "gpu_id", best->k.id, "measured_on", on, "kind", exact ? "stored" : "guess", "exact", exact, "distance",
					      bd, "from_shape", dlb_problem_sizes_json(&r->p), "config", r->config, "median_us",
					      jnum(r->tuned.median), "median_lo", jnum(r->tuned.median_lo), "median_hi",
					      jnum(r->tuned.median_hi), "speedup", jnum(sp), "stale", best->stale, "measured",
					      r->timestamp, "key", r->key);
			if (!o || json_array_append_new(arr, o))
				DLB_FAIL(DLB_E_JSON, "cannot encode the answer for %s as JSON", best->k.gpu);
			continue;
		}
		char sp[32];
		printf("%s (%s), driver %d:\n", best->k.gpu, best->k.id, best->k.driver);
		if (exact)
			printf("  stored best for %s %s %s %s: %s\n  %.3f us [%.3f, %.3f] (n=%d), %s vendor best, measured %s%s%s%s\n",
			       c->op, dlb_prec_name(c->prec), layout, shape, r->config, r->tuned.median, r->tuned.median_lo,
			       r->tuned.median_hi, r->tuned.n, dlb_fmt_num(sp, sizeof sp, dlb_result_speedup(r), "%.2fx"),
			       r->timestamp, *on ? " on " : "", on, best->stale ? " (stale: --any-version)" : "");
		else
			printf("  GUESS for %s %s %s %s (not tuned): %s\n  from the nearest tuned shape %s, distance %.2f "
			       "(log2 of the sizes); %.3f us there. Tune it: dlbtune --op %s --prec %s %s\n",
			       c->op, dlb_prec_name(c->prec), layout, shape, r->config, best->k.shape, bd, r->tuned.median, c->op,
			       dlb_prec_name(c->prec), opts);
	}
	if (arr) {
		json_dumpf(arr, stdout, JSON_INDENT(1));
		printf("\n");
	}
	if (!answered)
		DLB_USER_FAIL(DLB_E_NOTFOUND,
			      "no %sverified result for %s %s %s %s on %s in %s%s; tune it: dlbtune --op %s --prec %s %s",
			      c->any_version ? "" : "current ", c->op, dlb_prec_name(c->prec), layout, shape,
			      c->device_str ? c->device_str : "any GPU", dlb_store_path(s),
			      c->any_version ? "" : " (--any-version includes stale ones)", c->op, dlb_prec_name(c->prec), opts);
fail:
	json_decref(arr);
	dlb_catalog_free(rows, n);
	return rc;
}

int dlb_cmd_db(const struct dlb_cli *c)
{
	int rc = 0, problems = 0;
	char path[4096];
	struct dlb_store *s = NULL, *kc = NULL;
	int writes = c->cmd == DLB_CMD_IMPORT || c->cmd == DLB_CMD_MERGE || c->cmd == DLB_CMD_DB_MIGRATE ||
		     (c->cmd == DLB_CMD_DB_GC && !c->dry_run);
	DLB_CHECK(dlb_db_path(c, path, sizeof path));
	if (c->cmd == DLB_CMD_IMPORT && access(c->arg, R_OK) != 0) /* before a database is created for it */
		DLB_USER_FAIL(DLB_E_PARSE, "cannot read %s: %s", c->arg, strerror(errno));
	if (c->cmd == DLB_CMD_MERGE) {
		struct stat a, b;
		if (stat(c->arg, &a) != 0)
			DLB_USER_FAIL(DLB_E_NOTFOUND, "no database at %s", c->arg);
		if (stat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			DLB_USER_FAIL(DLB_E_USAGE, "merge: %s is the database itself", c->arg);
	}
	if (c->cmd == DLB_CMD_DB_SALVAGE) /* never opened here: a damaged database is read by child processes */
		return dlb_db_salvage(path, c->arg, stdout);
	int kernels_too = c->cmd == DLB_CMD_DB_STATS || c->cmd == DLB_CMD_DB_GC;
	if (kernels_too)
		DLB_CHECK(open_kernels(path, writes, &kc));
	/* Commands that only read open read-only: no writer lock, no migration behind the user's back. */
	rc = dlb_store_open(path, writes ? DLB_STORE_CREATE * (c->cmd != DLB_CMD_DB_MIGRATE) : DLB_STORE_RDONLY, &s);
	if (rc == DLB_E_NOTFOUND && kc) { /* only a kernel cache (dlbtune compile made it) */
		printf("database   %s: no results yet\n", path);
		rc = c->cmd == DLB_CMD_DB_STATS ? kernels_stats(kc) : kernels_gc(c, kc);
		goto fail;
	}
	DLB_CHECK(rc);
	switch (c->cmd) {
	case DLB_CMD_DB_STATS:
		rc = cmd_stats(s);
		if (!rc && kc)
			rc = kernels_stats(kc);
		break;
	case DLB_CMD_DB_LIST:
		rc = cmd_list(c, s);
		break;
	case DLB_CMD_DB_SHOW:
		rc = cmd_show(c, s);
		break;
	case DLB_CMD_DB_VERIFY:
		DLB_CHECK(dlb_db_verify(s, stdout, &problems));
		if (problems)
			DLB_USER_FAIL(DLB_E_DBFORMAT, "%s: %d problems (listed above)", path, problems);
		break;
	case DLB_CMD_DB_GC:
		rc = cmd_gc(c, s);
		if (!rc && kc)
			rc = kernels_gc(c, kc);
		break;
	case DLB_CMD_DB_MIGRATE:
		printf("%s: schema %d\n", path, DLB_SCHEMA_VERSION); /* the open above migrated it if it was older */
		break;
	case DLB_CMD_EXPORT:
		rc = cmd_export(c, s);
		break;
	case DLB_CMD_REPORT:
		rc = cmd_report(c, s);
		break;
	case DLB_CMD_IMPORT:
		rc = cmd_import(c, s);
		break;
	case DLB_CMD_MERGE:
		rc = cmd_merge(c, s);
		break;
	case DLB_CMD_LOOKUP:
		rc = cmd_lookup(c, s);
		break;
	default:
		DLB_FAIL(DLB_E_USAGE, "not a database command");
	}
fail:
	dlb_store_close(s);
	dlb_store_close(kc);
	return rc;
}
