/// The arguments of one lookup, for factories and initializers that create a service with parameters.
///
/// Positional, named, or both: `["userID": 42]`, `[42, "guest"]`, `ServiceArguments([42], named: ["mode": "x"])`.
/// Cached scopes (singleton, named, weak) use the arguments of the lookup that creates the instance.
public struct ServiceArguments: Sendable, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public static let none = ServiceArguments([], named: [:])

    public var positional: [any Sendable]
    public var named: [String: any Sendable]
    /// The service being created, for error messages; set by the manager.
    var service = ""

    public init(_ positional: [any Sendable] = [], named: [String: any Sendable] = [:]) {
        self.positional = positional
        self.named = named
    }

    public init(arrayLiteral elements: any Sendable...) {
        self.init(elements)
    }

    public init(dictionaryLiteral elements: (String, any Sendable)...) {
        self.init(named: Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    public var isEmpty: Bool { positional.isEmpty && named.isEmpty }

    /// The positional argument at `index`, of type `type`.
    public func argument<Value>(at index: Int, as type: Value.Type = Value.self) throws(ServiceError) -> Value {
        guard positional.indices.contains(index) else {
            throw ServiceError(.missingArgument(service: service, argument: .position(index)))
        }
        return try cast(positional[index], argument: .position(index))
    }

    /// The argument named `name`, of type `type`.
    public func argument<Value>(_ name: String, as type: Value.Type = Value.self) throws(ServiceError) -> Value {
        guard let value = named[name] else {
            throw ServiceError(.missingArgument(service: service, argument: .name(name)))
        }
        return try cast(value, argument: .name(name))
    }

    private func cast<Value>(_ value: any Sendable, argument: ServiceArgument) throws(ServiceError) -> Value {
        guard let typed = value as? Value else {
            throw ServiceError(
                .argumentTypeMismatch(
                    service: service, argument: argument, expected: String(reflecting: Value.self),
                    actual: String(reflecting: type(of: value))))
        }
        return typed
    }
}
