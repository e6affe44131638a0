/*
 * The discovery side of the shim, called from Swift. It finds annotated objects and copies their raw
 * sections; parsing records and every policy decision happen in Swift.
 */
#ifndef BEEHIVE_DISCOVERY_H
#define BEEHIVE_DISCOVERY_H

#include <stddef.h>
#include <stdint.h>

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
    BH_OBJECT_NO_SECTION_HEADERS = 3,  /* e.g. llvm-objcopy --strip-sections */
    BH_OBJECT_BUILD_ID_MISMATCH = 4,   /* the file on disk is not the object in memory */
    BH_OBJECT_PROGRAM_HEADERS_MISMATCH = 5,
    BH_OBJECT_CONTENT_MISMATCH = 6     /* no build-id, and the sections on disk differ from memory */
} bh_object_status;

typedef enum bh_section_status {
    BH_SECTION_OK = 0,
    BH_SECTION_OUTSIDE_SEGMENT = 1,    /* not inside a readable, file-backed PT_LOAD segment */
    BH_SECTION_TOO_LARGE = 2,
    BH_SECTION_NO_DATA = 3             /* SHT_NOBITS, or libelf could not read it */
} bh_section_status;

typedef struct bh_section {
    char *name;
    unsigned char *data;               /* a private copy; NULL unless status is BH_SECTION_OK */
    size_t size;                       /* the section's size, also when it was refused */
    int status;
} bh_section;

typedef struct bh_object {
    uint64_t id;                       /* unique for this load of this object in this process */
    char *path;
    uintptr_t base;
    unsigned char build_id[BH_BUILD_ID_MAX];
    size_t build_id_size;
    int annotated;                     /* carries the BeeHive note */
    int status;                        /* bh_object_status */
    int sys_errno;
    char *detail;                      /* libelf's message, or NULL */
    size_t section_count;
    bh_section *sections;
} bh_object;

typedef enum bh_event_kind { BH_EVENT_ADDED = 0, BH_EVENT_REMOVED = 1 } bh_event_kind;

typedef struct bh_event {
    int kind;
    bh_object *object;                 /* for REMOVED, only id, path, base and build_id are meaningful */
} bh_event;

typedef struct bh_event_list {
    size_t count;
    bh_event *events;
} bh_event_list;

/*
 * Walks the loaded objects again if the loader's load/unload counters moved since the last walk, reads the
 * annotated objects that are new and queues an event for each object added or removed. The constructor runs
 * it once before main. Returns the number of events queued by this call. Thread-safe.
 */
size_t bh_refresh(void);

/* 0 when the environment variable BEEHIVE_DISCOVERY=0 turned discovery off for this process. */
int bh_discovery_enabled(void);

/* Takes every queued event; free the list with bh_event_list_free. Thread-safe. */
bh_event_list *bh_take_events(void);
void bh_event_list_free(bh_event_list *list);

/* Reads the annotation sections of a file on disk (offline inspection). Free with bh_object_free. */
bh_object *bh_read_file(const char *path);
void bh_object_free(bh_object *object);

/* Nanoseconds the constructor's walk took, for the startup profile. */
uint64_t bh_constructor_nanoseconds(void);

/*
 * A full discovery from scratch (walk, read every annotated object) that leaves the process-wide state alone:
 * one ADDED event per annotated object loaded now, with id 0. Free with bh_event_list_free.
 */
bh_event_list *bh_scan_uncached(void);
/* For benchmarks: the naive way, every loaded object opened with libelf and its section headers walked. */
size_t bh_open_every_loaded_object(size_t *sections_seen);

#ifdef __cplusplus
}
#endif

#endif
