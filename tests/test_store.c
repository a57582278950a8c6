/* test_store: the database refuses what it cannot read (foreign, truncated, garbage, a newer schema), migrates
 * schema 1 after a backup, grows a full map, tells current results from stale ones, and keeps the
 * better-supported side of a merge. CPU only. */
#include "../store/merge.h"
#include "../store/record.h"
#include "../store/store.h"
#include "catalog.h"
#include "dbcmd.h"
#include "device.h"
#include "err.h"
#include "op.h"
#include "supervise.h"
#include "testlib.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <lmdb.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[] = "/tmp/dlb_test_store.XXXXXX";

static const char *dir_of(const char *name)
{
	static char buf[8][256];
	static int next;
	char *b = buf[next++ % 8];
	snprintf(b, 256, "%s/%s", root, name);
	return b;
}

/* Write key=val into sub-database `table` (NULL: the main one) of an LMDB environment, as another program
 * would: no dlbtune code involved. */
static void raw_put(const char *dir, const char *table, const char *key, const char *val)
{
	MDB_env *env;
	MDB_txn *txn;
	MDB_dbi dbi;
	mkdir(dir, 0755);
	REQUIRE(mdb_env_create(&env) == 0 && mdb_env_set_maxdbs(env, 8) == 0 && mdb_env_open(env, dir, 0, 0644) == 0,
		"raw open of %s", dir);
	REQUIRE(mdb_txn_begin(env, NULL, 0, &txn) == 0, "raw txn");
	REQUIRE(mdb_dbi_open(txn, table, MDB_CREATE, &dbi) == 0, "raw dbi %s", table ? table : "(main)");
	MDB_val k = {strlen(key), (void *)key}, v = {strlen(val), (void *)val};
	REQUIRE(mdb_put(txn, dbi, &k, &v, 0) == 0 && mdb_txn_commit(txn) == 0, "raw put");
	mdb_env_close(env);
}

static int open_rc(const char *dir, unsigned flags)
{
	struct dlb_store *s = NULL;
	int rc = dlb_store_open(dir, flags, &s);
	dlb_store_close(s);
	return rc;
}

static void make_key(char *buf, size_t len, int64_t m, int driver, int current)
{
	struct dlb_versions v;
	dlb_versions_get(&v);
	const struct dlb_lib *lib = dlb_family_find("gemm")->vendor_lib;
	struct dlb_key k = {.op = "gemm", .prec = "fp32", .layout = "NN", .gpu = "NVIDIA H200", .id = "GPU-test",
			    .sm = 90, .driver = driver, .cuda = v.runtime, .nvrtc = v.nvrtc_major * 100 + v.nvrtc_minor,
			    .vlib_version = lib->version(),
			    .tpl_hash = current ? dlb_op_template_hash("gemm", "fp32") : 0x0123456789abcdefull};
	snprintf(k.shape, sizeof k.shape, "%lldx16x1760", (long long)m);
	snprintf(k.vlib, sizeof k.vlib, "%s", lib->key);
	REQUIRE(dlb_key_encode(&k, buf, len) > 0, "key encode");
}

static void fill_result(struct dlb_result *r, const char *key, int found, int n)
{
	memset(r, 0, sizeof *r);
	snprintf(r->key, sizeof r->key, "%s", key);
	r->found = found;
	snprintf(r->config, sizeof r->config, "%s", found ? "BM=32 BN=16 BK=16 TM=4 TN=2 SPLITK=8" : "");
	r->tuned = (struct dlb_stats){.n = n, .median = 17.5, .median_lo = 17.25, .median_hi = 17.75};
	r->counts[DLB_ST_OK] = 1;
	r->max_err = r->tol = r->peak = r->gpu_seconds = NAN;
	snprintf(r->timestamp, sizeof r->timestamp, "2026-11-21T00:00:00Z");
	r->nvendor = 1;
	r->vendor[0] = (struct dlb_vendor_entry){"cublasSgemm", 0, 1, {.n = n, .median = 18.0}};
}

