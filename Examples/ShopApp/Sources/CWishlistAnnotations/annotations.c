/* The Wishlist plugin's annotations: the app reads them from libWishlist.so in its plugins folder without
   loading it, and loads it when a URL first needs this route. */
#include <beehive.h>

BeeHiveRoute("/wishlist/add", Wishlist.WishlistPage)
