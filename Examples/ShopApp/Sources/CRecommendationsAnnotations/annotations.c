/* The Recommendations plugin's annotations: the app reads them from libRecommendations.so in its plugins
   folder without loading it, and loads it on the first call to this target. */
#include <beehive.h>

BeeHiveTarget(Recommendations, Recommendations.RecommendationsTarget)
