/*
 * Discovery: the walk over loaded objects. It only finds and copies raw sections; Swift parses them.
 *
 * An object takes part only if it carries the BeeHive note (PT_NOTE, readable from memory through
 * dl_iterate_phdr at a few ns per object). Only those objects are opened with libelf, because section
 * headers are not mapped. The file is trusted only if its build-id matches the one in memory (or, without
 * build-ids, its program headers and section bytes match memory), and a section is copied from memory only
 * if it lies inside a readable, file-backed PT_LOAD segment of that object.
 */
#define _GNU_SOURCE
#include "beehive_discovery.h"
#include "beehive.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const bh_section_names[] = {
    BEEHIVE_SECTION_MODULES, BEEHIVE_SECTION_SERVICES, BEEHIVE_SECTION_ROUTES
};

typedef struct bh_candidate {
    char *name;
    int is_main;
    uintptr_t base;
    ElfW(Phdr) *phdrs;
    size_t phnum;
    unsigned char build_id[BH_BUILD_ID_MAX];
    size_t build_id_size;
    int annotated;
} bh_candidate;

typedef struct bh_walk {
    bh_candidate *items;
    size_t count, capacity;
    size_t visited;                    /* objects the walk has passed, collected or not */
    int want_all;
    int out_of_memory;
    unsigned long long adds, subs;
} bh_walk;

static pthread_once_t bh_libelf_once = PTHREAD_ONCE_INIT;
static void bh_libelf_init(void) { (void)elf_version(EV_CURRENT); }

static int bh_grow(void **items, size_t *capacity, size_t count, size_t size) {
    if (count < *capacity) return 1;
    size_t next = *capacity ? *capacity * 2 : 8;
    void *grown = realloc(*items, next * size);
    if (!grown) return 0;
    *items = grown;
    *capacity = next;
    return 1;
}

static char *bh_strdup(const char *s) { return strdup(s ? s : ""); }

/* ---- Notes in memory ---------------------------------------------------------------------------------- */

static size_t bh_align(size_t value, size_t alignment) { return (value + alignment - 1) & ~(alignment - 1); }

/* Looks through one PT_NOTE segment in memory for the BeeHive mark and the GNU build-id. */
static void bh_scan_notes(const unsigned char *start, size_t size, size_t alignment, bh_candidate *c) {
    size_t offset = 0;
    while (size - offset >= sizeof(ElfW(Nhdr))) {
        ElfW(Nhdr) header;
        memcpy(&header, start + offset, sizeof header);
        size_t name_at = offset + sizeof header;
        size_t desc_at = bh_align(name_at + header.n_namesz, alignment);
        size_t next = bh_align(desc_at + header.n_descsz, alignment);
        if (header.n_namesz > size || header.n_descsz > size || desc_at > size || next > size || next <= offset)
            return;
        const char *name = (const char *)(start + name_at);
        if (header.n_namesz == sizeof BEEHIVE_NOTE_NAME && header.n_type == BEEHIVE_NOTE_TYPE &&
            memcmp(name, BEEHIVE_NOTE_NAME, sizeof BEEHIVE_NOTE_NAME) == 0) {
            c->annotated = 1;
        } else if (header.n_namesz == 4 && header.n_type == NT_GNU_BUILD_ID && memcmp(name, "GNU", 4) == 0 &&
                   header.n_descsz <= BH_BUILD_ID_MAX && c->build_id_size == 0) {
            memcpy(c->build_id, start + desc_at, header.n_descsz);
            c->build_id_size = header.n_descsz;
        }
        offset = next;
    }
}

/* A note segment is read from memory only if a readable, file-backed PT_LOAD segment covers it. */
static int bh_note_is_mapped(const struct dl_phdr_info *info, const ElfW(Phdr) *note) {
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_R) && note->p_vaddr >= ph->p_vaddr &&
            note->p_memsz <= ph->p_filesz && note->p_vaddr - ph->p_vaddr <= ph->p_filesz - note->p_memsz)
            return 1;
    }
    return 0;
}

