/// An amount of money in cents, so that totals add up exactly.
public struct Price: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let cents: Int

    public init(cents: Int) {
        self.cents = cents
    }

    public static let zero = Price(cents: 0)

    public static func + (lhs: Price, rhs: Price) -> Price { Price(cents: lhs.cents + rhs.cents) }
    public static func * (lhs: Price, rhs: Int) -> Price { Price(cents: lhs.cents * rhs) }
    public static func < (lhs: Price, rhs: Price) -> Bool { lhs.cents < rhs.cents }

    public var description: String {
        let cents = abs(self.cents) % 100
        return "\(self.cents < 0 ? "-" : "")$\(abs(self.cents) / 100).\(cents < 10 ? "0" : "")\(cents)"
    }
}
