/* test_jit: the compiler process (no GPU needed). A batch with a source NVRTC rejects: the good ones
 * compile, the bad one fails with its log and a verdict (it may be cached). ptxas's report as NVRTC words it
 * (a literal log, and a kernel that must spill: its spills are read, not taken for 0). A process kept up: ids come back
 * once each, an urgent id overtakes the queue. A source that crashes the process: the parent learns it died
 * and which job was in flight, and a process started again compiles the rest. */
#include "../src/err.h"
#include "../src/jit.h"
#include "testlib.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *good = "extern \"C\" __global__ void k(float *x) { x[threadIdx.x] *= VALUE; }\n";
static const char *bad = "extern \"C\" __global__ void k(float *x) { x[threadIdx.x] = undeclared_name; }\n";
/* 32 registers a thread (1024 threads, 2 blocks an SM) against 96 values live at once */
static const char *spills =
	"extern \"C\" __global__ void __launch_bounds__(1024, 2) k(float *x) {\n"
	"  float a[96];\n"
	"#pragma unroll\n"
	"  for (int i = 0; i < 96; i++) a[i] = x[threadIdx.x + 1024 * i];\n"
	"  float s = 0.f;\n"
	"#pragma unroll\n"
	"  for (int i = 0; i < 96; i++) s += a[i] * a[95 - i] * x[i];\n"
	"#pragma unroll\n"
	"  for (int i = 0; i < 96; i++) x[threadIdx.x + 1024 * i] = a[i] * s;\n"
	"}\n";

/* id 2 crashes the compiler process; the others are good sources */
static char *source(void *arg, int id)
{
	(void)arg;
	if (id == 2) /* SIGABRT: a sanitizer build's SIGSEGV handler would turn SIGSEGV into exit 1 */
		raise(SIGABRT);
	char *s = malloc(strlen(good) + 64);
	if (s)
		sprintf(s, "#define VALUE %d\n%s", id + 1, good);
	return s;
}

