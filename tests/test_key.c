/* test_key: database keys round-trip, differ whenever any field differs, and reject what is not a v1 key. */
#include "../store/key.h"
#include "catalog.h"
#include "err.h"
#include "op.h"
#include "testlib.h"

#include <jansson.h>
#include <stdlib.h>

static void sample_key(struct dlb_key *k)
{
	memset(k, 0, sizeof *k);
	snprintf(k->op, sizeof k->op, "gemm");
	snprintf(k->prec, sizeof k->prec, "fp32");
	snprintf(k->layout, sizeof k->layout, "TN");
	snprintf(k->shape, sizeof k->shape, "3000000000x35x2048"); /* beyond 2^31: text, never truncated */
	snprintf(k->gpu, sizeof k->gpu, "NVIDIA H100 80GB HBM3");
	dlb_key_model_id(132, 79.1, 1980, 2619, k->id, sizeof k->id);
	k->sm = 90;
	k->driver = 13000;
	k->cuda = 13000;
	k->nvrtc = 1300;
	snprintf(k->vlib, sizeof k->vlib, "cublas");
	k->vlib_version = 130100;
	k->tpl_hash = 0xdeadbeefcafef00dULL;
}

static int keys_equal(const struct dlb_key *a, const struct dlb_key *b)
{
	return !strcmp(a->op, b->op) && !strcmp(a->prec, b->prec) && !strcmp(a->layout, b->layout) &&
	       !strcmp(a->shape, b->shape) && !strcmp(a->gpu, b->gpu) && !strcmp(a->id, b->id) &&
	       a->sm == b->sm && a->driver == b->driver && a->cuda == b->cuda && a->nvrtc == b->nvrtc &&
	       !strcmp(a->vlib, b->vlib) && a->vlib_version == b->vlib_version && a->tpl_hash == b->tpl_hash &&
	       !strcmp(a->only, b->only);
}

static void test_round_trip(void)
{
	struct dlb_key k, d;
	char buf[DLB_KEY_MAX + 1];
	sample_key(&k);
	int n = dlb_key_encode(&k, buf, sizeof buf);
	REQUIRE(n > 0, "encoding the sample key failed");
	CHECK_EQ_INT(n, strlen(buf));
	CHECK(!strncmp(buf, "v2|gemm|fp32|TN|3000000000x35x2048|", 35), "key starts \"%.40s\"", buf);
	CHECK_HAS(buf, "|gpu=NVIDIA H100 80GB HBM3|id=132sm-79GiB-1980MHz-2619MHz|sm=90|");
	CHECK_EQ_INT(dlb_key_decode(buf, (size_t)n, &d), 0);
	CHECK_EQ_INT(d.version, 2);
	CHECK_EQ_STR(d.op, "gemm");
	CHECK_EQ_STR(d.prec, "fp32");
	CHECK_EQ_STR(d.layout, "TN");
	CHECK_EQ_STR(d.shape, "3000000000x35x2048");
	CHECK_EQ_STR(d.gpu, k.gpu);
	CHECK_EQ_STR(d.id, k.id);
	CHECK_EQ_INT(d.sm, 90);
	CHECK_EQ_INT(d.driver, 13000);
	CHECK_EQ_INT(d.cuda, 13000);
	CHECK_EQ_INT(d.nvrtc, 1300);
	CHECK_EQ_STR(d.vlib, "cublas");
	CHECK_EQ_INT(d.vlib_version, 130100);
	CHECK_HAS(buf, "|nvrtc=1300|cublas=130100|tpl=");
	CHECK(d.tpl_hash == 0xdeadbeefcafef00dULL, "tpl_hash 0x%llx", (unsigned long long)d.tpl_hash);

	/* len bounds the input: what follows the key in the buffer is not read. */
	char longer[DLB_KEY_MAX + 8];
	memcpy(longer, buf, (size_t)n);
	memcpy(longer + n, "|x=1", 5);
	CHECK_EQ_INT(dlb_key_decode(longer, (size_t)n, &d), 0);
	CHECK(keys_equal(&k, &d), "key followed by other bytes decoded differently");

	/* A small hash keeps its leading zeros and still decodes. */
	k.tpl_hash = 0x42;
	n = dlb_key_encode(&k, buf, sizeof buf);
	CHECK_HAS(buf, "|tpl=0000000000000042");
	CHECK(n > 0 && dlb_key_decode(buf, (size_t)n, &d) == 0 && d.tpl_hash == 0x42, "small tpl_hash lost: \"%s\"",
	      buf);
}

