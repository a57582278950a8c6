/* bench: the one timing harness for tuned and vendor kernels — CUDA events, warm-up, L2 flushed before
 * every sample (by reading a buffer of max(2×L2, 64 MiB), so that L2 holds clean lines: see flush_l2), launches
 * rotated over input sets within a sample, median with a 95% CI. The stream is held
 * (util.cu's hold_stream) until a sample's launches are all queued, so the time of a launch's host side
 * (a vendor library's checks and plan lookups) never leaves the GPU idle inside the timed region. */
#ifndef DLB_BENCH_H
#define DLB_BENCH_H
#include "../search/stats.h"
#include "device.h"

/* Enqueue one run of the code under test on the bench's stream, reading input set `set`. */
typedef int (*dlb_launch_fn)(void *ctx, int set);

struct dlb_bench {
	cudaStream_t stream;
	cudaEvent_t ev0, ev1;
	void *flush; /* read before each sample (written once, at open): evicts whatever the previous sample left
		      * in L2, and leaves no dirty line for the sample's launches to write back */
	size_t flush_bytes;
	cudaKernel_t sweep; /* set by dlb_gpu_open (util.cu's stream_floor); NULL: the flush writes the buffer */
	int sm_count;
	cudaKernel_t hold;          /* set by dlb_gpu_open; NULL: samples are timed without holding the stream */
	volatile unsigned *gate;    /* host-mapped: [0] = 1 releases the held stream, [1] = 1 the hold timed out */
	unsigned *gate_dev;         /* the same, as the kernel sees it */
	long long holds, hold_timeouts; /* held samples; those whose hold gave up (taken again unheld) */
};

struct dlb_bench_opts {
	int warmup;           /* untimed runs first (module load, clocks, caches of the driver) */
	int samples;          /* timed samples */
	double min_sample_us; /* a sample holds enough launches to last this long (event resolution ~0.5 us) */
	double confidence;    /* of the reported intervals */
	double cutoff_us;     /* > 0: stop after any sample slower than this (a candidate that cannot win) */
};

/* Input sets a problem of per_set bytes rotates over so that launches in a row never find their inputs in L2:
 * as many as fit in 2×L2, at least 1, at most max. */
int dlb_bench_sets(const struct dlb_device *dev, size_t per_set, int max);
/* A seed for fresh inputs on every run (from the clock); recorded with what it drew. */
uint64_t dlb_fresh_seed(void);
/* Bytes read before each sample to evict L2: max(2×L2, 64 MiB). */
size_t dlb_bench_flush_bytes(const struct dlb_device *dev);
int dlb_bench_open(const struct dlb_device *dev, struct dlb_bench *b);
void dlb_bench_close(struct dlb_bench *b);
/* Time fn. nsets: how many distinct input sets fn may be given (launches within one sample never reuse
 * a set, so none finds its inputs in L2). Sample times are per launch, in microseconds. */
int dlb_bench_time(struct dlb_bench *b, dlb_launch_fn fn, void *ctx, int nsets, const struct dlb_bench_opts *o,
		   struct dlb_stats *out);
/* Take k samples of fn into us[0..k), numbered from `first` (which input sets and flush values they use).
 * With *reps < 1 this is the candidate's first call: o->warmup untimed runs first, and *reps is set to the
 * launches per sample (keep it for the candidate's later calls, so every sample measures the same thing).
 * *taken: the samples taken (fewer than k when one is slower than o->cutoff_us). */
int dlb_bench_samples(struct dlb_bench *b, dlb_launch_fn fn, void *ctx, int nsets, const struct dlb_bench_opts *o,
		      int *reps, int first, int k, double *us, int *taken);
/* Energy of fn (struct dlb_energy, src/result.h): calls back to back for ms milliseconds of wall time (call_us:
 * its time per call, which sizes the chunks launched), input sets rotated, while a thread of its own reads the
 * energy counter every millisecond and power, clock and clock-event reasons every 20 ms (bench.c says how the
 * joules come from the counter's steps). pw NULL or ms <= 0: out->calls = 0, nothing run. */
struct dlb_power;
struct dlb_energy;
int dlb_bench_energy(struct dlb_bench *b, struct dlb_power *pw, dlb_launch_fn fn, void *ctx, int nsets, double call_us,
		     double ms, struct dlb_energy *out);
/* Of n energy counter steps (t: each one's moment, w: the width of the span it is known within, e: the
 * counter after it), the two furthest apart, at least two steps apart, with w[i] + w[j] at most a tenth of
 * t[j] - t[i] and that at least a fifth of seconds (the burst's GPU time): *bi, *bj, and 1; else -1, -1 and
 * 0 (dlb_bench_energy then gives n/a). */
int dlb_energy_pick(const double *t, const double *w, const uint64_t *e, int n, double seconds, int *bi, int *bj);
/* b's burst added to a: the calls, seconds and joules of the steady bursts (those whose joules were
 * measured) summed, or of all where none was (joules n/a then); readings and steps summed over all, the
 * clocks' range and the reasons joined. A side's joules per call so come from its steady bursts: with ABBA,
 * both of them where both were (drift cancels), else the one that was. */
void dlb_energy_add(struct dlb_energy *a, const struct dlb_energy *b);
/* Time a single run of fn (after an L2 flush), for screening and for sizing samples. */
int dlb_bench_once(struct dlb_bench *b, dlb_launch_fn fn, void *ctx, int set, double *us);
#endif
