/*
 * The walk's view of one loaded object, from memory only: its notes (the BeeHive mark, the offsets to its own
 * sections, the GNU build-id) and the sections those offsets locate. Everything here runs inside the
 * dl_iterate_phdr callback, where the loader's lock keeps the object mapped, and only for objects not seen
 * before: the memory of a file truncated on disk faults, so known objects are never touched again, and new ones
 * can be read carefully, through the kernel, which reports such memory instead of faulting.
 */
#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
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

/*
 * A careful read of an object's memory goes through process_vm_readv on this very process: the pages of a file
 * cut short on disk after it was mapped (truncated, or rewritten in place by a copy) raise SIGBUS when touched,
 * and the kernel's copy reports them as EFAULT instead. Two calls per new object (its program headers, which the
 * loader's info points into the mapping for, and its notes) and one more per annotated object (its sections);
 * never one per record. Every walk reads carefully (see bh_meet). Where the call is refused (a seccomp
 * profile that forbids it), the reads are direct.
 */
static pid_t bh_own_pid;
static int bh_own_memory_unreadable; /* process_vm_readv is refused in this process */
static pthread_once_t bh_fork_once = PTHREAD_ONCE_INIT;

/* A forked child is another process: asking for the parent's pid would read the parent's memory. */
static void bh_forget_own_pid(void) { __atomic_store_n(&bh_own_pid, 0, __ATOMIC_RELAXED); }
static void bh_watch_forks(void) { pthread_atfork(NULL, NULL, bh_forget_own_pid); }

/* Copies the `count` ranges of this process's memory in `from` to `to` (of the same sizes, `total` bytes in
   all); 0 when every byte was read, else the errno (EFAULT: memory whose file no longer backs it). Not
   `careful`, the bytes are copied directly. */
static int bh_read_own_memory(struct iovec *to, struct iovec *from, unsigned long count, size_t total, int careful) {
    if (careful && !__atomic_load_n(&bh_own_memory_unreadable, __ATOMIC_RELAXED)) {
        pthread_once(&bh_fork_once, bh_watch_forks);
        pid_t pid = __atomic_load_n(&bh_own_pid, __ATOMIC_RELAXED);
        if (pid == 0) {
            pid = getpid();
            __atomic_store_n(&bh_own_pid, pid, __ATOMIC_RELAXED);
        }
        ssize_t copied;
        do copied = process_vm_readv(pid, to, count, from, count, 0);
        while (copied < 0 && errno == EINTR);
        /* A fault past the first range ends the copy there: a short count. */
        if (copied >= 0) return (size_t)copied == total ? 0 : EFAULT;
        if (errno != ENOSYS && errno != EPERM) return errno;
        __atomic_store_n(&bh_own_memory_unreadable, 1, __ATOMIC_RELAXED);
    }
    for (unsigned long i = 0; i < count; i++) bh_copy_mapped(to[i].iov_base, from[i].iov_base, from[i].iov_len);
    return 0;
}

/* What an object whose memory cannot be read says, for its diagnostic. */
static void bh_mark_unreadable_memory(bh_object *object, int error) {
    object->status = BH_OBJECT_UNREADABLE;
    object->sys_errno = error;
    if (error == EFAULT)
        object->detail = bh_strdup("its mapped memory is no longer backed by its file (the file was cut short or "
                                   "rewritten on disk after it was loaded), so its annotations were not read; "
                                   "restore the file and restart the process, and replace libraries by renaming "
                                   "a new file over the old one rather than writing into it");
}

/* Whether [address, address + size) lies inside one readable PT_LOAD segment of the object. */
static int bh_inside_readable_segment(const struct dl_phdr_info *info, const bh_memory_notes *notes, uintptr_t address,
                                      size_t size) {
    for (size_t i = 0; i < notes->phnum; i++) {
        const ElfW(Phdr) *ph = &notes->phdrs[i];
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

/* Resolves a version 2, 3 or later descriptor's place-relative offsets (`count` sections), read from its copy at
   `descriptor` and relative to where it is mapped, `mapped`; leaves `notes` alone if any range is implausible. */
static void bh_locate_sections(const unsigned char *descriptor, uintptr_t mapped, size_t count, bh_memory_notes *notes) {
    uintptr_t start[BEEHIVE_NOTE_SECTION_COUNT + 1] = {0}, stop[BEEHIVE_NOTE_SECTION_COUNT + 1] = {0};
    for (size_t i = 0; i < count; i++) {
        const unsigned char *start_at = descriptor + 4 + 8 * i, *stop_at = start_at + 4;
        uintptr_t start_place = mapped + 4 + 8 * i, stop_place = start_place + 4;
        start[i] = start_place + (uintptr_t)(intptr_t)bh_read_int32(start_at);
        stop[i] = stop_place + (uintptr_t)(intptr_t)bh_read_int32(stop_at);
        if (stop[i] < start[i]) return;
    }
    memcpy(notes->start, start, sizeof start);
    memcpy(notes->stop, stop, sizeof stop);
    notes->located = 1;
}

/* Looks through a copy (at `start`) of one PT_NOTE segment, mapped at `mapped`, for BeeHive notes and the GNU
   build-id. */
static void bh_scan_notes(const unsigned char *start, uintptr_t mapped, size_t size, size_t alignment,
                          bh_memory_notes *notes) {
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
            /* Later versions append to version 3's descriptor: its offsets are where they were. */
            if (!notes->located && version >= BEEHIVE_NOTE_VERSION_WITHOUT_INTERFACE &&
                header.n_descsz >= BEEHIVE_NOTE_DESCRIPTOR_SIZE_WITHOUT_INTERFACE)
                bh_locate_sections(descriptor, mapped + desc_at, BEEHIVE_NOTE_SECTION_COUNT + 1, notes);
            else if (!notes->located && version == BEEHIVE_NOTE_VERSION_WITHOUT_TYPES &&
                     header.n_descsz >= BEEHIVE_NOTE_DESCRIPTOR_SIZE_WITHOUT_TYPES)
                bh_locate_sections(descriptor, mapped + desc_at, BEEHIVE_NOTE_SECTION_COUNT, notes);
        } else if (header.n_namesz == 4 && header.n_type == NT_GNU_BUILD_ID && memcmp(name, "GNU", 4) == 0 &&
                   header.n_descsz <= BH_BUILD_ID_MAX && notes->build_id_size == 0) {
            bh_copy_bytes(notes->build_id, descriptor, header.n_descsz);
            notes->build_id_size = header.n_descsz;
        }
        offset = next;
    }
}

