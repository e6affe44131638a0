import BeeHive
import BeeHiveHummingbird

/// What the shop has in stock: a service of the hive, registered in code by the server.
protocol Inventory: Sendable {
    func count(of item: String) -> Int?
}

struct FixedInventory: Inventory {
    func count(of item: String) -> Int? { ["apple": 12, "pear": 0, "plum": 5][item] }
}

/// A module linked into the server: its routes are mounted under /catalog when the host has started.
final class CatalogModule: HTTPModule {
    static var httpPath: String { "/catalog" }

    init() {}

    func addRoutes<Context: RequestContext>(to routes: RouterGroup<Context>) {
        routes.get("items") { _, _ in "apple, pear, plum\n" }
        routes.get("items/:name") { _, context in
            let inventory = Injected<any Inventory>()
            let name = try context.parameters.require("name")
            guard let count = try inventory.resolve().count(of: name) else { throw HTTPError(.notFound) }
            return "\(name): \(count) in stock\n"
        }
    }
}
