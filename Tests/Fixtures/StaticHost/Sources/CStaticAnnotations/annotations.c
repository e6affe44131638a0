#include <beehive.h>

BeeHiveModule(StaticApp.LedgerModule, basic, 100, async)
BeeHiveService(StaticApp.Clock, StaticApp.FixedClock)
BeeHiveRoute("/ledger/:id", StaticApp.LedgerHandler)
BeeHiveTarget(Ledger, StaticApp.LedgerTarget)
