/* The Account feature's annotations: discovery finds them in the ShopApp executable before main. */
#include <beehive.h>

/* A basic-level module: it starts before every normal one. */
BeeHiveModule(Account.AccountModule, basic, 100, sync)
/* One session for the whole app: Cart's login guard, Home and the Reviews plugin share it. */
BeeHiveServiceScoped(ShopInterfaces.AccountService, Account.AccountStore, singleton, "")
BeeHiveRoute("/login", Account.LoginPage)
