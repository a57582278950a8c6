/* worker: the GPU side of a tuning run, in its own process (src/supervise.c). It opens the device, sets up
 * one problem at a time, loads candidates on first use, and answers one request at a time: the variants of a
 * candidate, a verification run, a timing, the vendor baselines. The suite and the candidates are the
 * parent's, inherited through fork, and named by index; a candidate compiled after the fork comes with
 * DLB_W_CUBIN before it is first used. */
#ifndef DLB_WORKER_H
#define DLB_WORKER_H
#include "bench.h"
#include "op.h"
#include "result.h"
#include "suite.h"
#include "verify.h"

enum dlb_wreq {
	DLB_W_HELLO = 1, /* → struct dlb_w_hello */
	DLB_W_PROBLEM,   /* struct dlb_w_index (problem) → nothing */
	DLB_W_VARIANTS,  /* struct dlb_w_cand (variant unused) → struct dlb_w_variants */
	DLB_W_VERIFY,    /* struct dlb_w_cand → struct dlb_w_verified */
	DLB_W_SAMPLES,   /* struct dlb_w_sample_req → struct dlb_w_samples */
	DLB_W_VENDOR,    /* struct dlb_bench_opts → struct dlb_w_vendor */
	DLB_W_LAUNCHES,  /* → uint64_t: kernels this worker launched */
	DLB_W_PAIRED,    /* struct dlb_w_paired_req → struct dlb_w_paired (after DLB_W_VENDOR on the problem) */
	DLB_W_CUBIN,     /* struct dlb_w_cand (variant unused) + the candidate's cubin → nothing */
};

struct dlb_w_hello {
	struct dlb_device dev; /* dev.stream is the worker's: meaningless in the parent */
	size_t free_mem;
	int count; /* the GPUs this process sees */
};
struct dlb_w_index {
	int index;
};
struct dlb_w_cand {
	int cand, variant;
};
#define DLB_W_MAX_VARIANTS 12
struct dlb_w_variants {
	int n;
	int values[DLB_W_MAX_VARIANTS];
};
struct dlb_w_verified {
	struct dlb_check chk;
	double seconds; /* the verification run, poison and compare included */
};
/* k timing samples of a candidate (see dlb_bench_samples): reps 0 on its first request, then the reps the
 * first reply gave; first counts the samples taken before. */
#define DLB_W_MAX_SAMPLES 64
struct dlb_w_sample_req {
	struct dlb_w_cand c;
	struct dlb_bench_opts opts;
	int reps, first, k;
};
struct dlb_w_samples {
	int reps, n;
	double us[DLB_W_MAX_SAMPLES];
};
struct dlb_w_vendor {
	int n;
	struct dlb_vendor_entry e[DLB_RESULT_MAX_VENDOR];
};

/* n samples of a candidate and of vendor entry `entry` (an index into the last DLB_W_VENDOR reply), taken
 * in pairs back to back; sample i of both reads the same input sets, with the same launches per sample. */
struct dlb_w_paired_req {
	struct dlb_w_cand c;
	int entry, n;
	struct dlb_bench_opts opts;
	double power_ms; /* > 0: then each one's energy burst of about this long (dlb_bench_energy) */
};
struct dlb_w_paired { /* pair i: the candidate's sample first when i is even, the vendor's when odd */
	int n, reps;
	double tuned[DLB_PAIRED_MAX], vendor[DLB_PAIRED_MAX];
	struct dlb_energy e_tuned, e_vendor; /* calls 0: not measured, power_why says why */
	char power_why[160];
	struct dlb_rel_err rel_err; /* the candidate's accuracy (op->accuracy after one more verify); n 0: none */
};

/* What a worker works on: set before it is started. cand may be NULL (a worker that only says hello). */
struct dlb_worker_ctx {
	int ordinal;
	const struct dlb_op *op;
	const struct dlb_suite *suite;
	struct dlb_candidate *cand;
	int ncand;
	const struct dlb_device *dev; /* the parent's copy of the worker's device facts (parent side only) */
};

/* The worker's main loop (a dlb_worker_fn). A sticky CUDA error is replied, then the worker exits: its
 * context is poisoned and the parent starts another. */
int dlb_worker_main(int in_fd, int out_fd, void *ctx);
#endif
