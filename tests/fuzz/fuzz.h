/* tests/fuzz: libFuzzer harnesses for the parsers that read outside input. Each harness file defines
 * LLVMFuzzerTestOneInput; `make fuzz` links it with libFuzzer (clang), and replay.c replays a corpus through it
 * in `make check` (any compiler), so every input that once crashed stays a regression test. */
#ifndef DLB_TESTS_FUZZ_H
#define DLB_TESTS_FUZZ_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#endif
