#include <beehive.h>

BeeHiveService(OnlyServices.LogProtocol, OnlyServices.LogService)
BeeHiveServiceScoped(OnlyServices.ClockProtocol, OnlyServices.SystemClock, singleton, "")
