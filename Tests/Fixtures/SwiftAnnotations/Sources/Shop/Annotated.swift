import BeeHive
import BeeHiveAnnotations

/// What the fixture creates from every annotated type, to show it was found and instantiated.
protocol Creatable {
    init()
    var summary: String { get }
}

protocol HomeService {
    func greeting() -> String
}

protocol PaymentService {
    func pay(_ amount: Int) -> String
}

// Annotated in C (annotations.c).

final class CartModule: Module, Creatable {
    init() {}
    var summary: String { "cart module" }
}

final class PaymentServiceImpl: PaymentService, SimpleServiceImplementation, Creatable {
    init() {}
    func pay(_ amount: Int) -> String { "paid \(amount)" }
    var summary: String { pay(3) }
}

final class CartRouteHandler: RouteHandler, Creatable {
    init() {}
    func handle(_ parameters: RouteParameters) -> Bool { true }
    var summary: String { "cart route" }
}

// Annotated in Swift.

@BeeHiveModule(level: .normal, priority: 5, async: true)
final class ShopModule: Module, Creatable {
    init() {}
    var summary: String { "shop module" }
}

enum Checkout {
    /// A nested class: its record holds the mangled name 4Shop8CheckoutO10FlowModuleC.
    @BeeHiveModule(priority: -1)
    final class FlowModule: Module, Creatable {
        init() {}
        var summary: String { "checkout flow module" }
    }
}

/// A struct service: its record holds the mangled name 4Shop15HomeServiceImplV.
@BeeHiveService(HomeService.self, scope: .singleton)
struct HomeServiceImpl: HomeService, SimpleServiceImplementation, Creatable {
    func greeting() -> String { "welcome home" }
    var summary: String { greeting() }
}

extension Checkout {
    @BeeHiveRoute("/user/view/:id", scheme: "shop", priority: 2)
    struct UserRouteHandler: RouteHandler, Creatable {
        func handle(_ parameters: RouteParameters) -> Bool { true }
        var summary: String { "user route" }
    }
}
