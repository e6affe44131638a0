/*
 * How a file on disk links: its machine, its class, the libraries it needs, whether it carries Swift metadata,
 * the Swift modules it exports, the protocols it imports and the witness tables it defines, and the BeeHive
 * interface it was built against, read offline with libelf before anything maps it. Swift decides what the
 * answers mean.
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
#include <sys/stat.h>
#include <unistd.h>

#define BH_LINKAGE_NEEDED_MAX ((size_t)64 << 10)
#define BH_SWIFT_MODULE_NAME_MAX 255
#define BH_SWIFT_MODULES_MAX 256
#define BH_WITNESS_TABLES_MAX 4096

static pthread_once_t bh_linkage_libelf_once = PTHREAD_ONCE_INIT;
static void bh_linkage_libelf_init(void) { (void)elf_version(EV_CURRENT); }

static void bh_linkage_fail(bh_linkage *linkage, int status, int error, const char *detail) {
    linkage->status = status;
    linkage->sys_errno = error;
    linkage->detail = detail;
}

/* The file offset of `address`, or -1 when no loaded segment of the file holds `size` bytes there. */
static int64_t bh_offset_of_address(Elf *elf, uint64_t address, uint64_t size) {
    size_t count = 0;
    if (elf_getphdrnum(elf, &count) != 0) return -1;
    for (size_t i = 0; i < count; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD) continue;
        if (address >= ph.p_vaddr && size <= ph.p_filesz && address - ph.p_vaddr <= ph.p_filesz - size)
            return (int64_t)(ph.p_offset + (address - ph.p_vaddr));
    }
    return -1;
}

/* The DT_NEEDED names through PT_DYNAMIC, which stripped files (no section table) keep too. */
static void bh_read_needed(Elf *elf, size_t file_size, bh_linkage *linkage) {
    size_t count = 0;
    if (elf_getphdrnum(elf, &count) != 0) return;
    Elf_Data *dynamic = NULL;
    for (size_t i = 0; i < count && !dynamic; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_DYNAMIC) continue;
        if (ph.p_offset > file_size || ph.p_filesz > file_size - ph.p_offset) {
            bh_linkage_fail(linkage, BH_OBJECT_MALFORMED, 0, "PT_DYNAMIC lies past the end of the file");
            return;
        }
        dynamic = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_DYN);
    }
    if (!dynamic || !dynamic->d_buf) return;
    size_t entry_size = gelf_fsize(elf, ELF_T_DYN, 1, EV_CURRENT);
    if (entry_size == 0) return;
    size_t entries = dynamic->d_size / entry_size;
    uint64_t strtab = 0, strsz = 0;
    for (size_t i = 0; i < entries; i++) {
        GElf_Dyn dyn;
        if (!gelf_getdyn(dynamic, (int)i, &dyn) || dyn.d_tag == DT_NULL) break;
        if (dyn.d_tag == DT_STRTAB) strtab = dyn.d_un.d_ptr;
        if (dyn.d_tag == DT_STRSZ) strsz = dyn.d_un.d_val;
    }
    if (strsz == 0) return;
    int64_t at = bh_offset_of_address(elf, strtab, strsz);
    if (at < 0 || (uint64_t)at > file_size || strsz > file_size - (uint64_t)at) {
        bh_linkage_fail(linkage, BH_OBJECT_MALFORMED, 0, "the dynamic string table lies outside the file's segments");
        return;
    }
    Elf_Data *strings = elf_getdata_rawchunk(elf, at, strsz, ELF_T_BYTE);
    if (!strings || !strings->d_buf) return;
    const char *table = strings->d_buf;
    for (size_t i = 0; i < entries; i++) {
        GElf_Dyn dyn;
        if (!gelf_getdyn(dynamic, (int)i, &dyn) || dyn.d_tag == DT_NULL) break;
        if ((dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RPATH && dyn.d_tag != DT_RUNPATH) || dyn.d_un.d_val >= strsz)
            continue;
        const char *name = table + dyn.d_un.d_val;
        const char *end = memchr(name, 0, strsz - dyn.d_un.d_val);
        if (!end) continue;
        size_t length = (size_t)(end - name) + 1;
        if (dyn.d_tag != DT_NEEDED) {
            /* One search path of each kind; the loader reads the first too. */
            char **path = dyn.d_tag == DT_RPATH ? &linkage->rpath : &linkage->runpath;
            if (*path || length > BH_LINKAGE_NEEDED_MAX) continue;
            *path = malloc(length);
            if (*path) memcpy(*path, name, length);
            continue;
        }
        /* Entries may all name one long string: a bound keeps a hostile file from costing its size squared. */
        if (linkage->needed_size + length > BH_LINKAGE_NEEDED_MAX) {
            bh_linkage_free(linkage);
            bh_linkage_fail(linkage, BH_OBJECT_MALFORMED, 0, "the needed libraries' names exceed 64 KiB");
            return;
        }
        char *grown = realloc(linkage->needed, linkage->needed_size + length);
        if (!grown) return;
        memcpy(grown + linkage->needed_size, name, length);
        linkage->needed = grown;
        linkage->needed_size += length;
    }
}

