/* test_shard: --shard (and the scheduler's variables) split a suite into parts that are disjoint, complete and
 * balanced by estimated work, for every built-in suite of every op and N = 1..16; the partition is the same
 * however often it is computed; merging the parts' databases gives exactly the database one run would have
 * written. CPU only. */
#include "../store/merge.h"
#include "../store/record.h"
#include "../store/store.h"
#include "err.h"
#include "op.h"
#include "ops/gemm/gemm.h"
#include "shard.h"
#include "suite.h"
#include "testlib.h"
#include "tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct dlb_op *first_op(const struct dlb_family *f)
{
	const struct dlb_op *op;
	for (int i = 0; (op = dlb_op_at(i)) != NULL; i++)
		if (op->family == f)
			return op;
	return NULL;
}

/* Every part of s for N parts, through dlb_shard_filter as a run uses it. */
static void check_parts(const struct dlb_suite *s, int N, const char *what, int *nchecked)
{
	unsigned char *used = calloc((size_t)s->n + 1, 1);
	int *owner = malloc(((size_t)s->n + 1) * sizeof *owner), *again = malloc(((size_t)s->n + 1) * sizeof *again);
	double lo = INFINITY, hi = 0, max_cost = 0;
	REQUIRE(used && owner && again, "out of memory");
	for (int i = 0; i < s->n; i++)
		max_cost = fmax(max_cost, dlb_shard_cost(&s->problems[i]));
	for (int I = 0; I < N; I++) {
		struct dlb_suite part = *s;
		struct dlb_shard sh = {I, N, "test"};
		double total = 0, cost = 0;
		part.problems = malloc(((size_t)s->n + 1) * sizeof *part.problems);
		REQUIRE(part.problems, "out of memory");
		memcpy(part.problems, s->problems, (size_t)s->n * sizeof *part.problems);
		REQUIRE(dlb_shard_filter(&part, &sh, &total, &cost) == 0, "filter: %s", dlb_last_error());
		for (int j = 0; j < part.n; j++) { /* each kept problem is one of the suite's not yet taken */
			int found = -1;
			for (int i = 0; i < s->n && found < 0; i++)
				if (!used[i] && !memcmp(&s->problems[i], &part.problems[j], sizeof part.problems[j]))
					found = i;
			CHECK(found >= 0, "%s, %d parts: part %d has a problem twice or one not in the suite", what, N, I);
			if (found >= 0)
				used[found] = 1;
		}
		lo = fmin(lo, cost);
		hi = fmax(hi, cost);
		free(part.problems);
	}
	for (int i = 0; i < s->n; i++)
		CHECK(used[i], "%s, %d parts: problem %d is in no part", what, N, i);
	/* longest first onto the least loaded: no part ends more than one problem's cost above another */
	CHECK(hi - lo <= max_cost + 1e-9, "%s, %d parts: estimated work from %.1f to %.1f s (largest problem %.1f s)", what,
	      N, lo, hi, max_cost);
	REQUIRE(dlb_shard_assign(s, N, owner) == 0 && dlb_shard_assign(s, N, again) == 0, "assign");
	CHECK(!memcmp(owner, again, (size_t)s->n * sizeof *owner), "%s, %d parts: not the same partition twice", what, N);
	free(used);
	free(owner);
	free(again);
	(*nchecked)++;
}

