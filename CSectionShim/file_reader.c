/*
 * The file reader: an object's annotation sections found through its section table with libelf. It serves
 * `beehive inspect`, lint and plugin files read offline, and loaded objects whose note carries no offsets
 * (built before the note had them), whose file is trusted only if it matches what is loaded.
 */
#include "internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <byteswap.h>
#include <sys/stat.h>
#include <unistd.h>

static pthread_once_t bh_libelf_once = PTHREAD_ONCE_INIT;
static void bh_libelf_init(void) { (void)elf_version(EV_CURRENT); }

/* The shim's own copy of an annotation section's name, or NULL for any other section. */
static const char *bh_annotation_section(const char *name) {
    /* Every annotation section's name starts with "beehive_"; most others start with '.'. */
    if (!name || name[0] != 'b') return NULL;
    for (size_t i = 0; i < BEEHIVE_NOTE_SECTION_COUNT; i++)
        if (strcmp(name, bh_section_names[i]) == 0) return bh_section_names[i];
    return NULL;
}

static void bh_scan_note_data(Elf_Data *data, bh_notes *notes) {
    size_t offset = 0, name_at, desc_at;
    GElf_Nhdr note;
    while (offset < data->d_size && (offset = gelf_getnote(data, offset, &note, &name_at, &desc_at)) > 0) {
        const char *name = (const char *)data->d_buf + name_at;
        if (note.n_namesz == sizeof BEEHIVE_NOTE_NAME && note.n_type == BEEHIVE_NOTE_TYPE &&
            memcmp(name, BEEHIVE_NOTE_NAME, sizeof BEEHIVE_NOTE_NAME) == 0) {
            notes->annotated = 1;
            const unsigned char *descriptor = (const unsigned char *)data->d_buf + desc_at;
            int32_t version = 0;
            if (note.n_descsz >= sizeof version) memcpy(&version, descriptor, sizeof version);
            if (!notes->has_interface && version >= BEEHIVE_NOTE_VERSION && note.n_descsz >= BEEHIVE_NOTE_DESCRIPTOR_SIZE) {
                memcpy(&notes->interface_fingerprint, descriptor + BEEHIVE_NOTE_INTERFACE_OFFSET,
                       sizeof notes->interface_fingerprint);
                notes->has_interface = 1;
            }
        } else if (note.n_namesz == 4 && note.n_type == NT_GNU_BUILD_ID && memcmp(name, "GNU", 4) == 0 &&
                   note.n_descsz <= BH_BUILD_ID_MAX && notes->build_id_size == 0) {
            memcpy(notes->build_id, (const char *)data->d_buf + desc_at, note.n_descsz);
            notes->build_id_size = note.n_descsz;
        }
    }
}

/*
 * Reads the file's notes from its note sections or, when it has no section table (--strip-sections), from
 * its PT_NOTE segments, which is where the loader sees them too.
 */
void bh_file_notes(Elf *elf, size_t section_count, bh_notes *notes) {
    if (section_count > 0) {
        Elf_Scn *scn = NULL;
        while ((scn = elf_nextscn(elf, scn)) != NULL) {
            GElf_Shdr shdr;
            if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE) continue;
            Elf_Data *data = elf_getdata(scn, NULL);
            if (data && data->d_buf) bh_scan_note_data(data, notes);
        }
        return;
    }
    size_t count = 0;
    if (elf_getphdrnum(elf, &count) != 0) return;
    for (size_t i = 0; i < count; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE) continue;
        Elf_Data *data = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz,
                                              ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
        if (data && data->d_buf) bh_scan_note_data(data, notes);
    }
}

static int bh_program_headers_match(Elf *elf, const bh_candidate *c) {
    size_t count = 0;
    if (elf_getphdrnum(elf, &count) != 0 || count != c->phnum) return 0;
    for (size_t i = 0; i < count; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph)) return 0;
        const ElfW(Phdr) *m = &c->phdrs[i];
        if (ph.p_type != m->p_type || ph.p_offset != m->p_offset || ph.p_vaddr != m->p_vaddr ||
            ph.p_filesz != m->p_filesz || ph.p_memsz != m->p_memsz || ph.p_flags != m->p_flags)
            return 0;
    }
    return 1;
}

