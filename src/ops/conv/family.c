/* ops/conv/family: what every convolution op shares — the problem (DeepBench's w, h, c, n, k, s, r, pads and
 * strides, then dilations and the layout), the output size, its work (2·N·K·P·Q·C·R·S), the problems it
 * refuses, and its reference kernel (templates/conv_ref.cu, opened once per process). */
#include "conv.h"

#include "../../err.h"
#include "../../onnx.h"

#include "../../result.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const layout_names[] = {"NCHW", "NHWC"};

#define SIZE(nm, ttl, ab, l, h) {.name = nm, .title = ttl, .about = ab, .kind = DLB_DIM_SIZE, .lo = l, .hi = h}
#define SMALL(nm, csvname, ttl, ab, l, d)                                                                   \
	{.name = nm, .csv = csvname, .title = ttl, .width = 3, .about = ab, .kind = DLB_DIM_SIZE, .lo = l,   \
	 .hi = 1024, .has_default = 1, .def = d}

static const struct dlb_dim conv_dims[CONV_NDIMS] = {
	[CONV_W] = SIZE("w", "W", "input width", 1, 1 << 20),
	[CONV_H] = SIZE("h", "H", "input height", 1, 1 << 20),
	[CONV_C] = {.name = "c", .title = "C", .width = 5, .about = "input channels", .kind = DLB_DIM_SIZE, .lo = 1,
		    .hi = 1 << 20, .pad = 1},
	[CONV_N] = {.name = "n", .title = "N", .width = 4, .about = "batch", .kind = DLB_DIM_SIZE, .lo = 1, .hi = 1 << 16},
	[CONV_K] = {.name = "k", .title = "K", .width = 5, .about = "filters (output channels)", .kind = DLB_DIM_SIZE,
		    .lo = 1, .hi = 1 << 20},
	[CONV_S] = {.name = "s", .title = "S", .width = 3, .about = "filter width", .kind = DLB_DIM_SIZE, .lo = 1,
		    .hi = 1024},
	[CONV_R] = {.name = "r", .title = "R", .width = 3, .about = "filter height", .kind = DLB_DIM_SIZE, .lo = 1,
		    .hi = 1024},
	[CONV_PAD_W] = SMALL("pad-w", "pad_w", "pw", "zeros added left and right of the input", 0, 0),
	[CONV_PAD_H] = SMALL("pad-h", "pad_h", "ph", "zeros added above and below the input", 0, 0),
	[CONV_STRIDE_W] = SMALL("stride-w", "stride_w", "sw", "horizontal stride", 1, 1),
	[CONV_STRIDE_H] = SMALL("stride-h", "stride_h", "sh", "vertical stride", 1, 1),
	[CONV_DIL_W] = SMALL("dil-w", "dil_w", "dw", "horizontal dilation of the filter", 1, 1),
	[CONV_DIL_H] = SMALL("dil-h", "dil_h", "dh", "vertical dilation of the filter", 1, 1),
	[CONV_LAYOUT] = {.name = "order", .title = "layout", .about = "the order of x and y: NCHW (DeepBench's) or NHWC",
			 .kind = DLB_DIM_CHOICE, .has_default = 1, .def = CONV_NCHW, .names = layout_names, .nnames = 2},
};

void dlb_conv_out(const int64_t *d, int64_t *p, int64_t *q)
{
	int64_t eh = d[CONV_H] + 2 * d[CONV_PAD_H] - d[CONV_DIL_H] * (d[CONV_R] - 1) - 1;
	int64_t ew = d[CONV_W] + 2 * d[CONV_PAD_W] - d[CONV_DIL_W] * (d[CONV_S] - 1) - 1;
	*p = eh < 0 ? 0 : eh / d[CONV_STRIDE_H] + 1;
	*q = ew < 0 ? 0 : ew / d[CONV_STRIDE_W] + 1;
}

static double conv_work(const struct dlb_problem *p)
{
	int64_t P, Q;
	dlb_conv_out(p->dim, &P, &Q);
	return 2.0 * (double)p->dim[CONV_N] * (double)p->dim[CONV_K] * (double)P * (double)Q * (double)p->dim[CONV_C] *
	       (double)p->dim[CONV_R] * (double)p->dim[CONV_S];
}

