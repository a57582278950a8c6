/* jit: NVRTC. A failed compile is a result (rc + log), not a crash: the search stores it and goes on. */
#define _GNU_SOURCE /* dladdr, pipe2 */
#include "jit.h"

#include "supervise.h"

#include "err.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <nvrtc.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
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

char *dlb_jit_defines(const char *prefix, const char *const *names, const int *values, int n)
{
	if (!prefix)
		prefix = "";
	size_t len = strlen(prefix) + 1;
	for (int i = 0; i < n; i++)
		len += strlen(names[i]) + 32;
	char *s = malloc(len);
	if (!s)
		return NULL;
	size_t off = (size_t)snprintf(s, len, "%s", prefix);
	for (int i = 0; i < n; i++)
		off += (size_t)snprintf(s + off, len - off, "#define %s %d\n", names[i], values[i]);
	return s;
}

char *dlb_jit_source(const char *prefix, const char *const *names, const int *values, int n, const char *template_text)
{
	char *d = dlb_jit_defines(prefix, names, values, n);
	if (!d)
		return NULL;
	size_t a = strlen(d), b = strlen(template_text);
	char *s = realloc(d, a + b + 1);
	if (!s) {
		free(d);
		return NULL;
	}
	memcpy(s + a, template_text, b + 1);
	return s;
}

/* Every option but the target: the kernel cache's keys name them all (dlb_jit_options). */
static const char *const fixed_options[] = {"-std=c++17", "--ptxas-options=-v", "-default-device", "-DNDEBUG"};
#define NFIXED (int)(sizeof fixed_options / sizeof fixed_options[0])
static char options_text[256];
static pthread_once_t options_once = PTHREAD_ONCE_INIT;

static void join_options(void)
{
	size_t off = 0;
	for (int i = 0; i < NFIXED; i++)
		off += (size_t)snprintf(options_text + off, sizeof options_text - off, "%s%s", i ? " " : "", fixed_options[i]);
}

const char *dlb_jit_options(void)
{
	pthread_once(&options_once, join_options);
	return options_text;
}

int dlb_jit_arch_supported(int sm, int *lo, int *hi)
{
	int n = 0, archs[256], ok = 0;
	*lo = *hi = 0;
	if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0 || n > 256 ||
	    nvrtcGetSupportedArchs(archs) != NVRTC_SUCCESS)
		return 1; /* cannot tell: NVRTC itself will say when it compiles */
	*lo = archs[0];
	*hi = archs[n - 1];
	for (int i = 0; i < n; i++)
		ok |= archs[i] == sm;
	return ok;
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
		/* "ptxas         .     24 bytes stack frame, 24 bytes spill stores, 24 bytes spill loads" (NVRTC's log;
		 * ptxas alone indents the numbers): parse from the number before "bytes stack frame" */
		const char *frame = strstr(line, " bytes stack frame");
		if (frame) {
			const char *b = frame;
			while (b > line && b[-1] >= '0' && b[-1] <= '9')
				b--;
			if (b == frame ||
			    sscanf(b, "%d bytes stack frame, %d bytes spill stores, %d bytes spill loads",
				   &out[n].stack_bytes, &out[n].spill_stores, &out[n].spill_loads) != 3)
				out[n].spill_stores = out[n].spill_loads = -1; /* unreadable: never taken for "none" */
		}
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
	job->verdict = 0;
	char archopt[64];
	snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", job->arch);
	const char *opts[NFIXED + 1] = {archopt};
	for (int i = 0; i < NFIXED; i++)
		opts[i + 1] = fixed_options[i];
	NVRTC_CHECK(nvrtcCreateProgram(&prog, job->source, "candidate.cu", 0, NULL, NULL));
	nvrtcResult cr = nvrtcCompileProgram(prog, NFIXED + 1, opts);
	size_t loglen = 0;
	NVRTC_CHECK(nvrtcGetProgramLogSize(prog, &loglen));
	job->log = malloc(loglen + 1);
	if (!job->log)
		DLB_FAIL(ENOMEM, "out of memory for the NVRTC log");
	NVRTC_CHECK(nvrtcGetProgramLog(prog, job->log));
	job->log[loglen] = 0;
	job->verdict = cr == NVRTC_ERROR_COMPILATION; /* the source's fault: compiling it again fails again */
	if (cr != NVRTC_SUCCESS)
		DLB_FAIL(DLB_E_NVRTC, "nvrtcCompileProgram: %s", nvrtcGetErrorString(cr));
	NVRTC_CHECK(nvrtcGetCUBINSize(prog, &job->cubin_size));
	job->cubin = malloc(job->cubin_size);
	if (!job->cubin)
		DLB_FAIL(ENOMEM, "out of memory for a cubin");
	NVRTC_CHECK(nvrtcGetCUBIN(prog, job->cubin));
	job->nkernels = dlb_jit_parse_ptxas(job->log, job->kernels, DLB_JIT_MAX_KERNELS);
	job->verdict = 1;
