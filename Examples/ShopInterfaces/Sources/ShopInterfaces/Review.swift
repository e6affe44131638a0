/// A customer's opinion of a product.
public struct Review: Sendable, Hashable {
    public let productID: Int
    public let author: String
    public let stars: Int
    public let text: String

    public init(productID: Int, author: String, stars: Int, text: String) {
        self.productID = productID
        self.author = author
        self.stars = stars
        self.text = text
    }
}
