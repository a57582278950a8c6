/* result: what tuning one problem produced — every trial with its status, the verified best, and the vendor
 * times — in the form stored (store/record.c) and printed (reports/table.c). */
#ifndef DLB_RESULT_H
#define DLB_RESULT_H
#include "../search/stats.h"
#include "problem.h"

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

struct dlb_trial {
	char config[128];
	enum dlb_status status;
	double median_us; /* screening median (ok trials) */
	double max_err;
};

#define DLB_RESULT_MAX_VENDOR 10
struct dlb_vendor_entry {
	char name[48];
	int is_lt, ok;
	struct dlb_stats st;
};

struct dlb_result {
	struct dlb_problem p;
	int found;      /* a verified candidate won */
	int cached;     /* answered from the database */
	char config[128];
	struct dlb_stats tuned; /* microseconds */
	double max_err, tol;
	double peak_tflops;     /* fp32 peak of the device it ran on */
	int nvendor;
	struct dlb_vendor_entry vendor[DLB_RESULT_MAX_VENDOR];
	int counts[DLB_ST_COUNT];
	int ntrials;
	struct dlb_trial *trials;
	double gpu_seconds; /* wall time spent tuning this problem */
	char gpu[128];
	char timestamp[32];
};

/* Derived columns; NAN where not available. */
double dlb_result_tflops(const struct dlb_result *r);
double dlb_result_cublas_us(const struct dlb_result *r);   /* the non-Lt entry */
double dlb_result_lt_best_us(const struct dlb_result *r);  /* best verified cuBLASLt algorithm */
double dlb_result_vendor_best_us(const struct dlb_result *r);
double dlb_result_speedup(const struct dlb_result *r);     /* vendor best / tuned */
void dlb_result_free(struct dlb_result *r);
#endif
