/*
 * The discovery side of the shim, called from Swift. It finds annotated objects and copies their raw
 * sections; parsing records and every policy decision happen in Swift.
 */
#ifndef BEEHIVE_DISCOVERY_H
#define BEEHIVE_DISCOVERY_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BH_BUILD_ID_MAX 64
/* Larger annotation sections are refused rather than copied: no real program has 64 MiB of annotations. */
#define BH_SECTION_SIZE_MAX ((size_t)64 << 20)

typedef enum bh_object_status {
    BH_OBJECT_READ = 0,
    BH_OBJECT_UNREADABLE = 1,          /* open() or libelf failed; see sys_errno / detail */
    BH_OBJECT_NOT_ELF = 2,
    BH_OBJECT_NO_SECTION_HEADERS = 3,  /* e.g. llvm-objcopy --strip-sections, and no offsets in the note */
    BH_OBJECT_BUILD_ID_MISMATCH = 4,   /* the file on disk is not the object in memory */
    BH_OBJECT_PROGRAM_HEADERS_MISMATCH = 5,
    BH_OBJECT_CONTENT_MISMATCH = 6,    /* no build-id, and the sections on disk differ from memory */
    BH_OBJECT_NOT_REGULAR_FILE = 7,    /* a directory, FIFO, socket or device; detail names which */
    BH_OBJECT_MALFORMED = 8            /* the ELF structure is damaged; detail says where */
} bh_object_status;

typedef enum bh_section_status {
    BH_SECTION_OK = 0,
    BH_SECTION_OUTSIDE_SEGMENT = 1,    /* not inside a readable, file-backed PT_LOAD segment */
    BH_SECTION_TOO_LARGE = 2,
    BH_SECTION_NO_DATA = 3             /* SHT_NOBITS, or libelf could not read it */
} bh_section_status;

/* Where a loaded object's records were read from. */
typedef enum bh_object_source {
    BH_SOURCE_MEMORY = 0,              /* through the offsets in its note: no file opened */
    BH_SOURCE_FILE = 1                 /* through the file's section table (a note without offsets, or offline) */
} bh_object_source;

typedef struct bh_section {
    const char *name;                  /* one of the BEEHIVE_SECTION_* names */
    unsigned char *data;               /* a private copy; NULL unless status is BH_SECTION_OK */
    size_t size;                       /* the section's size, also when it was refused */
    int status;
} bh_section;

/* Immutable once published; shared by every snapshot that holds it. */
typedef struct bh_object {
    uint64_t id;                       /* unique for this load of this object in this process; 0 offline */
    char *path;
    uintptr_t base;
    unsigned char build_id[BH_BUILD_ID_MAX];
    size_t build_id_size;
    int annotated;                     /* carries the BeeHive note */
    int status;                        /* bh_object_status */
    int source;                        /* bh_object_source */
    int sys_errno;
    char *detail;                      /* what is wrong, or NULL */
    size_t section_count;
    bh_section *sections;
    size_t references;                 /* private to the shim */
    int in_one_block;                  /* private to the shim: path, table and copies share the object's allocation */
} bh_object;

/* The annotated objects loaded at one moment, by increasing id. */
typedef struct bh_snapshot {
    uint64_t generation;               /* moves whenever the set changes */
    size_t count;
    bh_object **objects;
} bh_snapshot;

/*
 * Walks the loaded objects again if the loader's load/unload counters moved since the last walk. Objects seen
 * before are not touched again; new annotated ones are read once, objects gone are dropped from the current
 * set. The constructor runs it once before main. Returns how many objects came or went. Thread-safe.
 */
size_t bh_refresh(void);

/* The current set of annotated objects; any number of readers may each take their own. Thread-safe. */
bh_snapshot *bh_snapshot_take(void);
/* The generation bh_snapshot_take would report now, without taking a snapshot. Thread-safe. */
uint64_t bh_snapshot_generation(void);
void bh_snapshot_free(bh_snapshot *snapshot);

/* 0 when the environment variable BEEHIVE_DISCOVERY=0 turned discovery off for this process. */
int bh_discovery_enabled(void);