/* x and w read once, y written once */
static double conv_min_bytes(const struct dlb_problem *p, int es_in, int es_out)
{
	const int64_t *d = p->dim;
	int64_t P, Q;
	dlb_conv_out(d, &P, &Q);
	return ((double)d[CONV_N] * d[CONV_C] * d[CONV_H] * d[CONV_W] + (double)d[CONV_K] * d[CONV_C] * d[CONV_R] * d[CONV_S]) *
		       es_in +
	       (double)d[CONV_N] * d[CONV_K] * P * Q * es_out;
}

/* A filter (dilated) that does not fit the padded input has no output. */
static int conv_check(const int64_t *d, char *why, int len)
{
	int64_t P, Q;
	dlb_conv_out(d, &P, &Q);
	if ((double)d[CONV_C] * (double)d[CONV_R] * (double)d[CONV_S] > 2147483647.0 - 1024) {
		snprintf(why, (size_t)len, "C x R x S = %lld x %lld x %lld: the kernels reduce over at most 2^31 - 1025 taps",
			 (long long)d[CONV_C], (long long)d[CONV_R], (long long)d[CONV_S]);
		return DLB_E_USAGE;
	}
	if (P >= 1 && Q >= 1)
		return 0;
	snprintf(why, (size_t)len,
		 "the %lldx%lld filter (dilation %lldx%lld) is larger than the padded %lldx%lld input: there is no output",
		 (long long)d[CONV_S], (long long)d[CONV_R], (long long)d[CONV_DIL_W], (long long)d[CONV_DIL_H],
		 (long long)(d[CONV_W] + 2 * d[CONV_PAD_W]), (long long)(d[CONV_H] + 2 * d[CONV_PAD_H]));
	return DLB_E_USAGE;
}

/* The vendor entries' kinds: cuDNN's heuristic choice and cudnnFind's algorithms (vendor_cudnn.c), strict fp32;
 * fp32's Find's best in cuDNN's default math (TF32 where it chose it) and int8's cuDNN fp16 on the same shape,
 * shown, never the baseline. */
static const struct dlb_vendor_col conv_cols[] = {
	{"cuDNN heur us", "cudnn_heuristic_us", 0, "heuristic", "cudnn_heuristic_algo"},
	{"cuDNN find us", "cudnn_find_us", 1, "find", "cudnn_find_algo"},
	{"default math us", "cudnn_default_math_us", 2, "default math", "cudnn_default_math_algo"},
	{"cuDNN fp16 us", "cudnn_fp16_us", 3, NULL, NULL},
};

/* "700x161 c1 n1 k32 20x5 stride 2 NCHW": the input W×H, channels, batch, filters, the filter S×R, then pads,
 * strides and dilations where they are not the default (one number when both directions agree). */
/* An ONNX Conv (NCHW, 2-D, one group, equal pads on both sides of each axis) as a problem in NCHW. */
static int conv_from_onnx(const struct dlb_onnx_graph *g, const struct dlb_onnx_node *n, int64_t *d, int64_t *times,
			  char *why, int len)
{
	const struct dlb_onnx_shape *x = n->nin > 1 && n->in[0] >= 0 ? &g->t[n->in[0]].shape : NULL,
				    *w = n->nin > 1 && n->in[1] >= 0 ? &g->t[n->in[1]].shape : NULL,
				    *y = n->nout > 0 && n->out[0] >= 0 ? &g->t[n->out[0]].shape : NULL;
	int64_t st[2] = {1, 1}, dl[2] = {1, 1}, pd[4] = {0, 0, 0, 0};
	char ap[32];
	*times = 1;
#define NOT(...)                                    	do {                                        		snprintf(why, (size_t)len, __VA_ARGS__); 		return DLB_E_USAGE;                 	} while (0)
	if (!x || !w || !y || !x->known || !w->known || !y->known)
		NOT("its shapes are not known");
	if (x->rank != 4)
		NOT("a %d-D convolution (2-D only)", x->rank - 2);
	if (dlb_onnx_int(n, "group", 1) != 1)
		NOT("grouped (group %lld)", (long long)dlb_onnx_int(n, "group", 1));
	if (dlb_onnx_ints(n, "strides", st, 2) > 2 || dlb_onnx_ints(n, "dilations", dl, 2) > 2 ||
	    dlb_onnx_ints(n, "pads", pd, 4) > 4)
		NOT("attributes of another rank");
	dlb_onnx_str(n, "auto_pad", ap, sizeof ap);
	if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER")) { /* the pads that give ceil(in / stride) */
		for (int i = 0; i < 2; i++) {
			int64_t total = (y->d[2 + i] - 1) * st[i] + (w->d[2 + i] - 1) * dl[i] + 1 - x->d[2 + i];
			total = total < 0 ? 0 : total;
			pd[i] = total / 2;
			pd[i + 2] = total - total / 2;
		}
	} else if (!strcmp(ap, "VALID"))
		pd[0] = pd[1] = pd[2] = pd[3] = 0;
	if (pd[0] != pd[2] || pd[1] != pd[3])
		NOT("unequal pads (%lld,%lld,%lld,%lld)", (long long)pd[0], (long long)pd[1], (long long)pd[2],
		    (long long)pd[3]);
