/* embedded_find: lookup in the generated table, then in the tables a program registered. */
#include "embedded.h"

#include <errno.h>
#include <string.h>

#define MAX_EXTRA 8
static const struct dlb_embedded *extra[MAX_EXTRA];
static int nextra;

int dlb_embedded_register(const struct dlb_embedded *files)
{
	if (nextra == MAX_EXTRA)
		return ENOSPC;
	extra[nextra++] = files;
	return 0;
}

const struct dlb_embedded *dlb_embedded_at(int i)
{
	for (const struct dlb_embedded *e = dlb_embedded_files; e->name; e++)
		if (i-- == 0)
			return e;
	for (int t = 0; t < nextra; t++)
		for (const struct dlb_embedded *e = extra[t]; e->name; e++)
			if (i-- == 0)
				return e;
	return NULL;
}

const struct dlb_embedded *dlb_embedded_find(const char *name)
{
	const struct dlb_embedded *e;
	for (int i = 0; (e = dlb_embedded_at(i)) != NULL; i++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}
