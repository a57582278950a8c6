/* result: what tuning one problem produced — every trial with its status, the verified best, and the vendor
 * times — in the form stored (store/record.c) and printed (reports/table.c). */
#ifndef DLB_RESULT_H
#define DLB_RESULT_H
#include "../search/stats.h"
#include "problem.h"

#include <stddef.h>
#include <stdint.h>

enum dlb_status {
	DLB_ST_OK,
	DLB_ST_COMPILE_ERROR,
	DLB_ST_RESOURCE_LIMIT,
	DLB_ST_WRONG_ANSWER,
	DLB_ST_RUNTIME_FAULT,
	DLB_ST_TIMEOUT,
	DLB_ST_NOISY,
	DLB_ST_COUNT
};
const char *dlb_status_name(enum dlb_status s);
int dlb_status_parse(const char *s, enum dlb_status *out);

/* One candidate (configuration and launch variant) tried on one problem. */
struct dlb_trial {
	char config[128];
	enum dlb_status status;
	int n;                  /* timed samples behind median_us (0: not timed) */
	double median_us;       /* median time of an ok trial; NAN otherwise */
	double lo_us, hi_us;    /* its 95% confidence interval */
	double mean_us;         /* mean of the samples kept; NAN if unknown */
	int taken;              /* samples taken, warm-up discards included (0: not recorded) */
	int noisy;              /* the racer reached its cap without a decision */
	double max_err;
	char stop[16];          /* why timing stopped: the racer's slower, precise, cap or fixed (final_... in the
	                         * showdown), slow_verify; older records: screen, cutoff, samples; "" if never timed */
	double seconds;         /* wall time the trial cost, a worker restart after a fault included */
	int seq;                /* its place among the trials its search stored (1, 2, ...; a trial measured again
	                         * in the final showdown takes a later one); 0: not recorded */
	char error[160];        /* what went wrong, for failed trials */
	char timestamp[24];
	int flush_read;         /* 1: made by a build whose L2 flush reads (struct dlb_result's flush_read) */
};

/* Where a measurement ran: one GPU under one set of driver and library versions, on one host. */
#define DLB_MAX_LIBS 8
struct dlb_platform {
	char key[256]; /* uuid|driver=..|cuda=..|nvrtc=..|<lib>=..|...|dlbtune=.. (the libraries in_platform_key) */
	char gpu[128], uuid[48];
	int sm, sm_count, clock_mhz, mem_clock_mhz, mem_bus_bits;
	double memory_gib, l2_mib;
	int driver, cuda, nvrtc;
	long long lib[DLB_MAX_LIBS]; /* the version of dlb_libs[i] (src/op.h); 0: not recorded */
	char hostname[64], kernel[96], dlbtune[24];
	char cpu[96]; /* the host CPU's model ("" when unknown or not recorded) */
	char first_seen[24], last_seen[24];
};

/* Accuracy, measured: the error of a kernel's output at n sampled outputs against the exact result of its inputs
 * in double, each |c - ref| / sum_k |a_ik b_kj| (what the summation's rounding is measured against), the largest
 * and the mean. n = 0: not measured (an op without the hook, records made before it). */
struct dlb_rel_err {
	int n;
	double max, mean;
};

#define DLB_RESULT_MAX_VENDOR 16
struct dlb_vendor_entry {
	char name[48];
	int kind;     /* which of the family's vendor columns it belongs to (struct dlb_vendor_col) */
	int ok;
	struct dlb_stats st;
	int is_floor; /* not a vendor kernel: the stream floor (reads the inputs, writes the output once) */
	char config[112]; /* the algorithm's configuration as the vendor reports it; "" where it reports none and in
	                   * records made before it was kept */
	int other_math;   /* another math than the problem's precision (TF32 for fp32): shown in its kind's
	                   * column, never the vendor best */
	struct dlb_rel_err rel_err; /* of its verified output */
};

/* The winner and the vendor best timed side by side after the search: sample i of each is taken back to back
 * (the order alternating from pair to pair), so drift of the GPU over a long search (clocks, temperature) is
 * in both. speedup is the median of the n ratios vendor_i / tuned_i with its order-statistic CI. */
/* Energy, after the pairs: a burst of back-to-back calls (input sets rotated, no L2 flush) lasting
 * --power-ms, with the GPU's energy counter, power, SM clock and clock-event reasons read while it runs
 * (NVML, src/power.h; dlb_bench_energy says how the joules come from the counter). The GPU's idle power is
 * in it: it is what the GPU drew. */
struct dlb_energy {
	int calls;            /* 0: not measured (no NVML, --power-ms 0, older records); of several bursts, those
	                       * of the steady ones where any was (dlb_energy_add) */
	double seconds;       /* the bursts' GPU time (CUDA events), of the same bursts */
	double joules;        /* from the energy counter (steady); NAN where not measured */
	double watts_max;     /* the highest power reading while it ran; NAN: none */
	int sm_mhz_min, sm_mhz_max; /* the SM clock's range while it ran; 0: not read */
	int readings;         /* power/clock readings taken while it ran */
	int steps;            /* energy counter changes seen in its steady part */
	int steady;           /* 1: joules = the counter's rate in the steady part x seconds (dlb_bench_energy);
	                       * 0: joules not to be used (too few counter steps, or no two of them timed
	                       * closely enough, in every one of its bursts; before the report's run06, in
	                       * any one of them; run03 stored the counter's difference over the whole
	                       * burst there) */
	unsigned long long reasons; /* the clock-event reasons seen while it ran (OR; DLB_CLOCK_* bits) */
	int graphed;          /* 1: its calls were launched as CUDA graphs (the GPU's time alone, as the pairs);
	                       * 0: one by one (capture failed; older records), host gaps included */
};