#undef NOT
	d[CONV_N] = x->d[0];
	d[CONV_C] = x->d[1];
	d[CONV_H] = x->d[2];
	d[CONV_W] = x->d[3];
	d[CONV_K] = w->d[0];
	d[CONV_R] = w->d[2];
	d[CONV_S] = w->d[3];
	d[CONV_PAD_H] = pd[0];
	d[CONV_PAD_W] = pd[1];
	d[CONV_STRIDE_H] = st[0];
	d[CONV_STRIDE_W] = st[1];
	d[CONV_DIL_H] = dl[0];
	d[CONV_DIL_W] = dl[1];
	d[CONV_LAYOUT] = CONV_NCHW;
	return conv_check(d, why, len);
}

static void conv_describe(const int64_t *d, char *buf, int len)
{
	static const struct {
		const char *name;
		int w, h;
		int64_t def;
	} extra[] = {{"pad", CONV_PAD_W, CONV_PAD_H, 0}, {"stride", CONV_STRIDE_W, CONV_STRIDE_H, 1},
		     {"dil", CONV_DIL_W, CONV_DIL_H, 1}};
	int off = snprintf(buf, (size_t)len, "%lldx%lld c%lld n%lld k%lld %lldx%lld", (long long)d[CONV_W],
			   (long long)d[CONV_H], (long long)d[CONV_C], (long long)d[CONV_N], (long long)d[CONV_K],
			   (long long)d[CONV_S], (long long)d[CONV_R]);
	for (int i = 0; i < 3 && off >= 0 && off < len; i++) {
		int64_t w = d[extra[i].w], h = d[extra[i].h];
		if (w == extra[i].def && h == extra[i].def)
			continue;
		if (w == h)
			off += snprintf(buf + off, (size_t)(len - off), " %s %lld", extra[i].name, (long long)w);
		else
			off += snprintf(buf + off, (size_t)(len - off), " %s %lldx%lld", extra[i].name, (long long)w, (long long)h);
	}
	if (off >= 0 && off < len)
		snprintf(buf + off, (size_t)(len - off), " %s", layout_names[d[CONV_LAYOUT] == CONV_NHWC]);
}

static double out_p(const struct dlb_result *r)
{
	int64_t P, Q;
	dlb_conv_out(r->p.dim, &P, &Q);
	return (double)P;
}

static double out_q(const struct dlb_result *r)
{
	int64_t P, Q;
	dlb_conv_out(r->p.dim, &P, &Q);
	return (double)Q;
}

/* The winner's workspace: split-K's partial sums, SPLITK·N·P·Q·K floats (conv.c), none without a split or with
 * a cluster's (SPLITK < 0). */
static double ws_tuned(const struct dlb_result *r)
{
	const char *s = r->found ? strstr(r->config, "SPLITK=") : NULL;
	int64_t P, Q;
	int split = 1;
	if (!r->found)
		return NAN;
	if (s && sscanf(s, "SPLITK=%d", &split) != 1)
		return NAN;
	dlb_conv_out(r->p.dim, &P, &Q);
	return split > 1 ? 4.0 * split * (double)r->p.dim[CONV_N] * (double)P * (double)Q * (double)r->p.dim[CONV_K] : 0;
}

/* The vendor best's, as its configuration says ("..., workspace N bytes"). */
static double ws_vendor(const struct dlb_result *r)
{
	const struct dlb_vendor_entry *v = dlb_result_vendor_best(r);
	const char *s = v ? strstr(v->config, "workspace ") : NULL;
	double b = NAN;
	if (!s || sscanf(s, "workspace %lf bytes", &b) != 1)
		return NAN;
	return b;
}

static const struct dlb_derived_col conv_derived[] = {
	{"P", "p", 5, "%g", 0, out_p},
	{"Q", "q", 5, "%g", 0, out_q},
	{"ws bytes", "tuned_workspace_bytes", 10, "%.0f", 1, ws_tuned},
	{"vendor ws", "vendor_best_workspace_bytes", 10, "%.0f", 1, ws_vendor},
};

