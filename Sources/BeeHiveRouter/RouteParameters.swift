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

    /// Every value but the reserved ones and the match's, which live in their own fields so that a match
    /// builds no dictionary at all. Values here (the caller's, or set later) beat the match's.
    private(set) var storage: [String: Value]
    /// The match's route variables, query items and wildcard, decoded when asked for. Any change to the
    /// parameters first merges them into `storage`.
    private var matched: MatchedURL?
    public private(set) var pattern: String?
    public private(set) var url: String?
    /// The scheme of the matched route's table, or ``globalScheme``.
    public private(set) var scheme: String?
    private var storedWildcardComponents: [String]?

    /// What a `*` matched; nil when the route has no wildcard.
    public var wildcardComponents: [String]? {
        matched?.wildcardComponents ?? storedWildcardComponents
    }

    public init() {
        storage = [:]
    }

    /// Parameters holding these values; strings and string arrays keep their string form.
    public init(_ values: [String: any Sendable]) {
        self.init()
        for (key, value) in values { setValue(Value(value), forKey: key) }
    }

    /// The string under `key`, or the first of its strings; nil when absent or not a string.
    public subscript(key: String) -> String? {
        value(forKey: key)?.string
    }

    /// Every string under `key`: all the values of a repeated query key, one for a single value.
    public func strings(forKey key: String) -> [String] {
        value(forKey: key)?.strings ?? []
    }

    public func value(forKey key: String) -> Value? {
        switch key {
        case ReservedKey.pattern: pattern.map(Value.string)
        case ReservedKey.url: url.map(Value.string)
        case ReservedKey.scheme: scheme.map(Value.string)
        case ReservedKey.wildcardComponents: wildcardComponents.map(Value.strings)
        default: (storage.isEmpty ? nil : storage[key]) ?? matched?.value(forKey: key)
        }
    }

    /// The value under `key` when it has type `T`.
    public func value<T>(forKey key: String, as type: T.Type = T.self) -> T? {
        switch value(forKey: key) {
        case .string(let string): string as? T
        case .strings(let strings): strings as? T
        case .object(let object): object as? T
        case nil: nil
        }
    }

    /// Sets or removes a value; a reserved key takes only a string (a list of strings for the wildcard
    /// components).
    public mutating func setValue(_ value: Value?, forKey key: String) {
        mergeMatchedValues()
        switch key {
        case ReservedKey.pattern: pattern = value?.string
        case ReservedKey.url: url = value?.string
        case ReservedKey.scheme: scheme = value?.string
        case ReservedKey.wildcardComponents: storedWildcardComponents = value?.strings
        default: storage[key] = value
        }
    }

    /// Adds `value` under `key`, turning a repeated key into a list of every value. Reserved keys are left to
    /// the router.
    mutating func append(_ value: String, forKey key: String) {
        mergeMatchedValues()
        Self.append(value, forKey: key, to: &storage)
    }

    static func append(_ value: String, forKey key: String, to storage: inout [String: Value]) {
        guard !ReservedKey.all.contains(key) else { return }
        switch storage[key] {
        case nil, .object: storage[key] = .string(value)
        case .string(let first): storage[key] = .strings([first, value])
        case .strings(var values):
            storage[key] = nil
            values.append(value)
            storage[key] = .strings(values)
        }
    }

    /// The parameters of a match when the caller passed none.
    init(matched: MatchedURL?, pattern: String, url: String, scheme: String) {
        storage = Dictionary()
        self.matched = matched
        self.pattern = pattern
        self.url = url
        self.scheme = scheme
    }

    /// Sets what a match adds to the caller's values: the values read from the URL and the reserved keys.
    mutating func setMatch(_ matched: MatchedURL?, pattern: String, url: String, scheme: String) {
        self.matched = matched
        self.pattern = pattern
        self.url = url
        self.scheme = scheme
        storedWildcardComponents = nil
    }

    /// The stored values over the match's.
    private var mergedStorage: [String: Value] {
        guard let matched else { return storage }
        return matched.values.merging(storage) { _, stored in stored }
    }

    private mutating func mergeMatchedValues() {
        guard let matched else { return }
        storage = mergedStorage
        storedWildcardComponents = matched.wildcardComponents
        self.matched = nil
    }

    /// How many keys hold a value, reserved keys included.
    public var count: Int {
        mergedStorage.count + (pattern == nil ? 0 : 1) + (url == nil ? 0 : 1) + (scheme == nil ? 0 : 1)
            + (wildcardComponents == nil ? 0 : 1)
    }

    public var isEmpty: Bool { count == 0 }

    /// Every key that holds a value, reserved keys included, in no particular order.
    public var keys: [String] {
        var keys = Array(mergedStorage.keys)
        if pattern != nil { keys.append(ReservedKey.pattern) }
        if url != nil { keys.append(ReservedKey.url) }
        if scheme != nil { keys.append(ReservedKey.scheme) }
        if wildcardComponents != nil { keys.append(ReservedKey.wildcardComponents) }
        return keys
    }

    public func contains(_ key: String) -> Bool { value(forKey: key) != nil }

    public var description: String {
        "[" + keys.sorted().map { "\($0): \(value(forKey: $0)!)" }.joined(separator: ", ") + "]"
    }
}
