/// A product in the cart and how many of it.
public struct CartLine: Sendable, Hashable {
    public let product: Product
    public let quantity: Int

    public init(product: Product, quantity: Int) {
        self.product = product
        self.quantity = quantity
    }

    public var total: Price { product.price * quantity }
}
