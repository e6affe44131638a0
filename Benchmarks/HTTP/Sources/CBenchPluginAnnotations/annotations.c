/* The benchmark plugin's annotations: the server indexes them without loading the plugin, and the first GET
   under /deferred loads it. */
#include <beehive.h>

BeeHiveModuleOnDemand(BenchPlugin.DeferredItemsModule, normal, 0, sync)
BeeHiveRouteScoped("/deferred/*", BeeHiveHummingbird.HTTPPathClaim, "beehive-http+get", 0)