static int bh_collect(struct dl_phdr_info *info, size_t info_size, void *context) {
    bh_walk *walk = context;
    if (info_size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
        walk->adds = info->dlpi_adds;
        walk->subs = info->dlpi_subs;
    }
    bh_candidate c = {0};
    c.base = info->dlpi_addr;
    /* The main program comes first and has no name; later unnamed objects are not files to open. */
    c.is_main = walk->visited++ == 0 && (info->dlpi_name == NULL || info->dlpi_name[0] == '\0');
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_NOTE && bh_note_is_mapped(info, ph))
            bh_scan_notes((const unsigned char *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz,
                          ph->p_align == 8 ? 8 : 4, &c);
    }
    if (!c.annotated && !walk->want_all) return 0;
    if (!bh_grow((void **)&walk->items, &walk->capacity, walk->count, sizeof c)) {
        walk->out_of_memory = 1;
        return 1;
    }
    c.name = bh_strdup(info->dlpi_name);
    c.phdrs = malloc(sizeof(ElfW(Phdr)) * (info->dlpi_phnum ? info->dlpi_phnum : 1));
    if (!c.name || !c.phdrs) {
        free(c.name);
        free(c.phdrs);
        walk->out_of_memory = 1;
        return 1;
    }
    memcpy(c.phdrs, info->dlpi_phdr, sizeof(ElfW(Phdr)) * info->dlpi_phnum);
    c.phnum = info->dlpi_phnum;
    walk->items[walk->count++] = c;
    return 0;
}

static int bh_first_counters(struct dl_phdr_info *info, size_t info_size, void *context) {
    bh_walk *walk = context;
    if (info_size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
        walk->adds = info->dlpi_adds;
        walk->subs = info->dlpi_subs;
    }
    return 1;
}

static void bh_walk_free(bh_walk *walk) {
    for (size_t i = 0; i < walk->count; i++) {
        free(walk->items[i].name);
        free(walk->items[i].phdrs);
    }
    free(walk->items);
}

/* The main program has no name in dl_iterate_phdr; /proc/self/exe opens the mapped file even if replaced. */
static const char *bh_open_path(const bh_candidate *c) { return c->is_main ? "/proc/self/exe" : c->name; }

static char *bh_display_path(const bh_candidate *c) {
    if (!c->is_main) return bh_strdup(c->name);
    char buffer[4096];
    ssize_t length = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
    if (length < 0) return bh_strdup("/proc/self/exe");
    buffer[length] = '\0';
    return bh_strdup(buffer);
}

/* ---- Reading one object -------------------------------------------------------------------------------- */

static int bh_is_annotation_section(const char *name) {
    if (!name) return 0;
    for (size_t i = 0; i < sizeof bh_section_names / sizeof *bh_section_names; i++)
        if (strcmp(name, bh_section_names[i]) == 0) return 1;
    return 0;
}

/* What a file's notes say: whether it carries the BeeHive mark, and its GNU build-id. */
typedef struct bh_notes {
    int annotated;
    unsigned char build_id[BH_BUILD_ID_MAX];
    size_t build_id_size;
} bh_notes;

