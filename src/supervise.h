/* supervise: GPU work runs in a worker process. The parent sends one request at a time over a pipe and waits
 * for the reply with a time limit. A worker that dies, answers something that is not a reply, or runs past
 * its limit is killed (SIGKILL) and reaped; the caller records what happened and starts a fresh one. A CUDA
 * error that poisons a context (an illegal address, a launch timeout) is sticky: no API recovers it and no
 * API stops a hung kernel, so a process boundary is the only safe one. The parent never calls CUDA. */
#ifndef DLB_SUPERVISE_H
#define DLB_SUPERVISE_H
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <sys/types.h>

#define DLB_MSG_MAX (16u << 20) /* largest payload either side accepts */

/* A worker: runs in the child, reading requests from in_fd and writing replies to out_fd until it reads a
 * quit request or the pipe closes. Its return value is the child's exit status. */
typedef int (*dlb_worker_fn)(int in_fd, int out_fd, void *arg);

struct dlb_reply {
	uint32_t type;
	int32_t rc;     /* the worker's result code; its error text is the payload when rc != 0 */
	uint32_t len;
	void *payload;  /* malloc'd, NUL-terminated for convenience; free with dlb_reply_free */
};
void dlb_reply_free(struct dlb_reply *r);

struct dlb_sup {
	pid_t pid;             /* 0: no worker running */
	int to_worker, from_worker;
	dlb_worker_fn fn;
	void *arg;
	int verbose;
	int starts;            /* workers started, the first included */
	char why[256];         /* what happened to the last worker that was stopped by a fault */
	/* Other work while waiting for a reply: when side is set and side_fd is readable, side(side_arg) runs
	 * (the tuner takes compiled kernels from the compiler process while the GPU works). */
	int side_fd;
	void (*side)(void *arg);
	void *side_arg;
};

/* What a failed call means for the trial that made it. */
enum {
	DLB_SUP_OK = 0,
	DLB_SUP_DIED = 1,      /* exited or was killed by a signal: runtime_fault */
	DLB_SUP_TIMEOUT = 2,   /* ran past its limit and was killed: timeout */
	DLB_SUP_GARBAGE = 3,   /* a reply that is not one (bad magic, size, type): runtime_fault */
};

/* Fork a worker running fn(arg). The child ignores SIGINT and SIGTERM (the parent decides when it stops) and
 * is killed if the parent dies. */
int dlb_sup_start(struct dlb_sup *s, dlb_worker_fn fn, void *arg, int verbose);
/* Send a request and wait up to limit_s seconds for its reply. Returns 0 with *reply filled, or one of the
 * DLB_SUP_* faults above (the worker is then already killed and reaped; s->why says what happened), or
 * DLB_E_INTERRUPTED when dlb_interrupted was set while waiting (the worker is killed too). */
int dlb_sup_call(struct dlb_sup *s, uint32_t type, const void *req, uint32_t len, double limit_s,
		 struct dlb_reply *reply);
/* Kill (if running) and reap the worker; with why, record it and say so under --verbose. */
void dlb_sup_kill(struct dlb_sup *s, const char *why);
/* Ask the worker to quit, wait a moment, kill it if it has not, reap it. */
void dlb_sup_stop(struct dlb_sup *s);

/* Wait until one of pfd[0..n) can be read (poll's events and revents), the CLOCK_MONOTONIC deadline passes
 * (seconds; 0: no deadline; one already past still polls once), or an interrupt. The flag is looked at before
 * every poll, which waits at most 100 ms at a time, so an interrupt that lands just before a poll starts
 * (and so does not wake it) is seen soon after. > 0: ready; 0: the deadline passed; DLB_E_INTERRUPTED; -1:
 * poll failed (errno). */
struct pollfd;
int dlb_poll_in(struct pollfd *pfd, int n, double deadline);
/* The clock dlb_poll_in's deadlines are on, in seconds. */
double dlb_mono_s(void);

/* All n bytes to fd, through EINTR and short writes: 0, or -1 (errno). */
int dlb_write_all(int fd, const void *p, size_t n);

/* Framing, for both sides: a header (magic, type, rc, length) and the payload. */
int dlb_msg_write(int fd, uint32_t type, int32_t rc, const void *payload, uint32_t len);
/* Blocking read of one message. 0, or DLB_SUP_DIED at end of file, DLB_SUP_GARBAGE for a malformed message,
 * ENOMEM, or DLB_E_INTERRUPTED when dlb_interrupted was set while waiting. */
int dlb_msg_read(int fd, struct dlb_reply *m);
/* Exactly n bytes from fd, however long it takes and whatever the interrupt flag says: 0, or -1 at end of
 * file or on an error (the writer is gone). */
int dlb_read_full(int fd, void *p, size_t n);
/* The same, reading on after an interrupt (a parent collecting what its children say as they stop). */
int dlb_msg_read_through(int fd, struct dlb_reply *m);

#define DLB_MSG_QUIT 0xffffffffu

/* Set by the signal handler in main (SIGINT, SIGTERM): waits end, workers are killed, finished work is kept. */
extern volatile sig_atomic_t dlb_interrupted;
#endif
