/*
 * The walk's view of one loaded object, from memory only: its notes (the BeeHive mark, the offsets to its own
 * sections, the GNU build-id) and the sections those offsets locate. Everything here runs inside the
 * dl_iterate_phdr callback, where the loader's lock keeps the object mapped, and only for objects not seen
 * before: the memory of a file truncated on disk faults, so known objects are never touched again.
 */
#include "internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t bh_align(size_t value, size_t alignment) { return (value + alignment - 1) & ~(alignment - 1); }

/*
 * Reads of an object's mapped memory go around AddressSanitizer. What is read is the ELF image, not C objects:
 * a compiler that instruments globals placed in a section (Swift's -sanitize=address does, for the macros'
 * records and notes) pads each with a redzone that is mapped and zero but poisoned, and the walk must step over
 * it like any other padding. The bounds are the object's own segments, checked before every read.
 */
#if defined(__has_feature) && !defined(BH_CHECKED_READS) /* the note-walk fuzzer keeps the checks */
#  if __has_feature(address_sanitizer)
#    define BH_UNCHECKED_READ_ __attribute__((no_sanitize("address"), noinline))
#  endif
#endif
#if !defined(BH_UNCHECKED_READ_) && defined(__SANITIZE_ADDRESS__) && !defined(BH_CHECKED_READS)
#  define BH_UNCHECKED_READ_ __attribute__((no_sanitize_address, noinline))
#endif
#ifndef BH_UNCHECKED_READ_
#  define BH_UNCHECKED_READ_
#endif

/* Present only when the AddressSanitizer runtime is loaded: its memcpy interceptor checks poisoning even when
   the caller is not instrumented. */
extern void __asan_init(void) __attribute__((weak));

BH_UNCHECKED_READ_ static void bh_copy_bytes(void *to, const unsigned char *from, size_t size) {
    unsigned char *out = to;
    const volatile unsigned char *in = from; /* volatile: never turned into a call to memcpy */
    for (size_t i = 0; i < size; i++) out[i] = in[i];
}

void bh_copy_mapped(void *to, const unsigned char *from, size_t size) {
    if (&__asan_init != NULL) {
        bh_copy_bytes(to, from, size);
    } else {
        memcpy(to, from, size);
    }
}

/* Whether [address, address + size) lies inside one readable PT_LOAD segment of the object. */
static int bh_inside_readable_segment(const struct dl_phdr_info *info, uintptr_t address, size_t size) {
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_R)) continue;
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (address >= start && size <= ph->p_memsz && address - start <= ph->p_memsz - size) return 1;
    }
    return 0;
}

static int32_t bh_read_int32(const unsigned char *at) {
    int32_t value;
    bh_copy_bytes(&value, at, sizeof value);
    return value;
}

/* Resolves a version 2 or 3 descriptor's place-relative offsets (`count` sections); leaves `notes` alone if any
   range is implausible. */
static void bh_locate_sections(const unsigned char *descriptor, size_t count, bh_memory_notes *notes) {
    uintptr_t start[BEEHIVE_NOTE_SECTION_COUNT + 1] = {0}, stop[BEEHIVE_NOTE_SECTION_COUNT + 1] = {0};
    for (size_t i = 0; i < count; i++) {
        const unsigned char *start_at = descriptor + 4 + 8 * i, *stop_at = start_at + 4;
        start[i] = (uintptr_t)start_at + (uintptr_t)(intptr_t)bh_read_int32(start_at);
        stop[i] = (uintptr_t)stop_at + (uintptr_t)(intptr_t)bh_read_int32(stop_at);
        if (stop[i] < start[i]) return;
    }
    memcpy(notes->start, start, sizeof start);
    memcpy(notes->stop, stop, sizeof stop);
    notes->located = 1;
}

/* Looks through one PT_NOTE segment in memory for BeeHive notes and the GNU build-id. */
static void bh_scan_notes(const unsigned char *start, size_t size, size_t alignment, bh_memory_notes *notes) {
    size_t offset = 0;
    while (size - offset >= sizeof(ElfW(Nhdr))) {
        ElfW(Nhdr) header;
        bh_copy_bytes(&header, start + offset, sizeof header);
        /* Every note that matters here is named. A zero name size is padding between contributions (Swift's
           AddressSanitizer pads the macros' notes to 64 bytes, leaving a gap that is not a multiple of a
           header), so step over it one word at a time until the next note. */
        if (header.n_namesz == 0) {
            offset += 4;
            continue;
        }
        size_t name_at = offset + sizeof header;
        if (header.n_namesz > size || header.n_descsz > size) return;
        size_t desc_at = bh_align(name_at + header.n_namesz, alignment);
        size_t next = bh_align(desc_at + header.n_descsz, alignment);
        if (desc_at > size || next > size || next <= offset) return;
        /* Both names of interest are short: copied out, compared, and the rest of the note left unread. */
        char name[BEEHIVE_NOTE_NAME_SIZE] = {0};
        if (header.n_namesz <= sizeof name) bh_copy_bytes(name, start + name_at, header.n_namesz);
        const unsigned char *descriptor = start + desc_at;
        if (header.n_namesz == BEEHIVE_NOTE_NAME_SIZE && header.n_type == BEEHIVE_NOTE_TYPE &&
            memcmp(name, BEEHIVE_NOTE_NAME, BEEHIVE_NOTE_NAME_SIZE) == 0) {
            notes->annotated = 1;
            int32_t version = header.n_descsz >= 4 ? bh_read_int32(descriptor) : 0;
            if (!notes->located && version == BEEHIVE_NOTE_VERSION && header.n_descsz >= BEEHIVE_NOTE_DESCRIPTOR_SIZE)
                bh_locate_sections(descriptor, BEEHIVE_NOTE_SECTION_COUNT + 1, notes);
            else if (!notes->located && version == BEEHIVE_NOTE_VERSION_WITHOUT_TYPES &&
                     header.n_descsz >= BEEHIVE_NOTE_DESCRIPTOR_SIZE_WITHOUT_TYPES)
                bh_locate_sections(descriptor, BEEHIVE_NOTE_SECTION_COUNT, notes);
        } else if (header.n_namesz == 4 && header.n_type == NT_GNU_BUILD_ID && memcmp(name, "GNU", 4) == 0 &&
                   header.n_descsz <= BH_BUILD_ID_MAX && notes->build_id_size == 0) {
            bh_copy_bytes(notes->build_id, descriptor, header.n_descsz);
            notes->build_id_size = header.n_descsz;
        }
        offset = next;
    }
}

