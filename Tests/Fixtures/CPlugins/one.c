#include <beehive.h>

BeeHiveMod(CPluginOne.Module)
BeeHiveService(CPluginOne.Protocol, CPluginOne.Service)
BeeHiveRouteScoped("/one/:id", CPluginOne.Handler, "plugin", 1)
