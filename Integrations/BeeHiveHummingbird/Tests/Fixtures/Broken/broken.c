/* A plugin that claims /broken but cannot be loaded: the tests link it against a library they then delete,
   so dlopen fails on the missing dependency. */
#include <beehive.h>

BeeHiveRouteScoped("/broken/*", BeeHiveHummingbird.HTTPPathClaim, "beehive-http", 0)

extern int gone_function(void);
int broken_entry(void) { return gone_function(); }
