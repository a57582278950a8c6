/* key: "v1|op|prec|layout|shape|gpu=...|uuid=...|sm=..|driver=..|cuda=..|nvrtc=..|<vendor>=..|tpl=<hex>", e.g.
 * "v1|gemm|fp32|NN|35x700x2048|...|cublas=130100|tpl=...".
 * The measured problem comes first so that keys of one op sort together. '|' in a GPU name becomes '/'. */
#include "key.h"

#include "../src/err.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int dlb_key_encode(const struct dlb_key *k, char *buf, size_t len)
{
	char gpu[sizeof k->gpu];
	snprintf(gpu, sizeof gpu, "%s", k->gpu);
	for (char *p = gpu; *p; p++)
		if (*p == '|')
			*p = '/';
	int n = snprintf(buf, len,
			 "v%d|%s|%s|%s|%s|gpu=%s|uuid=%s|sm=%d|driver=%d|cuda=%d|nvrtc=%d|%s=%lld|tpl=%016" PRIx64,
			 DLB_KEY_VERSION, k->op, k->prec, k->layout, k->shape, gpu, k->uuid, k->sm, k->driver, k->cuda,
			 k->nvrtc, k->vlib, k->vlib_version, k->tpl_hash);
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
	if (sscanf(tmp, "v%d|%15[^|]|%7[^|]|%31[^|]|%159[^|]|gpu=%127[^|]|uuid=%47[^|]|%n", &ver, k->op, k->prec,
		   k->layout, k->shape, k->gpu, k->uuid, &used) != 7 ||
	    ver != DLB_KEY_VERSION || !used)
		return DLB_E_PARSE;
	int hash_at = 0, tail = 0;
	if (sscanf(tmp + used, "sm=%d|driver=%d|cuda=%d|nvrtc=%d|%15[a-z0-9_]=%lld|tpl=%n%16" SCNx64 "%n", &k->sm,
		   &k->driver, &k->cuda, &k->nvrtc, k->vlib, &k->vlib_version, &hash_at, &k->tpl_hash, &tail) != 7 ||
	    tail - hash_at != 16 || tmp[used + tail] != 0) /* the hash is always 16 hex digits */
		return DLB_E_PARSE;
	return 0;
}
