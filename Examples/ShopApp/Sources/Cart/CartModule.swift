import BeeHive
import ShopInterfaces

/// The cart and the checkout. Listed in the app's modules.plist; it depends on the Catalog module, so its
/// init waits for the catalog's asynchronous init. Its routes, its service and its login guard are registered
/// in code.
public final class CartModule: Module {
    public static var dependencies: [ModuleDependency] { ["Catalog.CatalogModule"] }

    public init() {}

    public func setUp(_ context: ModuleContext) throws {
        let hive = Hive.shared
        hive.services.register(CartService.self, scope: .singleton) { resolver, _ in
            CartStore(catalog: try resolver.resolve(CatalogService.self))
        }
        try hive.router.addRoute("/cart/add") { parameters in
            Self.add(parameters)
        }
        try hive.router.addRoute("/cart/checkout") { _ in
            Self.checkOut()
        }
        try hive.router.addRoute("/cart") { _ in
            guard let cart = Hive.shared.services.createService(CartService.self) else { return false }
            Story.tell("Cart", "route /cart (code): \(cart.lines.count) lines, total \(cart.total)")
            return true
        }
        hive.router.addInterceptor(LoginGuard())
        Story.tell("Cart", "setUp: normal level, priority 10 (configuration file), after Catalog; registers CartService, routes /cart/... and the login guard")
    }

    public func initialize(_ context: ModuleContext) throws {
        let products = try Hive.shared.services.resolve(CatalogService.self).products.count
        Story.tell("Cart", "init: ran after Catalog's async init (\(products) products to sell)")
    }

    public func splash(_ context: ModuleContext) throws {
        Story.tell("Cart", "splash")
    }

    public func willTerminate(_ context: ModuleContext) throws {
        let lines = try Hive.shared.services.resolve(CartService.self).lines.count
        Story.tell("Cart", "willTerminate: \(lines) cart lines saved")
    }

    public func tearDown(_ context: ModuleContext) throws {
        Story.tell("Cart", "tearDown")
    }

    /// `shop://cart/add?item=ID[&quantity=N]`
    private static func add(_ parameters: RouteParameters) -> Bool {
        guard let cart = Hive.shared.services.createService(CartService.self),
            let id = parameters["item"].flatMap(Int.init)
        else { return false }
        let quantity = parameters["quantity"].flatMap(Int.init) ?? 1
        guard let line = cart.add(productID: id, quantity: quantity) else {
            Story.tell("Cart", "route /cart/add (code): no product #\(id)")
            return true
        }
        Story.tell("Cart", "route /cart/add (code): \(line.quantity) x \(line.product.name); cart total \(cart.total)")
        return true
    }

    /// `shop://cart/checkout`: the login guard lets only signed-in shoppers through.
    private static func checkOut() -> Bool {
        let services = Hive.shared.services
        guard let cart = services.createService(CartService.self),
            let customer = services.createService(AccountService.self)?.currentUser
        else { return false }
        guard let order = cart.checkOut(for: customer) else {
            Story.tell("Cart", "route /cart/checkout (code): the cart is empty")
            return true
        }
        Story.tell("Cart", "route /cart/checkout (code): placed \(order); triggering orderPlaced (\(ShopEvents.orderPlaced))")
        do {
            try Hive.shared.modules.trigger(ShopEvents.orderPlaced, customParameter: order)
        } catch {
            Story.tell("Cart", "orderPlaced was not delivered: \(error)")
        }
        return true
    }
}