static int bh_inside_loaded_segment(const bh_candidate *c, uint64_t address, uint64_t size) {
    for (size_t i = 0; i < c->phnum; i++) {
        const ElfW(Phdr) *ph = &c->phdrs[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_R)) continue;
        if (address >= ph->p_vaddr && size <= ph->p_filesz && address - ph->p_vaddr <= ph->p_filesz - size)
            return 1;
    }
    return 0;
}

/*
 * Offline, a linked file's section is read only where a readable loaded segment would map it (its address and
 * its file offset agree with the segment), as discovery requires at run time. Relocatable objects have no
 * segments and are read as they are.
 */
static int bh_inside_file_segment(Elf *elf, const GElf_Shdr *shdr) {
    size_t count = 0;
    if (elf_getphdrnum(elf, &count) != 0) return 0;
    if (count == 0) return 1;
    for (size_t i = 0; i < count; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_R)) continue;
        if (shdr->sh_addr >= ph.p_vaddr && shdr->sh_size <= ph.p_filesz &&
            shdr->sh_addr - ph.p_vaddr <= ph.p_filesz - shdr->sh_size && shdr->sh_offset >= ph.p_offset &&
            shdr->sh_offset - ph.p_offset == shdr->sh_addr - ph.p_vaddr)
            return 1;
    }
    return 0;
}

/*
 * A section table that the header promises but libelf cannot read (a truncated file, a bad e_shoff), or whose
 * entries break ELF's rules, would otherwise read as "no annotations" or as garbage: report it as damaged.
 * Returns what is wrong, or NULL (problems libelf itself reports are left to the caller).
 */
static const char *bh_section_table_damage(Elf *elf) {
    GElf_Ehdr header;
    size_t count = 0, names = 0;
    if (!gelf_getehdr(elf, &header) || elf_getshdrnum(elf, &count) != 0) return NULL;
    if (count == 0)
        return header.e_shoff ? "the section header table lies outside the file (truncated?)" : NULL;
    if (elf_getshdrstrndx(elf, &names) != 0 || names == SHN_UNDEF) return NULL;
    GElf_Shdr shdr;
    if (!gelf_getshdr(elf_getscn(elf, 0), &shdr) || shdr.sh_type != SHT_NULL || shdr.sh_name || shdr.sh_flags ||
        shdr.sh_addr || shdr.sh_offset)
        return "the section header table is damaged: its first entry is not the null entry (bad e_shoff?)";
    if (!gelf_getshdr(elf_getscn(elf, names), &shdr) || shdr.sh_type != SHT_STRTAB)
        return "the section name table is missing or is not a string table (bad e_shstrndx?)";
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        if (!gelf_getshdr(scn, &shdr) || !elf_strptr(elf, names, shdr.sh_name))
            return "a section header is damaged: its name lies outside the section name table";
    }
    return NULL;
}

/* Checks the file against the loaded object `c` (if any) and copies its annotation sections into `object`. */
/*
 * A header whose own size reads right only byte-swapped has the wrong byte-order flag (e_ident[EI_DATA]):
 * every offset libelf reads from it is garbage, so say that rather than "truncated". NULL if the order is right.
 */
static const char *bh_byte_order_problem(Elf *elf) {
    GElf_Ehdr header;
    if (!gelf_getehdr(elf, &header)) return NULL;
    uint16_t expected = gelf_getclass(elf) == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
    if (header.e_ehsize == expected || bswap_16(header.e_ehsize) != expected) return NULL;
    return header.e_ident[EI_DATA] == ELFDATA2MSB
        ? "the byte-order flag (e_ident[EI_DATA]) says big-endian but the header is little-endian: the flag is wrong"
        : "the byte-order flag (e_ident[EI_DATA]) says little-endian but the header is big-endian: the flag is wrong";
}