static void test_refusals(void)
{
	int rc;
	/* nothing there */
	CHECK_EQ_INT(open_rc(dir_of("absent"), 0), DLB_E_NOTFOUND);
	/* a file where the directory should be */
	FILE *f = fopen(dir_of("afile"), "w");
	REQUIRE(f, "fopen");
	fputs("hello\n", f);
	fclose(f);
	CHECK_EQ_INT(open_rc(dir_of("afile"), DLB_STORE_CREATE), ENOTDIR);
	/* a data.mdb that is text */
	mkdir(dir_of("text"), 0755);
	f = fopen(dir_of("text/data.mdb"), "w");
	REQUIRE(f, "fopen");
	for (int i = 0; i < 1000; i++)
		fputs("this is not an LMDB file\n", f);
	fclose(f);
	rc = open_rc(dir_of("text"), DLB_STORE_CREATE);
	CHECK_EQ_INT(rc, DLB_E_DBFORMAT);
	CHECK_HAS(dlb_last_error(), "not an LMDB database");
	/* an LMDB database of another program */
	raw_put(dir_of("foreign"), "foo", "a", "b");
	CHECK_EQ_INT(open_rc(dir_of("foreign"), DLB_STORE_CREATE), DLB_E_DBFORMAT);
	CHECK_HAS(dlb_last_error(), "not dlbtune's");
	raw_put(dir_of("foreign2"), NULL, "plain-key", "value");
	CHECK_EQ_INT(open_rc(dir_of("foreign2"), DLB_STORE_CREATE), DLB_E_DBFORMAT);
	/* a newer schema */
	CHECK_EQ_INT(open_rc(dir_of("newer"), DLB_STORE_CREATE), 0);
	raw_put(dir_of("newer"), "meta", "schema_version", "99");
	CHECK_EQ_INT(open_rc(dir_of("newer"), DLB_STORE_CREATE), DLB_E_DBFORMAT);
	CHECK_HAS(dlb_last_error(), "schema 99");
	CHECK_HAS(dlb_last_error(), "reads schema 3");
	raw_put(dir_of("newer"), "meta", "schema_version", "two");
	CHECK_EQ_INT(open_rc(dir_of("newer"), 0), DLB_E_DBFORMAT);
}

/* A real database cut short, or with both meta pages overwritten: an error, never a crash. */
static void test_damaged(void)
{
	struct dlb_store *s = NULL;
	char key[512];
	REQUIRE(dlb_store_open(dir_of("cut"), DLB_STORE_CREATE, &s) == 0, "open: %s", dlb_last_error());
	for (int i = 0; i < 300; i++) {
		struct dlb_trial t = {.status = DLB_ST_OK, .n = 3, .median_us = i};
		snprintf(t.config, sizeof t.config, "BM=%d BN=16 BK=8 TM=4 TN=2 SPLITK=1", i);
		snprintf(t.error, sizeof t.error, "%0150d", i);
		make_key(key, sizeof key, 1000 + i, 13000, 1);
		REQUIRE(dlb_trial_save(s, key, &t) == 0, "trial save: %s", dlb_last_error());
	}
	dlb_store_close(s);
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "cp -r %s %s && cp -r %s %s", dir_of("cut"), dir_of("tiny"), dir_of("cut"),
		 dir_of("garbage"));
	REQUIRE(system(cmd) == 0, "cp");
	struct stat st;
	REQUIRE(stat(dir_of("cut/data.mdb"), &st) == 0 && st.st_size > 5 * 4096, "data.mdb is %lld bytes",
		(long long)st.st_size);
	REQUIRE(truncate(dir_of("cut/data.mdb"), 3 * 4096) == 0, "truncate");
	CHECK_EQ_INT(open_rc(dir_of("cut"), 0), DLB_E_DBFORMAT);
	CHECK_HAS(dlb_last_error(), "truncated");
	REQUIRE(truncate(dir_of("tiny/data.mdb"), 100) == 0, "truncate");
	CHECK_EQ_INT(open_rc(dir_of("tiny"), 0), DLB_E_DBFORMAT);
	int fd = open(dir_of("garbage/data.mdb"), O_WRONLY);
	REQUIRE(fd >= 0, "open garbage");
	char junk[8192];
	memset(junk, 0xab, sizeof junk);
	REQUIRE(write(fd, junk, sizeof junk) == (ssize_t)sizeof junk, "write");
	close(fd);
	CHECK_EQ_INT(open_rc(dir_of("garbage"), 0), DLB_E_DBFORMAT);
	/* an empty data.mdb, read (issue 34: "Bad file descriptor") */
	REQUIRE(truncate(dir_of("garbage/data.mdb"), 0) == 0, "truncate");
	CHECK_EQ_INT(open_rc(dir_of("garbage"), DLB_STORE_RDONLY), DLB_E_DBFORMAT);
	CHECK_HAS(dlb_last_error(), "is empty (0 bytes)");
}

