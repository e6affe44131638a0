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

    /// The values set by the caller or later, reserved keys included: a reserved key set here holds a string
    /// (a list of strings for the wildcard components). While `matched` is set, its reserved values win over
    /// these and its route variables and query items lose to them.
    private var storage: [String: Value]
    /// The match's reserved values, route variables, query items and wildcard, decoded when asked for. Any change
    /// to the parameters first merges them into `storage`. Held inline, so that a match allocates nothing.
    private var matched: MatchedURL?

    /// The pattern of the matched route, as registered.
    public var pattern: String? { reservedValue(ReservedKey.pattern)?.string }
    /// The URL that was routed, as given.
    public var url: String? { reservedValue(ReservedKey.url)?.string }
    /// The scheme of the matched route's table, or ``globalScheme``.
    public var scheme: String? { reservedValue(ReservedKey.scheme)?.string }

    /// What a `*` matched; nil when the route has no wildcard.
    public var wildcardComponents: [String]? {
        reservedValue(ReservedKey.wildcardComponents)?.strings
    }

    public init() {
        // Not `[:]`: the literal called an initializer on every routing call.
        storage = Dictionary()
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
        case ReservedKey.pattern, ReservedKey.url, ReservedKey.scheme, ReservedKey.wildcardComponents: reservedValue(key)
        default: (storage.isEmpty ? nil : storage[key]) ?? matched?.value(forKey: key)
        }
    }

    /// A reserved key's value: the match's while there is one, else the stored one.
    private func reservedValue(_ key: String) -> Value? {
        guard let matched else { return storage.isEmpty ? nil : storage[key] }
        switch key {
        case ReservedKey.pattern: return .string(matched.template.pattern.text)
        case ReservedKey.url: return .string(matched.text)
        case ReservedKey.scheme: return .string(matched.scheme)
        default: return matched.wildcardComponents.map(Value.strings)
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
        case ReservedKey.pattern, ReservedKey.url, ReservedKey.scheme: storage[key] = value?.string.map(Value.string)
        case ReservedKey.wildcardComponents: storage[key] = value.map { .strings($0.strings) }
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

    /// Adds a match to the caller's values: the values read from the URL and the reserved keys.
    mutating func setMatch(_ matched: consuming MatchedURL) {
        self.matched = matched
    }

    /// Points the match at the next candidate, after a handler declined; the URL stays.
    mutating func retargetMatch(_ candidate: RouteCandidate) {
        matched!.retarget(candidate)
    }

    /// Removes the match and gives back its URL's text.
    mutating func takeMatchedText() -> String? {
        guard let matched = matched.take() else { return nil }
        return matched.text
    }

    /// Whether a match is held, its values not merged into the stored ones.
    var hasMatch: Bool {
        if case .some = matched { return true }
        return false
    }

    /// The route of the match, while its values are not merged into the stored ones.
    var matchedTemplate: RouteTemplate? { matched?.template }

    /// Every value, reserved ones included: the stored values over the match's variables and query items, and
    /// the match's reserved values over everything.
    private var mergedStorage: [String: Value] {
        guard let matched else { return storage }
        var merged = matched.values.merging(storage) { _, stored in stored }
        merged[ReservedKey.pattern] = .string(matched.template.pattern.text)
        merged[ReservedKey.url] = .string(matched.text)
        merged[ReservedKey.scheme] = .string(matched.scheme)
        merged[ReservedKey.wildcardComponents] = matched.wildcardComponents.map(Value.strings)
        return merged
    }

    private mutating func mergeMatchedValues() {
        guard matched != nil else { return }
        storage = mergedStorage
        matched = nil
    }

    /// How many keys hold a value, reserved keys included.
    public var count: Int { mergedStorage.count }

    public var isEmpty: Bool { count == 0 }

    /// Every key that holds a value, reserved keys included, in no particular order.
    public var keys: [String] { Array(mergedStorage.keys) }

    public func contains(_ key: String) -> Bool { value(forKey: key) != nil }

    public var description: String {
        "[" + keys.sorted().map { "\($0): \(value(forKey: $0)!)" }.joined(separator: ", ") + "]"
    }
}
