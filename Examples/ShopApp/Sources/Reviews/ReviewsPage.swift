import BeeHive
import ShopInterfaces

/// `shop://product/ID/reviews`, declared by `BeeHiveRoute("/product/:id/reviews", Reviews.ReviewsPage)` in
/// the plugin: the app can route to it only once the plugin is loaded.
public final class ReviewsPage: RouteHandler {
    public init() {}

    public func handle(_ parameters: RouteParameters) -> Bool {
        let services = Hive.shared.services
        guard let id = parameters["id"].flatMap(Int.init),
            let product = services.createService(CatalogService.self)?.product(id: id),
            let board = services.createService(ReviewService.self)
        else { return false }
        let reviews = board.reviews(of: id)
        let quotes = reviews.map { "\($0.author) \($0.stars)*: \"\($0.text)\"" }.joined(separator: "; ")
        Story.tell("Reviews", "route /product/:id/reviews (plugin): \(product.name): \(reviews.count) reviews. \(quotes)")
        return true
    }
}