/* A value another program wrote into our sub-database: verify names it, the catalog skips it. */
static void test_bad_values(void)
{
	struct dlb_store *s = NULL;
	struct dlb_result r;
	char key[512];
	int problems = -1, n = 0;
	struct dlb_row *rows = NULL;
	make_key(key, sizeof key, 64, 13000, 1);
	REQUIRE(dlb_store_open(dir_of("bad"), DLB_STORE_CREATE, &s) == 0, "open: %s", dlb_last_error());
	fill_result(&r, key, 1, 15);
	CHECK_EQ_INT(dlb_result_save(s, &r), 0);
	CHECK_EQ_INT(dlb_db_verify(s, stdout, &problems), 0);
	CHECK_EQ_INT(problems, 0);
	dlb_store_close(s);
	make_key(key, sizeof key, 65, 13000, 1);
	raw_put(dir_of("bad"), "best", key, "{not json");
	raw_put(dir_of("bad"), "best", "v1|garbage key", "{}");
	raw_put(dir_of("bad"), "trials", "no separator", "{}");
	REQUIRE(dlb_store_open(dir_of("bad"), 0, &s) == 0, "open: %s", dlb_last_error());
	CHECK_EQ_INT(dlb_db_verify(s, stdout, &problems), 0);
	CHECK(problems >= 3, "verify found %d problems, expected at least 3", problems);
	/* a readable record whose shape no command could have made (issue 34: verify passed 0x16x1760) */
	dlb_store_close(s);
	make_key(key, sizeof key, 0, 13000, 1);
	fill_result(&r, key, 1, 15);
	REQUIRE(dlb_store_open(dir_of("bad"), 0, &s) == 0, "open: %s", dlb_last_error());
	CHECK_EQ_INT(dlb_result_save(s, &r), 0);
	int before = problems;
	CHECK_EQ_INT(dlb_db_verify(s, stdout, &problems), 0);
	CHECK(problems == before + 1, "verify: %d problems with a 0x16x1760 record, %d without", problems, before);
	struct dlb_filter f = {NULL, -1, NULL, NULL, DLB_ANY_VERSION};
	CHECK_EQ_INT(dlb_catalog_load(s, &f, &rows, &n), 0);
	CHECK_EQ_INT(n, 1); /* the readable one: 0x16x1760 is not a shape the catalog can read back */
	dlb_catalog_free(rows, n);
	dlb_store_close(s);
}

static int count_backups(void)
{
	DIR *d = opendir(dir_of("v1"));
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d)))
		n += !strncmp(e->d_name, "backup-schema1-", 15);
	if (d)
		closedir(d);
	return n;
}

