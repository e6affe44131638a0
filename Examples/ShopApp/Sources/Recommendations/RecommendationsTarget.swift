import BeeHive
import ShopInterfaces

/// The mediator target `Recommendations`, declared by `BeeHiveTarget(Recommendations,
/// Recommendations.RecommendationsTarget)` in the plugin libRecommendations.so of the plugins folder: the
/// app's first `perform` on it loads the plugin.
public final class RecommendationsTarget: MediatorTarget {
    public enum Action: String {
        /// The other products, cheapest first; parameter `id`, the product being looked at.
        case forProduct
    }

    public init() {}

    public func perform(_ action: Action, parameters: RouteParameters) throws -> (any Sendable)? {
        switch action {
        case .forProduct:
            let id = parameters["id"].flatMap(Int.init)
            let products = Hive.shared.services.createService(CatalogService.self)?.products ?? []
            let others = products.filter { $0.id != id }.sorted { $0.price < $1.price }.prefix(2).map(\.name)
            Story.tell("Recommendations", "target Recommendations.forProduct (plugin from the folder): \(others.joined(separator: ", "))")
            return others
        }
    }
}
