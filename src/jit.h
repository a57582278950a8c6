/* jit: NVRTC compilation of a template plus "#define NAME value" lines into a cubin, with the ptxas report. */
#ifndef DLB_JIT_H
#define DLB_JIT_H
#include <stddef.h>
#include <stdint.h>

#define DLB_JIT_MAX_KERNELS 8

struct dlb_kernel_report { /* from ptxas -v */
	char name[64];
	int registers, stack_bytes, spill_stores, spill_loads, smem_bytes;
};

struct dlb_jit_job {
	/* in */
	const char *source; /* full source: defines + template */
	const char *arch;   /* "sm_90a" */
	/* out */
	int rc;             /* 0 ok, DLB_E_NVRTC on a compile error (log says why) */
	int verdict;        /* 1: NVRTC judged the source (rc 0, or a compile error it would repeat); 0: the job
	                     * failed for another reason (memory, the compiler process died, an interrupt) */
	void *cubin;
	size_t cubin_size;
	char *log;
	int nkernels;
	struct dlb_kernel_report kernels[DLB_JIT_MAX_KERNELS];
	double seconds;
};

/* prefix (the op's fixed defines, may be NULL) + "#define A 1\n#define B 2\n": the define block; caller frees. */
char *dlb_jit_defines(const char *prefix, const char *const *names, const int *values, int n);
/* The define block + template: the whole source; caller frees. */
char *dlb_jit_source(const char *prefix, const char *const *names, const int *values, int n,
		     const char *template_text);
int dlb_jit_compile(struct dlb_jit_job *job);
/* The options every compile gets besides --gpu-architecture, as one line. */
const char *dlb_jit_options(void);
/* Whether this NVRTC compiles for sm_<sm> (its nvrtcGetSupportedArchs list); *lo and *hi get the list's
 * first and last (0 when NVRTC cannot say). Needs no GPU. */
int dlb_jit_arch_supported(int sm, int *lo, int *hi);

/* The compiler process. NVRTC loads parts of the CUDA driver, and a process that has run it cannot fork a
 * worker that initializes CUDA (cudaErrorInitializationError on the H200 machines, docs/NOTES.md), so the
 * parent that supervises GPU workers never runs NVRTC itself: a child does, on `threads` threads (0: one per
 * core), at a lower priority than the GPU worker. It compiles jobs named by id, 0 <= id < n, building each
 * source with source(arg, id) in the child (on the parent's data as it was at the fork; the source is
 * malloc'd), in the order the parent wants them; it says when it starts one and sends each result as it
 * finishes. A job that crashes NVRTC takes the process with it: the parent learns which jobs were in flight. */
typedef char *(*dlb_jit_source_fn)(void *arg, int id);
struct dlb_jit_server {
	int pid, to, from, threads;
	char compiler[64]; /* what compiles, for the kernel cache's key: "nvrtc=13.0/109338064" (version/library size) */
	char why[160];     /* how the process ended, when it died */
};
int dlb_jit_server_start(struct dlb_jit_server *s, int threads, const char *arch, int n, dlb_jit_source_fn source,
			 void *arg);
/* The ids wanted, most wanted first: they replace the queue of jobs not yet started (started ones finish). */
int dlb_jit_server_want(struct dlb_jit_server *s, const int *ids, int n);
/* One id wanted now: first in the queue, unless started already. */
int dlb_jit_server_urgent(struct dlb_jit_server *s, int id);
enum dlb_jit_event_kind { DLB_JIT_STARTED = 1, DLB_JIT_DONE };
struct dlb_jit_event {
	enum dlb_jit_event_kind kind;
	int id;
	struct dlb_jit_job job; /* DONE: the result (outputs only; the caller frees them) */
};
/* The next event, waiting up to timeout_s (< 0: no limit): 0; DLB_E_NOTFOUND when none came; DLB_E_INTERRUPTED;
 * DLB_E_NVRTC when the process died (s->why says how; it is reaped, jobs it had started are lost). */
int dlb_jit_server_take(struct dlb_jit_server *s, double timeout_s, struct dlb_jit_event *ev);
/* Ask it to quit and reap it; jobs in flight are abandoned. */
void dlb_jit_server_stop(struct dlb_jit_server *s);

/* A batch of jobs (source and arch set) through a compiler process, the results copied back; progress(done, n,
 * arg) after each. Jobs a crashed compiler did not return have DLB_E_NVRTC and the reason in their log.
 * 0; DLB_E_INTERRUPTED after SIGINT / SIGTERM; or an error when no compiler process could be started. */
int dlb_jit_compile_isolated(struct dlb_jit_job *jobs, int n, int threads, void (*progress)(int, int, void *),
			     void *arg);
void dlb_jit_job_free(struct dlb_jit_job *job);
/* Parse ptxas -v text into reports; returns the count. */
int dlb_jit_parse_ptxas(const char *log, struct dlb_kernel_report *out, int max);
uint64_t dlb_hash64(const void *data, size_t len);
#endif
