/* test_store_procs: imports racing on a growing map, or killed at random, leave the database whole. */
#include "../search/pcg32.h"
#include "../store/key.h"
#include "../store/record.h"
#include "../store/store.h"
#include "dbcmd.h"
#include "err.h"
#include "testlib.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <stdlib.h>
#include <unistd.h>

#define MAPSIZE "65536" /* DLBTUNE_DB_MAPSIZE of the databases made here: far below what they come to hold */

/* part 1 */
#define NREC 360
#define NPROC 8
#define STRIDE 40
#define PER_FILE 80

/* part 2 */
#define ITERS 200
#define MIN_KILLS 150
#define PER_ITER 25
#define KILL_TRIALS 1 /* trials kept per record: fewer entries make the verify after each kill quicker */
#define CALIB_RUNS 3

static char tmp[64];
static const char *bin_dir = ".";
static json_t *tmpl; /* record 0 of tests/data/records.json */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_us(unsigned us)
{
	struct timespec ts = {us / 1000000, (long)(us % 1000000) * 1000};
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The key of the template with its shape replaced by MxNxK (N and K the template's). */
static void make_key(char *buf, size_t len, long long m)
{
	const char *key = json_string_value(json_object_get(tmpl, "key")), *p = key;
	for (int bars = 0; bars < 4; p++) {
		REQUIRE(*p, "template key %s has fewer than 5 fields", key);
		bars += *p == '|';
	}
	const char *end = strchr(p, '|');
	REQUIRE(end, "template key %s has no field after the shape", key);
	int n = snprintf(buf, len, "%.*s%lldx%lldx%lld%s", (int)(p - key), key, m,
			 (long long)json_integer_value(json_object_get(tmpl, "n")),
			 (long long)json_integer_value(json_object_get(tmpl, "k")), end);
	REQUIRE(n > 0 && (size_t)n < len, "key for m=%lld does not fit", m);
}

/* Write an export file holding the records of shapes m0 .. m0+count-1, each with its first ntrials trials. */
static void write_export(const char *path, long long m0, int count, int ntrials)
{
	json_t *root = json_pack("{s:s, s:i, s:i, s:[]}", "format", "dlbtune-export", "version", 1, "schema_version",
				 DLB_SCHEMA_VERSION, "records");
	REQUIRE(root, "json_pack failed");
	json_t *recs = json_object_get(root, "records");
	for (int i = 0; i < count; i++) {
		char key[DLB_KEY_MAX + 1];
		struct dlb_key k;
		make_key(key, sizeof key, m0 + i);
		REQUIRE(dlb_key_decode(key, strlen(key), &k) == 0 && atoll(k.shape) == m0 + i, "generated key %s does not decode",
			key);
		json_t *r = json_deep_copy(tmpl);
		REQUIRE(r, "json_deep_copy failed");
		json_object_set_new(r, "key", json_string(key));
		json_object_set_new(r, "m", json_integer(m0 + i));
		json_t *trials = json_object_get(r, "trials");
		while (json_array_size(trials) > (size_t)ntrials)
			json_array_remove(trials, json_array_size(trials) - 1);
		json_array_append_new(recs, r);
	}
	REQUIRE(json_dump_file(root, path, JSON_COMPACT) == 0, "cannot write %s", path);
	json_decref(root);
}

/* Start `dlbtune import file --db db` with stdout to out, stderr to out.err. With a gate (a pipe) the child waits
 * for EOF on it before exec, so that several can be let go at once. */
static pid_t spawn_import(const char *file, const char *db, const char *out, const int *gate)
{
	char err[300], exe[4200];
	snprintf(err, sizeof err, "%s.err", out);
	snprintf(exe, sizeof exe, "%s/dlbtune", bin_dir);
	fflush(stdout);
	pid_t pid = fork();
	REQUIRE(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		char c;
		int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644),
		    fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
			_exit(126);
		close(fo);
		close(fe);
		if (gate) {
			close(gate[1]);
			while (read(gate[0], &c, 1) < 0 && errno == EINTR)
				;
			close(gate[0]);
		}
		setenv("DLBTUNE_DB_MAPSIZE", MAPSIZE, 1);
		execl(exe, "dlbtune", "import", file, "--db", db, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* The whole file, NUL-terminated ("" when it cannot be read). */
static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r");
	if (f) {
		FILE *mem = open_memstream(&buf, &len);
		REQUIRE(mem, "open_memstream failed");
		char chunk[8192];
		size_t n;
		while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
			fwrite(chunk, 1, n, mem);
		fclose(mem);
		fclose(f);
	}
	return buf ? buf : strdup("");
}

static const char *status_text(int st, char *buf, size_t len)
{
	if (WIFEXITED(st))
		snprintf(buf, len, "exit %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, len, "signal %d", WTERMSIG(st));
	else
		snprintf(buf, len, "status %#x", st);
	return buf;
}

/* Calls fn on the key of each complete "added KEY" line of out (a line cut short by a kill is not a claim);
 * returns how many there were, and counts complete lines that are not added/replaced/kept in *bad. */
static int each_added(char *out, void (*fn)(const char *key, void *arg), void *arg, int *bad)
{
	int n = 0;
	*bad = 0;
	for (char *line = out, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = 0;
		if (!strncmp(line, "added ", 6)) {
			n++;
			fn(line + 6, arg);
		} else if (strncmp(line, "replaced ", 9) && strncmp(line, "kept ", 5)) {
			(*bad)++;
		}
	}
	return n;
}

/* dlb_db_verify with 0 problems; what it found goes to stdout when it did find something. */
static int verify_clean(struct dlb_store *s, const char *when)
{
	char *buf = NULL;
	size_t len = 0;
	int problems = -1;
	FILE *mem = open_memstream(&buf, &len);
	REQUIRE(mem, "open_memstream failed");
	int rc = dlb_db_verify(s, mem, &problems);
	fclose(mem);
	int ok = CHECK(rc == 0 && problems == 0, "%s: dlb_db_verify rc %d (%s), %d problems:\n%s", when, rc,
		       rc ? dlb_last_error() : "", problems, buf);
	free(buf);
	return ok;
}

static int present(struct dlb_store *s, enum dlb_table t, const char *key)
{
	char *v = NULL;
	int rc = dlb_store_get(s, t, key, &v);
	free(v);
	return rc == 0;
}

/* How much of the record of shape m (with the template's vendor entries and first ntrials trials) is stored: 1
 * all of it, 0 none, -1 a part — which one transaction per record must never leave. */
static int stored_whole(struct dlb_store *s, long long m, int ntrials)
{
	char key[DLB_KEY_MAX + 1], sub[1024];
	size_t i;
	json_t *e;
	int parts = 1, have;
	make_key(key, sizeof key, m);
	have = present(s, DLB_T_BEST, key);
	json_array_foreach(json_object_get(tmpl, "vendor"), i, e)
	{
		REQUIRE(!dlb_vendor_key(key, json_string_value(json_object_get(e, "name")), sub, sizeof sub),
			"vendor key too long");
		have += present(s, DLB_T_VENDOR, sub);
		parts++;
	}
	json_array_foreach(json_object_get(tmpl, "trials"), i, e)
	{
		if ((int)i >= ntrials)
			break;
		REQUIRE(!dlb_trial_key(key, json_string_value(json_object_get(e, "config")), sub, sizeof sub),
			"trial key too long");
		have += present(s, DLB_T_TRIALS, sub);
		parts++;
	}
	return have == parts ? 1 : have == 0 ? 0 : -1;
}

/* ---- part 1: eight imports at once ---- */

static void count_added(const char *key, void *arg)
{
	int *added = arg;
	struct dlb_key k;
	if (CHECK(dlb_key_decode(key, strlen(key), &k) == 0 && atoll(k.shape) >= 1000 && atoll(k.shape) < 1000 + NREC,
		  "an import reported adding a key it was not given: %s", key))
		added[atoll(k.shape) - 1000]++;
}

static void test_concurrent(void)
{
	char db[128], file[NPROC][128], out[NPROC][128];
	int added[NREC] = {0}, gate[2], total_added = 0,
	    ntrials = (int)json_array_size(json_object_get(tmpl, "trials"));
	pid_t pid[NPROC];
	snprintf(db, sizeof db, "%s/concurrent", tmp);
	REQUIRE(mkdir(db, 0755) == 0, "mkdir %s: %s", db, strerror(errno));
	for (int p = 0; p < NPROC; p++) {
		int lo = p * STRIDE, hi = lo + PER_FILE > NREC ? NREC : lo + PER_FILE;
		snprintf(file[p], sizeof file[p], "%s/conc%d.json", tmp, p);
		snprintf(out[p], sizeof out[p], "%s/conc%d.out", tmp, p);
		write_export(file[p], 1000 + lo, hi - lo, ntrials);
	}
	REQUIRE(pipe(gate) == 0, "pipe: %s", strerror(errno));
	double t0 = now();
	for (int p = 0; p < NPROC; p++)
		pid[p] = spawn_import(file[p], db, out[p], gate);
	close(gate[0]);
	close(gate[1]); /* EOF: all go */
	for (int p = 0; p < NPROC; p++) {
		int st, bad, lo = p * STRIDE, hi = lo + PER_FILE > NREC ? NREC : lo + PER_FILE;
		char buf[32], errf[140];
		REQUIRE(waitpid(pid[p], &st, 0) == pid[p], "waitpid: %s", strerror(errno));
		char *o = slurp(out[p]);
		snprintf(errf, sizeof errf, "%s.err", out[p]);
		char *e = slurp(errf);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "import %d: %s; stderr: %s", p,
		      status_text(st, buf, sizeof buf), e);
		int lines = 0;
		for (const char *c = o; *c; c++)
			lines += *c == '\n';
		total_added += each_added(o, count_added, added, &bad);
		CHECK(bad == 0, "import %d printed %d lines that are not added/replaced/kept", p, bad);
		CHECK(lines == hi - lo, "import %d reported %d records of %d", p, lines, hi - lo);
		free(o);
		free(e);
	}
	double secs = now() - t0;
	CHECK_EQ_INT(total_added, NREC);
	for (int i = 0; i < NREC; i++)
		CHECK(added[i] == 1, "the record of m=%d was reported added %d times", 1000 + i, added[i]);

	struct dlb_store *s = NULL;
	struct dlb_store_info info;
	REQUIRE(dlb_store_open(db, 0, &s) == 0, "cannot open %s: %s", db, dlb_last_error());
	REQUIRE(dlb_store_info(s, &info) == 0, "dlb_store_info: %s", dlb_last_error());
	CHECK_EQ_INT(info.entries[DLB_T_BEST], NREC);
	int missing = 0;
	for (int i = 0; i < NREC; i++) {
		int whole = stored_whole(s, 1000 + i, ntrials);
		missing += !CHECK(whole == 1, "the record of m=%d is %s in the database", 1000 + i,
				  whole ? "only in part" : "not");
	}
	/* the map had to grow, several doublings, while they ran */
	CHECK(info.used_bytes >= 8 * (size_t)atoi(MAPSIZE) && info.map_bytes >= info.used_bytes,
	      "database uses %zu bytes of a %zu-byte map: the initial %s bytes were not outgrown", info.used_bytes,
	      info.map_bytes, MAPSIZE);
	verify_clean(s, "after the concurrent imports");
	dlb_store_close(s);
	printf(
	    "concurrent: %d imports of %d records (%d distinct) in %.2f s: %d added, %zu in the database, %d missing; "
	    "map %zu bytes, %zu used\n",
	    NPROC, PER_FILE, NREC, secs, total_added, info.entries[DLB_T_BEST], missing, info.map_bytes,
	    info.used_bytes);
}

/* ---- part 2: imports killed at random moments ---- */

struct claims {
	struct dlb_store *s;
	long long m0;
	int next, missing;
};

static void check_claim(const char *key, void *arg)
{
	struct claims *c = arg;
	struct dlb_key k;
	if (!CHECK(dlb_key_decode(key, strlen(key), &k) == 0, "unreadable key reported added: %s", key))
		return;
	/* one transaction per record, in file order: the n-th added line is the n-th record */
	CHECK(atoll(k.shape) == c->m0 + c->next, "reported added m=%lld, expected m=%lld next", atoll(k.shape), c->m0 + c->next);
	c->next++;
	c->missing += !CHECK(present(c->s, DLB_T_BEST, key), "reported added but not in the database: %s", key);
}

/* The median time of CALIB_RUNS unkilled imports of count records (the shapes from m0 on, a run apart) into db,
 * each checked; adds what they stored to *best. */
static double timed_imports(const char *db, const char *file, const char *out, long long m0, int count, size_t *best)
{
	double t[CALIB_RUNS];
	char buf[32];
	for (int r = 0; r < CALIB_RUNS; r++) {
		int st, bad;
		struct claims c = {NULL, m0 + r * 100, 0, 0};
		write_export(file, c.m0, count, KILL_TRIALS);
		double t0 = now();
		pid_t pid = spawn_import(file, db, out, NULL);
		REQUIRE(waitpid(pid, &st, 0) == pid, "waitpid: %s", strerror(errno));
		t[r] = now() - t0;
		REQUIRE(WIFEXITED(st) && WEXITSTATUS(st) == 0, "unkilled import: %s", status_text(st, buf, sizeof buf));
		char *o = slurp(out);
		REQUIRE(dlb_store_open(db, 0, &c.s) == 0, "cannot open %s: %s", db, dlb_last_error());
		CHECK_EQ_INT(each_added(o, check_claim, &c, &bad), count);
		dlb_store_close(c.s);
		free(o);
		*best += (size_t)count;
	}
	for (int i = 1; i < CALIB_RUNS; i++) /* sort for the median */
		for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
			double x = t[j];
			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	return t[CALIB_RUNS / 2];
}

static void test_killed(void)
{
	char db[128], file[128], out[128], buf[32];
	struct dlb_pcg32 rng;
	size_t expect_best = 0;
	int kills = 0, kills_after_add = 0, completed = 0, confirmed = 0, unreported = 0;
	snprintf(db, sizeof db, "%s/killed", tmp);
	snprintf(file, sizeof file, "%s/kill.json", tmp);
	snprintf(out, sizeof out, "%s/kill.out", tmp);
	REQUIRE(mkdir(db, 0755) == 0, "mkdir %s: %s", db, strerror(errno));

	/* Most of an import is the process starting (the CUDA libraries load): time an empty one as well as a full
	 * one, and kill between half the start-up and the typical end, so that most kills land while records are
	 * being written and few after the import is done. */
	double startup = timed_imports(db, file, out, 40000, 0, &expect_best); /* the first creates the database */
	double typical = timed_imports(db, file, out, 50000, PER_ITER, &expect_best);
	unsigned lo_us = (unsigned)(startup * 0.5e6), hi_us = (unsigned)(typical * 1e6), hi0_us = hi_us;
	REQUIRE(hi_us > lo_us + 1000, "an import of %d records (%.1f ms) is no slower than an empty one (%.1f ms)",
		PER_ITER, typical * 1000, startup * 1000);

	uint64_t seed = 20261121;
	dlb_pcg32_seed(&rng, seed, 7);
	double t0 = now();
	/* ITERS imports, and more (up to twice as many) while fewer than MIN_KILLS were killed mid-run: on a loaded
	 * machine the imports' pace changes under the calibration, and the test must still kill enough of them */
	int it;
	for (it = 0; it < ITERS || ((kills < MIN_KILLS || kills_after_add < ITERS / 10) && it < 2 * ITERS); it++) {
		int st, bad, stored = 0, partial = 0;
		struct claims c = {NULL, 100000 + (long long)it * 100, 0, 0};
		write_export(file, c.m0, PER_ITER, KILL_TRIALS);
		unsigned delay = lo_us + dlb_pcg32_bounded(&rng, hi_us - lo_us);
		pid_t pid = spawn_import(file, db, out, NULL);
		sleep_us(delay);
		kill(pid, SIGKILL); /* a child that has exited is a zombie until reaped: the pid is still its own */
		REQUIRE(waitpid(pid, &st, 0) == pid, "waitpid: %s", strerror(errno));
		int killed = WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
		int done = WIFEXITED(st) && WEXITSTATUS(st) == 0;
		CHECK(killed || done, "iteration %d: import ended with %s", it, status_text(st, buf, sizeof buf));

		char *o = slurp(out);
		if (!CHECK(dlb_store_open(db, 0, &c.s) == 0, "iteration %d (killed after %u us): cannot open %s: %s",
			   it, delay, db, dlb_last_error())) {
			free(o);
			break;
		}
		int n = each_added(o, check_claim, &c, &bad);
		free(o);
		CHECK(bad == 0, "iteration %d: %d lines that are not added/replaced/kept", it, bad);
		if (done)
			CHECK(n == PER_ITER, "iteration %d: an import that finished reported %d records added of %d",
			      it, n, PER_ITER);
		kills += killed;
		kills_after_add += killed && n > 0;
		completed += done;
		/* it took less than the delay: should imports get quicker under way (the load of the machine changes),
		 * the range follows them, and kills do not turn into clean exits */
		if (done && hi_us - lo_us > 2000)
			hi_us -= (hi_us - lo_us) / 20;
		confirmed += n - c.missing;

		/* Of this file, the reported records are stored and at most one more (committed, its line not yet
		 * written), each whole; nothing else changed. */
		for (int j = 0; j < PER_ITER; j++) {
			int w = stored_whole(c.s, c.m0 + j, KILL_TRIALS);
			stored += w == 1;
			partial += !CHECK(w >= 0, "iteration %d: the record of m=%lld is stored in part", it, c.m0 + j);
		}
		CHECK(stored >= n && stored <= n + 1, "iteration %d: %d records reported added, %d stored", it, n,
		      stored);
		unreported += stored > n;
		expect_best += (size_t)stored;
		struct dlb_store_info info;
		if (CHECK(dlb_store_info(c.s, &info) == 0, "dlb_store_info: %s", dlb_last_error()))
			CHECK(info.entries[DLB_T_BEST] == expect_best, "iteration %d: %zu best entries, expected %zu",
			      it, info.entries[DLB_T_BEST], expect_best);
		char when[64];
		snprintf(when, sizeof when, "iteration %d (killed after %u us)", it, delay);
		int clean = verify_clean(c.s, when);
		dlb_store_close(c.s);
		if (!clean || partial)
			break; /* one broken database says it all */
	}
	double secs = now() - t0;
	printf("killed: %d of %d imports killed mid-run (%d after adding a record), %d finished; killed %.1f..%.1f ms "
	       "after the start, %.1f at the end (an import takes %.1f ms, %.1f ms of it starting up); %d added "
	       "records confirmed, %d committed but unreported; seed %llu, %.1f s\n",
	       kills, it, kills_after_add, completed, lo_us / 1000.0, hi0_us / 1000.0, hi_us / 1000.0,
	       typical * 1000, startup * 1000, confirmed, unreported, (unsigned long long)seed, secs);
	CHECK(kills >= MIN_KILLS, "only %d of %d imports were killed mid-run (want %d): the kill timing is off", kills,
	      it, MIN_KILLS);
	CHECK(kills_after_add >= ITERS / 10, "only %d kills landed after a record was added: the kill timing is off",
	      kills_after_add);
}

/* rm -r */
static void remove_tree(const char *path)
{
	struct stat st;
	DIR *d;
	if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && (d = opendir(path))) {
		for (struct dirent *e; (e = readdir(d));) {
			char sub[4200];
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
				snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
				remove_tree(sub);
			}
		}
		closedir(d);
	}
	remove(path);
}

int main(void)
{
	const char *src = getenv("top_srcdir"), *b = getenv("top_builddir");
	char data[4200];
	json_error_t jerr;
	if (b && *b)
		bin_dir = b;
	snprintf(data, sizeof data, "%s/tests/data/records.json", src && *src ? src : ".");
	json_t *root = json_load_file(data, 0, &jerr);
	REQUIRE(root, "cannot read %s: %s", data, jerr.text);
	tmpl = json_incref(json_array_get(json_object_get(root, "records"), 0));
	json_decref(root);
	REQUIRE(json_is_object(tmpl) && json_is_string(json_object_get(tmpl, "key")), "%s: no record 0", data);
	snprintf(tmp, sizeof tmp, "/tmp/dlb_procs.XXXXXX");
	REQUIRE(mkdtemp(tmp), "mkdtemp: %s", strerror(errno));

	test_concurrent();
	test_killed();

	json_decref(tmpl);
	if (tl_failed)
		printf("kept %s for a look\n", tmp);
	else
		remove_tree(tmp);
	return TEST_DONE();
}
