#include <beehive.h>

BeeHiveMod(HostCore.AppModule)
BeeHiveModule(HostCore.LaunchModule, basic, -5, sync)
BeeHiveService(HostCore.SettingsProtocol, HostCore.SettingsService)
BeeHiveRoute("/settings", HostCore.SettingsHandler)
