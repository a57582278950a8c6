/* ops/libs: the vendor libraries this build links — their versions, for platform records and keys. Here,
 * beside the op families, because these are the only files that include the vendors' headers. */
#include "../op.h"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cudnn.h>
#include <cusparse.h>
#include <stdio.h>

static long long cublas_version(void)
{
	int maj = 0, min = 0, pat = 0;
	if (cublasGetProperty(MAJOR_VERSION, &maj) != CUBLAS_STATUS_SUCCESS ||
	    cublasGetProperty(MINOR_VERSION, &min) != CUBLAS_STATUS_SUCCESS ||
	    cublasGetProperty(PATCH_LEVEL, &pat) != CUBLAS_STATUS_SUCCESS)
		return 0; /* not available: 0, as in a record */
	return maj * 10000 + min * 100 + pat;
}

static long long cublaslt_version(void)
{
	return (long long)cublasLtGetVersion();
}

static long long cudnn_version(void)
{
	return (long long)cudnnGetVersion();
}

static long long cusparse_version(void)
{
	int maj = 0, min = 0, pat = 0;
	if (cusparseGetProperty(MAJOR_VERSION, &maj) != CUSPARSE_STATUS_SUCCESS ||
	    cusparseGetProperty(MINOR_VERSION, &min) != CUSPARSE_STATUS_SUCCESS ||
	    cusparseGetProperty(PATCH_LEVEL, &pat) != CUSPARSE_STATUS_SUCCESS)
		return 0;
	return maj * 1000 + min * 100 + pat;
}

/* 130100 -> 13.1.0 */
static void format_10000(long long v, char *buf, int len)
{
	snprintf(buf, (size_t)len, "%lld.%lld.%lld", v / 10000, (v / 100) % 100, v % 100);
}

/* 12600 -> 12.6.0 */
static void format_1000(long long v, char *buf, int len)
{
	snprintf(buf, (size_t)len, "%lld.%lld.%lld", v / 1000, (v / 100) % 10, v % 100);
}

static void format_plain(long long v, char *buf, int len)
{
	snprintf(buf, (size_t)len, "%lld", v);
}

const struct dlb_lib dlb_lib_cublas = {"cublas", "cuBLAS", cublas_version, format_10000, 1};
static const struct dlb_lib lib_cublaslt = {"cublaslt", "cuBLASLt", cublaslt_version, format_plain, 0};
const struct dlb_lib dlb_lib_cudnn = {"cudnn", "cuDNN", cudnn_version, format_10000, 1};
const struct dlb_lib dlb_lib_cusparse = {"cusparse", "cuSPARSE", cusparse_version, format_1000, 1};

/* The order of platform records (JSON fields, and the key's text for those in it). */
const struct dlb_lib *const dlb_libs[] = {&dlb_lib_cublas, &lib_cublaslt, &dlb_lib_cudnn, &dlb_lib_cusparse, NULL};
