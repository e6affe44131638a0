/*
 * Linked into every object that uses the Swift annotation macros: Swift cannot write the note's place-relative
 * offsets (`__start_beehive_mods - .`), so this C file gives the object the note that locates its sections,
 * and discovery reads the macros' records from memory like C ones. The path reaches the shim's header without
 * a dependency on the shim, which would link a second copy of discovery into every annotated binary.
 */
#include "../../CSectionShim/include/beehive.h"

BeeHiveMarkObject()
