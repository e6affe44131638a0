/*
 * libFuzzer harness for the offline ELF readers: bh_read_file (libelf, note parsing, section checks, copies)
 * and bh_read_linkage (machine, DT_NEEDED, DT_RPATH and DT_RUNPATH through PT_DYNAMIC, Swift metadata, the Swift
 * modules of .dynsym), each run
 * on every input.
 *
 * Each input is the whole content of a file. It goes into one memory-backed file (memfd) that the reader opens
 * by its /proc path, so the reader runs exactly as on a file on disk: open, mmap, libelf. Built by
 * scripts/fuzz with clang -fsanitize=fuzzer,address together with every C file of the shim (CSectionShim).
 */
#define _GNU_SOURCE
#include "beehive_discovery.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int input_fd = -1;
static char input_path[64];

/* Everything the reader returns must be consistent; a violation aborts, which libFuzzer reports as a crash. */
static void check(const bh_object *object, size_t input_size) {
    if (!object) return;
    if (object->build_id_size > BH_BUILD_ID_MAX) abort();
    if (object->section_count && !object->sections) abort();
    for (size_t i = 0; i < object->section_count; i++) {
        const bh_section *section = &object->sections[i];
        if (!section->name) abort();
        if (section->status == BH_SECTION_OK) {
            /* A section copied from the file cannot be larger than the file. */
            if (section->size > input_size || (section->size && !section->data)) abort();
            volatile unsigned char sum = 0;
            for (size_t j = 0; j < section->size; j++) sum ^= section->data[j];
            (void)sum;
        } else if (section->data) {
            abort();
        }
    }
}

/* The needed names are NUL-terminated strings packed end to end, within the reader's bound. */
static void check_linkage(const bh_linkage *linkage, int status) {
    if (status != linkage->status) abort();
    if (status != 0 && (linkage->needed || linkage->needed_size || linkage->rpath || linkage->runpath)) abort();
    if (linkage->rpath && strlen(linkage->rpath) >= ((size_t)64 << 10)) abort();
    if (linkage->runpath && strlen(linkage->runpath) >= ((size_t)64 << 10)) abort();
    if (linkage->needed_size > ((size_t)64 << 10) || (linkage->needed_size && !linkage->needed)) abort();
    if (linkage->needed_size && linkage->needed[linkage->needed_size - 1] != 0) abort();
    if (linkage->swift_metadata < -1 || linkage->swift_metadata > 1) abort();
    if (status != 0 && (linkage->swift_modules || linkage->swift_modules_size)) abort();
    if (linkage->swift_modules_size > ((size_t)64 << 10) || (linkage->swift_modules_size && !linkage->swift_modules)) abort();
    if (linkage->swift_modules_size && linkage->swift_modules[linkage->swift_modules_size - 1] != 0) abort();
    /* Pairs of a module's name (1 to 255 bytes) and a symbol that starts with it after `$s` and its length. */
    for (size_t at = 0; at < linkage->swift_modules_size;) {
        size_t module = strlen(linkage->swift_modules + at);
        if (module == 0 || module > 255 || at + module + 1 >= linkage->swift_modules_size) abort();
        const char *symbol = linkage->swift_modules + at + module + 1;
        if (symbol[0] != '$' || symbol[1] != 's' || !strstr(symbol, "M")) abort();
        at += module + 1 + strlen(symbol) + 1;
    }
    /* Imported protocol descriptors and witness tables: Swift symbols with their suffix, one size per table. */
    if (status != 0 && (linkage->imported_protocols || linkage->witness_tables || linkage->witness_table_count)) abort();
    if (linkage->imported_protocols_size > ((size_t)64 << 10) || linkage->witness_tables_size > ((size_t)64 << 10)) abort();
    if (linkage->imported_protocols_size && linkage->imported_protocols[linkage->imported_protocols_size - 1] != 0) abort();
    for (size_t at = 0; at < linkage->imported_protocols_size; at += strlen(linkage->imported_protocols + at) + 1) {
        const char *symbol = linkage->imported_protocols + at;
        size_t length = strlen(symbol);
        if (length < 5 || symbol[0] != '$' || symbol[1] != 's' || strcmp(symbol + length - 2, "Mp") != 0) abort();
    }
    if (linkage->witness_tables_size && linkage->witness_tables[linkage->witness_tables_size - 1] != 0) abort();
    size_t tables = 0;
    for (size_t at = 0; at < linkage->witness_tables_size; at += strlen(linkage->witness_tables + at) + 1, tables++) {
        const char *symbol = linkage->witness_tables + at;
        size_t length = strlen(symbol);
        if (length < 5 || symbol[0] != '$' || symbol[1] != 's' || strcmp(symbol + length - 2, "WP") != 0) abort();
        if (tables >= linkage->witness_table_count || linkage->witness_table_sizes[tables] == 0) abort();
    }
    if (tables != linkage->witness_table_count) abort();
    size_t exported = 0;
    if (linkage->exported_protocols_size && linkage->exported_protocols[linkage->exported_protocols_size - 1] != 0) abort();
    for (size_t at = 0; at < linkage->exported_protocols_size; at += strlen(linkage->exported_protocols + at) + 1, exported++) {
        const char *symbol = linkage->exported_protocols + at;
        size_t length = strlen(symbol);
        if (length < 5 || symbol[0] != '$' || symbol[1] != 's' || strcmp(symbol + length - 2, "Mp") != 0) abort();
        if (exported >= linkage->exported_protocol_count || !linkage->exported_protocol_words) abort();
    }
    if (exported != linkage->exported_protocol_count) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (input_fd < 0) {
        input_fd = memfd_create("beehive-fuzz-input", MFD_CLOEXEC);
        if (input_fd < 0) {
            perror("memfd_create");
            abort();
        }
        snprintf(input_path, sizeof input_path, "/proc/self/fd/%d", input_fd);
    }
    if (ftruncate(input_fd, 0) != 0 || pwrite(input_fd, data, size, 0) != (ssize_t)size) {
        perror("writing the fuzz input");
        abort();
    }
    bh_object *object = bh_read_file(input_path);
    check(object, size);
    bh_object_release(object);
    bh_linkage linkage;
    int status = bh_read_linkage(input_path, &linkage);
    check_linkage(&linkage, status);
    bh_linkage_free(&linkage);
    return 0;
}
