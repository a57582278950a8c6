/* bench: see bench.h. Every CUDA call is checked; a fault inside fn surfaces at the event synchronize. */
#include "bench.h"

#include <pthread.h>
#include <time.h>

#include "err.h"
#include "power.h"
#include "result.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int dlb_bench_sets(const struct dlb_device *dev, size_t per_set, int max)
{
	size_t want = 2 * dev->l2_bytes / (per_set ? per_set : 1);
	return want < 1 ? 1 : want > (size_t)max ? max : (int)want;
}

uint64_t dlb_fresh_seed(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec;
}

size_t dlb_bench_flush_bytes(const struct dlb_device *dev)
{
	/* Twice the L2, at least 64 MiB: reading it leaves nothing of ours behind in the cache. */
	return 2 * dev->l2_bytes > ((size_t)64 << 20) ? 2 * dev->l2_bytes : (size_t)64 << 20;
}

int dlb_bench_open(const struct dlb_device *dev, struct dlb_bench *b)
{
	int rc = 0;
	b->stream = dev->stream;
	b->ev0 = b->ev1 = NULL;
	b->flush = NULL;
	b->sweep = NULL;
	b->sm_count = dev->sm_count;
	b->hold = NULL;
	b->gate = NULL;
	b->gate_dev = NULL;
	b->holds = b->hold_timeouts = 0;
	b->flush_bytes = dlb_bench_flush_bytes(dev);
	CUDA_CHECK(cudaEventCreate(&b->ev0));
	CUDA_CHECK(cudaEventCreate(&b->ev1));
	DLB_CHECK(dlb_dev_alloc(&b->flush, b->flush_bytes));
	CUDA_CHECK(cudaMemset(b->flush, 0x5a, b->flush_bytes));
	void *gate = NULL;
	CUDA_CHECK(cudaHostAlloc(&gate, 2 * sizeof(unsigned), cudaHostAllocMapped));
	b->gate = gate;
	b->gate[0] = 1;
	b->gate[1] = 0;
	CUDA_CHECK(cudaHostGetDevicePointer((void **)&b->gate_dev, gate, 0));
fail:
	return rc;
}

void dlb_bench_close(struct dlb_bench *b)
{
	if (b->ev0)
		(void)cudaEventDestroy(b->ev0); /* teardown */
	if (b->ev1)
		(void)cudaEventDestroy(b->ev1);
	dlb_dev_free(b->flush);
	if (b->gate)
		(void)cudaFreeHost((void *)b->gate); /* teardown */
	b->gate = NULL;
	b->ev0 = b->ev1 = NULL;
	b->flush = NULL;
}

/* A held sample gives up after this long: a launch function that waits for the GPU (a synchronous call
 * inside a library) would otherwise wait for the hold forever. */
#define HOLD_TIMEOUT_NS 100000000ull

/* Evict L2 before a sample. A read of the flush buffer (stream_floor with nothing to write; the buffer was
 * written once, at open) leaves L2 full of clean lines. A memset, as before, left it full of dirty ones, and the
 * sample's first launches paid for writing them back: with 20 us a sample, a small memory-bound kernel ran 2-3
 * launches a sample right after it, and a streaming read of 8-31 MiB took 1.17-1.29x as long as after a clean
 * flush (docs/NOTES.md item 287, run95 on an H200). Without the kernel (a bench not opened by dlb_gpu_open) the
 * flush writes the buffer. */
static int flush_l2(struct dlb_bench *b, int salt)
{
	int rc = 0;
	if (b->sweep) { /* dlb_launch counts the launch */
		const void *a = b->flush, *nb = NULL;
		void *c = NULL;
		int64_t la = (int64_t)b->flush_bytes, zero = 0;
		void *args[] = {&a, &la, &nb, &zero, &c, &zero};
		DLB_CHECK(dlb_launch(b->sweep, dlb_grid_for(la / 64, 256, b->sm_count), (dim3){256, 1, 1}, 0, b->stream,
				     args));
	} else {
		dlb_count_launch();
		CUDA_CHECK(cudaMemsetAsync(b->flush, salt & 0xff, b->flush_bytes, b->stream));
	}
fail:
	return rc;
}

