/* jit: NVRTC. A failed compile is a result (rc + log), not a crash: the search stores it and goes on. */
#include "jit.h"

#include "supervise.h"

#include "err.h"

#include <errno.h>
#include <nvrtc.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

uint64_t dlb_hash64(const void *data, size_t len)
{
	/* FNV-1a: stable across machines and builds, which is all a cache key needs. */
	const unsigned char *p = data;
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 1099511628211ULL;
	}
	return h;
}

char *dlb_jit_source(const char *prefix, const char *const *names, const int *values, int n, const char *template_text)
{
	if (!prefix)
		prefix = "";
	size_t len = strlen(prefix) + strlen(template_text) + 1;
	for (int i = 0; i < n; i++)
		len += strlen(names[i]) + 32;
	char *s = malloc(len);
	if (!s)
		return NULL;
	size_t off = (size_t)snprintf(s, len, "%s", prefix);
	for (int i = 0; i < n; i++)
		off += (size_t)snprintf(s + off, len - off, "#define %s %d\n", names[i], values[i]);
	memcpy(s + off, template_text, strlen(template_text) + 1);
	return s;
}

int dlb_jit_parse_ptxas(const char *log, struct dlb_kernel_report *out, int max)
{
	int n = -1;
	const char *p = log;
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[512];
		if (len >= sizeof line)
			len = sizeof line - 1;
		memcpy(line, p, len);
		line[len] = 0;
		p = eol ? eol + 1 : NULL;

		const char *fp = strstr(line, "Function properties for ");
		if (fp) {
			if (n + 1 >= max)
				break;
			n++;
			memset(&out[n], 0, sizeof out[n]);
			sscanf(fp, "Function properties for %63s", out[n].name);
			continue;
		}
		if (n < 0)
			continue;
		if (strstr(line, "bytes stack frame"))
			sscanf(line, " %d bytes stack frame, %d bytes spill stores, %d bytes spill loads",
			       &out[n].stack_bytes, &out[n].spill_stores, &out[n].spill_loads);
		const char *used = strstr(line, "Used ");
		if (used) {
			sscanf(used, "Used %d registers", &out[n].registers);
			/* "..., 8192 bytes smem, ...": the number just before "bytes smem" */
			const char *smem = strstr(used, " bytes smem");
			if (smem) {
				const char *b = smem;
				while (b > used && b[-1] >= '0' && b[-1] <= '9')
					b--;
				out[n].smem_bytes = atoi(b);
			}
		}
	}
	return n + 1;
}

int dlb_jit_compile(struct dlb_jit_job *job)
{
	int rc = 0;
	nvrtcProgram prog = NULL;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	job->rc = 0;
	job->cubin = NULL;
	job->log = NULL;
	job->nkernels = 0;
	char archopt[64];
	snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", job->arch);
	const char *opts[] = {archopt, "-std=c++17", "--ptxas-options=-v", "-default-device", "-DNDEBUG"};
	NVRTC_CHECK(nvrtcCreateProgram(&prog, job->source, "candidate.cu", 0, NULL, NULL));
	nvrtcResult cr = nvrtcCompileProgram(prog, (int)(sizeof opts / sizeof opts[0]), opts);
	size_t loglen = 0;
	NVRTC_CHECK(nvrtcGetProgramLogSize(prog, &loglen));
	job->log = malloc(loglen + 1);
	if (!job->log)
		DLB_FAIL(ENOMEM, "out of memory for the NVRTC log");
	NVRTC_CHECK(nvrtcGetProgramLog(prog, job->log));
	job->log[loglen] = 0;
	if (cr != NVRTC_SUCCESS)
		DLB_FAIL(DLB_E_NVRTC, "nvrtcCompileProgram: %s", nvrtcGetErrorString(cr));
	NVRTC_CHECK(nvrtcGetCUBINSize(prog, &job->cubin_size));
	job->cubin = malloc(job->cubin_size);
	if (!job->cubin)
		DLB_FAIL(ENOMEM, "out of memory for a cubin");
	NVRTC_CHECK(nvrtcGetCUBIN(prog, job->cubin));
	job->nkernels = dlb_jit_parse_ptxas(job->log, job->kernels, DLB_JIT_MAX_KERNELS);
fail:
	if (prog)
		(void)nvrtcDestroyProgram(&prog); /* teardown */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	job->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	job->rc = rc;
	return rc;
}

struct pool {
	struct dlb_jit_job *jobs;
	int n;
	_Atomic int next, done;
	pthread_mutex_t lock;
	void (*progress)(int, int, void *);
	void *arg;
};

static void *pool_worker(void *p)
{
	struct pool *pl = p;
	for (;;) {
		int i = atomic_fetch_add(&pl->next, 1);
		if (i >= pl->n)
			return NULL;
		dlb_jit_compile(&pl->jobs[i]);
		int d = atomic_fetch_add(&pl->done, 1) + 1;
		if (pl->progress) {
			pthread_mutex_lock(&pl->lock);
			pl->progress(d, pl->n, pl->arg);
			pthread_mutex_unlock(&pl->lock);
		}
	}
}

