/* main: the dlbtune program — the built-in ops only — and the only place that exits. */
#include "app.h"

int main(int argc, char **argv)
{
	return dlb_main(argc, argv);
}
