#include "fuzzer_driver.h"

/* libFuzzer's entry point for programs with their own main (in libclang_rt.fuzzer, linked by -sanitize=fuzzer). */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int beehive_fuzzer_main(int argc, char **argv, int (*test_one_input)(const uint8_t *data, size_t size)) {
    return LLVMFuzzerRunDriver(&argc, &argv, test_one_input);
}
