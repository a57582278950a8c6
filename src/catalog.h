/* catalog: the stored best results as rows — decoded keys, vendor entries, and which rows are current for
 * this build — the common ground of db list, export, lookup and gc. */
#ifndef DLB_CATALOG_H
#define DLB_CATALOG_H
#include "../store/key.h"
#include "../store/store.h"
#include "result.h"

/* Which rows a command wants. */
enum dlb_currency { DLB_CURRENT, DLB_STALE, DLB_ANY_VERSION };

struct dlb_filter {
	const char *op;     /* NULL: any */
	int prec;           /* -1: any */
	const char *layout; /* NULL: any */
	const char *device; /* substring of the GPU name or UUID (case-insensitive); NULL: any */
	enum dlb_currency currency;
	/* The versions "current" compares with: a GPU worker's (struct dlb_device's ver), in a process that forks
	 * workers; NULL: this process's own, which loads the CUDA driver (then no worker forked later starts). */
	const struct dlb_versions *build;
	const char *only; /* NULL: results of searches of the whole space; "*": any; else the results of searches
	                   * restricted by that --only text (--fp32-math ffma: "family:FFMA"; store/key.h's only) */
};

struct dlb_row {
	struct dlb_key k;
	struct dlb_result r; /* best and vendor entries; r.p filled from the key */
	int stale;
	int other_build;     /* measured with another template or library versions than this build's */
	char why[96];        /* why it is stale */
};

/* A record is current when it was measured with this build's template and the CUDA runtime, NVRTC and
 * op's vendor library this build links, and no record of the same problem on the same GPU was measured under a newer
 * driver. Anything else is stale: kept, listed with --stale, used only with --any-version. */
int dlb_catalog_load(struct dlb_store *s, const struct dlb_filter *f, struct dlb_row **rows, int *n);
void dlb_catalog_free(struct dlb_row *rows, int n);
/* The platform record `key` into *p: 0, the store's error (DLB_E_NOTFOUND: none), or DLB_E_PARSE. */
int dlb_platform_get(struct dlb_store *s, const char *key, struct dlb_platform *p);
/* The memory bandwidth r was measured with, GB/s: its recorded one, else its platform record's memory clock and
 * bus (dlb_device_peak_gbs); NAN when neither says. */
double dlb_result_gbs(struct dlb_store *s, const struct dlb_result *r);
/* 0 when key k matches this build (template hash and linked library versions v; NULL: this process's, see
 * struct dlb_filter's build); else why in buf. */
int dlb_key_matches_build(const struct dlb_key *k, const struct dlb_versions *v, char *why, size_t len);
/* The FNV-1a hash of an op's template, as in its keys. */
uint64_t dlb_op_template_hash(const char *op_name, const char *prec_name);
/* The key fields that name p: op, precision, layout, shape, the family's vendor library with the version
 * this build runs, the template hash (the caller adds the GPU and the CUDA versions). */
void dlb_key_of_problem(const struct dlb_problem *p, struct dlb_key *k);
/* Distance between two problems of one family (lookup's nearest shape): the family's, or by default
 * Euclidean in log2 of the sizes, another layout adding 1. */
double dlb_problem_distance(const struct dlb_problem *a, const struct dlb_problem *b);
/* The best configurations of up to max (<= 16) current results nearest to p (same op and precision, on the GPU
 * with this key id, store/key.h: its model or its UUID; p itself excluded), nearest first, no repeats. */
/* The same over rows already loaded: the count. */
int dlb_rows_nearest(const struct dlb_row *rows, int nrows, const struct dlb_problem *p, const char *gpu_id, int max,
		     char (*configs)[128]);
/* only: of the same restriction's results (struct dlb_filter's only; NULL: the whole space's) */
int dlb_catalog_nearest(struct dlb_store *s, const struct dlb_problem *p, const char *gpu_id, const char *only,
			const struct dlb_versions *build, int max, char (*configs)[128], int *n);
#endif
