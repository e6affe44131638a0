/*
 * Three entry points of the Swift runtime that the registry's indexes call (ConformanceIndex.swift, ProtocolIndex.swift),
 * under names of the shim's own: Swift reserves the runtime's names and binds neither @_silgen_name nor an
 * imported C declaration to them, so the asm labels name the runtime's symbols.
 */
#ifndef BEEHIVE_SWIFT_RUNTIME_H
#define BEEHIVE_SWIFT_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Calls body with each Swift image's MetadataSections (SwiftShims/MetadataSections.h) until it returns false. */
void bh_swift_enumerate_metadata_sections(bool (*body)(const void *sections, void *context), void *context)
    __asm__("swift_enumerateAllMetadataSections");

/* The witness table of a conformance for one type's metadata. */
const void *bh_swift_get_witness_table(const void *conformance, const void *type, const void *const *instantiation_args)
    __asm__("swift_getWitnessTable");

/* The existential type of `count` protocols (`any P`); `not_class_bound` is false when one of them is class-bound. */
const void *bh_swift_get_existential_type_metadata(bool not_class_bound, const void *superclass, size_t count, const void *const *protocols)
    __asm__("swift_getExistentialTypeMetadata");

#ifdef __cplusplus
}
#endif

#endif