/* Schema 1: one "best" sub-database whose records carried their trials and vendor times. */
static void test_migration(void)
{
	char key[512];
	struct dlb_store *s = NULL;
	struct dlb_result r;
	int problems = -1;
	make_key(key, sizeof key, 1760, 13000, 1);
	raw_put(dir_of("v1"), "best", key,
		"{\"record_version\":1,\"found\":true,\"config\":\"BM=32 BN=16 BK=16 TM=4 TN=2 SPLITK=8\","
		"\"tuned\":{\"n\":15,\"median_us\":16.5,\"median_lo\":16.25,\"median_hi\":16.75,\"mean_us\":16.5,"
		"\"mean_lo\":16.4,\"mean_hi\":16.6,\"stddev\":0.1,\"min\":16.2,\"max\":17.0},\"max_err\":1e-6,\"tol\":1e-5,"
		"\"peak\":66.9,\"gpu_seconds\":3.5,\"gpu\":\"NVIDIA H200\",\"timestamp\":\"2026-11-20T10:00:00Z\","
		"\"counts\":{\"ok\":1,\"wrong_answer\":1},\"vendor\":[{\"name\":\"cublasSgemm\",\"is_lt\":false,\"ok\":true,"
		"\"stats\":{\"n\":15,\"median_us\":18.0,\"median_lo\":17.9,\"median_hi\":18.1,\"mean_us\":18.0,\"mean_lo\":"
		"17.9,\"mean_hi\":18.1,\"stddev\":0.1,\"min\":17.8,\"max\":18.4}}],\"trials\":[{\"config\":\"BM=32 BN=16 BK=16 "
		"TM=4 TN=2 SPLITK=8\",\"status\":\"ok\",\"median_us\":16.6,\"max_err\":1e-6},{\"config\":\"BM=16 BN=16 "
		"BK=8 TM=4 TN=2 SPLITK=1\",\"status\":\"wrong_answer\",\"median_us\":null,\"max_err\":0.5}]}");
	CHECK_EQ_INT(open_rc(dir_of("v1"), DLB_STORE_RDONLY), DLB_E_DBFORMAT); /* read-only: cannot migrate */
	CHECK_EQ_INT(count_backups(), 0);
	REQUIRE(dlb_store_open(dir_of("v1"), 0, &s) == 0, "open for migration: %s", dlb_last_error());
	CHECK_EQ_INT(count_backups(), 1);
	memset(&r, 0, sizeof r);
	CHECK_EQ_INT(dlb_result_load(s, key, 1, &r), 0);
	CHECK_EQ_INT(r.found, 1);
	CHECK_NEAR(r.tuned.median, 16.5, 0);
	CHECK_EQ_INT(r.counts[DLB_ST_WRONG_ANSWER], 1);
	CHECK_EQ_INT(r.nvendor, 1);
	CHECK_EQ_INT(r.ntrials, 2);
	CHECK_EQ_STR(r.platform, "");
	dlb_result_free(&r);
	CHECK_EQ_INT(dlb_db_verify(s, stdout, &problems), 0);
	CHECK_EQ_INT(problems, 0);
	dlb_store_close(s);
	/* opening again migrates nothing */
	CHECK_EQ_INT(open_rc(dir_of("v1"), 0), 0);
	CHECK_EQ_INT(count_backups(), 1);
	/* the backup is the old database, still readable as schema 1 by a raw reader */
	DIR *d = opendir(dir_of("v1"));
	struct dirent *e;
	char bdir[512] = "";
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "backup-schema1-", 15))
			snprintf(bdir, sizeof bdir, "%s/%s", dir_of("v1"), e->d_name);
	if (d)
		closedir(d);
	CHECK_EQ_INT(open_rc(bdir, DLB_STORE_RDONLY), DLB_E_DBFORMAT); /* schema 1, read-only */
}

/* Schema 2 to 3: keys that named a GPU's UUID name its model. Two GPUs of one model that measured the same
 * problem: the first keeps the model key, the second its UUID key; trials without a result and without a
 * platform keep their UUID; nothing is lost and db verify passes. */
static void v1_key(char *buf, size_t len, const char *uuid, int m)
{
	char k2[512];
	make_key(k2, sizeof k2, m, 13000, 1);
	char *id = strstr(k2, "|id=GPU-test|");
	REQUIRE(id, "key layout");
	*id = 0;
	int n = snprintf(buf, len, "v1%s|uuid=%s|%s", k2 + 2, uuid, id + strlen("|id=GPU-test|"));
	REQUIRE(n > 0 && (size_t)n < len, "v1 key too long");
}

