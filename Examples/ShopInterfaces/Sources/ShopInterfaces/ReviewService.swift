/// Product reviews. Provided by the Reviews plugin (a C `BeeHiveService` annotation in libReviews.so), so it
/// exists only once the plugin is loaded: callers ask `canCreateService` first.
public protocol ReviewService: Sendable {
    func reviews(of productID: Int) -> [Review]
    /// The mean number of stars, or nil when nobody reviewed the product yet.
    func averageStars(of productID: Int) -> Double?
}