void bh_memory_notes_read(const struct dl_phdr_info *info, bh_memory_notes *notes) {
    memset(notes, 0, sizeof *notes);
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t address = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_NOTE && bh_inside_readable_segment(info, address, ph->p_memsz))
            bh_scan_notes((const unsigned char *)address, ph->p_memsz, ph->p_align == 8 ? 8 : 4, notes);
    }
}

bh_object *bh_read_from_memory(const struct dl_phdr_info *info, const bh_memory_notes *notes, const char *path) {
    /* The object, its section table, every section's copy and its path share one block: one allocation per
       object, not one each for the object, the path, the table and every section. */
    int status[BEEHIVE_NOTE_SECTION_COUNT + 1];
    size_t count = 0, bytes = 0;
    for (size_t i = 0; i <= BEEHIVE_NOTE_SECTION_COUNT; i++) {
        size_t size = notes->stop[i] - notes->start[i];
        if (size == 0) continue;
        count++;
        if (size > BH_SECTION_SIZE_MAX) {
            status[i] = BH_SECTION_TOO_LARGE;
        } else if (!bh_inside_readable_segment(info, notes->start[i], size)) {
            status[i] = BH_SECTION_OUTSIDE_SEGMENT;
        } else {
            status[i] = BH_SECTION_OK;
            bytes += size;
        }
    }
    size_t path_size = strlen(path) + 1;
    bh_object *object = malloc(sizeof *object + count * sizeof(bh_section) + bytes + path_size);
    if (!object) return NULL;
    memset(object, 0, sizeof *object);
    object->references = 1;
    object->in_one_block = 1;
    object->sections = (bh_section *)(object + 1);
    unsigned char *data = (unsigned char *)(object->sections + count);
    object->path = (char *)data + bytes;
    memcpy(object->path, path, path_size);
    for (size_t i = 0; i <= BEEHIVE_NOTE_SECTION_COUNT; i++) {
        size_t size = notes->stop[i] - notes->start[i];
        if (size == 0) continue;
        bh_section *section = &object->sections[object->section_count++];
        section->name = i < BEEHIVE_NOTE_SECTION_COUNT ? bh_section_names[i] : BEEHIVE_SECTION_TYPES;
        section->size = size;
        section->status = status[i];
        section->data = NULL;
        if (status[i] != BH_SECTION_OK) continue;
        section->data = data;
        bh_copy_mapped(data, (const unsigned char *)notes->start[i], size);
        data += size;
    }
    if (count == 0) object->sections = NULL;
    object->base = info->dlpi_addr;
    object->annotated = notes->annotated;
    object->source = BH_SOURCE_MEMORY;
    memcpy(object->build_id, notes->build_id, notes->build_id_size);
    object->build_id_size = notes->build_id_size;
    return object;
}

int bh_candidate_init(bh_candidate *c, const struct dl_phdr_info *info, int is_main, const bh_memory_notes *notes) {
    memset(c, 0, sizeof *c);
    c->is_main = is_main;
    c->base = info->dlpi_addr;
    c->name = bh_strdup(info->dlpi_name);
    c->phdrs = malloc(sizeof(ElfW(Phdr)) * (info->dlpi_phnum ? info->dlpi_phnum : 1));
    if (!c->name || !c->phdrs) {
        bh_candidate_free(c);
        return 0;
    }
    memcpy(c->phdrs, info->dlpi_phdr, sizeof(ElfW(Phdr)) * info->dlpi_phnum);
    c->phnum = info->dlpi_phnum;
    memcpy(c->build_id, notes->build_id, notes->build_id_size);
    c->build_id_size = notes->build_id_size;
    return 1;
}

void bh_candidate_free(bh_candidate *c) {
    free(c->name);
    free(c->phdrs);
    c->name = NULL;
    c->phdrs = NULL;
}

/* The main program has no name in dl_iterate_phdr; /proc/self/exe names its file without opening it. Read
   once: the link stays the same for the life of the process, and a readlink per walk was a system call per
   scan. */
static char bh_main_path[4096];
static pthread_once_t bh_main_path_once = PTHREAD_ONCE_INIT;

static void bh_read_main_path(void) {
    ssize_t length = readlink("/proc/self/exe", bh_main_path, sizeof bh_main_path - 1);
    if (length < 0) {
        strcpy(bh_main_path, "/proc/self/exe");
    } else {
        bh_main_path[length] = '\0';
    }
}

const char *bh_display_name(const char *name, int is_main) {
    if (!is_main) return name ? name : "";
    pthread_once(&bh_main_path_once, bh_read_main_path);
    return bh_main_path;
}
