#include <beehive.h>

BeeHiveModule(ShippingApp.GreeterModule, basic, 100, async)
BeeHiveService(ShippingApp.Greeting, ShippingApp.EnglishGreeting)
BeeHiveRoute("/greet/:name", ShippingApp.GreetHandler)