static void test_key_migration(void)
{
	struct dlb_store *s = NULL;
	const char *dir = dir_of("keys2");
	REQUIRE(dlb_store_open(dir, DLB_STORE_CREATE, &s) == 0, "create: %s", dlb_last_error());
	struct dlb_platform pa = {.gpu = "NVIDIA H200", .uuid = "GPU-A", .sm = 90, .sm_count = 132, .clock_mhz = 1980,
				  .mem_clock_mhz = 3201, .memory_gib = 139.8, .driver = 13000, .cuda = 13000,
				  .nvrtc = 1300, .hostname = "a", .first_seen = "2026-11-26T00:00:00Z",
				  .last_seen = "2026-11-26T00:00:00Z"},
			   pb = pa;
	snprintf(pb.uuid, sizeof pb.uuid, "GPU-B");
	dlb_platform_key(&pa);
	dlb_platform_key(&pb);
	REQUIRE(dlb_platform_save(s, &pa) == 0 && dlb_platform_save(s, &pb) == 0, "platforms");
	char ka[512], kb[512], kq[512], kc[512];
	v1_key(ka, sizeof ka, "GPU-A", 1760);
	v1_key(kb, sizeof kb, "GPU-B", 1760);
	v1_key(kq, sizeof kq, "GPU-A", 2048);
	v1_key(kc, sizeof kc, "GPU-C", 2048);
	const char *rk[3] = {ka, kb, kq};
	const struct dlb_platform *rp[3] = {&pa, &pb, &pa};
	for (int i = 0; i < 3; i++) {
		struct dlb_result r = {0};
		snprintf(r.key, sizeof r.key, "%s", rk[i]);
		snprintf(r.platform, sizeof r.platform, "%s", rp[i]->key);
		r.found = 1;
		snprintf(r.config, sizeof r.config, "BM=%d", 16 << i);
		r.tuned = (struct dlb_stats){.n = 5, .median = 10 + i, .median_lo = 9 + i, .median_hi = 11 + i};
		r.nvendor = 1;
		r.vendor[0] = (struct dlb_vendor_entry){"cublasSgemm", 0, 1, {.n = 5, .median = 12}};
		REQUIRE(dlb_result_save(s, &r) == 0, "save: %s", dlb_last_error());
		struct dlb_trial t = {.status = DLB_ST_OK, .n = 5, .median_us = 10 + i, .timestamp = "2026-11-26T00:00:00Z"};
		snprintf(t.config, sizeof t.config, "%s", r.config);
		REQUIRE(dlb_trial_save(s, r.key, &t) == 0, "trial");
	}
	struct dlb_trial orphan = {.status = DLB_ST_TIMEOUT, .timestamp = "2026-11-26T00:00:00Z", .config = "BM=99"};
	REQUIRE(dlb_trial_save(s, kc, &orphan) == 0, "orphan trial");
	dlb_store_close(s);
	raw_put(dir, "meta", "schema_version", "2");
	CHECK_EQ_INT(open_rc(dir, DLB_STORE_RDONLY), DLB_E_DBFORMAT); /* read-only: cannot migrate */
	CHECK_HAS(dlb_last_error(), "schema 2");
	REQUIRE(dlb_store_open(dir, 0, &s) == 0, "open for migration: %s", dlb_last_error());
	struct dlb_store_info info;
	REQUIRE(dlb_store_info(s, &info) == 0, "info");
	CHECK_EQ_INT(info.schema, 3);
	CHECK_EQ_INT(info.entries[DLB_T_BEST], 3);
	CHECK_EQ_INT(info.entries[DLB_T_TRIALS], 4);
	CHECK_EQ_INT(info.entries[DLB_T_VENDOR], 3);
	char model[48], want[512];
	dlb_platform_model_id(&pa, model, sizeof model);
	CHECK_EQ_STR(model, "132sm-140GiB-1980MHz-3201MHz");
	struct { const char *v1, *id, *config; } moved[] = {{ka, model, "BM=16"}, {kb, "GPU-B", "BM=32"}, {kq, model, "BM=64"}};
	for (int i = 0; i < 3; i++) {
		struct dlb_key k;
		struct dlb_result r = {0};
		REQUIRE(dlb_key_decode(moved[i].v1, strlen(moved[i].v1), &k) == 0, "decode v1");
		snprintf(k.id, sizeof k.id, "%s", moved[i].id);
		REQUIRE(dlb_key_encode(&k, want, sizeof want) > 0, "encode");
		CHECK(!strncmp(want, "v2|", 3), "not a v2 key: %s", want);
		CHECK(dlb_result_load(s, want, 1, &r) == 0, "result %d not under %s", i, want);
		CHECK_EQ_STR(r.config, moved[i].config);
		CHECK_EQ_INT(r.nvendor, 1);
		CHECK_EQ_INT(r.ntrials, 1);
		dlb_result_free(&r);
	}
	struct dlb_key k;
	struct dlb_trial *tr = NULL;
	int ntr = 0;
	REQUIRE(dlb_key_decode(kc, strlen(kc), &k) == 0, "decode");
	REQUIRE(dlb_key_encode(&k, want, sizeof want) > 0, "encode");
	CHECK(dlb_trials_load(s, want, &tr, &ntr) == 0 && ntr == 1, "the orphan trial is not under %s", want);
	free(tr);
	int problems = -1;
	CHECK_EQ_INT(dlb_db_verify(s, stdout, &problems), 0);
	CHECK_EQ_INT(problems, 0);
	dlb_store_close(s);
}

/* A schema-1 database whose migration fails stays a schema-1 database (and so does its backup); one left
 * with an empty meta by an earlier dlbtune is still recognised as schema 1. */
