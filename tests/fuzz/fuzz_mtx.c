/* fuzz_mtx: a Matrix Market file (the sparse operand a user brings) through dlb_mtx_read_stream. */
#include "fuzz.h"

#include "../../src/ops/sparse/mtx.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	struct dlb_csr m;
	if (dlb_mtx_read_stream(f, "fuzz.mtx", &m) == 0) {
		struct dlb_csr_stats st;
		dlb_csr_stats(&m, &st);
		dlb_csr_free(&m);
	}
	fclose(f);
	return 0;
}
