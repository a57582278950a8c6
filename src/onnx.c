/* onnx: ONNX models read with protobuf-c and their shapes inferred (see onnx.h). */
#include "onnx.h"
#include "err.h"
#include "onnx.pb-c.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_VALS 64 /* the int64 constants kept (shapes, axes, indices) */

struct dlb_onnx_attr {
	char *name;
	int type;     /* ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__* */
	int64_t i;
	int64_t *ints;
	int nints;
	char *s;
	int has_t;    /* a tensor (Constant's value): its dims and small int64 values */
	struct dlb_onnx_shape t_shape;
	int64_t *t_vals;
	int t_nvals, t_type;
};

/* ---- the tensor table: names hashed (FNV-1a), open addressing ---- */

struct table {
	struct dlb_onnx_graph *g;
	int cap, *slot; /* tensor index + 1; 0: empty */
	int tcap;
};

static uint64_t fnv(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static int find(const struct table *tb, const char *name)
{
	if (!tb->cap)
		return -1;
	for (uint64_t i = fnv(name) % (uint64_t)tb->cap;; i = (i + 1) % (uint64_t)tb->cap) {
		int k = tb->slot[i];
		if (!k)
			return -1;
		if (!strcmp(tb->g->t[k - 1].name, name))
			return k - 1;
	}
}

/* The tensor called name, made when new: its index, or -1 (out of memory). */
static int get(struct table *tb, const char *name)
{
	int k = find(tb, name);
	if (k >= 0)
		return k;
	struct dlb_onnx_graph *g = tb->g;
	if (2 * (g->ntensors + 1) > tb->cap) { /* grow and rehash */
		int cap = tb->cap ? 2 * tb->cap : 256, *slot = calloc((size_t)cap, sizeof *slot);
		if (!slot)
			return -1;
		for (int t = 0; t < g->ntensors; t++) {
			uint64_t i = fnv(g->t[t].name) % (uint64_t)cap;
			while (slot[i])
				i = (i + 1) % (uint64_t)cap;
			slot[i] = t + 1;
		}
		free(tb->slot);
		tb->slot = slot;
		tb->cap = cap;
	}
	if (g->ntensors == tb->tcap) {
		int cap = tb->tcap ? 2 * tb->tcap : 128;
		struct dlb_onnx_tensor *t = realloc(g->t, (size_t)cap * sizeof *t);
		if (!t)
			return -1;
		g->t = t;
		tb->tcap = cap;
	}
	struct dlb_onnx_tensor *t = &g->t[g->ntensors];
	memset(t, 0, sizeof *t);
	if (!(t->name = strdup(name)))
		return -1;
	uint64_t i = fnv(name) % (uint64_t)tb->cap;
	while (tb->slot[i])
		i = (i + 1) % (uint64_t)tb->cap;
	tb->slot[i] = ++g->ntensors;
	return g->ntensors - 1;
}

/* ---- shapes ---- */

void dlb_onnx_shape_text(const struct dlb_onnx_shape *s, char *buf, size_t len)
{
	size_t n = 0;
	if (!len)
		return;
	buf[0] = 0;
	if (!s->known) {
		snprintf(buf, len, "?");
		return;
	}
	if (s->rank == 0)
		snprintf(buf, len, "scalar");
	for (int i = 0; i < s->rank && n < len; i++) {
		int w = snprintf(buf + n, len - n, "%s%lld", i ? "x" : "", (long long)s->d[i]);
		if (w < 0)
			break;
		n += (size_t)w;
	}
}

int64_t dlb_onnx_numel(const struct dlb_onnx_shape *s)
{
	int64_t n = 1;
	if (!s->known)
		return -1;
	for (int i = 0; i < s->rank; i++) {
		if (s->d[i] < 0 || (s->d[i] > 0 && n > INT64_MAX / s->d[i]))
			return -1;
		n *= s->d[i];
	}
	return n;
}

static int set_shape(struct dlb_onnx_shape *s, int rank, const int64_t *d)
{
	if (rank < 0 || rank > DLB_ONNX_MAX_RANK)
		return 0;
	for (int i = 0; i < rank; i++)
		if (d[i] < 0)
			return 0;
	s->known = 1;
	s->rank = rank;
	if (rank > 0)
		memcpy(s->d, d, (size_t)rank * sizeof *d);
	return 1;
}

/* A recorded TypeProto's shape: symbolic dims become batch when they lead and batch > 0, else -1 (any). */
static void shape_of_type(const Onnx__TypeProto *tp, int64_t batch, struct dlb_onnx_shape *s, int *elem)
{
	memset(s, 0, sizeof *s);
	if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type)
		return;
	const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
	if (elem && tt->has_elem_type)
		*elem = tt->elem_type;
	if (!tt->shape || tt->shape->n_dim > DLB_ONNX_MAX_RANK)
		return;
	s->rank = (int)tt->shape->n_dim;
	for (int i = 0; i < s->rank; i++) {
		const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];
		if (d && d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && d->dim_value >= 0)
			s->d[i] = d->dim_value;
		else
			s->d[i] = i == 0 && batch > 0 ? batch : -1;
	}
	s->known = 1;
}

