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
	void *cubin;
	size_t cubin_size;
	char *log;
	int nkernels;
	struct dlb_kernel_report kernels[DLB_JIT_MAX_KERNELS];
	double seconds;
};

/* prefix (the op's fixed defines, may be NULL) + "#define A 1\n#define B 2\n" + template; caller frees. */
char *dlb_jit_source(const char *prefix, const char *const *names, const int *values, int n,
		     const char *template_text);
int dlb_jit_compile(struct dlb_jit_job *job);
/* Compile jobs[0..n) on `threads` threads (0: one per core); progress(i_done, n, arg) after each. */
void dlb_jit_compile_many(struct dlb_jit_job *jobs, int n, int threads, void (*progress)(int, int, void *),
			  void *arg);
/* The same in a child process, the results copied back: NVRTC loads parts of the CUDA driver, and a process
 * that has run it cannot fork a worker that initializes CUDA (cudaErrorInitializationError on the H200
 * machines, docs/NOTES.md), so the parent that supervises workers never runs NVRTC itself. A compiler that
 * crashes leaves its unfinished jobs with DLB_E_NVRTC and the reason in their log. 0; DLB_E_INTERRUPTED after
 * SIGINT / SIGTERM (the child, which ignores them, is killed; its unfinished jobs say so); or an errno when
 * no child could be started. */
int dlb_jit_compile_isolated(struct dlb_jit_job *jobs, int n, int threads, void (*progress)(int, int, void *),
			     void *arg);
void dlb_jit_job_free(struct dlb_jit_job *job);
/* Parse ptxas -v text into reports; returns the count. */
int dlb_jit_parse_ptxas(const char *log, struct dlb_kernel_report *out, int max);
uint64_t dlb_hash64(const void *data, size_t len);
#endif
