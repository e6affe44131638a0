/*
 * A C plugin whose records name types of the test process, for the hub's tests (HubPluginTests): built with
 * -DHUB_MODULE=<Swift type> and optionally -DHUB_SERVICE_PROTOCOL=<protocol> -DHUB_SERVICE_TYPE=<type>, and
 * -DHUB_SWIFT_LIKE for a plugin that stays mapped, -DHUB_MALFORMED for records discovery refuses.
 * The indirection through HUB_MOD and HUB_SERVICE expands the macros before beehive.h stringifies them.
 */
#include <beehive.h>

#define HUB_MOD(type) BeeHiveMod(type)
#define HUB_SERVICE(protocol, type) BeeHiveService(protocol, type)

#ifdef HUB_MODULE
HUB_MOD(HUB_MODULE)
#endif
#ifdef HUB_SERVICE_TYPE
HUB_SERVICE(HUB_SERVICE_PROTOCOL, HUB_SERVICE_TYPE)
#endif
#ifdef HUB_SWIFT_LIKE
/* The symbol by which Plugin.load tells a library that the Swift runtime registered (swiftc links it into
 * every image): with it, this C plugin stays mapped after unloading, like a Swift plugin. */
void swift_addNewDSOImage(void);
void swift_addNewDSOImage(void) {}
#endif
#ifdef HUB_MALFORMED
/* Records discovery refuses, each a registry diagnostic: a future version, an unknown attribute, a bad name. */
BEEHIVE_RECORD_(BEEHIVE_SECTION_MODULES, "beehive:9|module|Hub.Future")
BEEHIVE_RECORD_(BEEHIVE_SECTION_MODULES, BEEHIVE_RECORD_VERSION "|module|Hub.Colour|colour=red")
BEEHIVE_RECORD_(BEEHIVE_SECTION_MODULES, BEEHIVE_RECORD_VERSION "|module|bad name")
#endif
