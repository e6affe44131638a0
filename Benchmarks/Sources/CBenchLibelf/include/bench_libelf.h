/*
 * The peer discovery for the benchmarks: what a registry without the BeeHive note has to do, which is open
 * every loaded object with libelf and look for the annotation sections in its section table.
 */
#ifndef BENCH_LIBELF_H
#define BENCH_LIBELF_H

#include <stddef.h>

/*
 * Opens every loaded object that has a file with libelf, walks its section headers and copies the data of
 * the beehive_mods, beehive_services and beehive_routes sections it finds, as a discovery would. Returns the
 * number of objects opened; *bytes_copied gets the number of annotation bytes copied.
 */
size_t bench_libelf_read_every_loaded_object(size_t *bytes_copied);

/* Opens every loaded object that has a file with libelf and counts its annotation sections, copying nothing. */
size_t bench_libelf_open_every_loaded_object(size_t *sections_seen);

/* The number of objects dl_iterate_phdr reports, the vDSO included. */
size_t bench_loaded_object_count(void);

#endif