/* Runs fn `reps` times on sets 0..reps-1 between the two events; returns the mean time per launch. */
/* One sample; hold: start with the stream held (warm-up runs do not: their first launches load modules). */
static int sample(struct dlb_bench *b, dlb_launch_fn fn, void *ctx, int first_set, int reps, int nsets, int salt,
		  int hold, double *us, int *timed_out)
{
	int rc = 0, held = 0;
	float ms = 0;
	*timed_out = 0;
	if (hold && b->hold && b->gate) {
		unsigned long long timeout = HOLD_TIMEOUT_NS;
		void *args[] = {&b->gate_dev, &timeout};
		b->gate[0] = b->gate[1] = 0;
		__sync_synchronize();
		DLB_CHECK(dlb_launch(b->hold, (dim3){1, 1, 1}, (dim3){1, 1, 1}, 0, b->stream, args));
		held = 1;
		b->holds++;
	}
	DLB_CHECK(flush_l2(b, salt));
	CUDA_CHECK(cudaEventRecord(b->ev0, b->stream));
	for (int r = 0; r < reps; r++)
		DLB_CHECK(fn(ctx, (first_set + r) % nsets));
	CUDA_CHECK(cudaEventRecord(b->ev1, b->stream));
	if (held) { /* everything is queued: let the GPU run it back to back */
		__sync_synchronize();
		b->gate[0] = 1;
		__sync_synchronize();
		held = 0;
	}
	CUDA_CHECK(cudaEventSynchronize(b->ev1));
	if (hold && b->hold && b->gate && b->gate[1]) { /* fn waited for the GPU: the hold gave up */
		b->hold_timeouts++;
		b->gate[1] = 0;
		*timed_out = 1;
	}
	CUDA_CHECK(cudaEventElapsedTime(&ms, b->ev0, b->ev1));
	*us = 1e3 * (double)ms / reps;
fail:
	if (held) { /* a launch failed while the stream was held: release it, and let the hold end before the
		     * flag is reset or freed (errors here are the failure's own) */
		b->gate[0] = 1;
		__sync_synchronize();
		(void)cudaStreamSynchronize(b->stream);
	}
	return rc;
}

/* A held sample; one whose hold gave up (fn waited for the GPU) is taken again unheld, as samples were
 * before the hold: it then includes fn's host time, and hold_timeouts counts it. */
static int timed(struct dlb_bench *b, dlb_launch_fn fn, void *ctx, int first_set, int reps, int nsets,
		 int salt, double *us)
{
	int rc = 0, timed_out = 0;
	DLB_CHECK(sample(b, fn, ctx, first_set, reps, nsets, salt, 1, us, &timed_out));
	if (timed_out)
		DLB_CHECK(sample(b, fn, ctx, first_set, reps, nsets, salt, 0, us, &timed_out));
fail:
	return rc;
}

int dlb_bench_once(struct dlb_bench *b, dlb_launch_fn fn, void *ctx, int set, double *us)
{
	return timed(b, fn, ctx, set, 1, set + 1, 0, us);
}

int dlb_bench_samples(struct dlb_bench *b, dlb_launch_fn fn, void *ctx, int nsets, const struct dlb_bench_opts *o,
		      int *reps, int first, int k, double *us, int *taken)
{
	int rc = 0;
	double t1 = 0;
	*taken = 0;
	if (k < 0 || nsets < 1)
		DLB_FAIL(EINVAL, "bench: %d samples over %d input sets", k, nsets);
	if (*reps < 1) { /* the candidate's first samples: warm up, then size a sample */
		int ignored = 0; /* warm-up runs are not held: their first launches may load modules */
		for (int w = 0; w < o->warmup; w++)
			DLB_CHECK(sample(b, fn, ctx, w, 1, nsets, w, 0, &t1, &ignored));
		if (o->warmup == 0)
			DLB_CHECK(timed(b, fn, ctx, 0, 1, nsets, 0, &t1));
		/* Enough launches per sample to dwarf the event resolution, but never more than there are sets. */
		int r = t1 > 0 ? (int)ceil(o->min_sample_us / t1) : nsets;
		*reps = r < 1 ? 1 : r > nsets ? nsets : r;
	}
	for (int n = 0; n < k; n++) {
		DLB_CHECK(timed(b, fn, ctx, (first + n) * *reps, *reps, nsets, first + n + 1, &us[n]));
		*taken = n + 1;
		if (o->cutoff_us > 0 && us[n] > o->cutoff_us)
			break;
	}
fail:
	return rc;
}