void dlb_jit_compile_many(struct dlb_jit_job *jobs, int n, int threads, void (*progress)(int, int, void *),
			  void *arg)
{
	if (threads <= 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		threads = c > 0 ? (int)c : 1;
	}
	if (threads > 64)
		threads = 64;
	if (threads > n)
		threads = n;
	struct pool pl = {.jobs = jobs, .n = n, .progress = progress, .arg = arg};
	pthread_mutex_init(&pl.lock, NULL);
	pthread_t tid[64];
	int started = 0;
	for (int t = 0; t < threads; t++)
		if (pthread_create(&tid[t], NULL, pool_worker, &pl) == 0)
			started++;
	if (started == 0)
		pool_worker(&pl); /* no threads to be had: compile here */
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_mutex_destroy(&pl.lock);
}

void dlb_jit_job_free(struct dlb_jit_job *job)
{
	free(job->cubin);
	free(job->log);
	job->cubin = NULL;
	job->log = NULL;
}

/* One job's results as a message: this fixed part, then the cubin, then the log. */
struct job_wire {
	size_t cubin_size, log_len;
	int nkernels;
	struct dlb_kernel_report kernels[DLB_JIT_MAX_KERNELS];
	double seconds;
};

static int send_job(int fd, int i, const struct dlb_jit_job *j)
{
	struct job_wire w = {j->cubin ? j->cubin_size : 0, j->log ? strlen(j->log) : 0, j->nkernels, {{{0}}}, j->seconds};
	memcpy(w.kernels, j->kernels, sizeof w.kernels);
	size_t len = sizeof w + w.cubin_size + w.log_len;
	char *buf = malloc(len);
	if (!buf)
		return -1;
	memcpy(buf, &w, sizeof w);
	if (w.cubin_size)
		memcpy(buf + sizeof w, j->cubin, w.cubin_size);
	if (w.log_len)
		memcpy(buf + sizeof w + w.cubin_size, j->log, w.log_len);
	int rc = dlb_msg_write(fd, (uint32_t)i, j->rc, buf, (uint32_t)len);
	free(buf);
	return rc;
}

static int take_job(const struct dlb_reply *m, struct dlb_jit_job *j)
{
	struct job_wire w;
	if (m->len < sizeof w)
		return -1;
	memcpy(&w, m->payload, sizeof w);
	if (sizeof w + w.cubin_size + w.log_len != m->len)
		return -1;
	j->rc = m->rc;
	j->nkernels = w.nkernels;
	memcpy(j->kernels, w.kernels, sizeof w.kernels);
	j->seconds = w.seconds;
	if (w.cubin_size && !(j->cubin = malloc(w.cubin_size)))
		return -1;
	memcpy(j->cubin, (char *)m->payload + sizeof w, w.cubin_size);
	j->cubin_size = w.cubin_size;
	if (!(j->log = malloc(w.log_len + 1)))
		return -1;
	memcpy(j->log, (char *)m->payload + sizeof w + w.cubin_size, w.log_len);
	j->log[w.log_len] = 0;
	return 0;
}

int dlb_jit_compile_isolated(struct dlb_jit_job *jobs, int n, int threads, void (*progress)(int, int, void *),
			     void *arg)
{
	int fds[2];
	if (pipe(fds))
		return errno;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(fds[0]);
		close(fds[1]);
		return e;
	}
	if (pid == 0) { /* the compiler process: its end is the process's, so _exit */
		close(fds[0]);
		signal(SIGINT, SIG_IGN);
		dlb_jit_compile_many(jobs, n, threads, progress, arg);
		for (int i = 0; i < n; i++)
			if (send_job(fds[1], i, &jobs[i]))
				_exit(1);
		_exit(0);
	}
	close(fds[1]);
	int got = 0;
	struct dlb_reply m;
	while (got < n && dlb_msg_read(fds[0], &m) == 0) {
		int taken = m.type == (uint32_t)got && take_job(&m, &jobs[got]) == 0;
		dlb_reply_free(&m);
		if (!taken)
			break;
		got++;
	}
	close(fds[0]);
	int st = 0, interrupted = dlb_interrupted != 0;
	if (interrupted) /* Ctrl-C or TERM: the compiler process ignores them (see above), so it is ended here */
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	for (int i = got; i < n; i++) { /* what the compiler process did not return */
		char why[128];
		if (interrupted)
			snprintf(why, sizeof why, "interrupted before it was compiled");
		else if (WIFSIGNALED(st))
			snprintf(why, sizeof why, "the compiler process was killed by signal %d (%s)", WTERMSIG(st),
				 strsignal(WTERMSIG(st)));
		else
			snprintf(why, sizeof why, "the compiler process ended (status %d) before returning this job",
				 WEXITSTATUS(st));
		dlb_jit_job_free(&jobs[i]);
		jobs[i].rc = DLB_E_NVRTC;
		jobs[i].log = strdup(why);
	}
	return interrupted ? DLB_E_INTERRUPTED : 0;
}
