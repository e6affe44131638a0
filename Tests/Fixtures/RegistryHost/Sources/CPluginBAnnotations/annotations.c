#include <beehive.h>

BeeHiveMod(PluginB.FarewellModule)
BeeHiveRoute("/farewell", PluginB.FarewellHandler)
