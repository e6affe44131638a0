/* C annotations naming Swift types of the Shop executable, linked into the same binary as its Swift ones. */
#include <beehive.h>

BeeHiveModule(Shop.CartModule, basic, 10, sync)
BeeHiveService(Shop.PaymentService, Shop.PaymentServiceImpl)
BeeHiveRoute("/cart/:item", Shop.CartRouteHandler)
