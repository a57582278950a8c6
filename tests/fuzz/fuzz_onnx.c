/* fuzz_onnx: an ONNX model (a file a user brings to `dlbtune model`) through dlb_onnx_load_mem and its shape
 * inference, then every tensor's shape printed to text. */
#include "fuzz.h"

#include "../../src/onnx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dlb_onnx_graph *g;
	char s[96];
	if (dlb_onnx_load_mem(data, size, "fuzz.onnx", 8, &g) == 0) {
		for (int i = 0; i < g->ntensors; i++)
			dlb_onnx_shape_text(&g->t[i].shape, s, sizeof s);
		dlb_onnx_free(g);
	}
	return 0;
}
