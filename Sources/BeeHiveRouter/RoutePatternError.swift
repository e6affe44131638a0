/// Why a route pattern was refused when it was registered.
public struct RoutePatternError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// A `(` at this offset (in Unicode scalars) is never closed.
        case unclosedGroup(offset: Int)
        /// A `)` at this offset (in Unicode scalars) closes no group.
        case unopenedGroup(offset: Int)
        /// `()` at this offset (in Unicode scalars) holds nothing.
        case emptyGroup(offset: Int)
        /// The same variable appears twice in one expansion of the pattern.
        case duplicateVariable(name: String)
        /// The variable would hide one of the keys the router adds to every match.
        case reservedVariableName(name: String)
        /// `*` is followed by more components.
        case wildcardNotLast
        /// The pattern holds more than one `#`.
        case multipleFragments
        /// The pattern holds a `?`, which no path can contain.
        case queryInPattern
        /// The optional groups expand to more patterns than ``RoutePattern/maximumExpansionCount`` (`limit`);
        /// `count` saturates at `Int.max`.
        case tooManyExpansions(count: Int, limit: Int)
    }

    public let pattern: String
    public let reason: Reason

    package init(pattern: String, reason: Reason) {
        self.pattern = pattern
        self.reason = reason
    }

    public var description: String {
        "invalid route pattern \"\(pattern)\": \(message)"
    }

    /// What is wrong and how to fix it.
    public var message: String {
        switch reason {
        case .unclosedGroup(let offset): "'(' at offset \(offset) is never closed; close the optional group with ')'"
        case .unopenedGroup(let offset): "')' at offset \(offset) closes no group; remove it or add the matching '('"
        case .emptyGroup(let offset): "the optional group at offset \(offset) is empty; remove '()'"
        case .duplicateVariable(let name): "the variable ':\(name)' appears twice; give each variable its own name"
        case .reservedVariableName(let name):
            "':\(name)' is a key the router reserves for every match; rename the variable"
        case .wildcardNotLast: "'*' must be the last component; remove what follows it"
        case .multipleFragments: "the pattern holds more than one '#'; keep a single fragment"
        case .queryInPattern: "patterns match paths only; remove the '?' part and read query parameters from the match"
        case .tooManyExpansions(let count, let limit):
            "its optional groups expand to \(count == Int.max ? "too many" : String(count)) patterns, more than the limit "
                + "RoutePattern.maximumExpansionCount (\(limit)); use fewer or less deeply nested optional groups"
        }
    }
}
