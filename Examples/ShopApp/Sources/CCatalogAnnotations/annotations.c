/* The Catalog feature's route. Its module is listed in the app's modules.plist instead. */
#include <beehive.h>

BeeHiveRoute("/product/:id", Catalog.ProductPage)
