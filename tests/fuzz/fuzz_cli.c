/* fuzz_cli: a command line (one argument a line, "dlbtune" in front) through dlb_cli_parse, then, for a problem
 * it accepts, the problem as the op reads it. */
#include "fuzz.h"

#include "../../src/cli.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ARGS 40

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *argv[MAX_ARGS + 1];
	int argc = 0;
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	argv[argc++] = "dlbtune";
	for (char *s = text; s && argc < MAX_ARGS;) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = 0;
		argv[argc++] = s;
		s = nl ? nl + 1 : NULL;
	}
	argv[argc] = NULL;
	struct dlb_cli c;
	const struct dlb_op *op;
	if (dlb_cli_parse(argc, argv, &c) == 0 && c.op && dlb_cli_op(c.op, c.prec, &op) == 0) {
		struct dlb_problem p;
		dlb_cli_problem(&c, op, &p);
	}
	free(text);
	return 0;
}