static void bh_read_elf(Elf *elf, const bh_candidate *c, bh_object *object) {
    size_t shnum = 0, shstrndx = 0;
    const char *order = bh_byte_order_problem(elf);
    if (order) {
        object->status = BH_OBJECT_MALFORMED;
        object->detail = bh_strdup(order);
        return;
    }
    if (elf_getshdrnum(elf, &shnum) != 0) {
        object->status = BH_OBJECT_UNREADABLE;
        object->detail = bh_strdup(elf_errmsg(-1));
        return;
    }
    bh_notes notes = {0};
    bh_file_notes(elf, shnum, &notes);
    if (!c) {
        object->annotated = notes.annotated;
        memcpy(object->build_id, notes.build_id, notes.build_id_size);
        object->build_id_size = notes.build_id_size;
    }
    if (shnum == 0) {
        GElf_Ehdr ehdr;
        if (gelf_getehdr(elf, &ehdr) && ehdr.e_shoff != 0) {
            /* A section table was written but libelf cannot reach it: a truncated or damaged file. */
            object->status = BH_OBJECT_UNREADABLE;
            object->detail = bh_strdup("the section header table lies outside the file (truncated?)");
            return;
        }
        object->status = BH_OBJECT_NO_SECTION_HEADERS;
        return;
    }
    /* elf_getshdrstrndx follows SHN_XINDEX to the index kept in the first section header. */
    if (elf_getshdrstrndx(elf, &shstrndx) != 0) {
        object->status = BH_OBJECT_UNREADABLE;
        object->detail = bh_strdup(elf_errmsg(-1));
        return;
    }
    if (shstrndx == SHN_UNDEF) {
        /* Without a section name table no section has a name, so the annotation sections cannot be told apart. */
        object->status = BH_OBJECT_MALFORMED;
        object->detail = bh_strdup("the file has no section name table (e_shstrndx is 0), so its annotation sections cannot be found");
        return;
    }
    const char *damage = bh_section_table_damage(elf);
    if (damage) {
        object->status = BH_OBJECT_UNREADABLE;
        object->detail = bh_strdup(damage);
        return;
    }

    int compare_bytes = 0;
    if (c) {
        if (c->build_id_size && notes.build_id_size) {
            if (c->build_id_size != notes.build_id_size || memcmp(c->build_id, notes.build_id, c->build_id_size)) {
                object->status = BH_OBJECT_BUILD_ID_MISMATCH;
                return;
            }
        } else {
            /* Without build-ids on both sides, the program headers and then the section bytes must match. */
            if (!bh_program_headers_match(elf, c)) {
                object->status = BH_OBJECT_PROGRAM_HEADERS_MISMATCH;
                return;
            }
            compare_bytes = 1;
        }
    }

    size_t capacity = 0;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr)) continue;
        const char *name = bh_annotation_section(elf_strptr(elf, shstrndx, shdr.sh_name));
        if (!name) continue;
        bh_section *section = bh_object_add_section(object, &capacity, name, shdr.sh_size);
        if (!section) break;
        if (shdr.sh_type == SHT_NOBITS) {
            section->status = BH_SECTION_NO_DATA;
            continue;
        }
        if (shdr.sh_size > BH_SECTION_SIZE_MAX) {
            section->status = BH_SECTION_TOO_LARGE;
            continue;
        }
        Elf_Data *file_data = NULL;
        if (!c || compare_bytes) {
            file_data = elf_getdata(scn, NULL);
            if (!file_data || (shdr.sh_size && (!file_data->d_buf || file_data->d_size != shdr.sh_size))) {
                section->status = BH_SECTION_NO_DATA;
                continue;
            }
        }
        const void *source;
        if (c) {
            if (!bh_inside_loaded_segment(c, shdr.sh_addr, shdr.sh_size)) {
                section->status = BH_SECTION_OUTSIDE_SEGMENT;
                continue;
            }
            source = (const void *)(c->base + shdr.sh_addr);
            if (compare_bytes && shdr.sh_size && memcmp(source, file_data->d_buf, shdr.sh_size) != 0) {
                bh_object_drop_sections(object);
                object->status = BH_OBJECT_CONTENT_MISMATCH;
                return;
            }
        } else {
            if (!bh_inside_file_segment(elf, &shdr)) {
                section->status = BH_SECTION_OUTSIDE_SEGMENT;
                continue;
            }
            source = file_data->d_buf;
        }
        section->data = malloc(shdr.sh_size ? shdr.sh_size : 1);
        if (!section->data) {
            section->status = BH_SECTION_NO_DATA;
            continue;
        }
        if (c) {
            bh_copy_mapped(section->data, source, shdr.sh_size);
        } else {
            memcpy(section->data, source, shdr.sh_size);
        }
    }
}

