/*
 * What only the benchmarks call: kept out of beehive_discovery.h, the header the registry is written against.
 * It stays in the shim's module because the Benchmarks package reaches the shim only through it.
 */
#ifndef BEEHIVE_BENCHMARK_SUPPORT_H
#define BEEHIVE_BENCHMARK_SUPPORT_H

#include "beehive_discovery.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A new snapshot of every annotated object loaded now, read from scratch, leaving the current set alone. */
bh_snapshot *bh_snapshot_read_loaded_objects(void);

/* Nanoseconds the constructor's walk took before main. */
uint64_t bh_constructor_nanoseconds(void);

#ifdef __cplusplus
}
#endif

#endif
