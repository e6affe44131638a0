#include <beehive.h>

BeeHiveMod(ShopKit.ShopModule)
BeeHiveModule(ShopKit.BasketModule, basic, 100, async)
BeeHiveService(ShopKit.CartProtocol, ShopKit.CartService)
BeeHiveServiceScoped(ShopKit.PaymentProtocol, ShopKit.PaymentService, named, "checkout")
BeeHiveRoute("/shop/item/:id", ShopKit.ItemHandler)
BeeHiveRouteScoped("/shop/cart", ShopKit.CartHandler, "shop", 5)
BeeHiveTarget(Basket, ShopKit.BasketTarget)
BeeHiveMod(ShopKit.Detail)
