/// Why a route pattern was refused when it was registered.
public struct RoutePatternError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// The pattern is the empty string.
        case emptyPattern
        /// A `(` at this character offset is never closed.
        case unclosedGroup(offset: Int)
        /// A `)` at this character offset closes no group.
        case unopenedGroup(offset: Int)
        /// `()` at this character offset holds nothing.
        case emptyGroup(offset: Int)
        /// A component is a lone `:`.
        case emptyVariableName
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
        /// The optional groups expand to more patterns than the limit.
        case tooManyExpansions(count: Int, limit: Int)
    }

    public let pattern: String
    public let reason: Reason

    public init(pattern: String, reason: Reason) {
        self.pattern = pattern
        self.reason = reason
    }

    public var description: String {
        "invalid route pattern \"\(pattern)\": \(message)"
    }

    /// What is wrong and how to fix it.
    public var message: String {
        switch reason {
        case .emptyPattern: "the pattern is empty; use \"/\" for the root"
        case .unclosedGroup(let offset): "'(' at offset \(offset) is never closed; close the optional group with ')'"
        case .unopenedGroup(let offset): "')' at offset \(offset) closes no group; remove it or add the matching '('"
        case .emptyGroup(let offset): "the optional group at offset \(offset) is empty; remove '()'"
        case .emptyVariableName: "a variable has no name; write ':name'"
        case .duplicateVariable(let name): "the variable ':\(name)' appears twice; give each variable its own name"
        case .reservedVariableName(let name):
            "':\(name)' is a key the router reserves for every match; rename the variable"
        case .wildcardNotLast: "'*' must be the last component; remove what follows it"
        case .multipleFragments: "the pattern holds more than one '#'; keep a single fragment"
        case .queryInPattern: "patterns match paths only; remove the '?' part and read query parameters from the match"
        case .tooManyExpansions(let count, let limit):
            "its optional groups expand to \(count) patterns, more than \(limit); use fewer optional groups"
        }
    }
}