/* More note segments than this, or more bytes of notes, are not an object any linker makes; the rest is skipped. */
#define BH_NOTE_SEGMENTS_MAX 16
#define BH_NOTE_BYTES_MAX ((size_t)1 << 20)

void bh_memory_notes_read(const struct dl_phdr_info *info, int careful, bh_memory_notes *notes) {
    memset(notes, 0, sizeof *notes);
    notes->careful = careful;
    /* The loader's program headers are those in the object's own first page, as mapped. */
    size_t phnum = info->dlpi_phnum < BH_PHDRS_MAX ? info->dlpi_phnum : BH_PHDRS_MAX;
    struct iovec headers_copy = { .iov_base = notes->phdrs, .iov_len = phnum * sizeof(ElfW(Phdr)) };
    struct iovec headers = { .iov_base = (void *)info->dlpi_phdr, .iov_len = headers_copy.iov_len };
    if (phnum) notes->unreadable = bh_read_own_memory(&headers_copy, &headers, 1, headers.iov_len, careful);
    if (notes->unreadable) return;
    notes->phnum = phnum;
    struct iovec copies[BH_NOTE_SEGMENTS_MAX], mapped[BH_NOTE_SEGMENTS_MAX];
    size_t alignments[BH_NOTE_SEGMENTS_MAX];
    unsigned long count = 0;
    size_t total = 0;
    for (size_t i = 0; i < phnum && count < BH_NOTE_SEGMENTS_MAX; i++) {
        const ElfW(Phdr) *ph = &notes->phdrs[i];
        uintptr_t address = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type != PT_NOTE || ph->p_memsz == 0 || ph->p_memsz > BH_NOTE_BYTES_MAX - total ||
            !bh_inside_readable_segment(info, notes, address, ph->p_memsz))
            continue;
        mapped[count] = (struct iovec){ .iov_base = (void *)address, .iov_len = ph->p_memsz };
        alignments[count] = ph->p_align == 8 ? 8 : 4;
        total += ph->p_memsz;
        count++;
    }
    if (count == 0) return;
    /* Every note segment in one copy, one call: usually well under a page. */
    _Alignas(8) unsigned char on_stack[2048];
    unsigned char *copy = total <= sizeof on_stack ? on_stack : malloc(total);
    if (!copy) {
        notes->unreadable = ENOMEM;
        return;
    }
    size_t offset = 0;
    for (unsigned long i = 0; i < count; i++) {
        copies[i] = (struct iovec){ .iov_base = copy + offset, .iov_len = mapped[i].iov_len };
        offset += mapped[i].iov_len;
    }
    notes->unreadable = bh_read_own_memory(copies, mapped, count, total, careful);
    for (unsigned long i = 0; !notes->unreadable && i < count; i++)
        bh_scan_notes(copies[i].iov_base, (uintptr_t)mapped[i].iov_base, copies[i].iov_len, alignments[i], notes);
    if (copy != on_stack) free(copy);
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
        } else if (!bh_inside_readable_segment(info, notes, notes->start[i], size)) {
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
    struct iovec copies[BEEHIVE_NOTE_SECTION_COUNT + 1], mapped[BEEHIVE_NOTE_SECTION_COUNT + 1];
    unsigned long reads = 0;
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
        copies[reads] = (struct iovec){ .iov_base = data, .iov_len = size };
        mapped[reads] = (struct iovec){ .iov_base = (void *)notes->start[i], .iov_len = size };
        reads++;
        data += size;
    }
    int error = notes->unreadable ? notes->unreadable : reads ? bh_read_own_memory(copies, mapped, reads, bytes, notes->careful) : 0;
    if (error) {
        /* Partly copied sections are not records: the object keeps none. */
        object->section_count = 0;
        bh_mark_unreadable_memory(object, error);
    }
    if (object->section_count == 0) object->sections = NULL;
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
    c->phdrs = malloc(sizeof(ElfW(Phdr)) * (notes->phnum ? notes->phnum : 1));
    if (!c->name || !c->phdrs) {
        bh_candidate_free(c);
        return 0;
    }
    memcpy(c->phdrs, notes->phdrs, sizeof(ElfW(Phdr)) * notes->phnum);
    c->phnum = notes->phnum;
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
