/* salvage: copy what can still be read out of a damaged result database (salvage.h). */
#include "salvage.h"

#include "../store/key.h"
#include "../store/merge.h"
#include "../store/record.h"
#include "../store/store.h"
#include "err.h"
#include "supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define END_MARK UINT32_MAX /* a frame whose key length is this ends the walk: vlen 0 done, 1 no such table */
#define MAX_KEY 4096
#define MAX_RESTARTS 200
#define BATCH 512
#define BAD_RUN 16 /* entries in a row that fail their checks: a damaged stretch */
#define STALL_S 10 /* seconds without a word from a walk: it is going round damaged pages */

static const enum dlb_table tables[] = {DLB_T_PLATFORMS, DLB_T_BEST, DLB_T_VENDOR, DLB_T_TRIALS};

static int send_entry(const char *k, size_t kl, const char *v, size_t vl, void *arg)
{
	int fd = *(int *)arg;
	uint32_t h[2] = {(uint32_t)kl, (uint32_t)vl};
	if (kl >= MAX_KEY || vl > UINT32_MAX / 2)
		return 0; /* no key of dlbtune's is that long: the parent would refuse it */
	return dlb_write_all(fd, h, sizeof h) || dlb_write_all(fd, k, kl) || dlb_write_all(fd, v, vl) ? DLB_E_INTERRUPTED : 0;
}

/* The child: open src read-only, walk table t from start, send every entry, then the end mark. Its exit
 * status says nothing the pipe does not; a damaged page ends it early (store/guard.c, or a signal). */
static void child_walk(const char *src, enum dlb_table t, const char *start, size_t slen, int fd)
{
	struct dlb_store *s = NULL;
	int null = open("/dev/null", O_WRONLY);
	if (null >= 0) /* the guard's message is the parent's to give, once */
		dup2(null, 2);
	if (dlb_store_open(src, DLB_STORE_RDONLY | DLB_STORE_SALVAGE, &s))
		_exit(2);
	uint32_t end[2] = {END_MARK, 0};
	if (!dlb_store_has(s, t))
		end[1] = 1;
	else if (dlb_store_each_from(s, t, start, slen, send_entry, &fd))
		_exit(3);
	dlb_write_all(fd, end, sizeof end);
	_exit(0);
}

/* One record as `db verify` reads it: parsed, its fields complete, its key readable. */
static int record_ok(enum dlb_table t, const char *k, size_t kl, const char *v, size_t vl)
{
	json_t *j = dlb_json_parse(v, vl);
	struct dlb_key key;
	int ok = j != NULL;
	const char *tag = t == DLB_T_TRIALS ? "|cfg=" : "|alg=";
	if (ok && t == DLB_T_PLATFORMS) {
		struct dlb_platform p;
		ok = !dlb_platform_from_json(j, &p);
		if (ok) {
			dlb_platform_key(&p);
			ok = strlen(p.key) == kl && !memcmp(p.key, k, kl);
		}
	} else if (ok && t == DLB_T_BEST) {
		struct dlb_result r = {0};
		char why[256];
		ok = !dlb_key_decode(k, kl, &key) && !dlb_key_shape_check(&key, why, sizeof why) &&
		     !dlb_best_from_json(j, &r);
	} else if (ok) {
		const char *at = NULL;
		for (size_t i = 0; i + 5 <= kl && !at; i++)
			if (!memcmp(k + i, tag, 5))
				at = k + i;
		if (!at || dlb_key_decode(k, (size_t)(at - k), &key))
			ok = 0;
		else if (t == DLB_T_TRIALS) {
			struct dlb_trial tr;
			ok = !dlb_trial_from_json(j, &tr);
		} else {
			struct dlb_vendor_entry e;
			ok = !dlb_vendor_from_json(j, &e);
		}
	}
	json_decref(j);
	return ok;
}

struct batch {
	enum dlb_table t;
	int n;
	char *key[BATCH], *val[BATCH];
};

static int put_batch(struct dlb_txn *txn, void *arg)
{
	int rc = 0;
	struct batch *b = arg;
	for (int i = 0; i < b->n; i++)
		DLB_CHECK(dlb_txn_put(txn, b->t, b->key[i], b->val[i]));
fail:
	return rc;
}