/* A TensorProto's int64 values (int64_data, raw little-endian, or int32_data), up to MAX_VALS: the count, 0
 * where it has none or more. */
static int tensor_vals(const Onnx__TensorProto *t, int64_t *v)
{
	int64_t n = 1;
	for (size_t i = 0; i < t->n_dims; i++)
		n = t->dims[i] >= 0 && n <= MAX_VALS ? n * t->dims[i] : MAX_VALS + 1;
	if (n < 1 || n > MAX_VALS || !t->has_data_type)
		return 0;
	if (t->data_type == ONNX__TENSOR_PROTO__DATA_TYPE__INT64) {
		if ((int64_t)t->n_int64_data == n) {
			memcpy(v, t->int64_data, (size_t)n * sizeof *v);
			return (int)n;
		}
		if (t->has_raw_data && (int64_t)t->raw_data.len == 8 * n) {
			for (int64_t i = 0; i < n; i++) {
				uint64_t u = 0;
				for (int b = 7; b >= 0; b--)
					u = u << 8 | t->raw_data.data[8 * i + b];
				v[i] = (int64_t)u;
			}
			return (int)n;
		}
	} else if (t->data_type == ONNX__TENSOR_PROTO__DATA_TYPE__INT32 && (int64_t)t->n_int32_data == n) {
		for (int64_t i = 0; i < n; i++)
			v[i] = t->int32_data[i];
		return (int)n;
	}
	return 0;
}

static int keep_vals(struct dlb_onnx_tensor *t, const int64_t *v, int n)
{
	free(t->vals);
	t->vals = NULL;
	t->nvals = 0;
	if (n <= 0)
		return 0;
	if (!(t->vals = malloc((size_t)n * sizeof *v)))
		return ENOMEM;
	memcpy(t->vals, v, (size_t)n * sizeof *v);
	t->nvals = n;
	return 0;
}

/* ---- attributes ---- */

static const struct dlb_onnx_attr *attr_of(const struct dlb_onnx_node *n, const char *name)
{
	for (int i = 0; i < n->nattr; i++)
		if (!strcmp(n->attr[i].name, name))
			return &n->attr[i];
	return NULL;
}

int dlb_onnx_ints(const struct dlb_onnx_node *n, const char *name, int64_t *v, int max)
{
	const struct dlb_onnx_attr *a = attr_of(n, name);
	if (!a)
		return -1;
	if (a->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT) {
		if (max > 0)
			v[0] = a->i;
		return 1;
	}
	if (a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS)
		return -1;
	for (int i = 0; i < a->nints && i < max; i++)
		v[i] = a->ints[i];
	return a->nints;
}

const char *dlb_onnx_attr_name(const struct dlb_onnx_node *n, int i)
{
	return i >= 0 && i < n->nattr ? n->attr[i].name : "";
}

int dlb_onnx_str(const struct dlb_onnx_node *n, const char *name, char *buf, size_t len)
{
	const struct dlb_onnx_attr *a = attr_of(n, name);
	snprintf(buf, len, "%s", a && a->s ? a->s : "");
	return a && a->s;
}

int64_t dlb_onnx_int(const struct dlb_onnx_node *n, const char *name, int64_t dflt)
{
	int64_t v;
	return dlb_onnx_ints(n, name, &v, 1) == 1 ? v : dflt;
}

static int copy_attr(const Onnx__AttributeProto *p, struct dlb_onnx_attr *a)
{
	memset(a, 0, sizeof *a);
	if (!(a->name = strdup(p->name ? p->name : "")))
		return ENOMEM;
	a->type = p->has_type ? (int)p->type : 0;
	a->i = p->i;
	if (p->n_ints) {
		if (p->n_ints > 4096 || !(a->ints = malloc(p->n_ints * sizeof *a->ints)))
			return p->n_ints > 4096 ? DLB_E_PARSE : ENOMEM;
		memcpy(a->ints, p->ints, p->n_ints * sizeof *a->ints);
		a->nints = (int)p->n_ints;
		if (!a->type)
			a->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
	}
	if (p->has_s) {
		if (!(a->s = malloc(p->s.len + 1)))
			return ENOMEM;
		if (p->s.len)
			memcpy(a->s, p->s.data, p->s.len);
		a->s[p->s.len] = 0;
	}
	if (p->t) {
		int64_t v[MAX_VALS];
		a->has_t = 1;
		a->t_type = p->t->has_data_type ? p->t->data_type : 0;
		if (p->t->n_dims <= DLB_ONNX_MAX_RANK)
			set_shape(&a->t_shape, (int)p->t->n_dims, p->t->dims);
		if ((a->t_nvals = tensor_vals(p->t, v)) > 0) {
			if (!(a->t_vals = malloc((size_t)a->t_nvals * sizeof *v)))
				return ENOMEM;
			memcpy(a->t_vals, v, (size_t)a->t_nvals * sizeof *v);
		}
	}
	return 0;
}

/* ---- inference ---- */

static struct dlb_onnx_tensor *in_t(struct dlb_onnx_graph *g, const struct dlb_onnx_node *n, int i)
{
	return i < n->nin && n->in[i] >= 0 ? &g->t[n->in[i]] : NULL;
}

