/*
 * Built twice without a build-id, with names of equal length (-DVARIANT_TYPE=Variant.First and
 * -DVARIANT_TYPE=Variant.Other), so that only the section bytes tell the two files apart.
 */
#include <beehive.h>

#define VARIANT_MODULE(type) BeeHiveMod(type)

VARIANT_MODULE(VARIANT_TYPE)