/* Keys of an older database (version 1, by UUID) become this schema's (store/record.h). */
static int rekey(struct dlb_txn *txn, void *arg)
{
	return dlb_record_migrate_keys(txn, arg);
}

static int flush(struct dlb_store *dest, struct batch *b)
{
	int rc = b->n ? dlb_store_write(dest, put_batch, b) : 0;
	for (int i = 0; i < b->n; i++) {
		free(b->key[i]);
		free(b->val[i]);
	}
	b->n = 0;
	return rc;
}

/* The key to start from after `level` failed starts past last: level 0, just past last itself; level L, last
 * cut to len - L bytes with its new last byte increased (a byte of 0xff is dropped and the carry goes on).
 * 0 when there is nothing past it left to try. */
static size_t next_start(const char *last, size_t len, int level, char *out)
{
	if (level == 0) {
		memcpy(out, last, len);
		out[len] = 0; /* the least key greater than last */
		return len + 1;
	}
	if ((size_t)level >= len)
		return 0;
	size_t n = len - (size_t)level;
	memcpy(out, last, n);
	while (n > 0 && (unsigned char)out[n - 1] == 0xff)
		n--;
	if (n == 0)
		return 0;
	out[n - 1] = (char)((unsigned char)out[n - 1] + 1);
	return n;
}

struct table_count {
	long saved, rejected, stretches;
	int missing, unreadable_start;
};