int dlb_bench_time(struct dlb_bench *b, dlb_launch_fn fn, void *ctx, int nsets, const struct dlb_bench_opts *o,
		   struct dlb_stats *out)
{
	int rc = 0, reps = 0, n = 0;
	double *x = malloc((size_t)(o->samples > 0 ? o->samples : 1) * sizeof *x);
	if (!x)
		DLB_FAIL(ENOMEM, "out of memory for timing samples");
	if (o->samples < 1)
		DLB_FAIL(EINVAL, "bench: %d samples", o->samples);
	DLB_CHECK(dlb_bench_samples(b, fn, ctx, nsets, o, &reps, 0, o->samples, x, &n));
	DLB_CHECK(dlb_stats_summarise(x, n, o->confidence, out));
fail:
	free(x);
	return rc;
}

/* One power/clock reading taken while the burst runs, folded into out; 1 when it was taken while the GPU was
 * busy (a reading after the stream has drained would see an idle GPU, and is left out). */
/* One power, clock and clock-event reading folded into out. No CUDA call here: from the poller's thread one
 * waits on the context while the burst's thread launches (run01 of the report: the readings of our own bursts
 * came 2-4 times further apart than the vendor's). */
static void fold_reading(struct dlb_power *pw, struct dlb_energy *out)
{
	struct dlb_power_sample s;
	if (dlb_power_read(pw, &s))
		return;
	if (s.have_power && !(out->watts_max >= 1e-3 * s.power_mw))
		out->watts_max = 1e-3 * s.power_mw;
	if (s.have_clock) {
		if (out->sm_mhz_min == 0 || (int)s.sm_mhz < out->sm_mhz_min)
			out->sm_mhz_min = (int)s.sm_mhz;
		if ((int)s.sm_mhz > out->sm_mhz_max)
			out->sm_mhz_max = (int)s.sm_mhz;
	}
	if (s.have_reasons)
		out->reasons |= s.reasons & ~(uint64_t)DLB_CLOCK_IDLE;
	out->readings++;
}

static double wall_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The two steps a burst's power comes from (bench.h) */
int dlb_energy_pick(const double *t, const double *w, const uint64_t *e, int n, double seconds, int *bi, int *bj)
{
	*bi = *bj = -1;
	for (int i = 0; i < n; i++)
		for (int j = n - 1; j >= i + 2; j--) {
			double span = t[j] - t[i];
			if (w[i] + w[j] <= 0.1 * span && span >= 0.2 * seconds && e[j] > e[i] &&
			    (*bi < 0 || span > t[*bj] - t[*bi])) {
				*bi = i;
				*bj = j;
				break; /* the furthest for this i */
			}
		}
	return *bi >= 0;
}

/* The readings come from a thread of their own until told to stop, the energy counter alone every 1 ms (the
 * report's run03: with four more queries a round, rounds 11 ms apart timed too few steps closely enough), power,
 * clock and clock events every 20 ms: an NVML query takes long enough that taking them between launches left the
 * GPU waiting for the next launch (run01: 178 us a call in the burst against 77 us timed). The GPU's mean power is
 * the energy counter's rise between two moments it was seen to change (dlb_bench_energy picks them), once the
 * burst has run settle_s (the power ramps up first), over the time between those moments: the counter moves in
 * steps, so its readings at the burst's two ends (run01) carried up to a step of error each, and the ramp and the
 * idle edges. A step's moment is the middle of the span between the read before it and the read that saw it, each
 * read timed on its own: taking the time after a slow or delayed round of readings (the report's run01) put the
 * first step late and gave our own bursts up to 1300 W under a 700 W cap. */
#define POLL_STEPS 256
struct poller {
	struct dlb_power *pw;
	struct dlb_energy *out;
	double t0, settle_s;
	int changes;                  /* counter changes seen after settle_s */
	int kept;                     /* the first POLL_STEPS of them: */
	double t[POLL_STEPS];         /* the middle of the span each fell in */
	double w[POLL_STEPS];         /* that span's width (the time between the two reads around the step) */
	uint64_t e[POLL_STEPS];       /* the counter then */
	uint64_t prev;                /* the counter at the read before */
	double ta_prev;               /* when the read before began */
	double t_fold;                /* when the power, clock and reasons were last read */
	int have_prev;
	volatile int stop;
};

