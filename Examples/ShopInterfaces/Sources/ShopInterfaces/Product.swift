/// An item the catalog sells.
public struct Product: Sendable, Hashable, Identifiable, CustomStringConvertible {
    public let id: Int
    public let name: String
    public let price: Price

    public init(id: Int, name: String, price: Price) {
        self.id = id
        self.name = name
        self.price = price
    }

    public var description: String { "#\(id) \(name) (\(price))" }
}
