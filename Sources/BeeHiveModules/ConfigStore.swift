import BeeHiveLocks

/// Shared settings for modules, read and written through typed keys (BeeHive's `BHConfig`).
///
/// A value read through a key of another type than the one it was stored with reads as nil.
public final class ConfigStore: Sendable {
    private let values: Locked<[String: any Sendable]>

    public init(_ values: [String: any Sendable] = [:]) {
        self.values = Locked(values)
    }

    public subscript<Value>(key: ConfigKey<Value>) -> Value? {
        get { values.withLock { $0[key.name] as? Value } }
        set { values.withLock { $0[key.name] = newValue } }
    }

    /// The value, or `defaultValue` when it is unset or of another type.
    public func value<Value>(for key: ConfigKey<Value>, default defaultValue: Value) -> Value {
        self[key] ?? defaultValue
    }

    /// Stores every value of `dictionary` under its key, replacing existing values.
    public func merge(_ dictionary: [String: any Sendable]) {
        values.withLock { $0.merge(dictionary) { _, new in new } }
    }

    public func removeValue<Value>(for key: ConfigKey<Value>) {
        values.withLock { _ = $0.removeValue(forKey: key.name) }
    }

    public func removeAll() {
        values.withLock { $0.removeAll() }
    }

    /// The names of the stored values, sorted.
    public var keys: [String] {
        values.withLock { $0.keys.sorted() }
    }
}