/* Reads the annotation sections of a file on disk (offline inspection). Free with bh_object_release. */
bh_object *bh_read_file(const char *path);
/*
 * A plugin folder's file, read offline in two steps so that its status can be checked between them with no
 * second lookup: bh_object_for_file makes the object (NULL when out of memory); bh_open_file_at opens `name`
 * of the folder open as `directory` (never blocking on a FIFO) and takes its status on the open file; it
 * returns the descriptor, or -1 with the object saying why (and `status` filled when the name could still be
 * stat'ed). bh_read_open_file reads the opened file, whose status is `status`, into the object: a file that is
 * not a regular one is named and not read. The caller closes the descriptor.
 */
bh_object *bh_object_for_file(const char *path);
int bh_open_file_at(int directory, const char *name, struct stat *status, bh_object *object);
void bh_read_open_file(int fd, const struct stat *status, bh_object *object);
/*
 * How a file on disk links, read offline before it is loaded: its ELF machine and class, the libraries it
 * needs and where it asks the loader to look for them (DT_NEEDED, DT_RPATH, DT_RUNPATH, read through
 * PT_DYNAMIC so stripped files answer too), whether it carries Swift
 * metadata, the Swift modules it exports, the protocols it imports and those it exports (with their descriptors'
 * first words), the witness tables it defines (with their sizes) and the BeeHive interface its note says it was built against. `status` is a bh_object_status; `detail` is static text. Free with bh_linkage_free.
 */
/* The words of a protocol descriptor the linkage reader keeps: flags, parent, name, two counts. */
#define BH_PROTOCOL_DESCRIPTOR_WORDS 5
typedef struct bh_linkage {
    int status;
    int sys_errno;
    const char *detail;
    unsigned machine;                  /* e_machine */
    unsigned elf_type;                 /* e_type */
    unsigned char elf_class;           /* ELFCLASS32 or ELFCLASS64 */
    int swift_metadata;                /* 1: a swift5_typeref section; 0: none; -1: no section table to tell */
    char *needed;                      /* the needed libraries' names, each NUL-terminated, in order */
    size_t needed_size;
    char *rpath;                       /* DT_RPATH and DT_RUNPATH, NUL-terminated, or NULL without one */
    char *runpath;
    char *swift_modules;               /* for each Swift module whose type or protocol descriptors it exports, the
                                          module's name and one such symbol, each NUL-terminated */
    size_t swift_modules_size;
    char *imported_protocols;          /* the Swift protocol descriptors it imports (undefined `$s...Mp`), each
                                          NUL-terminated */
    size_t imported_protocols_size;
    char *witness_tables;              /* the protocol witness tables it defines (`$s...WP`), each NUL-terminated */
    size_t witness_tables_size;
    uint64_t *witness_table_sizes;     /* their sizes in bytes, in the same order */
    size_t witness_table_count;
    int address_sanitized;             /* 1: it imports AddressSanitizer's runtime, whose redzones pad the sizes of
                                          its globals, witness tables included */
    char *exported_protocols;          /* the Swift protocol descriptors it defines and exports, each NUL-terminated */
    size_t exported_protocols_size;
    uint32_t *exported_protocol_words; /* each one's first BH_PROTOCOL_DESCRIPTOR_WORDS words (its flags and
                                          counts), zeros when the file does not hold them */
    size_t exported_protocol_count;
    int has_swift_toolchain;           /* 1: `swift_toolchain` names the Swift toolchain that built it */
    char swift_toolchain[256];         /* its compiler line in .comment ("clang version 21.0.0 (https://github.com/
                                          swiftlang/llvm-project.git …)"), NUL-terminated */
    int has_interface;                 /* 1: its note (version 4 or later) names the interface it was built against */
    uint64_t interface_fingerprint;    /* that interface's BEEHIVE_INTERFACE_FINGERPRINT */
} bh_linkage;
int bh_read_linkage(const char *path, bh_linkage *linkage);
/* The same for a file open as `fd`, of `file_size` bytes; the caller closes it. */
int bh_read_open_linkage(int fd, size_t file_size, bh_linkage *linkage);
void bh_linkage_free(bh_linkage *linkage);
/* The Swift toolchain line of the file's .comment alone, into `out` (`size` bytes); 0 when it has none. */
int bh_read_swift_toolchain(const char *path, char *out, size_t size);
/* The path of the loaded image that contains `address` (dladdr), or NULL. */
const char *bh_image_containing(const void *address);
/* Objects are reference counted: a snapshot holds each of its objects, and so may Swift (records point into
   an object's sections). Never modified once published. */
bh_object *bh_object_retain(bh_object *object);
void bh_object_release(bh_object *object);

#ifdef __cplusplus
}
#endif

#endif
