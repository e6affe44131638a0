/* A misspelt type name (GreeterModul): the host's start fails, and HiveHost.main ends it with one line. */
#include <beehive.h>

BeeHiveMod(MisspeltApp.GreeterModul)