/* What a file that is not a regular file is, in words; NULL for a regular file. */
static const char *bh_file_kind(mode_t mode) {
    if (S_ISREG(mode)) return NULL;
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    return "not a regular file";
}

/*
 * An offline file up to this size is read whole with one pread and handed to libelf as memory. Read lazily
 * (ELF_C_READ), a small plugin costs a pread per header table and section, eight in all; mapped
 * (ELF_C_READ_MMAP), page faults and an munmap: 4.9 and 10 µs for an 8 KB plugin against 3.1 read whole. At
 * 64 KB both ways cost about the same (5-7 µs); a larger file is read lazily, so that only its headers and
 * the sections asked for are read.
 */
#define BH_READ_WHOLE_MAX (64 << 10)

/*
 * Reads the opened file `fd`, whose status is `status`, into `object`; `whole` allows reading a small file in
 * one go (offline only).
 */
static void bh_read_file_with_status(int fd, const struct stat *status, const bh_candidate *c, int whole, bh_object *object) {
    pthread_once(&bh_libelf_once, bh_libelf_init);
    const char *kind = bh_file_kind(status->st_mode);
    if (kind) {
        object->status = BH_OBJECT_NOT_REGULAR_FILE;
        object->detail = bh_strdup(kind);
        return;
    }
    char *image = NULL;
    Elf *elf;
    if (whole && status->st_size > 0 && status->st_size <= BH_READ_WHOLE_MAX) {
        image = malloc((size_t)status->st_size);
        if (!image) {
            object->status = BH_OBJECT_UNREADABLE;
            object->sys_errno = ENOMEM;
            return;
        }
        size_t filled = 0;
        while (filled < (size_t)status->st_size) {
            ssize_t count = pread(fd, image + filled, (size_t)status->st_size - filled, (off_t)filled);
            if (count < 0 && errno == EINTR) continue;
            if (count <= 0) break;
            filled += (size_t)count;
        }
        /* A file cut short meanwhile is read as what it holds now: libelf reports it as truncated. */
        elf = elf_memory(image, filled);
    } else {
        elf = elf_begin(fd, ELF_C_READ, NULL);
    }
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
        object->status = elf ? BH_OBJECT_NOT_ELF : BH_OBJECT_UNREADABLE;
        if (!elf) object->detail = bh_strdup(elf_errmsg(-1));
        if (elf) elf_end(elf);
        free(image);
        return;
    }
    bh_read_elf(elf, c, object);
    elf_end(elf);
    free(image);
}

/* Reads the opened file `fd` into `object`, as bh_read_file_with_status does once it has the file's status. */
static void bh_read_descriptor(int fd, const bh_candidate *c, int whole, bh_object *object) {
    struct stat info;
    if (fstat(fd, &info) != 0) {
        object->status = BH_OBJECT_UNREADABLE;
        object->sys_errno = errno;
        return;
    }
    bh_read_file_with_status(fd, &info, c, whole, object);
}

/* O_NONBLOCK: opening a FIFO without a writer would otherwise wait forever. */
#define BH_OPEN_FLAGS (O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)

