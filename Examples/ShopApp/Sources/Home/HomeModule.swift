import BeeHive
import ShopInterfaces

/// The home screen. The app registers it in code (`hive.modules.register(HomeModule.self)`); it uses the
/// services of Catalog, Cart and Account, and hears every URL the app opens.
public final class HomeModule: Module {
    public init() {}

    public func setUp(_ context: ModuleContext) throws {
        try Hive.shared.router.addRoute("/home") { _ in
            Story.tell("Home", "route /home (code): \(Self.summary())")
            return true
        }
        try context.manager.addHandler(for: ShopEvents.orderPlaced, module: self) { context in
            guard let order = context.customParameter(as: Order.self) else { return }
            let bought = Set(order.lines.map(\.product.id))
            let next = Hive.shared.services.createService(CatalogService.self)?.products.first { !bought.contains($0.id) }
            Story.tell("Home", "\(context.event) orderPlaced: thanks \(order.customer); next time try \(next?.name ?? "nothing")")
        }
        Story.tell("Home", "setUp: normal level, priority 0 (code); registers route /home, handles orderPlaced")
    }

    public func initialize(_ context: ModuleContext) throws {
        Story.tell("Home", "init")
    }

    public func splash(_ context: ModuleContext) throws {
        // Splash comes after every init of the launch, so the catalog's async init is done.
        Story.tell("Home", "splash: home screen ready: \(Self.summary())")
    }

    public func openURL(_ context: ModuleContext) throws {
        Story.tell("Home", "openURL hook: \(context.customParameter(as: String.self) ?? "?")")
    }

    public func didReceiveUserSignal(_ context: ModuleContext) throws {
        Story.tell("Home", "\(context.event): \(Self.summary())")
    }

    public func tearDown(_ context: ModuleContext) throws {
        Story.tell("Home", "tearDown")
    }

    private static func summary() -> String {
        let services = Hive.shared.services
        let products = services.createService(CatalogService.self)?.products.count ?? 0
        let cart = services.createService(CartService.self)?.lines.reduce(0) { $0 + $1.quantity } ?? 0
        let user = services.createService(AccountService.self)?.currentUser ?? "guest"
        return "\(products) products, \(cart) items in the cart, shopper \(user)"
    }
}
