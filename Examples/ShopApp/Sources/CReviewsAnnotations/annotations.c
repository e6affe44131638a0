/* The Reviews plugin's annotations: discovery reads them from libReviews.so once the app has loaded it. */
#include <beehive.h>

BeeHiveMod(Reviews.ReviewsModule)
BeeHiveService(ShopInterfaces.ReviewService, Reviews.ReviewBoard)
BeeHiveRoute("/product/:id/reviews", Reviews.ReviewsPage)
