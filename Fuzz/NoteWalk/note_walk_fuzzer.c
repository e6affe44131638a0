/*
 * libFuzzer harness for the in-memory note walk: what discovery does inside the dl_iterate_phdr callback for an
 * object it meets (find the BeeHive and build-id notes, resolve the note's offsets, copy the sections they
 * locate), run on a buffer. The buffer stands for the object: one readable PT_LOAD segment covering it and one
 * PT_NOTE segment over all of it, so an offset that points outside the buffer must be refused, never followed.
 * The first input byte picks the note alignment (4 or 8). Built by scripts/fuzz with clang
 * -fsanitize=fuzzer,address together with every C file of the shim (CSectionShim).
 */
#include "../../CSectionShim/internal.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    size_t alignment = (data[0] & 1) ? 8 : 4;
    size--;
    /* A heap copy of exactly the input: AddressSanitizer reports any read past its end. */
    unsigned char *buffer = malloc(size ? size : 1);
    if (!buffer) return 0;
    memcpy(buffer, data + 1, size);

    ElfW(Phdr) phdrs[2];
    memset(phdrs, 0, sizeof phdrs);
    phdrs[0].p_type = PT_LOAD;
    phdrs[0].p_flags = PF_R;
    phdrs[0].p_vaddr = (uintptr_t)buffer;
    phdrs[0].p_memsz = phdrs[0].p_filesz = size;
    phdrs[1].p_type = PT_NOTE;
    phdrs[1].p_flags = PF_R;
    phdrs[1].p_vaddr = (uintptr_t)buffer;
    phdrs[1].p_memsz = phdrs[1].p_filesz = size;
    phdrs[1].p_align = alignment;
    struct dl_phdr_info info;
    memset(&info, 0, sizeof info);
    info.dlpi_addr = 0;
    info.dlpi_name = "fuzz";
    info.dlpi_phdr = phdrs;
    info.dlpi_phnum = 2;

    bh_memory_notes notes;
    bh_memory_notes_read(&info, 0, &notes);
    if (notes.build_id_size > BH_BUILD_ID_MAX) abort();
    if (notes.located) {
        bh_object *object = bh_read_from_memory(&info, &notes, info.dlpi_name);
        if (object) {
            for (size_t i = 0; i < object->section_count; i++) {
                const bh_section *section = &object->sections[i];
                if (section->status == BH_SECTION_OK) {
                    /* Only bytes of the buffer are ever copied. */
                    if (section->size > size || !section->data) abort();
                } else if (section->data) {
                    abort();
                }
            }
        }
        bh_object_release(object);
    }
    free(buffer);
    return 0;
}