static void *poll_readings(void *arg)
{
	struct poller *p = arg;
	struct timespec ts = {0, 1000000};
	while (!p->stop) {
		nanosleep(&ts, NULL);
		if (p->stop)
			break;
		uint64_t e = 0;
		double ta = wall_s();
		int got = dlb_power_energy(p->pw, &e) == 0;
		double tb = wall_s();
		if (got) {
			/* a step between the read before (begun at ta_prev) and this one (ended at tb) */
			if (p->have_prev && e != p->prev && tb - p->t0 >= p->settle_s) {
				if (p->kept < POLL_STEPS) {
					p->t[p->kept] = 0.5 * (p->ta_prev + tb);
					p->w[p->kept] = tb - p->ta_prev;
					p->e[p->kept++] = e;
				}
				p->changes++;
			}
			p->prev = e;
			p->ta_prev = ta;
			p->have_prev = 1;
		}
		if (tb - p->t_fold >= 0.02) { /* power, clock, reasons: four slower queries, every 20 ms */
			fold_reading(p->pw, p->out);
			p->t_fold = wall_s();
		}
	}
	return NULL;
}

/* n calls of fn captured from b's stream into a graph and instantiated: 1, or 0 where any part of that failed
 * (a library call that cannot be captured), the stream out of capture, the error cleared. */
static int capture_calls(struct dlb_bench *b, dlb_launch_fn fn, void *ctx, int nsets, long n, cudaGraph_t *graph,
			 cudaGraphExec_t *gexec)
{
	cudaGraph_t g = NULL;
	int ok = cudaStreamBeginCapture(b->stream, cudaStreamCaptureModeRelaxed) == cudaSuccess;
	if (ok) {
		for (long i = 0; ok && i < n; i++)
			ok = fn(ctx, (int)(i % nsets)) == 0;
		ok = cudaStreamEndCapture(b->stream, &g) == cudaSuccess && ok && g;
	}
	ok = ok && cudaGraphInstantiate(gexec, g, 0) == cudaSuccess;
	if (!ok) {
		if (g)
			(void)cudaGraphDestroy(g); /* a failed capture's remains */
		g = NULL;
		*gexec = NULL;
		(void)cudaGetLastError(); /* capture's errors are not sticky: clear the last one */
		dlb_clear_error();
	}
	*graph = g;
	return ok;
}

