/// An app-defined event. Values below 1000 belong to the framework, as in BeeHive.
public struct CustomEvent: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The smallest value a custom event may take.
    public static let minimumValue = 1000

    public let value: Int

    /// - Throws: `ModuleError.invalidCustomEvent` when `value` is below 1000.
    public init(_ value: Int) throws(ModuleError) {
        guard value >= Self.minimumValue else { throw .invalidCustomEvent(value) }
        self.value = value
    }

    /// The custom event `minimumValue + offset`: always valid, so a constant needs no `try`.
    ///
    ///     static let orderPlaced = CustomEvent(offset: 1)   // 1001
    public init(offset: UInt16) {
        value = Self.minimumValue + Int(offset)
    }

    public static func < (lhs: CustomEvent, rhs: CustomEvent) -> Bool { lhs.value < rhs.value }

    public var description: String { "custom(\(value))" }
}