static const struct dlb_onnx_shape *in_s(struct dlb_onnx_graph *g, const struct dlb_onnx_node *n, int i)
{
	const struct dlb_onnx_tensor *t = in_t(g, n, i);
	return t && t->shape.known ? &t->shape : NULL;
}

static int out_shape(struct dlb_onnx_graph *g, struct dlb_onnx_node *n, int i, const struct dlb_onnx_shape *s)
{
	if (i < n->nout && n->out[i] >= 0)
		g->t[n->out[i]].shape = *s;
	return 1;
}

/* Keep int64 values on output i (a shape, a dim, axes), where the node has that output. */
static int out_vals(struct dlb_onnx_graph *g, struct dlb_onnx_node *n, int i, const int64_t *v, int nv)
{
	return i < n->nout && n->out[i] >= 0 ? keep_vals(&g->t[n->out[i]], v, nv) : 0;
}

/* numpy broadcasting of two shapes into o: 0 when they do not broadcast */
static int broadcast(const struct dlb_onnx_shape *a, const struct dlb_onnx_shape *b, struct dlb_onnx_shape *o)
{
	int r = a->rank > b->rank ? a->rank : b->rank;
	memset(o, 0, sizeof *o);
	for (int i = 0; i < r; i++) {
		int64_t x = i < r - a->rank ? 1 : a->d[i - (r - a->rank)], y = i < r - b->rank ? 1 : b->d[i - (r - b->rank)];
		if (x != y && x != 1 && y != 1)
			return 0;
		o->d[i] = x == 1 ? y : x;
	}
	o->rank = r;
	o->known = 1;
	return 1;
}

static int axis_of(int64_t a, int rank)
{
	return (int)(a < 0 ? a + rank : a);
}

/* Conv and the pools: the spatial output sizes of x (N, C, spatial...) under kernel k, with the node's
 * strides, pads, dilations, auto_pad and ceil_mode. */
static int windowed(const struct dlb_onnx_node *n, const struct dlb_onnx_shape *x, const int64_t *k, int nk,
		    int64_t channels, struct dlb_onnx_shape *o)
{
	int64_t st[DLB_ONNX_MAX_RANK], dl[DLB_ONNX_MAX_RANK], pd[2 * DLB_ONNX_MAX_RANK];
	char ap[32];
	if (x->rank != nk + 2 || nk < 1)
		return 0;
	for (int i = 0; i < nk; i++)
		st[i] = dl[i] = 1, pd[i] = pd[i + nk] = 0;
	int ns = dlb_onnx_ints(n, "strides", st, nk), nd = dlb_onnx_ints(n, "dilations", dl, nk),
	    np = dlb_onnx_ints(n, "pads", pd, 2 * nk);
	if ((ns >= 0 && ns != nk) || (nd >= 0 && nd != nk) || (np >= 0 && np != 2 * nk))
		return 0;
	dlb_onnx_str(n, "auto_pad", ap, sizeof ap);
	int ceil_mode = dlb_onnx_int(n, "ceil_mode", 0) != 0;
	*o = *x;
	o->d[1] = channels;
	for (int i = 0; i < nk; i++) {
		int64_t in = x->d[i + 2], ek = (k[i] - 1) * dl[i] + 1, out;
		if (st[i] < 1 || dl[i] < 1 || k[i] < 1)
			return 0;
		if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER"))
			out = (in + st[i] - 1) / st[i];
		else if (!strcmp(ap, "VALID"))
			out = in >= ek ? (in - ek) / st[i] + 1 : 0;
		else {
			int64_t span = in + pd[i] + pd[i + nk] - ek;
			if (span < 0)
				return 0;
			out = (ceil_mode ? (span + st[i] - 1) / st[i] : span / st[i]) + 1;
			if (ceil_mode && (out - 1) * st[i] >= in + pd[i]) /* the last window must start inside */
				out--;
		}
		o->d[i + 2] = out;
	}
	return 1;
}

static const char *const same_shape[] = {
	"Relu", "Sigmoid", "Tanh", "LeakyRelu", "Elu", "Selu", "Clip", "Dropout", "Identity", "BatchNormalization",
	"Softmax", "LogSoftmax", "LRN", "Erf", "Sqrt", "Exp", "Log", "Neg", "Abs", "Reciprocal", "Cast", "HardSigmoid",
	"Softplus", "Softsign", "PRelu", "InstanceNormalization", "LayerNormalization", "Gelu", "HardSwish", "Not",
	"Floor", "Ceil", "Round", "Sign", "Hardmax", "ThresholdedRelu", "Celu", "Mish", "Sin", "Cos", "IsNaN", NULL};
static const char *const elementwise[] = {"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum", "Mean", "Equal",
					  "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor",
					  "Where", "Mod", NULL};

static int in_list(const char *op, const char *const *l)
{
	for (; *l; l++)
		if (!strcmp(op, *l))
			return 1;
	return 0;
}

