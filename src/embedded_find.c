/* embedded_find: lookup in the generated table. */
#include "embedded.h"

#include <string.h>

const struct dlb_embedded *dlb_embedded_find(const char *name)
{
	for (const struct dlb_embedded *e = dlb_embedded_files; e->name; e++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}
