/* Compiled by scripts/fuzz into tiny ELF seeds (an object file, a shared library, a stripped copy). */
#include <beehive.h>

BeeHiveMod(Seed.Module)
BeeHiveModule(Seed.Early, basic, 10, async)
BeeHiveService(Seed.Proto, Seed.Impl)
BeeHiveServiceScoped(Seed.Named, Seed.NamedImpl, named, "primary")
BeeHiveRoute("/user/:id", Seed.UserHandler)
BeeHiveRouteScoped("/shop/*", Seed.ShopHandler, "app", 5)
BeeHiveTarget(cart, Seed.CartTarget)
