/*
 * Two entry points of the Swift runtime that the registry's conformance index calls (ConformanceIndex.swift),
 * under names of the shim's own: Swift reserves the runtime's names and binds neither @_silgen_name nor an
 * imported C declaration to them, so the asm labels name the runtime's symbols.
 */
#ifndef BEEHIVE_SWIFT_RUNTIME_H
#define BEEHIVE_SWIFT_RUNTIME_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Calls body with each Swift image's MetadataSections (SwiftShims/MetadataSections.h) until it returns false. */
void bh_swift_enumerate_metadata_sections(bool (*body)(const void *sections, void *context), void *context)
    __asm__("swift_enumerateAllMetadataSections");

/* The witness table of a conformance for one type's metadata. */
const void *bh_swift_get_witness_table(const void *conformance, const void *type, const void *const *instantiation_args)
    __asm__("swift_getWitnessTable");

#ifdef __cplusplus
}
#endif

#endif
