/* The Reviews plugin's annotations: the server reads them from libReviews.so in its plugins folder without
   loading it. The module is on-demand and the plugin claims GET under /reviews, so the first GET there loads it
   and other methods answer 405 without loading it. */
#include <beehive.h>

BeeHiveModuleOnDemand(Reviews.ReviewsModule, normal, 0, sync)
BeeHiveRouteScoped("/reviews/*", BeeHiveHummingbird.HTTPPathClaim, "beehive-http+get", 0)
