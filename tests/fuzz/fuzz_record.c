/* fuzz_record: stored values and export files as the store and `import` read them — a key (dlb_key_decode and
 * the shape check), a value through each record reader, and an export's records through import's reader. */
#include "fuzz.h"

#include "../../store/key.h"
#include "../../store/merge.h"
#include "../../store/record.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct dlb_key k;
	char why[256];
	if (dlb_key_decode(text, size, &k) == 0)
		(void)dlb_key_shape_check(&k, why, sizeof why);
	json_t *j = dlb_json_parse(text, size);
	if (!j)
		return 0;
	struct dlb_result r = {0};
	struct dlb_trial t;
	struct dlb_vendor_entry v;
	struct dlb_platform p;
	(void)dlb_best_from_json(j, &r);
	(void)dlb_trial_from_json(j, &t);
	(void)dlb_vendor_from_json(j, &v);
	if (dlb_platform_from_json(j, &p) == 0)
		dlb_platform_key(&p);
	size_t i;
	json_t *rec;
	json_array_foreach(json_object_get(j, "records"), i, rec)
	{
		struct dlb_incoming in;
		(void)dlb_incoming_from_json(rec, &in, why, sizeof why);
		dlb_result_free(&in.r);
	}
	json_decref(j);
	return 0;
}
