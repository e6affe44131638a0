import BeeHive
import ShopInterfaces

/// What the shop suggests on the home screen.
public struct Recommendations: Sendable {
    public let productNames: [String]
}

/// An asynchronous module: its setUp registers a service whose factory is `async`, and its init awaits that
/// service once the catalog's async init has loaded the products. Home registers it from its own setUp, so it
/// catches up on the launch.
public final class RecommendationsModule: AsyncModule {
    public static var dependencies: [ModuleDependency] { ["Catalog.CatalogModule"] }

    public init() {}

    public func setUp(_ context: ModuleContext) throws {
        Hive.shared.services.register(Recommendations.self, scope: .singleton) { resolver, _ in
            // Stands for a call to a recommendation engine.
            try await Task.sleep(for: .milliseconds(5))
            let products = resolver.createService(CatalogService.self)?.products ?? []
            return Recommendations(productNames: products.prefix(2).map(\.name))
        }
        Story.tell("Recommendations", "setUp: registers a service with an async factory")
    }

    public func initialize(_ context: ModuleContext) async throws {
        let recommendations = try await Hive.shared.services.resolveAsync(Recommendations.self)
        Story.tell(
            "Recommendations", "init (async): awaited its service, suggests \(recommendations.productNames.count) products")
    }

    public func tearDown(_ context: ModuleContext) async throws {
        Story.tell("Recommendations", "tearDown (async)")
    }
}