static int conv_open(struct dlb_gpu *g, void **state)
{
	int rc = 0;
	struct dlb_conv_shared *s = calloc(1, sizeof *s);
	if (!s)
		DLB_FAIL(ENOMEM, "out of memory");
	DLB_CHECK(dlb_gpu_load_embedded(g, "conv_ref.cu", &s->ref));
	s->ref_loaded = 1;
	DLB_CHECK(dlb_module_kernel(&s->ref, "conv_ref_f32", &s->ref_f32));
	DLB_CHECK(dlb_module_kernel(&s->ref, "conv_ref_f16", &s->ref_f16));
	DLB_CHECK(dlb_module_kernel(&s->ref, "conv_ref_s8", &s->ref_s8));
	DLB_CHECK(dlb_module_kernel(&s->ref, "s8_to_f16", &s->s8_to_f16));
	DLB_CHECK(dlb_module_kernel(&s->ref, "f32_to_s32", &s->f32_to_s32));
	DLB_CHECK(dlb_cudnn_open(g->dev->stream, &s->cudnn));
	*state = s;
	return 0;
fail:
	if (s && s->ref_loaded)
		dlb_module_unload(&s->ref);
	if (s)
		dlb_cudnn_close(s->cudnn);
	free(s);
	*state = NULL;
	return rc;
}

static void conv_close(void *state)
{
	struct dlb_conv_shared *s = state;
	if (!s)
		return;
	if (s->ref_loaded)
		dlb_module_unload(&s->ref);
	dlb_cudnn_close(s->cudnn);
	free(s);
}

int dlb_conv_shared_of(struct dlb_gpu *g, struct dlb_conv_shared **out)
{
	return dlb_gpu_family_state(g, &dlb_family_conv, (void **)out);
}

extern const struct dlb_lib dlb_lib_cudnn;

/* The report's plot of convolution results: the paired speedup against the batch, where cuDNN's choice is
 * weakest at 1-4. */
static const struct dlb_family_plot conv_plot = {
	.name = "by_batch",
	.title = "speedup against the batch N",
	.x = "n",
	.logx = 1,
	.y = {"paired_speedup", NULL},
	.ylabel = "vendor best / tuned, paired (x)",
	.one = 1,
};

const struct dlb_family dlb_family_conv = {
	.name = "conv",
	.about = "forward convolution y = x * w (N images of C x H x W, K filters of C x R x S), DeepBench's conv",
	.examples = "  dlbtune --op conv                              DeepBench's conv_training suite, fp32\n"
		    "  dlbtune --op conv --w 700 --h 161 --c 1 --n 4 --k 32 --s 20 --r 5 --stride-w 2 --stride-h 2\n"
		    "                                                 one problem (NCHW unless --layout NHWC)\n",
	.default_suite = "training",
	.dims = conv_dims,
	.ndims = CONV_NDIMS,
	.work_kind = DLB_WORK_FLOPS,
	.min_bytes = conv_min_bytes,
	.work = conv_work,
	.check = conv_check,
	.vendor_lib = &dlb_lib_cudnn,
	.vendor_about = "cuDNN's heuristic first choice and every algorithm cudnnFind reports, each verified and "
			"timed here: fp32 in strict FMA math, with cudnnFind's best in cuDNN's default math (TF32 on the "
			"tensor cores where it chooses them) shown beside them, labelled, never the fp32 baseline; fp16 "
			"tensors with fp32 accumulation in tensor-op math; int8 x and w with int32 accumulation and a float "
			"y (cuDNN's INT8_EXT_CONFIG, NHWC only: NCHW rows say n/a and why), compared exactly, with cuDNN "
			"fp16 on the same shape shown beside it, labelled, never the int8 baseline. Every candidate "
			"verified against a direct convolution kernel that sums in double (int8: exactly, in 64 bits)",
	.cols = conv_cols,
	.ncols = sizeof conv_cols / sizeof conv_cols[0],
	.describe = conv_describe,
	.onnx_ops = (const char *const[]){"Conv", NULL},
	.from_onnx = conv_from_onnx,
	.derived = conv_derived,
	.nderived = sizeof conv_derived / sizeof conv_derived[0],
	.open = conv_open,
	.close = conv_close,
	.plot = &conv_plot,
};
