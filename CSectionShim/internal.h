/* Private to the shim: what the walk, the file reader and the process-wide state share. */
#ifndef BEEHIVE_INTERNAL_H
#define BEEHIVE_INTERNAL_H

#define _GNU_SOURCE
#include "beehive_benchmark_support.h"
#include "beehive_discovery.h"
#include "beehive.h"

#include <libelf.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>

extern const char *const bh_section_names[BEEHIVE_NOTE_SECTION_COUNT];

/* A loaded object as the walk saw it, for the file reader when its note has no offsets. */
typedef struct bh_candidate {
    char *name;
    int is_main;
    uintptr_t base;
    ElfW(Phdr) *phdrs;
    size_t phnum;
    unsigned char build_id[BH_BUILD_ID_MAX];
    size_t build_id_size;
} bh_candidate;

/* Program headers past this many are not read: no linker makes an object with more. */
#define BH_PHDRS_MAX 64

/* What the notes of one object in memory say. */
typedef struct bh_memory_notes {
    int annotated;
    /* The first version 2 (or later) note's offsets, resolved to each section's start and stop in memory; the last
       slot is the type-reference section, empty for a version 2 note. */
    int located;
    uintptr_t start[BEEHIVE_NOTE_SECTION_COUNT + 1], stop[BEEHIVE_NOTE_SECTION_COUNT + 1];
    unsigned char build_id[BH_BUILD_ID_MAX];
    size_t build_id_size;
    /* The errno of a copy of the notes that failed (EFAULT: the file behind the mapping was cut short); 0 when
       they were read. */
    int unreadable;
    /* Read through the kernel (see bh_memory_notes_read), and so are the sections. */
    int careful;
    /* A copy of the object's program headers, which the loader's point into the object's own mapping. */
    ElfW(Phdr) phdrs[BH_PHDRS_MAX];
    size_t phnum;
} bh_memory_notes;

/* walk.c */
/* Copies bytes of a loaded object's mapped memory, which may hold AddressSanitizer's poisoned padding. */
void bh_copy_mapped(void *to, const unsigned char *from, size_t size);
/* Reads an object's program headers and notes. `careful`: through the kernel, which reports memory that its file
   no longer backs (cut short on disk) in `unreadable` rather than raising SIGBUS; otherwise directly. */
void bh_memory_notes_read(const struct dl_phdr_info *info, int careful, bh_memory_notes *notes);
/* A new object (id 0) holding a copy of the sections the note locates, named `path`; NULL when out of memory.
   When the notes or the sections could not be read, the object has no sections and says why (its status). */
bh_object *bh_read_from_memory(const struct dl_phdr_info *info, const bh_memory_notes *notes, const char *path);
int bh_candidate_init(bh_candidate *candidate, const struct dl_phdr_info *info, int is_main,
                      const bh_memory_notes *notes);
void bh_candidate_free(bh_candidate *candidate);
/* The name an object is shown by: its loader name, or the executable's path for the main program. */
const char *bh_display_name(const char *name, int is_main);

/* file_reader.c */
/* What a file's notes say: whether it carries the BeeHive mark, the interface fingerprint of its first note of
   version 4 or later, and its GNU build-id. */
typedef struct bh_notes {
    int annotated;
    int has_interface;
    uint64_t interface_fingerprint;
    unsigned char build_id[BH_BUILD_ID_MAX];
    size_t build_id_size;
} bh_notes;
/* Reads the file's notes from its note sections or, without a section table, from its PT_NOTE segments. */
void bh_file_notes(Elf *elf, size_t section_count, bh_notes *notes);
/* Reads a loaded object whose note has no offsets through its file, checked against memory. */
void bh_read_through_file(const bh_candidate *candidate, bh_object *object);

/* object.c */
bh_object *bh_object_new(void);
bh_section *bh_object_add_section(bh_object *object, size_t *capacity, const char *name, size_t size);
void bh_object_drop_sections(bh_object *object);
int bh_grow(void **items, size_t *capacity, size_t count, size_t size);
char *bh_strdup(const char *s);

#endif