/* Change field f of k; returns 0 when there is no field f. */
static int mutate(struct dlb_key *k, int f)
{
	switch (f) {
	case 0: k->op[0] = 'G'; break;
	case 1: k->prec[3] = '6'; break;
	case 2: k->layout[0] = 'N'; break;
	case 3: k->shape[0] = '4'; break;
	case 4: k->shape[strlen(k->shape) - 1] = '9'; break;
	case 5: k->vlib[0] = 'C'; break;
	case 6: k->gpu[7] = 'A'; break;
	case 7: k->id[5] = 'f'; break;
	case 8: k->sm = 80; break;
	case 9: k->driver++; break;
	case 10: k->cuda++; break;
	case 11: k->nvrtc++; break;
	case 12: k->vlib_version++; break;
	case 13: k->tpl_hash ^= 1; break;
	case 14: snprintf(k->only, sizeof k->only, "family:FFMA"); break;
	default: return 0;
	}
	return 1;
}

static void test_every_field_counts(void)
{
	struct dlb_key base, k;
	char a[DLB_KEY_MAX + 1], b[DLB_KEY_MAX + 1];
	sample_key(&base);
	REQUIRE(dlb_key_encode(&base, a, sizeof a) > 0, "encoding the sample key failed");
	int f;
	for (f = 0; (sample_key(&k), mutate(&k, f)); f++) {
		CHECK(dlb_key_encode(&k, b, sizeof b) > 0, "field %d: encode failed", f);
		CHECK(strcmp(a, b), "field %d changed but the key did not: %s", f, b);
	}
	CHECK_EQ_INT(f, 15);
}