fail:
	if (prog)
		(void)nvrtcDestroyProgram(&prog); /* teardown */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	job->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	job->rc = rc;
	return rc;
}

void dlb_jit_job_free(struct dlb_jit_job *job)
{
	free(job->cubin);
	free(job->log);
	job->cubin = NULL;
	job->log = NULL;
}

/* ---- the compiler process ---- */

enum { REQ_WANT = 1, REQ_URGENT, REP_HELLO = 1, REP_STARTED, REP_RESULT };

/* One job's results as a message: this fixed part, then the cubin, then the log. */
struct job_wire {
	int id, verdict;
	size_t cubin_size, log_len;
	int nkernels;
	struct dlb_kernel_report kernels[DLB_JIT_MAX_KERNELS];
	double seconds;
};

/* The child's state: a queue of ids (the order the parent wants them in), a flag per id once started. */
struct server {
	int n, threads, in, out;
	const char *arch;
	dlb_jit_source_fn source;
	void *arg;
	pthread_mutex_t lock, wlock;
	pthread_cond_t more;
	int *queue, nq, quit;
	unsigned char *started;
};

static int send_result(struct server *sv, int id, const struct dlb_jit_job *j)
{
	struct job_wire w = {id, j->verdict, j->cubin ? j->cubin_size : 0, j->log ? strlen(j->log) : 0, j->nkernels,
			     {{{0}}}, j->seconds};
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
	pthread_mutex_lock(&sv->wlock);
	int rc = dlb_msg_write(sv->out, REP_RESULT, j->rc, buf, (uint32_t)len);
	pthread_mutex_unlock(&sv->wlock);
	free(buf);
	return rc;
}

static void *server_thread(void *p)
{
	struct server *sv = p;
	for (;;) {
		pthread_mutex_lock(&sv->lock);
		while (!sv->nq && !sv->quit)
			pthread_cond_wait(&sv->more, &sv->lock);
		if (sv->quit) {
			pthread_mutex_unlock(&sv->lock);
			return NULL;
		}
		int id = sv->queue[0];
		memmove(sv->queue, sv->queue + 1, (size_t)--sv->nq * sizeof *sv->queue);
		sv->started[id] = 1;
		pthread_mutex_unlock(&sv->lock);
		/* said before it starts: if this process dies, the parent knows which jobs were in flight */
		pthread_mutex_lock(&sv->wlock);
		int wr = dlb_msg_write(sv->out, REP_STARTED, 0, &id, sizeof id);
		pthread_mutex_unlock(&sv->wlock);
		struct dlb_jit_job job = {.arch = sv->arch};
		if (!wr && (job.source = sv->source(sv->arg, id)) != NULL)
			dlb_jit_compile(&job);
		else if (!wr) {
			job.rc = ENOMEM;
			job.log = strdup("out of memory building the source");
		}
		free((void *)job.source);
		if (wr || send_result(sv, id, &job))
			_exit(1); /* the parent is gone */
		dlb_jit_job_free(&job);
	}
}

/* The ids of a request that were not started yet, in its order: the new queue (REQ_WANT), or put first
 * (REQ_URGENT). */
