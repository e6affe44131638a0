/// A placed order: the parameter of `ShopEvents.orderPlaced`.
public struct Order: Sendable, Hashable, CustomStringConvertible {
    public let number: Int
    public let customer: String
    public let lines: [CartLine]

    public init(number: Int, customer: String, lines: [CartLine]) {
        self.number = number
        self.customer = customer
        self.lines = lines
    }

    public var total: Price { lines.reduce(.zero) { $0 + $1.total } }

    public var itemCount: Int { lines.reduce(0) { $0 + $1.quantity } }

    public var description: String { "order #\(number) for \(customer): \(itemCount) items, \(total)" }
}
