#define _GNU_SOURCE
#include "bench_libelf.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    char **paths;
    size_t count;
    size_t capacity;
} bench_paths;

static int bench_collect(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    bench_paths *paths = context;
    const char *name = info->dlpi_name;
    /* The main program has an empty name; the vDSO has a name that is not a path and no file. */
    if (paths->count > 0 && (name == NULL || name[0] != '/')) return 0;
    if (paths->count == paths->capacity) {
        size_t capacity = paths->capacity ? paths->capacity * 2 : 64;
        char **grown = realloc(paths->paths, capacity * sizeof *grown);
        if (!grown) return 1;
        paths->paths = grown;
        paths->capacity = capacity;
    }
    const char *path = paths->count == 0 ? "/proc/self/exe" : name;
    paths->paths[paths->count++] = strdup(path);
    return 0;
}

static int bench_is_annotation_section(const char *name) {
    return name && (strcmp(name, "beehive_mods") == 0 || strcmp(name, "beehive_services") == 0
                    || strcmp(name, "beehive_routes") == 0);
}

static size_t bench_copy_annotation_sections(Elf *elf) {
    size_t shstrndx = 0, copied = 0;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0) return 0;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        GElf_Shdr shdr;
        if (!gelf_getshdr(scn, &shdr) || !bench_is_annotation_section(elf_strptr(elf, shstrndx, shdr.sh_name))) {
            continue;
        }
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!data || !data->d_buf || data->d_size == 0) continue;
        unsigned char *copy = malloc(data->d_size);
        if (!copy) continue;
        memcpy(copy, data->d_buf, data->d_size);
        copied += data->d_size;
        free(copy);
    }
    return copied;
}

size_t bench_libelf_read_every_loaded_object(size_t *bytes_copied) {
    (void)elf_version(EV_CURRENT);
    bench_paths paths = {0};
    dl_iterate_phdr(bench_collect, &paths);
    size_t opened = 0, copied = 0;
    for (size_t i = 0; i < paths.count; i++) {
        int fd = paths.paths[i] ? open(paths.paths[i], O_RDONLY | O_CLOEXEC) : -1;
        if (fd >= 0) {
            Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
            if (elf) {
                copied += bench_copy_annotation_sections(elf);
                opened++;
                elf_end(elf);
            }
            close(fd);
        }
        free(paths.paths[i]);
    }
    free(paths.paths);
    if (bytes_copied) *bytes_copied = copied;
    return opened;
}

size_t bench_libelf_open_every_loaded_object(size_t *sections_seen) {
    (void)elf_version(EV_CURRENT);
    bench_paths paths = {0};
    dl_iterate_phdr(bench_collect, &paths);
    size_t opened = 0, sections = 0;
    for (size_t i = 0; i < paths.count; i++) {
        int fd = paths.paths[i] ? open(paths.paths[i], O_RDONLY | O_CLOEXEC) : -1;
        if (fd >= 0) {
            Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
            size_t shstrndx = 0;
            if (elf && elf_getshdrstrndx(elf, &shstrndx) == 0) {
                Elf_Scn *scn = NULL;
                while ((scn = elf_nextscn(elf, scn)) != NULL) {
                    GElf_Shdr shdr;
                    if (gelf_getshdr(scn, &shdr) && bench_is_annotation_section(elf_strptr(elf, shstrndx, shdr.sh_name)))
                        sections++;
                }
                opened++;
            }
            if (elf) elf_end(elf);
            close(fd);
        }
        free(paths.paths[i]);
    }
    free(paths.paths);
    if (sections_seen) *sections_seen = sections;
    return opened;
}

static int bench_count(struct dl_phdr_info *info, size_t size, void *context) {
    (void)info;
    (void)size;
    (*(size_t *)context)++;
    return 0;
}

size_t bench_loaded_object_count(void) {
    size_t count = 0;
    dl_iterate_phdr(bench_count, &count);
    return count;
}