/* The outputs' shapes of node n from its inputs': 1 when inferred; 0 with n->why set. ENOMEM only as error. */
static int infer(struct dlb_onnx_graph *g, struct dlb_onnx_node *n, int *err)
{
	const char *op = n->op;
	const struct dlb_onnx_shape *x = in_s(g, n, 0), *w = in_s(g, n, 1);
	struct dlb_onnx_shape o = {0};
	int64_t v[MAX_VALS];
	*err = 0;
#define NEED(cond, ...)                                               \
	do {                                                          \
		if (!(cond)) {                                        \
			snprintf(n->why, sizeof n->why, __VA_ARGS__); \
			return 0;                                     \
		}                                                     \
	} while (0)
	if (!strcmp(op, "Constant")) {
		const struct dlb_onnx_attr *a = attr_of(n, "value");
		NEED(a && a->has_t && a->t_shape.known, "a Constant without a tensor value");
		out_shape(g, n, 0, &a->t_shape);
		if (n->nout > 0 && n->out[0] >= 0)
			g->t[n->out[0]].is_weight = 1;
		*err = out_vals(g, n, 0, a->t_vals, a->t_nvals);
		return !*err;
	}
	if (in_list(op, same_shape)) {
		NEED(x, "its input's shape is not known");
		for (int i = 0; i < n->nout; i++) /* Dropout's mask, BatchNormalization's running stats are not used */
			if (i == 0 || !strcmp(op, "Dropout"))
				out_shape(g, n, i, x);
		if (!strcmp(op, "Cast") || !strcmp(op, "Identity"))
			*err = out_vals(g, n, 0, in_t(g, n, 0)->vals, in_t(g, n, 0)->nvals);
		return !*err;
	}
	if (in_list(op, elementwise)) {
		NEED(x, "its first input's shape is not known");
		o = *x;
		for (int i = 1; i < n->nin; i++) {
			const struct dlb_onnx_shape *b = in_s(g, n, i);
			struct dlb_onnx_shape r;
			NEED(b, "input %d's shape is not known", i);
			NEED(broadcast(&o, b, &r), "its inputs do not broadcast");
			o = r;
		}
		return out_shape(g, n, 0, &o);
	}
	if (!strcmp(op, "Conv")) {
		int64_t k[DLB_ONNX_MAX_RANK];
		NEED(x && w, "its input's or filter's shape is not known");
		NEED(w->rank == x->rank && x->rank >= 3, "a filter of rank %d on an input of rank %d", w->rank, x->rank);
		int nk = dlb_onnx_ints(n, "kernel_shape", k, DLB_ONNX_MAX_RANK);
		if (nk < 0) {
			nk = w->rank - 2;
			memcpy(k, w->d + 2, (size_t)nk * sizeof *k);
		}
		int64_t group = dlb_onnx_int(n, "group", 1);
		NEED(group >= 1 && x->d[1] == w->d[1] * group, "%lld channels do not match %lld x group %lld",
		     (long long)x->d[1], (long long)w->d[1], (long long)group);
		NEED(windowed(n, x, k, nk, w->d[0], &o), "its window does not fit its input");
		return out_shape(g, n, 0, &o);
	}
	if (!strcmp(op, "MaxPool") || !strcmp(op, "AveragePool") || !strcmp(op, "LpPool")) {
		int64_t k[DLB_ONNX_MAX_RANK];
		NEED(x, "its input's shape is not known");
		int nk = dlb_onnx_ints(n, "kernel_shape", k, DLB_ONNX_MAX_RANK);
		NEED(nk >= 1, "no kernel_shape");
		NEED(windowed(n, x, k, nk, x->d[1], &o), "its window does not fit its input");
		out_shape(g, n, 0, &o);
		return out_shape(g, n, 1, &o); /* MaxPool's indices */
	}
	if (!strcmp(op, "GlobalAveragePool") || !strcmp(op, "GlobalMaxPool") || !strcmp(op, "GlobalLpPool")) {
		NEED(x && x->rank >= 3, "its input's shape is not known");
		o = *x;
		for (int i = 2; i < o.rank; i++)
			o.d[i] = 1;
		return out_shape(g, n, 0, &o);
	}
	if (!strcmp(op, "Gemm")) {
		NEED(x && w && x->rank == 2 && w->rank == 2, "Gemm needs two known matrices");
		int ta = dlb_onnx_int(n, "transA", 0) != 0, tb = dlb_onnx_int(n, "transB", 0) != 0;
		int64_t m = x->d[ta], k = x->d[!ta], k2 = w->d[tb], nn = w->d[!tb];
		NEED(k == k2, "inner sizes %lld and %lld differ", (long long)k, (long long)k2);
		int64_t d[2] = {m, nn};
		set_shape(&o, 2, d);
		return out_shape(g, n, 0, &o);
	}
	if (!strcmp(op, "MatMul")) {
		NEED(x && w && x->rank >= 1 && w->rank >= 1, "its inputs' shapes are not known");
		struct dlb_onnx_shape a = *x, b = *w, ba, bb, bo;
		if (a.rank == 1) /* [K] -> [1, K] */
			a.rank = 2, a.d[1] = a.d[0], a.d[0] = 1;
		if (b.rank == 1) /* [K] -> [K, 1] */
			b.rank = 2, b.d[1] = 1;
		NEED(a.d[a.rank - 1] == b.d[b.rank - 2], "inner sizes %lld and %lld differ", (long long)a.d[a.rank - 1],
		     (long long)b.d[b.rank - 2]);
		ba = a, bb = b;
		ba.rank -= 2, bb.rank -= 2;
		NEED(broadcast(&ba, &bb, &bo), "its batch dims do not broadcast");
		o = bo;
		NEED(o.rank + 2 <= DLB_ONNX_MAX_RANK, "rank too high");
		if (x->rank > 1)
			o.d[o.rank++] = a.d[a.rank - 2];
		if (w->rank > 1)
			o.d[o.rank++] = b.d[b.rank - 1];
		o.known = 1;
		return out_shape(g, n, 0, &o);
	}
	if (!strcmp(op, "Flatten")) {
		NEED(x, "its input's shape is not known");
		int ax = axis_of(dlb_onnx_int(n, "axis", 1), x->rank);
		NEED(ax >= 0 && ax <= x->rank, "axis out of range");
		int64_t d[2] = {1, 1};
		for (int i = 0; i < x->rank; i++)
			d[i >= ax] *= x->d[i];
		set_shape(&o, 2, d);
		return out_shape(g, n, 0, &o);
	}
	if (!strcmp(op, "Reshape")) {
		const struct dlb_onnx_tensor *s = in_t(g, n, 1);
		NEED(x, "its input's shape is not known");
		NEED(s && s->nvals > 0 && s->nvals <= DLB_ONNX_MAX_RANK, "its shape is not a known constant");
		int64_t total = dlb_onnx_numel(x), known = 1, az = dlb_onnx_int(n, "allowzero", 0);
		int minus = -1;
		o.rank = s->nvals;
		for (int i = 0; i < s->nvals; i++) {
			int64_t d = s->vals[i];
			if (d == 0 && !az) {
				NEED(i < x->rank, "a 0 past the input's rank");
				d = x->d[i];
			}
			if (d == -1) {
				NEED(minus < 0, "two -1 dims");
				minus = i;
				d = 1;
			}
			NEED(d >= 0, "a dim of %lld", (long long)d);
			o.d[i] = d;
			known *= d;
		}
		if (minus >= 0) {
			NEED(known > 0 && total % known == 0, "%lld elements do not reshape", (long long)total);
			o.d[minus] = total / known;
		} else
			NEED(known == total, "%lld elements reshaped to %lld", (long long)total, (long long)known);
		o.known = 1;
		return out_shape(g, n, 0, &o);
	}
	if (!strcmp(op, "Transpose")) {
		int64_t p[DLB_ONNX_MAX_RANK];
		NEED(x, "its input's shape is not known");
		int np = dlb_onnx_ints(n, "perm", p, DLB_ONNX_MAX_RANK);
		if (np < 0)
			for (np = 0; np < x->rank; np++)
				p[np] = x->rank - 1 - np;
		NEED(np == x->rank, "a perm of %d for rank %d", np, x->rank);
		o = *x;
		for (int i = 0; i < np; i++) {
			NEED(p[i] >= 0 && p[i] < x->rank, "perm out of range");
			o.d[i] = x->d[p[i]];
		}
		return out_shape(g, n, 0, &o);
	}
	if (!strcmp(op, "Concat")) {
		NEED(x, "its first input's shape is not known");
		int ax = axis_of(dlb_onnx_int(n, "axis", 0), x->rank), nv = 0, vals = 1;
		NEED(ax >= 0 && ax < x->rank, "axis out of range");
		o = *x;
		for (int i = 0; i < n->nin; i++) {
			const struct dlb_onnx_tensor *t = in_t(g, n, i);
			NEED(t && t->shape.known && t->shape.rank == x->rank, "input %d's shape is not known or of another rank", i);
			if (i)
				o.d[ax] += t->shape.d[ax];
			if (t->nvals > 0 && t->nvals == dlb_onnx_numel(&t->shape) && x->rank == 1 && nv + t->nvals <= MAX_VALS) {
				memcpy(v + nv, t->vals, (size_t)t->nvals * sizeof *v);
				nv += t->nvals;
			} else
				vals = 0;
		}
		out_shape(g, n, 0, &o);
		*err = out_vals(g, n, 0, v, vals ? nv : 0);
		return !*err;
	}
	if (!strcmp(op, "Shape")) { /* opset 15's start and end pick a slice of the dims */
		NEED(x, "its input's shape is not known");
		int64_t a = dlb_onnx_int(n, "start", 0), b = dlb_onnx_int(n, "end", x->rank);
		a = a < 0 ? a + x->rank : a;
		b = b < 0 ? b + x->rank : b;
		a = a < 0 ? 0 : a > x->rank ? x->rank : a;
		b = b < 0 ? 0 : b > x->rank ? x->rank : b;
		int64_t d[1] = {b > a ? b - a : 0};
		set_shape(&o, 1, d);
		out_shape(g, n, 0, &o);
		*err = out_vals(g, n, 0, x->d + a, (int)d[0]);
		return !*err;
	}
	if (!strcmp(op, "Gather")) {
		const struct dlb_onnx_tensor *xi = in_t(g, n, 0), *it = in_t(g, n, 1);
		NEED(x && w, "its inputs' shapes are not known");
		int ax = axis_of(dlb_onnx_int(n, "axis", 0), x->rank);
		NEED(ax >= 0 && ax < x->rank && x->rank + w->rank - 1 <= DLB_ONNX_MAX_RANK, "axis out of range");
		for (int i = 0; i < ax; i++)
			o.d[o.rank++] = x->d[i];
		for (int i = 0; i < w->rank; i++)
			o.d[o.rank++] = w->d[i];
		for (int i = ax + 1; i < x->rank; i++)
			o.d[o.rank++] = x->d[i];
		o.known = 1;
		out_shape(g, n, 0, &o);
		int nv = 0;
		if (x->rank == 1 && xi->nvals == x->d[0] && it->nvals > 0 && it->nvals == dlb_onnx_numel(w))
			for (int i = 0; i < it->nvals; i++) { /* a dim picked out of a Shape */
				int64_t k = it->vals[i] < 0 ? it->vals[i] + xi->nvals : it->vals[i];
				NEED(k >= 0 && k < xi->nvals, "index out of range");
				v[nv++] = xi->vals[k];
			}
		*err = out_vals(g, n, 0, v, nv);
		return !*err;
	}
	if (!strcmp(op, "Unsqueeze") || !strcmp(op, "Squeeze")) {
		int64_t ax[DLB_ONNX_MAX_RANK];
		int sq = op[0] == 'S', na = dlb_onnx_ints(n, "axes", ax, DLB_ONNX_MAX_RANK);
		const struct dlb_onnx_tensor *at = in_t(g, n, 1);
		NEED(x, "its input's shape is not known");
		if (na < 0 && at) { /* opset 13: axes as an input, which must be a known constant */
			NEED(at->nvals > 0 && at->nvals <= DLB_ONNX_MAX_RANK, "its axes are not a known constant");
			memcpy(ax, at->vals, (size_t)(na = at->nvals) * sizeof *ax);
		}
		int r = sq ? x->rank : x->rank + (na > 0 ? na : 0), keep[DLB_ONNX_MAX_RANK] = {0};
		NEED(r <= DLB_ONNX_MAX_RANK && (na > 0 || sq), "its axes are not known");
		for (int i = 0; i < na; i++) {
			int a = axis_of(ax[i], r);
			NEED(a >= 0 && a < r, "axis out of range");
			keep[a] = 1;
		}
		if (sq) {
			for (int i = 0; i < x->rank; i++)
				if (na > 0 ? !keep[i] : x->d[i] != 1)
					o.d[o.rank++] = x->d[i];
		} else {
			for (int i = 0, j = 0; i < r; i++)
				o.d[o.rank++] = keep[i] ? 1 : x->d[j++];
		}
		o.known = 1;
		out_shape(g, n, 0, &o);
		*err = out_vals(g, n, 0, in_t(g, n, 0)->vals, in_t(g, n, 0)->nvals);
		return !*err;
	}
	if (!strncmp(op, "Reduce", 6)) {
		int64_t ax[DLB_ONNX_MAX_RANK];
		int na = dlb_onnx_ints(n, "axes", ax, DLB_ONNX_MAX_RANK), kd = dlb_onnx_int(n, "keepdims", 1) != 0, red[DLB_ONNX_MAX_RANK] = {0};
		const struct dlb_onnx_tensor *at = in_t(g, n, 1);
		NEED(x, "its input's shape is not known");
		if (na < 0 && at) { /* opset 13 (ReduceSum) and 18: axes as an input, which must be a known constant */
			NEED(at->nvals > 0 && at->nvals <= DLB_ONNX_MAX_RANK, "its axes are not a known constant");
			memcpy(ax, at->vals, (size_t)(na = at->nvals) * sizeof *ax);
		}
		if (na <= 0 && dlb_onnx_int(n, "noop_with_empty_axes", 0))
			return out_shape(g, n, 0, x);
		for (int i = 0; i < x->rank; i++)
			red[i] = na <= 0;
		for (int i = 0; i < na; i++) {
			int a = axis_of(ax[i], x->rank);
			NEED(a >= 0 && a < x->rank, "axis out of range");
			red[a] = 1;
		}
		for (int i = 0; i < x->rank; i++)
			if (!red[i] || kd)
				o.d[o.rank++] = red[i] ? 1 : x->d[i];
		o.known = 1;
		return out_shape(g, n, 0, &o);
	}
	if (!strcmp(op, "Pad")) {
		int64_t p[2 * DLB_ONNX_MAX_RANK];
		const struct dlb_onnx_tensor *pt = in_t(g, n, 1);
		NEED(x, "its input's shape is not known");
		int np = dlb_onnx_ints(n, "pads", p, 2 * DLB_ONNX_MAX_RANK);
		if (np < 0 && pt && pt->nvals == 2 * x->rank)
			memcpy(p, pt->vals, (size_t)(np = pt->nvals) * sizeof *p);
		NEED(np == 2 * x->rank, "its pads are not known");
		o = *x;
		for (int i = 0; i < x->rank; i++) {
			o.d[i] += p[i] + p[i + x->rank];
			NEED(o.d[i] >= 0, "pads below zero");
		}
		return out_shape(g, n, 0, &o);
	}
	snprintf(n->why, sizeof n->why, "an op this reader does not infer");
	return 0;
#undef NEED
}