int main(void)
{
	/* ptxas's report in NVRTC's words */
	const char *log = "ptxas info    : Compiling entry function 'conv_nhwc' for 'sm_90a'\n"
			  "ptxas info    : Function properties for conv_nhwc\n"
			  "ptxas         .     2816 bytes stack frame, 3896 bytes spill stores, 5300 bytes spill loads\n"
			  "ptxas info    : Used 168 registers, used 2 barriers, 2816 bytes cumulative stack size, 2128 bytes smem\n";
	struct dlb_kernel_report rep[2] = {0};
	CHECK(dlb_jit_parse_ptxas(log, rep, 2) == 1 && !strcmp(rep[0].name, "conv_nhwc") && rep[0].registers == 168 &&
		      rep[0].stack_bytes == 2816 && rep[0].spill_stores == 3896 && rep[0].spill_loads == 5300 &&
		      rep[0].smem_bytes == 2128,
	      "parsed: %s %d regs, %d stack, %d/%d spill, %d smem", rep[0].name, rep[0].registers, rep[0].stack_bytes,
	      rep[0].spill_stores, rep[0].spill_loads, rep[0].smem_bytes);
	struct dlb_jit_job sj = {.source = spills, .arch = "sm_90a"};
	REQUIRE(dlb_jit_compile_isolated(&sj, 1, 1, NULL, NULL) == 0, "spilling kernel: %s", dlb_last_error());
	CHECK(sj.rc == 0 && sj.nkernels == 1 && sj.kernels[0].registers <= 32 && sj.kernels[0].spill_stores > 0 &&
		      sj.kernels[0].spill_loads > 0,
	      "a kernel that must spill: rc %d, %d kernels, %d regs, %d/%d bytes spilled; log: %s", sj.rc, sj.nkernels,
	      sj.kernels[0].registers, sj.kernels[0].spill_stores, sj.kernels[0].spill_loads, sj.log ? sj.log : "");
	dlb_jit_job_free(&sj);

	/* a batch: 0 and 2 good, 1 rejected by NVRTC */
	struct dlb_jit_job jobs[3] = {{.source = good, .arch = "sm_90a"}, {.source = bad, .arch = "sm_90a"},
				      {.source = good, .arch = "sm_80"}};
	const char *d = "#define VALUE 2\n";
	char *src0 = malloc(strlen(d) + strlen(good) + 1);
	REQUIRE(src0, "out of memory");
	sprintf(src0, "%s%s", d, good);
	jobs[0].source = jobs[2].source = src0;
	REQUIRE(dlb_jit_compile_isolated(jobs, 3, 2, NULL, NULL) == 0, "batch: %s", dlb_last_error());
	for (int i = 0; i < 3; i += 2)
		CHECK(jobs[i].rc == 0 && jobs[i].cubin && jobs[i].cubin_size > 0 && jobs[i].verdict == 1 &&
			      jobs[i].nkernels == 1,
		      "job %d: rc %d, %zu cubin bytes, verdict %d, %d kernels: %s", i, jobs[i].rc, jobs[i].cubin_size,
		      jobs[i].verdict, jobs[i].nkernels, jobs[i].log ? jobs[i].log : "");
	CHECK(jobs[1].rc == DLB_E_NVRTC && !jobs[1].cubin && jobs[1].verdict == 1 && jobs[1].log &&
		      strstr(jobs[1].log, "undeclared_name"),
	      "the bad source: rc %d, verdict %d, log %s", jobs[1].rc, jobs[1].verdict, jobs[1].log ? jobs[1].log : "");
	for (int i = 0; i < 3; i++)
		dlb_jit_job_free(&jobs[i]);
	free(src0);

	/* a process that stays up: 6 ids wanted in order, then 5 made urgent; 2 crashes it */
	struct dlb_jit_server s;
	REQUIRE(dlb_jit_server_start(&s, 1, "sm_90a", 6, source, NULL) == 0, "start: %s", dlb_last_error());
	CHECK(!strncmp(s.compiler, "nvrtc=", 6) && strchr(s.compiler, '/'), "compiler identity '%s'", s.compiler);
	int want[] = {0, 1, 2, 3, 4}, done[6] = {0}, started[6] = {0}, order[6], nord = 0, died = 0, urgent_sent = 0;
	REQUIRE(dlb_jit_server_want(&s, want, 5) == 0, "want");
	for (int guard = 0; guard < 100 && !died; guard++) {
		struct dlb_jit_event ev;
		if (nord == 1 && !urgent_sent) { /* the first is compiling: 5 comes next */
			REQUIRE(dlb_jit_server_urgent(&s, 5) == 0, "urgent");
			urgent_sent = 1;
		}
		int rc = dlb_jit_server_take(&s, 60, &ev);
		if (rc == DLB_E_NVRTC) {
			died = 1;
			break;
		}
		REQUIRE(rc == 0, "take: %d %s", rc, dlb_last_error());
		REQUIRE(ev.id >= 0 && ev.id < 6, "id %d", ev.id);
		if (ev.kind == DLB_JIT_STARTED) {
			started[ev.id]++;
			order[nord++] = ev.id;
		} else {
			done[ev.id]++;
			CHECK(ev.job.rc == 0 && ev.job.cubin, "id %d: rc %d", ev.id, ev.job.rc);
			dlb_jit_job_free(&ev.job);
		}
	}
	CHECK(died && strstr(s.why, "signal 6"), "the crash: died %d, why '%s'", died, s.why);
	CHECK(started[2] == 1 && !done[2], "id 2 started once and never finished (%d, %d)", started[2], done[2]);
	CHECK(done[0] == 1 && done[1] == 1, "ids 0 and 1 compiled once before the crash (%d, %d)", done[0], done[1]);
	/* one thread: 5 was made urgent while 0 compiled, and overtook 1..4 */
	CHECK(nord >= 2 && order[0] == 0 && order[1] == 5, "the urgent id was not second (order %d, %d)", order[0], nord > 1 ? order[1] : -1);
	dlb_jit_server_stop(&s);

	/* started again: the rest compile */
	REQUIRE(dlb_jit_server_start(&s, 2, "sm_90a", 6, source, NULL) == 0, "restart: %s", dlb_last_error());
	int rest[] = {3, 4}, got = 0;
	REQUIRE(dlb_jit_server_want(&s, rest, 2) == 0, "want");
	while (got < 2) {
		struct dlb_jit_event ev;
		REQUIRE(dlb_jit_server_take(&s, 60, &ev) == 0, "take after restart: %s", dlb_last_error());
		if (ev.kind == DLB_JIT_DONE) {
			CHECK(ev.job.rc == 0 && (ev.id == 3 || ev.id == 4), "id %d rc %d", ev.id, ev.job.rc);
			dlb_jit_job_free(&ev.job);
			got++;
		}
	}
	struct dlb_jit_event ev;
	CHECK(dlb_jit_server_take(&s, 0.2, &ev) == DLB_E_NOTFOUND, "an event nobody asked for");
	dlb_jit_server_stop(&s);
	return TEST_DONE();
}