/* The Swift toolchain that built the file, as the `.comment` section names the compiler of its C and C++ parts:
   every Swift binary links the toolchain's own objects (swiftrt.o), built by the toolchain's clang, whose
   version line names the toolchain's llvm-project commit. Copied into `out` (NUL-terminated, cut at `size`);
   0 when no such line is there (a C file, or one stripped of .comment). */
static int bh_comment_toolchain(Elf *elf, char *out, size_t size) {
    size_t names = 0;
    if (size == 0 || elf_getshdrstrndx(elf, &names) != 0) return 0;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_PROGBITS) continue;
        const char *name = elf_strptr(elf, names, shdr.sh_name);
        if (!name || strcmp(name, ".comment") != 0) continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data || !data->d_buf) return 0;
        const char *text = data->d_buf;
        for (size_t at = 0; at < data->d_size;) {
            size_t length = strnlen(text + at, data->d_size - at);
            if (length > 14 && memcmp(text + at, "clang version ", 14) == 0 &&
                (memmem(text + at, length, "swiftlang/llvm-project", 22) || memmem(text + at, length, "apple/llvm-project", 18))) {
                size_t copied = length < size - 1 ? length : size - 1;
                memcpy(out, text + at, copied);
                out[copied] = 0;
                return 1;
            }
            at += length + 1;
        }
        return 0;
    }
    return 0;
}

int bh_read_swift_toolchain(const char *path, char *out, size_t size) {
    pthread_once(&bh_linkage_libelf_once, bh_linkage_libelf_init);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return 0;
    struct stat status;
    int found = 0;
    if (fstat(fd, &status) == 0 && S_ISREG(status.st_mode)) {
        Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
        if (elf && elf_kind(elf) == ELF_K_ELF) found = bh_comment_toolchain(elf, out, size);
        if (elf) elf_end(elf);
    }
    close(fd);
    return found;
}

static void bh_read_swift_metadata(Elf *elf, bh_linkage *linkage) {
    size_t names = 0, sections = 0;
    if (elf_getshdrnum(elf, &sections) != 0 || sections == 0 || elf_getshdrstrndx(elf, &names) != 0) {
        linkage->swift_metadata = -1;
        return;
    }
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_size == 0) continue;
        const char *name = elf_strptr(elf, names, shdr.sh_name);
        /* swift5_typeref holds the mangled names every Swift type refers to; a library with Swift code has it. */
        if (name && strcmp(name, "swift5_typeref") == 0) {
            linkage->swift_metadata = 1;
            return;
        }
    }
    linkage->swift_metadata = 0;
}

/* The Swift module a defined symbol's mangled name starts with, for nominal type and protocol descriptors
   (`$s11Hummingbird6RouterCMn`: "Hummingbird"): its length, with *module set; 0 for any other name. */
static size_t bh_swift_descriptor_module(const char *name, const char **module) {
    if (name[0] != '$' || name[1] != 's' || name[2] < '1' || name[2] > '9') return 0;
    size_t length = 0, at = 2;
    while (name[at] >= '0' && name[at] <= '9') {
        length = length * 10 + (size_t)(name[at++] - '0');
        if (length > BH_SWIFT_MODULE_NAME_MAX) return 0;
    }
    /* The module's name, then at least the descriptor's suffix. */
    size_t rest = strlen(name + at);
    if (rest < length + 2) return 0;
    if (name[at + rest - 2] != 'M' || (name[at + rest - 1] != 'n' && name[at + rest - 1] != 'p')) return 0;
    *module = name + at;
    return length;
}

