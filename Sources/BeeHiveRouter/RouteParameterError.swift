/// Why a match's parameters could not be decoded into a typed route.
public struct RouteParameterError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// No parameter has this name: the pattern has no such variable and the URL no such query item.
        case missing
        /// The parameter's text does not read as the expected type.
        case mistyped(expected: String, value: String)
        /// The type asks for something parameters cannot hold, such as a nested structure.
        case unsupported(String)
    }

    /// The parameter's name (for a list, the name and the position: `tag[1]`).
    public let parameter: String
    /// The type being decoded.
    public let type: String
    public let reason: Reason

    package init(parameter: String, type: String, reason: Reason) {
        self.parameter = parameter
        self.type = type
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .missing:
            "\(type): parameter \"\(parameter)\" is missing; add ':\(parameter)' to the pattern, pass it in the query, "
                + "or make the property optional"
        case .mistyped(let expected, let value):
            "\(type): parameter \"\(parameter)\" is \(value.debugDescription), not a valid \(expected); "
                + "fix the URL or declare the property with a type that reads this text"
        case .unsupported(let what):
            "\(type): parameter \"\(parameter)\" cannot be decoded: \(what); use strings, numbers, booleans, "
                + "types decoded from one of them, or arrays of them"
        }
    }
}
