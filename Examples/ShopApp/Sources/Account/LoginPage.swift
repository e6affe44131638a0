import BeeHive
import ShopInterfaces

/// `shop://login?user=NAME&next=URL`, declared by `BeeHiveRoute("/login", Account.LoginPage)`: signs the user
/// in (`demo` by default), then opens `next`, where the login guard sent the shopper from.
public final class LoginPage: RouteHandler {
    public init() {}

    public func handle(_ parameters: RouteParameters) -> Bool {
        guard let account = Hive.shared.services.createService(AccountService.self) else { return false }
        let user = parameters["user"] ?? "demo"
        account.signIn(user)
        Story.tell("Account", "route /login (C annotation): signed in as \(user)")
        if let next = parameters["next"] {
            Story.tell("Account", "continuing to \(next)")
            // Routed, not opened: the modules' openURL hook already hears about the URL the app opened.
            do {
                try Hive.shared.router.route(next)
            } catch {
                Story.tell("Account", "cannot open \(next): \(error)")
            }
        }
        return true
    }
}
