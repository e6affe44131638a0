/*
 * A C plugin whose records name types of the test process, for the hub's tests (HubPluginTests): built with
 * -DHUB_MODULE=<Swift type> and optionally -DHUB_SERVICE_PROTOCOL=<protocol> -DHUB_SERVICE_TYPE=<type>.
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
