/*
 * Runs libFuzzer from a Swift executable's own main: SwiftPM gives every executable a main of its own, so the
 * one libFuzzer normally supplies cannot be used.
 */
#ifndef BEEHIVE_FUZZER_DRIVER_H
#define BEEHIVE_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/* Parses libFuzzer's command line and fuzzes `test_one_input`; returns the exit status. */
int beehive_fuzzer_main(int argc, char **argv, int (*test_one_input)(const uint8_t *data, size_t size));

#endif