/* A restricted search's key: "|only=TEXT" last, set only when there is a restriction; '|' in TEXT becomes '/' */
static void test_only(void)
{
	struct dlb_key k, d;
	char buf[DLB_KEY_MAX + 1], bad[DLB_KEY_MAX + 32];
	sample_key(&k);
	int n = dlb_key_encode(&k, buf, sizeof buf);
	CHECK(n > 0 && !strstr(buf, "only="), "a whole-space key names a restriction: %s", buf);
	CHECK(dlb_key_decode(buf, (size_t)n, &d) == 0 && !d.only[0], "a whole-space key decodes with only \"%s\"",
	      d.only);
	snprintf(k.only, sizeof k.only, "family:FFMA");
	n = dlb_key_encode(&k, buf, sizeof buf);
	REQUIRE(n > 0, "encoding a restricted key failed");
	CHECK(n > 17 && !strcmp(buf + n - 17, "|only=family:FFMA"), "restricted key ends \"%s\"", buf);
	CHECK(dlb_key_decode(buf, (size_t)n, &d) == 0 && keys_equal(&k, &d), "restricted key did not round-trip: %s",
	      buf);
	snprintf(k.only, sizeof k.only, "BN=144|BN=208");
	n = dlb_key_encode(&k, buf, sizeof buf);
	CHECK(n > 0 && dlb_key_decode(buf, (size_t)n, &d) == 0 && !strcmp(d.only, "BN=144/BN=208"),
	      "'|' in the restriction: \"%s\"", buf);
	/* an empty restriction, a second field after it, or one too long for the field: not keys */
	snprintf(k.only, sizeof k.only, "x");
	n = dlb_key_encode(&k, buf, sizeof buf);
	REQUIRE(n > 1, "encode failed");
	snprintf(bad, sizeof bad, "%.*s", n - 1, buf);
	CHECK(dlb_key_decode(bad, strlen(bad), &d) != 0, "a key with \"|only=\" and nothing after decoded");
	snprintf(bad, sizeof bad, "%s|only=y", buf);
	CHECK(dlb_key_decode(bad, strlen(bad), &d) != 0, "a key with two restrictions decoded");
	snprintf(bad, sizeof bad, "%.*s%0*d", n - 1, buf, (int)sizeof k.only, 7);
	CHECK(dlb_key_decode(bad, strlen(bad), &d) != 0, "a restriction longer than the field decoded");
	/* a restriction too long for the field (one whole configuration of fp32 GEMM): its first 46 characters, '~'
	 * and the hash of the whole, the same for the same text, another for a text that differs only at its end;
	 * a text that fits is kept as it is */
	const char *full = "BM=256 BN=128 BK=8 TM=8 TN=16 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=3 ASPLIT=0";
	char o1[sizeof k.only], o2[sizeof k.only], o3[sizeof k.only], o4[sizeof k.only];
	dlb_key_only_text(full, o1, sizeof o1);
	dlb_key_only_text(full, o2, sizeof o2);
	dlb_key_only_text("BM=256 BN=128 BK=8 TM=8 TN=16 KIND=3 KS=1 KU=4 L2PF=0 WGS=1 STAGES=4 ASPLIT=0", o3, sizeof o3);
	dlb_key_only_text("family:FFMA", o4, sizeof o4);
	CHECK(strlen(o1) == sizeof k.only - 1 && !strncmp(o1, full, 46) && o1[46] == '~' &&
		      strspn(o1 + 47, "0123456789abcdef") == 16,
	      "a long restriction as a key holds it: \"%s\"", o1);
	CHECK(!strcmp(o1, o2) && strcmp(o1, o3), "long restrictions: \"%s\", \"%s\", \"%s\"", o1, o2, o3);
	CHECK(!strcmp(o4, "family:FFMA"), "a short restriction changed: \"%s\"", o4);
	snprintf(k.only, sizeof k.only, "%s", o1);
	n = dlb_key_encode(&k, buf, sizeof buf);
	CHECK(n > 0 && dlb_key_decode(buf, (size_t)n, &d) == 0 && keys_equal(&k, &d), "a long restriction's key did not "
	      "round-trip: %s", buf);
}

/* Version 1 (schema 2 databases) still decodes, for the migration: uuid= read as the id, always a UUID. */
static void test_version1(void)
{
	struct dlb_key d;
	const char *v1 = "v1|gemm|fp32|NN|35x700x2048|gpu=NVIDIA H200|uuid=GPU-2f9053d8-7d40|sm=90|driver=13000|"
			 "cuda=13000|nvrtc=1300|cublas=130100|tpl=00000000000000ff";
	CHECK_EQ_INT(dlb_key_decode(v1, strlen(v1), &d), 0);
	CHECK_EQ_INT(d.version, 1);
	CHECK_EQ_STR(d.id, "GPU-2f9053d8-7d40");
	CHECK(dlb_key_id_is_uuid(d.id), "a UUID is not one");
	const char *v1_model = "v1|gemm|fp32|NN|35x700x2048|gpu=NVIDIA H200|uuid=132sm-140GiB-1980MHz-3201MHz|sm=90|"
			       "driver=13000|cuda=13000|nvrtc=1300|cublas=130100|tpl=00000000000000ff";
	CHECK_EQ_INT(dlb_key_decode(v1_model, strlen(v1_model), &d), DLB_E_PARSE);
	const char *v2_uuid_field = "v2|gemm|fp32|NN|35x700x2048|gpu=NVIDIA H200|uuid=GPU-2f90|sm=90|driver=13000|"
				    "cuda=13000|nvrtc=1300|cublas=130100|tpl=00000000000000ff";
	CHECK_EQ_INT(dlb_key_decode(v2_uuid_field, strlen(v2_uuid_field), &d), DLB_E_PARSE);
	const char *v3 = "v3|gemm|fp32|NN|35x700x2048|gpu=NVIDIA H200|id=GPU-2f90|sm=90|driver=13000|"
			 "cuda=13000|nvrtc=1300|cublas=130100|tpl=00000000000000ff";
	CHECK_EQ_INT(dlb_key_decode(v3, strlen(v3), &d), DLB_E_PARSE);
	char id[48];
	dlb_key_model_id(132, 139.8, 1980, 3201, id, sizeof id);
	CHECK_EQ_STR(id, "132sm-140GiB-1980MHz-3201MHz");
	CHECK(!dlb_key_id_is_uuid(id), "a model id is a UUID");
}

