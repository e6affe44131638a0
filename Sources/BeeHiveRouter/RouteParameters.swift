/// What a handler receives: the route's variables, the query and fragment parameters, the caller's values and
/// the keys the router reserves (pattern, URL, scheme and, for `*` routes, the wildcard components).
///
/// When a key appears in several places, the caller's value beats the route variable, which beats the query
/// parameter; reserved keys beat everything. A query key given several times holds every value, in order.
public struct RouteParameters: Sendable, CustomStringConvertible {
    public enum Value: Sendable, CustomStringConvertible {
        case string(String)
        /// A query key given several times (`?id=1&id=2`), or the wildcard components.
        case strings([String])
        /// A value the caller passed that is not a string.
        case object(any Sendable)

        /// Wraps a caller's value: strings and string arrays keep their string form.
        public init(_ value: any Sendable) {
            switch value {
            case let value as Value: self = value
            case let string as String: self = .string(string)
            case let strings as [String]: self = .strings(strings)
            default: self = .object(value)
            }
        }

        /// The string, or the first of several strings.
        public var string: String? {
            switch self {
            case .string(let string): string
            case .strings(let strings): strings.first
            case .object(let object): object as? String
            }
        }

        /// Every string: one for a single value, none for an object.
        public var strings: [String] {
            switch self {
            case .string(let string): [string]
            case .strings(let strings): strings
            case .object(let object): (object as? [String]) ?? []
            }
        }

        public var description: String {
            switch self {
            case .string(let string): string.debugDescription
            case .strings(let strings): strings.description
            case .object(let object): String(describing: object)
            }
        }
    }

    /// Keys the router sets on every match; routes cannot declare variables with these names.
    public enum ReservedKey {
        /// The pattern of the matched route, as registered.
        public static let pattern = "BeeHiveRoutePattern"
        /// The URL that was routed, as given.
        public static let url = "BeeHiveRouteURL"
        /// The scheme of the table the route lives in, or ``RouteParameters/globalScheme``.
        public static let scheme = "BeeHiveRouteScheme"
        /// The components a `*` matched, possibly none.
        public static let wildcardComponents = "BeeHiveRouteWildcardComponents"

        static let all: Set<String> = [pattern, url, scheme, wildcardComponents]
    }

    /// The value of ``ReservedKey/scheme`` for routes of the global table.
    public static let globalScheme = "BeeHiveGlobalRoutesScheme"

    var storage: [String: Value]

    public init() {
        storage = [:]
    }

    /// Parameters holding these values; strings and string arrays keep their string form.
    public init(_ values: [String: any Sendable]) {
        storage = values.mapValues(Value.init)
    }

    init(capacity: Int) {
        storage = Dictionary(minimumCapacity: capacity)
    }

    /// The string under `key`, or the first of its strings; nil when absent or not a string.
    public subscript(key: String) -> String? {
        storage[key]?.string
    }

    /// Every string under `key`: all the values of a repeated query key, one for a single value.
    public func strings(forKey key: String) -> [String] {
        storage[key]?.strings ?? []
    }

    public func value(forKey key: String) -> Value? {
        storage[key]
    }

    /// The caller's value under `key` when it has type `T`.
    public func value<T>(forKey key: String, as type: T.Type = T.self) -> T? {
        switch storage[key] {
        case .string(let string): string as? T
        case .strings(let strings): strings as? T
        case .object(let object): object as? T
        case nil: nil
        }
    }

    public mutating func setValue(_ value: Value?, forKey key: String) {
        storage[key] = value
    }

    /// Adds `value` under `key`, turning a repeated key into a list of every value.
    mutating func append(_ value: String, forKey key: String) {
        switch storage[key] {
        case nil: storage[key] = .string(value)
        case .string(let first): storage[key] = .strings([first, value])
        case .strings(var values):
            storage[key] = nil
            values.append(value)
            storage[key] = .strings(values)
        case .object: storage[key] = .string(value)
        }
    }

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }
    public var keys: Dictionary<String, Value>.Keys { storage.keys }
    public func contains(_ key: String) -> Bool { storage[key] != nil }

    /// The matched route's pattern, as registered.
    public var pattern: String? { self[ReservedKey.pattern] }
    /// The URL that was routed.
    public var url: String? { self[ReservedKey.url] }
    /// The scheme of the matched route's table, or ``globalScheme``.
    public var scheme: String? { self[ReservedKey.scheme] }
    /// What a `*` matched; nil when the route has no wildcard.
    public var wildcardComponents: [String]? { storage[ReservedKey.wildcardComponents]?.strings }

    public var description: String {
        "[" + storage.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