static void test_failed_migration(void)
{
	char key[512];
	make_key(key, sizeof key, 1761, 13000, 1);
	raw_put(dir_of("v1bad"), "best", key,
		"{\"record_version\":1,\"found\":false,\"config\":\"\",\"tuned\":{\"n\":0},\"vendor\":[{\"is_lt\":false}]}");
	for (int i = 0; i < 2; i++) {
		CHECK_EQ_INT(open_rc(dir_of("v1bad"), 0), DLB_E_DBFORMAT);
		CHECK_HAS(dlb_last_error(), "cannot migrate a vendor entry");
	}
	raw_put(dir_of("v1meta"), "best", key,
		"{\"record_version\":1,\"found\":false,\"config\":\"\",\"tuned\":{\"n\":0},\"vendor\":[],\"trials\":[]}");
	raw_put(dir_of("v1meta"), "meta", "created", "2026-11-21T00:00:00Z");
	CHECK_EQ_INT(open_rc(dir_of("v1meta"), DLB_STORE_RDONLY), DLB_E_DBFORMAT);
	CHECK_HAS(dlb_last_error(), "schema 1");
	CHECK_EQ_INT(open_rc(dir_of("v1meta"), 0), 0);
	/* schema 2's sub-databases with the schema number lost (damage, not an old database): said so, and no
	 * migration is tried (it used to be taken for schema 1, migrated, and leave a backup behind) */
	const char *lost = dir_of("v2lost");
	raw_put(lost, "best", key, "{}");
	raw_put(lost, "trials", key, "[]");
	raw_put(lost, "meta", "created", "2026-11-21T00:00:00Z");
	for (unsigned fl = 0; fl <= DLB_STORE_RDONLY; fl += DLB_STORE_RDONLY) {
		CHECK_EQ_INT(open_rc(lost, fl), DLB_E_DBFORMAT);
		CHECK_HAS(dlb_last_error(), "lost its schema_version");
	}
	char cmd[600];
	snprintf(cmd, sizeof cmd, "ls -d %s/backup-* >/dev/null 2>&1", lost);
	CHECK(system(cmd) != 0, "a backup directory was left in %s", lost);
}

/* The map starts tiny and doubles; a ceiling stops it cleanly, keeping every committed write. */
static void test_map_growth(void)
{
	struct dlb_store *s = NULL;
	struct dlb_store_info in;
	char key[512];
	int problems = -1, i, rc = 0;
	setenv("DLBTUNE_DB_MAPSIZE", "32768", 1);
	REQUIRE(dlb_store_open(dir_of("grow"), DLB_STORE_CREATE, &s) == 0, "open: %s", dlb_last_error());
	CHECK_EQ_INT(dlb_store_info(s, &in), 0);
	CHECK_EQ_INT(in.map_bytes, 32768);
	for (i = 0; i < 400 && rc == 0; i++) {
		struct dlb_trial t = {.status = DLB_ST_OK, .n = 3, .median_us = i};
		snprintf(t.config, sizeof t.config, "BM=%d BN=16 BK=8 TM=4 TN=2 SPLITK=1", i);
		snprintf(t.error, sizeof t.error, "%0150d", i);
		make_key(key, sizeof key, 2000 + i, 13000, 1);
		rc = dlb_trial_save(s, key, &t);
	}
	CHECK(rc == 0, "write %d failed: %s", i, dlb_last_error());
	CHECK_EQ_INT(dlb_store_info(s, &in), 0);
	CHECK(in.map_bytes >= 8 * 32768, "map %zu bytes after 400 writes: it did not grow", in.map_bytes);
	CHECK_EQ_INT(in.entries[DLB_T_TRIALS], 400);
	dlb_store_close(s);

	setenv("DLBTUNE_DB_MAXSIZE", "65536", 1);
	REQUIRE(dlb_store_open(dir_of("ceiling"), DLB_STORE_CREATE, &s) == 0, "open: %s", dlb_last_error());
	int written = 0;
	for (rc = 0, i = 0; i < 2000 && rc == 0; i++) {
		struct dlb_trial t = {.status = DLB_ST_OK, .n = 3, .median_us = i};
		snprintf(t.config, sizeof t.config, "BM=%d BN=16 BK=8 TM=4 TN=2 SPLITK=1", i);
		snprintf(t.error, sizeof t.error, "%0150d", i);
		make_key(key, sizeof key, 2000 + i, 13000, 1);
		rc = dlb_trial_save(s, key, &t);
		written += rc == 0;
	}
	CHECK_EQ_INT(rc, MDB_MAP_FULL);
	CHECK_HAS(dlb_last_error(), "DLBTUNE_DB_MAXSIZE");
	CHECK(written >= 5, "only %d writes fitted", written);
	CHECK_EQ_INT(dlb_store_info(s, &in), 0);
	CHECK_EQ_INT(in.entries[DLB_T_TRIALS], written);
	CHECK_EQ_INT(dlb_db_verify(s, stdout, &problems), 0);
	CHECK_EQ_INT(problems, 0);
	dlb_store_close(s);
	unsetenv("DLBTUNE_DB_MAXSIZE");
	unsetenv("DLBTUNE_DB_MAPSIZE");
	CHECK_EQ_INT(open_rc(dir_of("ceiling"), 0), 0); /* still opens, with every committed trial */
}

