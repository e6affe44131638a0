#include <beehive.h>

BeeHiveMod(Shared.TwiceModule)
BeeHiveService(Shared.TwiceProtocol, DuplicateB.TwiceService)