static void test_pipe_in_gpu_name(void)
{
	struct dlb_key k, d;
	char buf[DLB_KEY_MAX + 1];
	sample_key(&k);
	snprintf(k.gpu, sizeof k.gpu, "Vendor|Model|X");
	int n = dlb_key_encode(&k, buf, sizeof buf);
	REQUIRE(n > 0, "encode failed");
	CHECK_HAS(buf, "|gpu=Vendor/Model/X|");
	CHECK_EQ_INT(dlb_key_decode(buf, (size_t)n, &d), 0);
	CHECK_EQ_STR(d.gpu, "Vendor/Model/X");
	CHECK_EQ_STR(d.id, k.id);
	CHECK_EQ_INT(d.vlib_version, k.vlib_version);
	CHECK(d.tpl_hash == k.tpl_hash, "tpl_hash 0x%llx after a '|' in the name", (unsigned long long)d.tpl_hash);
	CHECK_EQ_STR(k.gpu, "Vendor|Model|X"); /* the caller's key is not modified */
}

static void test_small_buffer(void)
{
	struct dlb_key k;
	char buf[DLB_KEY_MAX + 1];
	sample_key(&k);
	int n = dlb_key_encode(&k, buf, sizeof buf);
	REQUIRE(n > 10, "encode failed");
	CHECK_EQ_INT(dlb_key_encode(&k, buf, (size_t)n), -1); /* no room for the terminator */
	CHECK_EQ_INT(dlb_key_encode(&k, buf, 10), -1);
	CHECK_EQ_INT(dlb_key_encode(&k, buf, (size_t)n + 1), n);
}

