/* A library with Swift type metadata sections for lint's reader: a record pointing at a module descriptor
   (kind 0) named "Seed", and a protocol list entry pointing at nothing valid. */
#include <beehive.h>
#include <stdint.h>

BeeHiveMod(Seed.Module)

struct descriptor { uint32_t flags; int32_t parent; int32_t name; };
__attribute__((used)) static const char module_name[] = "Seed";
__attribute__((used)) static struct descriptor module_descriptor = {0, 0, 0};
__attribute__((used, section("swift5_type_metadata"))) static const int32_t types[2] = {0, 4};
__attribute__((used, section("swift5_protocols"))) static const int32_t protocols[1] = {8};
