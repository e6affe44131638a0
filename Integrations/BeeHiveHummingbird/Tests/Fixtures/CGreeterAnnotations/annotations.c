/* The Greeter plugin's annotations: a host indexes them from libGreeter.so in its plugins folder without
   loading it. The module is on-demand, so the plugin loads on the first request to the path it claims, for GET
   only: other methods answer 405 without loading it. */
#include <beehive.h>

BeeHiveModuleOnDemand(Greeter.GreeterModule, normal, 0, sync)
BeeHiveRouteScoped("/greeter/*", BeeHiveHummingbird.HTTPPathClaim, "beehive-http+get", 0)
