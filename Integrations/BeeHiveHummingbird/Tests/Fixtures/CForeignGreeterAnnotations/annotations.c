/* The annotations of the plugin that carries its own copy of Hummingbird: an on-demand module under /foreign. */
#include <beehive.h>

BeeHiveModuleOnDemand(ForeignGreeter.ForeignGreeterModule, normal, 0, sync)
BeeHiveRouteScoped("/foreign/*", BeeHiveHummingbird.HTTPPathClaim, "beehive-http", 0)
