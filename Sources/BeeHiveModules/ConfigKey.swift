/// A typed key into a `ConfigStore`: `static let timeout = ConfigKey<Double>("shop.timeout")`.
public struct ConfigKey<Value: Sendable>: Sendable, Hashable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public var description: String { "\(name): \(Value.self)" }
}