int dlb_bench_energy(struct dlb_bench *b, struct dlb_power *pw, dlb_launch_fn fn, void *ctx, int nsets, double call_us,
		     double ms, struct dlb_energy *out)
{
	int rc = 0, started = 0;
	pthread_t th;
	cudaEvent_t evc[2] = {NULL, NULL};
	cudaGraph_t graph = NULL;
	cudaGraphExec_t gexec = NULL;
	memset(out, 0, sizeof *out);
	out->joules = out->watts_max = NAN;
	struct poller pl = {.pw = pw, .out = out, .settle_s = 2e-4 * ms};
	if (!pw || !(ms > 0))
		return 0;
	if (!(call_us > 0) || nsets < 1)
		DLB_FAIL(EINVAL, "bench: an energy burst of calls of %g us over %d input sets", call_us, nsets);
	/* The burst runs for ms of wall time, not for a number of calls: call_us comes from the pairs (inputs
	 * rotated through L2), and back to back a small kernel runs faster (the report's run05: SpMV bursts of
	 * 0.24 s for 0.5 s asked, too short for 3 counter steps). Chunks of about 10 ms by call_us, at most two
	 * queued (each waits for the one before the last), so the queue's tail is short. */
	double want = 1e4 / call_us;
	long chunk = want < 1 ? 1 : want > 1e5 ? 100000L : (long)want, calls = 0;
	/* The calls are launched as a CUDA graph of up to 1000 of them where they can be captured: the pairs
	 * time the GPU alone (the stream held while the host launches), and a burst launched call by call
	 * would charge the GPU's idle power to a library whose host side is slower than its kernel (the
	 * report's run06-07: cudnnConvolutionForward took a median 5.6 times its paired time per call in fp16
	 * bursts, the GPU idle in between). Where capture fails, they are launched one by one (graphed = 0). */
	long gcalls = chunk > 1000 ? 1000 : chunk, glaunches = (chunk + gcalls - 1) / gcalls;
	out->graphed = capture_calls(b, fn, ctx, nsets, gcalls, &graph, &gexec);
	CUDA_CHECK(cudaEventCreateWithFlags(&evc[0], cudaEventDisableTiming));
	CUDA_CHECK(cudaEventCreateWithFlags(&evc[1], cudaEventDisableTiming));
	CUDA_CHECK(cudaStreamSynchronize(b->stream));
	if (out->graphed) /* its first launch uploads it: not in the burst */
		CUDA_CHECK(cudaGraphLaunch(gexec, b->stream));
	CUDA_CHECK(cudaStreamSynchronize(b->stream));
	CUDA_CHECK(cudaEventRecord(b->ev0, b->stream));
	pl.t0 = wall_s();
	if (pthread_create(&th, NULL, poll_readings, &pl) == 0)
		started = 1; /* else no readings: the joules stay n/a */
	for (int k = 0; calls < 10000000L; k++) {
		if (out->graphed)
			for (long i = 0; i < glaunches; i++, calls += gcalls)
				CUDA_CHECK(cudaGraphLaunch(gexec, b->stream));
		else
			for (long i = 0; i < chunk; i++, calls++)
				DLB_CHECK(fn(ctx, (int)(calls % nsets)));
		CUDA_CHECK(cudaEventRecord(evc[k & 1], b->stream));
		if (k > 0)
			CUDA_CHECK(cudaEventSynchronize(evc[(k - 1) & 1]));
		if (wall_s() - pl.t0 >= 1e-3 * ms)
			break;
	}
	CUDA_CHECK(cudaEventRecord(b->ev1, b->stream));
	CUDA_CHECK(cudaEventSynchronize(b->ev1));
	pl.stop = 1;
	if (started)
		pthread_join(th, NULL);
	started = 0;
	float el = 0;
	CUDA_CHECK(cudaEventElapsedTime(&el, b->ev0, b->ev1));
	out->calls = (int)(calls > 0x7fffffff ? 0x7fffffff : calls);
	out->seconds = 1e-3 * el;
	out->steps = pl.changes;
	/* Steady power x GPU time: the counter's rate between two of its steps times the burst's GPU time. The
	 * two are the furthest apart, at least two steps apart, whose moments are each known to within their
	 * spans' sum of a tenth of the time between them (so the rate to within 5%), and that time is at least
	 * a fifth of the burst. Fewer than 3 steps in all (the counter moves about every 100 ms on an H200, the
	 * report's run03) or no such pair leave the joules n/a. The power, clock and reasons are read by the
	 * same thread, so a step that fell while they were read is timed only to their span (a few ms): taking
	 * the first and last steps whatever their spans (the report's run04) left 274 of 351 rows n/a. */
	int bi, bj;
	dlb_energy_pick(pl.t, pl.w, pl.e, pl.kept, out->seconds, &bi, &bj);
	if (bi >= 0) {
		out->joules = 1e-3 * (double)(pl.e[bj] - pl.e[bi]) / (pl.t[bj] - pl.t[bi]) * out->seconds;
		out->steady = 1;
	}
fail:
	if (started) {
		pl.stop = 1;
		pthread_join(th, NULL);
	}
	for (int i = 0; i < 2; i++)
		if (evc[i])
			(void)cudaEventDestroy(evc[i]); /* teardown */
	if (gexec)
		(void)cudaGraphExecDestroy(gexec); /* teardown */
	if (graph)
		(void)cudaGraphDestroy(graph); /* teardown */
	return rc;
}

void dlb_energy_add(struct dlb_energy *a, const struct dlb_energy *b)
{
	if (!b->calls)
		return;
	if (!a->calls) {
		*a = *b;
		return;
	}
	if (a->steady && b->steady) {
		a->graphed = a->graphed && b->graphed;
		a->joules += b->joules;
		a->calls += b->calls;
		a->seconds += b->seconds;
	} else if (b->steady || !a->steady) { /* b's alone, or neither steady: the calls of both, no joules */
		int calls = b->steady ? b->calls : a->calls + b->calls;
		double seconds = b->steady ? b->seconds : a->seconds + b->seconds;
		a->joules = b->steady ? b->joules : NAN;
		a->graphed = b->steady ? b->graphed : a->graphed && b->graphed;
		a->steady = b->steady;
		a->calls = calls;
		a->seconds = seconds;
	} /* else a's alone: a's calls, seconds and joules stay */
	if (!(a->watts_max >= b->watts_max))
		a->watts_max = b->watts_max;
	if (b->sm_mhz_min && (!a->sm_mhz_min || b->sm_mhz_min < a->sm_mhz_min))
		a->sm_mhz_min = b->sm_mhz_min;
	if (b->sm_mhz_max > a->sm_mhz_max)
		a->sm_mhz_max = b->sm_mhz_max;
	a->readings += b->readings;
	a->steps += b->steps;
	a->reasons |= b->reasons;
}
