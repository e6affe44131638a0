/* The Greeter plugin's annotations: a host indexes them from libGreeter.so in its plugins folder without
   loading it. The module is on-demand, so the plugin loads on the first request to the path it claims. */
#include <beehive.h>

BeeHiveModuleOnDemand(Greeter.GreeterModule, normal, 0, sync)
BeeHiveRouteScoped("/greeter/*", BeeHiveHummingbird.HTTPPathClaim, "beehive-http", 0)
