/*
 * A C plugin for the hive's plugin-folder tests (HivePluginDirectoryTests): its records name types of the test
 * process. Each part is optional: -DDEFERRED_SERVICE_PROTOCOL=<protocol> -DDEFERRED_SERVICE_TYPE=<type> with
 * optional -DDEFERRED_SERVICE_NAME='"name"' (a singleton under that name),
 * -DDEFERRED_ROUTE_PATTERN='"/pattern"' -DDEFERRED_ROUTE_TYPE=<type>, -DDEFERRED_TARGET_NAME=<name>
 * -DDEFERRED_TARGET_TYPE=<type>, -DDEFERRED_MODULE=<type> with optional -DDEFERRED_MODULE_DEPENDS='"A,B"'.
 * -DDEFERRED_ON_DEMAND makes DEFERRED_MODULE on-demand, and adds -DDEFERRED_SECOND_MODULE=<type>, an on-demand
 * module that depends on it, recorded first so that record order is not lifecycle order.
 * The indirections expand the macros before beehive.h stringifies them.
 */
#include <beehive.h>

#define DEFERRED_SERVICE(protocol, type) BeeHiveService(protocol, type)
#define DEFERRED_NAMED_SERVICE(protocol, type, name) BeeHiveServiceScoped(protocol, type, singleton, name)
#define DEFERRED_ROUTE(pattern, type) BeeHiveRoute(pattern, type)
#define DEFERRED_TARGET(name, type) BeeHiveTarget(name, type)
#define DEFERRED_MOD(type) BeeHiveMod(type)
#define DEFERRED_MOD_DEPENDS(type, dependencies) BeeHiveModuleDepends(type, normal, 0, sync, dependencies)
#define DEFERRED_MOD_ON_DEMAND(type) BeeHiveModuleOnDemand(type, normal, 0, sync)
#define DEFERRED_MOD_ON_DEMAND_AFTER(type, first) BeeHiveModuleOnDemandDepends(type, normal, 0, sync, BEEHIVE_STR_(first))

#if defined(DEFERRED_SERVICE_TYPE) && defined(DEFERRED_SERVICE_NAME)
DEFERRED_NAMED_SERVICE(DEFERRED_SERVICE_PROTOCOL, DEFERRED_SERVICE_TYPE, DEFERRED_SERVICE_NAME)
#elif defined(DEFERRED_SERVICE_TYPE)
DEFERRED_SERVICE(DEFERRED_SERVICE_PROTOCOL, DEFERRED_SERVICE_TYPE)
#endif
#ifdef DEFERRED_ROUTE_TYPE
DEFERRED_ROUTE(DEFERRED_ROUTE_PATTERN, DEFERRED_ROUTE_TYPE)
#endif
#ifdef DEFERRED_TARGET_TYPE
DEFERRED_TARGET(DEFERRED_TARGET_NAME, DEFERRED_TARGET_TYPE)
#endif
#if defined(DEFERRED_ON_DEMAND)
#ifdef DEFERRED_SECOND_MODULE
DEFERRED_MOD_ON_DEMAND_AFTER(DEFERRED_SECOND_MODULE, DEFERRED_MODULE)
#endif
DEFERRED_MOD_ON_DEMAND(DEFERRED_MODULE)
#elif defined(DEFERRED_MODULE) && defined(DEFERRED_MODULE_DEPENDS)
DEFERRED_MOD_DEPENDS(DEFERRED_MODULE, DEFERRED_MODULE_DEPENDS)
#elif defined(DEFERRED_MODULE)
DEFERRED_MOD(DEFERRED_MODULE)
#endif
