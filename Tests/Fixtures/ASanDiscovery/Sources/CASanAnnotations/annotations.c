/*
 * Records of many lengths in every section: with -fsanitize=address each becomes a padded global (the record,
 * then a red zone of zeros up to a multiple of 32 bytes), so the sections hold long runs of NULs between
 * records that discovery must skip.
 */
#include <beehive.h>
#include "asan_annotations.h"

BeeHiveMod(A.M)
BeeHiveMod(ASanDiscovery.ShopModule)
BeeHiveModule(ASanDiscovery.EarlyModule, basic, 100, sync)
BeeHiveModule(ASanDiscovery.ModuleWithAVeryLongNameThatCrossesSeveralRedZoneGranules, normal, -5, async)
BeeHiveService(ASanDiscovery.HomeService, ASanDiscovery.HomeServiceImpl)
BeeHiveServiceScoped(ASanDiscovery.CartService, ASanDiscovery.CartServiceImpl, singleton, "")
BeeHiveServiceScoped(ASanDiscovery.Store, ASanDiscovery.PrimaryStore, named, "primary")
BeeHiveRoute("/", ASanDiscovery.RootHandler)
BeeHiveRoute("/user/view/:id", ASanDiscovery.UserHandler)
BeeHiveRouteScoped("/shop/*", ASanDiscovery.ShopHandler, "shop", 10)
BeeHiveTarget(cart, ASanDiscovery.CartTarget)

int asan_fixture_record_count(void) { return 11; }
