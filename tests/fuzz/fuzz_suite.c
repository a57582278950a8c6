/* fuzz_suite: a suite CSV (dlb_suite_parse) for every op of the build, in each precision. */
#include "fuzz.h"

#include "../../src/op.h"
#include "../../src/suite.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	for (int i = 0; dlb_op_at(i); i++) {
		struct dlb_suite s = {0};
		const struct dlb_op *op = dlb_op_at(i);
		if (dlb_suite_parse(text, "fuzz.csv", op, op->prec, &s) == 0)
			dlb_suite_free(&s);
	}
	free(text);
	return 0;
}