/* ---- loading ---- */

static int add_node(struct dlb_onnx_graph *g, struct table *tb, const Onnx__NodeProto *p, int idx)
{
	int rc = 0;
	struct dlb_onnx_node *n = &g->n[idx];
	if (!p || !p->op_type)
		DLB_FAIL(DLB_E_PARSE, "%s: node %d has no op_type", g->path, idx);
	if (!(n->op = strdup(p->op_type)) || !(n->name = strdup(p->name ? p->name : "")) ||
	    !(n->in = calloc(p->n_input + 1, sizeof *n->in)) || !(n->out = calloc(p->n_output + 1, sizeof *n->out)) ||
	    !(n->attr = calloc(p->n_attribute + 1, sizeof *n->attr)))
		DLB_FAIL(ENOMEM, "out of memory reading %s", g->path);
	for (size_t i = 0; i < p->n_attribute; i++) {
		if (!p->attribute[i])
			DLB_FAIL(DLB_E_PARSE, "%s: node %d (%s) has an empty attribute", g->path, idx, n->op);
		n->nattr++;
		if ((rc = copy_attr(p->attribute[i], &n->attr[i])) != 0)
			DLB_FAIL(rc, "%s: node %d (%s): attribute %zu: %s", g->path, idx, n->op, i,
				 rc == ENOMEM ? "out of memory" : "too many values");
	}
	for (size_t i = 0; i < p->n_input; i++) {
		const char *name = p->input[i] ? p->input[i] : "";
		n->in[n->nin++] = -1;
		if (!*name)
			continue; /* an omitted optional input */
		int k = find(tb, name);
		if (k < 0)
			DLB_FAIL(DLB_E_PARSE, "%s: node %d (%s) reads '%s', which no input, initializer or earlier node makes",
				 g->path, idx, n->op, name);
		n->in[n->nin - 1] = k;
	}
	for (size_t i = 0; i < p->n_output; i++) {
		const char *name = p->output[i] ? p->output[i] : "";
		n->out[n->nout++] = -1;
		if (!*name)
			continue;
		int k = get(tb, name);
		if (k < 0)
			DLB_FAIL(ENOMEM, "out of memory reading %s", g->path);
		n->out[n->nout - 1] = k;
	}
	int err = 0;
	n->inferred = infer(g, n, &err);
	if (err)
		DLB_FAIL(err, "out of memory reading %s", g->path);
fail:
	return rc;
}

