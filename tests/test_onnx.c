/* test_onnx: the ONNX reader without a GPU, on Debian's libonnx-testdata (its node, pytorch-converted, pytorch-operator
 * and simple models; DLB_ONNX_TESTDATA overrides where they are): every model parses, the inferred shapes agree with
 * every shape a model records, the supported ops each infer their output on their own tests, and truncated or
 * random bytes are refused with an error, never a crash. */
#define _GNU_SOURCE /* nftw */
#include "err.h"
#include "onnx.h"
#include "testlib.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parsed, refused, checked, mismatched, nodes, inferred;
static char first_refusal[512];

static int visit(const char *path, const struct stat *st, int type, struct FTW *fw)
{
	(void)st;
	(void)fw;
	size_t n = strlen(path);
	if (type != FTW_F || n < 11 || strcmp(path + n - 11, "/model.onnx"))
		return 0;
	struct dlb_onnx_graph *g;
	if (dlb_onnx_load(path, 0, &g)) {
		if (!refused++)
			snprintf(first_refusal, sizeof first_refusal, "%s", dlb_last_error());
		return 0;
	}
	parsed++;
	checked += g->checked;
	mismatched += g->mismatched;
	if (g->mismatched)
		printf("%s: %s\n", path, g->first_mismatch);
	for (int i = 0; i < g->nnodes; i++) {
		nodes++;
		inferred += g->n[i].inferred;
	}
	dlb_onnx_free(g);
	return 0;
}

/* node/NAME's one node is inferred, its output agrees with the recorded one and is `want` */
static void one_op(const char *dir, const char *name, const char *want)
{
	char path[1024], s[96];
	struct dlb_onnx_graph *g;
	snprintf(path, sizeof path, "%s/node/%s/model.onnx", dir, name);
	if (!CHECK(dlb_onnx_load(path, 0, &g) == 0, "%s: %s", name, dlb_last_error()))
		return;
	const struct dlb_onnx_node *n = &g->n[g->nnodes - 1];
	dlb_onnx_shape_text(&g->t[n->out[0]].shape, s, sizeof s);
	CHECK(n->inferred && g->checked >= 1 && g->mismatched == 0 && !strcmp(s, want),
	      "%s: inferred %d, %d checked, %d differ (%s), output %s, expected %s", name, n->inferred, g->checked,
	      g->mismatched, g->first_mismatch, s, want);
	dlb_onnx_free(g);
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	if (f && !fseek(f, 0, SEEK_END)) {
		long n = ftell(f);
		rewind(f);
		if (n > 0 && (b = malloc((size_t)n)) && fread(b, 1, (size_t)n, f) == (size_t)n)
			*len = (size_t)n;
		else {
			free(b);
			b = NULL;
		}
	}
	if (f)
		fclose(f);
	return b;
}

int main(void)
{
	const char *dir = getenv("DLB_ONNX_TESTDATA") ? getenv("DLB_ONNX_TESTDATA") : "/usr/share/libonnx-testdata/data";
	char path[1024];
	snprintf(path, sizeof path, "%s/node", dir);
	struct stat st;
	if (stat(path, &st)) {
		printf("FAIL: %s not found (Debian: libonnx-testdata; ./bootstrap installs it)\n", path);
		return 1;
	}
	REQUIRE(nftw(dir, visit, 16, FTW_PHYS) == 0, "walking %s", dir);
	printf("%d models parsed, %d refused; %d nodes, %d with their outputs inferred; %d recorded shapes checked, "
	       "%d differ\n", parsed, refused, nodes, inferred, checked, mismatched);
	CHECK(parsed >= 1000, "only %d models parsed", parsed);
	CHECK(refused == 0, "%d refused, first: %s", refused, first_refusal);
	CHECK(checked >= 600 && mismatched == 0, "%d recorded shapes checked, %d differ", checked, mismatched);
	CHECK(inferred * 10 >= nodes * 6, "only %d of %d nodes inferred", inferred, nodes);

	/* each supported op on its own test: the output agrees with the recorded shape */
	one_op(dir, "test_basic_conv_with_padding", "1x1x5x5");
	one_op(dir, "test_conv_with_strides_and_asymmetric_padding", "1x1x4x2");
	one_op(dir, "test_conv_with_autopad_same", "1x1x3x3");
	one_op(dir, "test_maxpool_2d_ceil", "1x1x2x2");
	one_op(dir, "test_maxpool_2d_same_upper", "1x3x32x32");
	one_op(dir, "test_maxpool_2d_dilations", "1x1x2x2");
	one_op(dir, "test_averagepool_2d_pads", "1x3x30x30");
	one_op(dir, "test_gemm_transposeA", "3x4");
	one_op(dir, "test_gemm_transposeB", "3x4");
	one_op(dir, "test_matmul_4d", "1x2x3x3");
	one_op(dir, "test_matmul_3d", "2x3x3");
	one_op(dir, "test_globalaveragepool", "1x3x1x1");
	one_op(dir, "test_flatten_axis2", "6x20");
	one_op(dir, "test_flatten_negative_axis1", "24x5");
	one_op(dir, "test_transpose_all_permutations_3", "3x4x2");
	one_op(dir, "test_concat_2d_axis_1", "2x4");
	one_op(dir, "test_shape_start_1", "2");
	one_op(dir, "test_add_bcast", "3x4x5");
	one_op(dir, "test_batchnorm_example", "2x3x4x5");
	one_op(dir, "test_reduce_mean_keepdims_example", "3x1x2");
	one_op(dir, "test_gather_0", "3x4x3x2");
	one_op(dir, "test_constant", "5x5");

	/* every prefix (a truncated download) and random bytes: parsed or refused, never a crash */
	size_t len = 0;
	snprintf(path, sizeof path, "%s/pytorch-converted/test_Conv2d/model.onnx", dir);
	uint8_t *b = slurp(path, &len);
	REQUIRE(b, "reading %s", path);
	int ok = 0, bad = 0;
	for (size_t n = 0; n < len; n++) {
		struct dlb_onnx_graph *g;
		if (dlb_onnx_load_mem(b, n, "prefix", 0, &g) == 0) {
			ok++;
			dlb_onnx_free(g);
		} else
			bad++;
	}
	CHECK(bad > 0 && ok + bad == (int)len, "prefixes: %d parsed, %d refused of %zu", ok, bad, len);
	uint64_t x = 88172645463325252ULL;
	for (int r = 0; r < 2000; r++) { /* flipped bytes of the real model */
		uint8_t *c = malloc(len);
		REQUIRE(c, "memory");
		memcpy(c, b, len);
		for (int k = 0; k < 4; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			c[x % len] = (uint8_t)(x >> 32);
		}
		struct dlb_onnx_graph *g;
		if (dlb_onnx_load_mem(c, len, "flipped", 0, &g) == 0)
			dlb_onnx_free(g);
		free(c);
	}
	CHECK(dlb_onnx_load_mem(b, 0, "empty", 0, &(struct dlb_onnx_graph *){NULL}) == DLB_E_PARSE, "an empty file must be refused");
	CHECK(strstr(dlb_last_error(), "without a graph") != NULL, "empty: %s", dlb_last_error());
	free(b);
	return TEST_DONE();
}
