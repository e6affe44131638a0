/*
 * An object built before the BeeHive note carried offsets (note version 1, a lone version word), so discovery
 * reads it through its file, checked against memory. Built twice without a build-id, with names of equal
 * length (-DVARIANT_TYPE=Variant.First and -DVARIANT_TYPE=Variant.Other), so that only the section bytes tell
 * the two files apart.
 */
#define STRINGIFY2(x) #x
#define STRINGIFY(x) STRINGIFY2(x)

__asm__(".pushsection .note.beehive,\"aR\",%note\n"
        ".balign 4\n"
        ".long 8\n"
        ".long 4\n"
        ".long 0x42480001\n"
        ".asciz \"BeeHive\"\n"
        ".long 1\n"
        ".popsection\n");

__attribute__((used, retain, section("beehive_mods"), aligned(1)))
static const char variant_record[] = "beehive:1|module|" STRINGIFY(VARIANT_TYPE);