/* Current: this build's template and libraries, and the newest driver that measured the problem on the GPU. */
static void test_currency(void)
{
	struct dlb_store *s = NULL;
	struct dlb_result r;
	struct dlb_row *rows = NULL;
	int n = 0;
	char k_new[512], k_old[512], k_tpl[512], k_other[512], k_tpl_newer[512];
	make_key(k_new, sizeof k_new, 1760, 13000, 1);
	make_key(k_tpl_newer, sizeof k_tpl_newer, 1760, 14000, 0); /* another build under a newer driver */
	make_key(k_old, sizeof k_old, 1760, 12080, 1);
	make_key(k_tpl, sizeof k_tpl, 1760, 13000, 0);
	make_key(k_other, sizeof k_other, 500, 12080, 1); /* an old driver, but nothing newer measured it */
	REQUIRE(dlb_store_open(dir_of("cur"), DLB_STORE_CREATE, &s) == 0, "open: %s", dlb_last_error());
	const char *keys[] = {k_new, k_old, k_tpl, k_other, k_tpl_newer};
	for (int i = 0; i < 5; i++) {
		fill_result(&r, keys[i], 1, 15);
		CHECK_EQ_INT(dlb_result_save(s, &r), 0);
	}
	struct dlb_filter f = {"gemm", -1, NULL, NULL, DLB_CURRENT};
	CHECK_EQ_INT(dlb_catalog_load(s, &f, &rows, &n), 0);
	CHECK_EQ_INT(n, 2);
	for (int i = 0; i < n; i++)
		CHECK(!strcmp(rows[i].r.key, k_new) || !strcmp(rows[i].r.key, k_other), "current: %s", rows[i].r.key);
	dlb_catalog_free(rows, n);
	f.currency = DLB_STALE;
	CHECK_EQ_INT(dlb_catalog_load(s, &f, &rows, &n), 0);
	CHECK_EQ_INT(n, 3);
	for (int i = 0; i < n; i++) {
		if (!strcmp(rows[i].r.key, k_old))
			CHECK_HAS(rows[i].why, "remeasured under driver 13000");
		else if (!strcmp(rows[i].r.key, k_tpl) || !strcmp(rows[i].r.key, k_tpl_newer))
			CHECK_HAS(rows[i].why, "template");
		else
			CHECK(0, "stale: %s", rows[i].r.key);
	}
	dlb_catalog_free(rows, n);
	f.currency = DLB_ANY_VERSION;
	f.device = "h200";
	CHECK_EQ_INT(dlb_catalog_load(s, &f, &rows, &n), 0);
	CHECK_EQ_INT(n, 5);
	dlb_catalog_free(rows, n);
	f.device = "H100";
	CHECK_EQ_INT(dlb_catalog_load(s, &f, &rows, &n), 0);
	CHECK_EQ_INT(n, 0);
	dlb_catalog_free(rows, n);
	dlb_store_close(s);
}

