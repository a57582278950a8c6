/* dlbtune_toy: dlbtune with the tests' toy op registered beside the built-in ones — the same commands
 * (src/app.c), so every generic path (options, suites, space, compile, keys, store, tables, exports, lookup,
 * tune on a GPU) runs on an op that no file outside tests/ names. */
#include "app.h"
#include "rowsum.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	if (toy_register()) {
		fprintf(stderr, "dlbtune_toy: cannot register the toy op\n");
		return 99;
	}
	return dlb_main(argc, argv);
}
