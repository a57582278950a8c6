/* onnx: an ONNX model's graph with every tensor's shape — read with protobuf-c (onnx.pb-c.c, generated at build
 * time from the onnx.proto of Debian's libonnx-dev) and inferred node by node for the ops it knows, then checked
 * against the shapes the model records (value_info and graph outputs). Weights are never read, only their dims
 * (and the small int64 tensors that give Reshape its shape). ONNX's semantics only: which of these ops dlbtune
 * tunes is for the ops' families to say. */
#ifndef DLB_ONNX_H
#define DLB_ONNX_H
#include <stddef.h>
#include <stdint.h>

#define DLB_ONNX_MAX_RANK 8
#define DLB_ONNX_MAX_BYTES ((size_t)2 << 30) /* a model file larger than this is refused */

struct dlb_onnx_shape {
	int known; /* 0: not known (an op this reader does not infer, or an input of unknown shape) */
	int rank;
	int64_t d[DLB_ONNX_MAX_RANK];
};

struct dlb_onnx_tensor {
	char *name;
	struct dlb_onnx_shape shape;
	int elem_type;               /* ONNX's TensorProto.DataType; 0: not known */
	int is_weight;               /* an initializer (or a Constant's output) */
	int64_t *vals;               /* its int64 values where it is a small constant (Reshape's shape), else NULL */
	int nvals;
	struct dlb_onnx_shape recorded; /* the shape the model records for it (known = 0: none) */
};

struct dlb_onnx_attr; /* an attribute as the reader keeps it (src/onnx.c) */

struct dlb_onnx_node {
	char *op, *name;
	int nin, nout;
	int *in, *out; /* tensor indices; -1 for an omitted optional input */
	int nattr;
	struct dlb_onnx_attr *attr;
	int inferred;  /* 1: its outputs' shapes were inferred; 0: not (why says so) */
	char why[96];
};

struct dlb_onnx_graph {
	char *path;
	int ntensors, nnodes;
	struct dlb_onnx_tensor *t;
	struct dlb_onnx_node *n; /* in the file's order (ONNX requires a topological one) */
	int64_t batch;           /* the size given to symbolic leading dims of the graph's inputs (0: none given) */
	int checked, mismatched; /* recorded shapes compared with inferred ones, and those that differed */
	char first_mismatch[256];
};

/* Read the model at path; symbolic first dims of its inputs become batch (> 0), or the file's own value where
 * it has one. A file that is not an ONNX model, or one that does not hold together (a node reading a tensor no
 * one makes, dims out of range), is DLB_E_PARSE with the reason: never a crash. */
int dlb_onnx_load(const char *path, int64_t batch, struct dlb_onnx_graph **out);
/* The same from len bytes in memory; path names them in messages. */
int dlb_onnx_load_mem(const uint8_t *buf, size_t len, const char *path, int64_t batch, struct dlb_onnx_graph **out);
void dlb_onnx_free(struct dlb_onnx_graph *g);

/* A node's integer attribute(s): the count stored into v[0..max) (1 for a single int), or -1 when absent. */
int dlb_onnx_ints(const struct dlb_onnx_node *n, const char *name, int64_t *v, int max);
/* A node's integer attribute, dflt when absent. */
int64_t dlb_onnx_int(const struct dlb_onnx_node *n, const char *name, int64_t dflt);
/* The name of a node's attribute i (0 .. nattr-1). */
const char *dlb_onnx_attr_name(const struct dlb_onnx_node *n, int i);
/* A node's string attribute into buf ("" when absent): 1 when present. */
int dlb_onnx_str(const struct dlb_onnx_node *n, const char *name, char *buf, size_t len);
/* "1x64x56x56" (or "?" where not known). */
void dlb_onnx_shape_text(const struct dlb_onnx_shape *s, char *buf, size_t len);
/* Elements of a known shape; -1 when not known or over int64. */
int64_t dlb_onnx_numel(const struct dlb_onnx_shape *s);
#endif