static void server_request(struct server *sv, const struct dlb_reply *m)
{
	const int *ids = m->payload;
	int k = (int)(m->len / sizeof(int));
	pthread_mutex_lock(&sv->lock);
	if (m->type == REQ_WANT)
		sv->nq = 0;
	for (int i = 0; i < k; i++) {
		int id = ids[i];
		if (id < 0 || id >= sv->n || sv->started[id])
			continue;
		int at = 0;
		while (at < sv->nq && sv->queue[at] != id)
			at++;
		if (at < sv->nq) {
			if (m->type != REQ_URGENT)
				continue;
			memmove(sv->queue + at, sv->queue + at + 1, (size_t)(sv->nq - at - 1) * sizeof *sv->queue);
			sv->nq--;
		}
		if (m->type == REQ_URGENT) {
			memmove(sv->queue + 1, sv->queue, (size_t)sv->nq * sizeof *sv->queue);
			sv->queue[0] = id;
			sv->nq++;
		} else {
			sv->queue[sv->nq++] = id;
		}
	}
	pthread_cond_broadcast(&sv->more);
	pthread_mutex_unlock(&sv->lock);
}

/* What compiles: NVRTC's version and the size of the library file that was loaded. */
static void compiler_identity(char *buf, size_t len)
{
	int major = 0, minor = 0;
	long long size = 0;
	Dl_info info;
	struct stat st;
	if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS)
		major = minor = 0;
	if (dladdr((void *)nvrtcCompileProgram, &info) && info.dli_fname && stat(info.dli_fname, &st) == 0)
		size = (long long)st.st_size;
	snprintf(buf, len, "nvrtc=%d.%d/%lld", major, minor, size);
}

static int server_main(struct server *sv)
{
	char id[64];
	struct dlb_reply m;
	pthread_t tid[64];
	int started = 0;
	if (setpriority(PRIO_PROCESS, 0, 10)) /* the GPU worker's launches come first on a busy host */
		(void)0;
	compiler_identity(id, sizeof id);
	if (dlb_msg_write(sv->out, REP_HELLO, 0, id, (uint32_t)strlen(id) + 1))
		return 1;
	sv->queue = malloc((size_t)(sv->n ? sv->n : 1) * sizeof *sv->queue);
	sv->started = calloc((size_t)(sv->n ? sv->n : 1), 1);
	if (!sv->queue || !sv->started)
		return 1;
	pthread_mutex_init(&sv->lock, NULL);
	pthread_mutex_init(&sv->wlock, NULL);
	pthread_cond_init(&sv->more, NULL);
	for (int t = 0; t < sv->threads; t++)
		if (pthread_create(&tid[started], NULL, server_thread, sv) == 0)
			started++;
	if (!started)
		return 1;
	while (dlb_msg_read(sv->in, &m) == 0 && m.type != DLB_MSG_QUIT) {
		server_request(sv, &m);
		dlb_reply_free(&m);
	}
	/* the parent is done: jobs in flight are abandoned with the process */
	_exit(0);
}

