import BeeHive
import ShopInterfaces

/// The reviews, declared by `BeeHiveService(ShopInterfaces.ReviewService, Reviews.ReviewBoard)`: a new board
/// for every lookup (transient scope), all reading the same reviews.
public final class ReviewBoard: ReviewService, SimpleServiceImplementation {
    private static let all = [
        Review(productID: 42, author: "ana", stars: 5, text: "Opens every frame."),
        Review(productID: 42, author: "li", stars: 4, text: "Sharp edge, handle with care."),
        Review(productID: 7, author: "sam", stars: 5, text: "Tastes of lime blossom."),
    ]

    public init() {}

    public func reviews(of productID: Int) -> [Review] {
        Self.all.filter { $0.productID == productID }
    }

    public func averageStars(of productID: Int) -> Double? {
        let stars = reviews(of: productID).map(\.stars)
        guard !stars.isEmpty else { return nil }
        return Double(stars.reduce(0, +)) / Double(stars.count)
    }
}
