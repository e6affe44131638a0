import BeeHive
import BeeHiveHummingbird

/// The plugin's HTTP module, on-demand (see CReviewsAnnotations): the server loads libReviews.so on the first
/// request to /reviews, then this module answers it.
public final class ReviewsModule: HTTPModule {
    public static var httpPath: String { "/reviews" }

    public init() {}

    public func addRoutes<Context: RequestContext>(to routes: RouterGroup<Context>) {
        routes.get(":item") { _, context in
            let item = try context.parameters.require("item")
            return "\(item): ★★★★☆ \"crisp\" (from the Reviews plugin)\n"
        }
    }
}