/* A recorded shape against the inferred one (-1 dims match anything). */
static void check_recorded(struct dlb_onnx_graph *g, const struct dlb_onnx_tensor *t)
{
	const struct dlb_onnx_shape *r = &t->recorded, *s = &t->shape;
	if (!r->known || !s->known)
		return;
	int same = r->rank == s->rank;
	for (int i = 0; same && i < r->rank; i++)
		same = r->d[i] < 0 || r->d[i] == s->d[i];
	g->checked++;
	if (!same && g->mismatched++ == 0) {
		char a[56], b[56];
		dlb_onnx_shape_text(s, a, sizeof a);
		dlb_onnx_shape_text(r, b, sizeof b);
		snprintf(g->first_mismatch, sizeof g->first_mismatch, "'%.60s': inferred %.55s, recorded %.55s", t->name, a, b);
	}
}

int dlb_onnx_load_mem(const uint8_t *buf, size_t len, const char *path, int64_t batch, struct dlb_onnx_graph **out)
{
	int rc = 0;
	Onnx__ModelProto *m = NULL;
	struct table tb = {0};
	struct dlb_onnx_graph *g = calloc(1, sizeof *g);
	*out = NULL;
	if (!g || !(g->path = strdup(path)))
		DLB_FAIL(ENOMEM, "out of memory");
	tb.g = g;
	g->batch = batch;
	if (len > DLB_ONNX_MAX_BYTES)
		DLB_USER_FAIL(DLB_E_PARSE, "%s: larger than 2 GiB (external data is not read)", path);
	if (!(m = onnx__model_proto__unpack(NULL, len, buf)))
		DLB_USER_FAIL(DLB_E_PARSE, "%s: not an ONNX model (the protobuf does not parse as a ModelProto)", path);
	const Onnx__GraphProto *gp = m->graph;
	if (!gp)
		DLB_USER_FAIL(DLB_E_PARSE, "%s: an ONNX model without a graph", path);
	for (size_t i = 0; i < gp->n_initializer; i++) { /* weights: dims, and small int64 values */
		const Onnx__TensorProto *t = gp->initializer[i];
		int64_t v[MAX_VALS];
		if (!t || !t->name || t->n_dims > DLB_ONNX_MAX_RANK)
			DLB_USER_FAIL(DLB_E_PARSE, "%s: initializer %zu has no name or a rank over %d", path, i, DLB_ONNX_MAX_RANK);
		int k = get(&tb, t->name);
		if (k < 0)
			DLB_FAIL(ENOMEM, "out of memory reading %s", path);
		if (!set_shape(&g->t[k].shape, (int)t->n_dims, t->dims))
			DLB_USER_FAIL(DLB_E_PARSE, "%s: initializer '%s' has a negative dim", path, t->name);
		g->t[k].is_weight = 1;
		g->t[k].elem_type = t->has_data_type ? t->data_type : 0;
		if ((rc = keep_vals(&g->t[k], v, tensor_vals(t, v))) != 0)
			DLB_FAIL(rc, "out of memory reading %s", path);
	}
	for (size_t i = 0; i < gp->n_input; i++) { /* the graph's inputs (an initializer's shape stays) */
		const Onnx__ValueInfoProto *vi = gp->input[i];
		if (!vi || !vi->name)
			DLB_USER_FAIL(DLB_E_PARSE, "%s: graph input %zu has no name", path, i);
		int k = get(&tb, vi->name);
		if (k < 0)
			DLB_FAIL(ENOMEM, "out of memory reading %s", path);
		if (g->t[k].is_weight)
			continue;
		shape_of_type(vi->type, batch, &g->t[k].shape, &g->t[k].elem_type);
		for (int d = 0; d < g->t[k].shape.rank; d++)
			if (g->t[k].shape.d[d] < 0)
				g->t[k].shape.known = 0; /* a symbolic dim other than the batch: not known */
	}
	if (gp->n_node > 1000000)
		DLB_USER_FAIL(DLB_E_PARSE, "%s: %zu nodes", path, gp->n_node);
	if (!(g->n = calloc(gp->n_node + 1, sizeof *g->n)))
		DLB_FAIL(ENOMEM, "out of memory reading %s", path);
	for (size_t i = 0; i < gp->n_node; i++) {
		g->nnodes++;
		DLB_CHECK(add_node(g, &tb, gp->node[i], (int)i));
	}
	for (int pass = 0; pass < 2; pass++) { /* the shapes the model records: value_info, then the outputs */
		size_t nv = pass ? gp->n_output : gp->n_value_info;
		Onnx__ValueInfoProto **vis = pass ? gp->output : gp->value_info;
		for (size_t i = 0; i < nv; i++) {
			if (!vis[i] || !vis[i]->name)
				continue;
			int k = find(&tb, vis[i]->name);
			if (k < 0) {
				if (pass)
					DLB_USER_FAIL(DLB_E_PARSE, "%s: graph output '%s' is made by no node", path, vis[i]->name);
				continue;
			}
			shape_of_type(vis[i]->type, batch, &g->t[k].recorded, NULL);
			check_recorded(g, &g->t[k]);
		}
	}
	*out = g;
	g = NULL;
fail:
	if (m)
		onnx__model_proto__free_unpacked(m, NULL);
	free(tb.slot);
	dlb_onnx_free(g);
	return rc;
}

