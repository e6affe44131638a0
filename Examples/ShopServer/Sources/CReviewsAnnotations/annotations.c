/* The Reviews plugin's annotations: the server reads them from libReviews.so in its plugins folder without
   loading it. The module is on-demand and the plugin claims /reviews, so the first request there loads it. */
#include <beehive.h>

BeeHiveModuleOnDemand(Reviews.ReviewsModule, normal, 0, sync)
BeeHiveRouteScoped("/reviews/*", BeeHiveHummingbird.HTTPPathClaim, "beehive-http", 0)
