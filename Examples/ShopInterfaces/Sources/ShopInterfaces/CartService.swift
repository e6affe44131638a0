/// The shopper's cart. Provided by the Cart module (registered in code, a singleton); used by Home.
public protocol CartService: AnyObject, Sendable {
    var lines: [CartLine] { get }
    var total: Price { get }
    /// Adds a product of the catalog; nil when there is no product with that id.
    func add(productID: Int, quantity: Int) -> CartLine?
    /// Turns the cart into an order for `customer` and empties it; nil when the cart is empty.
    func checkOut(for customer: String) -> Order?
}
