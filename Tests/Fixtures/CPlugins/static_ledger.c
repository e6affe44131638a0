/* A C plugin for StaticApp's plugin folder: it needs no Swift runtime, so a static host may load it. */
#include <beehive.h>

BeeHiveRoute("/archive/:id", StaticApp.LedgerHandler)
