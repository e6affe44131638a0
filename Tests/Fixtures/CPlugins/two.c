#include <beehive.h>

BeeHiveModule(CPluginTwo.Module, basic, 7, async)
BeeHiveTarget(Two, CPluginTwo.Target)