static void test_builtin_suites(void)
{
	const struct dlb_family *f;
	int nchecked = 0;
	for (int fi = 0; (f = dlb_family_at(fi)) != NULL; fi++) {
		const struct dlb_op *op = first_op(f);
		char names[512], *save = NULL;
		dlb_suite_builtin_names(f->name, names, sizeof names);
		for (char *name = strtok_r(names, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
			struct dlb_suite s = {0};
			char what[128];
			REQUIRE(dlb_suite_load(name, op, op->prec, &s) == 0, "%s %s: %s", f->name, name, dlb_last_error());
			snprintf(what, sizeof what, "%s %s (%d problems)", f->name, name, s.n);
			for (int N = 1; N <= 16; N++)
				check_parts(&s, N, what, &nchecked);
			dlb_suite_free(&s);
		}
	}
	CHECK(nchecked >= 5 * 16, "only %d suites x part counts checked", nchecked);
	printf("%d suites x part counts: disjoint, complete, balanced\n", nchecked);
}

static void test_parse_and_env(void)
{
	struct dlb_shard sh;
	CHECK(dlb_shard_parse("3/4", &sh) == 0 && sh.index == 3 && sh.count == 4, "3/4");
	const char *bad[] = {"4/4", "-1/4", "1/0", "1", "/4", "1/", "a/4", "1/4x", "0/5000", ""};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		CHECK(dlb_shard_parse(bad[i], &sh) == DLB_E_USAGE, "--shard '%s' accepted", bad[i]);
	CHECK(dlb_shard_from_env(&sh) == 0, "a part found in an empty environment");
	setenv("SLURM_ARRAY_TASK_ID", "12", 1);
	setenv("SLURM_ARRAY_TASK_MIN", "10", 1);
	setenv("SLURM_ARRAY_TASK_COUNT", "4", 1);
	setenv("OMPI_COMM_WORLD_RANK", "1", 1); /* the array wins */
	setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
	CHECK(dlb_shard_from_env(&sh) == 1 && sh.index == 2 && sh.count == 4 && !strcmp(sh.from, "SLURM_ARRAY_TASK_ID"),
	      "Slurm array: %d of %d from %s", sh.index, sh.count, sh.from);
	setenv("SLURM_ARRAY_TASK_ID", "14", 1); /* past MIN + COUNT - 1 */
	CHECK(dlb_shard_from_env(&sh) == DLB_E_USAGE, "array task 14 of 10..13 accepted");
	unsetenv("SLURM_ARRAY_TASK_ID");
	unsetenv("SLURM_ARRAY_TASK_MIN");
	unsetenv("SLURM_ARRAY_TASK_COUNT");
	CHECK(dlb_shard_from_env(&sh) == 1 && sh.index == 1 && sh.count == 2 && !strcmp(sh.from, "OMPI_COMM_WORLD_RANK"),
	      "Open MPI: %d of %d", sh.index, sh.count);
	setenv("OMPI_COMM_WORLD_SIZE", "x", 1);
	CHECK(dlb_shard_from_env(&sh) == DLB_E_USAGE, "a size of 'x' accepted");
	unsetenv("OMPI_COMM_WORLD_RANK");
	unsetenv("OMPI_COMM_WORLD_SIZE");
	setenv("PMI_RANK", "0", 1);
	setenv("PMI_SIZE", "3", 1);
	CHECK(dlb_shard_from_env(&sh) == 1 && sh.index == 0 && sh.count == 3, "PMI");
	unsetenv("PMI_RANK");
	unsetenv("PMI_SIZE");
}

/* A measured result of p as a tune stores it: best, vendor entries, trials, platform. */
static void store_result(struct dlb_store *db, const struct dlb_device *dev, const struct dlb_problem *p, int salt)
{
	struct dlb_result r = {0};
	struct dlb_platform plat;
	struct dlb_trial t = {.status = DLB_ST_OK, .n = 9, .median_us = 10.0 + salt, .lo_us = 9.5 + salt, .hi_us = 10.5 + salt,
			      .mean_us = 10.0 + salt, .taken = 11, .max_err = 1e-6, .stop = "slower", .seconds = 0.25,
			      .timestamp = "2026-11-26T08:00:00Z"};
	r.p = *p;
	REQUIRE(dlb_problem_key(dev, 0, p, NULL, r.key, sizeof r.key) == 0, "key");
	dlb_platform_of(dev, &plat);
	/* seen at a time of the salt's, not the clock's: a second could tick between the save to one run's database
	 * and to its part (CI's sanitizer build saw it), and the merged parts must widen to one run's window */
	snprintf(plat.first_seen, sizeof plat.first_seen, "2026-11-26T08:00:%02dZ", salt % 60);
	snprintf(plat.last_seen, sizeof plat.last_seen, "%s", plat.first_seen);
	REQUIRE(dlb_platform_save(db, &plat) == 0, "platform: %s", dlb_last_error());
	snprintf(r.platform, sizeof r.platform, "%s", plat.key);
	r.found = 1;
	snprintf(r.config, sizeof r.config, "BM=64 BN=%d SPLITK=1", 16 + salt);
	r.tuned = (struct dlb_stats){.n = 9, .median = 10.0 + salt, .median_lo = 9.5 + salt, .median_hi = 10.5 + salt};
	r.peak = 60.0;
	r.nvendor = 1;
	r.vendor[0] = (struct dlb_vendor_entry){"cublasSgemm", 0, 1, {.n = 15, .median = 12.0 + salt}};
	r.counts[DLB_ST_OK] = 1;
	snprintf(r.timestamp, sizeof r.timestamp, "2026-11-26T08:00:%02dZ", salt % 60);
	snprintf(t.config, sizeof t.config, "%s", r.config);
	REQUIRE(dlb_result_save(db, &r) == 0, "save: %s", dlb_last_error());
	REQUIRE(dlb_trial_save(db, r.key, &t) == 0, "trial: %s", dlb_last_error());
}

struct dump {
	char **kv;
	int n, cap;
};

static int dump_fn(const char *k, size_t kl, const char *v, size_t vl, void *arg)
{
	struct dump *d = arg;
	if (d->n + 2 > d->cap) {
		d->cap = 2 * d->cap + 64;
		d->kv = realloc(d->kv, (size_t)d->cap * sizeof *d->kv);
	}
	d->kv[d->n] = strndup(k, kl);
	d->kv[d->n + 1] = strndup(v, vl);
	d->n += 2;
	return 0;
}

/* 1 when every table but meta (its creation time) holds the same keys and values in a and b. */
static int same_db(struct dlb_store *a, struct dlb_store *b)
{
	static const enum dlb_table tables[] = {DLB_T_PLATFORMS, DLB_T_TRIALS, DLB_T_BEST, DLB_T_VENDOR};
	int same = 1;
	for (size_t t = 0; t < sizeof tables / sizeof *tables; t++) {
		struct dump x = {0}, y = {0};
		REQUIRE(dlb_store_each(a, tables[t], "", dump_fn, &x) == 0 && dlb_store_each(b, tables[t], "", dump_fn, &y) == 0,
			"read");
		if (x.n != y.n || x.n == 0) {
			CHECK(0, "table %s: %d against %d entries", dlb_table_name(tables[t]), x.n / 2, y.n / 2);
			same = 0;
		}
		for (int i = 0; i < x.n && i < y.n; i++)
			if (strcmp(x.kv[i], y.kv[i])) {
				CHECK(0, "table %s: '%.120s' against '%.120s'", dlb_table_name(tables[t]), x.kv[i], y.kv[i]);
				same = 0;
				break;
			}
		for (int i = 0; i < x.n; i++)
			free(x.kv[i]);
		for (int i = 0; i < y.n; i++)
			free(y.kv[i]);
		free(x.kv);
		free(y.kv);
	}
	return same;
}

static void test_merge_equals_one_run(void)
{
	enum { NP = 24, NPARTS = 5 };
	struct dlb_device dev = {.ordinal = 0, .name = "Fake GPU", .uuid = "GPU-fake", .cc_major = 9, .sm_count = 132,
				 .clock_khz = 1980000, .total_mem = 1ull << 34};
	struct dlb_problem probs[NP];
	for (int i = 0; i < NP; i++)
		probs[i] = (struct dlb_problem){&dlb_op_gemm, DLB_PREC_FP32, {64 << (i % 7), 16 * (1 + i), 512 << (i % 3), i % 2, 0}, 0};
	struct dlb_suite s = {.name = "test", .problems = probs, .n = NP};
	int owner[NP];
	REQUIRE(dlb_shard_assign(&s, NPARTS, owner) == 0, "assign");
	char dir[] = "/tmp/dlb_test_shard.XXXXXX", path[128];
	REQUIRE(mkdtemp(dir), "mkdtemp");
	struct dlb_store *one = NULL, *merged = NULL, *parts[NPARTS] = {0};
	snprintf(path, sizeof path, "%s/one", dir);
	REQUIRE(dlb_store_open(path, DLB_STORE_CREATE, &one) == 0, "open");
	snprintf(path, sizeof path, "%s/merged", dir);
	REQUIRE(dlb_store_open(path, DLB_STORE_CREATE, &merged) == 0, "open");
	for (int g = 0; g < NPARTS; g++) {
		snprintf(path, sizeof path, "%s/shards/%d-of-%d", dir, g, NPARTS);
		char parent[128];
		snprintf(parent, sizeof parent, "%s/shards", dir);
		mkdir(parent, 0755);
		REQUIRE(dlb_store_open(path, DLB_STORE_CREATE, &parts[g]) == 0, "open part %d: %s", g, dlb_last_error());
	}
	for (int i = 0; i < NP; i++) {
		store_result(one, &dev, &probs[i], i);
		store_result(parts[owner[i]], &dev, &probs[i], i);
	}
	struct dlb_merge_counts c = {0};
	for (int g = 0; g < NPARTS; g++)
		REQUIRE(dlb_merge_db(merged, parts[g], NULL, &c) == 0, "merge part %d: %s", g, dlb_last_error());
	CHECK_EQ_INT(c.added, NP);
	CHECK_EQ_INT(c.replaced + c.kept, 0);
	CHECK(same_db(one, merged), "the merged parts differ from one run's database");
	/* merging a part again changes nothing */
	memset(&c, 0, sizeof c);
	REQUIRE(dlb_merge_db(merged, parts[0], NULL, &c) == 0, "merge again");
	CHECK_EQ_INT(c.added + c.replaced, 0);
	CHECK(same_db(one, merged), "a second merge changed the database");
	dlb_store_close(one);
	dlb_store_close(merged);
	for (int g = 0; g < NPARTS; g++)
		dlb_store_close(parts[g]);
	snprintf(path, sizeof path, "rm -rf %s", dir);
	CHECK_EQ_INT(system(path), 0);
}

int main(void)
{
	test_builtin_suites();
	test_parse_and_env();
	test_merge_equals_one_run();
	return TEST_DONE();
}