#define DLB_PAIRED_MAX 64
struct dlb_paired {
	int n;           /* pairs; 0: not measured (no winner or no vendor time, --paired 0, older records) */
	char vendor[48]; /* the vendor entry it ran against (the vendor best of the baselines) */
	struct dlb_stats tuned, vendor_st, speedup; /* microseconds; speedup: the ratios */
	struct dlb_energy e_tuned, e_vendor;
};

/* How a problem's search went (absent from records made before searches had strategies). */
struct dlb_search_info {
	char strategy[16]; /* "" when not recorded */
	int points;        /* candidates (configurations x launch variants) it could evaluate */
	int evaluated;
	long samples;      /* timing samples taken, over every candidate */
	int seeds;         /* candidates taken first from nearby shapes in the database */
	double seconds;    /* wall time of the search (the vendor baselines not included) */
	char why[160];     /* why it stopped */
};

struct dlb_result {
	struct dlb_problem p;
	char key[512];       /* its database key (store/key.h) */
	char platform[256];  /* the platform key it was measured on; "" for records migrated from schema 1 */
	int found;      /* a verified candidate won */
	int cached;     /* answered from the database */
	int failed;     /* the problem could not be tuned (not stored) */
	int ran_on;     /* the GPU (ordinal + 1) that tuned it in a run over several GPUs; 0: not said */
	char elsewhere[48]; /* answered from the database: the UUID of the GPU (of the same model) that measured it,
	                     * when that is none of this run's GPUs; "" otherwise */
	char config[128];
	struct dlb_stats tuned; /* microseconds */
	double max_err, tol;
	struct dlb_rel_err rel_err; /* the winner's, measured after the side-by-side timing */
	double peak;            /* the op's peak on the device it ran on, in its unit (dlb_op_unit: TFLOP/s, TOPS or
	                         * GB/s); NAN when not recorded */
	double mem_peak;        /* that device's memory bandwidth, GB/s (dlb_device_peak_gbs), for ops that show
	                         * their bytes beside their flops; NAN (or 0) when not recorded */
	int nvendor;
	struct dlb_vendor_entry vendor[DLB_RESULT_MAX_VENDOR];
	int counts[DLB_ST_COUNT];
	int ntrials;
	struct dlb_trial *trials; /* loaded on request; counts[] always */
	double gpu_seconds; /* wall time spent tuning this problem */
	struct dlb_search_info search;
	struct dlb_paired paired;
	char gpu[128];
	char timestamp[32];
	int flush_read; /* 1: timed after an L2 flush that reads its buffer (clean lines: src/bench.c's flush_l2);
	                 * 0: records made before, after a memset that left L2 dirty */
};

/* Derived columns; NAN where the number does not exist (never a made-up one): no verified candidate, no vendor
 * entry of that kind (e.g. cuBLASLt had no algorithm for the layout), none verified, or no peak recorded. A
 * vendor entry counts when it was verified and timed. */
/* The family's work of the shape as given (not padded) / tuned median, in the op's unit (dlb_op_unit). */
double dlb_result_throughput(const struct dlb_result *r);
double dlb_result_pct_peak(const struct dlb_result *r);    /* throughput / peak × 100 */
/* The best verified entry of one kind (a family's vendor column, struct dlb_vendor_col). */
double dlb_result_kind_best_us(const struct dlb_result *r, int kind);
/* The fastest verified entry of that kind (its name, config), or NULL. */
const struct dlb_vendor_entry *dlb_result_kind_best(const struct dlb_result *r, int kind);
double dlb_result_vendor_best_us(const struct dlb_result *r);
/* The entry behind dlb_result_vendor_best_us (its name for the reports); NULL when there is none. */
const struct dlb_vendor_entry *dlb_result_vendor_best(const struct dlb_result *r);
/* The stream floor's median: the time to read the inputs and write the output once in the same harness
 * (a bound no kernel beats by much; vendor best / floor bounds any speedup). */
double dlb_result_floor_us(const struct dlb_result *r);
double dlb_result_speedup(const struct dlb_result *r);     /* vendor best / tuned */
/* The side-by-side speedup (struct dlb_paired) and its CI; NAN when not measured. */
double dlb_result_paired_speedup(const struct dlb_result *r);
double dlb_result_paired_lo(const struct dlb_result *r);
double dlb_result_paired_hi(const struct dlb_result *r);
/* The side-by-side ratios ratio[0..n) split by order, as the worker takes the pairs (pair i: the winner's
 * sample first when i is even, the vendor's when odd): by[0] summarises the pairs with the winner first,
 * by[1] those with the vendor first; two medians apart say the order matters. EINVAL for n < 2. */
int dlb_paired_by_order(const double *ratio, int n, double confidence, struct dlb_stats by[2]);
/* 1 where a side's (which: 0 ours, 1 the vendor's) energy bursts, launched call by call, took over 1.2 times
 * its paired time per call: the GPU waited on the host, and the joules per call, watts and work per joule
 * below are NAN for it. */
int dlb_result_host_bound(const struct dlb_result *r, int which);
/* Energy per call in joules, mean watts over the burst, and work per joule in the op's unit per watt
 * (TFLOP/s/W = TFLOP/J); which: 0 ours, 1 the vendor's. NAN where not measured. */
double dlb_result_j_per_call(const struct dlb_result *r, int which);
double dlb_result_watts(const struct dlb_result *r, int which);
double dlb_result_per_watt(const struct dlb_result *r, int which);
void dlb_result_free(struct dlb_result *r);
/* x with printf format f, or "n/a" when it is not a finite number (never a made-up value). */
const char *dlb_fmt_num(char *buf, size_t len, double x, const char *f);
#endif
