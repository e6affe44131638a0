#include <beehive.h>

BeeHiveMod(PluginA.GreeterModule)
BeeHiveServiceScoped(PluginA.GreetingProtocol, PluginA.GreetingService, singleton, "")
BeeHiveRoute("/greet/:name", PluginA.GreetHandler)
