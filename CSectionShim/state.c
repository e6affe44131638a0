/*
 * The process-wide state behind bh_refresh: every object the walk has seen (annotated or not), identified by
 * its base address and name and read only when first seen, and the current set of annotated objects with
 * increasing ids, which readers take as snapshots and diff on their own.
 */
#include "internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct bh_known {
    uintptr_t base;
    const char *name;                  /* the object's own path when it has one (see bh_known_name) */
    bh_object *object;                 /* NULL for objects without the BeeHive note */
    int owns_name;
    int seen;                          /* by the walk under way */
} bh_known;

/* An annotated object's path is its loader name (the main program's is "" to the loader): the entry borrows it
   rather than copying it, one allocation fewer per object. */
static const char *bh_known_name(const bh_object *object, const char *name, int is_main, int *owns_name) {
    *owns_name = 0;
    if (object && is_main) return "";
    if (object) return object->path;
    *owns_name = 1;
    return bh_strdup(name);
}

static void bh_known_forget(bh_known *known) {
    if (known->owns_name) free((char *)known->name);
    bh_object_release(known->object);
}

typedef struct bh_pending {
    bh_candidate candidate;
    bh_object *object;
} bh_pending;

typedef struct bh_walk {
    bh_known *known;
    size_t known_count, known_capacity;
    bh_pending *pending;               /* annotated objects whose note has no offsets: read through the file */
    size_t pending_count, pending_capacity;
    size_t visited;
    uint64_t next_id;                  /* 0: every object gets id 0 */
    int out_of_memory;
    unsigned long long adds, subs;
} bh_walk;

static void bh_take_counters(bh_walk *walk, const struct dl_phdr_info *info, size_t info_size) {
    if (info_size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
        walk->adds = info->dlpi_adds;
        walk->subs = info->dlpi_subs;
    }
}

static bh_known *bh_find_known(bh_walk *walk, uintptr_t base, const char *name) {
    for (size_t i = 0; i < walk->known_count; i++) {
        bh_known *k = &walk->known[i];
        if (k->base == base && strcmp(k->name, name) == 0) return k;
    }
    return NULL;
}

/* Reads a new object's notes and, if it is annotated, its records; the object's memory is not read again. */
static int bh_meet(bh_walk *walk, const struct dl_phdr_info *info, int is_main) {
    bh_memory_notes notes;
    /* Through the kernel, in the first walk too: the library holding this walk may be loaded with dlopen long
       after the process started, and then meets objects that the app loaded earlier and that were cut short on
       disk since. Two system calls per new object, a few microseconds each. */
    bh_memory_notes_read(info, 1, &notes);
    bh_object *object = NULL;
    const char *path = bh_display_name(info->dlpi_name, is_main);
    /* An object whose notes cannot be read may be annotated: it is kept, to be reported. */
    if (notes.located || notes.unreadable) {
        object = bh_read_from_memory(info, &notes, path);
        if (!object) return 0;
    } else if (notes.annotated) {
        object = bh_object_new();
        if (!object) return 0;
        object->path = bh_strdup(path);
        object->base = info->dlpi_addr;
        object->annotated = 1;
        memcpy(object->build_id, notes.build_id, notes.build_id_size);
        object->build_id_size = notes.build_id_size;
        object->source = BH_SOURCE_FILE;
        if (!bh_grow((void **)&walk->pending, &walk->pending_capacity, walk->pending_count, sizeof(bh_pending))) {
            bh_object_release(object);
            return 0;
        }
        bh_pending *p = &walk->pending[walk->pending_count];
        if (!object->path || !bh_candidate_init(&p->candidate, info, is_main, &notes)) {
            bh_object_release(object);
            return 0;
        }
        p->object = object;
        walk->pending_count++;
    }
    if (object) object->id = walk->next_id ? walk->next_id++ : 0;
    int owns_name;
    const char *name = bh_known_name(object, info->dlpi_name, is_main, &owns_name);
    if (!name || !bh_grow((void **)&walk->known, &walk->known_capacity, walk->known_count, sizeof(bh_known))) {
        if (owns_name) free((char *)name);
        if (object && object->source == BH_SOURCE_FILE) bh_candidate_free(&walk->pending[--walk->pending_count].candidate);
        bh_object_release(object);
        return 0;
    }
    walk->known[walk->known_count++] =
        (bh_known){ .base = info->dlpi_addr, .name = name, .object = object, .owns_name = owns_name, .seen = 1 };
    return 1;
}

static int bh_visit(struct dl_phdr_info *info, size_t info_size, void *context) {
    bh_walk *walk = context;
    bh_take_counters(walk, info, info_size);
    const char *name = info->dlpi_name ? info->dlpi_name : "";
    /* The main program comes first and has no name. */
    int is_main = walk->visited++ == 0 && name[0] == '\0';
    bh_known *known = bh_find_known(walk, info->dlpi_addr, name);
    if (known) {
        known->seen = 1;
        return 0;
    }
    if (!bh_meet(walk, info, is_main)) {
        walk->out_of_memory = 1;
        return 1;
    }
    return 0;
}