/* Appends `length` bytes of `text` and a NUL to a list of strings; 0 when the list would grow past its bound. */
static int bh_append_string(char **list, size_t *size, const char *text, size_t length) {
    if (*size + length + 1 > BH_LINKAGE_NEEDED_MAX) return 0;
    char *grown = realloc(*list, *size + length + 1);
    if (!grown) return 0;
    memcpy(grown + *size, text, length);
    grown[*size + length] = 0;
    *list = grown;
    *size += length + 1;
    return 1;
}

/* Whether `name` is a Swift symbol (`$s...`) that ends in `suffix`. */
static int bh_swift_symbol_ending(const char *name, const char *suffix) {
    size_t length = strlen(name), tail = strlen(suffix);
    return length > tail + 2 && name[0] == '$' && name[1] == 's' && memcmp(name + length - tail, suffix, tail) == 0;
}

/* A protocol descriptor the file defines at `address` (`$s6Shared8GreetingMp`): its name and its first five
   words as the file holds them (zeros when it does not hold them), which Swift reads as the descriptor's flags
   and counts. */
static void bh_read_exported_protocol(Elf *elf, const char *name, uint64_t address, bh_linkage *linkage) {
    if (linkage->exported_protocol_count >= BH_SWIFT_MODULES_MAX) return;
    uint32_t words[BH_PROTOCOL_DESCRIPTOR_WORDS] = {0};
    int64_t offset = bh_offset_of_address(elf, address, sizeof words);
    Elf_Data *bytes = offset >= 0 ? elf_getdata_rawchunk(elf, offset, sizeof words, ELF_T_BYTE) : NULL;
    if (bytes && bytes->d_buf && bytes->d_size >= sizeof words) memcpy(words, bytes->d_buf, sizeof words);
    uint32_t *all = realloc(linkage->exported_protocol_words,
                            (linkage->exported_protocol_count + 1) * sizeof words);
    if (!all) return;
    linkage->exported_protocol_words = all;
    if (!bh_append_string(&linkage->exported_protocols, &linkage->exported_protocols_size, name, strlen(name))) return;
    memcpy(all + linkage->exported_protocol_count++ * BH_PROTOCOL_DESCRIPTOR_WORDS, words, sizeof words);
}

/* From .dynsym, which stripped files keep: for each Swift module whose types or protocols the file defines and
   exports, one such symbol (a library that carries its own copy of a module the process already has), and the
   protocol descriptors it imports (`$s6Shared8GreetingMp`, undefined here). */
static void bh_read_swift_modules(Elf *elf, bh_linkage *linkage) {
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_DYNSYM || shdr.sh_entsize == 0) continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data || !data->d_buf) return;
        size_t count = data->d_size / shdr.sh_entsize;
        size_t modules = 0, protocols = 0;
        for (size_t i = 0; i < count; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(data, (int)i, &sym)) continue;
            int binding = GELF_ST_BIND(sym.st_info);
            if (binding != STB_GLOBAL && binding != STB_WEAK) continue;
            const char *name = elf_strptr(elf, shdr.sh_link, sym.st_name);
            if (!name) continue;
            if (sym.st_shndx == SHN_UNDEF) {
                /* AddressSanitizer puts a redzone after each global and counts it in the symbol's size. */
                if (strncmp(name, "__asan_", 7) == 0) linkage->address_sanitized = 1;
                if (protocols < BH_SWIFT_MODULES_MAX && bh_swift_symbol_ending(name, "Mp")
                    && bh_append_string(&linkage->imported_protocols, &linkage->imported_protocols_size, name, strlen(name)))
                    protocols++;
                continue;
            }
            if (bh_swift_symbol_ending(name, "Mp")) bh_read_exported_protocol(elf, name, sym.st_value, linkage);
            const char *module = NULL;
            size_t length = modules < BH_SWIFT_MODULES_MAX ? bh_swift_descriptor_module(name, &module) : 0;
            if (length == 0) continue;
            /* Pairs of module and symbol, each NUL-terminated; a module is listed once. */
            int known = 0;
            for (size_t at = 0; at < linkage->swift_modules_size && !known;) {
                size_t listed = strlen(linkage->swift_modules + at);
                known = listed == length && memcmp(linkage->swift_modules + at, module, length) == 0;
                at += listed + 1;
                at += strlen(linkage->swift_modules + at) + 1;
            }
            if (known) continue;
            size_t before = linkage->swift_modules_size;
            if (!bh_append_string(&linkage->swift_modules, &linkage->swift_modules_size, module, length)) continue;
            if (!bh_append_string(&linkage->swift_modules, &linkage->swift_modules_size, name, strlen(name))) {
                linkage->swift_modules_size = before;
                continue;
            }
            modules++;
        }
        return;
    }
}

