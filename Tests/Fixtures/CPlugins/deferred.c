/*
 * A C plugin for the hive's plugin-folder tests (HivePluginDirectoryTests): its records name types of the test
 * process. Each part is optional: -DDEFERRED_SERVICE_PROTOCOL=<protocol> -DDEFERRED_SERVICE_TYPE=<type>,
 * -DDEFERRED_ROUTE_PATTERN='"/pattern"' -DDEFERRED_ROUTE_TYPE=<type>, -DDEFERRED_TARGET_NAME=<name>
 * -DDEFERRED_TARGET_TYPE=<type>, -DDEFERRED_MODULE=<type> with optional -DDEFERRED_MODULE_DEPENDS='"A,B"'.
 * The indirections expand the macros before beehive.h stringifies them.
 */
#include <beehive.h>

#define DEFERRED_SERVICE(protocol, type) BeeHiveService(protocol, type)
#define DEFERRED_ROUTE(pattern, type) BeeHiveRoute(pattern, type)
#define DEFERRED_TARGET(name, type) BeeHiveTarget(name, type)
#define DEFERRED_MOD(type) BeeHiveMod(type)
#define DEFERRED_MOD_DEPENDS(type, dependencies) BeeHiveModuleDepends(type, normal, 0, sync, dependencies)

#ifdef DEFERRED_SERVICE_TYPE
DEFERRED_SERVICE(DEFERRED_SERVICE_PROTOCOL, DEFERRED_SERVICE_TYPE)
#endif
#ifdef DEFERRED_ROUTE_TYPE
DEFERRED_ROUTE(DEFERRED_ROUTE_PATTERN, DEFERRED_ROUTE_TYPE)
#endif
#ifdef DEFERRED_TARGET_TYPE
DEFERRED_TARGET(DEFERRED_TARGET_NAME, DEFERRED_TARGET_TYPE)
#endif
#if defined(DEFERRED_MODULE) && defined(DEFERRED_MODULE_DEPENDS)
DEFERRED_MOD_DEPENDS(DEFERRED_MODULE, DEFERRED_MODULE_DEPENDS)
#elif defined(DEFERRED_MODULE)
DEFERRED_MOD(DEFERRED_MODULE)
#endif