/* Reads the objects whose note has no offsets through their files: outside the callback, which must not dlopen. */
static void bh_read_pending(bh_walk *walk) {
    for (size_t i = 0; i < walk->pending_count; i++) {
        bh_read_through_file(&walk->pending[i].candidate, walk->pending[i].object);
        bh_candidate_free(&walk->pending[i].candidate);
    }
    free(walk->pending);
    walk->pending = NULL;
    walk->pending_count = walk->pending_capacity = 0;
}

static int bh_first_counters(struct dl_phdr_info *info, size_t info_size, void *context) {
    bh_take_counters(context, info, info_size);
    return 1;
}

/* ---- The process-wide set ------------------------------------------------------------------------------ */

static pthread_mutex_t bh_mutex = PTHREAD_MUTEX_INITIALIZER;
static bh_walk bh_state = { .next_id = 1 };
static bh_object **bh_current;
static size_t bh_current_count, bh_current_capacity;
static uint64_t bh_generation;
static int bh_walked;
static uint64_t bh_constructor_ns;

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


static void bh_drop_from_current(const bh_object *object) {
    for (size_t i = 0; i < bh_current_count; i++) {
        if (bh_current[i] != object) continue;
        memmove(&bh_current[i], &bh_current[i + 1], (bh_current_count - i - 1) * sizeof *bh_current);
        bh_current_count--;
        return;
    }
}

size_t bh_refresh(void) {
    if (bh_disabled()) return 0;
    pthread_mutex_lock(&bh_mutex);
    bh_walk probe = {0};
    dl_iterate_phdr(bh_first_counters, &probe);
    if (bh_walked && probe.adds == bh_state.adds && probe.subs == bh_state.subs) {
        pthread_mutex_unlock(&bh_mutex);
        return 0;
    }
    size_t known_before = bh_state.known_count;
    bh_state.visited = 0;
    bh_state.out_of_memory = 0;
    dl_iterate_phdr(bh_visit, &bh_state);
    bh_read_pending(&bh_state);
    size_t changes = 0;
    /* New objects join the set in walk order, which is id order. */
    for (size_t i = known_before; i < bh_state.known_count; i++) {
        bh_object *object = bh_state.known[i].object;
        if (!object) continue;
        if (!bh_grow((void **)&bh_current, &bh_current_capacity, bh_current_count, sizeof *bh_current)) {
            /* Forget it, so that the next refresh meets it again. */
            bh_known_forget(&bh_state.known[i]);
            bh_state.known[i] = bh_state.known[--bh_state.known_count];
            bh_state.out_of_memory = 1;
            i--;
            continue;
        }
        bh_current[bh_current_count++] = object;
        changes++;
    }
    /* An interrupted walk did not see every object: nothing can be declared gone, and the next refresh walks again. */
    for (size_t i = bh_state.known_count; !bh_state.out_of_memory && i-- > 0;) {
        bh_known *k = &bh_state.known[i];
        if (k->seen) continue;
        if (k->object) {
            bh_drop_from_current(k->object);
            changes++;
        }
        bh_known_forget(k);
        *k = bh_state.known[--bh_state.known_count];
    }
    for (size_t i = 0; i < bh_state.known_count; i++) bh_state.known[i].seen = 0;
    if (changes) bh_generation++;
    bh_walked = !bh_state.out_of_memory;
    pthread_mutex_unlock(&bh_mutex);
    return changes;
}

static bh_snapshot *bh_snapshot_of(bh_object **objects, size_t count, uint64_t generation) {
    bh_snapshot *snapshot = calloc(1, sizeof *snapshot);
    if (!snapshot) return NULL;
    snapshot->objects = malloc((count ? count : 1) * sizeof *snapshot->objects);
    if (!snapshot->objects) {
        free(snapshot);
        return NULL;
    }
    for (size_t i = 0; i < count; i++) snapshot->objects[i] = bh_object_retain(objects[i]);
    snapshot->count = count;
    snapshot->generation = generation;
    return snapshot;
}

bh_snapshot *bh_snapshot_take(void) {
    pthread_mutex_lock(&bh_mutex);
    bh_snapshot *snapshot = bh_snapshot_of(bh_current, bh_current_count, bh_generation);
    pthread_mutex_unlock(&bh_mutex);
    return snapshot;
}

uint64_t bh_snapshot_generation(void) {
    pthread_mutex_lock(&bh_mutex);
    uint64_t generation = bh_generation;
    pthread_mutex_unlock(&bh_mutex);
    return generation;
}

bh_snapshot *bh_snapshot_read_loaded_objects(void) {
    /* Reads every object as the first walk does (it measures that walk). */
    bh_walk walk = {0};
    dl_iterate_phdr(bh_visit, &walk);
    bh_read_pending(&walk);
    bh_snapshot *snapshot = walk.out_of_memory ? NULL : calloc(1, sizeof *snapshot);
    bh_object **objects = snapshot ? malloc((walk.known_count ? walk.known_count : 1) * sizeof *objects) : NULL;
    size_t count = 0;
    for (size_t i = 0; i < walk.known_count; i++) {
        bh_known *k = &walk.known[i];
        if (objects && k->object) {
            /* The snapshot takes the walk's reference, and with it the name the entry borrowed. */
            objects[count++] = k->object;
            k->object = NULL;
        }
        bh_known_forget(k);
    }
    free(walk.known);
    if (!objects) {
        free(snapshot);
        return NULL;
    }
    snapshot->objects = objects;
    snapshot->count = count;
    return snapshot;
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