static void test_bad_keys(void)
{
	struct dlb_key k, d;
	char buf[DLB_KEY_MAX + 1], bad[DLB_KEY_MAX + 16];
	static const char *const garbage[] = {
		"", "garbage", "v1", "v1|", "v1|gemm|fp32|TN|1x2x3", "|||||||||||||",
		"v1|gemm|fp32|TN|axbxc|gpu=g|uuid=u|sm=1|driver=1|cuda=1|nvrtc=1|cublas=1|tpl=1"};
	for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++)
		CHECK(dlb_key_decode(garbage[i], strlen(garbage[i]), &d) != 0, "\"%s\" decoded as a key", garbage[i]);

	sample_key(&k);
	int n = dlb_key_encode(&k, buf, sizeof buf);
	REQUIRE(n > 0, "encode failed");

	/* Every proper prefix of a key is not a key (a cut inside the fixed-width hash included). */
	int accepted = 0, first = -1;
	unsigned long long first_hash = 0;
	for (int len = 0; len < n; len++)
		if (dlb_key_decode(buf, (size_t)len, &d) == 0 && accepted++ == 0) {
			first = len;
			first_hash = (unsigned long long)d.tpl_hash;
		}
	int from = first > 12 ? first - 12 : 0;
	CHECK(accepted == 0, "%d of %d truncated keys decode, e.g. \"...%.*s\" (length %d) as tpl_hash 0x%llx",
	      accepted, n, first - from, buf + from, first, first_hash);

	snprintf(bad, sizeof bad, "%s", buf);
	bad[1] = '3';
	CHECK_EQ_INT(dlb_key_decode(bad, (size_t)n, &d), DLB_E_PARSE);
	snprintf(bad, sizeof bad, "v0%s", buf + 2);
	CHECK(dlb_key_decode(bad, strlen(bad), &d) != 0, "\"%.20s...\" decoded", bad);
	snprintf(bad, sizeof bad, "%s|extra=1", buf);
	CHECK(dlb_key_decode(bad, strlen(bad), &d) != 0, "key with a trailing field decoded");
	snprintf(bad, sizeof bad, "%s", buf);
	char *sm = strstr(bad, "|sm=");
	REQUIRE(sm, "no sm field in %s", buf);
	sm[1] = 'x';
	CHECK(dlb_key_decode(bad, (size_t)n, &d) != 0, "key with a misnamed field decoded: %s", bad);

	/* Longer than any key can be. */
	memset(bad, 'v', sizeof bad);
	CHECK(dlb_key_decode(bad, DLB_KEY_MAX + 1, &d) != 0, "an overlong buffer decoded");
}

/* Every key of the fixture database (written by the builds before op families declared their problems) comes
 * back byte for byte from the problem it names: decode, rebuild the problem from the layout and shape text,
 * write its key fields again. */
static void test_fixture_keys_unchanged(void)
{
	char path[4096];
	const char *top = getenv("top_srcdir");
	snprintf(path, sizeof path, "%s/tests/data/records.json", top ? top : ".");
	json_error_t err;
	json_t *root = json_load_file(path, 0, &err), *rec;
	REQUIRE(root, "cannot read %s: %s", path, err.text);
	size_t i;
	int checked = 0;
	json_array_foreach(json_object_get(root, "records"), i, rec)
	{
		const char *key = json_string_value(json_object_get(rec, "key"));
		struct dlb_key k, again;
		char buf[DLB_KEY_MAX + 1];
		enum dlb_prec prec;
		REQUIRE(key && dlb_key_decode(key, strlen(key), &k) == 0, "record %zu: key does not decode", i);
		struct dlb_problem p = {0};
		CHECK(dlb_prec_parse(k.prec, &prec) == 0 && (p.op = dlb_op_find(k.op, prec)) != NULL, "%s: no such op", key);
		if (!p.op)
			continue;
		p.prec = prec;
		CHECK_EQ_INT(dlb_problem_from_text(&p, k.layout, k.shape), 0);
		again = k;
		dlb_key_of_problem(&p, &again);
		/* the GPU and the versions are the stored ones: only what the problem writes is rebuilt */
		snprintf(again.vlib, sizeof again.vlib, "%s", k.vlib);
		again.vlib_version = k.vlib_version;
		again.tpl_hash = k.tpl_hash;
		char want[DLB_KEY_MAX + 1]; /* the stored key, in this version's encoding (fixtures may be version 1) */
		CHECK(dlb_key_encode(&k, want, sizeof want) > 0 && (k.version == DLB_KEY_VERSION ? !strcmp(want, key) : 1),
		      "a current key does not encode as stored: %s", key);
		CHECK(dlb_key_encode(&again, buf, sizeof buf) > 0 && !strcmp(buf, want), "key changed:\n  %s\n  %s", want, buf);
		checked++;
	}
	CHECK(checked >= 5, "only %d fixture keys checked", checked);
	json_decref(root);
}

int main(void)
{
	test_fixture_keys_unchanged();
	test_round_trip();
	test_every_field_counts();
	test_only();
	test_pipe_in_gpu_name();
	test_version1();
	test_small_buffer();
	test_bad_keys();
	return TEST_DONE();
}