/* Why a file could not be opened; a socket cannot be opened at all (ENXIO): name what it is, not the errno. */
static void bh_open_failed(int error, const struct stat *info, bh_object *object) {
    const char *kind = info ? bh_file_kind(info->st_mode) : NULL;
    object->status = kind ? BH_OBJECT_NOT_REGULAR_FILE : BH_OBJECT_UNREADABLE;
    object->sys_errno = kind ? 0 : error;
    object->detail = kind ? bh_strdup(kind) : NULL;
}

/*
 * Fills `object` from the file at `path`. With a candidate, the sections are copied from that loaded object's
 * memory after the file has been matched to it; without one (offline), from the file.
 */
static void bh_read(const char *path, const bh_candidate *c, bh_object *object) {
    int fd = open(path, BH_OPEN_FLAGS);
    if (fd < 0) {
        int error = errno;
        struct stat info;
        bh_open_failed(error, stat(path, &info) == 0 ? &info : NULL, object);
        return;
    }
    bh_read_descriptor(fd, c, !c, object);
    close(fd);
}

bh_object *bh_object_for_file(const char *path) {
    bh_object *object = bh_object_new();
    if (!object) return NULL;
    object->path = bh_strdup(path);
    if (!object->path) {
        bh_object_release(object);
        return NULL;
    }
    return object;
}

bh_object *bh_read_file(const char *path) {
    bh_object *object = bh_object_for_file(path);
    if (object) bh_read(path, NULL, object);
    return object;
}

int bh_open_file_at(int directory, const char *name, struct stat *status, bh_object *object) {
    int fd = openat(directory, name, BH_OPEN_FLAGS);
    if (fd < 0) {
        int error = errno;
        bh_open_failed(error, fstatat(directory, name, status, 0) == 0 ? status : NULL, object);
        return -1;
    }
    if (fstat(fd, status) != 0) {
        object->status = BH_OBJECT_UNREADABLE;
        object->sys_errno = errno;
        close(fd);
        return -1;
    }
    return fd;
}

void bh_read_open_file(int fd, const struct stat *status, bh_object *object) {
    bh_read_file_with_status(fd, status, NULL, 1, object);
}

static uintptr_t bh_dynamic_address(const bh_candidate *c) {
    for (size_t i = 0; i < c->phnum; i++)
        if (c->phdrs[i].p_type == PT_DYNAMIC) return c->base + c->phdrs[i].p_vaddr;
    return 0;
}

/*
 * Keeps a library mapped while its memory is read; no handle for the main program, which cannot go away.
 * Fails if the library is gone, or if what is loaded under its name now is not the mapping the walk saw: it
 * may have been unloaded and loaded again, elsewhere, between the walk and the pin. The loader's counters
 * moved in both cases, so the next refresh walks again.
 */
static int bh_pin(const bh_candidate *c, void **handle) {
    *handle = NULL;
    if (c->is_main) return 1;
    *handle = dlopen(c->name, RTLD_LAZY | RTLD_NOLOAD);
    if (!*handle) return 0;
    struct link_map *map = NULL;
    if (dlinfo(*handle, RTLD_DI_LINKMAP, &map) != 0 || !map || map->l_addr != c->base ||
        (uintptr_t)map->l_ld != bh_dynamic_address(c)) {
        dlclose(*handle);
        *handle = NULL;
        return 0;
    }
    return 1;
}

static void bh_unpin(void *handle) {
    if (handle) dlclose(handle);
}


/* The main program has no name in dl_iterate_phdr; /proc/self/exe opens the mapped file even if replaced. */
void bh_read_through_file(const bh_candidate *c, bh_object *object) {
    object->source = BH_SOURCE_FILE;
    void *pin;
    if (!bh_pin(c, &pin)) {
        object->status = BH_OBJECT_UNREADABLE;
        object->detail = bh_strdup("the library was unloaded before its file could be read");
        return;
    }
    bh_read(c->is_main ? "/proc/self/exe" : c->name, c, object);
    bh_unpin(pin);
}
