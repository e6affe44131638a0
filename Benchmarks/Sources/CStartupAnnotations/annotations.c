#include <beehive.h>
#include "startup_annotations.h"

BeeHiveModule(StartupProbe.CoreModule, basic, 100, sync)
BeeHiveModule(StartupProbe.AccountModule, basic, 50, sync)
BeeHiveMod(StartupProbe.FeedModule)
BeeHiveMod(StartupProbe.SearchModule)
BeeHiveModule(StartupProbe.MessagesModule, normal, 10, sync)
BeeHiveModule(StartupProbe.SettingsModule, normal, -10, sync)

BeeHiveServiceScoped(StartupProbe.FeedService, StartupProbe.FeedServiceImpl, singleton, "")
BeeHiveServiceScoped(StartupProbe.AccountService, StartupProbe.AccountServiceImpl, singleton, "")
BeeHiveService(StartupProbe.SearchService, StartupProbe.SearchServiceImpl)
BeeHiveService(StartupProbe.MessagesService, StartupProbe.MessagesServiceImpl)
BeeHiveService(StartupProbe.SettingsService, StartupProbe.SettingsServiceImpl)
BeeHiveServiceScoped(StartupProbe.ClockService, StartupProbe.ClockServiceImpl, weak, "")

BeeHiveRoute("/feed", StartupProbe.FeedPage)
BeeHiveRoute("/feed/:id", StartupProbe.FeedItemPage)
BeeHiveRoute("/account/:user", StartupProbe.AccountPage)
BeeHiveRoute("/search/*", StartupProbe.SearchPage)
BeeHiveRoute("/messages(/:thread)", StartupProbe.MessagesPage)
BeeHiveRouteScoped("/settings/:section", StartupProbe.SettingsPage, "probe", 5)

int startup_annotations_count(void) { return 18; }
