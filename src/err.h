/* err: dlbtune's error codes, their messages, and the check macros every CUDA/NVRTC/LMDB call goes through
 * (statement text and file:line are kept for the caller to report); each op family checks its vendor library
 * with a macro of its own in the same form. */
#ifndef DLB_ERR_H
#define DLB_ERR_H
#include <stddef.h>

/* 0 is success; positive values are errno codes; LMDB's own codes (-30799..-30779) pass through untouched;
 * dlbtune's codes live in their own range below them. */
enum dlb_code {
	DLB_OK = 0,
	DLB_E_FIRST = -31000,
	DLB_E_USAGE = DLB_E_FIRST,  /* bad command line or input: exit 2 */
	DLB_E_PARSE,                /* malformed input file */
	DLB_E_NODRIVER,             /* no CUDA driver on this machine */
	DLB_E_NODEVICE,             /* a driver but no (such) GPU */
	DLB_E_CUDA,                 /* any other CUDA runtime error */
	DLB_E_CUDA_STICKY,          /* a CUDA error that poisons the context (illegal address, ...) */
	DLB_E_NVRTC,                /* NVRTC failure, including compile errors */
	DLB_E_VENDOR,               /* a vendor library's failure (each family's check macro says which call) */
	DLB_E_LMDB,                 /* LMDB failure not covered by its own code */
	DLB_E_DEVMEM,               /* problem does not fit in free device memory */
	DLB_E_LIMIT,                /* candidate exceeds a device limit */
	DLB_E_WRONG,                /* result failed verification */
	DLB_E_JSON,                 /* bad or unreadable stored record */
	DLB_E_INTERRUPTED,          /* SIGINT / SIGTERM */
	DLB_E_DBFORMAT,             /* a database this dlbtune cannot read: foreign, truncated, other schema */
	DLB_E_NOTFOUND,             /* nothing stored for what was asked */
	DLB_E_CORRUPT,              /* a stored entry failed its own checks (length, checksum, key) */
	DLB_E_LAST
};

const char *dlb_strerror(int code);

/* Detail of the last failure on this thread ("src/x.c:12: cudaMalloc(...): cudaErrorMemoryAllocation ..."). */
const char *dlb_last_error(void);
void dlb_set_error(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void dlb_clear_error(void);
/* The last failure in brief, for a vendor entry that has no time: the name of the first call in it that starts
 * with prefix ("cudnn", "cusparse") and the status after its last ':' ("cusparseSpMM_bufferSize:
 * CUSPARSE_STATUS_NOT_SUPPORTED"); the status alone where no such call is named. */
void dlb_last_error_brief(const char *prefix, char *buf, size_t len);

/* Each macro needs `int rc` and a `fail:` label in the calling function. */
#define DLB_FAIL(code, ...)                                        \
	do {                                                           \
		dlb_set_error(__FILE__, __LINE__, __VA_ARGS__);            \
		rc = (code);                                               \
		goto fail;                                                 \
	} while (0)

/* A failure caused by the user's input: the message needs no source location. */
#define DLB_USER_FAIL(code, ...)                                   \
	do {                                                           \
		dlb_set_error(NULL, 0, __VA_ARGS__);                       \
		rc = (code);                                               \
		goto fail;                                                 \
	} while (0)

#define DLB_CHECK(expr)                                            \
	do {                                                           \
		if ((rc = (expr)) != 0)                                    \
			goto fail;                                             \
	} while (0)

int dlb_map_cuda(int cuda_error);

#define CUDA_CHECK(call)                                                               \
	do {                                                                               \
		cudaError_t e_ = (call);                                                       \
		if (e_ != cudaSuccess)                                                         \
			DLB_FAIL(dlb_map_cuda(e_), "%s: %s (%s)", #call, cudaGetErrorName(e_),     \
				 cudaGetErrorString(e_));                                              \
	} while (0)

#define NVRTC_CHECK(call)                                                              \
	do {                                                                               \
		nvrtcResult e_ = (call);                                                       \
		if (e_ != NVRTC_SUCCESS)                                                       \
			DLB_FAIL(DLB_E_NVRTC, "%s: %s", #call, nvrtcGetErrorString(e_));           \
	} while (0)

#define MDB_CHECK(call)                                                                \
	do {                                                                               \
		int e_ = (call);                                                               \
		if (e_ != MDB_SUCCESS)                                                         \
			DLB_FAIL(e_, "%s: %s", #call, mdb_strerror(e_));                           \
	} while (0)

#endif