/* The same key measured twice: the better-supported result stays, whichever order they arrive in. */
static void test_merge_support(void)
{
	struct dlb_store *s = NULL;
	struct dlb_incoming in;
	struct dlb_merge_counts c = {0};
	struct dlb_result got;
	char key[512];
	make_key(key, sizeof key, 4096, 13000, 1);
	REQUIRE(dlb_store_open(dir_of("merge"), DLB_STORE_CREATE, &s) == 0, "open: %s", dlb_last_error());
	memset(&in, 0, sizeof in);
	fill_result(&in.r, key, 1, 3);
	CHECK_EQ_INT(dlb_merge_record(s, &in, NULL, &c), 0);
	CHECK_EQ_INT(c.added, 1);
	fill_result(&in.r, key, 1, 15);
	in.r.tuned.median = 16.0;
	CHECK_EQ_INT(dlb_merge_record(s, &in, NULL, &c), 0);
	CHECK_EQ_INT(c.replaced, 1);
	fill_result(&in.r, key, 1, 3);
	CHECK_EQ_INT(dlb_merge_record(s, &in, NULL, &c), 0);
	fill_result(&in.r, key, 0, 0);
	CHECK_EQ_INT(dlb_merge_record(s, &in, NULL, &c), 0);
	CHECK_EQ_INT(c.kept, 2);
	memset(&got, 0, sizeof got);
	CHECK_EQ_INT(dlb_result_load(s, key, 0, &got), 0);
	CHECK_EQ_INT(got.tuned.n, 15);
	CHECK_NEAR(got.tuned.median, 16.0, 0);
	dlb_result_free(&got);
	/* a retune stores fewer vendor algorithms: none of the old ones may remain */
	fill_result(&in.r, key, 1, 15);
	in.r.nvendor = 3;
	in.r.vendor[1] = (struct dlb_vendor_entry){"cublasLt#0", 1, 1, {.n = 15, .median = 1.0}};
	in.r.vendor[2] = (struct dlb_vendor_entry){"cublasLt#1", 1, 1, {.n = 15, .median = 2.0}};
	CHECK_EQ_INT(dlb_result_save(s, &in.r), 0);
	fill_result(&in.r, key, 1, 15);
	CHECK_EQ_INT(dlb_result_save(s, &in.r), 0);
	memset(&got, 0, sizeof got);
	CHECK_EQ_INT(dlb_result_load(s, key, 0, &got), 0);
	CHECK_EQ_INT(got.nvendor, 1);
	dlb_store_close(s);
}

/* Ctrl-C during import, merge, db verify and the catalog's walk stops them (issue 34: ignored until they ended);
 * what was merged before stays. */
static void test_interrupts(void)
{
	struct dlb_store *s = NULL, *t = NULL;
	struct dlb_merge_counts c = {0};
	const char *src = getenv("top_srcdir");
	char data[4096];
	snprintf(data, sizeof data, "%s/tests/data/records.json", src ? src : ".");
	REQUIRE(dlb_store_open(dir_of("intr"), DLB_STORE_CREATE, &s) == 0, "open: %s", dlb_last_error());
	dlb_interrupted = 1;
	CHECK_EQ_INT(dlb_import_file(s, data, NULL, &c), DLB_E_INTERRUPTED);
	CHECK_HAS(dlb_last_error(), "interrupted while checking record 1 of 5"); /* before the checks end */
	CHECK_EQ_INT(c.added, 0);
	dlb_interrupted = 0;
	CHECK_EQ_INT(dlb_import_file(s, data, NULL, &c), 0);
	CHECK_EQ_INT(c.added, 5);
	int problems = -1;
	dlb_interrupted = 1;
	CHECK_EQ_INT(dlb_db_verify(s, stdout, &problems), DLB_E_INTERRUPTED);
	REQUIRE(dlb_store_open(dir_of("intr2"), DLB_STORE_CREATE, &t) == 0, "open: %s", dlb_last_error());
	CHECK_EQ_INT(dlb_merge_db(t, s, NULL, &c), DLB_E_INTERRUPTED);
	CHECK_HAS(dlb_last_error(), "interrupted");
	/* the catalog behind db list, show, gc and export (it ignored Ctrl-C for 6-16 s on 30,000 results) */
	struct dlb_filter f = {NULL, -1, NULL, NULL, DLB_ANY_VERSION};
	struct dlb_row *rows = NULL;
	int n = -1;
	CHECK_EQ_INT(dlb_catalog_load(s, &f, &rows, &n), DLB_E_INTERRUPTED);
	CHECK_HAS(dlb_last_error(), "interrupted while reading 5 results");
	CHECK(rows == NULL && n == 0, "an interrupted catalog returned %d rows", n);
	dlb_interrupted = 0;
	CHECK_EQ_INT(dlb_catalog_load(s, &f, &rows, &n), 0);
	CHECK_EQ_INT(n, 5);
	dlb_catalog_free(rows, n);
	CHECK_EQ_INT(dlb_db_verify(s, stdout, &problems), 0);
	CHECK_EQ_INT(problems, 0);
	dlb_store_close(t);
	dlb_store_close(s);
}

int main(void)
{
	REQUIRE(mkdtemp(root), "mkdtemp");
	test_refusals();
	test_damaged();
	test_bad_values();
	test_migration();
	test_failed_migration();
	test_key_migration();
	test_map_growth();
	test_currency();
	test_merge_support();
	test_interrupts();
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf %s", root);
	if (system(cmd) != 0)
		printf("could not remove %s\n", root);
	return TEST_DONE();
}
