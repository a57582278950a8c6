/* problem: what is tuned — an op, a precision and the values of the op's dimensions — with the dimension
 * declarations every op family makes, and everything generic code does with them: parse a value from the
 * command line or a suite, write the key's layout and shape text and read it back, pad, compare. */
#ifndef DLB_PROBLEM_H
#define DLB_PROBLEM_H
#include <stdint.h>

enum dlb_prec { DLB_PREC_FP32, DLB_PREC_FP16, DLB_PREC_INT8, DLB_PREC_COUNT };

struct dlb_op;
struct dlb_family;

#define DLB_MAX_DIMS 16

/* Largest size accepted: the vendors' 32-bit interfaces and our grid arithmetic stay safe below it. */
#define DLB_MAX_DIM (((int64_t)1 << 31) - 1)

enum dlb_dim_kind {
	DLB_DIM_SIZE,   /* an integer in [lo, hi]: part of the key's shape, "MxNxK" */
	DLB_DIM_CHOICE, /* one of names[]: part of the key's layout (the names of the choices, concatenated) */
	DLB_DIM_REAL,   /* a number in [lo, hi] / scale, stored as an integer count of 1/scale: part of the shape */
};

/* One dimension of an op's problem. Its name is the option (--NAME), the JSON field and, unless csv says
 * otherwise, the suite column. */
struct dlb_dim {
	const char *name;  /* "m" */
	const char *csv;   /* suite column when not name (DeepBench's own column names), else NULL */
	const char *title; /* column title in tables ("M") */
	int width;         /* its width in the text table (0: 7) */
	const char *about; /* for --help: "rows of C and of op(A)" */
	enum dlb_dim_kind kind;
	int64_t lo, hi;    /* SIZE and REAL (in units of 1/scale) */
	int64_t scale;     /* REAL: units per 1 (e.g. 10000: 0.9 is stored as 9000); 0 otherwise */
	int has_default;   /* may be left out of the command line and of a suite; then def */
	int64_t def;
	int pad;           /* SIZE: rounded up to the precision's multiple (int8: 4) before running */
	const char *const *names; /* CHOICE: value i's name ("N", "T"); the input may also give i itself */
	int nnames;
};

struct dlb_problem {
	const struct dlb_op *op;
	enum dlb_prec prec;
	int64_t dim[DLB_MAX_DIMS]; /* in the order of the family's dims */
	int line;                  /* line in the suite file it came from; 0 for the command line */
};

const char *dlb_prec_name(enum dlb_prec p);
/* 0 and *out set, or DLB_E_USAGE for an unknown name. */
int dlb_prec_parse(const char *s, enum dlb_prec *out);
/* What a precision means, in the words of --help and of the table headers. */
struct dlb_prec_info {
	const char *name;  /* "fp16" */
	const char *about; /* what it computes: "half A, B, C; fp32 accumulation (...)" */
	const char *unit;  /* of its compute throughput: "TFLOP/s", "TOPS" */
	const char *peak;  /* what its compute %peak is a share of (the device's SM count x clock x rate per SM) */
	int pad_to;        /* dims declared pad run as multiples of this (1: unpadded) */
};
/* The facts of p; those of fp32 for a value out of range. */
const struct dlb_prec_info *dlb_prec_info(enum dlb_prec p);

/* The dims a problem actually runs with: dims declared pad are rounded up to the precision's pad_to
 * (DeepBench's int8 rule: the inputs are padded once and the padded problem is timed). run[] gets every dim;
 * returns 1 when any changed. Derived from the precision and shape alone, so a stored result needs no field. */
int dlb_problem_padded(const struct dlb_problem *p, int64_t run[DLB_MAX_DIMS]);
/* "M, N and K": the titles of the dims that pad, for the notes under padded rows. */
void dlb_padded_titles(const struct dlb_family *f, char *buf, int len);

/* One dim's value as text ("35", "T", "0.9000") and back. parse: 0, or DLB_E_USAGE with the reason in
 * dlb_last_error() ("--ta '2': expected 0 or 1, or N or T"); where names the value in the message. */
void dlb_dim_format(const struct dlb_dim *d, int64_t v, char *buf, int len);
int dlb_dim_parse(const struct dlb_dim *d, const char *where, const char *s, int64_t *out);
/* What a dim accepts, for messages and --help: "1..2147483647", "0 or 1, or N or T". */
void dlb_dim_range(const struct dlb_dim *d, char *buf, int len);

/* The key's layout text (CHOICE dims' names concatenated: "NT"; "-" when the op has none) and shape text
 * (SIZE and REAL dims joined by 'x': "35x700x2048"), as stored in every key. */
void dlb_problem_layout(const struct dlb_problem *p, char *buf, int len);
void dlb_problem_shape(const struct dlb_problem *p, char *buf, int len);
/* The same of a family's dim values. */
void dlb_layout_text(const struct dlb_family *f, const int64_t *dim, char *buf, int len);
void dlb_shape_text(const struct dlb_family *f, const int64_t *dim, char *buf, int len);
/* The command-line options that give this problem: "--m 35 --n 700 --k 2048 --layout NN". */
void dlb_problem_options(const struct dlb_family *f, const int64_t *dim, char *buf, int len);
/* The shape run (padded) as text, in the same form. */
void dlb_problem_shape_run(const struct dlb_problem *p, char *buf, int len);
/* Whether f has CHOICE dims (a layout). */
int dlb_family_has_layout(const struct dlb_family *f);
/* Set the CHOICE dims of p from a layout text (case-insensitive); DLB_E_USAGE when it names none. */
int dlb_layout_parse(const struct dlb_family *f, const char *s, int64_t dim[DLB_MAX_DIMS]);
/* The layouts of f, "NN, NT, TN, TT", for messages. */
void dlb_layout_names(const struct dlb_family *f, char *buf, int len);
/* p's dims from a key's layout and shape text (p->op set); DLB_E_PARSE when they do not fit the op. */
int dlb_problem_from_text(struct dlb_problem *p, const char *layout, const char *shape);
/* "1760x16x1760 NN": the shape and the layout, for progress lines and messages. */
void dlb_problem_describe(const struct dlb_problem *p, char *buf, int len);
/* Whether a and b are the same problem (op family, precision aside, and every dim). */
int dlb_problem_same_dims(const struct dlb_problem *a, const struct dlb_problem *b);

/* Strict positive integer in [1, DLB_MAX_DIM]: no sign, no suffix, no overflow. */
int dlb_parse_dim(const char *s, int64_t *out);
#endif
