/* supervise: fork, pipes, poll with a deadline, SIGKILL and waitpid. Messages are a fixed header and a
 * payload; both sides are this binary, so payloads are plain structs. */
#define _GNU_SOURCE /* pipe2 */
#include "supervise.h"

#include "err.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t dlb_interrupted;

#define MSG_MAGIC 0x646c6231u /* "dlb1" */

struct header {
	uint32_t magic, type;
	int32_t rc;
	uint32_t len;
};

void dlb_reply_free(struct dlb_reply *r)
{
	free(r->payload);
	memset(r, 0, sizeof *r);
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int dlb_write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

double dlb_mono_s(void)
{
	return now_s();
}

int dlb_poll_in(struct pollfd *pfd, int n, double deadline)
{
	for (;;) {
		if (dlb_interrupted)
			return DLB_E_INTERRUPTED;
		double left = deadline > 0 ? deadline - now_s() : 1;
		int pr = poll(pfd, (nfds_t)n, left <= 0 ? 0 : left < 0.1 ? (int)(left * 1000) + 1 : 100);
		if (pr > 0)
			return pr;
		if (pr < 0 && errno != EINTR)
			return -1;
		if (pr == 0 && deadline > 0 && now_s() >= deadline)
			return 0;
	}
}

int dlb_msg_write(int fd, uint32_t type, int32_t rc, const void *payload, uint32_t len)
{
	struct header h = {MSG_MAGIC, type, rc, len};
	if (len > DLB_MSG_MAX)
		return -1;
	return dlb_write_all(fd, &h, sizeof h) || (len && dlb_write_all(fd, payload, len)) ? -1 : 0;
}

/* Read exactly n bytes before the deadline (deadline 0: no limit). 0, or a DLB_SUP_* fault, or
 * DLB_E_INTERRUPTED. The wait is a poll, which a signal always interrupts (a read is restarted under
 * signal()'s SA_RESTART), so an interrupt ends it with or without a deadline. */
static int read_all(const struct dlb_sup *s, int fd, void *p, size_t n, double deadline)
{
	char *c = p;
	int side = s && s->side && s->side_fd >= 0;
	while (n) {
		struct pollfd pfd[2] = {{fd, POLLIN, 0}, {side ? s->side_fd : -1, POLLIN, 0}};
		int pr = dlb_poll_in(pfd, side ? 2 : 1, deadline);
		if (pr == DLB_E_INTERRUPTED)
			return pr;
		if (pr == 0)
			return DLB_SUP_TIMEOUT;
		if (pr < 0)
			return DLB_SUP_DIED;
		if (side && pfd[1].revents) {
			s->side(s->side_arg);
			if (!pfd[0].revents)
				continue;
		}
		ssize_t r = read(fd, c, n);
		if (r < 0 && errno == EINTR) {
			if (dlb_interrupted)
				return DLB_E_INTERRUPTED;
			continue;
		}
		if (r <= 0)
			return DLB_SUP_DIED; /* end of file: the worker is gone, perhaps mid-message */
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

static int read_msg(const struct dlb_sup *s, int fd, struct dlb_reply *m, double deadline)
{
	struct header h;
	int rc = read_all(s, fd, &h, sizeof h, deadline);
	memset(m, 0, sizeof *m);
	if (rc)
		return rc;
	if (h.magic != MSG_MAGIC || h.len > DLB_MSG_MAX)
		return DLB_SUP_GARBAGE;
	m->payload = malloc((size_t)h.len + 1);
	if (!m->payload)
		return ENOMEM;
	if ((rc = read_all(s, fd, m->payload, h.len, deadline)) != 0) {
		dlb_reply_free(m);
		return rc;
	}
	((char *)m->payload)[h.len] = 0;
	m->type = h.type;
	m->rc = h.rc;
	m->len = h.len;
	return 0;
}

int dlb_msg_read(int fd, struct dlb_reply *m)
{
	return read_msg(NULL, fd, m, 0);
}

int dlb_read_full(int fd, void *p, size_t n)
{
	for (char *c = p; n;) {
		ssize_t r = read(fd, c, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

int dlb_msg_read_through(int fd, struct dlb_reply *m)
{
	struct header h;
	memset(m, 0, sizeof *m);
	if (dlb_read_full(fd, &h, sizeof h))
		return DLB_SUP_DIED;
	if (h.magic != MSG_MAGIC || h.len > DLB_MSG_MAX)
		return DLB_SUP_GARBAGE;
	if (!(m->payload = malloc((size_t)h.len + 1)))
		return ENOMEM;
	if (dlb_read_full(fd, m->payload, h.len)) {
		dlb_reply_free(m);
		return DLB_SUP_DIED;
	}
	((char *)m->payload)[h.len] = 0;
	m->type = h.type;
	m->rc = h.rc;
	m->len = h.len;
	return 0;
}

int dlb_sup_start(struct dlb_sup *s, dlb_worker_fn fn, void *arg, int verbose)
{
	int rc = 0, down[2] = {-1, -1}, up[2] = {-1, -1};
	s->fn = fn;
	s->arg = arg;
	s->verbose = verbose;
	s->pid = 0;
	s->to_worker = s->from_worker = -1;
	if (pipe2(down, O_CLOEXEC) || pipe2(up, O_CLOEXEC))
		DLB_FAIL(errno, "pipe: %s", strerror(errno));
	fflush(NULL); /* nothing buffered may be written twice */
	pid_t pid = fork();
	if (pid < 0)
		DLB_FAIL(errno, "fork: %s", strerror(errno));
	if (pid == 0) {
		/* The worker. Its end is the process's: _exit, so nothing of the parent's (atexit handlers, stdio
		 * buffers) runs twice. */
		signal(SIGINT, SIG_IGN); /* a Ctrl-C or a TERM to the process group is the parent's to handle: */
		signal(SIGTERM, SIG_IGN); /* it keeps what finished and then kills the worker itself */
		signal(SIGPIPE, SIG_DFL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(1); /* the parent died before the line above */
		close(down[1]);
		close(up[0]);
		_exit(fn(down[0], up[1], arg));
	}
	close(down[0]);
	close(up[1]);
	s->pid = pid;
	s->to_worker = down[1];
	s->from_worker = up[0];
	s->starts++;
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (down[i] >= 0)
			close(down[i]);
		if (up[i] >= 0)
			close(up[i]);
	}
	return rc;
}

/* Reap pid, describing how it ended. */
static void reap(pid_t pid, char *how, size_t len)
{
	int st = 0;
	pid_t r;
	while ((r = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	if (r < 0)
		snprintf(how, len, "could not be reaped: %s", strerror(errno));
	else if (WIFSIGNALED(st))
		snprintf(how, len, "killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		snprintf(how, len, "exited with status %d", WEXITSTATUS(st));
}

static void close_pipes(struct dlb_sup *s)
{
	if (s->to_worker >= 0)
		close(s->to_worker);
	if (s->from_worker >= 0)
		close(s->from_worker);
	s->to_worker = s->from_worker = -1;
}

void dlb_sup_kill(struct dlb_sup *s, const char *why)
{
	char how[96] = "not running";
	if (s->pid > 0) {
		kill(s->pid, SIGKILL);
		reap(s->pid, how, sizeof how);
	}
	close_pipes(s);
	s->pid = 0;
	if (why) {
		snprintf(s->why, sizeof s->why, "%s", why);
		if (s->verbose)
			fprintf(stderr, "\ndlbtune: worker stopped: %s\n", why);
	}
}

void dlb_sup_stop(struct dlb_sup *s)
{
	if (s->pid <= 0)
		return;
	if (dlb_msg_write(s->to_worker, DLB_MSG_QUIT, 0, NULL, 0) == 0) {
		/* a moment to finish: poll its end of the pipe for EOF */
		struct pollfd pfd = {s->from_worker, POLLIN, 0};
		double deadline = now_s() + 2.0;
		while (now_s() < deadline) {
			if (poll(&pfd, 1, 100) > 0) {
				char c;
				if (read(s->from_worker, &c, 1) <= 0)
					break;
			}
		}
	}
	dlb_sup_kill(s, NULL);
}

int dlb_sup_call(struct dlb_sup *s, uint32_t type, const void *req, uint32_t len, double limit_s,
		 struct dlb_reply *reply)
{
	char why[256], how[96];
	memset(reply, 0, sizeof *reply);
	if (s->pid <= 0)
		return DLB_SUP_DIED;
	void (*old)(int) = signal(SIGPIPE, SIG_IGN); /* a dead worker's pipe: an error, not a signal */
	int wr = dlb_msg_write(s->to_worker, type, 0, req, len);
	signal(SIGPIPE, old);
	int rc = wr ? DLB_SUP_DIED : read_msg(s, s->from_worker, reply, now_s() + limit_s);
	if (rc == 0 && reply->type != type) {
		dlb_reply_free(reply);
		rc = DLB_SUP_GARBAGE;
	}
	switch (rc) {
	case 0:
		return 0;
	case DLB_E_INTERRUPTED:
		dlb_sup_kill(s, NULL);
		return rc;
	case DLB_SUP_TIMEOUT:
		snprintf(why, sizeof why, "no reply within %.1f s: killed", limit_s);
		dlb_sup_kill(s, why);
		return rc;
	case DLB_SUP_GARBAGE:
		dlb_sup_kill(s, "the worker's reply was not a reply (protocol error)");
		return rc;
	case ENOMEM:
		dlb_sup_kill(s, "out of memory reading the worker's reply");
		return DLB_SUP_GARBAGE;
	default: /* DLB_SUP_DIED: end of file; the process is ending or has ended */
		kill(s->pid, SIGKILL); /* in case it closed its pipe but lives on */
		reap(s->pid, how, sizeof how);
		close_pipes(s);
		s->pid = 0;
		snprintf(s->why, sizeof s->why, "the worker died: %s", how);
		if (s->verbose)
			fprintf(stderr, "\ndlbtune: worker stopped: %s\n", s->why);
		return DLB_SUP_DIED;
	}
}
