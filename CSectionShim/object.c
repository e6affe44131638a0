/* bh_object: made by the walk or the file reader, then shared read-only by every snapshot that holds it. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

const char *const bh_section_names[BEEHIVE_NOTE_SECTION_COUNT] = {
    BEEHIVE_SECTION_MODULES, BEEHIVE_SECTION_SERVICES, BEEHIVE_SECTION_ROUTES
};

int bh_grow(void **items, size_t *capacity, size_t count, size_t size) {
    if (count < *capacity) return 1;
    size_t next = *capacity ? *capacity * 2 : 8;
    if (next > SIZE_MAX / size) return 0;
    void *grown = realloc(*items, next * size);
    if (!grown) return 0;
    *items = grown;
    *capacity = next;
    return 1;
}

char *bh_strdup(const char *s) { return strdup(s ? s : ""); }

bh_object *bh_object_new(void) {
    bh_object *object = calloc(1, sizeof *object);
    if (object) object->references = 1;
    return object;
}

bh_object *bh_object_retain(bh_object *object) {
    __atomic_fetch_add(&object->references, 1, __ATOMIC_RELAXED);
    return object;
}

bh_section *bh_object_add_section(bh_object *object, size_t *capacity, const char *name, size_t size) {
    if (!bh_grow((void **)&object->sections, capacity, object->section_count, sizeof(bh_section))) return NULL;
    bh_section *section = &object->sections[object->section_count++];
    memset(section, 0, sizeof *section);
    section->name = name;
    section->size = size;
    return section;
}

void bh_object_drop_sections(bh_object *object) {
    if (!object->in_one_block) {
        for (size_t i = 0; i < object->section_count; i++) free(object->sections[i].data);
        free(object->sections);
    }
    object->sections = NULL;
    object->section_count = 0;
}

void bh_object_release(bh_object *object) {
    if (!object || __atomic_sub_fetch(&object->references, 1, __ATOMIC_ACQ_REL) != 0) return;
    if (!object->in_one_block) {
        bh_object_drop_sections(object);
        free(object->path);
    }
    free(object->detail);
    free(object);
}

void bh_snapshot_free(bh_snapshot *snapshot) {
    if (!snapshot) return;
    for (size_t i = 0; i < snapshot->count; i++) bh_object_release(snapshot->objects[i]);
    free(snapshot->objects);
    free(snapshot);
}
