/* A misspelt type name: compiles and links, and only `beehive lint` (or the run) can tell. */
#include <beehive.h>

BeeHiveMod(Broken.CartModuel)
BeeHiveService(Broken.PaymentService, Broken.PaymentServiceImpl)