int dlb_onnx_load(const char *path, int64_t batch, struct dlb_onnx_graph **out)
{
	int rc = 0;
	FILE *f = NULL;
	uint8_t *buf = NULL;
	struct stat st;
	*out = NULL;
	if (!(f = fopen(path, "rb")))
		DLB_USER_FAIL(DLB_E_USAGE, "cannot open %s: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode))
		DLB_USER_FAIL(DLB_E_USAGE, "%s: not a file", path);
	if (fseek(f, 0, SEEK_END))
		DLB_USER_FAIL(DLB_E_PARSE, "cannot read %s: %s", path, strerror(errno));
	long len = ftell(f);
	if (len < 0 || (size_t)len > DLB_ONNX_MAX_BYTES)
		DLB_USER_FAIL(DLB_E_PARSE, "%s: %s", path, len < 0 ? strerror(errno) : "larger than 2 GiB (external data is not read)");
	rewind(f);
	if (!(buf = malloc((size_t)len + 1)))
		DLB_FAIL(ENOMEM, "out of memory for %s (%ld bytes)", path, len);
	if (len && fread(buf, 1, (size_t)len, f) != (size_t)len)
		DLB_USER_FAIL(DLB_E_PARSE, "%s: short read", path);
	rc = dlb_onnx_load_mem(buf, (size_t)len, path, batch, out);
fail:
	free(buf);
	if (f)
		fclose(f);
	return rc;
}


void dlb_onnx_free(struct dlb_onnx_graph *g)
{
	if (!g)
		return;
	for (int i = 0; i < g->ntensors; i++) {
		free(g->t[i].name);
		free(g->t[i].vals);
	}
	for (int i = 0; i < g->nnodes; i++) {
		struct dlb_onnx_node *n = &g->n[i];
		for (int a = 0; a < n->nattr; a++) {
			free(n->attr[a].name);
			free(n->attr[a].ints);
			free(n->attr[a].s);
			free(n->attr[a].t_vals);
		}
		free(n->attr);
		free(n->op);
		free(n->name);
		free(n->in);
		free(n->out);
	}
	free(g->t);
	free(g->n);
	free(g->path);
	free(g);
}
