/*
 * A C program that loads a library, cuts it short on disk, and only then loads BeeHive: the constructor's first
 * walk meets a mapping that its file no longer backs, as in an app that loads the core with dlopen long after
 * it started. Prints what the walk says of the library and exits 0 when it reports it as unreadable.
 *   first_walk_host LIBRARY LIBBEEHIVE
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "beehive_discovery.h"

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: first_walk_host LIBRARY LIBBEEHIVE\n");
        return 2;
    }
    if (!dlopen(argv[1], RTLD_NOW | RTLD_LOCAL)) {
        printf("cannot load %s: %s\n", argv[1], dlerror());
        return 2;
    }
    if (truncate(argv[1], 0) != 0) {
        perror("truncate");
        return 2;
    }
    void *core = dlopen(argv[2], RTLD_NOW | RTLD_GLOBAL);
    if (!core) {
        printf("cannot load %s: %s\n", argv[2], dlerror());
        return 2;
    }
    bh_snapshot *(*take)(void) = (bh_snapshot * (*)(void)) dlsym(core, "bh_snapshot_take");
    if (!take) {
        printf("no bh_snapshot_take in %s\n", argv[2]);
        return 2;
    }
    bh_snapshot *snapshot = take();
    int reported = 0;
    for (size_t i = 0; snapshot && i < snapshot->count; i++) {
        const bh_object *object = snapshot->objects[i];
        if (!object->path || strcmp(object->path, argv[1]) != 0) continue;
        printf("first walk: %s status %d: %s\n", object->path, object->status, object->detail ? object->detail : "");
        reported = object->status == BH_OBJECT_UNREADABLE;
    }
    fflush(stdout);
    /* The truncated library's destructors cannot run at exit any more than its records could be read. */
    _exit(reported ? 0 : 3);
}