/* Walk table t with children until one reaches the end, adding what passes to dest. */
static int salvage_table(const char *src, struct dlb_store *dest, enum dlb_table t, struct table_count *tc)
{
	int rc = 0, level = 0;
	char last[MAX_KEY + 1], start[MAX_KEY + 2], *k = NULL, *v = NULL;
	size_t llen = 0, slen = 0;
	struct batch b = {.t = t};
	int have_last = 0;
	memset(tc, 0, sizeof *tc);
	for (int attempt = 0; attempt < MAX_RESTARTS; attempt++) {
		if (dlb_interrupted)
			DLB_USER_FAIL(DLB_E_INTERRUPTED, "interrupted; what was saved is in the new database");
		int p[2];
		if (pipe(p))
			DLB_FAIL(errno, "pipe: %s", strerror(errno));
		fflush(NULL);
		pid_t pid = fork();
		if (pid < 0) {
			close(p[0]);
			close(p[1]);
			DLB_FAIL(errno, "fork: %s", strerror(errno));
		}
		if (pid == 0) {
			close(p[0]);
			child_walk(src, t, start, slen, p[1]);
		}
		close(p[1]);
		long got = 0;
		int done = 0, bad_run = 0;
		char prev[MAX_KEY + 1];
		size_t plen = 0;
		int have_prev = 0;
		for (;;) {
			uint32_t h[2];
			struct pollfd pfd = {p[0], POLLIN, 0};
			int pr = dlb_poll_in(&pfd, 1, dlb_mono_s() + STALL_S);
			if (pr == DLB_E_INTERRUPTED) {
				kill(pid, SIGKILL);
				while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
					;
				close(p[0]);
				DLB_USER_FAIL(DLB_E_INTERRUPTED, "interrupted; what was saved is in %s", dlb_store_path(dest));
			}
			if (pr <= 0 || dlb_read_full(p[0], h, sizeof h))
				break; /* silent for STALL_S (a loop in damaged pages), or gone */
			if (h[0] == END_MARK) {
				done = 1;
				tc->missing = h[1] == 1;
				break;
			}
			if (h[0] > MAX_KEY || h[1] > UINT32_MAX / 2)
				break;
			k = malloc((size_t)h[0] + 1);
			v = malloc((size_t)h[1] + 1);
			if (!k || !v) {
				kill(pid, SIGKILL);
				while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
					;
				close(p[0]);
				DLB_FAIL(ENOMEM, "out of memory");
			}
			if (dlb_read_full(p[0], k, h[0]) || dlb_read_full(p[0], v, h[1]))
				break;
			k[h[0]] = 0;
			v[h[1]] = 0;
			/* a walk goes up in key order: a key that does not is read from a damaged page, and so is a
			 * long run of entries that fail their checks; either way the rest of this walk is skipped */
			size_t m = plen < h[0] ? plen : h[0];
			int c = memcmp(prev, k, m);
			if (have_prev && (c > 0 || (c == 0 && plen >= h[0])))
				break;
			memcpy(prev, k, h[0]);
			plen = h[0];
			have_prev = 1;
			if (strlen(k) != h[0] || strlen(v) != h[1] || !record_ok(t, k, h[0], v, h[1])) {
				tc->rejected++;
				free(k);
				free(v);
				k = v = NULL;
				if (++bad_run == BAD_RUN)
					break;
				continue;
			}
			bad_run = 0;
			got++;
			memcpy(last, k, h[0]);
			llen = h[0];
			have_last = 1;
			b.key[b.n] = k;
			b.val[b.n++] = v;
			tc->saved++;
			k = v = NULL;
			if (b.n == BATCH)
				DLB_CHECK(flush(dest, &b));
		}
		free(k);
		free(v);
		k = v = NULL;
		close(p[0]);
		if (!done)
			kill(pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		if (done)
			break;
		/* the child died on a damaged stretch: start again past it */
		if (!have_last) {
			tc->unreadable_start = 1; /* not even the first entry could be read: nothing to start past */
			break;
		}
		if (got == 0)
			level++;
		else {
			level = 0;
			tc->stretches++;
		}
		slen = next_start(last, llen, level, start);
		if (!slen)
			break;
	}
	DLB_CHECK(flush(dest, &b));
fail:
	if (rc) /* an interrupt keeps what was read */
		(void)flush(dest, &b);
	free(k);
	free(v);
	return rc;
}

int dlb_db_salvage(const char *src, const char *dest, FILE *out)
{
	int rc = 0;
	struct dlb_store *d = NULL;
	struct stat a, b;
	char data[PATH_MAX];
	long saved = 0, rejected = 0, stretches = 0;
	int unreadable = 0;
	if (stat(src, &a) != 0)
		DLB_USER_FAIL(DLB_E_NOTFOUND, "no database at %s", src);
	if (stat(dest, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		DLB_USER_FAIL(DLB_E_USAGE, "salvage: %s is the database itself; name a new directory", dest);
	snprintf(data, sizeof data, "%s/data.mdb", dest);
	if (access(data, F_OK) == 0)
		DLB_USER_FAIL(DLB_E_USAGE, "salvage: %s already holds a database; name a new directory", dest);
	DLB_CHECK(dlb_store_open(dest, DLB_STORE_CREATE, &d));
	fprintf(out, "salvaging %s into %s\n", src, dest);
	for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
		struct table_count tc;
		DLB_CHECK(salvage_table(src, d, tables[i], &tc));
		saved += tc.saved;
		rejected += tc.rejected;
		stretches += tc.stretches;
		unreadable += tc.unreadable_start;
		if (tc.missing) {
			fprintf(out, "  %-9s none in this database\n", dlb_table_name(tables[i]));
			continue;
		}
		fprintf(out, "  %-9s %ld saved, %ld failed their checks%s", dlb_table_name(tables[i]), tc.saved, tc.rejected,
			tc.unreadable_start ? ", the rest unreadable (damaged from its first entry on)" : "");
		if (tc.stretches)
			fprintf(out, ", %ld damaged stretch%s skipped", tc.stretches, tc.stretches == 1 ? "" : "es");
		fprintf(out, "\n");
	}
	int rekeyed = 0;
	DLB_CHECK(dlb_store_write(d, rekey, &rekeyed));
	if (rekeyed)
		fprintf(out, "  %d results of an older schema keyed by their GPU's model (docs/DATABASE.md, Migration)\n",
			rekeyed);
	fprintf(out,
		"saved %ld records; %ld failed their checks and %ld damaged stretches were skipped%s. %s was only "
		"read; the kernel cache is not copied (dlbtune compile rebuilds it)\n",
		saved, rejected, stretches, unreadable ? ", and some sub-databases could not be read at all" : "", src);
	if (saved == 0 && (rejected || stretches || unreadable))
		DLB_USER_FAIL(DLB_E_DBFORMAT, "nothing could be saved from %s", src);
fail:
	dlb_store_close(d);
	return rc;
}