/* The protocol witness tables the file defines (`$s...WP`) and their sizes: how many requirements each
   conformance was compiled against. From .symtab, which holds the local ones too; a file stripped of it keeps
   the exported ones in .dynsym. */
static void bh_read_witness_tables(Elf *elf, bh_linkage *linkage) {
    Elf_Scn *scn = NULL, *table = NULL;
    GElf_Shdr shdr, chosen;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_entsize == 0) continue;
        if (shdr.sh_type == SHT_SYMTAB || (shdr.sh_type == SHT_DYNSYM && !table)) {
            table = scn;
            chosen = shdr;
        }
        if (shdr.sh_type == SHT_SYMTAB) break;
    }
    Elf_Data *data = table ? elf_getdata(table, NULL) : NULL;
    if (!data || !data->d_buf) return;
    size_t count = data->d_size / chosen.sh_entsize;
    for (size_t i = 0; i < count && linkage->witness_table_count < BH_WITNESS_TABLES_MAX; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF || sym.st_size == 0) continue;
        const char *name = elf_strptr(elf, chosen.sh_link, sym.st_name);
        if (!name || !bh_swift_symbol_ending(name, "WP")) continue;
        uint64_t *sizes = realloc(linkage->witness_table_sizes, (linkage->witness_table_count + 1) * sizeof *sizes);
        if (!sizes) return;
        linkage->witness_table_sizes = sizes;
        if (!bh_append_string(&linkage->witness_tables, &linkage->witness_tables_size, name, strlen(name))) return;
        sizes[linkage->witness_table_count++] = sym.st_size;
    }
}

int bh_read_linkage(const char *path, bh_linkage *linkage) {
    memset(linkage, 0, sizeof *linkage);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        bh_linkage_fail(linkage, BH_OBJECT_UNREADABLE, errno, "cannot open the file");
        return linkage->status;
    }
    struct stat status;
    if (fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
        bh_linkage_fail(linkage, BH_OBJECT_NOT_REGULAR_FILE, errno, "not a regular file");
        close(fd);
        return linkage->status;
    }
    bh_read_open_linkage(fd, (size_t)status.st_size, linkage);
    close(fd);
    return linkage->status;
}

int bh_read_open_linkage(int fd, size_t file_size, bh_linkage *linkage) {
    memset(linkage, 0, sizeof *linkage);
    pthread_once(&bh_linkage_libelf_once, bh_linkage_libelf_init);
    /* Read, not mapped: a file cut short while it is read gives an error, not SIGBUS. */
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    GElf_Ehdr ehdr;
    if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr)) {
        bh_linkage_fail(linkage, BH_OBJECT_NOT_ELF, 0, "not an ELF file");
    } else {
        linkage->machine = ehdr.e_machine;
        linkage->elf_class = ehdr.e_ident[EI_CLASS];
        linkage->elf_type = ehdr.e_type;
        bh_read_needed(elf, file_size, linkage);
        bh_read_swift_metadata(elf, linkage);
        if (linkage->status == 0) {
            bh_read_swift_modules(elf, linkage);
            bh_read_witness_tables(elf, linkage);
            linkage->has_swift_toolchain = bh_comment_toolchain(elf, linkage->swift_toolchain, sizeof linkage->swift_toolchain);
        }
        size_t sections = 0;
        if (elf_getshdrnum(elf, &sections) != 0) sections = 0;
        bh_notes notes = {0};
        bh_file_notes(elf, sections, &notes);
        linkage->has_interface = notes.has_interface;
        linkage->interface_fingerprint = notes.interface_fingerprint;
    }
    if (elf) elf_end(elf);
    return linkage->status;
}

/* Frees the lists and leaves the whole struct zeroed, as bh_read_linkage starts it. */
void bh_linkage_free(bh_linkage *linkage) {
    free(linkage->needed);
    free(linkage->rpath);
    free(linkage->runpath);
    free(linkage->swift_modules);
    free(linkage->imported_protocols);
    free(linkage->witness_tables);
    free(linkage->witness_table_sizes);
    free(linkage->exported_protocols);
    free(linkage->exported_protocol_words);
    memset(linkage, 0, sizeof *linkage);
}

const char *bh_image_containing(const void *address) {
    Dl_info info;
    if (dladdr(address, &info) == 0 || !info.dli_fname) return NULL;
    return info.dli_fname;
}
