/* key: "v2|op|prec|layout|shape|gpu=...|id=...|sm=..|driver=..|cuda=..|nvrtc=..|<vendor>=..|tpl=<hex>", e.g.
 * "v2|gemm|fp32|NN|35x700x2048|gpu=NVIDIA H100 80GB HBM3|id=132sm-79GiB-1980MHz-2619MHz|...|cublas=130100|tpl=...",
 * then "|only=TEXT" for a restricted search's result (a field that older version-2 keys simply lack).
 * Version 1 had uuid=GPU-... where id= is (schema 2 databases; db migrate rewrites them).
 * The measured problem comes first so that keys of one op sort together. '|' in a GPU name becomes '/'. */
#include "key.h"

#include "../src/err.h"
#include "../src/jit.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void dlb_key_gpu_text(const struct dlb_key *k, char *buf, size_t len)
{
	snprintf(buf, len, "%s (%s), driver %d.%d, CUDA %d.%d", k->gpu, k->id, k->driver / 1000, (k->driver % 1000) / 10,
		 k->cuda / 1000, (k->cuda % 1000) / 10);
}

void dlb_key_model_id(int sm_count, double memory_gib, int clock_mhz, int mem_clock_mhz, char *buf, size_t len)
{
	snprintf(buf, len, "%dsm-%.0fGiB-%dMHz-%dMHz", sm_count, memory_gib, clock_mhz, mem_clock_mhz);
}

void dlb_key_only_text(const char *only, char *buf, size_t len)
{
	const size_t keep = sizeof ((struct dlb_key *)0)->only;
	if (strlen(only) < keep) {
		snprintf(buf, len, "%s", only);
		return;
	}
	snprintf(buf, len, "%.*s~%016" PRIx64, (int)(keep - 18), only, dlb_hash64(only, strlen(only)));
}

int dlb_key_id_is_uuid(const char *id)
{
	return !strncmp(id, "GPU-", 4) || !strncmp(id, "MIG-", 4);
}

int dlb_key_encode(const struct dlb_key *k, char *buf, size_t len)
{
	char gpu[sizeof k->gpu], only[sizeof k->only];
	snprintf(gpu, sizeof gpu, "%s", k->gpu);
	snprintf(only, sizeof only, "%s", k->only);
	for (char *p = gpu; *p; p++)
		if (*p == '|')
			*p = '/';
	for (char *p = only; *p; p++)
		if (*p == '|')
			*p = '/';
	int n = snprintf(buf, len,
			 "v%d|%s|%s|%s|%s|gpu=%s|id=%s|sm=%d|driver=%d|cuda=%d|nvrtc=%d|%s=%lld|tpl=%016" PRIx64 "%s%s",
			 DLB_KEY_VERSION, k->op, k->prec, k->layout, k->shape, gpu, k->id, k->sm, k->driver, k->cuda,
			 k->nvrtc, k->vlib, k->vlib_version, k->tpl_hash, *only ? "|only=" : "", only);
	if (n < 0 || (size_t)n >= len || n > DLB_KEY_MAX)
		return -1;
	return n;
}

int dlb_key_decode(const char *buf, size_t len, struct dlb_key *k)
{
	char tmp[DLB_KEY_MAX + 1];
	int used = 0, ver = 0;
	if (len > DLB_KEY_MAX)
		return DLB_E_PARSE;
	memcpy(tmp, buf, len);
	tmp[len] = 0;
	memset(k, 0, sizeof *k);
	if (sscanf(tmp, "v%d|", &ver) != 1 || (ver != DLB_KEY_VERSION && ver != 1))
		return DLB_E_PARSE;
	if (sscanf(tmp, ver == 1 ? "v%*d|%15[^|]|%7[^|]|%31[^|]|%159[^|]|gpu=%127[^|]|uuid=%47[^|]|%n"
				 : "v%*d|%15[^|]|%7[^|]|%31[^|]|%159[^|]|gpu=%127[^|]|id=%47[^|]|%n",
		   k->op, k->prec, k->layout, k->shape, k->gpu, k->id, &used) != 6 ||
	    !used || (ver == 1 && !dlb_key_id_is_uuid(k->id)))
		return DLB_E_PARSE;
	k->version = ver;
	int hash_at = 0, tail = 0;
	if (sscanf(tmp + used, "sm=%d|driver=%d|cuda=%d|nvrtc=%d|%15[a-z0-9_]=%lld|tpl=%n%16" SCNx64 "%n", &k->sm,
		   &k->driver, &k->cuda, &k->nvrtc, k->vlib, &k->vlib_version, &hash_at, &k->tpl_hash, &tail) != 7 ||
	    tail - hash_at != 16) /* the hash is always 16 hex digits */
		return DLB_E_PARSE;
	const char *rest = tmp + used + tail;
	if (!*rest)
		return 0;
	/* a restricted search's: "|only=TEXT" to the end, TEXT not empty, without '|', within k->only */
	if (ver == 1 || strncmp(rest, "|only=", 6) || !rest[6] || strchr(rest + 6, '|') || strlen(rest + 6) >= sizeof k->only)
		return DLB_E_PARSE;
	snprintf(k->only, sizeof k->only, "%s", rest + 6);
	return 0;
}
