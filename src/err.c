/* err: error codes and the thread's last-error detail. */
#include "err.h"

#include <cuda_runtime_api.h>
#include <lmdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const messages[] = {
	[DLB_E_USAGE - DLB_E_FIRST] = "usage error",
	[DLB_E_PARSE - DLB_E_FIRST] = "malformed input",
	[DLB_E_NODRIVER - DLB_E_FIRST] = "no CUDA driver on this machine",
	[DLB_E_NODEVICE - DLB_E_FIRST] = "no CUDA device",
	[DLB_E_CUDA - DLB_E_FIRST] = "CUDA runtime error",
	[DLB_E_CUDA_STICKY - DLB_E_FIRST] = "CUDA error that poisons the context",
	[DLB_E_NVRTC - DLB_E_FIRST] = "NVRTC error",
	[DLB_E_VENDOR - DLB_E_FIRST] = "vendor library error",
	[DLB_E_LMDB - DLB_E_FIRST] = "database error",
	[DLB_E_DEVMEM - DLB_E_FIRST] = "problem does not fit in device memory",
	[DLB_E_LIMIT - DLB_E_FIRST] = "exceeds a device limit",
	[DLB_E_WRONG - DLB_E_FIRST] = "wrong answer",
	[DLB_E_JSON - DLB_E_FIRST] = "unreadable stored record",
	[DLB_E_INTERRUPTED - DLB_E_FIRST] = "interrupted",
	[DLB_E_DBFORMAT - DLB_E_FIRST] = "unreadable database",
	[DLB_E_NOTFOUND - DLB_E_FIRST] = "not in the database",
	[DLB_E_CORRUPT - DLB_E_FIRST] = "damaged stored entry",
};
_Static_assert(sizeof messages / sizeof messages[0] == DLB_E_LAST - DLB_E_FIRST, "one message per code");

const char *dlb_strerror(int code)
{
	if (code >= DLB_E_FIRST && code < DLB_E_LAST)
		return messages[code - DLB_E_FIRST];
	if (code < 0)
		return mdb_strerror(code);
	return strerror(code);
}

static _Thread_local char last_error[1024];

const char *dlb_last_error(void)
{
	return last_error;
}

void dlb_clear_error(void)
{
	last_error[0] = 0;
}

void dlb_last_error_brief(const char *prefix, char *buf, size_t len)
{
	const char *e = last_error, *call = strstr(e, prefix), *status = strrchr(e, ':');
	int n = call ? (int)strcspn(call, "(") : 0;
	snprintf(buf, len, "%.*s%s%s", n, call ? call : "", n ? ":" : "", status ? status + 1 : e);
}

void dlb_set_error(const char *file, int line, const char *fmt, ...)
{
	/* file NULL: a message about the user's input, which needs no source location */
	int n = file ? snprintf(last_error, sizeof last_error, "%s:%d: ", file, line) : 0;
	if (n < 0 || (size_t)n >= sizeof last_error)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error + n, sizeof last_error - (size_t)n, fmt, ap);
	va_end(ap);
}

int dlb_map_cuda(int e)
{
	if (e == cudaErrorInsufficientDriver)
		return DLB_E_NODRIVER;
	if (e == cudaErrorNoDevice || e == cudaErrorInvalidDevice)
		return DLB_E_NODEVICE;
	/* Errors after which the context is unusable: the process must start over. */
	if (e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure || e == cudaErrorLaunchTimeout ||
	    e == cudaErrorHardwareStackError || e == cudaErrorIllegalInstruction ||
	    e == cudaErrorMisalignedAddress || e == cudaErrorInvalidAddressSpace || e == cudaErrorInvalidPc ||
	    e == cudaErrorAssert)
		return DLB_E_CUDA_STICKY;
	return DLB_E_CUDA;
}
