import BeeHive
import ShopInterfaces

/// `shop://product/ID`, declared by `BeeHiveRoute("/product/:id", Catalog.ProductPage)`. Shows the product
/// and, when the Reviews plugin is loaded, its rating: a service of a plugin, used from the app.
public final class ProductPage: RouteHandler {
    public init() {}

    public func handle(_ parameters: RouteParameters) -> Bool {
        let services = Hive.shared.services
        guard let id = parameters["id"].flatMap(Int.init),
            let product = services.createService(CatalogService.self)?.product(id: id)
        else { return false }
        var rating = "no ratings (the Reviews plugin is not loaded)"
        if services.canCreateService(ReviewService.self), let reviews = services.createService(ReviewService.self) {
            rating = reviews.averageStars(of: id).map { "rated \($0) stars by the Reviews plugin" } ?? "not rated yet"
        }
        Story.tell("Catalog", "route /product/:id (C annotation): \(product), \(rating)")
        return true
    }
}
