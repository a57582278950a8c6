/* modelcmd: `dlbtune model FILE.onnx...` — each model's graph read and its shapes inferred (src/onnx.h), its
 * layers grouped into unique ones (same op, input shapes and attributes) across the models, those of ops a
 * family takes (struct dlb_family's onnx_ops) listed with their counts, every other op named with its count.
 * No GPU. Tuning the unique layers and a model's lower-bound latency are not built yet. */
#ifndef DLB_MODELCMD_H
#define DLB_MODELCMD_H
#include "cli.h"

int dlb_cmd_model(const struct dlb_cli *c);
#endif
