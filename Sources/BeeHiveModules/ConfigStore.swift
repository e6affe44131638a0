import BeeHiveLocks

/// Shared settings for modules, read and written through typed keys (BeeHive's `BHConfig`).
///
/// A value read through a key of another type than the one it was stored with reads as nil. Values replaced or
/// removed are released after the store's lock is let go, so a value's deinit may use the store.
public final class ConfigStore: Sendable {
    private let values: Locked<[String: any Sendable]>

    public init(_ values: [String: any Sendable] = [:]) {
        self.values = Locked(values)
    }

    public subscript<Value>(key: ConfigKey<Value>) -> Value? {
        get { values.withLock { $0[key.name] as? Value } }
        set {
            // The value replaced is returned, to be released outside the lock.
            _ = values.withLock { values in
                if let newValue { values.updateValue(newValue, forKey: key.name) } else { values.removeValue(forKey: key.name) }
            }
        }
    }

    /// The value, or `defaultValue` when it is unset or of another type.
    public func value<Value>(for key: ConfigKey<Value>, default defaultValue: Value) -> Value {
        self[key] ?? defaultValue
    }

    /// Stores every value of `dictionary` under its key, replacing existing values.
    public func merge(_ dictionary: [String: any Sendable]) {
        _ = values.withLock { values in dictionary.compactMap { values.updateValue($0.value, forKey: $0.key) } }
    }

    public func removeValue<Value>(for key: ConfigKey<Value>) {
        _ = values.withLock { $0.removeValue(forKey: key.name) }
    }

    public func removeAll() {
        _ = values.withLock { values in
            defer { values = [:] }
            return values
        }
    }

    /// The names of the stored values, sorted.
    public var keys: [String] {
        values.withLock { $0.keys.sorted() }
    }
}