int dlb_jit_server_start(struct dlb_jit_server *s, int threads, const char *arch, int n, dlb_jit_source_fn source,
			 void *arg)
{
	int rc = 0, down[2] = {-1, -1}, up[2] = {-1, -1};
	struct dlb_reply m = {0};
	memset(s, 0, sizeof *s);
	s->pid = -1;
	s->to = s->from = -1;
	if (threads <= 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		threads = c > 0 ? (int)c : 1;
	}
	s->threads = threads > 64 ? 64 : threads;
	if (pipe2(down, O_CLOEXEC) || pipe2(up, O_CLOEXEC))
		DLB_FAIL(errno, "pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		DLB_FAIL(errno, "fork: %s", strerror(errno));
	if (pid == 0) { /* the compiler process: its end is the process's, so _exit */
		signal(SIGINT, SIG_IGN); /* the parent decides when it stops */
		signal(SIGTERM, SIG_IGN);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(1);
		/* nothing of the parent's but its two pipes: not the database, not a GPU worker's pipes */
		for (int fd = 3; fd < 1024; fd++)
			if (fd != down[0] && fd != up[1])
				close(fd);
		struct server sv = {.n = n, .threads = s->threads, .in = down[0], .out = up[1], .arch = arch,
				    .source = source, .arg = arg};
		_exit(server_main(&sv));
	}
	close(down[0]);
	close(up[1]);
	down[0] = up[1] = -1;
	s->pid = pid;
	s->to = down[1];
	s->from = up[0];
	struct pollfd pfd = {s->from, POLLIN, 0};
	int pr = dlb_poll_in(&pfd, 1, dlb_mono_s() + 60);
	if (pr == DLB_E_INTERRUPTED)
		DLB_USER_FAIL(DLB_E_INTERRUPTED, "interrupted while the compiler process started");
	int mr = pr == 1 ? dlb_msg_read(s->from, &m) : -1;
	if (mr == DLB_E_INTERRUPTED || (mr != 0 && dlb_interrupted)) /* the signal came as its word arrived */
		DLB_USER_FAIL(DLB_E_INTERRUPTED, "interrupted while the compiler process started");
	if (mr != 0 || m.type != REP_HELLO)
		DLB_FAIL(DLB_E_NVRTC, "the compiler process did not start (no word from it within 60 s)");
	snprintf(s->compiler, sizeof s->compiler, "%s", (const char *)m.payload);
	dlb_reply_free(&m);
	return 0;
fail:
	dlb_reply_free(&m);
	for (int i = 0; i < 2; i++) {
		if (down[i] >= 0)
			close(down[i]);
		if (up[i] >= 0)
			close(up[i]);
	}
	dlb_jit_server_stop(s);
	return rc;
}

static int server_send(struct dlb_jit_server *s, uint32_t type, const int *ids, int n)
{
	int rc = 0;
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	if (s->pid <= 0 || dlb_msg_write(s->to, type, 0, ids, (uint32_t)((size_t)n * sizeof *ids)))
		DLB_FAIL(DLB_E_NVRTC, "the compiler process is gone");
fail:
	signal(SIGPIPE, old);
	return rc;
}

int dlb_jit_server_want(struct dlb_jit_server *s, const int *ids, int n)
{
	return server_send(s, REQ_WANT, ids, n);
}

int dlb_jit_server_urgent(struct dlb_jit_server *s, int id)
{
	return server_send(s, REQ_URGENT, &id, 1);
}

static int take_result(const struct dlb_reply *m, int *id, struct dlb_jit_job *j)
{
	struct job_wire w;
	if (m->len < sizeof w)
		return -1;
	memcpy(&w, m->payload, sizeof w);
	if (sizeof w + w.cubin_size + w.log_len != m->len)
		return -1;
	*id = w.id;
	j->rc = m->rc;
	j->verdict = w.verdict;
	j->nkernels = w.nkernels;
	memcpy(j->kernels, w.kernels, sizeof w.kernels);
	j->seconds = w.seconds;
	j->cubin = NULL;
	j->cubin_size = w.cubin_size;
	if (w.cubin_size && !(j->cubin = malloc(w.cubin_size)))
		return -1;
	if (w.cubin_size) /* none for a candidate that failed to compile: no memcpy from or to NULL */
		memcpy(j->cubin, (char *)m->payload + sizeof w, w.cubin_size);
	if (!(j->log = malloc(w.log_len + 1))) {
		free(j->cubin);
		j->cubin = NULL;
		return -1;
	}
	memcpy(j->log, (char *)m->payload + sizeof w + w.cubin_size, w.log_len);
	j->log[w.log_len] = 0;
	return 0;
}

int dlb_jit_server_take(struct dlb_jit_server *s, double timeout_s, struct dlb_jit_event *ev)
{
	int rc = 0;
	struct dlb_reply m = {0};
	memset(ev, 0, sizeof *ev);
	if (s->pid <= 0)
		DLB_FAIL(DLB_E_NVRTC, "the compiler process is not running");
	struct pollfd pfd = {s->from, POLLIN, 0};
	int pr = dlb_poll_in(&pfd, 1, timeout_s < 0 ? 0 : dlb_mono_s() + timeout_s);
	if (pr == DLB_E_INTERRUPTED)
		return pr;
	if (pr <= 0)
		return DLB_E_NOTFOUND;
	rc = dlb_msg_read(s->from, &m);
	if (rc == DLB_E_INTERRUPTED)
		goto fail;
	if (rc == 0 && m.type == REP_STARTED && m.len == sizeof(int)) {
		ev->kind = DLB_JIT_STARTED;
		memcpy(&ev->id, m.payload, sizeof(int));
	} else if (rc == 0 && m.type == REP_RESULT && take_result(&m, &ev->id, &ev->job) == 0) {
		ev->kind = DLB_JIT_DONE;
	} else { /* the process died, or said something that is not a message: it is ended here */
		int st = 0;
		kill(s->pid, SIGKILL);
		while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR)
			;
		s->pid = -1;
		if (rc == 0)
			snprintf(s->why, sizeof s->why, "the compiler process sent a malformed message");
		else if (WIFSIGNALED(st))
			snprintf(s->why, sizeof s->why, "the compiler process was killed by signal %d (%s)", WTERMSIG(st),
				 strsignal(WTERMSIG(st)));
		else
			snprintf(s->why, sizeof s->why, "the compiler process ended (status %d)", WEXITSTATUS(st));
		rc = DLB_E_NVRTC;
		dlb_set_error(NULL, 0, "%s", s->why);
	}
fail:
	dlb_reply_free(&m);
	return rc;
}