static void bh_scan_note_data(Elf_Data *data, bh_notes *notes) {
    size_t offset = 0, name_at, desc_at;
    GElf_Nhdr note;
    while (offset < data->d_size && (offset = gelf_getnote(data, offset, &note, &name_at, &desc_at)) > 0) {
        const char *name = (const char *)data->d_buf + name_at;
        if (note.n_namesz == sizeof BEEHIVE_NOTE_NAME && note.n_type == BEEHIVE_NOTE_TYPE &&
            memcmp(name, BEEHIVE_NOTE_NAME, sizeof BEEHIVE_NOTE_NAME) == 0) {
            notes->annotated = 1;
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
static void bh_file_notes(Elf *elf, size_t section_count, bh_notes *notes) {
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

static bh_section *bh_add_section(bh_object *object, size_t *capacity, const char *name, size_t size) {
    if (!bh_grow((void **)&object->sections, capacity, object->section_count, sizeof(bh_section))) return NULL;
    bh_section *section = &object->sections[object->section_count++];
    memset(section, 0, sizeof *section);
    section->name = bh_strdup(name);
    section->size = size;
    return section;
}

static void bh_drop_sections(bh_object *object) {
    for (size_t i = 0; i < object->section_count; i++) {
        free(object->sections[i].name);
        free(object->sections[i].data);
    }
    free(object->sections);
    object->sections = NULL;
    object->section_count = 0;
}

/* Checks the file against the loaded object `c` (if any) and copies its annotation sections into `object`. */
static void bh_read_elf(Elf *elf, const bh_candidate *c, bh_object *object) {
    size_t shnum = 0, shstrndx = 0;
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
    if (elf_getshdrstrndx(elf, &shstrndx) != 0) {
        object->status = BH_OBJECT_UNREADABLE;
        object->detail = bh_strdup(elf_errmsg(-1));
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
        const char *name = elf_strptr(elf, shstrndx, shdr.sh_name);
        if (!bh_is_annotation_section(name)) continue;
        bh_section *section = bh_add_section(object, &capacity, name, shdr.sh_size);
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
                bh_drop_sections(object);
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
        memcpy(section->data, source, shdr.sh_size);
    }
}

/*
 * Fills `object` from the file at `path`. With a candidate, the sections are copied from that loaded object's
 * memory after the file has been matched to it; without one (offline), from the file.
 */
static void bh_read(const char *path, const bh_candidate *c, bh_object *object) {
    pthread_once(&bh_libelf_once, bh_libelf_init);
    if (c) {
        /* A loaded object is described by its memory; the file only serves once it is shown to match. */
        object->annotated = c->annotated;
        memcpy(object->build_id, c->build_id, c->build_id_size);
        object->build_id_size = c->build_id_size;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        object->status = BH_OBJECT_UNREADABLE;
        object->sys_errno = errno;
        return;
    }
    /* ELF_C_READ reads only the headers and sections asked for; mapping the whole file cost more in page
       faults and munmap than the few reads it saves. */
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
        object->status = elf ? BH_OBJECT_NOT_ELF : BH_OBJECT_UNREADABLE;
        if (!elf) object->detail = bh_strdup(elf_errmsg(-1));
        if (elf) elf_end(elf);
        close(fd);
        return;
    }
    bh_read_elf(elf, c, object);
    elf_end(elf);
    close(fd);
}

void bh_object_free(bh_object *object) {
    if (!object) return;
    bh_drop_sections(object);
    free(object->path);
    free(object->detail);
    free(object);
}

bh_object *bh_read_file(const char *path) {
    bh_object *object = calloc(1, sizeof *object);
    if (!object) return NULL;
    object->path = bh_strdup(path);
    bh_read(path, NULL, object);
    return object;
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

/* ---- The process-wide state behind bh_refresh ---------------------------------------------------------- */

typedef struct bh_known {
    uint64_t id;
    char *name;
    char *path;
    uintptr_t base;
    unsigned char build_id[BH_BUILD_ID_MAX];
    size_t build_id_size;
} bh_known;

static pthread_mutex_t bh_mutex = PTHREAD_MUTEX_INITIALIZER;
static bh_known *bh_known_items;
static size_t bh_known_count, bh_known_capacity;
static bh_event *bh_queue;
static size_t bh_queue_count, bh_queue_capacity;
static unsigned long long bh_seen_adds, bh_seen_subs;
static int bh_walked;
static uint64_t bh_next_id = 1;
static uint64_t bh_constructor_ns;

static int bh_same_object(const bh_known *k, const bh_candidate *c) {
    return k->base == c->base && strcmp(k->name, c->name) == 0 && k->build_id_size == c->build_id_size &&
           memcmp(k->build_id, c->build_id, c->build_id_size) == 0;
}

static int bh_enqueue(int kind, bh_object *object) {
    if (!bh_grow((void **)&bh_queue, &bh_queue_capacity, bh_queue_count, sizeof(bh_event))) return 0;
    bh_queue[bh_queue_count++] = (bh_event){ .kind = kind, .object = object };
    return 1;
}

static size_t bh_queue_removed(size_t index) {
    bh_known *k = &bh_known_items[index];
    bh_object *object = calloc(1, sizeof *object);
    if (!object) return 0;
    object->id = k->id;
    object->path = k->path;
    object->base = k->base;
    memcpy(object->build_id, k->build_id, k->build_id_size);
    object->build_id_size = k->build_id_size;
    object->annotated = 1;
    free(k->name);
    if (!bh_enqueue(BH_EVENT_REMOVED, object)) {
        bh_object_free(object);
    }
    bh_known_items[index] = bh_known_items[--bh_known_count];
    return 1;
}

static size_t bh_queue_added(const bh_candidate *c) {
    void *pin;
    if (!bh_pin(c, &pin)) return 0;
    bh_object *object = calloc(1, sizeof *object);
    if (!object) {
        bh_unpin(pin);
        return 0;
    }
    object->path = bh_display_path(c);
    object->base = c->base;
    object->id = bh_next_id++;
    bh_read(bh_open_path(c), c, object);
    bh_unpin(pin);
    if (!bh_grow((void **)&bh_known_items, &bh_known_capacity, bh_known_count, sizeof(bh_known))) {
        bh_object_free(object);
        return 0;
    }
    bh_known *k = &bh_known_items[bh_known_count];
    *k = (bh_known){ .id = object->id, .name = bh_strdup(c->name), .path = bh_strdup(object->path), .base = c->base };
    memcpy(k->build_id, c->build_id, c->build_id_size);
    k->build_id_size = c->build_id_size;
    if (!bh_enqueue(BH_EVENT_ADDED, object)) {
        free(k->name);
        free(k->path);
        bh_object_free(object);
        return 0;
    }
    bh_known_count++;
    return 1;
}

/* BEEHIVE_DISCOVERY=0 turns discovery off for the process (to measure what it costs, or to rule it out). */
static int bh_disabled(void) {
    static int disabled = -1;
    if (disabled < 0) {
        const char *setting = getenv("BEEHIVE_DISCOVERY");
        disabled = setting && strcmp(setting, "0") == 0;
    }
    return disabled;
}

int bh_discovery_enabled(void) { return !bh_disabled(); }

size_t bh_refresh(void) {
    if (bh_disabled()) return 0;
    pthread_mutex_lock(&bh_mutex);
    bh_walk probe = {0};
    dl_iterate_phdr(bh_first_counters, &probe);
    if (bh_walked && probe.adds == bh_seen_adds && probe.subs == bh_seen_subs) {
        pthread_mutex_unlock(&bh_mutex);
        return 0;
    }
    bh_walk walk = {0};
    dl_iterate_phdr(bh_collect, &walk);
    size_t queued = 0;
    if (!walk.out_of_memory) {
        for (size_t i = bh_known_count; i-- > 0;) {
            int present = 0;
            for (size_t j = 0; j < walk.count && !present; j++) present = bh_same_object(&bh_known_items[i], &walk.items[j]);
            if (!present) queued += bh_queue_removed(i);
        }
        for (size_t j = 0; j < walk.count; j++) {
            int known = 0;
            for (size_t i = 0; i < bh_known_count && !known; i++) known = bh_same_object(&bh_known_items[i], &walk.items[j]);
            if (!known) queued += bh_queue_added(&walk.items[j]);
        }
        bh_seen_adds = walk.adds;
        bh_seen_subs = walk.subs;
        bh_walked = 1;
    }
    bh_walk_free(&walk);
    pthread_mutex_unlock(&bh_mutex);
    return queued;
}

bh_event_list *bh_take_events(void) {
    bh_event_list *list = calloc(1, sizeof *list);
    if (!list) return NULL;
    pthread_mutex_lock(&bh_mutex);
    list->events = bh_queue;
    list->count = bh_queue_count;
    bh_queue = NULL;
    bh_queue_count = bh_queue_capacity = 0;
    pthread_mutex_unlock(&bh_mutex);
    return list;
}

void bh_event_list_free(bh_event_list *list) {
    if (!list) return;
    for (size_t i = 0; i < list->count; i++) bh_object_free(list->events[i].object);
    free(list->events);
    free(list);
}

uint64_t bh_constructor_nanoseconds(void) { return bh_constructor_ns; }

static uint64_t bh_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

__attribute__((constructor)) static void bh_discover_at_load(void) {
    uint64_t start = bh_now();
    bh_refresh();
    bh_constructor_ns = bh_now() - start;
}

/* ---- Benchmarks ------------------------------------------------------------------------------------------ */

bh_event_list *bh_scan_uncached(void) {
    bh_event_list *list = calloc(1, sizeof *list);
    if (!list) return NULL;
    bh_walk walk = {0};
    dl_iterate_phdr(bh_collect, &walk);
    list->events = calloc(walk.count ? walk.count : 1, sizeof(bh_event));
    for (size_t i = 0; list->events && i < walk.count; i++) {
        void *pin;
        if (!bh_pin(&walk.items[i], &pin)) continue;
        bh_object *object = calloc(1, sizeof *object);
        if (object) {
            object->path = bh_display_path(&walk.items[i]);
            object->base = walk.items[i].base;
            bh_read(bh_open_path(&walk.items[i]), &walk.items[i], object);
            list->events[list->count++] = (bh_event){ .kind = BH_EVENT_ADDED, .object = object };
        }
        bh_unpin(pin);
    }
    bh_walk_free(&walk);
    return list;
}

size_t bh_open_every_loaded_object(size_t *sections_seen) {
    pthread_once(&bh_libelf_once, bh_libelf_init);
    bh_walk walk = { .want_all = 1 };
    dl_iterate_phdr(bh_collect, &walk);
    size_t opened = 0, sections = 0;
    for (size_t i = 0; i < walk.count; i++) {
        const bh_candidate *c = &walk.items[i];
        if (!c->is_main && c->name[0] != '/') continue;
        int fd = open(bh_open_path(c), O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
        size_t shstrndx = 0;
        if (elf && elf_getshdrstrndx(elf, &shstrndx) == 0) {
            Elf_Scn *scn = NULL;
            while ((scn = elf_nextscn(elf, scn)) != NULL) {
                GElf_Shdr shdr;
                if (gelf_getshdr(scn, &shdr) && bh_is_annotation_section(elf_strptr(elf, shstrndx, shdr.sh_name)))
                    sections++;
            }
            opened++;
        }
        if (elf) elf_end(elf);
        close(fd);
    }
    bh_walk_free(&walk);
    if (sections_seen) *sections_seen = sections;
    return opened;
}