void dlb_jit_server_stop(struct dlb_jit_server *s)
{
	if (s->to >= 0) {
		void (*old)(int) = signal(SIGPIPE, SIG_IGN);
		(void)dlb_msg_write(s->to, DLB_MSG_QUIT, 0, NULL, 0);
		signal(SIGPIPE, old);
		close(s->to);
	}
	if (s->from >= 0)
		close(s->from);
	if (s->pid > 0) { /* jobs in flight are not waited for */
		int st;
		kill(s->pid, SIGKILL);
		while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	s->to = s->from = -1;
	s->pid = -1;
}

/* ---- a batch of jobs, through the compiler process ---- */

static char *job_source(void *arg, int id)
{
	return strdup(((struct dlb_jit_job *)arg)[id].source);
}

int dlb_jit_compile_isolated(struct dlb_jit_job *jobs, int n, int threads, void (*progress)(int, int, void *),
			     void *arg)
{
	int rc = 0, done = 0, *ids = NULL;
	unsigned char *got = calloc((size_t)(n ? n : 1), 1);
	struct dlb_jit_server s;
	if (!got || !(ids = malloc((size_t)(n ? n : 1) * sizeof *ids))) {
		free(got);
		return ENOMEM;
	}
	for (int i = 0; i < n; i++)
		ids[i] = i;
	if ((rc = dlb_jit_server_start(&s, threads, n ? jobs[0].arch : "", n, job_source, jobs)) != 0)
		goto out;
	rc = dlb_jit_server_want(&s, ids, n);
	while (!rc && done < n) {
		struct dlb_jit_event ev;
		if ((rc = dlb_jit_server_take(&s, -1, &ev)) == DLB_E_NOTFOUND)
			rc = 0;
		else if (!rc && ev.kind == DLB_JIT_DONE && ev.id >= 0 && ev.id < n && !got[ev.id]) {
			const char *src = jobs[ev.id].source, *arch = jobs[ev.id].arch;
			jobs[ev.id] = ev.job;
			jobs[ev.id].source = src;
			jobs[ev.id].arch = arch;
			got[ev.id] = 1;
			done++;
			if (progress)
				progress(done, n, arg);
		} else if (!rc && ev.kind == DLB_JIT_DONE) {
			dlb_jit_job_free(&ev.job);
		}
	}
	if (rc == DLB_E_NVRTC) /* the compiler process died: what it did not return says so */
		rc = 0;
	for (int i = 0; i < n; i++)
		if (!got[i]) {
			dlb_jit_job_free(&jobs[i]);
			jobs[i].rc = DLB_E_NVRTC;
			jobs[i].verdict = 0;
			jobs[i].log = strdup(rc == DLB_E_INTERRUPTED ? "interrupted before it was compiled" : s.why);
		}
	dlb_jit_server_stop(&s);
out:
	free(ids);
	free(got);
	return rc;
}
